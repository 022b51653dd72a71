/*
 * ntidx index TRACE [-o INDEX] [--full] [--threads N] [--json]: build (or
 * refresh) the side index, written atomically to TRACE.ntidx by default.
 */
#include <stdlib.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <ntidx/index.h>
#include <ntidx/source.h>

#include "cli.h"
#include "output.h"

static const cli_option options[] = {
    {"full", 0, NULL, "also count events and record types and threads per block, and each region's statistics"},
    {"upload", 0, NULL, "a remote trace's index is also put beside it (URL.ntidx), where the credentials allow"},
    {NULL, 0, NULL, NULL}};

const cli_command cli_cmd_index = {
    .name = "index",
    .run = ntidx_cmd_index,
    .summary = "build or refresh the side index (TRACE.ntidx)",
    .groups = CLI_TRACE | CLI_OUTPUT | CLI_JSON | CLI_THREADS,
    .options = options,
    .notes = "-o INDEX writes the index there instead of TRACE.ntidx (with '-', the summary goes to stderr).\n"
             "The index is checked whole: a corrupt or stale one is rebuilt, a grown trace's extended.\n"
             "--threads: the threads that read the block headers (large traces) or, with --full, decode the\n"
             "regions; the index is the same for any number.\n"
             "--upload (TRACE a URL): the index, once written, is uploaded as URL.ntidx, where every later open\n"
             "of the trace, on any machine, finds it (docs/remote.md).\n",
};


static int not_saved; /* the notice said the index could not be saved: `ntidx index` fails then */

static void notice(void *ctx, int action, const char *why)
{
    if (action == NTIDX_INDEX_REBUILT)
        cli_note("rebuilding the index of %s: %s", (const char *)ctx, why);
    else if (action == NTIDX_INDEX_EXTENDED)
        cli_note("%s grew: indexing the new blocks", (const char *)ctx);
    else if (action == NTIDX_INDEX_NOT_SAVED) {
        cli_error("%s", why);
        not_saved = 1;
    }
}

/* --upload: the index written at `ipath` put beside the remote trace; 0 (said) when it cannot be. */
static int upload_index(const char *trace_url, const char *ipath)
{
    char *url = ntidx_index_url(trace_url);
    if (!url) {
        cli_error("out of memory");
        return 0;
    }
    int ok = ntidx_url_upload(url, ipath) == NTIDX_OK;
    if (!ok)
        cli_error("cannot upload the index: %s", ntidx_last_error());
    free(url);
    return ok;
}

