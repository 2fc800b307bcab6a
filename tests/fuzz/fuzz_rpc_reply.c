/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz_rpc_reply.c - libFuzzer driver for the engine's reply path: the
 * bytes a server sends back, through the UDP datagram path or the TCP
 * record-marking framer, into the reply decoder and a complex NFSv3 result
 * codec (READDIRPLUS3res).  The first byte picks the transport; when the
 * second is odd the reply's first word is patched to the XID of the call in
 * flight, so that the decoder gets past XID matching.  Each input gets a
 * fresh client on a socketpair; nothing touches the network.
 */
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "nfs/nf.h"
#include "common/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void done(struct rp_call *call, void *arg)
{
    (void)arg;
    if (call->status == 0)
        nf_call_free(call);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct rp_client *c;
    struct rp_call call;
    READDIRPLUS3args args;
    READDIRPLUS3res res;
    struct nf_fh fh = {4, {1, 2, 3, 4}};
    char err[CM_ERR_LEN];
    uint8_t *buf;
    int sv[2], stream, i;

    if (size < 2 || size > 70000)
        return 0;
    stream = data[0] & 1;
    if (socketpair(AF_UNIX, stream ? SOCK_STREAM : SOCK_DGRAM, 0, sv) != 0)
        return 0;
    if (rp_client_open_fd(&c, sv[0], stream ? RP_TCP : RP_UDP, NFS3_PROGRAM, NFS_V3, NULL,
                          err, sizeof(err)) != 0) {
        close(sv[1]);
        return 0;
    }
    memset(&args, 0, sizeof(args));
    memset(&res, 0, sizeof(res));
    nf_fh_to_v3(&fh, &args.dir);
    args.dircount = 1024;
    args.maxcount = 8192;
    if (nf_call_init(&call, c, NFSPROC3_READDIRPLUS, &args, &res, done, NULL) == 0 &&
        rp_call_start(c, &call) == 0) {
        char drain[4096];

        while (recv(sv[1], drain, sizeof(drain), MSG_DONTWAIT) > 0)
            ;
        buf = malloc(size - 2);
        if (buf) {
            memcpy(buf, data + 2, size - 2);
            /* with a stream, the XID sits after the 4-byte marker */
            if ((data[1] & 1) && size - 2 >= (stream ? 8u : 4u)) {
                uint8_t *x = buf + (stream ? 4 : 0);

                x[0] = (uint8_t)(call.xid >> 24);
                x[1] = (uint8_t)(call.xid >> 16);
                x[2] = (uint8_t)(call.xid >> 8);
                x[3] = (uint8_t)call.xid;
            }
            if (size > 2)
                (void)send(sv[1], buf, size - 2, MSG_DONTWAIT);
            free(buf);
        }
        for (i = 0; i < 4; i++)
            (void)rp_client_service(c, POLLIN);
    }
    rp_client_close(c); /* cancels the call if no reply completed it */
    close(sv[1]);
    return 0;
}
