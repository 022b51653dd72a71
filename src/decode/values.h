/*
 * Payload decoding: one decoder (values.c) walks an event's payload by its
 * field layout and hands its values to a sink (values_sink.h): the typed
 * values of the public API (ntidx_values: a tree in pre-order, values_tree.h)
 * or the JSON/text formatter (fields_format.h). So the checks a payload
 * gets, and the error it fails with, are the same whichever way a client
 * reads it.
 */
#ifndef NTX_DECODE_VALUES_H
#define NTX_DECODE_VALUES_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "ntidx/ntidx.h"

/*
 * Decode the payload of `ev` into `v` (its earlier values go). Returns
 * NTIDX_OK (an event without a layout gives no values), NTIDX_E_PAYLOAD with
 * `err` saying which field, where and why (its offset: the field's byte in
 * the file), or NTIDX_E_NOMEM; on failure `v` holds no values.
 * ntx_values_used() then gives the payload bytes the layout accounted for.
 */
int ntx_values_walk(const ntidx_trace *t, const ntidx_event *ev, ntidx_values *v, ntx_err *err);

struct ntx_fmt;

/*
 * The same decode written as JSON or text by the formatter (fields_format.h: f's buffer, from f->mark,
 * where a decode that starts again goes back to). Same results and errors as ntx_values_walk(); on
 * failure what was written stays (the caller cuts it).
 */
int ntx_values_format(const ntidx_trace *t, const ntidx_event *ev, struct ntx_fmt *f, ntx_err *err);

/*
 * Whether m's layout may be read with one-byte booleans: it has a Boolean32
 * field (type code 3, at any depth) and comes from the trace, not from the
 * runtime's manifest (whose BOOLs are four bytes). .NET 10's EventSource
 * writes a bool as one byte in TraceLogging events (EventSource.Write; also
 * seen for WriteEvent of self-describing and manifest sources while an
 * EventListener listened too), as four bytes in manifest events otherwise,
 * under metadata that says Boolean either way, which the spec and TraceEvent
 * take as four bytes (TraceEvent reads the value from the first byte and lays
 * the next field out four bytes on: a bool that ends the payload reads
 * right; one before other fields misreads them). The
 * decoder reads such a layout with four-byte booleans first, and with
 * one-byte ones when the four-byte reading fails or leaves bytes over and
 * the one-byte reading accounts for the payload exactly.
 */
int ntx_layout_bool8_candidate(const ntidx_metadata *m);

/*
 * The fixed encoded size of a field's type, or -1 when it varies (strings, counted arrays, varints, and
 * objects or fixed arrays holding one): what RelLoc/DataLoc elements must have. V6 DateTime is a
 * SYSTEMTIME (16 bytes), a FILETIME (8) before; `ptr` sizes the manifest's pointers. Sizes saturate at
 * 2^40 (nested fixed arrays multiply).
 */
long ntx_field_fixed_size(const ntidx_field *f, int v6, uint32_t ptr, int depth);

/* The bytes of fields[0..n) when each has a fixed size (ntx_field_fixed_size()): 1 with *sum; 0 when one varies
   (*sum 0). What a manifest string left out leaves behind it (ntx_string_omitted()). */
int ntx_fields_fixed_size(const ntidx_field *f, uint32_t n, int v6, uint32_t ptr, uint64_t *sum);

/* Payload bytes the last successful decode accounted for (payload_size - used were left over: fields of a
   newer version than the layout knows; 0 without a layout). */
uint32_t ntx_values_used(const ntidx_values *v);

/* The plans of event types (a layout's top level compiled once) a tree handle or a thread's formatting keeps
   (values.c). */
typedef struct ntx_plans ntx_plans;
ntx_plans *ntx_plans_new(void);
void ntx_plans_free(ntx_plans *ps);
void ntx_plans_interpret_only(ntx_plans *ps, int on);

/* 1: `v` decodes every payload with the interpreter alone, never by a plan (what tests hold the plans
   against: the values and errors must be the same). */
void ntx_values_interpret_only(ntidx_values *v, int on);

/* The same for the formatter, on the calling thread (ntidx_event_fields_json/text()). */
void ntx_values_format_interpret_only(int on);

/* Whether `v` is one of the values `t` holds now. */
int ntx_values_owns(const ntidx_values *t, const ntidx_value *v);

/* A GUID's 36 characters as ntidx_guid_format() writes them (no NUL): Data1-3 little-endian, then the 8 bytes
   as stored, lowercase hex (fields_format.c). */
void ntx_guid_chars(const uint8_t g[16], char out[36]);

#endif
