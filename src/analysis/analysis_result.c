/*
 * The result of an analysis: named tables over the analysis's own data, and
 * what the driver counted. One generic view (columns, cells) serves every
 * client: the command's outputs, the Python frames, the SQL tables.
 *
 * A table may make some of its strings per cell (cell_text.h). For
 * ntidx_analysis_cell(), whose strings live as long as the analysis, they
 * are then kept, a block of KEPT_ROWS rows at a time: the first cell asked
 * in a block makes the strings of every row of the block, so that a whole
 * table read that way costs its text once, not an allocation per cell.
 * Blocks are published with a compare-and-swap: cells may be asked from
 * several threads at once.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_internal.h"
#include "cell_text.h"

#define MAX_TABLES 8
#define KEPT_ROWS 256
#define NOT_KEPT UINT32_MAX

typedef struct table {
    const char *name;
    const ntidx_column *columns;
    size_t ncolumns;
    uint64_t rows;
    ntx_cell_fn cell;
    ntx_cell_text_fn cell_text; /* instead of cell: a table that makes strings per cell */
    const void *data;
    /* cell_text: the strings ntidx_analysis_cell() made, per block of KEPT_ROWS rows (NULL: none yet). A
       block is the offsets of its strings, [row in block][string column], NOT_KEPT for a string the data
       holds, then their text. */
    _Atomic(char *) *kept;
    size_t nblocks;
    size_t nstrings;            /* the table's string columns */
    unsigned char slot[64];     /* column -> its index among the string columns */
} table;

struct ntidx_analysis {
    const char *name;
    int kind;
    void *data;
    void (*free_data)(void *);
    table tables[MAX_TABLES];
    size_t ntables;
    ntidx_analysis_stats stats;
};

int ntx_analysis_new(const char *name, int kind, void *data, void (*free_data)(void *), ntidx_analysis **out)
{
    ntidx_analysis *a = calloc(1, sizeof *a);
    if (!a) {
        *out = NULL;
        return NTIDX_E_NOMEM;
    }
    a->name = name;
    a->kind = kind;
    a->data = data;
    a->free_data = free_data;
    *out = a;
    return NTIDX_OK;
}

int ntx_analysis_add_table(ntidx_analysis *a, const char *name, const ntidx_column *columns, size_t ncolumns,
                           uint64_t rows, ntx_cell_fn cell, const void *data)
{
    if (a->ntables == MAX_TABLES)
        return NTIDX_E_INVALID_ARG; /* a programming error: raise MAX_TABLES */
    a->tables[a->ntables++] = (table){.name = name, .columns = columns, .ncolumns = ncolumns, .rows = rows,
                                      .cell = cell, .data = data};
    return NTIDX_OK;
}

int ntx_analysis_add_table_text(ntidx_analysis *a, const char *name, const ntidx_column *columns, size_t ncolumns,
                                uint64_t rows, ntx_cell_text_fn cell, const void *data)
{
    if (a->ntables == MAX_TABLES || ncolumns > sizeof a->tables[0].slot)
        return NTIDX_E_INVALID_ARG; /* a programming error: raise MAX_TABLES, or the slots */
    table tb = {.name = name, .columns = columns, .ncolumns = ncolumns, .rows = rows, .cell_text = cell,
                .data = data};
    for (size_t c = 0; c < ncolumns; c++)
        if (columns[c].type == NTIDX_COLUMN_STRING)
            tb.slot[c] = (unsigned char)tb.nstrings++;
    tb.nblocks = (size_t)((rows + KEPT_ROWS - 1) / KEPT_ROWS);
    if (tb.nblocks) {
        tb.kept = calloc(tb.nblocks, sizeof *tb.kept);
        if (!tb.kept)
            return NTIDX_E_NOMEM;
    }
    a->tables[a->ntables++] = tb;
    return NTIDX_OK;
}

/* Block b of table tb: the strings made for its rows, made now if no thread did. NULL: out of memory. */
static const char *kept_block(table *tb, size_t b)
{
    char *block = atomic_load_explicit(&tb->kept[b], memory_order_acquire);
    if (block)
        return block;
    uint64_t first = (uint64_t)b * KEPT_ROWS, end = first + KEPT_ROWS < tb->rows ? first + KEPT_ROWS : tb->rows;
    size_t noffsets = KEPT_ROWS * tb->nstrings;
    uint32_t *offsets = malloc(noffsets * sizeof *offsets);
    ntidx_buf text = {0};
    int rc = offsets ? 0 : NTIDX_E_NOMEM;
    for (uint64_t r = first; rc == 0 && r < end; r++)
        for (size_t c = 0; rc == 0 && c < tb->ncolumns; c++) {
            if (tb->columns[c].type != NTIDX_COLUMN_STRING)
                continue;
            char buf[NTIDX_CELL_BUF_SIZE];
            ntidx_table_cell v = {.type = NTIDX_COLUMN_STRING};
            rc = tb->cell_text(tb->data, r, c, &v, buf, sizeof buf);
            uint32_t *off = &offsets[(r - first) * tb->nstrings + tb->slot[c]];
            *off = NOT_KEPT;
            if (rc == 0 && v.s == buf && text.len < NOT_KEPT - sizeof buf) {
                *off = (uint32_t)text.len;
                rc = ntidx_buf_append(&text, buf, strlen(buf) + 1);
            }
        }
    size_t head = noffsets * sizeof *offsets;
    if (rc == 0 && !(block = malloc(head + text.len + 1)))
        rc = NTIDX_E_NOMEM;
    if (rc == 0) {
        memcpy(block, offsets, head);
        if (text.len)
            memcpy(block + head, text.data, text.len);
        char *none = NULL;
        if (!atomic_compare_exchange_strong_explicit(&tb->kept[b], &none, block, memory_order_acq_rel,
                                                     memory_order_acquire)) {
            free(block); /* another thread made it first: its block is the one */
            block = none;
        }
    }
    free(offsets);
    ntidx_buf_free(&text);
    return rc == 0 ? block : NULL;
}

