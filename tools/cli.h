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

/* Exit codes: 0 success, 1 the input could not be read, 2 usage error. */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Open a trace, printing "ntidx: PATH: reason" on failure. */
int cli_open_trace(const char *path, ntidx_trace **t);

/* Unsigned integer with an optional K/M/G (binary) suffix when `suffixes`. */
int cli_parse_u64(const char *s, uint64_t *v, int suffixes);

/* Write a JSON string literal (UTF-8 passed through, control characters escaped). */
void cli_json_str(FILE *f, const char *s);

/* A large stdout buffer: dumps print millions of lines. */
void cli_fast_stdout(void);

#endif
