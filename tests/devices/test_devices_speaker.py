"""Sounds prepared ahead, aplay and buzzer speakers, the recording sink, announcements."""

import shutil
import subprocess
import wave

import pytest

from controller.devices.clock import ManualClock
from controller.devices.recording import RecordingSpeaker
from controller.devices.simulation import ClockedMockFactory
from controller.devices.sounds import SoundLibrary, choose_engine, clip_seconds, prepare_sounds, tune_for
from controller.devices.speakers import AplaySpeaker, BuzzerSpeaker
from controller.devices.vocabulary import CLIP_KEYS, PAUSE, SPOKEN_KEYS, Phrases, clip_texts
from controller.seats import LANGUAGES


def test_every_language_has_every_clip():
    assert CLIP_KEYS == (*SPOKEN_KEYS, PAUSE)
    for language in LANGUAGES:
        texts = clip_texts(language)
        assert tuple(texts) == SPOKEN_KEYS and all(texts.values())
    assert clip_texts("fr")["number.3"] == "trois"
    assert clip_texts("hu")["you_lost"] == "Vesztettél!"
    with pytest.raises(ValueError, match="unknown language 'de'"):
        clip_texts("de")


def test_announcements_are_made_of_prepared_clips():
    phrases = [
        Phrases.count(3),
        Phrases.banzai(),
        Phrases.you_lost(),
        Phrases.wounded(0, 1),
        Phrases.wounded(8, 2),
        Phrases.dead(4),
        Phrases.split([0, 2]),
        Phrases.winner(seat=5),
        Phrases.winner(gang="purple"),
        Phrases.winners(seats=[0, 8]),
        Phrases.winners(gangs=["red", "yellow"]),
        Phrases.together(Phrases.wounded(1, 2), Phrases.dead(3)),
        Phrases.too_late(1),
        Phrases.stand_up(1),
        Phrases.lie_down(1),
    ]
    assert all(key in CLIP_KEYS for phrase in phrases for key in phrase)
    assert Phrases.wounded(8, 2) == ["seat.8", "wounds.2"]
    assert Phrases.split([0, 2, 5]) == ["split", "seat.0", "seat.2", "and", "seat.5"]
    assert Phrases.together(Phrases.dead(1), [], Phrases.count(2)) == ["seat.1", "dead", PAUSE, "number.2"]
    with pytest.raises(ValueError, match="cannot speak seat 9"):
        Phrases.wounded(9, 1)
    with pytest.raises(ValueError, match="cannot speak 0 wounds"):
        Phrases.wounded(3, 0)
    with pytest.raises(ValueError, match="either a seat or a gang"):
        Phrases.winner()


def test_tones_are_prepared_once_and_reused(tmp_path):
    library = prepare_sounds("pt", cache_dir=tmp_path, engine="tones")
    assert set(library.files) == set(CLIP_KEYS) and library.engine == "tones"
    with wave.open(str(library.path("number.3")), "rb") as clip:
        assert (clip.getnchannels(), clip.getsampwidth()) == (1, 2)
    expected = sum(seconds for _, seconds in tune_for("number.3"))
    assert clip_seconds([library.path("number.3")]) == pytest.approx(expected, abs=1e-3)
    stamps = {key: path.stat().st_mtime_ns for key, path in library.files.items()}
    again = prepare_sounds("pt", cache_dir=tmp_path, engine="tones")
    assert {key: path.stat().st_mtime_ns for key, path in again.files.items()} == stamps


def test_spoken_clips_come_from_espeak_ng(tmp_path, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: "/usr/bin/" + name)
    calls = []

    def fake_espeak(command, **kwargs):
        calls.append(command)
        path = command[command.index("-w") + 1]
        with wave.open(path, "wb") as out:
            out.setnchannels(1), out.setsampwidth(2), out.setframerate(22050), out.writeframes(b"\0\0" * 100)
        return subprocess.CompletedProcess(command, 0, "", "")

    library = prepare_sounds("hu", cache_dir=tmp_path, engine="auto", run=fake_espeak)
    assert library.engine == "espeak"
    assert ["espeak-ng", "-v", "hu"] == calls[0][:3] and calls[0][-1] == "egy"
    assert len(calls) == len(SPOKEN_KEYS)  # the pause is silence, not speech
    assert set(library.files) == set(CLIP_KEYS)


def test_an_espeak_failure_names_the_clip(tmp_path, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: "/usr/bin/" + name)
    failing = lambda command, **kwargs: subprocess.CompletedProcess(command, 1, "", "no voice")  # noqa: E731
    with pytest.raises(RuntimeError, match="failed on clip 'number.1' \\(en\\): no voice"):
        prepare_sounds("en", cache_dir=tmp_path, engine="espeak", run=failing)


def test_without_espeak_auto_falls_back_to_tones(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert choose_engine("auto") == "tones"
    with pytest.raises(RuntimeError, match="espeak-ng not found"):
        choose_engine("espeak")


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed here")
def test_real_espeak_ng_speaks_a_count(tmp_path):
    library = prepare_sounds("fr", cache_dir=tmp_path, engine="espeak")
    assert clip_seconds([library.path("number.1")]) > 0.1


class FakeProcess:
    def __init__(self, argv):
        self.argv = argv
        self.terminated = False

    def poll(self):
        return None

    def terminate(self):
        self.terminated = True


def test_aplay_plays_a_sequence_in_one_process_and_a_new_one_supersedes_it(tmp_path):
    library = SoundLibrary("en", "tones", {k: tmp_path / f"{k}.wav" for k in CLIP_KEYS})
    started = []
    speaker = AplaySpeaker(library, device="plughw:1", spawn=lambda argv: started.append(FakeProcess(argv)) or started[-1])
    speaker.play(["seat.2", "dead"])
    assert started[0].argv == ["aplay", "-q", "-D", "plughw:1", *(str(tmp_path / f"{k}.wav") for k in ("seat.2", "dead"))]
    speaker.play(["banzai"])
    assert started[0].terminated and not started[1].terminated
    with pytest.raises(ValueError, match="no prepared sound 'hello'"):
        speaker.play(["hello"])


def test_the_buzzer_plays_each_clip_as_its_tune():
    clock = ManualClock()
    factory = ClockedMockFactory(clock)
    speaker = BuzzerSpeaker(18, clock=clock, pin_factory=factory)
    speaker.play(["number.2", "banzai"])
    heard = []
    for _ in range(160):
        tone = speaker.buzzer.value
        frequency = None if tone is None else round(speaker.buzzer.tone.frequency)
        if not heard or heard[-1] != frequency:
            heard.append(frequency)
        clock.advance(0.005)
    assert heard == [660, None, 660, 523, 659, 784, 880, None]
    assert speaker.seconds(["number.2", "banzai"]) == pytest.approx(0.2 + 0.5)


def test_the_recording_sink_keeps_what_was_played_and_when():
    clock = ManualClock(3.0)
    speaker = RecordingSpeaker(clock=clock, known=CLIP_KEYS)
    speaker.play(Phrases.banzai())
    clock.advance(1.5)
    speaker.play(Phrases.dead(2))
    assert [(p.time, p.clips) for p in speaker.played] == [(3.0, ("banzai",)), (4.5, ("seat.2", "dead"))]
    with pytest.raises(ValueError, match="no prepared sound 'hello'"):
        speaker.play(["hello"])
