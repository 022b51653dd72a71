/*
 * The result of an analysis: named tables over the analysis's own data, and
 * what the driver counted. One generic view (columns, cells) serves every
 * client: the command's outputs, the Python frames, the SQL tables.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis_internal.h"

#define MAX_TABLES 8

typedef struct table {
    const char *name;
    const ntidx_column *columns;
    size_t ncolumns;
    uint64_t rows;
    ntx_cell_fn cell;
    const void *data;
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
    a->tables[a->ntables++] = (table){name, columns, ncolumns, rows, cell, data};
    return NTIDX_OK;
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
    const table *tb = &a->tables[k];
    memset(out, 0, sizeof *out);
    out->type = tb->columns[column].type;
    return tb->cell(tb->data, row, column, out);
}

NTIDX_API void ntidx_analysis_free(ntidx_analysis **ap)
{
    if (!ap || !*ap)
        return;
    ntidx_analysis *a = *ap;
    if (a->free_data)
        a->free_data(a->data);
    free(a);
    *ap = NULL;
}
