/*
 * The embedding API (include/ntidx): what a binding relies on.
 *
 *  - errors: every code has a name and a text; a failing call publishes its
 *    message, file and offset on its own thread only;
 *  - option structs refuse non-zero reserved space;
 *  - typed payload values carry everything the JSON shows: a formatter
 *    written here from the values alone reproduces ntidx_event_fields_json()
 *    byte for byte, on every real trace and on generated traces of every
 *    field type;
 *  - recovery: a region of a lazily checked index that fails its check is
 *    NTIDX_E_INDEX_CORRUPT from a query, a batch, statistics and a slice,
 *    whatever their `recover` options say, and the index is left as it was
 *    (it fails again the same way); ntidx_index_recover() makes a new index,
 *    saved, over which ntidx_query_resume() and ntidx_batch_resume() go on
 *    without repeating or losing an event, and statistics and a slice give
 *    exactly what an intact index gives;
 *  - the cost estimate equals what a query reads (file order, to its end),
 *    and bounds it otherwise;
 *  - seeks are queries; regions list the work units and statistics over a
 *    subset of them add up to the whole;
 *  - the symbolizer names the sample profiler's frames of a real trace;
 *  - a stack block's stacks, walked alone, are the ones events reference.
 */
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include <ntidx/batch.h>
#include <ntidx/index.h>
#include <ntidx/slice.h>
#include <ntidx/symbols.h>
#include <ntidx/version.h>
#include <ntidx/writer.h>

#include "../test_files.h"
#include "../test_rand.h"

static const char *traces_dir;
static char dir[64];

static const char *const REAL[] = {
    "eventpipe-dotnetcore2.1-linux-x64-objver3.netperf", "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace",
    "eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace", "eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace",
    "only_managed_samples.nettrace"};

static ntidx_trace *open_real(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", traces_dir, name);
    ntidx_trace *t = NULL;
    if (ntidx_trace_open(path, &t) != NTIDX_OK)
        fail_msg("%s", ntidx_last_error());
    return t;
}

/* A generated trace written to dir/name; returns it opened. */
static ntidx_trace *make_trace(const char *name, int version, uint64_t events, char *path, size_t pathlen)
{
    ntidx_gen_options g;
    ntidx_gen_options_defaults(&g);
    g.format_version = version;
    g.events = events;
    g.seed = 11;
    uint8_t *data;
    size_t size;
    assert_int_equal(ntidx_generate_memory(&g, &data, &size), NTIDX_OK);
    snprintf(path, pathlen, "%s/%s", dir, name);
    write_file(path, data, size);
    free(data);
    ntidx_trace *t;
    assert_int_equal(ntidx_trace_open(path, &t), NTIDX_OK);
    return t;
}

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */

static void test_error_names(void **state)
{
    (void)state;
    for (int code = 0; code >= NTIDX_E_LAST; code--) {
        assert_string_not_equal(ntidx_strerror(code), "unknown error");
        assert_true(strncmp(ntidx_error_name(code), "NTIDX_", 6) == 0);
        assert_string_not_equal(ntidx_error_name(code), "NTIDX_E_UNKNOWN");
    }
    assert_string_equal(ntidx_error_name(NTIDX_E_INDEX_STALE), "NTIDX_E_INDEX_STALE");
    assert_string_equal(ntidx_strerror(NTIDX_E_LAST - 1), "unknown error");
    assert_string_equal(ntidx_error_name(1), "NTIDX_E_UNKNOWN");
    /* the header's version is the library's */
    assert_string_equal(ntidx_version(), NTIDX_VERSION_STRING);
    char v[32];
    snprintf(v, sizeof v, "%d.%d.%d", NTIDX_VERSION_MAJOR, NTIDX_VERSION_MINOR, NTIDX_VERSION_PATCH);
    assert_string_equal(v, NTIDX_VERSION_STRING);
    assert_true(NTIDX_VERSION_NUMBER == NTIDX_MAKE_VERSION(NTIDX_VERSION_MAJOR, NTIDX_VERSION_MINOR, NTIDX_VERSION_PATCH));
    /* the library's number is its string's, and the header's */
    int major = -1, minor = -1, patch = -1;
    assert_int_equal(sscanf(ntidx_version(), "%d.%d.%d", &major, &minor, &patch), 3);
    assert_int_equal(ntidx_version_number(), NTIDX_MAKE_VERSION(major, minor, patch));
    assert_int_equal(ntidx_version_number(), NTIDX_VERSION_NUMBER);
    assert_true(minor < 100 && patch < 100);
}

static void test_error_messages(void **state)
{
    (void)state;
    /* a file that is not a trace: the file and the offset are named */
    char path[128];
    snprintf(path, sizeof path, "%s/not-a-trace", dir);
    write_file(path, "hello, world, this is not a trace", 33);
    ntidx_trace *t = (ntidx_trace *)1;
    assert_int_equal(ntidx_trace_open(path, &t), NTIDX_E_NOT_A_TRACE);
    assert_null(t);
    const ntidx_error_info *e = ntidx_last_error_info();
    assert_int_equal(e->code, NTIDX_E_NOT_A_TRACE);
    assert_string_equal(e->file, path);
    assert_int_equal(e->offset, 0);
    assert_non_null(strstr(e->message, path));
    assert_non_null(strstr(e->message, "offset 0 (0x0): "));
    assert_string_equal(e->message, ntidx_last_error());
    assert_true(strlen(e->what) > 0 && strstr(e->message, e->what));
    assert_true(strncmp(e->detail, "offset 0", 8) == 0);
    assert_true(strlen(e->message) < NTIDX_ERROR_MAX);
    /* a missing file: no offset */
    snprintf(path, sizeof path, "%s/missing.nettrace", dir);
    assert_int_equal(ntidx_trace_open(path, &t), NTIDX_E_IO);
    e = ntidx_last_error_info();
    assert_int_equal(e->offset, NTIDX_NO_OFFSET);
    assert_non_null(strstr(e->what, "No such file"));
    /* a bad time, then a good call: the message stays (success leaves it) */
    ntidx_trace *g = make_trace("errors.nettrace", 6, 500, path, sizeof path);
    uint64_t ticks;
    assert_int_equal(ntidx_parse_time(g, "yesterday", &ticks), NTIDX_E_INVALID_ARG);
    assert_non_null(strstr(ntidx_last_error(), "yesterday"));
    assert_int_equal(ntidx_parse_time(g, "1.5s", &ticks), NTIDX_OK);
    assert_non_null(strstr(ntidx_last_error(), "yesterday"));
    const ntidx_trace_info *in = ntidx_trace_get_info(g);
    assert_true(ticks == (uint64_t)in->sync_ticks + (uint64_t)in->tick_frequency * 3 / 2);
    assert_int_equal(ntidx_parse_time(g, "12345", &ticks), NTIDX_OK);
    assert_int_equal(ticks, 12345);
    assert_int_equal(ntidx_parse_time(g, "250ms", &ticks), NTIDX_OK);
    assert_true(ticks == (uint64_t)in->sync_ticks + (uint64_t)in->tick_frequency / 4);
    ntidx_trace_close(&g);
}

