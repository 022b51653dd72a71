/* The tables of an analysis as jsonl, csv, json and text (analysis_print.h). */
#include "analysis_print.h"

#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "double_text.h"

/* ---- Rows formatted on threads ----
   A table can hold millions of rows (every jitted method, every activity), and formatting them (printf of
   doubles above all) was most of what an analysis command did on one thread after its workers. Rows are
   formatted in chunks into memory by every thread, then written in order by the calling thread, a round
   of chunks at a time (memory stays bounded). The output is the same bytes whatever the threads. */

static unsigned out_threads = 1;

void ap_set_threads(unsigned threads)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    out_threads = threads ? threads : online > 0 ? (unsigned)online : 1;
    if (out_threads > 64)
        out_threads = 64;
}

/* NTIDX_PHASES (src/base/phases.h): the seconds spent formatting on threads are a parallel section too,
   reported at exit in the library's words, which the benchmarks add up. */
static double phase_seconds;
static unsigned phase_sections;

static void report_phases(void) { fprintf(stderr, "ntidx phases: parallel %.6f s in %u sections\n", phase_seconds, phase_sections); }

/* One row written to f; `scratch` is the calling thread's (strings made JSON). 0, or -1. */
typedef int (*row_fn)(FILE *f, const void *ctx, uint64_t r, ntidx_buf *scratch);

#define ROWS_PER_CHUNK 2048
#define CHUNKS_PER_THREAD 4

typedef struct chunk {
    char *buf;
    size_t len;
    int rc;
} chunk;

typedef struct chunk_round {
    row_fn row;
    const void *ctx;
    uint64_t first, end; /* rows [first, end) of this round */
    chunk *chunks;
    size_t nchunks;
    atomic_size_t next;
} chunk_round;

static int rows_into(FILE *f, row_fn row, const void *ctx, uint64_t from, uint64_t to)
{
    ntidx_buf scratch = {0};
    int rc = 0;
    for (uint64_t r = from; rc == 0 && r < to; r++)
        rc = row(f, ctx, r, &scratch);
    ntidx_buf_free(&scratch);
    return rc;
}

static void *format_chunks(void *arg)
{
    chunk_round *w = arg;
    for (size_t j; (j = atomic_fetch_add(&w->next, 1)) < w->nchunks;) {
        chunk *c = &w->chunks[j];
        FILE *m = open_memstream(&c->buf, &c->len);
        uint64_t from = w->first + (uint64_t)j * ROWS_PER_CHUNK;
        uint64_t to = from + ROWS_PER_CHUNK < w->end ? from + ROWS_PER_CHUNK : w->end;
        c->rc = m ? rows_into(m, w->row, w->ctx, from, to) : -1;
        if (m && fclose(m) != 0)
            c->rc = -1;
    }
    return NULL;
}

/* Rows [0, n) as row() writes each, to f. -1 when a row could not be had (the library's error is set). */
static int write_rows(FILE *f, uint64_t n, row_fn row, const void *ctx)
{
    unsigned threads = out_threads;
    static int registered; /* NTIDX_PHASES: chunks even on one thread, to time what more threads divide */
    if (!registered && n >= 2 * ROWS_PER_CHUNK && getenv("NTIDX_PHASES"))
        registered = atexit(report_phases) == 0;
    if ((threads <= 1 && !registered) || n < 2 * ROWS_PER_CHUNK)
        return rows_into(f, row, ctx, 0, n);
    size_t per_round = (size_t)threads * CHUNKS_PER_THREAD;
    chunk *chunks = calloc(per_round, sizeof *chunks);
    if (!chunks)
        return rows_into(f, row, ctx, 0, n);
    int rc = 0;
    for (uint64_t first = 0; rc == 0 && first < n;) {
        uint64_t end = n - first > (uint64_t)per_round * ROWS_PER_CHUNK ? first + (uint64_t)per_round * ROWS_PER_CHUNK : n;
        chunk_round w = {.row = row, .ctx = ctx, .first = first, .end = end, .chunks = chunks,
                   .nchunks = (size_t)((end - first + ROWS_PER_CHUNK - 1) / ROWS_PER_CHUNK)};
        atomic_init(&w.next, 0);
        memset(chunks, 0, per_round * sizeof *chunks);
        double began = registered ? cli_now_seconds() : 0;
        pthread_t tids[64];
        unsigned started = 0;
        for (unsigned i = 1; i < threads && i < w.nchunks; i++, started++)
            if (pthread_create(&tids[i], NULL, format_chunks, &w) != 0)
                break;
        format_chunks(&w);
        for (unsigned i = 1; i <= started; i++)
            pthread_join(tids[i], NULL);
        if (registered) {
            phase_seconds += cli_now_seconds() - began;
            phase_sections++;
        }
        for (size_t j = 0; j < w.nchunks; j++) {
            if (rc == 0 && chunks[j].rc < 0)
                rc = -1;
            if (rc == 0)
                fwrite(chunks[j].buf, 1, chunks[j].len, f);
            free(chunks[j].buf);
        }
        first = end;
    }
    free(chunks);
    return rc;
}

