/*
 * ntidx symbolizer: instruction pointers of stacks to the methods and
 * modules the .NET runtime reported.
 *
 * The runtime describes each method it compiles (Method/LoadVerbose, id 143,
 * and Method/UnloadVerbose, 144, of Microsoft-Windows-DotNETRuntime) and, at
 * the end of a trace, every method still loaded (the rundown provider
 * Microsoft-Windows-DotNETRuntimeRundown: Method/DCStartVerbose and
 * DCStopVerbose, the same ids) with MethodStartAddress, MethodSize,
 * MethodNamespace, MethodName, MethodSignature and ModuleID; and its modules
 * (Loader ids 152-154 of both providers) with ModuleID and ModuleILPath. A
 * symbolizer reads those events of the whole trace once (the rundown sits at
 * the end, after any window; with a --full index, one query per event type
 * whose block filters skip the rest) and answers lookups in O(log methods).
 *
 * Names are what PerfView shows: "Namespace.Name(args)", the argument list
 * taken from the signature's parenthesised part; modules are the file name
 * of the IL path without its extension ("System.Private.CoreLib").
 *
 * Frames above the leaf of a stack are return addresses: look them up with
 * `return_address` set, which searches one byte before the address (a call
 * can be a method's last instruction).
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
    const char *method;        /**< "Namespace.Name(args)"; NULL when the address is in no known method */
    const char *module;        /**< "System.Private.CoreLib" (the IL path's file name without extension); NULL when unknown */
    const char *module_path;   /**< the module's IL path; NULL when unknown */
    uint64_t method_start;     /**< the method's first byte */
    uint64_t method_size;      /**< its bytes */
    uint64_t method_index;     /**< a number per distinct method (0 .. ntidx_symbolizer_method_count() - 1) */
    uint64_t reserved[4];
} ntidx_symbol;

/**
 * Read the trace's method and module events. `x` may be NULL (one pass over
 * the whole trace); with a --full index only the blocks that may hold those
 * events are read.
 * @return NTIDX_OK; NTIDX_E_NOMEM; the reader's and queries' errors.
 */
NTIDX_NODISCARD NTIDX_API int ntidx_symbolizer_open(ntidx_trace *t, const ntidx_index *x, ntidx_symbolizer **out);

/**
 * The method (and module) holding `ip`.
 * @return 1 found (*out filled), 0 not in any known method (*out cleared).
 */
NTIDX_API int ntidx_symbolizer_lookup(const ntidx_symbolizer *s, uint64_t ip, int return_address, ntidx_symbol *out);

/** Methods known (distinct address ranges). */
NTIDX_API uint64_t ntidx_symbolizer_method_count(const ntidx_symbolizer *s);

NTIDX_API void ntidx_symbolizer_close(ntidx_symbolizer **s);

#ifdef __cplusplus
}
#endif

#endif /* NTIDX_SYMBOLS_H */
