/* SPDX-License-Identifier: BSD-2-Clause */
/* test_nfs_nfs4load.c - what a load process needs of NFSv4.1 (nfs/nf4_load.h):
 * replies read out as nf.h's results, the opens of a process's files across
 * client epochs, the protocol's counters and their rows; and docs/nfsv4.md's
 * table of SFS op -> compound says what the code's one table builds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cm.h"
#include "nfs/nf4_load.h"
#include "nfs/nf_ops.h"

static void statuses_take_nf_h_numbers(void **state)
{
    (void)state;
    assert_int_equal(nf4_status_nf(NFS4_OK), NF_ST_OK);
    assert_int_equal(nf4_status_nf(NFS4ERR_NOENT), NF_ST_NOENT);
    assert_int_equal(nf4_status_nf(NFS4ERR_EXIST), NF_ST_EXIST);
    assert_int_equal(nf4_status_nf(NFS4ERR_NOTEMPTY), NF_ST_NOTEMPTY);
    assert_int_equal(nf4_status_nf(NFS4ERR_STALE), NF_ST_STALE);
    assert_int_equal(nf4_status_nf(NFS4ERR_DELAY), NF_ST_JUKEBOX);
    assert_int_equal(nf4_status_nf(NFS4ERR_FHEXPIRED), NF_ST_STALE);
    assert_int_equal(nf4_status_nf(NFS4ERR_NOFILEHANDLE), NF_ST_BADHANDLE);
    assert_int_equal(nf4_status_nf(NFS4ERR_SYMLINK), NF_ST_NOTDIR);
    assert_int_equal(nf4_status_nf(NFS4ERR_WRONG_TYPE), NF_ST_INVAL);
    assert_int_equal(nf4_status_nf(NFS4ERR_SHARE_DENIED), NF_ST_ACCES);
    /* the statuses a client answers itself, if one comes through */
    assert_int_equal(nf4_status_nf(NFS4ERR_BADSESSION), NF_ST_SERVERFAULT);
    assert_int_equal(nf4_status_nf(NFS4ERR_EXPIRED), NF_ST_SERVERFAULT);
    assert_int_equal(nf4_status_nf(NFS4ERR_GRACE), NF_ST_SERVERFAULT);
    assert_int_equal(nf4_status_nf(19), NF_ST_SERVERFAULT); /* v3's NODEV: not v4's */
}

static void put(struct nf4_res *r, uint32_t op, uint32_t status)
{
    r->op[r->nops].op = op;
    r->op[r->nops].status = status;
    r->status = status;
    r->nops++;
}

static void replies_read_out_neutral(void **state)
{
    static struct nf4_res r;
    struct nf4_sfs_result out;
    struct nf4_attrs *a;

    (void)state;
    /* lookup: SEQUENCE PUTFH LOOKUP GETFH GETATTR */
    memset(&r, 0, sizeof(r));
    put(&r, OP_SEQUENCE, NFS4_OK);
    put(&r, OP_PUTFH, NFS4_OK);
    put(&r, OP_LOOKUP, NFS4_OK);
    put(&r, OP_GETFH, NFS4_OK);
    r.op[3].u.getfh.len = 3;
    memcpy(r.op[3].u.getfh.data, "abc", 3);
    put(&r, OP_GETATTR, NFS4_OK);
    a = &r.op[4].u.getattr;
    a->have[0] = 1u << FATTR4_TYPE | 1u << FATTR4_SIZE;
    a->have[1] = 1u << (FATTR4_NUMLINKS - 32);
    a->type = NF4LNK;
    a->size = 4096;
    a->numlinks = 2;
    nf4_sfs_result(&r, &out);
    assert_int_equal(out.status, NF_ST_OK);
    assert_int_equal(out.failed_op, 0);
    assert_true(out.has_fh && out.has_attrs);
    assert_int_equal(out.fh.len, 3);
    assert_memory_equal(out.fh.data, "abc", 3);
    assert_int_equal(out.type, 5); /* NF3LNK */
    assert_int_equal(out.size, 4096);
    assert_int_equal(out.nlink, 2);
    /* a failed LOOKUP: its status, the operation named, no handle */
    memset(&r, 0, sizeof(r));
    put(&r, OP_SEQUENCE, NFS4_OK);
    put(&r, OP_PUTFH, NFS4_OK);
    put(&r, OP_LOOKUP, NFS4ERR_NOENT);
    nf4_sfs_result(&r, &out);
    assert_int_equal(out.status, NF_ST_NOENT);
    assert_int_equal(out.status4, NFS4ERR_NOENT);
    assert_int_equal(out.failed_op, OP_LOOKUP);
    assert_false(out.has_fh);
    /* writes: UNSTABLE asks a COMMIT, FILE_SYNC does not */
    memset(&r, 0, sizeof(r));
    put(&r, OP_SEQUENCE, NFS4_OK);
    put(&r, OP_PUTFH, NFS4_OK);
    put(&r, OP_WRITE, NFS4_OK);
    r.op[2].u.write.count = 8192;
    r.op[2].u.write.committed = UNSTABLE4;
    nf4_sfs_result(&r, &out);
    assert_true(out.unstable);
    assert_int_equal(out.count, 8192);
    r.op[2].u.write.committed = FILE_SYNC4;
    nf4_sfs_result(&r, &out);
    assert_false(out.unstable);
}

