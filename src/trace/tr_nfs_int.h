/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tr_nfs_int.h - declarations shared by the NFS trace readers and writer and
 * not part of the layer's interface (tr_nfs.h): the reader's state, its
 * named counters and the formats' ops (tr_nfs.c), endpoints and the host
 * table (tr_nfs_hosts.c), the pairing of
 * calls and replies in a bounded window (tr_nfs_pair.c), what each
 * procedure's call and reply carry (tr_nfs_proc.c), the nfsdump text reader
 * (tr_nfs_text.c), the packet path (tr_nfs_pcap.c, tr_nfs_ip.c,
 * tr_nfs_tcp.c, tr_nfs_rpc.c, tr_nfs_xdr.c) and the keyed anonymisation
 * (tr_nfs_anon.c).  docs/NFS_TRACES.md describes the formats and the rules.
 */
#ifndef TR_NFS_INT_H
#define TR_NFS_INT_H

#include <stdint.h>
#include <stdio.h>

#include "nfs4_prot.h"
#include "trace/tr_int.h"
#include "trace/tr_nfs.h"

/* ---- counters ----------------------------------------------------------- */

/* Every counter a reader keeps, in report order: symbol, name. */
#define TR__NFS_COUNTERS(X)                                                              \
    X(CALLS, "calls")                                                                    \
    X(REPLIES, "replies")                                                                \
    X(UNANSWERED, "unanswered_calls")                                                    \
    X(NO_CALL, "replies_without_calls")                                                  \
    X(EARLY_REPLIES, "replies_before_calls")                                             \
    X(EDGE_REPLIES, "replies_at_excerpt_start")                                          \
    X(RETRANS, "retransmissions")                                                        \
    X(RETRANS_AFTER, "retransmissions_after_reply")                                      \
    X(DUP_REPLIES, "duplicate_replies")                                                  \
    X(EARLY, "calls_released_early")                                                     \
    X(DUP_FORGOTTEN, "retransmission_memory_resets")                                     \
    X(TIME_BACK, "time_backwards")                                                       \
    X(NFSV4_CALLS, "nfsv4_calls")                                                        \
    X(NFSV4_REPLIES, "nfsv4_replies")                                                    \
    X(NFSV4_UNKNOWN_OPS, "nfsv4_unknown_ops")                                            \
    X(NFSV4_BAD_OPS, "nfsv4_undecodable_ops")                                            \
    X(NFSV4_OPS_CUT, "nfsv4_compounds_over_ops_max")                                     \
    X(NFSV4_RES_MISMATCH, "nfsv4_results_mismatched")                                    \
    X(NFSV4_ATTRS_UNKNOWN, "nfsv4_attrs_unknown")                                        \
    X(NFSV4_LONG_FH, "nfsv4_long_handles")                                               \
    X(NFSV4_CB_CALLS, "nfsv4_callbacks")                                                 \
    X(NFSV4_CB_REPLIES, "nfsv4_callback_replies")                                        \
    X(OTHER_CALLS, "other_rpc_calls")                                                    \
    X(OTHER_REPLIES, "other_rpc_replies")                                                \
    X(RPC_ERRORS, "rpc_errors")                                                          \
    X(CALL_CUT, "calls_cut")                                                             \
    X(REPLY_CUT, "replies_cut")                                                          \
    X(DATA_CUT, "data_cut")                                                              \
    X(BAD_CALLS, "undecodable_calls")                                                    \
    X(BAD_REPLIES, "undecodable_replies")                                                \
    X(ENTRIES_CUT, "entries_cut")                                                        \
    X(SKIPPED, "skipped_lines")                                                          \
    X(GARBAGE, "garbage_lines")                                                          \
    X(NUL_LINES, "nul_lines")                                                            \
    X(LONG_LINES, "long_lines")                                                          \
    X(BACKWARD_LINES, "lines_back_in_time")                                              \
    X(UNPARSED_LINES, "short_packet_lines")                                              \
    X(STABLE_UNKNOWN, "stable_unknown_lines")                                            \
    X(PACKETS, "packets")                                                                \
    X(CAPTURE_CUT, "capture_cut_short")                                                  \
    X(SHORT_PACKETS, "short_packets")                                                    \
    X(NON_IP, "non_ip_packets")                                                          \
    X(NON_RPC, "non_rpc_packets")                                                        \
    X(FRAGMENTS, "ip_fragments")                                                         \
    X(REASSEMBLED, "ip_fragments_reassembled")                                           \
    X(FRAG_DROPPED, "ip_fragments_dropped")                                              \
    X(TCP_CONNS, "tcp_connections")                                                      \
    X(TCP_CONNS_DROPPED, "tcp_connections_dropped")                                      \
    X(TCP_OUT_OF_ORDER, "tcp_out_of_order")                                              \
    X(TCP_RETRANS, "tcp_retransmitted_segments")                                         \
    X(TCP_OVERLAPS, "tcp_overlaps")                                                      \
    X(TCP_GAPS, "tcp_gaps")                                                              \
    X(TCP_GAP_BYTES, "tcp_gap_bytes")                                                    \
    X(TCP_SKIPPED, "tcp_bytes_skipped")                                                  \
    X(TCP_RESYNCS, "tcp_record_resyncs")                                                 \
    X(TRUNC_RECORDS, "truncated_records")                                                \
    X(BIG_RECORDS, "oversized_records")

