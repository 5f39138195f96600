"""Command line for the hub.

    python -m firmware_bridge install [--port PORT]    copy the firmware to a Pico (needs mpremote)
                                                       and restart it; a hub already running there is
                                                       first asked to give the REPL back
    python -m firmware_bridge sim [options]            run a simulated hub on a pty until Ctrl-C
    python -m firmware_bridge watch URL [--seats N]    print a hub's standee changes and link statistics
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from . import FIRMWARE_DIR

PICO_USB_VENDOR = 0x2E8A  # Raspberry Pi
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
    return 0


def watch(args: argparse.Namespace) -> int:
    import serial

    from .driver import IN_USE, Change, HubDriver, open_port, port_in_use

    try:  # one look first: a port another program holds is said once, not retried for ever
        open_port(args.url, baudrate=1_000_000, timeout=0).close()
    except (serial.SerialException, OSError, ValueError) as exc:
        if port_in_use(exc):
            print(f"error: {args.url} is {IN_USE}", file=sys.stderr)
            return 2

    def show(change: Change) -> None:
        print(f"{change.time:12.6f}  seat {change.seat}  {'up' if change.up else 'down'}", flush=True)

    driver = HubDriver(args.url, seats=args.seats, on_change=show)
    driver.start()
    try:
        while True:
            time.sleep(10)
            print(driver.summary(), flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        driver.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m firmware_bridge", description="The USB sensor hub (Raspberry Pi Pico).")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("install", help="copy the MicroPython firmware to a Pico with mpremote")
    p.add_argument("--port", help="the Pico's serial port (default: the first one mpremote finds)")
    p = sub.add_parser("sim", help="run a simulated hub on a pty")
    p.add_argument("--seats", type=int, default=9, help="standees on the simulated hub (default 9)")
    p.add_argument("--baud", type=int, default=None, help="pace bytes at this line rate (default: no pacing)")
    p.add_argument("--flip", type=float, default=0.0, help="bit flips per byte (default 0)")
    p.add_argument("--drop", type=float, default=0.0, help="dropped writes, a fraction (default 0)")
    p.add_argument("--duplicate", type=float, default=0.0, help="duplicated writes, a fraction (default 0)")
    p.add_argument("--delay", type=float, default=0.0, help="delivery delay, ms (default 0)")
    p.add_argument("--jitter", type=float, default=0.0, help="extra random delay 0..N ms (default 0)")
    p.add_argument("--seed", type=int, default=None, help="random seed of the line's faults (default: a new one each run)")
    p = sub.add_parser("watch", help="print a hub's standee changes")
    p.add_argument("url", help="serial URL: /dev/ttyACM0, socket://host:port, ...")
    p.add_argument("--seats", type=int, default=9, help="standees to show (default 9)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.command == "install":
        return install(args.port)
    if args.command == "sim":
        return run_sim(args)
    return watch(args)


if __name__ == "__main__":
    sys.exit(main())
