/* A minimal test harness: CHECK records a failure and goes on. */
#ifndef GAC_TESTS_CHECK_H
#define GAC_TESTS_CHECK_H

#include <stdio.h>

static int check_failures, check_count;

#define CHECK(cond)                                                        \
  do {                                                                     \
    check_count++;                                                         \
    if (!(cond)) {                                                         \
      check_failures++;                                                    \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                      \
  } while (0)

#define RUN_TEST(fn)                                                       \
  do {                                                                     \
    int before_ = check_failures;                                          \
    fn();                                                                  \
    printf("%s %s\n", check_failures == before_ ? "PASS" : "FAIL", #fn);   \
    tests_failed += check_failures != before_;                             \
    tests_run++;                                                           \
  } while (0)

static int tests_run, tests_failed;

static inline int check_summary(void) {
  printf("%d passed, %d failed\n", tests_run - tests_failed, tests_failed);
  return tests_failed ? 1 : 0;
}

#endif
