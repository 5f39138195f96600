"""The board API the firmware uses (machine, neopixel, micropython, time's
ticks, select, os) type-checked against the published MicroPython stubs for
the Raspberry Pi Pico (``micropython-rp2-rpi-pico-stubs``, in the dev extra):
a misspelt or missing board function fails here, not on the Pico."""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_bridge import FIRMWARE_DIR

STUBS = "micropython-rp2-rpi-pico-stubs"
CHECKED = ("main.py", "hub_board.py")


def _stub_dirs(tmp: Path) -> tuple[Path, Path]:
    """The stubs as mypy reads them: a typeshed of MicroPython's stdlib, and the port's modules."""
    pytest.importorskip("mypy", reason="mypy is in the dev extra")
    try:
        port = importlib.metadata.distribution(STUBS)
        stdlib = importlib.metadata.distribution("micropython-stdlib-stubs")
    except importlib.metadata.PackageNotFoundError:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{STUBS} is not installed: pip install -e '.[dev]'")
        pytest.skip(f"{STUBS} is not installed (pip install -e '.[dev]')")
    typeshed, typings = tmp / "typeshed", tmp / "typings"
    for dist in (stdlib, port):
        for f in dist.files or ():
            if f.suffix == ".pyi" or f.name == "VERSIONS":
                target = (typeshed if f.parts[0] == "stdlib" else typings) / f
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(f.locate(), target)
    import mypy

    # mypy also needs its own stubs beside a custom typeshed (mypy_extensions)
    shutil.copytree(Path(mypy.__file__).parent / "typeshed" / "stubs", typeshed / "stubs")
    return typeshed, typings


def _mypy(source_dir: Path, tmp: Path) -> list[str]:
    """mypy's errors in the firmware's own files (the stubs' own lapses are theirs, not ours)."""
    typeshed, typings = _stub_dirs(tmp)
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--custom-typeshed-dir", str(typeshed), "--check-untyped-defs", "--follow-imports", "silent",
         "--no-incremental", "--cache-dir", os.devnull, "--python-version", "3.11",
         *[str(source_dir / name) for name in CHECKED]],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "MYPYPATH": f"{typings}{os.pathsep}{source_dir}"},
    )
    assert "error" in result.stdout or result.returncode == 0, result.stdout + result.stderr
    return [line for line in result.stdout.splitlines() if line.startswith(str(source_dir)) and ": error:" in line]


def test_main_and_board_use_the_picos_api(tmp_path: Path):
    assert _mypy(FIRMWARE_DIR, tmp_path) == []


def test_a_misspelt_board_function_fails(tmp_path: Path):
    broken = tmp_path / "firmware"
    shutil.copytree(FIRMWARE_DIR, broken)
    main = broken / "main.py"
    main.write_text(main.read_text().replace("machine.reset()", "machine.rest()").replace("time.ticks_ms()", "time.tick_ms()"))
    errors = _mypy(broken, tmp_path / "stubs")
    assert errors and all("[attr-defined]" in e for e in errors), errors
    assert any('"rest"' in e for e in errors) and any('"tick_ms"' in e for e in errors), errors
