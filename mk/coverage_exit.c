/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * coverage_exit.c - linked only into the M.coverage build, with
 * -Wl,--wrap=_exit: a process that ends through _exit() (a load child, a
 * forked child whose exec failed) writes its gcov counters first, as exit()
 * would, so that `make coverage` counts the code that ran there.  Nothing
 * in src/ knows about it.
 */
extern void __gcov_dump(void);
extern void __real__exit(int status) __attribute__((noreturn));
void __wrap__exit(int status) __attribute__((noreturn));

void __wrap__exit(int status)
{
    __gcov_dump();
    __real__exit(status);
}
