# Pico entry point: the hub on USB CDC (the REPL's port).
# Installed by `python -m firmware_bridge install`.  Ctrl-C is off while the hub
# runs (0x03 is data); the install command first sends the hub's EXIT_TO_REPL
# message, which ends it and gives the REPL back.  Holding SAFE_PIN to ground
# at power-up skips the hub altogether.

import machine
import micropython
import neopixel
import os
import select
import sys
import time

import hub_board


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
    hub = hub_board.build(machine, neopixel, time, UsbIo(), boot_id)
    micropython.kbd_intr(-1)       # 0x03 is data here, not Ctrl-C
    try:
        while not hub.exit_requested:
            hub.poll()
    finally:
        micropython.kbd_intr(3)


run()
