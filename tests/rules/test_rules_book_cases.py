"""Book cases: short game records written from the rule books and rulings.md, replayed through ``replay``.

Each case in ``tests/data/book_cases`` is a record (``NAME.record.json``) and what the books say must come of it
(``NAME.expected.json``): ``about`` (the rule at stake, quoted from the book where there is a sentence for it),
and either ``exit: 0`` with ``result`` or ``exit: 2`` with ``stderr``, the words the one-line refusal must hold
(round, player, rule).

The expected results were derived by hand from the books, not from the engine's output. A result lists the keys
it checks; a key left out (for instance ``rounds`` after a Four Leaf Clover, whose "what stayed" the format does
not settle) is not compared. Where the engine and the books disagree, the case is marked below with the ruling
that decides it, so that it turns into a failure (strict xfail) once the engine is fixed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from controller.__main__ import main

CASES_DIR = Path(__file__).resolve().parent.parent / "data" / "book_cases"
CASES = sorted(path.name.removesuffix(".record.json") for path in CASES_DIR.glob("*.record.json"))

# Cases in which the engine does not do what the books and rulings.md say (name -> the ruling at stake).
ENGINE_WRONG: dict[str, str] = {}


def _param(name: str) -> Any:
    if name in ENGINE_WRONG:
        return pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=ENGINE_WRONG[name]))
    return name


def _differences(expected: Any, got: Any, where: str = "") -> list[str]:
    """Where ``got`` differs from ``expected``; dictionaries (also inside lists, e.g. ``rounds``) are compared on the
    keys ``expected`` lists."""
    if isinstance(expected, dict) and isinstance(got, dict):
        found = []
        for key, value in expected.items():
            if key not in got:
                found.append(f"{where}.{key}: missing")
            else:
                found.extend(_differences(value, got[key], f"{where}.{key}"))
        return found
    if isinstance(expected, list) and isinstance(got, list) and any(isinstance(x, dict) for x in expected):
        if len(expected) != len(got):
            return [f"{where}: expected {len(expected)} entries, got {len(got)}"]
        found = []
        for k, (want, have) in enumerate(zip(expected, got)):
            found.extend(_differences(want, have, f"{where}[{k}]"))
        return found
    return [] if expected == got else [f"{where}: expected {expected!r}, got {got!r}"]


def test_enough_cases() -> None:
    assert len(CASES) >= 160
    assert sum(name.startswith("illegal-") for name in CASES) >= 10


@pytest.mark.parametrize("name", [_param(name) for name in CASES])
def test_book_case(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    record = CASES_DIR / f"{name}.record.json"
    expected = json.loads((CASES_DIR / f"{name}.expected.json").read_text(encoding="utf-8"))
    code = main(["replay", str(record), "--json"])
    out = capsys.readouterr()
    if expected["exit"] == 2:
        assert code == 2, f"{name}: accepted, but the books refuse it ({expected['about']})"
        assert out.out == ""
        lines = out.err.strip().splitlines()
        assert len(lines) == 1, out.err
        for word in expected["stderr"]:
            assert word in lines[0], f"{name}: {word!r} not in {lines[0]!r}"
        return
    assert code == 0, f"{name}: refused: {out.err.strip()}"
    differences = _differences(expected["result"], json.loads(out.out))
    assert not differences, f"{name} ({expected['about']}):\n" + "\n".join(differences)


@pytest.mark.parametrize(("name", "pauses"), [("yakuzas-full-game-gang-wins", 1), ("yakuzas-early-end-one-gang-alive", 0)])
def test_gang_meeting_after_round_4(name: str, pauses: int, capsys: pytest.CaptureFixture[str]) -> None:
    """PT: 'Ao final da 4ª Rodada do jogo ... a partida é interrompida por 5 minutos' (not if the game ended)."""
    assert main(["replay", str(CASES_DIR / f"{name}.record.json")]) == 0
    lines = capsys.readouterr().out.lower().splitlines()
    meetings = [i for i, line in enumerate(lines) if "intermission" in line]
    assert len(meetings) == pauses
    for at in meetings:
        before = [line for line in lines[:at] if line.startswith("round ")]
        after = [line for line in lines[at:] if line.startswith("round ")]
        assert before[-1].startswith("round 4:")
        assert after[0].startswith("round 5:")
