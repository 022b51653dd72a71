/*
 * The symbolizer's state, shared by the files of ops that make one:
 * symbolizer.c reads the trace's method and module events and replays them
 * into the lookup table; symbol_cache.c saves that table beside the index
 * and maps it back (docs/symbol-cache.md), so that a window's frames are
 * named without reading the whole trace's method events again.
 */
#ifndef NTX_SYMBOLIZER_INTERNAL_H
#define NTX_SYMBOLIZER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "idmap.h"
#include "ntidx/symbols.h"
#include "ntidx/ntidx.h"
#include "ops_internal.h"

#define WHEN_END UINT64_MAX    /* a jitted load's entry: it names what is left at the end */

/*
 * The version of the rules a table is made by (which events name which
 * addresses, how names are spelt): a saved table made by other rules is
 * made again. Raise it with every change to what symbolizer.c puts in the
 * table.
 */
#define NTX_SYMBOL_RULES 1u

/* What was saved (symbol_cache.c): the table's arrays point into this mapping, which close unmaps. */
typedef struct ntx_symbol_map {
    void *base;
    size_t len;
} ntx_symbol_map;

/*
 * One method event, 32 bytes: a trace can report millions of them (the
 * generated 10 GB trace: 6.2 million method loads), and a batch worker's
 * memory is watched. Names are stored once each in `names`.
 */
typedef struct method {
    uint64_t start;
    uint64_t when;  /* reading and replay: the event's timestamp; then a resolving event's, or WHEN_END */
    uint32_t size;
    uint32_t name;  /* offset into names: "Namespace.Method(args)" */
    uint32_t file;  /* reading: its ModuleID's index in ids; then its module file */
    uint32_t seq;   /* the event's place in file order (SEQ_JIT while reading); a jitted load's place in the list */
} method;

/* A module event (few: one or two per assembly). */
typedef struct modev {
    uint64_t ts, id;
    uint32_t seq, kind;
    size_t il, native; /* offsets of NUL-terminated paths in `paths` */
} modev;

/* TraceEvent's TraceModuleFile: a path (NULL: none yet) and, in the end, its name's index in modnames. */
typedef struct mfile {
    char *path;
    uint32_t name_id;
} mfile;

/* TraceEvent's TraceManagedModule, for the replay. */
typedef struct mmod {
    uint64_t load, unload;
    uint32_t file;
} mmod;

/* The modules of one ModuleID, in TraceEvent's list order. */
typedef struct mgroup {
    uint32_t *mods;
    uint32_t n, cap;
} mgroup;

struct ntidx_symbolizer {
    method *methods;
    size_t nmethods, capmethods;
    ntidx_buf names;    /* NUL-terminated method names, each once */
    ntx_idmap name_at;  /* reading: xxh3 of a name -> its offset + 1 (a collision just stores the name again) */
    uint64_t *ids;      /* reading: the ModuleIDs of the method events */
    size_t nids, capids;
    ntx_idmap id_index; /* reading: ModuleID -> index in ids + 1 */
    modev *modevs;
    size_t nmodevs, capmodevs;
    ntidx_buf paths;
    ntidx_values *values;
    uint32_t seq;
    uint64_t session_start; /* the trace's sync time: ModuleLoad's load time */
    /* the replay's modules, then the module files the table points at */
    mfile *files;
    size_t nfiles, capfiles;
    ntx_idmap file_by_path; /* xxh3 of the lower-cased path -> file + 1 */
    mmod *mods;
    size_t nmods, capmods;
    mgroup *groups;
    size_t ngroups, capgroups;
    ntx_idmap group_of;     /* ModuleID -> group + 1 */
    char **modnames;        /* distinct module names */
    size_t nmodnames;
    uint64_t max_size;      /* the largest method: no entry further below an address than this covers it */
    ntx_symbol_map map;     /* loaded from the cache: methods, names, paths and module names live there */
};

/*
 * symbol_cache.c (with ntx_symbol_cache_usable() and ntx_symbol_cache_save()
 * in ops_internal.h). ntx_symbol_cache_load(): the table saved for this
 * index (t's, x's), checked; 1 loaded (*out set), 0 none to use (none saved,
 * another index's, other rules, damaged: the caller makes it again), or
 * NTIDX_E_NOMEM. ntx_symbol_cache_unmap(): a loaded table's mapping, at close.
 */
int ntx_symbol_cache_load(const ntidx_trace *t, const ntidx_index *x, ntidx_symbolizer **out);
void ntx_symbol_cache_unmap(ntidx_symbolizer *s);

#endif
