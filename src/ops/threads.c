/*
 * The threads a V6 trace defines, from its thread blocks alone.
 *
 * The index lists every thread block among the definitions; each is decoded
 * where it lies (ntx_index_each_thread(): the reader's own decoder), so
 * names and process ids are known without reading an event. What clients
 * show next to a thread id (the Python module's frames and statistics, the
 * SQL `threads` table). Rows are listed once per distinct definition, in
 * file order: a thread the trace defines again after a flush, with the same
 * ids and name, is listed once.
 */
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "index_tables.h"
#include "index_walk.h"
#include "ops_internal.h"
#include "ntidx/batch.h"

struct ntidx_thread_list {
    ntidx_thread *v;
    size_t n, cap;
    ntx_arena arena;
};

static int same_text(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

static int add_thread(void *ctx, const ntidx_thread *th)
{
    ntidx_thread_list *l = ctx;
    /* a flush defines the same threads again: a repeat of a row already listed adds nothing */
    for (size_t i = l->n; i-- > 0 && i + 64 >= l->n;) {
        const ntidx_thread *o = &l->v[i];
        if (o->index == th->index && o->has_os_thread_id == th->has_os_thread_id &&
            o->os_thread_id == th->os_thread_id && o->has_os_process_id == th->has_os_process_id &&
            o->os_process_id == th->os_process_id && same_text(o->name, th->name))
            return 0;
    }
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        ntidx_thread *nv = realloc(l->v, cap * sizeof *nv);
        if (!nv)
            return NTIDX_E_NOMEM;
        l->v = nv;
        l->cap = cap;
    }
    l->v[l->n++] = *th; /* the name is in the list's arena already (the decoder's) */
    return 0;
}

static int list_threads(ntidx_trace *t, const ntidx_index *x, ntidx_thread_list *l, ntx_err *err)
{
    return ntx_index_each_thread(t, x, &l->arena, add_thread, l, err);
}

static void free_list(ntidx_thread_list *l)
{
    if (!l)
        return;
    free(l->v);
    ntx_arena_free(&l->arena);
    free(l);
}

static ntidx_thread_list *new_list(void)
{
    ntidx_thread_list *l = calloc(1, sizeof *l);
    if (l)
        ntx_arena_init(&l->arena);
    return l;
}

NTIDX_API int ntidx_index_threads(ntidx_trace *t, const ntidx_index *x, ntidx_thread_list **out)
{
    if (out)
        *out = NULL;
    if (!t || !x || !out)
        return ntx_failf(NTIDX_E_INVALID_ARG, t ? ntidx_trace_name(t) : NULL, NTIDX_NO_OFFSET,
                         "ntidx_index_threads: NULL argument");
    ntidx_thread_list *l = new_list();
    if (!l)
        return ntx_failf(NTIDX_E_NOMEM, ntidx_trace_name(t), NTIDX_NO_OFFSET, "out of memory");
    ntx_err err = {0};
    int rc = list_threads(t, x, l, &err);
    if (rc < 0) {
        free_list(l);
        return ntx_fail(rc, rc == NTIDX_E_INDEX_CORRUPT ? ntx_index_name(x) : ntidx_trace_name(t), &err);
    }
    *out = l;
    return NTIDX_OK;
}

NTIDX_API size_t ntidx_thread_list_count(const ntidx_thread_list *l) { return l ? l->n : 0; }

NTIDX_API const ntidx_thread *ntidx_thread_list_at(const ntidx_thread_list *l, size_t i)
{
    return l && i < l->n ? &l->v[i] : NULL;
}

NTIDX_API void ntidx_thread_list_free(ntidx_thread_list **l)
{
    if (!l || !*l)
        return;
    free_list(*l);
    *l = NULL;
}
