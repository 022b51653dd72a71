/*
 * ntidx: fast, bounds-checked reading of .nettrace / .netperf traces.
 *
 * This header is the manual of the library. Everything a program needs is
 * declared in include/ntidx/ (this file: traces, events, payload values;
 * stats.h: statistics, whole-trace, windowed and parallel, and the event
 * types of a trace; index.h: the side index, queries, seeks; slice.h;
 * symbols.h; writer.h; version.h); nothing from src/ is installed. How the
 * ABI is kept and versioned: docs/abi.md.
 *
 * Model
 * -----
 * A trace is a stream header followed by blocks (trace, event, metadata,
 * stack, thread, remove-thread, label-list, sequence-point, end-of-stream).
 * Four generations exist: V3 "NetPerf" (FastSerialization objects, metadata
 * inline in event blocks), V4 and V5 "NetTrace" (FastSerialization objects
 * with 4-byte alignment padding), and V6 (a 20-byte header and plain
 * size+kind blocks). ntidx maps the file read-only and reads every
 * generation through the same handles:
 *
 *   ntidx_trace   the mapped file, its header and trace-block facts;
 *   block walk    ntidx_trace_next_block(): the file as a sequence of
 *                 {kind, offset, size, payload} blocks, whatever generation;
 *   ntidx_reader  the event iterator: resolves each event's metadata,
 *                 thread, stack and label list through the caches the
 *                 format defines, in file order or time order;
 *   ntidx_values  an event's payload as typed values (integers, floats,
 *                 strings, GUIDs, times, byte arrays, arrays, objects).
 *
 * Conventions
 * -----------
 * - Functions that can fail return an int: 0 (NTIDX_OK) or a negative
 *   ntidx_error. Iterators return 1 for an item, 0 at the end, negative on
 *   error (the htslib convention). Results the caller must not ignore are
 *   marked NTIDX_NODISCARD.
 * - Errors: one way to learn why a call failed. When a call returns a
 *   negative code, ntidx_last_error() on the same thread gives its message
 *   ("FILE: offset N (0xN): what was wrong"), and ntidx_last_error_info()
 *   the same as parts (code, file, offset, what). See "Errors" below.
 * - Parameters: the handle a call works on comes first, its results come
 *   last. Constructors fill `T **out` as their last parameter and return an
 *   error code; on failure *out is NULL. Destructors take `T **`, accept
 *   NULL and set the pointer to NULL.
 * - Option structs are filled by a *_defaults() function first, then the
 *   caller changes the fields it wants. Each ends with reserved space that
 *   later versions give meaning to (zero meaning this version's behaviour),
 *   so a struct never changes size and a client built against this header
 *   keeps working with later libraries; a call given non-zero reserved
 *   fields returns NTIDX_E_INVALID_ARG.
 * - The other structs a caller allocates end with reserved space too: those
 *   the library fills in the caller's memory (ntidx_block, ntidx_label,
 *   ntidx_slice_stats, ...) get it zeroed, and those the caller fills for
 *   the writer (ntidx_metadata, ntidx_thread, ntidx_label, ntidx_event)
 *   must have it zero (start from `= {0}`, or a row the reader gave). The
 *   small structs handed over in arrays, whose size is the arrays' stride
 *   (ntidx_field, ntidx_keyvalue, ntidx_thread_seq, ntidx_systime,
 *   ntidx_field_column, ntidx_cell, ntidx_type_stat, ntidx_thread_stat,
 *   ntidx_dropped, ntidx_bucket, ntidx_column, ntidx_table), and ntidx_buf
 *   are frozen: they never change, a change being a new struct and new
 *   calls. Other structs the library allocates and returns by pointer grow
 *   only at their end. docs/abi.md has the rules and every size.
 * - The library never prints. Long operations report progress, and index
 *   maintenance its decisions, through optional callbacks.
 * - Every byte of a trace or an index is treated as untrusted. No input
 *   makes the library read outside the mapping, allocate more than the
 *   input could justify, or loop without progress.
 * - Offsets are 64-bit everywhere: traces larger than 4 GiB work.
 * - The examples (@code) are compiled and run by the test doc-examples
 *   (tests/examples/), each as the body of a function given what it may
 *   use without declaring it: `path` (a trace file), `t` (that trace,
 *   open), `x` (its index), `r` (a reader over t), `ev` (an event of t), `b`
 *   (a block of t), `from` and `to` (a window, raw ticks), `use(e)` (what
 *   the program does with an event) and `report(message)` (an error).
 *
 * Thread safety
 * -------------
 * - ntidx_trace: read-only once opened. Any number of threads may use one
 *   trace at once (readers, queries, indexes, statistics, block walks).
 * - ntidx_index (index.h): may be shared by threads once built or loaded.
 *   A lazily checked index (NTIDX_VERIFY_ON_USE) records the regions it has
 *   checked with atomic operations, safe under concurrent use; nothing else
 *   of an index changes once it is built or loaded: no call changes an index
 *   it is given (a corrupt region is NTIDX_E_INDEX_CORRUPT for every thread
 *   that meets it, and ntidx_index_recover() makes a new index). Closing it
 *   is not safe under use: close an index only when no thread uses it or
 *   anything opened over it.
 * - ntidx_reader, ntidx_query, ntidx_values, ntidx_symbolizer lookups: a
 *   reader or a query is used by one thread at a time (give each thread its
 *   own); a symbolizer may be shared for lookups once opened.
 * - Statistics (ntidx_stats_compute, ntidx_stats_indexed) run their own
 *   worker threads and return when they are done.
 * - The last-error record is per thread: concurrent calls never see each
 *   other's messages.
 *
 * A file that shrinks while it is read
 * ------------------------------------
 * A trace is read through a read-only mapping. A file truncated while it is
 * mapped (by another program, or rewritten in place) loses the pages past
 * its new end, and a read of one of them raises SIGBUS, which would kill the
 * process. The library guards its mappings instead: the first time it maps a
 * trace it installs one process-wide SIGBUS handler (SA_SIGINFO, once for all
 * threads). A fault inside a trace's mapping maps zero pages over the rest of
 * that mapping and notes where it happened; the read that faulted goes on,
 * on zeros (every byte of a trace is bounds-checked as untrusted, so zeros
 * are safe to decode), and the operation fails at its next checkpoint (each
 * block framed, each event handed out, each payload decoded, the end of a
 * read, any error) with NTIDX_E_SHRUNK: "TRACE: offset N (0xN): the file
 * shrank to M bytes while it was read (it had K bytes when opened)". (A page
 * that could not be read while the file kept its size, an I/O error, is
 * NTIDX_E_IO.) Nothing jumps out of the handler, so no lock, allocation or
 * worker thread is left behind, on any thread. From then on every operation
 * on that trace handle fails the same way; open the file again to read what
 * it now holds. No index is built from, or saved of, a trace that shrank
 * while it was read.
 * - A SIGBUS anywhere else goes to the handler that was installed before the
 *   library's, or takes the default action (the process dies, as it would
 *   have without the library).
 * - A program that installs a SIGBUS handler of its own after its first
 *   trace is open replaces the library's: it must pass the faults it does not
 *   handle to the handler it replaced (with SA_SIGINFO and the same siginfo),
 *   or put that one back. (cmocka, for one, installs its own around each test
 *   and then puts back the one it found there: the library's handler, when
 *   the first trace was opened inside a test, is gone after that test.)
 * - Pointers already handed out into a trace (payloads, stacks,
 *   ntidx_trace_data()) stay valid: past the fault they point at zeros.
 * - The bytes between the new end of the file and the end of its page read
 *   as zeros without any fault: what decodes from them is caught at the end
 *   of the read (the file's size is checked there, and on every error), so
 *   events from that last page, less than a page of bytes, may come out
 *   before the error does.
 * - Traces opened with ntidx_trace_open_memory() are the caller's bytes: not
 *   guarded. Nor is a loaded side index's mapping: ntidx replaces an index
 *   file by renaming a new one over it, never in place, but an index file
 *   truncated in place by another program while it is loaded still raises
 *   SIGBUS.
 */