/* Two threads failing at once see their own messages. */
typedef struct thread_arg {
    char path[128];
    int ok;
} thread_arg;

static void *fail_repeatedly(void *p)
{
    thread_arg *a = p;
    a->ok = 1;
    for (int i = 0; i < 2000; i++) {
        ntidx_trace *t;
        if (ntidx_trace_open(a->path, &t) >= 0 || strcmp(ntidx_last_error_info()->file, a->path) != 0)
            a->ok = 0;
    }
    return NULL;
}

static void test_errors_per_thread(void **state)
{
    (void)state;
    thread_arg a[2];
    pthread_t th[2];
    for (int i = 0; i < 2; i++) {
        snprintf(a[i].path, sizeof a[i].path, "%s/missing-%d.nettrace", dir, i);
        assert_int_equal(pthread_create(&th[i], NULL, fail_repeatedly, &a[i]), 0);
    }
    for (int i = 0; i < 2; i++) {
        pthread_join(th[i], NULL);
        assert_true(a[i].ok);
    }
}

static void test_reserved_fields(void **state)
{
    (void)state;
    char path[128];
    ntidx_trace *t = make_trace("reserved.nettrace", 6, 500, path, sizeof path);
    ntidx_index *x;
    assert_int_equal(ntidx_index_build(t, NULL, &x), NTIDX_OK);
    ntidx_reader_options ro;
    ntidx_reader_options_defaults(&ro);
    ro.reserved[3] = 1;
    ntidx_reader *r = NULL;
    assert_int_equal(ntidx_reader_open(t, &ro, &r), NTIDX_E_INVALID_ARG);
    assert_non_null(strstr(ntidx_last_error(), "reserved"));
    ntidx_query_options qo;
    ntidx_query_options_defaults(&qo);
    qo.reserved[0] = 7;
    ntidx_query *q = NULL;
    assert_int_equal(ntidx_query_open(t, x, &qo, &q), NTIDX_E_INVALID_ARG);
    ntidx_query_cost cost;
    assert_int_equal(ntidx_query_estimate(t, x, &qo, &cost), NTIDX_E_INVALID_ARG);
    ntidx_stats_options so;
    ntidx_stats_options_defaults(&so);
    so.reserved[2] = 1; /* the last: progress took two of the five */
    ntidx_stats *s = NULL;
    assert_int_equal(ntidx_stats_indexed(t, x, &so, &s), NTIDX_E_INVALID_ARG);
    ntidx_index_options io;
    ntidx_index_options_defaults(&io);
    io.reserved[6] = 1;
    ntidx_index *y = NULL;
    assert_int_equal(ntidx_index_build(t, &io, &y), NTIDX_E_INVALID_ARG);
    ntidx_slice_options sl;
    ntidx_slice_options_defaults(&sl);
    sl.reserved[0] = 1;
    uint8_t *data = NULL;
    size_t size = 0;
    assert_int_equal(ntidx_slice_memory(t, x, NULL, &sl, &data, &size, NULL), NTIDX_E_INVALID_ARG);
    ntidx_gen_options g;
    ntidx_gen_options_defaults(&g);
    g.reserved[1] = 1;
    assert_int_equal(ntidx_generate_memory(&g, &data, &size), NTIDX_E_INVALID_ARG);
    ntidx_writer_options wo;
    ntidx_writer_options_defaults(&wo);
    wo.reserved[2] = 1;
    ntidx_writer *w = NULL;
    assert_int_equal(ntidx_writer_open_memory(&wo, &w), NTIDX_E_INVALID_ARG);
    assert_null(w);
    ntidx_index_close(&x);
    ntidx_trace_close(&t);
}

/* ------------------------------------------------------------------ */
/* Typed values against the JSON                                       */
/* ------------------------------------------------------------------ */

/* JSON of a string, by the library's documented policy (the values hold valid UTF-8 already). */
static void put_str(ntidx_buf *b, const char *s, size_t n)
{
    assert_int_equal(ntidx_buf_append_json_string(b, s, n), NTIDX_OK);
}

static void put(ntidx_buf *b, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    assert_int_equal(ntidx_buf_append(b, tmp, (size_t)n), NTIDX_OK);
}

/* Days since 1970-01-01 -> civil date (Howard Hinnant), to print a DateTime from its Ticks. */
static void civil(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    unsigned doe = (unsigned)(z - era * 146097);
    unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    unsigned mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = (int64_t)yoe + era * 400 + (*m <= 2);
}

static void put_value(const ntidx_values *vs, const ntidx_value *v, ntidx_buf *b);

static void put_children(const ntidx_values *vs, const ntidx_value *v, ntidx_buf *b, int object)
{
    put(b, object ? "{" : "[");
    uint32_t n = 0;
    for (const ntidx_value *c = ntidx_values_child(vs, v); c; c = ntidx_values_next(vs, c), n++) {
        if (n)
            put(b, ",");
        if (object) {
            assert_non_null(c->name);
            put_str(b, c->name, strlen(c->name));
            put(b, ":");
        } else {
            assert_null(c->name);
        }
        put_value(vs, c, b);
    }
    assert_int_equal(n, v->count);
    put(b, object ? "}" : "]");
}

