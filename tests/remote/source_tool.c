/*
 * The byte source from the command line, for tests/remote (internal API: src/format/source.h).
 *
 *   source_tool [--pread] NAME OUT OP...   open NAME, run the OPs, append what they read to OUT, print
 *                                          {"size", "etag", "last_modified", "name", "requests", "bytes",
 *                                          "retries", "buffers"} as JSON
 *   source_tool --put NAME FILE            upload FILE as NAME (ntx_source_put)
 * OPs: read:OFF:LEN  prefetch:OFF:LEN  release:OFF:LEN  keep:OFF:LEN (mapped: ntx_demand_keep)
 *      batch:1 batch:0  the hints between are one burst (ntx_source_batch)
 *      map            from here on, reads and hints go through the demand mapping (source_demand.c); the JSON
 *                     then also has "faults" (units a fault filled) and "by_signal" (1: no userfaultfd)
 *      stream:CHUNK   the whole object, CHUNK bytes a read, asking 32 MiB ahead and releasing behind (a pass)
 *      signal:PATH    create PATH;  waitfile:PATH  wait (10 s at most) until PATH exists
 * An error prints its message and exits 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ntidx/ntidx.h"
#include "source.h"
#include "source_demand.h"

/* A JSON string of `v` (ETags are quoted). */
static void json_str(const char *v)
{
    putchar('"');
    for (; *v; v++) {
        if (*v == '"' || *v == '\\')
            putchar('\\');
        putchar(*v);
    }
    putchar('"');
}

static const char *shown = ""; /* the name as messages show it */
static char *given;              /* the name given, without its query string */

static int fail(const ntx_err *e)
{
    fprintf(stderr, "%s: %s\n", shown, e->msg);
    return 1;
}

