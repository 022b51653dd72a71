/* One event as a line of text, JSON or CSV (dump, query, seek and export print the same shapes). */
#ifndef NTIDX_TOOLS_EVENT_PRINT_H
#define NTIDX_TOOLS_EVENT_PRINT_H

#include <stdint.h>

#include <ntidx/ntidx.h>

enum event_format { EVENT_TEXT, EVENT_JSONL, EVENT_CSV };

/* "text", "jsonl" or "csv" (a format cli_begin() accepted). */
enum event_format event_format_parse(const char *s);
void event_print_header(enum event_format f);

/* The key of a cached event type: its row and ntidx_metadata_key() (event_print.c: type_text). The keys are
   apart from the texts, 16 bytes each, so that finding a type reads one small array. */
typedef struct event_type_tag {
    const ntidx_metadata *m;
    uint64_t key;
} event_type_tag;

/* What the lines show of one event type, in one format. */
typedef struct event_type_text {
    enum event_format format;
    ntidx_buf text; /* EVENT_TYPE_SLACK bytes past its end are there to read */
} event_type_text;

#define EVENT_TYPE_CACHE 256
#define EVENT_TYPE_PROBES 8 /* slots a type may take from its home slot on */
#define EVENT_TYPE_SLACK 32

/* What a command prints events with: scratch space, and the count of payloads that did not fit. */
typedef struct event_printer {
    ntidx_buf fields;
    ntidx_buf line;   /* a line built whole, then written (lines, with `batch`) */
    int batch;        /* set by the caller: lines kept and written in big pieces, until event_print_flush() */
    uint64_t field_errors;
    event_type_tag tags[EVENT_TYPE_CACHE];
    event_type_text types[EVENT_TYPE_CACHE];
} event_printer;

/* Print one event; returns NTIDX_OK, NTIDX_E_PAYLOAD (printed with field_error), NTIDX_E_NOMEM (said) or
   NTIDX_E_WRITE (standard output failed: not said here, main() says it). */
int event_print(event_printer *p, const ntidx_trace *t, const ntidx_event *e, enum event_format f);
/* Whether a command's loop stops on what event_print() returned. */
static inline int event_print_stops(int rc) { return rc == NTIDX_E_NOMEM || rc == NTIDX_E_WRITE; }
/* Write the lines a batching printer holds (before anything else goes to stdout). */
void event_print_flush(event_printer *p);
/* Free the scratch and warn about payloads that did not fit. */
void event_print_done(event_printer *p, const char *trace_path);

#endif
