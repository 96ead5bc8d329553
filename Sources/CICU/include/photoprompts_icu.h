#ifndef PHOTOPROMPTS_ICU_H
#define PHOTOPROMPTS_ICU_H

#include <stdint.h>

/// The number of words ICU's word-break iterator finds in `text` (UTF-16, `length` code units) under the rules of
/// `locale`: segments with letters, numbers, kana or ideographs, not spaces or punctuation. -1 if ICU cannot open
/// an iterator (its data missing).
///
/// Only plain C types cross into Swift: the toolchain's Foundation carries its own copy of ICU's headers
/// (_FoundationICU), and Swift refuses a module that sees both definitions of UErrorCode.
int32_t photoprompts_icu_count_words(const uint16_t *text, int32_t length, const char *locale);

/// The words ICU's word-break iterator finds in `text`, as UTF-16 offsets: word i runs from `bounds[2i]` to
/// `bounds[2i + 1]`. Writes at most `capacity` pairs and returns how many words there are (which may be more), or
/// -1 if ICU cannot open an iterator.
int32_t photoprompts_icu_word_bounds(const uint16_t *text, int32_t length, const char *locale, int32_t *bounds, int32_t capacity);

/// The ISO 15924 code of the script `scalar` belongs to ("Latn", "Hani", "Zyyy" for common characters).
const char *photoprompts_icu_script(uint32_t scalar);

/// `text` (UTF-16, `length` code units) rewritten in place by ICU's transliterator `id` ("Hant-Hans" turns
/// Traditional Chinese characters into Simplified ones). `capacity` is the buffer's size in code units; returns the
/// new length, or -1 if ICU cannot open the transliterator or the result does not fit.
int32_t photoprompts_icu_transliterate(const char *id, uint16_t *text, int32_t length, int32_t capacity);

#endif
