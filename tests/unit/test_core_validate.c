/* SPDX-License-Identifier: BSD-2-Clause */
/* test_core_validate.c - the validation suite (src/validate, vd_run) against
 * the server core on socketpairs (tests/unit/helpers/th_core.h, reached
 * through vd_opts.connect): a healthy core passes in NFSv3 and NFSv2; then
 * each check of the extended section and of the data steps that only a
 * misbehaving server can fail is shown failing with its message, on a core
 * told to lie by one of sfs_nfsd's fault flags (--bad-fs, --bad-access,
 * --bad-mknod, --change-verf, --weak-writes, --wrong-eof, --error), and the
 * restart check against a "restart" that keeps the verifier, a restart
 * command that hangs and one that dies.  The
 * read-backs through libnfs need the network and are skipped here (an I
 * note); tests 040x run them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers/th_core.h"
#include "validate/vd.h"

#define PAIRS 6                    /* each mount session opens two or three clients */
#define END   ((const char *)NULL) /* ends has_line's strings */

/* One level-2 validation over TCP against a core with cfg's faults, with a
 * restart command (NULL: none) bounded by limit_ms; the report in *out (the
 * caller frees it).  Returns vd_run's result. */
static int validate_restart(const struct sv_config *cfg, int version,
                            const char *restart_cmd, uint32_t limit_ms, char **out)
{
    struct th_core t;
    struct vd_opts o;
    size_t len = 0;
    FILE *f;
    int rc;

    assert_int_equal(th_core_start_pairs(&t, cfg, PAIRS, 0), 0);
    vd_opts_init(&o);
    o.level = VD_LEVEL_VERBOSE;
    o.nfs_version = version;
    o.tcp = 1;
    o.mount = "core:/export";
    o.prog = version == 2 ? "sfs" : "sfs3";
    o.connect = th_core_connect;
    o.connect_data = &t;
    o.restart_cmd = restart_cmd;
    o.restart_limit_ms = limit_ms;
    *out = NULL;
    f = open_memstream(out, &len);
    assert_non_null(f);
    rc = vd_run(&o, f, NULL);
    fclose(f);
    th_core_stop(&t);
    return rc;
}

static int validate(const struct sv_config *cfg, int version, char **out)
{
    return validate_restart(cfg, version, NULL, 0, out);
}

/* A core configuration with the defaults (handles of instance 1). */
static void config(struct sv_config *cfg)
{
    sv_config_defaults(cfg);
    cfg->instance = 1;
}

/* Asserts that report has a line starting with prefix and containing
 * each further string (a NULL ends them). */
static void has_line(const char *report, const char *prefix, ...)
{
    const char *p = report;

    while (p && *p) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        char line[1024];
        const char *want;
        va_list ap;
        int all = 1;

        snprintf(line, sizeof(line), "%.*s", (int)n, p);
        if (strncmp(line, prefix, strlen(prefix)) == 0) {
            va_start(ap, prefix);
            while ((want = va_arg(ap, const char *)) != END)
                if (!strstr(line, want))
                    all = 0;
            va_end(ap);
            if (all)
                return;
        }
        p = end ? end + 1 : NULL;
    }
    print_message("no line '%s...' with the expected text among:\n", prefix);
    for (p = report; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        if (*p == 'W' || *p == 'E') /* the findings only: the report is long */
            print_message("%.*s\n", (int)strcspn(p, "\n"), p);
    fail();
}

/* The number of lines starting with prefix. */
static int count_lines(const char *report, const char *prefix)
{
    int n = strncmp(report, prefix, strlen(prefix)) == 0;
    const char *p = report;

    while ((p = strchr(p, '\n')) != NULL)
        n += strncmp(++p, prefix, strlen(prefix)) == 0;
    return n;
}

static void a_healthy_core_passes_v3_and_v2(void **state)
{
    struct sv_config cfg;
    char *out;

    (void)state;
    config(&cfg);
    assert_int_equal(validate(&cfg, 3, &out), VD_PASSED);
    assert_int_equal(count_lines(out, "W:"), 0);
    has_line(out, "I: read-back: skipped: the server is reached through a connector",
             END);
    has_line(out, "  MKNOD ext_chr: type 4, rdev 1,3", END);
    has_line(out, "validation completed successfully.", END);
    free(out);
    assert_int_equal(validate(&cfg, 2, &out), VD_PASSED);
    assert_int_equal(count_lines(out, "W:"), 0);
    free(out);
}

