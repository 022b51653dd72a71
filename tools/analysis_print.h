/*
 * How every analysis command (ntidx gc, and the ones to come) prints an
 * analysis's tables: --format jsonl, csv and json straight from the
 * library's generic tables (every column, named by the contract), and the
 * text tables for people, whose columns each command chooses.
 */
#ifndef NTIDX_TOOLS_ANALYSIS_PRINT_H
#define NTIDX_TOOLS_ANALYSIS_PRINT_H

#include <stdio.h>

#include <ntidx/analysis.h>

/* One column of a text table: the table column `key` under `header`, `width` characters, `decimals` digits
   after the point for doubles; or what `format` writes (then `key` may be NULL). */
typedef struct ap_text_column {
    const char *key;
    const char *header;
    int width;
    int decimals;
    void (*format)(const ntidx_analysis *a, size_t table, uint64_t row, char *buf, size_t n);
} ap_text_column;

/* The threads that format a table's rows (the command's --threads; 0: one per core). The output does not
   depend on it; format callbacks of text columns must be safe to call from several threads. */
void ap_set_threads(unsigned threads);
/* Rows of table `k` as JSON lines (one object per row; null for no value). */
int ap_jsonl(FILE *f, const ntidx_analysis *a, size_t k);
/* Table `k` as CSV: a header of column names, one line per row (empty for no value). */
int ap_csv(FILE *f, const ntidx_analysis *a, size_t k);
/* Every table and the statistics as one JSON document: {"analysis": NAME, TABLE: [rows...], ...,
   "stats": {...}}. */
int ap_json(FILE *f, const ntidx_analysis *a);
/* Table `k` as a text table of `cols` (right-aligned; "-" for no value). */
int ap_text_table(FILE *f, const ntidx_analysis *a, size_t k, const ap_text_column *cols, size_t ncols);
/* What was read and met, one line for people: events, field errors, unmatched, incomplete, bytes read. */
void ap_text_stats(FILE *f, const ntidx_analysis *a);

/* The index of the table named `name`, or -1. */
int ap_table_index(const ntidx_analysis *a, const char *name);
/* The value of column `key` in a row as a double (integers converted), NaN when missing or null. */
double ap_number(const ntidx_analysis *a, size_t k, uint64_t row, const char *key);
/* The value of a string column, "" when missing. A string the analysis makes per cell (an activity's ids)
   is valid until the fourth call after this one on the same thread (ntidx_analysis_cell_buf()). */
const char *ap_string(const ntidx_analysis *a, size_t k, uint64_t row, const char *key);

#endif