enum tr__nfs_counter {
#define TR__NFS_CENUM(sym, name) TR__C_##sym,
    TR__NFS_COUNTERS(TR__NFS_CENUM)
#undef TR__NFS_CENUM
        TR__C_COUNT
};

/* ---- endpoints and hosts ------------------------------------------------ */

/* Address families of an endpoint: IPv4, IPv6, or a host an nfsdump text
 * names by a hex number of another length (an anonymised host). */
enum tr__fam { TR__FAM_TEXT = 0, TR__FAM_V4 = 4, TR__FAM_V6 = 6 };

/* An address and port.  For TR__FAM_TEXT, a holds the host's hex digits
 * as a number (right-aligned) and len the number of digits, so "03" and
 * "3" stay apart; else len is 4 or 16 bytes. */
struct tr__ep {
    uint8_t fam, len;
    uint16_t port;
    uint8_t a[16];
};

/* One RPC message of the trace, as the format readers hand it over. */
struct tr__msg {
    int64_t t_ns; /* ns since the epoch */
    struct tr__ep src, dst;
    enum tr_nfs_transport transport;
    uint32_t conn; /* TCP connection index, 0 for UDP */
    uint32_t xid;
    uint64_t where; /* frame or line */
};

/* Most hosts a reader numbers (a capture of random addresses is refused
 * past it, not allowed to grow without bound). */
#define TR__HOSTS_MAX (1u << 20)

struct tr__hosts {
    struct tr__ep *eps; /* by index, port 0 */
    uint32_t n, cap;
    uint32_t *tab; /* open addressing: index + 1, 0 = empty */
    uint32_t tab_cap;
};

/* ---- pairing (tr_nfs_pair.c) -------------------------------------------- */

enum { TR__S_NAME, TR__S_NAME2, TR__S_TEXT, TR__S_N };
#define TR__NOSTR UINT32_MAX

/* A call held until its reply or the window's end: the event being built
 * and the storage its strings and directory entries point into. */
struct tr__slot {
    struct tr_nfs_event ev;
    struct tr__ep cli, srv;
    int64_t t_abs, reply_t_abs; /* ns since the epoch */
    uint64_t keyhash;
    uint32_t hnext; /* hash chain: slot index + 1, 0 = end */
    uint32_t qnext; /* call-order queue: slot index + 1, 0 = end */
    uint32_t idx;
    int answered;
    int dead;    /* an undecodable call: no event; its reply is absorbed */
    char *arena; /* strings: NUL-terminated, by offset */
    uint32_t alen, acap;
    uint32_t soff[TR__S_N];
    struct tr_nfs_dirent *ents;
    uint32_t *ent_off;
    uint32_t nents, ent_cap;
    /* NFSv4 COMPOUNDs (ev.vers 4): the operations and where their strings
     * and entries are in the arena and ents until the event leaves */
    struct tr_nfs4_compound c4;
    struct tr_nfs4_op *ops4;
    struct tr__op4x *ops4x;
    uint32_t ops4_cap;
    uint32_t tag_off;
};

/* Where an NFSv4 operation's strings and READDIR entries are in its
 * slot's arena and entries while it is built. */
