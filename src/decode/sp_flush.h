/*
 * What a sequence point flushes: the rules in one place, for every reader of the definitions (the reader,
 * the index scan, slice through the index's walk of the definitions). Apart from definitions.h, which
 * includes it, so that the layers sealed off from the decoders' state (ops: src/check_layers.py) may
 * follow the same rules: it holds no state, only the bits and the function that sets them.
 *
 * Every sequence point ends the stacks and the label lists defined before it. A V6 one also ends, as its
 * flags say (the spec's SequencePointBlock flags, named NTIDX_SP_FLUSH_* in ntidx/writer.h, where the
 * writer takes them), the thread definitions (NTIDX_SP_FLUSH_THREADS: every thread index may be defined
 * again and counts its sequence numbers afresh) and the metadata (NTIDX_SP_FLUSH_METADATA: ids may be
 * defined again). Before V6 a sequence point has no flags: the bits of its place are not read. Flushes
 * take effect after the sequence point.
 */
#ifndef NTIDX_SP_FLUSH_H
#define NTIDX_SP_FLUSH_H

#include <stdint.h>

#include "ntidx/writer.h" /* NTIDX_SP_FLUSH_*: a sequence point's flags */

#define NTX_FLUSH_THREADS NTIDX_SP_FLUSH_THREADS   /* the flag's bit */
#define NTX_FLUSH_METADATA NTIDX_SP_FLUSH_METADATA /* the flag's bit */
#define NTX_FLUSH_STACKS (1u << 16)                /* every sequence point */
#define NTX_FLUSH_LABEL_LISTS (1u << 17)           /* every sequence point */

/* What a sequence point of these `flags` (as stored: the block's, or the index's copy) flushes: NTX_FLUSH_*. */
static inline uint32_t ntx_sp_flushes(uint32_t flags, int v6)
{
    return NTX_FLUSH_STACKS | NTX_FLUSH_LABEL_LISTS | (v6 ? flags & (NTX_FLUSH_THREADS | NTX_FLUSH_METADATA) : 0);
}

#endif