static void put_value(const ntidx_values *vs, const ntidx_value *v, ntidx_buf *b)
{
    switch (v->kind) {
    case NTIDX_VALUE_NULL: put(b, "null"); break;
    case NTIDX_VALUE_BOOL: put(b, v->u ? "true" : "false"); break;
    case NTIDX_VALUE_INT: put(b, "%" PRId64, v->i); break;
    case NTIDX_VALUE_UINT: put(b, "%" PRIu64, v->u); break;
    case NTIDX_VALUE_FLOAT:
        if (isnan(v->f))
            put(b, "\"NaN\"");
        else if (isinf(v->f))
            put(b, v->f > 0 ? "\"Infinity\"" : "\"-Infinity\"");
        else
            put(b, "%.17g", v->f);
        break;
    case NTIDX_VALUE_STRING:
        assert_int_equal(strlen(v->str), v->len); /* NUL-terminated, and valid UTF-8 by construction */
        put_str(b, v->str, v->len);
        break;
    case NTIDX_VALUE_GUID: {
        char g[37];
        ntidx_guid_format(v->bytes, g);
        put(b, "\"%s\"", g);
        break;
    }
    case NTIDX_VALUE_DECIMAL:
        put(b, "\"");
        for (int i = 0; i < 16; i++)
            put(b, "%02x", v->bytes[i]);
        put(b, "\"");
        break;
    case NTIDX_VALUE_TIME:
        if (v->len == 16) { /* V6 SYSTEMTIME: the JSON shows its fields as stored */
            int16_t f[8];
            memcpy(f, v->bytes, 16);
            put(b, "\"%04d-%02d-%02dT%02d:%02d:%02d.%03dZ\"", f[0], f[1], f[3], f[4], f[5], f[6], f[7]);
        } else { /* a FILETIME: printed here from the DateTime.Ticks the value carries */
            int64_t ticks = v->i, secs = ticks / 10000000, frac = ticks % 10000000;
            int64_t days = secs / 86400 - 719162, sod = secs % 86400, y; /* 0001-01-01 to 1970-01-01 */
            unsigned m, d;
            civil(days, &y, &m, &d);
            put(b, "\"%04lld-%02u-%02uT%02d:%02d:%02d.%07lldZ\"", (long long)y, m, d, (int)(sod / 3600),
                (int)(sod / 60 % 60), (int)(sod % 60), (long long)frac);
        }
        break;
    case NTIDX_VALUE_ARRAY:
        if (v->bytes) { /* byte[]: no children, the bytes */
            assert_int_equal(v->len, v->count);
            assert_null(ntidx_values_child(vs, v));
            int sign = v->field->element && v->field->element->type_code == NTIDX_TYPE_SBYTE;
            put(b, "[");
            for (size_t i = 0; i < v->len; i++)
                put(b, sign ? "%s%d" : "%s%u", i ? "," : "", sign ? (int)(int8_t)v->bytes[i] : (int)v->bytes[i]);
            put(b, "]");
        } else {
            put_children(vs, v, b, 0);
        }
        break;
    case NTIDX_VALUE_OBJECT: put_children(vs, v, b, 1); break;
    default: fail_msg("value of unknown kind %d", v->kind);
    }
}

/* Every event of the trace: the values, written out here, equal the library's JSON. */
static uint64_t values_equal_json(ntidx_trace *t, const char *what)
{
    ntidx_reader *r;
    assert_int_equal(ntidx_reader_open(t, NULL, &r), NTIDX_OK);
    ntidx_values *vs;
    assert_int_equal(ntidx_values_new(&vs), NTIDX_OK);
    ntidx_buf lib = {0}, mine = {0};
    const ntidx_event *e;
    uint64_t n = 0, errors = 0;
    int rc;
    while ((rc = ntidx_reader_next(r, &e)) == 1) {
        lib.len = 0;
        mine.len = 0;
        int jrc = ntidx_event_fields_json(t, e, &lib);
        int vrc = ntidx_values_decode(vs, t, e);
        assert_int_equal(jrc, vrc);
        if (vrc != NTIDX_OK) {
            assert_int_equal(vrc, NTIDX_E_PAYLOAD);
            assert_int_equal(ntidx_values_count(vs), 0);
            errors++;
            continue;
        }
        size_t count = ntidx_values_count(vs);
        if (e->metadata->has_fields && e->metadata->field_count)
            assert_int_equal(count, e->metadata->field_count);
        put(&mine, "{");
        for (size_t i = 0; i < count; i++) {
            const ntidx_value *v = ntidx_values_at(vs, i);
            assert_non_null(v);
            assert_ptr_equal(ntidx_values_find(vs, v->name) ? ntidx_values_find(vs, v->name)->name : NULL, v->name);
            if (i)
                put(&mine, ",");
            put_str(&mine, v->name, strlen(v->name));
            put(&mine, ":");
            put_value(vs, v, &mine);
        }
        put(&mine, "}");
        if (strcmp(lib.data, mine.data))
            fail_msg("%s: event at offset %" PRIu64 ":\n library: %s\n values:  %s", what, e->offset, lib.data,
                     mine.data);
        n++;
    }
    assert_int_equal(rc, 0);
    ntidx_buf_free(&lib);
    ntidx_buf_free(&mine);
    ntidx_values_free(&vs);
    ntidx_reader_close(&r);
    print_message("%s: %" PRIu64 " events' values equal their JSON (%" PRIu64 " payload errors)\n", what, n, errors);
    return n;
}

static void test_values_real(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof REAL / sizeof REAL[0]; i++) {
        ntidx_trace *t = open_real(REAL[i]);
        values_equal_json(t, REAL[i]);
        ntidx_trace_close(&t);
    }
}

static void test_values_generated(void **state)
{
    (void)state;
    for (int v = 5; v <= 6; v++) {
        char path[128], name[32];
        snprintf(name, sizeof name, "values%d.nettrace", v);
        ntidx_trace *t = make_trace(name, v, 20000, path, sizeof path);
        assert_true(values_equal_json(t, name) == 20000);
        ntidx_trace_close(&t);
    }
}

/* ------------------------------------------------------------------ */
/* Recovery                                                            */
/* ------------------------------------------------------------------ */

typedef struct evkey {
    uint64_t ts, offset;
} evkey;

/* Every event of the window in time order (`recover`: the option, which changes nothing); rc: the query's end. */
static size_t collect(ntidx_trace *t, const ntidx_index *x, int recover, evkey *out, size_t cap, int *rc)
{
    ntidx_query_options o;
    ntidx_query_options_defaults(&o);
    o.recover = recover;
    ntidx_query *q;
    assert_int_equal(ntidx_query_open(t, x, &o, &q), NTIDX_OK);
    const ntidx_event *e;
    size_t n = 0;
    while ((*rc = ntidx_query_next(q, &e)) == 1) {
        assert_true(n < cap);
        out[n++] = (evkey){e->timestamp, e->offset};
    }
    ntidx_query_close(&q);
    return n;
}

