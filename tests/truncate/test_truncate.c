/*
 * A trace truncated while it is mapped (issue 25, item 1): a read of a page
 * the file no longer has raised SIGBUS and killed the process. Now every
 * operation fails with NTIDX_E_SHRUNK ("FILE: offset N (0xN): the file shrank
 * to M bytes while it was read ...") and the process lives on:
 *
 *  - a reader in file order and in time order, the block walk, a query and a
 *    payload decode, each truncated to half in the middle of its read;
 *  - the trace truncated between its open and the read: the reader, whole
 *    trace statistics, statistics through the index on 1, 2 and 4 threads, a
 *    slice (no output left), also of a trace of 1 MiB blocks copied whole;
 *  - the index build on 1 and 4 threads, plain and --full, truncated from its
 *    progress callback (no index saved by ntidx_index_open(), and the next
 *    one built is of the shorter file);
 *  - four threads each reading the trace while another truncates it;
 *  - a truncation to a size inside a page, whose bytes past the new end read
 *    as zeros without any fault: found at the end of the read all the same;
 *  - a smaller file renamed over the trace's path while it is opened: not a
 *    shrink (the library's descriptor is the mapped file's);
 *  - a SIGBUS that is not the library's still reaches the handler installed
 *    before (or kills the process, as it did).
 *
 * usage: test_truncate [TEST]   (only the test of that name, e.g. after_open)
 *
 * Not a cmocka test: cmocka installs a SIGBUS handler of its own around each
 * test and puts the one before back after it, so the library's handler,
 * installed once when the first trace is mapped, would be gone from the
 * second test on (ntidx.h, "Thread safety": a handler installed later must
 * pass on what it does not handle).
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ntidx/index.h>
#include <ntidx/slice.h>
#include <ntidx/writer.h>

/* A failed check ends the test with its line, and the library's last error. */
#define FAIL(...)                                                                                                  \
    do {                                                                                                           \
        fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                                                            \
        fprintf(stderr, __VA_ARGS__);                                                                              \
        fprintf(stderr, " (last error: %s)\n", ntidx_last_error());                                                \
        exit(1);                                                                                                   \
    } while (0)
