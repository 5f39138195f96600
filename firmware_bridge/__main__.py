"""Command line for the hub.

    python -m firmware_bridge install [--port PORT]    copy the firmware to a Pico (needs mpremote)
                                                       and restart it; a hub already running there is
                                                       first asked to give the REPL back
    python -m firmware_bridge sim [options]            run a simulated hub on a pseudo-terminal until Ctrl-C
    python -m firmware_bridge watch URL [--seats N]    print a hub's standee changes and link statistics
"""

from __future__ import annotations

import sys

try:  # the first module loaded: a Ctrl-C before it is in place is one line too
    from .ctrl_c import ctrl_c_in, stopped
except KeyboardInterrupt:
    print("\nStopped.", file=sys.stderr)
    raise SystemExit(130) from None

try:  # a Ctrl-C while Python loads the modules is one line too
    import argparse
    import importlib.util
    import logging
    import math
    import os
    import shutil
    import subprocess
    import threading
    import time
    from collections.abc import Callable
    from pathlib import Path
    from typing import TYPE_CHECKING

    from . import FIRMWARE_DIR
    from .cli import OneLineParser, show_logs
except KeyboardInterrupt:
    raise SystemExit(stopped()) from None

if TYPE_CHECKING:
    from .driver import HubDriver

PICO_USB_VENDOR = 0x2E8A  # Raspberry Pi
HELLO_SECONDS = 5.0  # `watch`: how long a hub may take to answer before the watch says it is still trying
SUMMARY_SECONDS = 10.0  # `watch`: the link's statistics, this often
FIRMWARE_FILES = ("hub_proto.py", "hub_link.py", "hub_tilt.py", "hub_lights.py", "hub_clock.py", "hub_core.py", "hub_board.py", "main.py")


def install_command(port: str | None, mpremote: str | list[str] = "mpremote") -> list[str]:
    """The mpremote command line that copies the firmware and restarts the Pico."""
    connect = ["connect", port] if port else []
    files = [str(FIRMWARE_DIR / name) for name in FIRMWARE_FILES]
    program = [mpremote] if isinstance(mpremote, str) else list(mpremote)
    return [*program, *connect, "cp", *files, ":", "+", "reset"]


def find_mpremote() -> list[str] | None:
    """How to run mpremote: the one installed beside this Python (a virtual environment's ``bin``,
    which is not on the PATH of ``sudo -u`` nor of an environment that is not activated), the
    module importable here, or the one on the PATH."""
    beside = Path(sys.executable).parent / "mpremote"  # not resolved: a venv's python is a link
    if beside.is_file() and os.access(beside, os.X_OK):
        return [str(beside)]
    if importlib.util.find_spec("mpremote") is not None:
        return [sys.executable, "-m", "mpremote"]
    found = shutil.which("mpremote")
    return [found] if found else None


def find_pico() -> str | None:
    """The serial port of the one Raspberry Pi Pico plugged in, if exactly one is."""
    from serial.tools import list_ports

    picos = [p.device for p in list_ports.comports() if p.vid == PICO_USB_VENDOR]
    return picos[0] if len(picos) == 1 else None


def stop_running_hub(port: str) -> bool:
    """Ask hub firmware already running on ``port`` to give the REPL back (it ignores Ctrl-C).
    False, with one line said, when another program holds the port."""
    import serial

    from .driver import IN_USE, open_port, port_in_use
    from .frames import encode
    from .messages import exit_to_repl

    try:
        with open_port(port, baudrate=115_200, timeout=0.2) as link:
            link.write(encode(None, 0, exit_to_repl()))
            link.flush()
            time.sleep(0.3)
    except (serial.SerialException, OSError, ValueError) as exc:
        if port_in_use(exc):
            print(f"error: {port} is {IN_USE}", file=sys.stderr)
            return False
        print(f"warning: could not open {port} to stop a running hub: {exc}", file=sys.stderr)
    return True


def install(port: str | None) -> int:
    mpremote = find_mpremote()
    if mpremote is None:
        pip = Path(sys.executable).parent / "pip"
        print(f"error: mpremote is not installed beside {sys.executable} nor on the PATH ({pip} install mpremote),"
              " so the firmware cannot be copied to the Pico", file=sys.stderr)
        return 2
    missing = [name for name in FIRMWARE_FILES if not (FIRMWARE_DIR / name).is_file()]
    if missing:
        print(f"error: firmware files missing from {FIRMWARE_DIR}: {', '.join(missing)}", file=sys.stderr)
        return 2
    port = port or find_pico()
    if port and not stop_running_hub(port):
        return 2
    command = install_command(port, mpremote)
    print(" ".join(command), flush=True)
    result = subprocess.run(command)
    if result.returncode != 0:
        print(f"error: mpremote failed ({result.returncode}) copying the firmware to {port or 'the first Pico found'}", file=sys.stderr)
    return result.returncode


def run_sim(args: argparse.Namespace) -> int:
    from .sim import Faults, SimHub

    faults = Faults(args.flip, args.drop, args.duplicate, args.delay / 1e3, args.jitter / 1e3)
    with SimHub(transport="pty", seats=args.seats, faults=faults, baudrate=args.baud, seed=args.seed) as sim:
        print(f"simulated hub on {sim.url} (Ctrl-C to stop)", flush=True)
        try:
            while True:
                time.sleep(1)
        except KeyboardInterrupt:
            pass
    return stopped()


