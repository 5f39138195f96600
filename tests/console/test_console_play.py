"""``python -m controller play`` at a (mock-pinned) table: the console is served and answers; its
tokens are kept beside the game log for the table's user only, never in the log; a resumed game
serves the console where the configuration says, with the same links."""

from __future__ import annotations

import json
import os
import re
import socket
import stat
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def config(tmp_path, port: int) -> Path:
    text = (ROOT / "hardware" / "table.toml").read_text()
    text = text.replace('port = 8080', f'port = {port}').replace('host = "0.0.0.0"', 'host = "127.0.0.1"')
    text = text.replace('dir = "~/.local/share/cashnguns-table"', f'dir = "{tmp_path}"')
    text += '\n[sound]\noutput = "none"\n'
    path = tmp_path / f"table-{port}.toml"
    path.write_text(text)
    return path


def start(args, tmp_path):
    # the game log keeps the rules' settings, not the sound card's: a resumed game plays through
    # aplay, here a silent stand-in
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "aplay").write_text("#!/bin/sh\ncat >/dev/null\n")
    (bin_dir / "aplay").chmod(0o755)
    env = dict(os.environ, GPIOZERO_PIN_FACTORY="mock", PYTHONUNBUFFERED="1", PATH=f"{bin_dir}:{os.environ['PATH']}")
    proc = subprocess.Popen([sys.executable, "-m", "controller", *args], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    link = None
    deadline = time.monotonic() + 60
    seen = []
    while link is None and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        seen.append(line)
        found = re.search(r"console: (http://\S+/godfather\?token=\S+)", line)
        link = found.group(1) if found else None
    assert link, "the Godfather's link was not printed: " + "".join(seen)
    return proc, link


def test_play_serves_the_console_keeps_its_tokens_apart_and_resume_serves_where_configured(tmp_path):
    proc, link = start(["play", "--config", str(config(tmp_path, 0))], tmp_path)
    try:
        base, token = link.split("/godfather?token=")
        state = json.load(urllib.request.urlopen(f"{base}/api/state?token={token}"))
        assert state["role"] == "godfather" and state["step"] in ("cards", "aims") and len(state["players"]) == 9
        logs = list(tmp_path.glob("*.log"))
        assert len(logs) == 1
        log = logs[0]
        deadline = time.monotonic() + 20
        while b'"kind":"cards"' not in log.read_bytes() and time.monotonic() < deadline:
            time.sleep(0.1)  # the cards go down by themselves (no tap): then the count
        assert b'"kind":"cards"' in log.read_bytes()
        assert token.encode() not in log.read_bytes()  # no token in the log
        kept = log.with_name(log.name + ".console")
        assert stat.S_IMODE(kept.stat().st_mode) == 0o600 and stat.S_IMODE(log.stat().st_mode) == 0o600
        assert json.loads(kept.read_text())["godfather"] == token
    finally:
        proc.kill()
        proc.wait()
    port = free_port()
    proc, again = start(["resume", str(log), "--config", str(config(tmp_path, port))], tmp_path)
    try:
        assert again == f"http://127.0.0.1:{port}/godfather?token={token}"  # where [console] says, same link
        state = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state?token={token}"))
        assert state["role"] == "godfather"
    finally:
        proc.kill()
        proc.wait()
