/*
 * Output files are never destroyed (output.h): ntidx_output, and the
 * library calls that write whole files through it (ntidx_generate_file(),
 * ntidx_slice()) or beside it (ntidx_index_write()).
 *  - a regular file appears only when complete, replaced by a rename; a
 *    write that fails half way (the file-size limit, EFBIG) leaves the old
 *    file byte for byte, and no temporary;
 *  - a file that is not regular (a FIFO; a device node made here when the
 *    test may make one) is written in place and is still there, of its kind,
 *    after a failure;
 *  - a symbolic link stays a link; a file replaced keeps its permissions.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include <ntidx/index.h>
#include <ntidx/output.h>
#include <ntidx/slice.h>
#include <ntidx/writer.h>

#include "../test_files.h"

static char dir[64];

static void path_in(char *buf, size_t n, const char *name) { snprintf(buf, n, "%s/%s", dir, name); }

/* Names in the folder that hold ".tmp.": temporaries left behind. */
static int temporaries(void)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += strstr(e->d_name, ".tmp.") != NULL;
    closedir(d);
    return n;
}

static const char OLD[] = "the old contents, which a failed write must leave as they are\n";

static void write_old(const char *path) { write_file(path, OLD, sizeof OLD - 1); }

static void assert_old(const char *path)
{
    size_t n;
    uint8_t *p = read_file(path, &n);
    assert_int_equal(n, sizeof OLD - 1);
    assert_memory_equal(p, OLD, n);
    free(p);
}

/* Writes past `bytes` fail with EFBIG (SIGXFSZ ignored) until limit_off(). */
static struct rlimit saved_limit;
static void limit_file_size(rlim_t bytes)
{
    signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &saved_limit), 0);
    struct rlimit r = saved_limit;
    r.rlim_cur = bytes;
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &r), 0);
}
static void limit_off(void) { assert_int_equal(setrlimit(RLIMIT_FSIZE, &saved_limit), 0); }

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/ntidx-output-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_regular_file_appears_whole(void **state)
{
    (void)state;
    char p[128];
    path_in(p, sizeof p, "new.bin");
    ntidx_output *o;
    assert_int_equal(ntidx_output_open(p, &o), NTIDX_OK);
    assert_non_null(ntidx_output_temporary(o));
    assert_string_equal(ntidx_output_path(o), p);
    assert_int_equal(write(ntidx_output_fd(o), "abc", 3), 3);
    assert_int_equal(access(p, F_OK), -1); /* not under its name before the commit */
    assert_int_equal(ntidx_output_commit(&o), NTIDX_OK);
    assert_null(o);
    size_t n;
    uint8_t *d = read_file(p, &n);
    assert_int_equal(n, 3);
    assert_memory_equal(d, "abc", 3);
    free(d);
    assert_int_equal(temporaries(), 0);
    /* replaced: the new bytes, the old permissions */
    assert_int_equal(chmod(p, 0640), 0);
    assert_int_equal(ntidx_output_open(p, &o), NTIDX_OK);
    assert_int_equal(write(ntidx_output_fd(o), "xy", 2), 2);
    assert_int_equal(ntidx_output_commit(&o), NTIDX_OK);
    struct stat st;
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_size, 2);
    assert_int_equal(st.st_mode & 07777, 0640);
    /* discarded: the file as it was, no temporary */
    write_old(p);
    assert_int_equal(ntidx_output_open(p, &o), NTIDX_OK);
    assert_int_equal(write(ntidx_output_fd(o), "zz", 2), 2);
    ntidx_output_discard(&o);
    assert_null(o);
    assert_old(p);
    assert_int_equal(temporaries(), 0);
    unlink(p);
}

static void test_symlink_kept(void **state)
{
    (void)state;
    char target[128], link[128];
    path_in(target, sizeof target, "target.bin");
    path_in(link, sizeof link, "link.bin");
    write_old(target);
    assert_int_equal(symlink(target, link), 0);
    ntidx_output *o;
    assert_int_equal(ntidx_output_open(link, &o), NTIDX_OK);
    assert_int_equal(write(ntidx_output_fd(o), "new", 3), 3);
    assert_int_equal(ntidx_output_commit(&o), NTIDX_OK);
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    size_t n;
    uint8_t *d = read_file(target, &n);
    assert_int_equal(n, 3);
    assert_memory_equal(d, "new", 3);
    free(d);
    unlink(link);
    unlink(target);
}

