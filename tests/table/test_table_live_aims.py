"""The live camera reads the aims from its ring of recent frames: a replayed synthetic aim clip stands
in for the camera, each frame stamped as it arrives on the devices' clock (or by the source itself)."""

from __future__ import annotations

import numpy as np
import pytest

from controller.errors import CameraError
from controller.table.camera import FrameRing, LiveCamera, aims_of
from vision import aim_synth
from vision.aims import read_frames


class Replay:
    """A frame source replaying frames, each stamped ``start + i / fps`` (its ``timestamp``), with
    frames ``dropped`` never delivered (a USB hiccup); ``None`` at the end."""

    def __init__(self, frames, fps: float, start: float = 1000.0, dropped: frozenset[int] = frozenset()) -> None:
        self.frames, self.fps, self.start, self.dropped = list(frames), float(fps), start, set(dropped)
        self.i = 0
        self.timestamp: float | None = None
        self.closed = False

    def read(self):
        while self.i in self.dropped:
            self.i += 1
        if self.i >= len(self.frames):
            return None
        frame = self.frames[self.i]
        self.timestamp = self.start + self.i / self.fps
        self.i += 1
        return frame

    def close(self) -> None:
        self.closed = True


@pytest.fixture(scope="module")
def clip():
    spec = aim_synth.random_spec(4_200_017, fps=30, seats=6, light="normal", shake_px=0.0)
    return spec, list(aim_synth.AimScene(spec).frames())


def test_the_ring_keeps_only_the_last_frames():
    ring = FrameRing(5)
    for i in range(12):
        ring.add(i * 0.1, np.full((2, 2), i, np.uint8))
    assert len(ring) == 5 and ring.last == pytest.approx(1.1)
    assert [int(f[0, 0]) for _t, f in ring.since(0.85)] == [9, 10, 11]
    timed = FrameRing(100, seconds=0.25)  # a camera faster than it says: the window's frames, no more
    for i in range(12):
        timed.add(i * 0.1, np.full((2, 2), i, np.uint8))
    assert [int(f[0, 0]) for _t, f in timed.since(0.0)] == [9, 10, 11]


class FakeClock:
    def __init__(self, start: float) -> None:
        self.t = start

    def now(self) -> float:
        return self.t


class Webcam:
    """A webcam as the production path sees it: frames and no ``timestamp`` of their own, each arriving
    1/fps after the last on ``clock`` (a fake clock the frames move on); pulled out after ``fail_after``
    frames; with ``loop``, the clip again and again, as a camera films on."""

    def __init__(self, frames, fps: float, clock: FakeClock, fail_after: int | None = None, loop: bool = False) -> None:
        self.frames, self.fps, self.clock, self.fail_after, self.loop = frames, fps, clock, fail_after, loop
        self.i = 0
        self.closed = False

    def read(self):
        if self.fail_after is not None and self.i >= self.fail_after:
            raise OSError("/dev/video0: No such device")
        if self.i >= len(self.frames) and not self.loop:
            return None
        self.clock.t += 1 / self.fps
        frame = self.frames[self.i % len(self.frames)]
        self.i += 1
        return frame

    def close(self) -> None:
        self.closed = True


def test_the_live_camera_reads_the_aims_of_a_count_stamped_as_its_frames_arrive_like_the_clip_reader(clip):
    spec, frames = clip
    shooters = list(range(spec.seats))
    expected = read_frames(frames, seats=spec.seats, fps=spec.fps, three_at=spec.three_at)
    clock = FakeClock(500.0)
    source = Webcam(frames, spec.fps, clock)
    assert not hasattr(source, "timestamp")  # as UvcCamera and PiCamera: stamped by the camera's clock
    camera = LiveCamera(source, None, fps=spec.fps, clock=clock.now)
    # frame i arrives at 500 + (i + 1) / fps: the clip's "3" is one frame period later on that clock
    seen = camera.read_aims(seats=spec.seats, shooters=shooters, candidates=shooters, number=1,
                            three_at=500.0 + spec.three_at + 1 / spec.fps)
    assert seen is not None
    assert seen.aims == expected.aims and seen.late == expected.late and seen.unsure == expected.unsure
    assert seen.frame[:2] == b"\xff\xd8"  # the deadline frame, lines drawn, for the console
    truth = aim_synth.AimScene(spec).truth()
    sure = [s for s in shooters if s not in seen.unsure]
    assert sure, "the easy clip must be read"
    assert all(seen.aims[s] == truth["aims"][str(s)] for s in sure)
    assert len(camera.ring) == 0  # emptied once read: no frame is held between counts
    # camera.ask_godfather_below: a seat read less sure than it goes to the Godfather
    assert aims_of(expected, b"", ask_godfather_below=0.6).unsure == expected.unsure
    assert aims_of(expected, b"", ask_godfather_below=1.0).unsure == shooters


class Filming:
    """A webcam filming a synthetic count as it is played: each frame rendered as it is read, arriving 1/fps after
    the last on ``clock``; ``None`` once the clip is over."""

    def __init__(self, spec, clock: FakeClock) -> None:
        self.frames, self.fps, self.clock = aim_synth.AimScene(spec).frames(), float(spec.fps), clock

    def read(self):
        frame = next(self.frames, None)
        if frame is not None:
            self.clock.t += 1 / self.fps
        return frame

    def close(self) -> None:
        pass


