"""Phase 7 with bills: the fairest equal split of the pot (rulings.md).

Every sharer gets the same amount, made only of pot bills.  The split hands out
the greatest total; among those, the highest bills.  Bills are 5,000, 10,000 and
20,000, i.e. 1, 2 and 4 units of 5,000.  Because each denomination divides the
next, a handed-out set of ``f`` fours, ``t`` twos and ``o`` ones (``4f+2t+o =
n*s``) can be cut into ``n`` parts of ``s`` units exactly when ``f <= n*(s//4)``
(every part keeps ``s % 4`` units for small bills) and ``o >= n*(s % 2)`` (an odd
part needs a 5,000).  So for each share size, from the largest down, it is
enough to try the most fours, then the most twos: the first that fits is the
answer.  This runs in O(pot / sharers) and is checked against brute force in the
tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

UNIT = 5000
BILLS = (20000, 10000, 5000)


@dataclass(frozen=True, slots=True)
class Split:
    share: int  # what each sharer got (0 when nothing was handed out)
    parts: tuple[tuple[int, ...], ...]  # the bills of each sharer, highest first
    left: tuple[int, ...]  # bills staying on the table, highest first

    @property
    def handed_out(self) -> int:
        return self.share * len(self.parts)


def split_bills(bills: Sequence[int], sharers: int) -> Split:
    """Split ``bills`` (5,000 / 10,000 / 20,000) equally among ``sharers`` people."""
    fours = ones = twos = 0
    for bill in bills:
        if bill == 20000:
            fours += 1
        elif bill == 10000:
            twos += 1
        elif bill == 5000:
            ones += 1
        else:
            raise ValueError(f"not a bill: {bill}")
    left_all = tuple(sorted(bills, reverse=True))
    if sharers <= 0:
        return Split(0, (), left_all)
    n = sharers
    total = 4 * fours + 2 * twos + ones
    for s in range(total // n, 0, -1):
        f = min(fours, n * (s // 4))
        rest = n * s - 4 * f
        need_ones = n * (s % 2)
        t = min(twos, (rest - need_ones) // 2)
        o = rest - 2 * t
        if 0 <= o <= ones:
            parts = _cut(f, t, o, s, n)
            left = (20000,) * (fours - f) + (10000,) * (twos - t) + (5000,) * (ones - o)
            return Split(s * UNIT, parts, left)
    return Split(0, tuple(() for _ in range(n)), left_all)


def _cut(f: int, t: int, o: int, s: int, n: int) -> tuple[tuple[int, ...], ...]:
    """Cut a feasible handed-out set into ``n`` parts of ``s`` units, largest bills first."""
    parts = []
    for _ in range(n):
        # Leave enough fours-room for the parts still to come: greedy is safe
        # because the small bills are interchangeable (see module docstring).
        pf = min(f, s // 4)
        r = s - 4 * pf
        pt = min(t, r // 2)
        po = r - 2 * pt
        f, t, o = f - pf, t - pt, o - po
        parts.append((20000,) * pf + (10000,) * pt + (5000,) * po)
    if f or t or o:  # pragma: no cover - guarded by the feasibility test above
        raise AssertionError("split: bills left over after cutting")
    return tuple(parts)