/* The shortest of %.15g, %.16g, %.17g that reads back as the same double (double_text.h): exact, and 20.036
   rather than 20.036000000000001. A whole number keeps a ".0" (0.0, not 0), so that a column of doubles reads
   as floats in JSON whatever its values (a key has one JSON type in every document). buf: at least
   DOUBLE_TEXT_MAX + 2 bytes. */
static void fmt_double(char *buf, double v)
{
    size_t len = double_text(buf, v);
    if (!strpbrk(buf, ".eEnNiI"))
        memcpy(buf + len, ".0", 3);
}

/* An integer's digits, as printf's %lld writes them. */
static void put_i64(ntidx_buf *b, int64_t v)
{
    if (v < 0) {
        ntidx_buf_append(b, "-", 1);
        ntidx_buf_append_dec(b, (uint64_t)0 - (uint64_t)v); /* INT64_MIN too */
    } else {
        ntidx_buf_append_dec(b, (uint64_t)v);
    }
}

static void put_str(ntidx_buf *b, const char *s) { ntidx_buf_append(b, s, strlen(s)); }

/* One cell appended to b as JSON (null for no value) or as CSV (empty for no value; strings quoted when they
   must be). A row is made in memory and written at once: a stdio call per piece (each takes the FILE's lock)
   was most of the time of a table of millions of rows. */
static void put_cell(ntidx_buf *b, const ntidx_table_cell *c, int json)
{
    char buf[DOUBLE_TEXT_MAX + 2];
    if (c->is_null) {
        if (json)
            put_str(b, "null");
        return;
    }
    switch (c->type) {
    case NTIDX_COLUMN_INT:
        put_i64(b, c->i);
        break;
    case NTIDX_COLUMN_UINT:
        ntidx_buf_append_dec(b, c->u);
        break;
    case NTIDX_COLUMN_BOOL:
        put_str(b, c->u ? "true" : "false");
        break;
    case NTIDX_COLUMN_DOUBLE:
        fmt_double(buf, c->f);
        put_str(b, buf);
        break;
    case NTIDX_COLUMN_STRING: {
        const char *s = c->s ? c->s : "";
        if (json) {
            ntidx_buf_append_json_string(b, s, strlen(s)); /* out of memory: b->err, which put_row() says */
        } else if (strpbrk(s, ",\"\r\n")) {
            ntidx_buf_append(b, "\"", 1);
            for (const char *p = s; *p;) {
                size_t n = strcspn(p, "\"");
                ntidx_buf_append(b, p, n);
                p += n;
                if (*p == '"') {
                    ntidx_buf_append(b, "\"\"", 2);
                    p++;
                }
            }
            ntidx_buf_append(b, "\"", 1);
        } else {
            put_str(b, s);
        }
        break;
    }
    }
}

/* Row r as a JSON object appended to b. */
static int row_json(ntidx_buf *b, const ntidx_analysis *a, size_t k, const ntidx_table *tb, uint64_t r)
{
    ntidx_buf_append(b, "{", 1);
    for (size_t c = 0; c < tb->column_count; c++) {
        ntidx_table_cell v;
        char text[NTIDX_CELL_BUF_SIZE]; /* a string the analysis makes for the cell (an activity's ids) */
        if (ntidx_analysis_cell_buf(a, k, r, c, &v, text, sizeof text) < 0)
            return -1;
        put_str(b, c ? ",\"" : "\"");
        put_str(b, tb->columns[c].name);
        put_str(b, "\":");
        put_cell(b, &v, 1);
    }
    ntidx_buf_append(b, "}", 1);
    return 0;
}

