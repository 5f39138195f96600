"""The Pi's install constraints keep the system's Picamera2 importable (Bookworm and Trixie), and the guide uses them."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
CONSTRAINTS = ROOT / "hardware" / "pi-constraints.txt"
GUIDE = ROOT / "hardware" / "README.md"


def constraints() -> dict[str, Requirement]:
    lines = [line.split("#")[0].strip() for line in CONSTRAINTS.read_text().splitlines()]
    return {r.name: r for r in (Requirement(line) for line in lines if line)}


BOOKWORM = {"python_version": "3.11", "python_full_version": "3.11.2"}  # its system numpy: 1.24.2
TRIXIE = {"python_version": "3.13", "python_full_version": "3.13.5"}  # its system numpy: 2.2.4


def applies(requirement: Requirement, system: dict[str, str]) -> bool:
    return requirement.marker is None or requirement.marker.evaluate(system)


def test_bookworm_keeps_its_numpy_1_and_an_opencv_that_accepts_it():
    found = constraints()
    assert applies(found["numpy"], BOOKWORM) and applies(found["opencv-python-headless"], BOOKWORM)
    assert not found["numpy"].specifier.contains("2.0.0") and found["numpy"].specifier.contains("1.24.2")
    opencv = found["opencv-python-headless"].specifier
    assert opencv.contains("4.11.0.86") and not opencv.contains("4.12.0.88")  # 4.12 requires numpy>=2
    assert not opencv.contains("4.6.0.66")  # cv2.aruco.ArucoDetector is 4.7's


def test_trixie_keeps_its_numpy_2():
    """Trixie's Picamera2 is built against its numpy 2.2, and numpy 1.x has no build for its Python 3.13:
    no constraint that applies there may refuse numpy 2.2.4 or hold opencv to a numpy-1 release."""
    for name, requirement in constraints().items():
        if applies(requirement, TRIXIE):
            assert name != "numpy" or requirement.specifier.contains("2.2.4"), requirement
            assert name != "opencv-python-headless" or requirement.specifier.contains("4.12.0.88"), requirement


def test_the_constraints_allow_what_the_project_requires():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = {r.name: r for r in map(Requirement, project["dependencies"])}
    for name, constraint in constraints().items():
        low = [Version(s.version) for s in wanted[name].specifier if s.operator == ">="]
        assert all(constraint.specifier.contains(str(v)) or any(Version(s.version) > v for s in constraint.specifier if s.operator == ">=")
                   for v in low), name


def test_the_guide_installs_with_the_constraints_and_checks_picamera2():
    text = GUIDE.read_text()
    installs = re.findall(r"\.venv/bin/pip install [^\n]*-e \.", text)
    assert installs and all("-c hardware/pi-constraints.txt" in line for line in installs)
    check = re.search(r'sudo -u cashnguns \.venv/bin/python -c "from picamera2 import Picamera2; ([^"]*)"', text)
    assert check and "Picamera2.global_camera_info()" in check.group(1)  # the import, and the camera found
    assert "camera_auto_detect=1" in text
