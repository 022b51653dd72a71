/*
 * Azure Blob Storage (source.h): names, credentials and Shared Key signing
 * over the HTTP range source (source_http.c).
 *
 * Names (docs/remote.md):
 *   az://CONTAINER/BLOB          the account of the environment: AZURE_STORAGE_CONNECTION_STRING (its
 *                                BlobEndpoint honoured, as Azurite's sets it) or AZURE_STORAGE_ACCOUNT (at
 *                                AZURE_STORAGE_SERVICE_ENDPOINT when set, as the Azure CLI takes it)
 *   az://ACCOUNT/CONTAINER/BLOB  when the environment names no account, or names this one
 *   https://ACCOUNT.blob.core.windows.net/CONTAINER/BLOB, or a URL under the connection string's
 *   BlobEndpoint; any other http(s) URL is plain HTTP.
 * Credentials, as Azure's tools take them: a SAS token in the URL (then nothing is signed); the
 * connection string's AccountKey or SharedAccessSignature; AZURE_STORAGE_KEY (Shared Key) or
 * AZURE_STORAGE_SAS_TOKEN with AZURE_STORAGE_ACCOUNT; else anonymous (a public container).
 * Shared Key signatures are HMAC-SHA256 computed with OpenSSL's libcrypto. No secret is ever in a
 * message: names are shown without their query string, keys only signed with.
 */
#include "source_http.h"
#include "remote_libs.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "ntidx/ntidx.h"

/* Where an Azure name leads: the URL to ask, what messages show, how to sign. */
typedef struct az_target {
    char *url;      /* endpoint/container/blob[?sas]: may hold a secret */
    char *shown;    /* the same without the query */
    char *account;
    char *resource; /* the canonicalized resource: "/" account + the URL's path */
    unsigned char key[96];
    int key_len;    /* 0: no Shared Key */
} az_target;

typedef struct az_env {
    char account[256], endpoint[1024], key[256], sas[2048];
} az_env;

static void copy_value(char *dst, size_t cap, const char *v, size_t n)
{
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, v, n);
    dst[n] = 0;
}

/* The account the environment names, its endpoint and credentials ("" when absent). */
static void read_env(az_env *e)
{
    memset(e, 0, sizeof *e);
    const char *cs = getenv("AZURE_STORAGE_CONNECTION_STRING");
    char proto[16] = "https", suffix[256] = "core.windows.net";
    if (cs && *cs) {
        const char *p = cs;
        while (*p) {
            size_t n = strcspn(p, ";");
            const char *eq = memchr(p, '=', n);
            if (eq) {
                size_t kn = (size_t)(eq - p), vn = n - kn - 1;
                const char *v = eq + 1;
                if (kn == 11 && strncasecmp(p, "AccountName", kn) == 0)
                    copy_value(e->account, sizeof e->account, v, vn);
                else if (kn == 10 && strncasecmp(p, "AccountKey", kn) == 0)
                    copy_value(e->key, sizeof e->key, v, vn);
                else if (kn == 12 && strncasecmp(p, "BlobEndpoint", kn) == 0)
                    copy_value(e->endpoint, sizeof e->endpoint, v, vn);
                else if (kn == 23 && strncasecmp(p, "DefaultEndpointsProtocol", kn) == 0)
                    copy_value(proto, sizeof proto, v, vn);
                else if (kn == 14 && strncasecmp(p, "EndpointSuffix", kn) == 0)
                    copy_value(suffix, sizeof suffix, v, vn);
                else if (kn == 21 && strncasecmp(p, "SharedAccessSignature", kn) == 0)
                    copy_value(e->sas, sizeof e->sas, v, vn);
                else if (kn == 22 && strncasecmp(p, "UseDevelopmentStorage", kn) == 0 && vn == 4 &&
                         strncasecmp(v, "true", 4) == 0) { /* the emulator's well-known account */
                    snprintf(e->account, sizeof e->account, "devstoreaccount1");
                    snprintf(e->key, sizeof e->key, "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/"
                                                    "K1SZFPTOtr/KBHBeksoGMGw==");
                    snprintf(e->endpoint, sizeof e->endpoint, "http://127.0.0.1:10000/devstoreaccount1");
                }
            }
            p += n;
            if (*p == ';')
                p++;
        }
        if (!e->endpoint[0] && e->account[0])
            snprintf(e->endpoint, sizeof e->endpoint, "%s://%s.blob.%s", proto, e->account, suffix);
    } else {
        const char *a = getenv("AZURE_STORAGE_ACCOUNT");
        if (a && *a) {
            snprintf(e->account, sizeof e->account, "%s", a);
            /* the Azure CLI's --blob-endpoint (an emulator, a sovereign cloud) */
            const char *ep = getenv("AZURE_STORAGE_SERVICE_ENDPOINT");
            if (ep && *ep)
                snprintf(e->endpoint, sizeof e->endpoint, "%s", ep);
            else
                snprintf(e->endpoint, sizeof e->endpoint, "https://%s.blob.core.windows.net", a);
            const char *k = getenv("AZURE_STORAGE_KEY");
            if (k)
                snprintf(e->key, sizeof e->key, "%s", k);
            const char *s = getenv("AZURE_STORAGE_SAS_TOKEN");
            if (s)
                snprintf(e->sas, sizeof e->sas, "%s", s[0] == '?' ? s + 1 : s);
        }
    }
    size_t n = strlen(e->endpoint);
    while (n > 0 && e->endpoint[n - 1] == '/')
        e->endpoint[--n] = 0;
}

