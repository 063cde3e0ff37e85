/* result_type.c - compiled (never run) by test_java_result_type: the
 * FJ_*_RESULT macros must refuse at compile time an output whose type is not
 * the result's type.  -DRESULT_TYPE, -DOUT_TYPE and -DWHICH (1 join, 2 invoke,
 * 3 get, 4 timed get) pick the case. */
#include "fj_java.h"

typedef struct typed_task {
    FJ_RECURSIVE_TASK(RESULT_TYPE);
} typed_task;

int copy_out(typed_task *p);

int copy_out(typed_task *p)
{
    OUT_TYPE out = 0;
#if WHICH == 1
    int rc = FJ_JOIN_RESULT(p, &out);
#elif WHICH == 2
    int rc = FJ_INVOKE_RESULT(p, &out);
#elif WHICH == 3
    int rc = FJ_GET_RESULT(p, &out);
#else
    int rc = FJ_GET_RESULT_TIMED(p, 0, &out);
#endif
    return rc + (int)out;
}
