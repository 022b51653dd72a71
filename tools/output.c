/* Where the commands write: -o OUT through a temporary removed on SIGINT/SIGTERM/SIGHUP, and standard output
   whose write errors are said (output.h). */
#include "output.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static int stdout_errno; /* the first write to descriptor 1 that failed */

/* ------------------------------------------------------------------ */
/* The temporary, removed by a signal that ends the process            */
/* ------------------------------------------------------------------ */

/* The one temporary a command has at a time; the handler reads it, so it is filled before it is armed. */
static char pending[4096];
static volatile sig_atomic_t armed;
static const int signals[] = {SIGINT, SIGTERM, SIGHUP};

static void on_signal(int sig)
{
    int saved = errno;
    if (armed)
        unlink(pending); /* async-signal-safe */
    armed = 0;
    /* die of the signal, as without the handler: the shell sees how the command ended */
    signal(sig, SIG_DFL);
    errno = saved;
    raise(sig);
}

static void install_handlers(void)
{
    static int installed;
    if (installed)
        return;
    installed = 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        struct sigaction old;
        /* a signal the caller ignores (nohup, a background job) stays ignored */
        if (sigaction(signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaction(signals[i], &sa, NULL);
    }
}

/* The signals held off while the temporary is created and registered, or renamed and forgotten: no window in
   which it exists unknown to the handler, or is known under a name that is already OUT. */
static void hold_signals(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++)
        sigaddset(&set, signals[i]);
    sigprocmask(SIG_BLOCK, &set, old);
}

static void release_signals(const sigset_t *old) { sigprocmask(SIG_SETMASK, old, NULL); }

/* ------------------------------------------------------------------ */
/* -o OUT                                                              */
/* ------------------------------------------------------------------ */

int cli_output_open(cli_output *o, const char *path)
{
    memset(o, 0, sizeof *o);
    o->path = path;
    o->saved_stdout = -1;
    if (!strcmp(path, "-")) {
        o->fd = STDOUT_FILENO;
        return 0;
    }
    install_handlers();
    sigset_t old;
    hold_signals(&old);
    int rc = ntidx_output_open(path, &o->file);
    const char *tmp = rc == NTIDX_OK ? ntidx_output_temporary(o->file) : NULL;
    if (tmp && strlen(tmp) < sizeof pending) {
        memcpy(pending, tmp, strlen(tmp) + 1);
        armed = 1;
    }
    release_signals(&old);
    if (rc < 0) {
        cli_library_error();
        return -1;
    }
    o->fd = ntidx_output_fd(o->file);
    return 0;
}

const char *cli_output_name(const cli_output *o) { return cli_output_is_stdout(o) ? "standard output" : o->path; }

int cli_output_is_stdout(const cli_output *o) { return !strcmp(o->path, "-"); }

int cli_output_in_place(const cli_output *o) { return cli_output_is_stdout(o) || !ntidx_output_temporary(o->file); }

int cli_output_as_stdout(cli_output *o)
{
    if (cli_output_is_stdout(o))
        return 0;
    fflush(stdout);
    o->saved_stdout = dup(STDOUT_FILENO);
    if (o->saved_stdout < 0 || dup2(o->fd, STDOUT_FILENO) < 0) {
        cli_error("%s: cannot write: %s", o->path, strerror(errno));
        return -1;
    }
    return 0;
}

/* Descriptor 1 back to what it was after cli_output_as_stdout(). Returns the errno of what stdio could not
   write to OUT, or 0. */
static int restore_stdout(cli_output *o)
{
    if (o->saved_stdout < 0)
        return 0;
    fflush(stdout);
    int err = stdout_errno ? stdout_errno : ferror(stdout) ? EIO : 0;
    stdout_errno = 0; /* about OUT, not standard output */
    clearerr(stdout);
    dup2(o->saved_stdout, STDOUT_FILENO);
    close(o->saved_stdout);
    o->saved_stdout = -1;
    return err;
}

int cli_output_commit(cli_output *o)
{
    if (cli_output_is_stdout(o)) {
        /* standard output: main() says what failed, once (cli_stdout_finish()) */
        return cli_stdout_failed() || fflush(stdout) != 0 ? -1 : 0;
    }
    int err = restore_stdout(o);
    if (err) {
        cli_error("%s: cannot write: %s", o->path, strerror(err));
        cli_output_discard(o);
        return -1;
    }
    sigset_t old;
    hold_signals(&old);
    int rc = ntidx_output_commit(&o->file);
    armed = 0;
    release_signals(&old);
    if (rc < 0) {
        cli_library_error();
        return -1;
    }
    return 0;
}

void cli_output_discard(cli_output *o)
{
    restore_stdout(o);
    if (!o->file)
        return;
    sigset_t old;
    hold_signals(&old);
    ntidx_output_discard(&o->file);
    armed = 0;
    release_signals(&old);
}

/* ------------------------------------------------------------------ */
/* Standard output                                                     */
/* ------------------------------------------------------------------ */

void cli_stdout_error(int err)
{
    if (!stdout_errno)
        stdout_errno = err ? err : EIO;
}

/* stdio's writes to descriptor 1, with the errno of one that fails kept: stdio keeps only an error flag, and
   the errno of a write it made inside some later printf() is long gone when the command ends. */
static ssize_t write_stdout(void *cookie, const char *buf, size_t n)
{
    (void)cookie;
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(STDOUT_FILENO, buf + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            cli_stdout_error(w < 0 ? errno : EIO);
            return -1;
        }
        done += (size_t)w;
    }
    return (ssize_t)n;
}

void cli_stdout_open(void)
{
    /* glibc's stdout is a variable a program may set (the GNU C Library manual, "Standard Streams") */
    FILE *f = fopencookie(NULL, "w", (cookie_io_functions_t){.write = write_stdout});
    if (!f)
        return; /* stdio's own stdout then: its errors are still seen, with a less precise reason */
    if (isatty(STDOUT_FILENO))
        setvbuf(f, NULL, _IOLBF, BUFSIZ); /* as stdio does for a terminal */
    stdout = f;
}

int cli_stdout_failed(void) { return stdout_errno || ferror(stdout); }

int cli_stdout_finish(int exit_code)
{
    errno = 0;
    int err = stdout_errno;
    if (fflush(stdout) != 0 && !err)
        err = errno ? errno : EIO;
    if (!err && ferror(stdout))
        err = EIO; /* stdio lost the errno of a write that failed earlier */
    if (!err)
        return exit_code;
    cli_error("cannot write to standard output: %s", strerror(err));
    return exit_code != CLI_OK ? exit_code : CLI_FAIL;
}
