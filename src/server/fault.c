/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fault.c - sfs_nfsd's configuration defaults and fault injection (server
 * layer): parsing of --error OP=STATUS:PCT[:N], --delay-us N[:JITTER] and
 * --delay-only OP, and
 * the seeded draws dispatch.c and the handlers make, and the faults that
 * make a server lie for the validation suite's negative tests (wrong
 * attributes, changing handles; READ corruption and dropped directory
 * entries are applied by their handlers), and those of the extended
 * checks (a verifier that changes while the server runs or that is fixed
 * across restarts, WRITEs answered UNSTABLE, READ's eof inverted,
 * contradictory FSSTAT/FSINFO/PATHCONF values, ACCESS granting what the
 * mode denies, MKNOD making regular files: applied by the handlers through
 * sv__fault_lie).  Every decision comes from the
 * core's one Park-Miller generator (cm_rng), so the same --seed and the
 * same call sequence give the same faults.
 */
#include "server/sv_int.h"
#include "nfs3_prot.h"
#include "nfs/nf4.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "common/cm.h"
#include "common/error.h"
#include "common/rng.h"
#include "common/num.h"

void sv_config_defaults(struct sv_config *cfg)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);

    memset(cfg, 0, sizeof(*cfg));
    cfg->bind_addr = "127.0.0.1";
    cfg->nfs_port = SV_DEFAULT_NFS_PORT;
    cfg->mount_port = SV_DEFAULT_MNT_PORT;
    cfg->max_bytes = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page / 2
                                           : SV_DEFAULT_MAX_BYTES;
    cfg->fault.seed = CM_RNG_DEFAULT_SEED;
    cfg->max_connections = SV_MAX_CONNECTIONS;
    cfg->max_buffer_bytes = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page / 32
                                                  : SV_MIN_BUFFER_BYTES;
    if (cfg->max_buffer_bytes < SV_MIN_BUFFER_BYTES)
        cfg->max_buffer_bytes = SV_MIN_BUFFER_BYTES;
    cfg->idle_timeout_s = SV_DEFAULT_IDLE_S;
}

/* Status names for --error: the nfs layer's one list (NF_STATUS_MAP). */
static const struct {
    const char *name;
    uint32_t value;
} statuses[] = {
#define SV_STATUS_ROW(sym, num, err) {#sym, num},
    NF_STATUS_MAP(SV_STATUS_ROW)
#undef SV_STATUS_ROW
};

static int status_value(const char *s, uint32_t *out)
{
    uint64_t v;

    if (strncasecmp(s, "NFS3ERR_", 8) == 0)
        s += 8;
    else if (strncasecmp(s, "NFSERR_", 7) == 0)
        s += 7;
    for (size_t i = 0; i < CM_ARRAY_LEN(statuses); i++) {
        if (strcasecmp(s, statuses[i].name) == 0) {
            *out = statuses[i].value;
            return 0;
        }
    }
    if (nf4_status_value(s, out) == 0) /* NFSv4's: DELAY, GRACE, BADSESSION... */
        return 0;
    if (cm_parse_u64("status", s, 1, UINT32_MAX, &v, NULL, 0) != 0)
        return -EINVAL;
    *out = (uint32_t)v;
    return 0;
}

int sv_fault_parse_error(struct sv_fault *f, const char *spec, char *err, size_t errlen)
{
    char buf[128], *eq, *colon, *count;
    struct sv_error_rule *r;

    if (f->nerrors == SV_MAX_ERROR_RULES)
        return cm_errf(err, errlen, "--error: at most %d rules", SV_MAX_ERROR_RULES);
    if (strlen(spec) >= sizeof(buf))
        return cm_errf(err, errlen, "--error '%s': too long", spec);
    strcpy(buf, spec);
    eq = strchr(buf, '=');
    colon = eq ? strchr(eq, ':') : NULL;
    if (eq == NULL || colon == NULL || eq == buf || (size_t)(eq - buf) >= sizeof(r->op))
        return cm_errf(err, errlen, "--error '%s': expected OP=STATUS:PCT[:N]", spec);
    *eq = *colon = '\0';
    count = strchr(colon + 1, ':');
    if (count != NULL)
        *count++ = '\0';
    r = &f->errors[f->nerrors];
    for (char *p = buf; *p; p++)
        *p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
    strcpy(r->op, buf);
    if (status_value(eq + 1, &r->status) != 0)
        return cm_errf(err, errlen, "--error '%s': unknown status '%s'", spec, eq + 1);
    if (cm_parse_double("--error percentage", colon + 1, 0, 100, &r->pct, err, errlen))
        return -EINVAL;
    r->max = r->hits = 0;
    if (count != NULL &&
        cm_parse_u64("--error count", count, 1, UINT64_MAX, &r->max, err, errlen))
        return -EINVAL;
    f->nerrors++;
    return 0;
}

