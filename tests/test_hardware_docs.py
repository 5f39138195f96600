"""The hardware docs say what the configuration and the hub firmware do.

Every pin a builder solders is read from the docs' `pin-map` tables (a line
``<!-- pin-map: NAME -->`` before a Markdown table whose cells name pins as ``GPIO17 (pin 11)``
or ``GP2 (pin 4)``) and compared with ``hardware/pinout.toml`` and its option files, and with
``hardware/firmware/hub_board.py``. Every physical pin number given anywhere in the docs is checked
against the header, and no option gives a pin twice. The systemd unit and the udev rule are
checked for the settings that keep the table running.
"""

from __future__ import annotations

import ast
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from controller.devices.pinout import (
    DEFAULT_PINOUT,
    DevicesConfig,
    check_pins,
    load_config,
    read_toml,
)

ROOT = Path(__file__).resolve().parents[1]
HARDWARE = ROOT / "hardware"
DOCS = sorted(HARDWARE.glob("*.md")) + [ROOT / "docs" / "devices.md"]
HUB_DOC = HARDWARE / "hub-wiring.md"
PI_OPTIONS = {"default": DEFAULT_PINOUT, "i2s": HARDWARE / "pinout-i2s.toml", "rgb": HARDWARE / "pinout-rgb.toml"}

# BCM GPIO number -> physical pin of the 40-pin header (Pi 4 and Pi 5 alike).
HEADER = {
    0: 27, 1: 28, 2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21, 10: 19, 11: 23, 12: 32, 13: 33,
    14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35, 20: 38, 21: 40, 22: 15, 23: 16, 24: 18, 25: 22,
    26: 37, 27: 13,
}
PI_POWER = {"3V3": {1, 17}, "5V": {2, 4}, "GND": {6, 9, 14, 20, 25, 30, 34, 39}}
# Pico GP number -> physical pin of its 40-pin edge.
PICO = {
    0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16, 13: 17,
    14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31, 27: 32, 28: 34,
}
PICO_POWER = {"3V3(OUT)": {36}, "VBUS": {40}, "VSYS": {39}, "GND": {3, 8, 13, 18, 23, 28, 33, 38}}

GPIO = re.compile(r"\bGPIO(\d+)(?: \(pin (\d+)\))?")
GP = re.compile(r"\bGP(\d+)(?: \(pin (\d+)\))?")
POWER = re.compile(r"(3V3\(OUT\)|3V3|5V|VBUS|VSYS|GND) \(pin (\d+)\)")
MARKER = re.compile(r"<!-- pin-map: ([a-z0-9-]+) -->")


class PinMap:
    """One option's pins as a doc gives them: role -> pin, and where each was read."""

    def __init__(self) -> None:
        self.roles: dict[str, int] = {}
        self.where: dict[str, str] = {}

    def add(self, role: str, pin: int, where: str) -> None:
        assert role not in self.roles, f"{where}: {role} given twice (also {self.where[role]})"
        self.roles[role] = pin
        self.where[role] = where


def table_rows(lines: list[str], start: int) -> tuple[list[str], list[tuple[int, list[str]]]]:
    rows = []
    i = start
    while i < len(lines) and not lines[i].startswith("|"):
        assert not lines[i].strip(), f"line {i + 1}: a pin-map marker must be followed by its table"
        i += 1
    while i < len(lines) and lines[i].startswith("|"):
        rows.append((i + 1, [c.strip() for c in lines[i].strip().strip("|").split("|")]))
        i += 1
    assert len(rows) >= 3, f"line {start}: a pin-map table needs a header, a rule and rows"
    return rows[0][1], rows[2:]


def one_pin(pattern: re.Pattern[str], cell: str, where: str) -> int | None:
    found = pattern.findall(cell)
    assert len(found) <= 1, f"{where}: one pin a cell, not {cell!r}"
    return int(found[0][0]) if found else None


