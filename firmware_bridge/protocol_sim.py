"""pyserial URL handler for ``sim://<name>``: a port onto a running :class:`.sim.SimHub`.

pyserial finds it because :mod:`firmware_bridge.driver` adds ``firmware_bridge``
to ``serial.protocol_handler_packages``; ``serial.serial_for_url("sim://hub1")``
then opens the simulator started with ``SimHub(transport="sim", name="hub1")``.
"""

from __future__ import annotations

import threading
import time
import urllib.parse

from serial.serialutil import PortNotOpenError, SerialBase, SerialException

from . import sim


class Serial(SerialBase):
    def __init__(self, *args: object, **kwargs: object) -> None:
        self._hub: sim.SimHub | None = None
        self._buffer = bytearray()
        self._cond = threading.Condition()
        self._lost = False
        super().__init__(*args, **kwargs)

    def open(self) -> None:
        if self.is_open:
            raise SerialException("Port is already open.")
        if self._port is None:
            raise SerialException("Port must be configured before it can be used.")
        parts = urllib.parse.urlsplit(self._port)
        if parts.scheme != "sim" or not parts.netloc:
            raise SerialException(f"expected sim://<name>, got {self._port!r}")
        hub = sim.lookup(parts.netloc)
        if hub is None:
            raise SerialException(f"{self._port}: no simulated hub of that name is running")
        try:
            hub.connect_port(self)
        except ConnectionError as exc:
            raise SerialException(f"{self._port}: {exc}") from None
        self._hub = hub
        self._lost = False
        self._buffer.clear()
        self.is_open = True

    def close(self) -> None:
        if self._hub is not None:
            self._hub.disconnect_port(self)
            self._hub = None
        with self._cond:
            self.is_open = False
            self._cond.notify_all()

    def _reconfigure_port(self) -> None:
        pass  # a simulated line has no settings

    # called by the simulator
    def received(self, data: bytes) -> None:
        with self._cond:
            self._buffer += data
            self._cond.notify_all()

    def unplugged(self) -> None:
        with self._cond:
            self._lost = True
            self._cond.notify_all()

    # the port's API
    def _check(self) -> None:
        if not self.is_open:
            raise PortNotOpenError()
        if self._lost:
            raise SerialException(f"{self._port}: device disconnected")

    @property
    def in_waiting(self) -> int:
        self._check()
        return len(self._buffer)

    def read(self, size: int = 1) -> bytes:
        deadline = None if self._timeout is None else time.monotonic() + self._timeout
        with self._cond:
            while True:
                self._check()
                if len(self._buffer) >= size or (self._buffer and deadline is not None and time.monotonic() >= deadline):
                    break
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    break
                self._cond.wait(remaining)
            data = bytes(self._buffer[:size])
            del self._buffer[:size]
            return data

    def write(self, data: bytes) -> int:
        self._check()
        hub = self._hub
        if hub is None:
            raise PortNotOpenError()
        hub.from_host(bytes(data))
        return len(data)

    def reset_input_buffer(self) -> None:
        with self._cond:
            self._buffer.clear()

    def reset_output_buffer(self) -> None:
        pass
