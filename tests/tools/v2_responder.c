/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * v2_responder.c - a small NFSv2 + MOUNT v1 responder for the integration
 * tests, until the bundled server (sfs_nfsd) covers NFSv2: libtirpc's svc
 * with the rpcgen codecs of the system nfs_prot.x and mount.x, on one
 * loopback port for UDP and TCP, without rpcbind.  It serves a fake tree:
 * the export root (a directory) holding one 64 KB regular file "file".
 * NULL, GETATTR, LOOKUP, READ, READDIR and STATFS answer; other procedures
 * get PROC_UNAVAIL.  Test-only: it never writes anything anywhere.
 *
 *   v2_responder -b 127.0.0.1 -p PORT [-e /export]
 *
 * prints "ready PORT" on stdout when it serves, and runs until a signal.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <rpc/rpc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "mount_prot.h"
#include "nfs2_prot.h"
#include "tool_net.h"

#define FILE_SIZE 65536

static const char *export_path = "/export";

/* libtirpc declares xdr_void without parameters; casting it to xdrproc_t
 * trips -Wcast-function-type, so void results use this. */
static bool_t xdr_nothing(XDR *x, void *p)
{
    (void)x;
    (void)p;
    return TRUE;
}

/* Handles: byte 0 says which object: 1 = root, 2 = file. */
static void make_fh(char *fh, int which)
{
    memset(fh, 0, NFS_FHSIZE);
    fh[0] = (char)which;
    fh[1] = 'v';
    fh[2] = '2';
}

static void fill_attr(fattr *a, int which)
{
    memset(a, 0, sizeof(*a));
    a->type = which == 1 ? NFDIR : NFREG;
    a->mode = which == 1 ? 040755 : 0100644;
    a->nlink = which == 1 ? 2 : 1;
    a->size = which == 1 ? 512 : FILE_SIZE;
    a->blocksize = 8192;
    a->blocks = a->size / 512;
    a->fsid = 7;
    a->fileid = (u_int)which;
}

static int which_fh(const nfs_fh *fh)
{
    return (fh->data[0] == 1 || fh->data[0] == 2) && fh->data[1] == 'v' ? fh->data[0] : 0;
}

static void nfs2_dispatch(struct svc_req *rq, SVCXPRT *x)
{
    union {
        nfs_fh fh;
        diropargs dop;
        readargs ra;
        readdirargs rda;
    } a;
    union {
        attrstat attr;
        diropres dir;
        readres rd;
        readdirres rdd;
        statfsres st;
    } r;
    static char data[8192];
    xdrproc_t argc = NULL, resc = NULL;
    entry e[3];
    int w;

    memset(&a, 0, sizeof(a));
    memset(&r, 0, sizeof(r));
    switch (rq->rq_proc) {
    case NFSPROC_NULL:
        svc_sendreply(x, (xdrproc_t)xdr_nothing, NULL);
        return;
    case NFSPROC_GETATTR:
    case NFSPROC_STATFS:
        argc = (xdrproc_t)xdr_nfs_fh;
        break;
    case NFSPROC_LOOKUP:
        argc = (xdrproc_t)xdr_diropargs;
        break;
    case NFSPROC_READ:
        argc = (xdrproc_t)xdr_readargs;
        break;
    case NFSPROC_READDIR:
        argc = (xdrproc_t)xdr_readdirargs;
        break;
    default:
        svcerr_noproc(x);
        return;
    }
    if (!svc_getargs(x, argc, (caddr_t)&a)) {
        svcerr_decode(x);
        return;
    }
    switch (rq->rq_proc) {
    case NFSPROC_GETATTR:
        resc = (xdrproc_t)xdr_attrstat;
        w = which_fh(&a.fh);
        r.attr.status = w ? NFS_OK : NFSERR_STALE;
        if (w)
            fill_attr(&r.attr.attrstat_u.attributes, w);
        break;
    case NFSPROC_STATFS:
        resc = (xdrproc_t)xdr_statfsres;
        r.st.status = which_fh(&a.fh) ? NFS_OK : NFSERR_STALE;
        r.st.statfsres_u.reply.tsize = 8192;
        r.st.statfsres_u.reply.bsize = 4096;
        r.st.statfsres_u.reply.blocks = 1000;
        r.st.statfsres_u.reply.bfree = 500;
        r.st.statfsres_u.reply.bavail = 500;
        break;
    case NFSPROC_LOOKUP:
        resc = (xdrproc_t)xdr_diropres;
        w = which_fh(&a.dop.dir) == 1 ? (strcmp(a.dop.name, "file") == 0 ? 2
                                         : strcmp(a.dop.name, ".") == 0  ? 1
                                                                         : 0)
                                      : -1;
        r.dir.status = w > 0 ? NFS_OK : w == 0 ? NFSERR_NOENT : NFSERR_NOTDIR;
        if (w > 0) {
            make_fh(r.dir.diropres_u.diropres.file.data, w);
            fill_attr(&r.dir.diropres_u.diropres.attributes, w);
        }
        break;
    case NFSPROC_READ:
        resc = (xdrproc_t)xdr_readres;
        w = which_fh(&a.ra.file);
        r.rd.status = w == 2 ? NFS_OK : w == 1 ? NFSERR_ISDIR : NFSERR_STALE;
        if (w == 2) {
            u_int n = a.ra.count > sizeof(data) ? (u_int)sizeof(data) : a.ra.count;

            if (a.ra.offset >= FILE_SIZE)
                n = 0;
            else if (a.ra.offset + n > FILE_SIZE)
                n = FILE_SIZE - a.ra.offset;
            memset(data, 'v', n);
            fill_attr(&r.rd.readres_u.reply.attributes, 2);
            r.rd.readres_u.reply.data.data_len = n;
            r.rd.readres_u.reply.data.data_val = data;
        }
        break;
    case NFSPROC_READDIR:
        resc = (xdrproc_t)xdr_readdirres;
        w = which_fh(&a.rda.dir);
        r.rdd.status = w == 1 ? NFS_OK : NFSERR_NOTDIR;
        if (w == 1) {
            static const char *const names[3] = {".", "..", "file"};
            int i;

            memset(e, 0, sizeof(e));
            for (i = 0; i < 3; i++) {
                e[i].fileid = (u_int)(i + 1);
                e[i].name = (char *)(uintptr_t)names[i];
                e[i].cookie[3] = (char)(i + 1);
                e[i].nextentry = i < 2 ? &e[i + 1] : NULL;
            }
            r.rdd.readdirres_u.reply.entries = e;
            r.rdd.readdirres_u.reply.eof = TRUE;
        }
        break;
    }
    svc_sendreply(x, resc, (caddr_t)&r);
    svc_freeargs(x, argc, (caddr_t)&a);
}

