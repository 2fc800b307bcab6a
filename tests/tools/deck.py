# SPDX-License-Identifier: BSD-2-Clause
"""deck.py - how far a share of an SFS run may stray from its target in a
window of the run, for the tests that check a mix or block-size rows.

SFS deals ops and transfer sizes from decks of 100 cards per process, so a
window holds each share to about a point, not to the card: it cuts each
process's deck at both ends.  The cards of a share of s in a deck cut
after a cards are hypergeometric, their standard deviation at most
sqrt(25.25 q (1 - q)) cards (q = s / 100, a = 50).  With P processes and n
requests in the window the share may stray 3 such deviations over the 2P
cut decks."""
import math


def stray(q, procs, n):
    """The points a share q (0..1) may stray in a window of n requests
    dealt by procs processes, beside the point of rounding."""
    if n <= 0:
        return 0.0
    return 300.0 * math.sqrt(2 * procs * 25.25 * q * (1 - q)) / n