#define CHECK(c)                                                                                                   \
    do {                                                                                                           \
        if (!(c))                                                                                                  \
            FAIL("%s", #c);                                                                                        \
    } while (0)
#define CHECK_EQ(a, b)                                                                                             \
    do {                                                                                                           \
        long long a_ = (long long)(a), b_ = (long long)(b);                                                        \
        if (a_ != b_)                                                                                              \
            FAIL("%s is %lld, not %lld (%s)", #a, a_, b_, #b);                                                     \
    } while (0)

static void write_file(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f);
    CHECK_EQ(fwrite(p, 1, n, f), n);
    CHECK_EQ(fclose(f), 0);
}

static char dir[64];
static uint8_t *gen_data; /* one generated trace, written afresh for each test */
static size_t gen_size;

static void path_of(char *path, size_t n, const char *name) { snprintf(path, n, "%s/%s", dir, name); }

/* The generated trace written to dir/name, opened. */
static ntidx_trace *fresh_trace(const char *name, char *path, size_t n)
{
    path_of(path, n, name);
    write_file(path, gen_data, gen_size);
    ntidx_trace *t = NULL;
    if (ntidx_trace_open(path, &t) != NTIDX_OK)
        FAIL("%s", ntidx_last_error());
    return t;
}

static uint64_t page_end(uint64_t off)
{
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    return (off + page - 1) / page * page;
}

static void shrink(const char *path, uint64_t size) { CHECK_EQ(truncate(path, (off_t)size), 0); }

/* The error of the last failed call is the shrink of `path` to `size`, at an offset at or past it. */
static void assert_shrunk(const char *path, uint64_t size)
{
    const ntidx_error_info *e = ntidx_last_error_info();
    char want[160];
    snprintf(want, sizeof want, "the file shrank to %llu bytes while it was read (it had %llu bytes when opened)",
             (unsigned long long)size, (unsigned long long)gen_size);
    if (e->code != NTIDX_E_SHRUNK || strcmp(e->file, path) || strcmp(e->what, want) || e->offset == NTIDX_NO_OFFSET ||
        e->offset < size - size % 4096 || e->offset >= gen_size)
        FAIL("expected the shrink of %s to %llu, got %s (%s)", path, (unsigned long long)size,
                 ntidx_error_name(e->code), ntidx_last_error());
    char offset[64];
    snprintf(offset, sizeof offset, "offset %llu (0x", (unsigned long long)e->offset);
    CHECK(strstr(ntidx_last_error(), path));
    CHECK(strstr(ntidx_last_error(), offset));
}

static void test_reader_mid_read(void)
{
    for (int order = NTIDX_ORDER_FILE; order <= NTIDX_ORDER_TIME; order++) {
        char path[128];
        ntidx_trace *t = fresh_trace("reader.nettrace", path, sizeof path);
        ntidx_reader_options o;
        ntidx_reader_options_defaults(&o);
        o.order = (ntidx_order)order;
        ntidx_reader *r;
        CHECK_EQ(ntidx_reader_open(t, &o, &r), NTIDX_OK);
        const ntidx_event *e;
        int rc;
        uint64_t events = 0;
        while ((rc = ntidx_reader_next(r, &e)) == 1 && e->offset < gen_size / 8)
            events++;
        CHECK_EQ(rc, 1);
        shrink(path, gen_size / 2);
        /* Nothing of the lost half is handed out but what the rest of the page holding the new end decodes to:
           those bytes read as zeros without a fault to tell (see test_inside_a_page). */
        while ((rc = ntidx_reader_next(r, &e)) == 1)
            CHECK(e->offset < page_end(gen_size / 2));
        CHECK_EQ(rc, NTIDX_E_SHRUNK);
        assert_shrunk(path, gen_size / 2);
        CHECK_EQ(ntidx_reader_next(r, &e), NTIDX_E_SHRUNK); /* sticky */
        CHECK_EQ(ntidx_reader_complete(r), 0);
        ntidx_reader_close(&r);
        ntidx_trace_close(&t);
    }
}

static void test_block_walk_mid_read(void)
{
    char path[128];
    ntidx_trace *t = fresh_trace("walk.nettrace", path, sizeof path);
    uint64_t pos = ntidx_trace_get_info(t)->first_block_offset;
    ntidx_block b;
    int rc;
    while ((rc = ntidx_trace_next_block(t, &pos, &b)) == 1 && pos < gen_size / 4)
        ;
    CHECK_EQ(rc, 1);
    shrink(path, gen_size / 2);
    while ((rc = ntidx_trace_next_block(t, &pos, &b)) == 1)
        ;
    /* not NTIDX_E_TRUNCATED, which would say the writer stopped there and all before is sound */
    CHECK_EQ(rc, NTIDX_E_SHRUNK);
    assert_shrunk(path, gen_size / 2);
    ntidx_trace_close(&t);
}

static void test_query_and_values_mid_read(void)
{
    char path[128];
    ntidx_trace *t = fresh_trace("query.nettrace", path, sizeof path);
    ntidx_index *x;
    CHECK_EQ(ntidx_index_build(t, NULL, &x), NTIDX_OK);
    ntidx_query_options qo;
    ntidx_query_options_defaults(&qo);
    ntidx_query *q;
    CHECK_EQ(ntidx_query_open(t, x, &qo, &q), NTIDX_OK);
    const ntidx_event *e;
    int rc;
    while ((rc = ntidx_query_next(q, &e)) == 1 && e->offset < gen_size / 8)
        ;
    CHECK_EQ(rc, 1);
    shrink(path, gen_size / 2);
    while ((rc = ntidx_query_next(q, &e)) == 1)
        ;
    CHECK_EQ(rc, NTIDX_E_SHRUNK);
    assert_shrunk(path, gen_size / 2);
    ntidx_query_close(&q);

    /* An event read before the shrink whose payload is decoded after it: its bytes are gone. */
    write_file(path, gen_data, gen_size);
    ntidx_trace_close(&t);
    CHECK_EQ(ntidx_trace_open(path, &t), NTIDX_OK);
    ntidx_reader *r;
    CHECK_EQ(ntidx_reader_open(t, NULL, &r), NTIDX_OK);
    while ((rc = ntidx_reader_next(r, &e)) == 1 && (e->offset < gen_size * 3 / 4 || !e->payload_size))
        ;
    CHECK_EQ(rc, 1);
    ntidx_values *v;
    CHECK_EQ(ntidx_values_new(&v), NTIDX_OK);
    shrink(path, gen_size / 2);
    CHECK_EQ(ntidx_values_decode(v, t, e), NTIDX_E_SHRUNK);
    assert_shrunk(path, gen_size / 2);
    CHECK_EQ(ntidx_values_count(v), 0);
    ntidx_buf json = {0};
    CHECK_EQ(ntidx_event_fields_json(t, e, &json), NTIDX_E_SHRUNK);
    CHECK_EQ(json.len, 0); /* nothing appended */
    ntidx_buf_free(&json);
    ntidx_values_free(&v);
    ntidx_reader_close(&r);
    ntidx_index_close(&x);
    ntidx_trace_close(&t);
}

static void test_after_open(void)
{
    char path[128], out[160];
    ntidx_trace *t = fresh_trace("open.nettrace", path, sizeof path);
    ntidx_index *x;
    CHECK_EQ(ntidx_index_build(t, NULL, &x), NTIDX_OK);
    shrink(path, gen_size / 2);

    ntidx_reader *r;
    const ntidx_event *e;
    int rc;
    CHECK_EQ(ntidx_reader_open(t, NULL, &r), NTIDX_OK);
    while ((rc = ntidx_reader_next(r, &e)) == 1)
        ;
    CHECK_EQ(rc, NTIDX_E_SHRUNK);
    assert_shrunk(path, gen_size / 2);
    ntidx_reader_close(&r);

    ntidx_stats *s = NULL;
    CHECK_EQ(ntidx_stats_compute(t, &s), NTIDX_E_SHRUNK);
    CHECK(!(s));
    assert_shrunk(path, gen_size / 2);
    static const unsigned threads[] = {1, 2, 4};
    for (size_t i = 0; i < sizeof threads / sizeof threads[0]; i++) {
        ntidx_stats_options so;
        ntidx_stats_options_defaults(&so);
        so.threads = threads[i];
        CHECK_EQ(ntidx_stats_indexed(t, x, &so, &s), NTIDX_E_SHRUNK);
        CHECK(!(s));
        assert_shrunk(path, gen_size / 2);
    }

    snprintf(out, sizeof out, "%s.slice", path);
    CHECK_EQ(ntidx_slice(t, x, NULL, NULL, out, NULL), NTIDX_E_SHRUNK);
    assert_shrunk(path, gen_size / 2);
    CHECK_EQ(access(out, F_OK), -1); /* no slice of zeros left behind */
    uint8_t *mem = NULL;
    size_t mem_size = 0;
    CHECK_EQ(ntidx_slice_memory(t, x, NULL, NULL, &mem, &mem_size, NULL), NTIDX_E_SHRUNK);
    CHECK(!(mem));

    ntidx_index *y = NULL;
    CHECK_EQ(ntidx_index_build(t, NULL, &y), NTIDX_E_SHRUNK);
    CHECK(!(y));
    assert_shrunk(path, gen_size / 2);
    ntidx_index_close(&x);
    ntidx_trace_close(&t);
}

/* A slice of a trace of 1 MiB event blocks (one-collect's), which it copies byte for byte: the shrink's error
   and no output. */
static void test_slice_large_blocks(void)
{
    ntidx_gen_options g;
    ntidx_gen_options_defaults(&g);
    g.shape = NTIDX_GEN_SHAPE_ONE_COLLECT;
    g.target_bytes = 8u << 20;
    uint8_t *data;
    size_t size;
    CHECK_EQ(ntidx_generate_memory(&g, &data, &size), NTIDX_OK);
    char path[128], out[160];
    path_of(path, sizeof path, "one-collect.nettrace");
    snprintf(out, sizeof out, "%s.slice", path);
    write_file(path, data, size);
    free(data);
    ntidx_trace *t;
    CHECK_EQ(ntidx_trace_open(path, &t), NTIDX_OK);
    ntidx_index *x;
    CHECK_EQ(ntidx_index_build(t, NULL, &x), NTIDX_OK);
    CHECK(truncate(path, (off_t)(size / 2)) == 0);
    CHECK_EQ(ntidx_slice(t, x, NULL, NULL, out, NULL), NTIDX_E_SHRUNK);
    CHECK(strstr(ntidx_last_error(), "the file shrank to"));
    CHECK_EQ(access(out, F_OK), -1);
    ntidx_index_close(&x);
    ntidx_trace_close(&t);
}

/* The index build's progress callback truncates the trace once the scan has passed `at` bytes. */
typedef struct {
    const char *path;
    uint64_t at, to;
    int done;
} shrink_at;

static int shrink_on_progress(void *ctx, uint64_t done, uint64_t total)
{
    (void)total;
    shrink_at *s = ctx;
    if (!s->done && done >= s->at) {
        shrink(s->path, s->to);
        s->done = 1;
    }
    return 0;
}

static void test_index_build_mid_read(void)
{
    for (int full = 0; full <= 1; full++) {
        static const unsigned threads[] = {1, 4};
        for (size_t i = 0; i < 2; i++) {
            char path[128];
            ntidx_trace *t = fresh_trace("index.nettrace", path, sizeof path);
            /* A plain build reports progress every 16 MiB, so at its first call here (helper threads of the
               header scan already reading ahead); a --full build at the end of each region the calling thread
               ran, and once the pass is over (other threads may have run every region). */
            shrink_at s = {path, full ? gen_size / 8 : 0, gen_size / 2, 0};
            ntidx_index_options o;
            ntidx_index_options_defaults(&o);
            o.full = full;
            o.threads = threads[i];
            o.progress = shrink_on_progress;
            o.progress_ctx = &s;
            ntidx_index *x = NULL;
            CHECK_EQ(ntidx_index_build(t, &o, &x), NTIDX_E_SHRUNK);
            CHECK(s.done);
            CHECK(!(x));
            assert_shrunk(path, gen_size / 2);
            ntidx_trace_close(&t);
        }
    }
    /* Load-or-build saves nothing; the next open of the shorter file indexes what it holds. */
    char path[128], ipath[160];
    ntidx_trace *t = fresh_trace("saved.nettrace", path, sizeof path);
    snprintf(ipath, sizeof ipath, "%s.ntidx", path);
    shrink_at s = {path, 0, gen_size / 2, 0};
    ntidx_index_options o;
    ntidx_index_options_defaults(&o);
    o.progress = shrink_on_progress;
    o.progress_ctx = &s;
    ntidx_index *x = NULL;
    CHECK_EQ(ntidx_index_open(t, ipath, &o, &x, NULL), NTIDX_E_SHRUNK);
    assert_shrunk(path, gen_size / 2);
    CHECK_EQ(access(ipath, F_OK), -1);
    ntidx_trace_close(&t);
    CHECK_EQ(ntidx_trace_open(path, &t), NTIDX_OK);
    CHECK_EQ(ntidx_index_open(t, ipath, NULL, &x, NULL), NTIDX_OK);
    CHECK_EQ(ntidx_index_get_info(x)->trace_size, gen_size / 2);
    CHECK_EQ(ntidx_index_get_info(x)->complete, 0);
    ntidx_index_close(&x);
    ntidx_trace_close(&t);
}

/* Threads reading one trace (each its own reader) while the main thread truncates it. */
typedef struct {
    ntidx_trace *t;
    pthread_barrier_t *started;
    int rc;
    char error[NTIDX_ERROR_MAX];
} reader_job;

static void *read_all(void *arg)
{
    reader_job *j = arg;
    ntidx_reader *r;
    const ntidx_event *e;
    j->rc = ntidx_reader_open(j->t, NULL, &r);
    int waited = 0;
    while (j->rc == NTIDX_OK && (j->rc = ntidx_reader_next(r, &e)) == 1) {
        if (!waited && e->offset > gen_size / 16) { /* every thread is past the start before the shrink */
            pthread_barrier_wait(j->started);
            waited = 1;
        }
        j->rc = NTIDX_OK;
    }
    if (!waited)
        pthread_barrier_wait(j->started);
    snprintf(j->error, sizeof j->error, "%s", ntidx_last_error()); /* the last error is per thread */
    ntidx_reader_close(&r);
    return NULL;
}

static void test_threads(void)
{
    char path[128];
    ntidx_trace *t = fresh_trace("threads.nettrace", path, sizeof path);
    enum { N = 4 };
    pthread_barrier_t started;
    pthread_barrier_init(&started, NULL, N + 1);
    reader_job jobs[N];
    pthread_t th[N];
    for (int i = 0; i < N; i++) {
        jobs[i] = (reader_job){.t = t, .started = &started};
        CHECK_EQ(pthread_create(&th[i], NULL, read_all, &jobs[i]), 0);
    }
    pthread_barrier_wait(&started);
    shrink(path, gen_size / 2);
    for (int i = 0; i < N; i++) {
        pthread_join(th[i], NULL);
        /* a thread that had read everything before the shrink ends well; any other gets the error */
        if (jobs[i].rc != NTIDX_OK) {
            CHECK_EQ(jobs[i].rc, NTIDX_E_SHRUNK);
            CHECK(strstr(jobs[i].error, "the file shrank to"));
        }
    }
    pthread_barrier_destroy(&started);
    ntidx_trace_close(&t);
}

/*
 * The library's open() calls come here (a function of the executable that a shared library it links calls is
 * exported to it). Armed with a path, the second open of that path first renames `decoy_path` over it, as
 * another program may do at any moment. Everything else is the system call.
 */
static const char *armed_path, *decoy_path;
static int armed_opens;

__attribute__((visibility("default"))) int open(const char *path, int flags, ...);
int open(const char *path, int flags, ...)
{
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) {
        va_list ap;
        va_start(ap, flags);
        mode = va_arg(ap, mode_t);
        va_end(ap);
    }
    if (armed_path && !strcmp(path, armed_path) && ++armed_opens == 2 && rename(decoy_path, armed_path) != 0)
        abort();
    return (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode);
}

