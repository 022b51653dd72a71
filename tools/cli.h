/*
 * The command line of the ntidx subcommands: one option table, one preamble.
 *
 * Every subcommand describes itself once (a cli_command: its name, what it
 * does, which groups of shared options it takes, its own options), and
 * cli_begin() does what every one of them used to do by hand: parse argv
 * with one parser (dav1d's tools/dav1d_cli_parse.c is the model), print the
 * usage (generated from the table) on --help with exit 0 or on a mistake
 * with exit 2, open the trace, turn the window, the seek time and the filters
 * into query options, and open the index (built, rebuilt or extended as
 * needed, said on stderr). Subcommands keep only their own work.
 */
#ifndef NTIDX_TOOLS_CLI_H
#define NTIDX_TOOLS_CLI_H

#include <stdint.h>
#include <stdio.h>

#include <ntidx/index.h>
#include <ntidx/ntidx.h>

#include "input.h"
#include "sqlite/damaged.h"

/* Exit codes: 0 success, 1 the input could not be read, 2 usage error. */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2, CLI_GO_ON = -1 /* cli_begin(): run the command */ };

/* Groups of shared options a command takes. */
enum {
    CLI_TRACE = 1u << 0,   /* TRACE, the one positional argument, opened by cli_begin() */
    CLI_WINDOW = 1u << 1,  /* --from T --to T */
    CLI_FILTER = 1u << 2,  /* --provider P --event ID|NAME --thread TID */
    CLI_INDEX = 1u << 3,   /* --index PATH, and the index opened by cli_begin() */
    CLI_NO_INDEX = 1u << 4,/* --no-index (with CLI_INDEX: the index is opened only without it) */
    CLI_JSON = 1u << 5,    /* --json */
    CLI_FORMAT = 1u << 6,  /* --format F, F among the command's `formats` */
    CLI_ORDER = 1u << 7,   /* --order time|file */
    CLI_OUTPUT = 1u << 8,  /* -o, --output OUT (required when the command says so) */
    CLI_THREADS = 1u << 9, /* --threads N (1-64) */
    CLI_AT = 1u << 10,     /* --at T (required) */
    CLI_LIMIT = 1u << 11,  /* --limit N */
    CLI_VERIFY = 1u << 12, /* the index is checked whole after it is opened (commands that read most of it) */
    CLI_ARGS = 1u << 13,   /* positional arguments of the command's own (`args` in the usage; cli_ctx.args) */
    CLI_STDIN = 1u << 14,  /* TRACE may be '-': the trace on standard input (input.h) */
    CLI_EVERY = 1u << 31   /* (not for cli_command.groups) what every command takes: -q, --quiet */
};

/* A command's own option. */
typedef struct cli_option {
    const char *name;     /* long name without "--" */
    char short_name;      /* or 0 */
    const char *arg;      /* the argument's name in the usage ("N"); NULL for a flag */
    const char *help;     /* one line */
} cli_option;

typedef struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;      /* one line, for `ntidx --help` */
    unsigned groups;          /* CLI_* */
    const char *formats;      /* CLI_FORMAT: "text|jsonl|csv"; the first is the default */
    int output_required;      /* CLI_OUTPUT */
    int format_required;      /* CLI_FORMAT: no default format */
    const cli_option *options;/* its own, ended by {NULL} */
    const char *notes;        /* more lines for --help (may be NULL) */
    int file_order;           /* CLI_ORDER: the default is the file's order (else time order) */
    const char *args;         /* CLI_ARGS: the positional arguments as the usage shows them ("TRACE [TRACE...] SQL") */
    /* CLI_INDEX: what the command reads without a window: CLI_PASS every block (an index it has to build is
       built reading the trace in order: ntidx_index_options.read_all), CLI_PASS_STATS every event's counts
       (and the index it has to build is --full: the counts come from its regions' statistics) */
    int pass;
} cli_command;

enum { CLI_PASS = 1, CLI_PASS_STATS = 2 };

