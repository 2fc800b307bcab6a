/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * th_pcap.h - unit-test helper: a pcap built in memory (raw IPv4 link,
 * microsecond stamps) for the NFS capture reader's tests, which read it
 * back through fmemopen: frames, IPv4 packets between the client
 * 127.0.0.2 and the server 127.0.0.1, TCP segments between their ports 901
 * and 2049, and RPC records (a record mark, a call or reply header, a body
 * encoded by an rpcgen codec).
 */
#ifndef TH_PCAP_H
#define TH_PCAP_H

#include <stddef.h>
#include <stdint.h>

#include <rpc/rpc.h>

struct th_pc {
    uint8_t buf[1 << 20];
    size_t len;
    int64_t t_ns;
};

#define TH_SYN 0x02
#define TH_ACK 0x10
#define TH_FIN 0x01

/* Starts p: the file header. */
void th_pc_begin(struct th_pc *p);
/* A frame of n bytes, dt_ms after the previous one. */
void th_pc_frame(struct th_pc *p, const uint8_t *d, size_t n, int64_t dt_ms);
/* An IPv4 packet 127.0.0.2 -> 127.0.0.1 (or back) carrying l4[0..n) into
 * out; returns its length. */
size_t th_ipv4(uint8_t *out, int from_client, uint8_t proto, const uint8_t *l4, size_t n,
               uint16_t id, uint16_t frag);
/* A TCP segment 901 -> 2049 (or back) with sequence number seq, flags fl
 * and data d[0..n), as a frame. */
void th_tcp_frame(struct th_pc *p, int from_client, uint32_t seq, uint8_t fl,
                  const uint8_t *d, size_t n, int64_t dt_ms);
/* An RPC record into out (cap bytes): the mark, a call of (prog, vers,
 * proc) with AUTH_NONE, its arguments by codec; returns its length. */
size_t th_rpc_call(uint8_t *out, size_t cap, uint32_t xid, uint32_t prog, uint32_t vers,
                   uint32_t proc, xdrproc_t codec, void *args);
/* The same for an accepted, successful reply. */
size_t th_rpc_reply(uint8_t *out, size_t cap, uint32_t xid, xdrproc_t codec, void *res);

#endif /* TH_PCAP_H */
