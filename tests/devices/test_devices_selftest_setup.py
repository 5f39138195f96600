"""The selftest as the install guide runs it: on a Pi whose pins cannot be opened, on a machine
without pins, with the table's own configuration, and with a hub that never answers."""

from __future__ import annotations

import warnings
from pathlib import Path

import gpiozero
import pytest
from gpiozero.exc import BadPinFactory, PinFactoryFallback

from controller.devices import opening, selftest
from controller.devices.opening import NoGpioPins, open_devices
from controller.devices.pinout import load_config
from firmware_bridge.sim import SimHub

ROOT = Path(__file__).resolve().parents[2]
QUICK = ["--sound", "none", "--step", "0", "--watch", "0"]


@pytest.fixture
def no_pin_library(monkeypatch):
    """gpiozero finds no pin library, for the reasons it gives on a Pi 4 whose user is not in the gpio group."""
    reasons = ["Falling back from lgpio: 'can not open gpiochip'",
               "Falling back from native: [Errno 13] Permission denied: '/dev/gpiomem'"]

    def default_pin_factory():
        for reason in reasons:
            warnings.warn(PinFactoryFallback(reason), stacklevel=1)
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(gpiozero.Device, "pin_factory", None)
    monkeypatch.setattr(gpiozero.Device, "_default_pin_factory", staticmethod(default_pin_factory))
    return reasons


@pytest.fixture
def on_a_pi(tmp_path, monkeypatch):
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 4 Model B Rev 1.4\0")
    monkeypatch.setattr(opening, "DEVICE_TREE_MODEL", model)


@pytest.fixture
def not_a_pi(tmp_path, monkeypatch):
    monkeypatch.setattr(opening, "DEVICE_TREE_MODEL", tmp_path / "no-device-tree")


def test_a_pi_whose_pins_cannot_be_opened_is_told_why_never_to_simulate_them(no_pin_library, on_a_pi):
    with pytest.raises(NoGpioPins) as caught:
        open_devices(load_config(), mock_pins=False)
    message = str(caught.value)
    assert caught.value.on_pi and "\n" not in message
    assert message.startswith("the GPIO pins of this Raspberry Pi 4 Model B Rev 1.4 cannot be opened")
    assert "can not open gpiochip" in message and "Permission denied: '/dev/gpiomem'" in message
    assert "gpio group" in message and "--system-site-packages" in message
    assert "GPIOZERO_PIN_FACTORY" not in message and "mock" not in message


def test_lgpio_in_a_working_directory_it_cannot_write_is_named(monkeypatch, on_a_pi):
    def default_pin_factory():
        warnings.warn(PinFactoryFallback("Falling back from lgpio: [Errno 2] No such file or directory: '.lgd-nfy-3'"), stacklevel=1)
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.setattr(gpiozero.Device, "pin_factory", None)
    monkeypatch.setattr(gpiozero.Device, "_default_pin_factory", staticmethod(default_pin_factory))
    with pytest.raises(NoGpioPins, match="lgpio writes into the working directory"):
        open_devices(load_config(), mock_pins=False)


def test_selftest_on_such_a_pi_fails_in_one_line_instead_of_passing_on_mock_pins(no_pin_library, on_a_pi, capsys):
    assert selftest.main(QUICK) == 2
    captured = capsys.readouterr()
    assert "mock pins" not in captured.out and "passed" not in captured.out
    err = captured.err.strip()
    assert err.count("\n") == 0 and err.startswith("selftest: the GPIO pins of this Raspberry Pi 4")


def test_selftest_on_a_machine_without_pins_runs_on_mock_pins_but_does_not_pass(no_pin_library, not_a_pi, capsys):
    assert selftest.main(QUICK) == 1
    out = capsys.readouterr().out
    assert "no GPIO pins here (not a Raspberry Pi): using mock pins, so nothing real is tested" in out
    assert "selftest passed" not in out and "nothing real was tested" in out.splitlines()[-1]


def test_selftest_reads_the_table_s_own_configuration(capsys):
    assert selftest.main(["--config", str(ROOT / "hardware" / "table.toml"), "--mock", *QUICK]) == 0
    out = capsys.readouterr().out
    assert "gpio backend, 9 seats" in out and "selftest passed" in out  # table.toml seats nine players


def _hub_table(tmp_path: Path, url: str) -> Path:
    table = (ROOT / "hardware" / "table.toml").read_text()
    path = tmp_path / "table.toml"
    path.write_text(table + f'\n[devices]\nbackend = "hub"\nhub_url = "{url}"\n')
    return path


def test_a_hub_that_never_answers_is_one_problem_not_nine_wiring_faults(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(selftest, "HUB_WAIT", 0.2)
    url = str(tmp_path / "ttyACM7")
    assert selftest.main(["--config", str(_hub_table(tmp_path, url)), *QUICK]) == 1
    out = capsys.readouterr().out
    assert f"hub at {url}: never answered" in out and "never read upright" not in out
    assert out.splitlines()[-1] == "selftest found problems"


def test_a_hub_table_passes_its_selftest_on_the_simulated_hub(tmp_path, capsys):
    with SimHub(transport="pty", seats=9, seed=4) as sim:
        assert selftest.main(["--config", str(_hub_table(tmp_path, sim.url)), *QUICK]) == 0
    out = capsys.readouterr().out
    assert f"hub at {sim.url}: answered" in out and "selftest passed" in out
