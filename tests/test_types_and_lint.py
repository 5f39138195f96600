"""The type checker and the linter (both in the ``dev`` extra), configured in pyproject.toml, report nothing.

mypy is strict for the rules engine and the game record (``[[tool.mypy.overrides]]``); ruff lints with the
rules of ``[tool.ruff.lint]``.  The paths below are the parts kept clean so far: to check the whole tree,
put "." in ``RUFF_PATHS`` and "controller", "vision", "firmware_bridge" in ``MYPY_PATHS``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MYPY_PATHS = ["controller/rules", "controller/record"]
RUFF_PATHS = [
    "controller/rules",
    "controller/record/replay.py",
    "controller/record/generator.py",
    "controller/record/schema.py",
    "controller/table/referee.py",
    "controller/table/inputs.py",
    "tests/rules",
    "tests/table/table_kit.py",
    "tests/table/test_table_referee.py",
    "tests/table/test_table_record_replay.py",
    "tests/test_types_and_lint.py",
]


def _run(tool: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", tool, *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_mypy_reports_nothing():
    done = _run("mypy", *MYPY_PATHS)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_ruff_reports_nothing():
    done = _run("ruff", "check", *RUFF_PATHS)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
