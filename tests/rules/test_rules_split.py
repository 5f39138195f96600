"""The bill split against brute force, and the rule book's example."""

from __future__ import annotations

from collections import Counter
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.rules.split import split_bills


def brute_force(bills: list[int], n: int) -> tuple[int, list[int]]:
    """(share, handed-out bills high to low) by trying every way to give each bill to a sharer or the table."""
    best: tuple[int, list[int]] = (0, [])
    for owners in product(range(n + 1), repeat=len(bills)):  # owner n: stays on the table
        totals = [0] * n
        for bill, owner in zip(bills, owners):
            if owner < n:
                totals[owner] += bill
        if len(set(totals)) != 1 or totals[0] == 0:
            continue
        handed = sorted((b for b, o in zip(bills, owners) if o < n), reverse=True)
        key = (totals[0] * n, handed)
        if key > (best[0] * n, best[1]):
            best = (totals[0], handed)
    return best


bill_lists = st.lists(st.sampled_from([5000, 10000, 20000]), min_size=0, max_size=7)


@settings(max_examples=150, deadline=None)
@given(bills=bill_lists, n=st.integers(1, 4))
def test_split_matches_brute_force(bills, n):
    split = split_bills(bills, n)
    share, handed = brute_force(bills, n)
    assert split.share == share
    got = sorted((b for part in split.parts for b in part), reverse=True)
    assert got == handed
    assert all(sum(part) == split.share for part in split.parts)
    assert Counter(got) + Counter(split.left) == Counter(bills)
    assert list(split.left) == sorted(split.left, reverse=True)


@settings(max_examples=300, deadline=None)
@given(
    fours=st.integers(0, 15), twos=st.integers(0, 24), ones=st.integers(0, 25), n=st.integers(0, 9)
)
def test_split_of_large_pots_is_exact(fours, twos, ones, n):
    bills = [20000] * fours + [10000] * twos + [5000] * ones
    split = split_bills(bills, n)
    assert len(split.parts) == n
    assert all(sum(part) == split.share for part in split.parts)
    handed = Counter(b for part in split.parts for b in part)
    assert handed + Counter(split.left) == Counter(bills)
    # nothing larger fits: one more unit each is impossible with these bills
    if n:
        assert split.share * n <= sum(bills)


def test_rule_book_example():
    pot = [20000, 10000, 10000, 5000, 5000]
    three = split_bills(pot, 3)
    assert three.share == 10000 and three.left == (20000,)
    assert sorted(map(sum, three.parts)) == [10000] * 3
    assert split_bills(pot, 4).share == 0 and split_bills(pot, 5).share == 0
    two = split_bills(pot, 2)
    assert two.share == 25000 and two.left == ()


def test_highest_bills_first_tie_break():
    # 70,000 among 4: 10,000 each from 10+10+10+5+5, not from four 5,000s... (the Yakuzas example)
    split = split_bills([20000, 10000, 10000, 10000, 5000, 5000, 5000, 5000], 4)
    assert split.share == 10000
    assert sorted(split.left, reverse=True) == [20000, 5000, 5000]