int sv_fault_parse_delay(struct sv_fault *f, const char *spec, char *err, size_t errlen)
{
    char buf[64], *colon;

    if (strlen(spec) >= sizeof(buf))
        return cm_errf(err, errlen, "--delay-us '%s': too long", spec);
    strcpy(buf, spec);
    colon = strchr(buf, ':');
    if (colon)
        *colon = '\0';
    if (cm_parse_u64("--delay-us", buf, 0, 60000000, &f->delay_us, err, errlen))
        return -EINVAL;
    f->jitter_us = 0;
    if (colon && cm_parse_u64("--delay-us jitter", colon + 1, 0, 60000000, &f->jitter_us,
                              err, errlen))
        return -EINVAL;
    return 0;
}

int sv_fault_parse_delay_op(struct sv_fault *f, const char *op, char *err, size_t errlen)
{
    int i;

    f->delay_op[0] = '\0';
    if (!*op)
        return 0;
    for (i = 0; i < NF_NOPS; i++)
        if (strcasecmp(op, nf_op_name(i)) == 0) {
            snprintf(f->delay_op, sizeof(f->delay_op), "%s", nf_op_name(i));
            return 0;
        }
    return cm_errf(err, errlen,
                   "--delay-only '%s': not an NFS procedure (getattr, read...)", op);
}

int sv__fault_hit(struct sv_core *c, double pct)
{
    if (pct <= 0)
        return 0;
    if (pct >= 100)
        return 1;
    return cm_rng_unit(&c->rng) * 100.0 < pct;
}

uint32_t sv__fault_error(struct sv_core *c, const char *proc_name)
{
    for (int i = 0; i < c->fault.nerrors; i++) {
        struct sv_error_rule *r = &c->fault.errors[i];
        if ((strcmp(r->op, proc_name) == 0 || strcmp(r->op, "all") == 0) &&
            (r->max == 0 || r->hits < r->max) && sv__fault_hit(c, r->pct)) {
            r->hits++; /* a spent rule lets the next one match */
            return r->status;
        }
    }
    return 0;
}

void sv__fault_call(struct sv_core *c, int nfs)
{
    c->attrs_wrong =
        nfs && c->fault.wrong_attrs_pct > 0 && sv__fault_hit(c, c->fault.wrong_attrs_pct);
    c->attrs_falsified += (uint64_t)c->attrs_wrong;
    c->fh_salt = 0;
    if (c->fault.change_fh_pct > 0 && sv__fault_hit(c, c->fault.change_fh_pct))
        c->fh_salt = 1 + cm_rng_below(&c->rng, 0x7ffffffe);
}

void sv__fault_attrs(uint64_t *size, uint32_t *mode)
{
    /* both differ from the truth whatever it is, and stay plausible */
    *size += 1;
    *mode ^= 0777;
}

void sv__handle(struct sv_core *c, const struct sv_node *n, uint8_t fh[SV_FH_LEN])
{
    sv__fs_handle(c->fs, n, fh);
    if (c->fh_salt == 0)
        return;
    /* --change-handles: the spare bytes, which sv__fs_from_handle ignores,
     * carry the call's salt: another handle that still resolves */
    for (int i = 0; i < 4; i++)
        fh[SV_FH_LEN - 1 - i] = (uint8_t)(c->fh_salt >> (8 * i));
    c->handles_changed++;
}

int sv__fault_drop_dirent(struct sv_core *c)
{
    return c->fault.drop_dirent_pct > 0 && sv__fault_hit(c, c->fault.drop_dirent_pct);
}

int sv__fault_skip_dirent(struct sv_core *c, int *drop, const char *name)
{
    if (!*drop || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
        return 0;
    *drop = 0;
    c->dirents_dropped++;
    return 1;
}

int sv__fault_lie(struct sv_core *c, double pct)
{
    if (pct <= 0 || !sv__fault_hit(c, pct))
        return 0;
    c->other_lies++;
    return 1;
}

void sv__fault_verf(struct sv_core *c, uint8_t verf[8])
{
    uint32_t x;

    memcpy(verf, c->write_verf, 8);
    if (!sv__fault_lie(c, c->fault.change_verf_pct))
        return;
    /* another verifier, as if the server had restarted, though it did not */
    x = 1 + cm_rng_below(&c->rng, 0x7ffffffe);
    for (int i = 0; i < 4; i++)
        verf[i] ^= (uint8_t)(x >> (8 * i));
}
