/* The public calls on stacks: the walk over a stack block's stacks (ntidx_stack_block_stacks(): the reader's
   decoder, at the API's edge), and an event's stack as addresses. */
#include "definitions.h"
#include "error.h"
#include "le.h"
#include "trace_internal.h"

typedef struct walk {
    ntidx_stack_fn fn;
    void *ctx;
    int stopped_with; /* the client's non-zero return */
} walk;

/* The decoder stops on a negative return only: any non-zero value of the client's stops it here. */
static int each(void *ctx, uint32_t id, const uint8_t *ips, uint32_t size)
{
    walk *w = ctx;
    int rc = w->fn(w->ctx, id, ips, size);
    if (rc == 0)
        return 0;
    w->stopped_with = rc;
    return -1;
}

NTIDX_API int ntidx_stack_block_stacks(ntidx_trace *t, const ntidx_block *b, ntidx_stack_fn fn, void *ctx)
{
    if (!t || !b || !fn || b->kind != NTIDX_BLOCK_STACK)
        return ntx_failf(NTIDX_E_INVALID_ARG, t ? t->name : NULL, NTIDX_NO_OFFSET,
                         "ntidx_stack_block_stacks: NULL argument or not a stack block");
    walk w = {fn, ctx, 0};
    ntx_err err = {0};
    int rc = ntx_decode_stack_block(t, b, each, &w, &err);
    if (ntx_trace_faulted(t)) /* the stacks handed out may have been read from zeros (trace_internal.h) */
        return ntx_fail(ntx_trace_check(t, &err), t->name, &err);
    if (w.stopped_with)
        return w.stopped_with;
    if (rc < 0)
        return ntx_fail(rc, t->name, &err);
    return NTIDX_OK;
}

NTIDX_API size_t ntidx_event_stack_depth(const ntidx_trace *t, const ntidx_event *ev)
{
    if (!t || !ev || !ev->stack)
        return 0;
    return ev->stack_size / (t->info.pointer_size == 4 ? 4 : 8);
}

NTIDX_API uint64_t ntidx_event_stack_ip(const ntidx_trace *t, const ntidx_event *ev, size_t i)
{
    if (i >= ntidx_event_stack_depth(t, ev))
        return 0;
    return t->info.pointer_size == 4 ? ntx_load32(ev->stack + 4 * i) : ntx_load64(ev->stack + 8 * i);
}
