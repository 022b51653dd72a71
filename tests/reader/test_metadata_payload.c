/*
 * Metadata and payloads: V3-V5 metadata blobs (UTF-16 names, V1 fields with
 * nested objects, the V5 OpCode and V2Params tags), V6 metadata rows (every
 * optional kind, reserved bytes, unknown kinds), and the payload formatter's
 * exact JSON for every type code, plus payloads that do not fit.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arena.h"
#include "cursor.h"
#include "metadata.h"
#include "ntidx/ntidx.h"
#include "tbuild.h"
#include "values.h"

#define assert_contains(hay, needle)                                                                   \
    do {                                                                                               \
        const char *h_ = (hay);                                                                        \
        if (!h_ || !strstr(h_, (needle)))                                                              \
            fail_msg("'%s' does not contain '%s'", h_ ? h_ : "(null)", (needle));                      \
    } while (0)

static ntidx_trace *open_ok(const tb *f)
{
    ntidx_trace *t = NULL;
    int rc = ntidx_trace_open_memory(f->d, f->len, "mem", &t);
    if (rc != NTIDX_OK)
        fail_msg("open failed: %s (%s)", ntidx_strerror(rc), ntidx_last_error());
    return t;
}

/* Parse a V3-V5 metadata blob held in b. */
static int parse_blob(ntx_arena *a, const tb *b, ntidx_metadata **m, int *v5, ntx_err *err)
{
    *v5 = 0;
    ntx_err_clear(err);
    return ntx_metadata_parse_blob(a, b->d, 0, (uint32_t)b->len, m, v5, err);
}

/* ------------------------------------------------------------------ */
/* V3-V5 metadata blobs                                                */
/* ------------------------------------------------------------------ */

static void test_v5_metadata_header(void **state)
{
    (void)state;
    tb b;
    tb_init(&b);
    tb_zeros(&b, 3); /* the blob at a non-zero offset: m->offset reports it */
    size_t start = b.len;
    v5_metadata_header(&b, 0x7fffffff, "Pr\xc3\xb8v-\xf0\x9f\x98\x80", 65535, "\xc3\x89v\xc3\xa8nement",
                       0x8000000000000001ULL, 3, 5);
    ntx_arena a;
    ntx_arena_init(&a);
    ntidx_metadata *m = NULL;
    ntx_err err = {0};
    int v5 = 7;
    assert_int_equal(ntx_metadata_parse_blob(&a, b.d, start, (uint32_t)(b.len - start), &m, &v5, &err), 0);
    assert_int_equal(v5, 7); /* untouched: no tags */
    assert_int_equal(m->id, 0x7fffffff);
    assert_string_equal(m->provider, "Pr\xc3\xb8v-\xf0\x9f\x98\x80");
    assert_int_equal(m->event_id, 65535);
    assert_string_equal(m->event_name, "\xc3\x89v\xc3\xa8nement");
    assert_true(m->keywords == 0x8000000000000001ULL);
    assert_int_equal(m->version, 3);
    assert_int_equal(m->level, 5);
    assert_int_equal(m->opcode, -1);
    assert_int_equal(m->has_fields, 0); /* the header alone: runtime events often stop here */
    assert_int_equal(m->field_count, 0);
    assert_null(m->fields);
    assert_null(m->message_template);
    assert_null(m->description);
    assert_int_equal(m->offset, start);
    /* an empty event name: TraceEvent's EventID(N), the same in the name and in the display name */
    tb_reset(&b);
    v5_metadata_header(&b, 1, "P", 9, "", 0, 0, 0);
    tb_u32(&b, 0);
    assert_int_equal(parse_blob(&a, &b, &m, &v5, &err), 0);
    assert_string_equal(m->event_name, "EventID(9)");
    assert_string_equal(m->name_in_trace, "");
    assert_int_equal(m->has_fields, 1);
    assert_int_equal(m->field_count, 0);
    char name[64];
    assert_string_equal(ntidx_event_display_name(m, name, sizeof name), "P/EventID(9)");
    ntx_arena_free(&a);
    tb_free(&b);
}

static void test_v5_v1_fields_nested(void **state)
{
    (void)state;
    tb b;
    tb_init(&b);
    v5_metadata_header(&b, 1, "P", 1, "E", 0, 0, 4);
    tb_u32(&b, 3);
    tb_u32(&b, 9); /* int32 a */
    tb_utf16z(&b, "a");
    tb_u32(&b, 1); /* object: nested description, then the name */
    tb_u32(&b, 2);
    tb_u32(&b, 8);
    tb_utf16z(&b, "x");
    tb_u32(&b, 1); /* object inside the object */
    tb_u32(&b, 1);
    tb_u32(&b, 18);
    tb_utf16z(&b, "s");
    tb_utf16z(&b, "inner");
    tb_utf16z(&b, "o\xc3\xa9");
    tb_u32(&b, 17);
    tb_utf16z(&b, "g");
    ntx_arena a;
    ntx_arena_init(&a);
    ntidx_metadata *m;
    ntx_err err;
    int v5;
    assert_int_equal(parse_blob(&a, &b, &m, &v5, &err), 0);
    assert_int_equal(v5, 0);
    assert_int_equal(m->has_fields, 1);
    assert_int_equal(m->field_count, 3);
    assert_string_equal(m->fields[0].name, "a");
    assert_int_equal(m->fields[0].type_code, NTIDX_TYPE_INT32);
    assert_string_equal(m->fields[1].name, "o\xc3\xa9");
    assert_int_equal(m->fields[1].type_code, NTIDX_TYPE_OBJECT);
    assert_int_equal(m->fields[1].field_count, 2);
    assert_string_equal(m->fields[1].fields[0].name, "x");
    assert_int_equal(m->fields[1].fields[0].type_code, NTIDX_TYPE_UINT16);
    const ntidx_field *inner = &m->fields[1].fields[1];
    assert_string_equal(inner->name, "inner");
    assert_int_equal(inner->type_code, NTIDX_TYPE_OBJECT);
    assert_int_equal(inner->field_count, 1);
    assert_string_equal(inner->fields[0].name, "s");
    assert_int_equal(inner->fields[0].type_code, NTIDX_TYPE_UTF16_STRING);
    assert_string_equal(m->fields[2].name, "g");
    assert_int_equal(m->fields[2].type_code, NTIDX_TYPE_GUID);
    ntx_arena_free(&a);
    tb_free(&b);
}

/* V2Params field: int Size (inclusive), name, type code, [element type], [nested fields], padding. */
static void v2_field_begin(tb *v2, size_t *at, const char *name, uint32_t tc)
{
    *at = v2->len;
    tb_u32(v2, 0);
    tb_utf16z(v2, name);
    tb_u32(v2, tc);
}

static void v2_field_end(tb *v2, size_t at, size_t padding)
{
    tb_zeros(v2, padding);
    tb_put32(v2, at, (uint32_t)(v2->len - at));
}

static void add_tag(tb *b, uint8_t kind, const tb *payload)
{
    tb_u32(b, (uint32_t)payload->len);
    tb_u8(b, kind);
    tb_tb(b, payload);
}

static void test_v5_tags_opcode_and_v2params(void **state)
{
    (void)state;
    tb b, v2, tag;
    tb_init(&b);
    tb_init(&v2);
    tb_init(&tag);
    v5_metadata_header(&b, 4, "P", 1, "E", 0, 0, 4);
    tb_u32(&b, 0); /* empty V1 list */
    tb_u8(&tag, 0x2a);
    add_tag(&b, 1, &tag); /* opcode 42 */
    tb_reset(&tag);
    tb_bytes(&tag, "future", 6);
    add_tag(&b, 9, &tag); /* unknown tag: skipped by its length */

    size_t at, at2;
    tb_u32(&v2, 6);
    v2_field_begin(&v2, &at, "n", 9);
    v2_field_end(&v2, at, 0);
    v2_field_begin(&v2, &at, "arr", 19); /* array of int32 */
    tb_u32(&v2, 9);
    v2_field_end(&v2, at, 0);
    v2_field_begin(&v2, &at, "objs", 19); /* array of objects {int32 a, int64 b} */
    tb_u32(&v2, 1);
    tb_u32(&v2, 2);
    v2_field_begin(&v2, &at2, "a", 9);
    v2_field_end(&v2, at2, 0);
    v2_field_begin(&v2, &at2, "b", 11);
    v2_field_end(&v2, at2, 3); /* padding inside a nested field */
    v2_field_end(&v2, at, 0);
    v2_field_begin(&v2, &at, "chars", 19); /* array of UTF-16 code units */
    tb_u32(&v2, 4);
    v2_field_end(&v2, at, 5); /* padding up to Size */
    v2_field_begin(&v2, &at, "o", 1); /* plain object */
    tb_u32(&v2, 1);
    v2_field_begin(&v2, &at2, "x", 6);
    v2_field_end(&v2, at2, 0);
    v2_field_end(&v2, at, 0);
    v2_field_begin(&v2, &at, "nested", 19); /* array of arrays of bytes */
    tb_u32(&v2, 19);
    tb_u32(&v2, 6);
    v2_field_end(&v2, at, 0);
    add_tag(&b, 2, &v2);

    ntx_arena a;
    ntx_arena_init(&a);
    ntidx_metadata *m;
    ntx_err err;
    int v5;
    if (parse_blob(&a, &b, &m, &v5, &err) != 0)
        fail_msg("%s", err.msg);
    assert_int_equal(v5, 1);
    assert_int_equal(m->opcode, 42);
    assert_int_equal(m->has_fields, 1);
    assert_int_equal(m->field_count, 6);
    const ntidx_field *f = m->fields;
    assert_string_equal(f[0].name, "n");
    assert_int_equal(f[0].type_code, NTIDX_TYPE_INT32);
    assert_null(f[0].element);
    assert_string_equal(f[1].name, "arr");
    assert_int_equal(f[1].type_code, NTIDX_TYPE_ARRAY);
    assert_int_equal(f[1].element->type_code, NTIDX_TYPE_INT32);
    assert_string_equal(f[2].name, "objs");
    assert_int_equal(f[2].element->type_code, NTIDX_TYPE_OBJECT);
    assert_int_equal(f[2].element->field_count, 2);
    assert_string_equal(f[2].element->fields[0].name, "a");
    assert_string_equal(f[2].element->fields[1].name, "b");
    assert_int_equal(f[2].element->fields[1].type_code, NTIDX_TYPE_INT64);
    assert_string_equal(f[3].name, "chars");
    assert_int_equal(f[3].element->type_code, NTIDX_TYPE_UTF16_CODE_UNIT);
    assert_string_equal(f[4].name, "o");
    assert_int_equal(f[4].type_code, NTIDX_TYPE_OBJECT);
    assert_int_equal(f[4].field_count, 1);
    assert_int_equal(f[4].fields[0].type_code, NTIDX_TYPE_BYTE);
    assert_int_equal(f[5].element->type_code, NTIDX_TYPE_ARRAY);
    assert_int_equal(f[5].element->element->type_code, NTIDX_TYPE_BYTE);
    ntx_arena_free(&a);
    tb_free(&b);
    tb_free(&v2);
    tb_free(&tag);
}

