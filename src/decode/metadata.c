#include "metadata.h"

#include <stdio.h>
#include <string.h>

#include "event_header.h"
#include "values.h"
#include "trace_internal.h"
#include "utf.h"

/* ------------------------------------------------------------------ */
/* V3-V5 blob form                                                     */
/* ------------------------------------------------------------------ */

enum { TAG_OPCODE = 1, TAG_V2PARAMS = 2 };

/* Read a NUL-terminated UTF-16 string; returns an arena UTF-8 copy or NULL (cursor failed or no memory). */
static char *read_utf16z(ntx_arena *a, ntx_cur *c, int *nomem)
{
    const uint8_t *start = c->p;
    uint64_t units = 0;
    for (;;) {
        if (ntx_cur_left(c) < 2) {
            ntx_cur_fail(c);
            return NULL;
        }
        uint16_t u = ntx_load16(c->p);
        c->p += 2;
        if (!u)
            break;
        units++;
    }
    char *s = ntx_utf16_dup(a, start, (size_t)units);
    if (!s)
        *nomem = 1;
    return s;
}

typedef struct blob_ctx {
    ntx_arena *a;
    ntx_cur *c;
    ntx_err *err;
    int nomem;
} blob_ctx;

static int parse_fields_v1(blob_ctx *x, ntidx_field **out, uint32_t *count, int depth);

/* Fail with a message at the cursor. */
static int blob_fail(blob_ctx *x, const char *what)
{
    if (x->nomem)
        return ntx_err_set(x->err, NTIDX_E_NOMEM, "out of memory reading metadata");
    return ntx_err_at(x->err, NTIDX_E_CORRUPT, ntx_cur_off(x->c), "metadata: %s", what);
}

/* V1 field: int TypeCode, [nested description when Object], UTF-16 name. */
static int parse_field_v1(blob_ctx *x, ntidx_field *f, int depth)
{
    uint32_t tc = ntx_cur_u32(x->c);
    if (x->c->err)
        return blob_fail(x, "field list runs past the metadata");
    if (tc > 0xff)
        return blob_fail(x, "field type code out of range");
    f->type_code = (uint8_t)tc;
    if (tc == NTIDX_TYPE_OBJECT) {
        int rc = parse_fields_v1(x, (ntidx_field **)&f->fields, &f->field_count, depth + 1);
        if (rc < 0)
            return rc;
    }
    f->name = read_utf16z(x->a, x->c, &x->nomem);
    if (!f->name)
        return blob_fail(x, "field name runs past the metadata");
    return 0;
}

static int parse_fields_v1(blob_ctx *x, ntidx_field **out, uint32_t *count, int depth)
{
    if (depth > NTX_MAX_FIELD_DEPTH)
        return blob_fail(x, "objects nested too deeply");
    uint32_t n = ntx_cur_u32(x->c);
    if (x->c->err)
        return blob_fail(x, "field count runs past the metadata");
    /* A field takes at least 6 bytes (type code + empty name). */
    if (n > ntx_cur_left(x->c) / 6)
        return blob_fail(x, "field count exceeds the bytes left");
    ntidx_field *f = n ? ntx_arena_alloc(x->a, n * sizeof *f) : NULL;
    if (n && !f) {
        x->nomem = 1;
        return blob_fail(x, "");
    }
    for (uint32_t i = 0; i < n; i++) {
        int rc = parse_field_v1(x, &f[i], depth);
        if (rc < 0)
            return rc;
    }
    *out = f;
    *count = n;
    return 0;
}

static int parse_fields_v2(blob_ctx *x, ntidx_field **out, uint32_t *count, int depth);

/*
 * V2 type after its type code: an array's element type code follows; an
 * Object (directly or as the element) carries a nested V2 description.
 */
