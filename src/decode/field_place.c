/* Where a top-level field lies in every payload of its type (field_place.h). */
#include "field_place.h"

#include <string.h>

#include "manifest.h"
#include "utf.h"
#include "values.h"

/* The integer kinds read in place, by type code: their size (0: not one of them) and sign. The pointer's size
   is the trace's. */
static int int_kind(uint8_t code, uint32_t ptr, uint8_t *size, uint8_t *kind)
{
    switch (code) {
    case NTIDX_TYPE_SBYTE: *size = 1; *kind = NTX_PLACE_INT; return 1;
    case NTIDX_TYPE_BYTE: *size = 1; *kind = NTX_PLACE_UINT; return 1;
    case NTIDX_TYPE_INT16: *size = 2; *kind = NTX_PLACE_INT; return 1;
    case NTIDX_TYPE_UINT16: *size = 2; *kind = NTX_PLACE_UINT; return 1;
    case NTIDX_TYPE_INT32: *size = 4; *kind = NTX_PLACE_INT; return 1;
    case NTIDX_TYPE_UINT32: *size = 4; *kind = NTX_PLACE_UINT; return 1;
    case NTIDX_TYPE_INT64: *size = 8; *kind = NTX_PLACE_INT; return 1;
    case NTIDX_TYPE_UINT64: *size = 8; *kind = NTX_PLACE_UINT; return 1;
    case NTX_TYPE_POINTER: *size = (uint8_t)ptr; *kind = NTX_PLACE_UINT; return 1;
    default: return 0;
    }
}

/* The trace's encoding the layouts' sizes depend on: V6 (its DateTime) and the pointer's size. */
static void encoding_of(const ntidx_trace *t, int *v6, uint32_t *ptr)
{
    const ntidx_trace_info *info = ntidx_trace_get_info(t);
    *v6 = info->format_version == 6;
    *ptr = info->pointer_size == 4 ? 4 : 8;
}

void ntx_field_place_of(const ntidx_trace *t, const ntidx_metadata *m, const char *name, ntx_field_place *out)
{
    memset(out, 0, sizeof *out);
    if (!t || !m || !m->fields || !name)
        return;
    int v6;
    uint32_t ptr;
    encoding_of(t, &v6, &ptr);
    /* A layout the trace gives with a Boolean may hold one-byte booleans (ntx_layout_bool8_candidate()): what
       follows one has no fixed place. */
    int bool8 = ntx_layout_bool8_candidate(m), manifest = ntx_manifest_owns(m->fields);
    uint64_t off = 0;
    for (uint32_t i = 0; i < m->field_count; i++) {
        const ntidx_field *f = &m->fields[i];
        if (f->name && !strcmp(f->name, name)) {
            if (off > UINT32_MAX)
                break;
            out->off = (uint32_t)off;
            if (int_kind(f->type_code, ptr, &out->size, &out->kind))
                return;
            if (f->type_code == NTIDX_TYPE_DOUBLE || f->type_code == NTIDX_TYPE_SINGLE) {
                out->kind = NTX_PLACE_FLOAT;
                out->size = f->type_code == NTIDX_TYPE_DOUBLE ? 8 : 4;
                return;
            }
            if (f->type_code != NTIDX_TYPE_UTF16_STRING)
                break; /* NONE: decoded */
            out->kind = NTX_PLACE_UTF16Z;
            /* the decoder's rule for strings a runtime left out (ntx_string_omitted()) */
            uint64_t sum;
            if (manifest && ntx_fields_fixed_size(f + 1, m->field_count - i - 1, v6, ptr, &sum) && sum <= UINT32_MAX) {
                out->omissible = 1;
                out->rest = (uint32_t)sum;
            }
            return;
        }
        if (f->type_code == NTIDX_TYPE_UTF16_STRING) {
            /* a string before it: skipped by its terminator; but not one the runtime may leave out (only the
               last string, with fixed fields after it, may be: then what follows moves by whether it is there) */
            int last = 1;
            for (uint32_t k = i + 1; k < m->field_count && last; k++)
                last = m->fields[k].type_code != NTIDX_TYPE_UTF16_STRING;
            if ((manifest && last) || out->nskip == NTX_PLACE_SKIP || off > UINT32_MAX)
                break;
            out->gap[out->nskip++] = (uint32_t)off;
            off = 0;
            continue;
        }
        long s = ntx_field_fixed_size(f, v6, ptr, 0);
        if (s < 0 || (bool8 && f->type_code == NTIDX_TYPE_BOOLEAN32) || f->type_code == NTX_TYPE_COUNTED_ARRAY)
            break; /* what follows has no fixed place */
        if (f->type_code == NTIDX_TYPE_OBJECT || f->type_code == NTIDX_TYPE_FIXED_ARRAY)
            break; /* fixed, but their insides are the interpreter's (one-byte booleans among them) */
        off += (uint64_t)s;
    }
    memset(out, 0, sizeof *out); /* NONE */
}