#ifndef NTIDX_NTIDX_H
#define NTIDX_NTIDX_H

#include <stddef.h>
#include <stdint.h>

#include "ntidx/version.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(NTIDX_BUILDING_LIBRARY) && defined(__GNUC__)
#define NTIDX_API __attribute__((visibility("default")))
#else
#define NTIDX_API
#endif

/* A result that must be checked (a failed open, load or write ignored is a bug). */
#if defined(__GNUC__)
#define NTIDX_NODISCARD __attribute__((warn_unused_result))
#else
#define NTIDX_NODISCARD
#endif

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */

/** Every error code of the library, in one enum. Values are stable: scripts and bindings may rely on them. */
typedef enum ntidx_error {
    NTIDX_OK = 0,
    NTIDX_E_IO = -1,            /**< open/stat/mmap/read failed (errno's text in the message) */
    NTIDX_E_NOMEM = -2,         /**< an allocation failed */
    NTIDX_E_NOT_A_TRACE = -3,   /**< no NetTrace/NetPerf signature at offset 0 */
    NTIDX_E_VERSION = -4,       /**< a trace format version this library does not read */
    NTIDX_E_TRUNCATED = -5,     /**< data ends inside a structure */
    NTIDX_E_CORRUPT = -6,       /**< a value is impossible (bad tag, size, count...) */
    NTIDX_E_UNDEFINED_REF = -7, /**< an event names metadata/thread/stack/label list never defined */
    NTIDX_E_INVALID_ARG = -8,   /**< API misuse (NULL handle, bad option, non-zero reserved field) */
    NTIDX_E_PAYLOAD = -9,       /**< a payload does not fit its metadata (per event, not fatal) */
    NTIDX_E_UNSUPPORTED = -10,  /**< valid input using a feature not implemented */
    NTIDX_E_WRITE = -11,        /**< the writer could not write its output */
    NTIDX_E_INDEX_CORRUPT = -12,/**< bad magic, checksum, reserved field or structure: not a usable index */
    NTIDX_E_INDEX_STALE = -13,  /**< the trace changed in place since it was indexed */
    NTIDX_E_INDEX_VERSION = -14,/**< an index written by a newer ntidx (major version) */
    NTIDX_E_CANCELLED = -15,    /**< a progress callback asked to stop */
    NTIDX_E_SHRUNK = -16        /**< the file shrank while it was read ("A file that shrinks while it is read") */
} ntidx_error;

/** The most negative error code: codes run from NTIDX_E_LAST to NTIDX_OK. */
#define NTIDX_E_LAST NTIDX_E_SHRUNK

/** A short English description of an error code ("trace is truncated"). Never NULL. */
NTIDX_API const char *ntidx_strerror(int code);

/** The enumerator's name of an error code ("NTIDX_E_TRUNCATED"); "NTIDX_E_UNKNOWN" for other values. */
NTIDX_API const char *ntidx_error_name(int code);

/** Longest message ntidx_last_error() returns, NUL included (longer ones are cut). */
#define NTIDX_ERROR_MAX 1024

/** "No offset": the value of ntidx_error_info.offset when the error is not about a byte of a file. */
#define NTIDX_NO_OFFSET UINT64_MAX

/** Why the last failed call on this thread failed, in parts. */
typedef struct ntidx_error_info {
    int code;            /**< its ntidx_error (NTIDX_OK when no call has failed on this thread) */
    const char *file;    /**< the trace or index the error is about; "" when none */
    uint64_t offset;     /**< the byte of `file` where it went wrong, or NTIDX_NO_OFFSET */
    const char *what;    /**< what was wrong, without the file and the offset */
    const char *detail;  /**< the offset and what: "offset N (0xN): what" (without the file) */
    const char *message; /**< all of it, as ntidx_last_error() returns it */
} ntidx_error_info;

/**
 * The message of the last call that failed on this thread:
 * "FILE: offset N (0xN): what was wrong" (parts left out when unknown), at
 * most NTIDX_ERROR_MAX bytes with the NUL; "" when no call has failed yet.
 * Every function that returns a negative code sets it first, iterators
 * included; successful calls leave it as it was (test the return code, not
 * the message). Valid until the next failing call on the same thread.
 */
NTIDX_API const char *ntidx_last_error(void);

/** The same as parts; the strings live as long as ntidx_last_error()'s. Never NULL. */
NTIDX_API const ntidx_error_info *ntidx_last_error_info(void);

/** The library's version as "MAJOR.MINOR.PATCH" (the one it was built as; version.h has the header's). */
NTIDX_API const char *ntidx_version(void);

/**
 * The library's version as a number, NTIDX_MAKE_VERSION(major, minor, patch)
 * (0.1.0 is 100, 1.2.3 is 10203): to compare with the header's
 * NTIDX_VERSION_NUMBER (version.h) at run time, as a program that needs a
 * function added in a later release does before it calls it.
 * @code
 *   if (ntidx_version_number() < NTIDX_MAKE_VERSION(0, 1, 0))
 *       report("libntidx is older than 0.1.0");
 * @endcode
 */
NTIDX_API int ntidx_version_number(void);


/**
 * Progress of a long operation (index builds, statistics, slices, the
 * generator): `done` of `total` bytes of trace (the generator: bytes of its
 * size target, or events of its event target). Called from the thread that
 * started the operation. Return nonzero to cancel: the operation then
 * returns NTIDX_E_CANCELLED.
 */
typedef int (*ntidx_progress_fn)(void *ctx, uint64_t done, uint64_t total);
/* ------------------------------------------------------------------ */
/* Opening a trace                                                     */
/* ------------------------------------------------------------------ */

typedef struct ntidx_trace ntidx_trace;

/** UTC calendar time as the trace block stores it (SYSTEMTIME layout). */
typedef struct ntidx_systime {
    int16_t year, month, day_of_week, day, hour, minute, second, millisecond;
} ntidx_systime;

/** One key/value pair of a V6 trace block (UTF-8, not NUL-free guaranteed). */
typedef struct ntidx_keyvalue {
    const char *key;
    const char *value;
} ntidx_keyvalue;

