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
