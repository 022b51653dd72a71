/*
 * How a pass advises the trace's mapping (ntx_trace_stream(), src/format/trace.c): sequential access and
 * huge pages, given to whole NTX_STREAM_CHUNK chunks once each, so that a pass whose plan skips blocks does
 * not cut the mapping into a kernel VMA per range (a process may hold 65530 of them). Counted in
 * /proc/self/maps: the trace's mapping stays one piece after a thousand scattered ranges are streamed, and a
 * window's prefetch (MADV_WILLNEED) never splits it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tbuild.h"
#include "trace_internal.h"

/* The lines of /proc/self/maps that map `path`: the pieces (VMAs) of its mappings. -1 without /proc. */
static int pieces_of(const char *path)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return -1;
    char line[4096];
    int n = 0;
    size_t len = strlen(path);
    while (fgets(line, sizeof line, f)) {
        size_t l = strlen(line);
        while (l && (line[l - 1] == '\n' || line[l - 1] == ' '))
            line[--l] = '\0';
        if (l >= len && !strcmp(line + l - len, path))
            n++;
    }
    fclose(f);
    return n;
}

static void test_stream_keeps_one_piece(void **state)
{
    (void)state;
    char path[] = "/tmp/ntidx-stream-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    tb f;
    tb_init(&f);
    v6_begin(&f);
    v6_end(&f);
    tb_zeros(&f, (8u << 20) - f.len); /* 8 MiB: two thousand pages to advise apart */
    assert_int_equal(write(fd, f.d, f.len), (ssize_t)f.len);
    close(fd);
    tb_free(&f);

    ntidx_trace *t = NULL;
    assert_int_equal(ntidx_trace_open(path, &t), NTIDX_OK);
    if (!t->map) { /* mapped traces only: nothing to count otherwise */
        ntidx_trace_close(&t);
        unlink(path);
        skip();
    }
    int before = pieces_of(path);
    if (before < 0) {
        ntidx_trace_close(&t);
        unlink(path);
        skip(); /* no /proc: nothing to count with */
    }
    assert_int_equal(before, 1);
    /* a window's exact prefetches: advice that changes nothing in the mapping's flags */
    for (uint64_t off = 4096; off < t->size; off += 64 * 4096)
        ntx_trace_prefetch(t, off, 4096);
    assert_int_equal(pieces_of(path), 1);
    /* a pass that skips blocks: a page streamed every other page, a thousand times */
    for (uint64_t off = 4096; off + 4096 < t->size && off < 2000 * 4096; off += 2 * 4096)
        ntx_trace_stream(t, off, 4096);
    int after = pieces_of(path);
    /* the whole chunk advised (the mapping is smaller than one): one piece; advice per range: a thousand */
    if (after != 1)
        fail_msg("the mapping is in %d pieces after the stream's advice (per range, not per chunk?)", after);
    ntidx_trace_close(&t);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stream_keeps_one_piece),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
