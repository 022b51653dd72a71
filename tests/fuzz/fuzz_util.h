/*
 * Helpers shared by the fuzz targets: a check that aborts (libFuzzer and the
 * replay driver both report an abort as a crash, with the input), and a
 * byte source that turns the fuzzer's input into choices.
 */
#ifndef NTIDX_FUZZ_UTIL_H
#define NTIDX_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The entry points: libFuzzer's, and the replay driver's optional summary (replay_main.c). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int fuzz_replay_summary(void);

#define FUZZ_CHECK(cond, ...)                                                                                  \
    do {                                                                                                       \
        if (!(cond)) {                                                                                         \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);                             \
            fprintf(stderr, __VA_ARGS__);                                                                      \
            fputc('\n', stderr);                                                                               \
            abort();                                                                                           \
        }                                                                                                      \
    } while (0)

/* Input bytes as a stream of choices; once they run out, a PRNG seeded by all of them takes over. */
typedef struct fuzz_src {
    const uint8_t *p;
    size_t n, i;
    uint64_t rng;
} fuzz_src;

static inline void fuzz_src_init(fuzz_src *s, const uint8_t *p, size_t n)
{
    s->p = p;
    s->n = n;
    s->i = 0;
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a of the input */
    for (size_t k = 0; k < n; k++)
        h = (h ^ p[k]) * 0x100000001b3ull;
    s->rng = h;
}

static inline uint64_t fuzz_splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline uint8_t fuzz_u8(fuzz_src *s)
{
    if (s->i < s->n)
        return s->p[s->i++];
    return (uint8_t)fuzz_splitmix(&s->rng);
}

static inline uint64_t fuzz_bytes_le(fuzz_src *s, int k)
{
    uint64_t v = 0;
    for (int i = 0; i < k; i++)
        v |= (uint64_t)fuzz_u8(s) << (8 * i);
    return v;
}

static inline int fuzz_exhausted(const fuzz_src *s) { return s->i >= s->n; }

/*
 * Write `n` bytes to a new temporary file (in /dev/shm when there is one) and
 * return its path in `path` (at least 64 bytes), for the APIs that take a
 * path (ntidx_index_load_ex()). The caller unlinks it. Aborts when it cannot.
 */
static inline void fuzz_temp_file(const void *p, size_t n, char *path)
{
    strcpy(path, access("/dev/shm", W_OK) == 0 ? "/dev/shm/ntidx-fuzz-XXXXXX" : "/tmp/ntidx-fuzz-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0) {
        perror("mkstemp");
        abort();
    }
    const char *b = p;
    while (n) {
        ssize_t w = write(fd, b, n);
        if (w <= 0) {
            perror("write");
            abort();
        }
        b += w;
        n -= (size_t)w;
    }
    close(fd);
}

#endif
