/* The command line of the ntidx subcommands: one option table, one parser, one preamble (cli.h). */
#include "cli.h"

#include <ntidx/batch.h>

#include <errno.h>
#include <inttypes.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* The shared options                                                  */
/* ------------------------------------------------------------------ */

typedef struct shared_option {
    unsigned group;
    cli_option o;
} shared_option;

static const shared_option shared[] = {
    {CLI_WINDOW, {"from", 0, "T", "start of the window (default: the trace's first event)"}},
    {CLI_WINDOW, {"to", 0, "T", "end of the window, not included (default: after the last event)"}},
    {CLI_AT, {"at", 0, "T", "the time to seek to: the first event at or after it"}},
    {CLI_FILTER, {"provider", 0, "P", "only events of this provider (its name, without regard to case)"}},
    {CLI_FILTER, {"event", 0, "ID|NAME", "only events with this id, or this name (GC/AllocationTick, Provider/Name)"}},
    {CLI_FILTER, {"thread", 0, "TID", "only events of this thread (OS thread id where the trace gives one)"}},
    {CLI_ORDER, {"order", 0, "time|file", NULL /* the command's default */}},
    {CLI_FORMAT, {"format", 0, "F", NULL /* the command's formats */}},
    {CLI_LIMIT, {"limit", 0, "N", "stop after N events"}},
    {CLI_OUTPUT, {"output", 'o', "OUT", "the file to write"}},
    {CLI_THREADS, {"threads", 0, "N", "worker threads (default: one per core, at most 64)"}},
    {CLI_JSON, {"json", 0, NULL, "JSON for scripts instead of text"}},
    {CLI_INDEX, {"index", 0, "PATH", "the side index to use (default TRACE.ntidx): built, rebuilt or extended as needed"}},
    {CLI_NO_INDEX, {"no-index", 0, NULL, "read the whole trace in one pass, without an index"}},
    {CLI_EVERY, {"quiet", 'q', NULL, "no warnings, notes or progress on stderr (errors are still said)"}},
};
#define NSHARED (sizeof shared / sizeof shared[0])

/* getopt_long values: shared options from 256, the command's own from 512. */
enum { VAL_SHARED = 256, VAL_OWN = 512, VAL_HELP = 1000 };

static const char TIME_HELP[] =
    "T: raw ticks (an integer), a time since the trace's sync time with a unit (1.5s, 250ms, 40us, 100ns;\n"
    "   the origin of PerfView's MSec column), or an ISO-8601 UTC time ending in Z\n";

static int takes(const cli_command *cmd, unsigned group) { return group == CLI_EVERY || (cmd->groups & group) != 0; }

static int own_count(const cli_command *cmd)
{
    int n = 0;
    while (cmd->options && cmd->options[n].name)
        n++;
    return n;
}

