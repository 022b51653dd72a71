/* One event as a line of text, JSON or CSV (dump, query and seek print the same shapes). */
#ifndef NTIDX_TOOLS_EVENT_PRINT_H
#define NTIDX_TOOLS_EVENT_PRINT_H

#include <ntidx/ntidx.h>

enum event_format { EVENT_TEXT, EVENT_JSONL, EVENT_CSV };

/* Parse "text", "jsonl" or "csv" (csv only when allow_csv); -1 when unknown. */
int event_format_parse(const char *s, int allow_csv);
void event_print_header(enum event_format f);
/* Print one event; returns NTIDX_OK, NTIDX_E_PAYLOAD (printed with field_error) or NTIDX_E_NOMEM. */
int event_print(const ntidx_trace *t, const ntidx_event *e, enum event_format f, ntidx_buf *scratch);

#endif
