"""The camera that judges shuriken throws and reads the aims, for the session: the real one, or a
simulated one.

The simulated camera renders each throw as a camera over the table would film it
(``vision.synth``: the table, the standees and their markers, the flying star, blur,
noise, JPEG) from what the throw really did, and judges the frames with the real
judge (``vision.throws``): the verdict is the vision code's, not the truth.  Each aim count
is rendered the same way from where the weapons really point (``vision.aim_synth``) and
read by the real aim reader (``vision.aims``).  Every error vision raises on purpose
(``vision.errors.VisionError``) comes out of here as :class:`CameraError`.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from itertools import count
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import CameraError, one_line
from ..threads import join
from .session import CameraAims, CameraVerdict

if TYPE_CHECKING:
    import numpy as np

    from vision.aims import AimConfig, AimReading
    from vision.calibration import Calibration
    from vision.table_plane import TablePlane
    from vision.throws import Verdict
    from .config import CameraConfig

log = logging.getLogger(__name__)

T = TypeVar("T")


def _vision(call: Callable[[], T]) -> T:
    """Runs ``call``, turning a vision error into the controller's :class:`CameraError`."""
    from vision.errors import VisionError

    try:
        return call()
    except VisionError as exc:
        raise CameraError(f"camera: {exc}") from exc


def verdict_of(verdict: Verdict) -> CameraVerdict:
    """A ``vision.throws.Verdict`` as the session's :class:`CameraVerdict`."""
    return CameraVerdict(
        knocked=sorted(verdict.knocked),
        touched=sorted(verdict.touched),
        confidence=float(verdict.confidence),
        needs_godfather=bool(verdict.needs_godfather),
        reason=verdict.reason,
        details=verdict.details(),
        timed_out=verdict.reason.startswith("timeout"),  # armed, it saw nothing happen: no throw came
    )


def aims_of(reading: AimReading, frame: bytes, *, ask_godfather_below: float = 0.0) -> CameraAims:
    """A ``vision.aims.AimReading`` as the session's :class:`CameraAims` (``frame``: the JPEG to show);
    a seat read less sure than ``ask_godfather_below`` is unsure: the Godfather enters it."""
    doubted = {s for s, a in reading.seats.items() if a.confidence < ask_godfather_below}
    return CameraAims(
        aims=dict(reading.aims),
        late=list(reading.late),
        unsure=sorted(set(reading.unsure) | doubted),
        margins={s: float(a.margin_deg) for s, a in reading.seats.items() if a.margin_deg is not None},
        confidence=float(reading.confidence),
        details=reading.details(),
        frame=frame,
    )


class SimulatedCamera:
    """Films a throw from its true outcome with the synthetic renderer, and judges the film; films
    each aim count from where the weapons really point, and reads the aims from the film."""

    AIM_FPS = 30  # the simulated aim counts are filmed at 30 frames a second: the reader samples at 30

    def __init__(self, seed: int, *, ask_godfather_below: float = 0.6) -> None:
        self.seed = seed
        self.ask_godfather_below = float(ask_godfather_below)  # the table's camera.ask_godfather_below

    def clip_seed(self, number: int) -> int:
        """The seed of the clip filmed for the game's ``number``-th throw or aim count: a clip's seed is a
        whole number from 0, a game's seed any whole number (a negative one films as its opposite)."""
        return abs(self.seed) * 1000 + number

    def read_aims(self, *, seats: int, shooters: list[int], candidates: list[int], number: int,
                  truth: dict[int, tuple[int | None, bool]] | None = None) -> CameraAims | None:
        from vision.aim_synth import AimScene, random_spec
        from vision.aims import draw_lines, read_frames

        if truth is None:
            return None
        spec = random_spec(self.clip_seed(number), seats=seats, fps=self.AIM_FPS,
                           aims={s: truth.get(s, (None, False)) for s in shooters})
        scene = AimScene(spec)
        reading = read_frames(scene.frames(), seats=seats, fps=spec.fps, three_at=spec.three_at,
                              shooters=shooters, candidates=candidates)
        frame = b""
        if reading.deadline_frame is not None:
            frame = jpeg(draw_lines(reading.deadline_frame, reading))
        return aims_of(reading, frame, ask_godfather_below=self.ask_godfather_below)

    def reachable(self, thrower: int, seats: int) -> set[int]:
        """The seats a throw from ``thrower`` reaches in a straight line, past no other standee."""
        from vision.synth import clear_targets

        return set(clear_targets(seats, thrower))

    def judge(self, *, thrower: int, seats: int, number: int, truth: tuple[list[int], list[int]] | None = None,
              cancel: threading.Event | None = None) -> CameraVerdict | None:
        from vision.synth import Scenario, random_spec, render_clip
        from vision.throws import JudgeConfig, judge_frames

        if truth is None:
            return None
        knocked, touched = truth
        hits = tuple((s, "knocked") for s in knocked) + tuple((s, "touched") for s in touched)
        if not hits:
            scenario = Scenario.MISS
        elif len(hits) == 1:
            scenario = Scenario.KNOCK if knocked else Scenario.TOUCH
        else:
            scenario = Scenario.MULTI
        spec = random_spec(self.clip_seed(number), seats=seats, thrower=thrower, scenario=scenario, hits=hits)
        frames = list(render_clip(spec).frames())
        config = JudgeConfig(ask_godfather_below=self.ask_godfather_below)
        verdict = verdict_of(_vision(lambda: judge_frames(frames, seats=seats, thrower=thrower, fps=spec.fps,
                                                          config=config)))
        verdict.frame = jpeg(frames[-1])
        return verdict


