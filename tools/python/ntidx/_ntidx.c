/*
 * ntidx._ntidx: the CPython extension under the ntidx package (docs/python.md).
 *
 * A client of the public API only (include/ntidx/), like the command. What
 * it holds:
 *  - a core per opened trace: the mapped trace, its index (opened at once,
 *    or lazily on first need), the symbolizer when asked for, and the notices
 *    of the index maintenance. Traces, queries and events hold counted
 *    references to it, so Trace.close() never frees what another thread or
 *    a kept Event still uses: the mapping goes when the last reference does;
 *  - Trace (subclassed in Python by ntidx.Trace), Query (the iterator of
 *    Trace.query()), Event (one per event of a query: a copy of the
 *    library's event plus its type, payload decoded only when read), Buffer
 *    (a column's memory, filled in C, handed to numpy without a copy), and
 *    the exceptions, all kept in the module's state;
 *  - Trace._frames(): a FrameReader, the columns of Trace.frame() and
 *    Trace.iter_frames() filled from the query's events straight into growing
 *    arrays (big ones mappings grown by mremap()), the GIL released, with no
 *    Python object made per event, and the per-type, per-thread and per-label
 *    facts cached; _take2(), _kind_counts(), _kind_mask() and _text_codes()
 *    do the passes over those columns that _frame.build() would do in numpy
 *    (_take(), _take2()'s one-table form, is kept for callers of one table).
 *  - Trace._analyze(): an analysis of the library (include/ntidx/analysis.h)
 *    by name, every table filled column by column with the GIL released,
 *    for Trace.gc() and its kin (ntidx/_analysis.py makes the DataFrames).
 *
 * The GIL is released around every library call that reads the trace or the
 * index, so threads can query one Trace at once (the library's thread rules,
 * ntidx.h). The library never prints; what the index maintenance did reaches
 * Python's logging and warnings (ntidx/__init__.py says how), never stdout.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <ntidx/analysis.h>
#include <ntidx/batch.h>
#include <ntidx/index.h>
#include <ntidx/ntidx.h>
#include <ntidx/report.h>
#include <ntidx/symbols.h>

#include <sqlite3.h>

#include "sqlite/ntidx_sqlite.h"

/* ------------------------------------------------------------------ */
/* Module state                                                        */
/* ------------------------------------------------------------------ */

enum { EXC_ERROR, EXC_FILE, EXC_NOT_A_TRACE, EXC_VERSION, EXC_TRUNCATED, EXC_CORRUPT, EXC_ARGUMENT, EXC_TIME,
       EXC_PAYLOAD, EXC_UNSUPPORTED, EXC_WRITE, EXC_INDEX, EXC_INDEX_CORRUPT, EXC_INDEX_STALE, EXC_INDEX_VERSION,
       EXC_CANCELLED, EXC_UNKNOWN_NAME, EXC_COUNT };

typedef struct module_state {
    PyObject *exc[EXC_COUNT];
    PyObject *index_warning;
    PyObject *name_warning; /* UnknownNameWarning */
    PyTypeObject *trace_type, *query_type, *event_type, *buffer_type, *meta_type, *frame_reader_type;
    PyObject *json_loads;  /* json.loads */
    PyObject *notice_hook; /* ntidx/__init__.py's _notice(action, why, path): logging and warnings */
} module_state;

static struct PyModuleDef ntidx_module;

static module_state *state_of_type(PyTypeObject *t)
{
    PyObject *m = PyType_GetModuleByDef(t, &ntidx_module);
    return m ? PyModule_GetState(m) : NULL;
}

static module_state *state_of(PyObject *self) { return state_of_type(Py_TYPE(self)); }

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */

static int exc_for_code(int code)
{
    switch (code) {
    case NTIDX_E_IO: return EXC_FILE;
    case NTIDX_E_NOT_A_TRACE: return EXC_NOT_A_TRACE;
    case NTIDX_E_VERSION: return EXC_VERSION;
    case NTIDX_E_TRUNCATED: case NTIDX_E_SHRUNK: return EXC_TRUNCATED;
    case NTIDX_E_CORRUPT: case NTIDX_E_UNDEFINED_REF: return EXC_CORRUPT;
    case NTIDX_E_INVALID_ARG: return EXC_ARGUMENT;
    case NTIDX_E_PAYLOAD: return EXC_PAYLOAD;
    case NTIDX_E_UNSUPPORTED: return EXC_UNSUPPORTED;
    case NTIDX_E_WRITE: return EXC_WRITE;
    case NTIDX_E_INDEX_CORRUPT: return EXC_INDEX_CORRUPT;
    case NTIDX_E_INDEX_STALE: return EXC_INDEX_STALE;
    case NTIDX_E_INDEX_VERSION: return EXC_INDEX_VERSION;
    case NTIDX_E_CANCELLED: return EXC_CANCELLED;
    default: return EXC_ERROR;
    }
}

/* Raise the exception of the last failed library call on this thread: its code, file, offset and what. */
static PyObject *raise_code(module_state *st, int code, int exc_index)
{
    if (code == NTIDX_E_NOMEM)
        return PyErr_NoMemory();
    const ntidx_error_info *ei = ntidx_last_error_info();
    const char *message = ei->code == code ? ei->message : ntidx_strerror(code);
    PyObject *type = st->exc[exc_index >= 0 ? exc_index : exc_for_code(code)];
    PyObject *e = PyObject_CallFunction(type, "s", message);
    if (!e)
        return NULL;
    int same = ei->code == code;
    PyObject *file = same && ei->file[0] ? PyUnicode_DecodeFSDefault(ei->file) : Py_NewRef(Py_None);
    PyObject *offset = same && ei->offset != NTIDX_NO_OFFSET ? PyLong_FromUnsignedLongLong(ei->offset)
                                                             : Py_NewRef(Py_None);
    PyObject *what = PyUnicode_DecodeUTF8(same ? ei->what : ntidx_strerror(code),
                                          (Py_ssize_t)strlen(same ? ei->what : ntidx_strerror(code)), "replace");
    PyObject *cd = PyLong_FromLong(code);
    PyObject *name = PyUnicode_FromString(ntidx_error_name(code));
    if (file && offset && what && cd && name && PyObject_SetAttrString(e, "file", file) == 0 &&
        PyObject_SetAttrString(e, "offset", offset) == 0 && PyObject_SetAttrString(e, "what", what) == 0 &&
        PyObject_SetAttrString(e, "code", cd) == 0 && PyObject_SetAttrString(e, "name", name) == 0)
        PyErr_SetObject(type, e);
    Py_XDECREF(file);
    Py_XDECREF(offset);
    Py_XDECREF(what);
    Py_XDECREF(cd);
    Py_XDECREF(name);
    Py_DECREF(e);
    return NULL;
}

static PyObject *raise_last(module_state *st, int code) { return raise_code(st, code, -1); }

/* A library string (UTF-8 not guaranteed valid) as str, by the library's one policy for bad bytes (U+FFFD). */
static PyObject *str_of(const char *s, size_t n)
{
    if (!s)
        Py_RETURN_NONE;
    PyObject *u = PyUnicode_DecodeUTF8(s, (Py_ssize_t)n, NULL);
    if (u || !PyErr_ExceptionMatches(PyExc_UnicodeDecodeError))
        return u;
    PyErr_Clear();
    ntidx_buf b = {0};
    if (ntidx_buf_append_utf8(&b, s, n) < 0) {
        ntidx_buf_free(&b);
        return PyErr_NoMemory();
    }
    u = PyUnicode_DecodeUTF8(b.data ? b.data : "", (Py_ssize_t)b.len, "replace");
    ntidx_buf_free(&b);
    return u;
}

static PyObject *cstr_of(const char *s) { return s ? str_of(s, strlen(s)) : Py_NewRef(Py_None); }

/* ------------------------------------------------------------------ */
/* The core: a trace, its index, shared by reference                   */
/* ------------------------------------------------------------------ */

typedef struct notice {
    int action;
    char *why;
} notice;

typedef struct core {
    atomic_long refs;
    ntidx_trace *t;
    ntidx_index *x;             /* NULL until opened (build_index=False: on first need); read with core_x() */
    ntidx_index *replaced;      /* the index core_recover() replaced: what was opened over it may still run */
    pthread_mutex_t recover_lock; /* one rebuild at a time (core_recover()) */
    int index_action;           /* ntidx_index_action of the open, -1 before */
    char *path;                 /* as given: the "file" of info and stats, as the command prints its argument */
    char *index_arg;            /* index= (NULL: the library's choice, ntidx_index_path()) */
    pthread_mutex_t lock;       /* the lazy index and symbolizer, the notices */
    ntidx_symbolizer *sym;
    int sym_rc;                 /* 1 not tried yet, else the open's result */
    ntidx_type_list *types;     /* the trace's event types, listed once (core_types()) */
    ntidx_thread_list *threads; /* its threads (core_threads()) */
    notice *notices;
    size_t nnotices, capnotices;
} core;

static core *core_ref(core *c)
{
    atomic_fetch_add(&c->refs, 1);
    return c;
}

static void core_unref(core *c)
{
    if (!c || atomic_fetch_sub(&c->refs, 1) != 1)
        return;
    ntidx_symbolizer_close(&c->sym);
    ntidx_type_list_free(&c->types);
    ntidx_thread_list_free(&c->threads);
    ntidx_index_close(&c->x);
    ntidx_index_close(&c->replaced);
    ntidx_trace_close(&c->t);
    for (size_t i = 0; i < c->nnotices; i++)
        free(c->notices[i].why);
    free(c->notices);
    free(c->path);
    free(c->index_arg);
    pthread_mutex_destroy(&c->lock);
    pthread_mutex_destroy(&c->recover_lock);
    free(c);
}

/* The index's notice callback: called by the library from any thread, without the GIL; kept for Python. */
static void on_notice(void *ctx, int action, const char *why)
{
    core *c = ctx;
    pthread_mutex_lock(&c->lock);
    if (c->nnotices == c->capnotices) {
        size_t n = c->capnotices ? c->capnotices * 2 : 8;
        notice *nn = realloc(c->notices, n * sizeof *nn);
        if (!nn) {
            pthread_mutex_unlock(&c->lock);
            return;
        }
        c->notices = nn;
        c->capnotices = n;
    }
    c->notices[c->nnotices].action = action;
    c->notices[c->nnotices].why = strdup(why ? why : "");
    c->nnotices++;
    pthread_mutex_unlock(&c->lock);
}

/* Hand the notices so far to Python (ntidx._notice: logging, warnings). With the GIL. */
static int drain_notices(module_state *st, core *c)
{
    pthread_mutex_lock(&c->lock);
    notice *list = c->notices;
    size_t n = c->nnotices;
    c->notices = NULL;
    c->nnotices = c->capnotices = 0;
    pthread_mutex_unlock(&c->lock);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        if (rc == 0 && st->notice_hook && st->notice_hook != Py_None) {
            PyObject *r = PyObject_CallFunction(st->notice_hook, "isO&", list[i].action, list[i].why ? list[i].why : "",
                                                PyUnicode_DecodeFSDefault, c->path);
            if (!r)
                rc = -1;
            Py_XDECREF(r);
        }
        free(list[i].why);
    }
    free(list);
    return rc;
}

/* drain_notices() after an error was raised (it must be raised first: it is this thread's last library
   error): the error stays pending. -1 when an error is pending afterwards. */
static int notices_keep_error(module_state *st, core *c)
{
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    int rc = drain_notices(st, c);
    if (et) {
        PyErr_Clear(); /* a failing notice hook matters less than the call's own error */
        PyErr_Restore(et, ev, tb);
        return -1;
    }
    return rc;
}

static int verify_mode(void)
{
    /* NTIDX_INDEX_VERIFY=all|on-use|auto, as the command reads it */
    const char *v = getenv("NTIDX_INDEX_VERIFY");
    if (v && !strcmp(v, "all"))
        return NTIDX_VERIFY_ALL;
    if (v && !strcmp(v, "on-use"))
        return NTIDX_VERIFY_ON_USE;
    return NTIDX_VERIFY_AUTO;
}

/* The index, opened (found, built, extended or rebuilt, as the command does) on first need. Without the
   GIL; 0 or the library's error (said on this thread). */
static int core_index(core *c)
{
    pthread_mutex_lock(&c->lock);
    int rc = NTIDX_OK;
    if (!c->x) {
        ntidx_index_options o;
        ntidx_index_options_defaults(&o);
        o.verify = verify_mode();
        o.notice = on_notice;
        o.notice_ctx = c;
        ntidx_index_action act = NTIDX_INDEX_LOADED;
        pthread_mutex_unlock(&c->lock); /* notices take the lock */
        ntidx_index *x = NULL;
        rc = ntidx_index_open(c->t, c->index_arg, &o, &x, &act);
        pthread_mutex_lock(&c->lock);
        if (rc == NTIDX_OK && !c->x) {
            __atomic_store_n(&c->x, x, __ATOMIC_RELEASE); /* readers take it without the lock (core_x()) */
            c->index_action = (int)act;
        } else {
            ntidx_index_close(&x); /* another thread was first, or it failed */
        }
    }
    pthread_mutex_unlock(&c->lock);
    return rc;
}

/* The index in use (threads without the GIL read it while core_recover() may replace it). */
static ntidx_index *core_x(core *c) { return __atomic_load_n(&c->x, __ATOMIC_ACQUIRE); }

/*
 * A call over `used` (core_x() when it was made) returned `rc`. When that is NTIDX_E_INDEX_CORRUPT (a region of
 * a lazily checked index failed its check; the library changes no index it is given), the index is rebuilt
 * (ntidx_index_recover(): saved where it was, its notice kept for Python), once per trace, and 1 is returned:
 * the caller goes on over core_x() (ntidx_query_resume(), ntidx_batch_resume(), or the call again). The index
 * it replaces stays open until the trace is: other threads may still be reading through it. 0: anything else,
 * a second failure, or a rebuild that failed (said on this thread). Without the GIL.
 */
static int core_recover(core *c, const ntidx_index *used, int rc)
{
    if (rc != NTIDX_E_INDEX_CORRUPT || !used)
        return 0;
    pthread_mutex_lock(&c->recover_lock);
    int ok = 0;
    if (core_x(c) != used) {
        ok = 1; /* another thread rebuilt it meanwhile */
    } else if (!c->replaced) {
        ntidx_index *nx = NULL;
        if (ntidx_index_recover(c->t, used, NULL, &nx) == NTIDX_OK) { /* the options it was opened with */
            pthread_mutex_lock(&c->lock);
            c->replaced = c->x;
            __atomic_store_n(&c->x, nx, __ATOMIC_RELEASE);
            pthread_mutex_unlock(&c->lock);
            ok = 1;
        }
    }
    pthread_mutex_unlock(&c->recover_lock);
    return ok;
}

/* ntidx_index_check_names() over the index in use, again over a rebuilt one when a region failed its check
   (what the failed call appended to msg dropped). Without the GIL. */
static int core_check_names(core *c, const ntidx_query_options *o, ntidx_buf *msg)
{
    const ntidx_index *x = core_x(c);
    size_t before = msg->len;
    int rc = ntidx_index_check_names(c->t, x, o, msg);
    if (core_recover(c, x, rc)) {
        msg->len = before;
        rc = ntidx_index_check_names(c->t, core_x(c), o, msg);
    }
    return rc;
}

/* The trace's event types (ntidx_index_types()), listed on first need and kept: what every frame's
   provider and event name categories are made of. Without the GIL; 0 or the library's error. */
static int core_types(core *c, const ntidx_type_list **out)
{
    int rc = core_index(c);
    if (rc < 0)
        return rc;
    pthread_mutex_lock(&c->lock);
    ntidx_type_list *l = c->types;
    pthread_mutex_unlock(&c->lock);
    if (!l) {
        /* listed outside the lock (it may read the trace); a thread that lost the race frees its own */
        const ntidx_index *x = core_x(c);
        rc = ntidx_index_types(c->t, x, &l);
        if (core_recover(c, x, rc))
            rc = ntidx_index_types(c->t, core_x(c), &l);
        if (rc < 0)
            return rc;
        pthread_mutex_lock(&c->lock);
        if (c->types)
            ntidx_type_list_free(&l);
        else
            c->types = l;
        l = c->types;
        pthread_mutex_unlock(&c->lock);
    }
    *out = l;
    return 0;
}

/* The trace's threads (ntidx_index_threads()), listed on first need and kept. As core_types(). */
static int core_threads(core *c, const ntidx_thread_list **out)
{
    int rc = core_index(c);
    if (rc < 0)
        return rc;
    pthread_mutex_lock(&c->lock);
    ntidx_thread_list *l = c->threads;
    pthread_mutex_unlock(&c->lock);
    if (!l) {
        const ntidx_index *x = core_x(c);
        rc = ntidx_index_threads(c->t, x, &l);
        if (core_recover(c, x, rc))
            rc = ntidx_index_threads(c->t, core_x(c), &l);
        if (rc < 0)
            return rc;
        pthread_mutex_lock(&c->lock);
        if (c->threads)
            ntidx_thread_list_free(&l);
        else
            c->threads = l;
        l = c->threads;
        pthread_mutex_unlock(&c->lock);
    }
    *out = l;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Buffer: a column's memory, for numpy.frombuffer()                   */
/* ------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    void *data;
    Py_ssize_t n, itemsize;
    char format[4];
    int col; /* data is column memory (col_free()), else malloc()'s */
} BufferObject;

static void col_free(void *p);

static PyObject *buffer_new(module_state *st, void *data, Py_ssize_t n, Py_ssize_t itemsize, const char *format)
{
    BufferObject *b = PyObject_New(BufferObject, st->buffer_type);
    if (!b) {
        free(data);
        return NULL;
    }
    b->data = data;
    b->n = n;
    b->itemsize = itemsize;
    b->col = 0;
    snprintf(b->format, sizeof b->format, "%s", format);
    return (PyObject *)b;
}

static int buffer_getbuffer(PyObject *self, Py_buffer *view, int flags)
{
    BufferObject *b = (BufferObject *)self;
    static char empty[8];
    view->obj = Py_NewRef(self);
    view->buf = b->data ? b->data : empty;
    view->len = b->n * b->itemsize;
    view->readonly = 0;
    view->itemsize = b->itemsize;
    view->format = (flags & PyBUF_FORMAT) ? b->format : NULL;
    view->ndim = 1;
    view->shape = (flags & PyBUF_ND) ? &b->n : NULL;
    view->strides = (flags & PyBUF_STRIDES) ? &b->itemsize : NULL;
    view->suboffsets = NULL;
    view->internal = NULL;
    return 0;
}

static void buffer_dealloc(PyObject *self)
{
    BufferObject *b = (BufferObject *)self;
    PyTypeObject *tp = Py_TYPE(self);
    if (b->col)
        col_free(b->data);
    else
        free(b->data);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyObject *buffer_len_get(PyObject *self, void *closure) { return PyLong_FromSsize_t(((BufferObject *)self)->n); }

static PyGetSetDef buffer_getset[] = {{"length", buffer_len_get, NULL, "items", NULL}, {NULL}};

static PyType_Slot buffer_slots[] = {
    {Py_bf_getbuffer, buffer_getbuffer},
    {Py_tp_dealloc, buffer_dealloc},
    {Py_tp_getset, buffer_getset},
    {Py_tp_doc, "The memory of one column, filled in C; numpy.frombuffer() reads it without a copy."},
    {0, NULL}};

static PyType_Spec buffer_spec = {"ntidx._ntidx.Buffer", sizeof(BufferObject), 0,
                                  Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_DISALLOW_INSTANTIATION,
                                  buffer_slots};

/* ------------------------------------------------------------------ */
/* Meta: an event type kept beyond the reader (for lazy field decoding) */
/* ------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    ntidx_metadata *m;
    PyObject *provider, *event_name;
} MetaObject;

static PyObject *meta_new(module_state *st, const ntidx_metadata *m)
{
    MetaObject *o = PyObject_New(MetaObject, st->meta_type);
    if (!o)
        return NULL;
    o->m = NULL;
    o->provider = o->event_name = NULL;
    if (ntidx_metadata_copy(m, &o->m) < 0) {
        Py_DECREF(o);
        return raise_last(st, NTIDX_E_NOMEM);
    }
    o->provider = cstr_of(m->provider ? m->provider : "");
    o->event_name = cstr_of(m->event_name ? m->event_name : "");
    if (!o->provider || !o->event_name) {
        Py_DECREF(o);
        return NULL;
    }
    return (PyObject *)o;
}

static void meta_dealloc(PyObject *self)
{
    MetaObject *o = (MetaObject *)self;
    PyTypeObject *tp = Py_TYPE(self);
    ntidx_metadata_free(&o->m);
    Py_XDECREF(o->provider);
    Py_XDECREF(o->event_name);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyType_Slot meta_slots[] = {{Py_tp_dealloc, meta_dealloc}, {0, NULL}};
static PyType_Spec meta_spec = {"ntidx._ntidx.Meta", sizeof(MetaObject), 0,
                                Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_DISALLOW_INSTANTIATION,
                                meta_slots};

/* The activity and related activity ids of e: its 16 bytes before V6, its labels in V6. g[k] points at e's
   bytes or at lab[k], or is NULL (none). */
static void event_activity(const ntidx_event *e, uint8_t lab[2][16], const uint8_t *g[2])
{
    g[0] = e->activity_id;
    g[1] = e->related_activity_id;
    if (g[0] || g[1] || !e->label_list)
        return;
    const uint8_t *p = e->label_list, *end = p + e->label_list_size;
    ntidx_label l;
    while (ntidx_label_next(&p, end, &l) == 1) {
        if (l.kind == NTIDX_LABEL_ACTIVITY_ID && !g[0])
            g[0] = memcpy(lab[0], l.guid, 16);
        else if (l.kind == NTIDX_LABEL_RELATED_ACTIVITY_ID && !g[1])
            g[1] = memcpy(lab[1], l.guid, 16);
    }
}

/* ------------------------------------------------------------------ */
/* Event                                                               */
/* ------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    core *c;
    MetaObject *meta;
    ntidx_event ev; /* the library's event, its metadata pointing at meta's copy (payload, stack: the mapping) */
    PyObject *fields; /* decoded on first read */
    PyObject *field_error;
    int decoded;
    uint8_t activity[2][16]; /* copied when made (the reader's header state and labels go with the next event) */
    uint8_t has_activity[2];
} EventObject;

static PyObject *event_new(module_state *st, core *c, MetaObject *meta, const ntidx_event *e)
{
    EventObject *o = PyObject_New(EventObject, st->event_type);
    if (!o)
        return NULL;
    o->c = core_ref(c);
    o->meta = (MetaObject *)Py_NewRef(meta);
    o->ev = *e;
    o->ev.metadata = meta->m;
    o->ev.thread = NULL; /* the reader's, gone after the next event */
    uint8_t lab[2][16];
    const uint8_t *g[2];
    event_activity(e, lab, g);
    for (int k = 0; k < 2; k++) {
        uint64_t w[2] = {0, 0};
        if (g[k])
            memcpy(w, g[k], 16);
        o->has_activity[k] = (w[0] | w[1]) != 0; /* the empty GUID is no activity, as in frames */
        memcpy(o->activity[k], w, 16);
    }

    o->fields = o->field_error = NULL;
    o->decoded = 0;
    return (PyObject *)o;
}

static void event_dealloc(PyObject *self)
{
    EventObject *o = (EventObject *)self;
    PyTypeObject *tp = Py_TYPE(self);
    Py_XDECREF(o->meta);
    Py_XDECREF(o->fields);
    Py_XDECREF(o->field_error);
    core_unref(o->c);
    tp->tp_free(self);
    Py_DECREF(tp);
}

#define EV(self) (&((EventObject *)(self))->ev)

static PyObject *ev_ts(PyObject *s, void *c) { return PyLong_FromUnsignedLongLong(EV(s)->timestamp); }
static PyObject *ev_time_s(PyObject *s, void *c)
{
    return PyFloat_FromDouble(ntidx_ticks_to_seconds(((EventObject *)s)->c->t, EV(s)->timestamp));
}
static PyObject *ev_provider(PyObject *s, void *c) { return Py_NewRef(((EventObject *)s)->meta->provider); }
static PyObject *ev_event_name(PyObject *s, void *c) { return Py_NewRef(((EventObject *)s)->meta->event_name); }
static PyObject *ev_event_id(PyObject *s, void *c) { return PyLong_FromUnsignedLong(EV(s)->metadata->event_id); }
static PyObject *ev_version(PyObject *s, void *c) { return PyLong_FromUnsignedLong(EV(s)->metadata->version); }
static PyObject *ev_thread(PyObject *s, void *c) { return PyLong_FromUnsignedLongLong(EV(s)->thread_id); }
static PyObject *ev_capture(PyObject *s, void *c) { return PyLong_FromUnsignedLongLong(EV(s)->capture_thread_id); }
static PyObject *ev_guid(PyObject *s, int k)
{
    EventObject *o = (EventObject *)s;
    if (!o->has_activity[k])
        Py_RETURN_NONE;
    char text[37];
    ntidx_guid_format(o->activity[k], text);
    return PyUnicode_FromStringAndSize(text, 36);
}
static PyObject *ev_activity(PyObject *s, void *c) { return ev_guid(s, 0); }
static PyObject *ev_related_activity(PyObject *s, void *c) { return ev_guid(s, 1); }
static PyObject *ev_seq(PyObject *s, void *c) { return PyLong_FromUnsignedLong(EV(s)->sequence_number); }
static PyObject *ev_stack_id(PyObject *s, void *c) { return PyLong_FromUnsignedLong(EV(s)->stack_id); }
static PyObject *ev_offset(PyObject *s, void *c) { return PyLong_FromUnsignedLongLong(EV(s)->offset); }
static PyObject *ev_processor(PyObject *s, void *c) { return PyLong_FromUnsignedLong(EV(s)->processor_number); }
static PyObject *ev_payload_size(PyObject *s, void *c) { return PyLong_FromUnsignedLong(EV(s)->payload_size); }

static PyObject *value_to_py(const ntidx_values *vs, const ntidx_value *v, ntidx_buf *scratch, int depth);

/* The children of an ARRAY (a list) or OBJECT (a dict). */
static PyObject *children_to_py(const ntidx_values *vs, const ntidx_value *v, ntidx_buf *scratch, int depth)
{
    int object = v->kind == NTIDX_VALUE_OBJECT;
    PyObject *out = object ? PyDict_New() : PyList_New(0);
    if (!out)
        return NULL;
    for (const ntidx_value *c = ntidx_values_child(vs, v); c; c = ntidx_values_next(vs, c)) {
        PyObject *x = value_to_py(vs, c, scratch, depth + 1);
        int rc = -1;
        if (x && object) {
            PyObject *k = cstr_of(c->name ? c->name : "");
            rc = k ? PyDict_SetItem(out, k, x) : -1;
            Py_XDECREF(k);
        } else if (x) {
            rc = PyList_Append(out, x);
        }
        Py_XDECREF(x);
        if (rc < 0) {
            Py_DECREF(out);
            return NULL;
        }
    }
    return out;
}

