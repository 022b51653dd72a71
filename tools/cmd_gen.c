/* ntidx gen: a deterministic synthetic trace (ntidx_generate_fd), through a temporary renamed over OUT (output.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <ntidx/writer.h>

#include "cli.h"
#include "output.h"

static const cli_option options[] = {
    {"format-version", 0, "5|6", "NetTrace V5 or V6 (default 6)"},
    {"size", 0, "N[K|M|G]", "stop once the trace reaches N bytes"},
    {"events", 0, "N", "stop after N events (default 100000)"},
    {"seed", 0, "S", "PRNG seed (default 0)"},
    {"threads", 0, "N", "capture threads (default 8, at most 4096)"},
    {"drop-rate", 0, "F", "fraction of events dropped, 0 <= F < 1"},
    {"metadata-flush-every", 0, "N", "V6: every Nth sequence point flushes metadata"},
    {"thread-flush-every", 0, "N", "V6: every Nth sequence point flushes threads"},
    {"remove-threads", 0, NULL, "V6: retire threads with RemoveThread blocks"},
    {"uncompressed", 0, NULL, "uncompressed event headers"},
    {"no-finish", 0, NULL, "leave out the end-of-stream marker"},
    {"shape", 0, "ntidx|one-collect", "ntidx's own (default), or V6 as one-collect writes it"},
    {"unknown-end", 0, NULL, "one-collect: end of capture not known (last block maximum all ones)"},
    {NULL, 0, NULL, NULL}};

const cli_command cli_cmd_gen = {
    .name = "gen",
    .run = ntidx_cmd_gen,
    .summary = "write a deterministic synthetic trace (V5 or V6)",
    .groups = CLI_OUTPUT,
    .output_required = 1,
    .options = options,
    .notes = "Several threads whose events interleave out of order, sequence points, stacks, label lists (V6)\n"
             "and typed payloads of every field type. Same options and seed, same bytes.\n"
             "--shape one-collect: V6 as microsoft/one-collect (dotnet-trace collect-linux) writes it: one\n"
             "capture thread, IsSorted everywhere, ~1 MiB event blocks each after a sequence point and fresh\n"
             "stack, thread and label-list blocks, Universal.Events samples and Universal.System events;\n"
             "--threads, --drop-rate, flushes, --remove-threads and --uncompressed do not apply.\n"
             "-q, --quiet: nothing printed on success, not even the summary on stdout.\n",
};

static int parse_u32(const char *s, uint32_t *v)
{
    uint64_t x;
    if (cli_parse_u64(s, &x, 0) != 0 || x > UINT32_MAX)
        return -1;
    *v = (uint32_t)x;
    return 0;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int ntidx_cmd_gen(int argc, char **argv)
{
    cli_ctx c;
    int rc = cli_begin(&cli_cmd_gen, argc, argv, &c);
    if (rc != CLI_GO_ON)
        return rc;
    ntidx_gen_options o;
    ntidx_gen_options_defaults(&o);
    const char *out = c.output, *v;
    int quiet = cli_quiet; /* --quiet: not even the summary on stdout */
#define BAD(name) return cli_bad_usage(c.cmd, "invalid value '%s' for --%s", v, name)
    if ((v = cli_opt(&c, "format-version"))) {
        if (strcmp(v, "5") && strcmp(v, "6"))
            BAD("format-version");
        o.format_version = v[0] - '0';
    }
    if ((v = cli_opt(&c, "size")) && (cli_parse_u64(v, &o.target_bytes, 1) != 0 || o.target_bytes == 0))
        BAD("size");
    if ((v = cli_opt(&c, "events")) && (cli_parse_u64(v, &o.events, 0) != 0 || o.events == 0))
        BAD("events");
    if ((v = cli_opt(&c, "seed")) && cli_parse_u64(v, &o.seed, 0) != 0)
        BAD("seed");
    if ((v = cli_opt(&c, "threads")) && (parse_u32(v, &o.threads) != 0 || o.threads == 0 || o.threads > 4096))
        BAD("threads");
    if ((v = cli_opt(&c, "drop-rate"))) {
        char *end;
        errno = 0;
        o.drop_rate = strtod(v, &end);
        if (errno || end == v || *end || !(o.drop_rate >= 0.0 && o.drop_rate < 1.0))
            BAD("drop-rate");
    }
    if ((v = cli_opt(&c, "metadata-flush-every")) && parse_u32(v, &o.metadata_flush_every) != 0)
        BAD("metadata-flush-every");
    if ((v = cli_opt(&c, "thread-flush-every")) && parse_u32(v, &o.thread_flush_every) != 0)
        BAD("thread-flush-every");