/* A smaller file renamed over the trace's path while the trace is opened is not the trace: the descriptor the
   library reads with (pread() scans, the file's size now) is the mapped file's, never the path's newer file,
   whose size would read as a shrink at the end of every read. */
static void test_renamed_over(void)
{
    char path[128], decoy[160];
    path_of(path, sizeof path, "renamed.nettrace");
    snprintf(decoy, sizeof decoy, "%s.decoy", path);
    write_file(path, gen_data, gen_size);
    write_file(decoy, gen_data, gen_size / 2);
    decoy_path = decoy;
    armed_opens = 0;
    armed_path = path;
    ntidx_trace *t;
    CHECK_EQ(ntidx_trace_open(path, &t), NTIDX_OK);
    armed_path = NULL;
    CHECK(armed_opens >= 1);
    if (access(decoy, F_OK) == 0) /* the path was opened once: the decoy takes it now */
        CHECK_EQ(rename(decoy, path), 0);
    ntidx_reader *r;
    const ntidx_event *e;
    int rc;
    CHECK_EQ(ntidx_reader_open(t, NULL, &r), NTIDX_OK);
    while ((rc = ntidx_reader_next(r, &e)) == 1)
        ;
    CHECK_EQ(rc, 0);
    CHECK_EQ(ntidx_reader_complete(r), 1);
    ntidx_reader_close(&r);
    ntidx_index *x;
    CHECK_EQ(ntidx_index_build(t, NULL, &x), NTIDX_OK);
    CHECK_EQ(ntidx_index_get_info(x)->complete, 1);
    CHECK_EQ(ntidx_index_get_info(x)->trace_size, gen_size);
    ntidx_index_close(&x);
    ntidx_trace_close(&t);
}

