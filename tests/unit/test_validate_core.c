/* SPDX-License-Identifier: BSD-2-Clause */
/* test_validate_core.c - unit tests for the validation suite's pure parts:
 * the BSD checksum against sum -r, the block pattern (lengths, fill and
 * verify, every single-byte change caught), the object set of v2 and v3
 * (22 and 51 objects, link and symlink targets), and the attribute
 * comparison (adoption of unknowns, root squashed to nobody, one W naming
 * every difference, the [deviation] class). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validate/vd_int.h"

static void bsd_sum_matches_sum_r(void **state)
{
    static const uint8_t odd[] = {0x00, 0x01, 0xff};

    (void)state;
    /* printf abc | sum -r  -> 16556; printf '\x00\x01\xff' | sum -r -> 33023 */
    assert_int_equal(vd_bsd_sum((const uint8_t *)"abc", 3), 16556);
    assert_int_equal(vd_bsd_sum(odd, sizeof(odd)), 33023);
    assert_int_equal(vd_bsd_sum(odd, 0), 0);
}

static void block_layout(void **state)
{
    unsigned f;

    (void)state;
    assert_int_equal(vd_file_blocks(0), 18);
    assert_int_equal(vd_file_blocks(16), 2);
    assert_int_equal(vd_block_bytes(0, 0), VD_BLOCK_BYTES);
    assert_true(vd_block_bytes(0, 17) < VD_BLOCK_BYTES); /* the last is shorter */
    assert_int_equal(vd_block_bytes(0, 18), 0);
    for (f = 1; f < VD_WRITE_FILES; f++) /* every file has its own length */
        assert_true(vd_file_length(f) < vd_file_length(f - 1));
    assert_int_equal(vd_file_length(0), 17u * VD_BLOCK_BYTES + vd_block_bytes(0, 17));
}

static void every_changed_byte_is_caught(void **state)
{
    uint8_t buf[VD_BLOCK_BYTES];
    uint32_t len = vd_block_bytes(3, 14 - 1), i;

    (void)state;
    vd_block_fill(3, 13, buf);
    assert_int_equal(vd_block_verify(3, 13, buf, len), 0);
    assert_int_equal(buf[4], 13); /* data bytes are the block number */
    assert_int_equal(vd_block_verify(3, 13, buf, len - 1), -EILSEQ); /* short */
    assert_int_equal(vd_block_verify(3, 12, buf, len), -EILSEQ);     /* wrong block */
    for (i = 0; i < len; i++) {
        buf[i] ^= 0x10;
        assert_int_equal(vd_block_verify(3, 13, buf, len), -EILSEQ);
        buf[i] ^= 0x10;
    }
    assert_int_equal(vd_block_verify(3, 13, buf, len), 0);
}

/* A context for one version, its messages in a memory stream. */
struct fixture {
    struct vd_ctx v;
    struct vd_opts o;
    char *text;
    size_t len;
};

static void fixture_init(struct fixture *fx, int version, int level)
{
    memset(fx, 0, sizeof(*fx));
    vd_opts_init(&fx->o);
    fx->o.level = level;
    fx->o.nfs_version = version;
    fx->v.o = &fx->o;
    fx->v.p = version == 2 ? &vd_proto2 : &vd_proto3;
    fx->v.out = open_memstream(&fx->text, &fx->len);
    fx->v.uid = 1000;
    fx->v.gid = 100;
    fx->v.workdir_attr.fsid = 7;
    fx->v.step = "test";
    assert_non_null(fx->v.out);
}

static const char *fixture_text(struct fixture *fx)
{
    fflush(fx->v.out);
    return fx->text;
}

static void fixture_free(struct fixture *fx)
{
    fclose(fx->v.out);
    free(fx->text);
}

static void object_sets(void **state)
{
    struct fixture fx;
    struct vd_obj *o;

    (void)state;
    fixture_init(&fx, 3, 1);
    vd_objects_init(&fx.v);
    assert_int_equal(fx.v.nobj, 51);
    assert_int_equal(fx.v.nkind[VD_FILE], 21);
    o = vd_object_named(&fx.v, "hardlink.3");
    assert_non_null(o);
    assert_int_equal(o->target, 3); /* counted from the top */
    assert_int_equal(o->ino, 3);    /* shares file_en.3's record */
    o = vd_object_named(&fx.v, "symlink.0");
    assert_non_null(o);
    {
        char text[VD_NAME_MAX];

        vd_symlink_text(&fx.v, o, text, sizeof(text));
        assert_string_equal(text, "./file_en.20"); /* counted from the end */
    }
    fixture_free(&fx);

    fixture_init(&fx, 2, 1);
    vd_objects_init(&fx.v);
    assert_int_equal(fx.v.nobj, 22);
    assert_non_null(vd_object_named(&fx.v, "dir_ent.4"));
    assert_null(vd_object_named(&fx.v, "dir_ent.5"));
    o = vd_object_add(&fx.v, "ext_commit", VD_FILE);
    assert_non_null(o);
    assert_int_equal(o->ino, 22);
    fixture_free(&fx);
}