enum { TR__S4_NAME, TR__S4_NAME2, TR__S4_TEXT, TR__S4_N };
struct tr__op4x {
    uint32_t soff[TR__S4_N];
    uint32_t ent0;
};

/* A call's or reply's key in the memory of recent calls: calls whose reply
 * was seen (a later copy is a retransmission or a duplicate reply) and
 * calls of other programs (whose replies are counted as theirs). */
enum {
    TR__RECENT_DONE = 1,
    TR__RECENT_NFSV4,
    TR__RECENT_OTHER,
    TR__RECENT_DEAD,
    TR__RECENT_NFSV4_CB
};
struct tr__recent {
    uint64_t h;
    int64_t t;
    uint32_t kind;
};

struct tr__pair {
    int64_t window_ns;
    uint32_t max_pending;
    struct tr__slot **slots; /* every slot ever made, by index */
    uint32_t nslots, slots_cap;
    uint32_t free_head; /* free list through qnext */
    uint32_t *bucket;   /* hash: slot index + 1 */
    uint32_t nbuckets;
    uint32_t qhead, qtail; /* call order */
    uint32_t npending;     /* slots in the queue */
    uint32_t released;     /* the slot handed out last (+1), freed next time */
    int64_t released_t;    /* the call time of the event handed out last */
    int64_t now;           /* latest message time */
    struct tr__recent *recent;
    uint32_t recent_cap, recent_used;
};

/* ---- the capture's state (tr_nfs_pcap.c, tr_nfs_ip.c, tr_nfs_tcp.c) ------- */

/* Bounds of the packet path: what one hostile capture can make it hold. */
#define TR__FRAGS_MAX  256u                       /* datagrams in reassembly */
#define TR__FRAG_WAIT  (30ll * 1000000000)        /* ns before one is dropped */
#define TR__CONNS_MAX  4096u                      /* TCP connections followed */
#define TR__RECORD_MAX ((1u << 20) + (64u << 10)) /* bytes of one RPC record */
#define TR__OOO_MAX                                                                      \
    (1u << 20) /* out-of-order bytes a direction                                         \
                  holds before a gap is declared */
#define TR__GAP_WAIT                                                                     \
    (2ll * 1000000000)                /* ns a hole may wait for its                      \
                                         retransmission */
#define TR__MEM_BUDGET (256ull << 20) /* all stream buffers together */

/* An IP datagram in reassembly: fragments in 8-byte units, "seen" by their
 * length on the wire, "have" by the bytes the capture kept. */
struct tr__frag {
    struct tr__ep src, dst;
    uint32_t id;
    uint8_t proto, used, v6;
    int64_t first_t;
    uint32_t total; /* payload bytes, known once the last fragment came */
    uint32_t nfrags;
    uint8_t seen[8192 / 8], have[8192 / 8];
    uint8_t buf[65536];
};

/* A TCP segment held until the bytes before it come. */
struct tr__seg {
    struct tr__seg *next;
    uint64_t off;    /* stream offset */
    uint32_t len;    /* bytes on the wire */
    uint32_t caplen; /* bytes captured (data[0..caplen)) */
    uint64_t where;  /* its frame and time */
    int64_t t;
    uint8_t data[];
};

/* Where the bytes of a scan buffer came from: pieces ending at end. */
#define TR__SCAN_PIECES 32
struct tr__piece {
    uint32_t end;
    uint64_t where;
    int64_t t;
};

/* One direction of a TCP connection: stream reassembly and RPC record
 * marking. */
struct tr__dir {
    int based;     /* base is known */
    int fin;       /* a FIN was seen */
    uint32_t base; /* sequence number of stream offset 0 */
    uint64_t next; /* next stream offset to deliver */
    struct tr__seg *ooo;
    uint32_t ooo_bytes, ooo_n;
    int64_t ooo_since;
    uint64_t where; /* the frame delivering bytes now */
    int64_t t;
    /* record marking */
    int sync; /* at a known record position */
    uint8_t mark[4];
    unsigned mark_have;
    int in_frag, last_frag;
    uint32_t frag_left;
    uint32_t nfrags;
    uint8_t *rec;
    uint32_t rec_cap, rec_kept;
    uint64_t rec_wire;
    int rec_cut;
    uint64_t rec_where; /* the frame and time of the record's last captured byte */
    int64_t rec_t;
    /* finding a record again */
    uint8_t *scan;
    uint32_t scan_len, scan_cap;
    struct tr__piece pieces[TR__SCAN_PIECES];
    unsigned npieces;
};