/** Facts known from the stream header and the trace block. */
typedef struct ntidx_trace_info {
    int format_version;        /**< 3, 4, 5 or 6 (see ntidx_trace_open notes) */
    uint32_t minor_version;    /**< V6 minor version; 0 before V6 */
    uint32_t trace_object_version; /**< FastSerialization Trace type version (V3-V5); 0 in V6 */
    uint64_t file_size;        /**< bytes in the mapped file */
    uint64_t first_block_offset; /**< where the block walk starts */
    ntidx_systime sync_time_utc;
    int64_t sync_ticks;        /**< timestamp (ticks) taken at sync_time_utc */
    int64_t tick_frequency;    /**< ticks per second (> 0) */
    uint32_t pointer_size;     /**< 4 or 8 */
    uint32_t process_id;       /**< V3-V5 field; V6 "ProcessId" key or 0 */
    uint32_t number_of_processors; /**< V3-V5 field; V6 "HardwareThreadCount" or 0 */
    uint32_t expected_cpu_sampling_rate;
    size_t keyvalue_count;     /**< V6 trace-block key/value pairs */
    const ntidx_keyvalue *keyvalues;
} ntidx_trace_info;

/**
 * Map a trace file read-only and read its stream header and trace block.
 *
 * Detects the generation: V3 NetPerf ("!FastSerialization.1" at offset 0),
 * V4/V5 ("Nettrace" + FastSerialization), V6 ("Nettrace" + Reserved=0 +
 * Major + Minor). A V6-style header with Major > 6 is refused with
 * NTIDX_E_VERSION; any minor version is accepted.
 *
 * V4 and V5 share one header (the runtime writes Trace object version 4 for
 * both); format_version reports 5 when the Trace object says 5 or when the
 * first metadata block carries V5 metadata tags, else 4.
 *
 * @param path file to map
 * @param out  receives the handle on success, NULL on failure
 * @return NTIDX_OK, NTIDX_E_IO, NTIDX_E_NOMEM, NTIDX_E_NOT_A_TRACE,
 *         NTIDX_E_VERSION, NTIDX_E_TRUNCATED (no complete trace block),
 *         NTIDX_E_CORRUPT, NTIDX_E_INVALID_ARG; NTIDX_E_SHRUNK (the file
 *         shrank between its mapping and the reading of its header).
 * @note The mapping lives until ntidx_trace_close(); every pointer the
 *       library hands out into trace bytes (payloads, stacks) is valid until
 *       then.
 * @code
 *   ntidx_trace *t;
 *   if (ntidx_trace_open(path, &t) < 0) { fprintf(stderr, "%s\n", ntidx_last_error()); return 1; }
 *   printf("V%d, %llu bytes\n", ntidx_trace_get_info(t)->format_version,
 *          (unsigned long long)ntidx_trace_get_info(t)->file_size);
 *   ntidx_trace_close(&t);
 * @endcode
 */
NTIDX_NODISCARD NTIDX_API int ntidx_trace_open(const char *path, ntidx_trace **out);

/**
 * Same as ntidx_trace_open() over bytes in memory (tests, fuzzing).
 * @note The bytes are not copied: they must outlive the handle. `name` is
 *       used in messages only.
 */
NTIDX_NODISCARD NTIDX_API int ntidx_trace_open_memory(const void *data, size_t size, const char *name,
                                                      ntidx_trace **out);

/** Unmap and free. Accepts NULL and *t == NULL; sets *t to NULL. */
NTIDX_API void ntidx_trace_close(ntidx_trace **t);

/** Header and trace-block facts. Valid for the lifetime of the handle. */
NTIDX_API const ntidx_trace_info *ntidx_trace_get_info(const ntidx_trace *t);

/** The path or name the trace was opened with. */
NTIDX_API const char *ntidx_trace_name(const ntidx_trace *t);

/**
 * Start of the mapped bytes and their count (for tools that hash or copy).
 * If the file shrinks while they are read, the bytes past its new end read as
 * zeros (see "A file that shrinks while it is read"); nothing checks them for
 * the caller.
 */
NTIDX_API const uint8_t *ntidx_trace_data(const ntidx_trace *t, uint64_t *size);

/** Convert a timestamp to seconds since the trace's sync time (PerfView's MSec / 1000). */
NTIDX_API double ntidx_ticks_to_seconds(const ntidx_trace *t, uint64_t ticks);

/**
 * Convert a timestamp to UTC as nanoseconds since the Unix epoch, from the
 * trace block's SyncTimeUTC and SyncTimeTicks.
 * @return NTIDX_OK; NTIDX_E_CORRUPT if the sync time is not a valid date or
 *         the instant does not fit 64-bit nanoseconds (years ~1678-2262).
 */
NTIDX_NODISCARD NTIDX_API int ntidx_ticks_to_unix_ns(const ntidx_trace *t, uint64_t ticks, int64_t *unix_ns);

/**
 * The ticks of an ISO-8601 UTC time ("2021-03-04T05:06:07.5Z": a four-digit
 * year, two-digit fields, a real date, an optional fraction of any length,
 * Z), from the trace block's SyncTimeUTC and SyncTimeTicks, exactly
 * (rounded to the nearest tick).
 * @return NTIDX_OK; NTIDX_E_INVALID_ARG when `iso` is not such a time, or
 *         when the time is before tick 0 or after tick 2^64-1 of this trace
 *         (the message names the time and the range); NTIDX_E_CORRUPT when
 *         the trace's sync time is not a valid date.
 */
NTIDX_NODISCARD NTIDX_API int ntidx_iso8601_to_ticks(const ntidx_trace *t, const char *iso, uint64_t *ticks);

/**
 * A time as people write it, in ticks: raw ticks (a plain integer), a time
 * since the trace's sync time with a unit ("1.5s", "-250ms", "40us",
 * "100ns", "1e3s": a decimal number, the origin of PerfView's MSec
 * column), or an ISO-8601 UTC time ending in Z (ntidx_iso8601_to_ticks()).
 * What the command line and the bindings accept. A time no tick names
 * (before tick 0 or after 2^64-1: "1e400s", "99999999999s" in a trace of
 * nanosecond ticks) is an error, never clamped; "inf" and "nan" are no
 * numbers.
 * @return NTIDX_OK; NTIDX_E_INVALID_ARG (not such a time, or out of range:
 *         the message names the value and says what is accepted);
 *         NTIDX_E_CORRUPT (an ISO time, and the trace's sync time is not a
 *         valid date).
 */
NTIDX_NODISCARD NTIDX_API int ntidx_parse_time(const ntidx_trace *t, const char *s, uint64_t *ticks);

/**
 * A length of time in ticks: ticks (a plain integer) or a non-negative
 * decimal number with a unit ("10ms", "1.5s", "40us", "100ns") at the
 * trace's tick frequency, rounded to the nearest tick (the width of a
 * histogram bucket, `ntidx stats --bucket`).
 * @return NTIDX_OK; NTIDX_E_INVALID_ARG (not such a duration, negative,
 *         or more than 2^64-1 ticks: the message names the value).
 */
