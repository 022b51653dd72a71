/*
 * The symbolizer's table saved beside the index (docs/symbol-cache.md).
 *
 * Naming a frame needs the method events of the whole trace: the rundown
 * at its end names what a window's samples ran, and an unload anywhere after
 * the window may name it first. So a symbolizer reads every region that can
 * hold them, whatever the window, and a window's `ntidx cpu` or
 * `ntidx exceptions` cost what a whole-trace pass over those events costs
 * (0.2 s on a 1 GB trace that loads methods all along). The table it makes
 * is small beside the trace, and depends on nothing but the trace: the
 * first symbolizer of a trace saves it beside the index (INDEX.sym), and
 * later ones map it back, checked, instead of reading the trace again.
 *
 * It is a cache: keyed by the index's identity of its trace (so that it is
 * exactly as current as the index it was made through) and by the version
 * of the rules that made it. One that does not match, or fails a check, is
 * made again and written over; a failure to write costs only time. Every
 * byte of it is checked before use (its checksums, then every offset and
 * index it holds), since a file in a shared folder is untrusted. A file at
 * that name that is not one of these is never replaced.
 *
 * The table is mapped, not read: the methods of a trace that jits millions
 * of them stay file-backed pages the kernel can drop, as the index's do.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hash.h"
#include "index_tables.h"
#include "le.h"
#include "symbolizer_internal.h"

#define MAGIC "NTIDXSYM"
#define VERSION 1u
#define HEADER 88u
#define FILE_ENTRY 16u

/* The methods are written and mapped as they are in memory: 32 bytes, little-endian, no padding. */
_Static_assert(sizeof(method) == 32 && offsetof(method, when) == 8 && offsetof(method, size) == 16 &&
                   offsetof(method, name) == 20 && offsetof(method, file) == 24 && offsetof(method, seq) == 28,
               "method entries are the file's layout");

static uint64_t pad8(uint64_t n) { return (n + 7) & ~(uint64_t)7; }

static int enabled(void)
{
    const char *e = getenv("NTIDX_SYMBOL_CACHE");
    return !(e && !strcmp(e, "0"));
}

/* INDEX.sym for an index kept in a file; NULL otherwise (malloc'ed). */
static char *cache_path(const ntidx_index *x)
{
    const char *f = x ? ntidx_index_file(x) : NULL;
    if (!f)
        return NULL;
    size_t n = strlen(f);
    char *p = malloc(n + 5);
    if (p)
        memcpy(p, f, n), memcpy(p + n, ".sym", 5);
    return p;
}

/* The key a table of this trace, through this index, carries. */
static uint64_t key_of(const ntidx_trace *t, const ntidx_index *x)
{
    uint64_t k[2] = {ntx_index_identity_key(x), (uint64_t)ntidx_trace_get_info(t)->sync_ticks};
    return ntx_xxh3(k, sizeof k);
}

/* The header's fields. */
typedef struct head {
    uint32_t version, rules;
    uint64_t key, nmethods, nfiles, nmodnames, names_len, strings_len, max_size, body_hash;
} head;

/* The header of m (len bytes) read and checked on its own: 1 usable for `key`, 0 not. */
static int read_head(const uint8_t *m, uint64_t len, uint64_t key, head *h)
{
    if (len < HEADER || memcmp(m, MAGIC, 8) || ntx_xxh3(m, HEADER - 8) != ntx_load64(m + HEADER - 8))
        return 0;
    h->version = ntx_load32(m + 8);
    h->rules = ntx_load32(m + 12);
    h->key = ntx_load64(m + 16);
    h->nmethods = ntx_load64(m + 24);
    h->nfiles = ntx_load64(m + 32);
    h->nmodnames = ntx_load64(m + 40);
    h->names_len = ntx_load64(m + 48);
    h->strings_len = ntx_load64(m + 56);
    h->max_size = ntx_load64(m + 64);
    h->body_hash = ntx_load64(m + 72);
    return h->version == VERSION && h->rules == NTX_SYMBOL_RULES && h->key == key;
}

/* Where each part starts, and whether the file is exactly their sum (no count trusted: each bounded first). */
typedef struct parts {
    uint64_t methods, files, modnames, names, strings, end;
} parts;

