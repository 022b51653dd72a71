/*
 * Where the commands write: the file of -o OUT, and standard output.
 *
 * -o OUT: every command that has it (slice, gen, export, index) opens it
 * with cli_output_open() and ends with cli_output_commit() or
 * cli_output_discard(). A regular OUT (or a new name) is written to a
 * temporary beside it, renamed over it when complete (ntidx_output,
 * <ntidx/output.h>); a device, a FIFO or a terminal is written in place;
 * "-" is standard output. While a temporary exists, SIGINT, SIGTERM and
 * SIGHUP remove it before the process dies of the signal, so an interrupted
 * command leaves OUT as it was and nothing beside it.
 *
 * Standard output: a write that failed (a full disk, a closed descriptor)
 * is noticed, the command stops early where it prints much
 * (cli_stdout_failed()), and main() ends with cli_stdout_finish(): "ntidx:
 * cannot write to standard output: REASON" and exit status 1.
 */
#ifndef NTIDX_TOOLS_OUTPUT_H
#define NTIDX_TOOLS_OUTPUT_H

#include <ntidx/output.h>

typedef struct cli_output {
    const char *path;   /* as given; "-" is standard output */
    ntidx_output *file; /* NULL for standard output, and once committed or discarded */
    int fd;             /* where to write */
    int saved_stdout;   /* cli_output_as_stdout(): what descriptor 1 was, restored at the end; else -1 */
} cli_output;

/* Open OUT for writing. Returns 0, or -1 with the reason said on stderr (naming OUT). */
int cli_output_open(cli_output *o, const char *path);

/* "standard output", or the path. */
const char *cli_output_name(const cli_output *o);

/* 1 when OUT is "-". */
int cli_output_is_stdout(const cli_output *o);

/* 1 when written in place (standard output, a device, a FIFO): no temporary, nothing renamed. */
int cli_output_in_place(const cli_output *o);

/* Point stdio's stdout (descriptor 1) at OUT, for writers that print to stdout. Returns 0 or -1 (said). */
int cli_output_as_stdout(cli_output *o);

/* Finish: what stdio holds flushed, the file put in place. Returns 0, or -1 with the reason said on stderr,
   naming OUT (the temporary then removed, OUT as it was). */
int cli_output_commit(cli_output *o);

/* Give up: the temporary removed, OUT as it was. */
void cli_output_discard(cli_output *o);

/* First thing in main(): stdio's stdout, through a stream that keeps the errno of a write that failed. */
void cli_stdout_open(void);

/* Whether writing to standard output has failed so far (stdio's error flag, or a failed write() to
   descriptor 1 reported with cli_stdout_error()). */
int cli_stdout_failed(void);

/* A write() to descriptor 1 outside stdio failed with `err` (errno). */
void cli_stdout_error(int err);

/* Flush standard output; when anything written to it failed, say "cannot write to standard output" and
   return CLI_FAIL (or `exit_code` when that is already a failure); else `exit_code`. */
int cli_stdout_finish(int exit_code);

#endif
