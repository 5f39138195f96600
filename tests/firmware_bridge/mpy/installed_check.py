# Run by MicroPython on the files `python -m firmware_bridge install` copies:
# every module imports, and main.py runs with a stub `machine` (and neopixel):
# held at the REPL by SAFE_PIN; resetting the board on a crash; staying at the
# REPL after MAX_QUICK_CRASHES crashes in a row.
import os
import sys

calls = []


class Reset(Exception):
    pass


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 2
    safe_level = 0

    def __init__(self, pin_id, mode=0, pull=None, value=None):
        self.id = pin_id

    def value(self, v=None):
        if v is None:
            return Pin.safe_level if self.id == 22 else 1
        calls.append(("out", self.id, v))


def reset():
    calls.append("reset")
    raise Reset()


class machine:
    pass


machine.Pin = Pin
machine.reset = reset


class NeoPixel:
    fail = False

    def __init__(self, pin, n):
        if NeoPixel.fail:
            raise RuntimeError("no pixels on pin 16")
        self.n = n

    def __setitem__(self, i, rgb):
        pass

    def write(self):
        pass


class neopixel:
    pass


neopixel.NeoPixel = NeoPixel
class os_with_urandom:
    # This MicroPython build (WebAssembly) has no os.urandom; the Pico's has.
    remove = os.remove

    @staticmethod
    def urandom(n):
        return bytes(range(n))


sys.modules["os"] = os_with_urandom
sys.modules["machine"] = machine
sys.modules["neopixel"] = neopixel

for name in ("hub_proto", "hub_link", "hub_tilt", "hub_lights", "hub_clock", "hub_core", "hub_board"):
    __import__(name)
    print("imported", name)


def run_main():
    sys.modules.pop("main", None)
    try:
        import main  # noqa: F401  (running main.py is the point)
        return "returned"
    except Reset:
        return "reset"


print("safe pin", run_main(), calls.count("reset"))
Pin.safe_level = 1
NeoPixel.fail = True
for i in range(4):
    print("crash", i + 1, run_main(), calls.count("reset"), open("crash.count").read())
log = open("crash.log").read()
print("log names the error", "no pixels on pin 16" in log, log.count("crash after"))
print("log says it stays", "staying at the REPL: 3 crashes in a row" in log)
os.remove("crash.log")
os.remove("crash.count")
