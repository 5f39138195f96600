"""The selftest command on mock pins."""

import re

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
