/*
 * A slice of a trace read through a source (a remote trace, an embedder's callbacks) copies event blocks byte
 * for byte from the trace's memory into its output. That memory is filled as it is first touched; where only the
 * process's own reads are served (SIGSEGV without userfaultfd, or userfaultfd's user-mode-only kind), a write()
 * straight from a part nobody read yet fails with EFAULT. The blocks here hold events of 150 KiB, whose payloads
 * nothing reads before the copy (the query reads the events' headers), so whole 64 KiB units of each copied
 * block are still unread: the slice must give the bytes of the same slice of the file anyway.
 * Run as is, with NTIDX_NO_USERFAULTFD=1 and under no_userfaultfd (tests/remote/meson.build).
 * usage: test_slice_unread
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ntidx/ntidx.h>
#include <ntidx/slice.h>
#include <ntidx/source.h>
#include <ntidx/writer.h>

#define CHECK(c)                                                                                                       \
    do {                                                                                                               \
        if (!(c)) {                                                                                                    \
            fprintf(stderr, "%s:%d: %s failed (%s)\n", __FILE__, __LINE__, #c, ntidx_last_error());                   \
            exit(1);                                                                                                   \
        }                                                                                                              \
    } while (0)

#define EVENTS 12
#define PAYLOAD (150u << 10)

static int cb_read(void *ctx, uint64_t off, void *buf, size_t len)
{
    return pread(*(int *)ctx, buf, len, (off_t)off) == (ssize_t)len ? 0 : -1;
}

/* A V6 trace of EVENTS events of PAYLOAD bytes each, 1 ms apart. */
static void write_trace(const char *path)
{
    ntidx_writer *w = NULL;
    CHECK(ntidx_writer_open_file(path, NULL, &w) == NTIDX_OK);
    ntidx_metadata m;
    memset(&m, 0, sizeof m);
    m.id = 1;
    m.event_id = 1;
    m.opcode = -1;
    m.provider = "Big";
    m.event_name = "Blob";
    CHECK(ntidx_writer_add_metadata(w, &m) == NTIDX_OK);
    ntidx_thread th;
    memset(&th, 0, sizeof th);
    th.index = 1;
    th.has_os_thread_id = 1;
    th.os_thread_id = 77;
    CHECK(ntidx_writer_add_thread(w, &th) == NTIDX_OK);
    uint8_t *payload = malloc(PAYLOAD);
    CHECK(payload != NULL);
    for (int i = 0; i < EVENTS; i++) {
        for (uint32_t k = 0; k < PAYLOAD; k++)
            payload[k] = (uint8_t)(k * 7 + (uint32_t)i * 13);
        ntidx_event e;
        memset(&e, 0, sizeof e);
        e.timestamp = 10000u * (uint64_t)(i + 1);
        e.thread_index = e.capture_thread_index = 1;
        e.metadata_id = 1;
        e.sequence_number = (uint32_t)i + 1;
        e.payload = payload;
        e.payload_size = PAYLOAD;
        CHECK(ntidx_writer_add_event(w, &e) == NTIDX_OK);
        CHECK(ntidx_writer_flush(w) == NTIDX_OK); /* a block each */
    }
    free(payload);
    CHECK(ntidx_writer_finish(w) == NTIDX_OK);
    CHECK(ntidx_writer_close(&w) == NTIDX_OK);
}

/* The slice of the whole of t (its blocks copied) into `out`; the blocks it copied. */
static uint64_t slice(ntidx_trace *t, const char *out)
{
    ntidx_index *x = NULL;
    CHECK(ntidx_index_build(t, NULL, &x) == NTIDX_OK);
    ntidx_slice_stats st;
    memset(&st, 0, sizeof st);
    CHECK(ntidx_slice(t, x, NULL, NULL, out, &st) == NTIDX_OK);
    ntidx_index_close(&x);
    return st.blocks_copied;
}

static uint8_t *slurp(const char *path, size_t *n)
{
    struct stat st;
    int fd = open(path, O_RDONLY);
    CHECK(fd >= 0 && fstat(fd, &st) == 0);
    uint8_t *b = malloc((size_t)st.st_size + 1);
    CHECK(b && pread(fd, b, (size_t)st.st_size, 0) == st.st_size);
    close(fd);
    *n = (size_t)st.st_size;
    return b;
}

int main(void)
{
    const char *tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/ntidx-slice-unread-XXXXXX", tmp);
    CHECK(mkdtemp(dir) != NULL);
    char trace[4200], from_file[4200], from_source[4200];
    snprintf(trace, sizeof trace, "%s/big.nettrace", dir);
    snprintf(from_file, sizeof from_file, "%s/file.nettrace", dir);
    snprintf(from_source, sizeof from_source, "%s/source.nettrace", dir);
    write_trace(trace);

    ntidx_trace *file = NULL, *t = NULL;
    CHECK(ntidx_trace_open(trace, &file) == NTIDX_OK);
    uint64_t copied = slice(file, from_file);
    CHECK(copied >= EVENTS); /* the copy path, a block per event */
    ntidx_trace_close(&file);

    struct stat st;
    int fd = open(trace, O_RDONLY);
    CHECK(fd >= 0 && fstat(fd, &st) == 0);
    ntidx_source_callbacks cb = {.ctx = &fd, .size = (uint64_t)st.st_size, .read = cb_read, .identity = "v1"};
    CHECK(ntidx_trace_open_source(&cb, "embedded", &t) == NTIDX_OK);
    CHECK(slice(t, from_source) == copied);
    ntidx_trace_close(&t);
    close(fd);

    size_t na, nb;
    uint8_t *a = slurp(from_file, &na), *b = slurp(from_source, &nb);
    CHECK(na == nb && na > (size_t)EVENTS * PAYLOAD);
    CHECK(memcmp(a, b, na) == 0);
    free(a);
    free(b);
    unlink(trace);
    unlink(from_file);
    unlink(from_source);
    rmdir(dir);
    puts("ok");
    return 0;
}
