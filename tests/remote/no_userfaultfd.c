/*
 * Run a command where the userfaultfd system call is refused, as Docker's
 * default seccomp profile refuses it: a seccomp filter that answers it EPERM,
 * inherited by every process the command starts. The remote tests run under
 * it to hold the fallback of source_demand.c (SIGSEGV, demand_signal.c) to the
 * answers userfaultfd gives.
 * usage: no_userfaultfd COMMAND [ARGS...]
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define THIS_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define THIS_ARCH AUDIT_ARCH_AARCH64
#else
#error "no_userfaultfd: add this architecture's AUDIT_ARCH"
#endif

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: no_userfaultfd COMMAND [ARGS...]\n");
        return 2;
    }
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, THIS_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_userfaultfd, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {.len = sizeof filter / sizeof filter[0], .filter = filter};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
        fprintf(stderr, "no_userfaultfd: cannot install the seccomp filter: %s\n", strerror(errno));
        return 1;
    }
    /* the filter holds: the call is refused as under Docker's profile */
    if (syscall(SYS_userfaultfd, 0) != -1 || errno != EPERM) {
        fprintf(stderr, "no_userfaultfd: userfaultfd is not refused\n");
        return 1;
    }
    execvp(argv[1], argv + 1);
    fprintf(stderr, "no_userfaultfd: cannot run %s: %s\n", argv[1], strerror(errno));
    return 127;
}