/* The rows of a batch over x (time order) from row *n on, until its end or an error (returned). */
static int collect_batch(ntidx_batch *b, evkey *out, size_t cap, size_t *n)
{
    const ntidx_columns *c;
    size_t rows;
    int rc;
    do { /* the rows before an error are given with it */
        rc = ntidx_batch_next(b, &c, &rows);
        for (size_t i = 0; i < rows; i++) {
            assert_true(*n < cap);
            out[(*n)++] = (evkey){c->timestamp[i], c->offset[i]};
        }
    } while (rc == 1);
    return rc;
}

static int notices[5];
static void count_notice(void *ctx, int action, const char *why)
{
    (void)ctx;
    (void)why;
    if (action >= 0 && action < 5)
        notices[action]++;
}

/* The BLOCKS section of an index file: where it starts and how many entries (the directory, docs/index-format.md). */
static uint64_t blocks_section(const uint8_t *m, uint64_t *count)
{
    uint32_t nsec;
    memcpy(&nsec, m + 20, 4);
    for (uint32_t i = 0; i < nsec; i++) {
        uint32_t id;
        memcpy(&id, m + 128 + 32 * i, 4);
        if (id == 1) {
            uint64_t off;
            memcpy(&off, m + 128 + 32 * i + 8, 8);
            memcpy(count, m + 128 + 32 * i + 16, 8);
            return off;
        }
    }
    fail_msg("no BLOCKS section");
    return 0;
}

static uint8_t *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc(*n);
    assert_int_equal(fread(p, 1, *n, f), *n);
    fclose(f);
    return p;
}

/* The index file `good` with one byte of the entry of the block at trace offset `at` flipped (its ts_max): the
   region's checksum then fails when a call first needs the region. */
static void write_corrupt(const char *ipath, const uint8_t *good, size_t n, uint64_t at)
{
    uint8_t *m = malloc(n);
    memcpy(m, good, n);
    uint64_t count, off = blocks_section(m, &count), k = 0;
    while (k < count) {
        uint64_t o;
        memcpy(&o, m + off + k * 40, 8);
        if (o == at)
            break;
        k++;
    }
    assert_true(k < count);
    m[off + k * 40 + 33] ^= 0x40;
    write_file(ipath, m, n);
    free(m);
}

static ntidx_index *open_on_use(ntidx_trace *t, const char *ipath, int full)
{
    ntidx_index_options io;
    ntidx_index_options_defaults(&io);
    io.full = full;
    io.verify = NTIDX_VERIFY_ON_USE;
    io.notice = count_notice;
    ntidx_index *x;
    memset(notices, 0, sizeof notices);
    assert_int_equal(ntidx_index_open(t, ipath, &io, &x, NULL), NTIDX_OK);
    assert_int_equal(notices[NTIDX_INDEX_REBUILT], 0); /* the damage is not seen at load */
    return x;
}