struct tr__conn {
    struct tr__ep a, b; /* d[0] carries a -> b */
    uint32_t index;
    int64_t last_t;
    int closed;
    uint32_t hnext; /* hash chain: connection slot + 1 */
    struct tr__dir d[2];
};

struct tr__cap {
    void *pcap; /* pcap_t */
    int dlt;
    uint64_t frame;
    int64_t last_t; /* the current frame's stamp, as captured */
    int64_t max_t;  /* the latest stamp so far */
    int nano;
    struct tr__frag *frags[TR__FRAGS_MAX];
    struct tr__conn **conns; /* by slot */
    uint32_t nconns, conns_cap;
    uint32_t *chash;
    uint32_t chash_cap;
    uint32_t next_conn_index;
    uint64_t mem;            /* bytes of stream buffers held */
    struct tr__early *early; /* replies before their calls (tr_nfs_early.c) */
    struct tr__live *live;   /* a live capture's state, NULL for a file */
};

/* tr_nfs_pcapng.c: the pcapng file a live capture keeps (libpcap 1.10
 * writes pcap only; pcapng holds the capture's drop figures too). */
struct tr__pcapng;
/* Starts the file (beside path, renamed into place by close): the
 * section header and the interface's description.  0 or -errno with err. */
int tr__pcapng_open(struct tr__pcapng **w, const char *path, int linktype,
                    uint32_t snaplen, const char *ifname, const char *filter, char *err,
                    size_t errlen);
/* One packet: t_ns since the epoch, data[0..caplen) of len bytes on the
 * wire.  0 or -errno (a write error). */
int tr__pcapng_packet(struct tr__pcapng *w, int64_t t_ns, const uint8_t *data,
                      uint32_t caplen, uint32_t len);
/* The interface's statistics (drops, start and end), then the file
 * renamed into place; frees w.  0 or -errno with err (the temporary file
 * removed).  NULL is allowed. */
int tr__pcapng_close(struct tr__pcapng *w, const struct tr_nfs_drops *d, int64_t start_ns,
                     int64_t end_ns, char *err, size_t errlen);
/* Frees w and removes the temporary file (an error path).  NULL is
 * allowed. */
void tr__pcapng_abort(struct tr__pcapng *w);

/* tr_nfs_ip.c: an IPv4 or IPv6 packet (data[0..caplen) of wire bytes). */
int tr__ip_packet(struct tr_nfs_reader *r, const uint8_t *data, size_t caplen,
                  size_t wire, int version);
void tr__ip_free(struct tr__cap *c);
/* The end of the capture: datagrams still incomplete are counted dropped. */
void tr__ip_flush(struct tr_nfs_reader *r);
/* tr_nfs_early.c: replies that came before their calls (the calls'
 * direction held behind a hole), kept until their calls come. */
struct tr__early_reply {
    struct tr__msg m;
    uint8_t *buf; /* the message's bytes captured */
    uint32_t len, wire;
};
/* Holds reply m (buf[0..len) of wire) under key h: 1 held, 0 a second
 * reply to a call one is held for (not kept), -ENOMEM.  Replies held
 * past the pairing window, or pushed out by the bounds, are counted
 * replies_without_calls. */
int tr__early_put(struct tr_nfs_reader *r, uint64_t h, const struct tr__msg *m,
                  const uint8_t *buf, size_t len, size_t wire);
/* The reply held under key h: 1 with *out set (the caller frees out->buf),
 * 0 for none. */
int tr__early_take(struct tr_nfs_reader *r, uint64_t h, struct tr__early_reply *out);
/* Lets go (counted) the replies held past the window, or all of them (the
 * capture's end). */
void tr__early_expire(struct tr_nfs_reader *r, int all);
void tr__early_free(struct tr__cap *c);
/* tr_nfs_tcp.c: a TCP segment between src and dst. */
int tr__tcp_segment(struct tr_nfs_reader *r, const struct tr__ep *src,
                    const struct tr__ep *dst, const uint8_t *tcp, size_t caplen,
                    size_t wire);
/* Ends every stream (end of the capture): holes become gaps, records in
 * progress are handed over as cut. */