/*
 * One value as Python: what the JSON of `ntidx query --format jsonl` holds, parsed (integers exact,
 * GUIDs, times and decimals the JSON's strings, byte arrays lists of numbers), except that NaN and the
 * infinities stay floats.
 */
static PyObject *value_to_py(const ntidx_values *vs, const ntidx_value *v, ntidx_buf *scratch, int depth)
{
    if (depth > 64) { /* the decoder nests far less: not reached */
        PyErr_SetString(PyExc_RecursionError, "payload values nested too deep");
        return NULL;
    }
    switch (v->kind) {
    case NTIDX_VALUE_NULL: Py_RETURN_NONE;
    case NTIDX_VALUE_BOOL: return PyBool_FromLong(v->u != 0);
    case NTIDX_VALUE_INT: return PyLong_FromLongLong(v->i);
    case NTIDX_VALUE_UINT: return PyLong_FromUnsignedLongLong(v->u);
    case NTIDX_VALUE_FLOAT: return PyFloat_FromDouble(v->f);
    case NTIDX_VALUE_STRING: return str_of(v->str, v->len);
    case NTIDX_VALUE_OBJECT: return children_to_py(vs, v, scratch, depth);
    case NTIDX_VALUE_ARRAY:
        if (!v->bytes)
            return children_to_py(vs, v, scratch, depth);
        /* byte[]: numbers, as the JSON */
        {
            int sign = v->field && v->field->element && v->field->element->type_code == NTIDX_TYPE_SBYTE;
            PyObject *l = PyList_New((Py_ssize_t)v->len);
            for (size_t i = 0; l && i < v->len; i++) {
                PyObject *x = PyLong_FromLong(sign ? (long)(int8_t)v->bytes[i] : (long)v->bytes[i]);
                if (!x) {
                    Py_CLEAR(l);
                    break;
                }
                PyList_SET_ITEM(l, (Py_ssize_t)i, x);
            }
            return l;
        }
    default: { /* GUID, TIME, DECIMAL: the JSON's text */
        scratch->len = 0;
        if (ntidx_value_json(vs, v, scratch) < 0)
            return PyErr_NoMemory();
        const char *s = scratch->data;
        size_t n = scratch->len;
        if (n >= 2 && s[0] == '"') {
            s++;
            n -= 2;
        }
        return str_of(s, n);
    }
    }
}

/* Decode the payload once: fields (a dict) or field_error (a str). */
static int event_decode(EventObject *o)
{
    if (o->decoded)
        return 0;
    ntidx_values *vs;
    if (ntidx_values_new(&vs) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = ntidx_values_decode(vs, o->c->t, &o->ev);
    Py_END_ALLOW_THREADS
    PyObject *d = PyDict_New(), *err = NULL;
    ntidx_buf scratch = {0};
    if (d && rc == NTIDX_OK) {
        for (const ntidx_value *v = ntidx_values_at(vs, 0); v; v = ntidx_values_next(vs, v)) {
            PyObject *x = value_to_py(vs, v, &scratch, 0), *k = x ? cstr_of(v->name ? v->name : "") : NULL;
            int bad = !x || !k || PyDict_SetItem(d, k, x) < 0;
            Py_XDECREF(x);
            Py_XDECREF(k);
            if (bad) {
                Py_CLEAR(d);
                break;
            }
        }
    } else if (d && rc == NTIDX_E_PAYLOAD) {
        err = cstr_of(ntidx_last_error_info()->what);
        if (!err)
            Py_CLEAR(d);
    } else if (d) {
        Py_CLEAR(d);
        raise_last(state_of((PyObject *)o), rc);
    }
    ntidx_buf_free(&scratch);
    ntidx_values_free(&vs);
    if (!d)
        return -1;
    o->fields = d;
    o->field_error = err;
    o->decoded = 1;
    return 0;
}

static PyObject *ev_fields(PyObject *s, void *c)
{
    EventObject *o = (EventObject *)s;
    if (event_decode(o) < 0)
        return NULL;
    return Py_NewRef(o->fields);
}

static PyObject *ev_field_error(PyObject *s, void *c)
{
    EventObject *o = (EventObject *)s;
    if (event_decode(o) < 0)
        return NULL;
    return Py_NewRef(o->field_error ? o->field_error : Py_None);
}

static PyObject *ev_stack(PyObject *s, void *c)
{
    EventObject *o = (EventObject *)s;
    size_t n = ntidx_event_stack_depth(o->c->t, &o->ev);
    PyObject *l = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; l && i < n; i++) {
        PyObject *x = PyLong_FromUnsignedLongLong(ntidx_event_stack_ip(o->c->t, &o->ev, i));
        if (!x) {
            Py_CLEAR(l);
            break;
        }
        PyList_SET_ITEM(l, (Py_ssize_t)i, x);
    }
    return l;
}

/* The symbolizer of the core, opened on first use (it reads the method events of the whole trace). */
static int core_symbolizer(core *c)
{
    int rc = core_index(c);
    if (rc < 0)
        return rc;
    pthread_mutex_lock(&c->lock);
    if (c->sym_rc == 1)
        c->sym_rc = ntidx_symbolizer_open(c->t, core_x(c), &c->sym);
    rc = c->sym_rc;
    pthread_mutex_unlock(&c->lock);
    return rc;
}

/* Names of the stack's frames: "Module!Method" as the symbolizer says (None where it knows nothing). */
static PyObject *ev_stack_methods(PyObject *s, void *cl)
{
    EventObject *o = (EventObject *)s;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = core_symbolizer(o->c);
    Py_END_ALLOW_THREADS
    if (rc < 0) {
        raise_last(state_of(s), rc);
        notices_keep_error(state_of(s), o->c);
        return NULL;
    }
    size_t n = ntidx_event_stack_depth(o->c->t, &o->ev);
    PyObject *l = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; l && i < n; i++) {
        ntidx_symbol sym;
        PyObject *x;
        if (ntidx_symbolizer_lookup(o->c->sym, ntidx_event_stack_ip(o->c->t, &o->ev, i), i > 0, &sym) == 1 && sym.method)
            x = sym.module ? PyUnicode_FromFormat("%s!%s", sym.module, sym.method) : cstr_of(sym.method);
        else
            x = Py_NewRef(Py_None);
        if (!x) {
            Py_CLEAR(l);
            break;
        }
        PyList_SET_ITEM(l, (Py_ssize_t)i, x);
    }
    return l;
}

static PyObject *event_repr(PyObject *s)
{
    EventObject *o = (EventObject *)s;
    return PyUnicode_FromFormat("<ntidx.Event ts=%llu %U/%U thread=%llu seq=%u offset=%llu>",
                                (unsigned long long)o->ev.timestamp, o->meta->provider, o->meta->event_name,
                                (unsigned long long)o->ev.thread_id, o->ev.sequence_number,
                                (unsigned long long)o->ev.offset);
}

static PyGetSetDef event_getset[] = {
    {"ts", ev_ts, NULL, "timestamp in raw ticks", NULL},
    {"time_s", ev_time_s, NULL, "seconds since the trace's sync time (PerfView's MSec / 1000)", NULL},
    {"provider", ev_provider, NULL, "provider name", NULL},
    {"event_id", ev_event_id, NULL, "event id", NULL},
    {"event_name", ev_event_name, NULL, "event name as TraceEvent shows it (\"GC/AllocationTick\"), or \"\"", NULL},
    {"version", ev_version, NULL, "event version", NULL},
    {"thread", ev_thread, NULL, "OS thread id where the trace gives one, else the thread index", NULL},
    {"capture_thread", ev_capture, NULL, "the capture thread, the same way", NULL},
    {"seq", ev_seq, NULL, "sequence number (0 in V3)", NULL},
    {"stack_id", ev_stack_id, NULL, "stack id (0: none)", NULL},
    {"offset", ev_offset, NULL, "file offset of the event's header", NULL},
    {"processor", ev_processor, NULL, "processor number", NULL},
    {"activity_id", ev_activity, NULL, "the activity id (a GUID as text), or None (as the frame's column)", NULL},
    {"related_activity_id", ev_related_activity, NULL, "the related activity id, or None", NULL},
    {"payload_size", ev_payload_size, NULL, "payload bytes", NULL},
    {"fields", ev_fields, NULL, "the payload as a dict, decoded on first read ({} when it does not fit its metadata)",
     NULL},
    {"field_error", ev_field_error, NULL, "why the payload does not fit its metadata, or None", NULL},
    {"stack", ev_stack, NULL, "instruction pointers of the stack, leaf first", NULL},
    {"stack_methods", ev_stack_methods, NULL, "\"Module!Method\" per frame from the trace's method events, or None",
     NULL},
    {NULL}};

static PyType_Slot event_slots[] = {{Py_tp_dealloc, event_dealloc},
                                    {Py_tp_getset, event_getset},
                                    {Py_tp_repr, event_repr},
                                    {Py_tp_doc, "One event of a trace (Trace.query(), Trace.seek())."},
                                    {0, NULL}};
static PyType_Spec event_spec = {"ntidx.Event", sizeof(EventObject), 0,
                                 Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_DISALLOW_INSTANTIATION,
                                 event_slots};

/* ------------------------------------------------------------------ */
/* Query options from Python arguments                                 */
/* ------------------------------------------------------------------ */

/* One item of an `event` filter: an id, or a name as the library matches names. */
typedef struct ev_item {
    int has_id;
    uint32_t id;
    char *name;
} ev_item;

/*
 * A call's query. The library's query takes one provider, one event and one thread: a filter of one item
 * is the library's (pushed down to the index), a list of several is matched here, event by event
 * (match_type(), match_thread()), over a query without it, or over one library query per item merged in
 * order (evsrc below).
 */
typedef struct qargs {
    ntidx_query_options o;
    char *provider, *event_name; /* the single items the library's options point at */
    uint64_t *regions;
    /* every item of each filter (also a single one); `*_given`: the filter was given (an empty list
       matches nothing, as SQL's IN ()) */
    char **providers;
    size_t nproviders;
    ev_item *events;
    size_t nevents;
    uint64_t *threads; /* sorted, without repeats */
    size_t nthreads;
    int providers_given, events_given, threads_given;
    int lists; /* a filter of several items (or none): matched here */
} qargs;

static void qargs_free(qargs *a)
{
    free(a->provider);
    free(a->event_name);
    free(a->regions);
    for (size_t i = 0; i < a->nproviders; i++)
        free(a->providers[i]);
    free(a->providers);
    for (size_t i = 0; i < a->nevents; i++)
        free(a->events[i].name);
    free(a->events);
    free(a->threads);
    memset(a, 0, sizeof *a);
}

/* A time as the library takes it: an int (ticks) or a str (ntidx_parse_time: "1.5s", "250ms", ISO-8601 Z, or
   ticks). ntidx/__init__.py turns datetimes and timedeltas into these first. */
static int parse_time(module_state *st, core *c, PyObject *v, uint64_t *out, const char *what)
{
    if (PyLong_Check(v)) {
        unsigned long long x = PyLong_AsUnsignedLongLong(v);
        if (PyErr_Occurred()) {
            PyErr_Clear();
            PyErr_Format(st->exc[EXC_TIME], "%s: %R is not a tick count (0 to 2**64-1)", what, v);
            return -1;
        }
        *out = x;
        return 0;
    }
    if (PyUnicode_Check(v)) {
        const char *s = PyUnicode_AsUTF8(v);
        if (!s)
            return -1;
        if (ntidx_parse_time(c->t, s, out) < 0) {
            raise_code(st, ntidx_last_error_info()->code, EXC_TIME);
            return -1;
        }
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "%s: a time is an int (ticks), a str (\"1.5s\", \"250ms\", ISO-8601 ending in Z) "
                                  "or a datetime, not %.100s", what, Py_TYPE(v)->tp_name);
    return -1;
}

/* Provider names are compared without regard to ASCII case, whatever the locale, as the library compares them. */
static int ascii_ieq(const char *a, const char *b)
{
    for (;; a++, b++) {
        int x = (unsigned char)*a, y = (unsigned char)*b;
        if ((x >= 'A' && x <= 'Z' ? x + 32 : x) != (y >= 'A' && y <= 'Z' ? y + 32 : y))
            return 0;
        if (!x)
            return 1;
    }
}

static char *dup_utf8(PyObject *v)
{
    const char *s = PyUnicode_AsUTF8(v);
    if (!s)
        return NULL;
    char *d = strdup(s);
    if (!d)
        PyErr_NoMemory();
    return d;
}

/* The items of a filter argument: a list of one for a str, an int (or a numpy integer), else the items of any
   other iterable (list, tuple, set, numpy array, pandas Index...). A new reference to a list, or NULL. */
static PyObject *filter_items(PyObject *v, const char *what)
{
    /* a numpy integer is one value; a numpy array has __index__ too, but is a sequence */
    if (PyUnicode_Check(v) || PyLong_Check(v) || (!PyBytes_Check(v) && PyIndex_Check(v) && !PySequence_Check(v)))
    {
        PyObject *l = PyList_New(1);
        if (l)
            PyList_SET_ITEM(l, 0, Py_NewRef(v));
        return l;
    }
    if (PyBytes_Check(v) || PyDict_Check(v)) {
        PyErr_Format(PyExc_TypeError, "%s: a value or a list of values, not %.100s", what, Py_TYPE(v)->tp_name);
        return NULL;
    }
    PyObject *l = PySequence_List(v);
    if (!l && PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s: a value or a list of values, not %.100s", what, Py_TYPE(v)->tp_name);
    }
    return l;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* An `event` item: an id (an int, or a str of digits), else a name (GC/AllocationTick, Provider/Name). */
static int parse_event_item(module_state *st, PyObject *event, ev_item *it)
{
    memset(it, 0, sizeof *it);
    if (PyLong_Check(event) || (!PyUnicode_Check(event) && PyIndex_Check(event))) {
        PyObject *n = PyNumber_Index(event);
        unsigned long x = n ? PyLong_AsUnsignedLong(n) : 0;
        Py_XDECREF(n);
        if (!n || PyErr_Occurred() || x > UINT32_MAX) {
            PyErr_Clear();
            PyErr_Format(st->exc[EXC_ARGUMENT], "event: %R is not an event id", event);
            return -1;
        }
        it->has_id = 1;
        it->id = (uint32_t)x;
        return 0;
    }
    if (!PyUnicode_Check(event)) {
        PyErr_Format(PyExc_TypeError, "event: an id (int) or a name (str), not %.100s", Py_TYPE(event)->tp_name);
        return -1;
    }
    const char *s = PyUnicode_AsUTF8(event);
    if (!s)
        return -1;
    char *endp;
    unsigned long long x = *s && strspn(s, "0123456789") == strlen(s) ? strtoull(s, &endp, 10) : UINT64_MAX;
    if (x <= UINT32_MAX) {
        it->has_id = 1;
        it->id = (uint32_t)x;
        return 0;
    }
    return (it->name = dup_utf8(event)) ? 0 : -1;
}

/* The provider, event and thread filters (each None, one value or a list): every item kept in `a`, a single
   one also as the library's option. */
static int parse_filters(module_state *st, qargs *a, PyObject *provider, PyObject *event, PyObject *thread)
{
    if (provider && provider != Py_None) {
        PyObject *l = filter_items(provider, "provider");
        if (!l)
            return -1;
        Py_ssize_t n = PyList_GET_SIZE(l);
        a->providers_given = 1;
        a->providers = calloc((size_t)(n ? n : 1), sizeof *a->providers);
        if (!a->providers) {
            Py_DECREF(l);
            PyErr_NoMemory();
            return -1;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *x = PyList_GET_ITEM(l, i);
            if (!PyUnicode_Check(x)) {
                PyErr_Format(PyExc_TypeError, "provider: a str (a provider's name), not %.100s", Py_TYPE(x)->tp_name);
                Py_DECREF(l);
                return -1;
            }
            char *d = dup_utf8(x);
            if (!d) {
                Py_DECREF(l);
                return -1;
            }
            int seen = 0; /* a repeat (without regard to case) is one item */
            for (size_t k = 0; k < a->nproviders && !seen; k++)
                seen = ascii_ieq(a->providers[k], d);
            if (seen)
                free(d);
            else
                a->providers[a->nproviders++] = d;
        }
        Py_DECREF(l);
    }
    if (event && event != Py_None) {
        PyObject *l = filter_items(event, "event");
        if (!l)
            return -1;
        Py_ssize_t n = PyList_GET_SIZE(l);
        a->events_given = 1;
        a->events = calloc((size_t)(n ? n : 1), sizeof *a->events);
        if (!a->events) {
            Py_DECREF(l);
            PyErr_NoMemory();
            return -1;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            ev_item it;
            if (parse_event_item(st, PyList_GET_ITEM(l, i), &it) < 0) {
                Py_DECREF(l);
                return -1;
            }
            int seen = 0;
            for (size_t k = 0; k < a->nevents && !seen; k++)
                seen = it.has_id ? a->events[k].has_id && a->events[k].id == it.id
                                 : a->events[k].name && !strcmp(a->events[k].name, it.name);
            if (seen)
                free(it.name);
            else
                a->events[a->nevents++] = it;
        }
        Py_DECREF(l);
    }
    if (thread && thread != Py_None) {
        PyObject *l = filter_items(thread, "thread");
        if (!l)
            return -1;
        Py_ssize_t n = PyList_GET_SIZE(l);
        a->threads_given = 1;
        a->threads = malloc((size_t)(n ? n : 1) * sizeof *a->threads);
        if (!a->threads) {
            Py_DECREF(l);
            PyErr_NoMemory();
            return -1;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *x = PyList_GET_ITEM(l, i);
            PyObject *ix = PyLong_Check(x) || (!PyUnicode_Check(x) && PyIndex_Check(x)) ? PyNumber_Index(x) : NULL;
            unsigned long long v = ix ? PyLong_AsUnsignedLongLong(ix) : 0;
            Py_XDECREF(ix);
            if (!ix || PyErr_Occurred()) {
                PyErr_Clear();
                PyErr_Format(PyExc_TypeError, "thread: an int (the OS thread id), not %R", x);
                Py_DECREF(l);
                return -1;
            }
            a->threads[i] = v;
        }
        Py_DECREF(l);
        qsort(a->threads, (size_t)n, sizeof *a->threads, cmp_u64);
        size_t k = 0;
        for (Py_ssize_t i = 0; i < n; i++)
            if (!k || a->threads[k - 1] != a->threads[i])
                a->threads[k++] = a->threads[i];
        a->nthreads = k;
    }
    /* one item: the library's filter (pushed down to the index); several, or none: matched here */
    if (a->providers_given && a->nproviders == 1) {
        if (!(a->provider = strdup(a->providers[0]))) {
            PyErr_NoMemory();
            return -1;
        }
        a->o.provider = a->provider;
    } else if (a->providers_given) {
        a->lists = 1;
    }
    if (a->events_given && a->nevents == 1) {
        if (a->events[0].has_id) {
            a->o.has_event_id = 1;
            a->o.event_id = a->events[0].id;
        } else {
            if (!(a->event_name = strdup(a->events[0].name))) {
                PyErr_NoMemory();
                return -1;
            }
            a->o.event_name = a->event_name;
        }
    } else if (a->events_given) {
        a->lists = 1;
    }
    if (a->threads_given && a->nthreads == 1) {
        a->o.has_thread = 1;
        a->o.thread = a->threads[0];
    } else if (a->threads_given) {
        a->lists = 1;
    }
    return 0;
}

/* Does a type pass the provider and event filters of `a`? (The library's matching: providers without regard
   to case, names as ntidx_metadata_matches_name() takes them.) */
static int match_type(const qargs *a, const ntidx_metadata *m)
{
    if (a->providers_given) {
        int ok = 0;
        for (size_t i = 0; i < a->nproviders && !ok; i++)
            ok = m->provider && ascii_ieq(a->providers[i], m->provider);
        if (!ok)
            return 0;
    }
    if (a->events_given) {
        int ok = 0;
        for (size_t i = 0; i < a->nevents && !ok; i++)
            ok = a->events[i].has_id ? m->event_id == a->events[i].id
                                     : ntidx_metadata_matches_name(m, a->events[i].name) == 1;
        if (!ok)
            return 0;
    }
    return 1;
}

static int match_thread(const qargs *a, uint64_t thread)
{
    if (!a->threads_given)
        return 1;
    size_t lo = 0, hi = a->nthreads;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a->threads[mid] < thread)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < a->nthreads && a->threads[lo] == thread;
}

/* Window, filters, order, limit and regions from Python values (None: not given). */
static int make_query(module_state *st, core *c, qargs *a, PyObject *start, PyObject *end, PyObject *provider,
                      PyObject *event, PyObject *thread, PyObject *order, PyObject *limit, PyObject *regions)
{
    memset(a, 0, sizeof *a);
    ntidx_query_options_defaults(&a->o);
    if (start && start != Py_None && parse_time(st, c, start, &a->o.t0, "start") < 0)
        return -1;
    if (end && end != Py_None && parse_time(st, c, end, &a->o.t1, "end") < 0)
        return -1;
    if (start && start != Py_None && end && end != Py_None && a->o.t0 > a->o.t1) {
        /* as the command's --from 2s --to 1s: a window that ends before it starts is a mistake, not "nothing" */
        PyErr_Format(st->exc[EXC_ARGUMENT], "start %R, end %R: the window ends before it starts (ticks %llu > %llu)",
                     start, end, (unsigned long long)a->o.t0, (unsigned long long)a->o.t1);
        return -1;
    }
    if (parse_filters(st, a, provider, event, thread) < 0)
        return -1;
    if (order && order != Py_None) {
        const char *s = PyUnicode_Check(order) ? PyUnicode_AsUTF8(order) : NULL;
        if (s && !strcmp(s, "time"))
            a->o.order = NTIDX_ORDER_TIME;
        else if (s && !strcmp(s, "file"))
            a->o.order = NTIDX_ORDER_FILE;
        else {
            PyErr_Clear();
            PyErr_Format(st->exc[EXC_ARGUMENT], "order: \"time\" or \"file\", not %R", order);
            return -1;
        }
    }
    if (limit && limit != Py_None) {
        unsigned long long x = PyLong_Check(limit) ? PyLong_AsUnsignedLongLong(limit) : 0;
        if (!PyLong_Check(limit) || PyErr_Occurred()) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "limit: a count, not %R", limit);
            return -1;
        }
        a->o.limit = x;
    }
    if (regions && regions != Py_None) {
        PyObject *seq = PySequence_Fast(regions, "regions: a list of region numbers");
        if (!seq)
            return -1;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
        a->regions = malloc((size_t)(n ? n : 1) * sizeof *a->regions);
        if (!a->regions) {
            Py_DECREF(seq);
            PyErr_NoMemory();
            return -1;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *x = PySequence_Fast_GET_ITEM(seq, i);
            PyObject *ix = PyLong_Check(x) || (!PyUnicode_Check(x) && PyIndex_Check(x)) ? PyNumber_Index(x) : NULL;
            unsigned long long r = ix ? PyLong_AsUnsignedLongLong(ix) : 0;
            Py_XDECREF(ix);
            if (!ix || PyErr_Occurred()) {
                PyErr_Clear();
                PyErr_Format(PyExc_TypeError, "regions: %R is not a region number", x);
                Py_DECREF(seq);
                return -1;
            }
            a->regions[i] = r;
        }
        Py_DECREF(seq);
        a->o.regions = a->regions;
        a->o.region_count = (size_t)n;
    }
    return 0;
}

/* The Python arguments a call's query is made of (NULL or None: not given). */
typedef struct pyq {
    PyObject *start, *end, *provider, *event, *thread, *order, *limit, *regions;
} pyq;

typedef struct TraceObject TraceObject;
static core *trace_core(TraceObject *self);

/* What every Trace method that reads does first: the trace's core referenced for the call, and the query
   of its arguments in *a. NULL with an exception (nothing to free) when either fails. */
static core *begin_call(PyObject *self, module_state *st, const pyq *p, qargs *a)
{
    memset(a, 0, sizeof *a);
    core *c = trace_core((TraceObject *)self);
    if (!c)
        return NULL;
    if (make_query(st, c, a, p->start, p->end, p->provider, p->event, p->thread, p->order, p->limit,
                   p->regions) < 0) {
        qargs_free(a);
        core_unref(c);
        return NULL;
    }
    return c;
}

/*
 * Name filters that name nothing the trace defines (ntidx_index_check_names(), the words the command prints):
 * with `strict`, an UnknownNameError; else an UnknownNameWarning (`level`: its stacklevel). Called with `strict`
 * before the work, and without it after an empty answer, so that nothing is listed while filters find events.
 * 0, or -1 with an exception (the error, or a warning the filters made one).
 */
static int names_verdict_one(module_state *st, core *c, const ntidx_query_options *o, int strict, int level)
{
    if (!o->provider && !o->event_name && !o->has_event_id)
        return 0;
    ntidx_buf msg = {0};
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = core_index(c);
    if (rc == NTIDX_OK)
        rc = core_check_names(c, o, &msg);
    Py_END_ALLOW_THREADS
    int ret = 0;
    if (rc < 0) {
        raise_last(st, rc);
        ret = -1;
    } else if (rc == 1 && strict) {
        PyErr_Format(st->exc[EXC_UNKNOWN_NAME], "%s: %s", c->path, msg.data);
        ret = -1;
    } else if (rc == 1) {
        ret = PyErr_WarnFormat(st->name_warning, level, "%s: %s", c->path, msg.data);
    }
    ntidx_buf_free(&msg);
    return ret;
}

/*
 * names_verdict_one() of a call's filters: each item of a list on its own (as SQL's IN lists are), an event
 * with the provider when one is given. Every item that names nothing is said (strict: the first raises).
 */
