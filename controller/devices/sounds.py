"""Sound clips prepared ahead: spoken with espeak-ng where it is installed, else tones.

Clips are WAV files in a cache folder, made once per language and text.  The
tone version of each clip is a short tune (:func:`tune_for`), the same tune a
``TonalBuzzer`` plays, so the three outputs say the same things.
"""

from __future__ import annotations

import hashlib
import logging
import shutil
import subprocess
import wave
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from .vocabulary import PAUSE, clip_texts

log = logging.getLogger(__name__)

Tune = list[tuple[float | None, float]]
"""Notes as (frequency in Hz, or ``None`` for a rest; seconds)."""

SAMPLE_RATE = 22050
ENGINES = ("auto", "espeak", "tones")
ESPEAK_VOICES = {"en": "en", "pt": "pt", "fr": "fr", "hu": "hu"}

_SCALE = [262.0, 294.0, 330.0, 392.0, 440.0, 523.0, 587.0, 659.0, 784.0]
_BEEP = (660.0, 0.07)
_LOW_BEEP = (330.0, 0.07)
_SEAT_MARK = (392.0, 0.12)
_GAP = (None, 0.06)
_FIXED_TUNES: dict[str, Tune] = {
    "banzai": [(523.0, 0.1), (659.0, 0.1), (784.0, 0.1), (880.0, 0.2)],
    "you_lost": [(784.0, 0.12), (659.0, 0.12), (523.0, 0.24)],
    "too_late": [(440.0, 0.15), (None, 0.05), (330.0, 0.3)],
    "and": [(None, 0.1)],
    PAUSE: [(None, 0.35)],
}


def _beeps(n: int, beep: tuple[float, float]) -> Tune:
    tune: Tune = []
    for i in range(n):
        tune += [beep, _GAP] if i < n - 1 else [beep]
    return tune


def tune_for(key: str) -> Tune:
    """The tune standing for clip ``key`` (within A3..A5, a TonalBuzzer's default range).

    A count "n" is n beeps; a seat is a longer low note and one beep per seat number
    (seat 0: the note alone); wounds are low beeps, one per wound.
    """
    kind, _, number = key.partition(".")
    if kind == "number":
        return _beeps(int(number), _BEEP)
    if kind == "seat":
        return [_SEAT_MARK, _GAP, *_beeps(int(number), _BEEP), _GAP]
    if kind == "wounds":
        return [*_beeps(int(number), _LOW_BEEP), _GAP]
    if key in _FIXED_TUNES:
        return _FIXED_TUNES[key]
    seed = zlib.crc32(key.encode())
    return [(_SCALE[(seed >> (4 * i)) % len(_SCALE)], 0.09) for i in range(3)] + [(None, 0.05)]


def render_tune(tune: Tune, *, rate: int = SAMPLE_RATE) -> np.ndarray:
    """16-bit mono samples of ``tune``, each note faded in and out to avoid clicks."""
    parts = []
    for frequency, seconds in tune:
        n = int(round(seconds * rate))
        if frequency is None:
            parts.append(np.zeros(n))
            continue
        t = np.arange(n) / rate
        note = np.sin(2 * np.pi * frequency * t)
        fade = min(n // 2, int(0.005 * rate))
        if fade:
            ramp = np.linspace(0.0, 1.0, fade)
            note[:fade] *= ramp
            note[-fade:] *= ramp[::-1]
        parts.append(note)
    samples = np.concatenate(parts) if parts else np.zeros(0)
    return (samples * 0.6 * 32767).astype(np.int16)


def write_wav(path: Path, samples: np.ndarray, *, rate: int = SAMPLE_RATE) -> None:
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(samples.tobytes())


@dataclass(frozen=True)
class SoundLibrary:
    """The prepared clips of one language: clip key -> WAV file."""

    language: str
    engine: str
    files: dict[str, Path]

    def path(self, key: str) -> Path:
        try:
            return self.files[key]
        except KeyError:
            raise ValueError(f"no prepared sound {key!r} for language {self.language!r}") from None


Runner = Callable[..., subprocess.CompletedProcess]


def choose_engine(engine: str, *, espeak: str = "espeak-ng") -> str:
    """Resolve "auto" to "espeak" when ``espeak`` is on the PATH, else "tones"."""
    if engine not in ENGINES:
        raise ValueError(f"unknown sound engine {engine!r} (known: {', '.join(ENGINES)})")
    if engine == "auto":
        return "espeak" if shutil.which(espeak) else "tones"
    if engine == "espeak" and not shutil.which(espeak):
        raise RuntimeError(f"{espeak} not found: install it (apt install espeak-ng) or set sound.engine = \"tones\"")
    return engine


def prepare_sounds(
    language: str,
    *,
    cache_dir: Path,
    engine: str = "auto",
    espeak: str = "espeak-ng",
    run: Runner = subprocess.run,
) -> SoundLibrary:
    """Make (or reuse from ``cache_dir``) every clip of ``language``."""
    texts: dict[str, str] = {**clip_texts(language), PAUSE: ""}
    engine = choose_engine(engine, espeak=espeak)
    cache_dir.mkdir(parents=True, exist_ok=True)
    files: dict[str, Path] = {}
    made = 0
    for key, text in texts.items():
        source = f"{engine}|{ESPEAK_VOICES[language]}|{text}|{tune_for(key)}"
        digest = hashlib.sha1(source.encode()).hexdigest()[:12]
        path = cache_dir / f"{language}-{key}-{engine}-{digest}.wav"
        if not path.exists():
            partial = path.with_suffix(".part")
            if engine == "espeak" and key != PAUSE:
                command = [espeak, "-v", ESPEAK_VOICES[language], "-s", "190", "-w", str(partial), text]
                result = run(command, capture_output=True, text=True)
                if result.returncode != 0:
                    raise RuntimeError(f"{espeak} failed on clip {key!r} ({language}): {result.stderr.strip()}")
            else:
                write_wav(partial, render_tune(tune_for(key)))
            partial.replace(path)
            made += 1
        files[key] = path
    log.info("sounds for %s ready (%s, %d made, %d cached) in %s", language, engine, made, len(files) - made, cache_dir)
    return SoundLibrary(language, engine, files)


def clip_seconds(paths: Sequence[Path]) -> float:
    """How long ``paths`` take to play one after the other."""
    total = 0.0
    for path in paths:
        with wave.open(str(path), "rb") as clip:
            total += clip.getnframes() / clip.getframerate()
    return total
