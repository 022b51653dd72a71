/* Reading payload fields for the analyses that decode only what they read (fields.h). */
#include "fields.h"

#include <stdlib.h>

#include "utf.h"

int ntx_an_values(const ntx_an_event *e, const ntidx_values **out, ntx_err *err)
{
    ntx_an_payload *p = e->payload;
    if (!p) { /* decoded by the driver */
        *out = e->values;
        return 0;
    }
    if (p->state == 0) {
        int rc = ntidx_values_decode(p->v, p->t, e->ev);
        if (rc < 0 && rc != NTIDX_E_PAYLOAD)
            return ntx_err_from_last(err, rc);
        p->state = rc == 0 ? 1 : 2;
    }
    *out = p->v;
    return p->state == 1 ? 0 : 1;
}

int ntx_an_field_str(const ntx_an_event *e, const ntx_field_place *p, const char *name, ntx_an_text *buf,
                     const char **s, size_t *len, ntx_err *err)
{
    if (p->kind != NTX_PLACE_UTF16Z) {
        const ntidx_values *v;
        int rc = ntx_an_values(e, &v, err);
        if (rc != 0)
            return rc < 0 ? rc : 0;
        *s = ntx_an_str(v, name, len);
        return *s != NULL;
    }
    const uint8_t *u;
    size_t units;
    if (!ntx_field_place_utf16(p, e->ev, &u, &units))
        return 0;
    size_t need = ntx_utf8_bound(units);
    if (need > buf->cap) {
        size_t cap = need < 256 ? 256 : need;
        char *nb = realloc(buf->data, cap);
        if (!nb)
            return ntx_err_set(err, NTIDX_E_NOMEM, "out of memory");
        buf->data = nb;
        buf->cap = cap;
    }
    *len = u ? ntx_utf16_to_utf8(u, units, buf->data) : 0;
    buf->data[*len] = 0;
    *s = buf->data;
    return 1;
}
