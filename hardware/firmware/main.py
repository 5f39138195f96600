# Pico entry point: the hub on USB CDC (the REPL's port).
# Installed by `python -m firmware_bridge install`.  Ctrl-C is off while the hub
# runs (0x03 is data); the install command first sends the hub's EXIT_TO_REPL
# message, which ends it and gives the REPL back.  Holding SAFE_PIN to ground
# at power-up skips the hub altogether.
#
# An uncaught exception would drop the Pico to its REPL with the hub dead until
# replugged.  Instead it is written to CRASH_LOG on the Pico's flash and the
# board resets (the host sees a new boot id and recovers from a snapshot).  A
# reset loop is cut short: after MAX_QUICK_CRASHES crashes in a row, each within
# QUICK_CRASH_MS of power-up, the hub stays at the REPL, where mpremote can
# read CRASH_LOG and reinstall (holding SAFE_PIN low at power-up also gets
# there, whatever the firmware does).

import os
import select
import sys
import time

import hub_board
import machine
import micropython
import neopixel

CRASH_LOG = "crash.log"           # the last crashes, newest last
CRASH_LOG_MAX = 4096              # bytes kept of it
CRASH_COUNT = "crash.count"       # crashes in a row, each soon after power-up
QUICK_CRASH_MS = 30000
MAX_QUICK_CRASHES = 3


class UsbIo:
    def __init__(self):
        self.rx = sys.stdin.buffer
        self.tx = sys.stdout.buffer
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)

    def read(self):
        data = bytearray()
        while len(data) < 256 and self.poller.poll(0):
            data.extend(self.rx.read(1))
        return data

    def write(self, data):
        self.tx.write(data)


def run():
    if machine.Pin(hub_board.SAFE_PIN, machine.Pin.IN, machine.Pin.PULL_UP).value() == 0:
        return
    boot_id = int.from_bytes(os.urandom(2), "big")   # tells the host we restarted
    micropython.kbd_intr(-1)       # 0x03 is data here, not Ctrl-C
    try:
        hub = hub_board.build(machine, neopixel, time, UsbIo(), boot_id)
        # a run that lasts ends a series of quick crashes
        clear_at = None if _read(CRASH_COUNT) in ("", "0") else time.ticks_add(time.ticks_ms(), QUICK_CRASH_MS)
        while not hub.exit_requested:
            hub.poll()
            if clear_at is not None and time.ticks_diff(time.ticks_ms(), clear_at) >= 0:
                _write(CRASH_COUNT, "0")
                clear_at = None
    finally:
        micropython.kbd_intr(3)


def _read(name):
    try:
        with open(name) as f:
            return f.read()
    except OSError:
        return ""


def _write(name, text):
    try:
        with open(name, "w") as f:
            f.write(text)
    except OSError:
        pass                       # a full or read-only flash must not stop the reset


def record_crash(exc, uptime_ms):
    # Log the crash; returns how many crashes in a row came soon after power-up.
    quick = int(_read(CRASH_COUNT) or "0") + 1 if uptime_ms < QUICK_CRASH_MS else 0
    _write(CRASH_COUNT, str(quick))
    old = _read(CRASH_LOG)
    try:
        import io
        buf = io.StringIO()
        sys.print_exception(exc, buf)
        trace = buf.getvalue()
    except Exception:
        trace = repr(exc) + "\n"
    entry = "crash after %d ms (%d in a row soon after power-up):\n%s" % (uptime_ms, quick, trace)
    _write(CRASH_LOG, (old + entry)[-CRASH_LOG_MAX:])
    return quick


def main():
    try:
        run()
    except Exception as exc:       # the hub must not stay dead at the REPL
        try:
            quick = record_crash(exc, time.ticks_ms())
        except Exception:          # not even memory for the log: reset all the same
            quick = 0
        if quick >= MAX_QUICK_CRASHES:
            _write(CRASH_LOG, _read(CRASH_LOG) + "staying at the REPL: %d crashes in a row\n" % quick)
            _write(CRASH_COUNT, "0")   # the next power-up tries again
            return
        machine.reset()


main()
