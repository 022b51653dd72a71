#include "event_print.h"

#include <inttypes.h>
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

/* CSV cell: quoted, inner quotes doubled. */
static void csv_cell(const char *s, size_t n)
{
    putchar('"');
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"')
            putchar('"');
        putchar(s[i]);
    }
    putchar('"');
}

static void put(ntidx_buf *l, const char *s) { ntidx_buf_append(l, s, strlen(s)); }
static void json_str(ntidx_buf *l, const char *s) { ntidx_buf_append_json_string(l, s ? s : "", s ? strlen(s) : 0); }

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
        printf("%" PRIu64 ",%.9f,", e->timestamp, ntidx_ticks_to_seconds(t, e->timestamp));
        csv_cell(m->provider, strlen(m->provider));
        printf(",%u,", m->event_id);
        csv_cell(m->event_name, strlen(m->event_name));
        printf(",%u,%" PRIu64 ",%" PRIu64 ",%u,%u,%" PRIu64 ",", m->version, e->thread_id, e->capture_thread_id,
               e->sequence_number, e->stack_id, e->offset);
        if (rc == NTIDX_OK) {
            csv_cell(b->data, b->len);
            fputs(",\n", stdout);
        } else {
            fputs(",", stdout);
            csv_cell(err, strlen(err));
            putchar('\n');
        }
    } else {
        char name[512];
        ntidx_event_display_name(m, name, sizeof name);
        printf("%.6f %" PRIu64 " %s thread=%" PRIu64 " seq=%u", ntidx_ticks_to_seconds(t, e->timestamp), e->timestamp,
               name, e->thread_id, e->sequence_number);
        if (e->stack_id)
            printf(" stack=%u", e->stack_id);
        if (rc == NTIDX_OK) {
            if (b->len) {
                putchar(' ');
                fwrite(b->data, 1, b->len, stdout);
            }
        } else {
            printf(" field_error=\"%s\"", err);
        }
        putchar('\n');
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
