/*
 * index_probe TRACE INDEX: load INDEX against TRACE with ntidx_index_load()
 * and print one JSON line: {"rc": N, "state": S, "full": 0|1, "blocks": N,
 * "complete": 0|1, "error": "..."}. For the growth and kill tests, which must
 * see what the library itself makes of an index, not what the command does
 * about it (it rebuilds silently). Exit 0 unless the trace cannot be opened.
 */
#include <stdio.h>

#include <ntidx/index.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: index_probe TRACE INDEX\n");
        return 2;
    }
    ntidx_trace *t;
    if (ntidx_trace_open(argv[1], &t) != NTIDX_OK) {
        fprintf(stderr, "index_probe: %s\n", ntidx_last_error());
        return 1;
    }
    ntidx_index *x = NULL;
    ntidx_index_state st = NTIDX_INDEX_CURRENT;
    int rc = ntidx_index_load(t, argv[2], NTIDX_VERIFY_AUTO, &x, &st);
    const char *err = rc < 0 ? ntidx_last_error() : "";
    const ntidx_index_info *i = x ? ntidx_index_get_info(x) : NULL;
    printf("{\"rc\": %d, \"state\": %d, \"full\": %d, \"blocks\": %llu, \"complete\": %d, \"error\": \"", rc,
           rc == 0 ? (int)st : -1, i ? i->full : 0, i ? (unsigned long long)i->blocks : 0ull, i ? i->complete : 0);
    for (const char *p = err; *p; p++) {
        if (*p == '"' || *p == '\\')
            putchar('\\');
        if ((unsigned char)*p >= 0x20)
            putchar(*p);
    }
    printf("\"}\n");
    ntidx_index_close(&x);
    ntidx_trace_close(&t);
    return 0;
}
