/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfsd_fhprobe.c - looks up one name twice and compares what comes back
 * (test helper for tests/integration/0790_*.t), over TCP on 127.0.0.1
 * with the project's rpcgen codecs:
 *   nfsd_fhprobe PORT EXPORT NAME
 * prints "v3 differ=D resolves=R same_fileid=S size=N mode=M" (D: the two
 * LOOKUP3 handles differ; R: GETATTR with the second handle works; S: both
 * name the same file id; N, M: the size and mode GETATTR reports) and
 * "v2 differ=D".  Exits 2 when it cannot connect or the name is missing.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nfs2_prot.h"
#include "nfs3_prot.h"
#include "mount_prot.h"
#include "tool_tap.h"

static struct sockaddr_in server;
static struct timeval tmo = {10, 0};

static CLIENT *client(unsigned long prog, unsigned long vers)
{
    int sock = RPC_ANYSOCK;
    CLIENT *c = clnttcp_create(&server, prog, vers, &sock, 0, 0);

    if (c == NULL) {
        clnt_pcreateerror("nfsd_fhprobe");
        exit(2);
    }
    c->cl_auth = authunix_create_default();
    return c;
}

static int call(CLIENT *c, unsigned long proc, xdrproc_t xa, void *a, xdrproc_t xr,
                void *r)
{
    return clnt_call(c, proc, xa, (char *)a, xr, (char *)r, tmo) == RPC_SUCCESS;
}

/* LOOKUP3 of nm in dir: the handle into buf (32 bytes) and its file id. */
static void lookup3(CLIENT *c, nfs_fh3 dir, const char *nm, char *buf, uint64_t *id)
{
    LOOKUP3args a = {{dir, (char *)nm}};
    LOOKUP3res r;

    memset(&r, 0, sizeof(r));
    if (!call(c, NFSPROC3_LOOKUP, (xdrproc_t)xdr_LOOKUP3args, &a,
              (xdrproc_t)xdr_LOOKUP3res, &r) ||
        r.status != NFS3_OK || r.LOOKUP3res_u.resok.object.data.data_len != NFS_FHSIZE) {
        fprintf(stderr, "nfsd_fhprobe: LOOKUP %s failed\n", nm);
        exit(2);
    }
    memcpy(buf, r.LOOKUP3res_u.resok.object.data.data_val, NFS_FHSIZE);
    *id = r.LOOKUP3res_u.resok.obj_attributes.post_op_attr_u.attributes.fileid;
    clnt_freeres(c, (xdrproc_t)xdr_LOOKUP3res, (char *)&r);
}

int main(int argc, char **argv)
{
    char root[NFS3_FHSIZE], h1[NFS_FHSIZE], h2[NFS_FHSIZE];
    mnt3_dirpath path;
    mountres3 mr;
    nfs_fh3 dir;
    GETATTR3args ga;
    GETATTR3res gr;
    diropargs da;
    diropres d1, d2;
    uint64_t id1, id2;
    CLIENT *m, *c, *c2;
    int resolves;

    if (argc != 4) {
        fprintf(stderr, "usage: nfsd_fhprobe PORT EXPORT NAME\n");
        return 2;
    }
    tool_loopback(&server, argv[1]);
    m = client(MOUNT3_PROGRAM, MOUNT_V3);
    c = client(NFS3_PROGRAM, NFS_V3);
    c2 = client(NFS_PROGRAM, NFS_VERSION);
    path = argv[2];
    memset(&mr, 0, sizeof(mr));
    if (!call(m, MOUNTPROC3_MNT, (xdrproc_t)xdr_mnt3_dirpath, &path,
              (xdrproc_t)xdr_mountres3, &mr) ||
        mr.fhs_status != MNT3_OK) {
        fprintf(stderr, "nfsd_fhprobe: MNT %s failed\n", argv[2]);
        return 2;
    }
    dir.data.data_len = mr.mountres3_u.mountinfo.fhandle.mnt3_fhandle_len;
    memcpy(root, mr.mountres3_u.mountinfo.fhandle.mnt3_fhandle_val, dir.data.data_len);
    dir.data.data_val = root;

    lookup3(c, dir, argv[3], h1, &id1);
    lookup3(c, dir, argv[3], h2, &id2);
    ga.object.data.data_len = NFS_FHSIZE;
    ga.object.data.data_val = h2;
    memset(&gr, 0, sizeof(gr));
    resolves = call(c, NFSPROC3_GETATTR, (xdrproc_t)xdr_GETATTR3args, &ga,
                    (xdrproc_t)xdr_GETATTR3res, &gr) &&
               gr.status == NFS3_OK;
    printf("v3 differ=%d resolves=%d same_fileid=%d size=%llu mode=%o\n",
           memcmp(h1, h2, NFS_FHSIZE) != 0, resolves,
           resolves && gr.GETATTR3res_u.resok.obj_attributes.fileid == id1 && id1 == id2,
           resolves ? (unsigned long long)gr.GETATTR3res_u.resok.obj_attributes.size : 0,
           resolves ? gr.GETATTR3res_u.resok.obj_attributes.mode : 0);

    memcpy(da.dir.data, root, NFS_FHSIZE);
    da.name = argv[3];
    memset(&d1, 0, sizeof(d1));
    memset(&d2, 0, sizeof(d2));
    if (!call(c2, NFSPROC_LOOKUP, (xdrproc_t)xdr_diropargs, &da, (xdrproc_t)xdr_diropres,
              &d1) ||
        !call(c2, NFSPROC_LOOKUP, (xdrproc_t)xdr_diropargs, &da, (xdrproc_t)xdr_diropres,
              &d2) ||
        d1.status != NFS_OK || d2.status != NFS_OK) {
        fprintf(stderr, "nfsd_fhprobe: v2 LOOKUP %s failed\n", argv[3]);
        return 2;
    }
    printf("v2 differ=%d\n", memcmp(d1.diropres_u.diropres.file.data,
                                    d2.diropres_u.diropres.file.data, NFS_FHSIZE) != 0);
    clnt_freeres(m, (xdrproc_t)xdr_mountres3, (char *)&mr);
    clnt_destroy(m);
    clnt_destroy(c);
    clnt_destroy(c2);
    return 0;
}
