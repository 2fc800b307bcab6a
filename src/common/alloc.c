/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * alloc.c - cm_malloc and friends over libc, and the failing-allocator
 * hook of alloc.h (SQLite's "fail the Nth malloc" in small).
 *
 * Cost when the hook is off: one thread-local increment and one compare
 * per allocation (fail_at is 0, the counter never reaches it), next to
 * the allocation itself.  The hot paths allocate nothing per call anyway;
 * this is what setup, parsing and result writing pay.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h> /* malloc_trim: the one libc-specific call, here only */
#endif
#ifdef __linux__
#include <sys/mman.h> /* madvise(MADV_HUGEPAGE) */
#endif

#include "common/alloc.h"

/* Per thread, so that a test's hook does not fire in a server thread
 * serving it (see alloc.h). */
static _Thread_local unsigned long count;   /* attempts so far */
static _Thread_local unsigned long fail_at; /* 0: off; else the count that fails */
static _Thread_local int fail_sticky;       /* and every one after it */
static _Thread_local unsigned long failed;  /* failures the hook made */

/* Counts one attempt; 1 when the hook says this one fails. */
static int hook_fails(void)
{
    count++;
    if (fail_at == 0 || count < fail_at)
        return 0;
    if (count > fail_at && !fail_sticky)
        return 0;
    failed++;
    errno = ENOMEM;
    return 1;
}

void cm_alloc_fail_nth(long n, int sticky)
{
    fail_at = n > 0 ? count + (unsigned long)n : 0;
    fail_sticky = sticky;
    failed = 0;
}

void cm_alloc_fail_off(void)
{
    fail_at = 0;
    fail_sticky = 0;
}

unsigned long cm_alloc_count(void)
{
    return count;
}

unsigned long cm_alloc_failed(void)
{
    return failed;
}

int cm_alloc_release(void)
{
#ifdef __GLIBC__
    /* glibc keeps freed small blocks (below its mmap threshold) in its
     * heap for reuse; malloc_trim returns the whole free pages among them
     * (madvise) and the free top of the heap */
    return malloc_trim(0);
#else
    return 0;
#endif
}

void cm_advise_huge(void *p, size_t size)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1);
    uintptr_t b = ((uintptr_t)p + size) & ~(huge - 1);

    if (b > a) /* the whole 2 MiB pages inside; failure is harmless advice */
        (void)madvise((void *)a, b - a, MADV_HUGEPAGE);
#else
    (void)p;
    (void)size;
#endif
}

void *cm_malloc(size_t size)
{
    if (hook_fails())
        return NULL;
    return malloc(size ? size : 1);
}

void *cm_calloc(size_t n, size_t size)
{
    if (hook_fails())
        return NULL;
    return n && size ? calloc(n, size) : calloc(1, 1);
}

void *cm_realloc(void *p, size_t size)
{
    if (hook_fails())
        return NULL;
    return realloc(p, size ? size : 1);
}

void *cm_reallocarray(void *p, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size) {
        errno = ENOMEM;
        return NULL;
    }
    return cm_realloc(p, n * size);
}

char *cm_strdup(const char *s)
{
    return cm_strndup(s, strlen(s));
}

char *cm_strndup(const char *s, size_t n)
{
    size_t len = strnlen(s, n);
    char *d = cm_malloc(len + 1);

    if (d == NULL)
        return NULL;
    memcpy(d, s, len);
    d[len] = '\0';
    return d;
}
