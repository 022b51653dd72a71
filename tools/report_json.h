/*
 * The data of `ntidx report`'s page: the analyses' tables as JSON, read by
 * the page's script (tools/report/report.js). Every table of an analysis is
 * written whole through the generic table API (ntidx_analysis_table(),
 * ntidx_analysis_cell()), so an analysis added to the command brings its
 * tables to the page with no code here:
 *
 *   {"name": "gc",
 *    "tables": [{"name": "gc", "columns": [{"name", "type", "description"}...],
 *                "rows": [[v, v, ...], ...], "row_count": N}, ...],
 *    "stats": {"events": ..., "field_errors": ..., ...}}
 *
 * A cell is a JSON number, string, boolean or null (no value, or a double
 * that is not finite); an integer past 2^53, which a script's number would
 * round, is a string of its digits. Rows past `max_rows` are left out
 * (row_count says how many there were). The text goes inside a <script>
 * element: every '<' is written as \u003c, so no string from a trace can
 * close it.
 */
#ifndef NTIDX_TOOLS_REPORT_JSON_H
#define NTIDX_TOOLS_REPORT_JSON_H

#include <stdint.h>
#include <stdio.h>

#include <ntidx/analysis.h>

/* A JSON string literal of `s` (invalid UTF-8 becomes U+FFFD), safe inside <script>. */
void report_json_string(FILE *f, const char *s);

/* A number as JSON: the shortest decimal that reads back as `v`; null when not finite. */
void report_json_double(FILE *f, double v);

/* The analysis as the object above. Returns 0, or -1 when the library refused a cell (the message in
   ntidx_last_error()). */
int report_json_analysis(FILE *f, const ntidx_analysis *a, uint64_t max_rows);

#endif
