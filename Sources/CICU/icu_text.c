#include "photoprompts_icu.h"

#include <unicode/ubrk.h>
#include <unicode/uscript.h>
#include <unicode/ustring.h>
#include <unicode/utrans.h>

/// Opens ICU's word-break iterator over `text`, or NULL when ICU's data is missing.
static UBreakIterator *open_words(const uint16_t *text, int32_t length, const char *locale) {
    UErrorCode status = U_ZERO_ERROR;
    UBreakIterator *iterator = ubrk_open(UBRK_WORD, locale, (const UChar *)text, length, &status);
    if (U_FAILURE(status) && iterator != NULL) {
        ubrk_close(iterator);
        return NULL;
    }
    return iterator;
}

int32_t photoprompts_icu_word_bounds(const uint16_t *text, int32_t length, const char *locale, int32_t *bounds, int32_t capacity) {
    UBreakIterator *iterator = open_words(text, length, locale);
    if (iterator == NULL) return -1;
    int32_t count = 0;
    int32_t start = ubrk_first(iterator);
    for (int32_t end = ubrk_next(iterator); end != UBRK_DONE; start = end, end = ubrk_next(iterator)) {
        // Statuses below UBRK_WORD_NONE_LIMIT mark spaces and punctuation; at or above it, letters, numbers,
        // kana and ideographs.
        if (ubrk_getRuleStatus(iterator) < UBRK_WORD_NONE_LIMIT) continue;
        if (count < capacity) {
            bounds[2 * count] = start;
            bounds[2 * count + 1] = end;
        }
        count += 1;
    }
    ubrk_close(iterator);
    return count;
}

int32_t photoprompts_icu_count_words(const uint16_t *text, int32_t length, const char *locale) {
    return photoprompts_icu_word_bounds(text, length, locale, NULL, 0);
}

const char *photoprompts_icu_script(uint32_t scalar) {
    UErrorCode status = U_ZERO_ERROR;
    UScriptCode script = uscript_getScript((UChar32)scalar, &status);
    return U_FAILURE(status) ? "Zzzz" : uscript_getShortName(script);
}

int32_t photoprompts_icu_transliterate(const char *id, uint16_t *text, int32_t length, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UChar name[64];
    u_uastrncpy(name, id, 63);
    name[63] = 0;
    UTransliterator *transliterator = utrans_openU(name, -1, UTRANS_FORWARD, NULL, 0, NULL, &status);
    if (U_FAILURE(status)) return -1;
    int32_t limit = length;
    utrans_transUChars(transliterator, (UChar *)text, &length, capacity, 0, &limit, &status);
    utrans_close(transliterator);
    return U_FAILURE(status) ? -1 : length;
}