/* The row made in b, written to f. 0, or -1 when it could not be made (out of memory: said here). */
static int put_row(FILE *f, const ntidx_buf *b)
{
    if (b->err) {
        cli_error("out of memory");
        return -1;
    }
    fwrite(b->data, 1, b->len, f);
    return 0;
}

typedef struct table_rows {
    const ntidx_analysis *a;
    size_t k;
    const ntidx_table *tb;
} table_rows;

static int jsonl_row(FILE *f, const void *ctx, uint64_t r, ntidx_buf *scratch)
{
    const table_rows *t = ctx;
    scratch->len = 0;
    if (row_json(scratch, t->a, t->k, t->tb, r) < 0)
        return -1;
    ntidx_buf_append(scratch, "\n", 1);
    return put_row(f, scratch);
}

int ap_jsonl(FILE *f, const ntidx_analysis *a, size_t k)
{
    ntidx_table tb;
    if (ntidx_analysis_table(a, k, &tb) < 0)
        return -1;
    table_rows t = {a, k, &tb};
    return write_rows(f, tb.rows, jsonl_row, &t);
}

static int csv_row(FILE *f, const void *ctx, uint64_t r, ntidx_buf *scratch)
{
    const table_rows *t = ctx;
    scratch->len = 0;
    for (size_t c = 0; c < t->tb->column_count; c++) {
        ntidx_table_cell v;
        char text[NTIDX_CELL_BUF_SIZE];
        if (ntidx_analysis_cell_buf(t->a, t->k, r, c, &v, text, sizeof text) < 0)
            return -1;
        if (c)
            ntidx_buf_append(scratch, ",", 1);
        put_cell(scratch, &v, 0);
    }
    ntidx_buf_append(scratch, "\n", 1);
    return put_row(f, scratch);
}

int ap_csv(FILE *f, const ntidx_analysis *a, size_t k)
{
    ntidx_table tb;
    if (ntidx_analysis_table(a, k, &tb) < 0)
        return -1;
    for (size_t c = 0; c < tb.column_count; c++)
        fprintf(f, "%s%s", c ? "," : "", tb.columns[c].name);
    fputc('\n', f);
    table_rows t = {a, k, &tb};
    return write_rows(f, tb.rows, csv_row, &t);
}

/* A row of the JSON document: a comma before every row but the first. */
static int json_row(FILE *f, const void *ctx, uint64_t r, ntidx_buf *scratch)
{
    const table_rows *t = ctx;
    scratch->len = 0;
    if (r)
        ntidx_buf_append(scratch, ",", 1);
    if (row_json(scratch, t->a, t->k, t->tb, r) < 0)
        return -1;
    return put_row(f, scratch);
}

int ap_json(FILE *f, const ntidx_analysis *a)
{
    fputs("{\"analysis\":", f);
    cli_json_str(f, ntidx_analysis_name(a));
    for (size_t k = 0; k < ntidx_analysis_table_count(a); k++) {
        ntidx_table tb;
        if (ntidx_analysis_table(a, k, &tb) < 0)
            return -1;
        fprintf(f, ",\"%s\":[", tb.name);
        table_rows t = {a, k, &tb};
        if (write_rows(f, tb.rows, json_row, &t) < 0)
            return -1;
        fputc(']', f);
    }
    const ntidx_analysis_stats *s = ntidx_analysis_get_stats(a);
    fprintf(f,
            ",\"stats\":{\"t0\":%" PRIu64 ",\"t1\":%" PRIu64 ",\"events\":%" PRIu64 ",\"field_errors\":%" PRIu64
            ",\"unmatched\":%" PRIu64 ",\"incomplete\":%" PRIu64 ",\"regions\":%" PRIu64 ",\"units\":%" PRIu64
            ",\"threads\":%u,\"bytes_read\":%" PRIu64 ",\"blocks_read\":%" PRIu64 ",\"event_blocks_read\":%" PRIu64
            ",\"lookahead_events\":%" PRIu64 ",\"lookahead_bytes\":%" PRIu64 "}}\n",
            s->t0, s->t1, s->events, s->field_errors, s->unmatched, s->incomplete, s->regions, s->units, s->threads,
            s->bytes_read, s->blocks_read, s->event_blocks_read, s->lookahead_events, s->lookahead_bytes);
    return 0;
}

