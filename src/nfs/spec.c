/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * spec.c - parsing of mount points (nfs layer, docs/DECISIONS.md D2):
 * "host:/path" (ports from rpcbind), "host:port:/path" (NFS and MOUNT at
 * that one port) and "nfs://host[:port]/path[?mountport=N]".  IPv6
 * addresses are written in brackets.  Every error names the mount point and
 * what is wrong with it, in one line.
 */
#include "nfs/nf_spec.h"

#include "common/error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Parses a decimal port 1..65535 from s[0..len). */
static int parse_port(const char *s, size_t len, uint16_t *port)
{
    unsigned long v = 0;
    size_t i;

    if (len == 0 || len > 5)
        return -EINVAL;
    for (i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -EINVAL;
        v = v * 10 + (unsigned long)(s[i] - '0');
    }
    if (v == 0 || v > 65535)
        return -EINVAL;
    *port = (uint16_t)v;
    return 0;
}

/* Copies the host part s[0..len), brackets removed, into out.  Returns the
 * length of the host text including brackets, or -EINVAL. */
static int take_host(const char *spec, const char *s, struct nf_mount_spec *out,
                     char *err, size_t errlen)
{
    const char *end;
    size_t len;

    if (*s == '[') {
        end = strchr(s, ']');
        if (!end)
            return cm_errf(err, errlen, "mount point '%.100s': '[' without ']'", spec);
        len = (size_t)(end - s - 1);
        if (len == 0 || len >= sizeof(out->host))
            return cm_errf(err, errlen, "mount point '%.100s': bad IPv6 address", spec);
        memcpy(out->host, s + 1, len);
        out->host[len] = '\0';
        return (int)(len + 2);
    }
    len = strcspn(s, ":/?");
    if (len == 0)
        return cm_errf(err, errlen, "mount point '%.100s': no host name", spec);
    if (len >= sizeof(out->host))
        return cm_errf(err, errlen, "mount point '%.100s': host name too long", spec);
    memcpy(out->host, s, len);
    out->host[len] = '\0';
    return (int)len;
}

static int take_path(const char *spec, const char *s, size_t len,
                     struct nf_mount_spec *out, char *err, size_t errlen)
{
    if (len == 0 || s[0] != '/')
        return cm_errf(err, errlen, "mount point '%.100s': the path must start with '/'",
                       spec);
    if (len >= sizeof(out->path))
        return cm_errf(err, errlen, "mount point '%.100s': path longer than %d bytes",
                       spec, (int)sizeof(out->path) - 1);
    memcpy(out->path, s, len);
    out->path[len] = '\0';
    return 0;
}

/* "?mountport=N&nfsport=N" (nfsport as libnfs-utils spell it). */
static int parse_query(const char *spec, const char *q, struct nf_mount_spec *out,
                       char *err, size_t errlen)
{
    while (*q) {
        size_t len = strcspn(q, "&");
        const char *eq = memchr(q, '=', len);
        uint16_t *dst = NULL;

        if (eq && (size_t)(eq - q) == 9 && strncmp(q, "mountport", 9) == 0)
            dst = &out->mount_port;
        else if (eq && (size_t)(eq - q) == 7 && strncmp(q, "nfsport", 7) == 0)
            dst = &out->nfs_port;
        if (!dst)
            return cm_errf(
                err, errlen,
                "mount point '%.100s': unknown option '%.*s' (known: mountport, "
                "nfsport)",
                spec, (int)len, q);
        if (parse_port(eq + 1, len - (size_t)(eq + 1 - q), dst) < 0)
            return cm_errf(err, errlen,
                           "mount point '%.100s': '%.*s' is not a port 1..65535", spec,
                           (int)(len - (size_t)(eq + 1 - q)), eq + 1);
        q += len;
        if (*q == '&')
            q++;
    }
    return 0;
}

static int parse_url(const char *spec, const char *s, struct nf_mount_spec *out,
                     char *err, size_t errlen)
{
    int hl = take_host(spec, s, out, err, errlen);
    const char *p, *q;

    if (hl < 0)
        return hl;
    p = s + hl;
    if (*p == ':') {
        size_t len = strcspn(p + 1, "/?");

        if (parse_port(p + 1, len, &out->nfs_port) < 0)
            return cm_errf(err, errlen,
                           "mount point '%.100s': '%.*s' is not a port 1..65535", spec,
                           (int)len, p + 1);
        p += 1 + len;
    }
    q = strchr(p, '?');
    if (take_path(spec, p, q ? (size_t)(q - p) : strlen(p), out, err, errlen) < 0)
        return -EINVAL;
    return q ? parse_query(spec, q + 1, out, err, errlen) : 0;
}

int nf_parse_mount_spec(const char *s, struct nf_mount_spec *out, char *err,
                        size_t errlen)
{
    const char *p;
    int hl;

    memset(out, 0, sizeof(*out));
    if (!s || !*s)
        return cm_errf(err, errlen,
                       "empty mount point (want host:/path, "
                       "host:port:/path or nfs://host[:port]/path)");
    if (strncmp(s, "nfs://", 6) == 0)
        return parse_url(s, s + 6, out, err, errlen);
    hl = take_host(s, s, out, err, errlen);
    if (hl < 0)
        return hl;
    p = s + hl;
    if (*p != ':')
        return cm_errf(err, errlen,
                       "mount point '%.100s': no ':/path' part (want host:/path, "
                       "host:port:/path or nfs://host[:port]/path)",
                       s);
    p++;
    if (*p != '/') {
        size_t len = strcspn(p, ":");

        if (p[len] != ':' || parse_port(p, len, &out->nfs_port) < 0)
            return cm_errf(err, errlen,
                           "mount point '%.100s': '%.*s' is not a port 1..65535", s,
                           (int)len, p);
        out->mount_port = out->nfs_port;
        p += len + 1;
    }
    return take_path(s, p, strlen(p), out, err, errlen);
}
