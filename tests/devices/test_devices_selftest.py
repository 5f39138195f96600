"""The selftest command on mock pins."""

import re

import pytest

from controller.devices.selftest import main
from controller.devices.vocabulary import CLIP_KEYS, clip_texts


def test_selftest_walks_through_every_device_on_mock_pins(capsys):
    assert main(["--mock", "--sound", "buzzer", "--step", "0", "--watch", "0"]) == 0
    out = capsys.readouterr().out
    for seat in range(9):
        assert f"  seat {seat}\n" in out
        assert f"seat {seat} up" in out
    for text in clip_texts("en").values():  # each sound by what it says
        assert f'  "{text}"\n' in out
    assert "  (a pause)\n" in out
    assert "too late, stand the character up: fast blink" in out and "selftest passed" in out
    assert '  "1", "2" and "3" lit\n' in out


def test_selftest_lists_what_a_player_hears_and_sees_never_a_key_of_the_code(capsys):
    """No clip key (number.1, gang.red, too_late) nor status name (in_share) in what the selftest prints,
    in any language."""
    for language in ("en", "fr"):
        assert main(["--mock", "--sound", "none", "--step", "0", "--watch", "0", "--lang", language]) == 0
        out = capsys.readouterr().out
        assert not re.search(r"\b[A-Za-z]+[._][A-Za-z0-9]+\b", out.replace("...", "")), re.findall(r"\b[A-Za-z]+[._][A-Za-z0-9]+\b", out)
        assert ('"un"' if language == "fr" else '"one"') in out
        assert not any(f"  {key}\n" in out for key in CLIP_KEYS)


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


def test_a_reader_gone_away_never_fails_the_clocks_timers():
    """`cashnguns selftest | head`: the tilt lines come on the devices' clock thread, which must not fail
    (its failures are logged with a traceback); the main thread stops at its next line."""
    from controller.devices.interfaces import TiltEvent
    from controller.devices.selftest import _Report

    class Gone:
        def write(self, text):
            raise BrokenPipeError(32, "Broken pipe")

        def flush(self):
            raise BrokenPipeError(32, "Broken pipe")

    report = _Report(Gone(), 3)
    report.tilt(TiltEvent(seat=1, up=True, time=0.5))
    assert report.state == [None, True, None] and report.ever_up == {1}
    with pytest.raises(BrokenPipeError):
        report.say("selftest passed")