def parse_pin_maps(text: str, name: str) -> dict[str, PinMap]:
    """Every `pin-map` table of a doc, by option."""
    maps: dict[str, PinMap] = {}
    lines = text.splitlines()
    for number, line in enumerate(lines):
        marker = MARKER.search(line)
        if not marker:
            continue
        option = marker.group(1)
        pins = maps.setdefault(option, PinMap())
        pattern = GP if option == "hub" else GPIO
        header, rows = table_rows(lines, number + 1)
        for row_number, cells in rows:
            where = f"{name}:{row_number}"
            assert len(cells) == len(header), f"{where}: {len(cells)} cells for {len(header)} columns"
            if header[0].lower() == "seat":
                seat = int(cells[0])
                for column, cell in zip(header[1:], cells[1:]):
                    pin = one_pin(pattern, cell, where)
                    column = column.lower()
                    if column.startswith("tilt"):
                        role = f"tilt {seat}"
                    elif column.startswith("seat led"):
                        role = f"seat LED {seat}"
                    elif column in ("red", "green", "blue"):
                        role = f"seat LED {seat} {column}"
                    else:
                        raise AssertionError(f"{where}: unknown column {column!r}")
                    assert pin is not None, f"{where}: no pin for {role}"
                    pins.add(role, pin, where)
            else:
                role = cells[0]
                found = [p for p in (one_pin(pattern, c, where) for c in cells[1:]) if p is not None]
                if found:
                    pins.add(role, found[0], where)
    return maps


def doc_pin_maps() -> dict[str, PinMap]:
    maps: dict[str, PinMap] = {}
    for path in DOCS:
        for option, pins in parse_pin_maps(path.read_text(), path.name).items():
            merged = maps.setdefault(option, PinMap())
            for role, pin in pins.roles.items():
                merged.add(role, pin, pins.where[role])
    return maps


def config_roles(config: DevicesConfig) -> dict[str, int | str]:
    """The pins a wiring's configuration drives, named as the docs name them."""
    roles: dict[str, int | str] = {}
    for seat in range(config.seats):
        roles[f"tilt {seat}"] = config.tilt_pins[seat]
        led = config.seat_led_pins[seat]
        if config.seat_led_kind == "rgb":
            assert not isinstance(led, (int, str))
            roles.update({f"seat LED {seat} {c}": p for c, p in zip(("red", "green", "blue"), led)})
        else:
            assert isinstance(led, (int, str))
            roles[f"seat LED {seat}"] = led
    roles.update({f"count LED {n}": p for n, p in enumerate(config.count_led_pins, start=1)})
    if config.buzzer_pin is not None and config.buzzer_pin not in config.reserved_pins:
        roles["buzzer"] = config.buzzer_pin
    return roles


def differences(doc: PinMap, config: DevicesConfig) -> list[str]:
    """What a doc's pin map and a configuration disagree on, one line each."""
    wanted = config_roles(config)
    reserved = {role: pin for role, pin in doc.roles.items() if role.startswith("I2S")}
    given = {role: pin for role, pin in doc.roles.items() if role not in reserved}
    found = [f"{doc.where[r]}: {r} is GPIO{p}, the configuration says GPIO{wanted[r]}"
             for r, p in given.items() if r in wanted and wanted[r] != p]
    found += [f"{doc.where[r]}: {r} is not in the configuration" for r in given if r not in wanted]
    found += [f"{r} (GPIO{p}) is missing from the docs" for r, p in wanted.items() if r not in given]
    if set(reserved.values()) != set(config.reserved_pins):
        found.append(f"I2S pins {sorted(reserved.values())} != devices.reserved_pins {list(config.reserved_pins)}")
    return found


def twice(doc: PinMap) -> list[str]:
    seen: dict[int, str] = {}
    found = []
    for role, pin in doc.roles.items():
        if pin in seen:
            found.append(f"{doc.where[role]}: pin {pin} is given to {seen[pin]} and to {role}")
        seen[pin] = role
    return found


def hub_board() -> dict[str, Any]:
    """The pin constants of hub_board.py, read without running MicroPython code."""
    tree = ast.parse((HARDWARE / "firmware" / "hub_board.py").read_text())
    return {
        node.targets[0].id: ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        and isinstance(node.targets[0], ast.Name)
        and node.targets[0].id.endswith(("_PIN", "_PINS"))
    }


def board_constant(name: str) -> Any:
    """One constant of hub_board.py, read without running MicroPython code."""
    tree = ast.parse((HARDWARE / "firmware" / "hub_board.py").read_text())
    return next(ast.literal_eval(node.value) for node in tree.body if isinstance(node, ast.Assign)
                and isinstance(node.targets[0], ast.Name) and node.targets[0].id == name)


