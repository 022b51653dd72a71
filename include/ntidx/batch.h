/*
 * ntidx columnar batches: the events of a query as arrays, many at a time.
 *
 * A batch runs a query (index.h: a window, filters, a set of regions) and
 * writes each event into columns: one array per attribute (timestamps,
 * event types, threads, capture threads, sequence numbers, stack ids, file
 * offsets, processors, payload sizes) and, on request, one column per
 * payload field, named by the caller. Nothing is made per event: the event
 * type is a small integer into the batch's type table (provider, event id,
 * name, version: one row per distinct type), and every text a field column
 * holds (strings, GUIDs, times, nested values as JSON) is a number into the
 * batch's string table, which keeps each distinct text once. This is what
 * bindings build data frames from (tools/python) and what a column store
 * would load.
 *
 * Two ways to receive the rows:
 *  - ntidx_batch_fill(): the caller owns the arrays (say, the growing
 *    columns of a data frame) and the batch writes up to `capacity` rows
 *    into them; a column whose pointer is NULL is not written;
 *  - ntidx_batch_next(): the batch owns the arrays and hands out up to
 *    `rows` rows at a time, valid until the next call.
 *
 * Payload fields go through the typed values (ntidx_values_decode(), so the
 * same checks and the same runtime manifest layouts as everywhere): a field
 * column holds, per row, the kind of the top-level value of that name
 * (NTIDX_BATCH_MISSING when the event has no such field or its payload does
 * not fit its metadata) and an ntidx_cell:
 *
 *   kind                              cell
 *   NTIDX_VALUE_BOOL, NTIDX_VALUE_UINT u
 *   NTIDX_VALUE_INT                   i
 *   NTIDX_VALUE_FLOAT                 f
 *   NTIDX_VALUE_STRING                str: the text (UTF-8, made valid by the library's one policy:
 *                                     each byte that is not valid UTF-8 becomes U+FFFD)
 *   NTIDX_VALUE_GUID, TIME, DECIMAL   str: the text ntidx_event_fields_json() writes for it, without
 *                                     its quotes ("2021-03-04T05:06:07.5000000Z", a GUID's .NET form)
 *   NTIDX_VALUE_ARRAY, OBJECT         str: the value as JSON, as ntidx_event_fields_json() writes it
 *   NTIDX_VALUE_NULL                  (an EMPTY field: no value)
 *
 * A payload that does not fit its metadata gives MISSING in every field
 * column and, in the `field_error` column, the number of its message in the
 * string table (0 in the rows of events whose payload was read, or not
 * needed).
 *
 * Thread safety: a batch is used by one thread at a time (it holds a query);
 * any number of batches may run over one trace and index at once.
 *
 * Bytes allocated per type, from the runtime's GC/AllocationTick events (a
 * type name is a number of the batch's string table: an index into an array):
 * @code
 *   ntidx_query_options qo; ntidx_query_options_defaults(&qo);
 *   qo.event_name = "GC/AllocationTick";
 *   const char *names[] = {"TypeName", "AllocationAmount64"};
 *   ntidx_batch_options bo; ntidx_batch_options_defaults(&bo);
 *   bo.fields = names; bo.field_count = 2;
 *   ntidx_batch *b;
 *   if (ntidx_batch_open(t, x, &qo, &bo, &b) < 0) { report(ntidx_last_error()); return 1; }
 *   const ntidx_columns *c; size_t n; int rc;
 *   uint64_t *bytes_by_type = NULL, types = 0;   // [string number] = bytes
 *   while ((rc = ntidx_batch_next(b, &c, &n)) == 1) {
 *       uint64_t now = ntidx_batch_string_count(b) + 1;   // the table grows as names come
 *       uint64_t *grown = realloc(bytes_by_type, now * sizeof *grown);
 *       if (!grown) { rc = NTIDX_E_NOMEM; break; }
 *       memset(grown + types, 0, (now - types) * sizeof *grown);
 *       bytes_by_type = grown, types = now;
 *       for (size_t i = 0; i < n; i++)
 *           if (c->fields[0].kind[i] == NTIDX_VALUE_STRING && c->fields[1].kind[i] == NTIDX_VALUE_UINT)
 *               bytes_by_type[c->fields[0].cell[i].str] += c->fields[1].cell[i].u;
 *   }
 *   if (rc < 0) report(rc == NTIDX_E_NOMEM ? "out of memory" : ntidx_last_error());
 *   for (uint64_t id = 1; id < types; id++) {
 *       size_t len;
 *       const char *name = ntidx_batch_string(b, id, &len);
 *       if (bytes_by_type[id]) printf("%.*s %llu\n", (int)len, name, (unsigned long long)bytes_by_type[id]);
 *   }
 *   free(bytes_by_type);
 *   ntidx_batch_close(&b);
 * @endcode
 */