def jpeg(frame: np.ndarray) -> bytes:
    """A frame as JPEG bytes, for the Godfather's console."""
    import cv2

    ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 80])
    return buf.tobytes() if ok else b""


COUNT_INTERVAL_S = 0.8  # the count's "1", "2", "3" by default (table-conventions.md; ``[timing] count_interval``)
AIMS_WAIT_S = 5.0  # the longest wait for the frames after the deadline
RING_SLACK_S = 0.5  # the ring holds the reading's window and this much more


def aim_config(count_interval: float) -> AimConfig:
    """The aim reader's settings for a count with ``count_interval`` seconds between "1", "2" and "3":
    the reading starts a little before the "1"."""
    from vision.aims import AimConfig

    return AimConfig(lead_s=2 * count_interval + 0.3)


class FrameRing:
    """The last frames of a camera with their timestamps (seconds), at most ``capacity`` of them, and
    (with ``seconds``) none older than that before the newest."""

    def __init__(self, capacity: int, seconds: float | None = None) -> None:
        self._frames: deque[tuple[float, Any]] = deque(maxlen=max(1, int(capacity)))
        self.seconds = seconds
        self._lock = threading.Lock()

    def add(self, stamp: float, frame: np.ndarray) -> None:
        with self._lock:
            self._frames.append((float(stamp), frame))
            if self.seconds is not None:
                while self._frames[0][0] < stamp - self.seconds:
                    self._frames.popleft()

    def since(self, start: float) -> list[tuple[float, Any]]:
        """The frames taken at ``start`` or later, oldest first."""
        with self._lock:
            return [(t, f) for t, f in self._frames if t >= start]

    def clear(self) -> None:
        with self._lock:
            self._frames.clear()

    @property
    def capacity(self) -> int:
        return self._frames.maxlen or 0

    @property
    def last(self) -> float:
        with self._lock:
            return self._frames[-1][0] if self._frames else float("-inf")

    def __len__(self) -> int:
        with self._lock:
            return len(self._frames)


