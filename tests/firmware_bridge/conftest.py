"""Shared fixtures: the firmware's modules, as the host and the simulator load them."""

from __future__ import annotations

import os
from types import SimpleNamespace

import pytest

from firmware_bridge import firmware


@pytest.fixture(scope="session")
def fw() -> SimpleNamespace:
    return SimpleNamespace(proto=firmware.hub_proto, link=firmware.hub_link, tilt=firmware.load("hub_tilt"))


@pytest.fixture(scope="session")
def micropython() -> str:
    """Node with MicroPython's WebAssembly build installed (``npm ci`` when missing).

    Skipped, with the reason, where Node or npm cannot be had; under ``CI=true`` that is a failure.
    """
    from mpy_hub import require_runner

    return require_runner(dict(os.environ))