/* What cli_begin() parsed and opened. */
typedef struct cli_ctx {
    const cli_command *cmd;
    const char *trace_path;
    ntidx_trace *trace;
    ntidx_index *index;       /* CLI_INDEX (unless --no-index) */
    const char *index_path;   /* --index, or NULL: TRACE.ntidx */
    int no_index, json, has_window, has_filter;
    const char *format;       /* CLI_FORMAT: one of cmd->formats */
    const char *output;       /* CLI_OUTPUT */
    unsigned threads;         /* CLI_THREADS: 0 = every core */
    ntidx_query_options query;/* the window, the filters, --order, --limit, --at (a seek) */
    const char *given[32];    /* the command's own options, by position in cmd->options: value, "" (flag), NULL */
    char **args;              /* CLI_ARGS: the positional arguments, in order */
    int nargs;
    int from_stdin;           /* TRACE is '-' (CLI_STDIN): trace_path is CLI_STDIN_NAME */
    ntidx_index *replaced;    /* the index cli_recover() replaced (closed by cli_end()) */
    cli_stdin in;             /* its bytes */
    damaged_scan damaged;     /* --skip-damaged: the regions cli_skip_damaged() found damaged, and the others */
} cli_ctx;

/*
 * Parse argv (argv[0] is the command's name) and open what the command's
 * groups ask for. Returns CLI_GO_ON to run the command, else the exit code to
 * return (help printed: CLI_OK; usage error: CLI_USAGE; the trace or the
 * index could not be opened: CLI_FAIL, the reason said on stderr).
 */
int cli_begin(const cli_command *cmd, int argc, char **argv, cli_ctx *c);
/* Close what cli_begin() opened; returns `exit_code`. */
int cli_end(cli_ctx *c, int exit_code);

/* The value of the command's own option `name` ("" for a flag), or NULL when not given. */
const char *cli_opt(const cli_ctx *c, const char *name);
/* The usage of the command (also what --help prints), to stdout or stderr. */
void cli_usage(const cli_command *cmd, FILE *f);

/* The commands (main.c's table), for `ntidx --help`. */
extern const cli_command *const cli_commands[];
extern const size_t cli_command_count;

/* "ntidx: " + message on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* --quiet (any command): no warnings, notes or progress on stderr; errors are always said. */
extern int cli_quiet;
/* A warning or a note: "ntidx: " + message on stderr, unless --quiet. */
void cli_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The last failed library call's message (ntidx_last_error()) on stderr. */
void cli_library_error(void);
/*
 * After an empty answer: when the provider, event name or id filter names nothing the trace defines (a
 * misspelt name, most often), a warning on stderr naming the closest names (ntidx_index_check_names()).
 */