class LiveCamera:
    """A camera over the table (a UVC webcam or a Pi camera): each throw judged by ``vision.throws``,
    each aim count read by ``vision.aims``.

    Before each throw the exposure and white balance are set again, a few frames of the table
    at rest arm the judge, and frames are fed until it gives its verdict (no throw before its
    timeout is a miss).

    For the aims, ``watch`` (called as the count begins) keeps every frame with its timestamp in a
    ring as long as the reading's window, read by a background thread; ``read_aims`` is given the
    count's "3" (on ``clock``: the devices' clock, which gave the count), waits for the frames up to
    well after the deadline, reads the aims, and empties the ring. A frame is stamped with ``clock``
    as it arrives; a source that stamps its frames itself (its ``timestamp`` after each ``read``,
    in seconds on ``clock``) is believed instead.

    A camera that fails (an error, or no frame) is closed; with ``reopen`` (how it was opened) it
    is opened again at the next count or throw, so one failure costs that step only.
    """

    def __init__(self, source: Any, calibration: Calibration | None, *, fps: float, max_frames: int = 3000,
                 clock: Callable[[], float] = time.monotonic, count_interval: float = COUNT_INTERVAL_S,
                 ask_godfather_below: float = 0.6, reopen: Callable[[], Any] | None = None,
                 ring_seconds: float | None = None) -> None:
        self.source = source
        self.calibration = calibration
        self.fps = fps
        self.max_frames = max_frames
        self.clock = clock
        self.aim_config = aim_config(count_interval)
        self.ask_godfather_below = float(ask_godfather_below)
        self.reopen = reopen
        from vision.aims import DEADLINE_AFTER_THREE_S

        window = (self.aim_config.lead_s + DEADLINE_AFTER_THREE_S + self.aim_config.follow_s
                  + self.aim_config.follow_more_s + RING_SLACK_S)
        if ring_seconds is not None:
            window = ring_seconds
        # the window's frames, however many the camera gives: twice the frame rate it says it has, at most
        self.ring = FrameRing(int(2 * window * max(fps, 1.0)) + 1, seconds=window)
        self.broken: str | None = None  # why the source failed: it is opened again before it is used
        self._watcher: threading.Thread | None = None
        self._stop = threading.Event()
        self._failed: str | None = None
        self._plane: Any = None

    @classmethod
    def open(cls, spec: str, calibration_path: Path | None, *, clock: Callable[[], float] = time.monotonic,
             count_interval: float = COUNT_INTERVAL_S, ask_godfather_below: float = 0.6,
             exposure_ms: float | None = None, gain: float | None = None,
             capture_factory: Callable[..., Any] | None = None,
             picamera_factory: Callable[[], Any] | None = None) -> LiveCamera:
        """``webcam:N`` or ``picamera``, with the calibration file made by ``python -m vision calibrate``,
        at the exposure (milliseconds) and gain of the table's ``[camera]`` section (None: the camera's
        defaults). The factories stand for OpenCV's ``VideoCapture`` and Picamera2's camera."""
        from vision.calibration import Calibration
        from vision.sources import opencv_warnings

        opencv_warnings(shown=log.isEnabledFor(logging.DEBUG))

        if calibration_path is None:
            raise ValueError("camera.calibration: the camera needs its calibration file (python -m vision calibrate)")
        calibration = _vision(lambda: Calibration.load(calibration_path))
        opener = source_opener(spec, exposure_ms=exposure_ms, gain=gain, capture_factory=capture_factory,
                               picamera_factory=picamera_factory)
        source = _vision(opener)
        return cls(source, calibration, fps=getattr(source, "fps", 60.0) or 60.0, clock=clock,
                   count_interval=count_interval, ask_godfather_below=ask_godfather_below, reopen=opener)

    # -- a camera that failed
    def _broke(self, why: str) -> None:
        """The source failed: it is closed, and opened again before it is used next."""
        if self.broken is None:
            log.warning("the camera failed: %s", why)
        self.broken = why
        try:
            self.source.close()
        except Exception as exc:  # a camera pulled out may fail to close too
            log.debug("closing the failed camera: %s", exc)

    def ready(self) -> None:
        """A camera that failed is opened again (a count or a throw is about to be watched); else
        :class:`CameraError` says why it cannot be used."""
        if self.broken is None:
            return
        if self.reopen is None:
            raise CameraError(f"camera: {self.broken}")
        try:
            source = self.reopen()
        except Exception as exc:
            raise CameraError(f"camera: {self.broken}; opening it again failed ({one_line(exc)})") from exc
        log.info("the camera was opened again after it failed (%s)", self.broken)
        self.source, self.broken = source, None

    def _source_read(self) -> np.ndarray | None:
        """One frame from the source; a source that fails or gives none is marked broken."""
        if self.broken is not None:
            raise RuntimeError(self.broken)
        try:
            frame = self.source.read()
        except Exception as exc:
            self._broke(one_line(exc))
            raise
        if frame is None:
            self._broke("the camera gave no frame")
            return None
        frame_read: np.ndarray = frame
        return frame_read

    # -- aims
    def capture(self) -> bool:
        """Reads one frame into the ring; ``False`` when the source has no more."""
        frame = self._source_read()
        if frame is None:
            return False
        stamp = getattr(self.source, "timestamp", None)
        self.ring.add(self.clock() if stamp is None else float(stamp), frame)
        return True

    def watch(self) -> None:
        """Starts keeping the camera's frames (the count begins); ``read_aims`` stops it."""
        if self._watcher is not None and self._watcher.is_alive():
            return
        self._stop.clear()
        self._failed = None
        self.ring.clear()
        self._watcher = threading.Thread(target=self._watch, name="camera-ring", daemon=True)
        self._watcher.start()

    def _watch(self) -> None:
        try:
            self.ready()  # a camera that failed is opened again (in this thread: the count is not held up)
            while not self._stop.is_set():
                if not self.capture():
                    self._failed = "the camera gave no frame"
                    return
        except Exception as exc:  # a camera that fails mid-count: read_aims says so
            self._failed = one_line(exc).removeprefix("camera: ")
            log.warning("the camera stopped giving frames: %s", self._failed)

    def unwatch(self) -> None:
        self._stop.set()
        join(self._watcher, timeout=2.0)
        self._watcher = None

    def read_aims(self, *, seats: int, shooters: list[int], candidates: list[int], number: int,
                  truth: dict[int, tuple[int | None, bool]] | None = None,
                  three_at: float | None = None) -> CameraAims | None:
        """The aims of the count whose "3" was at ``three_at`` (seconds on ``clock``: the devices'
        clock that gave the count). Without a count there is nothing to read: :class:`CameraError`."""
        try:
            if three_at is None:
                raise CameraError(f"camera: round {number}'s aims: no count was given to read them from")
            return _vision(lambda: self._read_aims(number, seats, shooters, candidates, float(three_at)))
        finally:
            self.unwatch()
            self.ring.clear()  # the next count keeps its own frames: none is held between counts

    def _read_aims(self, number: int, seats: int, shooters: list[int], candidates: list[int], three_at: float) -> CameraAims:
        from vision.aims import DEADLINE_AFTER_THREE_S, AimReader, draw_lines
        from vision.errors import AimError

        config = self.aim_config
        waited_until = time.monotonic() + AIMS_WAIT_S
        self._frames_until(three_at + DEADLINE_AFTER_THREE_S + config.follow_s, waited_until)
        if self.ring.last < three_at + DEADLINE_AFTER_THREE_S:
            why = self._failed or self.broken or "no frame after the deadline"
            raise AimError(f"round {number}'s aims: {why} (the ring holds {len(self.ring)} frames)")
        frames = self.ring.since(three_at - config.lead_s - RING_SLACK_S)
        plane = self._plane
        if plane is None:
            plane = self._table_plane(frames, three_at - config.lead_s, seats)
        reader = AimReader(plane, seats=seats, fps=self.fps, three_at=three_at, shooters=shooters,
                           candidates=candidates, config=config)
        fed = -math.inf
        while True:
            for stamp, frame in frames:
                if stamp > fed:
                    reader.feed(frame, at=stamp)
                    fed = stamp
            # the watch goes on while a late pointer comes to rest (``AimConfig.follow_more_s``)
            if reader.done or not self._frames_until(three_at + reader.end, waited_until):
                break
            frames = self.ring.since(fed)
        reading = reader.finish()
        if reading.deadline_frame is None or not reading.frames_analysed:
            raise AimError(f"round {number}'s aims: no frame of the count was read")
        shown = jpeg(draw_lines(reading.deadline_frame, reading))
        return aims_of(reading, shown, ask_godfather_below=self.ask_godfather_below)

    def _frames_until(self, end: float, waited_until: float) -> bool:
        """Waits for the frames up to ``end`` (camera seconds): from the watcher, or read here, until
        ``waited_until`` (monotonic). Whether they came."""
        while self.ring.last < end:
            if self._watcher is not None and self._watcher.is_alive():
                if time.monotonic() > waited_until:
                    return False
                time.sleep(0.01)
            elif self._failed is not None or self.broken is not None or not self.capture():
                return False
        return True

    def _table_plane(self, frames: list[tuple[float, np.ndarray]], before: float, seats: int) -> TablePlane:
        """The table plane from the calibration, or else from the frames before the count's "1", where
        ``seats`` standees stand."""
        from vision.aims import table_of
        from vision.table_plane import TablePlane

        if self.calibration is not None:
            known = TablePlane.from_calibration(self.calibration)
            self._plane = known
            return known
        still = [f for t, f in frames if t < before] or [f for _t, f in frames[:9]]
        return table_of(still, seats)

    def judge(self, *, thrower: int, seats: int, number: int, truth: tuple[list[int], list[int]] | None = None,
              cancel: threading.Event | None = None) -> CameraVerdict | None:
        """The verdict on the throw that comes next: ``None`` when ``cancel`` is set first (checked
        at every frame). A camera that failed is opened again first."""
        self.unwatch()
        self.ring.clear()
        self.ready()
        return _vision(lambda: self._judge(thrower=thrower, seats=seats, cancel=cancel))

    def _judge(self, *, thrower: int, seats: int, cancel: threading.Event | None = None) -> CameraVerdict | None:
        from vision.throws import JudgeConfig, ThrowJudge, calibrate_from_frames

        if hasattr(self.source, "lock_exposure"):
            self.source.lock_exposure()
        config = JudgeConfig(ask_godfather_below=self.ask_godfather_below)
        reference = [self._read() for _ in range(config.reference_frames)]
        frames: Iterator[np.ndarray] = (self._read() for _ in count())
        calibration = self.calibration
        if calibration is None:  # without a calibration file the table at rest calibrates itself
            calibration, frames = calibrate_from_frames(reference, frames, seats, config,
                                                        camera=getattr(self.source, "settings", None))
        judge = ThrowJudge(calibration, seats=seats, thrower=thrower, fps=self.fps, config=config)
        judge.arm(reference, calibrated_here=self.calibration is None)
        frame = reference[-1]
        for _ in range(self.max_frames):
            if cancel is not None and cancel.is_set():
                return None
            frame = next(frames)
            verdict = judge.feed(frame)
            if verdict is not None:
                break
        else:
            verdict = judge.finish()
        seen = verdict_of(verdict)
        seen.frame = jpeg(frame)
        return seen

    def _read(self) -> np.ndarray:
        frame = self._source_read()
        if frame is None:
            raise RuntimeError("the camera gave no frame")
        return frame

    def close(self) -> None:
        self.unwatch()
        self.ring.clear()
        if self.broken is None:
            self.source.close()