int ntx_field_place_skip(const ntx_field_place *p, const ntidx_event *ev, uint64_t *at)
{
    uint64_t q = 0;
    const uint8_t *end = ev->payload + ev->payload_size;
    for (uint32_t i = 0; i < p->nskip; i++) {
        q += p->gap[i];
        if (q > ev->payload_size)
            return 0;
        const uint8_t *nul = ntx_utf16_find_nul(ev->payload + q, end);
        if (!nul)
            return 0;
        q = (uint64_t)(nul - ev->payload) + 2;
    }
    *at = q + p->off;
    return 1;
}

/* The segments of fields[0..n) appended to the shape under way (*run: the fixed bytes since the last string).
   An object's fields lie inline, as the decoder reads them (TraceLogging's structs). 0, or -1 when the layout
   takes another kind of field or is too deep: not shaped. */
static int shape_fields(ntx_layout_shape *out, uint64_t *run, const ntidx_field *fields, uint32_t n, int v6,
                        uint32_t ptr, int manifest, int depth)
{
    if (depth > 4)
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        const ntidx_field *f = &fields[i];
        if (f->type_code == NTIDX_TYPE_UTF16_STRING) {
            if (out->nstr == NTX_SHAPE_STRINGS || *run > UINT32_MAX)
                return -1;
            out->fixed[out->nstr++] = (uint32_t)*run;
            *run = 0;
            continue;
        }
        if (f->type_code == NTIDX_TYPE_OBJECT) {
            /* (a manifest's strings are left out only at the top level: its objects are not shaped) */
            if ((f->field_count && !f->fields) || manifest)
                return -1;
            if (shape_fields(out, run, f->fields, f->field_count, v6, ptr, manifest, depth + 1) < 0)
                return -1;
            continue;
        }
        if (f->type_code == NTX_TYPE_COUNTED_ARRAY || f->type_code == NTIDX_TYPE_FIXED_ARRAY ||
            f->type_code == NTIDX_TYPE_RELLOC || f->type_code == NTIDX_TYPE_DATALOC)
            return -1; /* the interpreter's: their elements have checks of their own */
        long s = ntx_field_fixed_size(f, v6, ptr, 0);
        if (s < 0)
            return -1;
        *run += (uint64_t)s;
    }
    return 0;
}

void ntx_layout_shape_of(const ntidx_trace *t, const ntidx_metadata *m, ntx_layout_shape *out)
{
    memset(out, 0, sizeof *out);
    if (!t || !m || !m->has_fields)
        return;
    if (!m->fields) { /* an empty layout: every payload fits (its bytes are left over) */
        out->shaped = m->field_count == 0;
        return;
    }
    int v6;
    uint32_t ptr;
    encoding_of(t, &v6, &ptr);
    if (ntx_layout_bool8_candidate(m))
        return; /* the decoder may read it twice, with two widths of booleans */
    uint64_t run = 0;
    int manifest = ntx_manifest_owns(m->fields);
    if (shape_fields(out, &run, m->fields, m->field_count, v6, ptr, manifest, 0) < 0 || run > UINT32_MAX) {
        memset(out, 0, sizeof *out);
        return;
    }
    out->fixed[out->nstr] = (uint32_t)run;
    /* the decoder's rule for strings a runtime left out: a manifest string followed only by fixed fields (a
       shaped manifest layout has no objects: its strings are all top-level) */
    out->last_omissible = out->nstr > 0 && manifest;
    out->shaped = 1;
}

int ntx_layout_fits(const ntx_layout_shape *s, const ntidx_event *ev)
{
    uint64_t size = ev->payload_size, p = 0;
    for (uint32_t i = 0; i < s->nstr; i++) {
        p += s->fixed[i];
        if (p > size)
            return 0;
        if (i + 1 == s->nstr && s->last_omissible && size - p == s->fixed[s->nstr])
            return 1; /* left out: exactly the fixed fields after it remain */
        const uint8_t *nul = ntx_utf16_find_nul(ev->payload + p, ev->payload + size);
        if (!nul)
            return 0;
        p = (uint64_t)(nul - ev->payload) + 2;
    }
    return p + s->fixed[s->nstr] <= size;
}

int ntx_field_place_utf16(const ntx_field_place *p, const ntidx_event *ev, const uint8_t **s, size_t *units)
{
    uint64_t at;
    if (!ntx_field_place_start(p, ev, &at) || at > ev->payload_size)
        return 0;
    uint64_t left = ev->payload_size - at;
    if (p->omissible && left == p->rest) {
        *s = NULL;
        *units = 0;
        return 1;
    }
    const uint8_t *b = ev->payload + at, *end = ev->payload + ev->payload_size;
    const uint8_t *nul = ntx_utf16_find_nul(b, end);
    if (!nul)
        return 0;
    /* the fixed-size fields after a manifest string must be there too, as the decoder checks */
    if (p->omissible && (uint64_t)(end - (nul + 2)) < p->rest)
        return 0;
    *s = b;
    *units = (size_t)(nul - b) / 2;
    return 1;
}