static int lay_out(const head *h, uint64_t len, parts *p)
{
    uint64_t room = len;
    if (h->nmethods > room / 32 || h->nfiles > room / FILE_ENTRY || h->nmodnames > room / 8 ||
        h->names_len > room || h->strings_len > room)
        return 0;
    p->methods = HEADER;
    p->files = p->methods + h->nmethods * 32;
    p->modnames = p->files + h->nfiles * FILE_ENTRY;
    p->names = p->modnames + h->nmodnames * 8;
    p->strings = p->names + pad8(h->names_len);
    p->end = p->strings + pad8(h->strings_len);
    return p->end == len;
}

/* The checksum of the body: each part's hash (without its padding, which body_ok() finds zero) seeds the
   next one's, so that it is written part by part with no copy made. */
static uint64_t body_hash(const uint8_t *m, const head *h, const parts *p)
{
    uint64_t at[] = {p->methods, p->files, p->modnames, p->names, p->strings};
    uint64_t len[] = {p->files - p->methods, p->modnames - p->files, p->names - p->modnames, h->names_len,
                      h->strings_len};
    uint64_t hsh = 0;
    for (int i = 0; i < 5; i++)
        hsh = ntx_xxh3_seed(m + at[i], len[i], hsh);
    return hsh;
}

static int zeros(const uint8_t *p, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        if (p[i])
            return 0;
    return 1;
}

/* Every offset and index of the body inside what it points into; the methods in address order, none larger
   than the recorded largest (the lookup's binary search and its scan back rest on both). */
static int body_ok(const uint8_t *m, const head *h, const parts *p)
{
    if ((h->nmethods && (!h->names_len || m[p->names + h->names_len - 1])) ||
        (h->strings_len && m[p->strings + h->strings_len - 1]) || (h->nfiles && !h->nmodnames) ||
        h->nmethods > UINT32_MAX || h->nfiles > UINT32_MAX ||
        !zeros(m + p->names + h->names_len, pad8(h->names_len) - h->names_len) ||
        !zeros(m + p->strings + h->strings_len, pad8(h->strings_len) - h->strings_len))
        return 0;
    for (uint64_t i = 0; i < h->nmodnames; i++)
        if (ntx_load64(m + p->modnames + 8 * i) >= h->strings_len)
            return 0;
    for (uint64_t i = 0; i < h->nfiles; i++) {
        const uint8_t *f = m + p->files + FILE_ENTRY * i;
        uint64_t path = ntx_load64(f);
        if ((path != UINT64_MAX && path >= h->strings_len) || ntx_load32(f + 8) >= h->nmodnames || ntx_load32(f + 12))
            return 0;
    }
    const method *ms = (const method *)(const void *)(m + p->methods);
    for (uint64_t i = 0; i < h->nmethods; i++)
        if (ms[i].name >= h->names_len || ms[i].file >= h->nfiles || ms[i].size > h->max_size ||
            (i && ms[i].start < ms[i - 1].start))
            return 0;
    return 1;
}

/* A mapping of the cache of x, and its length; NULL when there is none to map. */
static uint8_t *map_cache(const ntidx_index *x, uint64_t *len)
{
    char *path = cache_path(x);
    if (!path)
        return NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    free(path);
    if (fd < 0)
        return NULL;
    struct stat st;
    void *m = MAP_FAILED;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= (off_t)HEADER)
        m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (m == MAP_FAILED)
        return NULL;
    *len = (uint64_t)st.st_size;
    return m;
}

/* The cache of x mapped, its header checked for t through x and its parts laid out; NULL when there is none
   to use. */
static uint8_t *map_checked(const ntidx_trace *t, const ntidx_index *x, uint64_t *len, head *h, parts *p)
{
    if (!enabled() || !t || !x)
        return NULL;
    uint8_t *m = map_cache(x, len);
    if (m && !(read_head(m, *len, key_of(t, x), h) && lay_out(h, *len, p))) {
        munmap(m, *len);
        m = NULL;
    }
    return m;
}

int ntx_symbol_cache_usable(const ntidx_trace *t, const ntidx_index *x)
{
    uint64_t len = 0;
    head h;
    parts p;
    uint8_t *m = map_checked(t, x, &len, &h, &p);
    if (m)
        munmap(m, len);
    return m != NULL;
}

