/*
 * TRACE "-": a trace read from standard input (input.h). The library reads a
 * trace at random (headers first, blocks by offset), so a pipe is copied
 * whole first, into a temporary file that is unlinked as soon as it is
 * created: nothing is left behind, whatever ends the process. A regular file
 * given as standard input (`ntidx info - < t.nettrace`) is mapped as it is.
 */
#include "input.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* A file nobody else can open: created in $TMPDIR (else /tmp) and unlinked at once. */
static int anonymous_file(void)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
    size_t n = strlen(dir) + 32;
    char *path = malloc(n);
    if (!path)
        return -1;
    snprintf(path, n, "%s/ntidx-stdin.XXXXXX", dir);
    int fd = mkstemp(path);
    if (fd >= 0)
        unlink(path);
    free(path);
    return fd;
}

/* Standard input copied to `fd`. Returns the bytes copied, or -1 (errno set). */
static int64_t copy_stdin(int fd)
{
    static char buf[1 << 20];
    int64_t total = 0;
    for (;;) {
        ssize_t k = read(STDIN_FILENO, buf, sizeof buf);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return -1;
        if (k == 0)
            return total;
        for (ssize_t done = 0; done < k;) {
            ssize_t w = write(fd, buf + done, (size_t)(k - done));
            if (w < 0 && errno == EINTR)
                continue;
            if (w < 0)
                return -1;
            done += w;
        }
        total += k;
    }
}

int cli_stdin_open(cli_stdin *in)
{
    memset(in, 0, sizeof *in);
    struct stat st;
    int fd = -1, own = 0;
    int64_t size;
    if (fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode) && lseek(STDIN_FILENO, 0, SEEK_CUR) == 0) {
        fd = STDIN_FILENO; /* a file: mapped as it is, no copy */
        size = st.st_size;
    } else {
        if ((fd = anonymous_file()) < 0) {
            cli_error("%s: cannot make a temporary file to hold it: %s", CLI_STDIN_NAME, strerror(errno));
            return -1;
        }
        own = 1;
        if ((size = copy_stdin(fd)) < 0) {
            cli_error("%s: cannot read: %s", CLI_STDIN_NAME, strerror(errno));
            close(fd);
            return -1;
        }
    }
    if (size > 0) {
        in->data = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (in->data == MAP_FAILED) {
            in->data = NULL;
            cli_error("%s: cannot map: %s", CLI_STDIN_NAME, strerror(errno));
            if (own)
                close(fd);
            return -1;
        }
    }
    in->size = (size_t)size;
    if (own)
        close(fd); /* the mapping keeps the file */
    return 0;
}

void cli_stdin_close(cli_stdin *in)
{
    if (in->data)
        munmap(in->data, in->size);
    memset(in, 0, sizeof *in);
}