/* --bad-fs: every value check of FSSTAT, FSINFO and PATHCONF (deviations:
 * the verdict stays a pass, the count says so). */
static void contradictory_fs_values_are_each_named(void **state)
{
    struct sv_config cfg;
    char *out;

    (void)state;
    config(&cfg);
    cfg.fault.bad_fs_pct = 100;
    assert_int_equal(validate(&cfg, 3, &out), VD_PASSED);
    has_line(out, "W: extended: FSSTAT: abytes ", "must hold (RFC 1813 section 3.3.18)",
             "[deviation]", END);
    has_line(out, "W: extended: FSINFO: rtmax ",
             "the preferred sizes within the maxima (RFC 1813 section 3.3.19)", END);
    has_line(out, "W: extended: FSINFO: maxfilesize 1, yet a file of ", END);
    has_line(out, "W: extended: FSINFO: FSF3_LINK is clear, yet LINK made hard links",
             END);
    has_line(out, "W: extended: FSINFO: FSF3_SYMLINK is clear", END);
    has_line(out, "W: extended: PATHCONF: linkmax 1, yet files had 2 links",
             "(RFC 1813 section 3.3.20)", END);
    has_line(out, "W: extended: PATHCONF: name_max 4, yet names of ", END);
    has_line(out, "W: extended: PATHCONF differs between validatedir and a file",
             "FSF3_HOMOGENEOUS", END);
    has_line(out, "W: extended: PATHCONF: no_trunc and name_max 4, yet CREATE of a ",
             "5 bytes answered OK, not NAMETOOLONG", END);
    has_line(out, "W: extended: FSSTAT: the attributes returned are of fileid ",
             ", not of validatedir (", "(RFC 1813 section 3.3.18)", END);
    has_line(out, "W: extended: FSINFO: the attributes returned are of fileid ",
             ", not of validatedir (", END);
    has_line(out, "11 deviations from the RFCs", END);
    free(out);
    /* NFSv2: STATFS */
    assert_int_equal(validate(&cfg, 2, &out), VD_PASSED);
    has_line(out, "W: extended: STATFS: bsize 4096, ",
             "bavail <= bfree <= blocks (RFC 1094 section 2.2.18)", END);
    free(out);
}

/* --bad-access: bits beyond those asked, and the ones that worked missing
 * (both named, on the file and on the directory). */
static void access_beyond_the_mode_is_named(void **state)
{
    struct sv_config cfg;
    char *out;

    (void)state;
    config(&cfg);
    cfg.fault.bad_access_pct = 100;
    assert_int_equal(validate(&cfg, 3, &out), VD_PASSED);
    has_line(out, "W: extended: ACCESS of ext_commit: granted ", "beyond the 0x3f asked",
             "(RFC 1813 section 3.3.4)", END);
    has_line(out, "W: extended: ACCESS of ext_commit: granted ",
             "yet READ, WRITE and a growing WRITE (0xd) worked", END);
    has_line(out, "W: extended: ACCESS of validatedir: granted 0x60, beyond", END);
    has_line(out, "W: extended: ACCESS of validatedir: granted 0x60, yet READDIR", END);
    free(out);
}

/* --bad-mknod: the type and device numbers, and a regular file accepted. */
static void mknod_of_the_wrong_type_is_named(void **state)
{
    struct sv_config cfg;
    char *out;

    (void)state;
    config(&cfg);
    cfg.fault.bad_mknod_pct = 100;
    assert_int_equal(validate(&cfg, 3, &out), VD_PASSED);
    has_line(out, "W: extended: MKNOD ext_fifo: asked type 7, GETATTR says type 1",
             "(RFC 1813 section 3.3.11)", END);
    has_line(out,
             "W: extended: MKNOD ext_chr: asked type 4 with rdev 1,3, GETATTR says "
             "type 1",
             END);
    has_line(out, "W: extended: MKNOD of type NF3REG answered OK, not BADTYPE", END);
    free(out);
}