static int names_verdict(module_state *st, core *c, const qargs *a, int strict, int level)
{
    if (!a->lists)
        return names_verdict_one(st, c, &a->o, strict, level);
    ntidx_query_options o;
    for (size_t i = 0; i < a->nproviders; i++) {
        ntidx_query_options_defaults(&o);
        o.provider = a->providers[i];
        if (names_verdict_one(st, c, &o, strict, level) < 0)
            return -1;
    }
    for (size_t i = 0; i < a->nevents; i++) {
        ntidx_query_options_defaults(&o);
        o.provider = a->nproviders == 1 ? a->providers[0] : NULL;
        o.has_event_id = a->events[i].has_id;
        o.event_id = a->events[i].id;
        o.event_name = a->events[i].name;
        if (names_verdict_one(st, c, &o, strict, level) < 0)
            return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Event sources: the library's queries behind a call                  */
/* ------------------------------------------------------------------ */

/* A region left out by on_error="skip": where it is, where the damage was met, and the library's error. */
typedef struct skip_rec {
    uint64_t region, offset, bytes, at;
    int code;
    char *message;
} skip_rec;

/* Verdicts of the list filters per event type (a definition's key): 1 pass, 0 not, absent: not asked yet. */
typedef struct vcache {
    uint64_t *keys;
    uint8_t *vals; /* 0 empty slot, 1 fails, 2 passes */
    size_t cap, n;
} vcache;

static void vcache_free(vcache *v)
{
    free(v->keys);
    free(v->vals);
    memset(v, 0, sizeof *v);
}

static size_t vslot(uint64_t k, size_t cap)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return (size_t)k & (cap - 1);
}

/* The verdict of key k: 1 or 0, -1 not known. */
static int vcache_get(const vcache *v, uint64_t k)
{
    if (!v->cap)
        return -1;
    for (size_t i = vslot(k, v->cap);; i = (i + 1) & (v->cap - 1)) {
        if (!v->vals[i])
            return -1;
        if (v->keys[i] == k)
            return v->vals[i] - 1;
    }
}

static int vcache_put(vcache *v, uint64_t k, int verdict)
{
    if (2 * (v->n + 1) > v->cap) {
        size_t cap = v->cap ? 2 * v->cap : 64;
        uint64_t *keys = malloc(cap * sizeof *keys);
        uint8_t *vals = calloc(cap, 1);
        if (!keys || !vals) {
            free(keys);
            free(vals);
            return -1;
        }
        for (size_t i = 0; i < v->cap; i++)
            if (v->vals[i]) {
                size_t j = vslot(v->keys[i], cap);
                while (vals[j])
                    j = (j + 1) & (cap - 1);
                keys[j] = v->keys[i];
                vals[j] = v->vals[i];
            }
        free(v->keys);
        free(v->vals);
        v->keys = keys;
        v->vals = vals;
        v->cap = cap;
    }
    size_t i = vslot(k, v->cap);
    while (v->vals[i] && v->keys[i] != k)
        i = (i + 1) & (v->cap - 1);
    if (!v->vals[i])
        v->n++;
    v->keys[i] = k;
    v->vals[i] = (uint8_t)(verdict ? 2 : 1);
    return 0;
}

/*
 * The events of a call: one library query, or with filters of several items over a --full index, one query
 * per item merged in order when the index says they read less than one query without the lists (each item's
 * query then skips the blocks that cannot hold it). Lists are matched here either way, so the merge only has
 * to drop repeats (an event two items select: same key, given once). The merge is by (ts, offset) in time
 * order (what one query gives: ties in file order; by region first when the regions overlap in time, as a
 * query reads region after region), by offset in file order.
 *
 * on_error="skip": one query over the regions to read; when it fails on damage (a corrupt block or an
 * undefined reference) inside one of the regions it had still to read, that region is recorded
 * (skip_rec), the query is opened again over the regions after it, and peek() says EVSRC_SKIPPED with the
 * region's first byte in skip_from: the caller drops the rows it took of that region (a region's events
 * come together, and every one of them lies inside its bytes). Damage outside those regions (a definition
 * block of another region that they are primed with) is not skipped: it is the call's error.
 *
 * Without the GIL: the library's calls only.
 */
enum { EVSRC_SKIPPED = 2 };

typedef struct evsrc {
    core *c;                  /* whose index core_recover() replaces when a region fails its check */
    ntidx_trace *t;
    const ntidx_index *x;     /* the index new queries open over */
    const ntidx_index **qx;   /* the index each query reads through */
    const qargs *a;
    ntidx_query_options o; /* the call's options (its single filters the library's) */
    ntidx_query **q;
    const ntidx_event **head; /* each query's next event (NULL: to be read) */
    uint8_t *ended;
    size_t nq;
    long head_of;             /* the query whose event peek() returned last, -1 none */
    int merged, by_region;
    int has_last;
    uint64_t last_region, last_ts, last_off;
    uint64_t given, limit;   /* events given, and at most (0: no limit) */
    uint64_t bytes_closed;   /* bytes the queries closed on the way read (a skip reopens the query) */
    vcache verdicts;
    /* the index's regions: first byte and size by number (merges that key by region, and skips) */
    uint64_t *rg_off, *rg_bytes, *rg_first, *rg_last;
    uint64_t nrg;
    /* on_error="skip" */
    int skip;
    uint64_t *todo;           /* the regions to read, in file order */
    size_t ntodo, todo_at;    /* the query reads todo[todo_at...] */
    skip_rec *skipped;
    size_t nskipped, capskipped;
    uint64_t skip_from;
    /* the item queries' options (strings point into a) */
    ntidx_query_options *items;
} evsrc;

static void evsrc_close(evsrc *s)
{
    for (size_t i = 0; i < s->nq; i++)
        ntidx_query_close(&s->q[i]);
    free(s->q);
    free(s->qx);
    free(s->head);
    free(s->ended);
    free(s->items);
    vcache_free(&s->verdicts);
    free(s->rg_off);
    free(s->rg_bytes);
    free(s->rg_first);
    free(s->rg_last);
    free(s->todo);
    for (size_t i = 0; i < s->nskipped; i++)
        free(s->skipped[i].message);
    free(s->skipped);
    memset(s, 0, sizeof *s);
}

static int nomem_said(const char *what)
{
    (void)what;
    return NTIDX_E_NOMEM;
}

/* The index's regions (offsets, sizes, time spans). 0 or the library's error. */
static int load_regions(evsrc *s)
{
    if (s->rg_off)
        return 0;
    uint64_t n = ntidx_index_region_count(s->x);
    s->rg_off = malloc((size_t)(n ? n : 1) * sizeof *s->rg_off);
    s->rg_bytes = malloc((size_t)(n ? n : 1) * sizeof *s->rg_bytes);
    s->rg_first = malloc((size_t)(n ? n : 1) * sizeof *s->rg_first);
    s->rg_last = malloc((size_t)(n ? n : 1) * sizeof *s->rg_last);
    if (!s->rg_off || !s->rg_bytes || !s->rg_first || !s->rg_last)
        return nomem_said("regions");
    for (uint64_t i = 0; i < n; i++) {
        ntidx_region r;
        int rc = ntidx_index_region(s->x, i, &r);
        if (rc < 0)
            return rc;
        s->rg_off[i] = r.offset;
        s->rg_bytes[i] = r.bytes;
        s->rg_first[i] = r.first_ts;
        s->rg_last[i] = r.last_ts;
    }
    s->nrg = n;
    return 0;
}

/* The region whose bytes hold `offset`, or UINT64_MAX. */
static uint64_t region_of(const evsrc *s, uint64_t offset)
{
    uint64_t lo = 0, hi = s->nrg;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (s->rg_off[mid] <= offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (!lo || offset - s->rg_off[lo - 1] >= s->rg_bytes[lo - 1])
        return UINT64_MAX;
    return lo - 1;
}

/* Do the regions overlap in time (a query in time order then gives region after region)? */
static int regions_overlap(const evsrc *s)
{
    uint64_t prev = 0;
    for (uint64_t i = 0; i < s->nrg; i++) {
        if (s->rg_first[i] > s->rg_last[i])
            continue;
        if (s->rg_first[i] < prev)
            return 1;
        prev = s->rg_last[i];
    }
    return 0;
}

static int open_one(evsrc *s, size_t i, const ntidx_query_options *o)
{
    s->qx[i] = s->x;
    return ntidx_query_open(s->t, s->x, o, &s->q[i]);
}

/* The queries behind a call. `skip`: on_error="skip". 0 or the library's error. */
static int evsrc_open(evsrc *s, core *c, const qargs *a, int skip)
{
    memset(s, 0, sizeof *s);
    s->c = c;
    s->t = c->t;
    s->x = core_x(c);
    s->a = a;
    s->o = a->o;
    s->head_of = -1;
    s->skip = skip;
    /* an empty list selects nothing (SQL's IN ()) */
    if ((a->providers_given && !a->nproviders) || (a->events_given && !a->nevents) ||
        (a->threads_given && !a->nthreads)) {
        s->nq = 0;
        return 0;
    }
    size_t items = 1;
    if (a->lists && !skip) {
        size_t np = a->nproviders ? a->nproviders : 1, ne = a->nevents ? a->nevents : 1,
               nt = a->nthreads ? a->nthreads : 1;
        items = np * ne * nt;
        /* a seek with lists is a seek per item (the library's seek knows one filter of each): the first of them */
        int want_items = a->o.seek ? items <= 256 : items <= 32 && ntidx_index_get_info(s->x)->full;
        if (want_items) {
            s->items = calloc(items, sizeof *s->items);
            if (!s->items)
                return nomem_said("queries");
            size_t k = 0;
            for (size_t ip = 0; ip < np; ip++)
                for (size_t ie = 0; ie < ne; ie++)
                    for (size_t it = 0; it < nt; it++, k++) {
                        ntidx_query_options *o = &s->items[k];
                        *o = a->o;
                        o->limit = 0;
                        if (a->nproviders)
                            o->provider = a->providers[ip];
                        if (a->nevents) {
                            o->has_event_id = a->events[ie].has_id;
                            o->event_id = a->events[ie].id;
                            o->event_name = a->events[ie].name;
                        }
                        if (a->nthreads) {
                            o->has_thread = 1;
                            o->thread = a->threads[it];
                        }
                    }
            int merge = a->o.seek;
            if (!merge) {
                /* one query per item when they read less, all together, than one query without the lists */
                ntidx_query_cost whole, c;
                uint64_t sum = 0;
                merge = ntidx_query_estimate(s->t, s->x, &a->o, &whole) == NTIDX_OK;
                for (size_t i = 0; merge && i < items; i++) {
                    merge = ntidx_query_estimate(s->t, s->x, &s->items[i], &c) == NTIDX_OK;
                    sum += c.bytes;
                }
                merge = merge && sum < whole.bytes;
            }
            if (!merge) {
                free(s->items);
                s->items = NULL;
                items = 1;
            }
        } else {
            items = 1;
        }
    }
    s->merged = s->items != NULL;
    s->nq = items;
    s->limit = a->o.seek ? 1 : a->o.limit;
    if (a->lists && !s->merged) {
        /* the library's query knows nothing of the lists: it must not stop at its own first event or limit */
        if (s->o.seek)
            s->o.order = NTIDX_ORDER_TIME;
        s->o.seek = 0;
        s->o.limit = 0;
    }
    s->q = calloc(items, sizeof *s->q);
    s->qx = calloc(items, sizeof *s->qx);
    s->head = calloc(items, sizeof *s->head);
    s->ended = calloc(items, 1);
    if (!s->q || !s->qx || !s->head || !s->ended)
        return nomem_said("queries");
    int rc;
    if (s->merged && s->o.order == NTIDX_ORDER_TIME) {
        if ((rc = load_regions(s)) < 0)
            return rc;
        s->by_region = regions_overlap(s);
    }
    if (skip) {
        if ((rc = load_regions(s)) < 0)
            return rc;
        /* the regions to read, in file order: the call's (sorted, without repeats), else all */
        size_t n = a->o.regions ? a->o.region_count : (size_t)s->nrg;
        s->todo = malloc((n ? n : 1) * sizeof *s->todo);
        if (!s->todo)
            return nomem_said("regions");
        for (size_t i = 0; i < n; i++)
            s->todo[i] = a->o.regions ? a->o.regions[i] : i;
        qsort(s->todo, n, sizeof *s->todo, cmp_u64);
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (!k || s->todo[k - 1] != s->todo[i])
                s->todo[k++] = s->todo[i];
        s->ntodo = k;
        s->o.regions = s->todo;
        s->o.region_count = s->ntodo;
        if (!s->ntodo) {
            s->ended[0] = 1;
            return 0;
        }
    }
    for (size_t i = 0; i < items; i++)
        if ((rc = open_one(s, i, s->merged ? &s->items[i] : &s->o)) < 0)
            return rc;
    return 0;
}

/* Does event e pass the filters matched here? (Single filters are the library's: they pass.) */
static int evsrc_pass(evsrc *s, const ntidx_event *e)
{
    const qargs *a = s->a;
    if (!a->lists)
        return 1;
    if (a->threads_given && !match_thread(a, e->thread_id))
        return 0;
    if (!a->providers_given && !a->events_given)
        return 1;
    uint64_t k = ntidx_metadata_key(e->metadata);
    int v = vcache_get(&s->verdicts, k);
    if (v < 0) {
        v = match_type(a, e->metadata);
        if (vcache_put(&s->verdicts, k, v) < 0)
            return -1;
    }
    return v;
}

static int skippable(int code)
{
    return code == NTIDX_E_CORRUPT || code == NTIDX_E_UNDEFINED_REF || code == NTIDX_E_TRUNCATED;
}

/* The query failed with `code` (this thread's last error): skip the damaged region when it is one still to
   read. 1 skipped (the query reopened past it, or ended), 0 not skippable. */
static int try_skip(evsrc *s, int code)
{
    if (!s->skip || s->merged || !skippable(code))
        return 0;
    const ntidx_error_info *ei = ntidx_last_error_info();
    if (ei->code != code || ei->offset == NTIDX_NO_OFFSET)
        return 0;
    uint64_t r = region_of(s, ei->offset);
    size_t pos = s->todo_at;
    while (pos < s->ntodo && s->todo[pos] < r)
        pos++;
    if (r == UINT64_MAX || pos == s->ntodo || s->todo[pos] != r)
        return 0; /* damage in what other regions need (their definitions): not a region of its own to leave out */
    if (s->nskipped == s->capskipped) {
        size_t cap = s->capskipped ? 2 * s->capskipped : 8;
        skip_rec *n = realloc(s->skipped, cap * sizeof *n);
        if (!n)
            return 0;
        s->skipped = n;
        s->capskipped = cap;
    }
    char *msg = strdup(ei->message);
    if (!msg)
        return 0;
    s->skipped[s->nskipped++] = (skip_rec){r, s->rg_off[r], s->rg_bytes[r], ei->offset, code, msg};
    s->skip_from = s->rg_off[r];
    s->todo_at = pos + 1;
    s->bytes_closed += ntidx_query_get_stats(s->q[0])->bytes_read;
    ntidx_query_close(&s->q[0]);
    s->head[0] = NULL;
    if (s->todo_at == s->ntodo) {
        s->ended[0] = 1;
        return 1;
    }
    s->o.regions = s->todo + s->todo_at;
    s->o.region_count = s->ntodo - s->todo_at;
    int rc = open_one(s, 0, &s->o);
    if (rc < 0) {
        s->ended[0] = 1; /* cannot happen but out of memory: said by peek() as the error it is */
        return 0;
    }
    return 1;
}

/* What ntidx_query_next() of query i said (rc, and e when 1): its event into head[i] when it passes the filters,
   ended[i] at the end. 0 (head[i] may still be empty: ask again), EVSRC_SKIPPED, or an error. */
static int head_from(evsrc *s, size_t i, int rc, const ntidx_event *e)
{
    /* a region of a lazily checked index failed its check: on over the rebuilt index, from where it was */
    if (s->c && core_recover(s->c, s->qx[i], rc) && (rc = ntidx_query_resume(s->q[i], core_x(s->c))) == NTIDX_OK) {
        s->qx[i] = s->x = core_x(s->c);
        return 0;
    }
    if (rc == 0) {
        s->ended[i] = 1;
        return 0;
    }
    if (rc < 0) {
        if (try_skip(s, rc))
            return EVSRC_SKIPPED;
        return rc;
    }
    int pass = evsrc_pass(s, e);
    if (pass < 0)
        return NTIDX_E_NOMEM;
    if (pass)
        s->head[i] = e;
    return 0;
}

/* Query i's next event that passes the filters into head[i] (NULL and ended at the end). 0 or an error. */
static int fill_head(evsrc *s, size_t i)
{
    while (!s->head[i] && !s->ended[i]) {
        const ntidx_event *e = NULL;
        int rc = ntidx_query_next(s->q[i], &e);
        if ((rc = head_from(s, i, rc, e)) != 0)
            return rc;
    }
    return 0;
}

/* The next event (not taken: evsrc_take() takes it): 1, 0 at the end, EVSRC_SKIPPED (a region was left out:
   drop the rows from s->skip_from on, then peek again), or the library's error. */
static int evsrc_peek(evsrc *s, const ntidx_event **ev)
{
    *ev = NULL;
    if (s->limit && s->given >= s->limit)
        return 0;
    for (;;) {
        long best = -1;
        uint64_t br = 0, bts = 0, boff = 0;
        for (size_t i = 0; i < s->nq; i++) {
            int rc = fill_head(s, i);
            if (rc != 0)
                return rc;
            const ntidx_event *e = s->head[i];
            if (!e)
                continue;
            if (!s->merged) {
                best = (long)i;
                break;
            }
            uint64_t r = s->by_region ? region_of(s, e->offset) : 0;
            uint64_t ts = s->o.order == NTIDX_ORDER_TIME ? e->timestamp : 0;
            if (best < 0 || r < br || (r == br && (ts < bts || (ts == bts && e->offset < boff)))) {
                best = (long)i;
                br = r;
                bts = ts;
                boff = e->offset;
            }
        }
        if (best < 0)
            return 0;
        if (s->merged && s->has_last && br == s->last_region && bts == s->last_ts && boff == s->last_off) {
            s->head[best] = NULL; /* selected by two items: given once */
            continue;
        }
        s->head_of = best;
        if (s->merged) {
            s->last_region = br;
            s->last_ts = bts;
            s->last_off = boff;
        }
        *ev = s->head[best];
        return 1;
    }
}

/* Does peek() come down to one query's next event, every one of them given? (One query, not merged, no list
   filter to match here, no limit: the frame reader's usual case, which evsrc_peek_plain() reads.) */
static int evsrc_plain(const evsrc *s)
{
    return !s->merged && s->nq == 1 && !s->limit && !s->a->lists;
}

/* evsrc_peek() of a plain source (evsrc_plain()): the library's next event handed on as it comes, without the
   loop over queries and filters (a call per row less); anything but an event goes the general way. */
static inline __attribute__((always_inline)) int evsrc_peek_plain(evsrc *s, const ntidx_event **ev)
{
    if (!s->head[0] && !s->ended[0]) {
        const ntidx_event *e = NULL;
        int rc = ntidx_query_next(s->q[0], &e);
        if (__builtin_expect(rc == 1, 1)) {
            s->head[0] = *ev = e;
            s->head_of = 0;
            return 1;
        }
        if ((rc = head_from(s, 0, rc, e)) != 0)
            return rc;
    }
    return evsrc_peek(s, ev);
}

/* Take the event peek() returned (it stays valid until the next peek()). */
static void evsrc_take(evsrc *s)
{
    if (s->head_of < 0)
        return;
    s->head[s->head_of] = NULL;
    s->head_of = -1;
    s->has_last = s->merged;
    s->given++;
}

/* Bytes of the trace the queries read (their counters added up). */
static uint64_t evsrc_bytes_read(const evsrc *s)
{
    uint64_t n = s->bytes_closed;
    for (size_t i = 0; i < s->nq; i++)
        if (s->q[i])
            n += ntidx_query_get_stats(s->q[i])->bytes_read;
    return n;
}

/* ------------------------------------------------------------------ */
/* Query: the iterator of Trace.query()                                */
/* ------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    core *c;
    qargs a;       /* the call's arguments (the source's filters point into them) */
    evsrc src;
    int open;      /* src holds queries */
    PyObject *metas;   /* definition key -> Meta */
    uint64_t last_off;
    MetaObject *last_meta;
    int busy, done;
    uint64_t returned;
    int warn_level; /* a warning when it found nothing (names_verdict()) */
} QueryObject;

static void query_dealloc(PyObject *self)
{
    QueryObject *o = (QueryObject *)self;
    PyTypeObject *tp = Py_TYPE(self);
    evsrc_close(&o->src);
    qargs_free(&o->a);
    Py_XDECREF(o->metas);
    Py_XDECREF(o->last_meta);
    core_unref(o->c);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static MetaObject *meta_of(module_state *st, QueryObject *o, const ntidx_metadata *m)
{
    /* by type key, not offset: rows derived by V6 label overrides share their definition's offset */
    const uint64_t k = ntidx_metadata_key(m);
    if (o->last_meta && o->last_off == k)
        return o->last_meta;
    PyObject *key = PyLong_FromUnsignedLongLong(k);
    if (!key)
        return NULL;
    PyObject *meta = PyDict_GetItemWithError(o->metas, key);
    if (!meta) {
        if (PyErr_Occurred() || !(meta = meta_new(st, m)) || PyDict_SetItem(o->metas, key, meta) < 0) {
            Py_XDECREF(meta);
            Py_DECREF(key);
            return NULL;
        }
        Py_DECREF(meta); /* the dict holds it */
    }
    Py_DECREF(key);
    Py_XSETREF(o->last_meta, (MetaObject *)Py_NewRef(meta));
    o->last_off = k;
    return o->last_meta;
}

static PyObject *query_next_event(PyObject *self)
{
    QueryObject *o = (QueryObject *)self;
    module_state *st = state_of(self);
    if (o->done || !o->open)
        return NULL;
    if (o->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this query is being read by another thread (give each thread its own)");
        return NULL;
    }
    o->busy = 1;
    const ntidx_event *e = NULL;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = evsrc_peek(&o->src, &e);
    if (rc == 1)
        evsrc_take(&o->src); /* valid until the next peek */
    Py_END_ALLOW_THREADS
    o->busy = 0;
    if (rc < 0)
        raise_last(st, rc);
    if (notices_keep_error(st, o->c) < 0 || rc <= 0) {
        o->done = 1;
        evsrc_close(&o->src);
        o->open = 0;
        if (rc == 0 && !o->returned && !PyErr_Occurred())
            names_verdict(st, o->c, &o->a, 0, o->warn_level); /* nothing found: a name that names nothing? */
        return NULL;
    }
    o->returned++;
    MetaObject *meta = meta_of(st, o, e->metadata);
    return meta ? event_new(st, o->c, meta, e) : NULL;
}

static PyObject *query_iter(PyObject *self) { return Py_NewRef(self); }

static PyObject *query_close(PyObject *self, PyObject *unused)
{
    QueryObject *o = (QueryObject *)self;
    if (o->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this query is being read by another thread");
        return NULL;
    }
    evsrc_close(&o->src);
    o->open = 0;
    o->done = 1;
    Py_RETURN_NONE;
}

static PyObject *query_stats(PyObject *self, PyObject *unused)
{
    QueryObject *o = (QueryObject *)self;
    if (!o->open || !o->src.nq)
        Py_RETURN_NONE;
    /* the counters of its queries, added up */
    ntidx_query_stats sum = {0};
    for (size_t i = 0; i < o->src.nq; i++) {
        if (!o->src.q[i])
            continue;
        const ntidx_query_stats *s = ntidx_query_get_stats(o->src.q[i]);
        sum.regions_visited += s->regions_visited;
        sum.blocks_read += s->blocks_read;
        sum.event_blocks_read += s->event_blocks_read;
        sum.bytes_read += s->bytes_read;
        sum.dropped_events += s->dropped_events;
    }
    sum.bytes_read += o->src.bytes_closed;
    return Py_BuildValue("{sKsKsKsKsK}", "regions_visited", (unsigned long long)sum.regions_visited, "blocks_read",
                         (unsigned long long)sum.blocks_read, "event_blocks_read",
                         (unsigned long long)sum.event_blocks_read, "bytes_read", (unsigned long long)sum.bytes_read,
                         "dropped_events", (unsigned long long)sum.dropped_events);
}

static PyMethodDef query_methods[] = {
    {"close", query_close, METH_NOARGS, "Stop the query and free what it holds."},
    {"read_stats", query_stats, METH_NOARGS, "Blocks and bytes of the trace read so far (None once closed)."},
    {NULL}};

static PyType_Slot query_slots[] = {{Py_tp_dealloc, query_dealloc},
                                    {Py_tp_iter, query_iter},
                                    {Py_tp_iternext, query_next_event},
                                    {Py_tp_methods, query_methods},
                                    {Py_tp_doc, "The events of Trace.query(), one Event at a time."},
                                    {0, NULL}};
static PyType_Spec query_spec = {"ntidx.Query", sizeof(QueryObject), 0,
                                 Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_DISALLOW_INSTANTIATION,
                                 query_slots};

/* ------------------------------------------------------------------ */
/* Trace                                                               */
/* ------------------------------------------------------------------ */

struct TraceObject {
    PyObject_HEAD
    core *c;
    PyObject *path_obj;
};

/* The core of an open trace, referenced for the call (close() from another thread cannot free it). */
static core *trace_core(TraceObject *self)
{
    if (!self->c) {
        PyErr_SetString(PyExc_ValueError, "the trace is closed");
        return NULL;
    }
    return core_ref(self->c);
}

static int trace_init(PyObject *self_obj, PyObject *args, PyObject *kw)
{
    TraceObject *self = (TraceObject *)self_obj;
    module_state *st = state_of(self_obj);
    static char *names[] = {"path", "index", "build_index", NULL};
    PyObject *path, *index = Py_None;
    int build_index = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|Op:Trace", names, PyUnicode_FSConverter, &path, &index,
                                     &build_index))
        return -1;
    if (self->c) {
        Py_DECREF(path);
        PyErr_SetString(PyExc_RuntimeError, "the trace is open already");
        return -1;
    }
    PyObject *index_b = NULL;
    if (index != Py_None && !PyUnicode_FSConverter(index, &index_b)) {
        Py_DECREF(path);
        return -1;
    }
    core *c = calloc(1, sizeof *c);
    if (!c) {
        Py_DECREF(path);
        Py_XDECREF(index_b);
        PyErr_NoMemory();
        return -1;
    }
    atomic_init(&c->refs, 1);
    pthread_mutex_init(&c->lock, NULL);
    pthread_mutex_init(&c->recover_lock, NULL);
    c->index_action = -1;
    c->sym_rc = 1;
    c->path = strdup(PyBytes_AS_STRING(path));
    c->index_arg = index_b ? strdup(PyBytes_AS_STRING(index_b)) : NULL;
    Py_XDECREF(index_b);
    if (!c->path || (index != Py_None && !c->index_arg)) {
        Py_DECREF(path);
        core_unref(c);
        PyErr_NoMemory();
        return -1;
    }
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = ntidx_trace_open(c->path, &c->t);
    if (rc == NTIDX_OK && build_index)
        rc = core_index(c);
    Py_END_ALLOW_THREADS
    if (rc < 0)
        raise_last(st, rc);
    if (notices_keep_error(st, c) < 0) {
        Py_DECREF(path);
        core_unref(c);
        return -1;
    }
    self->c = c;
    Py_XSETREF(self->path_obj, PyUnicode_DecodeFSDefault(c->path));
    Py_DECREF(path);
    return self->path_obj ? 0 : -1;
}

