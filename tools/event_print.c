#include "event_print.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "output.h"

enum event_format event_format_parse(const char *s)
{
    return !strcmp(s, "jsonl") ? EVENT_JSONL : !strcmp(s, "csv") ? EVENT_CSV : EVENT_TEXT;
}

void event_print_header(enum event_format f)
{
    if (f == EVENT_CSV)
        puts("ts,time_s,provider,event_id,event_name,version,thread,capture_thread,seq,stack_id,offset,fields,field_error");
}

static void put(ntidx_buf *l, const char *s) { ntidx_buf_append(l, s, strlen(s)); }
/* A few bytes in place when they fit (the buffer's fields are public), else through the library, which grows it. */
static void put_short(ntidx_buf *l, const char *s, size_t n)
{
    if (!l->err && l->data && l->cap - l->len > n) {
        memcpy(l->data + l->len, s, n);
        l->len += n;
        l->data[l->len] = 0;
    } else {
        ntidx_buf_append(l, s, n);
    }
}

static void json_str(ntidx_buf *l, const char *s) { ntidx_buf_append_json_string(l, s ? s : "", s ? strlen(s) : 0); }

/* reserve()'s growth, through the library (its one way to grow a buffer). */
static __attribute__((noinline)) int reserve_grow(ntidx_buf *l, size_t n)
{
    static const char zeros[4096];
    size_t len = l->len;
    while (!l->err && (!l->data || l->cap - len <= n))
        ntidx_buf_append(l, zeros, sizeof zeros);
    if (l->err)
        return -1;
    l->len = len;
    l->data[len] = 0;
    return 0;
}

/* Room for `n` more bytes and the NUL in l: 0, or -1 out of memory (l->err is then set). The check inline:
   it runs once or twice a line. */
static inline int reserve(ntidx_buf *l, size_t n)
{
    if (__builtin_expect(l->data && !l->err && l->cap - l->len > n, 1))
        return 0;
    return reserve_grow(l, n);
}

/* CSV cell: quoted, inner quotes doubled; written in place, one memchr() and one copy per run of the text. */
static void csv_cell(ntidx_buf *l, const char *s, size_t n)
{
    if (reserve(l, 2 * n + 2) != 0)
        return;
    char *o = l->data + l->len;
    *o++ = '"';
    for (;;) {
        const char *q = memchr(s, '"', n);
        size_t run = q ? (size_t)(q - s) + 1 : n; /* up to and with the quote */
        memcpy(o, s, run);
        o += run;
        if (!q)
            break;
        *o++ = '"';
        s += run;
        n -= run;
    }
    *o++ = '"';
    *o = 0;
    l->len = (size_t)(o - l->data);
}

/*
 * The fixed-size pieces of a line (numbers, keys) are written without checks, in room made once for them all
 * (in the line itself for JSON and text, in a local array for CSV): a library call per piece cost more than
 * the piece (callgrind). PIECE_MAX bounds them, the event type's text apart.
 */
#define PIECE_MAX 512
#define LIT(o, s) (memcpy((o), (s), sizeof(s) - 1), (o) + sizeof(s) - 1)