/* An option as the usage shows it: "--name ARG", "-o, --output OUT", or "-n N" for one-letter names. */
static void print_option(FILE *f, const cli_option *o, const char *help)
{
    char left[64];
    if (o->short_name && strlen(o->name) == 1)
        snprintf(left, sizeof left, "-%c%s%s", o->short_name, o->arg ? " " : "", o->arg ? o->arg : "");
    else if (o->short_name)
        snprintf(left, sizeof left, "-%c, --%s%s%s", o->short_name, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
    else
        snprintf(left, sizeof left, "    --%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
    fprintf(f, "  %-26s %s\n", left, help ? help : "");
}

void cli_usage(const cli_command *cmd, FILE *f)
{
    fprintf(f, "usage: ntidx %s%s", cmd->name, takes(cmd, CLI_TRACE) ? " TRACE" : "");
    if (takes(cmd, CLI_ARGS))
        fprintf(f, " %s", cmd->args);
    for (size_t i = 0; i < NSHARED; i++) {
        const cli_option *o = &shared[i].o;
        if (!takes(cmd, shared[i].group))
            continue;
        int required = shared[i].group == CLI_AT || (shared[i].group == CLI_OUTPUT && cmd->output_required) ||
                       (shared[i].group == CLI_FORMAT && cmd->format_required);
        const char *arg = shared[i].group == CLI_FORMAT ? cmd->formats : o->arg;
        fprintf(f, " %s--%s%s%s%s", required ? "" : "[", o->name, arg ? " " : "", arg ? arg : "", required ? "" : "]");
    }
    for (int i = 0; i < own_count(cmd); i++) {
        const cli_option *o = &cmd->options[i];
        fprintf(f, " [%s%s%s%s]", strlen(o->name) == 1 ? "-" : "--", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
    }
    fprintf(f, "\n\n%s\n\noptions:\n", cmd->summary);
    for (size_t i = 0; i < NSHARED; i++) {
        if (!takes(cmd, shared[i].group))
            continue;
        if (shared[i].group == CLI_FORMAT) {
            char help[160];
            const char *comma = strchr(cmd->formats, '|');
            if (cmd->format_required)
                snprintf(help, sizeof help, "output format: %s", cmd->formats);
            else
                snprintf(help, sizeof help, "output format: %s (default %.*s)", cmd->formats,
                         (int)(comma ? (size_t)(comma - cmd->formats) : strlen(cmd->formats)), cmd->formats);
            print_option(f, &shared[i].o, help);
        } else if (shared[i].group == CLI_ORDER) {
            print_option(f, &shared[i].o, cmd->file_order ? "the order of the file (default) or time order"
                                                          : "time order (default) or the order of the file");
        } else {
            print_option(f, &shared[i].o, shared[i].o.help);
        }
    }
    for (int i = 0; i < own_count(cmd); i++)
        print_option(f, &cmd->options[i], cmd->options[i].help);
    print_option(f, &(cli_option){"help", 'h', NULL, NULL}, "this text");
    if (takes(cmd, CLI_WINDOW) || takes(cmd, CLI_AT))
        fprintf(f, "\n%s", TIME_HELP);
    if (takes(cmd, CLI_STDIN))
        fprintf(f, "\nTRACE '-' reads the trace from standard input (indexed in memory, never saved).\n");
    if (takes(cmd, CLI_OUTPUT))
        fprintf(f, "\nOUT '-' is standard output. A file is written beside OUT and renamed over it when complete;\n"
                   "a device or a FIFO is written in place.\n");
    if (cmd->notes)
        fprintf(f, "\n%s", cmd->notes);
    fprintf(f, "\nExit status: 0 success, 1 the input could not be read, 2 a usage error. See ntidx-%s(1).\n",
            cmd->name);
}

int cli_bad_usage(const cli_command *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "ntidx %s: ", cmd->name);
    vfprintf(stderr, fmt, ap);
    fputs("\n\n", stderr);
    va_end(ap);
    cli_usage(cmd, stderr);
    return CLI_USAGE;
}

const char *cli_opt(const cli_ctx *c, const char *name)
{
    for (int i = 0; i < own_count(c->cmd) && i < 32; i++)
        if (!strcmp(c->cmd->options[i].name, name))
            return c->given[i];
    return NULL;
}

/* ------------------------------------------------------------------ */
/* Parsing and the preamble                                            */
/* ------------------------------------------------------------------ */

static int in_list(const char *list, const char *s)
{
    size_t n = strlen(s);
    for (const char *p = list; *p;) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && !strncmp(p, s, n))
            return 1;
        p += len + (bar != NULL);
    }
    return 0;
}

static void notice_index(void *ctx, int action, const char *why) { cli_index_notice(ctx, action, why); }

int cli_verify_mode(void)
{
    /* NTIDX_INDEX_VERIFY=all|on-use|auto: how much of an index is checked when it is loaded. */
    const char *v = getenv("NTIDX_INDEX_VERIFY");
    if (v && !strcmp(v, "all"))
        return NTIDX_VERIFY_ALL;
    if (v && !strcmp(v, "on-use"))
        return NTIDX_VERIFY_ON_USE;
    return NTIDX_VERIFY_AUTO;
}

/* The options the commands' indexes are opened, built and rebuilt with: their notices and progress bar. */
static void index_options(const cli_ctx *c, int verify, ntidx_index_options *o)
{
    ntidx_index_options_defaults(o);
    o->verify = verify;
    o->progress = cli_progress;
    o->notice = notice_index;
    o->notice_ctx = (void *)c->trace_path;
    if (c->cmd->pass && !c->has_window) { /* the whole trace is read next: a cold one read once, in order */
        o->read_all = 1;
        /* --skip-damaged: a plain index (its build reads block headers, not events), so that damage in a region
           is met, and left out, by the statistics rather than stopping the build of their summaries */
        o->full_when_built = c->cmd->pass == CLI_PASS_STATS && !cli_opt(c, "skip-damaged");
    }
}

