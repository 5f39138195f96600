"""A speaker that cannot play (no sound card, a wrong ALSA device) is told, once, in one line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from controller.devices.selftest import main as selftest
from controller.devices.sounds import SoundLibrary
from controller.devices.speakers import AplaySpeaker
from controller.devices.vocabulary import CLIP_KEYS

FAILING = "#!/bin/sh\necho 'aplay: main:831: audio open error: No such file or directory' >&2\nexit 1\n"
PLAYING = "#!/bin/sh\nexit 0\n"


def fake_aplay(tmp_path: Path, script: str, monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "aplay").write_text(script)
    (bin_dir / "aplay").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")


def library(tmp_path: Path) -> SoundLibrary:
    return SoundLibrary("en", "tones", {k: tmp_path / f"{k}.wav" for k in CLIP_KEYS})


def test_a_failing_aplay_is_told_at_the_check_in_one_line_naming_the_device(tmp_path, monkeypatch):
    fake_aplay(tmp_path, FAILING, monkeypatch)
    told: list[str] = []
    speaker = AplaySpeaker(library(tmp_path), device="hw:5")
    speaker.on_problem = told.append
    problem = speaker.check()
    assert problem is not None and "\n" not in problem
    assert "exit 1" in problem and "audio open error" in problem and "'hw:5'" in problem
    assert told == [problem]
    speaker.play(["number.1"])
    speaker.finish(5.0)
    speaker.play(["number.2"])
    speaker.finish(5.0)
    assert told == [problem]  # the same failure is told once
    speaker.close()


def test_a_failing_sequence_during_the_game_is_told_once(tmp_path, monkeypatch):
    fake_aplay(tmp_path, FAILING, monkeypatch)
    told: list[str] = []
    speaker = AplaySpeaker(library(tmp_path))
    speaker.on_problem = told.append
    speaker.play(["number.1"])
    speaker.finish(5.0)
    speaker.play(["number.2"])
    speaker.finish(5.0)
    speaker.close()
    assert len(told) == 1 and "the default ALSA device" in told[0]


def test_a_working_aplay_passes_the_check_and_finish_waits_for_the_sequence(tmp_path, monkeypatch):
    fake_aplay(tmp_path, "#!/bin/sh\nsleep 0.3\n", monkeypatch)
    speaker = AplaySpeaker(library(tmp_path))
    assert speaker.check() is None
    speaker.play(["number.1"])
    process = speaker._playing
    assert process is not None and process.poll() is None
    speaker.finish(5.0)
    assert process.returncode == 0
    speaker.close()


def test_selftest_says_the_speaker_is_silent_and_fails(tmp_path, monkeypatch, capsys):
    fake_aplay(tmp_path, FAILING, monkeypatch)
    config = tmp_path / "devices.toml"
    config.write_text(f'[sound]\noutput = "aplay"\nengine = "tones"\ncache_dir = "{tmp_path / "sounds"}"\n')
    assert selftest(["--config", str(config), "--mock", "--step", "0", "--watch", "0"]) == 1
    out = capsys.readouterr().out
    said = [line for line in out.splitlines() if line.startswith("sound: ")]
    assert len(said) == 1 and "The speaker is silent" in said[0] and "audio open error" in said[0]
    assert "selftest found problems" in out


def test_finish_keeps_track_of_a_sequence_another_thread_started_meanwhile(tmp_path):
    """The game's thread waits for its sequence while the console's input starts the next one: that one
    is still the speaker's, and the next sequence cuts it (two aplay never overlap: no false "silent")."""
    import subprocess
    import threading
    import time

    procs: list[subprocess.Popen[bytes]] = []

    def spawn(argv: list[str]) -> subprocess.Popen[bytes]:
        procs.append(subprocess.Popen(["sleep", "0.6"], stderr=subprocess.PIPE))
        return procs[-1]

    told: list[str] = []
    speaker = AplaySpeaker(library(tmp_path), spawn=spawn)
    speaker.on_problem = told.append
    try:
        speaker.play(["stand_up"])
        other = threading.Thread(target=lambda: (time.sleep(0.2), speaker.play(["dead"])))
        other.start()
        speaker.finish(5.0)
        other.join()
        assert speaker._playing is procs[1] and procs[1].poll() is None
        speaker.play(["split"])
        assert procs[1].wait(2.0) is not None and procs[1].returncode < 0  # cut by the next sequence
        assert not told
    finally:
        speaker.close()
        for process in procs:
            process.kill()
            process.wait()