static void trace_dealloc(PyObject *self_obj)
{
    TraceObject *self = (TraceObject *)self_obj;
    PyTypeObject *tp = Py_TYPE(self_obj);
    PyObject_GC_UnTrack(self_obj);
    core_unref(self->c);
    self->c = NULL;
    Py_CLEAR(self->path_obj);
    tp->tp_free(self_obj);
    Py_DECREF(tp);
}

static int trace_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self));
    return 0;
}

static PyObject *trace_close(PyObject *self_obj, PyObject *unused)
{
    TraceObject *self = (TraceObject *)self_obj;
    core *c = self->c;
    self->c = NULL;
    core_unref(c); /* the mapping goes once no query or event of it is left */
    Py_RETURN_NONE;
}

/* Finish a call: an error raised when rc < 0 (first: it is this thread's last error), the notices handed to
   Python, the call's reference dropped. */
static PyObject *finish(module_state *st, core *c, int rc, PyObject *result)
{
    if (rc < 0) {
        Py_CLEAR(result);
        raise_last(st, rc);
    }
    if (notices_keep_error(st, c) < 0)
        Py_CLEAR(result);
    core_unref(c);
    return result;
}

static PyObject *json_parse(module_state *st, const ntidx_buf *b)
{
    PyObject *s = PyUnicode_DecodeUTF8(b->data ? b->data : "", (Py_ssize_t)b->len, "strict");
    if (!s)
        return NULL;
    PyObject *r = PyObject_CallOneArg(st->json_loads, s);
    Py_DECREF(s);
    return r;
}

static PyObject *trace_info(PyObject *self_obj, PyObject *unused)
{
    module_state *st = state_of(self_obj);
    core *c = trace_core((TraceObject *)self_obj);
    if (!c)
        return NULL;
    ntidx_buf b = {0};
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = ntidx_info_json(c->t, c->path, &b);
    Py_END_ALLOW_THREADS
    PyObject *r = rc == NTIDX_OK ? json_parse(st, &b) : NULL;
    ntidx_buf_free(&b);
    if (rc == NTIDX_OK && !r) {
        core_unref(c);
        return NULL;
    }
    return finish(st, c, rc, r);
}

static PyObject *trace_stats(PyObject *self_obj, PyObject *args, PyObject *kw)
{
    module_state *st = state_of(self_obj);
    static char *names[] = {"start", "end", "threads", "regions", NULL};
    pyq p = {0};
    unsigned int threads = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OOIO:stats", names, &p.start, &p.end, &threads, &p.regions))
        return NULL;
    qargs a;
    core *c = begin_call(self_obj, st, &p, &a);
    if (!c)
        return NULL;
    ntidx_stats_options so;
    ntidx_stats_options_defaults(&so);
    so.t0 = a.o.t0;
    so.t1 = a.o.t1;
    so.threads = threads;
    so.regions = a.o.regions;
    so.region_count = a.o.region_count;
    ntidx_stats *s = NULL;
    ntidx_buf b = {0};
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = core_index(c);
    if (rc == NTIDX_OK)
    {
        const ntidx_index *x = core_x(c);
        rc = ntidx_stats_indexed(c->t, x, &so, &s);
        if (core_recover(c, x, rc))
            rc = ntidx_stats_indexed(c->t, core_x(c), &so, &s);
    }
    if (rc == NTIDX_OK)
        rc = ntidx_stats_json(s, c->path, &b);
    ntidx_stats_free(&s);
    Py_END_ALLOW_THREADS
    qargs_free(&a);
    PyObject *r = rc == NTIDX_OK ? json_parse(st, &b) : NULL;
    ntidx_buf_free(&b);
    if (rc == NTIDX_OK && !r) {
        core_unref(c);
        return NULL;
    }
    return finish(st, c, rc, r);
}

/* A Query over the call's arguments, which it takes (*a is emptied). */
static PyObject *open_query(module_state *st, core *c, qargs *a, int warn_level)
{
    QueryObject *o = PyObject_New(QueryObject, st->query_type);
    if (!o) {
        qargs_free(a);
        return finish(st, c, 0, NULL);
    }
    o->c = core_ref(c);
    o->a = *a;
    memset(a, 0, sizeof *a);
    memset(&o->src, 0, sizeof o->src);
    o->open = 0;
    o->metas = PyDict_New();
    o->last_meta = NULL;
    o->last_off = 0;
    o->busy = o->done = 0;
    o->returned = 0;
    o->warn_level = warn_level;
    if (!o->metas) {
        Py_DECREF(o);
        return finish(st, c, 0, NULL);
    }
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = core_index(c);
    if (rc == NTIDX_OK)
        rc = evsrc_open(&o->src, c, &o->a, 0);
    Py_END_ALLOW_THREADS
    o->open = 1;
    if (rc < 0) {
        Py_CLEAR(o);
        return finish(st, c, rc, NULL);
    }
    return finish(st, c, 0, (PyObject *)o);
}

static PyObject *trace_query(PyObject *self_obj, PyObject *args, PyObject *kw)
{
    module_state *st = state_of(self_obj);
    static char *names[] = {"start", "end", "provider", "event", "thread", "order", "limit", "regions", "strict", NULL};
    pyq p = {0};
    int strict = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OOOOOOOOp:query", names, &p.start, &p.end, &p.provider, &p.event,
                                     &p.thread, &p.order, &p.limit, &p.regions, &strict))
        return NULL;
    qargs a;
    core *c = begin_call(self_obj, st, &p, &a);
    if (!c)
        return NULL;
    if (strict && names_verdict(st, c, &a, 1, 1) < 0) {
        qargs_free(&a);
        core_unref(c);
        return NULL;
    }
    PyObject *q = open_query(st, c, &a, 1); /* the query copies what it keeps; warnings are said where it is read */
    qargs_free(&a);
    return q;
}

static PyObject *trace_seek(PyObject *self_obj, PyObject *args, PyObject *kw)
{
    module_state *st = state_of(self_obj);
    static char *names[] = {"t", "provider", "event", "thread", "strict", NULL};
    pyq p = {0};
    int strict = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OOOp:seek", names, &p.start, &p.provider, &p.event, &p.thread,
                                     &strict))
        return NULL;
    qargs a;
    core *c = begin_call(self_obj, st, &p, &a);
    if (!c)
        return NULL;
    if (strict && names_verdict(st, c, &a, 1, 1) < 0) {
        qargs_free(&a);
        core_unref(c);
        return NULL;
    }
    a.o.seek = 1;
    PyObject *q = open_query(st, c, &a, 2);
    qargs_free(&a);
    if (!q)
        return NULL;
    PyObject *e = query_next_event(q);
    Py_DECREF(q);
    if (!e && !PyErr_Occurred())
        Py_RETURN_NONE;
    return e;
}

static PyObject *trace_regions(PyObject *self_obj, PyObject *args, PyObject *kw)
{
    module_state *st = state_of(self_obj);
    static char *names[] = {"start", "end", NULL};
    pyq p = {0};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OO:regions", names, &p.start, &p.end))
        return NULL;
    qargs a;
    core *c = begin_call(self_obj, st, &p, &a);
    if (!c)
        return NULL;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = core_index(c);
    Py_END_ALLOW_THREADS
    if (rc < 0)
        return finish(st, c, rc, NULL);
    PyObject *list = PyList_New(0);
    const ntidx_index *x = core_x(c);
    uint64_t n = ntidx_index_region_count(x);
    for (uint64_t i = 0; list && i < n; i++) {
        ntidx_region r;
        if ((rc = ntidx_index_region(x, i, &r)) < 0) {
            Py_CLEAR(list);
            break;
        }
        /* the regions that hold events of the window: what statistics and queries over it read; without a
           window every region, also those without events, whose blocks the statistics count */
        int whole = a.o.t0 == 0 && a.o.t1 == UINT64_MAX;
        if (!whole && (r.first_ts > r.last_ts || r.first_ts >= a.o.t1 || r.last_ts < a.o.t0))
            continue;
        PyObject *t = Py_BuildValue("(KKKKKKKN)", (unsigned long long)r.number, (unsigned long long)r.first_ts,
                                    (unsigned long long)r.last_ts, (unsigned long long)r.offset,
                                    (unsigned long long)r.bytes, (unsigned long long)r.blocks,
                                    (unsigned long long)r.event_blocks,
                                    r.events == UINT64_MAX ? Py_NewRef(Py_None) : PyLong_FromUnsignedLongLong(r.events));
        if (!t || PyList_Append(list, t) < 0)
            Py_CLEAR(list);
        Py_XDECREF(t);
    }
    return finish(st, c, rc, list);
}

/* One field of a layout as a dict: name, type (the type code's name), and its element or fields. */
static PyObject *field_to_py(const ntidx_field *f, int depth)
{
    static const char *const tnames[] = {
        [NTIDX_TYPE_EMPTY] = "Empty", [NTIDX_TYPE_OBJECT] = "Object", [NTIDX_TYPE_BOOLEAN32] = "Boolean32",
        [NTIDX_TYPE_UTF16_CODE_UNIT] = "UTF16CodeUnit", [NTIDX_TYPE_SBYTE] = "SByte", [NTIDX_TYPE_BYTE] = "Byte",
        [NTIDX_TYPE_INT16] = "Int16", [NTIDX_TYPE_UINT16] = "UInt16", [NTIDX_TYPE_INT32] = "Int32",
        [NTIDX_TYPE_UINT32] = "UInt32", [NTIDX_TYPE_INT64] = "Int64", [NTIDX_TYPE_UINT64] = "UInt64",
        [NTIDX_TYPE_SINGLE] = "Single", [NTIDX_TYPE_DOUBLE] = "Double", [NTIDX_TYPE_DECIMAL] = "Decimal",
        [NTIDX_TYPE_DATETIME] = "DateTime", [NTIDX_TYPE_GUID] = "Guid", [NTIDX_TYPE_UTF16_STRING] = "String",
        [NTIDX_TYPE_ARRAY] = "Array", [NTIDX_TYPE_VARINT] = "VarInt", [NTIDX_TYPE_VARUINT] = "VarUInt",
        [NTIDX_TYPE_FIXED_ARRAY] = "FixedArray", [NTIDX_TYPE_UTF8_CODE_UNIT] = "UTF8CodeUnit",
        [NTIDX_TYPE_RELLOC] = "RelLoc", [NTIDX_TYPE_DATALOC] = "DataLoc", [NTIDX_TYPE_BOOLEAN8] = "Boolean8"};
    const char *tn = f->type_code < sizeof tnames / sizeof tnames[0] && tnames[f->type_code] ? tnames[f->type_code]
                     : f->type_code == NTIDX_TYPE_POINTER                                    ? "Pointer"
                     : f->type_code == NTIDX_TYPE_COUNTED_ARRAY                              ? "CountedArray"
                     : f->type_code == NTIDX_TYPE_ANSI_STRING                                ? "AnsiString"
                                                                                             : "Unknown";
    PyObject *d = Py_BuildValue("{sNsssi}", "name", cstr_of(f->name ? f->name : ""), "type", tn, "type_code",
                                (int)f->type_code);
    if (!d || depth > 40)
        return d;
    if (f->element) {
        PyObject *e = field_to_py(f->element, depth + 1);
        if (!e || PyDict_SetItemString(d, "element", e) < 0)
            Py_CLEAR(d);
        Py_XDECREF(e);
    }
    if (d && f->field_count && f->fields) {
        PyObject *l = PyList_New(0);
        for (uint32_t i = 0; l && i < f->field_count; i++) {
            PyObject *x = field_to_py(&f->fields[i], depth + 1);
            if (!x || PyList_Append(l, x) < 0)
                Py_CLEAR(l);
            Py_XDECREF(x);
        }
        if (!l || PyDict_SetItemString(d, "fields", l) < 0)
            Py_CLEAR(d);
        Py_XDECREF(l);
    }
    return d;
}

static PyObject *trace_types(PyObject *self_obj, PyObject *args, PyObject *kw)
{
    module_state *st = state_of(self_obj);
    static char *names[] = {"provider", "event", "strict", NULL};
    pyq p = {0};
    int strict = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OOp:types", names, &p.provider, &p.event, &strict))
        return NULL;
    qargs a;
    core *c = begin_call(self_obj, st, &p, &a);
    if (!c)
        return NULL;
    if (strict && names_verdict(st, c, &a, 1, 1) < 0) {
        qargs_free(&a);
        core_unref(c);
        return NULL;
    }
    const ntidx_type_list *l = NULL;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = core_types(c, &l);
    Py_END_ALLOW_THREADS
    PyObject *out = rc == NTIDX_OK ? PyList_New(0) : NULL;
    for (size_t i = 0; out && i < ntidx_type_list_count(l); i++) {
        const ntidx_metadata *m = ntidx_type_list_at(l, i);
        /* the filters of a query (providers without regard to case, as EventPipe compares them) */
        if (!match_type(&a, m))
            continue;
        PyObject *fl = PyList_New(0);
        for (uint32_t k = 0; fl && m->fields && k < m->field_count; k++) {
            PyObject *x = field_to_py(&m->fields[k], 0);
            if (!x || PyList_Append(fl, x) < 0)
                Py_CLEAR(fl);
            Py_XDECREF(x);
        }
        PyObject *d = fl ? Py_BuildValue("{sNsIsNsIsNsO}", "provider", cstr_of(m->provider), "event_id",
                                         (unsigned)m->event_id, "event_name", cstr_of(m->event_name ? m->event_name : ""),
                                         "version", (unsigned)m->version, "fields", fl, "has_fields",
                                         m->has_fields ? Py_True : Py_False)
                         : NULL;
        if (!d || PyList_Append(out, d) < 0)
            Py_CLEAR(out);
        Py_XDECREF(d);
    }
    if (out && PyList_GET_SIZE(out) == 0 && names_verdict(st, c, &a, 0, 1) < 0)
        Py_CLEAR(out);
    qargs_free(&a);
    return finish(st, c, rc, out);
}

static PyObject *trace_check_names(PyObject *self_obj, PyObject *args, PyObject *kw)
{
    module_state *st = state_of(self_obj);
    static char *names[] = {"provider", "event", NULL};
    pyq p = {0};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OO:check_names", names, &p.provider, &p.event))
        return NULL;
    qargs a;
    core *c = begin_call(self_obj, st, &p, &a);
    if (!c)
        return NULL;
    ntidx_buf msg = {0};
    int rc = 0;
    Py_BEGIN_ALLOW_THREADS
    rc = core_index(c);
    if (rc == NTIDX_OK && !a.lists) {
        rc = core_check_names(c, &a.o, &msg);
    } else if (rc == NTIDX_OK) {
        /* each item of a list on its own, as names_verdict() says them; the messages joined by "; " */
        ntidx_query_options o;
        size_t n = a.nproviders + a.nevents;
        for (size_t i = 0; i < n && rc >= 0; i++) {
            ntidx_query_options_defaults(&o);
            if (i < a.nproviders) {
                o.provider = a.providers[i];
            } else {
                const ev_item *it = &a.events[i - a.nproviders];
                o.provider = a.nproviders == 1 ? a.providers[0] : NULL;
                o.has_event_id = it->has_id;
                o.event_id = it->id;
                o.event_name = it->name;
            }
            size_t before = msg.len;
            if (msg.len && ntidx_buf_append(&msg, "; ", 2) < 0)
                rc = NTIDX_E_NOMEM;
            int r = rc < 0 ? rc : core_check_names(c, &o, &msg);
            if (r == 0)
                msg.len = before; /* this item names something: no separator either */
            rc = r < 0 ? r : (rc == 1 || r == 1);
        }
        if (rc >= 0)
            rc = msg.len > 0;
    }
    Py_END_ALLOW_THREADS
    qargs_free(&a);
    PyObject *r = rc == 1 ? str_of(msg.data, msg.len) : rc == 0 ? Py_NewRef(Py_None) : NULL;
    ntidx_buf_free(&msg);
    return finish(st, c, rc < 0 ? rc : 0, r);
}

/* ------------------------------------------------------------------ */
/* Columns handed to numpy                                            */
/* ------------------------------------------------------------------ */

/*
 * Column memory (a frame's columns): a header before the data says how it was allocated. A big column is a
 * mapping of its own, grown by mremap() (no copy: a frame of a 1 GB trace is ~800 MB of columns, and realloc()
 * copied them as they doubled, each copy faulting in fresh pages). Small ones are malloc()'s. Not in huge pages:
 * asked for with MADV_HUGEPAGE they made the frame of the 1 GB trace slower on the benchmark machine (a VM: the
 * kernel spent half the time zeroing 2 MiB pages), where 4 KiB pages come back already backed.
 */
typedef struct col_head {
    size_t bytes;  /* of the whole block, header included */
    int mapped;
    int pad;
    char align[48];
} col_head;

enum { COL_MAP_MIN = 1u << 20, COL_STEP = 2u << 20 };

static void *col_map(size_t total)
{
#if defined(MAP_ANONYMOUS)
    total = (total + COL_STEP - 1) & ~(size_t)(COL_STEP - 1);
    void *m = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    ((col_head *)m)->bytes = total;
    ((col_head *)m)->mapped = 1;
    return m;
#else
    (void)total;
    return NULL;
#endif
}

/* Room for `bytes` bytes of data in a column (p NULL: a new one). The data, or NULL out of memory (p kept). */
static void *col_realloc(void *p, size_t bytes)
{
    col_head *h = p ? (col_head *)p - 1 : NULL;
    size_t total = bytes + sizeof(col_head);
    if (total < bytes)
        return NULL;
    if (h && h->mapped) { /* 1, or 2: populate refused */
        if (total <= h->bytes)
            return p;
#if defined(MREMAP_MAYMOVE)
        size_t nt = (total + COL_STEP - 1) & ~(size_t)(COL_STEP - 1);
        void *m = mremap(h, h->bytes, nt, MREMAP_MAYMOVE);
        if (m == MAP_FAILED)
            return NULL;
        ((col_head *)m)->bytes = nt;
        return (col_head *)m + 1;
#endif
    }
    if (total >= COL_MAP_MIN) {
        col_head *m = col_map(total);
        if (m) {
            if (h) {
                memcpy(m + 1, p, (h->bytes < total ? h->bytes : total) - sizeof(col_head));
                if (h->mapped)
                    munmap(h, h->bytes);
                else
                    free(h);
            }
            return m + 1;
        }
        if (h && h->mapped)
            return NULL;
    }
    col_head *n = realloc(h, total);
    if (!n)
        return NULL;
    n->bytes = total;
    n->mapped = 0;
    return n + 1;
}

static void col_free(void *p)
{
    if (!p)
        return;
    col_head *h = (col_head *)p - 1;
    if (h->mapped)
        munmap(h, h->bytes);
    else
        free(h);
}

/* Fault in the pages of bytes [from, to) of a mapped column at once (MADV_POPULATE_WRITE): one call for what
   would be a fault per 4 KiB page as the rows are written. A hint: where the system has no such call, the
   pages fault in as they are written. */
static void col_populate(void *p, size_t from, size_t to)
{
#if defined(MADV_POPULATE_WRITE)
    if (!p || ((col_head *)p - 1)->mapped != 1)
        return;
    col_head *h = (col_head *)p - 1;
    uintptr_t base = (uintptr_t)h, end = base + h->bytes;
    uintptr_t lo = ((uintptr_t)p + from) & ~(uintptr_t)4095, hi = ((uintptr_t)p + to + 4095) & ~(uintptr_t)4095;
    if (hi > end)
        hi = end;
    if (lo < hi && madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE) != 0)
        h->mapped = 2; /* refused (an older kernel): not asked again for this column */
#else
    (void)p;
    (void)from;
    (void)to;
#endif
}

/* A column of exactly `bytes` (written whole at once): its pages faulted in together. */
static void *col_alloc_exact(size_t bytes)
{
    void *p = col_realloc(NULL, bytes);
    col_populate(p, 0, bytes);
    return p;
}

static int grow_to(void **p, size_t rows, size_t size)
{
    void *np = col_realloc(*p, rows * size);
    if (!np)
        return -1;
    *p = np;
    return 0;
}

/* n rows of column memory as a Buffer (which frees it); NULL with an exception. */
static PyObject *col_column(module_state *st, void **p, size_t n, Py_ssize_t itemsize, const char *fmt)
{
    void *d = *p;
    *p = NULL;
    if (!d && !(d = col_realloc(NULL, 1)))
        return PyErr_NoMemory();
    PyObject *b = buffer_new(st, NULL, (Py_ssize_t)n, itemsize, fmt);
    if (!b) {
        col_free(d);
        return NULL;
    }
    ((BufferObject *)b)->data = d;
    ((BufferObject *)b)->col = 1;
    return b;
}

/* Shrink to n rows and hand the memory to a Buffer (which frees it). */
static PyObject *column(module_state *st, void **p, size_t n, Py_ssize_t itemsize, const char *fmt)
{
    void *d = *p;
    *p = NULL;
    if (n) {
        void *s = realloc(d, n * (size_t)itemsize);
        if (s)
            d = s;
    }
    return buffer_new(st, d, (Py_ssize_t)n, itemsize, fmt);
}

static int set_new(PyObject *d, const char *key, PyObject *v)
{
    if (!v)
        return -1;
    int rc = PyDict_SetItemString(d, key, v);
    Py_DECREF(v);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Frames: Trace.frame(), Trace.iter_frames()                          */
/* ------------------------------------------------------------------ */

/*
 * Interned texts (or 16-byte GUIDs): each distinct one once, numbered from
 * 1, found by hash. What a column of texts holds per row is a number, and
 * Python gets one str per distinct text.
 */
typedef struct strtab {
    char **s;
    size_t *len;
    size_t n, cap;
    uint32_t *slots; /* number of the text (0: empty slot) */
    size_t nslots;
} strtab;

static void strtab_free(strtab *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->s[i]);
    free(t->s);
    free(t->len);
    free(t->slots);
    memset(t, 0, sizeof *t);
}

static uint64_t bytes_hash(const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h ^ (h >> 29);
}

/* The number of a text (added when new), 0 out of memory. */
static uint64_t strtab_intern(strtab *t, const void *s, size_t n)
{
    if (2 * (t->n + 1) > t->nslots) {
        size_t ns = t->nslots ? 2 * t->nslots : 256;
        uint32_t *slots = calloc(ns, sizeof *slots);
        if (!slots)
            return 0;
        for (size_t i = 0; i < t->n; i++) {
            size_t at = (size_t)bytes_hash(t->s[i], t->len[i]) & (ns - 1);
            while (slots[at])
                at = (at + 1) & (ns - 1);
            slots[at] = (uint32_t)(i + 1);
        }
        free(t->slots);
        t->slots = slots;
        t->nslots = ns;
    }
    size_t at = (size_t)bytes_hash(s, n) & (t->nslots - 1);
    while (t->slots[at]) {
        size_t k = t->slots[at] - 1;
        if (t->len[k] == n && !memcmp(t->s[k], s, n))
            return k + 1;
        at = (at + 1) & (t->nslots - 1);
    }
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        char **ns = realloc(t->s, cap * sizeof *ns);
        if (!ns)
            return 0;
        t->s = ns;
        size_t *nl = realloc(t->len, cap * sizeof *nl);
        if (!nl)
            return 0;
        t->len = nl;
        t->cap = cap;
    }
    if (t->n >= UINT32_MAX - 1)
        return 0;
    char *c = malloc(n + 1);
    if (!c)
        return 0;
    memcpy(c, s, n);
    c[n] = 0;
    t->s[t->n] = c;
    t->len[t->n] = n;
    t->slots[at] = (uint32_t)++t->n;
    return t->n;
}

/* What a frame knows of one event type (a definition's key): its row of the type table, and which of its
   top-level fields goes to which field column. */
typedef struct fr_def {
    uint64_t key;
    uint32_t type;
    uint32_t event_id, version; /* its type's (the type table's row `type`) */
    uint32_t nfields;
    char **names;   /* its fields' names */
    int32_t *col;   /* per field: its column, or -1 */
    int32_t max_col;/* the largest column it fills, -1 when none: no decode */
    /* the metadata fields last found to carry `names` one to one: a value whose name is the very string of
       field i of such a row is field i, with no string compared */
    const ntidx_field *same_fields;
} fr_def;

/* One field column's rows. */
typedef struct fr_field {
    char *name;
    uint8_t *kind;
    uint64_t *cell;
} fr_field;

/* Ticks as Unix nanoseconds, as ntidx_ticks_to_unix_ns() gives them (INT64_MIN, numpy's NaT, where it cannot:
   no valid sync date, or a time outside the years nanoseconds hold). The sync time is converted once by the
   library, the rest is its arithmetic: whole seconds split off, the remainder in 128 bits. */
static void ticks_to_ns(const ntidx_trace *t, const uint64_t *ticks, size_t n, int64_t *out)
{
    const ntidx_trace_info *in = ntidx_trace_get_info(t);
    int64_t base;
    if (ntidx_ticks_to_unix_ns(t, (uint64_t)in->sync_ticks, &base) != NTIDX_OK) {
        for (size_t i = 0; i < n; i++)
            out[i] = INT64_MIN;
        return;
    }
    int64_t f = in->tick_frequency;
    for (size_t i = 0; i < n; i++) {
        int64_t d = (int64_t)(ticks[i] - (uint64_t)in->sync_ticks);
        int64_t whole = d / f, rem = d % f, ns;
        if (__builtin_mul_overflow(whole, 1000000000LL, &ns) || __builtin_add_overflow(ns, base, &ns) ||
            __builtin_add_overflow(ns, (int64_t)((__int128)rem * 1000000000LL / f), &ns) || ns == INT64_MIN)
            ns = INT64_MIN;
        out[i] = ns;
    }
}

/* The columns of one read (a frame, or a part of iter_frames()), owned here until handed to Buffers. */
typedef struct fr_cols {
    size_t n, cap;
    int64_t *ts, *thread, *capture, *offset, *pid, *stack_key, *time_ns;
    uint32_t *type, *event_id, *version, *seq, *stack;
    /* codes into the GUID table (activity ids) and the thread names, each written in the width pandas keeps
       for the table's size (code_width()): widened when a table grows past it */
    void *activity, *related, *thread_name;
    int act_w, name_w;
    uint64_t *ferr;
    double *time_s;
    uint8_t **kind;  /* per field column */
    uint64_t **cell;
    size_t nf;       /* field columns allocated */
    size_t populated; /* rows whose pages fr_cols_populate() faulted in */
} fr_cols;

/* The width of codes into a table of `count` texts: the narrowest type pandas keeps for that many categories
   (as _frame._code_dtype(): int8 below 127, int16 below 32767, else int32), so that it takes them as they are. */
