"""The aim benchmark (bench/bench_aims.py) renders no clip of the never-tuned seeds but for the set it reads
with ``--held-out``: its cost clips come from development seeds."""

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_aims.py"


class _Stop(Exception):
    pass


def test_cost_clips_are_not_of_the_never_tuned_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = importlib.util.spec_from_file_location("bench_aims_under_test", BENCH)
    assert spec and spec.loader
    bench = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "bench_aims_under_test", bench)
    spec.loader.exec_module(bench)
    asked: list[int] = []

    def random_spec(seed: int, **_: object) -> None:
        asked.append(seed)
        raise _Stop  # the seed is all this test wants: nothing is rendered

    monkeypatch.setattr(bench.aim_synth, "random_spec", random_spec)
    with pytest.raises(_Stop):
        bench.cost(4)
    assert asked and not [s for s in asked if 9_000_000 <= s <= 9_999_999], asked
