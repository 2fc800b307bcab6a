/* SPDX-License-Identifier: BSD-2-Clause */
/* test_nfs_tables.c - unit tests of the procedure tables (every procedure
 * of NFSv2 0..17, NFSv3 0..21, MOUNT v1 0..6 and v3 0..5 has one row, in
 * order, with a unique name and codecs), the op <-> procedure mapping, the
 * NF_STATUS_MAP names and errnos, and the file handle converters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "nfs/nf.h"
#include "common/cm.h"

static void rows_cover_every_procedure_in_order(void **state)
{
    static const struct {
        enum nf_prog id;
        uint32_t prog, vers;
        size_t nrows;
    } want[] = {
        {NF_NFS2, 100003, 2, 18},
        {NF_NFS3, 100003, 3, 22},
        {NF_MOUNT1, 100005, 1, 7},
        {NF_MOUNT3, 100005, 3, 6},
    };
    size_t i, r, q;

    (void)state;
    for (i = 0; i < CM_ARRAY_LEN(want); i++) {
        const struct nf_proc_table *t = nf_proc_table(want[i].id);

        assert_non_null(t);
        assert_int_equal(t->prog, want[i].prog);
        assert_int_equal(t->vers, want[i].vers);
        assert_int_equal(t->nrows, want[i].nrows);
        assert_ptr_equal(nf_proc_table_for(t->prog, t->vers), t);
        for (r = 0; r < t->nrows; r++) {
            const struct nf_proc *row = &t->rows[r];

            assert_int_equal(row->proc, r);
            assert_non_null(row->name);
            assert_non_null(row->args_codec);
            assert_non_null(row->res_codec);
            assert_true(row->args_size > 0 && row->res_size > 0);
            if (t->prog == 100003) {
                assert_true(row->op >= 0 && row->op < NF_NOPS);
                assert_true(nf_op_in_version(row->op, (int)t->vers));
                assert_int_equal(row->cls, nf_op_class(row->op));
            } else {
                assert_int_equal(row->op, NF_OP_MOUNT);
                assert_int_equal(row->cls, NF_CLASS_INIT);
            }
            for (q = 0; q < r; q++)
                assert_string_not_equal(t->rows[q].name, row->name);
        }
        assert_null(nf_proc_row(want[i].id, (uint32_t)t->nrows));
    }
    assert_null(nf_proc_table(NF_NPROGS));
    assert_null(nf_proc_table_for(100003, 4));
}

static void ops_map_to_procedures_per_version(void **state)
{
    int op, v, n;

    (void)state;
    assert_int_equal(nf_op_proc(NF_OP_FSSTAT, 2), NFSPROC_STATFS);
    assert_int_equal(nf_op_proc(NF_OP_FSSTAT, 3), NFSPROC3_FSSTAT);
    assert_int_equal(nf_op_proc(NF_OP_READDIRPLUS, 2), -1);
    assert_int_equal(nf_op_proc(NF_OP_WRCACHE, 3), -1);
    assert_int_equal(nf_op_proc(NF_OP_LOOKUP, 4), -1);
    /* every op a version has is reachable, and no other */
    for (v = 2; v <= 3; v++) {
        for (n = 0, op = 0; op < NF_NOPS; op++) {
            int proc = nf_op_proc(op, v);

            assert_int_equal(proc >= 0, nf_op_in_version(op, v));
            n += proc >= 0;
        }
        assert_int_equal(n, v == 2 ? 18 : 22);
    }
}

