/*
 * Answers of the symbolizer kept by address (ops_internal.h): the frames of
 * one stack repeat in the next (a thread sampled again in the same loop, the
 * exceptions of one thrower with other messages), and a lookup is a binary
 * search and a scan back. An answer is kept with the times it holds for
 * (ntx_symbolizer_lookup_span()): asked at a time outside them, the address
 * is looked up again. Direct-mapped by the address's hash: a slot holds the
 * last address that fell in it.
 */
#include <stdlib.h>

#include "ntidx/symbols.h"
#include "ops_internal.h"

#define MEMO_BITS 12

typedef struct memo_slot {
    uint64_t ip, from, to; /* the answer holds at ts in [from, to); to == 0: an empty slot */
    ntidx_symbol s;
} memo_slot;

struct ntx_symbol_memo {
    memo_slot at[1u << MEMO_BITS];
};

ntx_symbol_memo *ntx_symbol_memo_new(void) { return calloc(1, sizeof(ntx_symbol_memo)); }

void ntx_symbol_memo_free(ntx_symbol_memo *m) { free(m); }

const ntidx_symbol *ntx_symbol_memo_lookup(ntx_symbol_memo *m, const ntidx_symbolizer *sym, uint64_t ip, uint64_t ts,
                                           ntidx_symbol *scratch, uint64_t *from, uint64_t *to)
{
    memo_slot *slot = &m->at[(ip * 0x9E3779B97F4A7C15ull) >> (64 - MEMO_BITS)];
    if (slot->to && slot->ip == ip && ts >= slot->from && ts < slot->to) {
        *from = slot->from;
        *to = slot->to;
        return &slot->s;
    }
    ntx_symbolizer_lookup_span(sym, ip, 0, ts, scratch, from, to);
    if (*to <= *from) /* an answer for ts alone: not kept */
        return scratch;
    slot->ip = ip;
    slot->from = *from;
    slot->to = *to;
    slot->s = *scratch; /* its strings are the symbolizer's, which outlives the memo */
    return &slot->s;
}
