"""Speakers: ALSA's ``aplay`` on prepared clips, and a gpiozero ``TonalBuzzer``.

The recording sink used by tests and the simulation is in ``recording``.
"""

from __future__ import annotations

import functools
import logging
import shutil
import subprocess
from collections.abc import Callable, Sequence

from gpiozero import TonalBuzzer
from gpiozero.pins import Factory
from gpiozero.tones import Tone

from .clock import Clock, Timer
from .sounds import SoundLibrary, clip_seconds, tune_for

log = logging.getLogger(__name__)


class AplaySpeaker:
    """Plays prepared WAV clips with ``aplay`` (one process per sequence, never blocking)."""

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
            spawn = lambda argv: subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)  # noqa: E731
        self._library = library
        self._base = [aplay, "-q", *(["-D", device] if device else [])]
        self._spawn = spawn
        self._playing: subprocess.Popen[bytes] | None = None

    def play(self, clips: Sequence[str]) -> None:
        paths = [str(self._library.path(key)) for key in clips]
        self._stop()
        self._playing = self._spawn([*self._base, *paths])

    def seconds(self, clips: Sequence[str]) -> float:
        """How long ``clips`` take to play."""
        return clip_seconds([self._library.path(key) for key in clips])

    def _stop(self) -> None:
        if self._playing is not None and self._playing.poll() is None:
            self._playing.terminate()
        self._playing = None

    def close(self) -> None:
        self._stop()


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
