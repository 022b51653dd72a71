#include "event_print.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

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
static void json_str(ntidx_buf *l, const char *s) { ntidx_buf_append_json_string(l, s ? s : "", s ? strlen(s) : 0); }

/* CSV cell: quoted, inner quotes doubled. */
static void csv_cell(ntidx_buf *l, const char *s, size_t n)
{
    put(l, "\"");
    for (size_t i = 0; i < n;) {
        const char *q = memchr(s + i, '"', n - i);
        size_t run = q ? (size_t)(q - (s + i)) + 1 : n - i; /* up to and with the quote */
        ntidx_buf_append(l, s + i, run);
        if (q)
            put(l, "\"");
        i += run;
    }
    put(l, "\"");
}

/*
 * d as printf's "%.6f" or "%.9f" prints it. printf's conversion is exact; d * 10^decimals is one rounding
 * away from the exact product (at most x * 2^-53), so when the product's fraction is farther than that from
 * one half, rounding it gives printf's digits; otherwise (and for huge, infinite or NaN values) printf.
 */
static void put_fixed(ntidx_buf *l, double d, int decimals)
{
    const double scale = decimals == 9 ? 1e9 : 1e6;
    const uint64_t unit = decimals == 9 ? 1000000000u : 1000000u;
    double x = fabs(d) * scale;
    if (x < 0x1p52) {
        double whole = floor(x), frac = x - whole; /* both exact below 2^52 */
        if (fabs(frac - 0.5) > x * 0x1p-52) {
            uint64_t v = (uint64_t)whole + (frac > 0.5);
            if (signbit(d))
                put(l, "-");
            ntidx_buf_append_dec(l, v / unit);
            char digits[10];
            uint64_t r = v % unit;
            for (int i = decimals - 1; i >= 0; i--, r /= 10)
                digits[i] = (char)('0' + r % 10);
            put(l, ".");
            ntidx_buf_append(l, digits, (size_t)decimals);
            return;
        }
    }
    char tmp[352]; /* the longest %.9f of a double */
    snprintf(tmp, sizeof tmp, "%.*f", decimals, d);
    put(l, tmp);
}

/* An event type's name as the text lines show it, made once per type in a row (not once per event). */
static const char *display_name(event_printer *p, const ntidx_metadata *m)
{
    if (m != p->name_of || ntidx_metadata_key(m) != p->name_key) {
        ntidx_event_display_name(m, p->name, sizeof p->name);
        p->name_of = m;
        p->name_key = ntidx_metadata_key(m);
    }
    return p->name;
}

int event_print(event_printer *p, const ntidx_trace *t, const ntidx_event *e, enum event_format f)
{
    const ntidx_metadata *m = e->metadata;
    ntidx_buf *b = &p->fields;
    b->len = 0;
    int rc = f == EVENT_TEXT ? ntidx_event_fields_text(t, e, b) : ntidx_event_fields_json(t, e, b);
    if (rc == NTIDX_E_NOMEM)
        return rc; /* said by the library: ntidx_last_error() */
    /* A payload that does not fit its metadata is listed with the reason, not its fields. */
    const char *err = rc == NTIDX_OK ? "" : ntidx_last_error_info()->what;
    p->field_errors += rc != NTIDX_OK;
    if (f == EVENT_JSONL) {
        /* The line in one buffer and one write: printf's parsing of the header's nine numbers cost more than
           decoding the event (callgrind: a third of a query's instructions). The bytes are printf's. */
        ntidx_buf *l = &p->line;
        l->len = 0;
        put(l, "{\"ts\":");
        ntidx_buf_append_dec(l, e->timestamp);
        put(l, ",\"provider\":");
        json_str(l, m->provider);
        put(l, ",\"event_id\":");
        ntidx_buf_append_dec(l, m->event_id);
        put(l, ",\"event_name\":");
        json_str(l, m->event_name);
        put(l, ",\"version\":");
        ntidx_buf_append_dec(l, m->version);
        put(l, ",\"thread\":");
        ntidx_buf_append_dec(l, e->thread_id);
        put(l, ",\"capture_thread\":");
        ntidx_buf_append_dec(l, e->capture_thread_id);
        put(l, ",\"seq\":");
        ntidx_buf_append_dec(l, e->sequence_number);
        put(l, ",\"stack_id\":");
        ntidx_buf_append_dec(l, e->stack_id);
        put(l, ",\"offset\":");
        ntidx_buf_append_dec(l, e->offset);
        if (rc == NTIDX_OK) {
            put(l, ",\"fields\":");
            ntidx_buf_append(l, b->data, b->len);
        } else {
            put(l, ",\"field_error\":");
            json_str(l, err);
        }
        put(l, "}\n");
        if (l->err)
            return NTIDX_E_NOMEM; /* said by the library: ntidx_last_error() */
        fwrite(l->data, 1, l->len, stdout);
    } else if (f == EVENT_CSV) {
        ntidx_buf *l = &p->line;
        l->len = 0;
        ntidx_buf_append_dec(l, e->timestamp);
        put(l, ",");
        put_fixed(l, ntidx_ticks_to_seconds(t, e->timestamp), 9);
        put(l, ",");
        csv_cell(l, m->provider, strlen(m->provider));
        put(l, ",");
        ntidx_buf_append_dec(l, m->event_id);
        put(l, ",");
        csv_cell(l, m->event_name, strlen(m->event_name));
        const uint64_t nums[] = {m->version, e->thread_id, e->capture_thread_id, e->sequence_number, e->stack_id,
                                 e->offset};
        for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
            put(l, ",");
            ntidx_buf_append_dec(l, nums[i]);
        }
        put(l, ",");
        if (rc == NTIDX_OK) {
            csv_cell(l, b->data, b->len);
            put(l, ",\n");
        } else {
            put(l, ",");
            csv_cell(l, err, strlen(err));
            put(l, "\n");
        }
        if (l->err)
            return NTIDX_E_NOMEM; /* said by the library: ntidx_last_error() */
        fwrite(l->data, 1, l->len, stdout);
    } else {
        ntidx_buf *l = &p->line;
        l->len = 0;
        put_fixed(l, ntidx_ticks_to_seconds(t, e->timestamp), 6);
        put(l, " ");
        ntidx_buf_append_dec(l, e->timestamp);
        put(l, " ");
        put(l, display_name(p, m));
        put(l, " thread=");
        ntidx_buf_append_dec(l, e->thread_id);
        put(l, " seq=");
        ntidx_buf_append_dec(l, e->sequence_number);
        if (e->stack_id) {
            put(l, " stack=");
            ntidx_buf_append_dec(l, e->stack_id);
        }
        if (rc == NTIDX_OK) {
            if (b->len) {
                put(l, " ");
                ntidx_buf_append(l, b->data, b->len);
            }
        } else {
            put(l, " field_error=\"");
            put(l, err);
            put(l, "\"");
        }
        put(l, "\n");
        if (l->err)
            return NTIDX_E_NOMEM; /* said by the library: ntidx_last_error() */
        fwrite(l->data, 1, l->len, stdout);
    }
    return rc;
}

void event_print_done(event_printer *p, const char *trace_path)
{
    ntidx_buf_free(&p->fields);
    ntidx_buf_free(&p->line);
    if (p->field_errors)
        fprintf(stderr, "ntidx: %s: warning: %" PRIu64 " events have payloads that do not match their metadata "
                        "(listed with field_error)\n",
                trace_path, p->field_errors);
}
