#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <ntidx/index.h>

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("ntidx: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int cli_open_trace(const char *path, ntidx_trace **t)
{
    int rc = ntidx_trace_open(t, path);
    if (rc < 0) {
        const char *m = ntidx_last_open_error();
        cli_error("%s", m && *m ? m : ntidx_strerror(rc));
    }
    return rc;
}

int cli_parse_u64(const char *s, uint64_t *v, int suffixes)
{
    if (!s || !*s || *s == '-')
        return -1;
    errno = 0;
    char *end;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || end == s)
        return -1;
    uint64_t mul = 1;
    if (suffixes && *end) {
        switch (*end) {
        case 'k': case 'K': mul = 1ull << 10; break;
        case 'm': case 'M': mul = 1ull << 20; break;
        case 'g': case 'G': mul = 1ull << 30; break;
        case 't': case 'T': mul = 1ull << 40; break;
        default: return -1;
        }
        end++;
        if (*end == 'B' || *end == 'b')
            end++;
    }
    if (*end)
        return -1;
    if (x > UINT64_MAX / mul)
        return -1;
    *v = x * mul;
    return 0;
}

void cli_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\') {
            fputc('\\', f);
            fputc(*p, f);
        } else if (*p < 0x20) {
            fprintf(f, "\\u%04x", *p);
        } else {
            fputc(*p, f);
        }
    }
    fputc('"', f);
}

void cli_fast_stdout(void)
{
    static char buf[1 << 20];
    setvbuf(stdout, buf, _IOFBF, sizeof buf);
}

static int all_digits(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return 0;
    return 1;
}

int cli_parse_time(const ntidx_trace *t, const char *s, uint64_t *ticks)
{
    const ntidx_trace_info *in = ntidx_trace_get_info(t);
    if (all_digits(s))
        return cli_parse_u64(s, ticks, 0);
    size_t n = strlen(s);
    if (n > 1 && (s[n - 1] == 'Z' || s[n - 1] == 'z') && strchr(s, 'T')) {
        int rc = ntidx_iso8601_to_ticks(t, s, ticks);
        if (rc == NTIDX_E_INVALID_ARG)
            cli_error("bad ISO-8601 time '%s' (expected e.g. 2026-01-01T00:00:01.5Z)", s);
        else if (rc < 0)
            cli_error("the trace's sync time is not a valid date: use ticks or a relative time");
        return rc < 0 ? -1 : 0;
    }
    char *end;
    long double v = strtold(s, &end);
    static const struct { const char *unit; long double per_s; } units[] = {
        {"s", 1}, {"ms", 1e3L}, {"us", 1e6L}, {"ns", 1e9L}};
    for (size_t i = 0; end != s && i < sizeof units / sizeof units[0]; i++) {
        if (strcmp(end, units[i].unit))
            continue;
        long double tk = (long double)in->sync_ticks + v * (long double)in->tick_frequency / units[i].per_s;
        *ticks = tk <= 0 ? 0 : (uint64_t)(tk + 0.5L);
        return 0;
    }
    cli_error("bad time '%s': use ticks (an integer), a time since the trace start with a unit "
              "(1.5s, 250ms, 40us, 100ns) or an ISO-8601 UTC time ending in Z",
              s);
    return -1;
}

/* ------------------------------------------------------------------ */

static struct {
    int active, shown;
    double start;
    const char *what;
} progress;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int cli_progress(void *ctx, uint64_t done, uint64_t total)
{
    (void)ctx;
    if (!isatty(2))
        return 0;
    if (!progress.active) {
        progress.active = 1;
        progress.start = now_s();
        return 0;
    }
    if (now_s() - progress.start < 0.5 || !total)
        return 0; /* a moment: no bar */
    int pct = (int)(done * 100 / total);
    fprintf(stderr, "\r%s: %3d%% (%.1f of %.1f GB)", progress.what ? progress.what : "ntidx", pct, (double)done / 1e9,
            (double)total / 1e9);
    progress.shown = 1;
    return 0;
}

void cli_progress_label(const char *what) { progress.what = what; }

void cli_progress_end(void)
{
    if (progress.shown)
        fprintf(stderr, "\r\033[K");
    memset(&progress, 0, sizeof progress);
}

static void notice(void *ctx, int action, const char *why)
{
    const char *trace = ctx;
    switch (action) {
    case NTIDX_INDEX_BUILT: fprintf(stderr, "ntidx: indexing %s (%s)\n", trace, why); break;
    case NTIDX_INDEX_REBUILT: fprintf(stderr, "ntidx: rebuilding the index of %s: %s\n", trace, why); break;
    case NTIDX_INDEX_EXTENDED: fprintf(stderr, "ntidx: %s grew: indexing the new blocks\n", trace); break;
    default: break;
    }
}

int cli_verify_mode(void)
{
    /* NTIDX_INDEX_VERIFY=all|on-use|auto: how much of an index is checked when it is loaded. */
    const char *v = getenv("NTIDX_INDEX_VERIFY");
    if (v && !strcmp(v, "all"))
        return NTIDX_VERIFY_ALL;
    if (v && !strcmp(v, "on-use"))
        return NTIDX_VERIFY_ON_USE;
    return NTIDX_VERIFY_AUTO;
}

/* ntidx_index_open() with the commands' notices and progress bar; errors and warnings said on stderr. */
static int open_index(ntidx_trace *t, const char *trace_path, const char *index_path, int full, int verify,
                      ntidx_index **out)
{
    ntidx_index_options o;
    ntidx_index_options_defaults(&o);
    o.full = full;
    o.verify = verify;
    o.progress = cli_progress;
    o.notice = notice;
    o.notice_ctx = (void *)trace_path;
    progress.what = "ntidx: indexing";
    ntidx_index_action act;
    char why[600], save_err[600];
    int rc = ntidx_index_open(t, index_path, &o, out, &act, why, sizeof why, save_err, sizeof save_err);
    cli_progress_end();
    if (rc < 0) {
        cli_error("%s: cannot index: %s", trace_path, ntidx_trace_error(t)[0] ? ntidx_trace_error(t) : ntidx_strerror(rc));
        return rc;
    }
    if (save_err[0])
        fprintf(stderr, "ntidx: warning: the index could not be saved (%s); it was used for this command only\n",
                save_err);
    return 0;
}

int cli_index(ntidx_trace *t, const char *trace_path, const char *index_path, int full, ntidx_index **out)
{
    return open_index(t, trace_path, index_path, full, cli_verify_mode(), out);
}

int cli_index_recover(ntidx_trace *t, const char *trace_path, const char *index_path, ntidx_index **xp,
                      const char *why)
{
    /* Large indexes are checked region by region as queries need them (ntidx_index_load_ex): one that
       fails there is rebuilt here, checked whole on the way. */
    fprintf(stderr, "ntidx: %s\n", why);
    ntidx_index_close(xp);
    return open_index(t, trace_path, index_path, 0, NTIDX_VERIFY_ALL, xp);
}

int cli_index_verified(ntidx_trace *t, const char *trace_path, const char *index_path, ntidx_index **out)
{
    int rc = cli_index(t, trace_path, index_path, 0, out);
    if (rc < 0)
        return rc;
    char err[600];
    if (ntidx_index_verify_all(*out, err, sizeof err) < 0)
        return cli_index_recover(t, trace_path, index_path, out, err);
    return 0;
}

