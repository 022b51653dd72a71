/*
 * Lookups in the generated manifest tables (manifest_tables.c), the gap
 * filling the reader applies to each metadata row, and the matching of
 * user-given event names.
 */
#include <stdint.h>
#include <string.h>

#include "manifest.h"

static int provider_index(const char *provider)
{
    if (!provider)
        return -1;
    for (size_t i = 0; i < ntx_manifest_provider_count; i++)
        if (strcmp(provider, ntx_manifest_providers[i]) == 0)
            return (int)i;
    return -1;
}

/* -1, 0, 1 comparing a row with (provider, event id, version). */
static int cmp_row(const ntx_manifest_event *e, int prov, uint32_t id, uint32_t ver)
{
    if (e->provider != prov)
        return e->provider < prov ? -1 : 1;
    if (e->event_id != id)
        return e->event_id < id ? -1 : 1;
    if (e->version != ver)
        return e->version < ver ? -1 : 1;
    return 0;
}

const ntx_manifest_event *ntx_manifest_find(const char *provider, uint32_t event_id, uint32_t version,
                                            const ntx_manifest_event **name_only)
{
    if (name_only)
        *name_only = NULL;
    int prov = provider_index(provider);
    if (prov < 0 || event_id > UINT16_MAX)
        return NULL;
    /* First row not below (prov, event_id, version). */
    size_t lo = 0, hi = ntx_manifest_event_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_row(&ntx_manifest_events[mid], prov, event_id, version) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < ntx_manifest_event_count && cmp_row(&ntx_manifest_events[lo], prov, event_id, version) == 0)
        return &ntx_manifest_events[lo];
    /* The row before is the highest version below, if it is the same event. */
    if (lo > 0) {
        const ntx_manifest_event *e = &ntx_manifest_events[lo - 1];
        if (e->provider == prov && e->event_id == event_id)
            return e;
    }
    if (lo < ntx_manifest_event_count) {
        const ntx_manifest_event *e = &ntx_manifest_events[lo];
        if (e->provider == prov && e->event_id == event_id && name_only)
            *name_only = e;
    }
    return NULL;
}

void ntx_manifest_fill(ntidx_metadata *m)
{
    if (!m)
        return;
    int need_fields = !m->has_fields || m->field_count == 0;
    const ntx_manifest_event *lowest;
    const ntx_manifest_event *e = ntx_manifest_find(m->provider, m->event_id, m->version, &lowest);
    const ntx_manifest_event *named = e ? e : lowest;
    if (!named)
        return;
    /* TraceEvent names the runtime's events by its parsers whatever name the trace gives (a V5 or V6
       writer may give one): so does ntidx. Where its parsers have no template (an unnamed row), the
       trace's name stands, as in TraceEvent, or without one EventID(N) (metadata.c). The trace's own
       name stays in name_in_trace. */
    if (named->name[0])
        m->event_name = named->name;
    /* The layout too: where TraceEvent has a template, its parser decodes the event by its version
       whatever field list the trace gives (from a writer that knows the event, the same fields); where
       it has none, the trace's list stands and the manifest only fills a missing one. */
    if ((named->name[0] || need_fields) && e && !e->no_layout && e->field_count > 0) {
        m->has_fields = 1;
        m->field_count = e->field_count;
        m->fields = e->fields;
    }
}

int ntx_manifest_owns(const ntidx_field *fields)
{
    uintptr_t p = (uintptr_t)fields, base = (uintptr_t)ntx_manifest_fields;
    return fields && p >= base && p - base < ntx_manifest_field_count * sizeof *ntx_manifest_fields;
}

/* ------------------------------------------------------------------ */
/* Matching user-given names                                           */
/* ------------------------------------------------------------------ */

static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

/* ASCII case-insensitive equality of s[0..n) and the NUL-terminated t. */
static int eq_n(const char *s, size_t n, const char *t)
{
    size_t i = 0;
    for (; i < n && t[i]; i++)
        if (lower((unsigned char)s[i]) != lower((unsigned char)t[i]))
            return 0;
    return i == n && t[i] == 0;
}

/* "EventID(N)" with N the event id, decimal without sign or leading zeros. */
static int is_event_id(const char *s, size_t n, uint32_t id)
{
    static const char pre[] = "eventid(";
    size_t lp = sizeof pre - 1;
    if (n < lp + 2 || s[n - 1] != ')')
        return 0;
    for (size_t i = 0; i < lp; i++)
        if (lower((unsigned char)s[i]) != pre[i])
            return 0;
    const char *d = s + lp;
    size_t nd = n - lp - 1;
    if (nd > 10 || (nd > 1 && d[0] == '0'))
        return 0;
    uint64_t v = 0;
    for (size_t i = 0; i < nd; i++) {
        if (d[i] < '0' || d[i] > '9')
            return 0;
        v = v * 10 + (uint64_t)(d[i] - '0');
    }
    return v == id;
}

/* The part after the provider: the event name (as TraceEvent shows it, or as the trace stores it,
   without the opcode suffix) or EventID(N). An event a V6 label list renamed ("Work/Reply") answers to
   its own name only: "Work" names the others. */
static int matches_event(const ntidx_metadata *m, const char *s, size_t n)
{
    if (m->event_name && m->event_name[0] && eq_n(s, n, m->event_name))
        return 1;
    if (!(m->label_overrides & 0x100) && m->name_in_trace && m->name_in_trace[0] && eq_n(s, n, m->name_in_trace))
        return 1;
    return is_event_id(s, n, m->event_id);
}

NTIDX_API int ntidx_metadata_matches_name(const ntidx_metadata *m, const char *name)
{
    if (!m || !name || !name[0])
        return 0;
    size_t n = strlen(name);
    if (matches_event(m, name, n))
        return 1;
    const char *prov = m->provider ? m->provider : "";
    size_t lp = strlen(prov);
    if (lp == 0 || n <= lp + 1 || name[lp] != '/')
        return 0;
    for (size_t i = 0; i < lp; i++)
        if (lower((unsigned char)name[i]) != lower((unsigned char)prov[i]))
            return 0;
    return matches_event(m, name + lp + 1, n - lp - 1);
}
