/* SPDX-License-Identifier: BSD-2-Clause */
/* test_nfs_spec.c - unit tests of mount point parsing (docs/DECISIONS.md D2):
 * the three accepted forms, IPv6 brackets, and one clear message for each
 * kind of malformed mount point. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "nfs/nf.h"
#include "common/cm.h"
#include "common/error.h"

static void good_forms_parse(void **state)
{
    static const struct {
        const char *in, *host, *path;
        uint16_t nfs, mnt;
    } cases[] = {
        {"server:/export", "server", "/export", 0, 0},
        {"127.0.0.1:2049:/export/a", "127.0.0.1", "/export/a", 2049, 2049},
        {"nfs://127.0.0.1/tmp/x/export?mountport=20048", "127.0.0.1", "/tmp/x/export", 0,
         20048},
        {"nfs://h:3049/e?mountport=30048", "h", "/e", 3049, 30048},
        {"nfs://h/e?nfsport=5&mountport=6", "h", "/e", 5, 6},
        {"nfs://h:7/", "h", "/", 7, 0},
        {"[::1]:/e", "::1", "/e", 0, 0},
        {"[::1]:2049:/e", "::1", "/e", 2049, 2049},
        {"nfs://[::1]:2049/e", "::1", "/e", 2049, 0},
    };
    struct nf_mount_spec s;
    char err[CM_ERR_LEN];
    size_t i;

    (void)state;
    for (i = 0; i < CM_ARRAY_LEN(cases); i++) {
        assert_int_equal(nf_parse_mount_spec(cases[i].in, &s, err, sizeof(err)), 0);
        assert_string_equal(s.host, cases[i].host);
        assert_string_equal(s.path, cases[i].path);
        assert_int_equal(s.nfs_port, cases[i].nfs);
        assert_int_equal(s.mount_port, cases[i].mnt);
    }
}

static void bad_forms_give_one_clear_line(void **state)
{
    static const struct {
        const char *in, *msg;
    } cases[] = {
        {"", "empty mount point"},
        {"server", "no ':/path' part"},
        {"server:export", "'export' is not a port"},
        {":/export", "no host name"},
        {"server:0:/e", "'0' is not a port"},
        {"server:70000:/e", "'70000' is not a port"},
        {"server:12a:/e", "'12a' is not a port"},
        {"nfs://", "no host name"},
        {"nfs://h", "the path must start with '/'"},
        {"nfs://h:x/e", "'x' is not a port"},
        {"nfs://h/e?mountport=", "'' is not a port"},
        {"nfs://h/e?mountport=99999", "'99999' is not a port"},
        {"nfs://h/e?version=3", "unknown option 'version=3'"},
        {"[::1:/e", "'[' without ']'"},
    };
    struct nf_mount_spec s;
    char err[CM_ERR_LEN];
    size_t i;

    (void)state;
    for (i = 0; i < CM_ARRAY_LEN(cases); i++) {
        err[0] = '\0';
        assert_int_equal(nf_parse_mount_spec(cases[i].in, &s, err, sizeof(err)), -EINVAL);
        if (!strstr(err, cases[i].msg))
            fail_msg("'%s': got '%s', want '%s'", cases[i].in, err, cases[i].msg);
        assert_null(strchr(err, '\n'));
    }
}

static void overlong_parts_are_refused(void **state)
{
    char spec[2200], err[CM_ERR_LEN];
    struct nf_mount_spec s;

    (void)state;
    memset(spec, 'h', 300);
    strcpy(spec + 300, ":/e");
    assert_int_equal(nf_parse_mount_spec(spec, &s, err, sizeof(err)), -EINVAL);
    assert_non_null(strstr(err, "host name too long"));
    strcpy(spec, "h:/");
    memset(spec + 3, 'p', 2000);
    spec[2003] = '\0';
    assert_int_equal(nf_parse_mount_spec(spec, &s, err, sizeof(err)), -EINVAL);
    assert_non_null(strstr(err, "path longer than"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(good_forms_parse),
        cmocka_unit_test(bad_forms_give_one_clear_line),
        cmocka_unit_test(overlong_parts_are_refused),
    };

    return cmocka_run_group_tests_name("nfs_spec", tests, NULL, NULL);
}
