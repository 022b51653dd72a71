/*
 * The symbolizer's table saved beside the index (docs/symbol-cache.md,
 * src/ops/symbol_cache.c): the first symbolizer of a trace with an index in
 * a file saves INDEX.sym, later ones map it back instead of reading the
 * trace's method events; one of another trace, damaged, or forged with
 * offsets out of bounds is made again and written over, a file at that name
 * that is not one is left alone; NTIDX_SYMBOL_CACHE=0 neither reads nor
 * writes one; the whole-trace exceptions run, which reads the method events
 * along with its own, saves it too. Every answer is compared with a
 * symbolizer made without the cache.
 */
#include "an_check.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ntidx/symbols.h>

#include "hash.h"
#include "le.h"

#define MS RT_MS
#define JITTED 0x8u

enum { A = 0x10000, B = 0x20000, C = 0x30000 };

/* Methods loaded and unloaded over three regions, the exceptions that name them, a rundown-like reload at the
   end; `salt` changes one method's name (another trace). */
static uint8_t *sym_trace(int salt, size_t *size)
{
    rt_trace rt;
    rt_begin(&rt, 5, 77);
    rt_module_load(&rt, 1, MS / 10, 0x100, "/app/MyApp.dll");
    rt_method_load_verbose(&rt, 1, 1, MS / 5, 1, 0x100, A, 0x100, JITTED, "MyApp.P", salt ? "Salted" : "Alpha", "void  ()", 0);
    rt_method_load_verbose(&rt, 1, 1, MS / 5, 2, 0x100, B, 0x100, JITTED, "MyApp.P", "Beta", "void  (int32)", 0);
    const uint64_t s1[] = {A + 0x10, B + 0x10};
    rt_stack(&rt, 1, s1, 2);
    rt_exception(&rt, 1, 1 * MS, "System.Exception", "one", 1);
    rt_seqpoint(&rt, 1 * MS + MS / 2);
    rt_method_load_verbose(&rt, 1, 1, 2 * MS, 3, 0x100, C, 0x80, JITTED, "MyApp.Q", "Gamma", "void  ()", 0);
    const uint64_t s2[] = {C + 0x10, A + 0x20};
    rt_stack(&rt, 1, s2, 2);
    rt_exception(&rt, 1, 3 * MS, "System.Exception", "two", 1);
    rt_seqpoint(&rt, 3 * MS + MS / 2);
    rt_stack(&rt, 1, s1, 2);
    rt_exception(&rt, 1, 4 * MS, "System.Exception", "three", 1);
    return rt_end(&rt, 1, size);
}

static char dir[64];

