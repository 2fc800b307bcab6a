/* SPDX-License-Identifier: BSD-2-Clause */
/* test_common_yamlread.c - the YAML reader (yaml.h): the tree of a normal
 * file with its lines, and every refusal at its FILE:LINE - aliases (the
 * "billion laughs" file), anchors, duplicate and complex keys, a second
 * document, deep nesting, syntax errors; the writer's output reads back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/yaml.h"

static struct cm_ynode *parse_ok(const char *text)
{
    struct cm_ynode *root = NULL;
    char err[512];

    assert_int_equal(
        cm_yaml_parse("t.yaml", text, strlen(text), &root, NULL, err, sizeof(err)), 0);
    return root;
}

/* Parses text that must fail; returns the error text (static). */
static const char *parse_err(const char *text)
{
    static char err[512];
    struct cm_ynode *root = (struct cm_ynode *)1;

    assert_int_equal(
        cm_yaml_parse("t.yaml", text, strlen(text), &root, NULL, err, sizeof(err)),
        -EINVAL);
    assert_null(root);
    return err;
}

static void tree_values_and_lines(void **state)
{
    const char *text = "# static information\n"
                       "company: Example Corp\n"
                       "server:\n"
                       "  model: \"X 100\"\n"
                       "  cpu_count: 4\n"
                       "networks:\n"
                       "  - name: net1\n"
                       "    type: 1 Gbit/s Ethernet\n"
                       "  - name: net2\n"
                       "notes: |\n"
                       "  line one\n"
                       "  line two\n"
                       "empty:\n"
                       "tilde: ~\n"
                       "quoted_null: \"null\"\n";
    struct cm_ynode *root = parse_ok(text);
    const struct cm_ynode *server, *nets, *n;
    size_t idx = 99;

    (void)state;
    assert_non_null(root);
    assert_int_equal(root->kind, CM_YMAP);
    assert_int_equal(root->n, 7);
    assert_string_equal(root->keys[0], "company");
    assert_int_equal(root->key_lines[0], 2);
    assert_string_equal(cm_ynode_get(root, "company", NULL)->value, "Example Corp");
    server = cm_ynode_get(root, "server", &idx);
    assert_int_equal(idx, 1);
    assert_int_equal(server->kind, CM_YMAP);
    n = cm_ynode_get(server, "model", NULL);
    assert_string_equal(n->value, "X 100");
    assert_false(n->plain);
    assert_int_equal(n->line, 4);
    assert_string_equal(cm_ynode_get(server, "cpu_count", NULL)->value, "4");
    nets = cm_ynode_get(root, "networks", NULL);
    assert_int_equal(nets->kind, CM_YSEQ);
    assert_int_equal(nets->n, 2);
    assert_int_equal(nets->items[1]->line, 9);
    assert_string_equal(cm_ynode_get(nets->items[0], "type", NULL)->value,
                        "1 Gbit/s Ethernet");
    assert_string_equal(cm_ynode_get(root, "notes", NULL)->value, "line one\nline two\n");
    assert_true(cm_ynode_is_null(cm_ynode_get(root, "empty", NULL)));
    assert_true(cm_ynode_is_null(cm_ynode_get(root, "tilde", NULL)));
    assert_true(cm_ynode_is_null(cm_ynode_get(root, "absent", NULL)));
    assert_false(cm_ynode_is_null(cm_ynode_get(root, "quoted_null", NULL)));
    assert_null(cm_ynode_get(nets, "name", NULL)); /* not a mapping */
    cm_ynode_free(root);
}

static void empty_document(void **state)
{
    (void)state;
    assert_null(parse_ok(""));
    assert_null(parse_ok("# only a comment\n"));
}

static void aliases_and_anchors_refused(void **state)
{
    const char *laughs =
        "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
        "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
        "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
        "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n";
    const char *err;

    (void)state;
    err = parse_err(laughs);
    assert_non_null(strstr(err, "t.yaml:1:"));
    assert_non_null(strstr(err, "anchors (&a)"));
    err = parse_err("x: 1\ny: *nothing\n");
    assert_non_null(strstr(err, "t.yaml:2:"));
    err = parse_err("list:\n  - &one 1\n");
    assert_non_null(strstr(err, "t.yaml:2:"));
    assert_non_null(strstr(err, "not accepted"));
    err = parse_err("m: &m\n  k: v\n");
    assert_non_null(strstr(err, "anchors (&m)"));
}

