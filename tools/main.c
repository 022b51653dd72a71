/* The ntidx command: one subcommand per file, all thin over the public API. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const struct {
    const char *name;
    int (*run)(int, char **);
    const char *summary;
} commands[] = {
    {"info", ntidx_cmd_info, "format version, size, completeness, block counts, time span"},
    {"stats", ntidx_cmd_stats, "event counts per provider, type and thread; dropped events"},
    {"dump", ntidx_cmd_dump, "every event, one per line (text or jsonl), file or time order"},
    {"gen", ntidx_cmd_gen, "write a deterministic synthetic trace (V5 or V6)"},
    {"index", ntidx_cmd_index, "build or refresh the side index (TRACE.ntidx)"},
    {"query", ntidx_cmd_query, "the events of a time window, filtered, through the index"},
    {"seek", ntidx_cmd_seek, "the first event at or after a time"},
    {"export", ntidx_cmd_export, "a window as Chrome trace JSON, speedscope, CSV or JSONL for other tools"},
    {"slice", ntidx_cmd_slice, "write a time window (filtered) as a new trace"},
    {"top", ntidx_cmd_top, "the busiest event types, threads or providers of a window"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: ntidx COMMAND [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n'ntidx COMMAND --help' describes a command.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return CLI_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("ntidx %s\n", ntidx_version());
        return CLI_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    cli_error("unknown command '%s'", argv[1]);
    usage(stderr);
    return CLI_USAGE;
}