NTIDX_NODISCARD NTIDX_API int ntidx_parse_duration(const ntidx_trace *t, const char *s, uint64_t *ticks);

/** Format `ticks` as ISO-8601 UTC ("2021-03-04T05:06:07.123456789Z") into buf (32 bytes suffice). */
NTIDX_NODISCARD NTIDX_API int ntidx_ticks_to_iso8601(const ntidx_trace *t, uint64_t ticks, char *buf, size_t buflen);

/* ------------------------------------------------------------------ */
/* Blocks                                                              */
/* ------------------------------------------------------------------ */

/** Block kinds, numbered as V6 numbers them; earlier generations map onto them. */
typedef enum ntidx_block_kind {
    NTIDX_BLOCK_END_OF_STREAM = 0,
    NTIDX_BLOCK_TRACE = 1,
    NTIDX_BLOCK_EVENT = 2,
    NTIDX_BLOCK_METADATA = 3,
    NTIDX_BLOCK_SEQUENCE_POINT = 4,
    NTIDX_BLOCK_STACK = 5,
    NTIDX_BLOCK_THREAD = 6,
    NTIDX_BLOCK_REMOVE_THREAD = 7,
    NTIDX_BLOCK_LABEL_LIST = 8,
    NTIDX_BLOCK_UNKNOWN = 255 /**< a kind this library does not know: skipped */
} ntidx_block_kind;

#define NTIDX_BLOCK_KIND_COUNT 9

/** Name of a block kind ("event", "sequence_point", ...). */
NTIDX_API const char *ntidx_block_kind_name(int kind);

/** One block, whatever the generation. */
typedef struct ntidx_block {
    uint64_t offset;         /**< first byte of the block (object tag or V6 header) */
    uint64_t size;           /**< bytes up to the next block (framing included) */
    uint64_t payload_offset; /**< first byte of the content after framing/padding */
    uint64_t payload_size;   /**< bytes of content */
    ntidx_block_kind kind;
    uint32_t raw_kind;       /**< V6 kind byte; FastSerialization type version otherwise */
    uint64_t reserved[3];    /**< zero: the library fills it (see Conventions) */
} ntidx_block;

/**
 * Read the block at *pos and advance *pos past it. Stateless: any offset
 * previously returned as a block offset (or the trace's first_block_offset)
 * is a valid *pos, so a reader can start in the middle of a file.
 *
 * @code
 *   uint64_t pos = ntidx_trace_get_info(t)->first_block_offset, stack_blocks = 0;
 *   ntidx_block b;
 *   int rc;
 *   while ((rc = ntidx_trace_next_block(t, &pos, &b)) == 1)
 *       stack_blocks += b.kind == NTIDX_BLOCK_STACK;
 *   if (rc == 0)
 *       printf("complete, %llu stack blocks\n", (unsigned long long)stack_blocks);
 *   else if (rc == NTIDX_E_TRUNCATED)
 *       printf("incomplete: complete up to offset %llu\n", (unsigned long long)pos);
 *   else
 *       report(ntidx_last_error());
 * @endcode
 * @return 1 a block (never END_OF_STREAM), 0 the end-of-stream marker was
 *         read (*pos is then the end of the stream, which is the end of the
 *         file), NTIDX_E_TRUNCATED the file ends at *pos or inside the block
 *         at *pos (a writer that did not finish: everything before *pos is
 *         complete), NTIDX_E_CORRUPT framing that cannot be a block, or an
 *         end-of-stream marker at *pos that does not end the file (a damaged
 *         trace: a V6 end-of-stream block is a zero word, so zeros written
 *         over a trace read as one; the message says how many bytes follow),
 *         NTIDX_E_SHRUNK the file shrank while the walk read it (what was
 *         read before may be zeros: see "A file that shrinks while it is read").
 * @note Memory: a walk gives the mapped pages behind it back to the kernel
 *       (in steps of 64 MiB, the current block's bytes kept), so walking a
 *       10 GB trace does not make it resident. Pointers into the trace stay
 *       valid: a page given back is read again from the page cache when
 *       touched. Readers and queries do the same behind themselves.
 */
NTIDX_NODISCARD NTIDX_API int ntidx_trace_next_block(ntidx_trace *t, uint64_t *pos, ntidx_block *out);

/**
 * Time range of an event block: the header's min/max when they can be
 * trusted (not 0/0, min <= max), else found by decoding the block's event
 * headers (V3 blocks have no header range and are always decoded).
 *
 * @param events  receives the number of events when the block was decoded,
 *                or UINT64_MAX when the range came from the header alone
 * @return 1 a range was found, 0 the block holds no events (V3 blocks of
 *         metadata only), NTIDX_E_CORRUPT, NTIDX_E_INVALID_ARG (not an
 *         event block).
 */
NTIDX_NODISCARD NTIDX_API int ntidx_event_block_time_range(ntidx_trace *t, const ntidx_block *b, uint64_t *min_ts, uint64_t *max_ts,
                                                           uint64_t *events);

/* ------------------------------------------------------------------ */
/* Metadata, threads and payload types                                 */
/* ------------------------------------------------------------------ */

/** Payload field type codes (EventPipe TypeCode; V6 additions 20-26). */
typedef enum ntidx_type_code {
    NTIDX_TYPE_EMPTY = 0,
    NTIDX_TYPE_OBJECT = 1,
    NTIDX_TYPE_BOOLEAN32 = 3,
    NTIDX_TYPE_UTF16_CODE_UNIT = 4,
    NTIDX_TYPE_SBYTE = 5,
    NTIDX_TYPE_BYTE = 6,
    NTIDX_TYPE_INT16 = 7,
    NTIDX_TYPE_UINT16 = 8,
    NTIDX_TYPE_INT32 = 9,
    NTIDX_TYPE_UINT32 = 10,
    NTIDX_TYPE_INT64 = 11,
    NTIDX_TYPE_UINT64 = 12,
    NTIDX_TYPE_SINGLE = 13,
    NTIDX_TYPE_DOUBLE = 14,
    NTIDX_TYPE_DECIMAL = 15,
    NTIDX_TYPE_DATETIME = 16,
    NTIDX_TYPE_GUID = 17,
    NTIDX_TYPE_UTF16_STRING = 18, /**< NUL-terminated UTF-16 */
    NTIDX_TYPE_ARRAY = 19,        /**< uint16 count + elements */
    NTIDX_TYPE_VARINT = 20,
    NTIDX_TYPE_VARUINT = 21,
    NTIDX_TYPE_FIXED_ARRAY = 22,
    NTIDX_TYPE_UTF8_CODE_UNIT = 23,
    NTIDX_TYPE_RELLOC = 24,
    NTIDX_TYPE_DATALOC = 25,
    NTIDX_TYPE_BOOLEAN8 = 26,
    /* Layouts ntidx fills from the .NET runtime's manifest (docs/runtime-events.md) use three
       codes of its own, above the EventPipe range: */
    NTIDX_TYPE_POINTER = 0x80,       /**< unsigned integer of the trace's pointer size */
    NTIDX_TYPE_COUNTED_ARRAY = 0x81, /**< `element` repeated N times, N the value of the earlier
                                          sibling field whose index is `element_count` */
    NTIDX_TYPE_ANSI_STRING = 0x82    /**< NUL-terminated 8-bit string */
} ntidx_type_code;

