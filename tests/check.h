/* check.h — the assertion macro of the C unit tests: count, report, keep going. */
#ifndef GATECRASH_CHECK_H
#define GATECRASH_CHECK_H

#include <stdio.h>

static int failures, checks;

#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        checks++;                                                            \
        if (!(cond)) {                                                       \
            failures++;                                                      \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);             \
            fprintf(stderr, __VA_ARGS__);                                    \
            fputc('\n', stderr);                                             \
        }                                                                    \
    } while (0)

/* The closing line ctest's runner and CI read: "N passed, N failed". */
static int check_summary(void)
{
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}

#endif
