/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * info.c - the static information of a submission (sb.h): who, which
 * server, which load-generator types and networks, and the notes the run
 * rules ask for (docs/SFS30.md §20.2; the SFS 3.0 disclosure list).  One
 * table of fields drives three things: the questions of [1] (session.c
 * asks them), the keys the YAML import of [2] accepts, and the order of the
 * submission file.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "common/yaml.h"
#include "submit/sb.h"
#include "common/alloc.h"
#include "common/cm.h"
#include "common/error.h"

#define M SB_F_MULTI
#define O SB_F_OPTIONAL

static const struct sb_field info_fields[] = {
    {NULL, "identification", "Identification and dates", 0},
    {"company", "company", "Company (the submitter)", 0},
    {"license_number", "license_number", "SPEC SFS license number", 0},
    {"licensee", "licensee", "Licensee (who generated the results)", 0},
    {"location", "location", "Location of the licensee", 0},
    {"test_date", "test_date", "Date tested (RETURN: the date of the sfssum file)", O},
    {"hardware_available", "hw_available", "Date of hardware availability", 0},
    {"software_available", "sw_available", "Date of software availability", 0},
    {NULL, "server_hardware", "Server hardware", 0},
    {"server.model", "sut_model", "Server model number", 0},
    {"server.cpu", "sut_cpu", "Server CPU (name and MHz or other identification)", 0},
    {"server.cpu_count", "sut_cpu_count", "Number of CPUs", 0},
    {"server.primary_cache", "sut_cache_primary", "Primary CPU cache", 0},
    {"server.secondary_cache", "sut_cache_secondary", "Secondary CPU cache", 0},
    {"server.other_cache", "sut_cache_other", "Other cache", 0},
    {"server.memory", "sut_memory", "Memory", 0},
    {"server.disk_controllers", "sut_disk_controllers",
     "Number and type of disk controllers", 0},
    {"server.disks", "sut_disks", "Number and type of disks", 0},
    {"server.nvram", "sut_nvram", "Special disk or NVRAM products and what they do", 0},
    {"server.network_controllers", "sut_network_controllers",
     "Number and type of network controllers", 0},
    {"server.networks", "sut_networks", "Number of networks", 0},
    {"server.ups", "sut_ups", "UPS", 0},
    {"server.other_hardware", "sut_other_hardware", "Other special hardware", 0},
    {NULL, "server_software", "Server software", 0},
    {"server.os", "sut_os", "Operating system", 0},
    {"server.other_software", "sut_other_software",
     "Other software (device drivers, NFS products, patches)", 0},
    {"server.buffer_cache", "sut_buffer_cache", "Buffer cache size", 0},
    {"server.nfs_daemons", "sut_nfs_daemons", "Number of NFS daemons", 0},
    {"server.filesystems", "sut_filesystems", "Number of file systems", 0},
    {"server.fs_config", "sut_fs_config",
     "File system configuration and its physical disks", M},
    {"server.fs_creation", "sut_fs_creation",
     "Options used to create or initialise the file systems", 0},
    {NULL, "network_gear", "Network gear", 0},
    {"network_gear.switches", "net_switches", "Switches (models and configuration)", 0},
    {"network_gear.bridges", "net_bridges", "Bridges (models)", 0},
    {"network_gear.hubs", "net_hubs", "Hubs (models)", 0},
    {NULL, "notes", "Notes", 0},
    {"notes.system_tuning", "notes_system_tuning",
     "System tuning parameters other than default", M},
    {"notes.process_tuning", "notes_process_tuning",
     "Process tuning parameters other than default", M},
    {"notes.mtu", "notes_mtu", "MTU of the networks", 0},
    {"notes.background_load", "notes_background_load", "Background load, if any", 0},
    {"notes.portability_changes", "notes_portability_changes",
     "Portability changes to the benchmark source (module, line)", M},
    {"notes.compile_options", "notes_compile_options",
     "Compilation options (when built from source)", M},
    {"notes.firmware", "notes_firmware",
     "Critical firmware and option versions (network and disk controllers)", M},
    {"notes.additional", "notes_additional",
     "Additional information needed to reproduce the result", M},
    {"notes.drawings", "notes_drawings",
     "Supplemental drawings or descriptions of the SUT (or where they are)", M},
    {"notes.tuning_definitions", "notes_tuning_definitions",
     "Definitions of the tuning parameters", M},
    {"notes.part_numbers", "notes_part_numbers",
     "Part numbers or what else lets a reader order the SUT", M},
    {"notes.not_orderable", "notes_not_orderable",
     "Components used that are supported but no longer orderable", M},
};

static const struct sb_field lg_fields[] = {
    {"name", "tb_lg_type", "Name of this load-generator type (each client gets one)", 0},
    {"vendor", "tb_lg_vendor", "Vendor", 0},
    {"model", "tb_lg_model", "Model number", 0},
    {"cpu", "tb_lg_cpu", "Number and type of CPUs", 0},
    {"memory", "tb_lg_memory", "Memory size", 0},
    {"network_controller", "tb_lg_network_controller", "Type of network controller", 0},
    {"os", "tb_lg_os", "Operating system", 0},
    {"compiler", "tb_lg_compiler", "Compiler and version", 0},
    {"compiler_options", "tb_lg_compiler_options", "Non-standard compiler options", 0},
};

