/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * th_oom.h - unit-test helper: an operation run under the failing-
 * allocator hook (common/alloc.h) with each of its allocations failing in
 * turn, SQLite-style.  For n = 1, 2, ... the nth allocation fails, once
 * (the rest succeed) and then for good (every later one fails too), until
 * a run makes fewer than n allocations and so sees no failure.  Each run
 * that saw a failure must return the wanted error with a message; the
 * operation undoes all it made whatever it returns, so that the ASan
 * build's leak check (`make unit-asan`) sees any leak of a failure path.
 *
 *     static int op(void *ctx, char *err, size_t errlen)
 *     {
 *         ... build, use and free the thing under test ...
 *     }
 *     assert_true(th_oom_run("rc parse", op, &ctx, -ENOMEM) > 3);
 */
#ifndef TH_OOM_H
#define TH_OOM_H

#include <stddef.h>

/* Runs the operation from scratch and frees what it made; 0 or -errno,
 * with the reason in err. */
typedef int (*th_oom_op)(void *ctx, char *err, size_t errlen);

/* Runs op once without the hook (it must return 0), then under the hook
 * as above.  A run that saw a failure must return want (any negative value
 * when want is 0) and leave a message in err.  Fails the cmocka test with
 * the name, n and the mode otherwise.  Returns the number of allocations a
 * run without failures makes. */
long th_oom_run(const char *name, th_oom_op op, void *ctx, int want);

/* The same, with a setup before each run and a teardown after it, both
 * outside the hook (a server core to talk to, a fresh directory). */
struct th_oom_case {
    const char *name;
    void (*setup)(void *ctx); /* may be NULL; fails the test itself */
    th_oom_op op;
    void (*teardown)(void *ctx); /* may be NULL */
    int want;
    /* The last this many allocations may fail with the op succeeding: a
     * courtesy whose failure is ignored by design (nf_umount's UMNT at the
     * end of a session).  Their runs must still end cleanly. */
    long courtesy_tail;
};
long th_oom_check(const struct th_oom_case *c, void *ctx);

/* The number of entries in a directory (without . and ..), -1 when it
 * cannot be read: a writer that failed must leave no temporary file. */
int th_oom_dir_entries(const char *dir);

#endif /* TH_OOM_H */