int tr__tcp_flush(struct tr_nfs_reader *r);
void tr__tcp_free(struct tr__cap *c);

/* ---- the reader ---------------------------------------------------------- */

struct tr__text;
struct tr__cap;

/* One format of NFS trace (docs/STYLE.md 2.5): tr_nfs.c holds the table,
 * detects and opens through it and drives step; a format calls the
 * reader's helpers below, never the other way round. */
struct tr__nfs_format {
    const char *name; /* --format's word */
    /* nonzero when buf (a file's first bytes) starts like this format */
    int (*probe)(const unsigned char *buf, size_t len);
    /* sets up r->text or r->cap and r->format: 0, or -errno with err set */
    int (*open)(struct tr_nfs_reader *r, char *err, size_t errlen);
    /* one line or packet: 1, 0 at the end, -errno with last_error set */
    int (*step)(struct tr_nfs_reader *r);
    /* frees what open set up (also after a failed open) */
    void (*close)(struct tr_nfs_reader *r);
    /* captures only: open a live capture instead of a file (0, or -errno
     * with err set), and its drop figures (0, or -ENOTSUP for a file) */
    int (*open_live)(struct tr_nfs_reader *r, const struct tr_nfs_live *lv, char *err,
                     size_t errlen);
    int (*drops)(const struct tr_nfs_reader *r, struct tr_nfs_drops *d);
};

extern const struct tr__nfs_format tr__nfs_pcap_format; /* tr_nfs_pcap.c */
extern const struct tr__nfs_format tr__nfs_text_format; /* tr_nfs_text.c */

/* Callback programs: those SETCLIENTID, CREATE_SESSION and
 * BACKCHANNEL_CTL named (at most TR__CB_PROGS; past it the oldest is
 * forgotten), and any call of version 1 of a program of the transient
 * range RFC 5531 leaves to such programs (0x40000000-0x5fffffff). */
#define TR__CB_PROGS 16u
struct tr__cb_progs {
    uint32_t prog[TR__CB_PROGS];
    uint32_t n, next;
};
/* The root handle PUTROOTFH puts, by server, as a GETFH once showed it: a
 * server's pseudo-file-system root keeps its handle, so a PUTROOTFH no
 * GETFH follows is known by it (at most TR__ROOTS_MAX servers; past it
 * the oldest is forgotten). */
#define TR__ROOTS_MAX 16u
struct tr__roots {
    struct tr__ep srv[TR__ROOTS_MAX];
    struct nf_fh fh[TR__ROOTS_MAX];
    uint32_t n, next;
};
struct tr_nfs_reader {
    char *file; /* name for messages */
    struct tr_nfs_options opt;
    FILE *fp, *owned_fp;
    FILE *wrapped_fp; /* a pipe's first bytes replayed (tr_nfs.c) */
    const struct tr__nfs_format *fmt;
    const char *format; /* what the file is: pcap, pcapng or nfsdump */
    struct tr__text *text;
    struct tr__cap *cap;
    unsigned char magic[4]; /* the file's first bytes */
    int eof;
    int failed; /* a sticky -errno after an error */
    int64_t origin_ns;
    int origin_set;
    struct tr__pair pair;
    struct tr__hosts hosts;
    uint64_t cnt[TR__C_COUNT];
    uint64_t restored[TR__C_COUNT]; /* "#freesfs counter" lines of a text
                                       written from a capture: reported
                                       as the larger of the two */
    struct tr_counter out[TR__C_COUNT];
    struct tr__cb_progs cb; /* NFSv4 callback programs (tr_nfs4_args.c) */
    struct tr__roots roots; /* NFSv4 root handles (tr_nfs4_flow.c) */
    char last_error[CM_ERR_LEN];
};

/* tr_nfs.c */
/* Sets last_error to "FILE:WHERE: error: message" (where 0: "FILE: ...")
 * or, for captures, "FILE: frame N: error: message".  Returns -EINVAL. */
int tr__nfs_error(struct tr_nfs_reader *r, uint64_t where, const char *fmt, ...)
    CM_PRINTF(3, 4);
/* Damage in the input: lenient counts it under counter c (and
 * skipped_lines for text), passes the message to the warning callback and
 * returns 0; strict returns -EINVAL with last_error kept. */
