"""The hub firmware run by MicroPython 1.27 itself (its WebAssembly build under
Node, see mpy_hub.py), not only by CPython: the codec, the link, the hub core
against the host's real driver, its heap, and the installed file set."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from bridge_helpers import recorded_at_least, wait_for
from mpy_hub import RUNNER_DIR, MpyHub, run_script

from firmware_bridge import FIRMWARE_DIR
from firmware_bridge import __main__ as cli
from firmware_bridge.driver import Change, HubDriver
from firmware_bridge.sim import Faults

PICO_HEAP = 190 * 1024  # what MicroPython has of the RP2040's RAM
WRAP_SOON = 2**32 - 3_000_000  # the 32-bit event stamps wrap 3 s into the run


def both(script: str) -> str:
    """Run ``script`` (from mpy/) under MicroPython and CPython; they must print the same."""
    source = (RUNNER_DIR / script).read_text()
    mpy = run_script(source)
    assert mpy.returncode == 0, mpy.stderr
    cpy = subprocess.run([sys.executable, str(RUNNER_DIR / script)], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(FIRMWARE_DIR)}, timeout=60)
    assert cpy.returncode == 0, cpy.stderr
    assert mpy.stdout == cpy.stdout
    return mpy.stdout


def test_without_node_the_tests_skip_with_the_reason_and_fail_under_ci(monkeypatch):
    import mpy_hub

    monkeypatch.setattr(mpy_hub.shutil, "which", lambda name: None)
    with pytest.raises(pytest.skip.Exception, match="node is not installed .*apt-get install nodejs npm"):
        mpy_hub.require_runner({})
    with pytest.raises(pytest.fail.Exception, match="unavailable under CI: node is not installed"):
        mpy_hub.require_runner({"CI": "true"})


def test_a_failing_npm_install_is_named(monkeypatch, tmp_path):
    import mpy_hub

    monkeypatch.setattr(mpy_hub, "PACKAGE", tmp_path / "missing.mjs")
    monkeypatch.setattr(mpy_hub, "RUNNER_DIR", tmp_path)  # no package.json: npm ci fails
    which = shutil.which
    if which("npm") is None:
        pytest.skip("npm is not installed")
    monkeypatch.setattr(mpy_hub.shutil, "which", lambda name: "/usr/bin/node" if name == "node" else which(name))
    with pytest.raises(mpy_hub.RunnerUnavailable, match=f"npm ci in {tmp_path} failed"):
        mpy_hub.ensure_runner()


def test_the_runner_is_micropython(micropython):
    out = run_script("import sys\nprint(sys.implementation.name, sys.implementation.version[:2])\n")
    assert out.stdout.split() == ["micropython", "(1,", "27)"]


def test_codec_vectors_under_micropython(micropython):
    lines = both("codec_vectors.py").splitlines()
    assert lines[:3] == ["crc 6f91", "crc-empty ffff", "crc-slice 6f91"]  # the catalogue's check value
    assert "enc 6 060000efea7e" in lines  # a bare ack: LEN SEQ ACK CRC SYNC
    assert "enc 9 090583017e7ea9057e" in lines  # SYNC bytes inside a payload, unescaped
    decoded = [line.split() for line in lines if line.startswith("dec ")]
    assert len(decoded) == 5
    # every chunking finds the same 4 frames, 1 CRC error, and holds back "13 37..."
    assert {tuple(d[2:]) for d in decoded} == {tuple(decoded[0][2:])}
    assert decoded[0][2:6] == ["4", "1", "108", "13"]
    assert "layout HEARTBEAT_LAYOUT 17" in lines and "sizes True 11" in lines


def test_link_under_micropython(micropython):
    out = dict(line.split(" ", 1) for line in both("link_check.py").splitlines())
    assert out["delivered"] == "600 True"  # every payload once, in order
    hub_tx, frames_tx, retransmits, rto, srtt = map(int, out["hub"].split())
    rx_expected, frames_rx, duplicates, out_of_order = map(int, out["host"].split())
    assert retransmits > 0 and duplicates > 0 and out_of_order > 0  # the faults were felt
    assert hub_tx == rx_expected == 600 % 128
    assert 25_000 <= rto <= 1_000_000 and srtt > 0


def _flip_until(hub: MpyHub, n: int, rng: random.Random, mask: int) -> int:
    """Flip random sets of standees until the firmware has recorded ``n`` more changes."""
    target = len(hub.recorded) + n
    while len(hub.recorded) < target:
        flips = rng.getrandbits(hub.seats) or 1
        before = len(hub.recorded)
        want = bin(flips).count("1")
        mask ^= flips
        hub.set_levels(mask)
        wait_for(recorded_at_least(hub, before + want), 10, "MicroPython to record the changes", poll=0.0005)
    return mask


def test_hub_core_end_to_end_under_micropython(micropython):
    """HELLO, clock sync, snapshot, 2,000 changes through bit flips and dropped
    frames both ways and an unplug: each arrives once, in order, with its time
    (across the wrap of ticks_us() and of the 32-bit event stamps)."""
    faults = Faults(bit_flip_rate=1e-3, drop_rate=0.02)
    got: list[Change] = []
    with MpyHub(transport="pty", seats=9, faults=faults, seed=5, debounce_us=0, clock_start_us=WRAP_SOON) as hub:
        driver = HubDriver(hub.url, seats=9, on_change=got.append)
        driver.start()
        try:
            assert driver.wait_connected(20)  # HELLO answered, snapshot taken
            assert [driver.upright(s) for s in range(9)] == [True] * 9
            time.sleep(0.5)  # clock samples
            rng = random.Random(7)
            mask = _flip_until(hub, 1000, rng, (1 << 9) - 1)
            hub.unplug()
            mask = _flip_until(hub, 200, rng, mask)  # queued on the hub meanwhile
            time.sleep(0.3)
            hub.plug()
            time.sleep(max(0.0, hub.ticks_wrap + 0.05 - time.monotonic()))  # the rest after ticks_us() wraps
            mask = _flip_until(hub, 800, rng, mask)
            wait_for(lambda: len(got) >= len(hub.recorded), 30, "every change to reach the host")
            time.sleep(0.3)  # room for a stray duplicate
            assert [(c.seat, c.up) for c in got] == [(s, up) for s, up, _ in hub.recorded]
            errors = [abs(c.time - hub.hub_to_host(t)) for c, (_, _, t) in zip(got, hub.recorded)]
            assert max(errors) < 0.02, max(errors)  # stamped on the hub, mapped across the 32-bit wrap
            assert hub.hub_to_host(hub.recorded[-800][2]) > hub.ticks_wrap
            assert hub.hub_to_host(hub.recorded[0][2]) < hub.ticks_wrap, "MicroPython started too slowly to see ticks_us() wrap"
            assert driver.stats.reconnects == 1
            assert driver.stats.crc_errors > 0 and hub.to_host.stats.dropped > 0 and hub.to_hub.stats.dropped > 0
            assert [driver.upright(s) for s in range(9)] == [bool(mask >> s & 1) for s in range(9)]
            driver.set_count_leds(0b101)
            wait_for(lambda: hub.count_masks[-1:] == [0b101], 10, "the count LEDs")
            driver.set_seat_led(2, (255, 128, 0), ((255, 0),))  # held, at the hub's brightness 96/255
            wait_for(lambda: hub.pixel_reports and hub.pixel_reports[-1][2] == (96, 48, 0), 10, "seat 2's LED")
        finally:
            driver.close()


def test_heap_stays_bounded_under_micropython(micropython):
    """Peak live heap through 10,000 changes, a full queue while the host is
    unplugged, and reconnects: within the Pico's 190 KB, and no growth."""
    got: list[Change] = []
    with MpyHub(transport="pty", seats=9, seed=9, debounce_us=0, clock_start_us=2**31) as hub:
        driver = HubDriver(hub.url, seats=9, on_change=got.append)
        driver.start()
        try:
            assert driver.wait_connected(20)
            idle = hub.measure()[0]
            rng = random.Random(3)
            mask = _flip_until(hub, 5000, rng, (1 << 9) - 1)
            after_5000 = min(hub.measure()[0] for _ in range(3))  # the collector is conservative: the least of 3
            mask = _flip_until(hub, 5000, rng, mask)
            after_10000 = min(hub.measure()[0] for _ in range(3))
            full: list[int] = []
            drained: list[int] = []
            for _ in range(3):
                hub.unplug()
                mask = _flip_until(hub, 1200, rng, mask)  # beyond the 1,024 the queue holds
                live, peak, queued, dropped = hub.measure()
                assert queued == 1024 and dropped > 0
                full.append(live)
                hub.plug()
                wait_for(lambda: hub.measure()[2] == 0 and driver.connected, 30, "the queue to drain")
                # just drained, the last frames may still be in flight: the least of 3, as above
                drained.append(min(hub.measure()[0] for _ in range(3)))
            peak = hub.measure()[1]
        finally:
            driver.close()
    # live heap after a collection: no growth with the number of events, nor with reconnects
    assert after_10000 <= after_5000 + 8192, (after_5000, after_10000)
    assert max(drained) - min(drained) <= 8192 and max(drained) <= after_10000 + 8192, drained
    assert max(full) <= idle + 16384, (idle, full)  # the queue's ring is allocated at boot
    assert peak < PICO_HEAP // 3, f"peak live heap {peak} bytes"


def test_installed_files_import_under_micropython(micropython, tmp_path: Path):
    """The files `python -m firmware_bridge install` copies, and only they, run
    under MicroPython: every module imports, and main.py resets on a crash."""
    command = cli.install_command("/dev/ttyACM0", "mpremote")
    copied = [Path(p) for p in command[command.index("cp") + 1:command.index(":")]]
    assert {p.name for p in copied} == {p.name for p in FIRMWARE_DIR.glob("*.py")}
    for p in copied:
        shutil.copy(p, tmp_path / p.name)
    out = run_script((RUNNER_DIR / "installed_check.py").read_text(), firmware_dir=tmp_path)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[:7] == [f"imported {m}" for m in
                         ("hub_proto", "hub_link", "hub_tilt", "hub_lights", "hub_clock", "hub_core", "hub_board")]
    assert lines[7:] == [
        "safe pin returned 0",  # SAFE_PIN held low: the REPL, no hub
        "crash 1 reset 1 1",
        "crash 2 reset 2 2",
        "crash 3 returned 2 0",  # a reset loop cut short: the REPL
        "crash 4 reset 3 1",  # the next power-up tries again
        "log names the error True 4",
        "log says it stays True",
    ]
