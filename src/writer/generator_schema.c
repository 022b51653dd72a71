/*
 * The generator's event schema: five providers, thirteen event types in V5
 * and seventeen in V6, whose fields together use every payload type code
 * of the version (V5: Object, Boolean32 ... NullTerminatedUTF16String,
 * Array through V2Params, nested Objects; V6 adds VarInt, VarUInt,
 * FixedLengthArray, UTF8CodeUnit, RelLoc, DataLoc, Boolean8). Payloads are
 * generated once into pools, so the event loop only copies bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "encode.h"
#include "generator_internal.h"

#define N(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))
#define F(name, type) {name, type, 0, NULL, NULL, 0}
#define ARR(name, el) {name, NTIDX_TYPE_ARRAY, 0, &el, NULL, 0}
#define FIXED(name, el, n) {name, NTIDX_TYPE_FIXED_ARRAY, n, &el, NULL, 0}
#define LOC(name, type, el) {name, type, 0, &el, NULL, 0}
#define OBJ(name, fs) {name, NTIDX_TYPE_OBJECT, 0, NULL, fs, N(fs)}

/* Array element types (element names are not encoded). */
static const ntidx_field el_int32 = F("", NTIDX_TYPE_INT32);
static const ntidx_field el_byte = F("", NTIDX_TYPE_BYTE);
static const ntidx_field el_double = F("", NTIDX_TYPE_DOUBLE);
static const ntidx_field el_string = F("", NTIDX_TYPE_UTF16_STRING);
static const ntidx_field el_guid = F("", NTIDX_TYPE_GUID);
static const ntidx_field el_bool32 = F("", NTIDX_TYPE_BOOLEAN32);
static const ntidx_field el_char16 = F("", NTIDX_TYPE_UTF16_CODE_UNIT);
static const ntidx_field el_uint16 = F("", NTIDX_TYPE_UINT16);
static const ntidx_field el_char8 = F("", NTIDX_TYPE_UTF8_CODE_UNIT);
static const ntidx_field el_varuint = F("", NTIDX_TYPE_VARUINT);
static const ntidx_field el_bool8 = F("", NTIDX_TYPE_BOOLEAN8);

/* ---- Microsoft-Windows-DotNETRuntime look-alikes ---- */
static const ntidx_field gc_start[] = {
    F("Count", NTIDX_TYPE_UINT32),       F("Depth", NTIDX_TYPE_UINT32),
    F("Reason", NTIDX_TYPE_UINT32),      F("Type", NTIDX_TYPE_UINT32),
    F("ClrInstanceID", NTIDX_TYPE_UINT16), F("ClientSequenceNumber", NTIDX_TYPE_UINT64),
};
static const ntidx_field alloc_tick[] = {
    F("AllocationAmount", NTIDX_TYPE_UINT32), F("AllocationKind", NTIDX_TYPE_UINT32),
    F("ClrInstanceID", NTIDX_TYPE_UINT16),    F("AllocationAmount64", NTIDX_TYPE_UINT64),
    F("TypeID", NTIDX_TYPE_UINT64),           F("TypeName", NTIDX_TYPE_UTF16_STRING),
    F("HeapIndex", NTIDX_TYPE_UINT32),        F("Address", NTIDX_TYPE_UINT64),
    F("ObjectSize", NTIDX_TYPE_UINT64),
};
static const ntidx_field exception_thrown[] = {
    F("ExceptionType", NTIDX_TYPE_UTF16_STRING), F("ExceptionMessage", NTIDX_TYPE_UTF16_STRING),
    F("ExceptionEIP", NTIDX_TYPE_UINT64),        F("ExceptionHRESULT", NTIDX_TYPE_UINT32),
    F("ExceptionFlags", NTIDX_TYPE_UINT16),      F("ClrInstanceID", NTIDX_TYPE_UINT16),
};
static const ntidx_field tp_sample[] = {
    F("Throughput", NTIDX_TYPE_DOUBLE),
    F("ClrInstanceID", NTIDX_TYPE_UINT16),
};
static const ntidx_field method_load[] = {
    F("MethodID", NTIDX_TYPE_UINT64),           F("ModuleID", NTIDX_TYPE_UINT64),
    F("MethodStartAddress", NTIDX_TYPE_UINT64), F("MethodSize", NTIDX_TYPE_UINT32),
    F("MethodToken", NTIDX_TYPE_UINT32),        F("MethodFlags", NTIDX_TYPE_UINT32),
    F("MethodNamespace", NTIDX_TYPE_UTF16_STRING), F("MethodName", NTIDX_TYPE_UTF16_STRING),
    F("MethodSignature", NTIDX_TYPE_UTF16_STRING), F("ClrInstanceID", NTIDX_TYPE_UINT16),
};

