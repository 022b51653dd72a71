/*
 * HTTP(S) range requests through libcurl (source.h): any server that honours
 * `Range`, and the Azure Blob service under source_azure.c's signer.
 *
 * Round trips are what a remote trace costs, so:
 *  - opening is one request: the first 64 KiB (the stream header and trace
 *    block), whose answer also gives the size (Content-Range), the ETag and
 *    Last-Modified; those bytes are kept;
 *  - a read the cache does not hold asks for at least 64 KiB, and what it got
 *    is kept (a block header read is then usually followed by reads of the
 *    same range);
 *  - prefetch hints become requests of up to 8 MiB each, up to four in flight
 *    (worker threads, connections shared), adjacent hints coalesced; a read of
 *    a range being fetched waits for it instead of asking again;
 *  - the hints of one plan come in a burst (a window's definitions, its
 *    stacks, its event blocks and the sequence point after them, apart in the
 *    file): a worker waits until the burst is over (its end said by
 *    ntx_source_batch(), else NTX_HTTP_GATHER_US without a hint) and asks for
 *    its ranges (those under NTX_HTTP_MULTI_PART: a larger one is a request
 *    of its own, in flight beside them) in one multi-range request
 *    (`Range: bytes=A-B,C-D`, answered 206 multipart/byteranges), up to
 *    NTX_HTTP_RANGES ranges and 8 MiB in all. A server that answers such a
 *    request otherwise (one part, the whole object, 416) is asked one range a
 *    request from then on; so is Azure Blob Storage, which takes one range.
 *    A multi-range request that fails is not reported: its ranges are asked
 *    for one by one, with the retries and messages below;
 *  - what a prefetch brought is handed to whoever listens (ntx_source_arrived():
 *    the demand mapping copies it in place) before a read is served from it;
 *  - the cache is bounded (NTX_HTTP_CACHE_MAX); what is released is dropped.
 *
 * One version of the object: every request after the first carries
 * If-Match with its ETag, and every answer's ETag and total size are
 * compared with the first's; a difference is "the trace changed while it was
 * read", never a mix of two versions.
 *
 * Faults: 500, 502, 503, 504 and 429 are retried with bounded exponential
 * backoff (NTX_HTTP_ATTEMPTS in all) and then reported; a connection cut or
 * a body shorter than asked is retried once, then reported with the URL and
 * the range; 401/403/404 say what was wrong. Messages name the URL without
 * its query string (a SAS token is a secret).
 *
 * TLS certificates are verified (libcurl's default, never turned off here),
 * against the system's CA store, or the CA bundle the environment names as
 * the curl command takes it: CURL_CA_BUNDLE, else SSL_CERT_FILE and
 * SSL_CERT_DIR (a private CA, a test server's own certificate). A
 * certificate that cannot be verified is said as such, with how to give its
 * CA, never retried.
 */
#include "source_http.h"
#include "remote_libs.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <time.h>

#include "ntidx/ntidx.h"

/* The open's request: 64 KiB for the header and trace block, and what a V4 trace's open reads next to tell V4 from
   V5 (NTX_SOURCE_V5_PROBE, source.h), so that the open is one round trip, not two; for a window of a remote trace
   over a 20 ms link, the difference between two round trips and three. */
#define NTX_HTTP_FIRST ((64u << 10) + NTX_SOURCE_V5_PROBE)
#define NTX_HTTP_MIN_READ (64u << 10)       /* a read the cache misses asks for at least this */
#define NTX_HTTP_CHUNK (8u << 20)           /* a prefetch request at most */
#define NTX_HTTP_WORKERS 4                  /* prefetch requests in flight */
#define NTX_HTTP_CACHE_MAX (256ull << 20)   /* bytes kept; least recently used dropped first */
#define NTX_HTTP_ATTEMPTS 5                 /* for 5xx and 429: the first and four retries */
#define NTX_HTTP_ERRBODY 2048               /* of an error's body, for its code */
#define NTX_HTTP_RANGES 16                  /* ranges of one multi-range request at most */
#define NTX_HTTP_GATHER_US 500              /* a burst of hints is over after this long without one */
#define NTX_HTTP_PART_HEAD 512              /* room for each part's headers in a multipart answer */
#define NTX_HTTP_POOL 8                     /* prefetch buffers (NTX_HTTP_CHUNK each) kept for reuse */
#define NTX_HTTP_POOL_MIN (2u << 20)        /* a prefetch this large gets a buffer of the pool */
#define NTX_HTTP_MULTI_PART (2u << 20)      /* a range this large or larger is asked for alone */

enum { CH_QUEUED, CH_LOADING, CH_READY, CH_FAILED };

typedef struct chunk {
    uint64_t off, len;
    uint8_t *buf;
    int state;
    uint64_t last_use;
    int solo; /* asked for alone (a multi-range request of it failed) */
    int released; /* released while it was being fetched: dropped when its bytes come */
    int pooled; /* buf is NTX_HTTP_CHUNK bytes, given back to the pool */
    int taken;  /* every byte of it was put where it is read on arrival (ntx_source_arrived()) */
    struct chunk *next;
} chunk;

typedef struct http_source {
    ntx_source s;
    char *url; /* with its query string: never printed */
    ntx_http_signer *signer;
    int azure;
    CURLSH *share;
    pthread_mutex_t share_lock[CURL_LOCK_DATA_LAST];
    pthread_mutex_t mu;
    pthread_cond_t cv;
    chunk *chunks; /* unordered; few */
    uint64_t cached, clock; /* cached: the bytes the ready chunks' buffers hold */
    /* Buffers of large prefetches, given back when their chunk is dropped: a stream of 8 MiB requests through
       fresh buffers would cost a page fault and a page cleared per 4 KiB written, as much as the copy itself */
    uint8_t *pool[NTX_HTTP_POOL];
    int n_pool;
    pthread_t workers[NTX_HTTP_WORKERS];
    int n_workers, stop;
    CURL *idle[NTX_HTTP_WORKERS + 4];
    int n_idle;
    int no_multi;            /* the server does not answer multi-range requests: one range a request */
    int batching;            /* ntx_source_batch() calls open: the queued hints wait for the burst's end */
    uint64_t last_hint_us;   /* when the last prefetch hint came (monotonic) */
} http_source;


/* ---- one request ---- */