/* The two-digit pairs 00..99. */
static const char pairs[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                            "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                            "8081828384858687888990919293949596979899";

/* v < 10^8 as exactly 8 digits: two halves of four, each two pairs (independent multiplies, no chain). */
static inline __attribute__((always_inline)) void dec8(char *o, uint32_t v)
{
    uint32_t hi = v / 10000, lo = v % 10000;
    memcpy(o, pairs + hi / 100 * 2, 2);
    memcpy(o + 2, pairs + hi % 100 * 2, 2);
    memcpy(o + 4, pairs + lo / 100 * 2, 2);
    memcpy(o + 6, pairs + lo % 100 * 2, 2);
}

/* v < 10^4 in its own number of digits; returns the end. */
static inline __attribute__((always_inline)) char *dec4(char *o, uint32_t v)
{
    if (v < 100) {
        if (v < 10) {
            *o = (char)('0' + v);
            return o + 1;
        }
        memcpy(o, pairs + v * 2, 2);
        return o + 2;
    }
    uint32_t hi = v / 100, lo = v % 100;
    if (hi < 10) {
        *o++ = (char)('0' + hi);
    } else {
        memcpy(o, pairs + hi * 2, 2);
        o += 2;
    }
    memcpy(o, pairs + lo * 2, 2);
    return o + 2;
}

/* v < 10^8 in its own number of digits; returns the end. */
static inline __attribute__((always_inline)) char *dec_small(char *o, uint32_t v)
{
    if (v < 10000)
        return dec4(o, v);
    uint32_t hi = v / 10000, lo = v % 10000;
    o = dec4(o, hi);
    memcpy(o, pairs + lo / 100 * 2, 2);
    memcpy(o + 2, pairs + lo % 100 * 2, 2);
    return o + 4;
}

/* v in decimal, the bytes of "%llu": eight digits at a time in 32-bit arithmetic (timestamps have 13 or so:
   the digit-by-digit chain of 64-bit divisions was a tenth of a dump). */
static inline __attribute__((always_inline)) char *dec(char *o, uint64_t v)
{
    if (v < 100000000)
        return dec_small(o, (uint32_t)v);
    if (v < 10000000000000000ull) {
        o = dec_small(o, (uint32_t)(v / 100000000));
        dec8(o, (uint32_t)(v % 100000000));
        return o + 8;
    }
    uint64_t hi = v / 10000000000000000ull, mid = v % 10000000000000000ull;
    o = dec_small(o, (uint32_t)hi);
    dec8(o, (uint32_t)(mid / 100000000));
    dec8(o + 8, (uint32_t)(mid % 100000000));
    return o + 16;
}

/*
 * d as printf's "%.6f" or "%.9f" prints it. printf's conversion is exact; d * 10^decimals is one rounding
 * away from the exact product (at most x * 2^-53), so when the product's fraction is farther than that from
 * one half, rounding it gives printf's digits; otherwise (and for huge, infinite or NaN values) printf.
 * Writes at most 352 bytes (the longest %.9f of a double) at o; returns the end.
 */
static __attribute__((noinline)) char *fixed_printf(char *o, double d, int decimals)
{
    return o + snprintf(o, 353, "%.*f", decimals, d);
}

/* Inlined with `decimals` a constant (6 or 9): the unit's divisions are then multiplies (a 64-bit division by
   a variable was a tenth of a text dump), and the whole part a truncation (below 2^52 the conversion to an
   integer is exact, where floor() without SSE4.1 is a dozen instructions). */
static inline __attribute__((always_inline)) char *fixed(char *o, double d, const int decimals)
{
    const double scale = decimals == 9 ? 1e9 : 1e6;
    const uint64_t unit = decimals == 9 ? 1000000000u : 1000000u;
    double x = fabs(d) * scale;
    if (x < 0x1p52) {
        uint64_t w = (uint64_t)x;
        double frac = x - (double)w; /* exact below 2^52 */
        if (fabs(frac - 0.5) > x * 0x1p-52) {
            uint64_t v = w + (frac > 0.5);
            if (signbit(d))
                *o++ = '-';
            o = dec(o, v / unit);
            *o++ = '.';
            uint32_t r = (uint32_t)(v % unit);
            char *e = o + decimals, *q = e;
            for (int i = 0; i < decimals / 2; i++, r /= 100) {
                q -= 2;
                memcpy(q, pairs + r % 100 * 2, 2);
            }
            if (decimals & 1)
                q[-1] = (char)('0' + r);
            return e;
        }
    }
    return fixed_printf(o, d, decimals);
}

#define DISPLAY_NAME_BUF 512 /* the buffer the text lines' names were always formatted into */

/* An event type's name as the text lines show it (ntidx_event_display_name(), cut as its 512-byte buffer cuts
   it); made once per type (type_text()), so its snprintf() does not show. */
static void put_display_name(ntidx_buf *l, const ntidx_metadata *m)
{
    char tmp[DISPLAY_NAME_BUF];
    put(l, ntidx_event_display_name(m, tmp, sizeof tmp));
}

/* `before`, then v in decimal. */
static void put_num(ntidx_buf *l, const char *before, uint64_t v)
{
    put(l, before);
    ntidx_buf_append_dec(l, v);
}

/*
 * What a line shows of its event type, made once per type, not once per event: the JSON keys or the CSV
 * cells from provider to version, or the text name. An open-addressed cache: types alternate from one event
 * to the next. The same pointer with the same key is the same type (a type reloaded at the same place has
 * the same text).
 */
static __attribute__((noinline)) const ntidx_buf *type_text_find(event_printer *p, const ntidx_metadata *m,
                                                                  enum event_format f)
{
    /* The home slot by the address and the key, mixed by a multiply, then the next few: direct-mapped, two
       types that alternate and share a slot evicted each other at every event (102 types of the real 1 GB
       trace in 256 slots: 8% of a text dump's lines formatted their type's name again, an snprintf() each,
       and which types met depended on where malloc put the rows, so the time changed from run to run). A
       type goes in the first free slot of its run of EVENT_TYPE_PROBES, or evicts its home slot when they
       are all taken; slots are never emptied, so a free slot ends the search. */
    uint64_t key = ntidx_metadata_key(m);
    uint64_t h = ((uint64_t)(uintptr_t)m ^ key) * 0x9E3779B97F4A7C15ull;
    const size_t home = (h >> 32) % EVENT_TYPE_CACHE;
    size_t at = home;
    for (size_t i = 0; i < EVENT_TYPE_PROBES; i++) {
        const size_t k = (home + i) % EVENT_TYPE_CACHE;
        const event_type_tag *g = &p->tags[k];
        if (g->m == m && g->key == key) {
            const event_type_text *s = &p->types[k];
            if (s->format == f && s->text.data && !s->text.err)
                return &s->text;
            at = k; /* made again in place (another format, or out of memory the last time) */
            break;
        }
        if (!g->m) {
            at = k;
            break;
        }
    }
    p->tags[at] = (event_type_tag){.m = m, .key = key};
    event_type_text *c = &p->types[at];
    c->format = f;
    c->text.len = 0;
    if (f == EVENT_JSONL) {
        put(&c->text, ",\"provider\":");
        json_str(&c->text, m->provider);
        put_num(&c->text, ",\"event_id\":", m->event_id);
        put(&c->text, ",\"event_name\":");
        json_str(&c->text, m->event_name);
        put_num(&c->text, ",\"version\":", m->version);
    } else if (f == EVENT_CSV) {
        put(&c->text, ",");
        csv_cell(&c->text, m->provider, strlen(m->provider));
        put_num(&c->text, ",", m->event_id);
        put(&c->text, ",");
        csv_cell(&c->text, m->event_name, strlen(m->event_name));
        put_num(&c->text, ",", m->version);
    } else {
        put_display_name(&c->text, m);
    }
    if (reserve(&c->text, EVENT_TYPE_SLACK) == 0) /* the slack read by copy_type() */
        memset(c->text.data + c->text.len, 0, EVENT_TYPE_SLACK + 1);
    return &c->text;
}

/* The same, its home slot's hit inline (most lines): the search and the making in type_text_find(). */
static inline __attribute__((always_inline)) const ntidx_buf *type_text(event_printer *p, const ntidx_metadata *m,
                                                                        enum event_format f)
{
    uint64_t key = ntidx_metadata_key(m);
    uint64_t h = ((uint64_t)(uintptr_t)m ^ key) * 0x9E3779B97F4A7C15ull;
    const size_t home = (h >> 32) % EVENT_TYPE_CACHE;
    const event_type_text *s = &p->types[home];
    if (__builtin_expect(p->tags[home].m == m && p->tags[home].key == key && s->format == f && s->text.data &&
                             !s->text.err,
                         1))
        return &s->text;
    return type_text_find(p, m, f);
}

/* A type's text (type_text()) at o, in 16-byte copies over its slack (o has room for EVENT_TYPE_SLACK bytes
   more than the text): the call to memcpy() cost as much as the copy. Returns the end. */
static inline __attribute__((always_inline)) char *copy_type(char *o, const ntidx_buf *t)
{
    const char *s = t->data;
    const size_t n = t->len;
    memcpy(o, s, 16);
    for (size_t i = 16; i < n; i += 16)
        memcpy(o + i, s + i, 16);
    return o + n;
}

/* Cut the line back to `mark` bytes. */
static void truncate_to(ntidx_buf *l, size_t mark)
{
    l->len = mark;
    l->data[mark] = 0;
}

/*
 * The JSON line, the payload formatted straight into it; a payload that does not fit its metadata is listed
 * as field_error with the reason. Returns what the payload formatter returned.
 */
static int json_line(event_printer *p, const ntidx_trace *t, const ntidx_event *e)
{
    ntidx_buf *l = &p->line;
    const ntidx_buf *type = type_text(p, e->metadata, EVENT_JSONL);
    if (type->err || reserve(l, PIECE_MAX + EVENT_TYPE_SLACK + type->len) != 0)
        return NTIDX_E_NOMEM; /* said by the library (its append failed) */
    char *o = dec(LIT(l->data + l->len, "{\"ts\":"), e->timestamp);
    o = copy_type(o, type);
    o = dec(LIT(o, ",\"thread\":"), e->thread_id);
    o = dec(LIT(o, ",\"capture_thread\":"), e->capture_thread_id);
    o = dec(LIT(o, ",\"seq\":"), e->sequence_number);
    o = dec(LIT(o, ",\"stack_id\":"), e->stack_id);
    o = dec(LIT(o, ",\"offset\":"), e->offset);
    const size_t mark = (size_t)(o - l->data);
    o = LIT(o, ",\"fields\":");
    *o = 0;
    l->len = (size_t)(o - l->data);
    int rc = l->err ? NTIDX_E_NOMEM : ntidx_event_fields_json(t, e, l);
    if (rc == NTIDX_E_NOMEM)
        return rc;
    if (rc != NTIDX_OK) { /* the formatter appended nothing */
        const char *err = ntidx_last_error_info()->what;
        truncate_to(l, mark);
        put(l, ",\"field_error\":");
        json_str(l, err);
    }
    put_short(l, "}\n", 2);
    return rc;
}

static void csv_line(event_printer *p, const ntidx_trace *t, const ntidx_event *e, const ntidx_buf *fields,
                     const char *err)
{
    ntidx_buf *l = &p->line;
    char h[PIECE_MAX], *o = dec(h, e->timestamp);
    *o++ = ',';
    o = fixed(o, ntidx_ticks_to_seconds(t, e->timestamp), 9);
    ntidx_buf_append(l, h, (size_t)(o - h));
    const ntidx_buf *type = type_text(p, e->metadata, EVENT_CSV); /* provider to version */
    ntidx_buf_append(l, type->data, type->len);
    o = dec(LIT(h, ","), e->thread_id);
    o = dec(LIT(o, ","), e->capture_thread_id);
    o = dec(LIT(o, ","), e->sequence_number);
    o = dec(LIT(o, ","), e->stack_id);
    o = dec(LIT(o, ","), e->offset);
    *o++ = ',';
    ntidx_buf_append(l, h, (size_t)(o - h));
    /* the fields cell then an empty field_error cell, or an empty fields cell then the error */
    if (!err) {
        csv_cell(l, fields->data, fields->len);
        put_short(l, ",\n", 2);
    } else {
        put_short(l, ",", 1);
        csv_cell(l, err, strlen(err));
        put_short(l, "\n", 1);
    }
}

/* The text line, the payload formatted straight into it (as json_line). */
static int text_line(event_printer *p, const ntidx_trace *t, const ntidx_event *e)
{
    ntidx_buf *l = &p->line;
    const ntidx_buf *name = e->metadata ? type_text(p, e->metadata, EVENT_TEXT) : NULL;
    if ((name && name->err) || reserve(l, PIECE_MAX + EVENT_TYPE_SLACK + (name ? name->len : 0)) != 0)
        return NTIDX_E_NOMEM; /* said by the library (its append failed) */
    char *o = fixed(l->data + l->len, ntidx_ticks_to_seconds(t, e->timestamp), 6);
    *o++ = ' ';
    o = dec(o, e->timestamp);
    *o++ = ' ';
    if (name) {
        o = copy_type(o, name);
    } else {
        *o++ = '?'; /* ntidx_event_display_name() of no type */
    }
    o = dec(LIT(o, " thread="), e->thread_id);
    o = dec(LIT(o, " seq="), e->sequence_number);
    if (e->stack_id)
        o = dec(LIT(o, " stack="), e->stack_id);
    *o = 0;
    l->len = (size_t)(o - l->data);
    size_t mark = l->len;
    put_short(l, " ", 1);
    int rc = l->err ? NTIDX_E_NOMEM : ntidx_event_fields_text(t, e, l);
    if (rc == NTIDX_E_NOMEM)
        return rc;
    if (rc != NTIDX_OK) {
        const char *err = ntidx_last_error_info()->what;
        truncate_to(l, mark);
        put(l, " field_error=\"");
        put(l, err);
        put(l, "\"");
    } else if (l->len == mark + 1) { /* no fields: no separator */
        truncate_to(l, mark);
    }
    put_short(l, "\n", 1);
    return rc;
}

/* Write the lines held and empty the buffer. A batch goes to the descriptor itself, after what stdio holds
   (the CSV header): through fwrite, stdio copied every byte into its own buffer first. */
static void write_lines(event_printer *p)
{
    ntidx_buf *l = &p->line;
    if (l->len && !p->batch) {
        fwrite(l->data, 1, l->len, stdout);
    } else if (l->len) {
        fflush(stdout);
        const char *d = l->data;
        size_t n = l->len;
        while (n) {
            ssize_t w = write(STDOUT_FILENO, d, n);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0) {
                cli_stdout_error(w < 0 ? errno : EIO); /* said at the end (cli_stdout_finish()) */
                break;
            }
            d += w;
            n -= (size_t)w;
        }
    }
    l->len = 0;
}