/* Corrupt blobs: each is refused with a message naming an offset. */
static void test_v5_metadata_errors(void **state)
{
    (void)state;
    enum { NO_NUL, HEADER_CUT, HUGE_COUNT, V1_NAME_CUT, TYPE_TOO_BIG, V2_SIZE_SMALL, V2_SIZE_UNDER_4, V2_SIZE_PAST,
           V2_AFTER_V1, TAG_PAST, OPCODE_EMPTY, DEEP_V1, DEEP_V2, V2_HUGE_COUNT, NCASES };
    for (int c = 0; c < NCASES; c++) {
        tb b, v2;
        tb_init(&b);
        tb_init(&v2);
        size_t at;
        switch (c) {
        case NO_NUL:
            tb_u32(&b, 1);
            tb_u16(&b, 'P');
            tb_u16(&b, 'r');
            break;
        case HEADER_CUT:
            v5_metadata_header(&b, 1, "P", 1, "E", 0, 0, 4);
            b.len -= 2;
            break;
        default:
            v5_metadata_header(&b, 1, "P", 1, "E", 0, 0, 4);
            break;
        }
        switch (c) {
        case HUGE_COUNT: tb_u32(&b, 0x80000000u); tb_zeros(&b, 16); break;
        case V1_NAME_CUT: tb_u32(&b, 1); tb_u32(&b, 9); tb_u16(&b, 'x'); break;
        case TYPE_TOO_BIG: tb_u32(&b, 1); tb_u32(&b, 0x100); tb_utf16z(&b, "x"); break;
        case V2_SIZE_SMALL:
        case V2_SIZE_UNDER_4:
        case V2_SIZE_PAST:
            tb_u32(&b, 0);
            tb_u32(&v2, 1);
            v2_field_begin(&v2, &at, "field", 9);
            tb_put32(&v2, at, c == V2_SIZE_SMALL ? 8 : c == V2_SIZE_UNDER_4 ? 3 : 1000);
            add_tag(&b, 2, &v2);
            break;
        case V2_AFTER_V1:
            tb_u32(&b, 1);
            tb_u32(&b, 9);
            tb_utf16z(&b, "x");
            tb_u32(&v2, 0);
            add_tag(&b, 2, &v2);
            break;
        case TAG_PAST:
            tb_u32(&b, 0);
            tb_u32(&b, 100);
            tb_u8(&b, 1);
            tb_u8(&b, 1);
            break;
        case OPCODE_EMPTY:
            tb_u32(&b, 0);
            tb_u32(&b, 0);
            tb_u8(&b, 1);
            break;
        case DEEP_V1:
            /* 40 nested objects: recursion must stop at a fixed depth */
            tb_u32(&b, 1);
            for (int i = 0; i < 40; i++) {
                tb_u32(&b, 1);
                tb_u32(&b, 1);
            }
            tb_u32(&b, 9);
            for (int i = 0; i < 41; i++)
                tb_utf16z(&b, "d");
            break;
        case DEEP_V2:
            tb_u32(&b, 0);
            tb_u32(&v2, 1);
            v2_field_begin(&v2, &at, "deep", 19);
            for (int i = 0; i < 40; i++)
                tb_u32(&v2, 19);
            tb_u32(&v2, 9);
            v2_field_end(&v2, at, 0);
            add_tag(&b, 2, &v2);
            break;
        case V2_HUGE_COUNT:
            tb_u32(&b, 0);
            tb_u32(&v2, 0x7fffffff);
            tb_zeros(&v2, 20);
            add_tag(&b, 2, &v2);
            break;
        default: break;
        }
        ntx_arena a;
        ntx_arena_init(&a);
        ntidx_metadata *m = NULL;
        ntx_err err;
        int v5;
        int rc = parse_blob(&a, &b, &m, &v5, &err);
        if (rc != NTIDX_E_CORRUPT)
            fail_msg("case %d: rc %d", c, rc);
        assert_contains(err.msg, "offset ");
        /* bounded allocation: a hostile count never turns into a big arena */
        assert_true(a.used_bytes < 64 * 1024);
        ntx_arena_free(&a);
        tb_free(&b);
        tb_free(&v2);
    }
}

/* ------------------------------------------------------------------ */
/* V6 metadata rows                                                    */
/* ------------------------------------------------------------------ */

static void opt_u8(tb *o, uint8_t kind, uint8_t v)
{
    tb_u8(o, kind);
    tb_u8(o, v);
}

static void test_v6_metadata_optional_kinds(void **state)
{
    (void)state;
    tb f, rows, fields, opt, p;
    tb_init(&f);
    tb_init(&rows);
    tb_init(&fields);
    tb_init(&opt);
    tb_init(&p);
    v6_begin(&f);
    tb_u16(&fields, 2);
    v6_field(&fields, "a", "\x09", 1, 0);
    v6_field(&fields, "b", "\x16\x06\x03\x00", 4, 6); /* fixed array of 3 bytes, 6 reserved bytes after */
    opt_u8(&opt, 1, 5);                               /* opcode */
    tb_u8(&opt, 3);                                   /* keywords */
    tb_u64(&opt, 0xf00000000000000fULL);
    tb_u8(&opt, 4); /* message template */
    tb_str8(&opt, "Hello {a}");
    tb_u8(&opt, 5); /* description */
    tb_str8(&opt, "d\xc3\xa9sc");
    tb_u8(&opt, 6); /* key/value: parsed and skipped */
    tb_str8(&opt, "key");
    tb_str8(&opt, "value");
    tb_u8(&opt, 7); /* provider guid: skipped */
    tb_zeros(&opt, 16);
    opt_u8(&opt, 8, 4); /* level */
    opt_u8(&opt, 9, 3); /* version */
    v6_metadata_row(&rows, 7, "Prov\xc3\xa9", 300, "Name", &fields, &opt, 5); /* 5 reserved bytes at the end */
    /* a row with an unknown optional kind: it has no length, so the rest of the area is ignored */
    tb_reset(&opt);
    opt_u8(&opt, 1, 9);
    tb_u8(&opt, 0x63);
    tb_bytes(&opt, "\x08\x02\x09\x07", 4); /* would be level 2, version 7 */
    v6_metadata_row(&rows, 8, "P", 1, "Unknown", NULL, &opt, 0);
    /* the next row is still read */
    v6_metadata_row(&rows, 9, "P", 2, "", NULL, NULL, 0);
    /* metadata block with a 3-byte reserved header */
    tb_u16(&p, 3);
    tb_bytes(&p, "\x01\x02\x03", 3);
    tb_tb(&p, &rows);
    v6_block(&f, 3, p.d, p.len);
    tb_reset(&p);
    v6_thread_row(&p, 1, NULL, UINT64_MAX, UINT64_MAX);
    v6_block(&f, 6, p.d, p.len);
    tb_reset(&p);
    eb_header(&p, 20, 0, 0, 0);
    static const uint8_t pl[7] = {1, 0, 0, 0, 7, 8, 9};
    ev6 e = {.metadata_id = 7, .seq = 1, .thread = 1, .capture = 1, .ts = 1, .payload = pl, .payload_size = 7};
    v6_event_row(&p, &e);
    e = (ev6){.metadata_id = 8, .seq = 2, .thread = 1, .capture = 1, .ts = 2};
    v6_event_row(&p, &e);
    e = (ev6){.metadata_id = 9, .seq = 3, .thread = 1, .capture = 1, .ts = 3};
    v6_event_row(&p, &e);
    v6_block(&f, 2, p.d, p.len);
    v6_end(&f);

    ntidx_trace *t = open_ok(&f);
    ntidx_reader *r;
    assert_int_equal(ntidx_reader_open(t, NULL, &r), NTIDX_OK);
    const ntidx_event *ev;
    assert_int_equal(ntidx_reader_next(r, &ev), 1);
    const ntidx_metadata *m = ev->metadata;
    assert_int_equal(m->id, 7);
    assert_string_equal(m->provider, "Prov\xc3\xa9");
    assert_int_equal(m->event_id, 300);
    /* TraceEvent's name: the trace's, then the opcode's name (5: Extension); the stored one is kept */
    assert_string_equal(m->event_name, "Name/Extension");
    assert_string_equal(m->name_in_trace, "Name");
    assert_true(ntidx_metadata_matches_name(m, "Name"));
    assert_true(ntidx_metadata_matches_name(m, "name/extension"));
    assert_int_equal(m->opcode, 5);
    assert_true(m->keywords == 0xf00000000000000fULL);
    assert_string_equal(m->message_template, "Hello {a}");
    assert_string_equal(m->description, "d\xc3\xa9sc");
    assert_int_equal(m->level, 4);
    assert_int_equal(m->version, 3);
    assert_int_equal(m->has_fields, 1);
    assert_int_equal(m->field_count, 2);
    assert_int_equal(m->fields[1].type_code, NTIDX_TYPE_FIXED_ARRAY);
    assert_int_equal(m->fields[1].element_count, 3);
    assert_int_equal(m->fields[1].element->type_code, NTIDX_TYPE_BYTE);
    ntidx_buf out = {0};
    assert_int_equal(ntidx_event_fields_json(t, ev, &out), NTIDX_OK);
    assert_string_equal(out.data, "{\"a\":1,\"b\":[7,8,9]}");
    char name[64];
    assert_string_equal(ntidx_event_display_name(m, name, sizeof name), "Prov\xc3\xa9/Name/Extension");

    assert_int_equal(ntidx_reader_next(r, &ev), 1);
    m = ev->metadata;
    assert_string_equal(m->event_name, "Unknown/Transfer"); /* opcode 9 */
    assert_int_equal(m->opcode, 9);
    assert_int_equal(m->level, 0);   /* after the unknown kind: not read */
    assert_int_equal(m->version, 0);
    assert_null(m->message_template);
    assert_int_equal(ntidx_reader_next(r, &ev), 1);
    assert_int_equal(ev->metadata->id, 9);
    assert_string_equal(ntidx_event_display_name(ev->metadata, name, sizeof name), "P/EventID(2)");
    out.len = 0;
    assert_int_equal(ntidx_event_fields_json(t, ev, &out), NTIDX_OK);
    assert_string_equal(out.data, "{}");
    assert_int_equal(ntidx_reader_next(r, &ev), 0);
    assert_int_equal(ntidx_reader_get_stats(r)->metadata_rows, 3);
    ntidx_buf_free(&out);
    ntidx_reader_close(&r);
    ntidx_trace_close(&t);
    tb_free(&f);
    tb_free(&rows);
    tb_free(&fields);
    tb_free(&opt);
    tb_free(&p);
}

