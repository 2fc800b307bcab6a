/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cm.h - what any file of FreeSFS may use, from the bottom of the common
 * layer: the printf format attribute, array lengths and the assert policy.
 * Each module of the layer has a header of its own (error.h, clock.h,
 * rng.h, num.h, atomic.h, yaml.h, alloc.h...: docs/ARCHITECTURE.md lists
 * them); this one includes nothing of the project's.
 *
 * Conventions (docs/STYLE.md 2.4): functions return 0 or a negative errno; detail
 * text goes into a caller-owned buffer, never to stdout; only main() exits.
 */
#ifndef CM_H
#define CM_H

#define CM_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#define CM_ARRAY_LEN(a)      (sizeof(a) / sizeof((a)[0]))

/*
 * The assert policy (docs/STYLE.md 2.4).  assert() states an invariant that
 * costs a comparison or two and stays on in every build, release included:
 * no wrapper defines NDEBUG, because a broken invariant means results that
 * are silently wrong.  CM_ASSERT_DEBUG states one whose check costs a
 * search (a hash lookup, a walk of a list) on a hot path: it is checked
 * only in builds that define CM_DEBUG_CHECKS (M.debug and M.coverage, so
 * every `make test` runs the unit tests with it) and compiles to nothing
 * elsewhere - the expression is then type-checked but never evaluated, so
 * it must have no side effect either way (and a static function it alone
 * calls would be unused there: clang says so).
 */
#ifdef CM_DEBUG_CHECKS
#include <assert.h>
#define CM_ASSERT_DEBUG(expr) assert(expr)
#else
#define CM_ASSERT_DEBUG(expr) ((void)sizeof(!(expr)))
#endif

#endif /* CM_H */
