"""Ctrl-C is the same in every command (``cashnguns ...``, ``python -m vision``, ``python -m firmware_bridge``):
one short line, exit 130 (what a shell reads for a command stopped by Ctrl-C), never a traceback, whether it
comes while Python loads the command, while it runs, or as a library turns it into another error."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import controller.__main__ as cashnguns
import firmware_bridge.__main__ as hub_cli
import vision.__main__ as vision_cli
from firmware_bridge import ctrl_c

ROOT = Path(__file__).resolve().parents[1]


def _start(argv: list[str], env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    # SIGINT as at a terminal even when the tests run in the background (a background job starts with SIGINT
    # ignored, and a child inherits that)
    return subprocess.Popen([sys.executable, *argv], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def _stopped_while_loading(tmp_path: Path, finder: str, argv: list[str]) -> subprocess.CompletedProcess[str]:
    """``python argv`` with ``finder`` (the body of ``find_spec(name)``) first in line for every import."""
    (tmp_path / "sitecustomize.py").write_text(
        "import signal, sys\n"
        "class Finder:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        + textwrap.indent(textwrap.dedent(finder), " " * 8) + "\n"
        "        return None\n"
        "sys.meta_path.insert(0, Finder())\n")
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}"}
    return subprocess.run([sys.executable, *argv], cwd=tmp_path, capture_output=True, text=True, timeout=60, env=env,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL), check=False)


COMMANDS = [
    ["-m", "controller", "hub", "sim"],
    ["-m", "firmware_bridge", "sim"],
    ["-m", "vision", "synth", "out"],
    ["-m", "controller", "vision", "synth", "out"],
]


@pytest.mark.parametrize("argv", COMMANDS, ids=" ".join)
def test_ctrl_c_before_the_command_can_tell_it(tmp_path, argv):
    """The Ctrl-C comes as the very first module loads, the one that tells a Ctrl-C from an error."""
    done = _stopped_while_loading(tmp_path, """
        if name == "firmware_bridge.ctrl_c":
            raise KeyboardInterrupt
    """, argv)
    assert done.returncode == 130 and done.stderr.strip() == "Stopped.", (done.returncode, done.stderr)


@pytest.mark.parametrize("argv", COMMANDS, ids=" ".join)
def test_ctrl_c_while_python_loads_a_command(tmp_path, argv):
    """The Ctrl-C comes as the command's own modules load (a KeyboardInterrupt out of code run from a string,
    as a dataclass being made: under ``python -m`` Python would die by SIGINT after printing nothing)."""
    done = _stopped_while_loading(tmp_path, """
        if name == "argparse":
            exec("raise KeyboardInterrupt")
    """, argv)
    assert done.returncode == 130 and done.stderr.strip() == "Stopped.", (done.returncode, done.stderr)


@pytest.mark.parametrize("argv", [["-m", "vision", "synth", "out"], ["-m", "controller", "vision", "synth", "out"]], ids=" ".join)
def test_a_ctrl_c_that_a_library_turns_into_another_error_stops_the_command(tmp_path, argv):
    """NumPy's C modules, stopped by a Ctrl-C while they load, raise an ImportError with no trace of it."""
    done = _stopped_while_loading(tmp_path, """
        if name == "cv2":
            try:
                signal.raise_signal(signal.SIGINT)
            except KeyboardInterrupt:
                raise ImportError("PyCapsule_Import could not import module 'datetime'") from None
    """, argv)
    assert done.returncode == 130 and done.stderr.strip() == "Stopped.", (done.returncode, done.stderr)


def test_a_real_import_error_is_still_said(tmp_path):
    done = _stopped_while_loading(tmp_path, """
        if name == "cv2":
            raise ImportError("libGL.so.1: cannot open shared object file")
    """, ["-m", "controller", "vision", "synth", "out"])
    assert done.returncode == 1 and done.stderr.strip() == "vision: cannot be run here: libGL.so.1: cannot open shared object file"


def _wrapped_ctrl_c(*_args, **_kwargs):
    """A Ctrl-C while a class is made: Python 3.11 raises a RuntimeError from it (``__set_name__``)."""

    class Stopped:
        def __set_name__(self, owner, name):
            raise KeyboardInterrupt

    type("Made", (), {"field": Stopped()})