/* EventSource's Start/Stop names as TraceEvent shows them (EventPipeMetadata.ApplyTransforms): an
 * implied opcode for a name ending in Start/Stop without an opcode, the suffix dropped when the
 * opcode is Start/Stop, then "/Opcode". */
static void test_names_start_stop_like_traceevent(void **state)
{
    (void)state;
    static const struct {
        const char *stored;
        int opcode; /* -1: no opcode in the metadata */
        const char *shown;
    } cases[] = {
        {"WorkStart", -1, "Work/Start"},      /* implied Start, suffix dropped */
        {"WorkStop", -1, "Work/Stop"},        /* implied Stop */
        {"requestSTART", -1, "request/Start"},/* any case */
        {"RequestStop", 2, "Request/Stop"},   /* explicit Stop */
        {"FooStart", 2, "FooStart/Stop"},     /* Start suffix, Stop opcode: kept */
        {"BarStop", 9, "BarStop/Transfer"},   /* other opcodes never strip */
        {"BazStart", 0, "BazStart"},          /* explicit Info: no implied opcode */
        {"Begin", -1, "Begin"},               /* nothing implied */
        {"Start", -1, "/Start"},              /* the whole name is the suffix: as TraceEvent */
        {"Stopped", -1, "Stopped"},
    };
    enum { N = sizeof cases / sizeof cases[0] };
    tb f, rows, opt, p;
    tb_init(&f);
    tb_init(&rows);
    tb_init(&opt);
    tb_init(&p);
    v6_begin(&f);
    for (int i = 0; i < N; i++) {
        tb_reset(&opt);
        if (cases[i].opcode >= 0)
            opt_u8(&opt, 1, (uint8_t)cases[i].opcode);
        v6_metadata_row(&rows, (uint32_t)(i + 1), "P", (uint32_t)(i + 1), cases[i].stored, NULL,
                        cases[i].opcode >= 0 ? &opt : NULL, 0);
    }
    tb_u16(&p, 0);
    tb_tb(&p, &rows);
    v6_block(&f, 3, p.d, p.len);
    tb_reset(&p);
    v6_thread_row(&p, 1, NULL, UINT64_MAX, UINT64_MAX);
    v6_block(&f, 6, p.d, p.len);
    tb_reset(&p);
    eb_header(&p, 20, 0, 0, 0);
    for (int i = 0; i < N; i++) {
        ev6 e = {.metadata_id = (uint32_t)(i + 1), .seq = (uint32_t)(i + 1), .thread = 1, .capture = 1,
                 .ts = (uint64_t)(i + 1)};
        v6_event_row(&p, &e);
    }
    v6_block(&f, 2, p.d, p.len);
    v6_end(&f);

    ntidx_trace *t = open_ok(&f);
    ntidx_reader *r;
    assert_int_equal(ntidx_reader_open(t, NULL, &r), NTIDX_OK);
    const ntidx_event *ev;
    for (int i = 0; i < N; i++) {
        assert_int_equal(ntidx_reader_next(r, &ev), 1);
        assert_string_equal(ev->metadata->event_name, cases[i].shown);
        assert_string_equal(ev->metadata->name_in_trace, cases[i].stored);
        assert_int_equal(ev->metadata->opcode, cases[i].opcode); /* the trace's, not the implied one */
        assert_true(ntidx_metadata_matches_name(ev->metadata, cases[i].stored));
        assert_true(ntidx_metadata_matches_name(ev->metadata, cases[i].shown));
    }
    assert_int_equal(ntidx_reader_next(r, &ev), 0);
    ntidx_reader_close(&r);
    ntidx_trace_close(&t);
    tb_free(&f);
    tb_free(&rows);
    tb_free(&opt);
    tb_free(&p);
}

/* A V6 label list overrides its events' opcode, version, level and keywords (the spec), per event as
 * TraceEvent applies them: the event's version is the label's; when its opcode is not the one of the
 * template TraceEvent decodes it with, it is renamed "Task/Opcode" (TraceEvent's opcode names for a
 * rename: Send, Opcode(N)); the runtime's events take the manifest's layout for the new version. */
static void test_label_overrides_like_traceevent(void **state)
{
    (void)state;
    tb f, rows, opt, p;
    tb_init(&f);
    tb_init(&rows);
    tb_init(&opt);
    tb_init(&p);
    v6_begin(&f);
    v6_metadata_row(&rows, 1, "P", 7, "Work", NULL, NULL, 0);
    v6_metadata_row(&rows, 2, "Microsoft-Windows-DotNETRuntime", 10, "", NULL, NULL, 0); /* GC/AllocationTick */
    v6_metadata_row(&rows, 3, "P", 8, "JobStart", NULL, NULL, 0);                        /* implied Start */
    opt_u8(&opt, 9, 3); /* version 3 */
    v6_metadata_row(&rows, 4, "Microsoft-Windows-DotNETRuntime", 10, "", NULL, &opt, 0);
    tb_u16(&p, 0);
    tb_tb(&p, &rows);
    v6_block(&f, 3, p.d, p.len);
    tb_reset(&p);
    v6_thread_row(&p, 1, NULL, UINT64_MAX, UINT64_MAX);
    v6_block(&f, 6, p.d, p.len);
    /* label lists 1..5 */
    tb_reset(&p);
    tb_u32(&p, 1);
    tb_u32(&p, 5);
    tb_u8(&p, 7), tb_u8(&p, 6), tb_u8(&p, 0x80 | 10), tb_u8(&p, 2); /* 1: opcode Reply, version 2 */
    tb_u8(&p, 0x80 | 7), tb_u8(&p, 0);                              /* 2: opcode Info */
    tb_u8(&p, 0x80 | 7), tb_u8(&p, 11);                             /* 3: opcode 11, the template's */
    tb_u8(&p, 8), tb_u64(&p, 0xF0), tb_u8(&p, 0x80 | 9), tb_u8(&p, 2); /* 4: keywords, level: no rename */
    tb_u8(&p, 0x80 | 7), tb_u8(&p, 9);                              /* 5: opcode 9: "Send" in a rename */
    v6_block(&f, 8, p.d, p.len);
    tb_reset(&p);
    eb_header(&p, 20, 0, 0, 0);
    static const struct {
        uint32_t meta, label;
    } evs[] = {{1, 1}, {1, 0}, {2, 1}, {2, 3}, {2, 2}, {1, 4}, {3, 5}, {3, 0}, {1, 5}, {4, 1}};
    enum { N = sizeof evs / sizeof evs[0] };
    uint8_t pl[64] = {0};
    for (uint32_t i = 0; i < N; i++) {
        ev6 e = {.metadata_id = evs[i].meta, .seq = i + 1, .thread = 1, .capture = 1, .ts = 10 + i,
                 .label_id = evs[i].label, .payload = pl, .payload_size = sizeof pl};
        v6_event_row(&p, &e);
    }
    v6_block(&f, 2, p.d, p.len);
    v6_end(&f);

    static const struct {
        const char *name;
        uint32_t version;
        int opcode;
        uint32_t overrides;
    } want[N] = {
        {"Work/Reply", 2, 6, 0x100 | 6 | (0x100 | 2) << 9},
        {"Work", 0, -1, 0},
        {"GC/Reply", 2, 6, 0x100 | 6 | (0x100 | 2) << 9}, /* the parser's task, the new opcode */
        {"GC/AllocationTick", 0, 11, 0},                 /* the template's own opcode: no rename */
        {"GC", 0, 0, 0x100},                             /* Info: the task alone */
        {"Work", 0, -1, 0},                              /* keywords and level rename nothing */
        {"Job/Send", 0, 9, 0x100 | 9},                   /* the Start rule first, then the rename */
        {"Job/Start", 0, -1, 0},
        {"Work/Send", 0, 9, 0x100 | 9},
        {"GC/Reply", 2, 6, 0x100 | 6 | (0x100 | 2) << 9},
    };
    ntidx_trace *t = open_ok(&f);
    ntidx_reader *r;
    assert_int_equal(ntidx_reader_open(t, NULL, &r), NTIDX_OK);
    const ntidx_event *ev;
    const ntidx_metadata *first_reply = NULL;
    for (int i = 0; i < N; i++) {
        assert_int_equal(ntidx_reader_next(r, &ev), 1);
        const ntidx_metadata *m = ev->metadata;
        if (strcmp(m->event_name, want[i].name) != 0)
            fail_msg("event %d: '%s', want '%s'", i, m->event_name, want[i].name);
        assert_int_equal(m->version, want[i].version);
        assert_int_equal(m->opcode, want[i].opcode);
        assert_int_equal(m->label_overrides, want[i].overrides);
        assert_int_equal(m->id, evs[i].meta); /* the trace's row, seen through the labels */
        /* a renamed event answers to its own name only */
        assert_true(ntidx_metadata_matches_name(m, want[i].name));
        if (want[i].overrides & 0x100)
            assert_false(ntidx_metadata_matches_name(m, m->name_in_trace));
        if (i == 5) {
            assert_true(m->keywords == 0xF0);
            assert_int_equal(m->level, 2);
        }
        if (i == 2) {
            /* version 2 of GC/AllocationTick: its 7 fields, not version 0's */
            assert_int_equal(m->field_count, 7);
            first_reply = m;
        }
        if (i == 9) {
            assert_ptr_equal(m == first_reply, 0); /* another base row, another derived row */
            assert_int_equal(m->field_count, 7);
        }
    }
    assert_int_equal(ntidx_reader_next(r, &ev), 0);
    ntidx_reader_close(&r);

    ntidx_trace_close(&t);
    tb_free(&f);
    tb_free(&rows);
    tb_free(&opt);
    tb_free(&p);
}

