/*
 * Side-index benchmark (prints figures, asserts nothing). On one trace held
 * in the page cache, in one run:
 *  - `cat TRACE > /dev/null` (the base of the ratios);
 *  - `ntidx index`: wall time (ratio to cat) and peak resident memory;
 *  - index size as a fraction of the trace;
 *  - `ntidx query` of a 10 ms window at random positions: p50/p99 latency of
 *    the whole process, and trace bytes touched (page faults beyond an empty
 *    query's) against the bytes of the blocks the query read;
 *  - `ntidx seek` at random times: p50/p99 latency of the whole process.
 * Every figure has the peak resident memory of the processes beside it.
 *
 * With --cold (root only: it empties the page cache), the same queries and
 * seeks each start from an empty page cache, as a batch job over traces that
 * are not in memory sees them: `sync; echo 1 > /proc/sys/vm/drop_caches`,
 * then the ntidx binary read back into the cache (binary warm, trace and
 * index cold), then the timed run. Beside the latency: the bytes the process
 * made the kernel read from disk (rusage ru_inblock), read-ahead included.
 * The index is built first (warm, not timed) when TRACE.ntidx is missing.
 * With --read-ahead KB[,KB...] as well, the cold runs are made once per
 * setting of the read-ahead of the disk that holds the trace (its
 * /sys/dev/block/MAJ:MIN/queue/read_ahead_kb: `blockdev --setra 8192` is
 * 4096 KB), "default" being the setting found; the setting found is put
 * back at the end, and on SIGINT or SIGTERM (issue 29, target 2: cold
 * windows at any read-ahead).
 *
 * usage: bench_index NTIDX TRACE [WINDOWS] [--cold [--read-ahead KB[,KB...]]]
 */
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_spawn.h"

/*
 * The floor of a header scan: one 96-byte pread() at every block offset the
 * index lists (BLOCKS, docs/index-format.md), with nothing else done. The
 * chain of block sizes makes these reads sequential: no scan can do fewer.
 */
static double pread_floor(const char *trace, const char *index_path, uint64_t *nblocks)
{
    FILE *f = fopen(index_path, "rb");
    unsigned char h[512];
    *nblocks = 0;
    if (!f || fread(h, 1, sizeof h, f) != sizeof h) {
        if (f)
            fclose(f);
        return -1;
    }
    uint32_t nsec;
    memcpy(&nsec, h + 20, 4);
    uint64_t off = 0, count = 0;
    uint32_t entry = 0;
    for (uint32_t i = 0; i < nsec && i < 11; i++) {
        uint32_t id;
        memcpy(&id, h + 128 + 32 * i, 4);
        if (id == 1) {
            memcpy(&entry, h + 128 + 32 * i + 4, 4);
            memcpy(&off, h + 128 + 32 * i + 8, 8);
            memcpy(&count, h + 128 + 32 * i + 16, 8);
        }
    }
    uint64_t *offs = count && entry >= 8 ? malloc(count * sizeof *offs) : NULL;
    unsigned char *e = entry ? malloc(entry) : NULL;
    for (uint64_t i = 0; offs && e && i < count; i++) {
        if (fseek(f, (long)(off + i * entry), SEEK_SET) != 0 || fread(e, 1, entry, f) != entry)
            count = i;
        else
            memcpy(&offs[i], e, 8);
    }
    fclose(f);
    free(e);
    int fd = open(trace, O_RDONLY);
    double best = -1;
    for (int rep = 0; offs && fd >= 0 && rep < 3; rep++) {
        char buf[96];
        double t0 = now();
        for (uint64_t i = 0; i < count; i++)
            if (pread(fd, buf, sizeof buf, (off_t)offs[i]) < 0)
                break;
        double t = now() - t0;
        if (best < 0 || t < best)
            best = t;
    }
    if (fd >= 0)
        close(fd);
    free(offs);
    *nblocks = count;
    return best;
}

/* Empty the page cache (root only): what is on disk must be read again. */
static int drop_caches(void)
{
    sync();
    int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
    if (fd < 0)
        return -1;
    int ok = write(fd, "1\n", 2) == 2;
    close(fd);
    return ok ? 0 : -1;
}

