/*
 * A query for the commands that print events as they come (query, seek):
 * when the index fails the per-region check it gets on first use, the index
 * is rebuilt and the query reopened over it, skipping the events already
 * returned. Queries are deterministic, so the output goes on exactly where
 * it stopped.
 */
#ifndef NTIDX_TOOLS_CLI_QUERY_H
#define NTIDX_TOOLS_CLI_QUERY_H

#include <ntidx/index.h>

typedef struct cli_query {
    ntidx_trace *t;
    const char *trace_path, *index_path;
    ntidx_index **xp; /* the command's index: replaced by a rebuilt one */
    ntidx_query_options o;
    ntidx_query *q;
    uint64_t returned;
    int recovered;
} cli_query;

/* Open over *xp; errors are printed ("ntidx: TRACE: reason"). */
int cli_query_open(cli_query *cq, ntidx_trace *t, const char *trace_path, const char *index_path, ntidx_index **xp,
                   const ntidx_query_options *o);
/* 1 with an event, 0 at the end, < 0 on error (its message: cli_query_error()). */
int cli_query_next(cli_query *cq, const ntidx_event **e);
const char *cli_query_error(const cli_query *cq);
const ntidx_query_stats *cli_query_stats(const cli_query *cq);
void cli_query_close(cli_query *cq);

#endif