static int parse_type_v2(blob_ctx *x, ntidx_field *f, uint32_t tc, int depth)
{
    if (depth > NTX_MAX_FIELD_DEPTH)
        return blob_fail(x, "types nested too deeply");
    if (tc > 0xff)
        return blob_fail(x, "field type code out of range");
    f->type_code = (uint8_t)tc;
    if (tc == NTIDX_TYPE_ARRAY) {
        ntidx_field *el = ntx_arena_alloc(x->a, sizeof *el);
        if (!el) {
            x->nomem = 1;
            return blob_fail(x, "");
        }
        el->name = "";
        uint32_t etc = ntx_cur_u32(x->c);
        if (x->c->err)
            return blob_fail(x, "array element type runs past the metadata");
        int rc = parse_type_v2(x, el, etc, depth + 1);
        if (rc < 0)
            return rc;
        f->element = el;
    } else if (tc == NTIDX_TYPE_OBJECT) {
        return parse_fields_v2(x, (ntidx_field **)&f->fields, &f->field_count, depth + 1);
    }
    return 0;
}

/* V2 field: int Size (inclusive), UTF-16 name, int TypeCode, type details, padding up to Size. */
static int parse_field_v2(blob_ctx *x, ntidx_field *f, int depth)
{
    uint64_t start = ntx_cur_off(x->c);
    uint32_t size = ntx_cur_u32(x->c);
    if (x->c->err)
        return blob_fail(x, "V2 field runs past the metadata");
    if (size < 4 || size - 4 > ntx_cur_left(x->c))
        return blob_fail(x, "V2 field size does not fit the metadata");
    f->name = read_utf16z(x->a, x->c, &x->nomem);
    if (!f->name)
        return blob_fail(x, "V2 field name runs past the metadata");
    uint32_t tc = ntx_cur_u32(x->c);
    if (x->c->err)
        return blob_fail(x, "V2 field type runs past the metadata");
    int rc = parse_type_v2(x, f, tc, depth);
    if (rc < 0)
        return rc;
    uint64_t used = ntx_cur_off(x->c) - start;
    if (used > size)
        return blob_fail(x, "V2 field is larger than its declared size");
    ntx_cur_skip(x->c, size - used);
    return 0;
}

static int parse_fields_v2(blob_ctx *x, ntidx_field **out, uint32_t *count, int depth)
{
    if (depth > NTX_MAX_FIELD_DEPTH)
        return blob_fail(x, "objects nested too deeply");
    uint32_t n = ntx_cur_u32(x->c);
    if (x->c->err)
        return blob_fail(x, "V2 field count runs past the metadata");
    if (n > ntx_cur_left(x->c) / 10) /* size + empty name + type code */
        return blob_fail(x, "V2 field count exceeds the bytes left");
    ntidx_field *f = n ? ntx_arena_alloc(x->a, n * sizeof *f) : NULL;
    if (n && !f) {
        x->nomem = 1;
        return blob_fail(x, "");
    }
    for (uint32_t i = 0; i < n; i++) {
        int rc = parse_field_v2(x, &f[i], depth);
        if (rc < 0)
            return rc;
    }
    *out = f;
    *count = n;
    return 0;
}

