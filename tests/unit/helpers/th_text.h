/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * th_text.h - unit-test helper: what a stream or a file holds, as one
 * NUL-terminated string in the caller's buffer, for tests that look for
 * lines in a log, a report or a stats file (libc only, linked into every
 * unit test).
 */
#ifndef TH_TEXT_H
#define TH_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* Reads f from its start into buf (at most cap - 1 bytes) and ends it with
 * a NUL; f stays open.  Returns the bytes read. */
size_t th_text_of_stream(FILE *f, char *buf, size_t cap);

/* The same for the file at path; "" (0) when it cannot be opened. */
size_t th_text_of_file(const char *path, char *buf, size_t cap);

/* Undoes the wrapping of a --help text in place: a newline followed by
 * blanks becomes one blank, so that an option's text reads as one line.
 * Returns the longest line the text had before. */
size_t th_text_unwrap(char *text);

#endif /* TH_TEXT_H */
