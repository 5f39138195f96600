"""Packaging: the package list names every package, the defaults ship as package data, a built wheel runs."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_is_listed():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    found = {
        ".".join(path.parent.relative_to(ROOT).parts)
        for top in ("controller", "firmware_bridge", "vision")
        for path in (ROOT / top).rglob("__init__.py")
    }
    assert found <= listed, f"add to [tool.setuptools] packages: {sorted(found - listed)}"
    assert config["package-dir"]["firmware_bridge.hub_firmware"] == "hardware/firmware"
    assert (ROOT / "hardware" / "firmware" / "main.py").is_file()


def test_hardware_defaults_ship_as_package_data():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert "controller.hardware_defaults" in config["packages"]
    assert config["package-dir"]["controller.hardware_defaults"] == "hardware"
    shipped = config["package-data"]["controller.hardware_defaults"]
    assert {"pinout.toml", "table.toml"} <= set(shipped)
    assert all((ROOT / "hardware" / name).is_file() for name in shipped)


@pytest.mark.slow  # builds a wheel and plays a whole game: about 25 s
def test_a_built_wheel_runs_the_demo(tmp_path):
    """Build the wheel, install it (no dependencies: they come from this environment) into a fresh
    virtual environment, and play a demo with its `cashnguns` command, away from the source tree."""
    wheels = tmp_path / "wheels"
    # without the wheel package here, pip fetches the build backend from the configured index
    isolation = ["--no-build-isolation"] if importlib.util.find_spec("wheel") and importlib.util.find_spec("setuptools") else []
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", *isolation, "-w", str(wheels), str(ROOT)],
                   check=True, capture_output=True, timeout=300)
    (wheel,) = wheels.glob("cashnguns_table-*.whl")
    fresh = tmp_path / "fresh"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(fresh)], check=True, timeout=120)
    python = fresh / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             check=True, capture_output=True, text=True).stdout.strip()
    # the dependencies: this environment's site-packages as a plain path (its .pth files, and with
    # them any editable install of this project, are not read from there)
    Path(purelib, "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", "--no-index",
                    str(wheel)], check=True, capture_output=True, timeout=300)
    installed = Path(purelib, "controller", "hardware_defaults")
    assert (installed / "pinout.toml").is_file() and (installed / "table.toml").is_file()
    home = tmp_path / "home"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "GPIOZERO_PIN_FACTORY": "mock"}
    cashnguns = str(fresh / "bin" / "cashnguns")
    where = subprocess.run([str(python), "-c", "import controller; print(controller.__file__)"], cwd=tmp_path, env=env,
                           check=True, capture_output=True, text=True).stdout
    assert where.startswith(purelib), where
    proc = subprocess.run(check=False, args=[cashnguns, "demo", "--fast", "--players", "6"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    demos = home / ".local" / "share" / "cashnguns-table" / "demos"
    (record,) = demos.glob("*.record.json")
    assert f"Game record written to {record}" in proc.stdout
    for command in (["vision", "--help"], ["hub", "--help"], ["selftest", "--help"]):
        proc = subprocess.run(check=False, args=[cashnguns, *command], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0 and "usage:" in proc.stdout, (command, proc.stderr)