def hub_roles() -> dict[str, int]:
    board = hub_board()
    roles: dict[str, int] = {f"tilt {seat}": int(pin) for seat, pin in enumerate(board["SEAT_PINS"])}
    roles.update({f"count LED {n}": int(pin) for n, pin in enumerate(board["COUNT_PINS"], start=1)})
    roles["pixel data"] = int(board["PIXEL_PIN"])
    roles["safe start"] = int(board["SAFE_PIN"])
    return roles


# --- the docs against the configuration and the firmware ---------------------------------------


def test_the_docs_offer_every_wiring_and_nothing_else() -> None:
    assert set(doc_pin_maps()) == {*PI_OPTIONS, "hub"}


@pytest.mark.parametrize("option", sorted(PI_OPTIONS))
def test_each_pi_wiring_in_the_docs_is_its_configuration(option: str) -> None:
    config = load_config(PI_OPTIONS[option])
    assert differences(doc_pin_maps()[option], config) == []


@pytest.mark.parametrize("option", sorted(doc_pin_maps()))
def test_no_wiring_gives_a_pin_twice(option: str) -> None:
    assert twice(doc_pin_maps()[option]) == []


@pytest.mark.parametrize("option", sorted(PI_OPTIONS))
def test_each_wiring_loads_with_every_sound_output_it_offers(option: str) -> None:
    config = load_config(PI_OPTIONS[option])
    for output in ("aplay", "none", "buzzer"):
        chosen = replace(config, sound=replace(config.sound, output=output))
        if output == "buzzer" and config.buzzer_pin in config.reserved_pins:
            with pytest.raises(ValueError, match=f"pin {config.buzzer_pin} is used twice"):
                check_pins(chosen, where=option)
        else:
            check_pins(chosen, where=option)


def test_the_i2s_wiring_leaves_the_amplifier_its_pins() -> None:
    config = load_config(PI_OPTIONS["i2s"])
    assert set(config.reserved_pins) == {18, 19, 20, 21}
    assert not set(config_roles(config).values()) & {18, 19, 20, 21}
    assert config_roles(config).items() <= config_roles(load_config()).items()  # no rewiring for seats 0-6


def test_the_default_map_keeps_outputs_off_pins_pulled_up_at_boot_and_the_bus_pins_free() -> None:
    roles = config_roles(load_config())
    outputs = [pin for role, pin in roles.items() if not role.startswith("tilt")]
    assert all(isinstance(p, int) and p >= 9 for p in outputs)  # a Pi 4 pulls GPIO0-8 up at boot
    assert not {0, 1, 2, 3, 14, 15} & set(roles.values())


def test_the_hub_wiring_is_the_firmware_s() -> None:
    doc = doc_pin_maps()["hub"]
    assert doc.roles == hub_roles()
    assert twice(doc) == []


def test_every_physical_pin_the_docs_give_is_on_the_header() -> None:
    wrong = []
    for path in DOCS:
        hub = path == HUB_DOC
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            where = f"{path.name}:{number}"
            for gpio, pin in GPIO.findall(line):
                if int(gpio) not in HEADER:
                    wrong.append(f"{where}: GPIO{gpio} is not on the header")
                elif pin and HEADER[int(gpio)] != int(pin):
                    wrong.append(f"{where}: GPIO{gpio} is pin {HEADER[int(gpio)]}, not pin {pin}")
            for gp, pin in GP.findall(line):
                if int(gp) not in PICO:
                    wrong.append(f"{where}: GP{gp} is not on the Pico's edge")
                elif pin and PICO[int(gp)] != int(pin):
                    wrong.append(f"{where}: GP{gp} is pin {PICO[int(gp)]}, not pin {pin}")
            for name, pin in POWER.findall(line):
                table = PICO_POWER if hub else PI_POWER
                if int(pin) not in table.get(name, set()):
                    wrong.append(f"{where}: {name} is not pin {pin}")
    assert wrong == []


def test_every_pico_pin_the_docs_name_is_one_the_firmware_uses() -> None:
    used = set(hub_roles().values())
    named = {(path.name, int(gp)) for path in DOCS for gp, _ in GP.findall(path.read_text())}
    assert {(name, gp) for name, gp in named if gp not in used} == set()