static void test_recovery(void **state)
{
    (void)state;
    for (int full = 0; full < 2; full++) {
        char path[128], ipath[160];
        ntidx_trace *t = make_trace(full ? "recover-full.nettrace" : "recover.nettrace", 6, 60000, path, sizeof path);
        snprintf(ipath, sizeof ipath, "%s.ntidx", path);
        ntidx_index_options io;
        ntidx_index_options_defaults(&io);
        io.full = full;
        ntidx_index *x;
        assert_int_equal(ntidx_index_open(t, ipath, &io, &x, NULL), NTIDX_OK);
        size_t n;
        uint8_t *good = read_all(ipath, &n);
        enum { CAP = 70000 };
        evkey *want = malloc(CAP * sizeof *want), *got = malloc(CAP * sizeof *got);
        int rc;
        size_t nwant = collect(t, x, 0, want, CAP, &rc);
        assert_int_equal(rc, 0);
        assert_int_equal(nwant, 60000);
        ntidx_stats_options so;
        ntidx_stats_options_defaults(&so);
        ntidx_stats *ref;
        assert_int_equal(ntidx_stats_indexed(t, x, &so, &ref), NTIDX_OK);
        uint8_t *slice_want;
        size_t slice_want_n;
        assert_int_equal(ntidx_slice_memory(t, x, NULL, NULL, &slice_want, &slice_want_n, NULL), NTIDX_OK);
        uint64_t nregions = ntidx_index_region_count(x);
        assert_true(nregions > 4);
        ntidx_region mid;
        assert_int_equal(ntidx_index_region(x, nregions / 2, &mid), NTIDX_OK);
        ntidx_index_close(&x);

        /* the query returns what it read before the damaged region, then the error, `recover` or not; the
           index is left as it was: a second query fails the same way, and nothing was rebuilt */
        write_corrupt(ipath, good, n, mid.offset);
        x = open_on_use(t, ipath, full);
        for (int recover = 0; recover < 2; recover++) {
            size_t ngot = collect(t, x, recover, got, CAP, &rc);
            assert_int_equal(rc, NTIDX_E_INDEX_CORRUPT);
            assert_true(ngot > 0 && ngot < nwant);
            assert_memory_equal(got, want, ngot * sizeof *got);
            assert_string_equal(ntidx_last_error_info()->file, ipath); /* about the index, not the trace */
            assert_non_null(strstr(ntidx_last_error(), "region"));
        }
        assert_int_equal(notices[NTIDX_INDEX_REBUILT], 0);

        /* the explicit recovery: a new index, saved; the query goes on over it where it stopped, exactly the
           events of the intact index, none repeated or lost */
        ntidx_query_options qo;
        ntidx_query_options_defaults(&qo);
        ntidx_query *q;
        assert_int_equal(ntidx_query_open(t, x, &qo, &q), NTIDX_OK);
        const ntidx_event *e;
        size_t ngot = 0;
        while ((rc = ntidx_query_next(q, &e)) == 1)
            got[ngot++] = (evkey){e->timestamp, e->offset};
        assert_int_equal(rc, NTIDX_E_INDEX_CORRUPT);
        size_t before = ngot;
        ntidx_index *nx = NULL;
        assert_int_equal(ntidx_index_recover(t, x, NULL, &nx), NTIDX_OK);
        assert_int_equal(notices[NTIDX_INDEX_REBUILT], 1); /* with the options x was opened with */
        assert_int_equal(ntidx_index_get_info(nx)->full, full); /* a --full index comes back --full */
        assert_string_equal(ntidx_index_file(nx), ipath);
        assert_int_equal(ntidx_query_resume(q, nx), NTIDX_OK);
        while ((rc = ntidx_query_next(q, &e)) == 1) {
            assert_true(ngot < CAP);
            got[ngot++] = (evkey){e->timestamp, e->offset};
        }
        assert_int_equal(rc, 0);
        assert_true(before > 0 && before < nwant);
        assert_int_equal(ngot, nwant);
        assert_memory_equal(got, want, ngot * sizeof *got);
        ntidx_query_close(&q);
        /* x itself is unchanged: it still fails; the new index answers whole */
        collect(t, x, 1, got, CAP, &rc);
        assert_int_equal(rc, NTIDX_E_INDEX_CORRUPT);
        assert_int_equal(collect(t, nx, 0, got, CAP, &rc), nwant);
        assert_int_equal(rc, 0);
        assert_int_equal(notices[NTIDX_INDEX_REBUILT], 1);
        ntidx_index_close(&nx);
        /* a batch the same way: its rows go on after ntidx_batch_resume() */
        ntidx_batch_options bo;
        ntidx_batch_options_defaults(&bo);
        bo.rows = 1000;
        ntidx_batch *b;
        assert_int_equal(ntidx_batch_open(t, x, NULL, &bo, &b), NTIDX_OK);
        ngot = 0;
        assert_int_equal(collect_batch(b, got, CAP, &ngot), NTIDX_E_INDEX_CORRUPT);
        assert_true(ngot < nwant);
        assert_int_equal(ntidx_index_recover(t, x, NULL, &nx), NTIDX_OK);
        assert_int_equal(ntidx_batch_resume(b, nx), NTIDX_OK);
        assert_int_equal(collect_batch(b, got, CAP, &ngot), 0);
        assert_int_equal(ngot, nwant);
        assert_memory_equal(got, want, ngot * sizeof *got);
        ntidx_batch_close(&b);
        ntidx_index_close(&nx);
        ntidx_index_close(&x);
        /* and the rebuilt index was saved: it loads clean, checked whole */
        ntidx_index_state st;
        assert_int_equal(ntidx_index_load(t, ipath, NTIDX_VERIFY_ALL, &x, &st), NTIDX_OK);
        ntidx_index_close(&x);

        /* statistics: the error whatever `recover` says, then the same numbers over the recovered index */
        write_corrupt(ipath, good, n, mid.offset);
        x = open_on_use(t, ipath, full);
        ntidx_stats *s = NULL;
        so.recover = 0;
        assert_int_equal(ntidx_stats_indexed(t, x, &so, &s), NTIDX_E_INDEX_CORRUPT);
        so.recover = 1;
        assert_int_equal(ntidx_stats_indexed(t, x, &so, &s), NTIDX_E_INDEX_CORRUPT);
        assert_int_equal(notices[NTIDX_INDEX_REBUILT], 0);
        assert_int_equal(ntidx_index_recover(t, x, NULL, &nx), NTIDX_OK);
        assert_int_equal(ntidx_stats_indexed(t, nx, &so, &s), NTIDX_OK);
        assert_int_equal(notices[NTIDX_INDEX_REBUILT], 1);
        assert_int_equal(s->events, ref->events);
        assert_int_equal(s->type_count, ref->type_count);
        assert_int_equal(s->thread_count, ref->thread_count);
        for (size_t i = 0; i < s->type_count; i++)
            assert_int_equal(s->types[i].count, ref->types[i].count);
        ntidx_stats_free(&s);
        ntidx_index_close(&nx);
        ntidx_index_close(&x);

        /* a slice: the error before anything is written, then the same bytes over the recovered index */
        write_corrupt(ipath, good, n, mid.offset);
        x = open_on_use(t, ipath, full);
        uint8_t *slice_got;
        size_t slice_got_n;
        assert_int_equal(ntidx_slice_memory(t, x, NULL, NULL, &slice_got, &slice_got_n, NULL),
                         NTIDX_E_INDEX_CORRUPT);
        assert_int_equal(ntidx_index_recover(t, x, NULL, &nx), NTIDX_OK);
        assert_int_equal(ntidx_slice_memory(t, nx, NULL, NULL, &slice_got, &slice_got_n, NULL), NTIDX_OK);
        assert_int_equal(notices[NTIDX_INDEX_REBUILT], 1);
        assert_int_equal(slice_got_n, slice_want_n);
        assert_memory_equal(slice_got, slice_want, slice_want_n);
        free(slice_got);
        ntidx_index_close(&nx);
        ntidx_index_close(&x);

        free(slice_want);
        free(good);
        free(want);
        free(got);
        ntidx_stats_free(&ref);
        ntidx_trace_close(&t);
    }
}

/* ------------------------------------------------------------------ */
/* Estimates, seeks, regions                                           */
/* ------------------------------------------------------------------ */

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next_rand(void) { return test_rand_next(&rng); }

static void check_estimates(ntidx_trace *t, const ntidx_index *x, const char *what)
{
    const ntidx_index_info *ii = ntidx_index_get_info(x);
    if (ii->first_ts > ii->last_ts)
        return;
    uint64_t span = ii->last_ts - ii->first_ts + 1;
    for (int k = 0; k < 40; k++) {
        ntidx_query_options o;
        ntidx_query_options_defaults(&o);
        o.recover = 0;
        o.t0 = ii->first_ts + next_rand() % span;
        o.t1 = k % 5 == 0 ? UINT64_MAX : o.t0 + next_rand() % (span / 4 + 1);
        o.order = k % 2 ? NTIDX_ORDER_FILE : NTIDX_ORDER_TIME;
        ntidx_query_cost c;
        assert_int_equal(ntidx_query_estimate(t, x, &o, &c), NTIDX_OK);
        ntidx_query *q;
        assert_int_equal(ntidx_query_open(t, x, &o, &q), NTIDX_OK);
        const ntidx_event *e;
        int rc;
        while ((rc = ntidx_query_next(q, &e)) == 1)
            ;
        assert_int_equal(rc, 0);
        const ntidx_query_stats *qs = ntidx_query_get_stats(q);
        if (o.order == NTIDX_ORDER_FILE) { /* read to the end: exactly the estimate */
            if (c.blocks != qs->blocks_read || c.bytes != qs->bytes_read || c.event_blocks != qs->event_blocks_read ||
                c.regions != qs->regions_visited)
                fail_msg("%s: window %d: estimate %" PRIu64 " blocks %" PRIu64 " bytes %" PRIu64 " event blocks %" PRIu64
                         " regions, the query read %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64,
                         what, k, c.blocks, c.bytes, c.event_blocks, c.regions, qs->blocks_read, qs->bytes_read,
                         qs->event_blocks_read, qs->regions_visited);
        } else { /* time order may stop at the first event past the window */
            assert_true(c.blocks >= qs->blocks_read && c.bytes >= qs->bytes_read);
        }
        if (ii->full)
            assert_true(c.events != UINT64_MAX);
        else
            assert_true(c.events == UINT64_MAX);
        ntidx_query_close(&q);
    }
}

