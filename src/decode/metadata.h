/*
 * Metadata rows: the event types. Two encodings: the V3-V5 "event blob"
 * payload (UTF-16 strings, V1 field list, V5 tags incl. V2Params) and the
 * V6 row. Both produce an ntidx_metadata allocated in the caller's arena.
 */
#ifndef NTIDX_METADATA_H
#define NTIDX_METADATA_H

#include "arena.h"
#include "cursor.h"
#include "error.h"
#include "ntidx/ntidx.h"

/* Nesting deeper than this is refused: it bounds recursion on hostile input. */
#define NTX_MAX_FIELD_DEPTH 16

/*
 * Parse a V3-V5 metadata payload of `len` bytes at file offset `off`.
 * *v5_tags is set to 1 when the payload carries V5 metadata tags.
 */
int ntx_metadata_parse_blob(ntx_arena *a, const uint8_t *base, uint64_t off, uint32_t len, ntidx_metadata **out,
                            int *v5_tags, ntx_err *err);

/* Parse one V6 metadata row at the cursor (uint16 Size + row). */
int ntx_metadata_parse_v6_row(ntx_arena *a, ntx_cur *c, ntidx_metadata **out, ntx_err *err);

/* A copy of `m` in the arena (layouts of the manifest are static: kept). 0, NTIDX_E_NOMEM, or
   NTIDX_E_INVALID_ARG for a field tree deeper than any trace can give (metadata_copy.c). */
int ntx_metadata_copy_into(ntx_arena *a, const ntidx_metadata *m, ntidx_metadata *out);

struct ntx_label_overrides;

/*
 * The row an event of `base` is, once its V6 label list overrides the opcode, version, level or
 * keywords (`o`): a copy of base in the arena with those values, named as TraceEvent names such an
 * event (its name for the event's opcode, when that differs from its template's), its layout
 * re-filled from the manifest for the version when the manifest gave it, and label_overrides saying
 * what changed the name (the opcode) or the version.
 */
int ntx_metadata_derive(ntx_arena *a, const ntidx_metadata *base, const struct ntx_label_overrides *o,
                        ntidx_metadata **out);

/*
 * A key for caches of facts per event type: the definition's offset, or for a row derived by label
 * overrides (ntx_metadata_derive), the offset with the overrides that change the name or version,
 * tagged in bit 63 (offsets below 2^45 keep keys apart).
 */
static inline uint64_t ntx_metadata_key(const ntidx_metadata *m) { return ntidx_metadata_key(m); }


#endif
