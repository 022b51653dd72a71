/* What the operations share: the type listing without derived types (types.c). */
#ifndef NTX_OPS_INTERNAL_H
#define NTX_OPS_INTERNAL_H

#include "error.h"
#include "ntidx/index.h"

/*
 * ntidx_index_types() (t, x valid; *out set), and with `derived` 0 without the types only V6 label lists make
 * (their listing may read every event header): the types the definition blocks name. ntidx_index_check_names()
 * asks for those first. That reading runs on `threads` threads (0: one per core): the analyses pass their own
 * option, so that --threads 1 stays on one thread.
 */
typedef struct ntidx_type_list ntidx_type_list;
int ntx_index_types(ntidx_trace *t, const ntidx_index *x, int derived, unsigned threads, ntidx_type_list **out);

/*
 * ntidx_symbolizer_open() reading the index's regions on `threads` threads (0: one per core): the analyses
 * pass their own option, so that --threads 1 stays on one thread.
 */
typedef struct ntidx_symbolizer ntidx_symbolizer;
int ntx_symbolizer_open_threads(ntidx_trace *t, const ntidx_index *x, unsigned threads, ntidx_symbolizer **out);

/*
 * The symbolizer read along with another pass over the whole index (an
 * analysis's: one read of the trace instead of two). The pass reads the
 * index's regions in file order, all of them, cut into runs; it adds the
 * symbolizer's event types (ntx_symbolizer_types()) to its own (which must
 * not share any with them), gives each run a part (ntx_symbolizer_part_new())
 * and each event it reads, in file order, to its run's part first
 * (ntx_symbolizer_part_note(): 1 the part took it, an event of the
 * symbolizer's types; 0 not one of them; or NTIDX_E_NOMEM). The parts, in file
 * order, then make the symbolizer ntx_symbolizer_open_threads() would make
 * (ntx_symbolizer_join(), which closes them and sorts on `threads` threads, 0:
 * one per core: 0 or NTIDX_E_NOMEM).
 */
typedef struct ntx_event_type ntx_event_type; /* query_internal.h */
size_t ntx_symbolizer_types(ntx_event_type *out, size_t cap); /* how many there are; at most cap copied */
ntidx_symbolizer *ntx_symbolizer_part_new(const ntidx_trace *t); /* NULL: out of memory */
int ntx_symbolizer_part_note(ntidx_symbolizer *part, const ntidx_trace *t, const ntidx_event *e);
int ntx_symbolizer_join(ntidx_symbolizer **parts, size_t n, uint64_t session_start, unsigned threads,
                        ntidx_symbolizer **out);

/*
 * The symbolizer's table saved beside the index (symbol_cache.c,
 * docs/symbol-cache.md): ntx_symbolizer_open_threads() maps it back when it
 * is there and saves the table it made when not. ntx_symbol_cache_usable():
 * whether a saved table of t through x is there to map (its header checked
 * only): a pass that would read the method events along with its own for
 * the symbolizer need not. ntx_symbol_cache_save(): save one made otherwise
 * (ntx_symbolizer_join()); nothing when x is kept in no file,
 * NTIDX_SYMBOL_CACHE is 0, or the folder cannot be written (a cache: a
 * failure costs only time).
 */
int ntx_symbol_cache_usable(const ntidx_trace *t, const ntidx_index *x);
void ntx_symbol_cache_save(const ntidx_symbolizer *s, const ntidx_trace *t, const ntidx_index *x);

/*
 * ntidx_symbolizer_lookup_at(), and the times for which its answer for this address is the same: every ts in
 * [*valid_from, *valid_to) (what a resolving event at or before ts changes), so that a caller looking up the
 * frames of many samples can keep answers per address.
 */
typedef struct ntidx_symbol ntidx_symbol;
int ntx_symbolizer_lookup_span(const ntidx_symbolizer *s, uint64_t ip, int return_address, uint64_t ts,
                               ntidx_symbol *out, uint64_t *valid_from, uint64_t *valid_to);

/*
 * ntx_symbolizer_lookup_span() of return_address 0 through a memo of its
 * answers by address, each kept for the times it holds for (symbol_memo.c):
 * for a caller that looks up the same frames again and again, one memo per
 * thread. The answer is the memo's (valid until its next lookup) or
 * *scratch; *from and *to as ntx_symbolizer_lookup_span()'s. new: NULL out
 * of memory.
 */
typedef struct ntx_symbol_memo ntx_symbol_memo;
ntx_symbol_memo *ntx_symbol_memo_new(void);
void ntx_symbol_memo_free(ntx_symbol_memo *m);
const ntidx_symbol *ntx_symbol_memo_lookup(ntx_symbol_memo *m, const ntidx_symbolizer *sym, uint64_t ip, uint64_t ts,
                                           ntidx_symbol *scratch, uint64_t *from, uint64_t *to);

#endif