static void check_seeks(ntidx_trace *t, const ntidx_index *x)
{
    /* the reference: every event in time order */
    ntidx_reader_options ro;
    ntidx_reader_options_defaults(&ro);
    ro.order = NTIDX_ORDER_TIME;
    ntidx_reader *r;
    assert_int_equal(ntidx_reader_open(t, &ro, &r), NTIDX_OK);
    size_t n = 0, cap = 1024;
    evkey *all = malloc(cap * sizeof *all);
    const ntidx_event *e;
    while (ntidx_reader_next(r, &e) == 1) {
        if (n == cap)
            all = realloc(all, (cap *= 2) * sizeof *all);
        all[n++] = (evkey){e->timestamp, e->offset};
    }
    ntidx_reader_close(&r);
    for (int k = 0; k < 30 && n; k++) {
        uint64_t at = all[0].ts + next_rand() % (all[n - 1].ts - all[0].ts + 2);
        size_t i = 0;
        while (i < n && all[i].ts < at)
            i++;
        ntidx_query_options o;
        ntidx_query_options_seek(&o, at);
        o.order = NTIDX_ORDER_FILE; /* a seek is in time order whatever this says */
        o.limit = 5;
        ntidx_query *q;
        assert_int_equal(ntidx_query_open(t, x, &o, &q), NTIDX_OK);
        int rc = ntidx_query_next(q, &e);
        if (i == n) {
            assert_int_equal(rc, 0);
        } else {
            assert_int_equal(rc, 1);
            assert_int_equal(e->offset, all[i].offset);
            assert_int_equal(ntidx_query_next(q, &e), 0); /* one event */
        }
        ntidx_query_close(&q);
    }
    free(all);
}

static void check_regions(ntidx_trace *t, const ntidx_index *x, const char *what)
{
    uint64_t nr = ntidx_index_region_count(x);
    ntidx_stats_options so;
    ntidx_stats_options_defaults(&so);
    so.recover = 0;
    ntidx_stats *whole;
    assert_int_equal(ntidx_stats_indexed(t, x, &so, &whole), NTIDX_OK);
    uint64_t events = 0, bytes = 0, next = 0;
    for (uint64_t r = 0; r < nr; r++) {
        ntidx_region g;
        assert_int_equal(ntidx_index_region(x, r, &g), NTIDX_OK);
        assert_int_equal(g.number, r);
        if (r)
            assert_int_equal(g.offset, next); /* regions follow each other */
        next = g.offset + g.bytes;
        bytes += g.bytes;
        uint64_t one = r;
        so.regions = &one;
        so.region_count = 1;
        ntidx_stats *s;
        assert_int_equal(ntidx_stats_indexed(t, x, &so, &s), NTIDX_OK);
        if (g.first_ts <= g.last_ts && s->events) {
            assert_true(s->first_ts >= g.first_ts && s->last_ts <= g.last_ts);
        }
        if (g.events != UINT64_MAX)
            assert_int_equal(g.events, s->events);
        events += s->events;
        ntidx_stats_free(&s);
    }
    if (events != whole->events)
        fail_msg("%s: regions one by one count %" PRIu64 " events, the whole %" PRIu64, what, events, whole->events);
    /* the regions cover the trace up to its indexed end (which includes the end-of-stream marker when there is one) */
    const ntidx_index_info *ii = ntidx_index_get_info(x);
    if (nr)
        assert_true(next <= ii->indexed_end && ii->indexed_end - next <= (ii->complete ? 8u : 0u));
    ntidx_region g;
    assert_int_equal(ntidx_index_region(x, nr, &g), NTIDX_E_INVALID_ARG);
    uint64_t bad = nr;
    so.regions = &bad;
    ntidx_stats *s = NULL;
    assert_int_equal(ntidx_stats_indexed(t, x, &so, &s), NTIDX_E_INVALID_ARG);
    ntidx_stats_free(&whole);
    (void)bytes;
}

static void test_estimates_seeks_regions(void **state)
{
    (void)state;
    for (int k = 0; k < 4; k++) {
        char path[128], name[32];
        snprintf(name, sizeof name, "est%d.nettrace", k);
        ntidx_trace *t = make_trace(name, k < 2 ? 5 : 6, 30000, path, sizeof path);
        ntidx_index_options io;
        ntidx_index_options_defaults(&io);
        io.full = k % 2;
        ntidx_index *x;
        assert_int_equal(ntidx_index_build(t, &io, &x), NTIDX_OK);
        check_estimates(t, x, name);
        check_seeks(t, x);
        check_regions(t, x, name);
        ntidx_index_close(&x);
        ntidx_trace_close(&t);
    }
    for (size_t i = 0; i < sizeof REAL / sizeof REAL[0]; i++) {
        ntidx_trace *t = open_real(REAL[i]);
        ntidx_index *x;
        assert_int_equal(ntidx_index_build(t, NULL, &x), NTIDX_OK);
        check_estimates(t, x, REAL[i]);
        check_seeks(t, x);
        check_regions(t, x, REAL[i]);
        ntidx_index_close(&x);
        ntidx_trace_close(&t);
    }
}

/* ------------------------------------------------------------------ */
/* --full builds: any number of threads, cancelled at any point         */
/* ------------------------------------------------------------------ */

static int cancel_after; /* the progress callback cancels at this call */
static int progress_calls;
static int cancel_at(void *ctx, uint64_t done, uint64_t total)
{
    (void)ctx;
    assert_true(done <= total);
    return ++progress_calls >= cancel_after;
}

/* The --full index of t with `threads` workers, written to path; the progress callback cancels at call
   `cancel` (0: never). The build's result. */
static int build_full_to(ntidx_trace *t, unsigned threads, int cancel, const char *path)
{
    ntidx_index_options o;
    ntidx_index_options_defaults(&o);
    o.full = 1;
    o.threads = threads;
    o.progress = cancel ? cancel_at : NULL;
    cancel_after = cancel;
    progress_calls = 0;
    ntidx_index *x = NULL;
    int rc = ntidx_index_build(t, &o, &x);
    if (rc == NTIDX_OK)
        assert_int_equal(ntidx_index_write(x, path), NTIDX_OK);
    else
        assert_null(x);
    ntidx_index_close(&x);
    return rc;
}