/* Row-level errors through ntx_metadata_parse_v6_row. */
static void test_v6_metadata_errors(void **state)
{
    (void)state;
    enum { ROW_PAST_BLOCK, HEADER_CUT, FIELD_COUNT_BIG, FIELD_PAST_ROW, FIELD_NAME_CUT, TYPE_CUT, FIXED_COUNT_CUT,
           OPT_SIZE_PAST, OPT_KEYWORD_CUT, OPT_STRING_CUT, DEEP_TYPES, DEEP_OBJECTS, NCASES };
    for (int c = 0; c < NCASES; c++) {
        tb row, fields, opt, content;
        tb_init(&row);
        tb_init(&fields);
        tb_init(&opt);
        tb_init(&content);
        int use_fields = 0, use_opt = 0;
        switch (c) {
        case FIELD_COUNT_BIG: tb_u16(&fields, 65535); tb_zeros(&fields, 8); use_fields = 1; break;
        case FIELD_PAST_ROW: tb_u16(&fields, 1); tb_u16(&fields, 200); tb_u8(&fields, 0); use_fields = 1; break;
        case FIELD_NAME_CUT: tb_u16(&fields, 1); tb_u16(&fields, 2); tb_u8(&fields, 5); tb_u8(&fields, 'a'); use_fields = 1; break;
        case TYPE_CUT: tb_u16(&fields, 1); v6_field(&fields, "a", "", 0, 0); use_fields = 1; break;
        case FIXED_COUNT_CUT: tb_u16(&fields, 1); v6_field(&fields, "a", "\x16\x06\x03", 3, 0); use_fields = 1; break;
        case OPT_KEYWORD_CUT: tb_u8(&opt, 3); tb_bytes(&opt, "\x01\x02\x03", 3); use_opt = 1; break;
        case OPT_STRING_CUT: tb_u8(&opt, 4); tb_u8(&opt, 9); tb_u8(&opt, 'x'); use_opt = 1; break;
        case DEEP_TYPES: {
            uint8_t types[41];
            for (int i = 0; i < 40; i++)
                types[i] = 19;
            types[40] = 9;
            tb_u16(&fields, 1);
            v6_field(&fields, "deep", types, sizeof types, 0);
            use_fields = 1;
            break;
        }
        case DEEP_OBJECTS: {
            /* object { object { ... } } 40 levels: each level is Count 1 + a field whose type is Object */
            tb inner;
            tb_init(&inner);
            tb_u16(&inner, 0);
            for (int i = 0; i < 40; i++) {
                tb lvl;
                tb_init(&lvl);
                tb_u16(&lvl, 1);
                tb ty;
                tb_init(&ty);
                tb_u8(&ty, 1);
                tb_tb(&ty, &inner);
                v6_field(&lvl, "o", ty.d, ty.len, 0);
                tb_free(&ty);
                tb_free(&inner);
                inner = lvl;
            }
            tb_tb(&fields, &inner);
            tb_free(&inner);
            use_fields = 1;
            break;
        }
        default: break;
        }
        v6_metadata_row(&row, 1, "P", 1, "E", use_fields ? &fields : NULL, use_opt ? &opt : NULL, 0);
        if (c == ROW_PAST_BLOCK)
            tb_put16(&row, 0, (uint16_t)(row.len + 5));
        if (c == HEADER_CUT) {
            tb_reset(&row);
            tb_u16(&row, 3);
            tb_u8(&row, 1);
            tb_u8(&row, 5); /* provider length 5, 1 byte present */
            tb_u8(&row, 'P');
        }
        if (c == OPT_SIZE_PAST) {
            /* the optional area's size points past the row */
            size_t n = row.len;
            tb_put16(&row, n - 2, 50);
        }
        ntx_arena a;
        ntx_arena_init(&a);
        ntx_cur cur;
        ntx_cur_init(&cur, row.d, 0, row.len);
        ntidx_metadata *m = NULL;
        ntx_err err = {0};
        int rc = ntx_metadata_parse_v6_row(&a, &cur, &m, &err);
        if (rc != NTIDX_E_CORRUPT)
            fail_msg("case %d: rc %d", c, rc);
        assert_contains(err.msg, "offset ");
        assert_true(a.used_bytes < 64 * 1024);
        ntx_arena_free(&a);
        tb_free(&row);
        tb_free(&fields);
        tb_free(&opt);
        tb_free(&content);
    }
}

/* ------------------------------------------------------------------ */
/* Payload JSON                                                        */
/* ------------------------------------------------------------------ */

/*
 * Format the first event of a trace. Returns the rc of ntidx_event_fields_json;
 * json receives the text (or "" on error) and err the message.
 */
static int first_event_json(const tb *f, char *json, size_t jn, char *err, size_t en, int text)
{
    ntidx_trace *t = open_ok(f);
    ntidx_reader *r;
    assert_int_equal(ntidx_reader_open(t, NULL, &r), NTIDX_OK);
    const ntidx_event *ev;
    int rc = ntidx_reader_next(r, &ev);
    if (rc != 1)
        fail_msg("no event: %d (%s)", rc, ntidx_last_error());
    ntidx_buf out = {0};
    /* append after existing text: nothing may be appended on error */
    out.data = malloc(16);
    assert_non_null(out.data);
    memcpy(out.data, "pre:", 5);
    out.len = 4;
    out.cap = 16;
    rc = text ? ntidx_event_fields_text(t, ev, &out) : ntidx_event_fields_json(t, ev, &out);
    assert_true(out.len >= 4);
    assert_memory_equal(out.data, "pre:", 4);
    if (rc == NTIDX_OK) {
        snprintf(json, jn, "%s", out.data + 4);
    } else {
        assert_int_equal(out.len, 4); /* nothing appended */
        assert_int_equal(out.data[4], 0);
        json[0] = 0;
    }
    ntidx_buf_free(&out);
    ntidx_reader_close(&r);
    ntidx_trace_close(&t);
    return rc;
}

/* A V6 trace with one event type {f: <type>} and one event with the payload. */
static void v6_one_field_trace(tb *f, const void *type, size_t tlen, const void *payload, size_t plen)
{
    tb rows, fields, p;
    tb_init(&rows);
    tb_init(&fields);
    tb_init(&p);
    v6_begin(f);
    v6_thread_row(&p, 1, NULL, UINT64_MAX, UINT64_MAX);
    v6_block(f, 6, p.d, p.len);
    tb_u16(&fields, 1);
    v6_field(&fields, "f", type, tlen, 0);
    v6_metadata_row(&rows, 1, "P", 1, "E", &fields, NULL, 0);
    v6_metadata_block(f, &rows);
    tb_reset(&p);
    eb_header(&p, 20, 0, 0, 0);
    ev6 e = {.metadata_id = 1, .seq = 1, .thread = 1, .capture = 1, .ts = 1, .payload = payload,
             .payload_size = (uint32_t)plen};
    v6_event_row(&p, &e);
    v6_block(f, 2, p.d, p.len);
    v6_end(f);
    tb_free(&rows);
    tb_free(&fields);
    tb_free(&p);
}

typedef struct json_case {
    const char *what;
    uint8_t type[40];
    size_t tlen;
    uint8_t payload[48];
    size_t plen;
    const char *json; /* the value of "f" */
} json_case;

#define T(...) {__VA_ARGS__}, sizeof((uint8_t[]){__VA_ARGS__})
#define P(...) {__VA_ARGS__}, sizeof((uint8_t[]){__VA_ARGS__})

