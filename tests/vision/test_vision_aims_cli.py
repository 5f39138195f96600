"""``python -m vision aims CLIP --json``: the spec's object, and one line for a broken clip."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import aim_synth

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "vision", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300, check=False)


@pytest.fixture(scope="module")
def clip(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("aims") / "clip"
    spec = aim_synth.random_spec(12, fps=30, seats=6)
    return aim_synth.write_clip(aim_synth.AimScene(spec), folder, video=True)


def test_prints_exactly_the_spec_object(clip):
    done = run("aims", str(clip), "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert set(out) == {"aims", "late", "needs_godfather", "confidence"}
    assert set(out["aims"]) == {str(s) for s in range(6)}
    assert all(v is None or isinstance(v, int) for v in out["aims"].values())
    assert isinstance(out["needs_godfather"], bool) and 0 <= out["confidence"] <= 1
    truth = json.loads((clip / "truth.json").read_text())
    unsure = json.loads(run("aims", str(clip), "--json", "--details").stdout)["seats"]
    for seat, target in out["aims"].items():
        if unsure[seat]["sure"]:
            assert target == truth["aims"][seat], (seat, unsure[seat])


def broken(tmp_path: Path, clip: Path, kind: str) -> Path:
    folder = tmp_path / kind
    folder.mkdir()
    info = (clip / "clip.json").read_text()
    video = (clip / "video.avi").read_bytes()
    if kind == "truncated":
        (folder / "clip.json").write_text(info)
        (folder / "video.avi").write_bytes(video[: len(video) // 20])
    elif kind == "absurd":
        (folder / "clip.json").write_text('{"fps": -3, "seats": 100, "three_at": 1e308}')
        (folder / "video.avi").write_bytes(video)
    elif kind == "wrong types":
        (folder / "clip.json").write_text('{"fps": "60", "seats": [6], "three_at": true}')
        (folder / "video.avi").write_bytes(video)
    elif kind == "nested":
        (folder / "clip.json").write_text("[" * 20000 + "]" * 20000)
    elif kind == "huge":
        (folder / "clip.json").write_text(json.dumps({"fps": 60, "seats": 6, "three_at": 1.6, "x": "y" * 10**6}))
    elif kind == "not a video":
        (folder / "clip.json").write_text(info)
        (folder / "video.avi").write_bytes(b"RIFF" + bytes(range(256)) * 40)
    elif kind == "no frames":
        (folder / "clip.json").write_text(info)
    elif kind == "no clip.json":
        (folder / "video.avi").write_bytes(video)
    elif kind == "a wiped block":  # zeros in the middle of a frame's picture: no picture to trust there
        (folder / "clip.json").write_text(info)
        middle = len(video) // 2
        (folder / "video.avi").write_bytes(video[:middle] + bytes(400) + video[middle + 400:])
    elif kind == "tiny frames":
        (folder / "clip.json").write_text(info)
        (folder / "frames").mkdir()
        ok, png = cv2.imencode(".png", np.full((10, 12, 3), 128, np.uint8))
        for i in range(120):
            (folder / "frames" / f"{i:06d}.png").write_bytes(png.tobytes())
    elif kind == "a truncated frame":  # OpenCV's own warning on it must not reach stderr beside the error line
        (folder / "clip.json").write_text(info)
        (folder / "frames").mkdir()
        ok, png = cv2.imencode(".png", np.full((480, 640, 3), 128, np.uint8))
        for i in range(3):
            data = png.tobytes()
            (folder / "frames" / f"{i:06d}.png").write_bytes(data[: len(data) // 3] if i == 1 else data)
    return folder


@pytest.mark.parametrize("kind", ["truncated", "absurd", "wrong types", "nested", "huge", "not a video",
                                  "no frames", "no clip.json", "a truncated frame", "a wiped block",
                                  "tiny frames"])
def test_a_broken_clip_exits_2_with_one_line(tmp_path, clip, kind):
    done = run("aims", str(broken(tmp_path, clip, kind)), "--json")
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in done.stderr, done.stderr


def test_synth_aims_writes_labelled_clips(tmp_path):
    done = run("synth-aims", str(tmp_path / "out"), "--count", "1", "--seed", "4")
    assert done.returncode == 0, done.stderr
    folder = tmp_path / "out" / "aims0000"
    info = json.loads((folder / "clip.json").read_text())
    assert set(info) == {"fps", "seats", "three_at"}
    truth = json.loads((folder / "truth.json").read_text())
    assert set(truth["aims"]) <= {str(s) for s in range(info["seats"])} and isinstance(truth["late"], list)
    assert (folder / "frames" / "000000.png").is_file()


def test_a_clip_with_fewer_seats_than_its_frames_show_is_refused(tmp_path, clip):
    """clip.json says 5 seats, but seat 2 aims at seat 5's standee: no aim at a player not in the game."""
    truth = json.loads((clip / "truth.json").read_text())
    assert truth["aims"]["2"] == 5
    fewer = tmp_path / "fewer"
    fewer.mkdir()
    (fewer / "video.avi").symlink_to(clip / "video.avi")
    info = json.loads((clip / "clip.json").read_text())
    (fewer / "clip.json").write_text(json.dumps({**info, "seats": 5}))
    done = run("aims", str(fewer), "--json")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        f"error: {fewer / 'clip.json'}: seats is 5, but its frames show a weapon aimed at the standee of seat 5: "
        "give the number of seats at the table"]


def test_a_calibration_of_another_frame_size_is_refused(tmp_path, clip):
    """A calibration's marker pixels are places on the table only in frames of the size it was made from."""
    from vision.calibration import Calibration, calibrate
    from vision.sources import open_frames

    source = open_frames(clip, 30)
    first = source.read()
    source.close()
    data = calibrate([first], 6, setup=False).to_json()
    path = tmp_path / "calibration.json"
    path.write_text(json.dumps({**data, "image_size": [first.shape[1] * 2, first.shape[0] * 2]}))
    Calibration.load(path)
    done = run("aims", str(clip), "--calibration", str(path))
    assert done.returncode == 2 and done.stdout == ""
    h, w = first.shape[:2]
    assert done.stderr.strip().splitlines() == [
        f"error: {clip}: its frames are {w}x{h}, but the calibration was made from frames of {2 * w}x{2 * h}"]