static void test_full_threads_cancel(void **state)
{
    (void)state;
    /* Large enough for the scan to report progress several times while workers decode what it found. */
    char path[128], one[160], many[160];
    ntidx_gen_options g;
    ntidx_gen_options_defaults(&g);
    g.target_bytes = 48u << 20;
    g.seed = 5;
    uint8_t *data;
    size_t size;
    assert_int_equal(ntidx_generate_memory(&g, &data, &size), NTIDX_OK);
    snprintf(path, sizeof path, "%s/full_threads.nettrace", dir);
    write_file(path, data, size);
    free(data);
    ntidx_trace *t;
    assert_int_equal(ntidx_trace_open(path, &t), NTIDX_OK);
    snprintf(one, sizeof one, "%s.1.ntidx", path);
    snprintf(many, sizeof many, "%s.n.ntidx", path);
    assert_int_equal(build_full_to(t, 1, 0, one), NTIDX_OK);
    size_t n1, nn;
    uint8_t *b1 = read_all(one, &n1);
    for (unsigned threads = 2; threads <= 3; threads++) {
        assert_int_equal(build_full_to(t, threads, 0, many), NTIDX_OK);
        uint8_t *bn = read_all(many, &nn);
        assert_int_equal(n1, nn);
        assert_memory_equal(b1, bn, n1);
        free(bn);
    }
    free(b1);
    /* Cancelled during the scan (it reports every 16 MiB: calls 1-4 of a 50 MB trace, while a worker decodes
       the regions it found), then while the calling thread decodes (unless the other did every region). */
    for (int at = 1; at <= 4; at++)
        assert_int_equal(build_full_to(t, 2, at, many), NTIDX_E_CANCELLED);
    for (int at = 5; at <= 6; at++) {
        int rc = build_full_to(t, 2, at, many);
        assert_true(rc == NTIDX_E_CANCELLED || (rc == NTIDX_OK && progress_calls < at));
    }
    ntidx_trace_close(&t);
    unlink(one);
    unlink(many);
    unlink(path);
}

/* ------------------------------------------------------------------ */
/* Symbolizer and stacks                                               */
/* ------------------------------------------------------------------ */

static void test_symbolizer(void **state)
{
    (void)state;
    ntidx_trace *t = open_real("only_managed_samples.nettrace");
    ntidx_symbolizer *plain, *viafull;
    assert_int_equal(ntidx_symbolizer_open(t, NULL, &plain), NTIDX_OK);
    ntidx_index_options io;
    ntidx_index_options_defaults(&io);
    io.full = 1;
    ntidx_index *x;
    assert_int_equal(ntidx_index_build(t, &io, &x), NTIDX_OK);
    assert_int_equal(ntidx_symbolizer_open(t, x, &viafull), NTIDX_OK);
    assert_true(ntidx_symbolizer_method_count(plain) > 100);
    assert_int_equal(ntidx_symbolizer_method_count(plain), ntidx_symbolizer_method_count(viafull));
    /* every frame of the sample profiler's stacks in this trace is a managed method */
    ntidx_query_options o;
    ntidx_query_options_defaults(&o);
    o.provider = "Microsoft-DotNETCore-SampleProfiler";
    ntidx_query *q;
    assert_int_equal(ntidx_query_open(t, x, &o, &q), NTIDX_OK);
    const ntidx_event *e;
    uint64_t frames = 0, named = 0, with_module = 0;
    while (ntidx_query_next(q, &e) == 1) {
        size_t depth = ntidx_event_stack_depth(t, e);
        assert_int_equal(depth * ntidx_trace_get_info(t)->pointer_size, e->stack_size);
        assert_int_equal(ntidx_event_stack_ip(t, e, depth), 0);
        for (size_t i = 0; i < depth; i++) {
            uint64_t ip = ntidx_event_stack_ip(t, e, i);
            ntidx_symbol a, b;
            int fa = ntidx_symbolizer_lookup(plain, ip, i > 0, &a), fb = ntidx_symbolizer_lookup(viafull, ip, i > 0, &b);
            assert_int_equal(fa, fb);
            frames++;
            if (!fa) {
                assert_null(a.method);
                continue;
            }
            named++;
            assert_string_equal(a.method, b.method);
            assert_true(strchr(a.method, '(') != NULL); /* "Namespace.Name(args)" */
            assert_true(ip - (i > 0) - a.method_start < a.method_size);
            assert_true(a.method_index < ntidx_symbolizer_method_count(plain));
            if (a.module) {
                with_module++;
                assert_non_null(a.module_path);
                assert_non_null(strstr(a.module_path, a.module));
                assert_null(strchr(a.module, '/'));
            }
        }
    }
    ntidx_query_close(&q);
    print_message("symbolizer: %" PRIu64 " of %" PRIu64 " frames named, %" PRIu64 " with their module\n", named,
                  frames, with_module);
    assert_true(frames > 1000);
    assert_int_equal(named, frames); /* the speedscope export's own test says 27,273 of 27,273 */
    ntidx_symbol none;
    assert_int_equal(ntidx_symbolizer_lookup(plain, 1, 0, &none), 0);
    ntidx_symbolizer_close(&plain);
    ntidx_symbolizer_close(&viafull);
    assert_null(plain);
    ntidx_index_close(&x);
    ntidx_trace_close(&t);
}

/* ntidx_stack_block_stacks(): the stacks it gives are the ones events reference. */
typedef struct stack_def {
    uint32_t id;
    const uint8_t *ips;
    uint32_t size;
} stack_def;

typedef struct stack_defs {
    stack_def *v;
    size_t n, cap;
    int stop_after; /* > 0: return 7 at that stack */
} stack_defs;

static int add_stack_def(void *ctx, uint32_t id, const uint8_t *ips, uint32_t size)
{
    stack_defs *d = ctx;
    if (d->stop_after && (int)d->n + 1 == d->stop_after)
        return 7;
    if (d->n == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 64;
        d->v = realloc(d->v, d->cap * sizeof *d->v);
        assert_non_null(d->v);
    }
    d->v[d->n++] = (stack_def){id, ips, size};
    return 0;
}

static int cmp_stack_def(const void *a, const void *b)
{
    const stack_def *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->ips < y->ips ? -1 : x->ips > y->ips;
}

