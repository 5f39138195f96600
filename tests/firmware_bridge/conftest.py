"""Shared fixtures: the firmware's modules, as the host and the simulator load them."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from firmware_bridge import firmware


@pytest.fixture(scope="session")
def fw() -> SimpleNamespace:
    return SimpleNamespace(proto=firmware.hub_proto, link=firmware.hub_link, tilt=firmware.load("hub_tilt"))