static void target_free(az_target *t)
{
    if (t->url) {
        memset(t->url, 0, strlen(t->url));
        free(t->url);
    }
    free(t->shown);
    free(t->account);
    free(t->resource);
    memset(t, 0, sizeof *t);
}

/* The path of a URL ("/a/b" of "http://h:1/a/b?q"). */
static const char *url_path(const char *url)
{
    const char *p = strstr(url, "://");
    p = p ? p + 3 : url;
    p += strcspn(p, "/?#");
    return p;
}

/* Percent-encode a blob name for a URL path, keeping '/' and what needs no encoding. */
static void append_encoded(char *dst, size_t cap, const char *name, size_t n)
{
    size_t w = strlen(dst);
    static const char hex[] = "0123456789ABCDEF";
    for (size_t i = 0; i < n && w + 4 < cap; i++) {
        unsigned char c = (unsigned char)name[i];
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("-._~/", c))
            dst[w++] = (char)c;
        else if (c == '%' && i + 2 < n) /* already encoded */
            dst[w++] = (char)c;
        else {
            dst[w++] = '%';
            dst[w++] = hex[c >> 4];
            dst[w++] = hex[c & 15];
        }
    }
    dst[w] = 0;
}

static int decode_key(az_target *t, const char *b64, const char *shown, ntx_err *err)
{
    size_t n = strlen(b64);
    if (n == 0)
        return NTIDX_OK;
    if (n > 128 || n % 4)
        return ntx_err_set(err, NTIDX_E_INVALID_ARG, "the account key is not a base64 key");
    unsigned char tmp[100];
    int len = ntx_crypto.decode_block(tmp, (const unsigned char *)b64, (int)n);
    if (len < 0)
        return ntx_err_set(err, NTIDX_E_INVALID_ARG, "the account key is not a base64 key");
    while (n > 0 && b64[n - 1] == '=')
        n--, len--;
    memcpy(t->key, tmp, (size_t)len);
    t->key_len = len;
    memset(tmp, 0, sizeof tmp);
    return NTIDX_OK;
}

/*
 * Resolve an Azure name into a target. Returns 1 when `name` is Azure's (filled), 0 when it is a plain
 * http(s) URL that is no blob's, negative on error.
 */
