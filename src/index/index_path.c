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
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hash.h"
#include "index_internal.h"

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

/* The index directory when one applies to this trace: NTIDX_INDEX_DIR, or the cache when `folder` cannot
   be written. NULL when the index stays beside the trace (or out of memory: then too). *xdg: the
   directory is the user's cache (created private). */
static char *index_dir(const char *folder, int *xdg)
{
    *xdg = 0;
    const char *env = getenv("NTIDX_INDEX_DIR");
    if (env && *env)
        return trimmed(env);
    if (access(folder, W_OK) == 0)
        return NULL;
    *xdg = 1;
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

int ntx_index_locate(const char *trace_path, char **path, int *in_dir, int *private_dir)
{
    *path = NULL;
    *in_dir = 0;
    *private_dir = 0;
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
