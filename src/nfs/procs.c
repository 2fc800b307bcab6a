/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * procs.c - the procedure tables of NFSv2, NFSv3, MOUNT v1 and MOUNT v3
 * (nfs layer), one row a procedure, generated from the NF_*_PROCS lists in
 * nf.h with the rpcgen constants and codecs (docs/STYLE.md 2.6).  The generic
 * call (call.c), the server's dispatch, statistics and names all read these
 * rows; a unit test checks that they cover every procedure in order.
 */
#include "nfs/nf.h"

#include "mount_prot.h"
#include "common/cm.h"

bool_t xdr_nf_void(XDR *xdrs, nf_void *v)
{
    (void)xdrs;
    (void)v;
    return TRUE;
}

/* The op symbols of the lists, turned into op numbers and call classes.
 * MOUNT calls have no SFS op and run before the load: the INIT class. */
enum {
#define NF_OPNUM(sym, num, name, cls) NF_OPNUM_##sym = num,
    NF_OP_MAP(NF_OPNUM)
#undef NF_OPNUM
        NF_OPNUM_MOUNT = NF_OP_MOUNT
};
enum {
#define NF_OPCLASS(sym, num, name, cls) NF_OPCLASS_##sym = NF_CLASS_##cls,
    NF_OP_MAP(NF_OPCLASS)
#undef NF_OPCLASS
        NF_OPCLASS_MOUNT = NF_CLASS_INIT
};

#define NF_ROW(cst, nm, at, rt, opsym)                                                   \
    {                                                                                    \
        (cst),                                                                           \
        #nm,                                                                             \
        (xdrproc_t)xdr_##at,                                                             \
        (xdrproc_t)xdr_##rt,                                                             \
        sizeof(at),                                                                      \
        sizeof(rt),                                                                      \
        NF_OPNUM_##opsym,                                                                \
        (enum nf_call_class)NF_OPCLASS_##opsym},

static const struct nf_proc nfs2_rows[] = {NF_NFS2_PROCS(NF_ROW)};
static const struct nf_proc nfs3_rows[] = {NF_NFS3_PROCS(NF_ROW)};
static const struct nf_proc mount1_rows[] = {NF_MOUNT1_PROCS(NF_ROW)};
static const struct nf_proc mount3_rows[] = {NF_MOUNT3_PROCS(NF_ROW)};

static const struct nf_proc_table tables[NF_NPROGS] = {
    {NF_NFS2, "NFSv2", NFS_PROGRAM, NFS_VERSION, nfs2_rows, CM_ARRAY_LEN(nfs2_rows)},
    {NF_NFS3, "NFSv3", NFS3_PROGRAM, NFS_V3, nfs3_rows, CM_ARRAY_LEN(nfs3_rows)},
    {NF_MOUNT1, "MOUNTv1", MOUNTPROG, MOUNTVERS, mount1_rows, CM_ARRAY_LEN(mount1_rows)},
    {NF_MOUNT3, "MOUNTv3", MOUNT3_PROGRAM, MOUNT_V3, mount3_rows,
     CM_ARRAY_LEN(mount3_rows)},
};

const struct nf_proc_table *nf_proc_table(enum nf_prog id)
{
    if ((unsigned)id >= NF_NPROGS)
        return NULL;
    return &tables[id];
}

const struct nf_proc_table *nf_proc_table_for(uint32_t prog, uint32_t vers)
{
    size_t i;

    for (i = 0; i < NF_NPROGS; i++)
        if (tables[i].prog == prog && tables[i].vers == vers)
            return &tables[i];
    return NULL;
}

const struct nf_proc *nf_proc_row(enum nf_prog id, uint32_t proc)
{
    const struct nf_proc_table *t = nf_proc_table(id);

    if (!t || proc >= t->nrows)
        return NULL;
    return &t->rows[proc];
}

int nf_op_proc(int op, int nfs_version)
{
    const struct nf_proc_table *t = nf_proc_table(nfs_version == 2 ? NF_NFS2 : NF_NFS3);
    size_t i;

    if (nfs_version != 2 && nfs_version != 3)
        return -1;
    for (i = 0; i < t->nrows; i++)
        if (t->rows[i].op == op)
            return (int)t->rows[i].proc;
    return -1;
}