def standees(driver: HubDriver, seats: int) -> str:
    """Every standee as the hub reads it now: "standees: seat 0 up, seat 1 down, ..."."""
    read = {None: "unknown", True: "up", False: "down"}
    return "standees: " + ", ".join(f"seat {seat} {read[driver.upright(seat)]}" for seat in range(seats))


def watch(args: argparse.Namespace, stop: threading.Event | None = None) -> int:
    """Until Ctrl-C (exit 130) or ``stop`` (exit 0): the standees once the hub answers, then each change, and
    the link's statistics every 10 s."""
    import serial

    from .driver import IN_USE, Change, HubDriver, open_port, port_in_use, url_problem

    why = url_problem(args.url)
    if why:  # it would be retried for ever and never open
        print(f"error: {why}", file=sys.stderr)
        return 2
    try:  # one look first: a port another program holds is said once, not retried for ever
        open_port(args.url, baudrate=1_000_000, timeout=0).close()
    except (serial.SerialException, OSError, ValueError) as exc:
        if port_in_use(exc):
            print(f"error: {args.url} is {IN_USE}", file=sys.stderr)
            return 2

    def show(change: Change) -> None:
        print(f"{change.time:12.6f}  seat {change.seat}  {'up' if change.up else 'down'}", flush=True)

    driver = HubDriver(args.url, seats=args.seats, on_change=show)
    stop = stop or threading.Event()
    interrupted = False
    driver.start()
    try:
        if not driver.wait_connected(HELLO_SECONDS):
            print(f"no answer yet from the hub at {args.url}: still trying (Ctrl-C to stop)", flush=True)
        while not stop.is_set() and not driver.wait_connected(0.2):
            pass
        if driver.connected:
            print(standees(driver, args.seats), flush=True)
        while not stop.wait(SUMMARY_SECONDS):
            print(driver.summary(), flush=True)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        driver.close()  # its last statistics, before the one line of a Ctrl-C
    return stopped() if interrupted else 0


def main(argv: list[str] | None = None, prog: str = "python -m firmware_bridge") -> int:
    """``prog``: the command as the user typed it (``cashnguns hub`` when the controller runs it)."""
    parser = OneLineParser(prog=prog, description="The USB sensor hub (Raspberry Pi Pico).")
    parser.add_argument("-v", "--verbose", action="store_true", help="log what the link does, with times and names")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("install", help="copy the MicroPython firmware to a Pico with mpremote")
    p.add_argument("--port", help="the Pico's serial port (default: the first one mpremote finds)")
    p = sub.add_parser("sim", help="run a simulated hub on a pseudo-terminal (its path is printed) until Ctrl-C")
    p.add_argument("--seats", type=SEATS, default=9, help="standees on the simulated hub, 1 to 9 (default 9)")
    p.add_argument("--baud", type=number(300, 10_000_000, whole=True), default=None,
                   help="pace bytes at this line rate, 300 to 10000000 (default: no pacing)")
    p.add_argument("--flip", type=FRACTION, default=0.0, help="bit flips per byte, 0 to 1 (default 0)")
    p.add_argument("--drop", type=FRACTION, default=0.0, help="dropped writes, a fraction from 0 to 1 (default 0)")
    p.add_argument("--duplicate", type=FRACTION, default=0.0, help="duplicated writes, a fraction from 0 to 1 (default 0)")
    p.add_argument("--delay", type=MILLISECONDS, default=0.0, help="delivery delay, ms, 0 to 10000 (default 0)")
    p.add_argument("--jitter", type=MILLISECONDS, default=0.0, help="extra random delay 0..N ms, N up to 10000 (default 0)")
    p.add_argument("--seed", type=int, default=None, help="random seed of the line's faults (default: a new one each run)")
    p = sub.add_parser("watch", help="print a hub's standees, each change, and its link's statistics every 10 s")
    p.add_argument("url", help="serial URL: /dev/ttyACM0, socket://host:port, ...")
    p.add_argument("--seats", type=SEATS, default=9, help="standees to show, 1 to 9 (default 9)")
    try:
        args = parser.parse_args(argv)
        show_logs(args.verbose, level=logging.DEBUG if args.verbose else logging.INFO)
        if args.command == "install":
            return install(args.port)
        if args.command == "sim":
            return run_sim(args)
        return watch(args)
    except KeyboardInterrupt:  # at start-up, before a command's own stop
        return stopped()
    except RuntimeError as exc:
        if ctrl_c_in(exc):
            return stopped()
        raise


def number(low: float, high: float, *, whole: bool = False) -> Callable[[str], float]:
    """An ``argparse`` type for a finite number from ``low`` to ``high`` (a whole one with ``whole``)."""

    def parse(text: str) -> float:
        try:
            value: float = int(text) if whole else float(text)
        except ValueError:
            value = math.nan
        if not low <= value <= high:  # NaN too
            raise argparse.ArgumentTypeError(f"{text!r} is not a {'whole ' if whole else ''}number from {low:g} to {high:g}")
        return value

    parse.__name__ = "number"
    return parse


SEATS = number(1, 9, whole=True)
FRACTION = number(0, 1)
MILLISECONDS = number(0, 10_000)


if __name__ == "__main__":
    sys.exit(main())