typedef struct response {
    long status;
    uint8_t *buf;      /* where a 2xx body goes */
    size_t cap, got;
    int overflow;      /* the body was longer than cap */
    char etag[128], last_modified[64], content_range[96], error_code[96], content_type[160];
    char errbody[NTX_HTTP_ERRBODY];
    size_t errlen;
    char curl_err[CURL_ERROR_SIZE]; /* libcurl's detail of a failure (a TLS one: why the certificate was refused) */
} response;

static void header_value(const char *line, size_t n, char *out, size_t cap)
{
    const char *colon = memchr(line, ':', n);
    if (!colon)
        return;
    const char *v = colon + 1, *end = line + n;
    while (v < end && (*v == ' ' || *v == '\t'))
        v++;
    while (end > v && (end[-1] == '\r' || end[-1] == '\n' || end[-1] == ' '))
        end--;
    size_t len = (size_t)(end - v) < cap - 1 ? (size_t)(end - v) : cap - 1;
    memcpy(out, v, len);
    out[len] = 0;
}

static size_t on_header(char *line, size_t size, size_t nitems, void *ud)
{
    response *r = ud;
    size_t n = size * nitems;
    if (n >= 5 && strncmp(line, "HTTP/", 5) == 0) { /* a new response (after 100 Continue): forget the last */
        r->etag[0] = r->last_modified[0] = r->content_range[0] = r->error_code[0] = r->content_type[0] = 0;
        const char *sp = memchr(line, ' ', n);
        r->status = sp ? strtol(sp + 1, NULL, 10) : 0;
    } else if (n > 5 && strncasecmp(line, "etag:", 5) == 0)
        header_value(line, n, r->etag, sizeof r->etag);
    else if (n > 14 && strncasecmp(line, "last-modified:", 14) == 0)
        header_value(line, n, r->last_modified, sizeof r->last_modified);
    else if (n > 14 && strncasecmp(line, "content-range:", 14) == 0)
        header_value(line, n, r->content_range, sizeof r->content_range);
    else if (n > 15 && strncasecmp(line, "x-ms-error-code:", 16) == 0)
        header_value(line, n, r->error_code, sizeof r->error_code);
    else if (n > 13 && strncasecmp(line, "content-type:", 13) == 0)
        header_value(line, n, r->content_type, sizeof r->content_type);
    return n;
}

static size_t on_body(char *data, size_t size, size_t nmemb, void *ud)
{
    response *r = ud;
    size_t n = size * nmemb;
    if (r->status < 200 || r->status >= 300) {
        size_t k = n < sizeof r->errbody - 1 - r->errlen ? n : sizeof r->errbody - 1 - r->errlen;
        memcpy(r->errbody + r->errlen, data, k);
        r->errlen += k;
        r->errbody[r->errlen] = 0;
        return n;
    }
    if (n > r->cap - r->got) {
        r->overflow = 1;
        return 0; /* abort: more than asked for (a server that ignored Range) */
    }
    memcpy(r->buf + r->got, data, n);
    r->got += n;
    return n;
}

static void share_lock(CURL *h, curl_lock_data d, curl_lock_access a, void *ud)
{
    pthread_mutex_lock(&((http_source *)ud)->share_lock[d]);
}
static void share_unlock(CURL *h, curl_lock_data d, void *ud)
{
    pthread_mutex_unlock(&((http_source *)ud)->share_lock[d]);
}

static unsigned backoff_ms(int attempt)
{
    /* NTIDX_HTTP_RETRY_MS: the first wait (tests make it short); each retry waits twice as long, at most 4 s */
    static unsigned base = 0;
    if (!base) {
        const char *e = getenv("NTIDX_HTTP_RETRY_MS");
        long v = e ? strtol(e, NULL, 10) : 200;
        base = v > 0 && v < 10000 ? (unsigned)v : 200;
    }
    unsigned ms = base << (attempt < 5 ? attempt : 5);
    return ms < 4000 ? ms : 4000;
}

static void sleep_ms(unsigned ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* The CA certificates to verify servers with, as the curl command takes them from the environment: CURL_CA_BUNDLE
   (a file), else SSL_CERT_FILE and SSL_CERT_DIR (OpenSSL's names); none set: libcurl's default, the system's. */
static void set_ca(CURL *h)
{
    const char *bundle = getenv("CURL_CA_BUNDLE");
    if (bundle && *bundle) {
        ntx_curl.easy_setopt(h, CURLOPT_CAINFO, bundle);
        return;
    }
    const char *file = getenv("SSL_CERT_FILE"), *dir = getenv("SSL_CERT_DIR");
    if (file && *file)
        ntx_curl.easy_setopt(h, CURLOPT_CAINFO, file);
    if (dir && *dir)
        ntx_curl.easy_setopt(h, CURLOPT_CAPATH, dir);
}

/* Common options of every request: the agent, timeouts, the shared connections, the CA certificates.
   Verification stays on (libcurl's default). */
static void set_common(CURL *h, CURLSH *share, char *errbuf)
{
    ntx_curl.easy_setopt(h, CURLOPT_USERAGENT, "ntidx/" NTIDX_VERSION_STRING);
    ntx_curl.easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    ntx_curl.easy_setopt(h, CURLOPT_CONNECTTIMEOUT, 20L);
    ntx_curl.easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1L); /* a stalled connection counts as cut */
    ntx_curl.easy_setopt(h, CURLOPT_LOW_SPEED_TIME, 60L);
    ntx_curl.easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);  /* signed headers must not go to another host */
    ntx_curl.easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    if (share)
        ntx_curl.easy_setopt(h, CURLOPT_SHARE, share);
    set_ca(h);
    errbuf[0] = 0;
    ntx_curl.easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
}

/* A certificate or TLS failure, said as one (with how to give a CA); NULL for other failures. */
static const char *tls_failure(CURLcode c)
{
    switch (c) {
    case CURLE_PEER_FAILED_VERIFICATION:
        return "the server's TLS certificate could not be verified";
    case CURLE_SSL_CACERT_BADFILE:
        return "the CA certificates to verify the server with cannot be read";
    case CURLE_SSL_CONNECT_ERROR:
        return "the TLS handshake with the server failed";
    default:
        return NULL;
    }
}

/* What a request that got no answer says: its TLS failure with libcurl's detail (why the certificate was
   refused) and the way to give a CA, or libcurl's words for the failure. */