static void test_directory_refused(void **state)
{
    (void)state;
    ntidx_output *o = (ntidx_output *)1;
    assert_int_equal(ntidx_output_open(dir, &o), NTIDX_E_IO);
    assert_null(o);
    assert_non_null(strstr(ntidx_last_error(), dir));
    char bad[160];
    path_in(bad, sizeof bad, "no-such-dir/out");
    assert_int_equal(ntidx_output_open(bad, &o), NTIDX_E_IO);
    assert_non_null(strstr(ntidx_last_error(), "cannot create"));
}

/* A FIFO's reader: reads everything (or only `stop_after` bytes, then closes its end). */
typedef struct fifo_reader {
    char path[128];
    size_t stop_after; /* 0: read to the end */
    uint8_t *data;
    size_t len;
    pthread_t tid;
} fifo_reader;

static void *read_fifo(void *arg)
{
    fifo_reader *r = arg;
    int fd = open(r->path, O_RDONLY);
    if (fd < 0)
        return NULL;
    size_t cap = 1 << 16;
    r->data = malloc(cap);
    for (;;) {
        if (r->len == cap)
            r->data = realloc(r->data, cap *= 2);
        ssize_t k = read(fd, r->data + r->len, cap - r->len);
        if (k <= 0)
            break;
        r->len += (size_t)k;
        if (r->stop_after && r->len >= r->stop_after)
            break;
    }
    close(fd);
    return NULL;
}

static void start_reader(fifo_reader *r, const char *path, size_t stop_after)
{
    memset(r, 0, sizeof *r);
    snprintf(r->path, sizeof r->path, "%s", path);
    r->stop_after = stop_after;
    assert_int_equal(pthread_create(&r->tid, NULL, read_fifo, r), 0);
}

