"""The console's tokens: the Godfather's, and one per team (a gang in Yakuzas, else a player).

Tokens are 96 random bits, compared in constant time.  They are kept in a file of their own
beside the game log (``<log>.console``, readable by the table's user only), never in the log,
so that a resumed game keeps the phones' links good and the place the console was served at.
"""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import GameLogError

GODFATHER = "godfather"
TEAM = "team"
TABLE = "table"
MAX_FILE = 64 * 1024


class TokenFileError(GameLogError):
    """A console token file that cannot be used; ``str()`` names the file and what is wrong."""


@dataclass
class Tokens:
    """The Godfather's token, and one per team (gang, or player outside Yakuzas)."""

    godfather: str
    teams: dict[str, str] = field(default_factory=dict)

    @classmethod
    def new(cls, teams: list[str]) -> Tokens:
        return cls(secrets.token_urlsafe(12), {t: secrets.token_urlsafe(12) for t in teams})

    def to_json(self) -> dict[str, Any]:
        return {"godfather": self.godfather, "teams": dict(self.teams)}

    @classmethod
    def from_json(cls, data: Any) -> Tokens:
        if not isinstance(data, dict) or not isinstance(data.get("godfather"), str) or not isinstance(data.get("teams"), dict):
            raise TokenFileError("the console's tokens: expected {\"godfather\": ..., \"teams\": {...}}")
        teams = data["teams"]
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in teams.items()):
            raise TokenFileError("the console's tokens: each team's token is a string")
        return cls(data["godfather"], dict(teams))

    def role(self, token: str | None) -> tuple[str, str | None]:
        """(GODFATHER, None), (TEAM, team) or (TABLE, None) for a token."""
        if token:
            given = token.encode("utf-8", "surrogateescape")
            if secrets.compare_digest(given, self.godfather.encode()):
                return GODFATHER, None
            for team, value in self.teams.items():
                if secrets.compare_digest(given, value.encode()):
                    return TEAM, team
        return TABLE, None


def file_for(log_path: str | Path) -> Path:
    """Where the console's tokens of the game logged at ``log_path`` are kept."""
    path = Path(log_path)
    return path.with_name(path.name + ".console")


def save(path: str | Path, tokens: Tokens, *, host: str | None = None, port: int | None = None) -> None:
    """Write the tokens (and where the console is served) to ``path``, readable by this user only."""
    path = Path(path)
    data = {**tokens.to_json(), "host": host, "port": port}
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        os.fchmod(out.fileno(), 0o600)  # even if the file was there before with a wider mode
        json.dump(data, out)
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, path)


def load(path: str | Path) -> tuple[Tokens, str | None, int | None]:
    """The tokens kept in ``path``, and the host and port the console was served at."""
    path = Path(path)
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_FILE + 1)
    except OSError as exc:
        raise TokenFileError(f"{path}: cannot read the console's tokens: {exc.strerror}") from None
    if len(raw) > MAX_FILE:
        raise TokenFileError(f"{path}: not a console token file (over {MAX_FILE} bytes)")
    try:
        data = json.loads(raw)
        tokens = Tokens.from_json(data)
    except (ValueError, RecursionError, TokenFileError) as exc:
        raise TokenFileError(f"{path}: {exc}") from None
    host = data.get("host") if isinstance(data.get("host"), str) else None
    port = data.get("port")
    port = port if isinstance(port, int) and not isinstance(port, bool) and 0 <= port < 65536 else None
    return tokens, host, port