int ntidx_cmd_index(int argc, char **argv)
{
    cli_ctx c;
    int rc = cli_begin(&cli_cmd_index, argc, argv, &c);
    if (rc != CLI_GO_ON)
        return rc;
    const char *path = c.trace_path;
    int upload = cli_opt(&c, "upload") != NULL;
    if (upload && !ntidx_is_url(path)) {
        cli_error("--upload: %s is not a URL: a local trace's index is beside it already", path);
        return cli_end(&c, CLI_USAGE);
    }
    /* Without -o the library decides: beside the trace, or in the index directory (ntidx_index_path()). */
    char *def = c.output ? NULL : ntidx_index_path(path);
    const char *ipath = c.output ? c.output : def;
    double t0 = cli_now_seconds();
    ntidx_index_options o;
    ntidx_index_options_defaults(&o);
    o.full = cli_opt(&c, "full") != NULL;
    o.threads = c.threads;
    o.verify = NTIDX_VERIFY_ALL; /* `ntidx index` vouches for the whole index it leaves */
    o.progress = cli_progress;
    cli_progress_label("ntidx: indexing");
    o.notice = notice;
    o.notice_ctx = (void *)path;
    ntidx_index *x = NULL;
    ntidx_index_action act = NTIDX_INDEX_BUILT;
    struct stat st;
    FILE *report = stdout;
    int written_fail = 0;
    if (c.output && (!strcmp(c.output, "-") || (stat(c.output, &st) == 0 && !S_ISREG(st.st_mode)))) {
        /* Standard output, a device, a FIFO: nothing to load from there, nothing to rename over it: built and
           written in place. */
        cli_output out;
        if (cli_output_open(&out, c.output) < 0)
            return cli_end(&c, CLI_FAIL);
        if (cli_output_is_stdout(&out))
            report = stderr; /* the index itself is on stdout */
        ipath = cli_output_name(&out);
        rc = ntidx_index_build(c.trace, &o, &x);
        if (rc == NTIDX_OK && ntidx_index_write_fd(x, out.fd, ipath) < 0) {
            cli_library_error();
            written_fail = 1;
        } else if (rc == NTIDX_OK && cli_output_commit(&out) < 0) {
            written_fail = 1; /* said */
        }
        if (rc < 0 || written_fail)
            cli_output_discard(&out);
    } else {
        rc = ntidx_index_open(c.trace, c.output, &o, &x, &act);
        if (rc == NTIDX_OK && ntidx_index_file(x))
            ipath = ntidx_index_file(x);
    }
    cli_progress_end();
    double secs = cli_now_seconds() - t0;
    int ret = CLI_OK;
    if (rc < 0) {
        cli_error("%s: cannot index: %s", path, ntidx_last_error_info()->detail);
        ret = CLI_FAIL;
    } else if (not_saved || written_fail) {
        ret = CLI_FAIL;
    } else if (upload && !(c.output && !strcmp(c.output, "-")) && !upload_index(path, ipath)) {
        ret = CLI_FAIL;
    } else {
        const ntidx_index_info *i = ntidx_index_get_info(x);
        static const char *acts[] = {"up to date", "built", "rebuilt", "extended"};
        const char *a = acts[act];
        uint64_t tsize = ntidx_trace_get_info(c.trace)->file_size;
        /* The blocks as `info` counts them: per kind, and in all with the trace block, which the index does
           not list (it is read when the trace is opened). */
        uint64_t counts[NTIDX_BLOCK_KIND_COUNT], unknown = 0;
        if (ntidx_index_block_counts(x, counts, &unknown) < 0) {
            cli_library_error();
            ntidx_index_close(&x);
            free(def);
            return cli_end(&c, CLI_FAIL);
        }
        counts[NTIDX_BLOCK_TRACE] = 1;
        uint64_t block_total = i->blocks + 1;
        if (c.json) {
            /* "blocks" is the object `info --json` and `stats --json` give; the total, which "blocks" was here
               once, is "block_total", as `info --json` names it (issue 25: one key, one meaning) */
            fprintf(report, "{\"index\":");
            cli_json_str(report, ipath);
            fprintf(report,
                    ",\"action\":\"%s\",\"seconds\":%.6f,\"bytes\":%" PRIu64 ",\"trace_bytes\":%" PRIu64
                    ",\"ratio\":%.8f,\"blocks\":{",
                    a, secs, i->bytes, tsize, tsize ? (double)i->bytes / (double)tsize : 0.0);
            for (int k = 1; k < NTIDX_BLOCK_KIND_COUNT; k++)
                fprintf(report, "%s\"%s\":%" PRIu64, k > 1 ? "," : "", ntidx_block_kind_name(k), counts[k]);
            fprintf(report,
                    ",\"unknown\":%" PRIu64 "},\"block_total\":%" PRIu64 ",\"sequence_points\":%" PRIu64
                    ",\"regions\":%" PRIu64 ",\"definitions\":%" PRIu64 ",\"complete\":%s,\"full\":%s",
                    unknown, block_total, i->sequence_points, i->regions, i->definitions,
                    i->complete ? "true" : "false", i->full ? "true" : "false");
            if (i->events != UINT64_MAX)
                fprintf(report, ",\"events\":%" PRIu64, i->events);
            fprintf(report, "}\n");
        } else {
            fprintf(report, "%s: %s in %.3f s\n", ipath, a, secs);
            fprintf(report,
                    "  %" PRIu64 " blocks, %" PRIu64 " sequence points, %" PRIu64 " regions, %" PRIu64
                    " definition blocks%s\n",
                    block_total, i->sequence_points, i->regions, i->definitions,
                    i->complete ? "" : " (trace incomplete)");
            fprintf(report, "  index %" PRIu64 " bytes = %.4f%% of the trace (%" PRIu64 " bytes)\n", i->bytes,
                    tsize ? 100.0 * (double)i->bytes / (double)tsize : 0.0, tsize);
            if (i->events != UINT64_MAX)
                fprintf(report, "  %" PRIu64 " events\n", i->events);
        }
    }
    ntidx_index_close(&x);
    free(def);
    return cli_end(&c, ret);
}