def test_every_resistor_and_capacitor_value_in_the_wiring_is_in_the_bill_of_materials() -> None:
    value = re.compile(r"\b(\d+(?:\.\d+)?) ?(kΩ|MΩ|Ω|µF|nF)")
    bom = {m for m in value.findall((HARDWARE / "bom.md").read_text())}
    used = {m for name in ("wiring.md", "hub-wiring.md") for m in value.findall((HARDWARE / name).read_text())}
    # values that are not parts to buy: the pins' own pull-ups, the Pi's I2C pull-ups, a speaker's or
    # a coil's impedance, a piezo disc's capacitance, a sum
    results = {("50", "kΩ"), ("1.8", "kΩ"), ("4", "Ω"), ("8", "Ω"), ("38", "Ω"), ("16", "Ω"), ("42", "Ω"), ("30", "nF")}
    assert used - bom - results == set()


# --- the checker itself fails on a wrong doc ----------------------------------------------------

WRONG = """
<!-- pin-map: default -->
| seat | tilt input (jack tip) | seat LED (jack ring) |
|---|---|---|
| 0 | GPIO4 (pin 7) | GPIO8 (pin 24) |

<!-- pin-map: default -->
| what | pin |
|---|---|
| count LED 1 | GPIO4 (pin 7) |
"""


def test_the_checker_names_a_pin_that_differs_from_the_configuration_or_is_given_twice() -> None:
    doc = parse_pin_maps(WRONG, "wrong.md")["default"]
    found = differences(doc, replace(load_config(), seats=1))
    assert "wrong.md:5: seat LED 0 is GPIO8, the configuration says GPIO23" in found
    assert "wrong.md:10: count LED 1 is GPIO4, the configuration says GPIO9" in found
    assert "count LED 2 (GPIO10) is missing from the docs" in found
    assert twice(doc) == ["wrong.md:10: pin 4 is given to tilt 0 and to count LED 1"]


def test_the_checker_names_an_i2s_pin_the_configuration_does_not_reserve() -> None:
    doc = parse_pin_maps("<!-- pin-map: i2s -->\n| what | pin |\n|---|---|\n| I2S BCLK | GPIO18 (pin 12) |\n", "x.md")["i2s"]
    assert "I2S pins [18] != devices.reserved_pins []" in differences(doc, load_config())


# --- the systemd unit and the udev rule ---------------------------------------------------------


def unit() -> dict[str, dict[str, list[str]]]:
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] = {}
    for line in (HARDWARE / "cashnguns-table.service").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
        else:
            key, _, value = line.partition("=")
            current.setdefault(key, []).append(value)
    return sections


def seconds(text: str) -> float:
    match = re.fullmatch(r"(\d+(?:\.\d+)?)(s|min)?", text)
    assert match, f"not a duration: {text}"
    return float(match.group(1)) * (60 if match.group(2) == "min" else 1)


def test_a_crash_loop_never_trips_the_start_limit() -> None:
    u = unit()
    interval = seconds(u["Unit"]["StartLimitIntervalSec"][-1])
    burst = int(u["Unit"]["StartLimitBurst"][-1])
    restart_sec = seconds(u["Service"]["RestartSec"][-1])
    assert u["Service"]["Restart"][-1] == "always"  # after a game that ended too: the next one starts
    assert restart_sec >= 1
    # starts RestartSec apart fit at most interval / RestartSec + 1 times into one interval
    assert interval == 0 or interval / restart_sec + 1 < burst


def test_the_unit_is_hardened_and_can_write_what_the_controller_writes() -> None:
    service = unit()["Service"]
    assert service["NoNewPrivileges"] == ["yes"] and service["PrivateTmp"] == ["yes"]
    assert service["ProtectSystem"] == ["strict"]
    writable = {p.lstrip("-") for value in service["ReadWritePaths"] for p in value.split()}
    writable |= {f"/var/lib/{d}" for value in service.get("StateDirectory", []) for d in value.split()}
    assert service["WorkingDirectory"][-1] in writable  # lgpio's notification files
    readme = (HARDWARE / "README.md").read_text()
    home = re.search(r"useradd [^\n]*--home-dir (\S+)", readme)
    assert home and home.group(1) in writable  # ~/.local/share (logs, records) and ~/.cache (sounds)
    assert read_toml(HARDWARE / "table.toml")["log"]["dir"].startswith("~/")
    assert read_toml(DEFAULT_PINOUT)["sound"]["cache_dir"].startswith("~/")


