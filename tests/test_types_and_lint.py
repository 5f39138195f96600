"""The type checker and the linter (both in the ``dev`` extra), configured in pyproject.toml, report nothing.

mypy checks the three packages and the benchmarks in its strict mode (``strict = true`` in ``[tool.mypy]``); ruff lints the
whole tree with the rules of ``[tool.ruff.lint]``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MYPY_PATHS = ["controller", "vision", "firmware_bridge", "bench"]
RUFF_PATHS = ["."]


def _run(tool: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", tool, *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_mypy_reports_nothing():
    done = _run("mypy", *MYPY_PATHS)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_ruff_reports_nothing():
    done = _run("ruff", "check", *RUFF_PATHS)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