static void describe_failure(CURLcode c, const char *detail, char *out, size_t cap)
{
    const char *tls = tls_failure(c), *why = detail[0] ? detail : ntx_curl.easy_strerror(c);
    const char *ca = getenv("CURL_CA_BUNDLE");
    if (!ca || !*ca)
        ca = getenv("SSL_CERT_FILE");
    if (!ca || !*ca)
        ca = getenv("SSL_CERT_DIR");
    if (tls && c == CURLE_SSL_CACERT_BADFILE)
        snprintf(out, cap, "%s%s%s (%s)", tls, ca && *ca ? " from " : "", ca && *ca ? ca : "", why);
    else if (tls && ca && *ca)
        snprintf(out, cap, "%s (%s; CA certificates from %s)", tls, why, ca);
    else if (tls)
        snprintf(out, cap, "%s (%s): give the CA that signed it with CURL_CA_BUNDLE or SSL_CERT_FILE (docs/remote.md)",
                 tls, why);
    else
        snprintf(out, cap, "%s", ntx_curl.easy_strerror(c)); /* (the detail may quote the request: not shown) */
}

static int transient_status(long st) { return st == 500 || st == 502 || st == 503 || st == 504 || st == 429; }
static int cut_code(CURLcode c)
{
    return c == CURLE_PARTIAL_FILE || c == CURLE_RECV_ERROR || c == CURLE_SEND_ERROR || c == CURLE_GOT_NOTHING ||
           c == CURLE_OPERATION_TIMEDOUT || c == CURLE_COULDNT_CONNECT;
}

/* "URL: 404 Not Found: ..." with what Azure's error code or a status says. */
static int status_error(const response *r, const char *range, ntx_err *err)
{
    const char *what = "";
    switch (r->status) {
    case 401: what = "authentication is required: give credentials (docs/remote.md)"; break;
    case 403: what = "access denied: the credentials do not allow reading it, or the signature or SAS token is "
                     "wrong or expired"; break;
    case 404: what = "no such object"; break;
    case 412: what = "the trace changed while it was read (its ETag is not the one it had)"; break;
    case 416: what = "the range is past the object's end: the trace changed while it was read"; break;
    default: what = transient_status(r->status) ? "the server failed, also when asked again" : "unexpected answer";
    }
    char code[160] = "";
    if (r->error_code[0])
        snprintf(code, sizeof code, " (%s)", r->error_code);
    if (range)
        return ntx_err_set(err, NTIDX_E_IO, "bytes %s: HTTP %ld%s: %s", range, r->status, code, what);
    return ntx_err_set(err, NTIDX_E_IO, "HTTP %ld%s: %s", r->status, code, what);
}

/*
 * GET [off, off+len) into buf, retried as the faults call for. With check_etag,
 * the answer must be of the source's version. `first`: the open's request,
 * which learns the size and version (a 200 of a small object is fine).
 */
static CURL *take_handle(http_source *h)
{
    CURL *c = NULL;
    pthread_mutex_lock(&h->mu);
    if (h->n_idle > 0)
        c = h->idle[--h->n_idle];
    pthread_mutex_unlock(&h->mu);
    if (!c)
        c = ntx_curl.easy_init();
    else
        ntx_curl.easy_reset(c);
    return c;
}

static void give_handle(http_source *h, CURL *c)
{
    ntx_curl.easy_setopt(c, CURLOPT_ERRORBUFFER, NULL); /* the request's response (and its buffer) is gone */
    pthread_mutex_lock(&h->mu);
    if (h->n_idle < (int)(sizeof h->idle / sizeof h->idle[0])) {
        h->idle[h->n_idle++] = c;
        c = NULL;
    }
    pthread_mutex_unlock(&h->mu);
    if (c)
        ntx_curl.easy_cleanup(c);
}

static int parse_content_range(const char *cr, uint64_t *a, uint64_t *b, uint64_t *total)
{
    /* "bytes A-B/TOTAL" or "bytes * /TOTAL" */
    unsigned long long x, y, t;
    if (sscanf(cr, "bytes %llu-%llu/%llu", &x, &y, &t) == 3) {
        *a = x, *b = y, *total = t;
        return 1;
    }
    if (sscanf(cr, "bytes */%llu", &t) == 1) {
        *a = 1, *b = 0, *total = t;
        return 1;
    }
    return 0;
}

/* One GET of h's object with these headers, its answer into *r; counted as a request. */
static void set_request(http_source *h, CURL *c, struct curl_slist *hdr, response *r)
{
    set_common(c, h->share, r->curl_err);
    ntx_curl.easy_setopt(c, CURLOPT_URL, h->url);
    ntx_curl.easy_setopt(c, CURLOPT_HTTPHEADER, hdr);
    ntx_curl.easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
    ntx_curl.easy_setopt(c, CURLOPT_HEADERDATA, r);
    ntx_curl.easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    ntx_curl.easy_setopt(c, CURLOPT_WRITEDATA, r);
    __atomic_fetch_add(&h->s.n_requests, 1, __ATOMIC_RELAXED);
}

