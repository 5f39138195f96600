"""Every worked example kept in tests/data/examples (copies of the specification's examples) replays to exactly
its expected result."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.__main__ import main

HERE = Path(__file__).resolve().parent
BUNDLED = HERE.parent / "data" / "examples"


def _examples() -> dict[str, Path]:
    found = {}
    for path in sorted(BUNDLED.glob("*.record.json")):
        found[path.name.removesuffix(".record.json")] = path
    return found


EXAMPLES = _examples()


def test_examples_found():
    assert {"classic-split", "yakuzas-tanto-retarget"} <= set(EXAMPLES)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_replays_to_its_result(name, capsys):
    record = EXAMPLES[name]
    expected = json.loads(record.with_name(f"{name}.result.json").read_text())
    assert main(["replay", str(record), "--json"]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out) == expected
    assert out.err == ""
