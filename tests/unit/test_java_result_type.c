/* test_java_result_type.c - FJ_JOIN_RESULT, FJ_INVOKE_RESULT, FJ_GET_RESULT and
 * FJ_GET_RESULT_TIMED copy sizeof(result) bytes into the output, so an output
 * of another type (narrower: a stack overflow; same size: a reinterpretation)
 * must not compile.  Each case runs the compiler the suite was built with
 * (CHECK_CC, from mk/java.mk) on tests/tck/compile/result_type.c. */
#include <sys/wait.h>

#include "../check.h"

#ifndef CHECK_CC
#define CHECK_CC "cc"
#endif
#ifndef CHECK_SRCDIR
#define CHECK_SRCDIR "."
#endif

/* Exit status of compiling the snippet for one case (0: it compiled). */
static int compile_snippet(const char *result_type, const char *out_type, int which)
{
    char command[1024];
    snprintf(command, sizeof command,
             "%s -std=gnu11 -Wall -Wextra -Werror -I%s/include -fsyntax-only "
             "-DRESULT_TYPE='%s' -DOUT_TYPE='%s' -DWHICH=%d %s/tests/tck/compile/result_type.c 2>/dev/null",
             CHECK_CC, CHECK_SRCDIR, result_type, out_type, which, CHECK_SRCDIR);
    int status = system(command);
    if (status == -1 || !WIFEXITED(status))
        CHECK_FAIL("could not run: %s", command);
    return WEXITSTATUS(status);
}

static void same_type_output_compiles(void)
{
    for (int which = 1; which <= 4; which++) {
        CHECK_EQ(0, compile_snippet("double", "double", which));
        CHECK_EQ(0, compile_snippet("long", "long", which));
    }
}

static void narrower_output_does_not_compile(void)
{
    for (int which = 1; which <= 4; which++) {
        CHECK(compile_snippet("double", "int", which) != 0);
        CHECK(compile_snippet("long", "short", which) != 0);
    }
}

static void other_type_of_same_size_does_not_compile(void)
{
    for (int which = 1; which <= 4; which++) {
        CHECK(compile_snippet("long", "double", which) != 0);
        CHECK(compile_snippet("int", "unsigned", which) != 0);
    }
}

static void wider_output_does_not_compile(void)
{
    for (int which = 1; which <= 4; which++)
        CHECK(compile_snippet("int", "long", which) != 0);
}

static const check_case cases[] = {
    {"same_type_output_compiles", same_type_output_compiles, CHECK_ONCE},
    {"narrower_output_does_not_compile", narrower_output_does_not_compile, CHECK_ONCE},
    {"other_type_of_same_size_does_not_compile", other_type_of_same_size_does_not_compile, CHECK_ONCE},
    {"wider_output_does_not_compile", wider_output_does_not_compile, CHECK_ONCE},
};
CHECK_MAIN(cases)
