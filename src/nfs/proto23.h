/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * proto23.h - what NFSv2 and NFSv3 share behind the protocol seam (nfs
 * layer, private; nf_proto.h): a MOUNT session and one ONC RPC procedure
 * per SFS op, started on the session's rpc client and serviced by its
 * poll.  proto2.c and proto3.c say how their arguments are built and
 * their replies read (struct nf23_version); proto23.c does the rest.
 */
#ifndef NF_PROTO23_H
#define NF_PROTO23_H

#include "nfs/nf.h"
#include "nfs/nf_proto.h"

/* What differs between the two. */
struct nf23_version {
    int version;       /* 2 or 3 */
    enum nf_prog prog; /* NF_NFS2, NF_NFS3 */
    /* The arguments of a->op (union nf2_args or nf3_args). */
    void (*build)(void *args, const struct nf_op_args *a);
    /* What the decoded reply r of op says into out (zeroed, attr_type -1,
     * status read already). */
    void (*read_out)(const struct nf_res *r, int op, struct nf_op_res *out);
};

/* A call's storage (nf_call.pc): the engine's call, its arguments and its
 * result decoded in place (nf_res_codec). */
struct nf23_call {
    struct rp_call rpc;
    union {
        union nf2_args a2;
        union nf3_args a3;
    } args;
    struct nf_res res;
    const struct nf23_version *v;
};

int nf23_mount(struct nf_session *s, const char *spec, const struct nf_mount_opts *o,
               char *err, size_t errlen);
void nf23_unmount(struct nf_session *s);
int nf23_start(const struct nf23_version *v, struct nf_session *s, struct nf_call *c,
               const struct nf_op_args *a);
int nf23_again(struct nf_session *s, struct nf_call *c);
int nf23_poll(struct nf_session *s, int timeout_ms);
int nf23_fd(const struct nf_session *s);
short nf23_events(const struct nf_session *s);
int nf23_service(struct nf_session *s, short revents);
int nf23_next_ms(const struct nf_session *s);

/* The table rows both fill alike. */
#define NF23_SESSION_AND_SERVICE                                                         \
    .mount = nf23_mount, .unmount = nf23_unmount,                                        \
    .call_bytes = sizeof(struct nf23_call), .call_again = nf23_again, .poll = nf23_poll, \
    .fd = nf23_fd, .events = nf23_events, .service = nf23_service,                       \
    .next_ms = nf23_next_ms

#endif /* NF_PROTO23_H */
