/* error.c - fj_strerror, and the calling thread's detail of its last
 * refusal (fj_last_error_detail). */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>

#include "../include/fj.h"

const char *fj_strerror(int error)
{
    switch (error) {
    case FJ_OK: return "success";
    case FJ_EINVAL: return "invalid argument (NULL, out of range, or already complete)";
    case FJ_ENOMEM: return "out of memory";
    case FJ_ESHUTDOWN: return "the pool has been shut down and accepts no more submissions";
    case FJ_ENOTFORKED: return "the task was never forked, invoked or submitted";
    case FJ_ECANCELED: return "the task was cancelled";
    case FJ_ETIMEDOUT: return "timed out waiting for the task";
    case FJ_EDEADLK: return "the call would wait for the calling worker itself";
    case FJ_ENOTWORKER: return "the call is valid only on a worker thread of a pool";
    case FJ_ESYSTEM: return "the system refused a resource (threads, CPU affinity)";
    case FJ_EBUSY: return "the task is already queued or running";
    default: return error < 0 ? "task-specific error" : "unknown code";
    }
}

/* Thread-local: each thread reads the account of its own calls. */
static __thread char error_detail[ERROR_DETAIL_SIZE];

const char *fj_last_error_detail(void) { return error_detail; }

int error_refuse(int code, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(error_detail, sizeof error_detail, format, args);
    va_end(args);
    return code;
}

void error_clear(void) { error_detail[0] = '\0'; }

int error_null(const char *call, const char *argument)
{
    return error_refuse(FJ_EINVAL, "%s: %s is NULL", call, argument);
}