static int put(const char *name, const char *file)
{
    FILE *f = fopen(file, "rb");
    if (!f)
        return perror(file), 1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc(n > 0 ? (size_t)n : 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
        return fprintf(stderr, "cannot read %s\n", file), 1;
    fclose(f);
    ntx_err e;
    memset(&e, 0, sizeof e);
    int rc = ntx_source_put(name, buf, (size_t)n, &e);
    free(buf);
    if (rc != NTIDX_OK)
        return fail(&e);
    printf("{\"put\": %ld}\n", n);
    return 0;
}

int main(int argc, char **argv)
{
    int a = 1, pread_only = 0;
    if (argc >= 3 && (given = ntx_url_redact(argv[argv[1][0] == '-' ? 2 : 1])))
        shown = given;
    if (argc == 4 && strcmp(argv[1], "--put") == 0) {
        int rc = put(argv[2], argv[3]);
        free(given);
        return rc;
    }
    if (a < argc && strcmp(argv[a], "--pread") == 0)
        pread_only = 1, a++;
    if (argc - a < 2)
        return fprintf(stderr, "usage: source_tool [--pread] NAME OUT OP...\n"), 2;
    ntx_err e;
    memset(&e, 0, sizeof e);
    ntx_source *s;
    if (ntx_source_open(&s, argv[a], pread_only, &e) != NTIDX_OK) {
        fail(&e);
        free(given);
        return 1;
    }
    shown = s->name;
    FILE *out = fopen(argv[a + 1], "ab");
    if (!out)
        return perror(argv[a + 1]), 1;
    int rc = 0;
    ntx_demand *dm = NULL;
    ntx_fault_word fault = 0;
    for (int i = a + 2; i < argc && rc == 0; i++) {
        unsigned long long off = 0, len = 0;
        char path[4096];
        if (strcmp(argv[i], "map") == 0) {
            if (ntx_demand_map(s, &fault, &dm, &e) != NTIDX_OK)
                rc = fail(&e);
        } else if (sscanf(argv[i], "read:%llu:%llu", &off, &len) == 2 && dm) {
            /* through the mapping: byte by byte copies, so that the faults come from user code */
            const volatile uint8_t *p = ntx_demand_base(dm);
            uint8_t *buf = malloc(len ? len : 1);
            for (uint64_t k = 0; k < len && off + k < s->id.size; k++)
                buf[k] = p[off + k];
            if (ntx_fault_seen(&fault)) {
                ntx_demand_error(dm, &e);
                rc = fail(&e);
            } else
                fwrite(buf, 1, len, out);
            free(buf);
        } else if (sscanf(argv[i], "read:%llu:%llu", &off, &len) == 2) {
            char *buf = malloc(len ? len : 1);
            if (ntx_source_read(s, off, buf, len, &e) != NTIDX_OK)
                rc = fail(&e);
            else
                fwrite(buf, 1, len, out);
            free(buf);
        } else if (sscanf(argv[i], "prefetch:%llu:%llu", &off, &len) == 2) {
            if (dm)
                ntx_demand_prefetch(dm, off, len);
            else
                ntx_source_prefetch(s, off, len);
        } else if (sscanf(argv[i], "batch:%llu", &off) == 1) {
            ntx_source_batch(s, off != 0);
        } else if (sscanf(argv[i], "keep:%llu:%llu", &off, &len) == 2 && dm) {
            ntx_demand_keep(dm, off, len);
        } else if (sscanf(argv[i], "release:%llu:%llu", &off, &len) == 2) {
            if (dm)
                ntx_demand_release(dm, off, len);
            else
                ntx_source_release(s, off, len);
        }
        else if (sscanf(argv[i], "stream:%llu", &len) == 1 && len > 0) {
            char *buf = malloc(len);
            uint64_t ahead = 0;
            for (uint64_t pos = 0; pos < s->id.size && rc == 0; pos += len) {
                if (ahead < pos + (16u << 20)) { /* ask 32 MiB ahead when fewer than 16 are asked for */
                    ntx_source_prefetch(s, ahead, pos + (32u << 20) - ahead);
                    ahead = pos + (32u << 20);
                }
                uint64_t n = s->id.size - pos < len ? s->id.size - pos : len;
                if (ntx_source_read(s, pos, buf, n, &e) != NTIDX_OK)
                    rc = fail(&e);
                else
                    fwrite(buf, 1, n, out);
                ntx_source_release(s, pos, n);
            }
            free(buf);
        } else if (sscanf(argv[i], "signal:%4095s", path) == 1) {
            FILE *f = fopen(path, "w");
            if (f)
                fclose(f);
        } else if (sscanf(argv[i], "waitfile:%4095s", path) == 1) {
            for (int k = 0; k < 1000 && access(path, F_OK) != 0; k++)
                usleep(10000);
        } else {
            fprintf(stderr, "unknown op %s\n", argv[i]);
            rc = 2;
        }
    }
    fclose(out);
    int mapped = dm != NULL;
    uint64_t faults = mapped ? ntx_demand_faults(dm) : 0;
    int by_signal = mapped ? ntx_demand_by_signal(dm) : 0;
    ntx_demand_unmap(dm);
    if (rc == 0) {
        printf("{\"size\": %llu, ", (unsigned long long)s->id.size);
        if (mapped)
            printf("\"faults\": %llu, \"by_signal\": %d, ", (unsigned long long)faults, by_signal);
        printf("\"etag\": ");
        json_str(s->id.etag);
        printf(", \"last_modified\": ");
        json_str(s->id.last_modified);
        printf(", \"name\": ");
        json_str(s->name);
        printf(", \"requests\": %llu, \"bytes\": %llu, \"retries\": %llu, \"buffers\": %llu, \"remote\": %d}\n",
               (unsigned long long)s->n_requests, (unsigned long long)s->n_bytes, (unsigned long long)s->n_retries,
               (unsigned long long)s->n_buffers, s->remote);
    }
    ntx_source_close(s);
    free(given);
    return rc;
}