/* ---- System.Runtime counters: one nested Object ---- */
static const ntidx_field counter_payload[] = {
    F("Name", NTIDX_TYPE_UTF16_STRING),  F("DisplayName", NTIDX_TYPE_UTF16_STRING),
    F("Mean", NTIDX_TYPE_DOUBLE),        F("StandardDeviation", NTIDX_TYPE_DOUBLE),
    F("Count", NTIDX_TYPE_INT32),        F("Min", NTIDX_TYPE_DOUBLE),
    F("Max", NTIDX_TYPE_DOUBLE),         F("IntervalSec", NTIDX_TYPE_SINGLE),
    F("Series", NTIDX_TYPE_UTF16_STRING), F("CounterType", NTIDX_TYPE_UTF16_STRING),
};
static const ntidx_field counters[] = {OBJ("Payload", counter_payload)};

/* ---- DiagnosticSource activities: an array of objects ---- */
static const ntidx_field key_value[] = {
    F("Key", NTIDX_TYPE_UTF16_STRING),
    F("Value", NTIDX_TYPE_UTF16_STRING),
};
static const ntidx_field el_key_value = OBJ("", key_value);
static const ntidx_field activity[] = {
    F("SourceName", NTIDX_TYPE_UTF16_STRING),
    F("ActivityName", NTIDX_TYPE_UTF16_STRING),
    ARR("Arguments", el_key_value),
};

/* ---- every V5 type code ---- */
static const ntidx_field all_primitives[] = {
    F("Flag", NTIDX_TYPE_BOOLEAN32), F("Letter", NTIDX_TYPE_UTF16_CODE_UNIT),
    F("Small", NTIDX_TYPE_SBYTE),    F("Octet", NTIDX_TYPE_BYTE),
    F("Short", NTIDX_TYPE_INT16),    F("UShort", NTIDX_TYPE_UINT16),
    F("Int", NTIDX_TYPE_INT32),      F("UInt", NTIDX_TYPE_UINT32),
    F("Long", NTIDX_TYPE_INT64),     F("ULong", NTIDX_TYPE_UINT64),
    F("Float", NTIDX_TYPE_SINGLE),   F("Dbl", NTIDX_TYPE_DOUBLE),
    F("Money", NTIDX_TYPE_DECIMAL),  F("When", NTIDX_TYPE_DATETIME),
    F("Id", NTIDX_TYPE_GUID),        F("Text", NTIDX_TYPE_UTF16_STRING),
};
/* V6 has no DateTime: its spec says a SYSTEMTIME (16 bytes), TraceEvent 4.0.0 reads 8 bytes (a
   FILETIME, as in V5) and misreads every field after it. No V6 writer but this one writes the type, so
   the generator leaves it out and its traces read the same in both (docs/conformance.md). */
static const ntidx_field all_primitives_v6[] = {
    F("Flag", NTIDX_TYPE_BOOLEAN32), F("Letter", NTIDX_TYPE_UTF16_CODE_UNIT),
    F("Small", NTIDX_TYPE_SBYTE),    F("Octet", NTIDX_TYPE_BYTE),
    F("Short", NTIDX_TYPE_INT16),    F("UShort", NTIDX_TYPE_UINT16),
    F("Int", NTIDX_TYPE_INT32),      F("UInt", NTIDX_TYPE_UINT32),
    F("Long", NTIDX_TYPE_INT64),     F("ULong", NTIDX_TYPE_UINT64),
    F("Float", NTIDX_TYPE_SINGLE),   F("Dbl", NTIDX_TYPE_DOUBLE),
    F("Money", NTIDX_TYPE_DECIMAL),  F("Id", NTIDX_TYPE_GUID),
    F("Text", NTIDX_TYPE_UTF16_STRING),
};
static const ntidx_field arrays[] = {
    ARR("Ints", el_int32),     ARR("Bytes", el_byte), ARR("Doubles", el_double),
    ARR("Names", el_string),   ARR("Ids", el_guid),   ARR("Flags", el_bool32),
    ARR("Chars", el_char16),
};
static const ntidx_field inner[] = {
    F("A", NTIDX_TYPE_INT64),
    F("B", NTIDX_TYPE_UTF16_STRING),
};
static const ntidx_field outer[] = {
    F("X", NTIDX_TYPE_INT32),
    OBJ("Inner", inner),
    ARR("Tags", el_uint16),
};
static const ntidx_field nested[] = {
    OBJ("Outer", outer),
    F("Tail", NTIDX_TYPE_SBYTE),
};
static const ntidx_field heartbeat[] = {
    F("Counter", NTIDX_TYPE_UINT64),
    F("Phase", NTIDX_TYPE_INT32),
};

