"""Device configuration: defaults, overrides, errors that name what is wrong, backend choice."""

import sys
import types
from dataclasses import replace

import pytest

from controller.devices import SeatStatus, load_config, open_devices
from controller.devices.clock import ManualClock
from controller.devices.lamps import PinSeatLights
from controller.devices.opening import open_simulated
from controller.devices.pinout import DEFAULT_PINOUT, build_config, merge, read_toml
from controller.devices.recording import (
    RecordingCountLights,
    RecordingSeatLights,
    RecordingSpeaker,
)
from controller.devices.simulation import ClockedMockFactory
from controller.devices.speakers import BuzzerSpeaker
from controller.devices.tilt import PinTiltSensors


def write(tmp_path, text):
    path = tmp_path / "table.toml"
    path.write_text(text)
    return path


def test_the_default_pin_map_fits_nine_seats_on_a_pi():
    config = load_config()
    assert config.backend == "gpio" and config.seats == 9
    pins = [*config.tilt_pins, *config.seat_led_pins, *config.count_led_pins, config.buzzer_pin]
    assert len(set(pins)) == 22 and all(2 <= p <= 27 for p in pins)
    assert not {2, 3, 14, 15} & set(pins)
    outputs = [*config.seat_led_pins, *config.count_led_pins, config.buzzer_pin]
    assert all(p >= 9 for p in outputs)  # a Pi 4 pulls GPIO0-8 high at boot: no output there
    assert config.reserved_pins == ()
    assert config.timing.count_interval == 0.8 and config.timing.settle == 0.060
    assert config.sources == (DEFAULT_PINOUT,)


def test_an_override_changes_only_what_it_names(tmp_path):
    path = write(tmp_path, '[devices]\nseats = 6\n[sound]\nlanguage = "fr"\n[timing]\ncount_interval = 1.0\n')
    config = load_config(path)
    assert (config.seats, config.sound.language, config.timing.count_interval) == (6, "fr", 1.0)
    assert config.timing.settle == 0.060 and config.tilt_pins == load_config().tilt_pins
    assert config.sources == (DEFAULT_PINOUT, path)


def test_the_override_can_come_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("CASHNGUNS_DEVICES", str(write(tmp_path, "[devices]\nseats = 4\n")))
    assert load_config().seats == 4


