/*
 * ntidx export TRACE [--from T] [--to T] --format chrome|speedscope|csv|jsonl -o OUT
 *   [--provider P] [--event ID|NAME] [--thread TID] [--index PATH]
 *
 * The events of a window (the whole trace without --from/--to), through the
 * side index and in time order, in a format another tool reads:
 *   chrome      Chrome Trace Event JSON for the Perfetto UI and chrome://tracing (export_chrome.c)
 *   speedscope  the sampled stacks, one profile per thread, for speedscope (export_speedscope.c)
 *   csv, jsonl  the rows and keys of `ntidx query --format csv|jsonl` (event_print.c)
 * OUT "-" is stdout. A regular file is written beside OUT and renamed over it
 * when complete, so a failed export leaves no half-written file.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ntidx/index.h>

#include "cli.h"
#include "event_print.h"
#include "export.h"

enum { FMT_CHROME, FMT_SPEEDSCOPE, FMT_CSV, FMT_JSONL };

static void usage(FILE *f)
{
    fprintf(f, "usage: ntidx export TRACE [--from T] [--to T] --format chrome|speedscope|csv|jsonl -o OUT\n"
               "                    [--provider P] [--event ID|NAME] [--thread TID] [--index PATH]\n"
               "T: ticks (integer), time since the trace start (1.5s, 250ms, 40us, 100ns), or ISO-8601 UTC (...Z)\n"
               "chrome: Chrome Trace Event JSON (Perfetto UI, chrome://tracing); speedscope: the sample profiler's\n"
               "stacks (or those of the events --provider/--event select) per thread; csv, jsonl: as ntidx query.\n"
               "OUT '-' is stdout.\n");
}

/* Where the output goes: stdout (fd 1) is pointed at it, so every writer prints to stdout. */
typedef struct output {
    const char *path; /* as given */
    char *tmp;        /* the file being written, renamed to path at the end; NULL when writing in place */
} output;

static int output_open(output *o, const char *path)
{
    o->path = path;
    o->tmp = NULL;
    if (!strcmp(path, "-"))
        return 0;
    struct stat st;
    int fd;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        fd = open(path, O_WRONLY | O_TRUNC); /* a device or a pipe: write in place */
    } else {
        size_t n = strlen(path) + 16;
        o->tmp = malloc(n);
        if (!o->tmp) {
            cli_error("out of memory");
            return -1;
        }
        snprintf(o->tmp, n, "%s.tmp.XXXXXX", path);
        fd = mkstemp(o->tmp);
        if (fd >= 0) {
            mode_t mask = umask(0);
            umask(mask);
            if (fchmod(fd, 0666 & ~mask) < 0) {
                /* keep mkstemp's 0600: still a usable file */
            }
        }
    }
    if (fd < 0) {
        cli_error("%s: cannot write: %s", path, strerror(errno));
        free(o->tmp);
        o->tmp = NULL;
        return -1;
    }
    fflush(stdout);
    if (dup2(fd, STDOUT_FILENO) < 0) {
        cli_error("%s: cannot write: %s", path, strerror(errno));
        close(fd);
        if (o->tmp)
            unlink(o->tmp);
        free(o->tmp);
        o->tmp = NULL;
        return -1;
    }
    close(fd);
    return 0;
}

/* Flush and, when all went well, put the file in place. Returns 0 or -1 (message printed). */
static int output_close(output *o, int ok)
{
    int err = fflush(stdout) != 0 || ferror(stdout);
    int saved = errno;
    if (ok && err)
        cli_error("%s: cannot write: %s", o->path, strerror(saved ? saved : EIO));
    if (o->tmp) {
        if (ok && !err && rename(o->tmp, o->path) < 0) {
            cli_error("%s: cannot write: %s", o->path, strerror(errno));
            err = 1;
        }
        if (!ok || err)
            unlink(o->tmp);
        free(o->tmp);
        o->tmp = NULL;
    }
    return ok && !err ? 0 : -1;
}

static int export_rows(export_job *job, enum event_format fmt, uint64_t *written)
{
    ntidx_query *q;
    int rc = ntidx_query_open(&q, job->trace, job->index, &job->query);
    if (rc < 0) {
        cli_error("%s: %s", job->trace_path, ntidx_strerror(rc));
        return -1;
    }
    event_print_header(fmt);
    ntidx_buf b = {0};
    const ntidx_event *e;
    uint64_t n = 0, field_errors = 0;
    while ((rc = ntidx_query_next(q, &e)) == 1) {
        int prc = event_print(job->trace, e, fmt, &b);
        if (prc == NTIDX_E_NOMEM) {
            rc = prc;
            break;
        }
        field_errors += prc != NTIDX_OK;
        n++;
    }
    ntidx_buf_free(&b);
    if (field_errors)
        fprintf(stderr, "ntidx: %s: warning: %" PRIu64 " events have payloads that do not match their metadata\n",
                job->trace_path, field_errors);
    if (rc < 0)
        cli_error("%s: %s", job->trace_path, rc == NTIDX_E_NOMEM ? "out of memory" : ntidx_query_error(q));
    ntidx_query_close(&q);
    *written = n;
    return rc < 0 ? -1 : 0;
}

