/*
 * ntidx slice TRACE --from T --to T -o OUT [--provider P] [--event ID|NAME]
 *   [--thread TID] [--index PATH] [--no-copy] [--stats]
 * Write the events of [from, to) that pass the filters, with the
 * definitions they reference, as a new trace in the input's format version
 * (include/ntidx/slice.h). The window and filters select what
 * `ntidx query` would print. OUT is written through a temporary renamed
 * over it when complete (output.h); '-' is standard output.
 */
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>

#include <ntidx/slice.h>

#include "cli.h"
#include "output.h"

static const cli_option options[] = {
    {"no-copy", 0, NULL, "re-encode every event instead of copying whole event blocks byte for byte"},
    {"stats", 0, NULL, "print what was written and the bytes of the trace read on stderr"},
    {NULL, 0, NULL, NULL}};

const cli_command cli_cmd_slice = {
    .name = "slice",
    .run = ntidx_cmd_slice,
    .summary = "write a time window (filtered) as a new trace",
    .groups = CLI_TRACE | CLI_STDIN | CLI_WINDOW | CLI_FILTER | CLI_OUTPUT | CLI_INDEX,
    .output_required = 1,
    .options = options,
};

int ntidx_cmd_slice(int argc, char **argv)
{
    cli_ctx c;
    int rc = cli_begin(&cli_cmd_slice, argc, argv, &c);
    if (rc != CLI_GO_ON)
        return rc;
    ntidx_slice_options so;
    ntidx_slice_options_defaults(&so);
    so.copy_blocks = !cli_opt(&c, "no-copy");
    so.progress = cli_progress;
    /* Replacing the input with its own slice would surprise: refused before anything is written. */
    struct stat in, out_st;
    if (stat(c.output, &out_st) == 0 && stat(c.trace_path, &in) == 0 && in.st_dev == out_st.st_dev &&
        in.st_ino == out_st.st_ino) {
        cli_error("%s: the output %s is the input trace", c.trace_path, c.output);
        return cli_end(&c, CLI_USAGE);
    }
    cli_output out;
    if (cli_output_open(&out, c.output) < 0)
        return cli_end(&c, CLI_FAIL);
    ntidx_slice_stats st;
    cli_progress_label("ntidx: slicing");
    rc = ntidx_slice_fd(c.trace, c.index, &c.query, &so, out.fd, cli_output_name(&out), &st);
    /* a corrupt index is found before anything is written */
    if (cli_recover(&c, rc))
        rc = ntidx_slice_fd(c.trace, c.index, &c.query, &so, out.fd, cli_output_name(&out), &st);
    cli_progress_end();
    if (rc < 0) {
        cli_library_error();
        cli_output_discard(&out);
        return cli_end(&c, ntidx_last_error_info()->code == NTIDX_E_INVALID_ARG ? CLI_USAGE : CLI_FAIL);
    }
    if (cli_output_commit(&out) < 0)
        return cli_end(&c, CLI_FAIL);
    if (!st.events)
        cli_names_warning(&c);
    if (cli_opt(&c, "stats"))
        fprintf(stderr,
                "slice: %" PRIu64 " events (%" PRIu64 " in %" PRIu64 " blocks copied whole), %" PRIu64
                " sequence points, %" PRIu64 " metadata, %" PRIu64 " threads, %" PRIu64 " stacks, %" PRIu64
                " label lists; %" PRIu64 " bytes written; %" PRIu64 " bytes of the trace read (query %" PRIu64 ")\n",
                st.events, st.events_copied, st.blocks_copied, st.sequence_points, st.metadata, st.threads, st.stacks,
                st.label_lists, st.bytes_written, st.bytes_read, st.query_bytes_read);
    return cli_end(&c, CLI_OK);
}