static void reply_of(const struct vd_ctx *v, struct vd_attr *a)
{
    memset(a, 0, sizeof(*a));
    a->type = VD_T_REG;
    a->mode = 0666;
    a->nlink = 1;
    a->uid = v->uid;
    a->gid = v->gid;
    a->size = 0;
    a->fsid = 7;
    a->fileid = 4711;
}

static void attributes_adopted_then_compared(void **state)
{
    struct fixture fx;
    struct vd_attr got;
    struct vd_obj *o;

    (void)state;
    fixture_init(&fx, 3, 2);
    vd_objects_init(&fx.v);
    o = &fx.v.obj[0];
    vd_attr_expect(&fx.v, &fx.v.attrs[o->ino], o->kind);
    reply_of(&fx.v, &got);
    /* the fileid is unknown until the first reply: adopted, an I note */
    assert_int_equal(vd_attr_check(&fx.v, o, &got, 0, "CREATE", NF_OP_CREATE), 0);
    assert_int_equal(fx.v.attrs[o->ino].fileid, 4711);
    assert_non_null(strstr(fixture_text(&fx), "I: test: file_en.0: CREATE attributes "
                                              "taken as they came: fileid 4711"));
    assert_int_equal(fx.v.warnings, 0);
    /* then every difference is named in one W with the RFC section */
    got.nlink = 3;
    got.mode = 0644;
    got.size = 10;
    assert_int_equal(
        vd_attr_check(&fx.v, o, &got, VD_CMP_NO_SIZE, "GETATTR", NF_OP_GETATTR), 0);
    assert_int_equal(fx.v.warnings, 1);
    assert_non_null(
        strstr(fixture_text(&fx),
               "W: test: file_en.0: GETATTR attributes differ: mode 0644, "
               "expected 0666, nlink 3, expected 1 (RFC 1813 section 3.3.1)"));
    assert_null(strstr(fixture_text(&fx), "size")); /* not while writing */
    fixture_free(&fx);
}

static void root_may_become_nobody(void **state)
{
    struct fixture fx;
    struct vd_attr got;
    struct vd_obj *o;

    (void)state;
    fixture_init(&fx, 2, 2);
    fx.v.uid = 0;
    fx.v.gid = 0;
    vd_objects_init(&fx.v);
    o = &fx.v.obj[1];
    vd_attr_expect(&fx.v, &fx.v.attrs[o->ino], o->kind);
    assert_int_equal(fx.v.attrs[o->ino].gid, VD_UNKNOWN32); /* root's group: any */
    reply_of(&fx.v, &got);
    got.uid = 65534;
    got.gid = 65534;
    assert_int_equal(vd_attr_check(&fx.v, o, &got, 0, "CREATE", NF_OP_CREATE), 0);
    assert_int_equal(fx.v.warnings, 0);
    assert_non_null(strstr(fixture_text(&fx), "root is mapped to uid 65534"));
    got.uid = 1234; /* anyone else is a difference */
    assert_int_equal(vd_attr_check(&fx.v, o, &got, 0, "GETATTR", NF_OP_GETATTR), 0);
    assert_int_equal(fx.v.warnings, 1);
    assert_non_null(strstr(fixture_text(&fx), "uid 1234, expected 65534 (RFC 1094 "
                                              "section 2.2.2)"));
    fixture_free(&fx);
}

static void deviations_are_not_errors(void **state)
{
    struct fixture fx;

    (void)state;
    fixture_init(&fx, 3, 1);
    assert_int_equal(vd_deviation(&fx.v, "odd (%s)", vd_rfc(&fx.v, NF_OP_FSINFO)), 0);
    assert_int_equal(fx.v.deviations, 1);
    assert_int_equal(fx.v.warnings, 0);
    assert_string_equal(fixture_text(&fx),
                        "W: test: odd (RFC 1813 section 3.3.19) [deviation]\n");
    vd_info(&fx.v, "not at level 1");
    assert_int_equal(vd_error(&fx.v, "stop"), -EIO);
    assert_int_equal(fx.v.errors, 1);
    assert_null(strstr(fixture_text(&fx), "not at level 1"));
    assert_string_equal(vd_rfc(&fx.v, NF_OP_ROOT), "RFC 1813"); /* not in v3 */
    fixture_free(&fx);
}

static void level3_answers(void **state)
{
    struct fixture fx;
    FILE *in = fmemopen((void *)"x\ny\nn\n", 6, "r");

    (void)state;
    assert_non_null(in);
    fixture_init(&fx, 3, 3);
    fx.v.in = in;
    assert_int_equal(vd_warn(&fx.v, "one"), 0);            /* x asked again, then y */
    assert_int_equal(vd_warn(&fx.v, "two"), -ECANCELED);   /* n */
    assert_int_equal(vd_warn(&fx.v, "three"), -ECANCELED); /* EOF */
    assert_int_equal(fx.v.warnings, 3);
    fclose(in);
    fixture_free(&fx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bsd_sum_matches_sum_r),
        cmocka_unit_test(block_layout),
        cmocka_unit_test(every_changed_byte_is_caught),
        cmocka_unit_test(object_sets),
        cmocka_unit_test(attributes_adopted_then_compared),
        cmocka_unit_test(root_may_become_nobody),
        cmocka_unit_test(deviations_are_not_errors),
        cmocka_unit_test(level3_answers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
