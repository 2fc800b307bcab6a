/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * proto23.c - NFSv2 and NFSv3 behind the protocol seam (proto23.h): the
 * MOUNT session, a call started as one procedure on the session's rpc
 * client, its reply read out and its decoded result freed before the
 * caller's done runs (the neutral result holds what the caller keeps, so
 * the call may be started again from inside done), and a busy reply
 * (JUKEBOX) sent again by the caller through nf23_again.
 */
#include <errno.h>
#include <string.h>

#include "nfs/proto23.h"

int nf23_mount(struct nf_session *s, const char *spec, const struct nf_mount_opts *o,
               char *err, size_t errlen)
{
    int rc = nf_mount(&s->mnt, spec, o, err, errlen);

    if (rc < 0)
        return rc;
    s->mounted = 1;
    s->rpc = s->mnt.nfs;
    return 0;
}

void nf23_unmount(struct nf_session *s)
{
    if (s->mounted)
        nf_umount(&s->mnt);
    s->mounted = 0;
    s->rpc = NULL;
}

static void on_reply(struct rp_call *rpc, void *data)
{
    struct nf_call *c = data;
    struct nf23_call *x = c->pc;

    c->status = rpc->status;
    c->xid = rpc->xid;
    c->t_send_ns = rpc->t_send_ns;
    c->t_reply_ns = rpc->t_reply_ns;
    c->send_timeout_ms = rpc->timeout_ms;
    c->retransmits = rpc->retransmits;
    if (c->again == 0)
        c->t_start_ns = rpc->t_send_ns;
    memset(&c->res, 0, sizeof(c->res));
    c->res.attr_type = -1;
    if (rpc->status == 0) {
        /* every result starts with its status (v2 and v3 alike) */
        c->res.status = nf_call_nfs_status(rpc);
        x->v->read_out(&x->res, c->op, &c->res);
        nf_call_free(rpc);
    }
    c->done(c, c->data);
}

/* Sends the prepared call; the outputs of a call that never went out. */
static int send_call(struct nf_session *s, struct nf_call *c)
{
    struct nf23_call *x = c->pc;
    int rc;

    if (s->rpc == NULL)
        return -ENOTCONN;
    rc = rp_call_start(s->rpc, &x->rpc);
    if (rc < 0) {
        c->status = rc;
        c->t_send_ns = c->t_reply_ns = 0;
    }
    return rc;
}

int nf23_start(const struct nf23_version *v, struct nf_session *s, struct nf_call *c,
               const struct nf_op_args *a)
{
    struct nf23_call *x = c->pc;
    int proc = nf_op_proc(a->op, v->version);
    const struct nf_proc *row = proc < 0 ? NULL : nf_proc_row(v->prog, (uint32_t)proc);
    int tcp;

    c->op = a->op;
    c->again = 0;
    c->t_start_ns = 0;
    if (row == NULL)
        return -EOPNOTSUPP;
    x->v = v;
    v->build(&x->args, a);
    memset(&x->res, 0, NF_RES_BYTES);
    x->res.data = c->buf;
    x->res.data_max = c->buf ? c->buf_max : 0;
    tcp = s->rpc != NULL && rp_client_transport(s->rpc) == RP_TCP;
    rp_call_prepare(&x->rpc, (uint32_t)proc, row->args_codec, &x->args,
                    nf_res_codec(v->version, a->op, 0, row->res_codec), &x->res,
                    c->timeout_ms ? c->timeout_ms : nf_class_timeout_ms(row->cls, tcp),
                    on_reply, c);
    return send_call(s, c);
}

int nf23_again(struct nf_session *s, struct nf_call *c)
{
    struct nf23_call *x = c->pc;

    if (c->again++ == 0)
        c->t_start_ns = c->t_send_ns;
    memset(&x->res, 0, NF_RES_BYTES);
    return send_call(s, c);
}

int nf23_poll(struct nf_session *s, int timeout_ms)
{
    return rp_poll(&s->rpc, 1, timeout_ms);
}

int nf23_fd(const struct nf_session *s)
{
    return rp_client_fd(s->rpc);
}

short nf23_events(const struct nf_session *s)
{
    return rp_client_events(s->rpc);
}

int nf23_service(struct nf_session *s, short revents)
{
    return rp_client_service(s->rpc, revents);
}

int nf23_next_ms(const struct nf_session *s)
{
    return rp_client_timeout_ms(s->rpc);
}