static int get_range(http_source *h, uint64_t off, uint64_t len, uint8_t *buf, int first, uint64_t *got_len,
                     ntx_err *err)
{
    char range[64], rshown[64];
    snprintf(range, sizeof range, "bytes=%" PRIu64 "-%" PRIu64, off, off + len - 1);
    snprintf(rshown, sizeof rshown, "%" PRIu64 "-%" PRIu64, off, off + len - 1);
    CURL *c = take_handle(h);
    if (!c)
        return ntx_err_set(err, NTIDX_E_NOMEM, "cannot make an HTTP request");
    int cuts = 0, rc = NTIDX_OK;
    for (int attempt = 0;; attempt++) {
        response r;
        memset(&r, 0, sizeof r);
        r.buf = buf;
        r.cap = len;
        struct curl_slist *hdr = NULL;
        char line[256];
        snprintf(line, sizeof line, "Range: %s", range);
        hdr = ntx_curl.slist_append(hdr, line);
        const char *if_match = !first && h->s.id.etag[0] ? h->s.id.etag : NULL;
        if (if_match) {
            snprintf(line, sizeof line, "If-Match: %s", if_match);
            hdr = ntx_curl.slist_append(hdr, line);
        }
        if (h->azure)
            hdr = ntx_curl.slist_append(hdr, "x-ms-version: " NTX_AZURE_VERSION);
        if (h->signer) {
            ntx_http_request req = {"GET", range, if_match, 0, 0};
            if ((rc = h->signer->sign(h->signer, &req, &hdr, err)) != NTIDX_OK) {
                ntx_curl.slist_free_all(hdr);
                break;
            }
        }
        ntx_curl.easy_reset(c);
        set_request(h, c, hdr, &r);
        if (attempt > 0)
            __atomic_fetch_add(&h->s.n_retries, 1, __ATOMIC_RELAXED);
        CURLcode cc = ntx_curl.easy_perform(c);
        ntx_curl.slist_free_all(hdr);
        __atomic_fetch_add(&h->s.n_bytes, r.got, __ATOMIC_RELAXED);
        if (r.overflow && r.status == 200)
            return give_handle(h, c), ntx_err_set(err, NTIDX_E_IO,
                                                  "the server does not honour Range requests (it answered 200 "
                                                  "with the whole object): a remote trace needs one that does");
        if (cc != CURLE_OK && !r.overflow) {
            if (cut_code(cc) && cuts++ < 1)
                continue; /* a connection cut: once more */
            char why[CURL_ERROR_SIZE + 256];
            describe_failure(cc, r.curl_err, why, sizeof why);
            if (tls_failure(cc)) /* the connection's, not the range's */
                rc = ntx_err_set(err, NTIDX_E_IO, "%s", why);
            else
                rc = ntx_err_set(err, NTIDX_E_IO, "bytes %s: %s%s", rshown, why,
                                 cut_code(cc) ? " (also when asked again)" : "");
            break;
        }
        if (transient_status(r.status)) {
            if (attempt + 1 < NTX_HTTP_ATTEMPTS) {
                sleep_ms(backoff_ms(attempt));
                continue;
            }
            rc = status_error(&r, rshown, err);
            break;
        }
        if (r.status == 416 && first) { /* an empty object has no byte 0 */
            uint64_t a, b, total;
            if (parse_content_range(r.content_range, &a, &b, &total) && total == 0) {
                snprintf(h->s.id.etag, sizeof h->s.id.etag, "%s", r.etag);
                snprintf(h->s.id.last_modified, sizeof h->s.id.last_modified, "%s", r.last_modified);
                h->s.id.size = 0;
                *got_len = 0;
                break;
            }
        }
        if (r.status != 200 && r.status != 206) {
            rc = status_error(&r, rshown, err);
            break;
        }
        /* The version: the first answer sets it, every later one must match it. */
        uint64_t a = off, b = off + r.got - 1, total = r.got;
        if (r.status == 206 && !parse_content_range(r.content_range, &a, &b, &total)) {
            rc = ntx_err_set(err, NTIDX_E_IO, "bytes %s: a partial answer without a valid Content-Range (\"%s\")",
                             rshown, r.content_range);
            break;
        }
        if (r.status == 200 && off != 0) {
            rc = ntx_err_set(err, NTIDX_E_IO, "the server does not honour Range requests");
            break;
        }
        if (first) {
            h->s.id.size = total;
            snprintf(h->s.id.etag, sizeof h->s.id.etag, "%s", r.etag);
            snprintf(h->s.id.last_modified, sizeof h->s.id.last_modified, "%s", r.last_modified);
        } else if (total != h->s.id.size || strcmp(r.etag, h->s.id.etag) != 0 ||
                   (!h->s.id.etag[0] && strcmp(r.last_modified, h->s.id.last_modified) != 0)) {
            rc = ntx_err_set(err, NTIDX_E_IO,
                             "bytes %s: the trace changed while it was read (ETag %s, %" PRIu64
                             " bytes; it was %s, %" PRIu64 " bytes)",
                             rshown, r.etag[0] ? r.etag : "none", total,
                             h->s.id.etag[0] ? h->s.id.etag : "none", h->s.id.size);
            break;
        }
        uint64_t want = first ? (len < total ? len : total) : len;
        if (a != off || r.got != want || (r.status == 206 && b != off + want - 1)) {
            if (cuts++ < 1)
                continue; /* a short body: once more */
            rc = ntx_err_set(err, NTIDX_E_IO, "bytes %s: the answer had %zu bytes of %" PRIu64
                             " (also when asked again)", rshown, r.got, want);
            break;
        }
        *got_len = r.got;
        break;
    }
    give_handle(h, c);
    return rc;
}


/* ---- several ranges in one request ---- */

static uint64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* The boundary of a "multipart/byteranges; boundary=X" type, into out; 0 when it is not one. */
static int multipart_boundary(const char *type, char *out, size_t cap)
{
    if (strncasecmp(type, "multipart/byteranges", 20) != 0)
        return 0;
    const char *b = strstr(type, "boundary=");
    if (!b)
        return 0;
    b += 9;
    int quoted = *b == '"';
    b += quoted;
    size_t n = 0;
    while (b[n] && b[n] != (quoted ? '"' : ';') && b[n] != ' ' && n + 1 < cap)
        n++;
    if (n == 0 || n + 1 >= cap)
        return 0;
    memcpy(out, b, n);
    out[n] = 0;
    return 1;
}

/*
 * Copy the parts of a multipart/byteranges body into the jobs they cover
 * (jobs[i] into bufs[i]; done[i] set). Every part's total must be the
 * object's size. 0 when the body is well formed, -1 otherwise. The server's
 * bytes are untrusted: every length is checked against the body.
 */