/* ---- V6 additions ---- */
static const ntidx_field varints[] = {
    F("Delta", NTIDX_TYPE_VARINT),     F("Count", NTIDX_TYPE_VARUINT),
    F("Enabled", NTIDX_TYPE_BOOLEAN8), F("Grade", NTIDX_TYPE_UTF8_CODE_UNIT),
};
static const ntidx_field point[] = {
    F("X", NTIDX_TYPE_INT16),
    F("Ok", NTIDX_TYPE_BOOLEAN8),
};
static const ntidx_field el_point = OBJ("", point);
static const ntidx_field fixed_arrays[] = {
    FIXED("Quad", el_int32, 4),
    FIXED("Digest", el_byte, 16),
    FIXED("Points", el_point, 3),
    FIXED("Tag", el_char8, 8),
};
static const ntidx_field pair[] = {
    F("Lo", NTIDX_TYPE_INT32),
    F("Hi", NTIDX_TYPE_INT32),
};
static const ntidx_field el_pair = OBJ("", pair);
static const ntidx_field locations[] = {
    LOC("Samples", NTIDX_TYPE_RELLOC, el_uint16),
    F("Marker", NTIDX_TYPE_INT32),
    LOC("Blob", NTIDX_TYPE_DATALOC, el_byte),
    LOC("Pairs", NTIDX_TYPE_RELLOC, el_pair),
};
static const ntidx_field mixed_inner[] = {
    F("Offset", NTIDX_TYPE_VARINT),
    ARR("Label", el_char8),
};
static const ntidx_field mixed[] = {
    ARR("Sizes", el_varuint),
    OBJ("Where", mixed_inner),
    F("Ratio", NTIDX_TYPE_DOUBLE),
    ARR("Bits", el_bool8),
};

#define RUNTIME "Microsoft-Windows-DotNETRuntime"
#define ZOO "Contoso-TypeZoo"
#define V6ZOO "Contoso-V6Types"
#define DIAG "Microsoft-Diagnostics-DiagnosticSource"

/* Metadata template: id filled later; fields with their count. */
#define TYPE(prov, eid, name, ver, lvl, kw, op, fs, w)                                             \
    {{0, eid, ver, lvl, kw, op, prov, name, NULL, NULL, 1, N(fs), fs, 0, NULL, 0, {0}}, w}
#define TYPE_MSG(prov, eid, name, ver, lvl, kw, op, fs, msg, desc, w)                              \
    {{0, eid, ver, lvl, kw, op, prov, name, msg, desc, 1, N(fs), fs, 0, NULL, 0, {0}}, w}

