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
 *  - Trace._columns(): the columns of Trace.frame(), filled by the batch
 *    interface (include/ntidx/batch.h) straight into growing arrays, the GIL
 *    released, with no Python object made per event.
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

#include <ntidx/analysis.h>
#include <ntidx/batch.h>
#include <ntidx/index.h>
#include <ntidx/ntidx.h>
#include <ntidx/report.h>
#include <ntidx/symbols.h>

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
    PyTypeObject *trace_type, *query_type, *event_type, *buffer_type, *meta_type;
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
    ntidx_index *x;             /* NULL until opened (build_index=False: on first need) */
    int index_action;           /* ntidx_index_action of the open, -1 before */
    char *path;                 /* as given: the "file" of info and stats, as the command prints its argument */
    char *index_arg;            /* index= (NULL: the library's choice, ntidx_index_path()) */
    pthread_mutex_t lock;       /* the lazy index and symbolizer, the notices */
    ntidx_symbolizer *sym;
    int sym_rc;                 /* 1 not tried yet, else the open's result */
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
    ntidx_index_close(&c->x);
    ntidx_trace_close(&c->t);
    for (size_t i = 0; i < c->nnotices; i++)
        free(c->notices[i].why);
    free(c->notices);
    free(c->path);
    free(c->index_arg);
    pthread_mutex_destroy(&c->lock);
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
            c->x = x;
            c->index_action = (int)act;
        } else {
            ntidx_index_close(&x); /* another thread was first, or it failed */
        }
    }
    pthread_mutex_unlock(&c->lock);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Buffer: a column's memory, for numpy.frombuffer()                   */
