"""Opening the table's devices from a configuration: Pi pins or the USB sensor hub."""

from __future__ import annotations

import logging
import os
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from gpiozero.exc import BadPinFactory, PinFactoryFallback
from gpiozero.pins import Factory

from ..errors import DeviceError, HubError
from .clock import Clock, ManualClock, MonotonicClock
from .interfaces import CountLights, SeatLights, Speaker, TiltSource
from .judge import StandeeJudge
from .lamps import PinCountLights, PinSeatLights
from .pinout import DevicesConfig
from .recording import RecordingSpeaker
from .simulation import ClockedMockFactory, ScriptedTable
from .sounds import prepare_sounds
from .speakers import AplaySpeaker, BuzzerSpeaker
from .tilt import PinTiltSensors
from .vocabulary import CLIP_KEYS

if TYPE_CHECKING:
    from .hub_backend import HubBackend

log = logging.getLogger(__name__)

DEVICE_TREE_MODEL = Path("/proc/device-tree/model")
"""The board's name as the kernel reads it from the device tree ("Raspberry Pi 5 Model B Rev 1.0")."""


class NoGpioPins(DeviceError, RuntimeError):
    """No pin library can drive the GPIO pins. ``on_pi`` tells a Raspberry Pi whose pins cannot be
    opened (permissions, a missing library) from a machine without them."""

    def __init__(self, message: str, *, on_pi: bool) -> None:
        super().__init__(message)
        self.on_pi = on_pi


def board_model(path: Path | None = None) -> str | None:
    """The Raspberry Pi model this runs on, or None when it is not a Raspberry Pi."""
    try:
        with open(path or DEVICE_TREE_MODEL, "rb") as f:
            model = f.read(256).rstrip(b"\0").decode("ascii", "replace").strip()
    except OSError:
        return None
    return model if "Raspberry Pi" in model else None


def _no_gpio_pins(reasons: list[str]) -> NoGpioPins:
    """Why gpiozero found no pin library, in one line: on a Pi, its reasons (a permission, a
    library the environment cannot see), never an advice to simulate the pins."""
    model = board_model()
    if model is None:
        return NoGpioPins("no GPIO pins here (not a Raspberry Pi): set GPIOZERO_PIN_FACTORY=mock to simulate them,"
                          " or devices.backend = \"hub\"", on_pi=False)
    why = "; ".join(dict.fromkeys(" ".join(r.split()) for r in reasons)) or "no pin library could be loaded"
    hints = ["is this user in the gpio group?",
             "does the virtual environment see lgpio (made with --system-site-packages, or pip install lgpio)?"]
    if ".lgd-nfy" in why:
        hints.insert(0, "lgpio writes into the working directory: run from a folder this user may write, such as its home")
    return NoGpioPins(f"the GPIO pins of this {model} cannot be opened ({why}): {' '.join(hints)}", on_pi=True)


@dataclass
class TableDevices:
    """The open devices, and the judge that referees them.  ``close()`` releases them all."""

    config: DevicesConfig
    clock: Clock
    tilt: TiltSource
    lights: SeatLights
    count_lights: CountLights
    speaker: Speaker
    judge: StandeeJudge
    pin_factory: object | None = None
    """The gpiozero pin factory in use when it was chosen here (mock pins), else ``None``."""
    _closers: list[Callable[[], None]] = field(default_factory=list, repr=False)

    def close(self) -> None:
        _close_all(self._closers)

    def __enter__(self) -> TableDevices:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def mock_pins_requested() -> bool:
    """``GPIOZERO_PIN_FACTORY=mock``: simulate the pins (on the controller clock)."""
    return os.environ.get("GPIOZERO_PIN_FACTORY", "").lower() == "mock"


