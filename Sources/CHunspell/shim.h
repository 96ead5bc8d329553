#ifndef PHOTOPROMPTS_HUNSPELL_SHIM_H
#define PHOTOPROMPTS_HUNSPELL_SHIM_H

// Hunspell's C interface (Debian's libhunspell-dev): a dictionary is an .aff and a .dic file; Hunspell_spell says
// whether it knows a word, with its affixes and compounds. Only `SpellingDictionary` talks to it.
#include <hunspell/hunspell.h>

#endif
