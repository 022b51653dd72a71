/*
 * What every analysis command (ntidx gc, jit, cpu, exceptions, alloc,
 * contention, activities) does around its analysis: the window and the
 * shared options into ntidx_analysis_options, the analysis run again over a
 * rebuilt index when a region fails its check, and the chosen table written
 * in the chosen --format. Each command keeps only what is its own: its
 * extra options, which table a flag picks, and its text tables.
 */
#ifndef NTIDX_TOOLS_ANALYSIS_CMD_H
#define NTIDX_TOOLS_ANALYSIS_CMD_H

#include <ntidx/analysis.h>

#include "cli.h"

/* The window, --threads, --thread and --lookahead (where the command has it) of `c` into `o`. CLI_GO_ON, or
   the command's exit code (usage error, cli_end() done). */
int cli_analysis_options(cli_ctx *c, ntidx_analysis_options *o);

/* The registry's analysis `name` over `o`, again over a rebuilt index when the index is found corrupt
   (cli_recover()). CLI_GO_ON with *out set, or the command's exit code (error said, cli_end() done). */
int cli_analysis_run(cli_ctx *c, const char *name, const ntidx_analysis_options *o, ntidx_analysis **out);

/* Table `table` of *a as --format says (json: every table); text: text(a, text_ctx). Frees *a; returns the
   command's exit code (cli_end() done; a failed write to standard output is said by main()). */
int cli_analysis_write(cli_ctx *c, ntidx_analysis **a, const char *table,
                       int (*text)(const ntidx_analysis *a, const void *ctx), const void *text_ctx);

#endif