/* The V5 list is a prefix of the V6 list; weights add up to 64 in each. */
static const ntidx_w_gen_type gen_types[] = {
    TYPE(RUNTIME, 1, "GCStart", 2, 4, 0x1, 1, gc_start, 3),
    TYPE(RUNTIME, 10, "GCAllocationTick", 4, 5, 0x1, 11, alloc_tick, 8),
    TYPE_MSG(RUNTIME, 80, "ExceptionThrown", 1, 2, 0x8000, 1, exception_thrown,
             "Exception {ExceptionType} thrown: {ExceptionMessage}",
             "A managed exception was thrown", 2),
    TYPE(RUNTIME, 54, "ThreadPoolWorkerThreadAdjustmentSample", 0, 4, 0x10000, 100, tp_sample, 5),
    TYPE(RUNTIME, 143, "MethodLoadVerbose", 1, 4, 0x30, 37, method_load, 4),
    TYPE_MSG("System.Runtime", 1, "EventCounters", 0, 5, 0, -1, counters, NULL,
             "Periodic counter values", 2),
    TYPE(DIAG, 3, "Activity1/Start", 0, 4, 0x2, 1, activity, 4),
    TYPE(DIAG, 4, "Activity1/Stop", 0, 4, 0x2, 2, activity, 4),
    TYPE(ZOO, 1, "AllPrimitives", 0, 4, 0xF00000000000ull, -1, all_primitives, 4),
    TYPE(ZOO, 2, "Arrays", 1, 4, 0, -1, arrays, 4),
    TYPE(ZOO, 3, "Nested", 0, 3, 0, 0, nested, 3),
    {{0, 4, 0, 4, 0, -1, ZOO, "Empty", NULL, NULL, 1, 0, NULL, 0, NULL, 0, {0}}, 2},
    TYPE(ZOO, 5, "Heartbeat", 0, 5, 0, -1, heartbeat, 11),
    /* V6 only; in V5 their weight goes to Heartbeat (see below). */
    TYPE(V6ZOO, 1, "VarInts", 0, 4, 0, -1, varints, 3),
    TYPE(V6ZOO, 2, "FixedArrays", 0, 4, 0, -1, fixed_arrays, 2),
    TYPE(V6ZOO, 3, "Locations", 0, 4, 0, -1, locations, 2),
    TYPE_MSG(V6ZOO, 4, "Mixed", 2, 4, 0x4, 10, mixed, "{Ratio}", NULL, 1),
};
#define V5_TYPE_COUNT 13u
#define V5_HEARTBEAT 12u

/* ---- payload values ---- */

static const char *const strings[] = {
    "System.OutOfMemoryException",
    "Object reference not set to an instance of an object.",
    "System.Private.CoreLib",
    "Microsoft.Extensions.Hosting",
    "GET /api/items/42",
    "",
    "caf\xC3\xA9 \xE2\x98\x95",                  /* café ☕ */
    ("Gr\xC3\xBC\xC3\x9F" "e aus K\xC3\xB6ln"), /* Grüße aus Köln; split: \x9Fe is one escape */
    "\xF0\x9F\x9A\x80 launch",                   /* 🚀: a surrogate pair in UTF-16 */
    "\xE4\xB8\xAD\xE6\x96\x87",                  /* 中文 */
    "quote \" backslash \\ tab \t end",
    "System.Threading.Tasks.Task`1[[System.Int32]]",
    "cpu-usage",
    "gc-heap-size",
};

typedef struct loc_fixup {
    size_t at; /* offset of the 4-byte RelLoc/DataLoc word */
    const ntidx_field *f;
    uint32_t count;
} loc_fixup;

typedef struct payload_ctx {
    ntidx_buf *b;
    size_t start; /* payload start in b: DataLoc positions count from here */
    int v6;
    ntidx_w_rng *rng;
    loc_fixup locs[8];
    int nlocs;
} payload_ctx;

/* Values of varied magnitude, so that varints take 1 to 10 bytes. */
static uint64_t varied(ntidx_w_rng *r)
{
    /* two statements: C leaves the order of a call's operands unspecified (the two calls of one
       expression ran in another order in the ASan build, so its traces differed from the release's) */
    uint64_t v = ntidx_w_rng_next(r);
    return v >> ntidx_w_rng_below(r, 64);
}

static void put_string(payload_ctx *c)
{
    ntidx_w_put_utf16z(c->b, strings[ntidx_w_rng_below(c->rng, N(strings))]);
}

/* 2026-01-01T00:00:00Z as FILETIME (100 ns since 1601). */
#define FILETIME_2026 134116992000000000ull

static void put_value(payload_ctx *c, const ntidx_field *f, int depth);

static void put_elements(payload_ctx *c, const ntidx_field *el, uint32_t n, int depth)
{
    for (uint32_t i = 0; i < n; i++)
        put_value(c, el, depth + 1);
}

