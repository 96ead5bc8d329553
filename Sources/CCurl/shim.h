#ifndef PHOTOPROMPTS_CCURL_SHIM_H
#define PHOTOPROMPTS_CCURL_SHIM_H

#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call.
// These typed wrappers are the only way Swift reaches them (the same pattern as GRDBSQLite's shim).

static inline CURLcode photoprompts_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode photoprompts_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode photoprompts_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode photoprompts_curl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode photoprompts_curl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

typedef size_t (*photoprompts_curl_write_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode photoprompts_curl_easy_setopt_write_callback(CURL *handle, CURLoption option,
                                                                    photoprompts_curl_write_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode photoprompts_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode photoprompts_curl_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

#endif