/* Read a file whole, so that its pages are in the page cache. */
static void warm_file(const char *path)
{
    int fd = open(path, O_RDONLY);
    static char buf[1 << 16];
    while (fd >= 0 && read(fd, buf, sizeof buf) > 0)
        ;
    if (fd >= 0)
        close(fd);
}

/* A cold run: page cache dropped, the ntidx binary (and its libraries, by running it) warm again. */
static run cold_run(char *ntidx, char *const argv[], const char *out)
{
    run r = {0};
    if (drop_caches() != 0) {
        r.status = -1;
        return r;
    }
    warm_file(ntidx);
    char *help[] = {ntidx, "--help", NULL};
    spawn(help, NULL);
    return spawn(argv, out);
}

static long max_l(long a, long b) { return a > b ? a : b; }

/* ---- The disk's read-ahead (--read-ahead) ---- */

static char ra_path[256]; /* the read_ahead_kb file of the trace's disk ("" when not found) */
static char ra_saved[32]; /* its contents when the benchmark began ("" until read) */

/* The read_ahead_kb file of the block device holding `path` (a partition's is its disk's): 0, or -1. */
static int ra_find(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return -1;
    unsigned maj = major(st.st_dev), min = minor(st.st_dev);
    snprintf(ra_path, sizeof ra_path, "/sys/dev/block/%u:%u/queue/read_ahead_kb", maj, min);
    if (access(ra_path, W_OK) == 0)
        return 0;
    snprintf(ra_path, sizeof ra_path, "/sys/dev/block/%u:%u/../queue/read_ahead_kb", maj, min);
    if (access(ra_path, W_OK) == 0)
        return 0;
    ra_path[0] = 0;
    return -1;
}