static const struct sb_field net_fields[] = {
    {"name", "tb_net_name", "Name of this network (each client is on one)", 0},
    {"description", "tb_net_description", "Its type and description (speed, MTU, ports)",
     0},
};

#undef M
#undef O

const struct sb_field *sb_info_fields(size_t *n)
{
    *n = CM_ARRAY_LEN(info_fields);
    return info_fields;
}

const struct sb_field *sb_lg_fields(size_t *n)
{
    *n = CM_ARRAY_LEN(lg_fields);
    return lg_fields;
}

const struct sb_field *sb_net_fields(size_t *n)
{
    *n = CM_ARRAY_LEN(net_fields);
    return net_fields;
}

static void record_free(struct sb_record *r)
{
    size_t i;

    for (i = 0; i < SB_MAX_FIELDS; i++) {
        free(r->vals[i]);
        r->vals[i] = NULL;
    }
}

void sb_info_free(struct sb_info *info)
{
    size_t i;

    record_free(&info->top);
    for (i = 0; i < info->ntypes; i++)
        record_free(&info->types[i]);
    for (i = 0; i < info->nnets; i++)
        record_free(&info->nets[i]);
    info->ntypes = info->nnets = 0;
}

/* ---- the YAML import ----------------------------------------------------------------
 */

struct import {
    struct cm_text t; /* only its error reporting: FILE:LINE, counts, err */
    struct sb_info *info;
    int nomem; /* a value could not be copied: not the file's fault */
};

/* A field's value from its node: a scalar, or for multi-line fields a list
 * of scalars (one line each).  NULL after reporting an error. */
static char *field_value(struct import *im, const struct sb_field *f, const char *path,
                         const struct cm_ynode *n)
{
    char *v;
    size_t len = 0, i;

    if (cm_ynode_is_null(n) || (n->kind == CM_YSCALAR && n->value[0] == '\0') ||
        (n->kind == CM_YSEQ && n->n == 0)) {
        cm_text_error(&im->t, n->line,
                      "%s is empty: write none when there is nothing to disclose", path);
        return NULL;
    }
    if (n->kind == CM_YMAP || (n->kind == CM_YSEQ && !(f->flags & SB_F_MULTI))) {
        cm_text_error(&im->t, n->line, "%s: one %s expected", path,
                      f->flags & SB_F_MULTI ? "value or a list of lines" : "value");
        return NULL;
    }
    if (n->kind == CM_YSCALAR) {
        v = cm_strdup(n->value);
        if (v == NULL) {
            im->nomem = 1;
            return NULL;
        }
        len = strlen(v);
        while (len > 0 && v[len - 1] == '\n')
            v[--len] = '\0';
        if (!(f->flags & SB_F_MULTI) && strchr(v, '\n')) {
            cm_text_error(&im->t, n->line, "%s: one line expected", path);
            free(v);
            return NULL;
        }
        return v;
    }
    for (i = 0; i < n->n; i++) {
        if (n->items[i]->kind != CM_YSCALAR || strchr(n->items[i]->value, '\n')) {
            cm_text_error(&im->t, n->items[i]->line, "%s: each item is one line of text",
                          path);
            return NULL;
        }
        len += strlen(n->items[i]->value) + 1;
    }
    v = cm_calloc(1, len + 1);
    im->nomem |= v == NULL;
    for (i = 0; v && i < n->n; i++) {
        if (i)
            strcat(v, "\n");
        strcat(v, n->items[i]->value);
    }
    return v;
}

/* The index of the field named path in t (n rows), or -1. */
static int field_index(const struct sb_field *t, size_t n, const char *path)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (t[i].path && strcmp(t[i].path, path) == 0)
            return (int)i;
    return -1;
}

static void set_field(struct import *im, struct sb_record *r, const struct sb_field *t,
                      int idx, const char *path, const struct cm_ynode *n)
{
    char *v = field_value(im, &t[idx], path, n);

    if (v) {
        free(r->vals[idx]);
        r->vals[idx] = v;
    }
}

/* A mapping of fields (a section of the top level, or one list item). */
static void fields_of(struct import *im, struct sb_record *r, const struct sb_field *t,
                      size_t nt, const char *prefix, const struct cm_ynode *map)
{
    size_t i;

    for (i = 0; i < map->n; i++) {
        char path[256];
        int idx;

        snprintf(path, sizeof(path), "%s%s%s", prefix, prefix[0] ? "." : "",
                 map->keys[i]);
        idx = field_index(t, nt, prefix[0] && t != info_fields ? map->keys[i] : path);
        if (idx < 0)
            cm_text_error(&im->t, map->key_lines[i],
                          "unknown key '%s' (docs/generate.md lists the keys)", path);
        else
            set_field(im, r, t, idx, path, map->items[i]);
    }
}