int ntidx_cmd_export(int argc, char **argv)
{
    const char *from = NULL, *to = NULL, *event = NULL, *index_path = NULL, *thread = NULL, *out_path = NULL,
               *format = NULL;
    export_job job;
    memset(&job, 0, sizeof job);
    ntidx_query_options_defaults(&job.query);
    static const struct option opts[] = {{"from", required_argument, 0, 'f'},     {"to", required_argument, 0, 't'},
                                         {"format", required_argument, 0, 'F'},   {"output", required_argument, 0, 'o'},
                                         {"provider", required_argument, 0, 'p'}, {"event", required_argument, 0, 'e'},
                                         {"thread", required_argument, 0, 'T'},   {"index", required_argument, 0, 'i'},
                                         {"help", no_argument, 0, 'h'},           {0, 0, 0, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
        switch (c) {
        case 'f': from = optarg; break;
        case 't': to = optarg; break;
        case 'F': format = optarg; break;
        case 'o': out_path = optarg; break;
        case 'p': job.query.provider = optarg; break;
        case 'e': event = optarg; break;
        case 'T': thread = optarg; break;
        case 'i': index_path = optarg; break;
        case 'h': usage(stdout); return CLI_OK;
        default: usage(stderr); return CLI_USAGE;
        }
    }
    if (optind != argc - 1 || !format || !out_path || !*out_path) {
        usage(stderr);
        return CLI_USAGE;
    }
    int fmt;
    if (!strcmp(format, "chrome"))
        fmt = FMT_CHROME;
    else if (!strcmp(format, "speedscope"))
        fmt = FMT_SPEEDSCOPE;
    else if (!strcmp(format, "csv"))
        fmt = FMT_CSV;
    else if (!strcmp(format, "jsonl"))
        fmt = FMT_JSONL;
    else {
        cli_error("unknown format '%s' (chrome, speedscope, csv or jsonl)", format);
        return CLI_USAGE;
    }
    if (thread && cli_parse_u64(thread, &job.query.thread, 0) < 0) {
        usage(stderr);
        return CLI_USAGE;
    }
    job.query.has_thread = thread != NULL;
    if (event) {
        uint64_t id;
        if (cli_parse_u64(event, &id, 0) == 0 && id <= UINT32_MAX) {
            job.query.has_event_id = 1;
            job.query.event_id = (uint32_t)id;
        } else {
            job.query.event_name = event;
        }
    }
    job.has_filter = event != NULL || job.query.provider != NULL;
    job.trace_path = argv[optind];
    if (cli_open_trace(job.trace_path, &job.trace) < 0)
        return CLI_FAIL;
    int ret = CLI_FAIL;
    ntidx_index *x = NULL;
    if ((from && cli_parse_time(job.trace, from, &job.query.t0) < 0) ||
        (to && cli_parse_time(job.trace, to, &job.query.t1) < 0)) {
        ret = CLI_USAGE;
        goto out;
    }
    /* Exports read on through several passes: the index is checked whole first (rebuilt if it fails). */
    if (cli_index_verified(job.trace, job.trace_path, index_path, &x) < 0)
        goto out;
    job.index = x;
    cli_fast_stdout();
    output o;
    if (output_open(&o, out_path) < 0)
        goto out;
    job.out = stdout;
    uint64_t n = 0;
    int rc;
    switch (fmt) {
    case FMT_CHROME: rc = export_chrome(&job, &n); break;
    case FMT_SPEEDSCOPE: rc = export_speedscope(&job, &n); break;
    case FMT_CSV: rc = export_rows(&job, EVENT_CSV, &n); break;
    default: rc = export_rows(&job, EVENT_JSONL, &n); break;
    }
    if (output_close(&o, rc == 0) == 0) {
        if (strcmp(out_path, "-"))
            fprintf(stderr, "ntidx: %" PRIu64 " %s written to %s\n", n, fmt == FMT_SPEEDSCOPE ? "samples" : "events",
                    out_path);
        ret = CLI_OK;
    }
out:
    ntidx_index_close(&x);
    ntidx_trace_close(&job.trace);
    return ret;
}