/* Shrunk to a size inside a page: the rest of that page reads as zeros with no fault to tell. */
static void test_inside_a_page(void)
{
    char path[128];
    uint64_t to = gen_size / 2 + 1234;
    ntidx_trace *t = fresh_trace("page.nettrace", path, sizeof path);
    shrink(path, to);
    ntidx_reader *r;
    const ntidx_event *e;
    int rc;
    CHECK_EQ(ntidx_reader_open(t, NULL, &r), NTIDX_OK);
    while ((rc = ntidx_reader_next(r, &e)) == 1)
        ;
    CHECK_EQ(rc, NTIDX_E_SHRUNK);
    assert_shrunk(path, to);
    ntidx_reader_close(&r);
    ntidx_trace_close(&t);
}

/* ------------------------------------------------------------------ */
/* A SIGBUS that is not the library's                                  */
/* ------------------------------------------------------------------ */

static volatile sig_atomic_t own_handler_saw;
static char *own_map;
static long page;

static void own_handler(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    (void)uc;
    own_handler_saw = si->si_addr == own_map ? 1 : 2;
    /* repair the page so that the read goes on */
    mmap(own_map, (size_t)page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
}

/* In a child: a trace opened (the library's handler installed), then a mapping of the child's own whose
   file is truncated and read. `with_own`: a handler of the child's installed before the trace's open. */
static int child_reads_own_mapping(const char *trace, int with_own)
{
    if (with_own) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = own_handler;
        sa.sa_flags = SA_SIGINFO;
        sigaction(SIGBUS, &sa, NULL);
    }
    ntidx_trace *t;
    if (ntidx_trace_open(trace, &t) != NTIDX_OK)
        return 10;
    char own[160];
    snprintf(own, sizeof own, "%s.own", trace);
    int fd = open(own, O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || ftruncate(fd, page) != 0)
        return 11;
    own_map = mmap(NULL, (size_t)page, PROT_READ, MAP_SHARED, fd, 0);
    if (own_map == MAP_FAILED || ftruncate(fd, 0) != 0)
        return 12;
    if (!with_own) { /* the end expected: no sanitizer's report of it in the log */
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, 2);
    }
    volatile char c = own_map[0]; /* SIGBUS: not the trace's */
    (void)c;
    ntidx_trace_close(&t);
    return own_handler_saw == 1 ? 0 : 13;
}