static int resolve(const char *name, az_target *t, ntx_err *err)
{
    memset(t, 0, sizeof *t);
    az_env env;
    read_env(&env);
    char url[8192] = "";
    const char *query = NULL;
    const char *account = NULL;
    size_t account_len = 0;
    int use_env = 0;
    if (strncasecmp(name, "az://", 5) == 0) {
        const char *rest = name + 5;
        size_t path_len = strcspn(rest, "?#");
        query = rest[path_len] == '?' ? rest + path_len + 1 : NULL;
        /* components: the first, and whether there are three */
        size_t first = strcspn(rest, "/?#");
        int three = 0;
        if (rest[first] == '/') {
            const char *second = rest + first + 1;
            size_t sl = strcspn(second, "/?#");
            three = second[sl] == '/' && sl > 0;
        }
        int account_form = !env.account[0] ||
                           (three && strlen(env.account) == first && strncmp(rest, env.account, first) == 0);
        const char *cb = rest; /* container/blob */
        if (account_form) {
            if (!three)
                return ntx_err_set(err, NTIDX_E_INVALID_ARG,
                                   "az://%.*s: name an account (az://ACCOUNT/CONTAINER/BLOB), or set "
                                   "AZURE_STORAGE_CONNECTION_STRING or AZURE_STORAGE_ACCOUNT for az://CONTAINER/BLOB",
                                   (int)path_len, rest);
            account = rest;
            account_len = first;
            cb = rest + first + 1;
            use_env = env.account[0] && strlen(env.account) == first && strncmp(rest, env.account, first) == 0;
            if (use_env)
                snprintf(url, sizeof url, "%s/", env.endpoint);
            else
                snprintf(url, sizeof url, "https://%.*s.blob.core.windows.net/", (int)first, rest);
        } else {
            account = env.account;
            account_len = strlen(env.account);
            use_env = 1;
            snprintf(url, sizeof url, "%s/", env.endpoint);
        }
        size_t cb_len = path_len - (size_t)(cb - rest);
        if (cb_len == 0 || !memchr(cb, '/', cb_len) || cb[cb_len - 1] == '/')
            return ntx_err_set(err, NTIDX_E_INVALID_ARG, "az://%.*s: not CONTAINER/BLOB", (int)path_len, rest);
        append_encoded(url, sizeof url, cb, cb_len);
    } else {
        size_t path_len = strcspn(name, "?#");
        query = name[path_len] == '?' ? name + path_len + 1 : NULL;
        size_t ep = strlen(env.endpoint);
        const char *host = strstr(name, "://");
        host = host ? host + 3 : name;
        size_t host_len = strcspn(host, "/?#:");
        static const char blob_suffix[] = ".blob.core.windows.net";
        if (ep && strncasecmp(name, env.endpoint, ep) == 0 && name[ep] == '/') {
            account = env.account;
            account_len = strlen(env.account);
            use_env = 1;
        } else if (host_len > sizeof blob_suffix - 1 &&
                   strncasecmp(host + host_len - (sizeof blob_suffix - 1), blob_suffix, sizeof blob_suffix - 1) == 0) {
            account = host;
            account_len = strcspn(host, ".");
            use_env = env.account[0] && strlen(env.account) == account_len &&
                      strncasecmp(host, env.account, account_len) == 0;
        } else
            return 0; /* plain HTTP */
        copy_value(url, sizeof url, name, path_len);
    }
    size_t ul = strlen(url);
    if (ul + 2 >= sizeof url)
        return ntx_err_set(err, NTIDX_E_INVALID_ARG, "the blob's name is too long");
    t->shown = strdup(url);
    t->account = strndup(account, account_len);
    const char *sas = query && *query ? query : use_env && env.sas[0] ? env.sas : NULL;
    if (sas)
        snprintf(url + ul, sizeof url - ul, "?%s", sas[0] == '?' ? sas + 1 : sas);
    t->url = strdup(url);
    size_t rl = 1 + account_len + strlen(url_path(t->shown)) + 1;
    t->resource = malloc(rl);
    if (!t->shown || !t->account || !t->url || !t->resource) {
        target_free(t);
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    }
    snprintf(t->resource, rl, "/%.*s%s", (int)account_len, account, url_path(t->shown));
    if (!sas && use_env && env.key[0] && decode_key(t, env.key, t->shown, err) != NTIDX_OK) {
        target_free(t);
        return err->code;
    }
    memset(&env, 0, sizeof env);
    memset(url, 0, sizeof url);
    return 1;
}

/* ---- Shared Key ---- */

typedef struct shared_key {
    ntx_http_signer base;
    char *account, *resource;
    unsigned char key[96];
    int key_len;
} shared_key;

