"""The console's side of a session: tokens, the Godfather's inputs, and live updates.

The session runs in its own thread.  At the steps the Godfather answers, it waits in
:meth:`ConsoleSource.answer` until his input (sent by a console page, submitted through
:meth:`Hub.submit`) has been accepted.  Every change of the game, whoever made it, bumps
the hub's version and is pushed to every open page, each getting the view its token
entitles it to.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..table import inputs as I
from ..table.referee import Prompt
from ..table.session import Session
from . import views

log = logging.getLogger(__name__)


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
    def from_json(cls, data: dict[str, Any]) -> Tokens:
        return cls(str(data["godfather"]), {str(k): str(v) for k, v in data["teams"].items()})

    def role(self, token: str | None) -> tuple[str, str | None]:
        """("godfather", None), ("team", team) or ("table", None) for a token."""
        if token:
            if secrets.compare_digest(token, self.godfather):
                return views.GODFATHER, None
            for team, value in self.teams.items():
                if secrets.compare_digest(token, value):
                    return "team", team
        return "table", None


class Hub:
    """Connects one session to the console's pages."""

    def __init__(self, session: Session, tokens: Tokens, *, base_url: str = "") -> None:
        self.session = session
        self.tokens = tokens
        self.base_url = base_url.rstrip("/")
        self.version = 0
        self.condition = threading.Condition()
        self.stopped = False
        self._subscribers: set[tuple[asyncio.Queue, str, str | None]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        session.listeners.append(self.changed)

    # -- links ---------------------------------------------------------------

    def team_links(self) -> dict[str, str]:
        return {team: f"{self.base_url}/team/{team}?token={token}" for team, token in self.tokens.teams.items()}

    def godfather_link(self) -> str:
        return f"{self.base_url}/godfather?token={self.tokens.godfather}"

    # -- views -----------------------------------------------------------------

    def view(self, role: str, team: str | None) -> dict[str, Any]:
        with self.session.lock:
            if role == views.GODFATHER:
                return views.godfather_view(self.session, self.version, self.team_links())
            if role == "team":
                return views.team_view(self.session, self.version, team)
            return views.table_view(self.session, self.version)

    # -- inputs from the Godfather ---------------------------------------------

    def submit(self, data: Any) -> str | None:
        """An input from a Godfather page: ``None`` when accepted, else the reason it was refused."""
        if isinstance(data, dict) and data.get("kind") == "sensor":
            return self._sensor(data)
        try:
            inp = I.from_json(data)
        except I.BadInput as exc:
            return str(exc)
        return self.session.try_submit(inp)

    def _sensor(self, data: dict) -> str | None:
        game = self.session.referee.game
        try:
            seat = game.seat_of(data.get("player"))
        except KeyError:
            return f"{data.get('player')!r} is not a player"
        self.session.override_sensor(seat, by_godfather=bool(data.get("godfather", True)))
        return None

    # -- change and live updates -----------------------------------------------

    def changed(self) -> None:
        """Called (from any thread) after every change of the game."""
        with self.condition:
            self.version += 1
            self.condition.notify_all()
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._broadcast)

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def subscribe(self, role: str, team: str | None) -> asyncio.Queue:
        queue: asyncio.Queue = asyncio.Queue(maxsize=8)
        self._subscribers.add((queue, role, team))
        return queue

    def unsubscribe(self, queue: asyncio.Queue) -> None:
        self._subscribers = {s for s in self._subscribers if s[0] is not queue}

    def _broadcast(self) -> None:
        for queue, role, team in list(self._subscribers):
            if queue.full():  # a slow page only needs the newest state
                try:
                    queue.get_nowait()
                except asyncio.QueueEmpty:
                    pass
            queue.put_nowait(self.view(role, team))

    def stop(self) -> None:
        with self.condition:
            self.stopped = True
            self.condition.notify_all()


class ConsoleSource:
    """The session's input source at a real table: the Godfather answers on his console."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    def answer(self, prompt: Prompt) -> I.Input | None:
        hub = self.hub
        session = hub.session
        referee = session.referee
        with hub.condition:
            while not hub.stopped and referee.step is prompt.step and referee.prompt().round == prompt.round:
                ends = session.intermission_ends
                if ends is not None and time.time() >= ends:
                    return I.Resume()  # the 5 minutes are up
                hub.condition.wait(timeout=0.5)
        if hub.stopped:
            raise SystemExit("the console stopped")
        return None


def serve(session: Session, tokens: Tokens, *, host: str, port: int, say: Callable[[str], None]):
    """Serve the console for ``session``: returns its input source and a function that stops it."""
    from .server import ConsoleServer

    hub = Hub(session, tokens)
    source = ConsoleSource(hub)
    server = ConsoleServer(hub, host=host, port=port)
    server.start()
    shown_host = host if host not in ("0.0.0.0", "::") else _lan_address()
    hub.base_url = f"http://{shown_host}:{server.port}"
    say(f"The Godfather's console: {hub.godfather_link()}")
    say(f"The table, for anyone: {hub.base_url}/")
    return source, server.stop


def _lan_address() -> str:
    """The name phones on the local network reach this machine by (mDNS, as Raspberry Pi OS has)."""
    import socket

    name = socket.gethostname()
    return name if "." in name else f"{name}.local"
