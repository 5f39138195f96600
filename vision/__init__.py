"""Camera, calibration and Shuriken judgement.

The controller uses ``calibrate`` once at set-up, then one ``ThrowJudge`` per throw (or
``judge_clip`` for a recorded clip); see docs/vision.md.
"""

from vision.calibration import Calibration, CalibrationError, calibrate
from vision.judge import JudgeConfig, Outcome, SeatEvidence, ThrowJudge, Verdict, judge_clip, judge_frames
from vision.sources import CameraSettings, ClipError, FrameSource, PiCamera, UvcCamera, open_clip

__all__ = ["Calibration", "CalibrationError", "calibrate", "JudgeConfig", "Outcome", "SeatEvidence", "ThrowJudge",
           "Verdict", "judge_clip", "judge_frames", "CameraSettings", "ClipError", "FrameSource", "PiCamera",
           "UvcCamera", "open_clip"]