static const json_case V6_CASES[] = {
    {"empty", T(0), P(0), "null"},
    {"boolean32 true", T(3), P(1, 0, 0, 0), "true"},
    {"boolean32 false", T(3), P(0, 0, 0, 0), "false"},
    {"boolean32 2", T(3), P(2, 0, 0, 0), "true"},
    {"utf16 unit", T(4), P('A', 0), "\"A\""},
    {"utf16 unit e-acute", T(4), P(0xe9, 0), "\"\xc3\xa9\""},
    {"utf16 unit quote", T(4), P('"', 0), "\"\\\"\""},
    {"utf16 unit lone surrogate", T(4), P(0x00, 0xd8), "\"\xef\xbf\xbd\""},
    {"sbyte", T(5), P(0xff), "-1"},
    {"sbyte max", T(5), P(0x7f), "127"},
    {"byte", T(6), P(0xff), "255"},
    {"int16", T(7), P(0x00, 0x80), "-32768"},
    {"uint16", T(8), P(0xff, 0xff), "65535"},
    {"int32", T(9), P(0x00, 0x00, 0x00, 0x80), "-2147483648"},
    {"uint32", T(10), P(0xff, 0xff, 0xff, 0xff), "4294967295"},
    {"int64", T(11), P(0, 0, 0, 0, 0, 0, 0, 0x80), "-9223372036854775808"},
    {"uint64", T(12), P(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), "18446744073709551615"},
    {"uint64 2^53+1", T(12), P(1, 0, 0, 0, 0, 0, 0x20, 0), "9007199254740993"},
    {"single 1.5", T(13), P(0x00, 0x00, 0xc0, 0x3f), "1.5"},
    {"single 0.1", T(13), P(0xcd, 0xcc, 0xcc, 0x3d), "0.10000000149011612"},
    {"single -0", T(13), P(0, 0, 0, 0x80), "-0"},
    {"single NaN", T(13), P(0x00, 0x00, 0xc0, 0x7f), "\"NaN\""},
    {"single +inf", T(13), P(0x00, 0x00, 0x80, 0x7f), "\"Infinity\""},
    {"single -inf", T(13), P(0x00, 0x00, 0x80, 0xff), "\"-Infinity\""},
    {"double 0.1", T(14), P(0x9a, 0x99, 0x99, 0x99, 0x99, 0x99, 0xb9, 0x3f), "0.10000000000000001"},
    {"double -2.25", T(14), P(0, 0, 0, 0, 0, 0, 0x02, 0xc0), "-2.25"},
    {"double 1e300", T(14), P(0x9c, 0x75, 0x00, 0x88, 0x3c, 0xe4, 0x37, 0x7e), "1.0000000000000001e+300"},
    {"decimal", T(15), P(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), "\"000102030405060708090a0b0c0d0e0f\""},
    {"datetime (SYSTEMTIME)", T(16), P(0xe8, 0x07, 3, 0, 2, 0, 5, 0, 6, 0, 7, 0, 8, 0, 9, 0), "\"2024-03-05T06:07:08.009Z\""},
    {"guid", T(17), P(0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff),
     "\"33221100-5544-7766-8899-aabbccddeeff\""},
    {"utf16 string", T(18), P('h', 0, 0xe9, 0, 0x3d, 0xd8, 0x00, 0xde, '"', 0, '\\', 0, '\n', 0, 1, 0, 0x7f, 0, 0, 0),
     "\"h\xc3\xa9\xf0\x9f\x98\x80\\\"\\\\\\n\\u0001\\u007f\""},
    {"utf16 string empty", T(18), P(0, 0), "\"\""},
    {"array of int16", T(19, 7), P(3, 0, 1, 0, 0xfe, 0xff, 3, 0), "[1,-2,3]"},
    {"array empty", T(19, 9), P(0, 0), "[]"},
    {"array of bytes", T(19, 6), P(3, 0, 1, 2, 255), "[1,2,255]"},
    {"array of sbytes", T(19, 5), P(2, 0, 0x80, 0x7f), "[-128,127]"},
    {"array of utf16 units", T(19, 4), P(2, 0, 'a', 0, 0xe9, 0), "\"a\xc3\xa9\""},
    {"array of utf8 units", T(19, 23), P(3, 0, 'x', 0xc3, 0xa9), "\"x\xc3\xa9\""},
    {"array of objects", T(19, 1, 2, 0, 3, 0, 1, 'a', 0x06, 3, 0, 1, 'b', 0x1a), P(2, 0, 1, 0, 2, 1),
     "[{\"a\":1,\"b\":false},{\"a\":2,\"b\":true}]"},
    {"array of arrays", T(19, 19, 6), P(2, 0, 1, 0, 7, 2, 0, 8, 9), "[[7],[8,9]]"},
    {"array of strings", T(19, 18), P(2, 0, 'a', 0, 0, 0, 0, 0), "[\"a\",\"\"]"},
    {"varint", T(20), P(3), "-2"},
    {"varint positive", T(20), P(0xac, 0x02), "150"},
    {"varint min", T(20), P(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01), "-9223372036854775808"},
    {"varint max", T(20), P(0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01), "9223372036854775807"},
    {"varuint", T(21), P(0xac, 0x02), "300"},
    {"varuint max", T(21), P(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01), "18446744073709551615"},
    {"fixed array of int32", T(22, 9, 2, 0), P(5, 0, 0, 0, 0xfa, 0xff, 0xff, 0xff), "[5,-6]"},
    {"fixed array empty", T(22, 9, 0, 0), P(0), "[]"},
    {"fixed array of utf8 units", T(22, 23, 3, 0), P('a', 'b', 'c'), "\"abc\""},
    {"fixed array of utf16 units", T(22, 4, 2, 0), P('h', 0, 'i', 0), "\"hi\""},
    {"fixed array of fixed arrays", T(22, 22, 6, 2, 0, 2, 0), P(1, 2, 3, 4), "[[1,2],[3,4]]"},
    {"utf8 unit", T(23), P('x'), "\"x\""},
    {"utf8 unit invalid alone", T(23), P(0xc3), "\"\xef\xbf\xbd\""},
    {"utf8 unit control", T(23), P('\t'), "\"\\t\""},
    {"relloc of bytes", T(24, 6), P(1, 0, 3, 0, 0xee, 1, 2, 3), "[1,2,3]"},
    {"relloc empty", T(24, 6), P(0, 0, 0, 0), "[]"},
    {"relloc of int16", T(24, 7), P(0, 0, 4, 0, 0xff, 0xff, 2, 0), "[-1,2]"},
    {"relloc of utf8 units", T(24, 23), P(0, 0, 2, 0, 'o', 'k'), "\"ok\""},
    {"relloc of utf16 units", T(24, 4), P(0, 0, 4, 0, 'o', 0, 'k', 0), "\"ok\""},
    {"relloc of objects", T(24, 1, 2, 0, 3, 0, 1, 'a', 0x06, 3, 0, 1, 'b', 0x06), P(0, 0, 4, 0, 1, 2, 3, 4),
     "[{\"a\":1,\"b\":2},{\"a\":3,\"b\":4}]"},
    {"dataloc of bytes", T(25, 6), P(4, 0, 2, 0, 7, 8), "[7,8]"},
    {"dataloc pointing before itself", T(25, 6), P(0, 0, 4, 0), "[0,0,4,0]"},
    {"dataloc empty at the end", T(25, 6), P(4, 0, 0, 0), "[]"},
    {"boolean8 false", T(26), P(0), "false"},
    {"boolean8 true", T(26), P(1), "true"},
    {"boolean8 2", T(26), P(2), "true"},
    {"object", T(1, 2, 0, 3, 0, 1, 'x', 9, 6, 0, 2, 'i', 'n', 1, 0, 0), P(1, 0, 0, 0), "{\"x\":1,\"in\":{}}"},
    {"fixed array of 3 empties", T(22, 0, 3, 0), P(0), "[null,null,null]"},
    /* element sizes that do not fit a long (65535^4 + 65535^2): an empty location holds none of them */
    {"relloc of an object of huge fixed arrays",
     T(24, 1, 2, 0, 15, 0, 1, 'a', 22, 22, 22, 22, 6, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 9, 0, 1, 'b', 22,
       22, 6, 0xff, 0xff, 0xff, 0xff),
     P(0, 0, 0, 0), "[]"},
    {"fixed array of 2x2 empty objects", T(22, 22, 1, 0, 0, 2, 0, 2, 0), P(0), "[[{},{}],[{},{}]]"},
};

static void test_v6_payload_json_every_type(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof V6_CASES / sizeof V6_CASES[0]; i++) {
        const json_case *jc = &V6_CASES[i];
        tb f;
        tb_init(&f);
        v6_one_field_trace(&f, jc->type, jc->tlen, jc->payload, jc->plen);
        char json[512], err[256], want[512];
        int rc = first_event_json(&f, json, sizeof json, err, sizeof err, 0);
        snprintf(want, sizeof want, "{\"f\":%s}", jc->json);
        if (rc != NTIDX_OK)
            fail_msg("case '%s': rc %d (%s)", jc->what, rc, ntidx_last_error());
        if (strcmp(json, want) != 0)
            fail_msg("case '%s': got %s, want %s", jc->what, json, want);
        tb_free(&f);
    }
}

/* The same field types in a V5 trace (V1 field list; DateTime is a FILETIME there). */
typedef struct v5_case {
    const char *what;
    uint32_t tc;
    uint8_t payload[24];
    size_t plen;
    const char *json;
} v5_case;

static const v5_case V5_CASES[] = {
    {"boolean32", 3, P(1, 0, 0, 0), "true"},
    {"utf16 unit", 4, P('Z', 0), "\"Z\""},
    {"sbyte", 5, P(0x80), "-128"},
    {"byte", 6, P(200), "200"},
    {"int16", 7, P(0xfe, 0xff), "-2"},
    {"uint16", 8, P(0x34, 0x12), "4660"},
    {"int32", 9, P(0xff, 0xff, 0xff, 0xff), "-1"},
    {"uint32", 10, P(0x78, 0x56, 0x34, 0x12), "305419896"},
    {"int64", 11, P(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f), "9223372036854775807"},
    {"uint64", 12, P(0, 0, 0, 0, 0, 0, 0, 0x80), "9223372036854775808"},
    {"single", 13, P(0, 0, 0x20, 0xc1), "-10"},
    {"double", 14, P(0, 0, 0, 0, 0, 0, 0xf0, 0x3f), "1"},
    {"decimal", 15, P(0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80), "\"ff000000000000000000000000000080\""},
    {"datetime epoch 1601", 16, P(0, 0, 0, 0, 0, 0, 0, 0), "\"1601-01-01T00:00:00.0000000Z\""},
    {"datetime unix epoch", 16, P(0x00, 0x80, 0x3e, 0xd5, 0xde, 0xb1, 0x9d, 0x01), "\"1970-01-01T00:00:00.0000000Z\""},
    {"datetime before unix epoch", 16, P(0xff, 0x7f, 0x3e, 0xd5, 0xde, 0xb1, 0x9d, 0x01),
     "\"1969-12-31T23:59:59.9999999Z\""},
    {"datetime 2021", 16, P(0x07, 0xa0, 0x7a, 0x15, 0xb4, 0x10, 0xd7, 0x01), "\"2021-03-04T05:06:07.1234567Z\""},
    {"guid", 17, P(1, 0, 0, 0, 2, 0, 3, 0, 4, 5, 6, 7, 8, 9, 10, 11), "\"00000001-0002-0003-0405-060708090a0b\""},
    {"utf16 string", 18, P('o', 0, 0x00, 0xd8, 'k', 0, 0, 0), "\"o\xef\xbf\xbdk\""},
};