static void duplicate_and_complex_keys_refused(void **state)
{
    const char *err;

    (void)state;
    err = parse_err("a: 1\nb: 2\na: 3\n");
    assert_non_null(strstr(err, "t.yaml:3:"));
    assert_non_null(strstr(err, "duplicate key 'a'"));
    err = parse_err("? [a, b]\n: 1\n");
    assert_non_null(strstr(err, "t.yaml:1:"));
    assert_non_null(strstr(err, "mapping key"));
}

static void documents_depth_and_syntax(void **state)
{
    char deep[200];
    const char *err;
    int i;

    (void)state;
    err = parse_err("a: 1\n---\nb: 2\n");
    assert_non_null(strstr(err, "t.yaml:2:"));
    assert_non_null(strstr(err, "one YAML document"));
    for (i = 0; i < 40; i++)
        deep[i] = '[';
    deep[40] = '\0';
    err = parse_err(deep);
    assert_non_null(strstr(err, "nested too deeply"));
    err = parse_err("a: 1\nb: [1, 2\nc: 3\n");
    assert_non_null(strstr(err, "t.yaml:"));
    assert_non_null(strstr(err, "YAML:"));
    err = parse_err("a: \"open\n");
    assert_non_null(strstr(err, "YAML:"));
}

/* What the writer emits, the reader reads back. */
static void writer_output_reads_back(void **state)
{
    char path[] = "/tmp/test_yamlread.XXXXXX", err[512], text[512];
    struct cm_ynode *root = NULL;
    struct cm_yaml *y;
    FILE *fp;
    int fd;

    (void)state;
    fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    y = cm_yaml_open(path, err, sizeof(err));
    assert_non_null(y);
    cm_yaml_map_begin(y);
    cm_yaml_kv_str(y, "version", "3.0");
    cm_yaml_kv_str(y, "odd", "a: b # c\n'x'");
    cm_yaml_key(y, "points");
    cm_yaml_flow_seq_begin(y);
    cm_yaml_int(y, 100);
    cm_yaml_int(y, 200);
    cm_yaml_seq_end(y);
    cm_yaml_kv_int(y, "null", 7); /* a key YAML would read as no key: quoted */
    cm_yaml_kv_int(y, "Yes", 8);
    cm_yaml_map_end(y);
    assert_int_equal(cm_yaml_close(y, err, sizeof(err)), 0);
    assert_int_equal(cm_yaml_load(path, &root, NULL, err, sizeof(err)), 0);
    assert_string_equal(cm_ynode_get(root, "null", NULL)->value, "7");
    assert_string_equal(cm_ynode_get(root, "Yes", NULL)->value, "8");
    assert_string_equal(cm_ynode_get(root, "version", NULL)->value, "3.0");
    assert_string_equal(cm_ynode_get(root, "odd", NULL)->value, "a: b # c\n'x'");
    assert_string_equal(cm_ynode_get(root, "points", NULL)->items[1]->value, "200");
    cm_ynode_free(root);
    fp = fopen(path, "r");
    assert_non_null(fp);
    text[fread(text, 1, sizeof(text) - 1, fp)] = '\0';
    fclose(fp);
    assert_non_null(
        strstr(text, "\n'null': 7\n")); /* PyYAML reads a plain null as None */
    unlink(path);
    assert_int_equal(cm_yaml_load(path, &root, NULL, err, sizeof(err)), -ENOENT);
    assert_non_null(strstr(err, path));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tree_values_and_lines),
        cmocka_unit_test(empty_document),
        cmocka_unit_test(aliases_and_anchors_refused),
        cmocka_unit_test(duplicate_and_complex_keys_refused),
        cmocka_unit_test(documents_depth_and_syntax),
        cmocka_unit_test(writer_output_reads_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
