#ifndef PHOTOPROMPTS_CLD2_H
#define PHOTOPROMPTS_CLD2_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Identifies the language of `text` (UTF-8, `length` bytes) with Google's Compact Language Detector 2.
///
/// Writes CLD2's code for the language ("en", "pt", "zh" for Simplified and "zh-Hant" for Traditional Chinese,
/// "un" when it cannot tell) into `code`, at most `capacity` bytes with the closing NUL. Returns 1 when CLD2 calls
/// its answer reliable, 0 when not. CLD2 is C++; only plain C types cross into Swift.
int32_t photoprompts_cld2_identify(const char *text, int32_t length, char *code, int32_t capacity);

/// 1 when CLD2 can identify the language whose code is `code` ("nl", "zh-Hant"), 0 when it does not know it.
int32_t photoprompts_cld2_knows(const char *code);

#ifdef __cplusplus
}
#endif

#endif
