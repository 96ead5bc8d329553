#ifndef PHOTOPROMPTS_MECAB_SHIM_H
#define PHOTOPROMPTS_MECAB_SHIM_H

// MeCab's C interface (Debian's libmecab-dev), with IPAdic (mecab-ipadic-utf8): it splits Japanese into the words
// its dictionary lists, and marks a stretch it cannot as an unknown node. Only `MorphemeDictionary` talks to it.
#include <mecab.h>

#endif
