/* SPDX-License-Identifier: BSD-2-Clause */
/* test_nfs_proto.c - the list of protocols (nfs/nf_proto.h): every one is
 * found by its version and by its program's name, the versions run from
 * the first to the last without a gap (the prime's NFS_VERSION range), and
 * the mix's op set of each is one nf_op_in_version knows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "nfs/nf_ops.h"
#include "nfs/nf_proto.h"

static void each_found_by_version_and_program(void **state)
{
    const struct nf_proto *p;
    size_t i;
    int lo, hi, last = 0;

    (void)state;
    nf_proto_versions(&lo, &hi);
    for (i = 0; (p = nf_proto_nth(i)) != NULL; i++) {
        assert_ptr_equal(nf_proto_by_version(p->version), p);
        assert_ptr_equal(nf_proto_by_prog(p->prog), p);
        assert_non_null(strstr(p->name, "NFS"));
        assert_int_equal(p->version, i == 0 ? lo : last + 1); /* no gap */
        assert_true(nf_op_in_version(NF_OP_GETATTR, p->sfs_ops));
        last = p->version;
    }
    assert_true(i >= 2);
    assert_int_equal(last, hi);
    /* today's programs */
    assert_int_equal(nf_proto_by_prog("sfs3")->version, 3);
    assert_int_equal(nf_proto_by_prog("sfs")->version, 2);
    assert_int_equal(nf_proto_by_prog("sfs4")->version, 4);
    assert_null(nf_proto_by_prog("sfs_mgr"));
    /* NFSv4 runs over TCP only; its mix is v3's op set */
    assert_true(nf_proto_by_version(4)->tcp_only);
    assert_false(nf_proto_by_version(3)->tcp_only);
    assert_true(nf_op_in_version(NF_OP_ACCESS, 4));
    assert_true(nf_op_in_version(NF_OP_READDIRPLUS, 4));
    assert_false(nf_op_in_version(NF_OP_ROOT, 4));
    assert_false(nf_op_in_version(NF_OP_ACCESS, 2));
    assert_null(nf_proto_by_prog(NULL));
    assert_null(nf_proto_by_version(hi + 1));
    assert_null(nf_proto_by_version(lo - 1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_found_by_version_and_program),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