int ntx_symbol_cache_load(const ntidx_trace *t, const ntidx_index *x, ntidx_symbolizer **out)
{
    *out = NULL;
    uint64_t len = 0;
    head h;
    parts p;
    uint8_t *m = map_checked(t, x, &len, &h, &p);
    if (!m)
        return 0;
    (void)madvise(m, len, MADV_WILLNEED); /* read whole by the checksum below */
    if (body_hash(m, &h, &p) != h.body_hash || !body_ok(m, &h, &p)) {
        munmap(m, len);
        return 0;
    }
    ntidx_symbolizer *s = calloc(1, sizeof *s);
    mfile *files = calloc(h.nfiles ? h.nfiles : 1, sizeof *files);
    char **modnames = calloc(h.nmodnames ? h.nmodnames : 1, sizeof *modnames);
    if (!s || !files || !modnames) {
        free(s);
        free(files);
        free(modnames);
        munmap(m, len);
        return NTIDX_E_NOMEM;
    }
    char *strings = (char *)m + p.strings;
    for (uint64_t i = 0; i < h.nfiles; i++) {
        const uint8_t *f = m + p.files + FILE_ENTRY * i;
        uint64_t path = ntx_load64(f);
        files[i] = (mfile){path == UINT64_MAX ? NULL : strings + path, ntx_load32(f + 8)};
    }
    for (uint64_t i = 0; i < h.nmodnames; i++)
        modnames[i] = strings + ntx_load64(m + p.modnames + 8 * i);
    /* The mapping is read-only: nothing writes a finished table (lookups only read it). */
    s->methods = (method *)(void *)(m + p.methods);
    s->nmethods = h.nmethods;
    s->names.bytes = m + p.names;
    s->names.len = h.names_len;
    s->files = files;
    s->nfiles = h.nfiles;
    s->modnames = modnames;
    s->nmodnames = h.nmodnames;
    s->max_size = h.max_size;
    s->map = (ntx_symbol_map){m, len};
    *out = s;
    return 1;
}

void ntx_symbol_cache_unmap(ntidx_symbolizer *s)
{
    if (s->map.base)
        munmap(s->map.base, s->map.len);
    s->map = (ntx_symbol_map){NULL, 0};
}

/* ---- Saving ---- */

typedef struct writer {
    int fd, bad;
    uint64_t hash;
} writer;

static void put(writer *w, const void *p, size_t n)
{
    const uint8_t *b = p;
    while (!w->bad && n) {
        ssize_t k = write(w->fd, b, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            w->bad = 1;
            return;
        }
        b += k;
        n -= (size_t)k;
    }
}

/* One part of the body into the chained checksum, then zero-padded to 8 bytes. */
static void put_part(writer *w, const void *p, size_t n)
{
    static const uint8_t pad[8];
    w->hash = ntx_xxh3_seed(p, n, w->hash);
    put(w, p, n);
    put(w, pad, (size_t)pad8(n) - n);
}

/* The strings of the files' paths and the module names, one after the other; offsets in *path_at and
   *name_at. 0, or -1 out of memory. */
static int strings_of(const ntidx_symbolizer *s, ntidx_buf *b, uint64_t *path_at, uint64_t *name_at)
{
    for (size_t i = 0; i < s->nfiles; i++) {
        path_at[i] = UINT64_MAX;
        if (!s->files[i].path)
            continue;
        size_t n = strlen(s->files[i].path) + 1;
        uint8_t *w = ntx_buf_append(b, n);
        if (!w)
            return -1;
        memcpy(w, s->files[i].path, n);
        path_at[i] = b->len - n;
    }
    for (size_t i = 0; i < s->nmodnames; i++) {
        size_t n = strlen(s->modnames[i]) + 1;
        uint8_t *w = ntx_buf_append(b, n);
        if (!w)
            return -1;
        memcpy(w, s->modnames[i], n);
        name_at[i] = b->len - n;
    }
    return 0;
}

