/*
 * What the documentation's examples assume (tests/examples/gen_examples.py):
 * the context a fragment is run in, and the table of examples the generated
 * doc_examples.c defines and examples_main.c runs.
 */
#ifndef NTIDX_TEST_EXAMPLES_H
#define NTIDX_TEST_EXAMPLES_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ntidx/analysis.h>
#include <ntidx/batch.h>
#include <ntidx/index.h>
#include <ntidx/ntidx.h>
#include <ntidx/output.h>
#include <ntidx/report.h>
#include <ntidx/slice.h>
#include <ntidx/symbols.h>
#include <ntidx/writer.h>

/* What a fragment may use without declaring it. */
typedef struct example_context {
    const char *path;      /* a trace file */
    ntidx_trace *t;        /* that trace, open */
    ntidx_index *x;        /* its index (built in memory) */
    ntidx_reader *r;       /* a reader over t, in file order, before its first event */
    const ntidx_event *ev; /* an event of t: the first with a label list, else the first */
    ntidx_block b;         /* a block of t: the first stack block, else the first block */
    uint64_t from, to;     /* a window holding every event of t: [from, to) in raw ticks */
} example_context;

#define EXAMPLE_CONTEXT(c)                                                                                  \
    const char *path = (c)->path;                                                                           \
    ntidx_trace *t = (c)->t;                                                                                \
    ntidx_index *x = (c)->x;                                                                                \
    ntidx_reader *r = (c)->r;                                                                               \
    const ntidx_event *ev = (c)->ev;                                                                        \
    ntidx_block b = (c)->b;                                                                                 \
    uint64_t from = (c)->from, to = (c)->to;                                                                \
    (void)path, (void)t, (void)x, (void)r, (void)ev, (void)b, (void)from, (void)to;

/* What the program does with an event (counted: an example that calls use() must get events). */
void use(const ntidx_event *e);
/* An error the example met: the run fails. */
void report(const char *message);

typedef struct example {
    const char *where;                       /* FILE:LINE of its opening line */
    int (*run)(const example_context *c);    /* 0: it ran to its end */
    int uses;                                /* it calls use() */
} example;

extern const example examples[];
extern const size_t example_count;

#endif
