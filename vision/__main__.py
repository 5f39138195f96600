"""Command line: ``python -m vision calibrate|markers|judge|synth|aims|synth-aims``.

    python -m vision calibrate --camera 0 --seats 6 --out calibration.json
    python -m vision markers --out hardware/markers --dpi 300
    python -m vision judge CLIP --json
    python -m vision synth OUT --count 20 --seed 1 [--video]
    python -m vision aims CLIP --json
    python -m vision synth-aims OUT --count 20 --seed 1 [--video]
"""

from __future__ import annotations

import sys

try:  # the first module loaded: a Ctrl-C before it is in place is one line too
    from firmware_bridge.ctrl_c import CTRL_C, ctrl_c_in, stopped, watch_ctrl_c
except KeyboardInterrupt:
    print("\nStopped.", file=sys.stderr)
    raise SystemExit(130) from None

EXIT_PROBLEM = 1  # the scene has faults the user must fix (calibration)
EXIT_UNREADABLE = 2  # a clip, a file or a camera that cannot be read, an option refused

watch_ctrl_c()  # before OpenCV loads
try:  # OpenCV takes a moment to load: a Ctrl-C meanwhile is one line too
    import argparse
    import json
    import logging
    from collections.abc import Callable
    from pathlib import Path

    import cv2

    from firmware_bridge.cli import OneLineParser, show_logs
    from vision import sheet, synth
    from vision.calibration import Calibration, calibrate
    from vision.errors import CalibrationError, ClipError, VisionError
    from vision.progress import progress
    from vision.sources import CameraSettings, FrameFolder, FrameStream, PiCamera, UvcCamera, open_video, opencv_warnings
    from vision.throws import judge_clip
except KeyboardInterrupt:
    raise SystemExit(stopped()) from None
except Exception as exc:
    if not ctrl_c_in(exc):
        raise
    raise SystemExit(stopped()) from None
if CTRL_C.is_set():  # a Ctrl-C that Python's import machinery swallowed (said as "Exception ignored in ...") stops too
    raise SystemExit(stopped())


def camera_settings(args: argparse.Namespace) -> CameraSettings | None:
    """The settings of the camera ``calibrate`` opens (``--exposure-ms``, ``--gain`` over the
    defaults the table uses too), or None for a recording or an image."""
    if args.camera is None and not args.picamera:
        return None
    return CameraSettings().adjusted(exposure_ms=args.exposure_ms, gain=args.gain)


def _open_source(args: argparse.Namespace) -> FrameStream:
    settings = camera_settings(args)
    if args.camera is not None:
        return UvcCamera(args.camera, settings=settings or CameraSettings())
    if args.picamera:
        return PiCamera(settings=settings or CameraSettings())
    if args.video:
        return open_video(Path(args.video))
    if args.frames:
        return FrameFolder(Path(args.frames), fps=30)
    raise ClipError("no source: give --camera N (or --camera /dev/videoN), --picamera, --video FILE, --frames DIR or --image FILE")


def cmd_calibrate(args: argparse.Namespace) -> int:
    if camera_settings(args) is None and (args.exposure_ms is not None or args.gain is not None):
        raise ClipError("--exposure-ms and --gain set a camera's exposure: they go with --camera or --picamera, "
                        "not with a recording or an image")
    if args.image:
        frame = cv2.imread(args.image, cv2.IMREAD_COLOR)
        if frame is None:
            raise ClipError(f"{args.image}: cannot be read as an image")
        frames = [frame]
    else:
        with _open_source(args) as source:
            for _ in range(args.skip):  # frames taken before the camera applied its exposure and gain
                source.read()
            frames = [f for _, f in zip(range(args.count), source.frames())]
        if not frames:
            raise ClipError("the source gave no frame")
    try:
        cal = calibrate(frames, args.seats, camera=camera_settings(args))
    except CalibrationError as exc:
        for problem in exc.problems:
            print(f"calibration: {problem}", file=sys.stderr)
        return EXIT_PROBLEM
    try:
        cal.save(Path(args.out))
    except OSError as exc:
        raise ClipError(f"{args.out}: the calibration cannot be written ({exc.strerror or exc})") from None
    for warning in cal.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    print(f"calibrated {cal.seat_count} seats, {cal.px_per_cm:.1f} px/cm on the table, median brightness "
          f"{cal.brightness:.0f}: saved {args.out}")
    return 0


def cmd_markers(args: argparse.Namespace) -> int:
    paths = sheet.write_sheets(Path(args.out), dpi=args.dpi, seats=args.seats)
    for p in paths:
        print(p)
    print(f"print at 100 % ({args.dpi} dpi, A4); check the 10 cm scale bar")
    return 0