def test_the_service_cannot_rewrite_its_own_code() -> None:
    """The console faces the network: the code it runs is root's, and not among the unit's writable paths."""
    service = unit()["Service"]
    code = Path(re.sub(r"/\.venv/.*", "", service["ExecStart"][-1].split()[0]))
    writable = [Path(p.lstrip("-")) for value in service["ReadWritePaths"] for p in value.split()]
    assert not any(code == w or code.is_relative_to(w) or w.is_relative_to(code) for w in writable), writable
    assert not Path(service["WorkingDirectory"][-1]).is_relative_to(code)
    readme = (HARDWARE / "README.md").read_text()
    assert not re.search(rf"chown[^\n]*cashnguns[^\n]*{code}", readme)
    assert not re.search(r"sudo -u cashnguns [^\n]*(pip install|git clone)", readme)


def test_the_udev_rule_names_the_hub_and_keeps_modemmanager_away() -> None:
    rule = [line for line in (HARDWARE / "99-cashnguns-hub.rules").read_text().splitlines() if line and not line.startswith("#")]
    assert len(rule) == 1
    assert 'ATTRS{idVendor}=="2e8a"' in rule[0] and 'SYMLINK+="cashnguns-hub"' in rule[0]
    assert 'ENV{ID_MM_DEVICE_IGNORE}="1"' in rule[0]


def test_the_install_steps_copy_files_that_exist_into_folders_that_exist() -> None:
    readme = (HARDWARE / "README.md").read_text()
    standing = {"/etc/udev/rules.d", "/etc/systemd/system"}
    copies = re.findall(r"sudo cp (\S+) (\S+)", readme)
    assert copies
    for source, target in copies:
        assert (ROOT / source).is_file(), source
        folder = target.rstrip("/") if target.endswith("/") else str(Path(target).parent)
        if folder not in standing:
            made = readme.find(f"mkdir -p {folder}")
            assert 0 <= made < readme.index(f"sudo cp {source} {target}"), f"{folder} is not made before the copy"
    assert "pip install mpremote" in readme


