"""The bridge's exceptions: one root, :class:`BridgeError`.

The bridge knows nothing of the controller; the controller's hub adapter
(``controller/devices/hub_backend.py``) turns these into its own ``HubError``.
"""

from __future__ import annotations


class BridgeError(Exception):
    """The root of every error the hub bridge raises on purpose; ``str()`` is one line naming the port or file."""


class HubError(BridgeError, RuntimeError):
    """The hub does not fit this host (protocol version, seat count) or cannot be used."""


class MalformedMessage(BridgeError, ValueError):
    """A payload that passed the CRC but does not parse (a firmware mismatch)."""


class FirmwareNotFound(BridgeError, ImportError):
    """The firmware sources are not where this package looks for them."""
