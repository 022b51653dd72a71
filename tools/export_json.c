/*
 * Helpers of ntidx export: JSON string output that is always valid, tick
 * conversion, and a tiny scanner that reads top-level members of the JSON
 * object ntidx_event_fields_json() writes (the library has no typed field
 * accessor; the fields are read back from their JSON, which the library
 * guarantees well-formed).
 */
#include <stdlib.h>
#include <string.h>

#include "export.h"

void export_json_str(FILE *f, const char *str, size_t n)
{
    const unsigned char *s = (const unsigned char *)str;
    fputc('"', f);
    size_t i = 0;
    while (i < n) {
        unsigned char c = s[i];
        if (c == '"' || c == '\\') {
            fputc('\\', f);
            fputc(c, f);
            i++;
        } else if (c < 0x20 || c == 0x7f) {
            fprintf(f, "\\u%04x", c);
            i++;
        } else if (c < 0x80) {
            fputc(c, f);
            i++;
        } else {
            /* One UTF-8 sequence, checked: shortest form, no surrogates, <= U+10FFFF. */
            size_t len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
            uint32_t cp = len == 4 ? c & 0x07u : len == 3 ? c & 0x0fu : c & 0x1fu;
            int ok = len >= 2 && c <= 0xf4 && i + len <= n;
            for (size_t k = 1; ok && k < len; k++) {
                if ((s[i + k] & 0xc0) != 0x80)
                    ok = 0;
                else
                    cp = (cp << 6) | (s[i + k] & 0x3fu);
            }
            if (ok && ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
                       cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)))
                ok = 0;
            if (ok) {
                fwrite(s + i, 1, len, f);
                i += len;
            } else {
                fputs("\\ufffd", f);
                i++;
            }
        }
    }
    fputc('"', f);
}

long double export_ticks_to_us(const ntidx_trace_info *in, uint64_t ticks)
{
    /* Subtract in integers first: ticks are ~1e14-1e18 and a long double has 64 mantissa bits. */
    long double d = ticks >= (uint64_t)in->sync_ticks ? (long double)(ticks - (uint64_t)in->sync_ticks)
                                                       : -(long double)((uint64_t)in->sync_ticks - ticks);
    return d * 1e6L / (long double)in->tick_frequency;
}

int export_buf_put(ntidx_buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->data, cap);
        if (!p)
            return NTIDX_E_NOMEM;
        b->data = p;
        b->cap = cap;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = 0;
    return 0;
}

/* ------------------------------------------------------------------ */
/* The scanner                                                         */
/* ------------------------------------------------------------------ */

static size_t skip_ws(const char *s, size_t i, size_t n)
{
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
        i++;
    return i;
}

/* End of the string literal starting at s[i] == '"' (one past its closing quote), or 0. */
static size_t skip_string(const char *s, size_t i, size_t n)
{
    for (i++; i < n; i++) {
        if (s[i] == '\\')
            i++;
        else if (s[i] == '"')
            return i + 1;
    }
    return 0;
}

/* End of the value starting at s[i], or 0 when malformed. */
static size_t skip_value(const char *s, size_t i, size_t n)
{
    if (i >= n)
        return 0;
    if (s[i] == '"')
        return skip_string(s, i, n);
    if (s[i] == '{' || s[i] == '[') {
        /* Brackets nest; strings may contain brackets. Depth is bounded by the input. */
        size_t depth = 0;
        while (i < n) {
            char c = s[i];
            if (c == '"') {
                i = skip_string(s, i, n);
                if (!i)
                    return 0;
                continue;
            }
            if (c == '{' || c == '[')
                depth++;
            else if (c == '}' || c == ']') {
                if (--depth == 0)
                    return i + 1;
            }
            i++;
        }
        return 0;
    }
    while (i < n && s[i] != ',' && s[i] != '}' && s[i] != ']' && s[i] != ' ' && s[i] != '\n')
        i++;
    return i;
}

int export_json_member(const char *s, size_t n, const char *key, const char **val, size_t *vlen)
{
    size_t klen = strlen(key);
    size_t i = skip_ws(s, 0, n);
    if (i >= n || s[i] != '{')
        return 0;
    i = skip_ws(s, i + 1, n);
    while (i < n && s[i] == '"') {
        size_t kend = skip_string(s, i, n);
        if (!kend)
            return 0;
        /* Keys written by the library are field names; compare the raw text (no escapes in the ones we look for). */
        int match = kend - i - 2 == klen && !memcmp(s + i + 1, key, klen);
        i = skip_ws(s, kend, n);
        if (i >= n || s[i] != ':')
            return 0;
        i = skip_ws(s, i + 1, n);
        size_t vend = skip_value(s, i, n);
        if (!vend)
            return 0;
        if (match) {
            *val = s + i;
            *vlen = vend - i;
            return 1;
        }
        i = skip_ws(s, vend, n);
        if (i < n && s[i] == ',')
            i = skip_ws(s, i + 1, n);
        else
            break;
    }
    return 0;
}