static int code_width(size_t count)
{
    return count < 127 ? 1 : count < 32767 ? 2 : 4;
}

static inline void code_put(void *col, int w, size_t i, int32_t v)
{
    if (w == 1)
        ((int8_t *)col)[i] = (int8_t)v;
    else if (w == 2)
        ((int16_t *)col)[i] = (int16_t)v;
    else
        ((int32_t *)col)[i] = v;
}

/* The first n codes of a code column of `cap` rows widened from w to nw bytes each, in place from the last one
   (code i's new bytes end at or after where code i-1's old ones end). 0, or -1 out of memory (col kept). */
static int code_widen(void **col, size_t n, size_t cap, int w, int nw)
{
    if (nw <= w)
        return 0;
    if (grow_to(col, cap ? cap : 1, (size_t)nw) < 0)
        return -1;
    for (size_t i = n; i-- > 0;)
        code_put(*col, nw, i, w == 1 ? ((int8_t *)*col)[i] : ((int16_t *)*col)[i]);
    return 0;
}

/* The next rows' pages of every mapped column faulted in together (col_populate()). */
static void fr_cols_populate(fr_cols *c, int want_ferr)
{
    enum { AHEAD = 32768 };
    size_t from = c->n, to = c->n + AHEAD < c->cap ? c->n + AHEAD : c->cap;
    void *p8[] = {c->ts, c->thread, c->capture, c->offset, c->pid, c->stack_key, want_ferr ? c->ferr : NULL};
    void *p4[] = {c->type, c->event_id, c->version, c->seq, c->stack};
    void *codes[] = {c->activity, c->related, c->thread_name};
    int code_w[] = {c->act_w, c->act_w, c->name_w};
    for (size_t i = 0; i < sizeof p8 / sizeof p8[0]; i++)
        col_populate(p8[i], from * 8, to * 8);
    for (size_t i = 0; i < sizeof p4 / sizeof p4[0]; i++)
        col_populate(p4[i], from * 4, to * 4);
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        col_populate(codes[i], from * (size_t)code_w[i], to * (size_t)code_w[i]);
    for (size_t j = 0; j < c->nf; j++) {
        col_populate(c->kind[j], from, to);
        col_populate(c->cell[j], from * 8, to * 8);
    }
    c->populated = to;
}

static void fr_cols_free(fr_cols *c)
{
    void *all[] = {c->ts, c->thread, c->capture, c->offset, c->pid, c->stack_key, c->time_ns, c->type, c->event_id,
                   c->version, c->seq, c->stack, c->activity, c->related, c->thread_name, c->ferr, c->time_s};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        col_free(all[i]);
    for (size_t j = 0; j < c->nf; j++) {
        col_free(c->kind[j]);
        col_free(c->cell[j]);
    }
    free(c->kind);
    free(c->cell);
    memset(c, 0, sizeof *c);
}

/* Room for `rows` rows in every column (and `nf` field columns; a new one holds MISSING so far). */
static int fr_cols_room(fr_cols *c, size_t rows, size_t nf, int want_ferr)
{
    if (rows > c->cap) {
        if (grow_to((void **)&c->ts, rows, 8) || grow_to((void **)&c->thread, rows, 8) ||
            grow_to((void **)&c->capture, rows, 8) || grow_to((void **)&c->offset, rows, 8) ||
            grow_to((void **)&c->pid, rows, 8) || grow_to((void **)&c->stack_key, rows, 8) ||
            grow_to((void **)&c->type, rows, 4) || grow_to((void **)&c->event_id, rows, 4) ||
            grow_to((void **)&c->version, rows, 4) || grow_to((void **)&c->seq, rows, 4) ||
            grow_to((void **)&c->stack, rows, 4) || grow_to(&c->activity, rows, (size_t)c->act_w) ||
            grow_to(&c->related, rows, (size_t)c->act_w) || grow_to(&c->thread_name, rows, (size_t)c->name_w) ||
            (want_ferr && grow_to((void **)&c->ferr, rows, 8)))
            return -1;
        for (size_t j = 0; j < c->nf; j++)
            if (grow_to((void **)&c->kind[j], rows, 1) || grow_to((void **)&c->cell[j], rows, 8))
                return -1;
        c->cap = rows;
    }
    if (nf > c->nf) {
        uint8_t **k = realloc(c->kind, nf * sizeof *k);
        if (!k)
            return -1;
        c->kind = k;
        uint64_t **v = realloc(c->cell, nf * sizeof *v);
        if (!v)
            return -1;
        c->cell = v;
        for (; c->nf < nf; c->nf++) {
            c->kind[c->nf] = col_realloc(NULL, c->cap ? c->cap : 1);
            c->cell[c->nf] = col_realloc(NULL, (c->cap ? c->cap : 1) * 8);
            if (!c->kind[c->nf] || !c->cell[c->nf]) {
                col_free(c->kind[c->nf]);
                col_free(c->cell[c->nf]);
                return -1;
            }
            memset(c->kind[c->nf], NTIDX_BATCH_MISSING, c->n);
        }
    }
    return 0;
}

enum { FR_LABEL_CACHE = 256, FR_GUID_CACHE = 256, FR_THREAD_CACHE = 64, FR_DEF_CACHE = 64 };

/*
 * A frame reader: the events of a call read into columns, all at once (Trace.frame()) or some rows at a time
 * (Trace.iter_frames()), with the tables the rows' numbers point into kept across reads: the type table
 * (seeded with every type of the trace, so that every frame of it has the same provider and event name
 * categories), the texts of the field columns, thread names (seeded with every thread the trace names) and
 * activity ids.
 */
typedef struct {
    PyObject_HEAD
    core *c;
    qargs a;
    evsrc src;
    int open, busy, done;
    int want_fields, all_fields, want_time;
    int64_t trace_pid;       /* the process of events whose thread names none (-1: not known) */
    const uint8_t *base;     /* the trace's bytes: a stack's key is where its bytes are */
    /* the type table */
    strtab type_keys;        /* provider \0 name \0 id version: number = row + 1 */
    struct fr_type {
        char *provider, *name;
        uint32_t event_id, version;
    } *types;
    size_t ntypes, captypes;
    /* definitions met: key -> fr_def (open addressing) */
    fr_def **defs;
    size_t ndefs, capdefs;
    struct fr_defc {             /* by where a metadata row is, that row's key and definition */
        const ntidx_metadata *m;
        uint64_t key;
        fr_def *d;
    } def_cache[FR_DEF_CACHE];
    /* field columns: names */
    fr_field *fields;        /* names only (the rows are in the read's fr_cols) */
    size_t nfields, capfields;
    ntidx_values *vals;
    ntidx_buf scratch;
    strtab texts, names, guids; /* field texts, thread names, activity ids (16 bytes) */
    /* caches: threads met lately (their name's code and process); label lists met lately (by where their bytes are in the mapped trace, which
       holds the same bytes there for as long as it is open) with their activity ids' codes; GUIDs met lately
       with their numbers (a per-row hash of 16 bytes into the table is slower than a look here) */
    struct fr_thread {
        const ntidx_thread *th;
        const char *name;
        int64_t pid;
        int32_t code;
    } threads[FR_THREAD_CACHE];
    uint64_t data_size;      /* the mapped trace's bytes from base */
    struct fr_labels {
        const uint8_t *at;
        uint32_t size;
        int32_t act, rel;
    } labels[FR_LABEL_CACHE];
    struct fr_guid {
        uint64_t w[2];
        int32_t code; /* the GUID's number - 1; -1: slot empty */
    } guid_cache[FR_GUID_CACHE];
    /* skip: the region the last row is in */
    uint64_t rg_lo, rg_hi;
    uint64_t rows_total;
    /* what Python has of the tables */
    PyObject *py_types, *py_texts, *py_names, *py_guids;
    int warn_level;
} FrameReaderObject;

static void fr_release(FrameReaderObject *o)
{
    evsrc_close(&o->src);
    o->open = 0;
    qargs_free(&o->a);
    strtab_free(&o->type_keys);
    for (size_t i = 0; i < o->ntypes; i++) {
        free(o->types[i].provider);
        free(o->types[i].name);
    }
    free(o->types);
    o->types = NULL;
    o->ntypes = o->captypes = 0;
    for (size_t i = 0; i < o->capdefs; i++) {
        fr_def *d = o->defs ? o->defs[i] : NULL;
        if (!d)
            continue;
        for (uint32_t k = 0; k < d->nfields; k++)
            free(d->names[k]);
        free(d->names);
        free(d->col);
        free(d);
    }
    free(o->defs);
    o->defs = NULL;
    o->ndefs = o->capdefs = 0;
    memset(o->def_cache, 0, sizeof o->def_cache);
    for (size_t i = 0; i < o->nfields; i++)
        free(o->fields[i].name);
    free(o->fields);
    o->fields = NULL;
    o->nfields = o->capfields = 0;
    ntidx_values_free(&o->vals);
    ntidx_buf_free(&o->scratch);
    strtab_free(&o->texts);
    strtab_free(&o->names);
    strtab_free(&o->guids);
}

static void fr_dealloc(PyObject *self)
{
    FrameReaderObject *o = (FrameReaderObject *)self;
    PyTypeObject *tp = Py_TYPE(self);
    fr_release(o);
    Py_XDECREF(o->py_types);
    Py_XDECREF(o->py_texts);
    Py_XDECREF(o->py_names);
    Py_XDECREF(o->py_guids);
    core_unref(o->c);
    tp->tp_free(self);
    Py_DECREF(tp);
}

/* The row of a type (provider, name, id, version) in the table, added when new; -1 out of memory. */
static long fr_type_row(FrameReaderObject *o, const char *provider, const char *name, uint32_t id, uint32_t version)
{
    provider = provider ? provider : "";
    name = name ? name : "";
    size_t lp = strlen(provider), ln = strlen(name);
    ntidx_buf *b = &o->scratch;
    b->len = 0;
    uint32_t iv[2] = {id, version};
    if (ntidx_buf_append(b, provider, lp + 1) < 0 || ntidx_buf_append(b, name, ln + 1) < 0 ||
        ntidx_buf_append(b, iv, sizeof iv) < 0)
        return -1;
    size_t before = o->type_keys.n;
    uint64_t k = strtab_intern(&o->type_keys, b->data, b->len);
    if (!k)
        return -1;
    if (o->type_keys.n == before)
        return (long)(k - 1);
    if (o->ntypes == o->captypes) {
        size_t cap = o->captypes ? 2 * o->captypes : 64;
        struct fr_type *nt = realloc(o->types, cap * sizeof *nt);
        if (!nt)
            return -1;
        o->types = nt;
        o->captypes = cap;
    }
    struct fr_type *t = &o->types[o->ntypes];
    t->provider = strdup(provider);
    t->name = strdup(name);
    t->event_id = id;
    t->version = version;
    if (!t->provider || !t->name) {
        free(t->provider);
        free(t->name);
        return -1;
    }
    return (long)o->ntypes++;
}

static long fr_field_col(FrameReaderObject *o, const char *name)
{
    for (size_t i = 0; i < o->nfields; i++)
        if (!strcmp(o->fields[i].name, name))
            return (long)i;
    return -1;
}

static long fr_add_field(FrameReaderObject *o, const char *name)
{
    if (o->nfields == o->capfields) {
        size_t cap = o->capfields ? 2 * o->capfields : 8;
        fr_field *nf = realloc(o->fields, cap * sizeof *nf);
        if (!nf)
            return -1;
        o->fields = nf;
        o->capfields = cap;
    }
    char *c = strdup(name);
    if (!c)
        return -1;
    o->fields[o->nfields] = (fr_field){c, NULL, NULL};
    return (long)o->nfields++;
}

/* What the reader knows of an event's definition, learnt the first time it is met (with fields="all", its
   field names become columns then). NULL out of memory. */
static fr_def *fr_def_lookup(FrameReaderObject *o, const ntidx_metadata *m, uint64_t key);

static fr_def *fr_def_of(FrameReaderObject *o, const ntidx_metadata *m)
{
    /* the rows of a reader's type table stay where they are while it reads on: by address first (the key
       checked too, as the address of a row freed may come back with another type) */
    uint64_t key = ntidx_metadata_key(m);
    uintptr_t a = (uintptr_t)m;
    struct fr_defc *dc = &o->def_cache[(a >> 4 ^ a >> 11) & (FR_DEF_CACHE - 1)];
    if (dc->m == m && dc->key == key)
        return dc->d;
    fr_def *d = fr_def_lookup(o, m, key);
    if (d)
        *dc = (struct fr_defc){m, key, d};
    return d;
}

static fr_def *fr_def_lookup(FrameReaderObject *o, const ntidx_metadata *m, uint64_t key)
{
    if (o->capdefs) {
        for (size_t i = vslot(key, o->capdefs);; i = (i + 1) & (o->capdefs - 1)) {
            fr_def *d = o->defs[i];
            if (!d)
                break;
            if (d->key == key)
                return d;
        }
    }
    if (2 * (o->ndefs + 1) > o->capdefs) {
        size_t cap = o->capdefs ? 2 * o->capdefs : 64;
        fr_def **nd = calloc(cap, sizeof *nd);
        if (!nd)
            return NULL;
        for (size_t i = 0; i < o->capdefs; i++)
            if (o->defs[i]) {
                size_t j = vslot(o->defs[i]->key, cap);
                while (nd[j])
                    j = (j + 1) & (cap - 1);
                nd[j] = o->defs[i];
            }
        free(o->defs);
        o->defs = nd;
        o->capdefs = cap;
    }
    fr_def *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->key = key;
    d->max_col = -1;
    long ty = fr_type_row(o, m->provider, m->event_name, m->event_id, m->version);
    d->type = (uint32_t)ty;
    d->event_id = m->event_id;
    d->version = m->version;
    d->nfields = o->want_fields && m->fields ? m->field_count : 0;
    if (ty < 0 || (d->nfields && (!(d->names = calloc(d->nfields, sizeof *d->names)) ||
                                  !(d->col = calloc(d->nfields, sizeof *d->col))))) {
        free(d->names);
        free(d->col);
        free(d);
        return NULL;
    }
    for (uint32_t i = 0; i < d->nfields; i++) {
        const char *name = m->fields[i].name ? m->fields[i].name : "";
        long c = fr_field_col(o, name);
        if (c < 0 && o->all_fields)
            c = fr_add_field(o, name);
        if (!(d->names[i] = strdup(name)) || (c < 0 && o->all_fields)) {
            for (uint32_t k = 0; k <= i; k++)
                free(d->names[k]);
            free(d->names);
            free(d->col);
            free(d);
            return NULL;
        }
        d->col[i] = (int32_t)c;
        if (c > d->max_col)
            d->max_col = (int32_t)c;
    }
    size_t j = vslot(key, o->capdefs);
    while (o->defs[j])
        j = (j + 1) & (o->capdefs - 1);
    o->defs[j] = d;
    o->ndefs++;
    return d;
}

/* One payload value into a field column's row. 0, or -1 out of memory. */
static int fr_put_cell(FrameReaderObject *o, const ntidx_value *v, uint8_t *kind, uint64_t *cell)
{
    ntidx_buf *s = &o->scratch;
    uint64_t id;
    switch (v->kind) {
    case NTIDX_VALUE_NULL: *cell = 0; break;
    case NTIDX_VALUE_BOOL: case NTIDX_VALUE_UINT: *cell = v->u; break;
    case NTIDX_VALUE_INT: memcpy(cell, &v->i, 8); break;
    case NTIDX_VALUE_FLOAT: memcpy(cell, &v->f, 8); break;
    case NTIDX_VALUE_STRING:
        /* as the library's one policy for bad bytes: each byte that is not UTF-8 becomes U+FFFD */
        s->len = 0;
        if (ntidx_buf_append_utf8(s, v->str ? v->str : "", v->len) < 0 ||
            !(id = strtab_intern(&o->texts, s->data ? s->data : "", s->len)))
            return -1;
        *cell = id;
        break;
    default: { /* GUID, TIME, DECIMAL: the JSON's text without its quotes; arrays and objects: their JSON */
        s->len = 0;
        if (ntidx_value_json(o->vals, v, s) != NTIDX_OK)
            return -1;
        int quoted = v->kind != NTIDX_VALUE_ARRAY && v->kind != NTIDX_VALUE_OBJECT && s->len >= 2 && s->data[0] == '"';
        if (!(id = quoted ? strtab_intern(&o->texts, s->data + 1, s->len - 2) : strtab_intern(&o->texts, s->data, s->len)))
            return -1;
        *cell = id;
        break;
    }
    }
    *kind = v->kind;
    return 0;
}

/* The payload fields of e (definition d) into row `row`. 0, or the library's error (NTIDX_E_NOMEM). */
static int fr_put_fields(FrameReaderObject *o, fr_cols *c, const ntidx_event *e, fr_def *d, size_t row)
{
    for (size_t j = 0; j < o->nfields; j++)
        c->kind[j][row] = NTIDX_BATCH_MISSING;
    c->ferr[row] = 0;
    if (d->max_col < 0)
        return 0;
    int rc = ntidx_values_decode(o->vals, o->c->t, e);
    if (rc == NTIDX_E_PAYLOAD) { /* listed with the reason, as the JSON lists it with field_error */
        const char *what = ntidx_last_error_info()->what;
        uint64_t id = strtab_intern(&o->texts, what, strlen(what));
        if (!id)
            return NTIDX_E_NOMEM;
        c->ferr[row] = id;
        return 0;
    }
    if (rc < 0)
        return rc;
    const ntidx_metadata *m = e->metadata;
    if (m->fields != d->same_fields) { /* another copy of the type's row: its names checked once */
        int same = m->fields && m->field_count == d->nfields;
        for (uint32_t k = 0; same && k < d->nfields; k++)
            same = !strcmp(m->fields[k].name ? m->fields[k].name : "", d->names[k]);
        d->same_fields = same ? m->fields : NULL;
    }
    const ntidx_field *mf = d->same_fields;
    uint32_t i = 0;
    for (const ntidx_value *v = ntidx_values_at(o->vals, 0); v; v = ntidx_values_next(o->vals, v), i++) {
        long col;
        if (mf && i < d->nfields && v->name && v->name == mf[i].name)
            col = d->col[i];
        else if (i < d->nfields && v->name && !strcmp(v->name, d->names[i]))
            col = d->col[i];
        else /* a layout whose values do not follow its fields one to one: by name */
            col = v->name ? fr_field_col(o, v->name) : -1;
        if (col < 0 || (size_t)col >= o->nfields)
            continue;
        if (fr_put_cell(o, v, &c->kind[col][row], &c->cell[col][row]) < 0)
            return NTIDX_E_NOMEM;
    }
    return 0;
}

/* The code (number - 1) of a non-empty GUID in the GUID table, through the cache of those met lately; -1 out of
   memory. */
static int32_t fr_guid_code(FrameReaderObject *o, const uint8_t *g)
{
    uint64_t w[2];
    memcpy(w, g, 16);
    uint64_t h = (w[0] ^ (w[1] * 0x9e3779b97f4a7c15ull)) * 0xff51afd7ed558ccdull;
    struct fr_guid *slot = &o->guid_cache[h >> 56 & (FR_GUID_CACHE - 1)];
    if (slot->code >= 0 && slot->w[0] == w[0] && slot->w[1] == w[1])
        return slot->code;
    uint64_t id = strtab_intern(&o->guids, g, 16);
    if (!id || id > INT32_MAX)
        return -1;
    slot->w[0] = w[0];
    slot->w[1] = w[1];
    slot->code = (int32_t)(id - 1);
    return slot->code;
}

/* The activity ids of e (16 bytes before V6, labels in V6) as numbers of the GUID table minus 1 (-1: none, or
   the empty GUID). 0, or -1 out of memory. */
static int fr_activity(FrameReaderObject *o, const ntidx_event *e, int32_t *act, int32_t *rel)
{
    if (!e->activity_id && !e->related_activity_id && !e->label_list) {
        /* most rows (half those of the generated 1 GB trace): nothing to look up, and no codes stored on the
           stack to be read back at once (a store forwarding stall that cost more than the rest of the row) */
        *act = *rel = -1;
        return 0;
    }
    /* a label list in the mapped trace: its codes are those it had when last met (same bytes) */
    struct fr_labels *lc = NULL;
    if (!e->activity_id && !e->related_activity_id) {
        uintptr_t at = (uintptr_t)e->label_list, base = (uintptr_t)o->base;
        if (o->base && at >= base && at - base < o->data_size && e->label_list_size <= o->data_size - (at - base)) {
            lc = &o->labels[((at >> 2) ^ (at >> 11)) & (FR_LABEL_CACHE - 1)];
            if (lc->at == e->label_list && lc->size == e->label_list_size) {
                *act = lc->act;
                *rel = lc->rel;
                return 0;
            }
        }
    }
    uint8_t lab[2][16];
    const uint8_t *g[2];
    event_activity(e, lab, g);
    int32_t out[2];
    for (int k = 0; k < 2; k++) {
        out[k] = -1;
        if (!g[k])
            continue;
        uint64_t w[2];
        memcpy(w, g[k], 16);
        if (!(w[0] | w[1]))
            continue;
        if ((out[k] = fr_guid_code(o, g[k])) < 0)
            return -1;
    }
    if (lc)
        *lc = (struct fr_labels){e->label_list, e->label_list_size, out[0], out[1]};
    *act = out[0];
    *rel = out[1];
    return 0;
}

/* One event into row c->n. 0, or the library's error (NTIDX_E_NOMEM out of memory). */
static int fr_append(FrameReaderObject *o, fr_cols *c, const ntidx_event *e)
{
    fr_def *d = fr_def_of(o, e->metadata);
    if (!d)
        return NTIDX_E_NOMEM;
    if (o->all_fields && o->nfields > c->nf && fr_cols_room(c, c->cap, o->nfields, 1) < 0)
        return NTIDX_E_NOMEM; /* new field columns met (fields="all") */
    size_t n = c->n;
    c->ts[n] = (int64_t)e->timestamp;
    c->type[n] = d->type;
    c->event_id[n] = d->event_id;
    c->version[n] = d->version;
    c->thread[n] = (int64_t)e->thread_id;
    c->capture[n] = (int64_t)e->capture_thread_id;
    c->seq[n] = e->sequence_number;
    c->stack[n] = e->stack_id;
    c->offset[n] = (int64_t)e->offset;
    c->stack_key[n] = e->stack && e->stack_size ? (int64_t)(e->stack - o->base) : -1;
    const ntidx_thread *th = e->thread;
    struct fr_thread *tc;
    int64_t th_pid = th && th->has_os_process_id ? (int64_t)th->os_process_id : o->trace_pid;
    if (!th) {
        code_put(c->thread_name, c->name_w, n, -1);
        c->pid[n] = o->trace_pid;
    } else if ((tc = &o->threads[((uintptr_t)th >> 4 ^ (uintptr_t)th >> 10) & (FR_THREAD_CACHE - 1)])->th == th &&
               th->name == tc->name && th_pid == tc->pid &&
               (!th->name || (tc->code >= 0 && !strcmp(th->name, o->names.s[tc->code])))) {
        code_put(c->thread_name, c->name_w, n, tc->code);
        c->pid[n] = th_pid;
    } else {
        /* V6: the thread's own process and name (the reader's cache: the pointers are checked against the text,
           which a reader's reset may have put elsewhere) */
        int32_t code = -1;
        if (th->name && th->name[0]) {
            uint64_t id = strtab_intern(&o->names, th->name, strlen(th->name));
            if (!id || id > INT32_MAX)
                return NTIDX_E_NOMEM;
            code = (int32_t)(id - 1);
            int w = code_width(o->names.n);
            if (w > c->name_w) { /* the table outgrew the codes' type */
                if (code_widen(&c->thread_name, n, c->cap, c->name_w, w) < 0)
                    return NTIDX_E_NOMEM;
                c->name_w = w;
            }
        }
        *tc = (struct fr_thread){th, th->name, th_pid, code};
        code_put(c->thread_name, c->name_w, n, code);
        c->pid[n] = th_pid;
    }
    int32_t act, rel;
    if (fr_activity(o, e, &act, &rel) < 0)
        return NTIDX_E_NOMEM;
    if (__builtin_expect(code_width(o->guids.n) > c->act_w, 0)) { /* a new GUID: the table outgrew the codes' type */
        int w = code_width(o->guids.n);
        if (code_widen(&c->activity, n, c->cap, c->act_w, w) < 0 || code_widen(&c->related, n, c->cap, c->act_w, w) < 0)
            return NTIDX_E_NOMEM;
        c->act_w = w;
    }
    code_put(c->activity, c->act_w, n, act);
    code_put(c->related, c->act_w, n, rel);
    if (o->want_fields) {
        int rc = fr_put_fields(o, c, e, d, n);
        if (rc != 0)
            return rc;
    }
    c->n++;
    return 0;
}

/* Drop the rows from the first one whose offset is `from` or more on, at the end (a skipped region's). */
static void fr_drop_from(fr_cols *c, uint64_t from)
{
    while (c->n && (uint64_t)c->offset[c->n - 1] >= from)
        c->n--;
}

/*
 * Read up to `max_rows` rows (0: every one) into c, without the GIL. With on_error="skip" a read ends only
 * between regions, so that a damaged region's rows are dropped whole. 0, or the library's error.
 */
static int fr_fill(FrameReaderObject *o, fr_cols *c, size_t max_rows)
{
    size_t first = max_rows && max_rows < 65536 ? max_rows : 65536;
    c->act_w = code_width(o->guids.n);
    c->name_w = code_width(o->names.n);
    if (fr_cols_room(c, first, o->nfields, o->want_fields) < 0)
        return NTIDX_E_NOMEM;
    evsrc *s = &o->src;
    const int plain = evsrc_plain(s);
    for (;;) {
        const ntidx_event *e;
        int rc = plain ? evsrc_peek_plain(s, &e) : evsrc_peek(s, &e);
        if (rc == EVSRC_SKIPPED) {
            fr_drop_from(c, s->skip_from);
            o->rg_lo = o->rg_hi = 0;
            continue;
        }
        if (rc < 0)
            return rc;
        if (rc == 0) {
            o->done = 1;
            break;
        }
        int other_region = e->offset < o->rg_lo || e->offset >= o->rg_hi;
        if (max_rows && c->n >= max_rows && (!s->skip || other_region))
            break; /* the event waits for the next read */
        if (s->skip && other_region) {
            uint64_t r = region_of(s, e->offset);
            o->rg_lo = r == UINT64_MAX ? e->offset : s->rg_off[r];
            o->rg_hi = r == UINT64_MAX ? e->offset + 1 : s->rg_off[r] + s->rg_bytes[r];
        }
        if (c->n == c->cap && fr_cols_room(c, 2 * c->cap, o->nfields, o->want_fields) < 0)
            return NTIDX_E_NOMEM;
        if (c->n >= c->populated)
            fr_cols_populate(c, o->want_fields);
        if ((rc = fr_append(o, c, e)) < 0)
            return rc;
        evsrc_take(s);
    }
    /* seconds since the sync time (ntidx_ticks_to_seconds()) and, when asked, Unix nanoseconds */
    if (!(c->time_s = col_alloc_exact((c->n ? c->n : 1) * sizeof *c->time_s)))
        return NTIDX_E_NOMEM;
    /* ntidx_ticks_to_seconds()'s arithmetic, the difference in 64 bits where it fits (the same double: both
       conversions round to nearest), so that the compiler keeps it in the loop */
    const ntidx_trace_info *in = ntidx_trace_get_info(o->c->t);
    int64_t sync = in->sync_ticks, d;
    double freq = (double)in->tick_frequency;
    for (size_t i = 0; i < c->n; i++) {
        uint64_t ts = (uint64_t)c->ts[i];
        c->time_s[i] = ts <= INT64_MAX && !__builtin_sub_overflow((int64_t)ts, sync, &d)
                           ? (double)d / freq
                           : ntidx_ticks_to_seconds(o->c->t, ts);
    }
    if (o->want_time) {
        if (!(c->time_ns = col_alloc_exact((c->n ? c->n : 1) * sizeof *c->time_ns)))
            return NTIDX_E_NOMEM;
        ticks_to_ns(o->c->t, (const uint64_t *)c->ts, c->n, c->time_ns);
    }
    return 0;
}

