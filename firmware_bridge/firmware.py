"""The hub firmware's protocol modules, imported from FIRMWARE_DIR for the host.

The frame codec (``hub_proto``) and the link (``hub_link``) exist once, in the
MicroPython firmware; :mod:`.frames`, :mod:`.messages` and :mod:`.link` are
typed layers over them.  The firmware's modules import one another by bare
name (``import hub_proto``), as on the Pico, so they are imported here under
those names, with FIRMWARE_DIR on ``sys.path`` only while importing.  Each is
imported once: the host and the simulated hub (:mod:`.sim`) share the same
module objects.
"""

from __future__ import annotations

import importlib
import sys
import threading
from pathlib import Path
from types import ModuleType

from . import FIRMWARE_DIR
from .errors import FirmwareNotFound

__all__ = ["FirmwareNotFound", "hub_link", "hub_proto", "load"]


_lock = threading.Lock()  # sys.path is shared by every thread


def load(name: str) -> ModuleType:
    """The firmware module ``name`` (e.g. ``"hub_board"``), imported from FIRMWARE_DIR once."""
    with _lock:
        module = sys.modules.get(name)
        if module is None:
            if not (FIRMWARE_DIR / f"{name}.py").is_file():
                raise FirmwareNotFound(
                    f"firmware module {name}.py not found in {FIRMWARE_DIR}: firmware_bridge runs the hub firmware's "
                    "protocol code, so it needs hardware/firmware/ next to it (a checkout, or pip install -e .) "
                    "or firmware_bridge/hub_firmware/ in a package built to carry it"
                )
            sys.path.insert(0, str(FIRMWARE_DIR))
            try:
                module = importlib.import_module(name)
            finally:
                sys.path.remove(str(FIRMWARE_DIR))
    origin = Path(module.__file__ or "").resolve().parent
    if origin != FIRMWARE_DIR:
        raise ImportError(f"module {name} was imported from {origin}, not from the hub firmware in {FIRMWARE_DIR}")
    return module


hub_proto = load("hub_proto")
hub_link = load("hub_link")