static int split_parts(const uint8_t *body, size_t len, const char *boundary, uint64_t size, chunk **jobs,
                       uint8_t **bufs, int *done, int n)
{
    char delim[200];
    int dl = snprintf(delim, sizeof delim, "--%s", boundary);
    if (dl <= 0 || (size_t)dl >= sizeof delim)
        return -1;
    size_t pos = 0;
    for (;;) {
        const uint8_t *at = memmem(body + pos, len - pos, delim, (size_t)dl);
        if (!at)
            return -1;
        pos = (size_t)(at - body) + (size_t)dl;
        if (len - pos >= 2 && body[pos] == '-' && body[pos + 1] == '-')
            return 0; /* the closing delimiter */
        /* the part's headers, up to an empty line */
        const uint8_t *hend = memmem(body + pos, len - pos, "\r\n\r\n", 4);
        if (!hend)
            return -1;
        uint64_t a = 0, b = 0, total = 0;
        int have = 0;
        for (size_t i = pos; i < (size_t)(hend - body);) {
            const uint8_t *eol = memmem(body + i, (size_t)(hend - body) + 2 - i, "\r\n", 2);
            size_t ll = eol ? (size_t)(eol - body) - i : (size_t)(hend - body) - i;
            if (ll > 14 && ll < 200 && strncasecmp((const char *)body + i, "content-range:", 14) == 0) {
                char v[200];
                memcpy(v, body + i + 14, ll - 14);
                v[ll - 14] = 0;
                char *t = v;
                while (*t == ' ' || *t == '\t')
                    t++;
                have = parse_content_range(t, &a, &b, &total) && a <= b;
            }
            i += ll + 2;
        }
        size_t data = (size_t)(hend - body) + 4;
        if (!have || total != size || b >= total || b - a + 1 > len - data)
            return -1; /* (b < total: the part's length cannot wrap) */
        for (int k = 0; k < n; k++)
            if (!done[k] && jobs[k]->off >= a && jobs[k]->off + jobs[k]->len - 1 <= b) {
                memcpy(bufs[k], body + data + (jobs[k]->off - a), jobs[k]->len);
                done[k] = 1;
            }
        pos = data + (size_t)(b - a + 1);
    }
}

/*
 * Ask for the jobs' ranges in one request. 1 when every job's bytes came
 * (into bufs), else 0: the caller asks for them one by one, and that path
 * retries and reports. A server that does not answer with a multipart body
 * of our ranges is marked as one that takes one range a request.
 */
static int get_multi(http_source *h, chunk **jobs, uint8_t **bufs, int n)
{
    size_t rlen = 16 + (size_t)n * 44, cap = NTX_HTTP_PART_HEAD * (size_t)n + 256;
    char *range = malloc(rlen);
    if (!range)
        return 0;
    size_t used = (size_t)snprintf(range, rlen, "bytes=");
    for (int i = 0; i < n; i++) {
        used += (size_t)snprintf(range + used, rlen - used, "%s%" PRIu64 "-%" PRIu64, i ? "," : "", jobs[i]->off,
                                 jobs[i]->off + jobs[i]->len - 1);
        cap += jobs[i]->len;
    }
    response r;
    memset(&r, 0, sizeof r);
    r.buf = malloc(cap);
    r.cap = cap;
    CURL *c = take_handle(h);
    struct curl_slist *hdr = NULL;
    size_t llen = used + 16;
    char *line = malloc(llen > 256 ? llen : 256);
    int ok = 0, unsupported = 0;
    if (!r.buf || !c || !line)
        goto out;
    snprintf(line, llen > 256 ? llen : 256, "Range: %s", range);
    hdr = ntx_curl.slist_append(hdr, line);
    if (h->s.id.etag[0]) {
        snprintf(line, 256, "If-Match: %s", h->s.id.etag);
        hdr = ntx_curl.slist_append(hdr, line);
    }
    set_request(h, c, hdr, &r);
    CURLcode cc = ntx_curl.easy_perform(c);
    __atomic_fetch_add(&h->s.n_bytes, r.got, __ATOMIC_RELAXED);
    char boundary[160];
    if (r.overflow || r.status == 200 || r.status == 416 ||
        (cc == CURLE_OK && r.status == 206 && !multipart_boundary(r.content_type, boundary, sizeof boundary))) {
        unsupported = 1; /* the whole object, a refusal, or one part: one range a request from now on */
        goto out;
    }
    if (cc != CURLE_OK || r.status != 206)
        goto out; /* a fault: the ranges alone retry it, or say what it is */
    if (strcmp(r.etag, h->s.id.etag) != 0 ||
        (!h->s.id.etag[0] && strcmp(r.last_modified, h->s.id.last_modified) != 0)) {
        unsupported = 1; /* another version, or a server that leaves the validator out of such an answer: the */
        goto out;        /* ranges alone say which */
    }
    int done[NTX_HTTP_RANGES] = {0};
    if (split_parts(r.buf, r.got, boundary, h->s.id.size, jobs, bufs, done, n) != 0) {
        unsupported = 1;
        goto out;
    }
    ok = 1;
    for (int i = 0; i < n; i++)
        ok &= done[i];
out:
    if (unsupported) {
        pthread_mutex_lock(&h->mu);
        h->no_multi = 1;
        pthread_mutex_unlock(&h->mu);
    }
    ntx_curl.slist_free_all(hdr);
    if (c)
        give_handle(h, c);
    free(line);
    free(range);
    free(r.buf);
    return ok;
}

/* ---- the cache and the prefetch workers ---- */

static chunk *find_chunk(http_source *h, uint64_t pos)
{
    for (chunk *c = h->chunks; c; c = c->next)
        if (pos >= c->off && pos - c->off < c->len && c->state != CH_FAILED)
            return c;
    return NULL;
}

/* The start of the first chunk after pos (or limit). */
static uint64_t next_chunk_start(http_source *h, uint64_t pos, uint64_t limit)
{
    for (chunk *c = h->chunks; c; c = c->next)
        if (c->off > pos && c->off < limit && c->state != CH_FAILED)
            limit = c->off;
    return limit;
}

/* The memory a ready chunk's buffer holds. */
static uint64_t held(const chunk *c) { return c->pooled ? NTX_HTTP_CHUNK : c->len; }

static void unlink_chunk(http_source *h, chunk *victim);

/* A buffer for a prefetch of `len` bytes: a large one from the pool (*pooled set), else its own. */
static uint8_t *buf_new(http_source *h, uint64_t len, int *pooled)
{
    *pooled = 0;
    if (len < NTX_HTTP_POOL_MIN || len > NTX_HTTP_CHUNK)
        return malloc(len);
    uint8_t *b = NULL;
    pthread_mutex_lock(&h->mu);
    if (h->n_pool == 0) {
        /* the pool is empty: the buffer of a chunk whose bytes are all in place where they are read (its
           listener took them) is wanted by nobody any more, the least recently used first */
        chunk *lru = NULL;
        for (chunk *c = h->chunks; c; c = c->next)
            if (c->state == CH_READY && c->pooled && c->taken && (!lru || c->last_use < lru->last_use))
                lru = c;
        if (lru)
            unlink_chunk(h, lru); /* (into the pool) */
    }
    if (h->n_pool > 0)
        b = h->pool[--h->n_pool];
    pthread_mutex_unlock(&h->mu);
    if (!b) {
        /* in huge pages where the system gives them on request (transparent_hugepage=madvise): a fresh
           buffer's first fill then costs a fault per 2 MiB rather than per 4 KiB */
        void *p = NULL;
        if (posix_memalign(&p, 2u << 20, NTX_HTTP_CHUNK) != 0)
            p = NULL;
#ifdef MADV_HUGEPAGE
        if (p)
            (void)madvise(p, NTX_HTTP_CHUNK, MADV_HUGEPAGE);
#endif
        b = p;
        if (b)
            __atomic_fetch_add(&h->s.n_buffers, 1, __ATOMIC_RELAXED);
    }
    *pooled = b != NULL;
    return b;
}

