"""Host side of the USB sensor hub (a Raspberry Pi Pico), and its simulator.

``firmware_bridge.driver.HubDriver`` is the host's end of the link (the
controller adapts it in ``controller/devices/hub_backend.py``); see
docs/hub-protocol.md for the wire protocol.  This package knows nothing of the
controller.
"""

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_SOURCE_TREE = _PACKAGE.parent / "hardware" / "firmware"  # a checkout, or an editable install
_PACKAGED = _PACKAGE / "hub_firmware"  # a wheel that ships the firmware as package data

FIRMWARE_DIR = _PACKAGED if _PACKAGED.is_dir() and not _SOURCE_TREE.is_dir() else _SOURCE_TREE
"""The MicroPython firmware: installed on the Pico, run by the simulator, and the
protocol code the host shares (see :mod:`.firmware`)."""
