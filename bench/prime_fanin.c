/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * prime_fanin.c - the control plane's fan-in (bench/prime.sh; docs/
 * PERFORMANCE.md): how long the prime (bin/sfs_prime, its one poll() loop)
 * takes to drive N clients through the phases and to gather and aggregate
 * their results, with N fake clients in this process that speak the
 * control protocol (ctl/ct.h) and answer every command at once, so that
 * only the prime's own cost is measured.
 *
 *   prime_fanin SFS_PRIME_PATH N WORKDIR
 *
 * prints one line: clients, connect ms (all HELLOs accepted), the mean
 * phase round trip in ms (from the first client seeing a command to the
 * first client seeing the next: the prime's broadcast plus its wait for N
 * answers; mount -> init, init -> warm-up... measured on mount, init and
 * stop), and the results ms (from RESULTS to sfs_prime's exit: N results
 * received, decoded, aggregated and the result files written).
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/clock.h"
#include "ctl/ct.h"
#include "load/stats.h"

static double ms_now(void)
{
    return (double)cm_now_ns() / 1e6;
}

static int die(const char *what)
{
    fprintf(stderr, "prime_fanin: %s: %s\n", what, strerror(errno));
    return 1;
}

int main(int argc, char **argv)
{
    unsigned n, k, answered = 0;
    char rc[4096], tokpath[4096], line[512], tokhex[64];
    uint8_t tok[CT_TOKEN_LEN];
    struct ct_reader *rd;
    struct pollfd *pf;
    struct rlimit rl;
    struct ld_stats st;
    unsigned char *res;
    size_t wire = ld_stats_wire_max(NULL);
    double t_start, t_conn = 0, first_seen[8] = {0}, t_results = 0, t_end;
    int *fd, port = 0, status;
    char outpath[4200];
    pid_t pid;
    FILE *f;

    if (argc != 4)
        return fprintf(stderr, "usage: prime_fanin SFS_PRIME N WORKDIR\n"), 2;
    n = (unsigned)atoi(argv[2]);
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    snprintf(rc, sizeof(rc), "%s/fanin_rc", argv[3]);
    snprintf(tokpath, sizeof(tokpath), "%s/token", argv[3]);
    f = fopen(rc, "w");
    if (f == NULL)
        return die(rc);
    fprintf(f, "LOAD=%u\nCLIENTS=\"", n);
    for (k = 0; k < n; k++)
        fprintf(f, "%slocalhost", k ? " " : "");
    fprintf(f,
            "\"\nPROCS=1\nMNT_POINTS=127.0.0.1:1:/x\nNFS_VERSION=3\nWARMUP_TIME=0\n"
            "RUNTIME=1\nFILE_COUNT=10\nPRIME_TIMEOUT=120\nWORK_DIR=%s/res\n",
            argv[3]);
    fclose(f);
    /* sfs_prime's stdout goes to a file (a pipe nobody drains would block
     * it on its N client command lines) */
    snprintf(outpath, sizeof(outpath), "%s/prime.out", argv[3]);
    t_start = ms_now();
    pid = fork();
    if (pid == 0) {
        if (freopen(outpath, "w", stdout) == NULL)
            _exit(127);
        execl(argv[1], "sfs_prime", "-r", rc, "--token-file", tokpath, (char *)NULL);
        _exit(127);
    }
    for (k = 0; k < 600 && port <= 0; k++) { /* bounded: 60 s */
        f = fopen(outpath, "r");
        while (f && fgets(line, sizeof(line), f))
            if (sscanf(line, "sfs_prime: control port %d", &port) == 1)
                break;
        if (f)
            fclose(f);
        if (port <= 0)
            poll(NULL, 0, 100);
    }
    if (port <= 0)
        return fprintf(stderr, "prime_fanin: sfs_prime printed no port\n"), 1;
    f = fopen(tokpath, "r");
    if (f == NULL || fgets(tokhex, sizeof(tokhex), f) == NULL ||
        ct_token_parse(tokhex, tok) < 0)
        return die(tokpath);
    fclose(f);

    fd = calloc(n, sizeof(*fd));
    rd = calloc(n, sizeof(*rd));
    pf = calloc(n, sizeof(*pf));
    ld_stats_reset(&st);
    ld_stats_good(&st, NF_OP_GETATTR, 1000000, 0);
    st.runtime_ns = 1000000000ull;
    res = malloc(wire + 8);
    if (!fd || !rd || !pf || !res)
        return die("calloc");
    wire = ld_stats_encode(&st, NULL, NULL, res);
    memcpy(res + wire, "0\n", 2);
    for (k = 0; k < n; k++) {
        struct sockaddr_in sa;
        char hello[64];
        memset(&sa, 0, sizeof(sa));
        sa.sin_family = AF_INET;
        sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        sa.sin_port = htons((uint16_t)port);
        fd[k] = socket(AF_INET, SOCK_STREAM, 0);
        if (fd[k] < 0 || connect(fd[k], (struct sockaddr *)&sa, sizeof(sa)) < 0)
            return die("connect");
        snprintf(hello, sizeof(hello), "host=fake%u\npid=0\nworkload=mix\n", k + 1);
        if (ct_send(fd[k], tok, CT_HELLO, k + 1, 0, hello, (uint32_t)strlen(hello)) < 0)
            return die("hello");
        pf[k].fd = fd[k];
        pf[k].events = POLLIN;
    }
    t_conn = ms_now();
    while (answered < n) {
        int r = poll(pf, n, 5000);
        if (r <= 0)
            return fprintf(stderr, "prime_fanin: the prime went silent\n"), 1;
        for (k = 0; k < n; k++) {
            if (!pf[k].revents)
                continue;
            for (;;) {
                int g = ct_read(&rd[k], fd[k]);
                uint32_t t;
                if (g == 0)
                    break;
                if (g < 0) {
                    pf[k].fd = -1;
                    break;
                }
                t = rd[k].h.type;
                if (t >= CT_MSG_MOUNT && t <= CT_MSG_STOP && first_seen[t] == 0)
                    first_seen[t] = ms_now();
                if (t == CT_MSG_STOP) /* the run ends: answer for it */
                    ct_send(fd[k], tok, CT_MSG_RUN, k + 1, 0, NULL, 0);
                else if (t == CT_MSG_RESULTS) {
                    if (t_results == 0)
                        t_results = ms_now();
                    ct_send(fd[k], tok, CT_MSG_RESULTS, k + 1, 0, res,
                            (uint32_t)(wire + 2));
                    answered++;
                } else if (t >= CT_MSG_MOUNT && t <= CT_MSG_INIT)
                    ct_send(fd[k], tok, t, k + 1, 0, NULL, 0);
            }
        }
    }
    waitpid(pid, &status, 0);
    t_end = ms_now();
    /* mount -> init and init -> run are one phase each; stop -> results
     * is the stop phase; the run's 1 s is between run and stop */
    printf("clients %5u  connect %8.1f ms  phase round trip %8.2f ms  results %8.1f ms  "
           "point %8.1f ms  sfs_prime exit %d\n",
           n, t_conn - t_start,
           ((first_seen[CT_MSG_INIT] - first_seen[CT_MSG_MOUNT]) +
            (first_seen[CT_MSG_RUN] - first_seen[CT_MSG_INIT]) +
            (t_results - first_seen[CT_MSG_STOP])) /
               3.0,
           t_end - t_results, t_end - t_start,
           WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