/* The trace's index with the commands' notices and progress bar. */
static int open_index(cli_ctx *c, int verify)
{
    ntidx_index_options o;
    index_options(c, verify, &o);
    cli_progress_label("ntidx: indexing");
    /* a trace from standard input belongs to no file: its index is built for this command only */
    int rc = c->from_stdin ? ntidx_index_build(c->trace, &o, &c->index)
                           : ntidx_index_open(c->trace, c->index_path, &o, &c->index, NULL);
    cli_progress_end();
    if (rc < 0)
        cli_error("%s: cannot index: %s", c->trace_path, ntidx_last_error_info()->detail);
    return rc;
}

int cli_index_verified(cli_ctx *c)
{
    if (ntidx_index_verify_all(c->index) == NTIDX_OK)
        return 0;
    /* A large index is checked region by region as it is used: one that fails is rebuilt, checked whole. */
    cli_note("%s", ntidx_last_error());
    ntidx_index_close(&c->index);
    return open_index(c, NTIDX_VERIFY_ALL);
}

int cli_recover(cli_ctx *c, int rc)
{
    if (rc != NTIDX_E_INDEX_CORRUPT || !c->index || c->replaced)
        return 0;
    /* the notice says what was found ("rebuilding the index of TRACE: INDEX: region N ...: the index is corrupt") */
    ntidx_index_options o;
    index_options(c, cli_verify_mode(), &o);
    ntidx_index *nx = NULL;
    cli_progress_label("ntidx: indexing");
    rc = ntidx_index_recover(c->trace, c->index, &o, &nx);
    cli_progress_end();
    if (rc < 0)
        return 0; /* the caller says why (ntidx_last_error()) */
    c->replaced = c->index; /* what was opened over it may be in use until it is resumed */
    c->index = nx;
    return 1;
}

int cli_query_next(cli_ctx *c, ntidx_query *q, const ntidx_event **e)
{
    int rc = ntidx_query_next(q, e);
    if (cli_recover(c, rc) && (rc = ntidx_query_resume(q, c->index)) == NTIDX_OK)
        rc = ntidx_query_next(q, e);
    return rc;
}

void cli_damaged_note(const cli_ctx *c, uint64_t region, uint64_t offset, uint64_t bytes, const char *why)
{
    cli_note("%s: warning: region %" PRIu64 " (offset %" PRIu64 ", %" PRIu64 " bytes) skipped: %s", c->trace_path,
             region, offset, bytes, why);
}

void cli_skip_damaged_total(const cli_ctx *c, size_t skipped, const char *what)
{
    if (skipped)
        cli_note("%s: warning: %zu damaged region%s left out of the %s", c->trace_path, skipped,
                 skipped == 1 ? "" : "s", what);
}

int cli_skip_damaged(cli_ctx *c)
{
    if (!cli_opt(c, "skip-damaged"))
        return CLI_GO_ON;
    /* a command that reads without an index (dump) goes through one to know the regions */
    if (!c->index && open_index(c, cli_verify_mode()) < 0)
        return cli_end(c, CLI_FAIL);
    cli_progress_label("ntidx: checking");
    int rc = damaged_scan_run(c->trace, c->index, &c->query, &c->damaged);
    if (cli_recover(c, rc))
        rc = damaged_scan_run(c->trace, c->index, &c->query, &c->damaged);
    cli_progress_end();
    if (rc < 0) {
        cli_library_error();
        return cli_end(c, CLI_FAIL);
    }
    for (size_t i = 0; i < c->damaged.nbad; i++) {
        const damaged_region *d = &c->damaged.bad[i];
        cli_damaged_note(c, d->region, d->offset, d->bytes, d->message);
    }
    if (c->damaged.nbad) { /* not NULL: none at all when every region was damaged */
        c->query.regions = c->damaged.good;
        c->query.region_count = c->damaged.ngood;
    }
    return CLI_GO_ON;
}

/* The region of the index whose blocks hold file offset `at`, or UINT64_MAX. */
static uint64_t region_at(const ntidx_index *x, uint64_t at)
{
    uint64_t n = ntidx_index_region_count(x);
    for (uint64_t r = 0; r < n; r++) {
        ntidx_region g;
        if (ntidx_index_region(x, r, &g) == NTIDX_OK && at >= g.offset && at - g.offset < g.bytes)
            return r;
    }
    return UINT64_MAX;
}