/* Give a buffer back (mu held): a pooled one to the pool while it has room. */
static void buf_drop(http_source *h, uint8_t *b, int pooled)
{
    if (pooled && b && h->n_pool < NTX_HTTP_POOL && !h->stop)
        h->pool[h->n_pool++] = b;
    else
        free(b);
}

static void unlink_chunk(http_source *h, chunk *victim)
{
    for (chunk **pp = &h->chunks; *pp; pp = &(*pp)->next)
        if (*pp == victim) {
            *pp = victim->next;
            break;
        }
    if (victim->state == CH_READY)
        h->cached -= held(victim);
    buf_drop(h, victim->buf, victim->pooled);
    free(victim);
}

/* Drop the least recently used ready chunks while over the bound (mu held). */
static void evict(http_source *h)
{
    while (h->cached > NTX_HTTP_CACHE_MAX) {
        chunk *lru = NULL;
        for (chunk *c = h->chunks; c; c = c->next)
            if (c->state == CH_READY && (!lru || c->last_use < lru->last_use))
                lru = c;
        if (!lru)
            return;
        unlink_chunk(h, lru);
    }
}

static void *worker(void *arg)
{
    http_source *h = arg;
    pthread_mutex_lock(&h->mu);
    for (;;) {
        chunk *job = NULL;
        for (chunk *c = h->chunks; c; c = c->next)
            if (c->state == CH_QUEUED && (!job || c->last_use < job->last_use))
                job = c; /* oldest hint first */
        if (!job) {
            if (h->stop)
                break;
            pthread_cond_wait(&h->cv, &h->mu);
            continue;
        }
        if (h->batching && !h->stop) { /* a burst being announced: its end says when to ask */
            pthread_cond_wait(&h->cv, &h->mu);
            continue;
        }
        /* a large range is a request's worth alone: it would only wait for the others and be copied once more */
        int multi = !h->azure && !h->no_multi && !job->solo && job->len < NTX_HTTP_MULTI_PART;
        if (multi && !h->stop && now_us() - h->last_hint_us < NTX_HTTP_GATHER_US) {
            /* a burst of hints under way: wait for its end, to ask for its ranges together */
            pthread_mutex_unlock(&h->mu);
            struct timespec ts = {0, NTX_HTTP_GATHER_US * 1000L / 4};
            nanosleep(&ts, NULL);
            pthread_mutex_lock(&h->mu);
            continue;
        }
        /* the job, and with it (in a multi-range request) the other queued ranges, in offset order */
        chunk *group[NTX_HTTP_RANGES];
        int n = 0;
        group[n++] = job;
        uint64_t total = job->len;
        for (chunk *c = h->chunks; multi && c && n < NTX_HTTP_RANGES; c = c->next)
            if (c != job && c->state == CH_QUEUED && !c->solo && c->len < NTX_HTTP_MULTI_PART &&
                total + c->len <= NTX_HTTP_CHUNK) {
                group[n++] = c;
                total += c->len;
            }
        for (int i = 1; i < n; i++) /* insertion sort: few */
            for (int k = i; k > 0 && group[k - 1]->off > group[k]->off; k--) {
                chunk *t = group[k];
                group[k] = group[k - 1];
                group[k - 1] = t;
            }
        for (int i = 0; i < n; i++)
            group[i]->state = CH_LOADING;
        pthread_mutex_unlock(&h->mu);
        if (n > 1) {
            uint8_t *bufs[NTX_HTTP_RANGES];
            int have = 1;
            for (int i = 0; i < n; i++)
                have &= (bufs[i] = malloc(group[i]->len)) != NULL;
            int ok = have && get_multi(h, group, bufs, n);
            int taken[NTX_HTTP_RANGES] = {0};
            for (int i = 0; ok && i < n; i++) /* before any read is served from them (the buffers are ours) */
                taken[i] = ntx_source_arrived(&h->s, group[i]->off, bufs[i], group[i]->len);
            pthread_mutex_lock(&h->mu);
            for (int i = 0; i < n; i++) {
                if (group[i]->released) { /* (fetched or not: nobody is to read it) */
                    group[i]->buf = bufs[i];
                    unlink_chunk(h, group[i]);
                } else if (ok) {
                    group[i]->buf = bufs[i];
                    group[i]->taken = taken[i];
                    group[i]->state = CH_READY;
                    h->cached += held(group[i]);
                } else { /* asked for again alone, where faults are retried and reported */
                    free(bufs[i]);
                    group[i]->state = h->stop ? CH_FAILED : CH_QUEUED;
                    group[i]->solo = 1;
                }
            }
            if (ok)
                evict(h);
            pthread_cond_broadcast(&h->cv);
            continue;
        }
        int pooled;
        uint8_t *buf = buf_new(h, job->len, &pooled);
        ntx_err e;
        memset(&e, 0, sizeof e);
        uint64_t got = 0;
        int rc = buf ? get_range(h, job->off, job->len, buf, 0, &got, &e) : NTIDX_E_NOMEM;
        int taken = rc == NTIDX_OK && ntx_source_arrived(&h->s, job->off, buf, job->len);
        pthread_mutex_lock(&h->mu);
        if (job->released) {
            job->buf = buf;
            job->pooled = pooled;
            unlink_chunk(h, job);
        } else if (rc == NTIDX_OK) {
            job->buf = buf;
            job->pooled = pooled;
            job->taken = taken;
            job->state = CH_READY;
            h->cached += held(job);
            evict(h);
        } else {
            buf_drop(h, buf, pooled); /* a read of it asks again, and reports the error itself */
            job->state = CH_FAILED;
        }
        pthread_cond_broadcast(&h->cv);
    }
    pthread_mutex_unlock(&h->mu);
    return NULL;
}