#ifndef NTIDX_BATCH_H
#define NTIDX_BATCH_H

#include "index.h"
#include "stats.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ntidx_batch ntidx_batch;

/** The kind of a field cell when the event has no such field (or its payload could not be read). */
#define NTIDX_BATCH_MISSING 255

/** One cell of a payload field column: which member holds the value is the row's kind (see above). */
typedef union ntidx_cell {
    int64_t i;
    uint64_t u;
    double f;
    uint64_t str; /**< a number of the batch's string table (ntidx_batch_string()), from 1 */
} ntidx_cell;

/** A payload field's column: `kind[row]` (an ntidx_value_kind or NTIDX_BATCH_MISSING) and `cell[row]`. */
typedef struct ntidx_field_column {
    uint8_t *kind;
    ntidx_cell *cell;
} ntidx_field_column;

/**
 * Columns to fill (ntidx_batch_fill(): the caller's arrays, each with room
 * for `capacity` rows, NULL for a column not wanted) or filled
 * (ntidx_batch_next(): the batch's, every column present).
 */
typedef struct ntidx_columns {
    size_t capacity;           /**< rows each array has room for */
    uint64_t *timestamp;       /**< raw ticks */
    uint32_t *type;            /**< the row of the type table (ntidx_batch_type_at()) */
    uint64_t *thread;          /**< OS thread id where the trace gives one, else the thread index (as ntidx_event.thread_id) */
    uint64_t *capture_thread;  /**< the same for the capture thread */
    uint32_t *sequence;        /**< sequence number (0 in V3) */
    uint32_t *stack_id;        /**< 0: no stack */
    uint64_t *offset;          /**< file offset of the event's header */
    uint32_t *processor;       /**< processor number */
    uint32_t *payload_size;    /**< payload bytes */
    uint64_t *field_error;     /**< string number of the reason a payload could not be read, 0 when none */
    /** Payload field columns, in the order of ntidx_batch_field_name(); `field_capacity` of them. */
    ntidx_field_column *fields;
    size_t field_capacity;
    uint64_t reserved[4];      /**< zero */
} ntidx_columns;

/** One event type of a batch: a row of its type table. Strings live as long as the batch. */
typedef struct ntidx_batch_type {
    const char *provider;
    const char *event_name;    /**< as ntidx_metadata.event_name ("EventID(N)" when nothing names the event) */
    uint32_t event_id;
    uint32_t version;
    uint32_t level;
    int opcode;                /**< -1 when the metadata gives none */
    uint64_t keywords;
    uint64_t reserved[2];
} ntidx_batch_type;

typedef struct ntidx_batch_options {
    /** Payload fields to add as columns, by their top-level name (exact match), in this order. */
    const char *const *fields;
    size_t field_count;
    /** 1: every top-level field name the events have becomes a column, after those named, in the order
        met. ntidx_batch_fill() stops before an event that brings a name beyond the caller's
        field_capacity (it returns the rows so far; give room for ntidx_batch_field_count() columns and
        call again), and the rows before a column appeared are MISSING in it. */
    int all_fields;
    /** Rows per ntidx_batch_next() (0: 65536). */
    size_t rows;
    uint64_t reserved[6];      /**< zero (see Conventions in ntidx.h) */
} ntidx_batch_options;

NTIDX_API void ntidx_batch_options_defaults(ntidx_batch_options *o);

