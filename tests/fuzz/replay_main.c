/*
 * Replays fuzz inputs without libFuzzer (the way zstd's
 * tests/fuzz/regression_driver.c does): links a target's
 * LLVMFuzzerTestOneInput and calls it once per file of each directory (or
 * file) named on the command line. Any check that fails in the target
 * aborts, naming the input first. Runs under the normal meson test with gcc
 * or clang, with or without sanitizers.
 *
 *   fuzz_reader_replay DIR_OR_FILE...
 *
 * A target may define fuzz_replay_summary(); it is called at the end and a
 * nonzero return fails the run (fuzz_index_load uses it to make sure its seeds
 * still load, i.e. that the corpus script and the target agree on the trace).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));
int fuzz_replay_summary(void) __attribute__((weak));

static unsigned long g_inputs;

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    if (fseek(f, 0, SEEK_END) != 0) {
        fclose(f);
        return 1;
    }
    long n = ftell(f);
    rewind(f);
    if (n < 0) {
        fclose(f);
        return 1;
    }
    /* an exact-size heap copy, so that ASan sees a read one byte past the input */
    uint8_t *buf = malloc(n ? (size_t)n : 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "%s: cannot read\n", path);
        free(buf);
        fclose(f);
        return 1;
    }
    fclose(f);
    fprintf(stderr, "replay: %s (%ld bytes)\n", path, n);
    LLVMFuzzerTestOneInput(buf, (size_t)n);
    free(buf);
    g_inputs++;
    return 0;
}

static int run_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        return 1;
    }
    if (!S_ISDIR(st.st_mode))
        return run_file(path);
    DIR *d = opendir(path);
    if (!d) {
        perror(path);
        return 1;
    }
    char **names = NULL;
    size_t count = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        if (count == cap) {
            cap = cap ? 2 * cap : 64;
            char **nn = realloc(names, cap * sizeof *names);
            if (!nn)
                abort();
            names = nn;
        }
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        names[count] = malloc(len);
        if (!names[count])
            abort();
        snprintf(names[count], len, "%s/%s", path, e->d_name);
        count++;
    }
    closedir(d);
    qsort(names, count, sizeof *names, cmp_str); /* the same order on every run */
    int bad = 0;
    for (size_t i = 0; i < count; i++) {
        struct stat fs;
        if (stat(names[i], &fs) == 0 && S_ISREG(fs.st_mode))
            bad |= run_file(names[i]);
        free(names[i]);
    }
    free(names);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s DIR_OR_FILE...\n", argv[0]);
        return 2;
    }
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    int bad = 0;
    for (int i = 1; i < argc; i++)
        bad |= run_path(argv[i]);
    if (fuzz_replay_summary && fuzz_replay_summary() != 0)
        bad = 1;
    fprintf(stderr, "replay: %lu inputs, %s\n", g_inputs, bad ? "FAILED" : "ok");
    return bad || g_inputs == 0;
}