int event_print(event_printer *p, const ntidx_trace *t, const ntidx_event *e, enum event_format f)
{
    /* The line in one buffer, numbers without printf: printf's parsing of a line's numbers and its exact float
       conversion cost more than decoding the event (callgrind: a third of a query's instructions, two thirds
       of a text dump's). The bytes are printf's. A batching printer writes lines 256 KiB at a time: stdio's
       per-call work on lines of ~150 bytes showed in the profile. */
    ntidx_buf *l = &p->line;
    if (!p->batch)
        l->len = 0;
    size_t start = l->len;
    int rc;
    if (f == EVENT_CSV) {
        /* the fields go into a cell, quoted: formatted apart first */
        ntidx_buf *b = &p->fields;
        b->len = 0;
        rc = ntidx_event_fields_json(t, e, b);
        if (rc != NTIDX_E_NOMEM)
            csv_line(p, t, e, b, rc == NTIDX_OK ? NULL : ntidx_last_error_info()->what);
    } else {
        rc = f == EVENT_JSONL ? json_line(p, t, e) : text_line(p, t, e);
    }
    if (rc == NTIDX_E_NOMEM || l->err) {
        /* The whole lines batched before this one are still written; this one is dropped, and the buffer
           starts afresh (its out-of-memory mark is sticky until freed). */
        l->len = start;
        write_lines(p);
        ntidx_buf_free(l);
        return NTIDX_E_NOMEM; /* said by the library: ntidx_last_error() */
    }
    p->field_errors += rc != NTIDX_OK;
    /* stdout's state is asked only when lines went out (ferror() locks the stream: it showed per event) */
    const int wrote = !p->batch || l->len >= (1u << 18);
    if (wrote)
        write_lines(p);
    return wrote && cli_stdout_failed() ? NTIDX_E_WRITE : rc;
}

void event_print_flush(event_printer *p)
{
    if (!p->line.err)
        write_lines(p);
}

void event_print_done(event_printer *p, const char *trace_path)
{
    event_print_flush(p);
    ntidx_buf_free(&p->fields);
    ntidx_buf_free(&p->line);
    for (int i = 0; i < EVENT_TYPE_CACHE; i++)
        ntidx_buf_free(&p->types[i].text);
    if (p->field_errors)
        cli_note("%s: warning: %" PRIu64 " events have payloads that do not match their metadata "
                 "(listed with field_error)",
                 trace_path, p->field_errors);
}
