/*
 * Runs one example of the documentation (doc_examples.c, written by
 * gen_examples.py) on a trace, in the context the examples assume
 * (examples.h):
 *
 *   doc_examples list                 the examples, one FILE:LINE a line
 *   doc_examples run FILE:LINE TRACE  run it
 *
 * Prints the example's output, then "\n@@ use() N" (the events it gave
 * use()). Exit 0 when it ran to its end without calling report(), 1 when it
 * failed, 2 when the context could not be set up.
 */
#include "examples.h"

static uint64_t used;
static int reported;

void use(const ntidx_event *e)
{
    if (!e) {
        fprintf(stderr, "use(NULL)\n");
        reported = 1;
    }
    used++;
}

void report(const char *message)
{
    fprintf(stderr, "report(): %s\n", message ? message : "(NULL)");
    reported = 1;
}

static int setup_failed(const char *what)
{
    fprintf(stderr, "doc_examples: %s: %s\n", what, ntidx_last_error());
    return -1;
}

/* The context of examples.h over `path`; `scan` keeps the reader `ev` came from. */
static int setup(const char *path, example_context *c, ntidx_reader **scan)
{
    memset(c, 0, sizeof *c);
    *scan = NULL;
    c->path = path;
    if (ntidx_trace_open(path, &c->t) < 0)
        return setup_failed("open");
    ntidx_index_options io;
    ntidx_index_options_defaults(&io);
    if (ntidx_index_build(c->t, &io, &c->x) < 0)
        return setup_failed("index");
    const ntidx_index_info *xi = ntidx_index_get_info(c->x);
    if (xi->first_ts <= xi->last_ts) {
        c->from = xi->first_ts;
        c->to = xi->last_ts == UINT64_MAX ? UINT64_MAX : xi->last_ts + 1;
    }

    ntidx_reader_options ro;
    ntidx_reader_options_defaults(&ro);
    const ntidx_event *e;
    int rc;
    /* the first event with a label list; else the first event, from a second reader */
    for (int pass = 0; pass < 2 && !c->ev; pass++) {
        ntidx_reader_close(scan);
        if (ntidx_reader_open(c->t, &ro, scan) < 0)
            return setup_failed("reader");
        while ((rc = ntidx_reader_next(*scan, &e)) == 1)
            if (pass == 1 || e->label_list_size) {
                c->ev = e;
                break;
            }
        if (rc < 0)
            return setup_failed("read");
    }
    if (!c->ev) {
        fprintf(stderr, "doc_examples: %s has no events\n", path);
        return -1;
    }

    uint64_t pos = ntidx_trace_get_info(c->t)->first_block_offset;
    ntidx_block blk;
    int first = 1;
    while ((rc = ntidx_trace_next_block(c->t, &pos, &blk)) == 1) {
        if (first || blk.kind == NTIDX_BLOCK_STACK)
            c->b = blk;
        first = 0;
        if (blk.kind == NTIDX_BLOCK_STACK)
            break;
    }
    if (rc < 0 && rc != NTIDX_E_TRUNCATED)
        return setup_failed("blocks");

    if (ntidx_reader_open(c->t, &ro, &c->r) < 0)
        return setup_failed("reader");
    return 0;
}

static void teardown(example_context *c, ntidx_reader **scan)
{
    ntidx_reader_close(&c->r);
    ntidx_reader_close(scan);
    ntidx_index_close(&c->x);
    ntidx_trace_close(&c->t);
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "list")) {
        for (size_t i = 0; i < example_count; i++)
            printf("%s%s\n", examples[i].where, examples[i].uses ? " use" : "");
        return 0;
    }
    if (argc != 4 || strcmp(argv[1], "run")) {
        fprintf(stderr, "usage: %s list | run FILE:LINE TRACE\n", argv[0]);
        return 2;
    }
    const example *ex = NULL;
    for (size_t i = 0; i < example_count; i++)
        if (!strcmp(examples[i].where, argv[2]))
            ex = &examples[i];
    if (!ex) {
        fprintf(stderr, "%s: no example %s\n", argv[0], argv[2]);
        return 2;
    }
    example_context c;
    ntidx_reader *scan;
    if (setup(argv[3], &c, &scan) < 0) {
        teardown(&c, &scan);
        return 2;
    }
    int rc = ex->run(&c);
    teardown(&c, &scan);
    printf("\n@@ use() %" PRIu64 "\n", used);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "%s: cannot write the output\n", argv[0]);
        return 1;
    }
    return rc != 0 || reported;
}
