"""The selftest command on mock pins."""

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