/** One payload field (a tree: objects have fields, arrays an element type). */
typedef struct ntidx_field {
    const char *name;                 /**< UTF-8 */
    uint8_t type_code;                /**< ntidx_type_code */
    uint16_t element_count;           /**< FIXED_ARRAY only */
    const struct ntidx_field *element;/**< ARRAY, FIXED_ARRAY, RELLOC, DATALOC */
    const struct ntidx_field *fields; /**< OBJECT: its fields */
    uint32_t field_count;
} ntidx_field;

/** One metadata row: a type of event. Strings are UTF-8 (converted from UTF-16 before V6). */
typedef struct ntidx_metadata {
    uint32_t id;
    uint32_t event_id;
    uint32_t version;
    uint32_t level;
    uint64_t keywords;
    int opcode;                /**< -1 when the metadata gives none */
    const char *provider;
    /** The event's name as TraceEvent shows it: the trace's name, followed by "/" and the opcode's name
        when the metadata gives an opcode other than Info (0): "TestEvent3/24" (the opcode names of
        TraceEventOpcode: Start, Stop, DataCollectionStart, DataCollectionStop, Extension, Reply,
        Resume, Suspend, Transfer; other values as numbers). EventSource's conventions first: a name
        ending in Start or Stop without an opcode has that opcode, and the suffix goes
        ("WorkStart" is "Work/Start"). The .NET runtime's events get TraceEvent's names for them
        ("GC/AllocationTick") whatever the trace says. "EventID(N)", N the event id, when nothing names the
        event (neither the trace nor, for the runtime's events, TraceEvent's parsers), as TraceEvent names it. */
    const char *event_name;
    const char *message_template; /**< V6 optional, else NULL */
    const char *description;      /**< V6 optional, else NULL */
    int has_fields;            /**< 1 when a field layout was given (even an empty one) */
    uint32_t field_count;
    const ntidx_field *fields;
    uint64_t offset;           /**< file offset of the definition */
    /** The name exactly as the trace stores it (no opcode suffix, "" for the runtime's events); NULL
        in metadata a client builds for the writer, which then writes event_name. */
    const char *name_in_trace;
    /** 0 for a row as the trace defines it. V6: an event whose label list overrides the opcode,
        version, level or keywords of its metadata (the spec; TraceEvent applies them per event) points
        at a row derived from the trace's: the same id and offset, those values, the name TraceEvent
        gives it, and here what changed its name or version: bit 8 and bits 0-7 the opcode when it
        renamed the event ("Work/Reply"; such an event answers to its own name only in
        ntidx_metadata_matches_name()), bit 17 and bits 9-16 the version. */
    uint32_t label_overrides;
    /** Zero: the reader fills it; a writer given a row whose reserved fields are not zero returns
        NTIDX_E_INVALID_ARG (see Conventions). */
    uint64_t reserved[4];
} ntidx_metadata;

/**
 * A key for a client's cache of facts per event type (names, filters,
 * columns): the definition's offset, or for a row derived by V6 label
 * overrides (label_overrides != 0), the offset with the overrides that
 * changed its name or version, tagged in bit 63. Two rows with one key are
 * the same type; the offset alone is not enough (derived rows share it).
 */
static inline uint64_t ntidx_metadata_key(const ntidx_metadata *m)
{
    return m->label_overrides ? (1ull << 63) | (m->offset << 18) | m->label_overrides : m->offset;
}

/**
 * A copy of a metadata row that lives until ntidx_metadata_free(), for a
 * client that keeps an event's type after the reader moved on (to decode
 * the event's payload later: point a copy of the ntidx_event at it).
 * @return NTIDX_OK; NTIDX_E_NOMEM; NTIDX_E_INVALID_ARG.
 */
NTIDX_NODISCARD NTIDX_API int ntidx_metadata_copy(const ntidx_metadata *m, ntidx_metadata **out);

/** Free a copy. Accepts NULL and *m == NULL; sets *m to NULL. */
NTIDX_API void ntidx_metadata_free(ntidx_metadata **m);

/** A V6 thread row. */
typedef struct ntidx_thread {
    uint64_t index;
    int has_os_thread_id, has_os_process_id;
    uint64_t os_thread_id;
    uint64_t os_process_id;
    const char *name;          /**< NULL when not given */
    uint64_t reserved[3];      /**< zero, as for ntidx_metadata */
} ntidx_thread;

/** V6 label kinds (the high bit of the stored kind marks a list's last label). */
typedef enum ntidx_label_kind {
    NTIDX_LABEL_ACTIVITY_ID = 1,
    NTIDX_LABEL_RELATED_ACTIVITY_ID = 2,
    NTIDX_LABEL_TRACE_ID = 3,
    NTIDX_LABEL_SPAN_ID = 4,
    NTIDX_LABEL_KEY_STRING = 5,
    NTIDX_LABEL_KEY_INT = 6,
    NTIDX_LABEL_OPCODE = 7,
    NTIDX_LABEL_KEYWORDS = 8,
    NTIDX_LABEL_LEVEL = 9,
    NTIDX_LABEL_VERSION = 10
} ntidx_label_kind;

/** One V6 label. Strings point into the trace and are NOT NUL-terminated. */
typedef struct ntidx_label {
    uint8_t kind;              /**< ntidx_label_kind */
    uint8_t guid[16];          /**< ACTIVITY_ID, RELATED_ACTIVITY_ID, TRACE_ID */
    const char *key;           /**< KEY_STRING, KEY_INT */
    uint32_t key_len;
    const char *str;           /**< KEY_STRING value */
    uint32_t str_len;
    int64_t i;                 /**< KEY_INT value */
    uint64_t u;                /**< SPAN_ID, KEYWORDS, OPCODE, LEVEL, VERSION */
    uint64_t reserved[3];      /**< zero, as for ntidx_metadata */
} ntidx_label;

/**
 * Decode the next label of an event's label list (ntidx_event.label_list).
 * @code
 *   const uint8_t *p = ev->label_list;
 *   const uint8_t *end = p ? p + ev->label_list_size : p;   // NULL when none (NULL + 0 is undefined in C)
 *   ntidx_label l;
 *   int rc;
 *   while ((rc = ntidx_label_next(&p, end, &l)) == 1) {
 *       if (l.kind == NTIDX_LABEL_KEY_STRING)
 *           printf("%.*s=%.*s\n", (int)l.key_len, l.key, (int)l.str_len, l.str);
 *       else if (l.kind == NTIDX_LABEL_KEY_INT)
 *           printf("%.*s=%lld\n", (int)l.key_len, l.key, (long long)l.i);
 *       else
 *           printf("label of kind %d\n", l.kind);
 *   }
 *   if (rc < 0) report(ntidx_last_error());
 * @endcode
 * @return 1 a label, 0 the end of the list, NTIDX_E_CORRUPT.
 */
