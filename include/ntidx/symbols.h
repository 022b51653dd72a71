/*
 * ntidx symbolizer: instruction pointers of stacks to the methods and
 * modules the .NET runtime reported, named as TraceEvent's stack sources
 * name them (PerfView, dotnet-trace's speedscope export): a frame is
 * "module!Namespace.Name(args)", and an address no method covers "?!?".
 *
 * The runtime describes the methods it compiles (Method/LoadVerbose, id 143,
 * and Method/UnloadVerbose, 144, of Microsoft-Windows-DotNETRuntime) and, at
 * the end of a trace, every method still loaded (the rundown provider
 * Microsoft-Windows-DotNETRuntimeRundown: Method/DCStartVerbose and
 * DCStopVerbose, the same ids), with MethodStartAddress, MethodSize,
 * MethodNamespace, MethodName, MethodSignature and ModuleID; and its modules
 * (Loader/ModuleLoad and ModuleUnload, 152 and 153; the rundown's
 * ModuleDCStart and ModuleDCStop, 153 and 154) with ModuleID and ModuleILPath.
 * A symbolizer reads those events of the WHOLE trace once (the rundown sits
 * at the end, after any window: a window's frames are named by events past
 * it; with a --full index only the blocks that can hold them are read) and
 * answers lookups in O(log methods).
 *
 * Which method names an address, and the module's name, follow TraceEvent's
 * TraceLog, which resolves addresses as it reads the trace: an address seen
 * at time T takes the first method-unload or rundown event after T whose
 * range covers it, else the first jitted method load that does (so give
 * lookups the event's time: ntidx_symbolizer_lookup_at()); a method's module
 * is the one its ModuleID names at the event's time. Module names are the IL
 * path's file name without ".dll"/".exe", in lower case when the module's
 * load event came first (TraceEvent lower-cases the paths of the module files
 * it creates) and as spelled when TraceEvent met the module's methods first
 * (the rundown); "ManagedModule" when the trace never names the module (it
 * was loaded before the trace began and the trace has no rundown).
 * src/ops/symbolizer.c tells the rules and the few places where ntidx
 * departs from them.
 *
 * TraceEvent takes stack addresses as they are. A caller who wants the call
 * site of a return address (frames above the leaf; a call can be a method's
 * last instruction) passes `return_address`, which looks one byte before it;
 * TraceEvent's names come with 0.
 */
#ifndef NTIDX_SYMBOLS_H
#define NTIDX_SYMBOLS_H

#include "index.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ntidx_symbolizer ntidx_symbolizer;

/** What an instruction pointer is inside of. Strings live as long as the symbolizer. */
typedef struct ntidx_symbol {
    const char *method;        /**< "Namespace.Name(args)" (TraceEvent's: "." + Name when the namespace is empty);
                                    NULL when the address is in no known method */
    const char *module;        /**< TraceEvent's module name: "System.Private.CoreLib", "system.private.xml",
                                    "ManagedModule" (see above); NULL exactly when `method` is */
    const char *module_path;   /**< the module file's path as TraceEvent keeps it; NULL when the trace names none */
    uint64_t method_start;     /**< the method's first byte */
    uint64_t method_size;      /**< its bytes */
    uint64_t method_index;     /**< the method event that named it (0 .. ntidx_symbolizer_method_count() - 1) */
    uint64_t frame_id;         /**< equal for two lookups exactly when their frame names ("module!method") are;
                                    UINT64_MAX for an address no method covers ("?!?") */
    uint64_t reserved[3];
} ntidx_symbol;

/**
 * Read the trace's method and module events. `x` may be NULL (one pass over
 * the whole trace); with an index its regions are read in parallel, one
 * thread per online core, and with a --full index only the blocks that may
 * hold those events are read. Through an index kept in a file
 * (ntidx_index_file()), the table made is saved beside it (INDEX.sym) and
 * later calls map that back instead, checked, without reading the trace;
 * NTIDX_SYMBOL_CACHE=0 in the environment turns that off
 * (docs/symbol-cache.md).
 * @return NTIDX_OK; NTIDX_E_NOMEM; the reader's and queries' errors.
 */
NTIDX_NODISCARD NTIDX_API int ntidx_symbolizer_open(ntidx_trace *t, const ntidx_index *x, ntidx_symbolizer **out);

/**
 * The method (and module) holding `ip` in an event at time `ts` (raw ticks),
 * as TraceEvent names it.
 * @return 1 found (*out filled), 0 not in any known method (*out cleared,
 *         frame_id UINT64_MAX).
 */
NTIDX_API int ntidx_symbolizer_lookup_at(const ntidx_symbolizer *s, uint64_t ip, int return_address, uint64_t ts,
                                         ntidx_symbol *out);

/** ntidx_symbolizer_lookup_at() at time 0 (an address seen before every method event). */
NTIDX_API int ntidx_symbolizer_lookup(const ntidx_symbolizer *s, uint64_t ip, int return_address, ntidx_symbol *out);

/**
 * The frame's name as TraceEvent's stack source gives it: "module!method", or
 * "?!?" when `sym` names no method (NULL, or a lookup that found nothing).
 * @return as snprintf(): the name's length; `buf` holds as much as fits.
 */
NTIDX_API int ntidx_symbol_frame_name(const ntidx_symbol *sym, char *buf, size_t buflen);

/** Method events kept for lookups (a method reported by its load and by the rundown counts twice). */
NTIDX_API uint64_t ntidx_symbolizer_method_count(const ntidx_symbolizer *s);

NTIDX_API void ntidx_symbolizer_close(ntidx_symbolizer **s);

#ifdef __cplusplus
}
#endif

#endif /* NTIDX_SYMBOLS_H */
