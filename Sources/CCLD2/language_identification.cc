#include "photoprompts_cld2.h"

// compact_lang_det.h uses FILE without including its header.
#include <cstdio>
#include <cstring>

#include <cld2/public/compact_lang_det.h>

int32_t photoprompts_cld2_identify(const char *text, int32_t length, char *code, int32_t capacity) {
    bool reliable = false;
    // No hint: with the user's language as a hint CLD2 calls Portuguese Spanish and Traditional Chinese
    // Simplified, the close pairs the gate exists to tell apart.
    CLD2::Language language = CLD2::DetectLanguage(text, length, /* is_plain_text */ true, &reliable);
    const char *name = CLD2::LanguageCode(language);
    if (capacity > 0) {
        std::strncpy(code, name, capacity - 1);
        code[capacity - 1] = '\0';
    }
    return reliable ? 1 : 0;
}

int32_t photoprompts_cld2_knows(const char *code) {
    return CLD2::GetLanguageFromName(code) != CLD2::UNKNOWN_LANGUAGE ? 1 : 0;
}
