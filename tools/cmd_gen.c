/* ntidx gen: write a deterministic synthetic trace (ntidx_generate_file). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ntidx/writer.h>

#include "cli.h"

static void gen_usage(FILE *f)
{
    fprintf(f,
            "usage: ntidx gen -o OUT [options]\n"
            "\n"
            "Write a synthetic trace: several threads whose events interleave out of\n"
            "order, sequence points, stacks, label lists (V6) and typed payloads of\n"
            "every field type. Same options and seed, same bytes.\n"
            "\n"
            "options:\n"
            "  -o, --output OUT              file to write (created or truncated)\n"
            "  --format-version 5|6          NetTrace V5 or V6 (default 6)\n"
            "  --size N[K|M|G]               stop once the trace reaches N bytes\n"
            "  --events N                    stop after N events (default 100000)\n"
            "  --seed S                      PRNG seed (default 0)\n"
            "  --threads N                   capture threads (default 8)\n"
            "  --drop-rate F                 fraction of events dropped, 0 <= F < 1\n"
            "  --metadata-flush-every N      V6: every Nth sequence point flushes metadata\n"
            "  --thread-flush-every N        V6: every Nth sequence point flushes threads\n"
            "  --remove-threads              V6: retire threads with RemoveThread blocks\n"
            "  --uncompressed                uncompressed event headers\n"
            "  --no-finish                   leave out the end-of-stream marker\n"
            "  -q, --quiet                   print nothing on success\n");
}

static int bad_value(const char *opt, const char *val)
{
    cli_error("gen: invalid value '%s' for %s", val ? val : "", opt);
    gen_usage(stderr);
    return CLI_USAGE;
}

static int parse_u32(const char *s, uint32_t *v)
{
    uint64_t x;
    if (cli_parse_u64(s, &x, 0) != 0 || x > UINT32_MAX)
        return -1;
    *v = (uint32_t)x;
    return 0;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int ntidx_cmd_gen(int argc, char **argv)
{
    ntidx_gen_options o;
    ntidx_gen_options_defaults(&o);
    const char *out = NULL;
    int have_size = 0, have_events = 0, quiet = 0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            gen_usage(stdout);
            return CLI_OK;
        }
        /* Flags without a value. */
        if (!strcmp(a, "--remove-threads")) {
            o.remove_threads = 1;
            continue;
        }
        if (!strcmp(a, "--uncompressed")) {
            o.compressed_headers = 0;
            continue;
        }
        if (!strcmp(a, "--no-finish")) {
            o.finish = 0;
            continue;
        }
        if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            quiet = 1;
            continue;
        }
        /* Options with a value: "--opt VALUE" or "--opt=VALUE". */
        char name[64];
        const char *val = NULL;
        const char *eq = strchr(a, '=');
        if (a[0] == '-' && a[1] == '-' && eq && (size_t)(eq - a) < sizeof(name)) {
            memcpy(name, a, (size_t)(eq - a));
            name[eq - a] = 0;
            val = eq + 1;
        } else {
            snprintf(name, sizeof(name), "%s", a);
        }
        static const char *const with_value[] = {
            "-o", "--output", "--format-version", "--size", "--events", "--seed", "--threads",
            "--drop-rate", "--metadata-flush-every", "--thread-flush-every"};
        int known = 0;
        for (size_t k = 0; k < sizeof(with_value) / sizeof(with_value[0]); k++)
            known |= !strcmp(name, with_value[k]);
        if (!known) {
            cli_error("gen: unknown option '%s'", a);
            gen_usage(stderr);
            return CLI_USAGE;
        }
        if (!val) {
            if (i + 1 >= argc) {
                cli_error("gen: %s needs a value", name);
                gen_usage(stderr);
                return CLI_USAGE;
            }
            val = argv[++i];
        }

        if (!strcmp(name, "-o") || !strcmp(name, "--output")) {
            if (!*val)
                return bad_value(name, val);
            out = val;
        } else if (!strcmp(name, "--format-version")) {
            if (strcmp(val, "5") && strcmp(val, "6"))
                return bad_value(name, val);
            o.format_version = val[0] - '0';
        } else if (!strcmp(name, "--size")) {
            if (cli_parse_u64(val, &o.target_bytes, 1) != 0 || o.target_bytes == 0)
                return bad_value(name, val);
            have_size = 1;
        } else if (!strcmp(name, "--events")) {
            if (cli_parse_u64(val, &o.events, 0) != 0 || o.events == 0)
                return bad_value(name, val);
            have_events = 1;
        } else if (!strcmp(name, "--seed")) {
            if (cli_parse_u64(val, &o.seed, 0) != 0)
                return bad_value(name, val);
        } else if (!strcmp(name, "--threads")) {
            if (parse_u32(val, &o.threads) != 0 || o.threads == 0 || o.threads > 4096)
                return bad_value(name, val);
        } else if (!strcmp(name, "--drop-rate")) {
            char *end;
            errno = 0;
            o.drop_rate = strtod(val, &end);
            if (errno || end == val || *end || !(o.drop_rate >= 0.0 && o.drop_rate < 1.0))
                return bad_value(name, val);
        } else if (!strcmp(name, "--metadata-flush-every")) {
            if (parse_u32(val, &o.metadata_flush_every) != 0)
                return bad_value(name, val);
        } else if (!strcmp(name, "--thread-flush-every")) {
            if (parse_u32(val, &o.thread_flush_every) != 0)
                return bad_value(name, val);
        }
    }

    if (!out) {
        cli_error("gen: no output file (-o OUT)");
        gen_usage(stderr);
        return CLI_USAGE;
    }
    if (have_size && have_events) {
        cli_error("gen: --size and --events cannot be used together");
        gen_usage(stderr);
        return CLI_USAGE;
    }
    if (o.format_version == 5 &&
        (o.metadata_flush_every || o.thread_flush_every || o.remove_threads)) {
        cli_error("gen: flushes and --remove-threads need --format-version 6");
        gen_usage(stderr);
        return CLI_USAGE;
    }

    double t0 = now_seconds();
    errno = 0;
    int rc = ntidx_generate_file(out, &o);
    if (rc != NTIDX_OK) {
        if ((rc == NTIDX_E_IO || rc == NTIDX_E_WRITE) && errno)
            cli_error("%s: %s: %s", out, ntidx_strerror(rc), strerror(errno));
        else
            cli_error("%s: %s", out, ntidx_strerror(rc));
        return CLI_FAIL;
    }
    double secs = now_seconds() - t0;
    if (!quiet) {
        FILE *f = fopen(out, "rb");
        long long size = -1;
        if (f && fseeko(f, 0, SEEK_END) == 0)
            size = (long long)ftello(f);
        if (f)
            fclose(f);
        printf("%s: %lld bytes, V%d, %.2f s (%.0f MB/s)\n", out, size, o.format_version, secs,
               secs > 0 && size > 0 ? (double)size / 1e6 / secs : 0.0);
    }
    return CLI_OK;
}