static void http_prefetch(ntx_source *s, uint64_t off, uint64_t len)
{
    http_source *h = (http_source *)s;
    uint64_t end = off + len;
    pthread_mutex_lock(&h->mu);
    h->last_hint_us = now_us();
    uint64_t pos = off;
    while (pos < end) {
        chunk *c = find_chunk(h, pos);
        if (c) {
            c->last_use = ++h->clock;
            pos = c->off + c->len;
            continue;
        }
        uint64_t gap_end = next_chunk_start(h, pos, end);
        /* coalesce: a queued chunk that ends here grows (up to a request's size) */
        chunk *tail = NULL;
        for (chunk *q = h->chunks; q; q = q->next)
            if (q->state == CH_QUEUED && q->off + q->len == pos && q->len < NTX_HTTP_CHUNK)
                tail = q;
        if (tail) {
            uint64_t grow = gap_end - pos < NTX_HTTP_CHUNK - tail->len ? gap_end - pos : NTX_HTTP_CHUNK - tail->len;
            tail->len += grow;
            pos += grow;
            continue;
        }
        chunk *n = calloc(1, sizeof *n);
        if (!n)
            break;
        n->off = pos;
        n->len = gap_end - pos < NTX_HTTP_CHUNK ? gap_end - pos : NTX_HTTP_CHUNK;
        n->state = CH_QUEUED;
        n->last_use = ++h->clock;
        n->next = h->chunks;
        h->chunks = n;
        pos += n->len;
    }
    while (h->n_workers < NTX_HTTP_WORKERS && !h->stop) {
        if (pthread_create(&h->workers[h->n_workers], NULL, worker, h) != 0)
            break;
        h->n_workers++;
    }
    pthread_cond_broadcast(&h->cv);
    pthread_mutex_unlock(&h->mu);
}

static void http_batch(ntx_source *s, int begin)
{
    http_source *h = (http_source *)s;
    pthread_mutex_lock(&h->mu);
    if (begin)
        h->batching++;
    else if (h->batching > 0 && --h->batching == 0) {
        h->last_hint_us = 0; /* the burst is over: no wait for more */
        pthread_cond_broadcast(&h->cv);
    }
    pthread_mutex_unlock(&h->mu);
}

static int http_read(ntx_source *s, uint64_t off, void *out, size_t len, ntx_err *err)
{
    http_source *h = (http_source *)s;
    uint8_t *dst = out;
    uint64_t pos = off, end = off + len;
    pthread_mutex_lock(&h->mu);
    while (pos < end) {
        chunk *c = find_chunk(h, pos);
        if (c && c->state == CH_READY) {
            uint64_t n = c->off + c->len - pos < end - pos ? c->off + c->len - pos : end - pos;
            memcpy(dst + (pos - off), c->buf + (pos - c->off), n);
            c->last_use = ++h->clock;
            pos += n;
            continue;
        }
        if (c) { /* being fetched: wait for it (a failed one is asked for again below) */
            pthread_cond_wait(&h->cv, &h->mu);
            continue;
        }
        /* Not held: ask for the gap, at least NTX_HTTP_MIN_READ, up to the next chunk; keep what came. */
        uint64_t limit = next_chunk_start(h, pos, s->id.size);
        uint64_t want = end - pos;
        if (want < NTX_HTTP_MIN_READ)
            want = NTX_HTTP_MIN_READ;
        if (want > limit - pos)
            want = limit - pos;
        chunk *n = calloc(1, sizeof *n);
        uint8_t *buf = n ? malloc(want) : NULL;
        if (!buf) {
            free(n);
            pthread_mutex_unlock(&h->mu);
            return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
        }
        n->off = pos;
        n->len = want;
        n->state = CH_LOADING;
        n->last_use = ++h->clock;
        n->next = h->chunks;
        h->chunks = n;
        pthread_mutex_unlock(&h->mu);
        uint64_t got = 0;
        int rc = get_range(h, pos, want, buf, 0, &got, err);
        pthread_mutex_lock(&h->mu);
        if (rc != NTIDX_OK) {
            free(buf);
            n->state = CH_FAILED;
            unlink_chunk(h, n);
            pthread_cond_broadcast(&h->cv);
            pthread_mutex_unlock(&h->mu);
            return rc;
        }
        n->buf = buf;
        n->state = CH_READY;
        h->cached += held(n);
        pthread_cond_broadcast(&h->cv);
        /* copied by the loop's next turn; evicted only after */
    }
    /* drop failed prefetches: their ranges are asked for again when read */
    for (chunk *c = h->chunks, *next; c; c = next) {
        next = c->next;
        if (c->state == CH_FAILED)
            unlink_chunk(h, c);
    }
    evict(h);
    pthread_mutex_unlock(&h->mu);
    return NTIDX_OK;
}

/* Drop the chunks wholly inside [off, off+len): a ready or queued one now (a read waiting for a queued one asks
   for its range itself), one being fetched when its bytes come (its arrival may have woken the reader that
   releases it before the fetch is over: it must not stay cached after). */
static void http_release(ntx_source *s, uint64_t off, uint64_t len)
{
    http_source *h = (http_source *)s;
    pthread_mutex_lock(&h->mu);
    for (chunk *c = h->chunks, *next; c; c = next) {
        next = c->next;
        if (c->off < off || c->off + c->len > off + len)
            continue;
        if (c->state == CH_READY || c->state == CH_QUEUED)
            unlink_chunk(h, c);
        else if (c->state == CH_LOADING)
            c->released = 1;
    }
    pthread_cond_broadcast(&h->cv);
    pthread_mutex_unlock(&h->mu);
}

static void http_close(ntx_source *s)
{
    http_source *h = (http_source *)s;
    pthread_mutex_lock(&h->mu);
    h->stop = 1;
    for (chunk *c = h->chunks; c; c = c->next)
        if (c->state == CH_QUEUED)
            c->state = CH_FAILED; /* not fetched now */
    pthread_cond_broadcast(&h->cv);
    pthread_mutex_unlock(&h->mu);
    for (int i = 0; i < h->n_workers; i++)
        pthread_join(h->workers[i], NULL);
    while (h->chunks) {
        chunk *c = h->chunks;
        h->chunks = c->next;
        free(c->buf);
        free(c);
    }
    for (int i = 0; i < h->n_pool; i++)
        free(h->pool[i]);
    for (int i = 0; i < h->n_idle; i++)
        ntx_curl.easy_cleanup(h->idle[i]);
    if (h->share)
        ntx_curl.share_cleanup(h->share);
    for (int i = 0; i < CURL_LOCK_DATA_LAST; i++)
        pthread_mutex_destroy(&h->share_lock[i]);
    pthread_mutex_destroy(&h->mu);
    pthread_cond_destroy(&h->cv);
    if (h->signer && h->signer->free)
        h->signer->free(h->signer);
    if (h->url) {
        memset(h->url, 0, strlen(h->url)); /* it may hold a token */
        free(h->url);
    }
    ntx_source_fini(s);
    free(h);
}