static void write_file(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(p, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static ino_t inode_of(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? st.st_ino : 0;
}

typedef struct opened {
    ntidx_trace *t;
    ntidx_index *x;
} opened;

static void open_trace(opened *o, const char *trace)
{
    assert_int_equal(ntidx_trace_open(trace, &o->t), NTIDX_OK);
    assert_int_equal(ntidx_index_open(o->t, NULL, NULL, &o->x, NULL), NTIDX_OK);
    assert_non_null(ntidx_index_file(o->x));
}

static void close_trace(opened *o)
{
    ntidx_index_close(&o->x);
    ntidx_trace_close(&o->t);
}

/* Every address of interest, at several times, named the same by both symbolizers. */
static void assert_same_names(const ntidx_symbolizer *a, const ntidx_symbolizer *b)
{
    assert_int_equal(ntidx_symbolizer_method_count(a), ntidx_symbolizer_method_count(b));
    static const uint64_t ips[] = {A, A + 0x10, A + 0xff, A + 0x100, B + 0x10, C + 0x7f, C + 0x80, 0x5, UINT64_MAX};
    for (size_t i = 0; i < sizeof ips / sizeof ips[0]; i++)
        for (uint64_t ts = 0; ts < 6 * MS; ts += MS / 2) {
            ntidx_symbol x, y;
            char nx[256], ny[256];
            assert_int_equal(ntidx_symbolizer_lookup_at(a, ips[i], 0, ts, &x), ntidx_symbolizer_lookup_at(b, ips[i], 0, ts, &y));
            ntidx_symbol_frame_name(&x, nx, sizeof nx);
            ntidx_symbol_frame_name(&y, ny, sizeof ny);
            assert_string_equal(nx, ny);
            assert_int_equal(x.frame_id, y.frame_id);
            assert_int_equal(x.method_start, y.method_start);
            assert_int_equal(x.method_size, y.method_size);
            if (x.module_path || y.module_path)
                assert_string_equal(x.module_path, y.module_path);
        }
}

/* The symbolizer made from the trace itself, with no cache read or written. */
static ntidx_symbolizer *uncached(const opened *o)
{
    setenv("NTIDX_SYMBOL_CACHE", "0", 1);
    ntidx_symbolizer *s = NULL;
    assert_int_equal(ntidx_symbolizer_open(o->t, o->x, &s), NTIDX_OK);
    unsetenv("NTIDX_SYMBOL_CACHE");
    return s;
}

static char trace[128], cache[160];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/ntidx-symcache-XXXXXX");
    assert_non_null(mkdtemp(dir));
    unsetenv("NTIDX_INDEX_DIR"); /* the index beside the trace, in the test's own folder */
    snprintf(trace, sizeof trace, "%s/t.nettrace", dir);
    snprintf(cache, sizeof cache, "%s/t.nettrace.ntidx.sym", dir);
    size_t n;
    uint8_t *d = sym_trace(0, &n);
    write_file(trace, d, n);
    free(d);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

static void test_saved_then_mapped(void **state)
{
    (void)state;
    opened o;
    open_trace(&o, trace);
    unlink(cache);
    ntidx_symbolizer *plain = uncached(&o);
    assert_int_equal(inode_of(cache), 0); /* NTIDX_SYMBOL_CACHE=0 writes nothing */
    ntidx_symbolizer *first = NULL, *second = NULL;
    assert_int_equal(ntidx_symbolizer_open(o.t, o.x, &first), NTIDX_OK);
    ino_t saved = inode_of(cache);
    assert_true(saved != 0);
    assert_int_equal(ntidx_symbolizer_open(o.t, o.x, &second), NTIDX_OK);
    assert_int_equal(inode_of(cache), saved); /* mapped back, not made and saved again */
    assert_same_names(plain, first);
    assert_same_names(plain, second);
    /* a named frame really is one (the comparison is not of two empty symbolizers) */
    ntidx_symbol s;
    char name[256];
    assert_int_equal(ntidx_symbolizer_lookup_at(second, B + 0x10, 0, MS, &s), 1);
    ntidx_symbol_frame_name(&s, name, sizeof name);
    assert_string_equal(name, "myapp!MyApp.P.Beta(int32)");
    ntidx_symbolizer_close(&plain);
    ntidx_symbolizer_close(&first);
    ntidx_symbolizer_close(&second);
    close_trace(&o);
}

/* A damaged cache: made again, written over, and the answers the trace's. */
static void check_remade(const char *what)
{
    opened o;
    open_trace(&o, trace);
    ino_t before = inode_of(cache);
    ntidx_symbolizer *plain = uncached(&o), *s = NULL;
    assert_int_equal(ntidx_symbolizer_open(o.t, o.x, &s), NTIDX_OK);
    assert_same_names(plain, s);
    if (inode_of(cache) == before)
        fail_msg("%s: the cache was not written again", what);
    ntidx_symbolizer_close(&s);
    /* and the new one is good: mapped back as it is */
    before = inode_of(cache);
    assert_int_equal(ntidx_symbolizer_open(o.t, o.x, &s), NTIDX_OK);
    assert_int_equal(inode_of(cache), before);
    assert_same_names(plain, s);
    ntidx_symbolizer_close(&s);
    ntidx_symbolizer_close(&plain);
    close_trace(&o);
}

static uint8_t *read_cache(size_t *n)
{
    FILE *f = fopen(cache, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(*n);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, *n, f), *n);
    fclose(f);
    return b;
}

static void test_damaged(void **state)
{
    (void)state;
    opened o;
    open_trace(&o, trace);
    ntidx_symbolizer *s = NULL;
    assert_int_equal(ntidx_symbolizer_open(o.t, o.x, &s), NTIDX_OK); /* saved, if not yet */
    ntidx_symbolizer_close(&s);
    close_trace(&o);
    size_t n;
    uint8_t *good = read_cache(&n);
    assert_true(n > 88 + 32);

    /* a byte of a method flipped: the body's checksum */
    uint8_t *b = malloc(n);
    memcpy(b, good, n);
    b[88 + 3] ^= 0x40;
    write_file(cache, b, n);
    check_remade("a method's byte");

    /* cut short */
    write_file(cache, good, n - 8);
    check_remade("cut short");

    /* the header's checksum */
    memcpy(b, good, n);
    b[30] ^= 1;
    write_file(cache, b, n);
    check_remade("the header");

    /* forged: a method's file index out of bounds, with every checksum right */
    memcpy(b, good, n);
    ntx_store32(b + 88 + 24, 0x7fffffff);
    uint64_t at[5], len[5];
    uint64_t nm = ntx_load64(b + 24), nf = ntx_load64(b + 32), nn = ntx_load64(b + 40);
    uint64_t names = ntx_load64(b + 48), strings = ntx_load64(b + 56);
    at[0] = 88, len[0] = nm * 32;
    at[1] = at[0] + len[0], len[1] = nf * 16;
    at[2] = at[1] + len[1], len[2] = nn * 8;
    at[3] = at[2] + len[2], len[3] = names;
    at[4] = at[3] + ((names + 7) & ~7ull), len[4] = strings;
    uint64_t h = 0;
    for (int i = 0; i < 5; i++)
        h = ntx_xxh3_seed(b + at[i], len[i], h);
    ntx_store64(b + 72, h);
    ntx_store64(b + 80, ntx_xxh3(b, 80));
    write_file(cache, b, n);
    check_remade("a forged file index");
    free(b);
    free(good);
}

/* A file at the cache's name that is not one: never replaced, never read. */
static void test_foreign_file_left_alone(void **state)
{
    (void)state;
    static const char mine[] = "my notes, not a symbol table\n";
    write_file(cache, mine, sizeof mine - 1);
    opened o;
    open_trace(&o, trace);
    ntidx_symbolizer *plain = uncached(&o), *s = NULL;
    assert_int_equal(ntidx_symbolizer_open(o.t, o.x, &s), NTIDX_OK);
    assert_same_names(plain, s);
    size_t n;
    uint8_t *b = read_cache(&n);
    assert_int_equal(n, sizeof mine - 1);
    assert_memory_equal(b, mine, n);
    free(b);
    ntidx_symbolizer_close(&s);
    ntidx_symbolizer_close(&plain);
    close_trace(&o);
    unlink(cache);
}

/* The trace replaced by another (a method renamed): its index is rebuilt, and the old table is not used. */
static void test_other_trace(void **state)
{
    (void)state;
    opened o;
    open_trace(&o, trace);
    ntidx_symbolizer *s = NULL;
    assert_int_equal(ntidx_symbolizer_open(o.t, o.x, &s), NTIDX_OK);
    ntidx_symbolizer_close(&s);
    close_trace(&o);
    assert_true(inode_of(cache) != 0);
    size_t n;
    uint8_t *d = sym_trace(1, &n);
    char other[160];
    snprintf(other, sizeof other, "%s.new", trace);
    write_file(other, d, n);
    free(d);
    assert_int_equal(rename(other, trace), 0);
    open_trace(&o, trace);
    assert_int_equal(ntidx_symbolizer_open(o.t, o.x, &s), NTIDX_OK);
    ntidx_symbol sym;
    char name[256];
    assert_int_equal(ntidx_symbolizer_lookup_at(s, A + 0x10, 0, MS, &sym), 1);
    ntidx_symbol_frame_name(&sym, name, sizeof name);
    assert_string_equal(name, "myapp!MyApp.P.Salted()");
    ntidx_symbolizer *plain = uncached(&o);
    assert_same_names(plain, s);
    ntidx_symbolizer_close(&plain);
    ntidx_symbolizer_close(&s);
    close_trace(&o);
    /* back to the first trace for the tests after */
    d = sym_trace(0, &n);
    write_file(other, d, n);
    free(d);
    assert_int_equal(rename(other, trace), 0);
}

/* The whole-trace exceptions run reads the method events along with its own and saves the table; a window's
   run after it maps the table, and both name the throwers as without it. */
static void test_exceptions_save_and_use(void **state)
{
    (void)state;
    unlink(cache);
    opened o;
    open_trace(&o, trace);
    ntidx_analysis_options opt;
    ntidx_analysis_options_defaults(&opt);
    setenv("NTIDX_SYMBOL_CACHE", "0", 1);
    ntidx_analysis *want = NULL, *wwin = NULL;
    assert_int_equal(ntidx_exceptions_analyze(o.t, o.x, &opt, &want), NTIDX_OK);
    ntidx_analysis_options win = opt;
    win.t0 = (uint64_t)ntidx_trace_get_info(o.t)->sync_ticks + 2 * MS;
    assert_int_equal(ntidx_exceptions_analyze(o.t, o.x, &win, &wwin), NTIDX_OK);
    unsetenv("NTIDX_SYMBOL_CACHE");
    assert_int_equal(inode_of(cache), 0);
    ntidx_analysis *whole = NULL, *window = NULL;
    assert_int_equal(ntidx_exceptions_analyze(o.t, o.x, &opt, &whole), NTIDX_OK);
    ino_t saved = inode_of(cache);
    assert_true(saved != 0);
    assert_int_equal(ntidx_exceptions_analyze(o.t, o.x, &win, &window), NTIDX_OK);
    assert_int_equal(inode_of(cache), saved);
    an_assert_same(want, whole, "whole trace");
    an_assert_same(wwin, window, "window");
    assert_int_equal(ntidx_exceptions_count(window), 2);
    assert_string_equal(ntidx_exceptions_at(window, 0)->thrown_by, "myapp!MyApp.Q.Gamma()");
    ntidx_analysis_free(&want);
    ntidx_analysis_free(&wwin);
    ntidx_analysis_free(&whole);
    ntidx_analysis_free(&window);
    close_trace(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_saved_then_mapped),
        cmocka_unit_test(test_damaged),
        cmocka_unit_test(test_foreign_file_left_alone),
        cmocka_unit_test(test_other_trace),
        cmocka_unit_test(test_exceptions_save_and_use),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