/* An unnamed file in dir (O_TMPFILE: a writer killed before its rename leaves nothing), or -1. */
static int unnamed_in(const char *path)
{
#ifdef O_TMPFILE
    char *d = strdup(path);
    if (!d)
        return -1;
    int fd = open(dirname(d), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
    free(d);
    return fd;
#else
    (void)path;
    return -1;
#endif
}

/* The written file given the name `path`: linked under a temporary name beside it, renamed over it. */
static int publish(int fd, const char *path)
{
    char proc[64], *tmp = malloc(strlen(path) + 32);
    if (!tmp)
        return -1;
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    int rc = -1;
    for (unsigned attempt = 0; attempt < 8 && rc < 0; attempt++) {
        snprintf(tmp, strlen(path) + 32, "%s.tmp.%ld.%lx", path, (long)getpid(),
                 (unsigned long)((uint64_t)ts.tv_nsec * 2654435761u + attempt));
        if (linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) != 0) {
            if (errno == EEXIST)
                continue;
            break;
        }
        rc = rename(tmp, path);
        if (rc != 0)
            unlink(tmp);
    }
    free(tmp);
    return rc;
}

void ntx_symbol_cache_save(const ntidx_symbolizer *s, const ntidx_trace *t, const ntidx_index *x)
{
    if (!enabled() || !s || !t || !x || s->map.base)
        return;
    char *path = cache_path(x);
    if (!path)
        return;
    /* Only a file of ours is replaced: another file at this name is left alone (and no table saved). */
    struct stat st;
    int fd = -1;
    if (lstat(path, &st) == 0) {
        char magic[8];
        int ours = 0;
        if (S_ISREG(st.st_mode) && (fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) >= 0) {
            ours = pread(fd, magic, 8, 0) == 8 && !memcmp(magic, MAGIC, 8);
            close(fd);
        }
        if (!ours) {
            free(path);
            return;
        }
    } else if (errno != ENOENT) {
        free(path);
        return;
    }
    uint64_t *path_at = malloc((s->nfiles + s->nmodnames + 1) * sizeof *path_at);
    ntidx_buf strings = {0};
    fd = path_at ? unnamed_in(path) : -1;
    if (fd < 0 || strings_of(s, &strings, path_at, path_at + s->nfiles) < 0) {
        if (fd >= 0)
            close(fd);
        free(path_at);
        ntidx_buf_free(&strings);
        free(path);
        return;
    }
    writer w = {fd, 0, 0};
    uint8_t h[HEADER] = {0};
    if (lseek(fd, HEADER, SEEK_SET) != (off_t)HEADER)
        w.bad = 1;
    put_part(&w, s->methods, s->nmethods * sizeof *s->methods);
    uint8_t *files = calloc(s->nfiles ? s->nfiles : 1, FILE_ENTRY);
    if (!files)
        w.bad = 1;
    for (size_t i = 0; files && i < s->nfiles; i++) {
        ntx_store64(files + FILE_ENTRY * i, path_at[i]);
        ntx_store32(files + FILE_ENTRY * i + 8, s->files[i].name_id);
    }
    if (files)
        put_part(&w, files, s->nfiles * FILE_ENTRY);
    free(files);
    uint8_t *names = malloc(s->nmodnames ? s->nmodnames * 8 : 1);
    if (!names)
        w.bad = 1;
    for (size_t i = 0; names && i < s->nmodnames; i++)
        ntx_store64(names + 8 * i, path_at[s->nfiles + i]);
    if (names)
        put_part(&w, names, s->nmodnames * 8);
    free(names);
    put_part(&w, s->names.bytes, s->names.len);
    put_part(&w, strings.bytes, strings.len);
    memcpy(h, MAGIC, 8);
    ntx_store32(h + 8, VERSION);
    ntx_store32(h + 12, NTX_SYMBOL_RULES);
    ntx_store64(h + 16, key_of(t, x));
    ntx_store64(h + 24, s->nmethods);
    ntx_store64(h + 32, s->nfiles);
    ntx_store64(h + 40, s->nmodnames);
    ntx_store64(h + 48, s->names.len);
    ntx_store64(h + 56, strings.len);
    ntx_store64(h + 64, s->max_size);
    ntx_store64(h + 72, w.hash);
    ntx_store64(h + 80, ntx_xxh3(h, HEADER - 8));
    if (!w.bad && pwrite(fd, h, HEADER, 0) != (ssize_t)HEADER)
        w.bad = 1;
    /* No fsync: a table lost or cut short by a crash fails its checksum and is made again. */
    if (!w.bad)
        (void)publish(fd, path);
    close(fd);
    free(path_at);
    ntidx_buf_free(&strings);
    free(path);
}
