/*
 * Output files written safely: what ntidx_slice(), ntidx_generate_file()
 * and the ntidx command write their files through.
 *
 * A regular file, or a name not taken yet, is written to a temporary file
 * beside it (PATH.tmp.XXXXXX, in the same folder, so that the rename is
 * atomic), which ntidx_output_commit() puts on disk (fsync) and renames over
 * PATH: a failed or interrupted write leaves the old file as it was, or no
 * file, never a partial one under PATH. A file replaced keeps its
 * permissions; a symbolic link to a regular file stays a link (the file it
 * names is replaced). A file that is not regular (a device such as
 * /dev/null, a FIFO, a terminal) is written in place: renaming over it would
 * replace the device or the FIFO with a file. Nothing the caller did not
 * create is ever removed: ntidx_output_discard() removes the temporary only.
 *
 * A program that wants the temporary gone when it is killed removes the
 * file ntidx_output_temporary() names from its signal handler (unlink() is
 * async-signal-safe), as the ntidx command does.
 */
#ifndef NTIDX_OUTPUT_H
#define NTIDX_OUTPUT_H

#include "ntidx.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ntidx_output ntidx_output;

/**
 * Start writing `path`: create the temporary beside it, or open a file that
 * is not regular for writing (which waits for a reader when it is a FIFO).
 * @return NTIDX_OK; NTIDX_E_IO (the message names `path` and errno's text:
 *         a folder that cannot be written, a directory given as `path`);
 *         NTIDX_E_NOMEM; NTIDX_E_INVALID_ARG (NULL or empty path).
 * @code
 * ntidx_output *o;
 * if (ntidx_output_open("out.bin", &o) == NTIDX_OK) {
 *     int ok = write(ntidx_output_fd(o), "data", 4) == 4;
 *     if (ok && ntidx_output_commit(&o) == NTIDX_OK)
 *         puts("written");
 *     else
 *         ntidx_output_discard(&o); // out.bin as it was (after a failed commit, o is NULL already)
 * }
 * @endcode
 */
NTIDX_NODISCARD NTIDX_API int ntidx_output_open(const char *path, ntidx_output **out);

/** The descriptor to write to (the temporary, or the file itself when written in place). */
NTIDX_API int ntidx_output_fd(const ntidx_output *o);

/** The temporary being written (valid until commit or discard), or NULL when the file is written in place. */
NTIDX_API const char *ntidx_output_temporary(const ntidx_output *o);

/** The path given to ntidx_output_open(). */
NTIDX_API const char *ntidx_output_path(const ntidx_output *o);

/**
 * Finish: a temporary is fsync()ed, closed and renamed over the path (and
 * the folder fsync()ed); a file written in place is closed. Frees `*o` and
 * sets it to NULL whatever the outcome.
 * @return NTIDX_OK; NTIDX_E_WRITE (fsync, close or rename failed: the
 *         message names the path and errno's text; the temporary is
 *         removed and the path left as it was).
 */
NTIDX_NODISCARD NTIDX_API int ntidx_output_commit(ntidx_output **o);

/** Give up: the temporary is removed, the path left as it was (a file written in place is closed). Frees `*o`;
    accepts NULL and *o == NULL. */
NTIDX_API void ntidx_output_discard(ntidx_output **o);

#ifdef __cplusplus
}
#endif

#endif /* NTIDX_OUTPUT_H */