static void handles_fit_the_file_table_or_say_so(void **state)
{
    struct nf4_fh h4 = {3, "xyz"}, back;
    struct nf_fh h;

    (void)state;
    assert_int_equal(nf4_fh_to_nf(&h4, &h), 0);
    assert_int_equal(h.len, 3);
    nf4_fh_from_nf(&h, &back);
    assert_int_equal(back.len, 3);
    assert_memory_equal(back.data, "xyz", 3);
    h4.len = NF_FH_MAX + 1;
    assert_int_equal(nf4_fh_to_nf(&h4, &h), -E2BIG);
}

/* An OPEN's reply with stateid seq/other[0] = tag. */
static const struct nf4_res *opened(uint32_t status, uint8_t tag)
{
    static struct nf4_res r;

    memset(&r, 0, sizeof(r));
    put(&r, OP_SEQUENCE, NFS4_OK);
    put(&r, OP_PUTFH, NFS4_OK);
    put(&r, OP_OPEN, status);
    r.op[2].u.open.stateid.seqid = 1;
    r.op[2].u.open.stateid.other[0] = (char)tag;
    return &r;
}

static void files_open_before_io_and_close_when_they_leave(void **state)
{
    struct nf4_open_counts counts;
    struct nf4_open f[4];
    const stateid4 *sid;
    stateid4 closed;

    (void)state;
    memset(&counts, 0, sizeof(counts));
    memset(f, 0, sizeof(f));
    /* file 1: closed, OPEN in flight (a READ waits), open */
    assert_int_equal(nf4_open_need(&f[1], 7, &sid), NF4_CLOSED);
    nf4_open_sending(&counts, &f[1]);
    assert_int_equal(nf4_open_need(&f[1], 7, &sid), NF4_OPENING);
    assert_null(sid);
    assert_int_equal(nf4_open_leave(&counts, &f[1], 7, &closed),
                     0); /* not while opening */
    assert_int_equal(nf4_open_done(&counts, &f[1], opened(NFS4_OK, 0x11), 7), 1);
    assert_int_equal(nf4_open_need(&f[1], 7, &sid), NF4_OPEN);
    assert_int_equal(sid->other[0], 0x11);
    /* file 2 open too; a new client (epoch 8) has lost both opens */
    nf4_open_sending(&counts, &f[2]);
    assert_int_equal(nf4_open_done(&counts, &f[2], opened(NFS4_OK, 0x22), 7), 1);
    assert_int_equal(counts.in_use_max, 2);
    assert_int_equal(nf4_open_need(&f[1], 8, &sid), NF4_CLOSED);
    assert_true(nf4_open_lost(&f[1], 8)); /* open in 7: its I/O opens it again */
    assert_false(nf4_open_lost(&f[1], 7));
    assert_false(nf4_open_lost(&f[0], 8)); /* never opened: nothing lost */
    assert_false(nf4_open_lost(NULL, 8));
    nf4_open_sending(&counts, &f[1]);      /* opened again */
    assert_false(nf4_open_lost(&f[1], 8)); /* its OPEN in flight */
    assert_int_equal(nf4_open_done(&counts, &f[1], opened(NFS4_OK, 0x33), 8), 1);
    assert_int_equal(nf4_open_leave(&counts, &f[1], 8, &closed), 1); /* the new one */
    assert_int_equal(closed.other[0], 0x33);
    assert_int_equal(nf4_open_leave(&counts, &f[1], 8, &closed), 0); /* once */
    assert_int_equal(nf4_open_leave(&counts, &f[2], 8, &closed),
                     0); /* its open is gone */
    /* an OPEN that fails, or has no reply, leaves the file closed */
    nf4_open_sending(&counts, &f[3]);
    assert_int_equal(nf4_open_done(&counts, &f[3], opened(NFS4ERR_ACCESS, 0), 8), 0);
    assert_int_equal(nf4_open_need(&f[3], 8, &sid), NF4_CLOSED);
    nf4_open_sending(&counts, &f[3]);
    assert_int_equal(nf4_open_done(&counts, &f[3], NULL, 8), 0);
    assert_int_equal(nf4_open_need(NULL, 8, &sid), NF4_CLOSED); /* no state kept */
    assert_int_equal(counts.opens, 5);
    assert_int_equal(counts.reopens, 1);
    assert_int_equal(counts.open_errors, 2);
    assert_int_equal(counts.closes, 1);
    assert_int_equal(counts.closes_gone, 1);
    assert_int_equal(counts.in_use, 0);
    assert_int_equal(counts.in_use_max, 2);
}

