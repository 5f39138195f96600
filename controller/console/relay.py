"""The console's side of a session: the Godfather's inputs in, the pages' views out.

The session runs in its own thread.  At the steps the Godfather answers, it waits in
:meth:`ConsoleSource.answer` until his input (sent by a console page, submitted through
:meth:`Relay.submit`) has been accepted; a step with only one possible answer is answered
by the console itself.  Every change of the game, whoever made it, bumps the relay's
version and is pushed to every open page, each getting the view its token entitles it to
(one view built per kind of page and change, however many pages are open).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from typing import Any
from urllib.parse import quote

from ..table import inputs as I
from ..table.referee import Prompt, Step
from ..table.session import Session
from . import shapes, views
from .tokens import GODFATHER, TEAM, Tokens

log = logging.getLogger(__name__)

PageQueue = asyncio.Queue[dict[str, Any] | None]  # the views for a live page (``None``: close it)

# Live pages per token: a phone that reconnects while its old socket is not yet known dead
# takes the oldest one's place.
PAGES_PER_TOKEN = 4


class Relay:
    """Connects one session to the console's pages."""

    def __init__(self, session: Session, tokens: Tokens, *, base_url: str = "") -> None:
        self.session = session
        self.tokens = tokens
        self.base_url = base_url.rstrip("/")
        self.version = 0
        self.condition = threading.Condition()
        self.stopped = False
        self.faults = 0  # inputs the engine raised on instead of refusing (a bug: logged, refused)
        self.grace = {"aims": 2.5, "bbb": 4.0}  # seconds before the page sends an answer by itself
        self.cards_due: float | None = None  # when the cards go down by themselves (time.time())
        self.cards_held = False  # the Godfather asked the table to wait
        self._pages: dict[str, list[tuple[PageQueue, str, str | None]]] = {}
        self._cache: dict[tuple[str, str | None], tuple[int, dict[str, Any]]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        session.listeners.append(self.changed)

    # -- links ---------------------------------------------------------------

    def team_link(self, team: str) -> str:
        return f"{self.base_url}/team/{quote(team, safe='')}?token={quote(self.tokens.teams[team], safe='')}"

    def team_links(self) -> dict[str, str]:
        return {team: self.team_link(team) for team in self.tokens.teams}

    def godfather_link(self) -> str:
        return f"{self.base_url}/godfather?token={quote(self.tokens.godfather, safe='')}"

    # -- views -----------------------------------------------------------------

    def view(self, role: str, team: str | None) -> dict[str, Any]:
        with self.session.lock:
            version = self.version
            cached = self._cache.get((role, team))
            if cached is not None and cached[0] == version and self.session.intermission_ends is None:
                return cached[1]
            if role == GODFATHER:
                view = views.godfather_view(self.session, version, self.team_links())
                view["grace"] = dict(self.grace)
                due = self.cards_due
                view["cards_in"] = None if due is None or self.cards_held else max(0.0, round(due - time.time(), 1))
                view["cards_held"] = self.cards_held
            elif role == TEAM and team is not None:
                view = views.team_view(self.session, version, team)
            else:
                view = views.table_view(self.session, version)
            self._cache[(role, team)] = (version, view)
            return view

    # -- inputs from the Godfather ---------------------------------------------

    def submit(self, data: Any) -> str | None:
        """An input from a Godfather page: ``None`` when accepted, else the reason it was refused."""
        try:
            shapes.check(data)
        except shapes.ShapeError as exc:
            return str(exc)
        kind = data["kind"]
        if kind == "sensor":
            return self._sensor(data)
        if kind == "undo":
            return self.session.undo(data.get("count"))
        if kind == "wait":
            if self.session.referee.step is not Step.CARDS:
                return "the table waits only while the cards go down"
            self.cards_held = True
            self.changed()
            return None
        try:
            inp = I.from_json(data)
        except I.BadInput as exc:
            return str(exc)
        try:
            return self.session.try_submit(inp)
        except Exception as exc:  # noqa: BLE001 (a bug in the engine: the input is refused, the game goes on unchanged)
            self.faults += 1
            log.error("the %s input could not be applied: %s: %s", kind, type(exc).__name__, exc)
            return f"this {kind} input could not be applied ({type(exc).__name__}); nothing changed"

    def _sensor(self, data: dict[str, Any]) -> str | None:
        game = self.session.referee.game
        try:
            seat = game.seat_of(data["player"])
        except KeyError:
            return f"{data['player']!r} is not a player"
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
            try:
                loop.call_soon_threadsafe(self._broadcast)
            except RuntimeError:  # the loop closed meanwhile
                pass

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def subscribe(self, token: str, role: str, team: str | None) -> tuple[PageQueue, PageQueue | None]:
        """A live page for ``token``: its queue of views, and the queue of the page it replaces (to close), if any."""
        queue: PageQueue = asyncio.Queue(maxsize=2)
        pages = self._pages.setdefault(token, [])
        pages.append((queue, role, team))
        dropped = pages.pop(0)[0] if len(pages) > PAGES_PER_TOKEN else None
        return queue, dropped

    def unsubscribe(self, queue: PageQueue) -> None:
        for token, pages in list(self._pages.items()):
            pages[:] = [p for p in pages if p[0] is not queue]
            if not pages:
                del self._pages[token]

    def pages(self) -> int:
        """How many live pages are open."""
        return sum(len(p) for p in self._pages.values())

    def _broadcast(self) -> None:
        for pages in list(self._pages.values()):
            for queue, role, team in list(pages):
                view = self.view(role, team)  # built once per kind of page and version
                if queue.full():  # a slow page only needs the newest state
                    try:
                        queue.get_nowait()
                    except asyncio.QueueEmpty:
                        pass
                queue.put_nowait(view)

    def stop(self) -> None:
        with self.condition:
            self.stopped = True
            self.condition.notify_all()


class ConsoleSource:
    """The session's input source at a real table: the Godfather answers on his console.

    A step with only one possible answer is answered here, at once; the cards go down
    ``cards_after`` seconds after the round begins (time to choose them, and to undo the last
    round's input), unless the Godfather asks the table to wait, or starts the count sooner.
    """

    def __init__(self, relay: Relay, *, cards_after: float = 12.0) -> None:
        self.relay = relay
        self.cards_after = cards_after

    def answer(self, prompt: Prompt) -> I.Input | None:
        relay = self.relay
        session = relay.session
        referee = session.referee
        undos, inputs = session.undos, session.history.count
        started = time.monotonic()
        if prompt.step is Step.CARDS:
            relay.cards_due, relay.cards_held = time.time() + self.cards_after, False
            relay.changed()
        with relay.condition:
            while not relay.stopped and referee.step is prompt.step and referee.prompt().round == prompt.round:
                if session.undos != undos or session.history.count != inputs:
                    return None  # an input was taken back, or one was given (a throw): the session asks again
                ends = session.intermission_ends
                if ends is not None and time.time() >= ends:
                    return I.Resume()  # the 5 minutes are up
                auto = views.only_answer(session)
                due = prompt.step is not Step.CARDS or (not relay.cards_held and time.monotonic() - started >= self.cards_after)
                if auto is not None and due:
                    relay.condition.release()
                    try:
                        session.try_submit(auto, auto=True)  # refused: someone was first; the loop sees it
                    finally:
                        relay.condition.acquire()
                    continue
                wait = 0.5 if auto is None else max(0.01, min(0.5, self.cards_after - (time.monotonic() - started)))
                relay.condition.wait(timeout=wait)
        relay.cards_due = None
        if relay.stopped:
            raise SystemExit("the console stopped")
        return None
