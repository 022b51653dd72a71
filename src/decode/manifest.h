/*
 * The .NET runtime's own events from its manifest (ClrEtwAll.man): names as
 * PerfView/TraceEvent show them ("GC/AllocationTick") and payload layouts,
 * for metadata rows that carry neither (the runtime writes an empty name and,
 * before V6, no field list). The tables are generated into manifest_tables.c
 * by tools/gen_manifest_tables.py; docs/runtime-events.md has the rules.
 *
 * Names and layouts are TraceEvent's, whatever the trace says, where its
 * parsers have a template for the event; elsewhere the trace's name and
 * field list stand and the manifest only fills what is missing.
 */
#ifndef NTIDX_MANIFEST_H
#define NTIDX_MANIFEST_H

#include <stddef.h>
#include <stdint.h>

#include "ntidx/ntidx.h"

/*
 * Field type codes ntidx uses internally for manifest layouts (the EventPipe
 * type codes have no equivalent). They appear in ntidx_metadata.fields of
 * rows the manifest filled; payload.c decodes them.
 */
enum {
    /* Unsigned integer of the trace's pointer size (4 or 8 bytes). */
    NTX_TYPE_POINTER = NTIDX_TYPE_POINTER,
    /* `element` repeated N times, N being the value of the earlier sibling
     * field whose index in the same field list is `element_count` (manifest
     * count="Field" and win:Binary length="Field"). */
    NTX_TYPE_COUNTED_ARRAY = NTIDX_TYPE_COUNTED_ARRAY,
    /* NUL-terminated 8-bit string (win:AnsiString). */
    NTX_TYPE_ANSI_STRING = NTIDX_TYPE_ANSI_STRING
};

/* A counted array may refer to one of the first NTX_MAX_COUNT_REF fields of its list. */
#define NTX_MAX_COUNT_REF 64

/* One (provider, event id, version) of the manifest. */
typedef struct ntx_manifest_event {
    uint8_t provider;           /* index into ntx_manifest_providers */
    uint8_t version;
    uint16_t event_id;
    uint16_t field_count;
    uint8_t no_layout;          /* the payload has no describable layout (named only) */
    uint8_t opcode;             /* the opcode of TraceEvent's template (the manifest's) */
    const char *name;           /* "Task/Opcode" as TraceEvent shows it; "" when TraceEvent has no template */
    const ntidx_field *fields;  /* field_count fields, or NULL */
} ntx_manifest_event;

extern const char *const ntx_manifest_providers[];
extern const size_t ntx_manifest_provider_count;
extern const ntidx_field ntx_manifest_fields[];
extern const size_t ntx_manifest_field_count;
extern const ntx_manifest_event ntx_manifest_events[]; /* sorted by provider, event id, version */
extern const size_t ntx_manifest_event_count;

/*
 * The manifest row for an event: the trace's version when the manifest knows
 * it, else the highest version below it (a newer runtime: the fields the
 * manifest knows come first, the rest stays undecoded). NULL when the
 * provider or event id is unknown, or the manifest knows only higher
 * versions; *name_only then receives the lowest version's row when the id
 * is known (its name still applies), else NULL. name_only may be NULL.
 */
const ntx_manifest_event *ntx_manifest_find(const char *provider, uint32_t event_id, uint32_t version,
                                            const ntx_manifest_event **name_only);

/*
 * Name and lay out a metadata row of the runtime's providers as TraceEvent
 * does: the table's name and layout where TraceEvent has a template (a named
 * row), else the trace's, the table filling only an empty name or field
 * list. The filled pointers are static tables (no allocation).
 */
void ntx_manifest_fill(ntidx_metadata *m);

/* 1 when `fields` is a layout from the manifest tables. */
int ntx_manifest_owns(const ntidx_field *fields);

#endif