/* --change-verf: a verifier that changes while the server runs fails the
 * write step and every verifier check of the COMMIT section (W: data). */
static void a_changing_verifier_fails(void **state)
{
    struct sv_config cfg;
    char *out;

    (void)state;
    config(&cfg);
    cfg.fault.change_verf_pct = 100;
    assert_int_equal(validate(&cfg, 3, &out), VD_FAILED);
    has_line(out, "W: write: file_en.", "the write verifier changed between two WRITEs",
             "(RFC 1813 section 3.3.7)", END);
    assert_int_equal(count_lines(out, "W: write:"), 1); /* one W, then a count */
    has_line(out, "I: write: the write verifier changed ", " times in all", END);
    has_line(out,
             "W: extended: ext_commit: the write verifier changed between UNSTABLE "
             "WRITEs (2 of 2)",
             END);
    has_line(out, "W: extended: ext_commit: UNSTABLE WRITEs returned verifier ",
             "the server did not restart", END);
    has_line(out, "W: extended: ext_commit: two COMMITs returned the verifiers ",
             "must not change while the server runs (RFC 1813 section 3.3.21)", END);
    has_line(out, "W: extended: ext_commit: COMMIT returned verifier ",
             "a client would send its data again forever", END);
    /* all the blocks were written all the same: no size difference after */
    assert_null(strstr(out, "COMMIT attributes differ"));
    has_line(out, "validation terminated with errors", END);
    free(out);
}

/* --weak-writes: FILE_SYNC answered UNSTABLE (W); --wrong-eof: one
 * deviation for all the READ replies. */
static void weak_writes_and_a_wrong_eof_are_named(void **state)
{
    struct sv_config cfg;
    char *out;

    (void)state;
    config(&cfg);
    cfg.fault.weak_write_pct = 100;
    assert_int_equal(validate(&cfg, 3, &out), VD_FAILED);
    has_line(out,
             "W: write: file_en.0: WRITE asked FILE_SYNC and the server answered "
             "UNSTABLE: only FILE_SYNC may be returned (RFC 1813 section 3.3.7)",
             END);
    assert_int_equal(count_lines(out, "W: write:"), 1);
    has_line(out, "I: write: ", "WRITE replies in all were weaker than FILE_SYNC", END);
    free(out);
    config(&cfg);
    cfg.fault.wrong_eof_pct = 100;
    assert_int_equal(validate(&cfg, 3, &out), VD_PASSED);
    has_line(out, "W: read: ", "READ replies set eof wrongly",
             "(RFC 1813 section 3.3.6) [deviation]", END);
    free(out);
}

/* An error status of each extended procedure, and of READ and COMMIT. */
static void error_statuses_are_named(void **state)
{
    static const struct {
        const char *rule, *prefix, *text;
        int result;
    } cases[] = {
        {"fsstat=IO:100", "W: extended: FSSTAT: ", "(RFC 1813 section 3.3.18)",
         VD_PASSED},
        {"fsinfo=SERVERFAULT:100", "W: extended: FSINFO: ", "(RFC 1813 section 3.3.19)",
         VD_PASSED},
        {"pathconf=IO:100", "W: extended: PATHCONF of validatedir: ",
         "(RFC 1813 section 3.3.20)", VD_PASSED},
        {"access=IO:100",
         "W: extended: ACCESS of ext_commit: ", "(RFC 1813 section 3.3.4)", VD_PASSED},
        {"mknod=IO:100", "W: extended: MKNOD ext_fifo: ", "(RFC 1813 section 3.3.11)",
         VD_PASSED},
        {"commit=IO:100",
         "W: extended: ext_commit: COMMIT: ", "(RFC 1813 section 3.3.21)", VD_FAILED},
        {"read=IO:100", "W: read: file_en.0: READ at 0: ", "(RFC 1813 section 3.3.6)",
         VD_FAILED},
    };
    char err[CM_ERR_LEN], *out;
    struct sv_config cfg;

    (void)state;
    for (size_t i = 0; i < CM_ARRAY_LEN(cases); i++) {
        config(&cfg);
        assert_int_equal(
            sv_fault_parse_error(&cfg.fault, cases[i].rule, err, sizeof(err)), 0);
        assert_int_equal(validate(&cfg, 3, &out), cases[i].result);
        has_line(out, cases[i].prefix, cases[i].text, END);
        free(out);
    }
}