NTIDX_NODISCARD NTIDX_API int ntidx_label_next(const uint8_t **p, const uint8_t *end, ntidx_label *out);

/* ------------------------------------------------------------------ */
/* Events                                                              */
/* ------------------------------------------------------------------ */

/**
 * One event with its references resolved. Pointers point into the mapping
 * (payload, stack, activity ids, label list) or into the reader's caches
 * (metadata, thread): valid until the next ntidx_reader_next() or
 * ntidx_reader_close() on the same reader.
 */
typedef struct ntidx_event {
    uint64_t offset;                /**< file offset of the event's header */
    uint64_t timestamp;             /**< raw ticks */
    uint64_t thread_index;          /**< V6 thread index; the thread id before V6 */
    uint64_t capture_thread_index;  /**< V6 capture thread index; capture thread id before V6 */
    uint64_t thread_id;             /**< OS thread id where the trace gives one, else thread_index */
    uint64_t capture_thread_id;     /**< same for the capture thread */
    uint32_t metadata_id;
    uint32_t sequence_number;       /**< 0 in V3 (no sequence numbers) */
    uint32_t processor_number;
    uint32_t stack_id;              /**< 0: no stack */
    uint32_t label_list_id;         /**< V6; 0: empty */
    uint32_t payload_size;
    int is_sorted;
    const uint8_t *payload;
    const uint8_t *stack;           /**< stack bytes (pointer_size IPs), NULL if none */
    uint32_t stack_size;            /**< in bytes */
    const uint8_t *activity_id;     /**< 16 bytes (V3-V5), NULL in V6 */
    const uint8_t *related_activity_id;
    const uint8_t *label_list;      /**< encoded V6 label entries, NULL if none */
    uint32_t label_list_size;
    const ntidx_metadata *metadata;
    const ntidx_thread *thread;     /**< V6 only, else NULL */
    uint64_t reserved[4];           /**< zero, as for ntidx_metadata */
} ntidx_event;

typedef struct ntidx_reader ntidx_reader;

typedef enum ntidx_order {
    NTIDX_ORDER_FILE = 0, /**< events as stored */
    NTIDX_ORDER_TIME = 1  /**< non-decreasing timestamp; ties in file order */
} ntidx_order;

typedef struct ntidx_reader_options {
    ntidx_order order;
    uint64_t reserved[7]; /**< zero (see Conventions) */
} ntidx_reader_options;

/** Fill `o` with defaults: file order. */
NTIDX_API void ntidx_reader_options_defaults(ntidx_reader_options *o);

/**
 * Create an event iterator over the whole trace.
 * @return NTIDX_OK, NTIDX_E_NOMEM, NTIDX_E_INVALID_ARG.
 * @note The trace must outlive the reader.
 * @note Memory: a reader gives the mapped pages of the blocks it has read
 *       back to the kernel every 32 MiB of blocks and when closed (keeping
 *       the stacks and label lists still cached and, in time order, the
 *       events still waiting to be sorted), so its resident memory stays
 *       flat whatever the trace's size. Pointers it handed out stay valid.
 * @code
 *   ntidx_reader *r; const ntidx_event *e; int rc;
 *   ntidx_reader_options o; ntidx_reader_options_defaults(&o);
 *   if (ntidx_reader_open(t, &o, &r) != NTIDX_OK) { report(ntidx_last_error()); return 1; }
 *   while ((rc = ntidx_reader_next(r, &e)) == 1) use(e);
 *   if (rc < 0) report(ntidx_last_error());
 *   ntidx_reader_close(&r);
 * @endcode
 */
NTIDX_NODISCARD NTIDX_API int ntidx_reader_open(ntidx_trace *t, const ntidx_reader_options *o, ntidx_reader **out);

/**
 * Next event.
 * @return 1 an event in *ev; 0 the end (complete or not: see
 *         ntidx_reader_complete()); NTIDX_E_CORRUPT, NTIDX_E_UNDEFINED_REF,
 *         NTIDX_E_NOMEM, NTIDX_E_SHRUNK (the file shrank while it was read)
 *         on an error that stops the read (sticky: later calls return the
 *         same code).
 * @note A truncated trace is not an error: its complete blocks are read,
 *       then 0 is returned and ntidx_reader_complete() is 0.
 */
NTIDX_NODISCARD NTIDX_API int ntidx_reader_next(ntidx_reader *r, const ntidx_event **ev);

/** Free. Accepts NULL and *r == NULL; sets *r to NULL. */
NTIDX_API void ntidx_reader_close(ntidx_reader **r);

/**
 * After the end of a trace that stops early (ntidx_reader_complete() is 0):
 * where and why ("offset N (0xN): file ends inside a block..."); "" when the
 * end-of-stream marker was read or the read has not ended.
 */
NTIDX_API const char *ntidx_reader_incomplete_reason(const ntidx_reader *r);

/** After the end: 1 if the end-of-stream marker was read, 0 if the trace stops early. */
NTIDX_API int ntidx_reader_complete(const ntidx_reader *r);

/** Counters a reader keeps as it goes. */
typedef struct ntidx_reader_stats {
    uint64_t events;
    uint64_t blocks[NTIDX_BLOCK_KIND_COUNT]; /**< blocks seen per kind (in ntidx_stats: the blocks of the part
                                                  of the trace the statistics cover, the trace block included,
                                                  the same with or without an index) */
    uint64_t unknown_blocks;
    uint64_t metadata_rows;
    uint64_t stacks;
    uint64_t sequence_points;
    uint64_t dropped_events;     /**< sum over threads */
    uint64_t order_violations;   /**< time order: events a writer's IsSorted mark put out of order */
    uint64_t end_offset;         /**< end of the last complete block read */
    uint64_t bytes_read;         /**< bytes of the blocks processed */
    uint64_t reserved[4];        /**< zero (room for counters: ntidx_stats holds this struct inside it) */
} ntidx_reader_stats;

NTIDX_API const ntidx_reader_stats *ntidx_reader_get_stats(const ntidx_reader *r);

/** Dropped events detected on one capture thread. */
typedef struct ntidx_dropped {
    uint64_t capture_thread;     /**< capture thread id (V3-V5) or index (V6) */
    uint64_t capture_thread_id;  /**< OS thread id where known, else capture_thread */
    uint64_t dropped;
} ntidx_dropped;

/**
 * Dropped events per capture thread, from sequence-number gaps between
 * consecutive events of a capture thread (file order) and from the lower
 * bounds in sequence points and V6 remove-thread blocks. Only threads with
 * drops are listed, sorted by capture_thread. Valid until the next call on
 * the reader.
 */
NTIDX_NODISCARD NTIDX_API int ntidx_reader_dropped(ntidx_reader *r, const ntidx_dropped **list, size_t *count);

/* ------------------------------------------------------------------ */
/* Payload decoding                                                    */
/* ------------------------------------------------------------------ */

