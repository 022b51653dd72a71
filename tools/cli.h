/* Shared helpers of the ntidx subcommands (argument parsing, errors, JSON output). */
#ifndef NTIDX_TOOLS_CLI_H
#define NTIDX_TOOLS_CLI_H

#include <stdint.h>
#include <stdio.h>

#include <ntidx/ntidx.h>

/* Subcommands: argv[0] is the subcommand's name. Return the process exit code. */
int ntidx_cmd_info(int argc, char **argv);
int ntidx_cmd_stats(int argc, char **argv);
int ntidx_cmd_dump(int argc, char **argv);
int ntidx_cmd_gen(int argc, char **argv);
int ntidx_cmd_index(int argc, char **argv);
int ntidx_cmd_query(int argc, char **argv);
int ntidx_cmd_seek(int argc, char **argv);
int ntidx_cmd_export(int argc, char **argv);
int ntidx_cmd_slice(int argc, char **argv);
int ntidx_cmd_top(int argc, char **argv);

/* Exit codes: 0 success, 1 the input could not be read, 2 usage error. */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Open a trace, printing "ntidx: PATH: reason" on failure. */
int cli_open_trace(const char *path, ntidx_trace **t);

/* Unsigned integer with an optional K/M/G (binary) suffix when `suffixes`. */
int cli_parse_u64(const char *s, uint64_t *v, int suffixes);

/* Write a JSON string literal (UTF-8 passed through, control characters escaped). */
void cli_json_str(FILE *f, const char *s);

/*
 * A time on the command line: raw ticks (a plain integer), a time since the
 * trace's sync time with a unit ("1.5s", "250ms", "40us", "100ns"), or an
 * ISO-8601 UTC time ending in Z. Returns 0, or -1 with a message printed.
 */
int cli_parse_time(const ntidx_trace *t, const char *s, uint64_t *ticks);

struct ntidx_index;
/* How much of an index is checked at load: NTIDX_INDEX_VERIFY=all|on-use|auto (default auto). */
int cli_verify_mode(void);
/* The trace's index (default TRACE.ntidx or `path`), built/rebuilt/extended as needed, saying so on stderr. */
int cli_index(ntidx_trace *t, const char *trace_path, const char *index_path, int full, struct ntidx_index **out);

/*
 * After an operation over `*xp` failed with NTIDX_E_INDEX_CORRUPT (a region
 * of a large index failed the check it gets on first use): say `why` on
 * stderr, close *xp, and rebuild it (saving it) into *xp. The caller retries.
 */
int cli_index_recover(ntidx_trace *t, const char *trace_path, const char *index_path, struct ntidx_index **xp,
                      const char *why);
/* cli_index(), then every region checked now (rebuilt if one fails): for commands that read most of it. */
int cli_index_verified(ntidx_trace *t, const char *trace_path, const char *index_path, struct ntidx_index **out);

/* Progress on stderr when it is a terminal and the work takes more than a moment. */
int cli_progress(void *ctx, uint64_t done, uint64_t total);
void cli_progress_end(void);
void cli_progress_label(const char *what);

/* A large stdout buffer: dumps print millions of lines. */
void cli_fast_stdout(void);

#endif