int tr__nfs_damage(struct tr_nfs_reader *r, enum tr__nfs_counter c);
/* A stream reading fp whose fclose leaves fp open (libpcap closes the
 * stream it is given; the caller's stays the caller's).  NULL: no memory. */
FILE *tr__stream_borrow(FILE *fp);

/* tr_nfs_hosts.c */
/* The index of the host of ep (port ignored), numbered on first sight;
 * -E2BIG past TR__HOSTS_MAX, -ENOMEM. */
int tr__host_index(struct tr__hosts *h, const struct tr__ep *ep, uint32_t *index);
void tr__hosts_free(struct tr__hosts *h);
/* The host at index i, or NULL. */
const struct tr__ep *tr__host(const struct tr_nfs_reader *r, uint32_t i);
/* Formats a host: dotted IPv4, IPv6, or an nfsdump host's hex digits. */
const char *tr__ep_name(const struct tr__ep *ep, char *buf, size_t len);

/* tr_nfs_pair.c */
int tr__pair_init(struct tr__pair *p, int64_t window_ns, uint32_t max_pending);
/* The key a call (client cli) and its reply share, as a nonzero hash. */
uint64_t tr__pair_key(const struct tr__ep *cli, enum tr_nfs_transport t, uint32_t conn,
                      uint32_t xid);
void tr__pair_free(struct tr__pair *p);
/*
 * A call of an NFS or MOUNT procedure: the slot whose event to fill with
 * the arguments (prog, vers, proc, op, xid, ports, transport and the call's
 * time are set), or NULL with *rc 0 when it is a copy of a call held or
 * answered (counted) or -errno (out of memory).
 */
struct tr__slot *tr__pair_call(struct tr_nfs_reader *r, const struct tr__msg *m,
                               uint32_t prog, uint32_t vers, uint32_t proc, int *rc);
/* A call of another program (NFSv4, NLM...) is remembered for the window
 * only so that its reply is counted as its program's (kind TR__RECENT_*).
 * Returns 1 when it is new (count it), 0 for a copy. */
int tr__pair_foreign_call(struct tr_nfs_reader *r, const struct tr__msg *m,
                          uint32_t kind);
/*
 * A reply: the slot of its call, whose event tells prog, vers and proc for
 * decoding (the reply's time is set, TR_NFS_F_REPLY too); or NULL when
 * none is held, with *kind the recent call it answers (TR__RECENT_*) or 0
 * for none.  Counts nothing: the caller does.
 */
struct tr__slot *tr__pair_reply(struct tr_nfs_reader *r, const struct tr__msg *m,
                                uint32_t *kind);
/* Advances the trace time (a message or packet at t_ns). */
void tr__pair_time(struct tr_nfs_reader *r, int64_t t_ns);
/* The next event that may be released (its call is the oldest held, and it
 * was answered, or the window has passed, or at_end): 1 with *ev set,
 * 0 when none may yet, -errno (host table). */
int tr__pair_next(struct tr_nfs_reader *r, int at_end, struct tr_nfs_event *ev);
/* Drops a slot that was handed out by tr__pair_call but could not be
 * filled (an undecodable call): it never becomes an event. */
void tr__pair_drop(struct tr_nfs_reader *r, struct tr__slot *s);

/* Strings and entries of a slot's event (copied into the slot). */
int tr__slot_str(struct tr__slot *s, int which, const char *str, size_t len);
/* A string into the slot's arena at *off (NUL-terminated): 0 or -ENOMEM. */
int tr__slot_put(struct tr__slot *s, const char *str, size_t len, uint32_t *off);
/* A new NFSv4 operation of the slot's COMPOUND, zeroed, with no strings;
 * NULL when the slot has TR_NFS4_OPS_MAX already (*rc 0) or on no memory
 * (*rc -ENOMEM). */
struct tr_nfs4_op *tr__slot_op4(struct tr__slot *s, int *rc);
/* A new directory entry with its name, or NULL when the slot has
 * TR_NFS_ENTRIES_MAX already (counted by the caller) or on no memory
 * (*rc = -ENOMEM). */
struct tr_nfs_dirent *tr__slot_dirent(struct tr__slot *s, const char *name, size_t len,
                                      int *rc);

/* ---- procedures (tr_nfs_proc.c) ------------------------------------------ */

