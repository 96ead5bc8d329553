#ifndef PHOTOPROMPTS_THAI_SHIM_H
#define PHOTOPROMPTS_THAI_SHIM_H

// libthai (Debian's libthai-dev) splits Thai, which writes no spaces between words, by its dictionary; libdatrie
// (libdatrie-dev) looks a word up in that same dictionary, thbrk.tri. Only `ThaiDictionary` talks to them.
#include <thai/thbrk.h>
#include <thai/thwbrk.h>
#include <datrie/trie.h>

#endif
