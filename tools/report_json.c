/* The analyses' tables as the JSON of the report page (report_json.h). */
#include "report_json.h"

#include "double_text.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Integers a script's double holds exactly: |v| <= 2^53. */
#define EXACT_IN_DOUBLE (UINT64_C(1) << 53)

void report_json_string(FILE *f, const char *s)
{
    static ntidx_buf b; /* reused: a page holds many strings */
    b.len = 0;
    if (ntidx_buf_append_json_string(&b, s ? s : "", s ? strlen(s) : 0) < 0) {
        fputs("\"\"", f);
        return;
    }
    /* '<' appears in JSON only inside strings, where \u003c means the same character */
    const char *p = b.data, *end = b.data + b.len;
    while (p < end) {
        const char *lt = memchr(p, '<', (size_t)(end - p));
        size_t n = lt ? (size_t)(lt - p) : (size_t)(end - p);
        fwrite(p, 1, n, f);
        if (!lt)
            break;
        fputs("\\u003c", f);
        p = lt + 1;
    }
}

void report_json_double(FILE *f, double v)
{
    if (!isfinite(v)) {
        fputs("null", f);
        return;
    }
    char buf[DOUBLE_TEXT_MAX];
    double_text(buf, v);
    fputs(buf, f);
}

static const char *type_name(int type)
{
    switch (type) {
    case NTIDX_COLUMN_INT: return "int";
    case NTIDX_COLUMN_UINT: return "uint";
    case NTIDX_COLUMN_DOUBLE: return "double";
    case NTIDX_COLUMN_BOOL: return "bool";
    case NTIDX_COLUMN_STRING: return "string";
    }
    return "unknown";
}

static void put_cell(FILE *f, const ntidx_table_cell *v)
{
    if (v->is_null) {
        fputs("null", f);
        return;
    }
    switch (v->type) {
    case NTIDX_COLUMN_INT:
        if (v->i > (int64_t)EXACT_IN_DOUBLE || v->i < -(int64_t)EXACT_IN_DOUBLE)
            fprintf(f, "\"%" PRId64 "\"", v->i);
        else
            fprintf(f, "%" PRId64, v->i);
        break;
    case NTIDX_COLUMN_UINT:
        fprintf(f, v->u > EXACT_IN_DOUBLE ? "\"%" PRIu64 "\"" : "%" PRIu64, v->u);
        break;
    case NTIDX_COLUMN_BOOL:
        fputs(v->u ? "true" : "false", f);
        break;
    case NTIDX_COLUMN_DOUBLE:
        report_json_double(f, v->f);
        break;
    case NTIDX_COLUMN_STRING:
        report_json_string(f, v->s);
        break;
    default:
        fputs("null", f);
        break;
    }
}

static int put_table(FILE *f, const ntidx_analysis *a, size_t k, uint64_t max_rows)
{
    ntidx_table tb;
    if (ntidx_analysis_table(a, k, &tb) < 0)
        return -1;
    fputs("{\"name\":", f);
    report_json_string(f, tb.name);
    fputs(",\"columns\":[", f);
    for (size_t c = 0; c < tb.column_count; c++) {
        fputs(c ? ",{\"name\":" : "{\"name\":", f);
        report_json_string(f, tb.columns[c].name);
        fprintf(f, ",\"type\":\"%s\",\"description\":", type_name(tb.columns[c].type));
        report_json_string(f, tb.columns[c].description);
        fputc('}', f);
    }
    fputs("],\"rows\":[", f);
    uint64_t rows = tb.rows < max_rows ? tb.rows : max_rows;
    for (uint64_t r = 0; r < rows; r++) {
        fputs(r ? ",[" : "[", f);
        for (size_t c = 0; c < tb.column_count; c++) {
            ntidx_table_cell v;
            char text[NTIDX_CELL_BUF_SIZE]; /* a string the analysis makes for the cell (an activity's ids) */
            if (ntidx_analysis_cell_buf(a, k, r, c, &v, text, sizeof text) < 0)
                return -1;
            if (c)
                fputc(',', f);
            put_cell(f, &v);
        }
        fputc(']', f);
    }
    fprintf(f, "],\"row_count\":%" PRIu64 "}", tb.rows);
    return 0;
}

int report_json_analysis(FILE *f, const ntidx_analysis *a, uint64_t max_rows)
{
    fputs("{\"name\":", f);
    report_json_string(f, ntidx_analysis_name(a));
    fputs(",\"tables\":[", f);
    for (size_t k = 0; k < ntidx_analysis_table_count(a); k++) {
        if (k)
            fputc(',', f);
        if (put_table(f, a, k, max_rows) < 0)
            return -1;
    }
    const ntidx_analysis_stats *s = ntidx_analysis_get_stats(a);
    fprintf(f,
            "],\"stats\":{\"events\":%" PRIu64 ",\"field_errors\":%" PRIu64 ",\"unmatched\":%" PRIu64
            ",\"incomplete\":%" PRIu64 ",\"regions\":%" PRIu64 ",\"threads\":%u,\"bytes_read\":%" PRIu64
            ",\"event_blocks_read\":%" PRIu64 ",\"lookahead_events\":%" PRIu64 "}}",
            s->events, s->field_errors, s->unmatched, s->incomplete, s->regions, s->threads, s->bytes_read,
            s->event_blocks_read, s->lookahead_events);
    return 0;
}
