/*
 * libcurl and libcrypto loaded at the first URL (remote_libs.h): dlopen() of
 * the libraries by soname, each function the remote sources call looked up
 * once, then curl_global_init(), all under one pthread_once so that threads
 * opening URLs at once load them once. They stay loaded: handles made with
 * them may live until the process ends.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "ntidx/ntidx.h"
#include "remote_libs.h"

ntx_curl_api ntx_curl;
ntx_crypto_api ntx_crypto;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;                /* 1: the tables are filled and libcurl initialised */
static char why[NTIDX_ERROR_MAX]; /* else what went wrong */

/* The versioned sonames first (the -dev packages alone have the bare ones). */
static const char *const curl_names[] = {"libcurl.so.4", "libcurl.so"};
static const char *const crypto_names[] = {"libcrypto.so.3", "libcrypto.so"};

static void *open_lib(const char *const *names, size_t n, const char **name)
{
    void *lib = NULL;
    for (size_t i = 0; !lib && i < n; i++)
        lib = dlopen(*name = names[i], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *e = dlerror();
        snprintf(why, sizeof why, "%s", e ? e : names[0]);
    }
    return lib;
}

/* *slot = symbol `sym` of `lib`: 1, or 0 with `why` said. */
static int find(void *lib, const char *name, const char *sym, void *slot)
{
    void *p = dlsym(lib, sym);
    if (!p)
        snprintf(why, sizeof why, "%s has no %s", name, sym);
    memcpy(slot, &p, sizeof p); /* a function pointer from dlsym's object pointer (POSIX allows it) */
    return p != NULL;
}

static void load(void)
{
    const char *cn, *kn;
    void *curl = open_lib(curl_names, sizeof curl_names / sizeof curl_names[0], &cn);
    void *crypto = curl ? open_lib(crypto_names, sizeof crypto_names / sizeof crypto_names[0], &kn) : NULL;
    CURLcode (*global_init)(long flags) = NULL;
    if (!crypto || !find(curl, cn, "curl_easy_init", &ntx_curl.easy_init) ||
        !find(curl, cn, "curl_easy_setopt", &ntx_curl.easy_setopt) ||
        !find(curl, cn, "curl_easy_perform", &ntx_curl.easy_perform) ||
        !find(curl, cn, "curl_easy_reset", &ntx_curl.easy_reset) ||
        !find(curl, cn, "curl_easy_cleanup", &ntx_curl.easy_cleanup) ||
        !find(curl, cn, "curl_easy_strerror", &ntx_curl.easy_strerror) ||
        !find(curl, cn, "curl_slist_append", &ntx_curl.slist_append) ||
        !find(curl, cn, "curl_slist_free_all", &ntx_curl.slist_free_all) ||
        !find(curl, cn, "curl_share_init", &ntx_curl.share_init) ||
        !find(curl, cn, "curl_share_setopt", &ntx_curl.share_setopt) ||
        !find(curl, cn, "curl_share_cleanup", &ntx_curl.share_cleanup) ||
        !find(curl, cn, "curl_global_init", &global_init) || !find(crypto, kn, "HMAC", &ntx_crypto.hmac) ||
        !find(crypto, kn, "EVP_sha256", &ntx_crypto.sha256) ||
        !find(crypto, kn, "EVP_EncodeBlock", &ntx_crypto.encode_block) ||
        !find(crypto, kn, "EVP_DecodeBlock", &ntx_crypto.decode_block))
        return;
    CURLcode rc = global_init(CURL_GLOBAL_DEFAULT);
    if (rc != CURLE_OK) {
        snprintf(why, sizeof why, "curl_global_init failed (%s)", ntx_curl.easy_strerror(rc));
        return;
    }
    loaded = 1;
}

int ntx_remote_libs_load(ntx_err *err)
{
    pthread_once(&once, load);
    if (loaded)
        return 0;
    return ntx_err_set(err, NTIDX_E_IO, "remote traces need libcurl and libcrypto, which could not be loaded: %s",
                       why);
}
