/*
 * Copies of metadata rows that outlive the reader that defined them (a
 * reader's cache dies at each reset or flush): for the type list and for
 * clients that keep an event's type to decode its payload later (the Python
 * module's lazily decoded Event.fields). Layouts from the runtime's manifest
 * are static tables: they are kept as they are, so that the decoder still
 * knows them as the manifest's (values.c decodes their strings its way).
 */
#include <stdlib.h>
#include <string.h>

#include "manifest.h"
#include "metadata.h"

/* Deeper than any layout a trace can give (NTX_MAX_FIELD_DEPTH): a client-built tree, refused. */
#define MAX_COPY_DEPTH (2 * NTX_MAX_FIELD_DEPTH + 2)

static const char *copy_str(ntx_arena *a, const char *s, int *bad)
{
    if (!s)
        return NULL;
    char *c = ntx_arena_strndup(a, s, strlen(s));
    if (!c)
        *bad = 1;
    return c;
}

static const ntidx_field *copy_fields(ntx_arena *a, const ntidx_field *f, uint32_t n, int depth, int *bad)
{
    if (!n || !f || *bad)
        return NULL;
    if (ntx_manifest_owns(f))
        return f;
    if (depth > MAX_COPY_DEPTH) {
        *bad = 2;
        return NULL;
    }
    ntidx_field *c = ntx_arena_alloc(a, (size_t)n * sizeof *c);
    if (!c) {
        *bad = 1;
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++) {
        c[i] = f[i];
        c[i].name = copy_str(a, f[i].name, bad);
        c[i].element = copy_fields(a, f[i].element, f[i].element ? 1 : 0, depth + 1, bad);
        c[i].fields = copy_fields(a, f[i].fields, f[i].field_count, depth + 1, bad);
    }
    return c;
}

int ntx_metadata_copy_into(ntx_arena *a, const ntidx_metadata *m, ntidx_metadata *out)
{
    int bad = 0;
    *out = *m;
    out->provider = copy_str(a, m->provider, &bad);
    out->event_name = copy_str(a, m->event_name, &bad);
    out->message_template = copy_str(a, m->message_template, &bad);
    out->description = copy_str(a, m->description, &bad);
    out->name_in_trace = copy_str(a, m->name_in_trace, &bad);
    out->fields = copy_fields(a, m->fields, m->field_count, 0, &bad);
    return bad == 0 ? 0 : bad == 1 ? NTIDX_E_NOMEM : NTIDX_E_INVALID_ARG;
}

/* The public copy: the row first, its arena after it, freed together. */
typedef struct owned_metadata {
    ntidx_metadata m;
    ntx_arena arena;
} owned_metadata;

NTIDX_API int ntidx_metadata_copy(const ntidx_metadata *m, ntidx_metadata **out)
{
    if (out)
        *out = NULL;
    if (!m || !out)
        return ntx_failf(NTIDX_E_INVALID_ARG, NULL, NTIDX_NO_OFFSET, "ntidx_metadata_copy: NULL argument");
    owned_metadata *o = calloc(1, sizeof *o);
    if (!o)
        return ntx_failf(NTIDX_E_NOMEM, NULL, NTIDX_NO_OFFSET, "out of memory");
    ntx_arena_init(&o->arena);
    int rc = ntx_metadata_copy_into(&o->arena, m, &o->m);
    if (rc < 0) {
        ntx_arena_free(&o->arena);
        free(o);
        return ntx_failf(rc, NULL, NTIDX_NO_OFFSET,
                         rc == NTIDX_E_NOMEM ? "out of memory" : "metadata fields nested too deep to copy");
    }
    *out = &o->m;
    return NTIDX_OK;
}

NTIDX_API void ntidx_metadata_free(ntidx_metadata **m)
{
    if (!m || !*m)
        return;
    owned_metadata *o = (owned_metadata *)(void *)*m; /* m is the first member */
    ntx_arena_free(&o->arena);
    free(o);
    *m = NULL;
}