static void counters_are_one_table(void **state)
{
    static struct nf4_load_stats s, t;
    static struct nf4_client_stats before, now;
    struct nf4_open_counts ob, on;
    const struct cm_field *f;
    size_t n, i, bytes = 0;
    char *text = NULL;
    size_t len = 0;
    FILE *out;

    (void)state;
    f = nf4_load_field_table;
    n = NF4_LOAD_NFIELDS;
    for (i = 0; i < n; i++)
        bytes += f[i].size * (f[i].count ? f[i].count : 1);
    assert_int_equal(bytes, sizeof(struct nf4_load_stats)); /* every counter a row */
    memset(&before, 0, sizeof(before));
    before.compounds = 7; /* before the run: not counted */
    before.ops[OP_SEQUENCE] = 7;
    now = before;
    now.compounds += 2;
    now.ops[OP_SEQUENCE] += 2;
    now.ops[OP_LOOKUP] = 2;
    now.ops[OP_GETFH] = 2;
    now.ops[OP_OPEN] = 6; /* 5 of their own (below), 1 in a create */
    now.ops[OP_CLOSE] = 4;
    now.delays = 3;
    now.new_sessions = 1;
    now.delegreturns = 2;
    nf4_load_client(&s, &now, &before);
    assert_int_equal(s.compounds, 2);
    assert_int_equal(s.ops[OP_SEQUENCE], 2);
    assert_int_equal(s.ops[OP_LOOKUP], 2);
    assert_int_equal(s.ops[OP_GETFH], 2);
    assert_int_equal(s.ops[OP_READ], 0);
    memset(&ob, 0, sizeof(ob));
    ob.opens = 3; /* the working set's, before the run */
    ob.in_use = 3;
    ob.in_use_max = 3;
    on = ob;
    on.opens = 8;
    on.closes = 4;
    on.in_use = 7;
    on.in_use_max = 7;
    on.stale_resends = 2;
    ob.slow_ws_opens = 3; /* the working set's, before the run */
    on.slow_ws_opens = 3;
    on.slow_ops = 5;
    on.close_errors = 1;
    ob.ws_wait_s = 0.5;
    on.ws_wait_s = 0.75;
    nf4_load_opens(&s, &on, &ob);
    assert_int_equal(s.open.stale_resends, 2);
    assert_int_equal(s.open.slow_ws_opens, 0);
    assert_int_equal(s.open.slow_ops, 5);
    assert_int_equal(s.open.close_errors, 1);
    assert_true(s.open.ws_wait_s > 0.249 && s.open.ws_wait_s < 0.251);
    assert_int_equal(s.open.opens, 5);
    assert_int_equal(s.open.closes, 4);
    assert_int_equal(s.open.in_use, 7); /* now's, not a difference */
    assert_int_equal(s.open.in_use_max, 7);
    t = s;
    cm_fields_merge(f, n, &t, &s); /* two processes' */
    assert_int_equal(t.ops[OP_LOOKUP], 4);
    assert_int_equal(t.delays, 6);
    assert_int_equal(t.open.opens, 10);
    out = open_memstream(&text, &len);
    assert_non_null(out);
    nf4_load_report(out, &t, 200);
    fclose(out);
    assert_non_null(strstr(text, "NFSv4.1 operations sent in the run (4 compounds"));
    assert_non_null(strstr(text, "    LOOKUP                          4\n"));
    assert_non_null(strstr(text,
                           "OPEN  operations         12: 2 in the mix's creates, 10 "
                           "calls of their own (5.00 % beyond the mix's 200 calls"));
    assert_non_null(
        strstr(text, "CLOSE operations          8, each a call of its own (4.00 %"));
    assert_non_null(strstr(text, "4 returned; resends: 6 after DELAY"));
    assert_non_null(strstr(text, "SETATTRs sent again with the new client's stateid "
                                 "(the old one STALE, BAD or EXPIRED): 4\n"));
    assert_non_null(strstr(text, "CLOSEs answered with an error, or not at all: 2\n"));
    assert_non_null(strstr(text, "calls over 100 ms: 10 of the mix's ops, 0 working-set "
                                 "OPENs, 0 working-set CLOSEs, 0 created files' CLOSEs; "
                                 "waited on working-set OPENs and CLOSEs 0.500 s\n"));
    assert_null(strstr(text, "READ ")); /* only what was sent */
    free(text);
}

