/*
 * Names (issue 25, item 6): provider filters match without regard to case,
 * as EventPipe and dotnet-trace compare providers, also where a --full
 * index prunes blocks by their Bloom filters (which hash the names as the
 * trace spells them); and a filter that names nothing the trace defines is
 * told with the trace's closest names (ntidx_type_list_closest(),
 * ntidx_index_check_names()), the words every client prints.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <ntidx/batch.h>
#include <ntidx/index.h>
#include <ntidx/writer.h>

typedef struct fixture {
    uint8_t *data;
    ntidx_trace *t;
    ntidx_index *x, *full;
    ntidx_type_list *types;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    ntidx_gen_options g;
    ntidx_gen_options_defaults(&g);
    g.events = 40000;
    g.seed = 21;
    size_t size;
    assert_int_equal(ntidx_generate_memory(&g, &f->data, &size), NTIDX_OK);
    assert_int_equal(ntidx_trace_open_memory(f->data, size, "names.nettrace", &f->t), NTIDX_OK);
    assert_int_equal(ntidx_index_build(f->t, NULL, &f->x), NTIDX_OK);
    ntidx_index_options o;
    ntidx_index_options_defaults(&o);
    o.full = 1;
    assert_int_equal(ntidx_index_build(f->t, &o, &f->full), NTIDX_OK);
    assert_int_equal(ntidx_index_types(f->t, f->x, &f->types), NTIDX_OK);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    ntidx_type_list_free(&f->types);
    ntidx_index_close(&f->x);
    ntidx_index_close(&f->full);
    ntidx_trace_close(&f->t);
    free(f->data);
    free(f);
    return 0;
}

/* The closest names, as one string "a|b|c". */
static char *closest(const ntidx_type_list *l, ntidx_name_kind kind, const char *name, const char *provider)
{
    ntidx_buf b = {0};
    int n = ntidx_type_list_closest(l, kind, name, provider, 3, &b);
    assert_true(n >= 0);
    static char out[1024];
    out[0] = 0;
    size_t at = 0;
    for (int i = 0; i < n; i++) {
        snprintf(out + strlen(out), sizeof out - strlen(out), "%s%s", i ? "|" : "", b.data + at);
        at += strlen(b.data + at) + 1;
    }
    assert_int_equal(at, b.len);
    ntidx_buf_free(&b);
    return out;
}

static void test_closest_names(void **state)
{
    fixture *f = *state;
    /* providers: equal but for case first, then names that hold it, then a few edits away */
    assert_string_equal(closest(f->types, NTIDX_NAME_PROVIDER, "contoso-typezoo", NULL), "Contoso-TypeZoo");
    assert_string_equal(closest(f->types, NTIDX_NAME_PROVIDER, "Contoso-TypeZo", NULL), "Contoso-TypeZoo");
    assert_string_equal(closest(f->types, NTIDX_NAME_PROVIDER, "Microsoft-Windows-DotNetRuntme", NULL),
                        "Microsoft-Windows-DotNETRuntime");
    assert_string_equal(closest(f->types, NTIDX_NAME_PROVIDER, "Contoso", NULL), "Contoso-TypeZoo|Contoso-V6Types");
    assert_string_equal(closest(f->types, NTIDX_NAME_PROVIDER, "Nothing-Like-It", NULL), "");
    /* events: by the names --event takes; a swap of neighbours is one edit */
    assert_string_equal(closest(f->types, NTIDX_NAME_EVENT, "Haertbeat", NULL), "Heartbeat");
    assert_string_equal(closest(f->types, NTIDX_NAME_EVENT, "GC/AllocTick", NULL), "GC/AllocationTick");
    assert_string_equal(closest(f->types, NTIDX_NAME_EVENT, "contoso-typezoo/Heartbeet", NULL),
                        "Contoso-TypeZoo/Heartbeat");
    /* one provider's events only */
    assert_string_equal(closest(f->types, NTIDX_NAME_EVENT, "Heartbeat", "Contoso-V6Types"), "");
    assert_string_not_equal(closest(f->types, NTIDX_NAME_EVENT, "Heartbeat", "contoso-typezoo"), "");
    ntidx_buf b = {0};
    assert_int_equal(ntidx_type_list_closest(f->types, 7, "x", NULL, 3, &b), NTIDX_E_INVALID_ARG);
    assert_int_equal(ntidx_type_list_closest(f->types, NTIDX_NAME_EVENT, "GC", NULL, 0, &b), 0);
    assert_int_equal(b.len, 0);
    ntidx_buf_free(&b);
}

