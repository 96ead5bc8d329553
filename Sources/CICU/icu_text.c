#include "photoprompts_icu.h"

#include <stdbool.h>
#include <string.h>
#include <unicode/ubrk.h>
#include <unicode/uscript.h>
#include <unicode/ustring.h>
#include <unicode/utrans.h>

/// ICU's word-break iterator for `locale`, set on `text`, or NULL when ICU's data is missing. Each thread keeps the
/// iterators it opened, a few locales' worth, and sets them on the next text: `ubrk_open` (the locale's rules looked
/// up and a new iterator built) was most of a line's segmentation. A call never suspends, so no other task shares a
/// thread's iterator while it is in use.
static UBreakIterator *open_words(const uint16_t *text, int32_t length, const char *locale, bool *kept_by_thread) {
    enum { kept = 4 };
    static _Thread_local UBreakIterator *iterators[kept];
    static _Thread_local char locales[kept][32];
    static _Thread_local int32_t next;
    UErrorCode status = U_ZERO_ERROR;
    *kept_by_thread = true;
    for (int32_t slot = 0; slot < kept; slot++) {
        if (iterators[slot] == NULL || strncmp(locales[slot], locale, sizeof locales[slot]) != 0) continue;
        ubrk_setText(iterators[slot], (const UChar *)text, length, &status);
        return U_FAILURE(status) ? NULL : iterators[slot];
    }
    UBreakIterator *iterator = ubrk_open(UBRK_WORD, locale, (const UChar *)text, length, &status);
    if (U_FAILURE(status)) {
        if (iterator != NULL) ubrk_close(iterator);
        return NULL;
    }
    // A locale too long to keep is served, and closed by the caller.
    if (strlen(locale) >= sizeof locales[0]) {
        *kept_by_thread = false;
        return iterator;
    }
    if (iterators[next] != NULL) ubrk_close(iterators[next]);
    iterators[next] = iterator;
    strcpy(locales[next], locale);
    next = (next + 1) % kept;
    return iterator;
}

int32_t photoprompts_icu_word_bounds(const uint16_t *text, int32_t length, const char *locale, int32_t *bounds, int32_t capacity) {
    bool kept_by_thread;
    UBreakIterator *iterator = open_words(text, length, locale, &kept_by_thread);
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
    if (!kept_by_thread) ubrk_close(iterator);
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
