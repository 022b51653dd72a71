/*
 * ntidx_trace_open_source() (<ntidx/source.h>): a trace read through an embedder's callbacks answers as the
 * file does (its blocks, its statistics), reads only through `read`, takes the prefetch hints, calls close
 * once; a read that fails is NTIDX_E_IO naming the source, never a crash or an answer.
 * usage: test_open_source TRACE
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ntidx/ntidx.h>
#include <ntidx/source.h>

typedef struct {
    int fd;
    long reads, hints, closes;
    uint64_t fail_from; /* reads at or past it fail (UINT64_MAX: none) */
} src_ctx;

static int cb_read(void *ctx, uint64_t off, void *buf, size_t len)
{
    src_ctx *c = ctx;
    __atomic_fetch_add(&c->reads, 1, __ATOMIC_RELAXED);
    if (off + len > c->fail_from)
        return -1;
    return pread(c->fd, buf, len, (off_t)off) == (ssize_t)len ? 0 : -1;
}
static void cb_prefetch(void *ctx, uint64_t off, uint64_t len) { __atomic_fetch_add(&((src_ctx *)ctx)->hints, 1, __ATOMIC_RELAXED); }
static void cb_close(void *ctx) { ((src_ctx *)ctx)->closes++; }

#define CHECK(c)                                                                                                       \
    do {                                                                                                               \
        if (!(c)) {                                                                                                    \
            fprintf(stderr, "%s:%d: %s failed (%s)\n", __FILE__, __LINE__, #c, ntidx_last_error());                   \
            exit(1);                                                                                                   \
        }                                                                                                              \
    } while (0)

/* Blocks by kind and the last block's end, of a trace walked whole. */
static int walk(ntidx_trace *t, uint64_t counts[NTIDX_BLOCK_KIND_COUNT])
{
    memset(counts, 0, sizeof(uint64_t) * NTIDX_BLOCK_KIND_COUNT);
    uint64_t pos = ntidx_trace_get_info(t)->first_block_offset;
    ntidx_block b;
    int rc;
    while ((rc = ntidx_trace_next_block(t, &pos, &b)) == 1)
        if (b.kind >= 0 && b.kind < NTIDX_BLOCK_KIND_COUNT)
            counts[b.kind]++;
    return rc;
}

int main(int argc, char **argv)
{
    CHECK(argc == 2);
    struct stat st;
    src_ctx c = {.fd = open(argv[1], O_RDONLY), .fail_from = UINT64_MAX};
    CHECK(c.fd >= 0 && fstat(c.fd, &st) == 0);
    ntidx_source_callbacks cb = {.ctx = &c, .size = (uint64_t)st.st_size, .read = cb_read, .prefetch = cb_prefetch,
                                 .close = cb_close, .identity = "v1"};
    ntidx_trace *file = NULL, *t = NULL;
    CHECK(ntidx_trace_open(argv[1], &file) == NTIDX_OK);
    CHECK(ntidx_trace_open_source(&cb, "embedded", &t) == NTIDX_OK);
    CHECK(strcmp(ntidx_trace_name(t), "embedded") == 0);
    CHECK(ntidx_trace_get_info(t)->format_version == ntidx_trace_get_info(file)->format_version);
    CHECK(ntidx_trace_get_info(t)->file_size == ntidx_trace_get_info(file)->file_size);
    uint64_t a[NTIDX_BLOCK_KIND_COUNT], b[NTIDX_BLOCK_KIND_COUNT];
    CHECK(walk(t, a) == 0 && walk(file, b) == 0);
    CHECK(memcmp(a, b, sizeof a) == 0);
    CHECK(c.reads > 0);                /* every byte came through `read` */
    CHECK(c.reads <= st.st_size / 65536 + 8); /* in 64 KiB units or more, not a read per block */
    ntidx_trace_close(&t);
    CHECK(c.closes == 1);

    /* a source whose later ranges cannot be read: the walk fails with NTIDX_E_IO naming it */
    c.closes = 0;
    c.fail_from = (uint64_t)st.st_size / 2;
    CHECK(ntidx_trace_open_source(&cb, "half", &t) == NTIDX_OK);
    CHECK(walk(t, a) == NTIDX_E_IO);
    CHECK(strstr(ntidx_last_error(), "half: ") == ntidx_last_error());
    CHECK(strstr(ntidx_last_error(), "could not read"));
    ntidx_trace_close(&t);
    CHECK(c.closes == 1);

    /* no read callback: refused, close called */
    c.closes = 0;
    cb.read = NULL;
    CHECK(ntidx_trace_open_source(&cb, "none", &t) == NTIDX_E_INVALID_ARG && t == NULL);
    CHECK(c.closes == 1);
    ntidx_trace_close(&file);
    close(c.fd);
    puts("ok");
    return 0;
}
