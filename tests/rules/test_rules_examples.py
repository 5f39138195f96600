"""Every worked example replays to exactly its expected result (the shared ones too, when present)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.__main__ import main

HERE = Path(__file__).resolve().parent
BUNDLED = HERE.parent / "data" / "examples"
SHARED = HERE.parents[2] / "shared" / "examples"


def _examples() -> dict[str, Path]:
    found = {}
    for folder in (BUNDLED, SHARED):
        for path in sorted(folder.glob("*.record.json")) if folder.is_dir() else []:
            found.setdefault(path.name.removesuffix(".record.json"), path)
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


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_bundled_copy_matches_shared(name):
    shared = SHARED / f"{name}.record.json"
    bundled = BUNDLED / f"{name}.record.json"
    if not (shared.exists() and bundled.exists()):
        pytest.skip("only one copy of this example is here")
    assert json.loads(shared.read_text()) == json.loads(bundled.read_text())