@pytest.mark.parametrize(
    "text, message",
    [
        ("[devices]\nseats = 12\n", "devices.seats = 12, expected 1..9"),
        ("[devices]\ncolour = 1\n", "unknown key devices.colour"),
        ("[lights]\n", "unknown section [lights]"),
        ("[timing]\nsettle = -1\n", "timing.settle must be a non-negative number"),
        ("[count_leds]\npins = [9, 10, 4]\n", "pin 4 is used twice: tilt sensor of seat 0 and count LED 3"),
        ('[seat_leds]\nkind = "rgb"\n', "seat_leds.pins for seat 0 must be [red, green, blue]"),
        ('[sound]\nlanguage = "de"\n', "sound.language = 'de', expected one of en, pt, fr, hu"),
        ('[devices]\nbackend = "usb"\n', "devices.backend = 'usb', expected one of gpio, hub"),
        ("[tilt]\npins = [4, 17]\n", "tilt.pins has 2 entries for 9 seats"),
        ("[devices\n", "not valid TOML"),
    ],
)
def test_errors_name_the_file_and_the_setting(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(ValueError) as error:
        load_config(path)
    assert message in str(error.value) and str(path) in str(error.value)
    assert "\n" not in str(error.value)


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(ValueError, match="nope.toml: no such configuration file"):
        load_config(tmp_path / "nope.toml")


def test_rgb_seat_leds_fit_at_four_seats():
    config = load_config(DEFAULT_PINOUT.with_name("pinout-rgb.toml"))
    assert config.seats == 4 and config.seat_led_kind == "rgb"
    devices, _ = open_simulated(config)
    devices.judge.set_status(3, SeatStatus.IN_SHARE, gang="yellow")
    assert devices.lights.lamp(3).device.value == (1.0, 0.8, 0.0)
    devices.close()


def test_rgb_seat_leds_do_not_fit_at_five_seats(tmp_path):
    more = write(tmp_path, "[devices]\nseats = 5\n")
    data = merge({}, read_toml(DEFAULT_PINOUT), where="defaults")
    for path in (DEFAULT_PINOUT.with_name("pinout-rgb.toml"), more):
        data = merge(data, read_toml(path), where=str(path))
    with pytest.raises(ValueError, match="seat_leds.pins has 4 entries for 5 seats"):
        build_config(data, where=str(more))


def test_the_i2s_amplifier_keeps_its_pins_from_every_device():
    config = load_config(DEFAULT_PINOUT.with_name("pinout-i2s.toml"))
    assert config.reserved_pins == (18, 19, 20, 21) and config.seats == 7
    used = {*config.tilt_pins[:7], *config.seat_led_pins[:7], *config.count_led_pins}
    assert not used & set(config.reserved_pins)


@pytest.mark.parametrize(
    "text, message",
    [
        ("[devices]\nseats = 8\n", "pin 19 is used twice: devices.reserved_pins and LED of seat 7"),
        ('[sound]\noutput = "buzzer"\n', "pin 18 is used twice: devices.reserved_pins and buzzer"),
    ],
)
def test_a_device_on_a_reserved_pin_is_named(tmp_path, text, message):
    i2s = DEFAULT_PINOUT.with_name("pinout-i2s.toml")
    more = tmp_path / "more.toml"
    more.write_text(text)
    data = merge({}, read_toml(DEFAULT_PINOUT), where=str(DEFAULT_PINOUT))
    for path in (i2s, more):
        data = merge(data, read_toml(path), where=str(path))
    with pytest.raises(ValueError) as error:
        build_config(data, where=str(more))
    assert message in str(error.value)


def test_gpio_devices_open_on_mock_pins_from_the_environment(monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    config = replace(load_config(), sound=replace(load_config().sound, output="buzzer"))
    with open_devices(config, clock=ManualClock()) as devices:
        assert isinstance(devices.tilt, PinTiltSensors)
        assert isinstance(devices.lights, PinSeatLights)
        assert isinstance(devices.speaker, BuzzerSpeaker)


def test_the_hub_backend_is_imported_only_when_chosen(monkeypatch):
    opened = []

    class HubBackend:
        def __init__(self, url, *, seats, clock=None):
            opened.append((url, seats, clock))
            self.tilt = types.SimpleNamespace(on_event=lambda cb: None, upright=lambda seat: True, close=lambda: None)
            self.lights = RecordingSeatLights(clock=clock, seats=seats)
            self.count_lights = RecordingCountLights(clock=clock)
            self.closed = False

        def close(self):
            self.closed = True

    module = types.ModuleType("controller.devices.hub_backend")
    module.HubBackend = HubBackend
    monkeypatch.setitem(sys.modules, "controller.devices.hub_backend", module)
    config = replace(load_config(), backend="hub", seats=7, sound=replace(load_config().sound, output="none"))
    clock = ManualClock()
    devices = open_devices(config, clock=clock)
    assert opened == [("/dev/ttyACM0", 7, clock)]
    assert isinstance(devices.speaker, RecordingSpeaker)
    devices.judge.set_status(6, SeatStatus.HIT)
    assert devices.lights.shown[-1].status is SeatStatus.MUST_LIE_DOWN
    devices.judge.withdrawal_count([0])
    clock.advance(1.0)
    assert [c.count for c in devices.count_lights.counted] == [1, 2]
    devices.close()


def test_the_gpio_backend_does_not_need_the_hub(monkeypatch):
    monkeypatch.setitem(sys.modules, "controller.devices.hub_backend", None)  # importing it would fail
    config = replace(load_config(), sound=replace(load_config().sound, output="none"))
    clock = ManualClock()
    open_devices(config, clock=clock, pin_factory=ClockedMockFactory(clock)).close()


@pytest.mark.parametrize(
    "text, message",
    [
        ("[tilt]\npins = [99, 5, 6, 7, 8, 17, 27, 22, 20]\n", "tilt sensor of seat 0: 99 is not a GPIO of the Pi's 40-pin header"),
        ("[tilt]\npins = [-1, 5, 6, 7, 8, 17, 27, 22, 20]\n", "tilt sensor of seat 0: -1 is not a GPIO"),
        ("[tilt]\npins = [4.0, 5, 6, 7, 8, 17, 27, 22, 20]\n", "tilt sensor of seat 0: 4.0 is not a GPIO"),
        ("[tilt]\npins = [true, 5, 6, 7, 8, 17, 27, 22, 20]\n", "tilt sensor of seat 0: True is not a GPIO"),
        ("[tilt]\npins = [[4], 5, 6, 7, 8, 17, 27, 22, 20]\n", "tilt sensor of seat 0: [4] is not a GPIO"),
        ('[tilt]\npins = ["GPIO99", 5, 6, 7, 8, 17, 27, 22, 20]\n', "tilt sensor of seat 0: 'GPIO99' is not a GPIO"),
        ("[tilt]\npins = [99999999999999999999999999999, 5, 6, 7, 8, 17, 27, 22, 20]\n", "is not a GPIO"),
        ('[count_leds]\npins = [9, 10, "BOARD7"]\n', "pin BOARD7 is used twice: tilt sensor of seat 0 and count LED 3"),
        ('[count_leds]\npins = [9, 10, "GPIO4"]\n', "pin GPIO4 is used twice: tilt sensor of seat 0 and count LED 3"),
        ('[devices]\nseats = 1\n[seat_leds]\nkind = "rgb"\npins = [4.5]\n', "seat_leds.pins for seat 0 must be [red, green, blue], not 4.5"),
        ('[devices]\nreserved_pins = ["x"]\n', "devices.reserved_pins: 'x' is not a GPIO"),
        ("[buzzer]\npin = 40\n", "buzzer.pin: 40 is not a GPIO"),
        ("[sound]\ncache_dir = 5\n", "sound.cache_dir is missing or not str"),
        ("[sound]\nalsa_device = []\n", "sound.alsa_device is missing or not str"),
        ("[timing]\ncount_interval = nan\n", "timing.count_interval must be a non-negative number of seconds, at most 5"),
        ("[timing]\ncount_interval = inf\n", "timing.count_interval must be a non-negative number of seconds"),
        ("[timing]\nsettle = 1e300\n", "timing.settle must be a non-negative number of seconds, at most 2"),
        ("[timing]\nchatter_changes = 2.5\n", "timing.chatter_changes must be a whole number from 2 to 1000"),
        ('[devices]\nbackend = "hub"\nhub_url = "nonsense://x"\n', "devices.hub_url: 'nonsense://x': no such kind of port"),
        ('[devices]\nbackend = "hub"\nhub_url = ""\n', "devices.hub_url: no port given"),
        ('[devices]\nbackend = "hub"\nhub_url = 5\n', "devices.hub_url is missing or not str"),
    ],
)
def test_pins_timings_and_ports_that_cannot_work_are_refused_at_load(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(ValueError) as error:
        load_config(path)
    assert message in str(error.value) and str(path) in str(error.value)
    assert "\n" not in str(error.value)


def test_pins_by_their_other_names_and_a_hub_not_plugged_in_yet_are_taken(tmp_path):
    named = write(tmp_path, '[count_leds]\npins = ["GPIO9", "BCM10", "J8:23"]\n')
    assert load_config(named).count_led_pins == ("GPIO9", "BCM10", "J8:23")
    hub = tmp_path / "hub.toml"
    hub.write_text('[devices]\nbackend = "hub"\nhub_url = "/dev/ttyACM7"\n')
    assert load_config(hub).hub_url == "/dev/ttyACM7"