def test_table_toml_with_the_i2s_sections_refuses_more_seats_than_fit() -> None:
    from controller.table.config import ConfigError, from_dict

    i2s = read_toml(PI_OPTIONS["i2s"])
    del i2s["devices"]["seats"]  # in table.toml the number of players sets it
    names = ["Aiko", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hana"]
    assert from_dict({"game": {"ruleset": "yakuzas", "players": names[:7]}, **i2s}).devices().seats == 7
    with pytest.raises(ConfigError, match="pin 19 is used twice: devices.reserved_pins and LED of seat 7"):
        from_dict({"game": {"ruleset": "yakuzas", "players": names}, **i2s}).devices()


# --- the electrical values: LED currents, parts, quantities, timing -----------------------------

SUPPLY = 3.3  # V: a GPIO's high level, on the Pi and on the Pico
PIN_MOST = 16.0  # mA a Pi's GPIO may give
PINS_MOST = 50.0  # mA all of them together
RANGE = r"(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)"


def markdown_rows(text: str, header_start: str) -> list[list[str]]:
    """The body rows of the Markdown table whose header row starts with ``header_start``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header_start))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows


def led_rows() -> dict[str, tuple[float, float, float, float, float]]:
    """wiring.md's resistor table, LED rows: part -> (least Vf, most Vf, ohms, least mA, most mA)."""
    found = {}
    for part, colour, resistor, current in markdown_rows((HARDWARE / "wiring.md").read_text(), "| part | colour"):
        vf = re.search(RANGE + " V", colour)
        ohms = re.fullmatch(r"(\d+) Ω(?: each)?", resistor)
        ma = re.match(RANGE + " mA", current)
        if vf and ohms and ma:
            found[part] = (float(vf[1]), float(vf[2]), float(ohms[1]), float(ma[1]), float(ma[2]))
    return found


def test_every_led_current_is_what_its_resistor_gives_at_3_3_volts_within_a_pin_s_limit() -> None:
    rows = led_rows()
    assert {"seat LED", 'count LED "1"', 'count LED "2"', 'count LED "3"'} <= set(rows)
    wrong = []
    for part, (vf_low, vf_high, ohms, low, high) in rows.items():
        least, most = (SUPPLY - vf_high) / ohms * 1000, (SUPPLY - vf_low) / ohms * 1000
        if (round(least, 1), round(most, 1)) != (low, high):
            wrong.append(f"{part}: {ohms:g} Ω at {vf_low}-{vf_high} V gives {least:.1f}-{most:.1f} mA, not {low}-{high}")
        if most > PIN_MOST or least < 0.5:
            wrong.append(f"{part}: {least:.1f}-{most:.1f} mA (a pin gives at most {PIN_MOST} mA; under 0.5 mA is not seen)")
    assert wrong == []


def test_every_led_on_at_once_stays_within_the_pins_total_and_the_docs_say_how_much() -> None:
    rows = led_rows()
    text = (HARDWARE / "wiring.md").read_text()
    seats = load_config().seats
    default = seats * rows["seat LED"][4] + sum(rows[f'count LED "{n}"'][4] for n in (1, 2, 3))
    said = re.search(r"Worst case, every LED on at once: [^=]*= (\d+) mA", text)
    assert said and int(said[1]) == round(default) and default < PINS_MOST
    rgb_seats = load_config(PI_OPTIONS["rgb"]).seats
    red, green_blue = rows["RGB seat LED, red"][4], rows["RGB seat LED, green and blue"][4]
    rgb = rgb_seats * (red + 2 * green_blue) + sum(rows[f'count LED "{n}"'][4] for n in (1, 2, 3))
    said = re.search(r"The RGB wiring at \d+ seats, all white: [^=]*= (\d+) mA", text)
    assert said and int(said[1]) == round(rgb) and rgb < PINS_MOST


def test_the_hub_s_count_leds_and_the_bill_of_materials_give_the_wiring_s_currents() -> None:
    rows = led_rows()
    by_ohms = {ohms: (low, high) for _, _, ohms, low, high in rows.values()}
    wrong = []
    for name in ("hub-wiring.md", "bom.md"):
        for number, line in enumerate((HARDWARE / name).read_text().splitlines(), start=1):
            for ohms, low, high in re.findall(r"(\d+) Ω[^|]*\|[^|]*?" + RANGE + " mA", line):
                if float(ohms) in by_ohms and by_ohms[float(ohms)] != (float(low), float(high)):
                    wrong.append(f"{name}:{number}: {ohms} Ω gives {low}-{high} mA, wiring.md says {by_ohms[float(ohms)]}")
    assert wrong == []


def bom_section(title: str) -> str:
    text = (HARDWARE / "bom.md").read_text()
    start = text.index(f"## {title}")
    end = text.find("\n## ", start + 1)
    return text[start:end if end > 0 else len(text)]


def bom_quantities(section: str, pattern: str) -> int:
    """The quantity of the section's line whose part matches ``pattern``."""
    found = [int(q) for q, part in re.findall(r"^\| (\d+) \| ([^|]*)\|", section, re.M) if re.search(pattern, part)]
    assert len(found) == 1, f"{pattern}: {len(found)} lines"
    return found[0]


def test_the_bill_of_materials_has_each_wiring_s_parts_for_its_seats() -> None:
    seats = load_config().seats
    assert seats == 9
    rows = led_rows()
    pi = bom_section("The controller")
    resistors: dict[str, int] = {}
    for part, (*_, ohms, _low, _high) in rows.items():
        if part.startswith("seat LED") or part.startswith("count LED"):
            resistors[f"{ohms:g} Ω"] = resistors.get(f"{ohms:g} Ω", 0) + (seats if part.startswith("seat") else 1)
    resistors["10 kΩ"] = resistors.get("10 kΩ", 0) + seats  # tilt pull-ups
    resistors["1 kΩ"] = resistors.get("1 kΩ", 0) + seats  # tilt series
    for value, wanted in resistors.items():
        assert bom_quantities(pi, rf"^{value} resistor") == wanted, value
    assert bom_quantities(pi, "panel jack") == seats
    assert bom_quantities(pi, "plug on") == seats
    assert bom_quantities(pi, "Tilt switch") >= seats
    seat_leds = [int(q) for q, note in re.findall(r"^\| (\d+) \| 5 mm LED, [^|]*\|([^|]*)\|", pi, re.M) if "seat LED" in note]
    assert seat_leds == [seats]
    for n in (1, 2, 3):
        assert [q for q, note in re.findall(r"^\| (\d+) \| 5 mm LED, [^|]*\|([^|]*)\|", pi, re.M)
                if f'count LED "{n}"' in note] == ["1"]
    rgb = bom_section("RGB seat LEDs")
    rgb_seats = load_config(PI_OPTIONS["rgb"]).seats
    assert bom_quantities(rgb, "RGB LED") == rgb_seats
    assert bom_quantities(rgb, rf"^{rows['RGB seat LED, red'][2]:g} Ω resistor") == rgb_seats
    assert bom_quantities(rgb, rf"^{rows['RGB seat LED, green and blue'][2]:g} Ω resistor") == 2 * rgb_seats
    hub = bom_section("The USB sensor hub")
    assert bom_quantities(hub, "WS2812B") == len(hub_board()["SEAT_PINS"])
    assert re.search(rf"^\| {len(hub_board()['SEAT_PINS'])} \| 10 kΩ and \d+ 1 kΩ resistors, \d+ TRS jacks", hub, re.M)


# Parts the wiring names only to say why they are not used (or as a repair-shop stand-in).
NOT_BOUGHT = {"BC547", "2N2222", "2N7000", "1N4007", "1N4148", "1N4001"}
PART = re.compile(r"\b(1N\d{4}|BAT\d+|AO\d{4}A?|IRL\w+|2N\d{4}|BC\d{3}|74AHCT\d+|SW-\d+D|MAX\d+A?|WS2812)B?\b")


def test_every_part_the_wiring_uses_is_in_the_bill_of_materials() -> None:
    bom = set(PART.findall((HARDWARE / "bom.md").read_text()))
    used = {p for name in ("wiring.md", "hub-wiring.md", "standee-base.md") for p in PART.findall((HARDWARE / name).read_text())}
    assert used - bom - NOT_BOUGHT == set()
    assert not bom & NOT_BOUGHT


def test_the_buzzer_coil_s_flyback_diode_is_fast() -> None:
    """A tone switches the coil thousands of times a second: a slow rectifier (1N400x) conducts backwards for
    microseconds at each switch-on; a Schottky (1N581x) does not."""
    text = (HARDWARE / "wiring.md").read_text()
    row = next(r for r in markdown_rows(text, "| part | value | why |") if r[0] == "flyback diode")
    diode = PART.search(row[1])
    assert diode and re.fullmatch(r"1N581[789]", diode[1]), row[1]
    assert re.search(rf"coil[^\n]*{diode[1]}|{diode[1]}[^\n]*cathode to 5 V", text)
    assert diode[1] in (HARDWARE / "bom.md").read_text()


SUM = re.compile(r"(\d+(?:[ A-Za-z]*\+ ?\d+)+)[ A-Za-z]* = (\d+)\b")


def test_every_pin_count_the_docs_add_up_is_right() -> None:
    wrong = []
    for path in [*DOCS, *PI_OPTIONS.values()]:
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            for terms, total in SUM.findall(line):
                if sum(map(int, re.findall(r"\d+", terms))) != int(total):
                    wrong.append(f"{path.name}:{number}: {terms} = {total}")
    assert wrong == []
    assert SUM.findall("9 tilt inputs + 9 seat LEDs + 3 count LEDs + 1 buzzer = 22") == [
        ("9 tilt inputs + 9 seat LEDs + 3 count LEDs + 1", "22")]


def test_the_docs_give_the_controller_s_and_the_hub_s_debounce_and_settle_times() -> None:
    from controller.devices.timing import Timing

    timing = Timing()
    assert board_constant("DEBOUNCE_US") == round(timing.debounce * 1e6)
    said = []
    for path in DOCS:
        text = path.read_text()
        said += [("debounce", int(ms), path.name) for ms in re.findall(r"(?i)debounces? ?\**\s*\((\d+) ms", text)]
        said += [("settle", int(ms), path.name) for ms in re.findall(r"(?i)settle(?: time)?\**\s*\((\d+) ms", text)]
    assert {kind for kind, _, _ in said} == {"debounce", "settle"}
    wanted = {"debounce": round(timing.debounce * 1000), "settle": round(timing.settle * 1000)}
    assert [s for s in said if s[1] != wanted[s[0]]] == []


def test_the_hub_s_current_budget_uses_the_firmware_s_brightness() -> None:
    text = HUB_DOC.read_text()
    brightness = board_constant("BRIGHTNESS")
    said = re.search(r"caps the\s+brightness at (\d+) of 255", text)
    budget = re.search(r"(\d+) × (\d+) mA × (\d+) / 255 = (\d+) mA", text)
    assert said and int(said[1]) == brightness
    assert budget and int(budget[3]) == brightness and int(budget[1]) == len(hub_board()["SEAT_PINS"])
    assert abs(int(budget[1]) * int(budget[2]) * brightness / 255 - int(budget[4])) < 5


def test_the_docs_name_sound_cards_by_name_and_agree_on_each_one() -> None:
    """A card's number can change from one boot to the next (HDMI, USB); its name does not."""
    texts = {path.name: path.read_text() for path in [*DOCS, *PI_OPTIONS.values(), HARDWARE / "table.toml"]}
    assert [name for name, text in texts.items() if re.search(r"\b(?:plug)?hw:\d", text)] == []
    jack = 'plughw:CARD=Headphones'
    assert all(jack in texts[name] for name in ("README.md", "wiring.md", "table.toml"))
    i2s = load_config(PI_OPTIONS["i2s"]).sound.alsa_device
    card = i2s.removeprefix("plughw:CARD=")
    assert i2s != card and f"lists a card `{card}`" in texts["wiring.md"]


def test_the_table_conventions_timing_is_the_controller_s_default() -> None:
    from controller.devices.timing import Timing

    timing = Timing()
    text = (ROOT / "docs" / "table-conventions.md").read_text()
    settle = re.search(r"settle time \(default (\d+) ms\)", text)
    debounce = re.search(r"debounce time \(default (\d+) ms\)", text)
    interval = re.search(r"at (\d+(?:\.\d+)?) s intervals", text)
    after = re.search(r"until (\d+(?:\.\d+)?) s after its \"3\"", text)
    assert settle and int(settle[1]) == round(timing.settle * 1000)
    assert debounce and int(debounce[1]) == round(timing.debounce * 1000)
    assert interval and float(interval[1]) == timing.count_interval
    assert after and float(after[1]) == timing.withdraw_after_three


def test_the_standee_base_takes_the_seat_led_and_switch_the_wiring_gives() -> None:
    text = (HARDWARE / "standee-base.md").read_text()
    vf_low, vf_high, ohms, _, _ = led_rows()["seat LED"]
    colour = next(r[1] for r in markdown_rows((HARDWARE / "wiring.md").read_text(), "| part | colour") if r[0] == "seat LED")
    assert f"its {ohms:g} Ω resistor is in the controller box" in text
    assert colour.split(" (")[0] in text  # "amber or yellow"
    assert "SW-520D" in text and "leads pointing down" in text  # closed while upright


def test_an_i2s_amplifier_s_card_without_its_pins_reserved_is_refused() -> None:
    """Copying only the [sound] section of pinout-i2s.toml would leave GPIO18-21 to the buzzer and seats 7 and 8."""
    i2s = load_config(PI_OPTIONS["i2s"])
    default = load_config()
    amplifier = replace(default, sound=replace(default.sound, alsa_device=i2s.sound.alsa_device))
    with pytest.raises(ValueError, match=r"is an I2S amplifier, which holds GPIO18-21, but devices.reserved_pins "
                                         r"leaves out 18, 19, 20, 21: reserve \[18, 19, 20, 21\]"):
        check_pins(amplifier, where="table.toml")
    check_pins(i2s, where="pinout-i2s.toml")
    check_pins(replace(amplifier, backend="hub"), where="hub")  # the Pi's header is then free

    from controller.table.config import ConfigError, from_dict

    sound_only = {"sound": read_toml(PI_OPTIONS["i2s"])["sound"]}
    with pytest.raises(ConfigError, match="is an I2S amplifier"):
        from_dict({"game": {"ruleset": "classic", "players": ["Aiko", "Bo", "Cy", "Dee"]}, **sound_only}).devices()
