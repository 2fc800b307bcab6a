/* SPDX-License-Identifier: BSD-2-Clause */
/* test_client_oom.c - the generator parent driving stand-in children under
 * the failing-allocator hook (helpers/th_oom.h): every child stopped when a
 * phase fails.  Each allocation fails in turn, once and for good; every
 * run must end in -ENOMEM with a message and free all it made (the ASan
 * build checks). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "helpers/th_oom.h"
#include "client/parent.h"
#include "ctl/ct.h"

/* ---- the parent and its children ------------------------------------------ */

/* A stand-in child: answers each phase with its type (RESULTS with two
 * bytes of payload) and ends after RESULTS or when the parent goes. */
static int answering_child(int fd, unsigned k, void *data)
{
    struct ct_msg_hdr h;

    (void)k;
    (void)data;
    while (ct_msg_recv(fd, &h, NULL, 0) == 0) {
        ct_msg_send(fd, h.type, 0, "xy", h.type == CT_MSG_RESULTS ? 2 : 0);
        if (h.type == CT_MSG_RESULTS)
            return 0;
    }
    return 1;
}

/* The generator parent with two children through MOUNT and RESULTS, as
 * sfs drives them: -ENOMEM with "out of memory" in last_error, and every
 * child already stopped and reaped when a phase fails (its contract). */
static int parent_op(void *ctx, char *err, size_t errlen)
{
    struct cl_parent p;
    int rc;

    (void)ctx;
    memset(&p, 0, sizeof(p));
    rc = cl_parent_spawn(&p, 2, answering_child, NULL);
    if (rc == 0)
        rc = cl_parent_phase(&p, CT_MSG_MOUNT, 0, 10);
    if (rc == 0)
        rc = cl_parent_phase(&p, CT_MSG_RESULTS, 0, 10);
    if (rc == 0 && p.procs[1].payload_len != 2)
        rc = cm_errf(err, errlen, "results lost");
    if (rc == 0)
        rc = cl_parent_reap(&p);
    if (rc < 0) {
        snprintf(err, errlen, "%s", p.last_error);
        for (unsigned k = 0; k < p.nprocs; k++)
            if (p.procs[k].pid > 0) {
                rc = cm_errf(err, errlen, "child %u left running after: %s", k,
                             p.last_error);
                cl_parent_kill_all(&p);
                break;
            }
    }
    cl_parent_free(&p);
    return rc;
}

static void parent_runs_out_of_memory_cleanly(void **state)
{
    (void)state;
    assert_true(th_oom_run("parent", parent_op, NULL, -ENOMEM) >= 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parent_runs_out_of_memory_cleanly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