/* RFC 1123 in GMT, not through the locale (strftime's %a and %b are the locale's). */
static void http_date(char *out, size_t cap)
{
    static const char *day[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
    static const char *mon[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    snprintf(out, cap, "%s, %02d %s %04d %02d:%02d:%02d GMT", day[tm.tm_wday], tm.tm_mday, mon[tm.tm_mon],
             tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

static int shared_key_sign(const ntx_http_signer *base, const ntx_http_request *req, struct curl_slist **headers,
                           ntx_err *err)
{
    const shared_key *k = (const shared_key *)base;
    char date[64], length[32] = "", line[512];
    http_date(date, sizeof date);
    if (req->content_length)
        snprintf(length, sizeof length, "%llu", (unsigned long long)req->content_length);
    /* The string to sign (Blob service, version 2009-09-19 and later): the standard headers in their order,
       then the x-ms- headers sorted, then the resource. */
    size_t cap = 1024 + strlen(k->resource);
    char *sts = malloc(cap);
    if (!sts)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    snprintf(sts, cap, "%s\n\n\n%s\n\n%s\n\n\n%s\n\n\n%s\n%sx-ms-date:%s\nx-ms-version:%s\n%s", req->method, length,
             req->put_blob ? "application/octet-stream" : "", req->if_match ? req->if_match : "",
             req->range ? req->range : "", req->put_blob ? "x-ms-blob-type:BlockBlob\n" : "", date, NTX_AZURE_VERSION,
             k->resource);
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned mac_len = 0;
    unsigned char *ok = ntx_crypto.hmac(ntx_crypto.sha256(), k->key, k->key_len, (const unsigned char *)sts, strlen(sts), mac, &mac_len);
    free(sts);
    if (!ok)
        return ntx_err_set(err, NTIDX_E_IO, "cannot compute the request's signature (HMAC-SHA256)");
    unsigned char sig[EVP_MAX_MD_SIZE * 2];
    ntx_crypto.encode_block(sig, mac, (int)mac_len);
    snprintf(line, sizeof line, "x-ms-date: %s", date);
    *headers = ntx_curl.slist_append(*headers, line);
    snprintf(line, sizeof line, "Authorization: SharedKey %s:%s", k->account, (const char *)sig);
    *headers = ntx_curl.slist_append(*headers, line);
    memset(line, 0, sizeof line);
    return NTIDX_OK;
}

static void shared_key_free(ntx_http_signer *base)
{
    shared_key *k = (shared_key *)base;
    free(k->account);
    free(k->resource);
    memset(k, 0, sizeof *k);
    free(k);
}

static ntx_http_signer *make_signer(az_target *t)
{
    if (!t->key_len)
        return NULL;
    shared_key *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->base.sign = shared_key_sign;
    k->base.free = shared_key_free;
    k->account = strdup(t->account);
    k->resource = strdup(t->resource);
    memcpy(k->key, t->key, sizeof k->key);
    k->key_len = t->key_len;
    if (!k->account || !k->resource) {
        shared_key_free(&k->base);
        return NULL;
    }
    return &k->base;
}

int ntx_source_open_azure(ntx_source **out, const char *name, ntx_err *err)
{
    *out = NULL;
    az_target t;
    int rc = ntx_remote_libs_load(err) < 0 ? err->code : resolve(name, &t, err); /* a key is decoded there */
    if (rc < 0)
        return rc;
    if (rc == 0)
        return ntx_http_open(out, name, NULL, NULL, 0, err);
    ntx_http_signer *signer = make_signer(&t);
    if (t.key_len && !signer) {
        target_free(&t);
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    }
    rc = ntx_http_open(out, t.url, t.shown, signer, 1, err);
    target_free(&t);
    return rc;
}

int ntx_source_put(const char *name, const void *data, size_t len, ntx_err *err)
{
    az_target t;
    int rc = ntx_remote_libs_load(err) < 0 ? err->code : resolve(name, &t, err);
    if (rc < 0)
        return rc;
    if (rc == 0)
        return ntx_http_put(name, NULL, NULL, 0, data, len, err);
    ntx_http_signer *signer = make_signer(&t);
    rc = t.key_len && !signer ? ntx_err_set(err, NTIDX_E_NOMEM, "out of memory")
                              : ntx_http_put(t.url, t.shown, signer, 1, data, len, err);
    if (signer)
        signer->free(signer);
    target_free(&t);
    return rc;
}