#undef BAD
    o.remove_threads = cli_opt(&c, "remove-threads") != NULL;
    if (cli_opt(&c, "uncompressed"))
        o.compressed_headers = 0;
    if (cli_opt(&c, "no-finish"))
        o.finish = 0;
    if ((v = cli_opt(&c, "shape"))) {
        if (!strcmp(v, "one-collect"))
            o.shape = NTIDX_GEN_SHAPE_ONE_COLLECT;
        else if (strcmp(v, "ntidx"))
            return cli_bad_usage(c.cmd, "invalid value '%s' for --shape", v);
    }
    o.unknown_end = cli_opt(&c, "unknown-end") != NULL;
    if (o.shape == NTIDX_GEN_SHAPE_ONE_COLLECT) {
        if (o.format_version != 6)
            return cli_bad_usage(c.cmd, "--shape one-collect is V6 (one-collect writes nothing else)");
        if (cli_opt(&c, "threads") || cli_opt(&c, "drop-rate") || o.metadata_flush_every || o.thread_flush_every ||
            o.remove_threads || !o.compressed_headers)
            return cli_bad_usage(c.cmd, "--threads, --drop-rate, flushes, --remove-threads and --uncompressed do "
                                        "not apply to --shape one-collect");
    } else if (o.unknown_end) {
        return cli_bad_usage(c.cmd, "--unknown-end needs --shape one-collect");
    }
    if (cli_opt(&c, "size") && cli_opt(&c, "events"))
        return cli_bad_usage(c.cmd, "--size and --events cannot be used together");
    if (o.format_version == 5 && (o.metadata_flush_every || o.thread_flush_every || o.remove_threads))
        return cli_bad_usage(c.cmd, "flushes and --remove-threads need --format-version 6");

    double t0 = now_seconds();
    o.progress = cli_progress;
    if (o.target_bytes)
        cli_progress_label("ntidx: generating");
    else
        cli_progress_label_events("ntidx: generating");
    cli_output dest;
    if (cli_output_open(&dest, out) < 0)
        return CLI_FAIL;
    rc = ntidx_generate_fd(dest.fd, cli_output_name(&dest), &o);
    cli_progress_end();
    if (rc != NTIDX_OK) {
        cli_library_error();
        cli_output_discard(&dest);
        return CLI_FAIL;
    }
    struct stat st;
    long long size = fstat(dest.fd, &st) == 0 && S_ISREG(st.st_mode) ? (long long)st.st_size : -1;
    if (cli_output_commit(&dest) < 0)
        return CLI_FAIL;
    double secs = now_seconds() - t0;
    if (!quiet) {
        /* the trace itself may be on stdout (-o -): the summary then goes to stderr */
        FILE *f = cli_output_is_stdout(&dest) ? stderr : stdout;
        if (size >= 0)
            fprintf(f, "%s: %lld bytes, V%d, %.2f s (%.0f MB/s)\n", cli_output_name(&dest), size, o.format_version,
                    secs, secs > 0 && size > 0 ? (double)size / 1e6 / secs : 0.0);
        else
            fprintf(f, "%s: V%d, %.2f s\n", cli_output_name(&dest), o.format_version, secs);
    }
    return CLI_OK;
}