void cli_names_warning(cli_ctx *c);
/* A usage mistake: say it, print the usage on stderr, and return CLI_USAGE. */
int cli_bad_usage(const cli_command *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Unsigned integer with an optional K/M/G/T (binary) suffix when `suffixes`. 0 or -1. */
int cli_parse_u64(const char *s, uint64_t *v, int suffixes);

/* Write a JSON string literal, escaped by the library's one policy (invalid UTF-8 becomes U+FFFD). */
void cli_json_str(FILE *f, const char *s);
/* The same with the caller's scratch buffer (cli_json_str() reuses one of its own: one thread only). */
void cli_json_str_in(FILE *f, const char *s, ntidx_buf *b);
/* A monotonic clock, in seconds (progress, and the phases of analysis_print.c). */
double cli_now_seconds(void);

/* How much of an index is checked when loaded: NTIDX_INDEX_VERIFY=all|on-use|auto (an ntidx_index_verify). */
int cli_verify_mode(void);

/* The index of the trace again after an index error: checked whole (commands that read most of it). */
int cli_index_verified(cli_ctx *c);

/*
 * A call over c->index returned `rc`. When that is NTIDX_E_INDEX_CORRUPT (a region of a lazily checked index
 * failed its check; the library changes no index it is given), rebuild the index (ntidx_index_recover(): said
 * on stderr, saved where it was), once per command, and return 1: c->index is the new index, the command goes
 * on over it (ntidx_query_resume(), or the call again; nothing was repeated or lost). 0: rc was something else,
 * the index was rebuilt once already, or the rebuild failed (ntidx_last_error() says why).
 */
int cli_recover(cli_ctx *c, int rc);
/*
 * --skip-damaged (a command's own flag; nothing when it was not given): the regions c->query would read are read
 * once alone each (damaged.h); each that cannot be read (a corrupt or cut block, an undefined reference inside
 * it) is said on stderr ("TRACE: warning: region N (offset O, B bytes) skipped: why") and c->query reads the
 * others only, so the command's answer is that of the undamaged regions. Damage outside a region (the
 * definitions every region needs) stays the command's error. A command without an index (dump) gets one here, as
 * query opens it (built if missing). CLI_GO_ON, or the exit code (said, cli_end() done).
 */
int cli_skip_damaged(cli_ctx *c);
/* The regions left out, said at the end ("TRACE: warning: N damaged regions left out of the WHAT"), if any. */
void cli_skip_damaged_total(const cli_ctx *c, size_t skipped, const char *what);
/* One region left out, said on stderr as cli_skip_damaged() says it. */
void cli_damaged_note(const cli_ctx *c, uint64_t region, uint64_t offset, uint64_t bytes, const char *why);
/*
 * --skip-damaged for the statistics (stats, top): ntidx_stats_indexed() again without the region the last
 * failure met, while a failure is damage inside a region still counted; each region left out is said and
 * counted in *skipped. so->regions is left NULL again.
 */
int cli_stats_skipping(cli_ctx *c, ntidx_stats_options *so, ntidx_stats **s, size_t *skipped);
/* ntidx_query_next() of a query over c->index, which goes on over a rebuilt index after cli_recover(). */
int cli_query_next(cli_ctx *c, ntidx_query *q, const ntidx_event **e);

/*
 * Progress on stderr when it is a terminal and the work takes more than a moment (NTIDX_PROGRESS_AFTER
 * seconds, default 0.5), unless --quiet: one line, "LABEL: 42% (1.2 of 3.0 GB)", rewritten in place and
 * cleared by cli_progress_end(). cli_progress() is an ntidx_progress_fn: every long run (indexing, stats,
 * dump, slice, export, gen, sql) reports through it. The label says what is done, for bytes of trace
 * (cli_progress_label()) or for events (cli_progress_label_events()).
 */
int cli_progress(void *ctx, uint64_t done, uint64_t total);
void cli_progress_end(void);
void cli_progress_label(const char *what);
void cli_progress_label_events(const char *what);

/* What the index maintenance did, on stderr (an ntidx_index_options notice callback; ctx: the trace's path). */
void cli_index_notice(void *ctx, int action, const char *why);

/* A large stdout buffer: dumps print millions of lines. */
void cli_fast_stdout(void);

/* The subcommands. */
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
int ntidx_cmd_sql(int argc, char **argv);
int ntidx_cmd_gc(int argc, char **argv);
int ntidx_cmd_contention(int argc, char **argv);
int ntidx_cmd_activities(int argc, char **argv);
int ntidx_cmd_cpu(int argc, char **argv);
int ntidx_cmd_report(int argc, char **argv);

extern const cli_command cli_cmd_info, cli_cmd_stats, cli_cmd_dump, cli_cmd_gen, cli_cmd_index, cli_cmd_query,
    cli_cmd_seek, cli_cmd_export, cli_cmd_slice, cli_cmd_top, cli_cmd_sql, cli_cmd_gc;
extern const cli_command cli_cmd_contention;
extern const cli_command cli_cmd_activities;
extern const cli_command cli_cmd_cpu;
int ntidx_cmd_jit(int argc, char **argv);
int ntidx_cmd_alloc(int argc, char **argv);
int ntidx_cmd_exceptions(int argc, char **argv);
extern const cli_command cli_cmd_jit, cli_cmd_alloc, cli_cmd_exceptions;
extern const cli_command cli_cmd_report;

#endif
