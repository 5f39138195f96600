"""Camera, calibration and Shuriken judgement.

The controller uses ``calibrate`` once at set-up, then one ``ThrowJudge`` per throw (or
``judge_clip`` for a recorded clip); see docs/vision.md. Every error raised on purpose is a
``VisionError`` (``vision.errors``).
"""

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vision.calibration import Calibration, calibrate
    from vision.errors import CalibrationError, ClipError, VisionError
    from vision.sources import CameraSettings, FrameSource, PiCamera, UvcCamera, open_clip
    from vision.throws import (
        JudgeConfig,
        Outcome,
        SeatEvidence,
        ThrowJudge,
        Verdict,
        judge_clip,
        judge_frames,
    )

# Each name is loaded from its module when first used, so that ``import vision`` (and the start of
# ``python -m vision``, where a Ctrl-C must say one line) does not wait for OpenCV.
_MODULE_OF = {
    "Calibration": "vision.calibration",
    "calibrate": "vision.calibration",
    "CalibrationError": "vision.errors",
    "ClipError": "vision.errors",
    "VisionError": "vision.errors",
    "CameraSettings": "vision.sources",
    "FrameSource": "vision.sources",
    "PiCamera": "vision.sources",
    "UvcCamera": "vision.sources",
    "open_clip": "vision.sources",
    "JudgeConfig": "vision.throws",
    "Outcome": "vision.throws",
    "SeatEvidence": "vision.throws",
    "ThrowJudge": "vision.throws",
    "Verdict": "vision.throws",
    "judge_clip": "vision.throws",
    "judge_frames": "vision.throws",
}


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'vision' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "Calibration",
    "CalibrationError",
    "CameraSettings",
    "ClipError",
    "FrameSource",
    "JudgeConfig",
    "Outcome",
    "PiCamera",
    "SeatEvidence",
    "ThrowJudge",
    "UvcCamera",
    "Verdict",
    "VisionError",
    "calibrate",
    "judge_clip",
    "judge_frames",
    "open_clip",
]