static void assert_fifo(const char *path)
{
    struct stat st;
    assert_int_equal(lstat(path, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
}

static void generate(const char *path, uint64_t events)
{
    ntidx_gen_options g;
    ntidx_gen_options_defaults(&g);
    g.events = events;
    assert_int_equal(ntidx_generate_file(path, &g), NTIDX_OK);
}

static void test_generate_failure_keeps_the_old_file(void **state)
{
    (void)state;
    char p[128];
    path_in(p, sizeof p, "gen.nettrace");
    write_old(p);
    ntidx_gen_options g;
    ntidx_gen_options_defaults(&g);
    g.events = 200000; /* several MB: past the limit */
    limit_file_size(1 << 20);
    int rc = ntidx_generate_file(p, &g);
    limit_off();
    assert_int_equal(rc, NTIDX_E_WRITE);
    assert_non_null(strstr(ntidx_last_error(), p));
    assert_old(p);
    assert_int_equal(temporaries(), 0);
    unlink(p);
}

static void test_generate_into_a_fifo(void **state)
{
    (void)state;
    char p[128], ref[128];
    path_in(p, sizeof p, "gen.fifo");
    path_in(ref, sizeof ref, "gen-ref.nettrace");
    generate(ref, 3000);
    assert_int_equal(mkfifo(p, 0600), 0);
    fifo_reader r;
    start_reader(&r, p, 0);
    ntidx_gen_options g;
    ntidx_gen_options_defaults(&g);
    g.events = 3000;
    assert_int_equal(ntidx_generate_file(p, &g), NTIDX_OK);
    pthread_join(r.tid, NULL);
    assert_fifo(p);
    size_t n;
    uint8_t *want = read_file(ref, &n);
    assert_int_equal(r.len, n);
    assert_memory_equal(r.data, want, n);
    free(want);
    free(r.data);
    assert_int_equal(temporaries(), 0);
    unlink(p);
    unlink(ref);
}

/* A trace, its index and a window of about half of it. */
typedef struct sliceable {
    char path[128];
    ntidx_trace *t;
    ntidx_index *x;
    ntidx_query_options q;
} sliceable;

static void open_sliceable(sliceable *s, uint64_t events)
{
    path_in(s->path, sizeof s->path, "in.nettrace");
    generate(s->path, events);
    assert_int_equal(ntidx_trace_open(s->path, &s->t), NTIDX_OK);
    assert_int_equal(ntidx_index_build(s->t, NULL, &s->x), NTIDX_OK);
    ntidx_query_options_defaults(&s->q);
}

static void close_sliceable(sliceable *s)
{
    ntidx_index_close(&s->x);
    ntidx_trace_close(&s->t);
    unlink(s->path);
}

static void test_slice_failure_keeps_the_old_file(void **state)
{
    (void)state;
    sliceable s;
    open_sliceable(&s, 200000);
    char p[128];
    path_in(p, sizeof p, "slice.nettrace");
    write_old(p);
    limit_file_size(1 << 20);
    int rc = ntidx_slice(s.t, s.x, &s.q, NULL, p, NULL);
    limit_off();
    assert_int_equal(rc, NTIDX_E_WRITE);
    assert_non_null(strstr(ntidx_last_error(), p));
    assert_old(p); /* before: truncated, then removed */
    assert_int_equal(temporaries(), 0);
    /* and when it succeeds, the slice replaces it */
    assert_int_equal(ntidx_slice(s.t, s.x, &s.q, NULL, p, NULL), NTIDX_OK);
    struct stat st;
    assert_int_equal(stat(p, &st), 0);
    assert_true(st.st_size > (off_t)sizeof OLD);
    assert_int_equal(temporaries(), 0);
    unlink(p);
    close_sliceable(&s);
}

static void test_slice_into_a_fifo_that_closes(void **state)
{
    (void)state;
    sliceable s;
    open_sliceable(&s, 200000);
    char p[128];
    path_in(p, sizeof p, "slice.fifo");
    assert_int_equal(mkfifo(p, 0600), 0);
    signal(SIGPIPE, SIG_IGN);
    fifo_reader r;
    start_reader(&r, p, 4096); /* reads a little, then goes */
    int rc = ntidx_slice(s.t, s.x, &s.q, NULL, p, NULL);
    pthread_join(r.tid, NULL);
    assert_int_equal(rc, NTIDX_E_WRITE);
    assert_non_null(strstr(ntidx_last_error(), p));
    assert_fifo(p); /* before: removed */
    free(r.data);
    unlink(p);
    close_sliceable(&s);
}

/* A device that fails every write, as /dev/full (char 1, 7), made here: the real one is never at risk. Only a
   process that may make device nodes (root) can; the FIFO tests above cover the same path for everyone. */
static void test_slice_into_a_full_device(void **state)
{
    (void)state;
    char p[128];
    path_in(p, sizeof p, "full");
    if (mknod(p, S_IFCHR | 0600, makedev(1, 7)) != 0) {
        assert_true(errno == EPERM || errno == EACCES);
        return;
    }
    sliceable s;
    open_sliceable(&s, 20000);
    assert_int_equal(ntidx_slice(s.t, s.x, &s.q, NULL, p, NULL), NTIDX_E_WRITE);
    assert_non_null(strstr(ntidx_last_error(), "No space left on device"));
    struct stat st;
    assert_int_equal(lstat(p, &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    assert_int_equal(st.st_rdev, makedev(1, 7));
    /* an index written there: in place, not renamed over the device */
    assert_int_equal(ntidx_index_write(s.x, p), NTIDX_E_IO);
    assert_int_equal(lstat(p, &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    assert_int_equal(temporaries(), 0);
    close_sliceable(&s);
    unlink(p);
}

static void test_index_into_a_fifo(void **state)
{
    (void)state;
    sliceable s;
    open_sliceable(&s, 20000);
    char p[128], ref[128];
    path_in(p, sizeof p, "index.fifo");
    path_in(ref, sizeof ref, "ref.ntidx");
    assert_int_equal(ntidx_index_write(s.x, ref), NTIDX_OK);
    assert_int_equal(mkfifo(p, 0600), 0);
    fifo_reader r;
    start_reader(&r, p, 0);
    assert_int_equal(ntidx_index_write(s.x, p), NTIDX_OK);
    pthread_join(r.tid, NULL);
    assert_fifo(p);
    size_t n;
    uint8_t *want = read_file(ref, &n);
    assert_int_equal(r.len, n);
    assert_memory_equal(r.data, want, n);
    free(want);
    free(r.data);
    unlink(p);
    unlink(ref);
    close_sliceable(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_regular_file_appears_whole),
        cmocka_unit_test(test_symlink_kept),
        cmocka_unit_test(test_directory_refused),
        cmocka_unit_test(test_generate_failure_keeps_the_old_file),
        cmocka_unit_test(test_generate_into_a_fifo),
        cmocka_unit_test(test_slice_failure_keeps_the_old_file),
        cmocka_unit_test(test_slice_into_a_fifo_that_closes),
        cmocka_unit_test(test_slice_into_a_full_device),
        cmocka_unit_test(test_index_into_a_fifo),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
