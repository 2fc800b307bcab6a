/* SPDX-License-Identifier: BSD-2-Clause */
/* th_text.c - a stream's or a file's text for the tests (th_text.h). */
#include "helpers/th_text.h"

size_t th_text_of_stream(FILE *f, char *buf, size_t cap)
{
    size_t n;

    rewind(f);
    n = fread(buf, 1, cap - 1, f);
    buf[n] = '\0';
    return n;
}

size_t th_text_of_file(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    size_t n;

    buf[0] = '\0';
    if (f == NULL)
        return 0;
    n = th_text_of_stream(f, buf, cap);
    fclose(f);
    return n;
}

size_t th_text_unwrap(char *text)
{
    size_t longest = 0, line = 0;
    char *in = text, *out = text;

    while (*in) {
        if (*in == '\n') {
            longest = line > longest ? line : longest;
            line = 0;
            if (in[1] == ' ') {
                while (in[1] == ' ')
                    in++;
                *in = ' ';
                continue;
            }
        } else {
            line++;
        }
        *out++ = *in++;
    }
    *out = '\0';
    return line > longest ? line : longest;
}