def cmd_judge(args: argparse.Namespace) -> int:
    calibration = Calibration.load(Path(args.calibration)) if args.calibration else None
    try:
        verdict = judge_clip(Path(args.clip), calibration=calibration)
    except CalibrationError as exc:
        more = f" (and {len(exc.problems) - 1} more)" if len(exc.problems) > 1 else ""
        raise ClipError(f"{args.clip}: cannot calibrate from its first frames: {exc.problems[0]}{more}") from None
    if args.json:
        summary = {**verdict.as_json(), "needs_godfather": verdict.needs_godfather,
                   "confidence": round(verdict.confidence, 3)}
        print(json.dumps({**verdict.details(), **summary} if args.details else summary))
        return 0
    def seats(which: list[int]) -> str:
        return ", ".join(f"seat {seat}" for seat in which) or "no one"

    why = "" if verdict.reason == "judged" else f" ({verdict.reason})"
    print(f"knocked over: {seats(verdict.knocked)}; touched: {seats(verdict.touched)}; confidence {verdict.confidence:.2f}"
          f"{'; the Godfather decides' if verdict.needs_godfather else ''}{why}")
    for seat, ev in verdict.seats.items():
        print(f"  seat {seat}: {ev.outcome.value:8s} {ev.confidence:.2f}  {ev.reason}")
    return 0


def cmd_synth(args: argparse.Namespace) -> int:
    specs = synth.clip_set(args.count, seed=args.seed)
    out = Path(args.out)
    for i, spec in progress(enumerate(specs), len(specs), "rendering clips"):
        synth.write_clip(synth.render_clip(spec), out / f"clip{i:04d}", video=args.video)
    print(f"wrote {len(specs)} clip{'' if len(specs) == 1 else 's'} under {out}")
    return 0


def cmd_aims(args: argparse.Namespace) -> int:

    from vision.aim_clips import read_aim_clip

    calibration = Calibration.load(Path(args.calibration)) if args.calibration else None
    reading = read_aim_clip(Path(args.clip), calibration=calibration)
    if args.json:
        print(json.dumps(reading.details() if args.details else reading.as_json()))
        return 0
    unsure = ", ".join(map(str, reading.unsure))
    decides = f"  (the Godfather decides: seat{'s' if len(reading.unsure) > 1 else ''} {unsure})" if reading.unsure else ""
    print(f"aims read, confidence {reading.confidence:.2f}{decides}")
    for seat, aim in sorted(reading.seats.items()):
        target = "no one" if aim.target is None else f"seat {aim.target}"
        print(f"  seat {seat}: {target}{' (late)' if aim.late else ''}  {aim.confidence:.2f}  {aim.reason}")
    return 0


def cmd_synth_aims(args: argparse.Namespace) -> int:
    from vision import aim_synth

    specs = aim_synth.clip_set(args.count, seed=args.seed)
    out = Path(args.out)
    for i, spec in progress(enumerate(specs), len(specs), "rendering aim clips"):
        aim_synth.write_clip(aim_synth.AimScene(spec), out / f"aims{i:04d}", video=args.video)
    print(f"wrote {len(specs)} aim clip{'' if len(specs) == 1 else 's'} under {out}")
    return 0


def camera_device(text: str) -> int | str:
    """A webcam as ``--camera`` takes it: a number, a device path, or table.toml's ``webcam:...``."""
    device = text.removeprefix("webcam:")
    if device.isdigit():
        return int(device)
    if not device.startswith("/"):
        raise argparse.ArgumentTypeError(f"{text!r}: a webcam number (0) or a device path (/dev/video0)")
    return device


def _whole(low: int, high: int | None = None) -> Callable[[str], int]:
    """An ``argparse`` type for a whole number from ``low`` (to ``high``)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or value < low or (high is not None and value > high):
            span = f"from {low} to {high}" if high is not None else f"from {low}"
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number {span}")
        return value

    parse.__name__ = "whole number"
    return parse


SEATS = _whole(1, 9)
COUNT = _whole(1, 100_000)
SEED = _whole(0)


def _setting(key: str) -> Callable[[str], float]:
    """An ``argparse`` type for the camera setting ``key`` (``exposure_ms``, ``gain``), checked as
    the table's ``[camera]`` section checks it."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = float("nan")
        why = CameraSettings().problem(key, value, shown=repr(text))
        if why:
            raise argparse.ArgumentTypeError(why)
        return value

    parse.__name__ = key  # argparse names the option's type in its error
    return parse


