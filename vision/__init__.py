"""Camera, calibration and Shuriken judgement.

The controller uses ``calibrate`` once at set-up, then one ``ThrowJudge`` per throw (or
``judge_clip`` for a recorded clip); see docs/vision.md. Every error raised on purpose is a
``VisionError`` (``vision.errors``).
"""

import os

# FFmpeg's own messages about a damaged video would go to stderr beside the one line that names it
os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")

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