/* What a procedure's call carries (TR__A_*) and its reply (TR__R_*). */
#define TR__A_FH     0x0001u /* fh */
#define TR__A_NAME   0x0002u /* name (in fh) */
#define TR__A_FH2    0x0004u /* fh2 */
#define TR__A_NAME2  0x0008u /* name2 (in fh2) */
#define TR__A_TEXT   0x0010u /* symlink target, mount path */
#define TR__A_OFFSET 0x0020u /* offset */
#define TR__A_COUNT  0x0040u /* count */
#define TR__A_STABLE 0x0080u /* WRITE's stable_how */
#define TR__A_HOW    0x0100u /* CREATE's mode */
#define TR__A_ACCESS 0x0200u
#define TR__A_SATTR  0x0400u
#define TR__A_COOKIE 0x0800u /* offset is a READDIR cookie */
#define TR__A_MAXCNT 0x1000u /* count is READDIRPLUS's maxcount */
#define TR__A_FTYPE  0x2000u /* MKNOD's type, in sattr */

#define TR__R_FH      0x0001u /* res_fh (when OK) */
#define TR__R_ATTR    0x0002u /* attr */
#define TR__R_DIR     0x0004u /* dir_attr */
#define TR__R_PRE     0x0008u /* pre */
#define TR__R_COUNT   0x0010u /* res_count (when OK) */
#define TR__R_EOF     0x0020u /* eof (when OK) */
#define TR__R_COMMIT  0x0040u /* committed (when OK) */
#define TR__R_ACCESS  0x0080u /* res_access (when OK) */
#define TR__R_TEXT    0x0100u /* READLINK's target (when OK) */
#define TR__R_ENTRIES 0x0200u /* READDIR(PLUS) entries (when OK) */
#define TR__R_ATTR_OK 0x0400u /* attr only when OK (LOOKUP and the creates) */

struct tr__proc_fields {
    uint32_t args, res;
};

/* The fields of (prog, vers, proc), or NULL outside the tables. */
const struct tr__proc_fields *tr__proc_fields(uint32_t prog, uint32_t vers,
                                              uint32_t proc);
/* The nfs layer's table row, or NULL. */
const struct nf_proc *tr__proc_row(uint32_t prog, uint32_t vers, uint32_t proc);

/* ---- the packet path ---------------------------------------------------- */

/* Decodes a call's arguments (or a reply's results) from buf[0..len) into
 * s's event with the rpcgen codecs (tr_nfs_xdr.c); cut: the message had
 * more bytes on the wire.  Returns 1 when every field decoded, 0 when the
 * fields stop early (those before the stop are set), -ENOMEM. */
int tr__xdr_args(struct tr_nfs_reader *r, struct tr__slot *s, const uint8_t *buf,
                 size_t len, int cut);
int tr__xdr_res(struct tr_nfs_reader *r, struct tr__slot *s, const uint8_t *buf,
                size_t len, int cut);

/* One RPC message from the capture (tr_nfs_rpc.c): buf[0..len) are the
 * bytes captured of a message of wire bytes on the wire.  Returns 1 when it
 * was an RPC call or reply, 0 when it is not RPC, -ENOMEM. */
int tr__rpc_msg(struct tr_nfs_reader *r, const struct tr__msg *m, const uint8_t *buf,
                size_t len, size_t wire);
/* 1 when buf[0..len) starts like an RPC call of a program and version
 * an NFS capture holds, or like a reply: how a TCP stream that lost its
 * framing finds a record again. */
int tr__rpc_plausible(const uint8_t *buf, size_t len);

/* ---- NFSv4 (tr_nfs4_*.c) ---------------------------------------------- */

/* What one NFSv4 decode works on: the message's bytes through libtirpc's
 * XDR, and the slot it fills. */
struct tr__x4 {
    XDR x;
    size_t len; /* bytes in the buffer */
    int cut;    /* the message had more bytes on the wire */
    int nomem;  /* a copy into the slot failed */
    struct tr_nfs_reader *r;
    struct tr__slot *s;
};

/* tr_nfs4_attr.c: the pieces both directions decode, with the rpcgen
 * codecs into bounded buffers (no allocation).  Each returns 1 when it
 * decoded, 0 when the bytes ran out or did not decode (d->nomem for a
 * failed copy). */
