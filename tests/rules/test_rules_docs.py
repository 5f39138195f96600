"""The examples in the rules documentation run as written."""

from __future__ import annotations

import doctest
from pathlib import Path

import controller.rules

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def test_rules_page_examples_run():
    failures, tried = doctest.testfile(str(DOC), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert tried > 10 and failures == 0


def test_package_docstring_example_runs():
    failures, tried = doctest.testmod(controller.rules)
    assert tried > 0 and failures == 0


def test_advanced_rules_examples_are_valid_uses():
    """Every one-line JSON use in the advanced rules page names a card, a moment it has, and known fields."""
    import json
    import re

    from controller.record.schema import USE_FIELDS
    from controller.rules.advanced import CATALOG

    text = (DOC.parent / "advanced-rules.md").read_text()
    uses = [json.loads(line) for line in re.findall(r"^(\{\"player\".*\})$", text, flags=re.M)]
    assert len(uses) >= 30
    cards = set()
    for use in uses:
        spec = CATALOG[use["card"]]
        assert set(use) <= USE_FIELDS, use
        assert use.get("when", spec.moments[0]) in spec.moments, use
        cards.add(use["card"])
    assert set(CATALOG) - {"six-feet-under", "super-coward"} <= cards