def open_devices(
    config: DevicesConfig,
    *,
    clock: Clock | None = None,
    pin_factory: Factory | None = None,
    mock_pins: bool | None = None,
) -> TableDevices:
    """Open every device ``config`` names, on ``clock`` (default: a real monotonic clock).

    ``pin_factory`` defaults to gpiozero's own choice; with ``mock_pins`` (default:
    ``GPIOZERO_PIN_FACTORY=mock``) it is mock pins that stamp their edges with ``clock``.
    """
    closers: list[Callable[[], None]] = []
    if clock is None:
        clock = MonotonicClock()
        closers.append(clock.close)
    if mock_pins is None:
        mock_pins = mock_pins_requested()
    if pin_factory is None and mock_pins:
        pin_factory = ClockedMockFactory(clock)
        closers.append(pin_factory.close)
    fallbacks: list[warnings.WarningMessage] = []
    try:
        with warnings.catch_warnings(record=True) as fallbacks:  # gpiozero's search for a pin library:
            warnings.simplefilter("always", PinFactoryFallback)  # for the log, not the player's terminal
            tilt, lights, count_lights = _open_backend(config, clock, pin_factory, closers)
        for fallback in fallbacks:
            if issubclass(fallback.category, PinFactoryFallback):
                log.debug("%s", fallback.message)
            else:
                warnings.warn_explicit(fallback.message, fallback.category, fallback.filename, fallback.lineno)
        speaker = _open_speaker(config, clock, pin_factory)
        closers.append(speaker.close)
        judge = StandeeJudge(
            tilt=tilt,
            lights=lights,
            count_lights=count_lights,
            speaker=speaker,
            clock=clock,
            timing=config.timing,
            seats=config.seats,
        )
        closers.append(judge.close)
    except BadPinFactory as exc:
        _close_all(closers)
        reasons = [str(f.message) for f in fallbacks if issubclass(f.category, PinFactoryFallback)]
        raise _no_gpio_pins(reasons or [str(exc)]) from None
    except Exception:
        _close_all(closers)
        raise
    return TableDevices(config, clock, tilt, lights, count_lights, speaker, judge, pin_factory, closers)


def open_simulated(config: DevicesConfig, *, start: float = 0.0, stand: bool = True) -> tuple[TableDevices, ScriptedTable]:
    """The devices of ``config`` on mock pins and a :class:`ManualClock`, with a script player.

    Sound goes to a recording speaker unless the config asks for the buzzer.
    With ``stand``, every standee is upright and settled when the clock reads ``start``.
    """
    if config.backend != "gpio":
        raise ValueError("only the gpio backend can be simulated with mock pins")
    if config.sound.output == "aplay":
        config = replace(config, sound=replace(config.sound, output="none"))
    settle = config.timing.debounce + config.timing.settle
    clock = ManualClock(start - settle if stand else start)
    factory = ClockedMockFactory(clock)
    devices = open_devices(config, clock=clock, pin_factory=factory)
    script = ScriptedTable(factory, config.tilt_pins[: config.seats])
    if stand:
        script.stand(range(config.seats))
        clock.advance_to(start)
    return devices, script


def _open_backend(
    config: DevicesConfig, clock: Clock, pin_factory: Factory | None, closers: list[Callable[[], None]]
) -> tuple[TiltSource, SeatLights, CountLights]:
    seats = config.seats
    if config.backend == "hub":
        hub = _hub_backend()(config.hub_url, seats=seats, clock=clock)
        closers.append(hub.close)
        return hub.tilt, hub.lights, hub.count_lights
    tilt = PinTiltSensors(config.tilt_pins[:seats], clock=clock, debounce=config.timing.debounce, pin_factory=pin_factory)
    closers.append(tilt.close)
    lights = PinSeatLights(config.seat_led_pins[:seats], kind=config.seat_led_kind, clock=clock, pin_factory=pin_factory)
    closers.append(lights.close)
    count_lights = PinCountLights(config.count_led_pins, pin_factory=pin_factory)
    closers.append(count_lights.close)
    return tilt, lights, count_lights


def _hub_backend() -> type[HubBackend]:
    """The hub adapter, imported only when a hub is used (it needs pyserial and the firmware's sources)."""
    try:
        from firmware_bridge.errors import BridgeError
    except ImportError as exc:
        raise HubError(f"the hub backend cannot be loaded: {exc}") from None
    try:
        from .hub_backend import HubBackend
    except BridgeError as exc:
        raise HubError(str(exc)) from None
    except ImportError as exc:
        raise HubError(f"the hub backend cannot be loaded: {exc} (pip install pyserial)") from None
    return HubBackend


def _open_speaker(config: DevicesConfig, clock: Clock, pin_factory: Factory | None) -> Speaker:
    sound = config.sound
    if sound.output == "buzzer":
        assert config.buzzer_pin is not None  # checked by the config
        return BuzzerSpeaker(config.buzzer_pin, clock=clock, pin_factory=pin_factory)
    if sound.output == "aplay":
        library = prepare_sounds(sound.language, cache_dir=sound.cache_dir, engine=sound.engine)
        return AplaySpeaker(library, device=sound.alsa_device or None)
    return RecordingSpeaker(clock=clock, known=CLIP_KEYS)


def _close_all(closers: list[Callable[[], None]]) -> None:
    while closers:
        try:
            closers.pop()()
        except Exception:
            log.exception("closing a device failed")
