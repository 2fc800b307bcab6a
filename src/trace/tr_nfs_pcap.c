/* SPDX-License-Identifier: BSD-2-Clause */
/* tr_nfs_pcap.c - packet captures (in progress). */
#include <string.h>

#include "trace/tr_nfs_int.h"

int tr__pcap_probe(const unsigned char *buf, size_t len)
{
    (void)buf;
    (void)len;
    return 0;
}

int tr__pcap_open(struct tr_nfs_reader *r, char *err, size_t errlen)
{
    return cm_errf(err, errlen, "%s: packet captures are not read yet", r->file);
}