/* ------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    void *data;
    Py_ssize_t n, itemsize;
    char format[4];
} BufferObject;

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
        c->sym_rc = ntidx_symbolizer_open(c->t, c->x, &c->sym);
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

typedef struct qargs {
    ntidx_query_options o;
    char *provider, *event_name;
    uint64_t *regions;
} qargs;

static void qargs_free(qargs *a)
{
    free(a->provider);
    free(a->event_name);
    free(a->regions);
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
    if (provider && provider != Py_None) {
        if (!PyUnicode_Check(provider)) {
            PyErr_SetString(PyExc_TypeError, "provider: a str");
            return -1;
        }
        if (!(a->provider = dup_utf8(provider)))
            return -1;
        a->o.provider = a->provider;
    }
    if (event && event != Py_None) {
        /* as --event: an id (int, or a str of digits), else a name (GC/AllocationTick, Provider/Name) */
        if (PyLong_Check(event)) {
            unsigned long x = PyLong_AsUnsignedLong(event);
            if (PyErr_Occurred() || x > UINT32_MAX) {
                PyErr_Clear();
                PyErr_Format(st->exc[EXC_ARGUMENT], "event: %R is not an event id", event);
                return -1;
            }
            a->o.has_event_id = 1;
            a->o.event_id = (uint32_t)x;
        } else if (PyUnicode_Check(event)) {
            const char *s = PyUnicode_AsUTF8(event);
            if (!s)
                return -1;
            char *endp;
            unsigned long long x = *s && strspn(s, "0123456789") == strlen(s) ? strtoull(s, &endp, 10) : UINT64_MAX;
            if (x <= UINT32_MAX) {
                a->o.has_event_id = 1;
                a->o.event_id = (uint32_t)x;
            } else {
                if (!(a->event_name = dup_utf8(event)))
                    return -1;
                a->o.event_name = a->event_name;
            }
        } else {
            PyErr_SetString(PyExc_TypeError, "event: an id (int) or a name (str)");
            return -1;
        }
    }
    if (thread && thread != Py_None) {
        unsigned long long x = PyLong_Check(thread) ? PyLong_AsUnsignedLongLong(thread) : 0;
        if (!PyLong_Check(thread) || PyErr_Occurred()) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "thread: an int (the OS thread id), not %R", thread);
            return -1;
        }
        a->o.has_thread = 1;
        a->o.thread = x;
    }
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
            unsigned long long r = PyLong_Check(x) ? PyLong_AsUnsignedLongLong(x) : 0;
            if (!PyLong_Check(x) || PyErr_Occurred()) {
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
static int names_verdict(module_state *st, core *c, const ntidx_query_options *o, int strict, int level)
{
    if (!o->provider && !o->event_name && !o->has_event_id)
        return 0;
    ntidx_buf msg = {0};
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = core_index(c);
    if (rc == NTIDX_OK)
        rc = ntidx_index_check_names(c->t, c->x, o, &msg);
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

/* ------------------------------------------------------------------ */
/* Query: the iterator of Trace.query()                                */
/* ------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    core *c;
    ntidx_query *q;
    PyObject *metas;   /* definition offset -> Meta */
    uint64_t last_off;
    MetaObject *last_meta;
    int busy, done;
    /* its name filters, for a warning when it found nothing (names_verdict()) */
    ntidx_query_options names;
    char *provider, *event_name;
    uint64_t returned;
    int warn_level;
} QueryObject;

static void query_dealloc(PyObject *self)
{
    QueryObject *o = (QueryObject *)self;
    PyTypeObject *tp = Py_TYPE(self);
    ntidx_query_close(&o->q);
    Py_XDECREF(o->metas);
    Py_XDECREF(o->last_meta);
    free(o->provider);
    free(o->event_name);
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
    if (o->done || !o->q)
        return NULL;
    if (o->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this query is being read by another thread (give each thread its own)");
        return NULL;
    }
    o->busy = 1;
    const ntidx_event *e = NULL;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = ntidx_query_next(o->q, &e);
    Py_END_ALLOW_THREADS
    o->busy = 0;
    if (rc < 0)
        raise_last(st, rc);
    if (notices_keep_error(st, o->c) < 0 || rc <= 0) {
        o->done = 1;
        ntidx_query_close(&o->q);
        if (rc == 0 && !o->returned && !PyErr_Occurred())
            names_verdict(st, o->c, &o->names, 0, o->warn_level); /* nothing found: a name that names nothing? */
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
    ntidx_query_close(&o->q);
    o->done = 1;
    Py_RETURN_NONE;
}

static PyObject *query_stats(PyObject *self, PyObject *unused)
{
    QueryObject *o = (QueryObject *)self;
    if (!o->q)
        Py_RETURN_NONE;
    const ntidx_query_stats *s = ntidx_query_get_stats(o->q);
    return Py_BuildValue("{sKsKsKsKsK}", "regions_visited", (unsigned long long)s->regions_visited, "blocks_read",
                         (unsigned long long)s->blocks_read, "event_blocks_read",
                         (unsigned long long)s->event_blocks_read, "bytes_read", (unsigned long long)s->bytes_read,
                         "dropped_events", (unsigned long long)s->dropped_events);
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
        rc = ntidx_stats_indexed(c->t, c->x, &so, &s);
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

static PyObject *open_query(module_state *st, core *c, qargs *a, int warn_level)
{
    ntidx_query *q = NULL;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = core_index(c);
    if (rc == NTIDX_OK)
        rc = ntidx_query_open(c->t, c->x, &a->o, &q);
    Py_END_ALLOW_THREADS
    if (rc < 0)
        return finish(st, c, rc, NULL);
    QueryObject *o = PyObject_New(QueryObject, st->query_type);
    if (!o) {
        ntidx_query_close(&q);
        return finish(st, c, 0, NULL);
    }
    o->c = core_ref(c);
    o->q = q;
    o->metas = PyDict_New();
    o->last_meta = NULL;
    o->last_off = 0;
    o->busy = o->done = 0;
    ntidx_query_options_defaults(&o->names);
    o->provider = a->o.provider ? strdup(a->o.provider) : NULL;
    o->event_name = a->o.event_name ? strdup(a->o.event_name) : NULL;
    o->names.provider = o->provider;
    o->names.event_name = o->event_name;
    o->names.has_event_id = a->o.has_event_id;
    o->names.event_id = a->o.event_id;
    o->returned = 0;
    o->warn_level = warn_level;
    if (!o->metas || (a->o.provider && !o->provider) || (a->o.event_name && !o->event_name)) {
        if (o->metas)
            PyErr_NoMemory();
        Py_CLEAR(o);
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
    if (strict && names_verdict(st, c, &a.o, 1, 1) < 0) {
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
    if (strict && names_verdict(st, c, &a.o, 1, 1) < 0) {
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
    uint64_t n = ntidx_index_region_count(c->x);
    for (uint64_t i = 0; list && i < n; i++) {
        ntidx_region r;
        if ((rc = ntidx_index_region(c->x, i, &r)) < 0) {
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
    if (strict && names_verdict(st, c, &a.o, 1, 1) < 0) {
        qargs_free(&a);
        core_unref(c);
        return NULL;
    }
    ntidx_type_list *l = NULL;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = core_index(c);
    if (rc == NTIDX_OK)
        rc = ntidx_index_types(c->t, c->x, &l);
    Py_END_ALLOW_THREADS
    PyObject *out = rc == NTIDX_OK ? PyList_New(0) : NULL;
    for (size_t i = 0; out && i < ntidx_type_list_count(l); i++) {
        const ntidx_metadata *m = ntidx_type_list_at(l, i);
        /* the filters of a query (providers without regard to case, as EventPipe compares them) */
        if ((a.o.provider && !ascii_ieq(a.o.provider, m->provider)) ||
            (a.o.has_event_id && m->event_id != a.o.event_id) ||
            (a.o.event_name && !ntidx_metadata_matches_name(m, a.o.event_name)))
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
    ntidx_type_list_free(&l);
    if (out && PyList_GET_SIZE(out) == 0 && names_verdict(st, c, &a.o, 0, 1) < 0)
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
    if (rc == NTIDX_OK)
        rc = ntidx_index_check_names(c->t, c->x, &a.o, &msg);
    Py_END_ALLOW_THREADS
    qargs_free(&a);
    PyObject *r = rc == 1 ? str_of(msg.data, msg.len) : rc == 0 ? Py_NewRef(Py_None) : NULL;
    ntidx_buf_free(&msg);
    return finish(st, c, rc < 0 ? rc : 0, r);
}

/* ------------------------------------------------------------------ */
/* Columns of Trace.frame()                                            */
/* ------------------------------------------------------------------ */

/* Growing arrays of one call, owned here until handed to Buffers. */
typedef struct colset {
    size_t n, cap;
    uint64_t *ts, *thread, *capture, *offset, *ferr;
    uint32_t *type, *seq, *stack;
    double *time_s;
    size_t nf, capf;           /* field columns allocated */
    ntidx_field_column *f;
    ntidx_field_column *view;  /* capf entries: the field columns from the next row on */
} colset;

static void colset_free(colset *c)
{
    free(c->ts);
    free(c->thread);
    free(c->capture);
    free(c->offset);
    free(c->ferr);
    free(c->type);
    free(c->seq);
    free(c->stack);
    free(c->time_s);
    for (size_t j = 0; j < c->nf; j++) {
        free(c->f[j].kind);
        free(c->f[j].cell);
    }
    free(c->f);
    free(c->view);
    memset(c, 0, sizeof *c);
}

static int grow_to(void **p, size_t rows, size_t size)
{
    size_t bytes = rows * size;
    void *np = realloc(*p, bytes != 0 ? bytes : 1);
    if (!np)
        return -1;
    *p = np;
    return 0;
}

/* Room for `rows` rows in every column (field columns included). */
static int colset_rows(colset *c, size_t rows, int want_ferr)
{
    if (grow_to((void **)&c->ts, rows, 8) || grow_to((void **)&c->thread, rows, 8) ||
        grow_to((void **)&c->capture, rows, 8) || grow_to((void **)&c->offset, rows, 8) ||
        (want_ferr && grow_to((void **)&c->ferr, rows, 8)) || grow_to((void **)&c->type, rows, 4) ||
        grow_to((void **)&c->seq, rows, 4) || grow_to((void **)&c->stack, rows, 4))
        return -1;
    for (size_t j = 0; j < c->nf; j++)
        if (grow_to((void **)&c->f[j].kind, rows, 1) || grow_to((void **)&c->f[j].cell, rows, sizeof(ntidx_cell)))
            return -1;
    c->cap = rows;
    return 0;
}

/* Field columns up to `count`; a new one is MISSING in the rows filled so far. */
static int colset_fields(colset *c, size_t count)
{
    if (count > c->capf) {
        size_t n = c->capf ? c->capf : 8;
        while (n < count)
            n *= 2;
        ntidx_field_column *nf = realloc(c->f, n * sizeof *nf);
        if (!nf)
            return -1;
        c->f = nf;
        ntidx_field_column *nv = realloc(c->view, n * sizeof *nv);
        if (!nv)
            return -1;
        c->view = nv;
        c->capf = n;
    }
    for (; c->nf < count; c->nf++) {
        ntidx_field_column *f = &c->f[c->nf];
        f->kind = malloc(c->cap ? c->cap : 1);
        f->cell = malloc((c->cap ? c->cap : 1) * sizeof *f->cell);
        if (!f->kind || !f->cell) {
            free(f->kind);
            free(f->cell);
            return -1;
        }
        memset(f->kind, NTIDX_BATCH_MISSING, c->n);
    }
    return 0;
}

typedef struct frame_job {
    ntidx_trace *t;
    ntidx_index *x;
    ntidx_batch *b;
    colset cs;
    int want_fields;
} frame_job;

/* The whole fill, without the GIL: 0 or the library's error (said on this thread). */
static int frame_fill(frame_job *j)
{
    colset *c = &j->cs;
    if (colset_rows(c, 1 << 16, j->want_fields) < 0 || colset_fields(c, ntidx_batch_field_count(j->b)) < 0)
        return NTIDX_E_NOMEM;
    for (;;) {
        if (c->n == c->cap && colset_rows(c, c->cap * 2, j->want_fields) < 0)
            return NTIDX_E_NOMEM;
        size_t n = c->n;
        for (size_t k = 0; k < c->nf; k++)
            c->view[k] = (ntidx_field_column){c->f[k].kind + n, c->f[k].cell + n};
        ntidx_columns cols = {.capacity = c->cap - n,
                              .timestamp = c->ts + n,
                              .type = c->type + n,
                              .thread = c->thread + n,
                              .capture_thread = c->capture + n,
                              .sequence = c->seq + n,
                              .stack_id = c->stack + n,
                              .offset = c->offset + n,
                              .field_error = j->want_fields ? c->ferr + n : NULL,
                              .fields = c->view,
                              .field_capacity = c->nf};
        size_t rows;
        int rc = ntidx_batch_fill(j->b, &cols, &rows);
        c->n += rows;
        if (rc < 0)
            return rc;
        if (rc == 0)
            break;
        if (ntidx_batch_field_count(j->b) > c->nf && colset_fields(c, ntidx_batch_field_count(j->b)) < 0)
            return NTIDX_E_NOMEM; /* new columns met (fields="all"): room, and on */
    }
    /* seconds since the sync time, as ntidx_ticks_to_seconds() gives them */
    c->time_s = malloc((c->n ? c->n : 1) * sizeof *c->time_s);
    if (!c->time_s)
        return NTIDX_E_NOMEM;
    for (size_t i = 0; i < c->n; i++)
        c->time_s[i] = ntidx_ticks_to_seconds(j->t, c->ts[i]);
    return 0;
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

/*
 * Trace._columns(start, end, provider, event, thread, fields, regions, order): the raw columns of
 * Trace.frame() as a dict: "rows"; Buffers "ts" (u64), "time_s" (f64), "type" (u32), "thread", "capture_thread",
 * "offset" (u64), "seq", "stack_id" (u32); "types": (provider, event_id, event_name, version) per type id;
 * with fields: "fields": [(name, kinds (u8), cells (8 bytes))], "field_error" (u64 string numbers), "strings"
 * (the string table, number k at index k-1).
 */
static PyObject *trace_columns(PyObject *self_obj, PyObject *args, PyObject *kw)
{
    module_state *st = state_of(self_obj);
    static char *names[] = {"start", "end", "provider", "event", "thread", "fields", "regions", "order", "strict", NULL};
    pyq p = {0};
    PyObject *fields = Py_None;
    int strict = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OOOOOOOOp:_columns", names, &p.start, &p.end, &p.provider, &p.event,
                                     &p.thread, &fields, &p.regions, &p.order, &strict))
        return NULL;
    qargs a;
    core *c = begin_call(self_obj, st, &p, &a);
    if (!c)
        return NULL;
    if (strict && names_verdict(st, c, &a.o, 1, 2) < 0) {
        qargs_free(&a);
        core_unref(c);
        return NULL;
    }
    ntidx_batch_options bo;
    ntidx_batch_options_defaults(&bo);
    const char **fnames = NULL;
    PyObject *fseq = NULL;
    if (fields != Py_None) {
        if (PyUnicode_Check(fields)) {
            const char *s = PyUnicode_AsUTF8(fields);
            if (!s || strcmp(s, "all")) {
                PyErr_SetString(PyExc_ValueError, "fields: a list of field names, or \"all\"");
                goto fail_early;
            }
            bo.all_fields = 1;
        } else {
            fseq = PySequence_Fast(fields, "fields: a list of field names, or \"all\"");
            if (!fseq)
                goto fail_early;
            Py_ssize_t n = PySequence_Fast_GET_SIZE(fseq);
            fnames = calloc((size_t)(n ? n : 1), sizeof *fnames);
            if (!fnames) {
                PyErr_NoMemory();
                goto fail_early;
            }
            for (Py_ssize_t i = 0; i < n; i++) {
                PyObject *x = PySequence_Fast_GET_ITEM(fseq, i);
                if (!PyUnicode_Check(x) || !(fnames[i] = PyUnicode_AsUTF8(x))) {
                    if (!PyErr_Occurred())
                        PyErr_Format(PyExc_TypeError, "fields: %R is not a field name", x);
                    goto fail_early;
                }
            }
            bo.fields = fnames;
            bo.field_count = (size_t)n;
        }
    }
    frame_job j;
    memset(&j, 0, sizeof j);
    j.want_fields = fields != Py_None;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = core_index(c);
    if (rc == NTIDX_OK) {
        j.t = c->t;
        j.x = c->x;
        rc = ntidx_batch_open(c->t, c->x, &a.o, &bo, &j.b);
    }
    if (rc == NTIDX_OK)
        rc = frame_fill(&j);
    Py_END_ALLOW_THREADS
    free(fnames);
    fnames = NULL;
    Py_CLEAR(fseq);
    if (rc == NTIDX_OK && j.cs.n == 0 && names_verdict(st, c, &a.o, 0, 2) < 0) { /* frame() -> _columns() */
        qargs_free(&a);
        ntidx_batch_close(&j.b);
        colset_free(&j.cs);
        return finish(st, c, 0, NULL); /* a warning the filters made an error */
    }
    qargs_free(&a);
    if (rc < 0) {
        ntidx_batch_close(&j.b);
        colset_free(&j.cs);
        return finish(st, c, rc, NULL);
    }
    colset *cs = &j.cs;
    size_t n = cs->n;
    PyObject *d = PyDict_New();
    if (!d || set_new(d, "rows", PyLong_FromSize_t(n)) < 0 ||
        set_new(d, "ts", column(st, (void **)&cs->ts, n, 8, "Q")) < 0 ||
        set_new(d, "time_s", column(st, (void **)&cs->time_s, n, 8, "d")) < 0 ||
        set_new(d, "type", column(st, (void **)&cs->type, n, 4, "I")) < 0 ||
        set_new(d, "thread", column(st, (void **)&cs->thread, n, 8, "Q")) < 0 ||
        set_new(d, "capture_thread", column(st, (void **)&cs->capture, n, 8, "Q")) < 0 ||
        set_new(d, "seq", column(st, (void **)&cs->seq, n, 4, "I")) < 0 ||
        set_new(d, "stack_id", column(st, (void **)&cs->stack, n, 4, "I")) < 0 ||
        set_new(d, "offset", column(st, (void **)&cs->offset, n, 8, "Q")) < 0)
        goto fail;
    PyObject *types = PyList_New(0);
    if (set_new(d, "types", Py_XNewRef(types)) < 0) {
        Py_XDECREF(types);
        goto fail;
    }
    for (size_t i = 0; i < ntidx_batch_type_count(j.b); i++) {
        const ntidx_batch_type *ty = ntidx_batch_type_at(j.b, i);
        PyObject *t = Py_BuildValue("(NINI)", cstr_of(ty->provider), (unsigned)ty->event_id, cstr_of(ty->event_name),
                                    (unsigned)ty->version);
        if (!t || PyList_Append(types, t) < 0) {
            Py_XDECREF(t);
            Py_DECREF(types);
            goto fail;
        }
        Py_DECREF(t);
    }
    Py_DECREF(types);
    if (j.want_fields) {
        PyObject *fl = PyList_New(0);
        if (set_new(d, "fields", Py_XNewRef(fl)) < 0) {
            Py_XDECREF(fl);
            goto fail;
        }
        for (size_t k = 0; k < ntidx_batch_field_count(j.b) && k < cs->nf; k++) {
            PyObject *kinds = column(st, (void **)&cs->f[k].kind, n, 1, "B");
            PyObject *cells = kinds ? column(st, (void **)&cs->f[k].cell, n, 8, "Q") : NULL;
            /* Py_BuildValue() takes the N objects also when it fails */
            PyObject *t = cells ? Py_BuildValue("(NNN)", cstr_of(ntidx_batch_field_name(j.b, k)), kinds, cells) : NULL;
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
        if (set_new(d, "field_error", column(st, (void **)&cs->ferr, n, 8, "Q")) < 0)
            goto fail;
        uint64_t ns = ntidx_batch_string_count(j.b);
        PyObject *strs = PyList_New((Py_ssize_t)ns);
        for (uint64_t i = 0; strs && i < ns; i++) {
            size_t len;
            const char *s = ntidx_batch_string(j.b, i + 1, &len);
            PyObject *u = str_of(s, len);
            if (!u) {
                Py_CLEAR(strs);
                break;
            }
            PyList_SET_ITEM(strs, (Py_ssize_t)i, u);
        }
        if (set_new(d, "strings", strs) < 0)
            goto fail;
    }
    ntidx_batch_close(&j.b);
    colset_free(cs);
    return finish(st, c, 0, d);
fail:
    Py_XDECREF(d);
    ntidx_batch_close(&j.b);
    colset_free(cs);
    return finish(st, c, 0, NULL);
fail_early:
    free(fnames);
    Py_XDECREF(fseq);
    qargs_free(&a);
    core_unref(c);
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
        rc = ntidx_analyze(name, c->t, c->x, &o, &j.a);
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
    ntidx_index *x = c->x;
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
    const char *p = c && c->x ? ntidx_index_file(c->x) : NULL;
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
    {"_columns", (PyCFunction)(void (*)(void))trace_columns, METH_VARARGS | METH_KEYWORDS,
     "The raw columns of Trace.frame() (filled in C from the library's batch interface)."},
    {"_analyze", (PyCFunction)(void (*)(void))trace_analyze, METH_VARARGS | METH_KEYWORDS,
     "_analyze(name, start, end, thread, lookahead, threads): an analysis's tables as filled columns."},
    {"_unix_ns", trace_unix_ns, METH_O, "ticks -> nanoseconds since the Unix epoch (UTC), or None."},
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

static PyMethodDef mod_methods[] = {
    {"_set_notice_hook", mod_set_notice_hook, METH_O, "fn(action, why, path): what the index maintenance did."},
    {"_analyses", mod_analyses, METH_NOARGS, "The library's analyses: [(name, summary, [(table, [(column, type, "
     "description)])])]."},
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
        !(st->trace_type = (PyTypeObject *)PyType_FromModuleAndSpec(m, &trace_spec, NULL)))
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