/* A READ that always fails: one W for the step and the count in an I line,
 * not a W (and a question at level 3) for each of the ~170 blocks. */
static void a_failing_read_is_one_warning_and_a_count(void **state)
{
    struct sv_config cfg;
    char err[CM_ERR_LEN], *out;

    (void)state;
    config(&cfg);
    assert_int_equal(sv_fault_parse_error(&cfg.fault, "read=IO:100", err, sizeof(err)),
                     0);
    assert_int_equal(validate(&cfg, 3, &out), VD_FAILED);
    assert_int_equal(count_lines(out, "W: read: "), 1);
    has_line(out, "I: read: ", "READs failed in all", END);
    free(out);
}

/* MKNOD refused as unsupported is allowed: an I note, no W. */
static void mknod_not_supported_is_a_note(void **state)
{
    struct sv_config cfg;
    char err[CM_ERR_LEN], *out;

    (void)state;
    config(&cfg);
    assert_int_equal(
        sv_fault_parse_error(&cfg.fault, "mknod=NOTSUPP:100", err, sizeof(err)), 0);
    assert_int_equal(validate(&cfg, 3, &out), VD_PASSED);
    has_line(out, "I: extended: MKNOD ext_fifo: ", "does not make this kind of file",
             END);
    assert_int_equal(count_lines(out, "W:"), 1); /* NF3REG: NOTSUPP, not BADTYPE */
    has_line(out, "W: extended: MKNOD of type NF3REG answered ", "not BADTYPE", END);
    free(out);
}

/* A "restart" that restarts nothing: the handles survive and COMMIT
 * answers the verifier from before (what a server with files on disk that
 * kept its verifier would do). */
static void a_verifier_unchanged_across_a_restart_is_named(void **state)
{
    struct sv_config cfg;
    char *out;

    (void)state;
    config(&cfg);
    assert_int_equal(validate_restart(&cfg, 3, "true", 0, &out), VD_FAILED);
    has_line(out, "W: extended: ext_commit: COMMIT returned the verifier ",
             "from before the server restarted: a client cannot tell that its unstable "
             "data may be lost (RFC 1813 section 3.3.21)",
             END);
    assert_int_equal(count_lines(out, "W:"), 1);
    free(out);
}

/* A restart command that outlives its limit, or dies of a signal: an E. */
static void a_restart_command_that_hangs_or_dies_stops_the_run(void **state)
{
    struct sv_config cfg;
    char *out;

    (void)state;
    config(&cfg);
    assert_int_equal(validate_restart(&cfg, 3, "sleep 10", 200, &out), VD_FAILED);
    has_line(out, "E: extended: restart command did not finish within 200 ms: killed",
             END);
    free(out);
    assert_int_equal(validate_restart(&cfg, 3, "kill -9 $$", 0, &out), VD_FAILED);
    has_line(out, "E: extended: restart command killed by signal 9", END);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_healthy_core_passes_v3_and_v2),
        cmocka_unit_test(contradictory_fs_values_are_each_named),
        cmocka_unit_test(access_beyond_the_mode_is_named),
        cmocka_unit_test(mknod_of_the_wrong_type_is_named),
        cmocka_unit_test(a_changing_verifier_fails),
        cmocka_unit_test(weak_writes_and_a_wrong_eof_are_named),
        cmocka_unit_test(error_statuses_are_named),
        cmocka_unit_test(a_failing_read_is_one_warning_and_a_count),
        cmocka_unit_test(mknod_not_supported_is_a_note),
        cmocka_unit_test(a_verifier_unchanged_across_a_restart_is_named),
        cmocka_unit_test(a_restart_command_that_hangs_or_dies_stops_the_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