/* Append what Python does not have yet of a table (texts as str; GUIDs formatted) to its list. */
static int publish(strtab *t, PyObject *list, int guids)
{
    for (Py_ssize_t i = PyList_GET_SIZE(list); (size_t)i < t->n; i++) {
        PyObject *u;
        if (guids) {
            char text[37];
            ntidx_guid_format((const uint8_t *)t->s[i], text);
            u = PyUnicode_FromStringAndSize(text, 36);
        } else {
            u = str_of(t->s[i], t->len[i]);
        }
        if (!u || PyList_Append(list, u) < 0) {
            Py_XDECREF(u);
            return -1;
        }
        Py_DECREF(u);
    }
    return 0;
}

static PyObject *fr_types_list(FrameReaderObject *o)
{
    for (Py_ssize_t i = PyList_GET_SIZE(o->py_types); (size_t)i < o->ntypes; i++) {
        struct fr_type *t = &o->types[i];
        PyObject *x = Py_BuildValue("(NINI)", cstr_of(t->provider), (unsigned)t->event_id, cstr_of(t->name),
                                    (unsigned)t->version);
        if (!x || PyList_Append(o->py_types, x) < 0) {
            Py_XDECREF(x);
            return NULL;
        }
        Py_DECREF(x);
    }
    return Py_NewRef(o->py_types);
}

static const char *code_format(int w)
{
    return w == 1 ? "b" : w == 2 ? "h" : "i";
}

/* The read's columns as the dict _frame.build() takes (the Buffers take the memory). */
static PyObject *fr_result(module_state *st, FrameReaderObject *o, fr_cols *cs)
{
    size_t n = cs->n;
    /* the codes' type: that of the tables' sizes now (fr_append() widened them as the tables grew) */
    if (code_width(o->guids.n) != cs->act_w || code_width(o->names.n) != cs->name_w) {
        PyErr_SetString(PyExc_SystemError, "frame reader: activity id or thread name codes of the wrong width");
        return NULL;
    }
    const char *act_fmt = code_format(cs->act_w), *name_fmt = code_format(cs->name_w);
    Py_ssize_t act_size = cs->act_w, name_size = cs->name_w;
    PyObject *d = PyDict_New();
    if (!d || set_new(d, "rows", PyLong_FromSize_t(n)) < 0 ||
        set_new(d, "event_id", col_column(st, (void **)&cs->event_id, n, 4, "I")) < 0 ||
        set_new(d, "version", col_column(st, (void **)&cs->version, n, 4, "I")) < 0 ||
        set_new(d, "ts", col_column(st, (void **)&cs->ts, n, 8, "q")) < 0 ||
        set_new(d, "time_s", col_column(st, (void **)&cs->time_s, n, 8, "d")) < 0 ||
        set_new(d, "type", col_column(st, (void **)&cs->type, n, 4, "I")) < 0 ||
        set_new(d, "thread", col_column(st, (void **)&cs->thread, n, 8, "q")) < 0 ||
        set_new(d, "capture_thread", col_column(st, (void **)&cs->capture, n, 8, "q")) < 0 ||
        set_new(d, "seq", col_column(st, (void **)&cs->seq, n, 4, "I")) < 0 ||
        set_new(d, "stack_id", col_column(st, (void **)&cs->stack, n, 4, "I")) < 0 ||
        set_new(d, "offset", col_column(st, (void **)&cs->offset, n, 8, "q")) < 0 ||
        set_new(d, "activity_id", col_column(st, &cs->activity, n, act_size, act_fmt)) < 0 ||
        set_new(d, "related_activity_id", col_column(st, &cs->related, n, act_size, act_fmt)) < 0 ||
        set_new(d, "thread_name", col_column(st, &cs->thread_name, n, name_size, name_fmt)) < 0 ||
        set_new(d, "pid", col_column(st, (void **)&cs->pid, n, 8, "q")) < 0 ||
        set_new(d, "stack_key", col_column(st, (void **)&cs->stack_key, n, 8, "q")) < 0 ||
        (o->want_time && set_new(d, "time", col_column(st, (void **)&cs->time_ns, n, 8, "q")) < 0) ||
        set_new(d, "types", fr_types_list(o)) < 0 || publish(&o->names, o->py_names, 0) < 0 ||
        PyDict_SetItemString(d, "thread_names", o->py_names) < 0 || publish(&o->guids, o->py_guids, 1) < 0 ||
        PyDict_SetItemString(d, "guids", o->py_guids) < 0)
        goto fail;
    if (o->want_fields) {
        PyObject *fl = PyList_New(0);
        if (set_new(d, "fields", Py_XNewRef(fl)) < 0) {
            Py_XDECREF(fl);
            goto fail;
        }
        for (size_t k = 0; k < o->nfields && k < cs->nf; k++) {
            PyObject *kinds = col_column(st, (void **)&cs->kind[k], n, 1, "B");
            PyObject *cells = kinds ? col_column(st, (void **)&cs->cell[k], n, 8, "Q") : NULL;
            /* Py_BuildValue() takes the N objects also when it fails */
            PyObject *t = cells ? Py_BuildValue("(NNN)", cstr_of(o->fields[k].name), kinds, cells) : NULL;
            if (!cells)
                Py_XDECREF(kinds);
            if (!t || PyList_Append(fl, t) < 0) {
                Py_XDECREF(t);
                Py_DECREF(fl);
                goto fail;
            }
            Py_DECREF(t);
        }
        Py_DECREF(fl);
        if (set_new(d, "field_error", col_column(st, (void **)&cs->ferr, n, 8, "Q")) < 0 ||
            publish(&o->texts, o->py_texts, 0) < 0 || PyDict_SetItemString(d, "strings", o->py_texts) < 0)
            goto fail;
    }
    return d;
fail:
    Py_XDECREF(d);
    return NULL;
}

/* FrameReader.read(rows=0): the next rows (0: all that are left) as the dict of columns, or None at the end. */
static PyObject *fr_read(PyObject *self, PyObject *args, PyObject *kw)
{
    FrameReaderObject *o = (FrameReaderObject *)self;
    module_state *st = state_of(self);
    static char *names[] = {"rows", NULL};
    Py_ssize_t rows = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|n:read", names, &rows))
        return NULL;
    if (rows < 0) {
        PyErr_SetString(PyExc_ValueError, "rows: 0 (all) or more");
        return NULL;
    }
    if (o->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this frame reader is being read by another thread");
        return NULL;
    }
    if (o->done || !o->open)
        Py_RETURN_NONE;
    o->busy = 1;
    fr_cols cs;
    memset(&cs, 0, sizeof cs);
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = fr_fill(o, &cs, (size_t)rows);
    Py_END_ALLOW_THREADS
    o->busy = 0;
    if (rc < 0) {
        fr_cols_free(&cs);
        o->done = 1;
        raise_last(st, rc);
        notices_keep_error(st, o->c);
        return NULL;
    }
    if (drain_notices(st, o->c) < 0) {
        fr_cols_free(&cs);
        return NULL;
    }
    o->rows_total += cs.n;
    if (o->done && !o->rows_total && names_verdict(st, o->c, &o->a, 0, o->warn_level) < 0) {
        fr_cols_free(&cs);
        return NULL; /* a warning the filters made an error */
    }
    if (!cs.n && o->done && rows) {
        fr_cols_free(&cs);
        Py_RETURN_NONE;
    }
    PyObject *d = fr_result(st, o, &cs);
    fr_cols_free(&cs);
    return d;
}

static PyObject *fr_skipped(PyObject *self, void *unused)
{
    FrameReaderObject *o = (FrameReaderObject *)self;
    PyObject *l = PyList_New(0);
    for (size_t i = 0; l && i < o->src.nskipped; i++) {
        const skip_rec *r = &o->src.skipped[i];
        PyObject *d = Py_BuildValue("{sKsKsKsKsssN}", "region", (unsigned long long)r->region, "offset",
                                    (unsigned long long)r->offset, "bytes", (unsigned long long)r->bytes, "at",
                                    (unsigned long long)r->at, "error", ntidx_error_name(r->code), "message",
                                    cstr_of(r->message));
        if (!d || PyList_Append(l, d) < 0)
            Py_CLEAR(l);
        Py_XDECREF(d);
    }
    return l;
}

static PyObject *fr_bytes_read(PyObject *self, void *unused)
{
    FrameReaderObject *o = (FrameReaderObject *)self;
    return PyLong_FromUnsignedLongLong(evsrc_bytes_read(&o->src));
}

static PyObject *fr_close(PyObject *self, PyObject *unused)
{
    FrameReaderObject *o = (FrameReaderObject *)self;
    if (o->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this frame reader is being read by another thread");
        return NULL;
    }
    uint64_t bytes = evsrc_bytes_read(&o->src);
    skip_rec *keep = o->src.skipped; /* what was skipped stays to be asked */
    size_t nkeep = o->src.nskipped;
    o->src.skipped = NULL;
    o->src.nskipped = 0;
    fr_release(o);
    o->src.skipped = keep;
    o->src.nskipped = o->src.capskipped = nkeep;
    o->src.bytes_closed = bytes;
    o->done = 1;
    Py_RETURN_NONE;
}

static PyMethodDef fr_methods[] = {
    {"read", (PyCFunction)(void (*)(void))fr_read, METH_VARARGS | METH_KEYWORDS,
     "read(rows=0): the next rows (0: all) as raw columns, or None at the end."},
    {"close", fr_close, METH_NOARGS, "Free the queries and tables."},
    {NULL}};

static PyGetSetDef fr_getset[] = {
    {"skipped", fr_skipped, NULL, "the regions on_error=\"skip\" left out: dicts of region, offset, bytes, at, error, "
                                  "message", NULL},
    {"bytes_read", fr_bytes_read, NULL, "bytes of the trace read so far", NULL},
    {NULL}};

static PyType_Slot fr_slots[] = {{Py_tp_dealloc, fr_dealloc},
                                 {Py_tp_methods, fr_methods},
                                 {Py_tp_getset, fr_getset},
                                 {Py_tp_doc, "The rows of Trace.frame() and Trace.iter_frames(), read in C."},
                                 {0, NULL}};
static PyType_Spec fr_spec = {"ntidx._ntidx.FrameReader", sizeof(FrameReaderObject), 0,
                              Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_DISALLOW_INSTANTIATION,
                              fr_slots};

/* Seed the type table: the given (provider, event_id, event_name, version) tuples, else every type of the
   trace. With the GIL for the given ones. 0 or -1 with an exception. `skip` (on_error="skip"): a type table
   that cannot be listed for damage (a V6 trace whose label lists make types reads every event header for
   them) is not the call's error: the types are then those the rows meet, and the damage is the regions'. */
static int fr_seed_types(module_state *st, FrameReaderObject *o, PyObject *types, int skip)
{
    if (types && types != Py_None) {
        PyObject *seq = PySequence_Fast(types, "types: a list of (provider, event_id, event_name, version)");
        if (!seq)
            return -1;
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
            const char *p, *n;
            unsigned int id, v;
            if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "sIsI", &p, &id, &n, &v)) {
                Py_DECREF(seq);
                return -1;
            }
            if (fr_type_row(o, p, n, id, v) < 0) {
                Py_DECREF(seq);
                PyErr_NoMemory();
                return -1;
            }
        }
        Py_DECREF(seq);
        return 0;
    }
    const ntidx_type_list *l = NULL;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = core_types(o->c, &l);
    for (size_t i = 0; rc == 0 && i < ntidx_type_list_count(l); i++) {
        const ntidx_metadata *m = ntidx_type_list_at(l, i);
        if (fr_type_row(o, m->provider, m->event_name, m->event_id, m->version) < 0)
            rc = NTIDX_E_NOMEM;
    }
    Py_END_ALLOW_THREADS
    if (rc < 0 && skip && skippable(rc))
        return 0;
    if (rc < 0) {
        raise_last(st, rc);
        return -1;
    }
    return 0;
}

/*
 * Trace._frames(start, end, provider, event, thread, fields, regions, order, strict, on_error, time, types):
 * a FrameReader over the call's events.
 */
static PyObject *trace_frames(PyObject *self_obj, PyObject *args, PyObject *kw)
{
    module_state *st = state_of(self_obj);
    static char *names[] = {"start", "end", "provider", "event", "thread", "fields", "regions", "order", "strict",
                            "on_error", "time", "types", NULL};
    pyq p = {0};
    PyObject *fields = Py_None, *on_error = Py_None, *types = Py_None;
    int strict = 0, want_time = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OOOOOOOOpOpO:_frames", names, &p.start, &p.end, &p.provider,
                                     &p.event, &p.thread, &fields, &p.regions, &p.order, &strict, &on_error,
                                     &want_time, &types))
        return NULL;
    int skip = 0;
    if (on_error != Py_None) {
        const char *s = PyUnicode_Check(on_error) ? PyUnicode_AsUTF8(on_error) : NULL;
        if (s && !strcmp(s, "skip"))
            skip = 1;
        else if (!s || strcmp(s, "raise")) {
            PyErr_Clear();
            PyErr_Format(st->exc[EXC_ARGUMENT], "on_error: \"raise\" or \"skip\", not %R", on_error);
            return NULL;
        }
    }
    FrameReaderObject *o = PyObject_New(FrameReaderObject, st->frame_reader_type);
    if (!o)
        return NULL;
    /* everything zero first: the deallocator frees what is set */
    memset((char *)o + offsetof(FrameReaderObject, c), 0, sizeof *o - offsetof(FrameReaderObject, c));
    o->warn_level = 2;
    o->c = trace_core((TraceObject *)self_obj);
    if (!o->c) {
        Py_DECREF(o);
        return NULL;
    }
    if (make_query(st, o->c, &o->a, p.start, p.end, p.provider, p.event, p.thread, p.order, NULL, p.regions) < 0 ||
        (strict && names_verdict(st, o->c, &o->a, 1, 2) < 0))
        goto fail;
    o->py_types = PyList_New(0);
    o->py_texts = PyList_New(0);
    o->py_names = PyList_New(0);
    o->py_guids = PyList_New(0);
    if (!o->py_types || !o->py_texts || !o->py_names || !o->py_guids || ntidx_values_new(&o->vals) < 0)
        goto fail;
    o->want_time = want_time;
    if (fields != Py_None) {
        o->want_fields = 1;
        if (PyUnicode_Check(fields)) {
            const char *s = PyUnicode_AsUTF8(fields);
            if (!s || strcmp(s, "all")) {
                PyErr_Clear();
                PyErr_SetString(PyExc_ValueError, "fields: a list of field names, or \"all\"");
                goto fail;
            }
            o->all_fields = 1;
        } else {
            PyObject *fseq = PySequence_Fast(fields, "fields: a list of field names, or \"all\"");
            if (!fseq)
                goto fail;
            for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fseq); i++) {
                PyObject *x = PySequence_Fast_GET_ITEM(fseq, i);
                const char *name = PyUnicode_Check(x) ? PyUnicode_AsUTF8(x) : NULL;
                if (!name) {
                    if (!PyErr_Occurred())
                        PyErr_Format(PyExc_TypeError, "fields: %R is not a field name", x);
                    Py_DECREF(fseq);
                    goto fail;
                }
                if (fr_field_col(o, name) < 0 && fr_add_field(o, name) < 0) {
                    Py_DECREF(fseq);
                    PyErr_NoMemory();
                    goto fail;
                }
            }
            Py_DECREF(fseq);
        }
    }
    if (fr_seed_types(st, o, types, skip) < 0)
        goto fail;
    int rc;
    const ntidx_thread_list *tl = NULL;
    Py_BEGIN_ALLOW_THREADS
    rc = core_threads(o->c, &tl);
    /* every thread name of the trace first: frames of one trace have the same thread_name categories */
    for (size_t i = 0; rc == 0 && i < ntidx_thread_list_count(tl); i++) {
        const ntidx_thread *th = ntidx_thread_list_at(tl, i);
        if (th->name && th->name[0] && !strtab_intern(&o->names, th->name, strlen(th->name)))
            rc = NTIDX_E_NOMEM;
    }
    if (rc == 0)
        rc = evsrc_open(&o->src, o->c, &o->a, skip);
    Py_END_ALLOW_THREADS
    o->open = 1;
    if (rc < 0) {
        raise_last(st, rc);
        notices_keep_error(st, o->c);
        goto fail;
    }
    if (drain_notices(st, o->c) < 0)
        goto fail;
    const ntidx_trace_info *in = ntidx_trace_get_info(o->c->t);
    o->trace_pid = in->process_id ? (int64_t)in->process_id : -1;
    o->base = ntidx_trace_data(o->c->t, &o->data_size);
    for (size_t i = 0; i < FR_GUID_CACHE; i++)
        o->guid_cache[i].code = -1;
    return (PyObject *)o;
fail:
    Py_DECREF(o);
    return NULL;
}


/* ------------------------------------------------------------------ */
/* Analyses: Trace._analyze(), the tables of Trace.gc() and its kin    */
/* ------------------------------------------------------------------ */

/*
 * One column of an analysis's table, filled without the GIL: values of its
 * type (int64, uint64, double, uint8 for bools, int32 category codes for
 * strings), a null mask only once a null is met (doubles: NaN), and for
 * strings the distinct texts in code order (pointers into the analysis).
 */
typedef struct an_col {
    int type;
    void *data;
    uint8_t *mask;
    const char **texts; /* strings: text of code k */
    size_t ntexts, captexts;
    uint32_t *slots;    /* strings: open addressing over texts (code + 1; 0 empty) */
    size_t nslots;
} an_col;

typedef struct an_job {
    ntidx_analysis *a;
    size_t ntables;
    an_col **cols; /* per table, per column */
} an_job;

static void an_job_free(an_job *j)
{
    for (size_t k = 0; j->cols && k < j->ntables; k++) {
        ntidx_table tb;
        if (!j->cols[k] || ntidx_analysis_table(j->a, k, &tb) < 0)
            continue;
        for (size_t c = 0; c < tb.column_count; c++) {
            free(j->cols[k][c].data);
            free(j->cols[k][c].mask);
            free(j->cols[k][c].texts);
            free(j->cols[k][c].slots);
        }
        free(j->cols[k]);
    }
    free(j->cols);
    ntidx_analysis_free(&j->a);
    memset(j, 0, sizeof *j);
}

static uint64_t text_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* The category code of a text (interned: one per distinct text of the column); -1 out of memory. */
static int32_t an_intern(an_col *col, const char *s)
{
    if (2 * (col->ntexts + 1) > col->nslots) {
        size_t n = col->nslots ? col->nslots * 2 : 64;
        uint32_t *slots = calloc(n, sizeof *slots);
        if (!slots)
            return -1;
        for (size_t i = 0; i < col->ntexts; i++) {
            size_t at = (size_t)(text_hash(col->texts[i]) & (n - 1));
            while (slots[at])
                at = (at + 1) & (n - 1);
            slots[at] = (uint32_t)i + 1;
        }
        free(col->slots);
        col->slots = slots;
        col->nslots = n;
    }
    size_t at = (size_t)(text_hash(s) & (col->nslots - 1));
    while (col->slots[at]) {
        if (!strcmp(col->texts[col->slots[at] - 1], s))
            return (int32_t)(col->slots[at] - 1);
        at = (at + 1) & (col->nslots - 1);
    }
    if (col->ntexts == col->captexts) {
        size_t n = col->captexts ? col->captexts * 2 : 32;
        const char **t = realloc(col->texts, n * sizeof *t);
        if (!t)
            return -1;
        col->texts = t;
        col->captexts = n;
    }
    if (col->ntexts >= INT32_MAX)
        return -1;
    col->texts[col->ntexts] = s;
    col->slots[at] = (uint32_t)++col->ntexts;
    return (int32_t)(col->ntexts - 1);
}

static size_t an_itemsize(int type)
{
    return type == NTIDX_COLUMN_BOOL ? 1 : type == NTIDX_COLUMN_STRING ? 4 : 8;
}

/* Every table of the analysis, column by column (without the GIL): 0 or the library's error. */
static int an_fill(an_job *j)
{
    j->ntables = ntidx_analysis_table_count(j->a);
    j->cols = calloc(j->ntables ? j->ntables : 1, sizeof *j->cols);
    if (!j->cols)
        return NTIDX_E_NOMEM;
    for (size_t k = 0; k < j->ntables; k++) {
        ntidx_table tb;
        int rc = ntidx_analysis_table(j->a, k, &tb);
        if (rc < 0)
            return rc;
        an_col *cols = j->cols[k] = calloc(tb.column_count ? tb.column_count : 1, sizeof *cols);
        if (!cols)
            return NTIDX_E_NOMEM;
        size_t rows = (size_t)tb.rows;
        for (size_t c = 0; c < tb.column_count; c++) {
            an_col *col = &cols[c];
            col->type = tb.columns[c].type;
            if (!(col->data = malloc((rows ? rows : 1) * an_itemsize(col->type))))
                return NTIDX_E_NOMEM;
            for (size_t r = 0; r < rows; r++) {
                ntidx_table_cell v;
                if ((rc = ntidx_analysis_cell(j->a, k, r, c, &v)) < 0)
                    return rc;
                if (v.is_null && col->type != NTIDX_COLUMN_DOUBLE && col->type != NTIDX_COLUMN_STRING && !col->mask &&
                    !(col->mask = calloc(rows, 1)))
                    return NTIDX_E_NOMEM;
                switch (col->type) {
                case NTIDX_COLUMN_INT: ((int64_t *)col->data)[r] = v.is_null ? 0 : v.i; break;
                case NTIDX_COLUMN_UINT: ((uint64_t *)col->data)[r] = v.is_null ? 0 : v.u; break;
                case NTIDX_COLUMN_DOUBLE: ((double *)col->data)[r] = v.is_null ? NAN : v.f; break;
                case NTIDX_COLUMN_BOOL: ((uint8_t *)col->data)[r] = !v.is_null && v.u; break;
                default: {
                    int32_t code = v.is_null || !v.s ? -1 : an_intern(col, v.s);
                    if (code < 0 && !v.is_null && v.s)
                        return NTIDX_E_NOMEM;
                    ((int32_t *)col->data)[r] = code;
                    break;
                }
                }
                if (v.is_null && col->mask)
                    col->mask[r] = 1;
            }
        }
    }
    return 0;
}

static const char *an_format(int type)
{
    switch (type) {
    case NTIDX_COLUMN_INT: return "q";
    case NTIDX_COLUMN_UINT: return "Q";
    case NTIDX_COLUMN_DOUBLE: return "d";
    case NTIDX_COLUMN_BOOL: return "B";
    default: return "i";
    }
}

/* What was read and met, with the keys of `ntidx gc --format json`'s "stats". */
static PyObject *an_stats(const ntidx_analysis_stats *s)
{
    return Py_BuildValue("{sKsKsKsKsKsKsKsKsIsKsKsKsKsK}", "t0", (unsigned long long)s->t0, "t1",
                         (unsigned long long)s->t1, "events", (unsigned long long)s->events, "field_errors",
                         (unsigned long long)s->field_errors, "unmatched", (unsigned long long)s->unmatched,
                         "incomplete", (unsigned long long)s->incomplete, "regions", (unsigned long long)s->regions,
                         "units", (unsigned long long)s->units, "threads", (unsigned int)s->threads, "bytes_read",
                         (unsigned long long)s->bytes_read, "blocks_read", (unsigned long long)s->blocks_read,
                         "event_blocks_read", (unsigned long long)s->event_blocks_read, "lookahead_events",
                         (unsigned long long)s->lookahead_events, "lookahead_bytes",
                         (unsigned long long)s->lookahead_bytes);
}

/* The filled tables as Python: [{"name", "rows", "columns": [(name, type, data, mask or None, texts or None)]}]. */
static PyObject *an_tables(module_state *st, an_job *j)
{
    PyObject *tables = PyList_New(0);
    for (size_t k = 0; tables && k < j->ntables; k++) {
        ntidx_table tb;
        if (ntidx_analysis_table(j->a, k, &tb) < 0) {
            Py_CLEAR(tables);
            return raise_last(st, NTIDX_E_INVALID_ARG);
        }
        size_t rows = (size_t)tb.rows;
        PyObject *cols = PyList_New(0);
        for (size_t c = 0; cols && c < tb.column_count; c++) {
            an_col *col = &j->cols[k][c];
            PyObject *data = column(st, &col->data, rows, (Py_ssize_t)an_itemsize(col->type), an_format(col->type));
            PyObject *mask = !data ? NULL : col->mask ? column(st, (void **)&col->mask, rows, 1, "B")
                                                      : Py_NewRef(Py_None);
            PyObject *texts = NULL;
            if (mask && col->type == NTIDX_COLUMN_STRING) {
                texts = PyList_New((Py_ssize_t)col->ntexts);
                for (size_t i = 0; texts && i < col->ntexts; i++) {
                    PyObject *u = cstr_of(col->texts[i]);
                    if (!u)
                        Py_CLEAR(texts);
                    else
                        PyList_SET_ITEM(texts, (Py_ssize_t)i, u);
                }
            } else if (mask) {
                texts = Py_NewRef(Py_None);
            }
            /* Py_BuildValue() takes the N objects also when it fails */
            PyObject *t = texts ? Py_BuildValue("(siNNN)", tb.columns[c].name, col->type, data, mask, texts) : NULL;
            if (!texts) {
                Py_XDECREF(data);
                Py_XDECREF(mask);
            }
            if (!t || PyList_Append(cols, t) < 0)
                Py_CLEAR(cols);
            Py_XDECREF(t);
        }
        PyObject *d = cols ? Py_BuildValue("{sssnsN}", "name", tb.name, "rows", (Py_ssize_t)rows, "columns", cols)
                           : NULL;
        if (!d || PyList_Append(tables, d) < 0)
            Py_CLEAR(tables);
        Py_XDECREF(d);
    }
    return tables;
}