def test_a_ctrl_c_while_a_class_is_made_stops_each_command(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(ctrl_c, "CTRL_C", type(ctrl_c.CTRL_C)())  # no Ctrl-C seen before
    monkeypatch.setattr(cashnguns, "_replay", _wrapped_ctrl_c)
    assert cashnguns.main(["replay", "x.json"]) == 130
    monkeypatch.setattr(hub_cli, "run_sim", _wrapped_ctrl_c)
    assert hub_cli.main(["sim"]) == 130
    monkeypatch.setattr(vision_cli.sheet, "write_sheets", _wrapped_ctrl_c)
    assert vision_cli.main(["markers", "--out", str(tmp_path / "m")]) == 130
    assert capsys.readouterr().err.split() == ["Stopped."] * 3


def test_a_bug_is_still_a_bug(monkeypatch, capsys):
    monkeypatch.setattr(ctrl_c, "CTRL_C", type(ctrl_c.CTRL_C)())

    def bug(_args):
        raise RuntimeError("a bug")

    monkeypatch.setattr(cashnguns, "_replay", bug)
    assert cashnguns.main(["replay", "x.json"]) == cashnguns.EXIT_INTERNAL
    assert "internal error (RuntimeError: a bug)" in capsys.readouterr().err


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("argv, running", [
    (["-m", "firmware_bridge", "sim"], "simulated hub on"),
    (["-m", "controller", "hub", "sim"], "simulated hub on"),
    (["-m", "firmware_bridge", "watch", "socket://127.0.0.1:{port}"], "retrying every"),
    (["-m", "controller", "hub", "watch", "socket://127.0.0.1:{port}"], "retrying every"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_ctrl_c_stops_the_hubs_commands_with_one_line_and_130(argv, running):
    """The simulated hub, and the watch of a hub (here one that never answers), run until Ctrl-C."""
    proc = _start([a.format(port=_free_port()) for a in argv])
    stream = proc.stdout if "sim" in argv else proc.stderr
    seen = []
    end = time.monotonic() + 30
    while time.monotonic() < end and not any(running in line for line in seen):
        line = stream.readline()
        if not line:
            break
        seen.append(line)
    assert any(running in line for line in seen), seen
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    said = "".join(seen) + err if stream is proc.stderr else err
    assert proc.returncode == 130 and said.splitlines()[-1] == "Stopped." and "Traceback" not in said, (proc.returncode, said)


def test_ctrl_c_into_the_readme_commands_reaches_the_command_and_the_bootstrap_waits_for_it():
    """`python3 -m controller.bootstrap demo` runs the demo as its child; a terminal's Ctrl-C reaches both. The child
    stops in its own way (one line, exit 130) and the bootstrap waits for it and exits with its status, without a
    traceback of its own."""
    child = ("import sys, time\n"
             "try:\n"
             "    print('ready', flush=True)\n"
             "    time.sleep(30)\n"
             "except KeyboardInterrupt:\n"
             "    print('Stopped.', file=sys.stderr)\n"
             "    sys.exit(130)\n")
    parent = subprocess.Popen(
        [sys.executable, "-c", "import sys\nfrom controller.bootstrap import run_to_its_end\n"
                               f"sys.exit(run_to_its_end([sys.executable, '-c', {child!r}], cwd=None))"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)}, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert parent.stdout is not None and parent.stdout.readline() == "ready\n"
    os.killpg(parent.pid, signal.SIGINT)  # as a terminal sends it: to the whole foreground group
    _, err = parent.communicate(timeout=30)
    assert parent.returncode == 130 and err == "Stopped.\n"


@pytest.mark.parametrize("argv", [
    ["bench/bench_vision.py", "--skip-cost", "--skip-sets", "--condition-clips", "8", "--conditions", "light:dim",
     "--workers", "2"],
    ["bench/bench_independent.py", "--throws", "0", "--aims", "2", "--seed", "50"],
])
def test_ctrl_c_into_a_benchmark_run_by_hand_stops_it_and_its_workers_with_one_line(argv):
    """As at a terminal: SIGINT to the benchmark's whole process group while it measures, that is once a second
    process runs in it (a worker judging clips, or the command the benchmark runs on a clip)."""
    p = subprocess.Popen([sys.executable, *argv], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, start_new_session=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    end = time.monotonic() + 60
    while len(_group(p.pid)) < 2 and p.poll() is None and time.monotonic() < end:
        time.sleep(0.02)  # polling the process table: there is nothing to block on
    assert p.poll() is None and len(_group(p.pid)) >= 2, "the benchmark never started a second process"
    os.killpg(p.pid, signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130, err
    assert "Traceback" not in out + err, err
    assert err.strip().splitlines()[-1] == "Stopped (Ctrl-C): the measurement is incomplete and was not printed."


def _group(pgid: int) -> list[int]:
    """The processes of process group ``pgid`` (Linux's /proc)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:  # gone meanwhile
                continue
            if int(stat.rsplit(")", 1)[1].split()[2]) == pgid:
                out.append(int(entry.name))
    return out
