/* Placeholder while tools/cmd_gen.c is being written; removed when it lands. */
#include "cli.h"
int ntidx_cmd_gen(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_error("gen: not built yet");
    return CLI_FAIL;
}
