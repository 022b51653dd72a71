/*
 * TRACE "-": the trace on standard input (info, stats, dump, query, top,
 * seek, export and slice take it). A pipe is copied whole into an unlinked
 * temporary file in $TMPDIR (else /tmp), a regular file is mapped as it is;
 * the trace is then opened from memory under the name CLI_STDIN_NAME, and
 * its index is built in memory, never saved (it belongs to no file).
 */
#ifndef NTIDX_TOOLS_INPUT_H
#define NTIDX_TOOLS_INPUT_H

#include <stddef.h>

#define CLI_STDIN_NAME "(standard input)"

typedef struct cli_stdin {
    void *data; /* the mapping (NULL when empty) */
    size_t size;
} cli_stdin;

/* Read standard input. Returns 0, or -1 with the reason said on stderr. */
int cli_stdin_open(cli_stdin *in);
void cli_stdin_close(cli_stdin *in);

#endif
