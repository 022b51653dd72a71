/* What the operations share: index recovery (index_open.c). */
#ifndef NTX_OPS_INTERNAL_H
#define NTX_OPS_INTERNAL_H

#include "error.h"
#include "ntidx/index.h"

/*
 * `corrupt` failed a region check (`why`): rebuild it from `t` (a --full
 * index as --full, with the options ntidx_index_open() was given), save it
 * where it was loaded from (a failed save is a notice, not an error), tell
 * the notice callback, and publish it as the replacement every later call on
 * `corrupt` uses. *out: the index to go on with (another thread's, when it
 * recovered first). 0, or the build's error in `err`.
 */
int ntx_index_recover(ntidx_trace *t, const ntidx_index *corrupt, const ntx_err *why, const ntidx_index **out,
                      ntx_err *err);

/*
 * ntidx_index_types() (t, x valid; *out set), and with `derived` 0 without the types only V6 label lists make
 * (their listing may read every event header): the types the definition blocks name. ntidx_index_check_names()
 * asks for those first.
 */
typedef struct ntidx_type_list ntidx_type_list;
int ntx_index_types(ntidx_trace *t, const ntidx_index *x, int derived, ntidx_type_list **out);

#endif