static void put_value(payload_ctx *c, const ntidx_field *f, int depth)
{
    ntidx_buf *b = c->b;
    ntidx_w_rng *r = c->rng;
    uint64_t x = ntidx_w_rng_next(r);
    switch (f->type_code) {
    case NTIDX_TYPE_BOOLEAN32: ntx_buf_u32(b, (uint32_t)(x & 1)); break;
    case NTIDX_TYPE_BOOLEAN8: ntx_buf_u8(b, (uint8_t)(x & 1)); break;
    case NTIDX_TYPE_UTF16_CODE_UNIT: {
        static const uint16_t chars[] = {'A', 'z', '7', ' ', 0xE9, 0x4E2D, 0x3042, 0x20AC};
        ntx_buf_u16(b, chars[x % N(chars)]);
        break;
    }
    case NTIDX_TYPE_UTF8_CODE_UNIT: ntx_buf_u8(b, (uint8_t)(' ' + x % 95)); break;
    case NTIDX_TYPE_SBYTE:
    case NTIDX_TYPE_BYTE: ntx_buf_u8(b, (uint8_t)x); break;
    case NTIDX_TYPE_INT16:
    case NTIDX_TYPE_UINT16: ntx_buf_u16(b, (uint16_t)(x >> (x & 15))); break;
    case NTIDX_TYPE_INT32:
    case NTIDX_TYPE_UINT32: ntx_buf_u32(b, (uint32_t)(x >> (x & 31))); break;
    case NTIDX_TYPE_INT64:
    case NTIDX_TYPE_UINT64: ntx_buf_u64(b, x >> (x & 63)); break;
    case NTIDX_TYPE_SINGLE: {
        /* Exactly representable values: text and JSON output stay stable. */
        float v = (float)((int32_t)(x % 2000001) - 1000000) / 64.0f;
        uint32_t u;
        memcpy(&u, &v, 4);
        ntx_buf_u32(b, u);
        break;
    }
    case NTIDX_TYPE_DOUBLE: {
        double v = (double)((int64_t)(x % 2000000001) - 1000000000) / 1024.0;
        uint64_t u;
        memcpy(&u, &v, 8);
        ntx_buf_u64(b, u);
        break;
    }
    case NTIDX_TYPE_DECIMAL: {
        /* System.Decimal: flags (scale in bits 16-23, sign in bit 31), hi32, lo64. */
        uint32_t flags = (uint32_t)((x & 7) << 16) | (uint32_t)((x >> 3) & 1) << 31;
        ntx_buf_u32(b, flags);
        ntx_buf_u32(b, 0);
        ntx_buf_u64(b, (x >> 8) % 1000000000000ull);
        break;
    }
    case NTIDX_TYPE_DATETIME:
        if (c->v6) {
            /* SYSTEMTIME in January 2026 (the 1st is a Thursday). */
            uint32_t day = 1 + (uint32_t)(x % 31);
            const int16_t t[8] = {2026, 1, (int16_t)((3 + day) % 7), (int16_t)day,
                                  (int16_t)((x >> 8) % 24), (int16_t)((x >> 16) % 60),
                                  (int16_t)((x >> 24) % 60), (int16_t)((x >> 32) % 1000)};
            for (int i = 0; i < 8; i++)
                ntx_buf_u16(b, (uint16_t)t[i]);
        } else {
            /* V5 payloads carry DateTime as a FILETIME, as the runtime writes it. */
            ntx_buf_u64(b, FILETIME_2026 + (x % (31ull * 86400 * 1000)) * 10000);
        }
        break;
    case NTIDX_TYPE_GUID: {
        uint8_t g[16];
        uint64_t y = ntidx_w_rng_next(r);
        memcpy(g, &x, 8);
        memcpy(g + 8, &y, 8);
        ntx_buf_put(b, g, 16);
        break;
    }
    case NTIDX_TYPE_UTF16_STRING: put_string(c); break;
    case NTIDX_TYPE_VARINT: {
        int64_t v = (int64_t)(varied(r) >> 1); /* 0 .. INT64_MAX */
        ntx_buf_varuint(b, ntidx_w_zigzag((x & 1) ? -v - 1 : v));
        break;
    }
    case NTIDX_TYPE_VARUINT: ntx_buf_varuint(b, varied(r)); break;
    case NTIDX_TYPE_ARRAY: {
        uint16_t n = (uint16_t)(x % 6);
        ntx_buf_u16(b, n);
        put_elements(c, f->element, n, depth);
        break;
    }
    case NTIDX_TYPE_FIXED_ARRAY: put_elements(c, f->element, f->element_count, depth); break;
    case NTIDX_TYPE_RELLOC:
    case NTIDX_TYPE_DATALOC:
        /* The data goes after the last top-level field; the word is patched then. */
        if (c->nlocs < (int)N(c->locs)) {
            c->locs[c->nlocs].at = b->len;
            c->locs[c->nlocs].f = f;
            c->locs[c->nlocs].count = (uint32_t)(x % 6);
            c->nlocs++;
        }
        ntx_buf_u32(b, 0);
        break;
    case NTIDX_TYPE_OBJECT:
        for (uint32_t i = 0; i < f->field_count; i++)
            put_value(c, &f->fields[i], depth + 1);
        break;
    default: break; /* EMPTY: no bytes */
    }
}

