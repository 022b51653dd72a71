/*
 * The HTTP(S) range source's parts that the Azure source builds on
 * (source_http.c, source_azure.c): a request signer, and opening a URL with
 * one.
 */
#ifndef NTIDX_SOURCE_HTTP_H
#define NTIDX_SOURCE_HTTP_H

#include <curl/curl.h>

#include "source.h"

/* The Blob service version every Azure request names (x-ms-version); a signer signs it. */
#define NTX_AZURE_VERSION "2021-08-06"

/* What a request says that a signature covers. */
typedef struct ntx_http_request {
    const char *method;     /* "GET", "PUT" */
    const char *range;      /* "bytes=A-B" or NULL */
    const char *if_match;   /* an ETag or NULL */
    uint64_t content_length;/* of a PUT's body */
    int put_blob;           /* a PUT that writes a block blob (x-ms-blob-type) */
} ntx_http_request;

/*
 * Adds a request's authentication headers (Azure's Shared Key: x-ms-date,
 * x-ms-version, Authorization) to *headers. NULL signer: none (anonymous, or
 * a SAS token in the URL, which is the authentication itself).
 */
typedef struct ntx_http_signer {
    int (*sign)(const struct ntx_http_signer *s, const ntx_http_request *req, struct curl_slist **headers,
                ntx_err *err);
    void (*free)(struct ntx_http_signer *s);
} ntx_http_signer;

/*
 * Open `url` (which may hold a SAS token: it is never printed; `shown` is the
 * name messages use, NULL: the URL without its query string). The signer is
 * owned by the source from here on, also on failure. `azure`: headers every
 * request carries (x-ms-version) and Azure's error codes in messages.
 */
int ntx_http_open(ntx_source **out, const char *url, const char *shown, ntx_http_signer *signer, int azure,
                  ntx_err *err);
/* PUT `len` bytes as `url` (the same signer rules; the signer is not consumed). */
int ntx_http_put(const char *url, const char *shown, const ntx_http_signer *signer, int azure, const void *data,
                 size_t len, ntx_err *err);

#endif