int cli_stats_skipping(cli_ctx *c, ntidx_stats_options *so, ntidx_stats **s, size_t *skipped)
{
    int rc = ntidx_stats_indexed(c->trace, c->index, so, s);
    uint64_t n = ntidx_index_region_count(c->index), *todo = NULL;
    size_t ntodo = 0;
    while (damaged_code(rc)) {
        const ntidx_error_info *ei = ntidx_last_error_info();
        uint64_t r = ei->code == rc && ei->offset != NTIDX_NO_OFFSET ? region_at(c->index, ei->offset) : UINT64_MAX;
        if (!todo && r != UINT64_MAX) {
            if (!(todo = malloc((size_t)(n ? n : 1) * sizeof *todo))) {
                rc = NTIDX_E_NOMEM;
                break;
            }
            for (uint64_t i = 0; i < n; i++)
                todo[ntodo++] = i;
        }
        size_t k = 0;
        while (k < ntodo && todo[k] != r)
            k++;
        if (k == ntodo)
            break; /* not a region still counted: the error stands */
        ntidx_region g;
        if (ntidx_index_region(c->index, r, &g) != NTIDX_OK)
            break;
        cli_damaged_note(c, r, g.offset, g.bytes, ei->message);
        memmove(todo + k, todo + k + 1, (ntodo - k - 1) * sizeof *todo);
        ntodo--;
        (*skipped)++;
        so->regions = todo; /* not NULL: none at all when every region was damaged */
        so->region_count = ntodo;
        rc = ntidx_stats_indexed(c->trace, c->index, so, s);
    }
    free(todo);
    so->regions = NULL;
    so->region_count = 0;
    return rc;
}

/* How many single-character edits turn a into b (for suggestions; names are short). */
static size_t edit_distance(const char *a, size_t na, const char *b)
{
    size_t nb = strlen(b), row[64];
    if (na >= 63 || nb >= 63)
        return (size_t)-1;
    for (size_t j = 0; j <= nb; j++)
        row[j] = j;
    for (size_t i = 1; i <= na; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            diag = up;
            row[j] = best;
        }
    }
    return row[nb];
}

/*
 * getopt_long() takes any unambiguous prefix of a long option ("--fro 1s" for --from 1s). Option names are a
 * contract, and a prefix accepted today is an ambiguity tomorrow, when an option that shares it is added: every
 * long option must be spelled whole. Walks argv as getopt does (an option's separate argument skipped, "--"
 * ends the options) and says what was meant: the options the word abbreviates, else the nearest names.
 */
static int refuse_abbreviations(const cli_command *cmd, int argc, char **argv, const struct option *longs,
                                const char *shorts)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--"))
            break;
        if (a[0] != '-' || !a[1])
            continue; /* TRACE, or "-" (standard input) */
        if (a[1] != '-') {
            /* -o OUT, -oOUT, -qo OUT: the first letter that takes an argument ends the word */
            for (const char *p = a + 1; *p; p++) {
                const char *o = strchr(shorts, *p);
                if (o && o[1] == ':') {
                    i += !p[1];
                    break;
                }
            }
            continue;
        }
        const char *name = a + 2;
        size_t n = strcspn(name, "=");
        const struct option *exact = NULL;
        for (const struct option *o = longs; o->name && !exact; o++)
            if (strlen(o->name) == n && !strncmp(o->name, name, n))
                exact = o;
        if (exact) {
            i += exact->has_arg == required_argument && !name[n];
            continue;
        }
        char meant[256] = "";
        size_t len = 0;
        for (int pass = 0; pass < 2 && !len; pass++)
            for (const struct option *o = longs; o->name; o++) {
                /* first the options the word abbreviates, then names a typo or two away */
                int near = pass == 0 ? n && !strncmp(o->name, name, n)
                                     : edit_distance(name, n, o->name) <= (n > 5 ? 2u : 1u);
                if (near && len < sizeof meant - 40)
                    len += (size_t)snprintf(meant + len, sizeof meant - len, "%s--%s", len ? " or " : "", o->name);
            }
        if (len)
            return cli_bad_usage(cmd, "unknown option '--%.*s' (did you mean %s?); long options are spelled whole",
                                 (int)n, name, meant);
        return cli_bad_usage(cmd, "unknown option '--%.*s'", (int)n, name);
    }
    return CLI_OK;
}

