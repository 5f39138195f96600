"""Speakers: ALSA's ``aplay`` on prepared clips, and a gpiozero ``TonalBuzzer``.

The recording sink used by tests and the simulation is in ``recording``.
"""

from __future__ import annotations

import functools
import logging
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Sequence

from gpiozero import TonalBuzzer
from gpiozero.pins import Factory
from gpiozero.tones import Tone

from .clock import Clock, Timer
from .sounds import SoundLibrary, clip_seconds, tune_for
from .vocabulary import PAUSE

log = logging.getLogger(__name__)


MAX_STDERR = 2000
"""How much of a failed ``aplay``'s error output is read (its first line is told)."""
CHECK_SECONDS = 5.0
"""How long the silent clip played at start may take before the sound card counts as hung."""


class AplaySpeaker:
    """Plays prepared WAV clips with ``aplay`` (one process per sequence, never blocking).

    A sequence that fails (no sound card, a wrong ``sound.alsa_device``) is told once per
    different error, in one line: to the log, and to ``on_problem`` when set (the console)."""

    def __init__(
        self,
        library: SoundLibrary,
        *,
        device: str | None = None,
        aplay: str = "aplay",
        spawn: Callable[[list[str]], subprocess.Popen[bytes]] | None = None,
    ) -> None:
        if spawn is None:
            if shutil.which(aplay) is None:
                raise RuntimeError(f"{aplay} not found: install alsa-utils, or set sound.output to \"buzzer\" or \"none\"")
            spawn = lambda argv: subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)  # noqa: E731
        self._library = library
        self._device = device
        self._base = [aplay, "-q", *(["-D", device] if device else [])]
        self._spawn = spawn
        self._playing: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()  # the sequence playing: the game's thread and the console's both speak
        self._told: set[str] = set()
        self.on_problem: Callable[[str], None] | None = None

    def play(self, clips: Sequence[str]) -> None:
        paths = [str(self._library.path(key)) for key in clips]
        with self._lock:
            self._stop()
            self._playing = self._spawn([*self._base, *paths])

    def seconds(self, clips: Sequence[str]) -> float:
        """How long ``clips`` take to play."""
        return clip_seconds([self._library.path(key) for key in clips])

    def check(self, timeout: float = CHECK_SECONDS) -> str | None:
        """Play the silent clip and wait for it: ``None`` when ``aplay`` played it, else what is wrong, in one line."""
        with self._lock:
            self._stop()
            try:
                process = self._spawn([*self._base, str(self._library.path(PAUSE))])
            except OSError as exc:
                return self._problem(f"cannot run {self._base[0]}: {exc.strerror or exc}")
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            _close_pipe(process)
            return self._problem(f"{self._base[0]} did not play a silent clip in {timeout:g} s")
        return self._finished(process)

    def finish(self, timeout: float) -> None:
        """Wait (``timeout`` seconds at most) until the sequence playing has been heard to its end (a
        sequence started meanwhile, by another thread, goes on: the next one cuts it, as always)."""
        with self._lock:
            process = self._playing
        if process is None:
            return
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            return
        with self._lock:
            if self._playing is not process:
                return  # superseded meanwhile: the play that cut it dealt with it
            self._playing = None
            self._finished(process)

    def _stop(self) -> None:
        process, self._playing = self._playing, None
        if process is None:
            return
        if process.poll() is None:
            process.terminate()  # superseded: its exit code says nothing of the sound card
            _close_pipe(process)
        else:
            self._finished(process)

    def _finished(self, process: subprocess.Popen[bytes]) -> str | None:
        """A sequence's ``aplay`` has ended: what went wrong, if anything (told once)."""
        code = process.returncode
        if code is None or code < 0:  # still playing, or stopped by a signal (superseded, closed)
            _close_pipe(process)
            return None
        errors = b""
        pipe = getattr(process, "stderr", None)  # None: not piped
        if pipe is not None:
            try:
                errors = pipe.read(MAX_STDERR) or b""
            except (OSError, ValueError):
                errors = b""
        _close_pipe(process)
        if code == 0:
            return None
        first = next((line.strip() for line in errors.decode("utf-8", "replace").splitlines() if line.strip()), "")
        return self._problem(f"{self._base[0]} failed (exit {code}{': ' + first[:200] if first else ''})")

    def _problem(self, what: str) -> str:
        device = f"sound.alsa_device = {self._device!r}" if self._device else "the default ALSA device (sound.alsa_device unset)"
        line = (f"The speaker is silent: {what}, on {device}; check the sound card and sound.alsa_device "
                "(`aplay -l` lists the cards)")
        if line not in self._told:
            self._told.add(line)
            log.warning("%s", line)
            if self.on_problem is not None:
                self.on_problem(line)
        return line

    def close(self) -> None:
        with self._lock:
            self._stop()


def _close_pipe(process: subprocess.Popen[bytes]) -> None:
    pipe = getattr(process, "stderr", None)
    if pipe is not None:
        try:
            pipe.close()
        except OSError:
            pass


class BuzzerSpeaker:
    """The minimal speaker: each clip is a short tune on a ``TonalBuzzer``, stepped by the clock."""

    def __init__(self, pin: int | str, *, clock: Clock, pin_factory: Factory | None = None) -> None:
        self.buzzer = TonalBuzzer(pin, pin_factory=pin_factory)
        self._clock = clock
        self._timers: list[Timer] = []

    def play(self, clips: Sequence[str]) -> None:
        with self._clock.lock:
            self._cancel()
            start = at = self._clock.now()
            for key in clips:
                for frequency, seconds in tune_for(key):
                    if at == start:
                        self._sound(frequency)  # the first note starts now, not on the next tick
                    else:
                        self._timers.append(self._clock.call_at(at, functools.partial(self._sound, frequency)))
                    at += seconds
            self._timers.append(self._clock.call_at(at, lambda: self._sound(None)))

    @staticmethod
    def seconds(clips: Sequence[str]) -> float:
        """How long ``clips`` take to play."""
        return sum(seconds for key in clips for _, seconds in tune_for(key))

    def finish(self, timeout: float) -> None:
        """Wait (``timeout`` seconds at most) until the tune playing has ended (a simulated clock: at once)."""
        with self._clock.lock:
            ends = max((t.when for t in self._timers if t.when is not None), default=None)
            left = 0.0 if ends is None else ends - self._clock.now()
        if left > 0 and not hasattr(self._clock, "advance"):
            time.sleep(min(left, timeout))

    def _sound(self, frequency: float | None) -> None:
        if frequency is None:
            self.buzzer.stop()
        else:
            self.buzzer.play(Tone(frequency=frequency))

    def _cancel(self) -> None:
        for timer in self._timers:
            timer.cancel()
        self._timers.clear()

    def close(self) -> None:
        self._cancel()
        self.buzzer.close()
