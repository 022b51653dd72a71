/*
 * grow_writer OUT [BATCHES [EVENTS_PER_BATCH [SLEEP_MS [SHIFT_BATCH]]]]
 *
 * Writes a V6 trace the way a live tracer does: block by block with
 * ntidx_writer_open_file(), flushing after each batch of events and sleeping
 * briefly, sequence points every few batches (some flushing threads and
 * metadata, which are then defined again), small event blocks, and the
 * end-of-stream marker only at the very end. After each flushed batch it
 * prints "BATCH BYTES" on stdout. For tests/growth/test_growth.py.
 *
 * With SHIFT_BATCH (tests/growth/test_rewrite.py), event headers are written
 * uncompressed (fixed sizes) and, if SHIFT_BATCH >= 0, every timestamp of
 * that batch and of the sequence point closing it is one tick later: the
 * same trace, byte for byte the same size and layout, with different bytes
 * only in the middle.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ntidx/writer.h>
#include "../test_rand.h"

#define NTH 3

static void check(int rc, const char *what)
{
    if (rc != NTIDX_OK) {
        fprintf(stderr, "grow_writer: %s: %s\n", what, ntidx_strerror(rc));
        exit(1);
    }
}

static uint64_t rng = 0x243f6a8885a308d3ull;
static uint64_t next_rand(void) { return test_rand_next(&rng); }

static const ntidx_field fields[] = {{"n", NTIDX_TYPE_INT32, 0, NULL, NULL, 0},
                                     {"big", NTIDX_TYPE_UINT64, 0, NULL, NULL, 0}};

static void define_metadata(ntidx_writer *w)
{
    ntidx_metadata m;
    memset(&m, 0, sizeof m);
    m.id = 1;
    m.provider = "Growth-Test";
    m.event_id = 1;
    m.event_name = "Tick";
    m.opcode = -1;
    m.has_fields = 1;
    m.fields = fields;
    m.field_count = 2;
    check(ntidx_writer_add_metadata(w, &m), "metadata");
    m.id = 2;
    m.event_id = 2;
    m.event_name = "Tock";
    m.has_fields = 0;
    m.fields = NULL;
    m.field_count = 0;
    check(ntidx_writer_add_metadata(w, &m), "metadata");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: grow_writer OUT [BATCHES [EVENTS_PER_BATCH [SLEEP_MS [SHIFT_BATCH]]]]\n");
        return 2;
    }
    int batches = argc > 2 ? atoi(argv[2]) : 100;
    int per_batch = argc > 3 ? atoi(argv[3]) : 500;
    int sleep_ms = argc > 4 ? atoi(argv[4]) : 30;
    int shift_batch = argc > 5 ? atoi(argv[5]) : -1;
    ntidx_writer_options o;
    ntidx_writer_options_defaults(&o);
    o.format_version = 6;
    o.max_event_block_bytes = 4096;
    o.compressed_headers = argc <= 5;
    ntidx_writer *w;
    check(ntidx_writer_open_file(argv[1], &o, &w), "open");
    uint64_t clock[NTH], index[NTH], next_index = 1;
    uint32_t seq[NTH];
    for (int i = 0; i < NTH; i++)
        clock[i] = 1000000;
    static const uint8_t ips[16] = {0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80,
                                    0x11, 0x21, 0x31, 0x41, 0x51, 0x61, 0x71, 0x81};
    int threads_alive = 0, meta_alive = 0, stack_alive = 0;
    for (int b = 0; b < batches; b++) {
        if (!meta_alive) {
            define_metadata(w);
            meta_alive = 1;
        }
        if (!threads_alive) {
            for (int i = 0; i < NTH; i++) {
                ntidx_thread th;
                memset(&th, 0, sizeof th);
                index[i] = next_index++;
                seq[i] = 0;
                th.index = index[i];
                th.has_os_thread_id = 1;
                th.os_thread_id = 0x500 + (uint64_t)i;
                check(ntidx_writer_add_thread(w, &th), "thread");
            }
            threads_alive = 1;
        }
        if (!stack_alive) {
            check(ntidx_writer_add_stack(w, 1, ips, sizeof ips), "stack");
            stack_alive = 1;
        }
        for (int k = 0; k < per_batch; k++) {
            int i = (int)(next_rand() % NTH);
            clock[i] += 1 + next_rand() % 50;
            uint8_t payload[12];
            int32_t n = b * per_batch + k;
            uint64_t big = next_rand();
            memcpy(payload, &n, 4);
            memcpy(payload + 4, &big, 8);
            ntidx_event e;
            memset(&e, 0, sizeof e);
            e.metadata_id = k % 3 ? 1 : 2;
            e.sequence_number = ++seq[i];
            e.thread_index = e.capture_thread_index = index[i];
            e.processor_number = (uint32_t)i;
            e.timestamp = clock[i] + (b == shift_batch);
            e.stack_id = k % 5 == 0 ? 1 : 0;
            e.payload = payload;
            e.payload_size = e.metadata_id == 1 ? 12 : 0;
            check(ntidx_writer_add_event(w, &e), "event");
        }
        if (b % 5 == 4) {
            uint64_t ts = 0;
            ntidx_thread_seq list[NTH];
            for (int i = 0; i < NTH; i++) {
                ts = clock[i] > ts ? clock[i] : ts;
                list[i] = (ntidx_thread_seq){index[i], seq[i]};
            }
            uint32_t flags = b % 20 == 19 ? NTIDX_SP_FLUSH_THREADS | NTIDX_SP_FLUSH_METADATA : 0;
            check(ntidx_writer_sequence_point(w, ts + (b == shift_batch), flags, list, NTH), "sequence point");
            for (int i = 0; i < NTH; i++)
                clock[i] = ts;
            stack_alive = 0;
            if (flags) {
                threads_alive = 0;
                meta_alive = 0;
            }
        }
        check(ntidx_writer_flush(w), "flush");
        printf("%d %llu\n", b, (unsigned long long)ntidx_writer_bytes(w));
        fflush(stdout);
        struct timespec ts = {sleep_ms / 1000, (long)(sleep_ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
    }
    check(ntidx_writer_finish(w), "finish");
    check(ntidx_writer_close(&w), "close");
    printf("done\n");
    return 0;
}