static void v5_trace_with_blob(tb *f, const tb *blob, const void *payload, size_t plen)
{
    v5_begin(f);
    v5_metadata_block(f, blob);
    size_t at = fs_begin_block(f, 5, "EventBlock", 2);
    eb_header(f, 20, 0, 0, 0);
    ev5 e = {.metadata_id = 1, .seq = 1, .thread = 1, .capture = 1, .ts = 1, .payload = payload,
             .payload_size = (uint32_t)plen};
    v5_event_row(f, &e);
    fs_end_block(f, at);
    fs_end(f);
}

static void test_v5_payload_json_every_type(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof V5_CASES / sizeof V5_CASES[0]; i++) {
        const v5_case *vc = &V5_CASES[i];
        tb f, blob;
        tb_init(&f);
        tb_init(&blob);
        v5_metadata_header(&blob, 1, "P", 1, "E", 0, 0, 4);
        tb_u32(&blob, 1);
        tb_u32(&blob, vc->tc);
        tb_utf16z(&blob, "f");
        v5_trace_with_blob(&f, &blob, vc->payload, vc->plen);
        char json[512], err[256], want[512];
        int rc = first_event_json(&f, json, sizeof json, err, sizeof err, 0);
        snprintf(want, sizeof want, "{\"f\":%s}", vc->json);
        if (rc != NTIDX_OK)
            fail_msg("case '%s': rc %d (%s)", vc->what, rc, ntidx_last_error());
        if (strcmp(json, want) != 0)
            fail_msg("case '%s': got %s, want %s", vc->what, json, want);
        tb_free(&f);
        tb_free(&blob);
    }
}

/* A V5 event with nested V1 objects and V2Params arrays, as one exact JSON document. */
static void test_v5_payload_json_nested_and_arrays(void **state)
{
    (void)state;
    tb f, blob, v2, pl;
    tb_init(&f);
    tb_init(&blob);
    tb_init(&v2);
    tb_init(&pl);
    /* V1: {int32 a, object o {uint16 x, string s}, guid g} */
    v5_metadata_header(&blob, 1, "P", 1, "E", 0, 0, 4);
    tb_u32(&blob, 3);
    tb_u32(&blob, 9);
    tb_utf16z(&blob, "a");
    tb_u32(&blob, 1);
    tb_u32(&blob, 2);
    tb_u32(&blob, 8);
    tb_utf16z(&blob, "x");
    tb_u32(&blob, 18);
    tb_utf16z(&blob, "s");
    tb_utf16z(&blob, "o");
    tb_u32(&blob, 17);
    tb_utf16z(&blob, "g");
    tb_u32(&pl, 7);
    tb_u16(&pl, 8);
    tb_utf16z(&pl, "hi");
    uint8_t g[16];
    guid_fill(g, 0);
    tb_bytes(&pl, g, 16);
    v5_trace_with_blob(&f, &blob, pl.d, pl.len);
    char json[512], err[256];
    assert_int_equal(first_event_json(&f, json, sizeof json, err, sizeof err, 0), NTIDX_OK);
    assert_string_equal(json, "{\"a\":7,\"o\":{\"x\":8,\"s\":\"hi\"},\"g\":\"03020100-0504-0706-0809-0a0b0c0d0e0f\"}");
    /* the text form: top-level name=value pairs, nested values as JSON */
    assert_int_equal(first_event_json(&f, json, sizeof json, err, sizeof err, 1), NTIDX_OK);
    assert_string_equal(json, "a=7 o={\"x\":8,\"s\":\"hi\"} g=\"03020100-0504-0706-0809-0a0b0c0d0e0f\"");

    /* V2Params: {int32[] arr, {int32 a, int64 b}[] objs, char[] chars} */
    tb_reset(&f);
    tb_reset(&blob);
    tb_reset(&pl);
    v5_metadata_header(&blob, 1, "P", 1, "E", 0, 0, 4);
    tb_u32(&blob, 0);
    size_t at, at2;
    tb_u32(&v2, 3);
    v2_field_begin(&v2, &at, "arr", 19);
    tb_u32(&v2, 9);
    v2_field_end(&v2, at, 0);
    v2_field_begin(&v2, &at, "objs", 19);
    tb_u32(&v2, 1);
    tb_u32(&v2, 2);
    v2_field_begin(&v2, &at2, "a", 9);
    v2_field_end(&v2, at2, 0);
    v2_field_begin(&v2, &at2, "b", 11);
    v2_field_end(&v2, at2, 0);
    v2_field_end(&v2, at, 0);
    v2_field_begin(&v2, &at, "chars", 19);
    tb_u32(&v2, 4);
    v2_field_end(&v2, at, 2);
    add_tag(&blob, 2, &v2);
    tb_u16(&pl, 2);
    tb_u32(&pl, 1);
    tb_u32(&pl, 0xfffffffe);
    tb_u16(&pl, 1);
    tb_u32(&pl, 3);
    tb_u64(&pl, 0x100000000ULL);
    tb_u16(&pl, 3);
    tb_u16(&pl, 'a');
    tb_u16(&pl, '/');
    tb_u16(&pl, 0xe9);
    v5_trace_with_blob(&f, &blob, pl.d, pl.len);
    assert_int_equal(first_event_json(&f, json, sizeof json, err, sizeof err, 0), NTIDX_OK);
    assert_string_equal(json, "{\"arr\":[1,-2],\"objs\":[{\"a\":3,\"b\":4294967296}],\"chars\":\"a/\xc3\xa9\"}");
    tb_free(&f);
    tb_free(&blob);
    tb_free(&v2);
    tb_free(&pl);
}

/* A metadata row without a field layout formats as {} whatever the payload. */
static void test_payload_without_layout(void **state)
{
    (void)state;
    tb f, blob;
    tb_init(&f);
    tb_init(&blob);
    v5_metadata_header(&blob, 1, "P", 1, "E", 0, 0, 4);
    v5_trace_with_blob(&f, &blob, "\x01\x02\x03", 3);
    char json[64], err[64];
    assert_int_equal(first_event_json(&f, json, sizeof json, err, sizeof err, 0), NTIDX_OK);
    assert_string_equal(json, "{}");
    assert_int_equal(first_event_json(&f, json, sizeof json, err, sizeof err, 1), NTIDX_OK);
    assert_string_equal(json, "");
    tb_free(&f);
    tb_free(&blob);
}

/* Payloads that do not fit their metadata: NTIDX_E_PAYLOAD with a message, nothing appended. */
static const json_case BAD_CASES[] = {
    {"relloc past the payload", T(24, 6), P(0, 0, 10, 0, 1, 2), "outside the payload"},
    {"relloc position past the payload", T(24, 6), P(0x10, 0, 1, 0, 1, 2), "outside the payload"},
    {"dataloc past the payload", T(25, 6), P(2, 0, 8, 0, 1, 2), "outside the payload"},
    {"dataloc position huge", T(25, 6), P(0xff, 0xff, 0xff, 0xff), "outside the payload"},
    {"relloc size not a multiple", T(24, 9), P(0, 0, 3, 0, 1, 2, 3), "not a multiple"},
    {"int64 cut short", T(11), P(1, 2, 3, 4), "needs 8 bytes"},
    {"guid cut short", T(17), P(1, 2, 3), "needs 16 bytes"},
    {"one byte for an int32", T(9), P(0), "needs 4 bytes"},
    {"string without terminator", T(18), P('a', 0, 'b'), "terminator"},
    {"array count past the payload", T(19, 9), P(5, 0, 1, 0, 0, 0), "cannot fit"},
    {"array element cut", T(19, 9), P(2, 0, 1, 0, 0, 0), "needs 4 bytes"},
    {"array of chars past the payload", T(19, 4), P(9, 0, 'a', 0), "characters"},
    {"array count cut", T(19, 9), P(5), "needs 2 bytes"},
    {"fixed array past the payload", T(22, 11, 2, 0), P(1, 2, 3, 4, 5, 6, 7, 8, 9), "needs 8 bytes"},
    {"varuint cut", T(21), P(0x80, 0x80), "variable-length"},
    {"varint too long", T(20), P(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x81, 0x01), "variable-length"},
    {"unknown type code", T(99), P(1, 2, 3, 4), "unknown type"},
    {"type code 2", T(2), P(1, 2, 3, 4), "unknown type"},
    {"nested object cut", T(1, 1, 0, 3, 0, 1, 'x', 12), P(1, 2), "needs 8 bytes"},
    {"overlapping locations", T(22, 25, 6, 5, 0),
     P(0, 0, 20, 0, 0, 0, 20, 0, 0, 0, 20, 0, 0, 0, 20, 0, 0, 0, 20, 0, 1, 2, 3, 4), "locations reference"},
    /* element sizes multiply with nesting: 65535^5 bytes must not overflow the size computation */
    {"fixed arrays nested 5 deep", T(22, 22, 22, 22, 22, 6, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff),
     P(1, 2, 3), "cannot fit"},
    {"relloc of fixed arrays nested 5 deep",
     T(24, 22, 22, 22, 22, 22, 6, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), P(0, 0, 1, 0, 7),
     "not a multiple"},
    /* zero-size elements consume no payload: nesting them must not multiply the output */
    {"fixed arrays of fixed arrays of empties", T(22, 22, 0, 0xff, 0xff, 0xff, 0xff), P(0), "empty elements"},
    {"array of fixed arrays of empties", T(19, 22, 0, 0xff, 0xff), P(0xff, 0xff), "empty elements"},
    {"fixed arrays of empty objects, 3 deep", T(22, 22, 22, 1, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), P(0),
     "empty elements"},
};