static void status_names_and_errnos_come_from_one_list(void **state)
{
    (void)state;
    assert_string_equal(nf_status_name(NFS3_OK), "OK");
    assert_string_equal(nf_status_name(NFS3ERR_NOENT), "NOENT");
    assert_string_equal(nf_status_name(NFSERR_WFLUSH), "WFLUSH");
    assert_string_equal(nf_status_name(NFS3ERR_JUKEBOX), "JUKEBOX");
    assert_string_equal(nf_status_name(12345), "UNKNOWN");
    assert_int_equal(nf_status_errno(NFS3_OK), 0);
    assert_int_equal(nf_status_errno(NFS3ERR_STALE), -ESTALE);
    assert_int_equal(nf_status_errno(NFSERR_NOTEMPTY), -ENOTEMPTY);
    assert_int_equal(nf_status_errno(NFS3ERR_NOTSUPP), -EOPNOTSUPP);
    assert_int_equal(nf_status_errno(12345), -EIO);
    /* the v2 and v3 numbers agree where both exist */
    assert_int_equal(NF_ST_NAMETOOLONG, NFSERR_NAMETOOLONG);
    assert_int_equal(NF_ST_NAMETOOLONG, NFS3ERR_NAMETOOLONG);
}

static void handles_convert_between_versions(void **state)
{
    struct nf_fh fh, back;
    nfs_fh v2;
    nfs_fh3 v3;
    char big[65] = {0};
    int i;

    (void)state;
    for (i = 0; i < NFS_FHSIZE; i++)
        v2.data[i] = (char)i;
    nf_fh_from_v2(&fh, &v2);
    assert_int_equal(fh.len, 32);
    memset(&v2, 0, sizeof(v2));
    assert_int_equal(nf_fh_to_v2(&fh, &v2), 0);
    assert_int_equal(v2.data[31], 31);
    nf_fh_to_v3(&fh, &v3);
    assert_int_equal(v3.data.data_len, 32);
    assert_int_equal(nf_fh_from_v3(&back, &v3), 0);
    assert_true(nf_fh_equal(&fh, &back));
    v3.data.data_len = 20;
    assert_int_equal(nf_fh_from_v3(&back, &v3), 0);
    assert_false(nf_fh_equal(&fh, &back));
    assert_int_equal(nf_fh_to_v2(&back, &v2), -EINVAL);
    v3.data.data_len = 65;
    v3.data.data_val = big;
    assert_int_equal(nf_fh_from_v3(&back, &v3), -EINVAL);
}

static void call_nfs_status_reads_the_result(void **state)
{
    const struct nf_proc *row = nf_proc_row(NF_NFS3, NFSPROC3_LOOKUP);
    const struct nf_proc *nul = nf_proc_row(NF_NFS3, NFSPROC3_NULL);
    const struct nf_proc *exp = nf_proc_row(NF_MOUNT3, MOUNTPROC3_EXPORT);
    LOOKUP3res res;
    mnt3_exports list = NULL;
    nf_void none = {0};
    struct rp_call call;

    (void)state;
    memset(&res, 0, sizeof(res));
    res.status = NFS3ERR_NOENT;
    rp_call_prepare(&call, NFSPROC3_LOOKUP, row->args_codec, NULL, row->res_codec, &res,
                    1000, NULL, NULL);
    assert_int_equal(nf_call_nfs_status(&call), NFS3ERR_NOENT);
    call.status = RP_ERR_TIMEDOUT; /* no reply: no NFS status */
    assert_int_equal(nf_call_nfs_status(&call), 0);
    rp_call_prepare(&call, 0, nul->args_codec, NULL, nul->res_codec, &none, 1000, NULL,
                    NULL);
    assert_int_equal(nf_call_nfs_status(&call), 0);
    rp_call_prepare(&call, MOUNTPROC3_EXPORT, exp->args_codec, NULL, exp->res_codec,
                    &list, 1000, NULL, NULL);
    assert_int_equal(nf_call_nfs_status(&call), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rows_cover_every_procedure_in_order),
        cmocka_unit_test(ops_map_to_procedures_per_version),
        cmocka_unit_test(status_names_and_errnos_come_from_one_list),
        cmocka_unit_test(handles_convert_between_versions),
        cmocka_unit_test(call_nfs_status_reads_the_result),
    };

    return cmocka_run_group_tests_name("nfs_tables", tests, NULL, NULL);
}
