/*
 * gen_gc_trace OUT [--gcs N] [--pid P] [--v5] [--cut]: write a trace of the
 * .NET runtime's GC events (rt_trace.h) for the tests of the doors (Python,
 * Dask, SQL), which compare their tables with `ntidx gc` on it:
 *
 *   GC 1  gen0 blocking, AllocSmall, at 10 ms (pause 2.5 ms)
 *   GC 2  gen1 blocking, cut by a sequence point between GC/Start and GC/Stop, at 20 ms
 *   GC 3  gen2 blocking, Induced, at 30 ms, a pause of 150.5 ms (the fleet's "gen2 over 100 ms")
 *   GC 4  gen2 background from 200 ms, with GC 5 (gen1, its ephemeral GC) and GC 6 (gen0, foreground)
 *   GC 7.. N more gen0 blocking GCs, 10 ms apart, from 300 ms, on threads 1..7 in turn
 *   and a GC/Stop of no GC (1 unmatched), a GC/Start of 3 bytes (1 field error);
 *   --cut: a last GC whose writer died after its GC/Start (no end-of-stream): incomplete.
 *
 * Threads: 1001..1007 in V6 (OS thread ids), 1..7 in V5. Ticks: 10 MHz from 0 (1 ms is 10,000).
 */
#include <stdio.h>

#include "rt_trace.h"

#include <ntidx/analysis.h>

#define MS RT_MS

static const uint64_t sizes[5] = {1000000, 2000000, 3000000, 4000000, 0};
static const uint64_t promoted[5] = {100000, 200000, 300000, 0, 0};

static void blocking(rt_trace *rt, uint32_t thread, uint64_t t, uint64_t pause_ticks, uint32_t number, uint32_t gen,
                     uint32_t reason, uint32_t type, int cut)
{
    rt_suspend_start(rt, thread, t, 1);
    rt_suspend_stop(rt, thread, t + MS / 10);
    rt_gc_start(rt, thread, t + 2 * MS / 10, number, gen, reason, type);
    if (cut)
        rt_seqpoint(rt, t + 2 * MS / 10);
    rt_gc_end(rt, thread, t + pause_ticks - 3 * MS / 10, number, gen);
    rt_heap_stats(rt, thread, t + pause_ticks - 2 * MS / 10, sizes, promoted);
    rt_restart_stop(rt, thread, t + pause_ticks);
}

int main(int argc, char **argv)
{
    const char *out = NULL;
    uint32_t more = 0, pid = 4242;
    int v5 = 0, cut = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--gcs") && i + 1 < argc)
            more = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--pid") && i + 1 < argc)
            pid = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--v5"))
            v5 = 1;
        else if (!strcmp(argv[i], "--cut"))
            cut = 1;
        else if (!out && argv[i][0] != '-')
            out = argv[i];
        else {
            fprintf(stderr, "usage: gen_gc_trace OUT [--gcs N] [--pid P] [--v5] [--cut]\n");
            return 2;
        }
    }
    if (!out) {
        fprintf(stderr, "usage: gen_gc_trace OUT [--gcs N] [--pid P] [--v5] [--cut]\n");
        return 2;
    }
    rt_trace rt;
    rt_begin(&rt, v5 ? 5 : 6, pid);
    rt_gc_end(&rt, 2, 1 * MS, 99, 0); /* a GC/Stop of no GC: unmatched */
    uint8_t three[3] = {1, 2, 3};
    rt_event(&rt, 1, 2, 3, 2 * MS, three, 3); /* a GC/Start of 3 bytes: a field error */
    rt_alloc_tick(&rt, 1, 5 * MS, 100000, 0);
    blocking(&rt, 1, 10 * MS, 25 * MS / 10, 1, 0, 0, NTIDX_GC_NON_CONCURRENT, 0);
    rt_seqpoint(&rt, 15 * MS);
    blocking(&rt, 2, 20 * MS, 25 * MS / 10, 2, 1, 0, NTIDX_GC_NON_CONCURRENT, 1);
    rt_alloc_tick(&rt, 2, 25 * MS, 300000, 0);
    blocking(&rt, 3, 30 * MS, 1505 * MS / 10, 3, 2, 1, NTIDX_GC_NON_CONCURRENT, 0);
    rt_seqpoint(&rt, 190 * MS);
    /* a background GC: its suspension, GC/Start, the ephemeral gen1 GC, restart; a foreground gen0 GC; its
       final pause, its end */
    rt_suspend_start(&rt, 1, 200 * MS, 1);
    rt_suspend_stop(&rt, 1, 200 * MS + 2 * MS / 10);
    rt_gc_start(&rt, 1, 200 * MS + 3 * MS / 10, 4, 2, 0, NTIDX_GC_BACKGROUND);
    rt_gc_start(&rt, 1, 200 * MS + 4 * MS / 10, 5, 1, 0, NTIDX_GC_NON_CONCURRENT);
    rt_gc_end(&rt, 1, 201 * MS, 5, 1);
    rt_heap_stats(&rt, 1, 201 * MS + MS / 10, sizes, promoted);
    rt_restart_stop(&rt, 1, 201 * MS + 5 * MS / 10);
    rt_seqpoint(&rt, 202 * MS);
    rt_alloc_tick(&rt, 2, 205 * MS, 200000, 0);
    blocking(&rt, 2, 210 * MS, 25 * MS / 10, 6, 0, 0, NTIDX_GC_FOREGROUND, 1);
    rt_suspend_start(&rt, 4, 230 * MS, 6);
    rt_suspend_stop(&rt, 4, 230 * MS + MS / 10);
    rt_restart_stop(&rt, 4, 230 * MS + 6 * MS / 10);
    rt_gc_end(&rt, 4, 240 * MS, 4, 2);
    rt_heap_stats(&rt, 4, 240 * MS + MS / 10, sizes, promoted);
    rt_seqpoint(&rt, 250 * MS);
    for (uint32_t i = 0; i < more; i++) {
        uint64_t t = (300 + 10 * (uint64_t)i) * MS;
        rt_alloc_tick(&rt, 1 + i % 7, t - 2 * MS, 100000 + 1000 * i, 0);
        blocking(&rt, 1 + i % 7, t, 25 * MS / 10 + i * 10, 7 + i, 0, 0, NTIDX_GC_NON_CONCURRENT, i % 3 == 0);
        if (i % 5 == 4)
            rt_seqpoint(&rt, t + 5 * MS);
    }
    if (cut) {
        uint64_t t = (300 + 10 * (uint64_t)more + 10) * MS;
        rt_suspend_start(&rt, 5, t, 1);
        rt_suspend_stop(&rt, 5, t + MS / 10);
        rt_gc_start(&rt, 5, t + 2 * MS / 10, 7 + more, 0, 0, NTIDX_GC_NON_CONCURRENT);
    }
    size_t size;
    uint8_t *data = rt_end(&rt, !cut, &size);
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", out);
    FILE *f = fopen(tmp, "wb");
    int ok = f && fwrite(data, 1, size, f) == size;
    ok = f && fclose(f) == 0 && ok;
    free(data);
    if (!ok || rename(tmp, out) != 0) {
        perror(out);
        remove(tmp);
        return 1;
    }
    return 0;
}
