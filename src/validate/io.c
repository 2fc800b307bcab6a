/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * io.c - the data steps (vd_int.h; docs/SFS30.md §19 steps 4 and 5, and
 * FreeSFS's read-back).  Write: checksummed blocks into the first 17 files
 * (pattern.c), block by block across the files, v3 FILE_SYNC, the reply's
 * attributes compared (not the size), short writes re-issued.  Read: each
 * block back, short reads re-issued, attributes compared, the checksum
 * verified ("checksum mismatch"); beyond SFS, v3's eof flag.  Read-back:
 * every written file read through libnfs, an independent client
 * (docs/DECISIONS.md D3), and compared byte for byte with what was written.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nfs/nf_lnfs.h"
#include "validate/vd_int.h"
#include "common/alloc.h"
#include "common/error.h"

#define LNFS_TIMEOUT_MS 10000

static int written_files(const struct vd_ctx *v)
{
    return v->nkind[VD_FILE] < VD_WRITE_FILES ? v->nkind[VD_FILE] : VD_WRITE_FILES;
}

static const char *stable_name(int s)
{
    return s == 0 ? "UNSTABLE" : s == 1 ? "DATA_SYNC" : s == 2 ? "FILE_SYNC" : "invalid";
}

/* Writes all of buf at off, re-issuing short writes.  0, or the run's stop. */
int vd_write_all(struct vd_ctx *v, struct vd_obj *o, uint64_t off, const uint8_t *buf,
                 uint32_t len, int stable, struct vd_res *r)
{
    uint32_t done = 0;
    int st;

    while (done < len) {
        st = v->p->write(v, &o->fh, off + done, buf + done, len - done, stable, r);
        if (st != NF_ST_OK)
            return vd_fail_call(v, NF_OP_WRITE, o->name, st);
        if (r->count == 0 || r->count > len - done)
            return vd_error(v, "%s: WRITE of %u bytes at %llu answered count %u (%s)",
                            o->name, len - done, (unsigned long long)(off + done),
                            r->count, vd_rfc(v, NF_OP_WRITE));
        done += r->count;
    }
    return 0;
}

/* Reads len bytes at off into buf, re-issuing short reads; *got is what
 * came back before end of file or an error.  0, 1 when a READ failed
 * (nothing to verify; the first failure of the step is a W, the others
 * are counted in *failed), or the run's stop. */
static int read_all(struct vd_ctx *v, struct vd_obj *o, uint64_t off, uint8_t *buf,
                    uint32_t len, uint32_t *got, unsigned *eof_wrong, unsigned *failed)
{
    uint64_t length = v->attrs[o->ino].size;
    struct vd_res r;
    int st, rc;

    *got = 0;
    while (*got < len) {
        st = v->p->read(v, &o->fh, off + *got, buf + *got, len - *got, &r);
        if (st < 0)
            return vd_fail_call(v, NF_OP_READ, o->name, st);
        if (st != NF_ST_OK) {
            rc = (*failed)++
                     ? 0 /* one W; the count follows */
                     : vd_warn(v, "%s: READ at %llu: %s (%s)", o->name,
                               (unsigned long long)(off + *got),
                               nf_status_name((uint32_t)st), vd_rfc(v, NF_OP_READ));
            return rc < 0 ? rc : 1;
        }
        if (r.have_attr && (rc = vd_attr_check(v, o, &r.attr, 0, "READ", NF_OP_READ)) < 0)
            return rc;
        *got += r.count;
        /* RFC 1813 3.3.6: eof is TRUE exactly when offset + count reaches
         * the size of the file */
        if (r.eof >= 0 && r.eof != (off + *got >= length))
            (*eof_wrong)++;
        if (r.count == 0)
            break;
    }
    return 0;
}

int vd_step_write(struct vd_ctx *v)
{
    uint8_t buf[VD_BLOCK_BYTES];
    unsigned b, weak = 0, changed = 0;
    int f, nf = written_files(v), rc = 0, have_verf = 0;
    uint8_t verf[8];
    struct vd_res r;

    vd_begin(v, "write", "checksummed %d-byte blocks into the first %d files%s",
             VD_BLOCK_BYTES, nf, v->p->version != 2 ? " (FILE_SYNC)" : "");
    for (b = 0; b < VD_MAX_BLOCKS && rc == 0; b++) {
        for (f = 0; f < nf && rc == 0; f++) {
            struct vd_obj *o = &v->obj[f];
            uint32_t len = vd_block_bytes((unsigned)f, b);

            if (len == 0)
                continue;
            vd_block_fill((unsigned)f, b, buf);
            rc = vd_write_all(v, o, (uint64_t)b * VD_BLOCK_BYTES, buf, len, 2, &r);
            if (rc < 0)
                break;
            if (r.committed != 2 && weak++ == 0)
                rc = vd_warn(v,
                             "%s: WRITE asked FILE_SYNC and the server answered %s: only "
                             "FILE_SYNC may be returned (%s)",
                             o->name, stable_name(r.committed), vd_rfc(v, NF_OP_WRITE));
            if (rc == 0 && v->p->version != 2) {
                if (!have_verf) {
                    memcpy(verf, r.verf, sizeof(verf));
                    memcpy(v->write_verf, r.verf, sizeof(verf));
                    v->have_write_verf = have_verf = 1;
                } else if (memcmp(verf, r.verf, sizeof(verf)) != 0) {
                    if (changed++ == 0) /* one W; the count follows */
                        rc = vd_warn(v,
                                     "%s: the write verifier changed between two "
                                     "WRITEs to a server that did not restart (%s)",
                                     o->name, vd_rfc(v, NF_OP_WRITE));
                    memcpy(verf, r.verf, sizeof(verf));
                }
            }
            if (rc == 0 && r.have_attr)
                rc = vd_attr_check(v, o, &r.attr, VD_CMP_NO_SIZE, "WRITE", NF_OP_WRITE);
            if (b + 1 == vd_file_blocks((unsigned)f)) {
                o->length = vd_file_length((unsigned)f);
                v->attrs[o->ino].size = o->length;
                vd_detail(v, "%s: %u blocks, %llu bytes", o->name, b + 1,
                          (unsigned long long)o->length);
            }
        }
    }
    if (rc == 0 && weak > 1)
        vd_info(v, "%u WRITE replies in all were weaker than FILE_SYNC", weak);
    if (rc == 0 && changed > 1)
        vd_info(v, "the write verifier changed %u times in all", changed);
    return rc;
}

int vd_step_read(struct vd_ctx *v)
{
    uint8_t buf[VD_BLOCK_BYTES];
    unsigned b, eof_wrong = 0, failed = 0;
    int f, nf = written_files(v), rc = 0;

    vd_begin(v, "read", "each block back, checksums verified");
    for (f = 0; f < nf && rc == 0; f++) {
        struct vd_obj *o = &v->obj[f];
        unsigned n = vd_file_blocks((unsigned)f), bad = 0;

        for (b = 0; b < n && rc == 0; b++) {
            uint32_t len = vd_block_bytes((unsigned)f, b), got;

            rc = read_all(v, o, (uint64_t)b * VD_BLOCK_BYTES, buf, len, &got, &eof_wrong,
                          &failed);
            if (rc > 0) { /* reported: the block is bad, nothing to verify */
                bad++;
                rc = 0;
            } else if (rc == 0 && vd_block_verify((unsigned)f, b, buf, got) < 0) {
                bad++;
                rc =
                    vd_warn(v,
                            "%s: checksum mismatch in block %u (offset %llu, %u of %u "
                            "bytes read)",
                            o->name, b, (unsigned long long)b * VD_BLOCK_BYTES, got, len);
            }
        }
        if (rc == 0)
            vd_detail(v, "%s: %u blocks read, %u bad", o->name, n, bad);
    }
    if (rc == 0 && failed > 1)
        vd_info(v, "%u READs failed in all", failed);
    if (rc == 0 && eof_wrong)
        rc = vd_deviation(v,
                          "%u READ replies set eof wrongly: it must be TRUE exactly when "
                          "offset + count reaches the file size (%s)",
                          eof_wrong, vd_rfc(v, NF_OP_READ));
    return rc;
}

int vd_lnfs_open(struct vd_ctx *v, struct nf_lnfs **l)
{
    char err[CM_ERR_LEN];
    int rc;

    if (v->o->connect) {
        *l = NULL;
        vd_info(v, "skipped: the server is reached through a connector, not the "
                   "network, and libnfs needs the network");
        return 0;
    }
    rc = nf_lnfs_open_version(l, v->o->mount, v->p->version == 4 ? 4 : 3, LNFS_TIMEOUT_MS,
                              err, sizeof(err));
    if (rc == 0)
        return 1;
    *l = NULL;
    /* our own shortage, not the server's deviation: an E, never a W or a
     * skip (which would let the run pass) */
    if (rc == -ENOMEM)
        return vd_error(v, "libnfs, an independent client: %s", err);
    if (v->p->version == 2) {
        vd_info(v,
                "skipped: libnfs reads over NFSv3 only, and the server refused it "
                "(%s)",
                err);
        return 0;
    }
    return vd_warn(v, "libnfs, an independent client, could not mount the export: %s",
                   err);
}

int vd_lnfs_compare(struct vd_ctx *v, struct nf_lnfs *l, const char *name,
                    const uint8_t *want, size_t len)
{
    char path[VD_NAME_MAX + sizeof(VD_WORKDIR) + 4];
    uint8_t *got;
    size_t n = 0, i;
    int rc;

    got = cm_malloc(len + 1);
    if (!got)
        return vd_error(v, "%s: out of memory", name);
    snprintf(path, sizeof(path), "/%s/%s", VD_WORKDIR, name);
    rc = nf_lnfs_read(l, path, 0, got, len + 1, &n);
    if (rc < 0)
        rc = vd_warn(v, "%s: libnfs: %s", name, nf_lnfs_last_error(l));
    else if (n != len)
        rc = vd_warn(v, "%s: libnfs read %zu bytes; %zu were written", name, n, len);
    else {
        for (i = 0; i < len && got[i] == want[i]; i++)
            ;
        if (i < len)
            rc = vd_warn(v,
                         "%s: libnfs read byte %zu (block %zu) as 0x%02x; 0x%02x was "
                         "written",
                         name, i, i / VD_BLOCK_BYTES, got[i], want[i]);
        else
            vd_detail(v, "%s: %zu bytes identical", name, len);
    }
    free(got);
    return rc;
}

int vd_step_readback(struct vd_ctx *v)
{
    uint64_t max = vd_file_length(0);
    struct nf_lnfs *l;
    uint8_t *want;
    int f, nf = written_files(v), rc;

    vd_begin(v, "read-back",
             "the written files read through libnfs and compared byte for byte "
             "(beyond SFS 3.0)");
    rc = vd_lnfs_open(v, &l);
    if (rc <= 0)
        return rc;
    want = cm_malloc(max);
    if (!want) {
        nf_lnfs_close(l);
        return vd_error(v, "out of memory");
    }
    rc = 0;
    for (f = 0; f < nf && rc == 0; f++) {
        unsigned b, n = vd_file_blocks((unsigned)f);

        for (b = 0; b < n; b++)
            vd_block_fill((unsigned)f, b, want + (size_t)b * VD_BLOCK_BYTES);
        rc = vd_lnfs_compare(v, l, v->obj[f].name, want, vd_file_length((unsigned)f));
    }
    free(want);
    nf_lnfs_close(l);
    return rc;
}
