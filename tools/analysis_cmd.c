/* What every analysis command does around its analysis (analysis_cmd.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_cmd.h"
#include "analysis_print.h"
#include "output.h"

int cli_analysis_options(cli_ctx *c, ntidx_analysis_options *o)
{
    ntidx_analysis_options_defaults(o);
    o->t0 = c->query.t0;
    o->t1 = c->query.t1;
    o->threads = c->threads;
    /* cli_opt() is NULL for an option the command does not have (--lookahead: the pairing analyses only) */
    const char *thread = cli_opt(c, "thread"), *ahead = cli_opt(c, "lookahead");
    if (thread) {
        if (cli_parse_u64(thread, &o->thread, 0) < 0)
            return cli_end(c, cli_bad_usage(c->cmd, "--thread %s: not a thread id", thread));
        o->has_thread = 1;
    }
    if (ahead) {
        char *end;
        o->lookahead_seconds = strtod(ahead, &end);
        if (end == ahead || *end || !(o->lookahead_seconds >= 0) || isinf(o->lookahead_seconds))
            return cli_end(c, cli_bad_usage(c->cmd, "--lookahead %s: seconds, 0 or more", ahead));
    }
    return CLI_GO_ON;
}

int cli_analysis_run(cli_ctx *c, const char *name, const ntidx_analysis_options *o, ntidx_analysis **out)
{
    int rc = ntidx_analyze(name, c->trace, c->index, o, out);
    if (cli_recover(c, rc))
        rc = ntidx_analyze(name, c->trace, c->index, o, out);
    if (rc < 0) {
        cli_library_error();
        return cli_end(c, CLI_FAIL);
    }
    return CLI_GO_ON;
}

int cli_analysis_write(cli_ctx *c, ntidx_analysis **a, const char *table,
                       int (*text)(const ntidx_analysis *a, const void *ctx), const void *text_ctx)
{
    cli_fast_stdout();
    ap_set_threads(c->threads);
    int k = ap_table_index(*a, table), rc;
    if (!strcmp(c->format, "jsonl"))
        rc = ap_jsonl(stdout, *a, (size_t)k);
    else if (!strcmp(c->format, "csv"))
        rc = ap_csv(stdout, *a, (size_t)k);
    else if (!strcmp(c->format, "json"))
        rc = ap_json(stdout, *a);
    else
        rc = text(*a, text_ctx);
    ntidx_analysis_free(a);
    if (rc < 0) {
        cli_library_error();
        return cli_end(c, CLI_FAIL);
    }
    /* a failed write to standard output: main() says so, with the reason (cli_stdout_finish()) */
    return cli_end(c, cli_stdout_failed() || fflush(stdout) != 0 ? CLI_FAIL : CLI_OK);
}
