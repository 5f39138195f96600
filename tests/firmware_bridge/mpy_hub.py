"""The hub firmware run by MicroPython itself (its WebAssembly build under Node).

``mpy/runner.mjs`` loads the firmware into MicroPython 1.27 (the npm package
``@micropython/micropython-webassembly-pyscript``, pinned in
``mpy/package-lock.json``).  :func:`run_script` runs a script there and
returns what it printed; :class:`MpyHub` is a :class:`firmware_bridge.sim.SimHub`
whose firmware runs in MicroPython instead of CPython: the same wires, faults,
pty and replugging, the firmware's pins, clock and byte stream fed through the
runner.

:func:`ensure_runner` installs the package with ``npm ci`` when it is missing.
Where Node or npm cannot be had, :class:`RunnerUnavailable` says why; the
tests skip on it, except under ``CI=true``, where they fail.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from firmware_bridge import FIRMWARE_DIR
from firmware_bridge.sim import TICKS_PERIOD, SimHub

RUNNER_DIR = Path(__file__).resolve().parent / "mpy"
RUNNER = RUNNER_DIR / "runner.mjs"
PACKAGE = RUNNER_DIR / "node_modules" / "@micropython" / "micropython-webassembly-pyscript" / "micropython.mjs"
NPM_TIMEOUT = 300


class RunnerUnavailable(RuntimeError):
    """Node, npm or the MicroPython package cannot be had on this machine."""


_install_lock = threading.Lock()


@contextlib.contextmanager
def _across_processes(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` (another process installing waits for it)."""
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def ensure_runner() -> str:
    """The path of ``node``, with the pinned MicroPython package installed."""
    node = shutil.which("node")
    if node is None:
        raise RunnerUnavailable("node is not installed (Debian: apt-get install nodejs npm; .ci/run does it)")
    with _install_lock, _across_processes(RUNNER_DIR / ".install.lock"):  # the suite may run in several processes
        if not PACKAGE.is_file():
            npm = shutil.which("npm")
            if npm is None:
                raise RunnerUnavailable("npm is not installed (Debian: apt-get install npm), so MicroPython cannot be fetched")
            try:
                result = subprocess.run(
                    [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                    cwd=RUNNER_DIR, capture_output=True, text=True, timeout=NPM_TIMEOUT,
                )
            except subprocess.TimeoutExpired:
                raise RunnerUnavailable(f"npm ci in {RUNNER_DIR} took more than {NPM_TIMEOUT} s") from None
            if result.returncode != 0 or not PACKAGE.is_file():
                last = (result.stderr.strip().splitlines() or ["no message"])[-1]
                raise RunnerUnavailable(f"npm ci in {RUNNER_DIR} failed ({result.returncode}): {last}")
    return node


def require_runner(env: dict[str, str]) -> str:
    """:func:`ensure_runner` for the tests: skip with the reason, or under ``CI=true`` fail."""
    import pytest

    try:
        return ensure_runner()
    except RunnerUnavailable as exc:
        if env.get("CI", "").lower() == "true":
            pytest.fail(f"MicroPython runner unavailable under CI: {exc}")
        pytest.skip(f"MicroPython runner unavailable: {exc}")


@dataclass
class ScriptResult:
    returncode: int
    stdout: str
    stderr: str


def run_script(source: str, *, firmware_dir: Path = FIRMWARE_DIR, timeout: float = 60.0) -> ScriptResult:
    """Run ``source`` in MicroPython with the modules of ``firmware_dir`` importable."""
    node = ensure_runner()
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(source)
    try:
        result = subprocess.run(
            [node, str(RUNNER), str(firmware_dir), "script", f.name],
            capture_output=True, text=True, timeout=timeout,
        )
    finally:
        os.unlink(f.name)
    return ScriptResult(result.returncode, result.stdout, result.stderr)


@dataclass
class MpyHub(SimHub):
    """A simulated hub whose firmware runs in MicroPython (``transport="pty"``)."""

    heap: list[tuple[int, int]] = field(default_factory=list)  # (live, peak) reports
    queue_reports: list[tuple[int, int]] = field(default_factory=list)  # (queued, dropped)
    count_masks: list[int] = field(default_factory=list)
    pixel_reports: list[list[tuple[int, ...]]] = field(default_factory=list)  # the WS2812 chain, as written

    def __post_init__(self) -> None:
        super().__post_init__()
        self._proc: subprocess.Popen[bytes] | None = None
        self._control_w: int | None = None
        self._threads: list[threading.Thread] = []
        self._origin: tuple[int, int, int] = (0, 0, 0)  # runner origin ns, its us at the clock's start, clock start
        self._mask = (1 << self.seats) - 1
        self._cond = threading.Condition()
        self._ready = 0
        self._stdin_lock = threading.Lock()
        self.stderr_lines: list[str] = []
        self.ticks_wrap = 0.0  # host time when the firmware's ticks_us() wraps

    # -- the firmware in MicroPython --------------------------------------------
    def _boot(self) -> None:
        self.boots += 1
        self._hub_io = self  # plug() points the host->hub wire at deliver()
        boot_id = self._rng.getrandbits(16)
        if self._proc is None:
            self._spawn()
            self._send(f"config {self.seats} {self.debounce_us} {boot_id} {self.clock_start_us}")
        else:
            self._send(f"boot {boot_id}")
        self._wait(lambda: self._ready >= self.boots, 30, "MicroPython to build the hub")

    def _spawn(self) -> None:
        node = ensure_runner()
        read_end, write_end = os.pipe()
        self._proc = subprocess.Popen(
            [node, str(RUNNER), str(FIRMWARE_DIR), "hub", str(RUNNER_DIR / "hub_host.py"), str(read_end)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, pass_fds=(read_end,),
        )
        os.close(read_end)
        self._control_w = write_end
        for target in (self._read_stdout, self._read_stderr):
            t = threading.Thread(target=target, daemon=True, name=f"mpy {target.__name__}")
            t.start()
            self._threads.append(t)

    def deliver(self, data: bytes) -> None:
        proc = self._proc
        if proc is None or proc.stdin is None:
            return
        with self._stdin_lock:
            try:
                proc.stdin.write(data)
                proc.stdin.flush()
            except (BrokenPipeError, ValueError):
                pass

    def _send(self, line: str) -> None:
        if self._control_w is not None:
            os.write(self._control_w, (line + "\n").encode())

    def _read_stdout(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        fd = self._proc.stdout.fileno()
        while True:
            data = os.read(fd, 4096)
            if not data:
                return
            self.to_host.push(data)

    def _read_stderr(self) -> None:
        assert self._proc is not None and self._proc.stderr is not None
        for raw in self._proc.stderr:
            line = raw.decode(errors="replace").rstrip("\n")
            words = line.split()
            with self._cond:
                if words[:1] == ["rec"] and len(words) == 4:
                    self.recorded.append((int(words[1]), words[2] == "1", int(words[3])))
                elif words[:1] == ["origin"]:
                    origin_ns, first_ticks, offset, start = (int(w) for w in words[1:5])
                    # runner microseconds when the firmware's clock read `start`
                    self._origin = (origin_ns, (first_ticks - offset) % TICKS_PERIOD, start)
                    self.ticks_wrap = origin_ns / 1e9 + (TICKS_PERIOD - offset) / 1e6
                elif words[:1] == ["ready"]:
                    self._ready += 1
                elif words[:1] == ["heap"]:
                    self.heap.append((int(words[1]), int(words[2])))
                elif words[:1] == ["queue"]:
                    self.queue_reports.append((int(words[1]), int(words[2])))
                elif words[:1] == ["pixels"]:
                    self.pixel_reports.append([tuple(int(c) for c in w.split(",")) for w in words[1:]])
                elif words[:1] == ["count"]:
                    self.count_masks.append(int(words[1]))
                else:
                    self.stderr_lines.append(line)
                self._cond.notify_all()

    def _wait(self, condition: object, timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        with self._cond:
            while not condition():  # type: ignore[operator]
                left = deadline - time.monotonic()
                if left <= 0 or (self._proc is not None and self._proc.poll() is not None):
                    raise AssertionError(f"MicroPython hub: timed out waiting for {what}; its output: {self.stderr_lines[-20:]}")
                self._cond.wait(min(left, 0.1))

    # -- what the tests use -------------------------------------------------------
    def stand(self, seat: int, up: bool) -> None:
        self._mask = self._mask | (1 << seat) if up else self._mask & ~(1 << seat)
        self._send(f"levels {self._mask}")

    def set_levels(self, mask: int) -> None:
        self._mask = mask
        self._send(f"levels {mask}")

    def measure(self) -> tuple[int, int, int, int]:
        """(live heap, peak live heap, events queued, events dropped), measured now in MicroPython."""
        n = len(self.queue_reports)
        self._send("gc")
        self._wait(lambda: len(self.queue_reports) > n, 20, "a heap report")
        (live, peak), (queued, dropped) = self.heap[-1], self.queue_reports[-1]
        return live, peak, queued, dropped

    def hub_to_host(self, clock_us: int) -> float:
        origin_ns, elapsed_us, start = self._origin
        return origin_ns / 1e9 + (elapsed_us + clock_us - start) / 1e6

    @property
    def queued(self) -> int:
        return self.measure()[2]

    @property
    def dropped(self) -> int:
        return self.measure()[3]

    def close(self) -> None:
        if self._control_w is not None:
            os.close(self._control_w)
            self._control_w = None
        proc = self._proc
        if proc is not None:
            if proc.stdin is not None:
                try:
                    proc.stdin.close()
                except BrokenPipeError:
                    pass
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            for t in self._threads:
                t.join(timeout=2)
        super().close()


assert TICKS_PERIOD == 1 << 30  # the runner's ticks wrap as the RP2040's (mpy/runner.mjs)