/* One option in getopt's tables: its long form (value `val`) and its letter, if any. */
static void add_option(const cli_option *o, int val, struct option *longs, size_t *n, char *shorts)
{
    longs[(*n)++] = (struct option){o->name, o->arg ? required_argument : no_argument, NULL, val};
    if (o->short_name) {
        size_t l = strlen(shorts);
        shorts[l] = o->short_name;
        shorts[l + 1] = o->arg ? ':' : 0;
        shorts[l + 2] = 0;
    }
}

/*
 * The command line read with getopt: the shared options' values (value[]),
 * the command's own (c->given), TRACE or the arguments. CLI_GO_ON, or the
 * exit code (help printed: CLI_OK; a usage error said: CLI_USAGE).
 */
static int read_command_line(const cli_command *cmd, int argc, char **argv, cli_ctx *c, const char **value)
{
    struct option longs[NSHARED + 40];
    char shorts[64] = "h"; /* getopt permutes: TRACE may come before or after the options */
    size_t n = 0;
    for (size_t i = 0; i < NSHARED; i++)
        if (takes(cmd, shared[i].group))
            add_option(&shared[i].o, VAL_SHARED + (int)i, longs, &n, shorts);
    int nown = own_count(cmd);
    for (int i = 0; i < nown && i < 32; i++)
        add_option(&cmd->options[i], VAL_OWN + i, longs, &n, shorts);
    longs[n++] = (struct option){"help", no_argument, NULL, VAL_HELP};
    longs[n] = (struct option){0, 0, 0, 0};
    if (refuse_abbreviations(cmd, argc, argv, longs, shorts) != CLI_OK)
        return CLI_USAGE;
    int ch;
    optind = 1;
    opterr = 1;
    while ((ch = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        if (ch == 'h' || ch == VAL_HELP) {
            cli_usage(cmd, stdout);
            return CLI_OK;
        }
        int found = 0;
        for (size_t i = 0; i < NSHARED && !found; i++)
            if (ch == VAL_SHARED + (int)i || (shared[i].o.short_name && ch == shared[i].o.short_name &&
                                              takes(cmd, shared[i].group))) {
                value[i] = shared[i].o.arg ? optarg : "";
                found = 1;
            }
        for (int i = 0; i < nown && !found; i++)
            if (ch == VAL_OWN + i || (cmd->options[i].short_name && ch == cmd->options[i].short_name)) {
                c->given[i] = cmd->options[i].arg ? optarg : "";
                found = 1;
            }
        if (!found) { /* getopt said what was wrong */
            fputc('\n', stderr);
            cli_usage(cmd, stderr);
            return CLI_USAGE;
        }
    }
    int npos = argc - optind;
    if (takes(cmd, CLI_ARGS)) {
        c->args = argv + optind;
        c->nargs = npos;
    } else if (npos != (takes(cmd, CLI_TRACE) ? 1 : 0))
        return cli_bad_usage(cmd, npos ? "one trace, please (%d arguments given)" : "no trace given", npos);
    if (takes(cmd, CLI_TRACE))
        c->trace_path = argv[optind];
    if (takes(cmd, CLI_TRACE) && !strcmp(c->trace_path, "-")) {
        if (!takes(cmd, CLI_STDIN))
            return cli_bad_usage(cmd, "TRACE '-' (standard input) is not for %s: it needs a file", cmd->name);
        c->from_stdin = 1;
        c->trace_path = CLI_STDIN_NAME;
    }
    return CLI_GO_ON;
}

/* The window and filter options as given: they mean something only once the trace is open. */
typedef struct given_window {
    const char *from, *to, *at, *provider, *event, *thread;
} given_window;

/* The shared options that need no trace, into c (the window's and filters' text into *g). CLI_GO_ON or CLI_USAGE. */
static int take_shared(const cli_command *cmd, const char **value, cli_ctx *c, given_window *g)
{
    for (size_t i = 0; i < NSHARED; i++) {
        const char *nm = shared[i].o.name, *v = value[i];
        if (!v)
            continue;
        if (!strcmp(nm, "from"))
            g->from = v;
        else if (!strcmp(nm, "to"))
            g->to = v;
        else if (!strcmp(nm, "at"))
            g->at = v;
        else if (!strcmp(nm, "provider"))
            g->provider = v;
        else if (!strcmp(nm, "event"))
            g->event = v;
        else if (!strcmp(nm, "thread"))
            g->thread = v;
        else if (!strcmp(nm, "index"))
            c->index_path = v;
        else if (!strcmp(nm, "no-index"))
            c->no_index = 1;
        else if (!strcmp(nm, "json"))
            c->json = 1;
        else if (!strcmp(nm, "quiet"))
            cli_quiet = 1;
        else if (!strcmp(nm, "output"))
            c->output = v;
        else if (!strcmp(nm, "order")) {
            if (!strcmp(v, "time"))
                c->query.order = NTIDX_ORDER_TIME;
            else if (!strcmp(v, "file"))
                c->query.order = NTIDX_ORDER_FILE;
            else
                return cli_bad_usage(cmd, "--order %s: time or file", v);
        } else if (!strcmp(nm, "format")) {
            if (!in_list(cmd->formats, v))
                return cli_bad_usage(cmd, "unknown format '%s' (%s)", v, cmd->formats);
            c->format = v;
        } else if (!strcmp(nm, "limit")) {
            if (cli_parse_u64(v, &c->query.limit, 0) < 0)
                return cli_bad_usage(cmd, "--limit %s: not a count", v);
        } else if (!strcmp(nm, "threads")) {
            uint64_t k;
            if (cli_parse_u64(v, &k, 0) < 0 || !k || k > 64)
                return cli_bad_usage(cmd, "--threads %s: a count from 1 to 64", v);
            c->threads = (unsigned)k;
        }
    }
    return CLI_GO_ON;
}

/* What is required, the default format, the filters; options that cannot go together. CLI_GO_ON or CLI_USAGE. */
static int check_options(const cli_command *cmd, const given_window *g, cli_ctx *c)
{
    if (takes(cmd, CLI_FORMAT) && cmd->format_required && c->format == cmd->formats)
        return cli_bad_usage(cmd, "--format is required (%s)", cmd->formats);
    if (takes(cmd, CLI_AT) && !g->at)
        return cli_bad_usage(cmd, "--at T is required");
    if (c->format == cmd->formats && cmd->formats) {
        /* the default: the first format of the list */
        static char first[32];
        const char *bar = strchr(cmd->formats, '|');
        snprintf(first, sizeof first, "%.*s", (int)(bar ? (size_t)(bar - cmd->formats) : strlen(cmd->formats)),
                 cmd->formats);
        c->format = first;
    }
    if (takes(cmd, CLI_OUTPUT) && cmd->output_required && (!c->output || !*c->output))
        return cli_bad_usage(cmd, "-o OUT is required");
    if (g->thread) {
        if (cli_parse_u64(g->thread, &c->query.thread, 0) < 0)
            return cli_bad_usage(cmd, "--thread %s: not a thread id", g->thread);
        c->query.has_thread = 1;
    }
    if (g->event) {
        uint64_t id;
        if (cli_parse_u64(g->event, &id, 0) == 0 && id <= UINT32_MAX) {
            c->query.has_event_id = 1;
            c->query.event_id = (uint32_t)id;
        } else {
            c->query.event_name = g->event;
        }
    }
    c->query.provider = g->provider;
    c->has_filter = g->provider || g->event || g->thread;
    c->has_window = g->from || g->to;
    if (c->no_index && c->index_path)
        return cli_bad_usage(cmd, "--index and --no-index together");
    if (c->from_stdin && c->index_path)
        return cli_bad_usage(cmd, "--index: a trace read from standard input has no index file "
                                  "(it is indexed in memory)");
    return CLI_GO_ON;
}

/* The trace (a file, or standard input read into memory); the index's first reads from disk go on meanwhile. */
static int open_trace(const cli_command *cmd, cli_ctx *c)
{
    if (c->from_stdin) {
        if (cli_stdin_open(&c->in) < 0)
            return CLI_FAIL;
        if (ntidx_trace_open_memory(c->in.data ? c->in.data : (const void *)"", c->in.size, CLI_STDIN_NAME,
                                    &c->trace) < 0) {
            cli_library_error();
            return cli_end(c, CLI_FAIL);
        }
        return CLI_GO_ON;
    }
    if (takes(cmd, CLI_INDEX) && !c->no_index)
        ntidx_index_prefetch(c->trace_path, c->index_path);
    if (ntidx_trace_open(c->trace_path, &c->trace) < 0) {
        cli_library_error();
        return CLI_FAIL;
    }
    return CLI_GO_ON;
}

/*
 * The window in the trace's ticks. Times no tick names are refused, never
 * clamped; a window that ends before it starts is a mistake (the empty
 * window of equal ends is not refused: it is what scripts that cut windows
 * may ask for). CLI_GO_ON, or CLI_USAGE (said; c ended).
 */
static int window_times(cli_ctx *c, const given_window *g)
{
    const char *bad = NULL;
    if (g->from && ntidx_parse_time(c->trace, g->from, &c->query.t0) < 0)
        bad = "--from";
    else if (g->to && ntidx_parse_time(c->trace, g->to, &c->query.t1) < 0)
        bad = "--to";
    else if (g->at && ntidx_parse_time(c->trace, g->at, &c->query.t0) < 0)
        bad = "--at";
    if (bad) {
        cli_error("%s: %s", bad, ntidx_last_error_info()->what);
        return cli_end(c, CLI_USAGE);
    }
    if (g->from && g->to && c->query.t0 > c->query.t1) {
        cli_error("--from %s --to %s: the window ends before it starts (ticks %" PRIu64 " > %" PRIu64 ")", g->from,
                  g->to, c->query.t0, c->query.t1);
        return cli_end(c, CLI_USAGE);
    }
    if (g->at)
        c->query.seek = 1;
    return CLI_GO_ON;
}

int cli_begin(const cli_command *cmd, int argc, char **argv, cli_ctx *c)
{
    memset(c, 0, sizeof *c);
    c->cmd = cmd;
    ntidx_query_options_defaults(&c->query);
    if (cmd->file_order)
        c->query.order = NTIDX_ORDER_FILE;
    if (cmd->formats)
        c->format = cmd->formats; /* the first of the list, cut in check_options() */
    const char *value[NSHARED] = {0};
    given_window g = {0};
    int rc = read_command_line(cmd, argc, argv, c, value);
    if (rc == CLI_GO_ON)
        rc = take_shared(cmd, value, c, &g);
    if (rc == CLI_GO_ON)
        rc = check_options(cmd, &g, c);
    if (rc != CLI_GO_ON || !takes(cmd, CLI_TRACE))
        return rc;
    /* the trace, the times, the index */
    if ((rc = open_trace(cmd, c)) != CLI_GO_ON || (rc = window_times(c, &g)) != CLI_GO_ON)
        return rc;
    if (takes(cmd, CLI_INDEX) && !c->no_index) {
        if (open_index(c, cli_verify_mode()) < 0)
            return cli_end(c, CLI_FAIL);
        if (takes(cmd, CLI_VERIFY) && cli_index_verified(c) < 0)
            return cli_end(c, CLI_FAIL);
    }
    return CLI_GO_ON;
}

int cli_end(cli_ctx *c, int exit_code)
{
    ntidx_index_close(&c->index);
    ntidx_index_close(&c->replaced);
    damaged_scan_free(&c->damaged);
    ntidx_trace_close(&c->trace);
    cli_stdin_close(&c->in);
    return exit_code;
}

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

static void clear_progress_line(void);

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    clear_progress_line();
    fputs("ntidx: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int cli_quiet;

void cli_note(const char *fmt, ...)
{
    if (cli_quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    clear_progress_line();
    fputs("ntidx: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void cli_library_error(void) { cli_error("%s", ntidx_last_error()); }

int cli_parse_u64(const char *s, uint64_t *v, int suffixes)
{
    if (!s || !*s || *s == '-')
        return -1;
    errno = 0;
    char *end;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || end == s)
        return -1;
    uint64_t mul = 1;
    if (suffixes && *end) {
        switch (*end) {
        case 'k': case 'K': mul = 1ull << 10; break;
        case 'm': case 'M': mul = 1ull << 20; break;
        case 'g': case 'G': mul = 1ull << 30; break;
        case 't': case 'T': mul = 1ull << 40; break;
        default: return -1;
        }
        end++;
        if (*end == 'B' || *end == 'b')
            end++;
    }
    if (*end)
        return -1;
    if (x > UINT64_MAX / mul)
        return -1;
    *v = x * mul;
    return 0;
}

void cli_json_str_in(FILE *f, const char *s, ntidx_buf *b)
{
    b->len = 0;
    if (ntidx_buf_append_json_string(b, s ? s : "", s ? strlen(s) : 0) < 0) {
        fputs("\"\"", f);
        return;
    }
    fwrite(b->data, 1, b->len, f);
}

void cli_json_str(FILE *f, const char *s)
{
    static ntidx_buf b; /* reused: the commands print many strings */
    cli_json_str_in(f, s, &b);
}

void cli_fast_stdout(void)
{
    static char buf[1 << 20];
    setvbuf(stdout, buf, _IOFBF, sizeof buf);
}

/* Progress: one line on stderr, rewritten in place, when stderr is a terminal and the run has lasted
   NTIDX_PROGRESS_AFTER seconds (default 0.5: a shorter run shows none), unless --quiet. */
static struct {
    int active, shown, events;
    double start, after, last;
    const char *what;
} progress;

double cli_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double progress_after(void)
{
    const char *v = getenv("NTIDX_PROGRESS_AFTER");
    char *end;
    double d = v && *v ? strtod(v, &end) : 0.5;
    return v && *v && (*end || !(d >= 0)) ? 0.5 : d;
}

int cli_progress(void *ctx, uint64_t done, uint64_t total)
{
    (void)ctx;
    static int tty = -1;
    if (tty < 0)
        tty = isatty(2);
    if (cli_quiet || !tty || !total)
        return 0;
    double now = cli_now_seconds();
    if (!progress.active) {
        progress.active = 1;
        progress.start = now;
        progress.after = progress_after();
        return 0;
    }
    if (now - progress.start < progress.after || (progress.shown && now - progress.last < 0.1 && done < total))
        return 0; /* a moment: no line; then at most ten redraws a second */
    progress.last = now;
    int pct = (int)((double)done * 100.0 / (double)total);
    const char *what = progress.what ? progress.what : "ntidx";
    if (progress.events)
        fprintf(stderr, "\r%s: %3d%% (%" PRIu64 " of %" PRIu64 " events)", what, pct, done, total);
    else if (total >= 1000000000)
        fprintf(stderr, "\r%s: %3d%% (%.1f of %.1f GB)", what, pct, (double)done / 1e9, (double)total / 1e9);
    else
        fprintf(stderr, "\r%s: %3d%% (%.0f of %.0f MB)", what, pct, (double)done / 1e6, (double)total / 1e6);
    progress.shown = 1;
    return 0;
}

void cli_progress_label(const char *what)
{
    progress.what = what;
    progress.events = 0;
}

void cli_progress_label_events(const char *what)
{
    progress.what = what;
    progress.events = 1;
}

/* A message on stderr while the line is shown: the line goes first (the next report draws it again). */
static void clear_progress_line(void)
{
    if (progress.shown)
        fprintf(stderr, "\r\033[K");
    progress.shown = 0;
}

void cli_progress_end(void)
{
    clear_progress_line();
    memset(&progress, 0, sizeof progress);
}

void cli_names_warning(cli_ctx *c)
{
    /* an empty answer is the cost of looking: nothing is listed while the filters find events */
    if (!c->index || !(c->query.provider || c->query.event_name || c->query.has_event_id))
        return;
    ntidx_buf msg = {0};
    int rc = ntidx_index_check_names(c->trace, c->index, &c->query, &msg);
    if (cli_recover(c, rc))
        rc = ntidx_index_check_names(c->trace, c->index, &c->query, &msg);
    if (rc == 1)
        cli_note("%s: warning: %s", c->trace_path, msg.data);
    ntidx_buf_free(&msg);
}

void cli_index_notice(void *ctx, int action, const char *why)
{
    const char *trace = ctx;
    switch (action) {
    case NTIDX_INDEX_BUILT: cli_note("indexing %s (%s)", trace, why); break;
    case NTIDX_INDEX_REBUILT: cli_note("rebuilding the index of %s: %s", trace, why); break;
    case NTIDX_INDEX_EXTENDED: cli_note("%s grew: indexing the new blocks", trace); break;
    case NTIDX_INDEX_NOT_SAVED:
        cli_note("warning: the index could not be saved (%s); it was used for this command only", why);
        break;
    default: break;
    }
}