/*
 * Trace._analyze(name, start, end, thread, lookahead, threads): the analysis `name` of the window (the
 * library's ntidx_analyze()) as {"analysis": name, "stats": {...}, "tables": [...]} (an_tables()), every
 * table filled in C column by column with the GIL released.
 */
static PyObject *trace_analyze(PyObject *self_obj, PyObject *args, PyObject *kw)
{
    module_state *st = state_of(self_obj);
    static char *names[] = {"name", "start", "end", "thread", "lookahead", "threads", NULL};
    const char *name;
    pyq p = {0};
    PyObject *lookahead = Py_None;
    unsigned int threads = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "s|OOOOI:_analyze", names, &name, &p.start, &p.end, &p.thread,
                                     &lookahead, &threads))
        return NULL;
    ntidx_analysis_options o;
    ntidx_analysis_options_defaults(&o);
    if (lookahead != Py_None) {
        double s = PyFloat_AsDouble(lookahead);
        if (s == -1.0 && PyErr_Occurred())
            return NULL;
        if (!(s >= 0)) {
            PyErr_Format(st->exc[EXC_ARGUMENT], "lookahead: seconds, 0 or more, not %R", lookahead);
            return NULL;
        }
        o.lookahead_seconds = s;
    }
    qargs a;
    core *c = begin_call(self_obj, st, &p, &a);
    if (!c)
        return NULL;
    o.t0 = a.o.t0;
    o.t1 = a.o.t1;
    o.has_thread = a.o.has_thread;
    o.thread = a.o.thread;
    o.threads = threads;
    qargs_free(&a);
    an_job j;
    memset(&j, 0, sizeof j);
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = core_index(c);
    if (rc == NTIDX_OK)
    {
        const ntidx_index *x = core_x(c);
        rc = ntidx_analyze(name, c->t, x, &o, &j.a);
        if (core_recover(c, x, rc))
            rc = ntidx_analyze(name, c->t, core_x(c), &o, &j.a);
    }
    if (rc == NTIDX_OK)
        rc = an_fill(&j);
    Py_END_ALLOW_THREADS
    if (rc < 0) {
        an_job_free(&j);
        return finish(st, c, rc, NULL);
    }
    PyObject *tables = an_tables(st, &j);
    PyObject *r = tables ? Py_BuildValue("{sssNsN}", "analysis", ntidx_analysis_name(j.a), "stats",
                                         an_stats(ntidx_analysis_get_stats(j.a)), "tables", tables)
                         : NULL;
    an_job_free(&j);
    return finish(st, c, 0, r);
}

/* _analyses(): the library's analyses, [(name, summary, [(table, [(column, type, description)])])]. */
static PyObject *mod_analyses(PyObject *m, PyObject *unused)
{
    (void)m;
    (void)unused;
    PyObject *out = PyList_New(0);
    for (size_t k = 0; out && k < ntidx_analysis_count(); k++) {
        const ntidx_analysis_info *info = ntidx_analysis_info_at(k);
        PyObject *tables = PyList_New(0);
        for (size_t i = 0; tables && i < info->table_count; i++) {
            const ntidx_table *tb = &info->tables[i];
            PyObject *cols = PyList_New(0);
            for (size_t c = 0; cols && c < tb->column_count; c++) {
                PyObject *t = Py_BuildValue("(sis)", tb->columns[c].name, tb->columns[c].type,
                                            tb->columns[c].description ? tb->columns[c].description : "");
                if (!t || PyList_Append(cols, t) < 0)
                    Py_CLEAR(cols);
                Py_XDECREF(t);
            }
            PyObject *t = cols ? Py_BuildValue("(sN)", tb->name, cols) : NULL;
            if (!t || PyList_Append(tables, t) < 0)
                Py_CLEAR(tables);
            Py_XDECREF(t);
        }
        PyObject *t = tables ? Py_BuildValue("(ssN)", info->name, info->summary, tables) : NULL;
        if (!t || PyList_Append(out, t) < 0)
            Py_CLEAR(out);
        Py_XDECREF(t);
    }
    return out;
}

/* ------------------------------------------------------------------ */
/* Trace: attributes                                                   */
/* ------------------------------------------------------------------ */

static PyObject *trace_get_path(PyObject *self, void *cl)
{
    PyObject *p = ((TraceObject *)self)->path_obj;
    return Py_NewRef(p ? p : Py_None);
}

static PyObject *trace_get_closed(PyObject *self, void *cl) { return PyBool_FromLong(((TraceObject *)self)->c == NULL); }

static PyObject *trace_get_complete(PyObject *self_obj, void *cl)
{
    module_state *st = state_of(self_obj);
    core *c = trace_core((TraceObject *)self_obj);
    if (!c)
        return NULL;
    /* the index knows; without one (build_index=False), a walk over the block headers */
    int rc, complete = 0;
    Py_BEGIN_ALLOW_THREADS
    pthread_mutex_lock(&c->lock);
    ntidx_index *x = core_x(c);
    pthread_mutex_unlock(&c->lock);
    if (x) {
        complete = ntidx_index_get_info(x)->complete;
        rc = NTIDX_OK;
    } else {
        ntidx_trace_summary *s = malloc(sizeof *s);
        rc = s ? ntidx_trace_summarize(c->t, s) : NTIDX_E_NOMEM;
        complete = s && rc == NTIDX_OK && s->complete;
        free(s);
    }
    Py_END_ALLOW_THREADS
    return finish(st, c, rc, rc < 0 ? NULL : PyBool_FromLong(complete));
}

static PyObject *trace_get_index_path(PyObject *self_obj, void *cl)
{
    core *c = ((TraceObject *)self_obj)->c;
    const ntidx_index *x = c ? core_x(c) : NULL;
    const char *p = x ? ntidx_index_file(x) : NULL;
    return p ? PyUnicode_DecodeFSDefault(p) : Py_NewRef(Py_None);
}

static PyObject *trace_get_index_action(PyObject *self_obj, void *cl)
{
    core *c = ((TraceObject *)self_obj)->c;
    static const char *const acts[] = {"loaded", "built", "rebuilt", "extended"};
    if (!c || c->index_action < 0 || c->index_action > 3)
        Py_RETURN_NONE;
    return PyUnicode_FromString(acts[c->index_action]);
}

static PyObject *trace_get_format(PyObject *self_obj, void *cl)
{
    core *c = ((TraceObject *)self_obj)->c;
    if (!c) {
        PyErr_SetString(PyExc_ValueError, "the trace is closed");
        return NULL;
    }
    const ntidx_trace_info *in = ntidx_trace_get_info(c->t);
    return Py_BuildValue("{sisIsLsLsI}", "format_version", in->format_version, "minor_version", in->minor_version,
                         "sync_ticks", (long long)in->sync_ticks, "tick_frequency", (long long)in->tick_frequency,
                         "pointer_size", in->pointer_size);
}

/* ticks -> nanoseconds since the Unix epoch (UTC), for datetime columns; None without a valid sync date. */
static PyObject *trace_unix_ns(PyObject *self_obj, PyObject *arg)
{
    core *c = ((TraceObject *)self_obj)->c;
    if (!c) {
        PyErr_SetString(PyExc_ValueError, "the trace is closed");
        return NULL;
    }
    unsigned long long ticks = PyLong_AsUnsignedLongLong(arg);
    if (PyErr_Occurred())
        return NULL;
    int64_t ns;
    if (ntidx_ticks_to_unix_ns(c->t, ticks, &ns) != NTIDX_OK)
        Py_RETURN_NONE;
    return PyLong_FromLongLong(ns);
}

/* _ticks_to_ns(buffer of uint64 ticks): a Buffer of int64 Unix nanoseconds (INT64_MIN where there is none). */
static PyObject *trace_ticks_to_ns(PyObject *self_obj, PyObject *arg)
{
    module_state *st = state_of(self_obj);
    core *c = trace_core((TraceObject *)self_obj);
    if (!c)
        return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_C_CONTIGUOUS) < 0) {
        core_unref(c);
        return NULL;
    }
    if (view.len % 8) {
        PyBuffer_Release(&view);
        core_unref(c);
        PyErr_SetString(PyExc_ValueError, "_ticks_to_ns: a buffer of 8-byte ticks");
        return NULL;
    }
    size_t n = (size_t)view.len / 8;
    int64_t *out = malloc((n ? n : 1) * sizeof *out);
    if (!out) {
        PyBuffer_Release(&view);
        core_unref(c);
        return PyErr_NoMemory();
    }
    Py_BEGIN_ALLOW_THREADS
    ticks_to_ns(c->t, view.buf, n, out);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    core_unref(c);
    return buffer_new(st, out, (Py_ssize_t)n, 8, "q");
}

static PyObject *trace_get_index_arg(PyObject *self_obj, void *cl)
{
    core *c = ((TraceObject *)self_obj)->c;
    return c && c->index_arg ? PyUnicode_DecodeFSDefault(c->index_arg) : Py_NewRef(Py_None);
}

static PyObject *trace_parse_time(PyObject *self_obj, PyObject *arg)
{
    module_state *st = state_of(self_obj);
    core *c = trace_core((TraceObject *)self_obj);
    if (!c)
        return NULL;
    uint64_t t;
    int rc = parse_time(st, c, arg, &t, "time");
    core_unref(c);
    return rc < 0 ? NULL : PyLong_FromUnsignedLongLong(t);
}

static PyObject *trace_symbol(PyObject *self_obj, PyObject *args, PyObject *kw)
{
    module_state *st = state_of(self_obj);
    static char *names[] = {"ip", "return_address", NULL};
    unsigned long long ip;
    int ret = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "K|p:symbol", names, &ip, &ret))
        return NULL;
    core *c = trace_core((TraceObject *)self_obj);
    if (!c)
        return NULL;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = core_symbolizer(c);
    Py_END_ALLOW_THREADS
    if (rc < 0)
        return finish(st, c, rc, NULL);
    ntidx_symbol s;
    PyObject *r;
    if (ntidx_symbolizer_lookup(c->sym, ip, ret, &s) == 1)
        r = Py_BuildValue("{sNsNsNsKsK}", "method", cstr_of(s.method), "module", cstr_of(s.module), "module_path",
                          cstr_of(s.module_path), "method_start", (unsigned long long)s.method_start, "method_size",
                          (unsigned long long)s.method_size);
    else
        r = Py_NewRef(Py_None);
    return finish(st, c, 0, r);
}

static PyObject *trace_enter(PyObject *self, PyObject *unused) { return Py_NewRef(self); }

static PyObject *trace_exit(PyObject *self, PyObject *args) { return trace_close(self, NULL); }

/* Trace._thread_defs(): the threads the trace defines (V6 thread blocks): [(thread, name or None, pid or None)],
   `thread` as statistics and frames name it (the OS id where given, else the index); later definitions last. */
static PyObject *trace_thread_defs(PyObject *self_obj, PyObject *unused)
{
    (void)unused;
    module_state *st = state_of(self_obj);
    core *c = trace_core((TraceObject *)self_obj);
    if (!c)
        return NULL;
    const ntidx_thread_list *l = NULL;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = core_threads(c, &l);
    Py_END_ALLOW_THREADS
    if (rc < 0)
        return finish(st, c, rc, NULL);
    PyObject *out = PyList_New(0);
    for (size_t i = 0; out && i < ntidx_thread_list_count(l); i++) {
        const ntidx_thread *t = ntidx_thread_list_at(l, i);
        PyObject *pid = t->has_os_process_id ? PyLong_FromUnsignedLongLong(t->os_process_id) : Py_NewRef(Py_None);
        PyObject *row = pid ? Py_BuildValue("(KNN)", (unsigned long long)(t->has_os_thread_id ? t->os_thread_id
                                                                                                : t->index),
                                            t->name && t->name[0] ? cstr_of(t->name) : Py_NewRef(Py_None), pid)
                            : NULL;
        if (!row || PyList_Append(out, row) < 0)
            Py_CLEAR(out);
        Py_XDECREF(row);
    }
    return finish(st, c, 0, out);
}

static PyMethodDef trace_methods[] = {
    {"close", trace_close, METH_NOARGS, "Close the trace (its memory goes once no Event or query of it is left)."},
    {"info", trace_info, METH_NOARGS, "The trace's facts: the keys and values of `ntidx info --json`."},
    {"stats", (PyCFunction)(void (*)(void))trace_stats, METH_VARARGS | METH_KEYWORDS,
     "stats(start=None, end=None, threads=0, regions=None): the keys and values of `ntidx stats --json`."},
    {"query", (PyCFunction)(void (*)(void))trace_query, METH_VARARGS | METH_KEYWORDS,
     "query(start=None, end=None, provider=None, event=None, thread=None, order=\"time\", limit=None, "
     "regions=None, strict=False): an iterator of Event."},
    {"seek", (PyCFunction)(void (*)(void))trace_seek, METH_VARARGS | METH_KEYWORDS,
     "seek(t, provider=None, event=None, thread=None, strict=False): the first event at or after t, or None."},
    {"_regions", (PyCFunction)(void (*)(void))trace_regions, METH_VARARGS | METH_KEYWORDS,
     "_regions(start=None, end=None): tuples of the work units holding events of the window."},
    {"types", (PyCFunction)(void (*)(void))trace_types, METH_VARARGS | METH_KEYWORDS,
     "types(provider=None, event=None, strict=False): the event types the trace defines, with their fields."},
    {"_frames", (PyCFunction)(void (*)(void))trace_frames, METH_VARARGS | METH_KEYWORDS,
     "_frames(start, end, provider, event, thread, fields, regions, order, strict, on_error, time, types): a "
     "FrameReader of the rows of Trace.frame() and Trace.iter_frames()."},
    {"_analyze", (PyCFunction)(void (*)(void))trace_analyze, METH_VARARGS | METH_KEYWORDS,
     "_analyze(name, start, end, thread, lookahead, threads): an analysis's tables as filled columns."},
    {"_thread_defs", trace_thread_defs, METH_NOARGS, "[(thread, name, pid)] of the trace's V6 thread blocks."},
    {"_unix_ns", trace_unix_ns, METH_O, "ticks -> nanoseconds since the Unix epoch (UTC), or None."},
    {"_ticks_to_ns", trace_ticks_to_ns, METH_O, "a buffer of uint64 ticks -> a Buffer of int64 Unix nanoseconds."},
    {"check_names", (PyCFunction)(void (*)(void))trace_check_names, METH_VARARGS | METH_KEYWORDS,
     "check_names(provider=None, event=None): None when some event type of the trace answers to the filters, "
     "else what names nothing, with the trace's closest names (ntidx_index_check_names())."},
    {"ticks", trace_parse_time, METH_O, "ticks(t): a time (int, \"1.5s\", \"250ms\", ISO-8601 Z) in raw ticks."},
    {"symbol", (PyCFunction)(void (*)(void))trace_symbol, METH_VARARGS | METH_KEYWORDS,
     "symbol(ip, return_address=False): the method and module holding ip, or None."},
    {"__enter__", trace_enter, METH_NOARGS, NULL},
    {"__exit__", trace_exit, METH_VARARGS, NULL},
    {NULL}};

static PyGetSetDef trace_getset[] = {
    {"path", trace_get_path, NULL, "the trace's path, as given", NULL},
    {"closed", trace_get_closed, NULL, "True after close()", NULL},
    {"complete", trace_get_complete, NULL, "False for a trace cut short (no end-of-stream marker)", NULL},
    {"index_path", trace_get_index_path, NULL, "the index file in use (None before the index is opened)", NULL},
    {"index_action", trace_get_index_action, NULL, "what opening the index did: loaded, built, rebuilt, extended",
     NULL},
    {"format", trace_get_format, NULL, "format version, sync ticks, tick frequency, pointer size", NULL},
    {"_index_arg", trace_get_index_arg, NULL, "the index= given to open() (None: the library's choice)", NULL},
    {NULL}};

static PyType_Slot trace_slots[] = {{Py_tp_init, trace_init},
                                    {Py_tp_new, PyType_GenericNew},
                                    {Py_tp_dealloc, trace_dealloc},
                                    {Py_tp_traverse, trace_traverse},
                                    {Py_tp_methods, trace_methods},
                                    {Py_tp_getset, trace_getset},
                                    {Py_tp_doc, "A trace and its side index (see ntidx.open)."},
                                    {0, NULL}};
static PyType_Spec trace_spec = {"ntidx._ntidx.Trace", sizeof(TraceObject), 0,
                                 Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC, trace_slots};

/* ------------------------------------------------------------------ */
/* Module                                                              */
/* ------------------------------------------------------------------ */

static PyObject *mod_set_notice_hook(PyObject *m, PyObject *fn)
{
    module_state *st = PyModule_GetState(m);
    Py_XSETREF(st->notice_hook, Py_NewRef(fn));
    Py_RETURN_NONE;
}

static PyObject *mod_index_path(PyObject *m, PyObject *arg)
{
    PyObject *b;
    if (!PyUnicode_FSConverter(arg, &b))
        return NULL;
    char *p = ntidx_index_path(PyBytes_AS_STRING(b));
    Py_DECREF(b);
    if (!p)
        return PyErr_NoMemory();
    PyObject *r = PyUnicode_DecodeFSDefault(p);
    free(p);
    return r;
}

/* ------------------------------------------------------------------ */
/* SQL: ntidx.sql() and Trace.sql()                                    */
/* ------------------------------------------------------------------ */

/*
 * The SQL tables (tools/sqlite) are linked into the module with SQLite itself (static where Debian ships
 * libsqlite3.a), so that a statement runs in an in-memory database of the module's own: no
 * enable_load_extension(), which pyenv's and other interpreters' sqlite3 lack. The tables are registered
 * through sqlite3_auto_extension() (the way a host gets the API routines to hand them), for the one open
 * below only: the module's SQLite is its own, never the interpreter's.
 */
typedef struct sql_call {
    int input_error;
    PyObject *warnings; /* [(trace, message)], said after the statement (with the GIL) */
    PyObject *notices;  /* [(action, why, trace)] */
    PyObject *damaged;  /* [(trace, message)]: regions on_error="skip" left out */
    PyObject *damaged_category; /* the warning they are said with (ntidx.DamagedRegionWarning), borrowed */
    int failed;         /* a list append failed (out of memory) */
} sql_call;

static _Thread_local sql_call *sql_current;

static void sql_append(sql_call *c, PyObject **list, PyObject *item)
{
    if (!item || (!*list && !(*list = PyList_New(0))) || PyList_Append(*list, item) < 0)
        c->failed = 1;
    Py_XDECREF(item);
}

/* The hooks run inside sqlite3_step(), where the GIL is released: they take it for the moment. */
static void sql_on_warning(void *ctx, const char *trace, const char *message)
{
    sql_call *c = ctx;
    PyGILState_STATE g = PyGILState_Ensure();
    sql_append(c, &c->warnings, Py_BuildValue("(NN)", PyUnicode_DecodeFSDefault(trace), cstr_of(message)));
    PyGILState_Release(g);
}

static void sql_on_damaged(void *ctx, const char *trace, const char *message)
{
    sql_call *c = ctx;
    PyGILState_STATE g = PyGILState_Ensure();
    sql_append(c, &c->damaged, Py_BuildValue("(NN)", PyUnicode_DecodeFSDefault(trace), cstr_of(message)));
    PyGILState_Release(g);
}

static void sql_on_notice(void *ctx, const char *trace, int action, const char *why)
{
    sql_call *c = ctx;
    PyGILState_STATE g = PyGILState_Ensure();
    sql_append(c, &c->notices, Py_BuildValue("(iNN)", action, cstr_of(why ? why : ""), PyUnicode_DecodeFSDefault(trace)));
    PyGILState_Release(g);
}

static void sql_on_input_error(void *ctx, const char *message)
{
    (void)message;
    ((sql_call *)ctx)->input_error = 1;
}

static int sql_register(sqlite3 *db, char **err, const sqlite3_api_routines *api)
{
    sql_call *c = sql_current;
    if (!c)
        return SQLITE_OK; /* not an open of ours */
    ntidx_sqlite_hooks h = {.ctx = c, .warning = sql_on_warning, .notice = sql_on_notice, .damaged = sql_on_damaged,
                            .input_error = sql_on_input_error, .verify = verify_mode()};
    return ntidx_sqlite_register(db, err, api, &h);
}

/* A statement's failure as an exception: the trace's error (ntidx.Error and kin) when a trace or an index
   could not be read, else ntidx.ArgumentError with SQLite's message (the statement's own mistake). */
static PyObject *sql_raise(module_state *st, sql_call *c, sqlite3 *db, int rc, const char *what)
{
    const char *msg = rc == SQLITE_NOMEM ? "out of memory" : db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    if (rc == SQLITE_NOMEM)
        return PyErr_NoMemory();
    const ntidx_error_info *ei = ntidx_last_error_info();
    PyObject *type = c->input_error && ei->code < 0 ? st->exc[exc_for_code(ei->code)]
                     : c->input_error                ? st->exc[EXC_ERROR]
                                                     : st->exc[EXC_ARGUMENT];
    PyErr_Format(type, "%s: %s", what, msg);
    return NULL;
}

/* Say the warnings and notices the tables collected (UnknownNameWarning, the notice hook). 0 or -1. */
static int sql_say(module_state *st, sql_call *c)
{
    Py_ssize_t n = c->notices ? PyList_GET_SIZE(c->notices) : 0;
    for (Py_ssize_t i = 0; i < n && st->notice_hook && st->notice_hook != Py_None; i++) {
        PyObject *r = PyObject_CallObject(st->notice_hook, PyList_GET_ITEM(c->notices, i));
        if (!r)
            return -1;
        Py_DECREF(r);
    }
    n = c->warnings ? PyList_GET_SIZE(c->warnings) : 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *w = PyList_GET_ITEM(c->warnings, i);
        if (PyErr_WarnFormat(st->name_warning, 2, "%U: %U", PyTuple_GET_ITEM(w, 0), PyTuple_GET_ITEM(w, 1)) < 0)
            return -1;
    }
    n = c->damaged ? PyList_GET_SIZE(c->damaged) : 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *w = PyList_GET_ITEM(c->damaged, i);
        PyObject *cat = c->damaged_category ? c->damaged_category : PyExc_UserWarning;
        if (PyErr_WarnFormat(cat, 3, "%U: %U", PyTuple_GET_ITEM(w, 0), PyTuple_GET_ITEM(w, 1)) < 0)
            return -1;
    }
    Py_CLEAR(c->damaged); /* said once */
    return 0;
}

/* One cell of the current row as Python. */
static PyObject *sql_cell(sqlite3_stmt *q, int i)
{
    switch (sqlite3_column_type(q, i)) {
    case SQLITE_INTEGER: return PyLong_FromLongLong(sqlite3_column_int64(q, i));
    case SQLITE_FLOAT: return PyFloat_FromDouble(sqlite3_column_double(q, i));
    case SQLITE_TEXT: return str_of((const char *)sqlite3_column_text(q, i), (size_t)sqlite3_column_bytes(q, i));
    case SQLITE_BLOB: {
        const void *b = sqlite3_column_blob(q, i);
        return PyBytes_FromStringAndSize(b ? b : "", sqlite3_column_bytes(q, i));
    }
    default: Py_RETURN_NONE;
    }
}

/*
 * _sql(traces, index, statement[, skip, damaged_category]): run the statements (';'-separated) over the traces' tables, as `ntidx sql`
 * does; the last statement that returns columns gives the result: (names, declared types, [column lists]).
 * The GIL is released while SQLite steps (the tables read the traces then).
 */
