/*
 * libcurl and libcrypto, loaded when the first URL is opened
 * (remote_libs.c), not linked: libcurl brings some thirty shared objects
 * (TLS, LDAP, Kerberos, SSH...) and libcrypto thousands of relocations, whose
 * loading and constructors cost every command several milliseconds at start,
 * local traces included, where the whole of a 10 ms window's query takes
 * about two. The remote sources call them through these tables.
 */
#ifndef NTIDX_REMOTE_LIBS_H
#define NTIDX_REMOTE_LIBS_H

#include <curl/curl.h>
#include <openssl/evp.h>

#include "error.h"

typedef struct ntx_curl_api {
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *h, CURLoption opt, ...);
    CURLcode (*easy_perform)(CURL *h);
    void (*easy_reset)(CURL *h);
    void (*easy_cleanup)(CURL *h);
    const char *(*easy_strerror)(CURLcode code);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *s);
    void (*slist_free_all)(struct curl_slist *list);
    CURLSH *(*share_init)(void);
    CURLSHcode (*share_setopt)(CURLSH *sh, CURLSHoption opt, ...);
    CURLSHcode (*share_cleanup)(CURLSH *sh);
} ntx_curl_api;

/* What Azure's Shared Key signatures need: HMAC-SHA256 and base64. */
typedef struct ntx_crypto_api {
    unsigned char *(*hmac)(const EVP_MD *md, const void *key, int key_len, const unsigned char *data, size_t len,
                           unsigned char *out, unsigned int *out_len);
    const EVP_MD *(*sha256)(void);
    int (*encode_block)(unsigned char *t, const unsigned char *f, int n);
    int (*decode_block)(unsigned char *t, const unsigned char *f, int n);
} ntx_crypto_api;

/* The tables: filled by ntx_remote_libs_load(), read only after it returned 0. */
extern ntx_curl_api ntx_curl;
extern ntx_crypto_api ntx_crypto;

/* Both libraries loaded and libcurl initialised (curl_global_init), once per process: 0, or NTIDX_E_IO with
   *err saying that remote traces need them and why they could not be loaded. */
int ntx_remote_libs_load(ntx_err *err);

#endif