/* Does the n-byte s end with suffix, ASCII case-insensitively? */
static int ends_with_ci(const char *s, size_t n, const char *suffix)
{
    size_t k = strlen(suffix);
    if (n < k)
        return 0;
    for (size_t i = 0; i < k; i++) {
        char c = s[n - k + i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        char d = suffix[i];
        if (d >= 'A' && d <= 'Z')
            d = (char)(d - 'A' + 'a');
        if (c != d)
            return 0;
    }
    return 1;
}

/*
 * ntidx names events from their metadata as TraceEvent does (EventPipeMetadata.ApplyTransforms, then
 * TraceEvent.EventName), the specification of names:
 *   - metadata without an opcode whose name ends with "Start" or "Stop" (ASCII, any case) has the
 *     implied opcode Start (1) or Stop (2): EventSource's convention;
 *   - with opcode Start a trailing "Start" is dropped, with Stop a trailing "Stop" (EventSource's
 *     WorkStart/WorkStop become Work/Start and Work/Stop);
 *   - an opcode other than Info is appended as "/Opcode", by its TraceEventOpcode name (Start, Stop,
 *     ... Transfer) or its number (TestEvent3/24);
 *   - metadata without a name is named EventID(N), N its event id, without an opcode.
 * The name as stored stays in name_in_trace (the writer writes it back); m->opcode stays the trace's.
 */
static int name_like_traceevent(ntx_arena *a, ntidx_metadata *m)
{
    static const char *const names[] = {"Info",    "Start",  "Stop",   "DataCollectionStart", "DataCollectionStop",
                                        "Extension", "Reply", "Resume", "Suspend",             "Transfer"};
    m->name_in_trace = m->event_name;
    if (!m->event_name || !m->event_name[0]) {
        /* TraceEvent's name for an event nothing names, and ntidx's everywhere (the runtime's manifest may
           still name it: ntx_manifest_fill()) */
        char *s = ntx_arena_alloc(a, sizeof "EventID(4294967295)");
        if (!s)
            return NTIDX_E_NOMEM;
        snprintf(s, sizeof "EventID(4294967295)", "EventID(%u)", m->event_id);
        m->name_in_trace = "";
        m->event_name = s;
        return 0;
    }
    size_t n = strlen(m->event_name);
    int opcode = m->opcode;
    if (opcode < 0)
        opcode = ends_with_ci(m->event_name, n, "Start") ? 1 : ends_with_ci(m->event_name, n, "Stop") ? 2 : 0;
    if (opcode <= 0)
        return 0;
    if (opcode == 1 && ends_with_ci(m->event_name, n, "Start"))
        n -= 5;
    else if (opcode == 2 && ends_with_ci(m->event_name, n, "Stop"))
        n -= 4;
    char num[12]; /* an int: the compiler cannot know a trace's opcode fits a byte */
    const char *op = opcode < 10 ? names[opcode] : (snprintf(num, sizeof num, "%d", opcode), num);
    size_t k = strlen(op);
    char *s = ntx_arena_alloc(a, n + 1 + k + 1);
    if (!s)
        return NTIDX_E_NOMEM;
    memcpy(s, m->event_name, n);
    s[n] = '/';
    memcpy(s + n + 1, op, k + 1);
    m->event_name = s;
    return 0;
}

int ntx_metadata_parse_blob(ntx_arena *a, const uint8_t *base, uint64_t off, uint32_t len, ntidx_metadata **out,
                            int *v5_tags, ntx_err *err)
{
    ntx_cur c;
    ntx_cur_init(&c, base, off, len);
    blob_ctx x = {a, &c, err, 0};
    ntidx_metadata *m = ntx_arena_alloc(a, sizeof *m);
    if (!m)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory reading metadata");
    m->offset = off;
    m->opcode = -1;
    m->id = ntx_cur_u32(&c);
    m->provider = read_utf16z(a, &c, &x.nomem);
    m->event_id = ntx_cur_u32(&c);
    m->event_name = read_utf16z(a, &c, &x.nomem);
    m->keywords = ntx_cur_u64(&c);
    m->version = ntx_cur_u32(&c);
    m->level = ntx_cur_u32(&c);
    if (c.err || x.nomem)
        return blob_fail(&x, "header (id, provider, event id, name, keywords, version, level) runs past the row");
    /* Everything after the header is optional: the runtime's own events often stop here. */
    if (ntx_cur_left(&c) >= 4) {
        m->has_fields = 1;
        int rc = parse_fields_v1(&x, (ntidx_field **)&m->fields, &m->field_count, 0);
        if (rc < 0)
            return rc;
    }
    /* V5 tags: int payload bytes, byte kind, payload. */
    while (ntx_cur_left(&c) > 0) {
        uint64_t tag_at = ntx_cur_off(&c);
        uint32_t tlen = ntx_cur_u32(&c);
        uint8_t kind = ntx_cur_u8(&c);
        if (c.err || tlen > ntx_cur_left(&c))
            return ntx_err_at(err, NTIDX_E_CORRUPT, tag_at, "metadata tag runs past the metadata row");
        if (v5_tags)
            *v5_tags = 1;
        ntx_cur tc;
        ntx_cur_init(&tc, base, ntx_cur_off(&c), tlen);
        if (kind == TAG_OPCODE) {
            uint8_t op = ntx_cur_u8(&tc);
            if (tc.err)
                return ntx_err_at(err, NTIDX_E_CORRUPT, tag_at, "opcode tag is empty");
            m->opcode = op;
        } else if (kind == TAG_V2PARAMS) {
            if (m->field_count)
                return ntx_err_at(err, NTIDX_E_CORRUPT, tag_at, "V2Params tag after a non-empty V1 field list");
            blob_ctx y = {a, &tc, err, 0};
            int rc = parse_fields_v2(&y, (ntidx_field **)&m->fields, &m->field_count, 0);
            if (rc < 0)
                return rc;
            m->has_fields = 1;
        } /* unknown tags are skipped by their length */
        ntx_cur_skip(&c, tlen);
    }
    if (name_like_traceevent(a, m) < 0)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory reading metadata");
    *out = m;
    return NTIDX_OK;
}

/* ------------------------------------------------------------------ */
/* V6 rows                                                             */
/* ------------------------------------------------------------------ */

enum { OPT_OPCODE = 1, OPT_KEYWORD = 3, OPT_MESSAGE = 4, OPT_DESCRIPTION = 5, OPT_KEYVALUE = 6,
       OPT_PROVIDER_GUID = 7, OPT_LEVEL = 8, OPT_VERSION = 9 };

/* string: varuint32 length + UTF-8 bytes. */
static char *read_str8(blob_ctx *x)
{
    uint32_t n = ntx_cur_varu32(x->c);
    const uint8_t *p = ntx_cur_bytes(x->c, n);
    if (!p)
        return NULL;
    char *s = ntx_arena_strndup(x->a, (const char *)p, n);
    if (!s)
        x->nomem = 1;
    return s;
}

static int parse_fields_v6(blob_ctx *x, ntidx_field **out, uint32_t *count, int depth);

static int parse_type_v6(blob_ctx *x, ntidx_field *f, int depth)
{
    if (depth > NTX_MAX_FIELD_DEPTH)
        return blob_fail(x, "types nested too deeply");
    uint8_t tc = ntx_cur_u8(x->c);
    if (x->c->err)
        return blob_fail(x, "field type runs past the field");
    f->type_code = tc;
    if (tc == NTIDX_TYPE_ARRAY || tc == NTIDX_TYPE_FIXED_ARRAY || tc == NTIDX_TYPE_RELLOC ||
        tc == NTIDX_TYPE_DATALOC) {
        ntidx_field *el = ntx_arena_alloc(x->a, sizeof *el);
        if (!el) {
            x->nomem = 1;
            return blob_fail(x, "");
        }
        el->name = "";
        int rc = parse_type_v6(x, el, depth + 1);
        if (rc < 0)
            return rc;
        f->element = el;
        if (tc == NTIDX_TYPE_FIXED_ARRAY) {
            f->element_count = ntx_cur_u16(x->c);
            if (x->c->err)
                return blob_fail(x, "fixed-length array count runs past the field");
        }
        /* A location names a byte range, so its elements need a size (TraceEvent refuses the trace too). */
        if ((tc == NTIDX_TYPE_RELLOC || tc == NTIDX_TYPE_DATALOC) && ntx_field_fixed_size(el, 1, 8, 0) <= 0)
            return blob_fail(x, tc == NTIDX_TYPE_RELLOC ? "a RelLoc field's element type has no fixed size"
                                                       : "a DataLoc field's element type has no fixed size");
    } else if (tc == NTIDX_TYPE_OBJECT) {
        return parse_fields_v6(x, (ntidx_field **)&f->fields, &f->field_count, depth + 1);
    }
    return 0;
}

static int parse_fields_v6(blob_ctx *x, ntidx_field **out, uint32_t *count, int depth)
{
    if (depth > NTX_MAX_FIELD_DEPTH)
        return blob_fail(x, "objects nested too deeply");
    uint16_t n = ntx_cur_u16(x->c);
    if (x->c->err)
        return blob_fail(x, "field count runs past the row");
    if (n > ntx_cur_left(x->c) / 4) /* FieldSize + empty name + type code */
        return blob_fail(x, "field count exceeds the bytes left");
    ntidx_field *f = n ? ntx_arena_alloc(x->a, n * sizeof *f) : NULL;
    if (n && !f) {
        x->nomem = 1;
        return blob_fail(x, "");
    }
    for (uint32_t i = 0; i < n; i++) {
        uint16_t fsize = ntx_cur_u16(x->c);
        if (x->c->err || fsize > ntx_cur_left(x->c))
            return blob_fail(x, "field description runs past the row");
        ntx_cur *outer = x->c;
        ntx_cur fc;
        ntx_cur_init(&fc, outer->base, ntx_cur_off(outer), fsize);
        x->c = &fc;
        f[i].name = read_str8(x);
        int rc = f[i].name ? parse_type_v6(x, &f[i], depth) : blob_fail(x, "field name runs past the field");
        x->c = outer;
        if (rc < 0)
            return rc;
        ntx_cur_skip(outer, fsize); /* trailing bytes are reserved for later versions */
    }
    *out = f;
    *count = n;
    return 0;
}

int ntx_metadata_parse_v6_row(ntx_arena *a, ntx_cur *c, ntidx_metadata **out, ntx_err *err)
{
    uint64_t row_at = ntx_cur_off(c);
    uint16_t size = ntx_cur_u16(c);
    if (c->err || size > ntx_cur_left(c))
        return ntx_err_at(err, NTIDX_E_CORRUPT, row_at, "metadata row size %u runs past the block", size);
    ntx_cur rc_;
    ntx_cur_init(&rc_, c->base, ntx_cur_off(c), size);
    ntx_cur_skip(c, size);
    blob_ctx x = {a, &rc_, err, 0};
    ntidx_metadata *m = ntx_arena_alloc(a, sizeof *m);
    if (!m)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory reading metadata");
    m->offset = row_at;
    m->opcode = -1;
    m->id = ntx_cur_varu32(&rc_);
    m->provider = read_str8(&x);
    m->event_id = ntx_cur_varu32(&rc_);
    m->event_name = read_str8(&x);
    if (rc_.err || x.nomem || !m->provider || !m->event_name)
        return blob_fail(&x, "row header (id, provider, event id, name) runs past the row");
    m->has_fields = 1;
    int rc = parse_fields_v6(&x, (ntidx_field **)&m->fields, &m->field_count, 0);
    if (rc < 0)
        return rc;
    uint16_t osize = ntx_cur_u16(&rc_);
    if (rc_.err || osize > ntx_cur_left(&rc_))
        return blob_fail(&x, "optional metadata runs past the row");
    ntx_cur oc;
    ntx_cur_init(&oc, rc_.base, ntx_cur_off(&rc_), osize);
    x.c = &oc;
    while (ntx_cur_left(&oc) > 0) {
        uint8_t kind = ntx_cur_u8(&oc);
        switch (kind) {
        case OPT_OPCODE: m->opcode = ntx_cur_u8(&oc); break;
        case OPT_KEYWORD: m->keywords = ntx_cur_u64(&oc); break;
        case OPT_MESSAGE: m->message_template = read_str8(&x); break;
        case OPT_DESCRIPTION: m->description = read_str8(&x); break;
        case OPT_KEYVALUE: (void)read_str8(&x); (void)read_str8(&x); break;
        case OPT_PROVIDER_GUID: ntx_cur_skip(&oc, 16); break;
        case OPT_LEVEL: m->level = ntx_cur_u8(&oc); break;
        case OPT_VERSION: m->version = ntx_cur_u8(&oc); break;
        default:
            /* An unknown kind has no length: the rest of the optional area cannot be read. */
            ntx_cur_skip(&oc, ntx_cur_left(&oc));
            continue;
        }
        if (oc.err || x.nomem)
            return blob_fail(&x, "optional metadata element runs past its area");
    }
    if (name_like_traceevent(a, m) < 0)
        return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory reading metadata");
    *out = m;
    return NTIDX_OK;
}

/* ------------------------------------------------------------------ */
/* V4 or V5?                                                           */
/* ------------------------------------------------------------------ */