/* Every required field is there (reported against the list item or file). */
static void complete(struct import *im, const struct sb_record *r,
                     const struct sb_field *t, size_t nt, const char *prefix, long line)
{
    size_t i;

    for (i = 0; i < nt; i++)
        if (t[i].path && !(t[i].flags & SB_F_OPTIONAL) && r->vals[i] == NULL)
            cm_text_error(&im->t, line, "%s%s%s is missing (%s)", prefix,
                          prefix[0] ? "." : "", t[i].path, t[i].question);
}

/* load_generator_types or networks: a list of mappings with unique names. */
static void list_of(struct import *im, const char *key, const struct cm_ynode *seq,
                    struct sb_record *recs, size_t *nrecs, const struct sb_field *t,
                    size_t nt)
{
    size_t i, j;

    if (seq->kind != CM_YSEQ || seq->n == 0) {
        cm_text_error(&im->t, seq->line, "%s: a list of one or more entries expected",
                      key);
        return;
    }
    for (i = 0; i < seq->n && i < SB_MAX_TYPES; i++) {
        const struct cm_ynode *it = seq->items[i];
        char prefix[64];

        snprintf(prefix, sizeof(prefix), "%s.%zu", key, i + 1);
        if (it->kind != CM_YMAP) {
            cm_text_error(&im->t, it->line, "%s: a mapping of %s expected", prefix,
                          t[0].path);
            continue;
        }
        fields_of(im, &recs[*nrecs], t, nt, prefix, it);
        complete(im, &recs[*nrecs], t, nt, prefix, it->line);
        for (j = 0; j < *nrecs; j++)
            if (recs[*nrecs].vals[0] && recs[j].vals[0] &&
                strcmp(recs[*nrecs].vals[0], recs[j].vals[0]) == 0)
                cm_text_error(&im->t, it->line, "%s: the name '%s' is used twice", prefix,
                              recs[j].vals[0]);
        (*nrecs)++;
    }
    if (seq->n > SB_MAX_TYPES)
        cm_text_error(&im->t, seq->items[SB_MAX_TYPES]->line, "%s: more than %d entries",
                      key, SB_MAX_TYPES);
}

static int is_section(const char *key)
{
    size_t i, n = strlen(key);

    for (i = 0; i < CM_ARRAY_LEN(info_fields); i++)
        if (info_fields[i].path && strncmp(info_fields[i].path, key, n) == 0 &&
            info_fields[i].path[n] == '.')
            return 1;
    return 0;
}

int sb_info_load(const char *path, struct sb_info *info, FILE *diag, char *err,
                 size_t errlen)
{
    struct cm_ynode *root = NULL;
    struct import im;
    size_t i;
    int rc;

    memset(info, 0, sizeof(*info));
    rc = cm_yaml_load(path, &root, diag, err, errlen);
    if (rc < 0)
        return rc;
    memset(&im, 0, sizeof(im));
    cm_text_init(&im.t, path, "", 0, diag, err, errlen);
    im.info = info;
    if (root == NULL || root->kind != CM_YMAP) {
        cm_text_error(&im.t, root ? root->line : 0,
                      "the static information is a YAML mapping (docs/generate.md)");
        cm_ynode_free(root);
        return -EINVAL;
    }
    for (i = 0; i < root->n; i++) {
        const char *k = root->keys[i];
        const struct cm_ynode *v = root->items[i];

        if (strcmp(k, "load_generator_types") == 0)
            list_of(&im, k, v, info->types, &info->ntypes, lg_fields,
                    CM_ARRAY_LEN(lg_fields));
        else if (strcmp(k, "networks") == 0)
            list_of(&im, k, v, info->nets, &info->nnets, net_fields,
                    CM_ARRAY_LEN(net_fields));
        else if (is_section(k) && v->kind == CM_YMAP)
            fields_of(&im, &info->top, info_fields, CM_ARRAY_LEN(info_fields), k, v);
        else if (is_section(k))
            cm_text_error(&im.t, v->line, "%s: a mapping of its fields expected", k);
        else if (field_index(info_fields, CM_ARRAY_LEN(info_fields), k) >= 0)
            set_field(&im, &info->top, info_fields,
                      field_index(info_fields, CM_ARRAY_LEN(info_fields), k), k, v);
        else
            cm_text_error(&im.t, root->key_lines[i],
                          "unknown key '%s' (docs/generate.md lists the keys)", k);
    }
    if (im.nomem) { /* else a value lost to it would be reported as missing */
        cm_ynode_free(root);
        sb_info_free(info);
        return cm_report_nomem(diag, path, err, errlen);
    }
    complete(&im, &info->top, info_fields, CM_ARRAY_LEN(info_fields), "", 0);
    if (info->ntypes == 0 && !cm_ynode_get(root, "load_generator_types", NULL))
        cm_text_error(&im.t, 0, "load_generator_types is missing (the kinds of client)");
    if (info->nnets == 0 && !cm_ynode_get(root, "networks", NULL))
        cm_text_error(&im.t, 0, "networks is missing (the networks the clients are on)");
    cm_ynode_free(root);
    if (im.t.errors) {
        sb_info_free(info);
        return -EINVAL;
    }
    return 0;
}