/**
 * A batch over the events ntidx_query_open(t, x, q) returns, in its order
 * (a corrupt region of a lazily checked index is NTIDX_E_INDEX_CORRUPT:
 * ntidx_index_recover(), then ntidx_batch_resume() goes on without
 * repeating or losing an event).
 * @param q  the query (NULL: every event, time order); its strings and
 *           region list are copied
 * @param o  NULL: no field columns
 * @return NTIDX_OK; NTIDX_E_INVALID_ARG; NTIDX_E_NOMEM; ntidx_query_open()'s errors.
 * @note trace and index must outlive the batch.
 */
NTIDX_NODISCARD NTIDX_API int ntidx_batch_open(ntidx_trace *t, const ntidx_index *x, const ntidx_query_options *q,
                                               const ntidx_batch_options *o, ntidx_batch **out);

/**
 * Write up to cols->capacity of the next events into the caller's arrays.
 * @param rows  receives the rows written (0 at the end)
 * @return 1 rows were written, 0 the end, < 0 an error (ntidx_last_error(); the rows before it were
 *         written and counted in *rows).
 */
NTIDX_NODISCARD NTIDX_API int ntidx_batch_fill(ntidx_batch *b, const ntidx_columns *cols, size_t *rows);

/**
 * The next events in the batch's own arrays (at most the options' `rows`), valid until the next call
 * on the batch. @return as ntidx_batch_fill().
 */
NTIDX_NODISCARD NTIDX_API int ntidx_batch_next(ntidx_batch *b, const ntidx_columns **cols, size_t *rows);

/**
 * Go on with a batch that failed with NTIDX_E_INDEX_CORRUPT over `x`, the
 * index ntidx_index_recover() rebuilt: its query goes on from where it
 * stopped (ntidx_query_resume()), its tables (types, strings, field
 * columns) stay as they are, and the next fill gives the next rows, none
 * repeated or lost. From then on the batch uses `x`, which must outlive it.
 * @return NTIDX_OK; NTIDX_E_INVALID_ARG; ntidx_query_resume()'s errors (the
 *         batch then stays failed).
 */
NTIDX_NODISCARD NTIDX_API int ntidx_batch_resume(ntidx_batch *b, const ntidx_index *x);

/** Rows of the type table so far (it grows as new types appear). */
NTIDX_API size_t ntidx_batch_type_count(const ntidx_batch *b);
/** Row `i` of the type table (NULL past the end); valid as long as the batch. */
NTIDX_API const ntidx_batch_type *ntidx_batch_type_at(const ntidx_batch *b, size_t i);

/** Field columns so far: those named, and with all_fields those met. */
NTIDX_API size_t ntidx_batch_field_count(const ntidx_batch *b);
/** The name of field column `i` (NULL past the end). */
NTIDX_API const char *ntidx_batch_field_name(const ntidx_batch *b, size_t i);

/** Strings in the table so far (their numbers run from 1 to this count). */
NTIDX_API uint64_t ntidx_batch_string_count(const ntidx_batch *b);
/** String number `id` (NULL for 0 or past the end), NUL-terminated; *len (optional) its bytes. Valid as long as the batch. */
NTIDX_API const char *ntidx_batch_string(const ntidx_batch *b, uint64_t id, size_t *len);

/** The query's counters (ntidx_query_get_stats()). */
NTIDX_API const ntidx_query_stats *ntidx_batch_query_stats(const ntidx_batch *b);

/** Free. Accepts NULL and *b == NULL; sets *b to NULL. */
NTIDX_API void ntidx_batch_close(ntidx_batch **b);

/* The event types of a trace (ntidx_type_list, ntidx_index_types()) are declared in stats.h. */

/* ------------------------------------------------------------------ */
/* The threads of a trace                                              */
/* ------------------------------------------------------------------ */

typedef struct ntidx_thread_list ntidx_thread_list;

/**
 * Every thread a V6 trace defines (its thread blocks, which the index lists
 * among the definitions), with its OS thread and process ids and its name
 * where the trace gives them, read from those blocks alone (no event is
 * decoded): what a client shows beside a thread id (names in statistics and
 * data frames). A definition repeated after a flush is listed once; a
 * thread defined again with another name is listed once per name, in file
 * order (the last is the latest). Traces before V6 define no threads: the
 * list is empty.
 * @return NTIDX_OK; NTIDX_E_NOMEM; NTIDX_E_CORRUPT (a thread block that
 *         cannot be read: the message names its offset); NTIDX_E_INDEX_CORRUPT
 *         (a region of a lazily checked index failed its check:
 *         ntidx_index_recover(), then list again over the new index).
 */