static PyObject *mod_sql(PyObject *m, PyObject *args)
{
    module_state *st = PyModule_GetState(m);
    PyObject *traces, *index, *stmt_obj, *category = Py_None;
    int skip = 0;
    if (!PyArg_ParseTuple(args, "OOU|pO:_sql", &traces, &index, &stmt_obj, &skip, &category))
        return NULL;
    if (category != Py_None && !(PyType_Check(category) &&
                                 PyType_IsSubtype((PyTypeObject *)category, (PyTypeObject *)PyExc_Warning))) {
        PyErr_SetString(PyExc_TypeError, "damaged_category: a Warning class");
        return NULL;
    }
    PyObject *seq = PySequence_Fast(traces, "traces: a list of paths");
    if (!seq)
        return NULL;
    Py_ssize_t nt = PySequence_Fast_GET_SIZE(seq);
    if (nt < 1 || nt > 1000) {
        Py_DECREF(seq);
        PyErr_Format(st->exc[EXC_ARGUMENT], "traces: 1 to 1000 paths, not %zd", nt);
        return NULL;
    }
    PyObject *bytes = PyList_New(nt), *index_b = NULL, *result = NULL, *names = NULL, *decls = NULL, *cols = NULL;
    char **paths = calloc((size_t)nt, sizeof *paths);
    sql_call call = {0};
    call.damaged_category = category != Py_None ? category : NULL;
    sqlite3 *db = NULL;
    char *schema = NULL, *err = NULL;
    if (!bytes || !paths) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < nt; i++) {
        PyObject *b;
        if (!PyUnicode_FSConverter(PySequence_Fast_GET_ITEM(seq, i), &b))
            goto done;
        PyList_SET_ITEM(bytes, i, b);
        paths[i] = PyBytes_AS_STRING(b);
    }
    if (index != Py_None && !PyUnicode_FSConverter(index, &index_b))
        goto done;
    const char *sql = PyUnicode_AsUTF8(stmt_obj);
    if (!sql)
        goto done;

    static pthread_mutex_t auto_lock = PTHREAD_MUTEX_INITIALIZER;
    int rc;
    sql_current = &call;
    pthread_mutex_lock(&auto_lock); /* the auto extension is process-wide: one open at a time */
    rc = sqlite3_auto_extension((void (*)(void))sql_register);
    if (rc == SQLITE_OK)
        rc = sqlite3_open(":memory:", &db);
    sqlite3_cancel_auto_extension((void (*)(void))sql_register);
    pthread_mutex_unlock(&auto_lock);
    sql_current = NULL;
    if (rc != SQLITE_OK) {
        sql_raise(st, &call, db, rc, "cannot open an SQLite database");
        goto done;
    }
    sqlite3_exec(db, "PRAGMA temp_store = MEMORY", NULL, NULL, NULL);
    if (!(schema = ntidx_sqlite_schema_skipping(paths, (int)nt, index_b ? PyBytes_AS_STRING(index_b) : NULL, skip))) {
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    rc = sqlite3_exec(db, schema, NULL, NULL, &err);
    Py_END_ALLOW_THREADS
    if (rc != SQLITE_OK) {
        call.input_error = 1; /* the tables over the traces: only a trace or its index can fail them */
        if (sql_say(st, &call) == 0)
            PyErr_Format(st->exc[exc_for_code(ntidx_last_error_info()->code < 0 ? ntidx_last_error_info()->code
                                                                                 : NTIDX_E_IO)],
                         "%s", err ? err : "out of memory");
        goto done;
    }
    int statements = 0;
    while (sql && *sql) {
        sqlite3_stmt *q = NULL;
        const char *tail = NULL;
        call.input_error = 0;
        Py_BEGIN_ALLOW_THREADS
        rc = sqlite3_prepare_v2(db, sql, -1, &q, &tail);
        Py_END_ALLOW_THREADS
        if (rc != SQLITE_OK) {
            if (sql_say(st, &call) == 0)
                sql_raise(st, &call, db, rc, "sql");
            goto done;
        }
        sql = tail;
        if (!q)
            continue; /* whitespace or a comment */
        statements++;
        int ncol = sqlite3_column_count(q);
        PyObject *n2 = ncol ? PyList_New(ncol) : NULL, *d2 = ncol ? PyList_New(ncol) : NULL,
                 *c2 = ncol ? PyList_New(ncol) : NULL;
        if (ncol && (!n2 || !d2 || !c2)) {
            Py_XDECREF(n2), Py_XDECREF(d2), Py_XDECREF(c2);
            sqlite3_finalize(q);
            goto done;
        }
        for (int i = 0; i < ncol; i++) {
            const char *d = sqlite3_column_decltype(q, i);
            PyList_SET_ITEM(n2, i, cstr_of(sqlite3_column_name(q, i)));
            PyList_SET_ITEM(d2, i, cstr_of(d));
            PyList_SET_ITEM(c2, i, PyList_New(0));
        }
        int bad = 0;
        for (;;) {
            Py_BEGIN_ALLOW_THREADS
            rc = sqlite3_step(q);
            Py_END_ALLOW_THREADS
            if (rc != SQLITE_ROW)
                break;
            for (int i = 0; i < ncol && !bad; i++) {
                PyObject *v = sql_cell(q, i);
                bad = !v || PyList_Append(PyList_GET_ITEM(c2, i), v) < 0;
                Py_XDECREF(v);
            }
            if (bad || call.failed)
                break;
            if (PyErr_CheckSignals() < 0) {
                bad = 1;
                break;
            }
        }
        if (!bad && !call.failed && rc != SQLITE_DONE) {
            if (sql_say(st, &call) == 0)
                sql_raise(st, &call, db, rc, "sql");
            bad = 1;
        }
        sqlite3_finalize(q);
        if (bad || call.failed) {
            if (call.failed && !PyErr_Occurred())
                PyErr_NoMemory();
            Py_XDECREF(n2), Py_XDECREF(d2), Py_XDECREF(c2);
            goto done;
        }
        if (ncol) {
            Py_XSETREF(names, n2);
            Py_XSETREF(decls, d2);
            Py_XSETREF(cols, c2);
        }
    }
    if (!statements) {
        PyErr_Format(st->exc[EXC_ARGUMENT], "sql: no statement in %R", stmt_obj);
        goto done;
    }
    if (sql_say(st, &call) < 0)
        goto done;
    if (!names) { /* statements without columns (CREATE, INSERT...): an empty result */
        names = PyList_New(0), decls = PyList_New(0), cols = PyList_New(0);
        if (!names || !decls || !cols)
            goto done;
    }
    result = PyTuple_Pack(3, names, decls, cols);
done:
    sqlite3_free(err);
    sqlite3_free(schema);
    sqlite3_close(db);
    Py_XDECREF(names), Py_XDECREF(decls), Py_XDECREF(cols);
    Py_XDECREF(call.warnings), Py_XDECREF(call.notices), Py_XDECREF(call.damaged);
    Py_XDECREF(index_b);
    Py_XDECREF(bytes);
    free(paths);
    Py_DECREF(seq);
    return result;
}

/* _take(table, itemsize, rows): table[rows[i]] for each i, as a Buffer of signed items of that size. table: a
   C-contiguous buffer of 1, 2, 4 or 8-byte items (a numpy array); rows: a buffer of uint32 (a frame's type
   column). What numpy's
   table[rows] does without making the rows intp first (a frame's type codes: one pass, no 8-byte copy). */
static PyObject *mod_take(PyObject *m, PyObject *args)
{
    module_state *st = PyModule_GetState(m);
    Py_buffer tb, rb;
    Py_ssize_t size;
    if (!PyArg_ParseTuple(args, "y*ny*:_take", &tb, &size, &rb))
        return NULL;
    PyObject *out = NULL;
    Py_ssize_t n = rb.len / 4, nt = size > 0 ? tb.len / size : 0;
    const char *fmt = size == 1 ? "b" : size == 2 ? "h" : size == 4 ? "i" : size == 8 ? "q" : NULL;
    if (!fmt || rb.len % 4 || tb.len % size) {
        PyErr_SetString(PyExc_ValueError, "_take: a table of 1, 2, 4 or 8-byte items and rows of uint32");
        goto done;
    }
    void *dst = malloc((size_t)(n ? n : 1) * (size_t)size);
    if (!dst) {
        PyErr_NoMemory();
        goto done;
    }
    const uint32_t *r = rb.buf;
    int bad = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n && !bad; i++)
        bad = r[i] >= (uint64_t)nt;
    if (!bad) {
#define TAKE(T)                                                                                                        \
    for (Py_ssize_t i = 0; i < n; i++)                                                                                 \
        ((T *)dst)[i] = ((const T *)tb.buf)[r[i]];
        switch (size) {
        case 1: TAKE(uint8_t) break;
        case 2: TAKE(uint16_t) break;
        case 4: TAKE(uint32_t) break;
        default: TAKE(uint64_t) break;
        }
#undef TAKE
    }
    Py_END_ALLOW_THREADS
    if (bad) {
        free(dst);
        PyErr_SetString(PyExc_IndexError, "_take: a row past the end of the table");
        goto done;
    }
    out = buffer_new(st, dst, n, size, fmt);
done:
    PyBuffer_Release(&tb);
    PyBuffer_Release(&rb);
    return out;
}

static const char *take_format(Py_ssize_t size)
{
    return size == 1 ? "b" : size == 2 ? "h" : size == 4 ? "i" : size == 8 ? "q" : NULL;
}

/* Item i of a table of `size`-byte items to item k of dst. */
static inline void take_item(void *dst, Py_ssize_t k, const void *table, uint32_t i, Py_ssize_t size)
{
    switch (size) {
    case 1: ((uint8_t *)dst)[k] = ((const uint8_t *)table)[i]; break;
    case 2: ((uint16_t *)dst)[k] = ((const uint16_t *)table)[i]; break;
    case 4: ((uint32_t *)dst)[k] = ((const uint32_t *)table)[i]; break;
    default: ((uint64_t *)dst)[k] = ((const uint64_t *)table)[i]; break;
    }
}

/* _take2(table_a, itemsize_a, table_b, itemsize_b, rows): _take() of two tables of the same length by the same
   rows, in one pass over them (a frame's provider and event name codes by its type column: the rows read once,
   and checked in the same pass). */
static PyObject *mod_take2(PyObject *m, PyObject *args)
{
    module_state *st = PyModule_GetState(m);
    Py_buffer ta, tb, rb;
    Py_ssize_t sa, sb;
    if (!PyArg_ParseTuple(args, "y*ny*ny*:_take2", &ta, &sa, &tb, &sb, &rb))
        return NULL;
    PyObject *out = NULL, *a = NULL, *b = NULL;
    void *da = NULL, *db = NULL;
    Py_ssize_t n = rb.len / 4, nt = sa > 0 ? ta.len / sa : 0;
    const char *fa = take_format(sa), *fb = take_format(sb);
    if (!fa || !fb || rb.len % 4 || ta.len % sa || tb.len % sb || tb.len / sb != nt) {
        PyErr_SetString(PyExc_ValueError,
                        "_take2: two tables of as many 1, 2, 4 or 8-byte items, and rows of uint32");
        goto done;
    }
    /* column memory (faulted in at once), as the frame's other columns */
    da = col_alloc_exact((size_t)(n ? n : 1) * (size_t)sa);
    db = col_alloc_exact((size_t)(n ? n : 1) * (size_t)sb);
    if (!da || !db) {
        PyErr_NoMemory();
        goto done;
    }
    const uint32_t *r = rb.buf;
    uint32_t bad = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        uint32_t t = r[i];
        if (__builtin_expect(t >= (uint64_t)nt, 0)) {
            bad = 1;
            break;
        }
        take_item(da, i, ta.buf, t, sa);
        take_item(db, i, tb.buf, t, sb);
    }
    Py_END_ALLOW_THREADS
    if (bad) {
        PyErr_SetString(PyExc_IndexError, "_take2: a row past the end of the tables");
        goto done;
    }
    a = col_column(st, &da, (size_t)n, sa, fa); /* the Buffers take the memory (or free it) */
    b = a ? col_column(st, &db, (size_t)n, sb, fb) : NULL;
    if (a && b)
        out = PyTuple_Pack(2, a, b);
done:
    Py_XDECREF(a);
    Py_XDECREF(b);
    col_free(da);
    col_free(db);
    PyBuffer_Release(&ta);
    PyBuffer_Release(&tb);
    PyBuffer_Release(&rb);
    return out;
}

/* _text_codes(ids, mask, count): a text column's Categorical codes, what np.unique() and np.searchsorted() gave
   in two passes and no sort. ids: uint64 numbers of the string table (1..count) per row; mask: one byte per row,
   nonzero for a null. Gives (codes, used): used the distinct ids of the rows not masked, ascending (the
   categories' order), codes each row's position in used (-1 for a null), in the narrowest type pandas keeps for
   that many categories (int8 below 127, int16 below 32767, else int32). */
static PyObject *mod_text_codes(PyObject *m, PyObject *args)
{
    module_state *st = PyModule_GetState(m);
    Py_buffer ib, mb;
    Py_ssize_t count;
    if (!PyArg_ParseTuple(args, "y*y*n:_text_codes", &ib, &mb, &count))
        return NULL;
    PyObject *out = NULL, *used = NULL;
    void *codes = NULL;
    uint32_t *rank = NULL;
    Py_ssize_t n = ib.len / 8;
    if (ib.len % 8 || mb.len != n || count < 0 || (uint64_t)count >= UINT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "_text_codes: ids of uint64, a mask byte per id, a count of texts");
        goto done;
    }
    rank = calloc((size_t)count + 1, sizeof *rank);
    if (!rank) {
        PyErr_NoMemory();
        goto done;
    }
    const uint64_t *id = ib.buf;
    const uint8_t *mask = mb.buf;
    int bad = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        if (mask[i])
            continue;
        if (id[i] > (uint64_t)count) {
            bad = 1;
            break;
        }
        rank[id[i]] = 1;
    }
    Py_END_ALLOW_THREADS
    if (bad) {
        PyErr_SetString(PyExc_IndexError, "_text_codes: an id past the string table");
        goto done;
    }
    if (!(used = PyList_New(0)))
        goto done;
    uint32_t k = 0;
    for (Py_ssize_t v = 0; v <= count; v++) {
        if (!rank[v])
            continue;
        PyObject *x = PyLong_FromSsize_t(v);
        if (!x || PyList_Append(used, x) < 0) {
            Py_XDECREF(x);
            goto done;
        }
        Py_DECREF(x);
        rank[v] = ++k; /* position + 1 */
    }
    Py_ssize_t size = k < 127 ? 1 : k < 32767 ? 2 : 4;
    if (!(codes = col_alloc_exact((size_t)(n ? n : 1) * (size_t)size))) {
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        int32_t c = mask[i] ? -1 : (int32_t)rank[id[i]] - 1;
        if (size == 1)
            ((int8_t *)codes)[i] = (int8_t)c;
        else if (size == 2)
            ((int16_t *)codes)[i] = (int16_t)c;
        else
            ((int32_t *)codes)[i] = c;
    }
    Py_END_ALLOW_THREADS
    PyObject *cb = col_column(st, &codes, (size_t)n, size, size == 1 ? "b" : size == 2 ? "h" : "i");
    if (cb)
        out = Py_BuildValue("(NO)", cb, used);
done:
    col_free(codes);
    free(rank);
    Py_XDECREF(used);
    PyBuffer_Release(&ib);
    PyBuffer_Release(&mb);
    return out;
}

/* _kind_counts(kinds): how many rows of a field column hold each value kind (256 counts; np.bincount() made the
   bytes intp first). */
static PyObject *mod_kind_counts(PyObject *m, PyObject *arg)
{
    (void)m;
    Py_buffer kb;
    if (PyObject_GetBuffer(arg, &kb, PyBUF_SIMPLE) < 0)
        return NULL;
    uint64_t counts[256] = {0};
    const uint8_t *k = kb.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < kb.len; i++)
        counts[k[i]]++;
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&kb);
    PyObject *l = PyList_New(256);
    for (int i = 0; l && i < 256; i++) {
        PyObject *x = PyLong_FromUnsignedLongLong(counts[i]);
        if (!x) {
            Py_CLEAR(l);
            break;
        }
        PyList_SET_ITEM(l, i, x);
    }
    return l;
}

/* _kind_mask(kinds, present): per row 1 where its kind is not one of the bytes of `present` (a null of the
   column), else 0: ~np.isin(kinds, present) in one pass. */
static PyObject *mod_kind_mask(PyObject *m, PyObject *args)
{
    module_state *st = PyModule_GetState(m);
    Py_buffer kb;
    const char *present;
    Py_ssize_t np_;
    if (!PyArg_ParseTuple(args, "y*y#:_kind_mask", &kb, &present, &np_))
        return NULL;
    uint8_t null_of[256];
    memset(null_of, 1, sizeof null_of);
    for (Py_ssize_t i = 0; i < np_; i++)
        null_of[(uint8_t)present[i]] = 0;
    uint8_t *out = col_alloc_exact((size_t)(kb.len ? kb.len : 1));
    if (!out) {
        PyBuffer_Release(&kb);
        return PyErr_NoMemory();
    }
    const uint8_t *k = kb.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < kb.len; i++)
        out[i] = null_of[k[i]];
    Py_END_ALLOW_THREADS
    Py_ssize_t n = kb.len;
    PyBuffer_Release(&kb);
    return col_column(st, (void **)&out, (size_t)n, 1, "?");
}

static PyMethodDef mod_methods[] = {
    {"_kind_counts", mod_kind_counts, METH_O, "_kind_counts(kinds): rows per value kind (256 counts)."},
    {"_kind_mask", mod_kind_mask, METH_VARARGS, "_kind_mask(kinds, present): 1 where a row's kind is not present."},
    {"_text_codes", mod_text_codes, METH_VARARGS, "_text_codes(ids, mask, count): (codes, used ids) of a text column."},
    {"_take", mod_take, METH_VARARGS, "_take(table, itemsize, rows): table[rows] (rows: uint32) as a Buffer."},
    {"_take2", mod_take2, METH_VARARGS, "_take2(table_a, itemsize_a, table_b, itemsize_b, rows): (table_a[rows], "
     "table_b[rows]) as Buffers, in one pass over the rows."},
    {"_set_notice_hook", mod_set_notice_hook, METH_O, "fn(action, why, path): what the index maintenance did."},
    {"_analyses", mod_analyses, METH_NOARGS, "The library's analyses: [(name, summary, [(table, [(column, type, "
     "description)])])]."},
    {"_sql", mod_sql, METH_VARARGS, "_sql(traces, index, statement[, skip, damaged_category]): (names, declared types, [column lists]); skip: "
     "the events table with on_error='skip', its regions left out said with damaged_category."},
    {"index_path", mod_index_path, METH_O,
     "index_path(trace): where the index of a trace is kept (NTIDX_INDEX_DIR, beside it, or the user's cache)."},
    {NULL}};

static const struct {
    int slot;
    const char *name, *doc;
    int base, value_error, os_error;
} exc_table[] = {
    {EXC_ERROR, "Error", "An ntidx error: .code, .name, .file, .offset (None when not about a byte), .what.", -1, 0, 0},
    {EXC_FILE, "FileError", "The file could not be opened, mapped or read (NTIDX_E_IO).", EXC_ERROR, 0, 1},
    {EXC_NOT_A_TRACE, "NotATraceError", "No NetTrace/NetPerf signature (NTIDX_E_NOT_A_TRACE).", EXC_ERROR, 1, 0},
    {EXC_VERSION, "VersionError", "A trace format version this library does not read (NTIDX_E_VERSION).", EXC_ERROR, 0, 0},
    {EXC_TRUNCATED, "TruncatedError",
     "The file ends inside its header or trace block (NTIDX_E_TRUNCATED), or shrank while it was read "
     "(NTIDX_E_SHRUNK).",
     EXC_ERROR, 0, 0},
    {EXC_CORRUPT, "CorruptError", "An impossible value or an undefined reference (NTIDX_E_CORRUPT, _UNDEFINED_REF).",
     EXC_ERROR, 0, 0},
    {EXC_ARGUMENT, "ArgumentError", "A bad argument (NTIDX_E_INVALID_ARG).", EXC_ERROR, 1, 0},
    {EXC_TIME, "TimeError", "A time that is none of ticks, \"1.5s\"-like, ISO-8601 Z or a datetime.", EXC_ARGUMENT, 0, 0},
    {EXC_PAYLOAD, "PayloadError", "A payload that does not fit its metadata (NTIDX_E_PAYLOAD).", EXC_ERROR, 0, 0},
    {EXC_UNSUPPORTED, "UnsupportedError", "A feature not implemented (NTIDX_E_UNSUPPORTED).", EXC_ERROR, 0, 0},
    {EXC_WRITE, "WriteError", "Output could not be written (NTIDX_E_WRITE).", EXC_ERROR, 0, 0},
    {EXC_INDEX, "IndexFileError", "A side index that cannot be used.", EXC_ERROR, 0, 0},
    {EXC_INDEX_CORRUPT, "IndexCorruptError", "A corrupt side index (NTIDX_E_INDEX_CORRUPT).", EXC_INDEX, 0, 0},
    {EXC_INDEX_STALE, "IndexStaleError", "A side index of another version of the trace (NTIDX_E_INDEX_STALE).",
     EXC_INDEX, 0, 0},
    {EXC_INDEX_VERSION, "IndexVersionError", "A side index written by a newer ntidx (NTIDX_E_INDEX_VERSION).", EXC_INDEX,
     0, 0},
    {EXC_CANCELLED, "CancelledError", "The work was cancelled (NTIDX_E_CANCELLED).", EXC_ERROR, 0, 0},
    {EXC_UNKNOWN_NAME, "UnknownNameError",
     "A provider, event name or event id filter that names nothing the trace defines (strict=True).", EXC_ARGUMENT, 0,
     0},
};

static int mod_exec(PyObject *m)
{
    module_state *st = PyModule_GetState(m);
    for (size_t i = 0; i < sizeof exc_table / sizeof exc_table[0]; i++) {
        char full[64];
        snprintf(full, sizeof full, "ntidx.%s", exc_table[i].name);
        PyObject *bases;
        PyObject *base = exc_table[i].base < 0 ? PyExc_Exception : st->exc[exc_table[i].base];
        if (exc_table[i].value_error)
            bases = PyTuple_Pack(2, base, PyExc_ValueError);
        else if (exc_table[i].os_error)
            bases = PyTuple_Pack(2, base, PyExc_OSError);
        else
            bases = PyTuple_Pack(1, base);
        if (!bases)
            return -1;
        PyObject *e = PyErr_NewExceptionWithDoc(full, exc_table[i].doc, bases, NULL);
        Py_DECREF(bases);
        if (!e)
            return -1;
        st->exc[exc_table[i].slot] = e;
        /* class attributes: instances raised by Python code itself still have them */
        if (PyObject_SetAttrString(e, "file", Py_None) < 0 || PyObject_SetAttrString(e, "offset", Py_None) < 0 ||
            PyObject_SetAttrString(e, "what", Py_None) < 0 || PyObject_SetAttrString(e, "code", Py_None) < 0 ||
            PyObject_SetAttrString(e, "name", Py_None) < 0)
            return -1;
        if (PyModule_AddObjectRef(m, exc_table[i].name, e) < 0)
            return -1;
    }
    st->index_warning = PyErr_NewExceptionWithDoc("ntidx.IndexWarning",
                                                  "What the index maintenance did that a user should know: an index "
                                                  "rebuilt (stale or corrupt), or one that could not be saved.",
                                                  PyExc_UserWarning, NULL);
    if (!st->index_warning || PyModule_AddObjectRef(m, "IndexWarning", st->index_warning) < 0)
        return -1;
    st->name_warning = PyErr_NewExceptionWithDoc("ntidx.UnknownNameWarning",
                                                 "A provider, event name or event id filter that names nothing the "
                                                 "trace defines, said with the trace's closest names when a call "
                                                 "found nothing (strict=True makes it an UnknownNameError).",
                                                 PyExc_UserWarning, NULL);
    if (!st->name_warning || PyModule_AddObjectRef(m, "UnknownNameWarning", st->name_warning) < 0)
        return -1;
    if (!(st->buffer_type = (PyTypeObject *)PyType_FromModuleAndSpec(m, &buffer_spec, NULL)) ||
        !(st->meta_type = (PyTypeObject *)PyType_FromModuleAndSpec(m, &meta_spec, NULL)) ||
        !(st->event_type = (PyTypeObject *)PyType_FromModuleAndSpec(m, &event_spec, NULL)) ||
        !(st->query_type = (PyTypeObject *)PyType_FromModuleAndSpec(m, &query_spec, NULL)) ||
        !(st->trace_type = (PyTypeObject *)PyType_FromModuleAndSpec(m, &trace_spec, NULL)) ||
        !(st->frame_reader_type = (PyTypeObject *)PyType_FromModuleAndSpec(m, &fr_spec, NULL)))
        return -1;
    if (PyModule_AddType(m, st->trace_type) < 0 || PyModule_AddType(m, st->event_type) < 0 ||
        PyModule_AddType(m, st->query_type) < 0 || PyModule_AddType(m, st->buffer_type) < 0)
        return -1;
    PyObject *json = PyImport_ImportModule("json");
    if (!json)
        return -1;
    st->json_loads = PyObject_GetAttrString(json, "loads");
    Py_DECREF(json);
    if (!st->json_loads)
        return -1;
    st->notice_hook = Py_NewRef(Py_None);
    if (PyModule_AddStringConstant(m, "library_version", ntidx_version()) < 0)
        return -1;
    static const struct {
        const char *name;
        int value;
    } consts[] = {{"INDEX_LOADED", NTIDX_INDEX_LOADED}, {"INDEX_BUILT", NTIDX_INDEX_BUILT},
                  {"INDEX_REBUILT", NTIDX_INDEX_REBUILT}, {"INDEX_EXTENDED", NTIDX_INDEX_EXTENDED},
                  {"INDEX_NOT_SAVED", NTIDX_INDEX_NOT_SAVED}, {"VALUE_NULL", NTIDX_VALUE_NULL},
                  {"VALUE_BOOL", NTIDX_VALUE_BOOL}, {"VALUE_INT", NTIDX_VALUE_INT}, {"VALUE_UINT", NTIDX_VALUE_UINT},
                  {"VALUE_FLOAT", NTIDX_VALUE_FLOAT}, {"VALUE_STRING", NTIDX_VALUE_STRING},
                  {"VALUE_GUID", NTIDX_VALUE_GUID}, {"VALUE_TIME", NTIDX_VALUE_TIME},
                  {"VALUE_DECIMAL", NTIDX_VALUE_DECIMAL}, {"VALUE_ARRAY", NTIDX_VALUE_ARRAY},
                  {"VALUE_OBJECT", NTIDX_VALUE_OBJECT}, {"VALUE_MISSING", NTIDX_BATCH_MISSING},
                  {"COLUMN_INT", NTIDX_COLUMN_INT}, {"COLUMN_UINT", NTIDX_COLUMN_UINT},
                  {"COLUMN_DOUBLE", NTIDX_COLUMN_DOUBLE}, {"COLUMN_BOOL", NTIDX_COLUMN_BOOL},
                  {"COLUMN_STRING", NTIDX_COLUMN_STRING}};
    for (size_t i = 0; i < sizeof consts / sizeof consts[0]; i++)
        if (PyModule_AddIntConstant(m, consts[i].name, consts[i].value) < 0)
            return -1;
    return 0;
}

static int mod_traverse(PyObject *m, visitproc visit, void *arg)
{
    module_state *st = PyModule_GetState(m);
    for (int i = 0; i < EXC_COUNT; i++)
        Py_VISIT(st->exc[i]);
    Py_VISIT(st->index_warning);
    Py_VISIT(st->name_warning);
    Py_VISIT(st->trace_type);
    Py_VISIT(st->query_type);
    Py_VISIT(st->event_type);
    Py_VISIT(st->buffer_type);
    Py_VISIT(st->meta_type);
    Py_VISIT(st->frame_reader_type);
    Py_VISIT(st->json_loads);
    Py_VISIT(st->notice_hook);
    return 0;
}

static int mod_clear(PyObject *m)
{
    module_state *st = PyModule_GetState(m);
    for (int i = 0; i < EXC_COUNT; i++)
        Py_CLEAR(st->exc[i]);
    Py_CLEAR(st->index_warning);
    Py_CLEAR(st->name_warning);
    Py_CLEAR(st->trace_type);
    Py_CLEAR(st->query_type);
    Py_CLEAR(st->event_type);
    Py_CLEAR(st->buffer_type);
    Py_CLEAR(st->meta_type);
    Py_CLEAR(st->frame_reader_type);
    Py_CLEAR(st->json_loads);
    Py_CLEAR(st->notice_hook);
    return 0;
}

static void mod_free(void *m) { mod_clear((PyObject *)m); }

static PyModuleDef_Slot mod_slots[] = {{Py_mod_exec, mod_exec}, {0, NULL}};

static struct PyModuleDef ntidx_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "ntidx._ntidx",
    .m_doc = "The C part of the ntidx package: traces, events, columns (see the ntidx package).",
    .m_size = sizeof(module_state),
    .m_methods = mod_methods,
    .m_slots = mod_slots,
    .m_traverse = mod_traverse,
    .m_clear = mod_clear,
    .m_free = mod_free,
};

PyMODINIT_FUNC PyInit__ntidx(void); /* the one symbol Python looks for */
PyMODINIT_FUNC PyInit__ntidx(void) { return PyModuleDef_Init(&ntidx_module); }
