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
        printf("{\"ts\":%" PRIu64 ",\"provider\":", e->timestamp);
        cli_json_str(stdout, m->provider);
        printf(",\"event_id\":%u,\"event_name\":", m->event_id);
        cli_json_str(stdout, m->event_name);
        printf(",\"version\":%u,\"thread\":%" PRIu64 ",\"capture_thread\":%" PRIu64 ",\"seq\":%u,\"stack_id\":%u"
               ",\"offset\":%" PRIu64,
               m->version, e->thread_id, e->capture_thread_id, e->sequence_number, e->stack_id, e->offset);
        if (rc == NTIDX_OK) {
            fputs(",\"fields\":", stdout);
            fwrite(b->data, 1, b->len, stdout);
        } else {
            fputs(",\"field_error\":", stdout);
            cli_json_str(stdout, err);
        }
        fputs("}\n", stdout);
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
    if (p->field_errors)
        fprintf(stderr, "ntidx: %s: warning: %" PRIu64 " events have payloads that do not match their metadata "
                        "(listed with field_error)\n",
                trace_path, p->field_errors);
}
