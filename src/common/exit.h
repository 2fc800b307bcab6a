/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * exit.h - the exit codes of every FreeSFS program, one table: each row is
 * a code, its name (CM_EXIT_<name>) and what it means.  The enum, the
 * names and the meanings come from the table, and a code can appear in it
 * only once (cm_exit_name's switch would not compile); docs/EXIT_CODES.md
 * is the same table for the user, checked against this one by
 * test_common_exit.  A program uses the rows that apply to it.
 *
 * The rule for every code: none in 126-255 except 130 and SFS's 175 and
 * 182.  A shell reads 126 and 127 as "not executable" and "not found",
 * and 128 + N as "killed by signal N" (139 would read as SIGSEGV); 130 is
 * the interrupted code on purpose (128 + SIGINT, as a shell's own), and
 * 175 and 182 are SFS 3.0's.  test_common_exit enforces the rule.
 *
 * sfs and sfs3 keep SFS 3.0's codes (docs/SFS30.md §13.1): 96 for a usage
 * error, one code per SFS option from 97 to 121 in the order of SFS's
 * option list, 83 for a dead child, 175 for a poor clock and 182 for the
 * mount points.  FreeSFS's own options have a block of their own from 32
 * up, in the order they were added; a new option takes the next code (55,
 * then up to 82, below SFS's 83).
 */
#ifndef CM_EXIT_H
#define CM_EXIT_H

/* X(code, name, meaning) */
#define CM_EXIT_MAP(X)                                                                   \
    X(0, OK, "the work was done (a run's report says whether the run is valid)")         \
    X(1, FAILED,                                                                         \
      "the work failed: a run (mount, population, a zero-call interval, stale handles, " \
      "the results file), a load point, the validation suite of sfs -V, a server that "  \
      "could not start, a file that could not be written, an input that ended early")    \
    X(2, USAGE,                                                                          \
      "the command line, the rc file or an input file (mix, block sizes, trace) is "     \
      "wrong, or a file it names cannot be used: nothing ran")                           \
    X(3, STOPPED,                                                                        \
      "stopped on a condition it was given: sfs_mgr -v's server failed the validation "  \
      "suite (no point ran); sfs_nfsd answered its --exit-after calls")                  \
    X(32, SFS_OPEN_LOOP, "sfs: a bad --open-loop")                                       \
    X(33, SFS_SEED, "sfs: a bad --seed")                                                 \
    X(34, SFS_YAML, "sfs: a bad --yaml, or a path the results cannot be written to")     \
    X(35, SFS_PRIME_SSH, "sfs: a bad --prime-ssh")                                       \
    X(36, SFS_PID_FILE, "sfs: a bad --pid-file")                                         \
    X(37, SFS_KILL_RUN, "sfs: a bad --kill-run")                                         \
    X(38, SFS_RESTART_CMD, "sfs: a bad --restart-cmd")                                   \
    X(39, SFS_WINDOW, "sfs: a bad --window")                                             \
    X(40, SFS_LENIENT, "sfs: a bad --lenient")                                           \
    X(41, SFS_CLIENTS, "sfs: a bad --clients")                                           \
    X(42, SFS_TRACE, "sfs: a bad --trace")                                               \
    X(43, SFS_TRACE_FORMAT, "sfs: a bad --trace-format")                                 \
    X(44, SFS_SPEED, "sfs: a bad --speed")                                               \
    X(45, SFS_BLOCK_SIZE, "sfs: a bad --block-size")                                     \
    X(46, SFS_STABLE, "sfs: a bad --stable")                                             \
    X(47, SFS_PROGRESS, "sfs: a bad --progress")                                         \
    X(48, SFS_JUKEBOX_DELAY, "sfs: a bad --jukebox-delay")                               \
    X(49, SFS_MAX_RECORD_BLOCKS, "sfs: a bad --max-record-blocks")                       \
    X(50, SFS_SCALE, "sfs: a bad --scale")                                               \
    X(51, SFS_WORKLOAD,                                                                  \
      "sfs: a bad --workload, an option of a workload other than the one that runs, or " \
      "a bad option of a workload without codes of its own")                             \
    X(52, SFS_SPIN, "sfs: a bad --spin")                                                 \
    X(53, SFS_REALTIME,                                                                  \
      "sfs: a bad --realtime, or a real-time class the system refuses to the user")      \
    X(54, SFS_CPUS, "sfs: a bad --cpus, or a CPU the process may not run on")            \
    X(55, SFS_MINOR, "sfs: a bad --minor (sfs4: NFSv4.1 only)")                          \
    X(83, SFS_CHILD, "sfs: a child died; the others were stopped (SFS's code)")          \
    X(96, SFS_USAGE,                                                                     \
      "sfs: an unknown option or a missing argument, a file set too large for a "        \
      "process, or a replay too long without -t")                                        \
    X(97, SFS_LOAD, "sfs: a bad -l (--load)")                                            \
    X(98, SFS_PROCS, "sfs: a bad -p (--procs)")                                          \
    X(99, SFS_RUNTIME, "sfs: a bad -t (--runtime)")                                      \
    X(100, SFS_WARMUP, "sfs: a bad -w (--warmup)")                                       \
    X(101, SFS_MIX, "sfs: a bad -m (--mix)")                                             \
    X(102, SFS_IODIST, "sfs: a bad -b (--iodist)")                                       \
    X(103, SFS_BLOCK_KB, "sfs: a bad -B (--block-kb)")                                   \
    X(104, SFS_CALLS, "sfs: -c (SFS 2.0's call count) is no longer supported")           \
    X(105, SFS_FILESET_DELTA, "sfs: a bad -f (--fileset-delta)")                         \
    X(106, SFS_ACCESS, "sfs: a bad -a (--access)")                                       \
    X(107, SFS_APPEND, "sfs: a bad -A (--append)")                                       \
    X(108, SFS_DIR_FILES, "sfs: a bad -D (--dir-files)")                                 \
    X(109, SFS_IO_FILES, "sfs: a bad -F (--io-files)")                                   \
    X(110, SFS_SYMLINKS, "sfs: a bad -S (--symlinks)")                                   \
    X(111, SFS_DEBUG, "sfs: a bad -d (--debug)")                                         \
    X(112, SFS_INTERACTIVE, "sfs: -i (--interactive) with -M")                           \
    X(113, SFS_POPULATE, "sfs: a bad -P (--populate)")                                   \
    X(114, SFS_TEST_OP, "sfs: a bad -T (--test-op)")                                     \
    X(115, SFS_VALIDATE, "sfs: a bad -V (--validate)")                                   \
    X(116, SFS_DUMP, "sfs: a bad -z (--dump)")                                           \
    X(117, SFS_TCP, "sfs: a bad -Q (--tcp)")                                             \
    X(118, SFS_BIOD_READS, "sfs: a bad -R (--biod-reads)")                               \
    X(119, SFS_BIOD_WRITES, "sfs: a bad -W (--biod-writes)")                             \
    X(120, SFS_PRIME, "sfs: a bad -M (--prime)")                                         \
    X(121, SFS_CLIENT, "sfs: a bad -N (--client), or -N beyond --clients")               \
    X(130, INTR, "interrupted by SIGINT or SIGTERM: everything it started was stopped")  \
    X(175, SFS_CLOCK, "sfs: the clock's resolution is worse than 100 us (SFS's code)")   \
    X(182, SFS_MOUNTS,                                                                   \
      "sfs: a mount point that does not parse, or not 1, PROCS or a multiple of PROCS "  \
      "of them, not 1 with -V (SFS's code)")

enum cm_exit {
#define CM_EXIT_ENUM(code, name, meaning) CM_EXIT_##name = code,
    CM_EXIT_MAP(CM_EXIT_ENUM)
#undef CM_EXIT_ENUM
};

/* "OK", "SFS_LOAD"...; NULL for a code not in the table. */
const char *cm_exit_name(int code);

/* The row's meaning; NULL for a code not in the table. */
const char *cm_exit_meaning(int code);

#endif /* CM_EXIT_H */