/* docs/nfsv4.md's table: one row per SFS op (or ops, "remove, rmdir"),
 * its compound after SEQUENCE in the second cell, as nf4_sfs_shape says. */
static void the_docs_table_is_the_codes(void **state)
{
    FILE *f = fopen("docs/nfsv4.md", "r");
    char line[512];
    int op, found[NF_NOPS] = {0};

    (void)state;
    assert_non_null(f);
    while (fgets(line, sizeof(line), f)) {
        char *ops, *shape, *end, *save = NULL, *name;

        if (strncmp(line, "| ", 2) != 0 || (end = strstr(line + 2, " | ")) == NULL)
            continue;
        *end = '\0';
        ops = line + 2;
        shape = end + 3;
        if ((end = strstr(shape, " |")) == NULL)
            continue;
        *end = '\0';
        for (name = strtok_r(ops, ", ", &save); name;
             name = strtok_r(NULL, ", ", &save)) {
            op = nf_op_from_name(name);
            if (op < 0 || nf4_sfs_shape(op) == NULL || strchr(shape, ' ') == NULL)
                continue;
            assert_string_equal(shape, nf4_sfs_shape(op));
            found[op] = 1;
        }
    }
    fclose(f);
    for (op = 0; op < NF_NOPS; op++)
        if (nf4_sfs_shape(op))
            assert_true(found[op]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(statuses_take_nf_h_numbers),
        cmocka_unit_test(replies_read_out_neutral),
        cmocka_unit_test(handles_fit_the_file_table_or_say_so),
        cmocka_unit_test(files_open_before_io_and_close_when_they_leave),
        cmocka_unit_test(counters_are_one_table),
        cmocka_unit_test(the_docs_table_is_the_codes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