void *ntx_analysis_data(const ntidx_analysis *a, int kind) { return a && a->kind == kind ? a->data : NULL; }

ntidx_analysis_stats *ntx_analysis_stats(ntidx_analysis *a) { return &a->stats; }

NTIDX_API const char *ntidx_analysis_name(const ntidx_analysis *a) { return a ? a->name : NULL; }

NTIDX_API const ntidx_analysis_stats *ntidx_analysis_get_stats(const ntidx_analysis *a) { return a ? &a->stats : NULL; }

NTIDX_API size_t ntidx_analysis_table_count(const ntidx_analysis *a) { return a ? a->ntables : 0; }

NTIDX_API int ntidx_analysis_table(const ntidx_analysis *a, size_t k, ntidx_table *out)
{
    if (!a || !out || k >= a->ntables)
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, "ntidx_analysis_table: %s",
                         !a || !out ? "NULL argument" : "no such table");
    const table *tb = &a->tables[k];
    *out = (ntidx_table){tb->name, tb->ncolumns, tb->columns, tb->rows};
    return NTIDX_OK;
}

NTIDX_API int ntidx_analysis_cell(const ntidx_analysis *a, size_t k, uint64_t row, size_t column, ntidx_table_cell *out)
{
    if (!a || !out)
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, "ntidx_analysis_cell: NULL argument");
    if (k >= a->ntables || row >= a->tables[k].rows || column >= a->tables[k].ncolumns)
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET,
                         "ntidx_analysis_cell: table %zu row %llu column %zu is out of range", k,
                         (unsigned long long)row, column);
    table *tb = (table *)&a->tables[k]; /* the kept strings are a cache: the analysis is const to the caller */
    memset(out, 0, sizeof *out);
    out->type = tb->columns[column].type;
    if (!tb->cell_text)
        return tb->cell(tb->data, row, column, out);
    char buf[NTIDX_CELL_BUF_SIZE];
    int rc = tb->cell_text(tb->data, row, column, out, buf, sizeof buf);
    if (rc < 0 || out->s != buf)
        return rc;
    /* a string made for the call: the kept copy, which lives as long as the analysis */
    const char *block = kept_block(tb, (size_t)(row / KEPT_ROWS));
    if (!block)
        return ntx_failf(NTIDX_E_NOMEM, NULL, NTIDX_NO_OFFSET, "ntidx_analysis_cell: out of memory");
    uint32_t off;
    memcpy(&off, block + ((row % KEPT_ROWS) * tb->nstrings + tb->slot[column]) * sizeof off, sizeof off);
    if (off == NOT_KEPT) /* never: the block made the same cell */
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, "ntidx_analysis_cell: a string not kept");
    out->s = block + KEPT_ROWS * tb->nstrings * sizeof off + off;
    return NTIDX_OK;
}

NTIDX_API int ntidx_analysis_cell_buf(const ntidx_analysis *a, size_t k, uint64_t row, size_t column,
                                      ntidx_table_cell *out, char *buf, size_t buflen)
{
    if (!a || !out || !buf)
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, "ntidx_analysis_cell_buf: NULL argument");
    if (buflen < NTIDX_CELL_BUF_SIZE)
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET,
                         "ntidx_analysis_cell_buf: a buffer of %zu bytes, below NTIDX_CELL_BUF_SIZE", buflen);
    if (k >= a->ntables || row >= a->tables[k].rows || column >= a->tables[k].ncolumns)
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET,
                         "ntidx_analysis_cell_buf: table %zu row %llu column %zu is out of range", k,
                         (unsigned long long)row, column);
    const table *tb = &a->tables[k];
    memset(out, 0, sizeof *out);
    out->type = tb->columns[column].type;
    return tb->cell_text ? tb->cell_text(tb->data, row, column, out, buf, buflen) : tb->cell(tb->data, row, column, out);
}

NTIDX_API void ntidx_analysis_free(ntidx_analysis **ap)
{
    if (!ap || !*ap)
        return;
    ntidx_analysis *a = *ap;
    for (size_t k = 0; k < a->ntables; k++) {
        for (size_t b = 0; b < a->tables[k].nblocks; b++)
            free(atomic_load(&a->tables[k].kept[b]));
        free(a->tables[k].kept);
    }
    if (a->free_data)
        a->free_data(a->data);
    free(a);
    *ap = NULL;
}
