/*
 * ntidx index TRACE [-o INDEX] [--full] [--json]: build (or refresh) the
 * side index, written atomically to TRACE.ntidx by default.
 */
#include <getopt.h>
#include <stdlib.h>
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include <ntidx/index.h>

#include "cli.h"

static void usage(FILE *f) { fprintf(f, "usage: ntidx index TRACE [-o INDEX] [--full] [--json]\n"); }

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void notice(void *ctx, int action, const char *why)
{
    if (action == NTIDX_INDEX_REBUILT)
        fprintf(stderr, "ntidx: rebuilding the index of %s: %s\n", (const char *)ctx, why);
    else if (action == NTIDX_INDEX_EXTENDED)
        fprintf(stderr, "ntidx: %s grew: indexing the new blocks\n", (const char *)ctx);
}

int ntidx_cmd_index(int argc, char **argv)
{
    const char *out_path = NULL;
    int full = 0, json = 0;
    static const struct option opts[] = {{"output", required_argument, 0, 'o'},
                                         {"full", no_argument, 0, 'F'},
                                         {"json", no_argument, 0, 'j'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'o': out_path = optarg; break;
        case 'F': full = 1; break;
        case 'j': json = 1; break;
        case 'h': usage(stdout); return CLI_OK;
        default: usage(stderr); return CLI_USAGE;
        }
    }
    if (optind != argc - 1) {
        usage(stderr);
        return CLI_USAGE;
    }
    const char *path = argv[optind];
    ntidx_trace *t;
    if (cli_open_trace(path, &t) < 0)
        return CLI_FAIL;
    char *def = out_path ? NULL : ntidx_index_default_path(path);
    const char *ipath = out_path ? out_path : def;
    double t0 = now_s();
    ntidx_index_options o;
    ntidx_index_options_defaults(&o);
    o.full = full;
    o.verify = NTIDX_VERIFY_ALL; /* `ntidx index` vouches for the whole index it leaves */
    o.progress = cli_progress;
    cli_progress_label("ntidx: indexing");
    o.notice = notice;
    o.notice_ctx = (void *)path;
    ntidx_index *x = NULL;
    ntidx_index_action act;
    char why[600], save_err[600];
    int rc = ntidx_index_open(t, ipath, &o, &x, &act, why, sizeof why, save_err, sizeof save_err);
    cli_progress_end();
    double secs = now_s() - t0;
    int ret = CLI_OK;
    if (rc < 0) {
        cli_error("%s: cannot index: %s", path, ntidx_trace_error(t)[0] ? ntidx_trace_error(t) : ntidx_strerror(rc));
        ret = CLI_FAIL;
    } else if (save_err[0]) {
        cli_error("%s", save_err);
        ret = CLI_FAIL;
    } else {
        const ntidx_index_info *i = ntidx_index_get_info(x);
        static const char *acts[] = {"up to date", "built", "rebuilt", "extended"};
        const char *a = acts[act];
        uint64_t tsize = ntidx_trace_get_info(t)->file_size;
        if (json) {
            printf("{\"index\":");
            cli_json_str(stdout, ipath);
            printf(",\"action\":\"%s\",\"seconds\":%.6f,\"bytes\":%" PRIu64 ",\"trace_bytes\":%" PRIu64
                   ",\"ratio\":%.8f,\"blocks\":%" PRIu64 ",\"sequence_points\":%" PRIu64 ",\"regions\":%" PRIu64
                   ",\"definitions\":%" PRIu64 ",\"complete\":%s,\"full\":%s",
                   a, secs, i->bytes, tsize, tsize ? (double)i->bytes / (double)tsize : 0.0, i->blocks,
                   i->sequence_points, i->regions, i->definitions, i->complete ? "true" : "false",
                   i->full ? "true" : "false");
            if (i->events != UINT64_MAX)
                printf(",\"events\":%" PRIu64, i->events);
            printf("}\n");
        } else {
            printf("%s: %s in %.3f s\n", ipath, a, secs);
            printf("  %" PRIu64 " blocks, %" PRIu64 " sequence points, %" PRIu64 " regions, %" PRIu64
                   " definition blocks%s\n",
                   i->blocks, i->sequence_points, i->regions, i->definitions, i->complete ? "" : " (trace incomplete)");
            printf("  index %" PRIu64 " bytes = %.4f%% of the trace (%" PRIu64 " bytes)\n", i->bytes,
                   tsize ? 100.0 * (double)i->bytes / (double)tsize : 0.0, tsize);
            if (i->events != UINT64_MAX)
                printf("  %" PRIu64 " events\n", i->events);
        }
    }
    ntidx_index_close(&x);
    free(def);
    ntidx_trace_close(&t);
    return ret;
}