int ntidx_w_gen_payload(ntidx_buf *b, const ntidx_field *fields, uint32_t n, int v6,
                        ntidx_w_rng *rng)
{
    payload_ctx c;
    memset(&c, 0, sizeof(c));
    c.b = b;
    c.start = b->len;
    c.v6 = v6;
    c.rng = rng;
    for (uint32_t i = 0; i < n; i++)
        put_value(&c, &fields[i], 0);
    for (int i = 0; i < c.nlocs; i++) {
        size_t data = b->len;
        put_elements(&c, c.locs[i].f->element, c.locs[i].count, 1);
        size_t size = b->len - data;
        /* Location words hold 16-bit positions and sizes: payloads stay small. */
        uint32_t pos = c.locs[i].f->type_code == NTIDX_TYPE_RELLOC
                           ? (uint32_t)(data - (c.locs[i].at + 4))
                           : (uint32_t)(data - c.start);
        ntx_buf_patch_u32(b, c.locs[i].at, (uint32_t)(size << 16) | (pos & 0xFFFF));
    }
    return b->err;
}

int ntidx_w_gen_schema_init(ntidx_w_gen_schema *s, int format_version, ntidx_w_rng *rng)
{
    memset(s, 0, sizeof(*s));
    int v6 = format_version == 6;
    s->types = gen_types;
    s->count = v6 ? N(gen_types) : V5_TYPE_COUNT;
    if (v6) {
        s->owned = malloc(sizeof gen_types);
        if (!s->owned)
            return NTIDX_E_NOMEM;
        memcpy(s->owned, gen_types, sizeof gen_types);
        for (uint32_t t = 0; t < s->count; t++)
            if (s->owned[t].meta.fields == all_primitives) {
                s->owned[t].meta.fields = all_primitives_v6;
                s->owned[t].meta.field_count = N(all_primitives_v6);
            }
        s->types = s->owned;
    }
    s->variant_offset = malloc(((size_t)s->count * NTIDX_W_GEN_PAYLOAD_VARIANTS + 1) *
                               sizeof(*s->variant_offset));
    if (!s->variant_offset)
        return NTIDX_E_NOMEM;
    double total = 0, weights = 0;
    uint32_t picks = 0;
    size_t k = 0;
    for (uint32_t t = 0; t < s->count; t++) {
        size_t before = s->pool.len;
        for (uint32_t v = 0; v < NTIDX_W_GEN_PAYLOAD_VARIANTS; v++) {
            s->variant_offset[k++] = s->pool.len;
            int rc = ntidx_w_gen_payload(&s->pool, s->types[t].meta.fields,
                                         s->types[t].meta.field_count, v6, rng);
            if (rc) {
                ntidx_w_gen_schema_free(s);
                return rc;
            }
        }
        uint32_t w = s->types[t].weight + (!v6 && t == V5_HEARTBEAT ? 8 : 0);
        for (uint32_t i = 0; i < w && picks < NTIDX_W_GEN_PICKS; i++)
            s->pick[picks++] = (uint8_t)t;
        total += w * (double)(s->pool.len - before) / NTIDX_W_GEN_PAYLOAD_VARIANTS;
        weights += w;
    }
    s->variant_offset[k] = s->pool.len;
    s->mean_payload = total / weights;
    return NTIDX_OK;
}

void ntidx_w_gen_schema_free(ntidx_w_gen_schema *s)
{
    ntidx_buf_free(&s->pool);
    free(s->variant_offset);
    s->variant_offset = NULL;
    free(s->owned);
    s->owned = NULL;
}
