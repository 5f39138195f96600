"""The package list in pyproject.toml names every package of the source tree."""

from __future__ import annotations

import tomllib
from pathlib import Path

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