/* ntidx_index_check_names() of these filters: its result, and its message (NULL: none expected). */
static void check(fixture *f, const char *provider, const char *event_name, int id, const char *want)
{
    ntidx_query_options o;
    ntidx_query_options_defaults(&o);
    o.provider = provider;
    o.event_name = event_name;
    if (id >= 0)
        o.has_event_id = 1, o.event_id = (uint32_t)id;
    ntidx_buf msg = {0};
    int rc = ntidx_index_check_names(f->t, f->x, &o, &msg);
    if (!want) {
        if (rc != 0)
            fail_msg("%s %s %d: %d %s", provider, event_name, id, rc, msg.data ? msg.data : "");
    } else {
        assert_int_equal(rc, 1);
        if (strcmp(msg.data, want))
            fail_msg("%s %s %d:\n got  %s\n want %s", provider, event_name, id, msg.data, want);
    }
    ntidx_buf_free(&msg);
}

static void test_check_names(void **state)
{
    fixture *f = *state;
    check(f, NULL, NULL, -1, NULL);
    check(f, "Contoso-TypeZoo", "Heartbeat", -1, NULL);
    check(f, "CONTOSO-TYPEZOO", "heartbeat", -1, NULL);
    check(f, "Microsoft-Windows-DotNETRuntime", NULL, 10, NULL);
    check(f, NULL, "Microsoft-Windows-DotNETRuntime/GC/AllocationTick", -1, NULL);
    check(f, "Contoso-TypeZo", NULL, -1, "no provider 'Contoso-TypeZo' in the trace (closest: Contoso-TypeZoo)");
    check(f, "Nobody", NULL, -1,
          "no provider 'Nobody' in the trace (its providers: Microsoft-Windows-DotNETRuntime, System.Runtime, "
          "Microsoft-Diagnostics-DiagnosticSource, Contoso-TypeZoo, Contoso-V6Types)");
    check(f, NULL, "GC/AllocTick", -1, "no event 'GC/AllocTick' in the trace (closest: GC/AllocationTick)");
    check(f, NULL, "Zzzzzzzzzz", -1, "no event 'Zzzzzzzzzz' in the trace");
    check(f, NULL, NULL, 4242, "no event with id 4242 in the trace");
    check(f, "Nobody", "GC/AllocTick", -1,
          "no provider 'Nobody' in the trace (its providers: Microsoft-Windows-DotNETRuntime, System.Runtime, "
          "Microsoft-Diagnostics-DiagnosticSource, Contoso-TypeZoo, Contoso-V6Types); no event 'GC/AllocTick' in the "
          "trace (closest: GC/AllocationTick)");
    check(f, "System.Runtime", "GC/AllocationTick", -1,
          "no event 'GC/AllocationTick' of provider 'System.Runtime' in the trace (the provider's events: "
          "EventCounters, EventCounters/Start, EventCounters/DCStart)");
    check(f, "System.Runtime", NULL, 10, "no event with id 10 of provider 'System.Runtime' in the trace");
    ntidx_query_options o;
    ntidx_query_options_defaults(&o);
    ntidx_buf msg = {0};
    assert_int_equal(ntidx_index_check_names(f->t, f->x, NULL, &msg), NTIDX_E_INVALID_ARG);
}

/* The offsets of a query's events and the bytes it read. */
static size_t run(fixture *f, const ntidx_index *x, const char *provider, int id, uint64_t *offsets, size_t cap,
                  uint64_t *bytes)
{
    ntidx_query_options o;
    ntidx_query_options_defaults(&o);
    o.provider = provider;
    if (id >= 0)
        o.has_event_id = 1, o.event_id = (uint32_t)id;
    ntidx_query *q = NULL;
    assert_int_equal(ntidx_query_open(f->t, x, &o, &q), NTIDX_OK);
    const ntidx_event *e;
    size_t n = 0;
    int rc;
    while ((rc = ntidx_query_next(q, &e)) == 1) {
        assert_true(n < cap);
        offsets[n++] = e->offset;
    }
    assert_int_equal(rc, 0);
    *bytes = ntidx_query_get_stats(q)->bytes_read;
    ntidx_query_close(&q);
    return n;
}

