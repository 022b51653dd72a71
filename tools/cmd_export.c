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

const cli_command cli_cmd_export = {
    .name = "export",
    .run = ntidx_cmd_export,
    .summary = "a window as Chrome trace JSON, speedscope, CSV or JSONL for other tools",
    .groups = CLI_TRACE | CLI_WINDOW | CLI_FILTER | CLI_FORMAT | CLI_OUTPUT | CLI_INDEX | CLI_VERIFY,
    .formats = "chrome|speedscope|csv|jsonl",
    .format_required = 1,
    .output_required = 1,
    .notes = "chrome: Chrome Trace Event JSON (Perfetto UI, chrome://tracing); speedscope: the sample profiler's\n"
             "stacks (or those of the events --provider/--event select) per thread; csv, jsonl: as ntidx query.\n"
             "OUT '-' is stdout. The index is checked whole first (exports read it in several passes).\n",
};

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
    if (ntidx_query_open(job->trace, job->index, &job->query, &q) < 0) {
        cli_library_error();
        return -1;
    }
    event_print_header(fmt);
    event_printer p = {0};
    const ntidx_event *e;
    uint64_t n = 0;
    int rc;
    while ((rc = ntidx_query_next(q, &e)) == 1) {
        if ((rc = event_print(&p, job->trace, e, fmt)) == NTIDX_E_NOMEM)
            break;
        n++;
    }
    event_print_done(&p, job->trace_path);
    if (rc < 0)
        cli_library_error();
    ntidx_query_close(&q);
    *written = n;
    return rc < 0 ? -1 : 0;
}

int ntidx_cmd_export(int argc, char **argv)
{
    cli_ctx c;
    int rc = cli_begin(&cli_cmd_export, argc, argv, &c);
    if (rc != CLI_GO_ON)
        return rc;
    int fmt = !strcmp(c.format, "chrome") ? FMT_CHROME : !strcmp(c.format, "speedscope") ? FMT_SPEEDSCOPE
              : !strcmp(c.format, "csv") ? FMT_CSV : FMT_JSONL;
    export_job job;
    memset(&job, 0, sizeof job);
    job.trace_path = c.trace_path;
    job.trace = c.trace;
    job.index = c.index;
    job.query = c.query;
    job.has_filter = c.query.event_name || c.query.has_event_id || c.query.provider;
    cli_fast_stdout();
    output o;
    if (output_open(&o, c.output) < 0)
        return cli_end(&c, CLI_FAIL);
    job.out = stdout;
    uint64_t n = 0;
    switch (fmt) {
    case FMT_CHROME: rc = export_chrome(&job, &n); break;
    case FMT_SPEEDSCOPE: rc = export_speedscope(&job, &n); break;
    case FMT_CSV: rc = export_rows(&job, EVENT_CSV, &n); break;
    default: rc = export_rows(&job, EVENT_JSONL, &n); break;
    }
    int ret = CLI_FAIL;
    if (rc == 0 && !n)
        cli_names_warning(&c);
    if (output_close(&o, rc == 0) == 0) {
        if (strcmp(c.output, "-"))
            fprintf(stderr, "ntidx: %" PRIu64 " %s written to %s\n", n, fmt == FMT_SPEEDSCOPE ? "samples" : "events",
                    c.output);
        ret = CLI_OK;
    }
    return cli_end(&c, ret);
}