static const struct ntx_source_ops http_ops = {http_read, NULL, http_prefetch, http_release, http_close, http_batch};

int ntx_http_open(ntx_source **out, const char *url, const char *shown, ntx_http_signer *signer, int azure,
                  ntx_err *err)
{
    *out = NULL;
    if (ntx_remote_libs_load(err) < 0) {
        if (signer && signer->free)
            signer->free(signer);
        return err->code;
    }
    http_source *h = calloc(1, sizeof *h);
    char *redacted = shown ? NULL : ntx_url_redact(url);
    if (!h || (!shown && !redacted) || !(h->url = strdup(url))) {
        free(redacted);
        if (h)
            free(h);
        if (signer && signer->free)
            signer->free(signer);
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    }
    pthread_mutex_init(&h->mu, NULL);
    pthread_cond_init(&h->cv, NULL);
    for (int i = 0; i < CURL_LOCK_DATA_LAST; i++)
        pthread_mutex_init(&h->share_lock[i], NULL);
    h->signer = signer;
    h->azure = azure;
    int rc = ntx_source_init(&h->s, &http_ops, shown ? shown : redacted, err);
    free(redacted);
    if (rc != NTIDX_OK) {
        h->s.name = NULL;
        http_close(&h->s);
        return rc;
    }
    h->s.remote = 1;
    h->share = ntx_curl.share_init();
    if (h->share) {
        ntx_curl.share_setopt(h->share, CURLSHOPT_LOCKFUNC, share_lock);
        ntx_curl.share_setopt(h->share, CURLSHOPT_UNLOCKFUNC, share_unlock);
        ntx_curl.share_setopt(h->share, CURLSHOPT_USERDATA, h);
        ntx_curl.share_setopt(h->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
        ntx_curl.share_setopt(h->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
        ntx_curl.share_setopt(h->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_CONNECT);
    }
    /* The first request: the trace's head, its size and version. */
    uint8_t *head = malloc(NTX_HTTP_FIRST);
    uint64_t got = 0;
    rc = head ? get_range(h, 0, NTX_HTTP_FIRST, head, 1, &got, err) : ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    if (rc != NTIDX_OK) {
        free(head);
        http_close(&h->s);
        return rc;
    }
    if (got > 0) {
        chunk *c = calloc(1, sizeof *c);
        if (!c) {
            free(head);
            http_close(&h->s);
            return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
        }
        c->off = 0;
        c->len = got;
        c->buf = head;
        c->state = CH_READY;
        h->chunks = c;
        h->cached = got;
    } else
        free(head);
    *out = &h->s;
    return NTIDX_OK;
}

int ntx_http_put(const char *url, const char *shown, const ntx_http_signer *signer, int azure, const void *data,
                 size_t len, ntx_err *err)
{
    if (ntx_remote_libs_load(err) < 0)
        return err->code;
    CURL *c = ntx_curl.easy_init();
    int rc = NTIDX_OK;
    if (!c)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    for (int attempt = 0;; attempt++) {
        response r;
        memset(&r, 0, sizeof r);
        struct curl_slist *hdr = NULL;
        hdr = ntx_curl.slist_append(hdr, "Content-Type: application/octet-stream");
        hdr = ntx_curl.slist_append(hdr, "Expect:");
        if (azure) {
            hdr = ntx_curl.slist_append(hdr, "x-ms-blob-type: BlockBlob");
            hdr = ntx_curl.slist_append(hdr, "x-ms-version: " NTX_AZURE_VERSION);
        }
        if (signer) {
            ntx_http_request req = {"PUT", NULL, NULL, len, azure};
            if ((rc = signer->sign(signer, &req, &hdr, err)) != NTIDX_OK) {
                ntx_curl.slist_free_all(hdr);
                break;
            }
        }
        ntx_curl.easy_reset(c);
        set_common(c, NULL, r.curl_err);
        ntx_curl.easy_setopt(c, CURLOPT_URL, url);
        ntx_curl.easy_setopt(c, CURLOPT_CUSTOMREQUEST, "PUT");
        ntx_curl.easy_setopt(c, CURLOPT_POSTFIELDS, data);
        ntx_curl.easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
        ntx_curl.easy_setopt(c, CURLOPT_HTTPHEADER, hdr);
        ntx_curl.easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
        ntx_curl.easy_setopt(c, CURLOPT_HEADERDATA, &r);
        ntx_curl.easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
        ntx_curl.easy_setopt(c, CURLOPT_WRITEDATA, &r);
        CURLcode cc = ntx_curl.easy_perform(c);
        ntx_curl.slist_free_all(hdr);
        if (cc != CURLE_OK) {
            if (cut_code(cc) && attempt < 1)
                continue;
            char why[CURL_ERROR_SIZE + 256];
            describe_failure(cc, r.curl_err, why, sizeof why);
            rc = ntx_err_set(err, NTIDX_E_WRITE, "cannot upload: %s", why);
            break;
        }
        if (transient_status(r.status) && attempt + 1 < NTX_HTTP_ATTEMPTS) {
            sleep_ms(backoff_ms(attempt));
            continue;
        }
        if (r.status < 200 || r.status >= 300) {
            char code[160] = "";
            if (r.error_code[0])
                snprintf(code, sizeof code, " (%s)", r.error_code);
            rc = ntx_err_set(err, NTIDX_E_WRITE, "cannot upload: HTTP %ld%s%s", r.status, code,
                             r.status == 403 ? ": the credentials do not allow writing it" : "");
        }
        break;
    }
    ntx_curl.easy_setopt(c, CURLOPT_ERRORBUFFER, NULL); /* the last response's buffer is gone */
    ntx_curl.easy_cleanup(c);
    return rc;
}
