#ifndef PHOTOPROMPTS_STEMMER_SHIM_H
#define PHOTOPROMPTS_STEMMER_SHIM_H

// Snowball's stemmers (Debian's libstemmer-dev): "remembered", "remembering" and "remember" share one stem. A stemmer
// keeps its output in its own buffer, so one instance serves one caller at a time. Only `Stemmer` talks to it.
#include <libstemmer.h>

#endif
