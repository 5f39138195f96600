"""The selftest command on mock pins."""

import pytest

from controller.devices.selftest import main
from controller.devices.vocabulary import CLIP_KEYS


def test_selftest_walks_through_every_device_on_mock_pins(capsys):
    assert main(["--mock", "--sound", "buzzer", "--step", "0", "--watch", "0"]) == 0
    out = capsys.readouterr().out
    for seat in range(9):
        assert f"  seat {seat}\n" in out
        assert f"seat {seat} up" in out
    for key in CLIP_KEYS:
        assert f"  {key}\n" in out
    assert "must_stand_up" in out and "selftest passed" in out


def test_selftest_reports_a_bad_configuration_in_one_line(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text("[devices]\nseats = 0\n")
    assert main(["--config", str(path), "--mock", "--sound", "none"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("selftest: ") and "devices.seats = 0" in err and "\n" not in err


def test_selftest_usage_errors_return_two(capsys):
    assert main(["--language", "de"]) == 2
    assert "invalid choice: 'de'" in capsys.readouterr().err


@pytest.mark.parametrize("argv, words", [
    (["--step", "-1"], "--step: '-1' is not a number of seconds from 0 to 10"),
    (["--step", "nan"], "--step: 'nan' is not a number of seconds from 0 to 10"),
    (["--watch", "inf"], "--watch: 'inf' is not a number of seconds from 0 to 3600"),
    (["--watch", "1e999"], "--watch: '1e999' is not a number of seconds from 0 to 3600"),
])
def test_selftest_durations_out_of_range_are_refused(capsys, argv, words):
    assert main(["--mock", "--sound", "none", *argv]) == 2
    assert words in capsys.readouterr().err
