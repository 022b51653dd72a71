/* Output files written safely: a temporary beside a regular file, renamed over it; in place otherwise (output.h). */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <ntidx/output.h>

#include "error.h"

struct ntidx_output {
    int fd;
    char *path;   /* as given */
    char *target; /* what the temporary is renamed to: path, or the file a symbolic link names */
    char *tmp;    /* NULL: written in place */
};

static void output_free(ntidx_output *o)
{
    if (o->target != o->path)
        free(o->target);
    free(o->path);
    free(o->tmp);
    free(o);
}

/* A temporary beside `target`, created here (O_EXCL) with mode 0666 less the umask, as open() would create
   `target` itself: mkstemp()'s 0600 would make the output unreadable to others for no reason. */
static int create_temporary(ntidx_output *o)
{
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    static atomic_uint counter;
    size_t n = strlen(o->target) + 16;
    if (!(o->tmp = malloc(n)))
        return NTIDX_E_NOMEM;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t seed = (uint64_t)ts.tv_nsec * 0x9E3779B97F4A7C15ull ^ (uint64_t)getpid() << 32;
    for (int attempt = 0; attempt < 100; attempt++) {
        uint64_t r = seed + (uint64_t)atomic_fetch_add(&counter, 1) * 0xD1B54A32D192ED03ull;
        r ^= r >> 29;
        r *= 0xBF58476D1CE4E5B9ull;
        r ^= r >> 32;
        char suffix[7];
        for (int i = 0; i < 6; i++, r /= 62)
            suffix[i] = alphabet[r % 62];
        suffix[6] = 0;
        snprintf(o->tmp, n, "%s.tmp.%s", o->target, suffix);
        o->fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (o->fd >= 0 || errno != EEXIST)
            break;
    }
    return o->fd >= 0 ? NTIDX_OK : NTIDX_E_IO;
}

NTIDX_API int ntidx_output_open(const char *path, ntidx_output **out)
{
    if (!out)
        return ntx_failf(NTIDX_E_INVALID_ARG, path, NTIDX_NO_OFFSET, "ntidx_output_open: NULL argument");
    *out = NULL;
    if (!path || !*path)
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, "ntidx_output_open: no path");
    ntidx_output *o = calloc(1, sizeof *o);
    if (!o || !(o->path = strdup(path))) {
        free(o);
        return ntx_failf(NTIDX_E_NOMEM, path, NTIDX_NO_OFFSET, "out of memory");
    }
    o->fd = -1;
    o->target = o->path;
    struct stat st, lst;
    int exists = stat(path, &st) == 0;
    if (!exists && errno != ENOENT) {
        int e = errno;
        output_free(o);
        return ntx_failf(NTIDX_E_IO, path, NTIDX_NO_OFFSET, "cannot write: %s", strerror(e));
    }
    int dangling = !exists && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode);
    if (exists && S_ISDIR(st.st_mode)) {
        output_free(o);
        return ntx_failf(NTIDX_E_IO, path, NTIDX_NO_OFFSET, "cannot write: %s", strerror(EISDIR));
    }
    int rc, in_place = (exists && !S_ISREG(st.st_mode)) || dangling;
    if (in_place) {
        /* A device, a FIFO, a socket: written in place (renaming over it would replace it). A dangling
           link: written through, as open() does, so the link is kept. */
        o->fd = open(path, O_WRONLY | O_CLOEXEC | (dangling ? O_CREAT | O_TRUNC : 0), 0666);
        rc = o->fd >= 0 ? NTIDX_OK : NTIDX_E_IO;
    } else {
        if (exists && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
            /* the link stays; the file it names is replaced */
            char *real = realpath(path, NULL);
            if (real)
                o->target = real;
        }
        rc = create_temporary(o);
        if (rc == NTIDX_OK && exists)
            (void)fchmod(o->fd, st.st_mode & 07777); /* the file replaced keeps its permissions */
    }
    if (rc < 0) {
        int e = errno;
        output_free(o);
        if (rc == NTIDX_E_NOMEM)
            return ntx_failf(rc, path, NTIDX_NO_OFFSET, "out of memory");
        return ntx_failf(rc, path, NTIDX_NO_OFFSET, "%s: %s", in_place ? "cannot open for writing" : "cannot create",
                         strerror(e));
    }
    *out = o;
    return NTIDX_OK;
}

NTIDX_API int ntidx_output_fd(const ntidx_output *o) { return o ? o->fd : -1; }

NTIDX_API const char *ntidx_output_temporary(const ntidx_output *o) { return o ? o->tmp : NULL; }

NTIDX_API const char *ntidx_output_path(const ntidx_output *o) { return o ? o->path : NULL; }

/* The rename made durable: the folder's entry on disk. Best effort (some file systems refuse a folder's fsync). */
static void sync_folder(const char *target)
{
    char *copy = strdup(target);
    if (!copy)
        return;
    int dfd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
    free(copy);
}

NTIDX_API int ntidx_output_commit(ntidx_output **po)
{
    if (!po || !*po)
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, "ntidx_output_commit: NULL output");
    ntidx_output *o = *po;
    *po = NULL;
    const char *step = NULL;
    int e = 0;
    if (o->tmp && fsync(o->fd) != 0) {
        step = "cannot write";
        e = errno;
    }
    if (close(o->fd) != 0 && !step) {
        step = "cannot write";
        e = errno;
    }
    if (o->tmp && !step && rename(o->tmp, o->target) != 0) {
        step = "cannot put the file in place (rename)";
        e = errno;
    }
    if (o->tmp && step)
        unlink(o->tmp);
    else if (o->tmp)
        sync_folder(o->target);
    int rc = NTIDX_OK;
    if (step)
        rc = ntx_failf(NTIDX_E_WRITE, o->path, NTIDX_NO_OFFSET, "%s: %s", step, strerror(e));
    output_free(o);
    return rc;
}

NTIDX_API void ntidx_output_discard(ntidx_output **po)
{
    if (!po || !*po)
        return;
    ntidx_output *o = *po;
    *po = NULL;
    if (o->fd >= 0)
        close(o->fd);
    if (o->tmp)
        unlink(o->tmp);
    output_free(o);
}
