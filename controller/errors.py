"""The project's exceptions: one root, as gpiozero has ``GPIOZeroError``.

Every error the controller raises on purpose derives from :class:`CashNGunsError`, so a command can
turn any of them into its one line and exit code 2, while a bug (a ``KeyError``, a ``TypeError``)
stays a bug and is never shown to the Godfather as a refused move.

The lower packages know nothing of the controller: ``vision`` raises ``vision.errors.VisionError``
and ``firmware_bridge`` raises ``firmware_bridge.errors.BridgeError``; the controller's adapters
turn them into :class:`CameraError` and :class:`HubError`.
"""

from __future__ import annotations

import signal
import threading

CTRL_C = threading.Event()
"""Set by :func:`watch_ctrl_c`'s handler when a Ctrl-C came."""


def _on_ctrl_c(signum: int, frame: object) -> None:
    CTRL_C.set()
    raise KeyboardInterrupt


def watch_ctrl_c() -> None:
    """Python's own Ctrl-C (a KeyboardInterrupt), remembered (:data:`CTRL_C`): a library loading at that moment
    may turn it into another error (NumPy's C modules, an ImportError).  For the commands; nothing changes
    when a program has its own handler, or when called from a thread other than the main one."""
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, _on_ctrl_c)



def one_line(exc: BaseException) -> str:
    """An error as one short line (OpenCV's and V4L2's messages have several)."""
    return " ".join(str(exc).split())[:200] or type(exc).__name__


def ctrl_c_in(exc: BaseException) -> bool:
    """Whether ``exc`` comes from a Ctrl-C, and must stop the command as a Ctrl-C does rather than be shown
    as an error: one came while it was raised (:func:`watch_ctrl_c`), or Python 3.11 wrapped one raised while a
    class was made (in ``__set_name__``: a dataclass of a module being loaded) in a RuntimeError."""
    if CTRL_C.is_set():
        return True
    seen: BaseException | None = exc
    for _ in range(8):
        if seen is None:
            return False
        if isinstance(seen, KeyboardInterrupt):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


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
