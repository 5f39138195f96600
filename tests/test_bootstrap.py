"""``python3 -m controller.bootstrap``: its help and its usage, without making an environment."""

from __future__ import annotations

import pytest

from controller import bootstrap


def _no_install(monkeypatch):
    monkeypatch.setattr(bootstrap, "ensure_installed", lambda extra: pytest.fail("nothing may be installed"))


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_says_what_it_does_and_exits_0(flag, monkeypatch, capsys):
    _no_install(monkeypatch)
    assert bootstrap.main([flag]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: python3 -m controller.bootstrap {demo,test} [options]")
    assert str(bootstrap.VENV) in out and "cashnguns" in out


@pytest.mark.parametrize("argv", [[], ["play"], ["--demo"]])
def test_anything_else_is_the_usage_in_one_line_and_exit_2(argv, monkeypatch, capsys):
    _no_install(monkeypatch)
    assert bootstrap.main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "usage: python3 -m controller.bootstrap" in err and "--help" in err