int export_json_member_u64(const char *s, size_t n, const char *key, uint64_t *out)
{
    const char *v;
    size_t vl;
    if (!export_json_member(s, n, key, &v, &vl) || vl == 0 || vl > 20)
        return 0;
    uint64_t x = 0;
    for (size_t i = 0; i < vl; i++) {
        if (v[i] < '0' || v[i] > '9')
            return 0;
        unsigned d = (unsigned)(v[i] - '0');
        if (x > (UINT64_MAX - d) / 10)
            return 0;
        x = x * 10 + d;
    }
    *out = x;
    return 1;
}

static int hex4(const char *p, uint32_t *out)
{
    uint32_t v = 0;
    for (int k = 0; k < 4; k++) {
        char c = p[k];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (uint32_t)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (uint32_t)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (uint32_t)(c - 'A' + 10);
        else
            return 0;
    }
    *out = v;
    return 1;
}

static int put_utf8(ntidx_buf *b, uint32_t cp)
{
    char u[4];
    size_t n;
    if (cp < 0x80) {
        u[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        u[0] = (char)(0xc0 | (cp >> 6));
        u[1] = (char)(0x80 | (cp & 0x3f));
        n = 2;
    } else if (cp < 0x10000) {
        u[0] = (char)(0xe0 | (cp >> 12));
        u[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        u[2] = (char)(0x80 | (cp & 0x3f));
        n = 3;
    } else {
        u[0] = (char)(0xf0 | (cp >> 18));
        u[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
        u[3] = (char)(0x80 | (cp & 0x3f));
        n = 4;
    }
    return export_buf_put(b, u, n);
}

int export_json_member_str(const char *s, size_t n, const char *key, ntidx_buf *out)
{
    const char *v;
    size_t vl;
    out->len = 0;
    if (export_buf_put(out, "", 0) < 0)
        return NTIDX_E_NOMEM;
    if (!export_json_member(s, n, key, &v, &vl) || vl < 2 || v[0] != '"')
        return 0;
    size_t end = vl - 1; /* the closing quote */
    for (size_t i = 1; i < end;) {
        size_t run = i;
        while (run < end && v[run] != '\\')
            run++;
        if (run > i && export_buf_put(out, v + i, run - i) < 0)
            return NTIDX_E_NOMEM;
        i = run;
        if (i >= end)
            break;
        if (i + 1 >= end)
            return 0;
        char e = v[i + 1];
        char c = 0;
        switch (e) {
        case '"': c = '"'; break;
        case '\\': c = '\\'; break;
        case '/': c = '/'; break;
        case 'b': c = '\b'; break;
        case 'f': c = '\f'; break;
        case 'n': c = '\n'; break;
        case 'r': c = '\r'; break;
        case 't': c = '\t'; break;
        case 'u': {
            uint32_t cp;
            if (i + 6 > end || !hex4(v + i + 2, &cp))
                return 0;
            i += 6;
            if (cp >= 0xd800 && cp <= 0xdbff && i + 6 <= end && v[i] == '\\' && v[i + 1] == 'u') {
                uint32_t lo;
                if (hex4(v + i + 2, &lo) && lo >= 0xdc00 && lo <= 0xdfff) {
                    cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                    i += 6;
                }
            }
            if (cp >= 0xd800 && cp <= 0xdfff)
                cp = 0xfffd; /* a lone surrogate */
            if (put_utf8(out, cp) < 0)
                return NTIDX_E_NOMEM;
            continue;
        }
        default: return 0;
        }
        if (export_buf_put(out, &c, 1) < 0)
            return NTIDX_E_NOMEM;
        i += 2;
    }
    return 1;
}

const char *export_event_name(const ntidx_metadata *m, char *buf, size_t buflen)
{
    if (m->event_name && m->event_name[0])
        return m->event_name;
    snprintf(buf, buflen, "EventID(%u)", m->event_id);
    return buf;
}

void export_process_name(const ntidx_trace_info *in, const char *cmdline, char *buf, size_t buflen)
{
    buf[0] = 0;
    for (size_t i = 0; i < in->keyvalue_count; i++) {
        if (in->keyvalues[i].key && in->keyvalues[i].value && !strcmp(in->keyvalues[i].key, "ProcessName") &&
            in->keyvalues[i].value[0]) {
            snprintf(buf, buflen, "%s", in->keyvalues[i].value);
            return;
        }
    }
    if (!cmdline || !*cmdline)
        return;
    /* The program: the first word of the command line (quoted or not), without its directory. */
    const char *p = cmdline, *e;
    while (*p == ' ')
        p++;
    if (*p == '"') {
        p++;
        e = strchr(p, '"');
        if (!e)
            e = p + strlen(p);
    } else {
        e = p;
        while (*e && *e != ' ')
            e++;
    }
    const char *base = p;
    for (const char *q = p; q < e; q++)
        if (*q == '/' || *q == '\\')
            base = q + 1;
    if (base == e) /* ends in a separator: keep the whole word */
        base = p;
    snprintf(buf, buflen, "%.*s", (int)(e - base), base);
}