int ap_table_index(const ntidx_analysis *a, const char *name)
{
    for (size_t k = 0; k < ntidx_analysis_table_count(a); k++) {
        ntidx_table tb;
        if (ntidx_analysis_table(a, k, &tb) == NTIDX_OK && !strcmp(tb.name, name))
            return (int)k;
    }
    return -1;
}

/* The columns looked up by name, remembered per table layout (its columns array) and key string: a text row
   looks several columns up by name, and a table can have millions of rows. One per thread: rows are formatted
   on several (write_rows()). */
static _Thread_local struct {
    const ntidx_column *columns;
    size_t count, n;
    const char *keys[32];
    size_t cols[32];
} memo;

/* The cell of column `key` in a row: 0, or -1 when there is no such column. A string the analysis makes for
   the cell goes into text (NTIDX_CELL_BUF_SIZE bytes). */
static int cell_of(const ntidx_analysis *a, size_t k, uint64_t row, const char *key, ntidx_table_cell *out,
                   char *text)
{
    ntidx_table tb;
    if (ntidx_analysis_table(a, k, &tb) < 0)
        return -1;
    if (memo.columns != tb.columns || memo.count != tb.column_count) {
        memo.columns = tb.columns;
        memo.count = tb.column_count;
        memo.n = 0;
    }
    for (size_t i = 0; i < memo.n; i++)
        if (memo.keys[i] == key && !strcmp(tb.columns[memo.cols[i]].name, key)) /* the same string still */
            return ntidx_analysis_cell_buf(a, k, row, memo.cols[i], out, text, NTIDX_CELL_BUF_SIZE);
    for (size_t c = 0; c < tb.column_count; c++)
        if (!strcmp(tb.columns[c].name, key)) {
            if (memo.n < sizeof memo.keys / sizeof memo.keys[0]) {
                memo.keys[memo.n] = key;
                memo.cols[memo.n++] = c;
            }
            return ntidx_analysis_cell_buf(a, k, row, c, out, text, NTIDX_CELL_BUF_SIZE);
        }
    return -1;
}

double ap_number(const ntidx_analysis *a, size_t k, uint64_t row, const char *key)
{
    ntidx_table_cell v;
    char text[NTIDX_CELL_BUF_SIZE];
    if (cell_of(a, k, row, key, &v, text) < 0 || v.is_null)
        return NAN;
    switch (v.type) {
    case NTIDX_COLUMN_INT:
        return (double)v.i;
    case NTIDX_COLUMN_UINT:
    case NTIDX_COLUMN_BOOL:
        return (double)v.u;
    case NTIDX_COLUMN_DOUBLE:
        return v.f;
    }
    return NAN;
}

/* The strings ap_string() made last on this thread: a text column's callback may use several at once. */
#define AP_STRINGS 4
static _Thread_local char made[AP_STRINGS][NTIDX_CELL_BUF_SIZE];
static _Thread_local unsigned made_next;

const char *ap_string(const ntidx_analysis *a, size_t k, uint64_t row, const char *key)
{
    ntidx_table_cell v;
    char *text = made[made_next++ % AP_STRINGS];
    if (cell_of(a, k, row, key, &v, text) < 0 || v.is_null || v.type != NTIDX_COLUMN_STRING || !v.s)
        return "";
    return v.s;
}

/* Print a line without its trailing blanks (a last column left empty). */
static void put_line(FILE *f, char *line, size_t len)
{
    while (len && line[len - 1] == ' ')
        len--;
    fwrite(line, 1, len, f);
    fputc('\n', f);
}

typedef struct text_rows {
    const ntidx_analysis *a;
    size_t k;
    const ap_text_column *cols;
    size_t ncols;
} text_rows;