/* Write `text` to the read-ahead file with open() and write() only (also from a signal handler): 0, or -1. */
static int ra_write(const char *text)
{
    int fd = open(ra_path, O_WRONLY);
    if (fd < 0)
        return -1;
    ssize_t n = write(fd, text, strlen(text));
    close(fd);
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

static long ra_read(void)
{
    long kb = -1;
    FILE *f = fopen(ra_path, "r");
    if (f) {
        if (fscanf(f, "%ld", &kb) != 1)
            kb = -1;
        fclose(f);
    }
    return kb;
}

static void ra_restore(void)
{
    if (ra_path[0] && ra_saved[0])
        (void)ra_write(ra_saved);
}

static void ra_on_signal(int sig)
{
    ra_restore();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* One setting ("default": the one found), the setting found saved first and put back at exit. 0, or -1. */
static int ra_apply(const char *kb)
{
    if (!ra_saved[0]) {
        long now = ra_read();
        if (now < 0)
            return -1;
        snprintf(ra_saved, sizeof ra_saved, "%ld\n", now);
        atexit(ra_restore);
        signal(SIGINT, ra_on_signal);
        signal(SIGTERM, ra_on_signal);
    }
    if (!strcmp(kb, "default"))
        return ra_write(ra_saved);
    char text[32];
    snprintf(text, sizeof text, "%s\n", kb);
    return ra_write(text);
}

/* The cold queries and seeks at the read-ahead set now. */
static int cold_windows(char *ntidx, char *trace, int windows, const struct stat *tst, const char *idx)
{
    uint64_t first, last, freq;
    if (trace_span(ntidx, trace, &first, &last, &freq) < 0 || last <= first) {
        fprintf(stderr, "cannot read the trace's time span\n");
        return 1;
    }
    uint64_t w = freq / 100; /* 10 ms */
    const char *out_path = access("/dev/shm", W_OK) == 0 ? "/dev/shm/bench_index.out" : "/tmp/bench_index.out";
    double *lat = calloc((size_t)windows, sizeof *lat), *seek = calloc((size_t)windows, sizeof *seek);
    double *start = calloc((size_t)windows, sizeof *start);
    double qread = 0, sread = 0;
    long qrss = 0, srss = 0;
    uint64_t seed = 42;
    int failed = 0;
    for (int i = 0; i < windows; i++) {
        /* what starting a process costs here and now: the floor under both figures */
        char *help[] = {ntidx, "--help", NULL};
        start[i] = cold_run(ntidx, help, NULL).secs;
        uint64_t t0 = first + rnd(&seed) % (last - first - (last - first > w ? w : 0));
        char f[32], t[32];
        snprintf(f, sizeof f, "%" PRIu64, t0);
        snprintf(t, sizeof t, "%" PRIu64, t0 + w);
        char *q[] = {ntidx, "query", trace, "--from", f, "--to", t, "--format", "jsonl", NULL};
        run r = cold_run(ntidx, q, out_path);
        failed |= r.status != 0;
        lat[i] = r.secs;
        qread += (double)r.inblock * 512;
        qrss = max_l(qrss, r.maxrss_kb);
        char at[32];
        snprintf(at, sizeof at, "%" PRIu64, first + rnd(&seed) % (last - first));
        char *s[] = {ntidx, "seek", trace, "--at", at, NULL};
        r = cold_run(ntidx, s, NULL);
        failed |= r.status != 0;
        seek[i] = r.secs;
        sread += (double)r.inblock * 512;
        srss = max_l(srss, r.maxrss_kb);
    }
    unlink(out_path);
    double load[3] = {0};
    FILE *la = fopen("/proc/loadavg", "r");
    if (la) {
        if (fscanf(la, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3)
            load[0] = -1;
        fclose(la);
    }
    long ra = ra_path[0] ? ra_read() : -1;
    char ra_text[48] = "not known";
    if (ra >= 0)
        snprintf(ra_text, sizeof ra_text, "%ld KB", ra);
    printf("trace: %s, %.2f GB, index %s; cold: page cache dropped before each run, binary warm; disk read-ahead "
           "%s; load average %.2f\n",
           trace, (double)tst->st_size / 1e9, idx, ra_text, load[0]);
    printf("cold query 10 ms window: p50 %.2f ms, p99 %.2f ms over %d random windows (target p50 <= 5 ms); "
           "%.0f KB read from disk per query; peak RSS %.1f MB\n",
           pct(lat, windows, 0.5) * 1e3, pct(lat, windows, 0.99) * 1e3, windows, qread / windows / 1024,
           (double)qrss / 1024);
    printf("cold seek:               p50 %.2f ms, p99 %.2f ms (target p50 <= 5 ms); %.0f KB read from disk per seek; "
           "peak RSS %.1f MB\n",
           pct(seek, windows, 0.5) * 1e3, pct(seek, windows, 0.99) * 1e3, sread / windows / 1024, (double)srss / 1024);
    printf("process start (ntidx --help, same conditions): p50 %.2f ms, p99 %.2f ms\n", pct(start, windows, 0.5) * 1e3,
           pct(start, windows, 0.99) * 1e3);
    if (failed)
        printf("(some runs failed: the figures include them)\n");
    free(lat);
    free(seek);
    free(start);
    return failed;
}

/* --cold: every query and seek from an empty page cache, at each read-ahead asked for (NULL: as it is). */
static int cold_mode(char *ntidx, char *trace, int windows, char *read_ahead)
{
    if (geteuid() != 0 || access("/proc/sys/vm/drop_caches", W_OK) != 0) {
        fprintf(stderr, "bench_index --cold needs root: it empties the page cache before each run "
                        "(sync; echo 1 > /proc/sys/vm/drop_caches)\n");
        return 2;
    }
    struct stat st;
    if (stat(trace, &st) != 0) {
        perror(trace);
        return 1;
    }
    char idx[4096];
    snprintf(idx, sizeof idx, "%s.ntidx", trace);
    char *ix[] = {ntidx, "index", trace, NULL};
    if (spawn(ix, NULL).status != 0) { /* built when missing or stale, else only loaded */
        fprintf(stderr, "ntidx index failed\n");
        return 1;
    }
    if (ra_find(trace) < 0 && read_ahead) {
        fprintf(stderr, "bench_index --read-ahead: no writable read_ahead_kb for the disk of %s\n", trace);
        return 2;
    }
    if (!read_ahead)
        return cold_windows(ntidx, trace, windows, &st, idx);
    int failed = 0;
    for (char *kb = strtok(read_ahead, ","); kb; kb = strtok(NULL, ",")) {
        if (ra_apply(kb) < 0) {
            fprintf(stderr, "bench_index --read-ahead %s: cannot set %s\n", kb, ra_path);
            failed = 1;
            break;
        }
        failed |= cold_windows(ntidx, trace, windows, &st, idx);
    }
    ra_restore();
    return failed;
}

int main(int argc, char **argv)
{
    int cold = 0, n = 0;
    char *pos[3] = {NULL, NULL, NULL}, *read_ahead = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--cold"))
            cold = 1;
        else if (!strcmp(argv[i], "--read-ahead") && i + 1 < argc)
            read_ahead = argv[++i];
        else if (n < 3)
            pos[n++] = argv[i];
    }
    if (n < 2 || (read_ahead && !cold)) {
        fprintf(stderr, "usage: bench_index NTIDX TRACE [WINDOWS] [--cold [--read-ahead KB[,KB...]]]\n");
        return 2;
    }
    char *ntidx = pos[0], *trace = pos[1];
    int windows = n > 2 ? atoi(pos[2]) : cold ? 30 : 100;
    if (windows < 2)
        windows = 2;
    if (cold)
        return cold_mode(ntidx, trace, windows, read_ahead);
    struct stat st;
    if (stat(trace, &st) != 0) {
        perror(trace);
        return 1;
    }
    double size_gb = (double)st.st_size / 1e9;
    char idx[4096], idx_tmp[4096];
    snprintf(idx, sizeof idx, "%s.ntidx", trace);
    snprintf(idx_tmp, sizeof idx_tmp, "%s.bench.ntidx", trace);

    char *cat[] = {"cat", trace, NULL};
    spawn(cat, NULL); /* into the page cache */
    double tc[3], ti[3];
    long rss = 0;
    for (int i = 0; i < 3; i++) {
        tc[i] = spawn(cat, NULL).secs;
        unlink(idx_tmp);
        char *ix[] = {ntidx, "index", trace, "-o", idx_tmp, NULL};
        run r = spawn(ix, NULL);
        if (r.status != 0) {
            fprintf(stderr, "ntidx index failed\n");
            return 1;
        }
        ti[i] = r.secs;
        if (r.maxrss_kb > rss)
            rss = r.maxrss_kb;
    }
    double cat_s = pct(tc, 3, 0.5), index_s = pct(ti, 3, 0.5);
    struct stat is;
    stat(idx_tmp, &is);
    rename(idx_tmp, idx); /* the queries below use it */
    double load = -1;
    FILE *la = fopen("/proc/loadavg", "r");
    if (la) {
        if (fscanf(la, "%lf", &load) != 1)
            load = -1;
        fclose(la);
    }
    printf("trace: %s, %.2f GB, load average %.2f\n", trace, size_gb, load);
    printf("cat > /dev/null:        %8.1f ms  (%.2f GB/s)\n", cat_s * 1e3, size_gb / cat_s);
    uint64_t nblocks;
    double floor_s = pread_floor(trace, idx, &nblocks);
    printf("ntidx index:            %8.1f ms  = %.2f%% of cat (target <= 5%%)", index_s * 1e3, 100 * index_s / cat_s);
    if (floor_s > 0)
        printf(", %.2fx the floor (target <= 1.2x)", index_s / floor_s);
    printf("; peak RSS %.1f MB (target <= 64 MB)\n", (double)rss / 1024);
    if (floor_s >= 0)
        printf("  floor (one 96-byte pread per block, %" PRIu64 " blocks, best of 3): %.1f ms = %.2f%% of cat, "
               "%.2f us per block\n",
               nblocks, floor_s * 1e3, 100 * floor_s / cat_s, nblocks ? floor_s * 1e6 / (double)nblocks : 0.0);
    printf("index size:             %8" PRIu64 " bytes = %.4f%% of the trace (target <= 0.1%%)\n",
           (uint64_t)is.st_size, 100.0 * (double)is.st_size / (double)st.st_size);
    /* `ntidx info` with the index just built beside the trace */
    double tinfo[3];
    long info_rss = 0;
    for (int i = 0; i < 3; i++) {
        char *in[] = {ntidx, "info", trace, NULL};
        run r = spawn(in, NULL);
        tinfo[i] = r.secs;
        if (r.maxrss_kb > info_rss)
            info_rss = r.maxrss_kb;
    }
    printf("ntidx info:             %8.1f ms  = %.2f%% of cat (median of 3); peak RSS %.1f MB\n",
           pct(tinfo, 3, 0.5) * 1e3, 100 * pct(tinfo, 3, 0.5) / cat_s, (double)info_rss / 1024);

    uint64_t first, last, freq;
    if (trace_span(ntidx, trace, &first, &last, &freq) < 0 || last <= first) {
        fprintf(stderr, "cannot read the trace's time span\n");
        return 1;
    }
    uint64_t w = freq / 100; /* 10 ms */
    /* an empty window (before the trace) measures the process's own page faults */
    char a0[32], a1[32];
    snprintf(a0, sizeof a0, "%" PRIu64, first > 2 ? first - 2 : 0);
    snprintf(a1, sizeof a1, "%" PRIu64, first > 1 ? first - 1 : 0);
    char *q0[] = {ntidx, "query", trace, "--from", a0, "--to", a1, "--format", "jsonl", NULL};
    long base_flt = spawn(q0, NULL).minflt;
    /* The query's output goes to memory: on ext4, truncating and rewriting a file makes close() start
       writeback (auto_da_alloc), which would be timed as the query's. */
    const char *out_path = access("/dev/shm", W_OK) == 0 ? "/dev/shm/bench_index.out" : "/tmp/bench_index.out";
    double *lat = calloc((size_t)windows, sizeof *lat), *seek = calloc((size_t)windows, sizeof *seek);
    double touched = 0, read_bytes = 0;
    long events = 0, qrss = 0, srss = 0;
    uint64_t seed = 42;
    for (int i = 0; i < windows; i++) {
        uint64_t t0 = first + rnd(&seed) % (last - first - (last - first > w ? w : 0));
        char f[32], t[32];
        snprintf(f, sizeof f, "%" PRIu64, t0);
        snprintf(t, sizeof t, "%" PRIu64, t0 + w);
        char *q[] = {ntidx, "query", trace, "--from", f, "--to", t, "--format", "jsonl", NULL};
        run r = spawn(q, out_path);
        lat[i] = r.secs;
        qrss = max_l(qrss, r.maxrss_kb);
        touched += (double)(r.minflt - base_flt) * 4096;
        /* the blocks it read, from a second identical run with --stats (not timed) */
        char cmd[8192];
        snprintf(cmd, sizeof cmd, "'%s' query '%s' --from %s --to %s --format jsonl --stats 2>&1 >/dev/null", ntidx,
                 trace, f, t);
        FILE *p = popen(cmd, "r");
        char line[512] = "";
        if (p && fgets(line, sizeof line, p)) {
            char *b = strstr(line, "blocks");
            char *e = b ? strstr(b, "), ") : NULL;
            if (e)
                read_bytes += strtod(e + 3, NULL);
        }
        if (p)
            pclose(p);
        FILE *o = fopen(out_path, "r");
        int ch;
        while (o && (ch = fgetc(o)) != EOF)
            events += ch == '\n';
        if (o)
            fclose(o);
        char at[32];
        snprintf(at, sizeof at, "%" PRIu64, first + rnd(&seed) % (last - first));
        char *s[] = {ntidx, "seek", trace, "--at", at, NULL};
        run sr = spawn(s, NULL);
        seek[i] = sr.secs;
        srss = max_l(srss, sr.maxrss_kb);
    }
    printf("query 10 ms window:     p50 %.2f ms, p99 %.2f ms over %d random windows (target p50 < 5 ms), %.0f events "
           "per window; peak RSS %.1f MB\n",
           pct(lat, windows, 0.5) * 1e3, pct(lat, windows, 0.99) * 1e3, windows, (double)events / windows,
           (double)qrss / 1024);
    printf("  trace bytes touched:  %.0f KB per query (page faults beyond an empty query's) vs %.0f KB of blocks "
           "read (window blocks + context)\n",
           touched / windows / 1024, read_bytes / windows / 1024);
    printf("seek:                   p50 %.2f ms, p99 %.2f ms (target p50 < 2 ms); peak RSS %.1f MB\n",
           pct(seek, windows, 0.5) * 1e3, pct(seek, windows, 0.99) * 1e3, (double)srss / 1024);
    unlink(out_path);
    free(lat);
    free(seek);
    return 0;
}
