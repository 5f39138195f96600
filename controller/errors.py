"""The project's exceptions: one root, as gpiozero has ``GPIOZeroError``.

Every error the controller raises on purpose derives from :class:`CashNGunsError`, so a command can
turn any of them into its one line and exit code 2, while a bug (a ``KeyError``, a ``TypeError``)
stays a bug and is never shown to the Godfather as a refused move.

The lower packages know nothing of the controller: ``vision`` raises ``vision.errors.VisionError``
and ``firmware_bridge`` raises ``firmware_bridge.errors.BridgeError``; the controller's adapters
turn them into :class:`CameraError` and :class:`HubError`.
"""

from __future__ import annotations


def one_line(exc: BaseException) -> str:
    """An error as one short line (OpenCV's and V4L2's messages have several)."""
    return " ".join(str(exc).split())[:200] or type(exc).__name__


class CashNGunsError(Exception):
    """The root of every error the project raises on purpose; ``str()`` is one line a person can act on."""


class RulesError(CashNGunsError):
    """A move the rules do not allow (the engine's refusals derive from it)."""


class RecordError(CashNGunsError):
    """A game record that cannot be read or replayed."""


class GameLogError(CashNGunsError):
    """A game log that cannot be read or resumed."""


class ConfigError(CashNGunsError):
    """A configuration file that is missing, broken or inconsistent."""


class InputFileError(CashNGunsError):
    """A file input refused before it is parsed: too large, too deep, not text, unreadable."""


class TableInputError(CashNGunsError):
    """An input at the table (from the console, a sensor or a bot) that the table refuses."""


class DeviceError(CashNGunsError):
    """A device (pins, speaker, lights) that cannot be used."""


class HubError(DeviceError):
    """The USB sensor hub cannot be reached or misbehaves."""


class CameraError(CashNGunsError):
    """The camera, its calibration or a clip cannot be used."""
