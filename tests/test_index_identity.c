/*
 * The identity check reads the trace only when the trace's recorded times
 * cannot prove it unchanged (docs/index-format.md, Identity): an index
 * written 2 s or more after the trace's last change loads without reading
 * the trace's first MiB; one written sooner hashes it, and a trace rewritten
 * in place is still found out either way.
 *
 * Observed through the page cache: the trace's pages are dropped
 * (fsync, then posix_fadvise DONTNEED), the index loaded, and mincore() on
 * a mapping of the trace tells whether the pages of [256 KiB, 1 MiB) were
 * read (opening the trace reads its first page only). The scratch folder is
 * made in the working directory (the build tree), whose pages can be dropped.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ntidx/index.h>
#include <ntidx/ntidx.h>
#include <ntidx/writer.h>

#define PROBE_FROM (256u << 10)
#define PROBE_TO (1u << 20)

static char dir[64], trace_path[128], index_path[128];

/* Pages of [PROBE_FROM, PROBE_TO) of the trace in the page cache. */
static size_t resident_pages(void)
{
    int fd = open(trace_path, O_RDONLY);
    assert_true(fd >= 0);
    void *m = mmap(NULL, PROBE_TO, PROT_READ, MAP_SHARED, fd, 0);
    assert_true(m != MAP_FAILED);
    long page = sysconf(_SC_PAGESIZE);
    size_t n = PROBE_TO / (size_t)page;
    unsigned char *v = malloc(n);
    assert_non_null(v);
    assert_int_equal(mincore(m, PROBE_TO, v), 0);
    size_t resident = 0;
    for (size_t i = PROBE_FROM / (size_t)page; i < n; i++)
        resident += v[i] & 1;
    free(v);
    munmap(m, PROBE_TO);
    close(fd);
    return resident;
}

/* Empty the page cache of the trace, and fail if this filesystem keeps its pages anyway. */
static void drop_trace_pages(void)
{
    int fd = open(trace_path, O_RDONLY);
    assert_true(fd >= 0);
    assert_int_equal(fsync(fd), 0);
    assert_int_equal(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
    close(fd);
    if (resident_pages() != 0)
        fail_msg("%s: the page cache keeps the trace's pages after POSIX_FADV_DONTNEED (a tmpfs?): this test "
                 "must run where they can be dropped",
                 trace_path);
}

/* Set the index file's modification time to the trace's change time plus `after_ns`. */
static void index_written_after_change(int64_t after_ns)
{
    struct stat st;
    assert_int_equal(stat(trace_path, &st), 0);
    int64_t t = (int64_t)st.st_ctim.tv_sec * 1000000000LL + st.st_ctim.tv_nsec + after_ns;
    struct timespec ts[2] = {{t / 1000000000LL, t % 1000000000LL}, {t / 1000000000LL, t % 1000000000LL}};
    assert_int_equal(utimensat(AT_FDCWD, index_path, ts, 0), 0);
}

/* Load the index from a cold trace: its state, and the probed pages read by the load. */
static ntidx_index_state load_cold(size_t *read_pages)
{
    drop_trace_pages();
    ntidx_trace *t = NULL;
    assert_int_equal(ntidx_trace_open(trace_path, &t), NTIDX_OK);
    ntidx_index *x = NULL;
    ntidx_index_state st = NTIDX_INDEX_CURRENT;
    int rc = ntidx_index_load(t, index_path, NTIDX_VERIFY_AUTO, &x, &st);
    *read_pages = resident_pages();
    ntidx_index_close(&x);
    ntidx_trace_close(&t);
    if (rc == NTIDX_E_INDEX_STALE)
        return (ntidx_index_state)-1;
    assert_int_equal(rc, NTIDX_OK);
    return st;
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "identity.XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    snprintf(trace_path, sizeof trace_path, "%s/t.nettrace", dir);
    snprintf(index_path, sizeof index_path, "%s/t.nettrace.ntidx", dir);
    ntidx_gen_options o;
    ntidx_gen_options_defaults(&o);
    o.target_bytes = 4u << 20;
    o.seed = 7;
    if (ntidx_generate_file(trace_path, &o) != NTIDX_OK)
        return -1;
    ntidx_trace *t = NULL;
    ntidx_index *x = NULL;
    int rc = ntidx_trace_open(trace_path, &t);
    if (rc == NTIDX_OK)
        rc = ntidx_index_build(t, NULL, &x);
    if (rc == NTIDX_OK)
        rc = ntidx_index_write(x, index_path);
    ntidx_index_close(&x);
    ntidx_trace_close(&t);
    return rc == NTIDX_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    unlink(index_path);
    unlink(trace_path);
    rmdir(dir);
    return 0;
}

static void test_settled_index_reads_nothing_of_the_trace(void **state)
{
    (void)state;
    size_t pages;
    index_written_after_change(5000000000LL);
    assert_int_equal(load_cold(&pages), NTIDX_INDEX_CURRENT);
    assert_int_equal(pages, 0);
}

static void test_fresh_index_hashes_the_first_mib(void **state)
{
    (void)state;
    size_t pages;
    index_written_after_change(500000000LL); /* 0.5 s: file times cannot prove a same-tick rewrite apart */
    assert_int_equal(load_cold(&pages), NTIDX_INDEX_CURRENT);
    assert_int_equal(pages, (PROBE_TO - PROBE_FROM) / (size_t)sysconf(_SC_PAGESIZE));
}

static void test_rewrite_in_place_is_stale_either_way(void **state)
{
    (void)state;
    /* one byte of the first MiB changed, size kept: the change time moves */
    int fd = open(trace_path, O_RDWR);
    assert_true(fd >= 0);
    unsigned char c;
    assert_int_equal(pread(fd, &c, 1, PROBE_FROM + 100), 1);
    c ^= 1;
    assert_int_equal(pwrite(fd, &c, 1, PROBE_FROM + 100), 1);
    close(fd);
    size_t pages;
    for (int settled = 0; settled < 2; settled++) {
        struct stat st;
        assert_int_equal(stat(trace_path, &st), 0);
        /* as if written long after the trace's old change time, which the rewrite moved */
        struct timespec ts[2] = {{st.st_ctim.tv_sec + (settled ? 10 : 0), 0}, {st.st_ctim.tv_sec + (settled ? 10 : 0), 0}};
        assert_int_equal(utimensat(AT_FDCWD, index_path, ts, 0), 0);
        assert_int_equal((int)load_cold(&pages), -1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_settled_index_reads_nothing_of_the_trace),
        cmocka_unit_test(test_fresh_index_hashes_the_first_mib),
        cmocka_unit_test(test_rewrite_in_place_is_stale_either_way),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