/* What snprintf(line + *len, n - *len, "%s%*s", sep, width, s) writes, and *len grown by what it returns
   (*len < n), without printf: a table of millions of rows pads four columns a row. */
static void put_column(char *line, size_t n, size_t *len, const char *sep, int width, const char *s)
{
    if (width < 0) { /* left-justified: not one of the tables' */
        *len += (size_t)snprintf(line + *len, n - *len, "%s%*s", sep, width, s);
        return;
    }
    size_t ns = strlen(sep), nv = strlen(s), pad = (size_t)width > nv ? (size_t)width - nv : 0;
    size_t total = ns + pad + nv, room = n - *len - 1, at = *len;
    char *o = line + at;
    size_t k = ns < room ? ns : room;
    memcpy(o, sep, k);
    o += k, room -= k;
    k = pad < room ? pad : room;
    memset(o, ' ', k);
    o += k, room -= k;
    k = nv < room ? nv : room;
    memcpy(o, s, k);
    o[k] = '\0';
    *len = at + total;
}

static int text_row(FILE *f, const void *ctx, uint64_t r, ntidx_buf *scratch)
{
    const text_rows *t = ctx;
    char line[4096], buf[1024]; /* type and method names run long */
    size_t len = 0;
    for (size_t c = 0; c < t->ncols && len < sizeof line; c++) {
        const ap_text_column *col = &t->cols[c];
        ntidx_table_cell v;
        char text[NTIDX_CELL_BUF_SIZE];
        const char *value = buf;
        if (col->format) {
            col->format(t->a, t->k, r, buf, sizeof buf);
        } else if (cell_of(t->a, t->k, r, col->key, &v, text) < 0 || v.is_null) {
            value = "-";
        } else {
            switch (v.type) {
            case NTIDX_COLUMN_INT: snprintf(buf, sizeof buf, "%" PRId64, v.i); break;
            case NTIDX_COLUMN_UINT: {
                char *e = buf + 24;
                *e = '\0';
                uint64_t u = v.u;
                do
                    *--e = (char)('0' + u % 10);
                while ((u /= 10) != 0);
                value = e;
                break;
            }
            case NTIDX_COLUMN_BOOL: value = v.u ? "yes" : "no"; break;
            case NTIDX_COLUMN_DOUBLE: fixed_text(buf, sizeof buf, v.f, col->decimals); break;
            default: snprintf(buf, sizeof buf, "%s", v.s ? v.s : ""); break;
            }
        }
        put_column(line, sizeof line, &len, c ? " " : "", col->width, value);
    }
    put_line(f, line, len < sizeof line ? len : sizeof line - 1);
    return 0;
}

int ap_text_table(FILE *f, const ntidx_analysis *a, size_t k, const ap_text_column *cols, size_t ncols)
{
    ntidx_table tb;
    if (ntidx_analysis_table(a, k, &tb) < 0)
        return -1;
    char line[4096];
    size_t len = 0;
    for (size_t c = 0; c < ncols && len < sizeof line; c++)
        len += (size_t)snprintf(line + len, sizeof line - len, "%s%*s", c ? " " : "", cols[c].width, cols[c].header);
    put_line(f, line, len < sizeof line ? len : sizeof line - 1);
    text_rows t = {a, k, cols, ncols};
    return write_rows(f, tb.rows, text_row, &t);
}

void ap_text_stats(FILE *f, const ntidx_analysis *a)
{
    const ntidx_analysis_stats *s = ntidx_analysis_get_stats(a);
    fprintf(f,
            "%" PRIu64 " events read, %" PRIu64 " skipped (payload not matching its layout), %" PRIu64
            " paired with nothing, %" PRIu64 " incomplete; %.1f MB of trace read (%" PRIu64 " event blocks, %" PRIu64
            " regions in %" PRIu64 " units on %u threads",
            s->events, s->field_errors, s->unmatched, s->incomplete, (double)s->bytes_read / 1e6, s->event_blocks_read,
            s->regions, s->units, s->threads);
    if (s->lookahead_events || s->lookahead_bytes)
        fprintf(f, "; %" PRIu64 " events, %.1f MB past the window", s->lookahead_events,
                (double)s->lookahead_bytes / 1e6);
    fputs(")\n", f);
}