/**
 * A growable byte buffer: the formatters append to it, and it is the one
 * buffer the library uses inside too. Start from `ntidx_buf b = {0};` and
 * free with ntidx_buf_free(). `data` is NUL-terminated after every append
 * (text), `bytes` is the same storage seen as bytes; `err` is 0, or
 * NTIDX_E_NOMEM once an append could not grow the buffer (sticky until
 * ntidx_buf_free(); the appends after it do nothing).
 *
 * Frozen: clients declare it and read its fields, so its layout (a pointer,
 * two size_t, an int) is part of the ABI and never changes; what a later
 * version needs beside it goes into a new struct.
 */
typedef struct ntidx_buf {
    union {
        char *data;
        uint8_t *bytes;
    };
    size_t len, cap;
    int err;
} ntidx_buf;

NTIDX_API void ntidx_buf_free(ntidx_buf *b);

/** Append `n` bytes (a NUL follows them). @return NTIDX_OK or NTIDX_E_NOMEM. */
NTIDX_API int ntidx_buf_append(ntidx_buf *b, const void *data, size_t n);

/**
 * Append `v` in decimal, the bytes printf's "%" PRIu64 gives, without
 * printf (for clients that print many numbers: the CLI's event lines).
 * @return NTIDX_OK or NTIDX_E_NOMEM.
 */
NTIDX_API int ntidx_buf_append_dec(ntidx_buf *b, uint64_t v);

/*
 * Payload values
 * --------------
 * An event's payload decoded by its metadata into typed values: a tree whose
 * top level holds one value per field. Kinds and what they carry:
 *
 *   NULL     an EMPTY field (no bytes)
 *   BOOL     u: 0 or 1 (Boolean32, Boolean8)
 *   INT      i (SByte, Int16, Int32, Int64, VarInt)
 *   UINT     u (Byte, UInt16, UInt32, UInt64, VarUInt, pointers of the
 *            runtime's manifest layouts)
 *   FLOAT    f (Single, Double)
 *   STRING   str, len: UTF-8, not NUL-free guaranteed (UTF-16 strings and
 *            arrays of UTF-16/UTF-8 code units, converted; invalid UTF-16
 *            becomes U+FFFD; NUL-terminated in the values' storage)
 *   GUID     bytes: the 16 bytes as stored (ntidx_guid_format() writes the
 *            .NET form)
 *   TIME     i: 100-ns ticks since 0001-01-01 UTC (.NET's DateTime.Ticks),
 *            from a FILETIME (before V6) or a SYSTEMTIME (V6); bytes: the 8
 *            or 16 bytes as stored
 *   DECIMAL  bytes: the 16 bytes as stored
 *   ARRAY    count elements, its children; an array of Byte or SByte
 *            (byte[]) has no child values: bytes, len are its contents
 *   OBJECT   count fields, its children (names in `name`)
 *
 * Values and their strings live in the ntidx_values handle until its next
 * decode or its free; `bytes` point into the trace mapping. Keep one handle
 * per thread for a whole pass: it keeps its storage and, per event type, the
 * field layout compiled once, so that after the first events of a type a
 * decode allocates nothing and costs a few stores per field.
 *
 * @code
 *   ntidx_values *v; const ntidx_event *e; int rc;
 *   if (ntidx_values_new(&v) < 0) { report(ntidx_last_error()); return 1; }
 *   while ((rc = ntidx_reader_next(r, &e)) == 1) {
 *       if (ntidx_values_decode(v, t, e) != NTIDX_OK) continue;   // reason: ntidx_last_error()
 *       const ntidx_value *tn = ntidx_values_find(v, "TypeName");
 *       if (tn && tn->kind == NTIDX_VALUE_STRING) printf("%s\n", tn->str);
 *   }
 *   if (rc < 0) report(ntidx_last_error());
 *   ntidx_values_free(&v);
 * @endcode
 */
typedef enum ntidx_value_kind {
    NTIDX_VALUE_NULL = 0,
    NTIDX_VALUE_BOOL = 1,
    NTIDX_VALUE_INT = 2,
    NTIDX_VALUE_UINT = 3,
    NTIDX_VALUE_FLOAT = 4,
    NTIDX_VALUE_STRING = 5,
    NTIDX_VALUE_GUID = 6,
    NTIDX_VALUE_TIME = 7,
    NTIDX_VALUE_DECIMAL = 8,
    NTIDX_VALUE_ARRAY = 9,
    NTIDX_VALUE_OBJECT = 10
} ntidx_value_kind;

/** One decoded value. */
typedef struct ntidx_value {
    const char *name;          /**< the field's name; NULL for array elements */
    const ntidx_field *field;  /**< its description in the metadata */
    uint8_t kind;              /**< ntidx_value_kind */
    uint8_t type_code;         /**< the field's ntidx_type_code as the metadata gives it */
    uint32_t count;            /**< ARRAY: elements; OBJECT: fields */
    int64_t i;                 /**< INT, TIME */
    uint64_t u;                /**< UINT, BOOL */
    double f;                  /**< FLOAT */
    const char *str;           /**< STRING (UTF-8) */
    const uint8_t *bytes;      /**< GUID, TIME, DECIMAL, byte arrays: the bytes as stored */
    size_t len;                /**< bytes of str or of bytes */
    uint32_t payload_offset;   /**< where the value starts in the payload */
    uint32_t next;             /**< internal: the next sibling's position (ntidx_values_next()) */
} ntidx_value;

typedef struct ntidx_values ntidx_values;

NTIDX_NODISCARD NTIDX_API int ntidx_values_new(ntidx_values **out);
NTIDX_API void ntidx_values_free(ntidx_values **v);

/**
 * Decode the payload of `ev` (its metadata's field layout; for the .NET
 * runtime's events, the layout ntidx knows from the runtime's manifest).
 * @return NTIDX_OK (an event without a layout gives no values);
 *         NTIDX_E_PAYLOAD when the payload does not fit the metadata (no
 *         values; the reason names the field and its payload offset);
 *         NTIDX_E_NOMEM; NTIDX_E_INVALID_ARG; NTIDX_E_SHRUNK (the payload was
 *         lost to the file's shrinking: no values).
 */
NTIDX_NODISCARD NTIDX_API int ntidx_values_decode(ntidx_values *v, const ntidx_trace *t, const ntidx_event *ev);

/** Top-level values (one per field of the event). */
NTIDX_API size_t ntidx_values_count(const ntidx_values *v);
/** The i-th top-level value (NULL past the end). */
NTIDX_API const ntidx_value *ntidx_values_at(const ntidx_values *v, size_t i);
/** The top-level value of the field named `name` (exact match; NULL when none). */
NTIDX_API const ntidx_value *ntidx_values_find(const ntidx_values *v, const char *name);
/** The first child of an ARRAY or OBJECT (NULL when it has none, or for byte arrays). */
NTIDX_API const ntidx_value *ntidx_values_child(const ntidx_values *v, const ntidx_value *parent);
/** The next sibling (NULL after the last): children are walked child(), next(), next()... */
NTIDX_API const ntidx_value *ntidx_values_next(const ntidx_values *v, const ntidx_value *val);
/** An OBJECT's field named `name` (NULL when none). */
NTIDX_API const ntidx_value *ntidx_values_get(const ntidx_values *v, const ntidx_value *object, const char *name);