def test_the_live_camera_watches_on_while_a_late_pointer_comes_to_rest():
    """Two late pointers come to rest 1.3 s after the deadline, as the watch would end (1.5 s after it): the
    camera goes on reading frames until their rests are long enough to be sure of, then stops, well before the
    count's frames are over."""
    spec = aim_synth.random_spec(8_506_031, fps=30, late_arrival=aim_synth.VERY_LATE, after_deadline_s=2.4)
    late = {p.seat: p.target for p in spec.weapons if p.behaviour == "late"}
    assert len(late) == 2
    shooters = list(range(spec.seats))
    clock = FakeClock(500.0)
    camera = LiveCamera(Filming(spec, clock), None, fps=spec.fps, clock=clock.now)
    three_at = 500.0 + spec.three_at + 1 / spec.fps
    seen = camera.read_aims(seats=spec.seats, shooters=shooters, candidates=shooters, number=1, three_at=three_at)
    assert seen is not None
    assert {s: seen.aims[s] for s in late} == late and set(late) <= set(seen.late) and not set(late) & set(seen.unsure)
    watch_end = three_at + 0.5 + camera.aim_config.follow_s
    assert watch_end + 0.1 < clock.t <= watch_end + camera.aim_config.follow_more_s + 0.1 < three_at + 0.5 + 2.4


def test_a_camera_that_failed_is_opened_again_at_the_next_count(clip):
    spec, frames = clip
    shooters = list(range(spec.seats))
    clock = FakeClock(0.0)
    opened: list[Webcam] = []

    def reopen() -> Webcam:
        opened.append(Webcam(frames, spec.fps, clock, loop=True))
        return opened[-1]

    first = Webcam(frames, spec.fps, clock, fail_after=5)  # pulled out of its USB port mid-count
    camera = LiveCamera(first, None, fps=spec.fps, clock=clock.now, reopen=reopen)
    camera.watch()
    with pytest.raises(CameraError, match="^camera: round 1's aims: /dev/video0: No such device"):
        camera.read_aims(seats=spec.seats, shooters=shooters, candidates=shooters, number=1, three_at=spec.three_at)
    assert camera.broken and first.closed and not opened and len(camera.ring) == 0
    camera.watch()  # the next count: opened again (in the watcher's thread, the count is not held up)
    camera.unwatch()
    assert len(opened) == 1 and camera.broken is None and camera.source is opened[0]
    assert len(camera.ring) > 0 and opened[0].i > 0  # its frames are kept for the reading


def test_the_watcher_thread_fills_the_ring_and_stamps_come_from_the_source(clip):
    spec, frames = clip
    shooters = list(range(spec.seats))
    source = Replay(frames, spec.fps, dropped={int((spec.three_at - 0.4) * spec.fps)})
    camera = LiveCamera(source, None, fps=spec.fps, clock=lambda: -1.0, ring_seconds=60)
    camera.watch()
    seen = camera.read_aims(seats=spec.seats, shooters=shooters, candidates=shooters, number=1,
                            three_at=source.start + spec.three_at)
    assert seen is not None and set(seen.aims) == set(shooters)
    assert camera._watcher is None  # the watch ends with the reading
    truth = aim_synth.AimScene(spec).truth()
    assert all(seen.aims[s] == truth["aims"][str(s)] for s in shooters if s not in seen.unsure)


def test_a_camera_without_frames_after_the_deadline_says_so(clip):
    spec, frames = clip
    cut = int((spec.three_at + 0.2) * spec.fps)
    source = Replay(frames[:cut], spec.fps)
    camera = LiveCamera(source, None, fps=spec.fps)
    with pytest.raises(CameraError, match="round 2's aims: the camera gave no frame"):
        camera.read_aims(seats=spec.seats, shooters=[0, 1], candidates=[0, 1], number=2,
                         three_at=source.start + spec.three_at)


def test_the_live_camera_finds_the_table_of_the_seats_it_is_told(clip):
    """Without a calibration, the table is found in the frames before the count's "1", knowing the seat count: a
    crown marker of a seat beyond it read in single frames only (a weapon's card passing by misread as it) is no
    standee, as in a clip read from a file."""
    from vision import markers

    spec, frames = clip
    h, w = frames[0].shape[:2]
    card = np.full((36, 36), 255, np.uint8)
    card[4:-4, 4:-4] = markers.marker_image(markers.crown_id(8), 28)
    stamped = []
    for i, frame in enumerate(frames[:9]):
        if i < 3:  # the card passes over the table in the first three frames
            frame = frame.copy()
            x, y = w // 2 - 60 + 40 * i, h // 2
            frame[y:y + 36, x:x + 36] = card[..., None]
        stamped.append((i / spec.fps, frame))
    camera = LiveCamera(Replay(frames, spec.fps), None, fps=spec.fps)
    plane = camera._table_plane(stamped, before=1.0, seats=spec.seats)
    assert set(plane.standees) == set(range(spec.seats))