static void mount1_dispatch(struct svc_req *rq, SVCXPRT *x)
{
    dirpath path = NULL;
    fhstatus fs;
    struct exportnode ex;

    switch (rq->rq_proc) {
    case MOUNTPROC_NULL:
        svc_sendreply(x, (xdrproc_t)xdr_nothing, NULL);
        return;
    case MOUNTPROC_MNT:
    case MOUNTPROC_UMNT:
        if (!svc_getargs(x, (xdrproc_t)xdr_dirpath, (caddr_t)&path)) {
            svcerr_decode(x);
            return;
        }
        if (rq->rq_proc == MOUNTPROC_UMNT) {
            svc_sendreply(x, (xdrproc_t)xdr_nothing, NULL);
        } else {
            memset(&fs, 0, sizeof(fs));
            fs.fhs_status = strcmp(path, export_path) == 0 ? 0 : NFSERR_NOENT;
            make_fh(fs.fhstatus_u.fhs_fhandle, 1);
            svc_sendreply(x, (xdrproc_t)xdr_fhstatus, (caddr_t)&fs);
        }
        svc_freeargs(x, (xdrproc_t)xdr_dirpath, (caddr_t)&path);
        return;
    case MOUNTPROC_EXPORT: {
        exports list = &ex;

        memset(&ex, 0, sizeof(ex));
        ex.ex_dir = (char *)(uintptr_t)export_path;
        svc_sendreply(x, (xdrproc_t)xdr_exports, (caddr_t)&list);
        return;
    }
    default:
        svcerr_noproc(x);
    }
}

int main(int argc, char **argv)
{
    const char *addr = "127.0.0.1";
    int port = 0, opt, ufd, tfd;
    SVCXPRT *u, *t;

    while ((opt = getopt(argc, argv, "b:p:e:")) != -1) {
        switch (opt) {
        case 'b':
            addr = optarg;
            break;
        case 'p':
            port = atoi(optarg);
            break;
        case 'e':
            export_path = optarg;
            break;
        default:
            fprintf(stderr, "usage: v2_responder -b ADDR -p PORT [-e /export]\n");
            return 2;
        }
    }
    if (port <= 0 || port > 65535 || strncmp(addr, "127.", 4) != 0) {
        fprintf(stderr, "v2_responder: need -p PORT and a 127.x address\n");
        return 2;
    }
    ufd = tool_bound_socket(SOCK_DGRAM, addr, port);
    tfd = tool_bound_socket(SOCK_STREAM, addr, port);
    if (ufd < 0 || tfd < 0) {
        perror("v2_responder: bind");
        return 1;
    }
    u = svcudp_create(ufd);
    t = svctcp_create(tfd, 0, 0);
    /* protocol 0: no rpcbind registration, ports are explicit */
    if (!u || !t || !svc_register(u, NFS_PROGRAM, NFS_VERSION, nfs2_dispatch, 0) ||
        !svc_register(t, NFS_PROGRAM, NFS_VERSION, nfs2_dispatch, 0) ||
        !svc_register(u, MOUNTPROG, MOUNTVERS, mount1_dispatch, 0) ||
        !svc_register(t, MOUNTPROG, MOUNTVERS, mount1_dispatch, 0)) {
        fprintf(stderr, "v2_responder: svc setup failed\n");
        return 1;
    }
    printf("ready %d\n", port);
    fflush(stdout);
    svc_run();
    return 1;
}