def build_parser(prog: str = "python -m vision") -> argparse.ArgumentParser:
    parser = OneLineParser(prog=prog, description='Camera referee: Shuriken throws, and the aims at the "3".')
    parser.add_argument("-v", "--verbose", action="store_true", help="log what the judge does")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("calibrate", help="find the markers, check them and the light, save a calibration")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--camera", type=camera_device, metavar="N|DEVICE",
                     help="a UVC webcam: its number N (/dev/videoN) or its device path (/dev/video0, /dev/v4l/by-id/...),"
                          " as table.toml's webcam:... names it")
    src.add_argument("--picamera", action="store_true", help="the Raspberry Pi camera")
    src.add_argument("--video", help="a video file")
    src.add_argument("--frames", help="a folder of numbered frames")
    src.add_argument("--image", help="one still image")
    p.add_argument("--seats", type=SEATS, help="seats at the table, 1 to 9 (default: as many as crown markers seen)")
    p.add_argument("--count", type=_whole(1, 1000), default=5, help="frames to look at (default 5)")
    p.add_argument("--exposure-ms", type=_setting("exposure_ms"), metavar="MS",
                   help="a camera's exposure in milliseconds, as table.toml's [camera] exposure_ms (default 8:"
                        " calibrate with the settings the table plays with)")
    p.add_argument("--gain", type=_setting("gain"),
                   help="a camera's gain, as table.toml's [camera] gain: a Pi camera's analogue gain (1: none),"
                        " a webcam's own gain value (v4l2-ctl --list-ctrls shows its range) (default 1)")
    p.add_argument("--skip", type=_whole(0, 10_000), default=0,
                   help="frames to drop first, taken before a camera applied its exposure and gain, e.g. 30 (default 0)")
    p.add_argument("--out", default="calibration.json", help="where to save the calibration (default calibration.json)")
    p.set_defaults(run=cmd_calibrate)

    p = sub.add_parser("markers", help="write the printable marker sheets")
    p.add_argument("--out", default="markers", help="folder to write the sheets into (default: markers, in the current"
                                                     " folder; the repository's own are in hardware/markers)")
    p.add_argument("--dpi", type=_whole(72, 1200), default=300, help="print resolution of the sheets, 72 to 1200 (default 300)")
    p.add_argument("--seats", type=SEATS, default=9, help="seats to print markers for, 1 to 9 (default 9)")
    p.set_defaults(run=cmd_markers)

    p = sub.add_parser("judge", help="judge a recorded throw")
    p.add_argument("clip", help="folder with clip.json and video.avi or frames/")
    p.add_argument("--json", action="store_true", help='print {"knocked": [...], "touched": [...], "needs_godfather": bool, "confidence": x}')
    p.add_argument("--details", action="store_true", help="with --json: add confidence and per-seat evidence")
    p.add_argument("--calibration", help="a saved calibration (default: calibrate from the clip's first frames)")
    p.set_defaults(run=cmd_judge)

    p = sub.add_parser("synth", help="render labelled synthetic clips (truth.json beside each)")
    p.add_argument("out", help="folder to write the clips into")
    p.add_argument("--count", type=COUNT, default=10, help="number of clips (default 10)")
    p.add_argument("--seed", type=SEED, default=0, help="random seed, from 0: the same seed renders the same clips (default 0)")
    p.add_argument("--video", action="store_true", help="write video.avi (MJPG) instead of PNG frames")
    p.set_defaults(run=cmd_synth)

    p = sub.add_parser("aims", help="read who aims at whom in a recorded aim count")
    p.add_argument("clip", help='folder with clip.json ({"fps", "seats", "three_at"}) and video.avi or frames/')
    p.add_argument("--json", action="store_true", help='print {"aims": {...}, "late": [...], "needs_godfather", "confidence"}')
    p.add_argument("--details", action="store_true", help="with --json: add the evidence per seat")
    p.add_argument("--calibration", help="a saved calibration (default: find the table in the clip's first frames, "
                                         "or in frames spread over it when a corner or a standee is covered there)")
    p.set_defaults(run=cmd_aims)

    p = sub.add_parser("synth-aims", help="render labelled synthetic aim clips (truth.json beside each)")
    p.add_argument("out", help="folder to write the clips into")
    p.add_argument("--count", type=COUNT, default=10, help="number of clips (default 10)")
    p.add_argument("--seed", type=SEED, default=0, help="random seed, from 0: the same seed renders the same clips (default 0)")
    p.add_argument("--video", action="store_true", help="write video.avi (MJPG) instead of PNG frames")
    p.set_defaults(run=cmd_synth_aims)
    return parser


def main(argv: list[str] | None = None, prog: str = "python -m vision") -> int:
    """``prog``: the command as the user typed it (``cashnguns vision`` when the controller runs it)."""
    try:
        args = build_parser(prog).parse_args(argv)
        show_logs(args.verbose, level=logging.INFO if args.verbose else logging.WARNING)
        opencv_warnings(shown=args.verbose)
        code: int = args.run(args)
        return code
    except VisionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    except OSError as exc:  # a folder or file to write that cannot be (a file in the way, no room, no right)
        why = "a file is where a folder must be made" if isinstance(exc, (FileExistsError, NotADirectoryError)) else exc.strerror or exc
        print(f"error: {exc.filename or ''}: cannot be written: {why}", file=sys.stderr)
        return EXIT_UNREADABLE
    except KeyboardInterrupt:
        return stopped()
    except Exception as exc:
        if ctrl_c_in(exc):
            return stopped()
        raise


if __name__ == "__main__":
    sys.exit(main())