static void test_payload_errors(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof BAD_CASES / sizeof BAD_CASES[0]; i++) {
        const json_case *bc = &BAD_CASES[i];
        tb f;
        tb_init(&f);
        v6_one_field_trace(&f, bc->type, bc->tlen, bc->payload, bc->plen);
        char json[256], err[256];
        int rc = first_event_json(&f, json, sizeof json, err, sizeof err, 0);
        if (rc != NTIDX_E_PAYLOAD)
            fail_msg("case '%s': rc %d, json %s", bc->what, rc, json);
        if (!strstr(ntidx_last_error(), bc->json) || !strstr(ntidx_last_error(), "field '"))
            fail_msg("case '%s': message '%s' lacks '%s'", bc->what, err, bc->json);
        rc = first_event_json(&f, json, sizeof json, err, sizeof err, 1);
        assert_int_equal(rc, NTIDX_E_PAYLOAD);
        /* a NULL or empty message buffer is fine */
        ntidx_trace *t = open_ok(&f);
        ntidx_reader *r;
        assert_int_equal(ntidx_reader_open(t, NULL, &r), NTIDX_OK);
        const ntidx_event *ev;
        assert_int_equal(ntidx_reader_next(r, &ev), 1);
        ntidx_buf out = {0};
        assert_int_equal(ntidx_event_fields_json(t, ev, &out), NTIDX_E_PAYLOAD);
        assert_int_equal(out.len, 0);
        ntidx_buf_free(&out);
        ntidx_reader_close(&r);
        ntidx_trace_close(&t);
        tb_free(&f);
    }
}

/*
 * What TraceEvent refuses as malformed, ntidx refuses too, after the events before it: a RelLoc or
 * DataLoc of an element without a fixed size (refused where the metadata defines it, whether or not an
 * event uses it), a metadata id defined again without a metadata flush between, a thread index defined
 * again without a thread flush or a RemoveThread between. A flush makes the same ids fine.
 */
static int read_all_events(const tb *f, int *events)
{
    ntidx_trace *t = open_ok(f);
    ntidx_reader *r;
    assert_int_equal(ntidx_reader_open(t, NULL, &r), NTIDX_OK);
    const ntidx_event *ev;
    int rc;
    *events = 0;
    while ((rc = ntidx_reader_next(r, &ev)) == 1)
        (*events)++;
    ntidx_reader_close(&r);
    ntidx_trace_close(&t);
    return rc;
}

/* A V6 trace: thread 1; metadata 1; an event; then `what` (0 a metadata row for id 1 again, 1 a thread
   row for index 1 again), after a sequence point with `flags`; then an event. */
static void v6_redefinition_trace(tb *f, int what, uint32_t flags)
{
    tb p, rows, fields;
    tb_init(&p);
    tb_init(&rows);
    tb_init(&fields);
    v6_begin(f);
    v6_thread_row(&p, 1, NULL, UINT64_MAX, 77);
    v6_block(f, 6, p.d, p.len);
    v6_simple_metadata(f, 1, "P", "E");
    tb_reset(&p);
    eb_header(&p, 20, 0, 0, 0);
    ev6 e = {.metadata_id = 1, .seq = 1, .thread = 1, .capture = 1, .ts = 10};
    v6_event_row(&p, &e);
    v6_block(f, 2, p.d, p.len);
    uint64_t th[1] = {1};
    uint32_t seq[1] = {1};
    v6_sequence_point(f, 20, flags, th, seq, 1);
    if (what == 0) {
        v6_simple_metadata(f, 1, "P", "Again");
    } else {
        tb_reset(&p);
        v6_thread_row(&p, 1, "again", UINT64_MAX, 78);
        v6_block(f, 6, p.d, p.len);
    }
    if ((flags & 2) && what == 1)
        v6_simple_metadata(f, 1, "P", "E"); /* metadata was flushed too: define it for the next event */
    if ((flags & 1) && what == 0) {
        tb_reset(&p);
        v6_thread_row(&p, 1, NULL, UINT64_MAX, 77);
        v6_block(f, 6, p.d, p.len);
    }
    tb_reset(&p);
    eb_header(&p, 20, 0, 0, 0);
    ev6 e2 = {.metadata_id = 1, .seq = flags & 1 ? 1 : 2, .thread = 1, .capture = 1, .ts = 30};
    v6_event_row(&p, &e2);
    v6_block(f, 2, p.d, p.len);
    v6_end(f);
    tb_free(&p);
    tb_free(&rows);
    tb_free(&fields);
}

static void test_traceevent_refusals(void **state)
{
    (void)state;
    static const struct {
        const char *what;
        uint8_t type[8];
        size_t tlen;
    } locs[] = {{"relloc of a string", T(24, 18)},
                {"relloc of counted arrays", T(24, 19, 6)},
                {"dataloc of a varint", T(25, 20)},
                {"dataloc of a fixed array of strings", T(25, 22, 18, 3, 0)}};
    for (size_t i = 0; i < sizeof locs / sizeof locs[0]; i++) {
        tb f;
        tb_init(&f);
        v6_one_field_trace(&f, locs[i].type, locs[i].tlen, "\0\0\0\0", 4);
        int events;
        int rc = read_all_events(&f, &events);
        if (rc != NTIDX_E_CORRUPT || !strstr(ntidx_last_error(), "has no fixed size"))
            fail_msg("%s: rc %d (%s)", locs[i].what, rc, ntidx_last_error());
        assert_int_equal(events, 0);
        tb_free(&f);
    }
    /* fixed-size elements are fine: a RelLoc of RelLocs (4 bytes each), of a fixed array of int32s */
    static const struct {
        uint8_t type[12];
        size_t tlen;
    } fine[] = {{T(24, 24, 6)}, {T(24, 22, 9, 2, 0)}, {T(25, 6)}};
    for (size_t i = 0; i < sizeof fine / sizeof fine[0]; i++) {
        tb f;
        tb_init(&f);
        v6_one_field_trace(&f, fine[i].type, fine[i].tlen, "\0\0\0\0", 4);
        int events;
        assert_int_equal(read_all_events(&f, &events), 0);
        assert_int_equal(events, 1);
        tb_free(&f);
    }
    for (int what = 0; what < 2; what++) {
        /* without the flush: refused at the second definition, after the first event */
        tb f;
        tb_init(&f);
        v6_redefinition_trace(&f, what, 0);
        int events;
        int rc = read_all_events(&f, &events);
        if (rc != NTIDX_E_CORRUPT || !strstr(ntidx_last_error(), what ? "thread index 1 is defined again"
                                                                      : "metadata id 1 is defined again"))
            fail_msg("redefinition %d: rc %d (%s)", what, rc, ntidx_last_error());
        assert_int_equal(events, 1);
        assert_true(ntidx_last_error_info()->offset != NTIDX_NO_OFFSET);
        tb_free(&f);
        /* with the flush of what is defined again: read */
        tb_init(&f);
        v6_redefinition_trace(&f, what, what ? 1u : 2u);
        rc = read_all_events(&f, &events);
        if (rc != 0)
            fail_msg("redefinition %d after its flush: rc %d (%s)", what, rc, ntidx_last_error());
        assert_int_equal(events, 2);
        tb_free(&f);
    }
}

/* A bad payload is per event: the reader and the formatter carry on with the next one. */
static void test_payload_error_is_per_event(void **state)
{
    (void)state;
    tb f, rows, fields, p;
    tb_init(&f);
    tb_init(&rows);
    tb_init(&fields);
    tb_init(&p);
    v6_begin(&f);
    v6_thread_row(&p, 1, NULL, UINT64_MAX, UINT64_MAX);
    v6_block(&f, 6, p.d, p.len);
    tb_u16(&fields, 2);
    v6_field(&fields, "n", "\x09", 1, 0);
    v6_field(&fields, "r", "\x18\x06", 2, 0);
    v6_metadata_row(&rows, 1, "P", 1, "E", &fields, NULL, 0);
    v6_metadata_block(&f, &rows);
    tb_reset(&p);
    eb_header(&p, 20, 0, 0, 0);
    static const uint8_t good[] = {1, 0, 0, 0, 0, 0, 1, 0, 42};
    static const uint8_t bad[] = {2, 0, 0, 0, 0, 0, 9, 0, 42};
    static const uint8_t shortp[] = {3, 0};
    const uint8_t *pls[] = {good, bad, shortp, good};
    const size_t lens[] = {sizeof good, sizeof bad, sizeof shortp, sizeof good};
    for (int i = 0; i < 4; i++) {
        ev6 e = {.metadata_id = 1, .seq = (uint32_t)i + 1, .thread = 1, .capture = 1, .ts = (uint64_t)i,
                 .payload = pls[i], .payload_size = (uint32_t)lens[i]};
        v6_event_row(&p, &e);
    }
    v6_block(&f, 2, p.d, p.len);
    v6_end(&f);
    ntidx_trace *t = open_ok(&f);
    for (int order = 0; order < 2; order++) {
        ntidx_reader_options o;
        ntidx_reader_options_defaults(&o);
        o.order = order ? NTIDX_ORDER_TIME : NTIDX_ORDER_FILE;
        ntidx_reader *r;
        assert_int_equal(ntidx_reader_open(t, &o, &r), NTIDX_OK);
        const ntidx_event *ev;
        ntidx_buf out = {0};
        static const int want_rc[] = {NTIDX_OK, NTIDX_E_PAYLOAD, NTIDX_E_PAYLOAD, NTIDX_OK};
        for (int i = 0; i < 4; i++) {
            assert_int_equal(ntidx_reader_next(r, &ev), 1);
            size_t before = out.len;
            int rc = ntidx_event_fields_json(t, ev, &out);
            assert_int_equal(rc, want_rc[i]);
            if (rc == NTIDX_OK) {
                assert_string_equal(out.data + before, "{\"n\":1,\"r\":[42]}");
            } else {
                /* the reason, and where: the field's byte in the trace, within the event's payload */
                const ntidx_error_info *ei = ntidx_last_error_info();
                assert_int_equal(out.len, before);
                assert_int_equal(ei->code, NTIDX_E_PAYLOAD);
                assert_contains(ei->what, i == 1 ? "field 'r'" : "field 'n'");
                assert_contains(ei->what, "payload offset ");
                assert_true(ei->offset >= (uint64_t)(ev->payload - f.d) &&
                            ei->offset <= (uint64_t)(ev->payload - f.d) + ev->payload_size);
                assert_string_equal(ei->file, "mem");
            }
        }
        assert_int_equal(ntidx_reader_next(r, &ev), 0);
        assert_int_equal(ntidx_reader_complete(r), 1);
        assert_string_equal(out.data, "{\"n\":1,\"r\":[42]}{\"n\":1,\"r\":[42]}");
        ntidx_buf_free(&out);
        ntidx_reader_close(&r);
    }
    ntidx_trace_close(&t);
    tb_free(&f);
    tb_free(&rows);
    tb_free(&fields);
    tb_free(&p);
}

