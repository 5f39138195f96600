import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import synth
from vision.__main__ import main
from vision.synth import HandMove, Scenario

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def clips(tmp_path_factory):
    base = tmp_path_factory.mktemp("clips")
    made = {}
    for name, seed, scenario, video in (("frames", 31, Scenario.KNOCK, False), ("video", 32, Scenario.TOUCH, True),
                                        ("multi", 33, Scenario.MULTI, False)):
        spec = synth.random_spec(seed, scenario=scenario, hand=HandMove.THROWER_ARM, fps=30, jpeg_quality=90,
                                  blur_sigma=0.6, print_black=10, print_white=235, tilt_deg=5.0, lens_k1=0.03)
        clip = synth.render_clip(spec)
        made[name] = (synth.write_clip(clip, base / name, video=video), clip.truth.as_json())
    return made


@pytest.mark.parametrize("name", ["frames", "video", "multi"])
def test_judge_json_prints_the_verdict(clips, capsys, name):
    folder, truth = clips[name]
    assert (folder / ("video.avi" if name == "video" else "frames/000000.png")).exists()
    assert main(["judge", str(folder), "--json"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    data = json.loads(out[0])
    assert len(out) == 1 and {"knocked": data["knocked"], "touched": data["touched"]} == truth


def test_judge_as_a_module_with_details(clips):
    folder, truth = clips["frames"]
    run = subprocess.run([sys.executable, "-m", "vision", "judge", str(folder), "--json", "--details"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert {"knocked": data["knocked"], "touched": data["touched"]} == truth
    assert "confidence" in data and len(data["seats"]) >= 6


def test_unreadable_clips_exit_2_with_one_line(tmp_path, capsys):
    assert main(["judge", str(tmp_path / "nowhere"), "--json"]) == 2
    (tmp_path / "clip.json").write_text(json.dumps({"fps": 60, "seats": 6, "thrower": 2}))
    (tmp_path / "video.avi").write_bytes(b"\0" * 4096)
    assert main(["judge", str(tmp_path), "--json"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and "nowhere" in err[0] and "video.avi" in err[1]


def test_a_clip_without_markers_exits_2_with_one_line(tmp_path):
    (tmp_path / "clip.json").write_text(json.dumps({"fps": 30, "seats": 6, "thrower": 0}))
    (tmp_path / "frames").mkdir()
    for i in range(4):
        cv2.imwrite(str(tmp_path / "frames" / f"{i:06d}.png"), np.full((480, 640, 3), 120, np.uint8))
    run = subprocess.run([sys.executable, "-m", "vision", "judge", str(tmp_path), "--json"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 2 and run.stdout == ""
    err = run.stderr.strip().splitlines()
    assert len(err) == 1 and str(tmp_path) in err[0] and "no corner marker and no crown marker" in err[0]


def test_calibrate_command(tmp_path, capsys):
    spec = synth.random_spec(34, seats=6, light=0.9, noise_sigma=2.0, jpeg_quality=85)
    frame = synth.still_scene(spec)
    good, dark = tmp_path / "good.png", tmp_path / "dark.png"
    cv2.imwrite(str(good), frame)
    cv2.imwrite(str(dark), (frame * 0.1).astype(np.uint8))
    out = tmp_path / "cal.json"
    assert main(["calibrate", "--image", str(good), "--out", str(out)]) == 0
    assert json.loads(out.read_text())["seats"].keys() == {str(s) for s in range(6)}
    assert main(["calibrate", "--image", str(dark), "--seats", "6", "--out", str(tmp_path / "x.json")]) == 1
    err = capsys.readouterr().err
    assert "calibration: too dark" in err and not (tmp_path / "x.json").exists()


def test_calibrate_from_a_frames_folder_then_judge_with_it(clips, tmp_path, capsys):
    folder, truth = clips["multi"]
    cal = tmp_path / "cal.json"
    assert main(["calibrate", "--frames", str(folder / "frames"), "--count", "3", "--out", str(cal)]) == 0
    assert main(["judge", str(folder), "--json", "--calibration", str(cal)]) == 0
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert {"knocked": data["knocked"], "touched": data["touched"]} == truth


def test_a_calibration_made_from_frames_of_another_size_exits_2(clips, tmp_path, capsys):
    folder, _ = clips["multi"]
    cal = tmp_path / "cal.json"
    assert main(["calibrate", "--frames", str(folder / "frames"), "--count", "3", "--out", str(cal)]) == 0
    capsys.readouterr()
    data = json.loads(cal.read_text())
    w, h = data["image_size"]
    data["image_size"] = [w * 2, h * 2]  # its markers' pixels stay inside the larger image
    cal.write_text(json.dumps(data))
    line = _one_error_line(capsys, ["judge", str(folder), "--json", "--calibration", str(cal)])
    assert f"its frames are {w}x{h}, but the calibration was made from frames of {w * 2}x{h * 2}" in line
    assert str(folder) in line


def test_markers_command(tmp_path, capsys):
    assert main(["markers", "--out", str(tmp_path), "--dpi", "100", "--seats", "6"]) == 0
    pages = sorted(tmp_path.glob("markers-100dpi-page*.png"))
    assert len(pages) >= 2


def test_markers_by_default_go_into_a_folder_of_the_current_one_not_the_repositorys_sheets(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["markers", "--dpi", "72", "--seats", "1"]) == 0
    written = [line for line in capsys.readouterr().out.splitlines() if line.endswith(".png")]
    assert written and all(Path(line).parent == Path("markers") for line in written)
    assert [p.name for p in sorted((tmp_path / "markers").iterdir())] == [Path(line).name for line in written]
    assert not (tmp_path / "hardware").exists()


def test_judge_json_has_needs_godfather_and_confidence_at_the_top(clips, capsys):
    folder, truth = clips["multi"]
    assert main(["judge", str(folder), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"knocked": data["knocked"], "touched": data["touched"]} == truth
    assert isinstance(data["needs_godfather"], bool) and 0.0 <= data["confidence"] <= 1.0


def _one_error_line(capsys, args):
    assert main(args) == 2
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert captured.out == "" and len(err) == 1 and "Traceback" not in captured.err
    return err[0]


@pytest.mark.parametrize("cut", ["truncated", "damaged"])
def test_a_broken_video_exits_2_naming_the_frame(clips, tmp_path, capsys, cut):
    folder, _ = clips["video"]
    data = (folder / "video.avi").read_bytes()
    if cut == "truncated":
        data = data[:len(data) // 2]
    else:
        middle = len(data) // 2
        data = data[:middle] + bytes(range(256)) * 8 + data[middle + 2048:]
    broken = tmp_path / "clip"
    broken.mkdir()
    (broken / "clip.json").write_text((folder / "clip.json").read_text())
    (broken / "video.avi").write_bytes(data)
    line = _one_error_line(capsys, ["judge", str(broken), "--json"])
    assert "video.avi" in line and "broken at frame" in line


def test_frames_of_mixed_sizes_exit_2(clips, tmp_path, capsys):
    folder, _ = clips["frames"]
    mixed = tmp_path / "clip"
    (mixed / "frames").mkdir(parents=True)
    (mixed / "clip.json").write_text((folder / "clip.json").read_text())
    for i, path in enumerate(sorted((folder / "frames").glob("*.png"))[:12]):
        frame = cv2.imread(str(path))
        if i == 8:
            frame = cv2.resize(frame, (320, 240))
        cv2.imwrite(str(mixed / "frames" / path.name), frame)
    line = _one_error_line(capsys, ["judge", str(mixed), "--json"])
    assert "000008.png" in line and "mixed sizes" in line


@pytest.mark.parametrize("content, words", [
    ('{"fps": Infinity, "seats": 6, "thrower": 0}', "Infinity"),
    ('{"fps": 1e999, "seats": 6, "thrower": 0}', "fps"),
    ('{"fps": 1e300, "seats": 6, "thrower": 0}', "fps"),
    ('{"fps": 30, "seats": 6.5, "thrower": 0}', "seats"),
    ('{"fps": true, "seats": 6, "thrower": 0}', "fps must be a number, not true"),
    ('{"fps": "30", "seats": 6, "thrower": 0}', 'fps must be a number, not "30"'),
    ('{"fps": 30, "seats": 6, "thrower": 0, "x": ' + "[" * 100_000 + "]" * 100_000 + "}", "KiB"),
    ("[" * 5000 + "]" * 5000, "nested"),
    ('{"fps": 30, "seats": 6, "thrower": 0, "note": "' + "x" * 200_000 + '"}', "KiB"),
    ("\xff\xfe", "UTF-8"),
    ("[1, 2]", "object"),
])
def test_absurd_clip_json_exits_2_with_one_line(tmp_path, capsys, content, words):
    (tmp_path / "clip.json").write_bytes(content.encode("utf-8", "surrogateescape") if content != "\xff\xfe"
                                         else b"\xff\xfe")
    (tmp_path / "frames").mkdir()
    line = _one_error_line(capsys, ["judge", str(tmp_path), "--json"])
    assert "clip.json" in line and words in line


def test_a_broken_calibration_file_exits_2(clips, tmp_path, capsys):
    folder, _ = clips["frames"]
    bad = tmp_path / "cal.json"
    bad.write_text("[" * 100_000)
    line = _one_error_line(capsys, ["judge", str(folder), "--json", "--calibration", str(bad)])
    assert "cal.json" in line


@pytest.mark.parametrize("argv, words", [
    (["markers", "--dpi", "0"], "--dpi: '0' is not a whole number from 72 to 1200"),
    (["markers", "--dpi", "-300"], "--dpi: '-300' is not a whole number from 72 to 1200"),
    (["markers", "--dpi", "100000"], "--dpi: '100000' is not a whole number from 72 to 1200"),
    (["markers", "--seats", "99"], "--seats: '99' is not a whole number from 1 to 9"),
    (["markers", "--seats", "0"], "--seats: '0' is not a whole number from 1 to 9"),
    (["synth", "OUT", "--seed", "-1"], "--seed: '-1' is not a whole number from 0"),
    (["synth-aims", "OUT", "--seed", "-1"], "--seed: '-1' is not a whole number from 0"),
    (["synth", "OUT", "--count", "-3"], "--count: '-3' is not a whole number from 1 to 100000"),
    (["synth-aims", "OUT", "--count", "0"], "--count: '0' is not a whole number from 1 to 100000"),
    (["calibrate", "--image", "x.png", "--count", "0"], "--count: '0' is not a whole number from 1 to 1000"),
    (["calibrate", "--image", "x.png", "--skip", "-1"], "--skip: '-1' is not a whole number from 0 to 10000"),
    (["calibrate", "--image", "x.png", "--seats", "0"], "--seats: '0' is not a whole number from 1 to 9"),
])
def test_numbers_out_of_range_are_refused_by_the_options(tmp_path, capsys, argv, words):
    argv = [str(tmp_path / a) if a == "OUT" else a for a in argv]
    if argv[0] == "markers":  # never the repository's own sheets, whatever happens
        argv += ["--out", str(tmp_path / "sheets")]
    with pytest.raises(SystemExit) as stop:
        main(argv)
    err = capsys.readouterr().err
    assert stop.value.code == 2 and words in err and "Traceback" not in err


@pytest.mark.parametrize("command", ["markers", "synth", "synth-aims"])
def test_an_output_folder_that_cannot_be_made_is_one_line(tmp_path, capsys, command):
    in_the_way = tmp_path / "a-file"
    in_the_way.write_text("x")
    argv = [command, "--out", str(in_the_way / "sheets")] if command == "markers" else [command, str(in_the_way), "--count", "1"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(in_the_way) in err and "cannot be written: a file is where a folder must be made" in err


def test_ctrl_c_is_exit_130_with_one_line(monkeypatch, capsys):
    import vision.__main__ as cli

    def stop(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "cmd_markers", stop)
    assert cli.main(["markers"]) == 130
    assert capsys.readouterr().err.strip() == "Stopped."


@pytest.mark.parametrize("unsure, said", [([1], "(the Godfather decides: seat 1)"),
                                          ([0, 2], "(the Godfather decides: seats 0, 2)"), ([], None)])
def test_aims_text_names_the_seats_the_godfather_decides_in_good_english(unsure, said, monkeypatch, capsys):
    from vision import aim_clips, aims

    reading = aims.AimReading({s: aims.SeatAim(s, (s + 1) % 3, False, s not in unsure, 0.3 if s in unsure else 0.9,
                                               "a reason") for s in range(3)})
    monkeypatch.setattr(aim_clips, "read_aim_clip", lambda clip, calibration=None: reading)
    assert main(["aims", "any-clip"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.endswith(said) if said else "decides" not in first


@pytest.mark.parametrize("knocked, touched, needs, reason, said", [
    ([2, 5], [], False, "judged", "knocked over: seat 2, seat 5; touched: no one; confidence 0.90"),
    ([], [1], True, "a standee changed but no shuriken was seen",
     "knocked over: no one; touched: seat 1; confidence 0.90; the Godfather decides"
     " (a standee changed but no shuriken was seen)"),
])
def test_judge_text_names_the_seats_in_words(knocked, touched, needs, reason, said, monkeypatch, capsys):
    import vision.__main__ as cli
    from vision.throws import Verdict

    verdict = Verdict(knocked, touched, {}, 0.9, needs, reason, True, 30)
    monkeypatch.setattr(cli, "judge_clip", lambda clip, calibration=None: verdict)
    assert main(["judge", "any-clip"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == said


def test_ctrl_c_while_opencv_loads_is_one_line_and_130():
    """`python -m vision ...` stopped in its first second, while OpenCV is still being loaded: "Stopped.", exit
    130, no traceback (``import vision`` itself loads no OpenCV)."""
    start = (
        "import runpy, sys\n"
        "class CtrlC:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'cv2':\n"
        "            raise KeyboardInterrupt\n"
        "import vision\n"
        "assert 'cv2' not in sys.modules\n"
        "sys.meta_path.insert(0, CtrlC())\n"
        "sys.argv = ['vision', 'synth', 'out']\n"
        "runpy.run_module('vision', run_name='__main__', alter_sys=True)\n"
    )
    proc = subprocess.run([sys.executable, "-c", start], capture_output=True, text=True, timeout=60, cwd=ROOT, check=False)
    assert proc.returncode == 130 and proc.stderr.strip() == "Stopped.", proc.stderr
