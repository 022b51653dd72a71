/* The byte source's common part: opening by name, checked reads, hints, the redacted URL (source.h). */
#include "source.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ntidx/ntidx.h"

int ntx_source_is_url(const char *name)
{
    return name && (strncasecmp(name, "http://", 7) == 0 || strncasecmp(name, "https://", 8) == 0 ||
                    strncasecmp(name, "az://", 5) == 0);
}

int ntx_source_open(ntx_source **out, const char *name, int pread_only, ntx_err *err)
{
    *out = NULL;
    if (!name || !*name)
        return ntx_err_set(err, NTIDX_E_INVALID_ARG, "no trace named");
    if (strncasecmp(name, "az://", 5) == 0)
        return ntx_source_open_azure(out, name, err);
    if (ntx_source_is_url(name))
        return ntx_source_open_azure(out, name, err); /* an Azure blob URL is signed; any other URL is plain HTTP */
    return pread_only ? ntx_source_open_pread(out, name, err) : ntx_source_open_mmap(out, name, err);
}

int ntx_source_init(ntx_source *s, const struct ntx_source_ops *ops, const char *name, ntx_err *err)
{
    memset(s, 0, sizeof *s);
    s->ops = ops;
    s->name = strdup(name ? name : "");
    if (!s->name)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    return NTIDX_OK;
}

void ntx_source_fini(ntx_source *s)
{
    free(s->name);
    s->name = NULL;
}

int ntx_source_read(ntx_source *s, uint64_t off, void *buf, size_t len, ntx_err *err)
{
    if (off > s->id.size || len > s->id.size - off)
        return ntx_err_at(err, NTIDX_E_TRUNCATED, off, "%zu bytes asked for, the trace ends at %llu", len,
                          (unsigned long long)s->id.size);
    if (len == 0)
        return NTIDX_OK;
    return s->ops->read(s, off, buf, len, err);
}

/* Hints are clamped to the object: callers ask "the next 8 MiB" near the end. */
static int clamp(const ntx_source *s, uint64_t off, uint64_t *len)
{
    if (off >= s->id.size || *len == 0)
        return 0;
    if (*len > s->id.size - off)
        *len = s->id.size - off;
    return 1;
}

void ntx_source_prefetch(ntx_source *s, uint64_t off, uint64_t len)
{
    if (s->ops->prefetch && clamp(s, off, &len))
        s->ops->prefetch(s, off, len);
}

void ntx_source_release(ntx_source *s, uint64_t off, uint64_t len)
{
    if (s->ops->release && clamp(s, off, &len))
        s->ops->release(s, off, len);
}

void ntx_source_close(ntx_source *s)
{
    if (s)
        s->ops->close(s);
}

char *ntx_url_redact(const char *url)
{
    size_t n = strcspn(url, "?#");
    char *r = malloc(n + 1);
    if (!r)
        return NULL;
    /* scheme://user:password@host/... loses user:password@ */
    const char *sep = strstr(url, "://");
    size_t w = 0, i = 0;
    if (sep && (size_t)(sep - url) < n) {
        size_t host = (size_t)(sep - url) + 3;
        size_t end = host + strcspn(url + host, "/?#");
        const char *at = memchr(url + host, '@', end - host);
        memcpy(r, url, host);
        w = host;
        i = at ? (size_t)(at - url) + 1 : host;
    }
    memcpy(r + w, url + i, n - i);
    r[w + n - i] = 0;
    return r;
}