def source_opener(spec: str, *, exposure_ms: float | None = None, gain: float | None = None,
                  capture_factory: Callable[..., Any] | None = None,
                  picamera_factory: Callable[[], Any] | None = None) -> Callable[[], Any]:
    """How to open the camera ``camera.source`` names (``webcam:N``, a device path after ``webcam:``,
    or ``picamera``) at the exposure (milliseconds) and gain given (None: the camera's defaults):
    called to open it, and again after it failed."""
    from vision.sources import CameraSettings, PiCamera, UvcCamera

    settings = CameraSettings().adjusted(exposure_ms=exposure_ms, gain=gain)
    if spec == "picamera":
        return lambda: PiCamera(settings, camera_factory=picamera_factory)
    if spec.startswith("webcam:"):
        device = spec.split(":", 1)[1]
        return lambda: UvcCamera(int(device) if device.isdigit() else device, settings, capture_factory=capture_factory)
    raise ValueError(f"camera.source: {spec!r} is not a camera (picamera or webcam:N)")


def open_live_camera(config: CameraConfig, *, clock: Callable[[], float], count_interval: float, yakuzas: bool,
                     capture_factory: Callable[..., Any] | None = None,
                     picamera_factory: Callable[[], Any] | None = None) -> tuple[LiveCamera | None, str | None]:
    """The table's camera (``config``: its ``[camera]`` section: source, calibration, exposure and
    gain), on the devices' clock; or ``None`` and the line that says why it is not used (the session
    says it, so the console shows it). The factories stand for OpenCV's and Picamera2's cameras."""
    if config.source == "none":
        return None, None
    try:
        camera = LiveCamera.open(config.source, config.calibration, clock=clock, count_interval=count_interval,
                                 ask_godfather_below=config.ask_godfather_below, exposure_ms=config.exposure_ms,
                                 gain=config.gain, capture_factory=capture_factory, picamera_factory=picamera_factory)
    except Exception as exc:  # no camera: the Godfather enters every aim and judges every throw
        throws = " and judges the throws" if yakuzas else ""
        return None, f"The camera is not available ({one_line(exc)}): the Godfather enters the aims{throws}."
    return camera, settings_note(camera, config.calibration)


def settings_note(camera: LiveCamera, path: Path | None) -> str | None:
    """The line that says the camera plays at another exposure or gain than its calibration file was
    made at (the file says what it was made at), or None."""
    made = getattr(camera.calibration, "camera", None)
    settings = getattr(camera.source, "settings", None)
    if not made or settings is None:
        return None
    now = {"exposure_ms": float(settings.exposure_ms), "gain": float(settings.gain)}
    if all(abs(made[k] - now[k]) <= 1e-6 * max(1.0, abs(now[k])) for k in now):
        return None
    return (f"The camera plays at exposure {now['exposure_ms']:g} ms, gain {now['gain']:g} ([camera] exposure_ms, gain),"
            f" but {path} was calibrated at exposure {made['exposure_ms']:g} ms, gain {made['gain']:g}: calibrate again"
            f" with --exposure-ms {now['exposure_ms']:g} --gain {now['gain']:g}.")
