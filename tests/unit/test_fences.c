/* test_fences.c - the fence mode (runtime/fence.c): chosen once, named on the
 * first line of the statistics table, and correct work when the kernel's
 * membarrier is refused, as a container's seccomp filter refuses it.  Each
 * case runs in its own process (the mode is chosen at the first pool). */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/membarrier.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"
#include "fib_tasks.h"

static long membarrier_call(int cmd) { return syscall(SYS_membarrier, cmd, 0, 0); }

/* The first line fj_pool_print_stats writes for a pool of check_workers. */
static void first_stats_line(char *line, size_t size)
{
    fj_pool *pool = check_pool();
    FILE *out = tmpfile();
    CHECK(out != NULL);
    CHECK_RC(0, fj_pool_print_stats(pool, out));
    rewind(out);
    CHECK(fgets(line, (int)size, out) != NULL);
    fclose(out);
    CHECK_RC(0, fj_pool_destroy(pool));
}

static int starts_with(const char *text, const char *prefix) { return strncmp(text, prefix, strlen(prefix)) == 0; }

/* What the kernel offers this process, asked directly: the library must say
 * membarrier exactly when this succeeds (registering twice is harmless). */
static int kernel_offers_membarrier(void)
{
    long supported = membarrier_call(MEMBARRIER_CMD_QUERY);
    return supported >= 0 && (supported & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
           membarrier_call(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0;
}

static void stats_name_the_kernels_mode(void)
{
    unsetenv("FJ_FENCE");
    char line[256];
    first_stats_line(line, sizeof line);
    if (kernel_offers_membarrier())
        CHECK(strcmp(line, "fences: membarrier (MEMBARRIER_CMD_PRIVATE_EXPEDITED)\n") == 0);
    else
        CHECK(starts_with(line, "fences: full on both sides, "));
}

static void stats_name_full_fences_when_asked(void)
{
    setenv("FJ_FENCE", "full", 1);
    char line[256];
    first_stats_line(line, sizeof line);
    CHECK(strcmp(line, "fences: full on both sides, as FJ_FENCE=full asks\n") == 0);
}

#if defined(__x86_64__)
#define THIS_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define THIS_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

/* A seccomp filter that fails membarrier with EPERM, as container runtimes'
 * default profiles did before they allowed it (Docker's until 2020,
 * moby/moby#40731): every command, or with `command` >= 0 that one only.
 * Returns 0 when the filter is in place and reaches membarrier, else says why
 * not and returns -1.  (A kernel without MEMBARRIER_CMD_PRIVATE_EXPEDITED, the
 * third reason fence.c names, cannot be imitated: a filter can fail a call but
 * not shape what it returns.) */
static int refuse_membarrier(int command)
{
#ifdef THIS_AUDIT_ARCH
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, THIS_AUDIT_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_membarrier, 0, 3),
        /* the command: the low word of the first argument (little-endian) */
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)command, 0, command >= 0 ? 1 : 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog program = {(unsigned short)(sizeof filter / sizeof filter[0]), filter};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != 0) {
        printf("skipped: no seccomp filter here (%s)\n", strerror(errno));
        return -1;
    }
    /* An emulator (qemu-user) may accept the filter for its own system calls. */
    if (membarrier_call(command >= 0 ? command : MEMBARRIER_CMD_QUERY) != -1 || errno != EPERM) {
        printf("skipped: the filter does not reach membarrier here\n");
        return -1;
    }
    return 0;
#else
    printf("skipped: no seccomp filter written for this architecture\n");
    return -1;
#endif
}

/* The container case: membarrier refused.  The pool must still be created,
 * name the fallback and its reason, and compute right with both task APIs
 * (every pop and spawn then fences: deque.c point 7, frame.c). */
static void refused_membarrier_falls_back_to_full_fences(void)
{
    unsetenv("FJ_FENCE");
    if (refuse_membarrier(-1) != 0)
        return;
    char line[256];
    first_stats_line(line, sizeof line);
    CHECK(starts_with(line, "fences: full on both sides, membarrier(MEMBARRIER_CMD_QUERY) failed"));
    CHECK(strstr(line, strerror(EPERM)) != NULL);
    fj_pool *pool = check_pool();
    int n = 24 - (check_scale() > 1) * 2;
    CHECK_EQ(fib_serial(n), FJ_RUN(pool, fib, n));
    fib_task root = {FJ_TASK_INIT(fib_classic), n, 0};
    CHECK_RC(0, fj_pool_invoke(pool, &root.task));
    CHECK_EQ(fib_serial(n), root.result);
    CHECK_RC(0, fj_pool_destroy(pool));
}

/* The query answers but the registration is refused (a filter on that
 * command alone): the fallback names the registration. */
static void refused_registration_is_named(void)
{
    unsetenv("FJ_FENCE");
    long supported = membarrier_call(MEMBARRIER_CMD_QUERY);
    if (supported < 0 || !(supported & MEMBARRIER_CMD_PRIVATE_EXPEDITED)) {
        printf("skipped: this kernel offers no MEMBARRIER_CMD_PRIVATE_EXPEDITED to refuse\n");
        return;
    }
    if (refuse_membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) != 0)
        return;
    char line[256];
    first_stats_line(line, sizeof line);
    CHECK(starts_with(line, "fences: full on both sides, membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) failed: "));
    CHECK(strstr(line, strerror(EPERM)) != NULL);
}

static const check_case cases[] = {
    {"stats_name_the_kernels_mode", stats_name_the_kernels_mode, CHECK_ONCE},
    {"stats_name_full_fences_when_asked", stats_name_full_fences_when_asked, CHECK_ONCE},
    {"refused_membarrier_falls_back_to_full_fences", refused_membarrier_falls_back_to_full_fences, CHECK_PER_WORKERS},
    {"refused_registration_is_named", refused_registration_is_named, CHECK_ONCE},
};
CHECK_MAIN(cases)
