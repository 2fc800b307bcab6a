/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * msg.c - the validation suite's messages (vd_int.h; docs/SFS30.md §19):
 * step headers and details at level 2 and 3, and the three classes I
 * (information, level 2 and 3), W (always printed, counted as an error, and
 * at level 3 followed by "continue? (y or n)", where no and EOF stop the
 * run) and E (always printed; the run stops).  A W marked "[deviation]" is
 * a protocol detail beyond SFS 3.0 that loses no data: printed and asked
 * about like any W, counted apart, not an error.  Every line is
 * flushed at once so that an operator, or sfs_mgr reading a pipe, sees it
 * when it happens.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "validate/vd_int.h"

#define MAX_BAD_ANSWERS 10 /* then the answer counts as no */

const char *vd_rfc(struct vd_ctx *v, int op)
{
    if (op < 0 || op >= NF_NOPS || !v->p->section[op])
        return v->p->rfc;
    return v->p->section[op];
}

/* "PREFIXstep: text SUFFIX" on its own line, flushed. */
static void line(struct vd_ctx *v, const char *prefix, const char *suffix,
                 const char *fmt, va_list ap)
{
    fputs(prefix, v->out);
    if (v->step)
        fprintf(v->out, "%s: ", v->step);
    vfprintf(v->out, fmt, ap);
    fputs(suffix, v->out);
    fputc('\n', v->out);
    fflush(v->out);
}

void vd_begin(struct vd_ctx *v, const char *step, const char *fmt, ...)
{
    va_list ap;

    v->step = step;
    if (v->o->level < VD_LEVEL_VERBOSE)
        return;
    va_start(ap, fmt);
    line(v, "", "", fmt, ap);
    va_end(ap);
}

void vd_detail(struct vd_ctx *v, const char *fmt, ...)
{
    va_list ap;

    if (v->o->level < VD_LEVEL_VERBOSE)
        return;
    va_start(ap, fmt);
    fputs("  ", v->out);
    vfprintf(v->out, fmt, ap);
    fputc('\n', v->out);
    fflush(v->out);
    va_end(ap);
}

void vd_info(struct vd_ctx *v, const char *fmt, ...)
{
    va_list ap;

    if (v->o->level < VD_LEVEL_VERBOSE)
        return;
    va_start(ap, fmt);
    line(v, "I: ", "", fmt, ap);
    va_end(ap);
}

/* Level 3: asks until y or n; EOF, an error or too many other answers are
 * no. */
static int ask_continue(struct vd_ctx *v)
{
    char answer[64];
    int tries;

    for (tries = 0; tries < MAX_BAD_ANSWERS; tries++) {
        const char *p = answer;

        fputs("continue? (y or n) ", v->out);
        fflush(v->out);
        if (!v->in || !fgets(answer, sizeof(answer), v->in)) {
            fputc('\n', v->out);
            return -ECANCELED;
        }
        if (!isatty(fileno(v->in))) { /* a piped answer: show it in the log */
            fputs(answer, v->out);
            if (!strchr(answer, '\n'))
                fputc('\n', v->out);
        }
        while (isspace((unsigned char)*p))
            p++;
        if (*p == 'y' || *p == 'Y')
            return 0;
        if (*p == 'n' || *p == 'N')
            return -ECANCELED;
    }
    return -ECANCELED;
}

/* A W line; at level 3 the question.  0 or -ECANCELED. */
static int warning(struct vd_ctx *v, const char *suffix, const char *fmt, va_list ap)
{
    line(v, "W: ", suffix, fmt, ap);
    if (v->o->level >= VD_LEVEL_INTERACTIVE)
        return ask_continue(v);
    return 0;
}

int vd_warn(struct vd_ctx *v, const char *fmt, ...)
{
    va_list ap;
    int rc;

    v->warnings++;
    va_start(ap, fmt);
    rc = warning(v, "", fmt, ap);
    va_end(ap);
    return rc;
}

int vd_deviation(struct vd_ctx *v, const char *fmt, ...)
{
    va_list ap;
    int rc;

    v->deviations++;
    va_start(ap, fmt);
    rc = warning(v, " [deviation]", fmt, ap);
    va_end(ap);
    return rc;
}

int vd_error(struct vd_ctx *v, const char *fmt, ...)
{
    va_list ap;

    v->errors++;
    va_start(ap, fmt);
    line(v, "E: ", "", fmt, ap);
    va_end(ap);
    return -EIO;
}

int vd_fail_call(struct vd_ctx *v, int op, const char *what, int rc)
{
    if (rc < 0)
        return vd_error(v, "%s: no valid reply (%s)", what, rp_status_text(rc));
    return vd_error(v, "%s: %s (%s)", what, nf_status_name((uint32_t)rc), vd_rfc(v, op));
}

void vd_retry_note(struct vd_ctx *v, unsigned try)
{
    vd_info(v, "no reply within the call-class timeout; sending again (%u of %d)", try,
            VD_TIMEOUT_TRIES - 1);
}
