/*
 * Where a trace's index lives when nobody says: beside the trace, or in the
 * index directory (NTIDX_INDEX_DIR, else the user's cache when the trace's
 * folder cannot be written: traces of batch jobs often sit on read-only
 * shared storage, and an index that cannot be saved would be rebuilt by
 * every command).
 *
 * In the directory an index is named after the trace's identity: its file
 * name (for people), then 16 hex digits of xxh3-64 over its canonical
 * absolute path and inode number. The same file always gets the same name
 * (whatever path or link it is opened by), two files never share one, and a
 * trace that grows keeps its name (size and times are not part of it: the
 * index records them, and its load checks them as it does beside the trace).
 *
 * A remote trace's index is always in the index directory (a URL has no
 * folder to write to), named after the object's name, then 16 hex digits of
 * xxh3-64 over its URL without the query string, its ETag and its size: an
 * object that changed gets another name, so that the name is the identity
 * check and opening the index reads nothing of the trace to make it
 * (ntx_index_keyed()).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hash.h"
#include "index_internal.h"
#include "ntidx/output.h"
#include "ntidx/source.h"
#include "source.h"

/* A copy of `s` without trailing slashes (but "/" stays). */
static char *trimmed(const char *s)
{
    size_t n = strlen(s);
    while (n > 1 && s[n - 1] == '/')
        n--;
    char *c = malloc(n + 1);
    if (c) {
        memcpy(c, s, n);
        c[n] = 0;
    }
    return c;
}

/* The user's cache directory (XDG), or NULL. */
static char *cache_dir(void)
{
    /* XDG Base Directory: $XDG_CACHE_HOME when set to an absolute path, else $HOME/.cache. */
    const char *cache = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    char buf[PATH_MAX];
    if (cache && cache[0] == '/')
        snprintf(buf, sizeof buf, "%s/ntidx", cache);
    else if (home && home[0] == '/')
        snprintf(buf, sizeof buf, "%s/.cache/ntidx", home);
    else
        return NULL;
    return trimmed(buf);
}

/* The index directory when one applies to this trace: NTIDX_INDEX_DIR, or the cache when `folder` cannot
   be written (NULL folder: a remote trace, which has none). NULL when the index stays beside the trace (or
   out of memory: then too). *xdg: the directory is the user's cache (created private). */
static char *index_dir(const char *folder, int *xdg)
{
    *xdg = 0;
    const char *env = getenv("NTIDX_INDEX_DIR");
    if (env && *env)
        return trimmed(env);
    if (folder && access(folder, W_OK) == 0)
        return NULL;
    *xdg = 1;
    return cache_dir();
}


/* A remote trace's index: in the index directory, named after the object and keyed by its identity. */
static int locate_remote(const char *url, const ntx_source_identity *id, char **path, int *in_dir, int *private_dir)
{
    char *shown = ntx_url_redact(url);
    int xdg = 0;
    char *dir = shown ? index_dir(NULL, &xdg) : NULL;
    if (!dir) { /* no NTIDX_INDEX_DIR and no cache (no HOME): the working directory's */
        free(dir);
        dir = strdup(".");
    }
    if (!shown || !dir) {
        free(shown);
        free(dir);
        return NTIDX_E_NOMEM;
    }
    /* the object's last name, for people: what is left after the last '/', nothing that is not plain */
    const char *base = strrchr(shown, '/');
    base = base && base[1] ? base + 1 : "trace";
    char name[128];
    size_t n = 0;
    for (; *base && n < sizeof name - 1; base++)
        name[n++] = (isalnum((unsigned char)*base) || strchr("._-", *base)) ? *base : '_';
    name[n] = 0;
    /* the identity: the URL without its query (the same object whatever token reads it), NUL, ETag, NUL, size */
    size_t klen = strlen(shown) + strlen(id->etag) + 32;
    char *key = malloc(klen);
    if (!key) {
        free(shown);
        free(dir);
        return NTIDX_E_NOMEM;
    }
    int k = snprintf(key, klen, "%s%c%s%c%llu", shown, 0, id->etag, 0, (unsigned long long)id->size);
    uint64_t h = ntx_xxh3(key, k > 0 && (size_t)k < klen ? (size_t)k : strlen(shown));
    free(key);
    size_t len = strlen(dir) + n + 40;
    *path = malloc(len);
    if (*path)
        snprintf(*path, len, "%s/%s.%016llx.ntidx", dir, name, (unsigned long long)h);
    free(dir);
    free(shown);
    if (!*path)
        return NTIDX_E_NOMEM;
    *in_dir = 1;
    *private_dir = xdg;
    return 0;
}

int ntx_index_locate_trace(const ntidx_trace *t, char **path, int *in_dir, int *private_dir)
{
    const ntx_source *src = ntx_trace_source(t);
    if (src && src->remote && ntx_source_is_url(t->name))
        return locate_remote(t->name, &src->id, path, in_dir, private_dir);
    return ntx_index_locate(t->name, path, in_dir, private_dir);
}

