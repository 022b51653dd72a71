/*
 * Tables whose strings are made when a cell is asked (analysis_result.c).
 * An activity's ids and path are 16 bytes each as the analysis keeps them
 * and ~150 bytes as text; a big trace has millions of activities, so the
 * text is made per cell: into the caller's buffer for
 * ntidx_analysis_cell_buf(), and kept in the analysis, a block of rows at a
 * time, for ntidx_analysis_cell(), whose strings live as long as the
 * analysis.
 *
 * (Its own header because analysis_internal.h declares the rest of the
 * result's calls; this adds a table kind beside ntx_analysis_add_table().)
 */
#ifndef NTX_CELL_TEXT_H
#define NTX_CELL_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "ntidx/analysis.h"

/* As ntx_cell_fn, and a string the cell makes is written into buf (n >= NTIDX_CELL_BUF_SIZE) with out->s
   pointing at it; a string the data holds is pointed at in place. */
typedef int (*ntx_cell_text_fn)(const void *data, uint64_t row, size_t column, ntidx_table_cell *out, char *buf,
                                size_t n);

/* Add a table whose columns are static and whose strings may be made per cell. */
int ntx_analysis_add_table_text(ntidx_analysis *a, const char *name, const ntidx_column *columns, size_t ncolumns,
                                uint64_t rows, ntx_cell_text_fn cell, const void *data);

#endif
