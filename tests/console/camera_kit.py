"""A real table's camera for the tests: a live camera replaying a synthetic throw clip (or failing in
the ways a real one does), and a real table's session at its throws."""

from __future__ import annotations

import threading
import time

from console_kit import console_table

from controller.table import gamelog
from controller.table import inputs as I
from controller.table.referee import Step
from vision.calibration import calibrate
from vision.synth import HandMove, Scenario, random_spec, render_clip

CLEAN = dict(light=0.9, noise_sigma=2.0, jpeg_quality=85, fps=30, blur_sigma=0.6, print_black=10, print_white=235,
             tilt_deg=5.0, lens_k1=0.03)
THROWER, TARGET = "Aiko", "Cy"  # seats 0 and 2 of the 6 players' Yakuzas table below


def throw_clip():
    """Aiko's shuriken knocks Cy's standee over: the clip's spec, its frames and the table's calibration."""
    spec = random_spec(11, seats=6, thrower=0, scenario=Scenario.KNOCK, hits=((2, "knocked"),), hand=HandMove.NONE,
                       **CLEAN)
    frames = list(render_clip(spec).frames())
    return spec, frames, calibrate(frames[:3], spec.seats, setup=False)


class Throw:
    """A camera over the table: the table at rest until the throw is let go (``go``), then the clip,
    then the table at rest again (the last frame, as long as it is read)."""

    def __init__(self, frames, *, rest: int = 3) -> None:
        self.frames, self.rest = frames, rest
        self.go = threading.Event()
        self.i = 0
        self.closed = False

    def read(self):
        if self.i >= self.rest and not self.go.wait(timeout=10.0):
            return None
        frame = self.frames[min(self.i, len(self.frames) - 1)]
        self.i += 1
        return frame

    def close(self) -> None:
        self.closed = True


class StillTable:
    """A camera that films the table at rest, and nothing else (no throw ever comes)."""

    def __init__(self, frame) -> None:
        self.frame = frame
        self.reads = 0

    def read(self):
        self.reads += 1
        time.sleep(0.002)
        return self.frame

    def close(self) -> None:
        pass


class Unplugged:
    """A webcam pulled out of its USB port."""

    def read(self):
        raise OSError("/dev/video0: No such device")

    def close(self) -> None:
        pass


class Garbled:
    """A camera whose driver fails with a message of several lines, as OpenCV's do."""

    def read(self):
        raise RuntimeError("OpenCV(4.10.0) cap_v4l.cpp:1048: error: (-215:Assertion failed) !frame.empty()\n"
                           "  in function 'read'\n")

    def close(self) -> None:
        pass


class Stuck:
    """A camera whose driver never returns a frame (until the test lets it go)."""

    def __init__(self) -> None:
        self.free = threading.Event()

    def read(self):
        self.free.wait(timeout=10.0)
        return None

    def close(self) -> None:
        self.free.set()


def real_table(camera, tmp_path, withdrew=()):
    """A real table's session (no bots: the Godfather's console answers), at round 1's throws, where
    Aiko and Dee (the yakuzas) may throw; its game log is read back by the tests."""
    log = gamelog.GameLog.create(tmp_path / "game.log", {"record": {}})
    session, relay = console_table("yakuzas", 6, 1, cards=False, camera=camera, game_log=log)
    session.bots = None  # at a real table the players throw; nobody plays their part
    session.submit(I.CardsDown({}))
    prompt = session.referee.prompt()
    session.submit(I.Aims({n: (t[0] if t else None) for n, t in prompt.options["targets"].items()}))
    session.submit(I.Withdrawals(list(withdrew), []))
    session.submit(I.Show({}))
    prompt = session.referee.prompt()
    assert prompt.step is Step.THROWS and prompt.players == ["Aiko", "Dee"]
    assert withdrew or prompt.options["targets"][THROWER] == ["Cy", "Eli"]
    return session, relay, log