NTIDX_NODISCARD NTIDX_API int ntidx_index_threads(ntidx_trace *t, const ntidx_index *x, ntidx_thread_list **out);

/** Threads listed, in the order the trace defines them. */
NTIDX_API size_t ntidx_thread_list_count(const ntidx_thread_list *l);
/** Thread `i` (NULL past the end): `index`, OS ids (when has_os_*), `name` (NULL when not given). Valid as long
    as the list. */
NTIDX_API const ntidx_thread *ntidx_thread_list_at(const ntidx_thread_list *l, size_t i);
NTIDX_API void ntidx_thread_list_free(ntidx_thread_list **l);

/* ------------------------------------------------------------------ */
/* Names that name nothing                                             */
/* ------------------------------------------------------------------ */

/** What a name is the name of (ntidx_type_list_closest()). */
typedef enum ntidx_name_kind {
    NTIDX_NAME_PROVIDER = 1, /**< a provider: compared without regard to ASCII case */
    NTIDX_NAME_EVENT = 2     /**< an event, as ntidx_metadata_matches_name() takes it */
} ntidx_name_kind;

/**
 * The names of the list closest to `name`, for "did you mean" messages,
 * best first: names that hold it or that it holds (without regard to ASCII
 * case, the nearer in length first), then those a few edits away
 * (insertions, deletions, substitutions and swaps of neighbouring
 * characters, without regard to case; at most a third of the longer name,
 * and at least 2), the nearer first; ties in the list's order. A name equal
 * to `name` but for case comes first. Names farther away are not given.
 *
 * Providers are given as the trace spells them. Events by the names
 * ntidx_metadata_matches_name() takes: the event's name ("GC/AllocationTick";
 * "EventID(N)" for a type without one), or "Provider/Name" when `name`
 * starts with one of the list's providers and a slash; with `provider`
 * (NULL: any) only that provider's events (compared without regard to case).
 *
 * @param out  the names, each followed by a NUL byte, appended
 * @return how many names were appended (at most `max`); NTIDX_E_NOMEM;
 *         NTIDX_E_INVALID_ARG (NULL list, name or out; an unknown kind).
 */
NTIDX_NODISCARD NTIDX_API int ntidx_type_list_closest(const ntidx_type_list *l, ntidx_name_kind kind, const char *name,
                                                      const char *provider, size_t max, ntidx_buf *out);

/**
 * Whether the name filters of a query name anything the trace defines: its
 * provider (compared without regard to ASCII case, as EventPipe and
 * dotnet-trace compare them), its event name (as the query matches it) and
 * its event id, together. When no type of the trace answers to all of
 * them, the answer is empty whatever the window, and probably a mistake (a
 * misspelt name): a message saying which filter names nothing, with the
 * closest names of the trace (ntidx_type_list_closest()), is appended to
 * `msg`, in the words the command line, the Python module and the SQL
 * tables all print:
 *
 *   no provider 'Microsoft-Windows-DotNetRuntme' in the trace (closest: Microsoft-Windows-DotNETRuntime)
 *   no event 'GC/AllocTick' in the trace (closest: GC/AllocationTick)
 *   no event 'Thread/Sample' of provider 'Microsoft-Windows-DotNETRuntime' in the trace (...)
 *
 * The thread filter and the window are not looked at. The types come from
 * the definition blocks the index lists (ntidx_index_types()); the types
 * only V6 label lists make, whose listing may read every event header, are
 * listed only when the definitions do not answer. Clients call it when a
 * query with name filters found nothing, or before it to refuse such a
 * query (Python's strict=True).
 * @return 0 when some type answers to every filter (also when none is
 *         given); 1 when none does (the message appended); NTIDX_E_NOMEM;
 *         ntidx_index_types()'s errors.
 */
NTIDX_NODISCARD NTIDX_API int ntidx_index_check_names(ntidx_trace *t, const ntidx_index *x,
                                                      const ntidx_query_options *o, ntidx_buf *msg);

#ifdef __cplusplus
}
#endif

#endif /* NTIDX_BATCH_H */
