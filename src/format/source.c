/* The byte source's common part: opening by name, checked reads, hints, the redacted URL (source.h). */
#include "source.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ntidx/ntidx.h"
#include "ntidx/source.h"

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
    if (!ntx_source_is_url(name))
        return pread_only ? ntx_source_open_pread(out, name, err) : ntx_source_open_mmap(out, name, err);
    /* az:// and an Azure blob URL are signed; any other URL is plain HTTP (source_azure.c tells them apart) */
    int rc = ntx_source_open_azure(out, name, err);
    if (rc == NTIDX_OK && !((*out)->open_name = strdup(name))) {
        ntx_source_close(*out);
        *out = NULL;
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    }
    return rc;
}

int ntx_source_init(ntx_source *s, const struct ntx_source_ops *ops, const char *name, ntx_err *err)
{
    memset(s, 0, sizeof *s);
    pthread_rwlock_init(&s->arrival_lock, NULL);
    s->ops = ops;
    s->name = strdup(name ? name : "");
    if (!s->name)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    return NTIDX_OK;
}

void ntx_source_on_arrival(ntx_source *s, int (*fn)(void *ctx, uint64_t off, const uint8_t *buf, uint64_t len),
                           void *ctx)
{
    pthread_rwlock_wrlock(&s->arrival_lock); /* waits for the calls under way */
    s->arrival = fn;
    s->arrival_ctx = ctx;
    pthread_rwlock_unlock(&s->arrival_lock);
}

int ntx_source_arrived(ntx_source *s, uint64_t off, const uint8_t *buf, uint64_t len)
{
    pthread_rwlock_rdlock(&s->arrival_lock);
    int taken = s->arrival ? s->arrival(s->arrival_ctx, off, buf, len) : 0;
    pthread_rwlock_unlock(&s->arrival_lock);
    return taken;
}

void ntx_source_fini(ntx_source *s)
{
    pthread_rwlock_destroy(&s->arrival_lock);
    free(s->name);
    s->name = NULL;
    if (s->open_name) {
        memset(s->open_name, 0, strlen(s->open_name)); /* it may hold a token */
        free(s->open_name);
        s->open_name = NULL;
    }
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

void ntx_source_batch(ntx_source *s, int begin)
{
    if (s->ops->batch)
        s->ops->batch(s, begin);
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

NTIDX_API int ntidx_is_url(const char *name) { return ntx_source_is_url(name); }

NTIDX_API char *ntidx_index_url(const char *trace_url)
{
    if (!ntx_source_is_url(trace_url))
        return NULL;
    size_t path = strcspn(trace_url, "?#"), n = strlen(trace_url);
    char *u = malloc(n + 7);
    if (!u)
        return NULL;
    memcpy(u, trace_url, path);
    memcpy(u + path, ".ntidx", 6);
    memcpy(u + path + 6, trace_url + path, n - path + 1);
    return u;
}

NTIDX_API int ntidx_url_upload(const char *url, const char *path)
{
    if (!url || !path || !ntx_source_is_url(url))
        return ntx_failf(NTIDX_E_INVALID_ARG, path, NTIDX_NO_OFFSET, "ntidx_url_upload: %s",
                         url && path ? "not a URL (http://, https://, az://)" : "NULL argument");
    char *shown = ntx_url_redact(url);
    ntx_err err = {0};
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    int rc;
    if (fd < 0 || fstat(fd, &st) != 0)
        rc = ntx_err_set(&err, NTIDX_E_IO, "cannot read %s: %s", path, strerror(errno));
    else {
        size_t len = (size_t)st.st_size;
        void *p = len ? mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
        if (len && p == MAP_FAILED)
            rc = ntx_err_set(&err, NTIDX_E_IO, "cannot read %s: %s", path, strerror(errno));
        else {
            rc = ntx_source_put(url, p, len, &err);
            if (len)
                munmap(p, len);
        }
    }
    if (fd >= 0)
        close(fd);
    rc = rc < 0 ? ntx_fail(rc, shown ? shown : "URL", &err) : NTIDX_OK;
    free(shown);
    return rc;
}
