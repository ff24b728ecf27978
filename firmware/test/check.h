/* A tiny test harness: CHECK records a failure and goes on; tests are plain functions. */
#ifndef CHECK_H
#define CHECK_H

#include <stdio.h>

extern int check_failures;
extern const char *check_test;

#define CHECK(cond) do { \
        if (!(cond)) { \
            check_failures++; \
            fprintf(stderr, "FAIL %s: %s:%d: %s\n", check_test, __FILE__, __LINE__, #cond); \
        } \
    } while (0)

#define CHECK_EQ(actual, expected) do { \
        long long a_ = (long long)(actual), e_ = (long long)(expected); \
        if (a_ != e_) { \
            check_failures++; \
            fprintf(stderr, "FAIL %s: %s:%d: %s == %lld, expected %lld\n", check_test, \
                    __FILE__, __LINE__, #actual, a_, e_); \
        } \
    } while (0)

typedef struct {
    const char *name;
    void (*run)(void);
} check_case_t;

#endif