int ntx_index_keyed(const ntidx_trace *t, const char *path)
{
    const ntx_source *src = ntx_trace_source(t);
    if (!path || !src || !src->remote || !ntx_source_is_url(t->name) || !src->id.etag[0])
        return 0; /* no ETag: the name cannot prove the object unchanged */
    char *own = NULL;
    int in_dir, priv;
    int same = locate_remote(t->name, &src->id, &own, &in_dir, &priv) == 0 && strcmp(own, path) == 0;
    free(own);
    return same;
}

int ntx_index_locate(const char *trace_path, char **path, int *in_dir, int *private_dir)
{
    *path = NULL;
    *in_dir = 0;
    *private_dir = 0;
    if (ntx_source_is_url(trace_path)) { /* its identity is the object's: one request asks for it */
        ntx_source *src;
        ntx_err err = {0};
        if (ntx_source_open(&src, trace_path, 0, &err) != NTIDX_OK) {
            ntx_source_identity none;
            memset(&none, 0, sizeof none);
            return locate_remote(trace_path, &none, path, in_dir, private_dir);
        }
        int rc = locate_remote(trace_path, &src->id, path, in_dir, private_dir);
        ntx_source_close(src);
        return rc;
    }
    char *real = realpath(trace_path, NULL);
    struct stat st;
    if (!real || stat(real, &st) != 0) { /* not a file we can name (a trace in memory): beside it */
        free(real);
        *path = ntidx_index_default_path(trace_path);
        return *path ? 0 : NTIDX_E_NOMEM;
    }
    char *slash = strrchr(real, '/');
    char *folder = slash == real ? strdup("/") : strndup(real, (size_t)(slash - real));
    int xdg = 0;
    char *dir = folder ? index_dir(folder, &xdg) : NULL;
    free(folder);
    if (!dir) {
        free(real);
        *path = ntidx_index_default_path(trace_path);
        return *path ? 0 : NTIDX_E_NOMEM;
    }
    /* the identity: canonical path, NUL, inode */
    size_t rlen = strlen(real);
    char id[PATH_MAX + 32];
    int n = snprintf(id, sizeof id, "%s%c%llu", real, 0, (unsigned long long)st.st_ino);
    uint64_t h = ntx_xxh3(id, n > 0 && (size_t)n < sizeof id ? (size_t)n : rlen);
    size_t len = strlen(dir) + strlen(slash + 1) + 32;
    *path = malloc(len);
    if (*path)
        snprintf(*path, len, "%s/%s.%016llx.ntidx", dir, slash + 1, (unsigned long long)h);
    free(dir);
    free(real);
    if (!*path)
        return NTIDX_E_NOMEM;
    *in_dir = 1;
    *private_dir = xdg;
    return 0;
}

NTIDX_API char *ntidx_index_path(const char *trace_path)
{
    if (!trace_path)
        return NULL;
    char *p;
    int in_dir, priv;
    return ntx_index_locate(trace_path, &p, &in_dir, &priv) == 0 ? p : NULL;
}

int ntx_make_dirs(const char *file_path, int private_dir, ntx_err *err)
{
    char *p = strdup(file_path);
    if (!p)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
    char *slash = strrchr(p, '/');
    if (!slash || slash == p) {
        free(p);
        return 0;
    }
    *slash = 0;
    /* every missing level, from the top: the cache is the user's alone (XDG: mode 0700) */
    for (char *s = p + 1;; s++) {
        int last = *s == 0;
        if (*s == '/' || last) {
            char c = *s;
            *s = 0;
            if (mkdir(p, private_dir ? 0700 : 0777) != 0 && errno != EEXIST) {
                int e = errno;
                ntx_err_set(err, NTIDX_E_IO, "cannot create the index directory %s: %s", p, strerror(e));
                free(p);
                return NTIDX_E_IO;
            }
            *s = c;
        }
        if (last)
            break;
    }
    free(p);
    return 0;
}

int ntx_index_fetch_beside(const ntidx_trace *t, const char *path, int private_dir)
{
    const ntx_source *src = ntx_trace_source(t);
    if (!src || !src->remote || !src->open_name)
        return 0;
    char *url = ntidx_index_url(src->open_name); /* with the trace's credentials (a SAS token) */
    ntx_source *ix = NULL;
    ntx_err err = {0};
    int got = 0;
    if (url && ntx_source_open(&ix, url, 0, &err) == NTIDX_OK && ix->id.size > 0 &&
        ix->id.size < ((uint64_t)1 << 34) && ntx_make_dirs(path, private_dir, &err) == 0) {
        uint8_t *buf = malloc((size_t)ix->id.size);
        ntidx_output *o = NULL;
        ntx_source_prefetch(ix, 0, ix->id.size); /* 8 MiB requests, several in flight */
        if (buf && ntx_source_read(ix, 0, buf, (size_t)ix->id.size, &err) == NTIDX_OK &&
            ntidx_output_open(path, &o) == NTIDX_OK) {
            size_t done = 0;
            while (done < ix->id.size) {
                ssize_t w = write(ntidx_output_fd(o), buf + done, (size_t)ix->id.size - done);
                if (w <= 0)
                    break;
                done += (size_t)w;
            }
            if (done == ix->id.size && ntidx_output_commit(&o) == NTIDX_OK)
                got = 1;
            else
                ntidx_output_discard(&o);
        }
        free(buf);
    }
    ntx_source_close(ix);
    free(url);
    return got; /* none, or not to be had: the index is built */
}
