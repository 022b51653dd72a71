/*
 * edge_trace OUT: write the report test's trace of edge cases (V5, 10 MHz):
 * strings made to break a page (an EventSource provider and event names
 * holding </script>, <!-- and markup), a GC with no GC/HeapStats, a GC the
 * trace's end cuts off, an activity and a contention wait that never stop,
 * next to ordinary ones. The page must show every string as text, draw a
 * mark for every record and say what is incomplete.
 */
#include <stdio.h>

#include "../analysis/es_trace.h"

#define MS RT_MS
#define PID 4242

/* What the page must show as text, never as markup. */
#define EVIL_PROVIDER "Evil</script><script>document.title='owned'</script><!--"
#define EVIL_NAME "Req<img src=x onerror=\"document.title='owned'\">"

static const uint64_t sizes[5] = {1000000, 2000000, 3000000, 400000, 50000};
static const uint64_t promoted[5] = {100000, 200000, 300000, 0, 0};

static void gc(rt_trace *rt, uint64_t t, uint32_t number, uint32_t gen, int heap_stats)
{
    rt_suspend_start(rt, 1, t * MS, 1);
    rt_suspend_stop(rt, 1, t * MS + MS / 10);
    rt_gc_start(rt, 1, t * MS + 2 * MS / 10, number, gen, 0, 0);
    rt_gc_end(rt, 1, t * MS + 22 * MS / 10, number, gen);
    if (heap_stats)
        rt_heap_stats(rt, 1, t * MS + 23 * MS / 10, sizes, promoted);
    rt_restart_stop(rt, 1, t * MS + 25 * MS / 10);
}

static void write_trace(const char *out)
{
    rt_trace rt;
    rt_begin(&rt, 5, PID);
    uint32_t start = es_meta(&rt, EVIL_PROVIDER, 1, EVIL_NAME "Start", 1);
    uint32_t stop = es_meta(&rt, EVIL_PROVIDER, 2, EVIL_NAME "Stop", 2);
    uint8_t a[16], b[16];
    es_path(PID, (const uint32_t[]){1}, 1, a);
    es_path(PID, (const uint32_t[]){2}, 1, b);
    gc(&rt, 10, 1, 0, 1);
    es_item(&rt, start, 2, 12 * MS, a, NULL, 1);
    rt_contention_start(&rt, 3, 13 * MS, 2, 0x10, 2);
    rt_contention_stop(&rt, 3, 15 * MS, 1, 2e6);
    es_item(&rt, stop, 2, 18 * MS, a, NULL, 1);
    gc(&rt, 20, 2, 1, 0); /* no GC/HeapStats: no size after */
    rt_seqpoint(&rt, 25 * MS);
    gc(&rt, 30, 3, 2, 1);
    es_item(&rt, start, 2, 32 * MS, b, NULL, 2); /* never stops */
    rt_contention_start(&rt, 4, 33 * MS, 2, 0x20, 3); /* never stops */
    /* a GC the trace's end cuts off: its pause begins, nothing after GC/Start */
    rt_suspend_start(&rt, 1, 40 * MS, 1);
    rt_suspend_stop(&rt, 1, 40 * MS + MS / 10);
    rt_gc_start(&rt, 1, 40 * MS + 2 * MS / 10, 4, 0, 0, 0);
    size_t size;
    uint8_t *data = rt_end(&rt, 1, &size);
    FILE *f = fopen(out, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
        perror(out);
        exit(1);
    }
    free(data);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: edge_trace OUT\n");
        return 2;
    }
    write_trace(argv[1]);
    return 0;
}
