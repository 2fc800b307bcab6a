/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * alloc.h - the project's allocator: cm_malloc and friends, thin wrappers
 * over libc's, and the failing-allocator hook that docs/STYLE.md 2.9 asks for
 * ("faults are injected through interfaces").  Every allocation in src/
 * goes through these (the layering test 0001 checks it), so that a unit
 * test can make the Nth one from now fail and watch the out-of-memory path
 * it reaches: a clean -ENOMEM with its text, nothing leaked, no half file.
 *
 *     for (long n = 1;; n++) {
 *         cm_alloc_fail_nth(n, 1);          // the nth and every later one
 *         rc = operation_under_test(...);
 *         failed = cm_alloc_failed();
 *         cm_alloc_fail_off();
 *         if (failed == 0) break;           // it ran without a failure
 *         assert rc is the documented error, clean up, check no leak
 *     }
 *
 * The hook is per thread: a test arms it in its own thread, and a server
 * core that serves it from another thread (tests/unit/helpers) is not
 * touched, so which allocation fails is the same on every run.
 *
 * Outside the hook: what the libraries allocate on their own (Judy,
 * libyaml's parser and emitter, libtirpc's XDR and client handles, libnfs)
 * and libc's own (stdio buffers, open_memstream).  Their failures reach the
 * project as the library's error return and are handled there, but no test
 * can make them happen.
 */
#ifndef CM_ALLOC_H
#define CM_ALLOC_H

#include <stddef.h>

/* As malloc, calloc, realloc, strdup and strndup; NULL (with errno ENOMEM)
 * when the hook says fail.  cm_malloc(0) and cm_calloc(0, x) return a
 * unique pointer, never NULL, so that a NULL always means failure.
 * cm_realloc(p, 0) keeps a one-byte block (C23 leaves realloc(p, 0)
 * undefined). */
void *cm_malloc(size_t size);
void *cm_calloc(size_t n, size_t size);
void *cm_realloc(void *p, size_t size);
char *cm_strdup(const char *s);
char *cm_strndup(const char *s, size_t n);
/* realloc of n elements of size bytes: NULL (ENOMEM) when n * size
 * overflows, p left as it was. */
void *cm_reallocarray(void *p, size_t n, size_t size);

/* Gives the free memory of the heap back to the system where libc can
 * (glibc's malloc_trim; elsewhere nothing happens): a long-running program
 * that freed much calls it so that its resident size falls with what it
 * holds.  Returns 1 when memory was given back.  Costs a walk of the free
 * lists: call it after large frees, not per free. */
int cm_alloc_release(void);

/* Asks for huge pages under [p, p + size) where the system gives them on
 * request (Linux's transparent huge pages in "madvise" mode): a large
 * table read at random (the stack's block map) then costs one TLB entry
 * per 2 MiB, not per 4 KiB.  Advice only: nothing changes where it is not
 * supported, and the memory stays the caller's, freed as before. */
void cm_advise_huge(void *p, size_t size);

/* ---- the test hook ------------------------------------------------------ */

/* Makes the nth allocation from now fail (n = 1: the next one), and with
 * sticky every one after it too, in the calling thread.  n <= 0 turns the
 * hook off, as cm_alloc_fail_off does.  Resets cm_alloc_failed. */
void cm_alloc_fail_nth(long n, int sticky);
void cm_alloc_fail_off(void);
/* Allocations attempted in this thread since it started (failed ones too). */
unsigned long cm_alloc_count(void);
/* Allocations the hook made fail since the last cm_alloc_fail_nth. */
unsigned long cm_alloc_failed(void);

#endif /* CM_ALLOC_H */
