#ifndef SHARE_CCURL_SHIM_H
#define SHARE_CCURL_SHIM_H

#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call:
// one typed wrapper per kind of argument.

static inline CURLcode share_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode share_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode share_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode share_curl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode share_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

typedef size_t (*share_curl_data_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode share_curl_setopt_callback(CURL *handle, CURLoption option, share_curl_data_callback value) {
    return curl_easy_setopt(handle, option, value);
}

typedef int (*share_curl_progress_callback)(void *context, curl_off_t download_total, curl_off_t downloaded,
                                            curl_off_t upload_total, curl_off_t uploaded);

static inline CURLcode share_curl_setopt_progress(CURL *handle, share_curl_progress_callback value) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}

static inline CURLcode share_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode share_curl_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

#endif