static void check_stack_blocks(ntidx_trace *t, uint64_t min_defs)
{
    stack_defs d = {0};
    uint64_t pos = ntidx_trace_get_info(t)->first_block_offset;
    ntidx_block b;
    int rc, nonstack_refused = 0;
    while ((rc = ntidx_trace_next_block(t, &pos, &b)) == 1) {
        if (b.kind == NTIDX_BLOCK_STACK)
            assert_int_equal(ntidx_stack_block_stacks(t, &b, add_stack_def, &d), NTIDX_OK);
        else if (!nonstack_refused++)
            assert_int_equal(ntidx_stack_block_stacks(t, &b, add_stack_def, &d), NTIDX_E_INVALID_ARG);
    }
    assert_true(rc >= 0);
    assert_true(d.n >= min_defs);
    qsort(d.v, d.n, sizeof *d.v, cmp_stack_def);
    ntidx_reader *r;
    ntidx_reader_options o;
    ntidx_reader_options_defaults(&o);
    assert_int_equal(ntidx_reader_open(t, &o, &r), NTIDX_OK);
    const ntidx_event *e;
    uint64_t with_stack = 0;
    while ((rc = ntidx_reader_next(r, &e)) == 1) {
        if (!e->stack_id || !e->stack)
            continue;
        stack_def key = {e->stack_id, e->stack, e->stack_size};
        const stack_def *f = bsearch(&key, d.v, d.n, sizeof *d.v, cmp_stack_def);
        assert_non_null(f); /* the very bytes the walk gave for that id */
        assert_int_equal(f->size, e->stack_size);
        with_stack++;
    }
    assert_int_equal(rc, 0);
    assert_true(with_stack > 0);
    ntidx_reader_close(&r);
    /* a non-zero return stops the walk and is returned */
    pos = ntidx_trace_get_info(t)->first_block_offset;
    while (ntidx_trace_next_block(t, &pos, &b) == 1 && b.kind != NTIDX_BLOCK_STACK)
        ;
    stack_defs stop = {.stop_after = 1};
    assert_int_equal(ntidx_stack_block_stacks(t, &b, add_stack_def, &stop), 7);
    assert_int_equal(stop.n, 0);
    /* a block that declares more stacks than it holds is corrupt, and said with its offset */
    ntidx_block shorter = b;
    shorter.payload_size = 8 + 2; /* the header and two bytes of the first stack's size */
    stack_defs none = {0};
    assert_int_equal(ntidx_stack_block_stacks(t, &shorter, add_stack_def, &none), NTIDX_E_CORRUPT);
    assert_int_equal(ntidx_last_error_info()->code, NTIDX_E_CORRUPT);
    assert_true(ntidx_last_error_info()->offset != NTIDX_NO_OFFSET);
    free(d.v);
    free(none.v);
}

static void test_stack_blocks(void **state)
{
    (void)state;
    ntidx_trace *t = open_real("only_managed_samples.nettrace");
    check_stack_blocks(t, 58);
    ntidx_trace_close(&t);
    char path[256];
    t = make_trace("stacks-v6.nettrace", 6, 20000, path, sizeof path);
    check_stack_blocks(t, 48);
    ntidx_trace_close(&t);
}

/* ------------------------------------------------------------------ */
/* Prefetch                                                            */
/* ------------------------------------------------------------------ */

/* Whether the first page of the file at `path` is in the page cache (-1: cannot tell). */
static int first_page_cached(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    void *m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED)
        return -1;
    unsigned char v = 0;
    int rc = mincore(m, 4096, &v) == 0 ? (v & 1) : -1;
    munmap(m, 4096);
    return rc;
}

/*
 * ntidx_index_prefetch() is a hint: it never fails, whatever it is given, and
 * the index loads afterwards as before. Where the page cache lets a test
 * evict the index (not on tmpfs), the index's first page comes back.
 */
static void test_index_prefetch(void **state)
{
    (void)state;
    char path[256], ipath[300];
    ntidx_trace *t = make_trace("prefetch.nettrace", 6, 20000, path, sizeof path);
    snprintf(ipath, sizeof ipath, "%s.ntidx", path);
    ntidx_index *x = NULL;
    assert_int_equal(ntidx_index_open(t, ipath, NULL, &x, NULL), NTIDX_OK);
    ntidx_index_close(&x);
    /* nothing to prefetch, or nothing there: silently nothing */
    ntidx_index_prefetch(NULL, NULL);
    ntidx_index_prefetch(NULL, "/nonexistent/x.ntidx");
    ntidx_index_prefetch("/nonexistent/trace.nettrace", NULL);
    ntidx_index_prefetch(path, dir); /* a directory */
    int fd = open(ipath, O_RDONLY);
    assert_true(fd >= 0);
    assert_int_equal(fsync(fd), 0);
    (void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    close(fd);
    int evicted = first_page_cached(ipath) == 0;
    ntidx_index_prefetch(path, NULL); /* TRACE.ntidx beside it, where ntidx_index_open() looks */
    if (evicted) {
        int back = 0;
        for (int i = 0; i < 1000 && !(back = first_page_cached(ipath) == 1); i++)
            nanosleep(&(struct timespec){0, 1000000}, NULL);
        assert_true(back);
    }
    assert_int_equal(first_page_cached(ipath) >= 0, 1);
    ntidx_index_state st;
    assert_int_equal(ntidx_index_load(t, ipath, NTIDX_VERIFY_AUTO, &x, &st), NTIDX_OK);
    assert_int_equal(st, NTIDX_INDEX_CURRENT);
    ntidx_index_close(&x);
    ntidx_trace_close(&t);
    unlink(ipath);
    unlink(path);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s TRACES_DIR\n", argv[0]);
        return 2;
    }
    traces_dir = argv[1];
    snprintf(dir, sizeof dir, "/tmp/ntidx-api-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_error_names),       cmocka_unit_test(test_error_messages),
        cmocka_unit_test(test_errors_per_thread), cmocka_unit_test(test_reserved_fields),
        cmocka_unit_test(test_values_real),       cmocka_unit_test(test_values_generated),
        cmocka_unit_test(test_recovery),          cmocka_unit_test(test_estimates_seeks_regions),
        cmocka_unit_test(test_symbolizer),        cmocka_unit_test(test_stack_blocks),
        cmocka_unit_test(test_index_prefetch),    cmocka_unit_test(test_full_threads_cancel),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        rc = 1;
    return rc;
}
