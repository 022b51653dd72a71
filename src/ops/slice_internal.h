/*
 * What the files of ntidx_slice() share (slice.c: the events block by block
 * and the public calls; slice_input.c: the input's blocks and the walker of
 * definitions; slice_defs.c: the definitions the output needs). slice.c
 * says how a slice is made.
 */
#ifndef NTIDX_SLICE_INTERNAL_H
#define NTIDX_SLICE_INTERNAL_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arena.h"
#include "error.h"
#include "event_header.h"
#include "hash.h"
#include "idmap.h"
#include "index_tables.h"
#include "index_walk.h"
#include "le.h"
#include "metadata.h"
#include "ntidx/output.h"
#include "ntidx/slice.h"
#include "ntidx/writer.h"
#include "search.h"
#include "sp_flush.h"
#include "trace_blocks.h"

/* An idmap with its entries in an arena, cleared together. */
typedef struct sl_map {
    ntx_idmap m;
    ntx_arena a;
} sl_map;

static inline void map_init(sl_map *m)
{
    ntx_idmap_init(&m->m);
    ntx_arena_init(&m->a);
}

static inline void map_free(sl_map *m)
{
    ntx_idmap_free(&m->m);
    ntx_arena_free(&m->a);
}

static inline void map_clear(sl_map *m)
{
    ntx_idmap_clear(&m->m);
    ntx_arena_free(&m->a);
}

/* The entry of `key`, created zeroed when absent (*fresh = 1); NULL when out of memory. */
static inline void *map_slot(sl_map *m, uint64_t key, size_t size, int *fresh)
{
    void *v = ntx_idmap_get(&m->m, key);
    *fresh = v == NULL;
    if (v)
        return v;
    v = ntx_arena_alloc(&m->a, size);
    if (!v || ntx_idmap_put(&m->m, key, v) != 0)
        return NULL;
    return v;
}

typedef struct sl_def {
    uint64_t off;  /* file offset of the definition (metadata, V6 thread row) */
    uint32_t size; /* bytes of it (V6 thread rows; V3-V5 metadata payload sizes) */
} sl_def;

typedef struct sl_ref {
    const uint8_t *p; /* stack or label list bytes in the mapping */
    uint32_t size;
} sl_ref;

typedef struct sl_v3stack {
    const uint8_t *p;
    uint32_t size, id;
    struct sl_v3stack *next;
} sl_v3stack;

/* An event waiting for the end of its block; pointers into the mapping stay valid. */
typedef struct sl_event {
    ntidx_event e; /* metadata and thread cleared: the reader's caches move on */
    uint64_t meta_def;
} sl_event;

typedef struct slicer {
    ntidx_trace *t;
    const uint8_t *data;  /* the trace's bytes (ntidx_trace_data()) */
    uint64_t size;
    const ntidx_index *x;
    ntidx_query_options qo;
    ntidx_slice_options so;
    ntidx_writer *w;
    const char *out_path; /* NULL in memory */
    ntidx_query *q;
    int v6, v3;
    ntx_err err;
    int err_is_output;    /* the error is about the output, not the trace */
    ntidx_slice_stats st;
    uint64_t own_bytes; /* blocks the slicer decoded itself */
    int started;        /* an event was taken: sequence points are written from now on */

    /* the input block being gathered */
    int have_block;
    uint64_t block;
    /* The capture thread of the last event in the writer's pending event block (UINT64_MAX: none). */
    uint64_t pending_capture;
    sl_event *evs;
    size_t nev, evcap;

    /* the sequence points and V6 thread definitions before the block being gathered (index_walk.h) */
    ntx_defs_walk walk;

    /* output state */
    sl_map meta_out;   /* metadata id -> sl_def (off) defined in the output */
    sl_map stack_out;  /* stack id -> sl_ref, this output region */
    sl_map label_out;  /* label list id -> sl_ref, this output region */
    sl_map thread_out; /* V6 thread index -> sl_def (row offset) */
    sl_map seen;       /* V4/V5: capture thread ids with written events */
    /* input state */
    sl_map thread_in;  /* V6 thread index -> sl_def (row offset, size) */
    sl_map msize;      /* V3-V5 metadata payload offset -> sl_def (size) */
    sl_map v3stacks;   /* V3: xxh3 of stack bytes -> sl_v3stack chain */
    uint32_t v3_next_stack;

    ntidx_thread_seq *list;
    size_t list_len, list_cap;
    struct sl_need *need; /* stacks or label lists a block needs */
    size_t needcap;
} slicer;

/* Record an error (the first one wins) and return its code. */
#define FAIL(s, code, ...) ntx_err_set(&(s)->err, (code), __VA_ARGS__)

static inline int nomem(slicer *s) { return FAIL(s, NTIDX_E_NOMEM, "out of memory"); }

/* A writer call failed: keep its code; the error is about the output. */
static inline int wfail(slicer *s, int rc, const char *what)
{
    if (!s->err.code) {
        s->err_is_output = 1;
        if (rc == NTIDX_E_WRITE || rc == NTIDX_E_IO)
            ntx_err_set(&s->err, rc, "cannot write the slice (%s): %s", what, strerror(errno));
        else
            ntx_err_set(&s->err, rc, "cannot write the slice (%s): %s", what, ntidx_strerror(rc));
    }
    return s->err.code;
}

/* slice_input.c: the input's blocks through the index, and the walker of the definitions before them. */
/* Index of the block holding file offset `off` (the last block starting at or before it). */
uint64_t sl_block_at(const ntidx_index *x, uint64_t off);
/* Read block i; `count`: add it to the bytes the slicer read besides the query (sl_read_block: counted). */
int sl_read_block_counted(slicer *s, uint64_t i, ntidx_block *b, int count);
int sl_read_block(slicer *s, uint64_t i, ntidx_block *b);
/* Rows of an event block, or -1 when it cannot be decoded (then it is not copied). */
int64_t sl_count_rows(slicer *s, const ntidx_block *b);
/* Apply every sequence point and V6 thread definition before block j (index_walk.h). */
int sl_walk_to(slicer *s, uint64_t j);

/* slice_defs.c: the definitions the output needs, written once. */
/* Metadata row `id` defined at `def` in the input, written to the output. */
int sl_write_metadata(slicer *s, uint32_t id, uint64_t def);
/* Metadata and V6 threads of event `ev`, written unless the output holds them already. */
int sl_define_for(slicer *s, sl_event *ev);
/* The stacks (label: label lists) the gathered events of the block need, written unless the output holds them. */
int sl_define_refs(slicer *s, int label);

#endif
