"""``python -m controller play`` at a (mock-pinned) table: the console is served, and answers."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_play_serves_the_console_and_takes_the_godfathers_inputs(tmp_path):
    config = (ROOT / "hardware" / "table.toml").read_text()
    config = config.replace('port = 8080', 'port = 0').replace('host = "0.0.0.0"', 'host = "127.0.0.1"')
    config = config.replace('dir = "~/.local/share/cashnguns-table"', f'dir = "{tmp_path}"')
    config += '\n[sound]\noutput = "none"\n'
    path = tmp_path / "table.toml"
    path.write_text(config)
    env = dict(os.environ, GPIOZERO_PIN_FACTORY="mock", PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "controller", "play", "--config", str(path)], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        link = None
        deadline = time.monotonic() + 60
        while link is None and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            found = re.search(r"console: (http://\S+/godfather\?token=\S+)", line)
            link = found.group(1) if found else None
        assert link, "the Godfather's link was not printed"
        base, token = link.split("/godfather?token=")
        state = json.load(urllib.request.urlopen(f"{base}/api/state?token={token}"))
        assert state["role"] == "godfather" and state["step"] == "cards" and len(state["players"]) == 9
        request = urllib.request.Request(f"{base}/api/input?token={token}", data=b'{"kind": "cards", "cards": {}}',
                                         headers={"Content-Type": "application/json"}, method="POST")
        assert json.load(urllib.request.urlopen(request))["ok"]
        state = json.load(urllib.request.urlopen(f"{base}/api/state?token={token}"))
        assert state["step"] == "aims"
        logs = list(tmp_path.glob("*.log"))
        assert len(logs) == 1 and b'"kind":"cards"' in logs[0].read_bytes()
    finally:
        proc.kill()
        proc.wait()
