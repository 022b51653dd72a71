/*
 * Per-event metadata: a V6 label list may override the opcode, version, level and keywords of the
 * metadata its events use (the V6 spec), and TraceEvent applies them per event
 * (EventPipeEventSource.DispatchEvent): the event's version is the label's, and when its opcode is
 * not the opcode of the template TraceEvent decodes it with, TraceEvent renames it "Task/Opcode".
 * ntx_metadata_derive() builds that event's row from the trace's; the reader caches the rows.
 */
#include <stdio.h>
#include <string.h>

#include "definitions.h"
#include "manifest.h"
#include "metadata.h"

/* TraceEvent's name of an opcode in such a rename (TraceEvent.ToString(TraceEventOpcode)), which is
   not the one of a metadata name ("Transfer", "24"): "Send", "Opcode(24)". */
static const char *renamed_opcode(int op, char *buf, size_t n)
{
    static const char *const names[] = {"Info",   "Start", "Stop",   "DCStart", "DCStop",
                                        "Extension", "Reply", "Resume", "Suspend", "Send"};
    if (op >= 0 && op < 10)
        return names[op];
    snprintf(buf, n, "Opcode(%d)", op);
    return buf;
}

static int ends_with_ci(const char *s, size_t n, const char *suffix)
{
    size_t k = strlen(suffix);
    if (n < k)
        return 0;
    for (size_t i = 0; i < k; i++) {
        char c = s[n - k + i], d = suffix[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (d >= 'A' && d <= 'Z')
            d = (char)(d - 'A' + 'a');
        if (c != d)
            return 0;
    }
    return 1;
}

/*
 * The task name and template opcode TraceEvent uses for events of `m`: for the runtime's events its
 * parser's (the manifest tables: the task is the name up to its first '/'); for the others the
 * template it makes from the metadata (the trace's name after EventSource's Start/Stop rule, and the
 * metadata's opcode or the one the name implies). 0 when the name cannot change (no name).
 */
static int task_and_opcode(const ntidx_metadata *m, const char **task, size_t *task_len, int *opcode)
{
    const ntx_manifest_event *lowest;
    const ntx_manifest_event *row = ntx_manifest_find(m->provider, m->event_id, m->version, &lowest);
    row = row ? row : lowest;
    if (row && row->name[0] && m->event_name == row->name) {
        const char *slash = strchr(row->name, '/');
        *task = row->name;
        *task_len = slash ? (size_t)(slash - row->name) : strlen(row->name);
        *opcode = row->opcode;
        return 1;
    }
    const char *raw = m->name_in_trace;
    if (!raw || !raw[0])
        return 0; /* TraceEvent's EventID(N): never suffixed */
    size_t n = strlen(raw);
    int op = m->opcode;
    if (op < 0)
        op = ends_with_ci(raw, n, "Start") ? 1 : ends_with_ci(raw, n, "Stop") ? 2 : 0;
    if (op == 1 && ends_with_ci(raw, n, "Start"))
        n -= 5;
    else if (op == 2 && ends_with_ci(raw, n, "Stop"))
        n -= 4;
    *task = raw;
    *task_len = n;
    *opcode = op;
    return 1;
}

int ntx_metadata_derive(ntx_arena *a, const ntidx_metadata *base, const ntx_label_overrides *o,
                        ntidx_metadata **out)
{
    ntidx_metadata *d = ntx_arena_alloc(a, sizeof *d);
    if (!d)
        return NTIDX_E_NOMEM;
    *d = *base;
    d->label_overrides = 0;
    if (o->version >= 0) {
        d->version = (uint32_t)o->version;
        d->label_overrides |= (0x100u | (uint32_t)(o->version & 0xff)) << 9;
        if (d->fields && ntx_manifest_owns(d->fields)) {
            /* the layout came from the manifest: the one of the event's version */
            d->has_fields = 0;
            d->field_count = 0;
            d->fields = NULL;
            ntx_manifest_fill(d);
            d->event_name = base->event_name;
        }
    }
    if (o->level >= 0)
        d->level = (uint32_t)o->level;
    if (o->has_keywords)
        d->keywords = o->keywords;
    if (o->opcode >= 0) {
        d->opcode = o->opcode;
        const char *task;
        size_t n;
        int template_opcode;
        if (task_and_opcode(base, &task, &n, &template_opcode) && o->opcode != template_opcode) {
            d->label_overrides |= 0x100u | (uint32_t)(o->opcode & 0xff);
            char num[24];
            const char *op = o->opcode == 0 ? NULL : renamed_opcode(o->opcode, num, sizeof num);
            size_t k = op ? strlen(op) : 0;
            char *s = ntx_arena_alloc(a, n + (op ? 1 + k : 0) + 1);
            if (!s)
                return NTIDX_E_NOMEM;
            memcpy(s, task, n);
            if (op) {
                s[n] = '/';
                memcpy(s + n + 1, op, k);
            }
            s[n + (op ? 1 + k : 0)] = 0;
            d->event_name = s;
        }
    }
    *out = d;
    return NTIDX_OK;
}
