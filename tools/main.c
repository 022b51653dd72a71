/* The ntidx command: one subcommand per file, all thin over the public API; the command line is cli.c's. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "output.h"

const cli_command *const cli_commands[] = {&cli_cmd_info,  &cli_cmd_stats, &cli_cmd_dump,   &cli_cmd_gen,
                                           &cli_cmd_index, &cli_cmd_query, &cli_cmd_seek,   &cli_cmd_export,
                                           &cli_cmd_slice, &cli_cmd_top,   &cli_cmd_sql,    &cli_cmd_gc,
                                           &cli_cmd_contention, &cli_cmd_activities, &cli_cmd_cpu,
                                           &cli_cmd_jit, &cli_cmd_alloc, &cli_cmd_exceptions, &cli_cmd_report};
const size_t cli_command_count = sizeof cli_commands / sizeof cli_commands[0];

static void usage(FILE *f)
{
    fprintf(f, "usage: ntidx COMMAND [ARGS]\n       ntidx --version\n\ncommands:\n");
    for (size_t i = 0; i < cli_command_count; i++)
        fprintf(f, "  %-10s %s\n", cli_commands[i]->name, cli_commands[i]->summary);
    fprintf(f, "\n'ntidx help COMMAND' (or 'ntidx COMMAND --help') describes a command; ntidx(1) is the manual.\n");
}

static const cli_command *find_command(const char *name)
{
    for (size_t i = 0; i < cli_command_count; i++)
        if (!strcmp(name, cli_commands[i]->name))
            return cli_commands[i];
    return NULL;
}

static int run(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    if (!strcmp(argv[1], "help") && argc > 2) {
        /* `ntidx help COMMAND`: the same as `ntidx COMMAND --help` */
        const cli_command *cmd = find_command(argv[2]);
        if (!cmd || argc > 3) {
            if (cmd)
                cli_error("help: one command, please");
            else
                cli_error("help: unknown command '%s'", argv[2]);
            usage(stderr);
            return CLI_USAGE;
        }
        cli_usage(cmd, stdout);
        return CLI_OK;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return CLI_OK;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
        printf("ntidx %s\n", ntidx_version());
        return CLI_OK;
    }
    const cli_command *cmd = find_command(argv[1]);
    if (cmd)
        return cmd->run(argc - 1, argv + 1);
    cli_error("unknown command '%s'", argv[1]);
    usage(stderr);
    return CLI_USAGE;
}

int main(int argc, char **argv)
{
    /* whatever the command printed, a failed write to standard output is said, and fails it */
    cli_stdout_open();
    return cli_stdout_finish(run(argc, argv));
}