static void test_other_sigbus(void)
{
    char path[128];
    path_of(path, sizeof path, "other.nettrace");
    write_file(path, gen_data, gen_size);
    page = sysconf(_SC_PAGESIZE);
    for (int with_own = 0; with_own <= 1; with_own++) {
        pid_t pid = fork();
        CHECK(pid >= 0);
        if (pid == 0)
            _exit(child_reads_own_mapping(path, with_own));
        int status;
        CHECK_EQ(waitpid(pid, &status, 0), pid);
        if (with_own) /* the handler installed before got the fault */
            CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
#if defined(__SANITIZE_ADDRESS__)
        else /* the sanitizer's handler was there before: it reports the fault and exits */
            CHECK(WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0));
#else
        else /* killed, as without the library */
            CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS);
#endif
    }
}

/* The scratch folder goes on every exit of the test, a failed check's included. */
static void remove_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "test_truncate: could not remove %s\n", dir);
}

int main(int argc, char **argv)
{
    snprintf(dir, sizeof dir, "/tmp/ntidx-truncate-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    atexit(remove_dir);
    ntidx_gen_options g;
    ntidx_gen_options_defaults(&g);
    g.target_bytes = 8u << 20; /* about 100 sequence-point regions */
    g.seed = 25;
    if (ntidx_generate_memory(&g, &gen_data, &gen_size) != NTIDX_OK)
        return 1;
    static const struct {
        const char *name;
        void (*run)(void);
    } tests[] = {
        {"reader_mid_read", test_reader_mid_read},   {"block_walk_mid_read", test_block_walk_mid_read},
        {"query_and_values_mid_read", test_query_and_values_mid_read}, {"after_open", test_after_open},
        {"index_build_mid_read", test_index_build_mid_read}, {"threads", test_threads},
        {"slice_large_blocks", test_slice_large_blocks}, {"renamed_over", test_renamed_over},
        {"inside_a_page", test_inside_a_page},
        {"other_sigbus", test_other_sigbus},
    };
    int ran = 0;
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        if (argc > 1 && strcmp(argv[1], tests[i].name))
            continue;
        tests[i].run();
        printf("ok %s\n", tests[i].name);
        ran++;
    }
    free(gen_data);
    if (!ran)
        fprintf(stderr, "test_truncate: no test named %s\n", argv[1]);
    return ran ? 0 : 1;
}