/** A GUID's 16 stored bytes in .NET's form "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" (37 bytes with the NUL). */
NTIDX_API void ntidx_guid_format(const uint8_t guid[16], char out[37]);

/**
 * Append the event's payload as a JSON object ({"name":value,...}): the
 * values of ntidx_values_decode() written out. Integers are JSON numbers
 * (64-bit values beyond 2^53 are still written exactly), strings escaped
 * UTF-8 (bytes that are not valid UTF-8 become U+FFFD), GUIDs and times
 * strings, byte arrays arrays of numbers, NaN and infinities strings, an
 * event without a layout {}.
 * @return NTIDX_OK; NTIDX_E_PAYLOAD (nothing appended); NTIDX_E_NOMEM;
 *         NTIDX_E_SHRUNK (nothing appended).
 */
NTIDX_NODISCARD NTIDX_API int ntidx_event_fields_json(const ntidx_trace *t, const ntidx_event *ev, ntidx_buf *out);

/**
 * Append one decoded value (any value of `v`'s tree, a top-level one or one
 * inside an array or object) as JSON, exactly as ntidx_event_fields_json()
 * writes it, without its name: `42`, `"text"`, `"2021-03-04T05:06:07.5000000Z"`,
 * `[1,2]`, `{"a":1}`.
 * @return NTIDX_OK; NTIDX_E_NOMEM; NTIDX_E_INVALID_ARG (`val` is not a value of `v`).
 */
NTIDX_NODISCARD NTIDX_API int ntidx_value_json(const ntidx_values *v, const ntidx_value *val, ntidx_buf *out);

/** Same as ntidx_event_fields_json() as "name=value name=value" text. */
NTIDX_NODISCARD NTIDX_API int ntidx_event_fields_text(const ntidx_trace *t, const ntidx_event *ev, ntidx_buf *out);

/**
 * Append `n` bytes of UTF-8 as a JSON string literal with its quotes, by
 * the library's one policy (bytes that are not valid UTF-8 become U+FFFD;
 * control characters escaped): for clients that write JSON around the
 * library's. @return NTIDX_OK or NTIDX_E_NOMEM.
 */
NTIDX_API int ntidx_buf_append_json_string(ntidx_buf *b, const char *s, size_t n);

/**
 * Append `n` bytes of UTF-8 made valid by the same policy (each byte that is
 * not part of valid UTF-8 becomes U+FFFD), without quotes or escapes: for
 * clients that hand the library's strings to a language whose strings must
 * be valid (the Python module). @return NTIDX_OK or NTIDX_E_NOMEM.
 */
NTIDX_API int ntidx_buf_append_utf8(ntidx_buf *b, const char *s, size_t n);

/* ------------------------------------------------------------------ */
/* Stacks                                                              */
/* ------------------------------------------------------------------ */

/** One stack of a stack block: its id, its instruction pointers (pointer_size bytes each, little-endian,
    the leaf first; NULL when the stack is empty) and their size in bytes. Return 0 to go on; any other
    value stops the walk and is what ntidx_stack_block_stacks() returns. */
typedef int (*ntidx_stack_fn)(void *ctx, uint32_t id, const uint8_t *ips, uint32_t size);

/**
 * The stacks a stack block defines (V4-V6; ntidx_trace_next_block() finds the
 * blocks of kind NTIDX_BLOCK_STACK), in order: `fn` is called for each. The
 * ids are those events give in ntidx_event.stack_id until the next sequence
 * point (a writer may give an id again after one). V3 traces have no stack
 * blocks: their events carry their stacks inline (ntidx_event.stack).
 * @code
 *   static int add(void *ctx, uint32_t id, const uint8_t *ips, uint32_t size) {
 *       (void)id, (void)ips;
 *       *(uint64_t *)ctx += size;   // the stack's addresses: size / pointer_size of them
 *       return 0;
 *   }
 *   uint64_t bytes = 0;
 *   if (b.kind == NTIDX_BLOCK_STACK && ntidx_stack_block_stacks(t, &b, add, &bytes) < 0)
 *       report(ntidx_last_error());
 * @endcode
 * @return NTIDX_OK; NTIDX_E_CORRUPT (the block does not hold what it declares: the stacks before the
 *         bad one were given, ntidx_last_error() names the offset); NTIDX_E_INVALID_ARG (NULL, or not
 *         a stack block); or the non-zero value `fn` returned.
 * @note `ips` points into the trace's mapping: valid until ntidx_trace_close().
 */
NTIDX_NODISCARD NTIDX_API int ntidx_stack_block_stacks(ntidx_trace *t, const ntidx_block *b, ntidx_stack_fn fn,
                                                       void *ctx);

/** Frames of an event's stack (stack_size / the trace's pointer size). */
NTIDX_API size_t ntidx_event_stack_depth(const ntidx_trace *t, const ntidx_event *ev);

/** The instruction pointer of frame `i` (0: the leaf); 0 past the end. symbols.h names them. */
NTIDX_API uint64_t ntidx_event_stack_ip(const ntidx_trace *t, const ntidx_event *ev, size_t i);

/**
 * Display name of an event: "Provider/EventName" ("Provider/EventID(N)"
 * when nothing names the event: its event_name is then "EventID(N)").
 */
NTIDX_API const char *ntidx_event_display_name(const ntidx_metadata *m, char *buf, size_t buflen);

/**
 * Whether a user-given event name (a command-line filter such as
 * `--event GC/AllocationTick`) names this type of event. Accepted forms,
 * compared ASCII case-insensitively:
 *
 *   "EventName"                 the event's name, any provider
 *                               ("GC/AllocationTick", "Thread/Sample"), as
 *                               event_name gives it or as the trace
 *                               stores it ("RequestStart/Start" or
 *                               "RequestStart")
 *   "Provider/EventName"        ("Microsoft-Windows-DotNETRuntime/GC/AllocationTick")
 *   "EventID(N)"                the event id, named or not, any provider
 *   "Provider/EventID(N)"       (what ntidx_event_display_name() shows for an
 *                               event without a name)
 *
 * The .NET runtime's events carry no name in the trace; the reader fills
 * it from the runtime's manifest as PerfView and TraceEvent name them
 * ("Task/Opcode", see docs/runtime-events.md), so "GC/AllocationTick"
 * matches them as it matches an EventSource event named in the trace.
 *
 * @return 1 when `name` names `m`, else 0 (also for NULL or "").
 */
NTIDX_API int ntidx_metadata_matches_name(const ntidx_metadata *m, const char *name);

/* Statistics (ntidx_stats_compute() and the rest) are declared in stats.h, included below. */

#ifdef __cplusplus
}
#endif

/* Included after everything above: stats.h uses it. */
#include "stats.h"

#endif /* NTIDX_NTIDX_H */