/* Long strings and arrays go past the formatter's stack buffers. */
static void test_payload_long_values(void **state)
{
    (void)state;
    tb pl;
    tb_init(&pl);
    for (int i = 0; i < 3000; i++)
        tb_u16(&pl, (uint16_t)(i % 2 ? 0x20ac : 'a')); /* alternating 1- and 3-byte UTF-8 */
    tb_u16(&pl, 0);
    tb f;
    tb_init(&f);
    v6_one_field_trace(&f, "\x12", 1, pl.d, pl.len);
    ntidx_trace *t = open_ok(&f);
    ntidx_reader *r;
    assert_int_equal(ntidx_reader_open(t, NULL, &r), NTIDX_OK);
    const ntidx_event *ev;
    assert_int_equal(ntidx_reader_next(r, &ev), 1);
    ntidx_buf out = {0};
    assert_int_equal(ntidx_event_fields_json(t, ev, &out), NTIDX_OK);
    assert_int_equal(out.len, strlen("{\"f\":\"\"}") + 1500 * 4);
    assert_memory_equal(out.data, "{\"f\":\"a\xe2\x82\xac" "a", 11);
    ntidx_buf_free(&out);
    ntidx_reader_close(&r);
    ntidx_trace_close(&t);
    tb_free(&f);
    tb_free(&pl);
}

/* The first event's values through the tree decoder (ntidx_values), as "{name:json,...}"; "" and the message in
   err on an error. `interpret`: the interpreter alone, else by the plans (twice: made, then taken). */
static void first_event_tree(const tb *f, int interpret, char *json, size_t jn, char *err, size_t en)
{
    ntidx_trace *t = open_ok(f);
    ntidx_reader *r;
    assert_int_equal(ntidx_reader_open(t, NULL, &r), NTIDX_OK);
    const ntidx_event *ev;
    assert_int_equal(ntidx_reader_next(r, &ev), 1);
    ntidx_values *vs;
    assert_int_equal(ntidx_values_new(&vs), NTIDX_OK);
    ntx_values_interpret_only(vs, interpret);
    for (int round = 0; round < 2; round++) {
        json[0] = err[0] = 0;
        if (ntidx_values_decode(vs, t, ev) != NTIDX_OK) {
            snprintf(err, en, "%s", ntidx_last_error_info()->what);
            continue;
        }
        assert_int_equal(ntx_values_used(vs), ev->payload_size);
        ntidx_buf b = {0};
        assert_int_equal(ntidx_buf_append(&b, "{", 1), NTIDX_OK);
        for (size_t i = 0; i < ntidx_values_count(vs); i++) {
            const ntidx_value *v = ntidx_values_at(vs, i);
            if (i)
                assert_int_equal(ntidx_buf_append(&b, ",", 1), NTIDX_OK);
            assert_int_equal(ntidx_buf_append_json_string(&b, v->name, strlen(v->name)), NTIDX_OK);
            assert_int_equal(ntidx_buf_append(&b, ":", 1), NTIDX_OK);
            assert_int_equal(ntidx_value_json(vs, v, &b), NTIDX_OK);
        }
        assert_int_equal(ntidx_buf_append(&b, "}", 1), NTIDX_OK);
        snprintf(json, jn, "%s", b.data);
        ntidx_buf_free(&b);
    }
    ntidx_values_free(&vs);
    ntidx_reader_close(&r);
    ntidx_trace_close(&t);
}

/*
 * Booleans as EventSource writes them: one byte in TraceLogging events
 * (EventSource.Write: the fields of one unnamed object) and, on .NET 10, in
 * its other events too, under metadata that says Boolean (type 3, four bytes
 * by the spec and for TraceEvent). Four bytes when the payload is laid out
 * so; one byte when four do not fit and one accounts for the payload
 * exactly; else the four-byte reading's error. The same through the JSON
 * formatter, the plans and the interpreter.
 */
static void test_payload_bool_as_eventsource_writes_it(void **state)
{
    (void)state;
    enum { BOOL = 3, I32 = 9, F64 = 14, STR = 18 };
    static const struct {
        const char *what;
        int wrapped; /* the fields are those of one unnamed object, as EventSource.Write lays them out */
        int n;
        struct { const char *name; uint32_t type; } fields[4];
        const char *payload;
        size_t plen;
        const char *json; /* NULL: an error */
    } cases[] = {
        {"TraceLogging, a bool last", 1, 4, {{"Name", STR}, {"Count", I32}, {"Ratio", F64}, {"Ok", BOOL}},
         "a\0l\0p\0h\0a\0\0\0" "\3\0\0\0" "\0\0\0\0\0\0\xe8\x3f" "\1", 25,
         "{\"\":{\"Name\":\"alpha\",\"Count\":3,\"Ratio\":0.75,\"Ok\":true}}"},
        {"TraceLogging, bools around an int", 1, 3, {{"Ok", BOOL}, {"Count", I32}, {"No", BOOL}},
         "\1" "\x44\x33\x22\x11" "\0", 6, "{\"\":{\"Ok\":true,\"Count\":287454020,\"No\":false}}"},
        {"TraceLogging, a bool before a string", 1, 2, {{"Ok", BOOL}, {"Name", STR}}, "\1" "a\0b\0\0\0", 7,
         "{\"\":{\"Ok\":true,\"Name\":\"ab\"}}"},
        {"WriteEvent on .NET 10: one byte", 0, 3, {{"a", I32}, {"ok", BOOL}, {"b", I32}},
         "\x11\x11\x11\x11" "\1" "\x22\x22\x22\x22", 9, "{\"a\":286331153,\"ok\":true,\"b\":572662306}"},
        {"a four-byte BOOL", 0, 3, {{"a", I32}, {"ok", BOOL}, {"b", I32}},
         "\x11\x11\x11\x11" "\1\0\0\0" "\x22\x22\x22\x22", 12, "{\"a\":286331153,\"ok\":true,\"b\":572662306}"},
        {"a four-byte BOOL last", 0, 2, {{"a", I32}, {"ok", BOOL}}, "\1\0\0\0" "\0\1\0\0", 8,
         "{\"a\":1,\"ok\":true}"},
        {"fits neither way", 0, 2, {{"ok", BOOL}, {"a", I32}}, "\1\2\3", 3, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tb f, blob;
        tb_init(&f);
        tb_init(&blob);
        v5_metadata_header(&blob, 1, "P", 1, "E", 0, 0, 4);
        if (cases[i].wrapped) { /* V1: one object field named "" holding the fields */
            tb_u32(&blob, 1);
            tb_u32(&blob, 1);
        }
        tb_u32(&blob, (uint32_t)cases[i].n);
        for (int k = 0; k < cases[i].n; k++) {
            tb_u32(&blob, cases[i].fields[k].type);
            tb_utf16z(&blob, cases[i].fields[k].name);
        }
        if (cases[i].wrapped)
            tb_utf16z(&blob, "");
        v5_trace_with_blob(&f, &blob, cases[i].payload, cases[i].plen);
        char json[512], err[256], tree[512], terr[256];
        int rc = first_event_json(&f, json, sizeof json, err, sizeof err, 0);
        const char *want = cases[i].json;
        if (want && (rc != NTIDX_OK || strcmp(json, want) != 0))
            fail_msg("%s: JSON %s (%s), want %s", cases[i].what, json, rc ? ntidx_last_error() : "", want);
        if (!want) {
            assert_int_equal(rc, NTIDX_E_PAYLOAD);
            assert_contains(ntidx_last_error(), "field 'ok' (type 3) at payload offset 0: needs 4 bytes but only 3 remain");
        }
        for (int interpret = 0; interpret < 2; interpret++) {
            first_event_tree(&f, interpret, tree, sizeof tree, terr, sizeof terr);
            if (want && strcmp(tree, want) != 0)
                fail_msg("%s (%s): values %s (%s), want %s", cases[i].what, interpret ? "interpreter" : "plans", tree,
                         terr, want);
            if (!want)
                assert_string_equal(terr, "field 'ok' (type 3) at payload offset 0: needs 4 bytes but only 3 remain");
        }
        tb_free(&f);
        tb_free(&blob);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_v5_metadata_header),
        cmocka_unit_test(test_v5_v1_fields_nested),
        cmocka_unit_test(test_v5_tags_opcode_and_v2params),
        cmocka_unit_test(test_v5_metadata_errors),
        cmocka_unit_test(test_v6_metadata_optional_kinds),
        cmocka_unit_test(test_names_start_stop_like_traceevent),
        cmocka_unit_test(test_label_overrides_like_traceevent),
        cmocka_unit_test(test_v6_metadata_errors),
        cmocka_unit_test(test_v6_payload_json_every_type),
        cmocka_unit_test(test_v5_payload_json_every_type),
        cmocka_unit_test(test_v5_payload_json_nested_and_arrays),
        cmocka_unit_test(test_payload_without_layout),
        cmocka_unit_test(test_payload_errors),
        cmocka_unit_test(test_traceevent_refusals),
        cmocka_unit_test(test_payload_error_is_per_event),
        cmocka_unit_test(test_payload_long_values),
        cmocka_unit_test(test_payload_bool_as_eventsource_writes_it),
    };
    return cmocka_run_group_tests_name("reader-metadata-payload", tests, NULL, NULL);
}
