"""The vision package's exceptions: one root, ``VisionError``, and its branches.

``str()`` of each is one line a person can act on (the file, frame or marker and the fault). The
controller turns any of them into its own ``CameraError``; vision knows nothing of the controller.
"""

from __future__ import annotations


class VisionError(Exception):
    """The root of every error the vision package raises on purpose."""


class ClipError(VisionError):
    """A clip, a frame or a frame source that cannot be read; the message names the file, frame and fault."""


class AimError(ClipError):
    """An aim clip or a table view the reader cannot use; the message says what and where."""


class TableUnseenError(AimError):
    """A table corner marker not seen in the frames looked at (an arm or a weapon over it, say)."""


class CalibrationError(VisionError):
    """The scene cannot be calibrated; ``problems`` holds one actionable line per fault."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


__all__ = ["AimError", "CalibrationError", "ClipError", "TableUnseenError", "VisionError"]