/* A handle into out (one longer than NF_FH_MAX kept as its head and a hash
 * of the whole, counted). */
int tr__x4_fh(struct tr__x4 *d, struct nf_fh *out);
/* A utf8string (component4, linktext4) into the slot's arena at *off. */
int tr__x4_str(struct tr__x4 *d, uint32_t *off);
/* A bitmap4, kept in words[0..*n) (NFS4_XDR_BITMAP words at most). */
int tr__x4_bitmap(struct tr__x4 *d, uint32_t *words, uint32_t *n);
/* An fattr4: the attributes FreeSFS keeps into a (the settable ones set
 * CREATE and SETATTR ask for: TIME_*_SET as the times, the server's time
 * as TR_NFS_TIME_SERVER), the FILEHANDLE attribute into fh (may be NULL);
 * an attribute number the reader does not know ends the list (counted:
 * nfsv4_attrs_unknown), the fattr4 itself is still read whole. */
int tr__x4_fattr(struct tr__x4 *d, struct tr_nfs_attr *a, struct nf_fh *fh);
/* A stateid4; a decoded one copied. */
int tr__x4_stateid(struct tr__x4 *d, struct tr_nfs4_stateid *out);
void tr__x4_stateid_of(struct tr_nfs4_stateid *out, const stateid4 *st);
/* An operation (or result) from start, its number included, through the
 * union's codec into obj (size bytes, zeroed first); the caller reads it
 * and frees it with xdr_free(codec, obj) whatever this returned. */
int tr__x4_union(struct tr__x4 *d, u_int start, xdrproc_t codec, void *obj, size_t size);
/* An opaque<> whose bytes are skipped, not copied (WRITE's and READ's
 * data): *n its length; *all 0 when the buffer does not hold them all.
 * Returns 1 when the length word was there. */
int tr__x4_skip_opaque(struct tr__x4 *d, uint32_t *n, int *all);
/* A state_owner4's client id and a hash of it and its owner bytes. */
int tr__x4_owner(struct tr__x4 *d, uint64_t *clientid, uint64_t *owner);
/* The same hash of a client id and owner bytes (an owner's key). */
uint64_t tr__x4_owner_hash(uint64_t clientid, const void *owner, size_t len);

/* tr_nfs4_args.c: a COMPOUND call's arguments (after the RPC header) into
 * s's COMPOUND.  Returns 1 when its header decoded (operations that stop
 * early are flagged and counted there), 0 when not even that, -ENOMEM. */
int tr__nfs4_args(struct tr_nfs_reader *r, struct tr__slot *s, const uint8_t *buf,
                  size_t len, int cut);
/* tr_nfs4_res.c: a COMPOUND reply's results into its call's slot.  The
 * same returns. */
int tr__nfs4_res(struct tr_nfs_reader *r, struct tr__slot *s, const uint8_t *buf,
                 size_t len, int cut);
/* tr_nfs4_flow.c: when a COMPOUND's event leaves: its strings and entries
 * as pointers, the current- and saved-filehandle flow resolved (with the
 * server's root handle from roots, which it teaches), the COMPOUND's
 * client id; ev.v4 points at s->c4. */
void tr__nfs4_finish(struct tr__roots *roots, struct tr__slot *s);

/* tr_nfs4_args.c */
void tr__cb_prog_learn(struct tr__cb_progs *c, uint32_t prog);
int tr__cb_prog_is(const struct tr__cb_progs *c, uint32_t prog, uint32_t vers);

/* ---- anonymisation (tr_nfs_anon.c) -------------------------------------- */

struct tr__anon;
int tr__anon_new(struct tr__anon **a, const char *key);
void tr__anon_free(struct tr__anon *a);
/* Replaces a handle's bytes in place (same length). */
void tr__anon_fh(struct tr__anon *a, struct nf_fh *fh);
/* A name into out (NUL-terminated; "." and ".." are kept). */
void tr__anon_name(struct tr__anon *a, const char *name, char *out, size_t outlen);
/* A path, component by component, into out. */
void tr__anon_path(struct tr__anon *a, const char *path, char *out, size_t outlen);
/* A host's address in place (same family and length; a bijection). */
void tr__anon_ep(struct tr__anon *a, struct tr__ep *ep);

#endif /* TR_NFS_INT_H */