static void test_provider_case(void **state)
{
    fixture *f = *state;
    enum { CAP = 50000 };
    uint64_t *want = malloc(CAP * sizeof *want), *got = malloc(CAP * sizeof *got);
    assert_non_null(want);
    assert_non_null(got);
    static const char *const spellings[] = {"contoso-typezoo", "CONTOSO-TYPEZOO", "cOnToSo-TyPeZoO"};
    /* provider and event id: the case a --full index prunes blocks for by their Bloom filters */
    for (int id = -1; id <= 3; id += 4) {
        for (int full = 0; full < 2; full++) {
            const ntidx_index *x = full ? f->full : f->x;
            uint64_t want_bytes, bytes;
            size_t n = run(f, x, "Contoso-TypeZoo", id, want, CAP, &want_bytes);
            assert_true(n > 100);
            for (size_t i = 0; i < sizeof spellings / sizeof spellings[0]; i++) {
                size_t m = run(f, x, spellings[i], id, got, CAP, &bytes);
                assert_int_equal(m, n);
                assert_memory_equal(got, want, n * sizeof *want);
                assert_true(bytes == want_bytes); /* pruned as much as the exact spelling */
            }
            assert_int_equal(run(f, x, "Contoso-TypeZo", id, got, CAP, &bytes), 0);
        }
    }
    free(want);
    free(got);
}

/*
 * A trace where one provider's events are in one event block of twenty: a --full index prunes the others
 * by their Bloom filters for its name in any case (a query of another spelling must not read more, nor
 * find nothing as it did when the filters' keys were compared with the name as given).
 */
static void test_bloom_pruning_any_case(void **state)
{
    (void)state;
    ntidx_writer_options wo;
    ntidx_writer_options_defaults(&wo);
    ntidx_writer *w = NULL;
    assert_int_equal(ntidx_writer_open_memory(&wo, &w), NTIDX_OK);
    const char *providers[2] = {"Busy-Provider", "Rare-Provider"};
    for (uint32_t i = 0; i < 2; i++) {
        ntidx_metadata m;
        memset(&m, 0, sizeof m);
        m.id = i + 1;
        m.provider = providers[i];
        m.event_id = 7;
        m.event_name = "Tick";
        m.opcode = -1;
        assert_int_equal(ntidx_writer_add_metadata(w, &m), NTIDX_OK);
    }
    ntidx_thread th = {1, 1, 0, 4242, 0, NULL, {0}};
    assert_int_equal(ntidx_writer_add_thread(w, &th), NTIDX_OK);
    uint32_t seq = 0;
    uint64_t ts = 1000;
    for (int region = 0; region < 20; region++) {
        for (int k = 0; k < 200; k++) {
            ntidx_event ev;
            memset(&ev, 0, sizeof ev);
            ev.metadata_id = region == 13 && k == 100 ? 2 : 1;
            ev.sequence_number = ++seq;
            ev.thread_index = ev.capture_thread_index = 1;
            ev.timestamp = ts++;
            ev.is_sorted = 1;
            assert_int_equal(ntidx_writer_add_event(w, &ev), NTIDX_OK);
        }
        const ntidx_thread_seq sp = {1, seq};
        assert_int_equal(ntidx_writer_sequence_point(w, ts++, 0, &sp, 1), NTIDX_OK);
    }
    assert_int_equal(ntidx_writer_finish(w), NTIDX_OK);
    size_t size;
    const uint8_t *p = ntidx_writer_memory(w, &size);
    uint8_t *data = malloc(size);
    assert_non_null(data);
    memcpy(data, p, size);
    assert_int_equal(ntidx_writer_close(&w), NTIDX_OK);
    fixture f;
    memset(&f, 0, sizeof f);
    assert_int_equal(ntidx_trace_open_memory(data, size, "rare.nettrace", &f.t), NTIDX_OK);
    ntidx_index_options o;
    ntidx_index_options_defaults(&o);
    o.full = 1;
    assert_int_equal(ntidx_index_build(f.t, &o, &f.full), NTIDX_OK);
    assert_int_equal(ntidx_index_build(f.t, NULL, &f.x), NTIDX_OK);
    uint64_t off[4], exact, plain, lower, upper;
    assert_int_equal(run(&f, f.full, "Rare-Provider", 7, off, 4, &exact), 1);
    assert_int_equal(run(&f, f.x, "Rare-Provider", 7, off, 4, &plain), 1);
    assert_int_equal(run(&f, f.full, "rare-provider", 7, off, 4, &lower), 1);
    assert_int_equal(run(&f, f.full, "RARE-PROVIDER", 7, off, 4, &upper), 1);
    assert_true(exact * 5 < plain); /* the filters pruned */
    assert_true(lower == exact && upper == exact);
    assert_int_equal(run(&f, f.full, "Rare-Provide", 7, off, 4, &lower), 0);
    ntidx_index_close(&f.x);
    ntidx_index_close(&f.full);
    ntidx_trace_close(&f.t);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_closest_names),
        cmocka_unit_test(test_check_names),
        cmocka_unit_test(test_provider_case),
        cmocka_unit_test(test_bloom_pruning_any_case),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
