#include "photoprompts_icu.h"

#include <unicode/ubrk.h>

int32_t photoprompts_icu_count_words(const uint16_t *text, int32_t length, const char *locale) {
    UErrorCode status = U_ZERO_ERROR;
    UBreakIterator *iterator = ubrk_open(UBRK_WORD, locale, (const UChar *)text, length, &status);
    if (U_FAILURE(status) || iterator == NULL) {
        if (iterator != NULL) ubrk_close(iterator);
        return -1;
    }
    int32_t count = 0;
    while (ubrk_next(iterator) != UBRK_DONE) {
        // Statuses below UBRK_WORD_NONE_LIMIT mark spaces and punctuation; at or above it, letters, numbers,
        // kana and ideographs.
        if (ubrk_getRuleStatus(iterator) >= UBRK_WORD_NONE_LIMIT) count += 1;
    }
    ubrk_close(iterator);
    return count;
}
