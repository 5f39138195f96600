"""The console's side of a session: the Godfather's inputs in, the pages' views out.

The session runs in its own thread.  At the steps the Godfather answers, it waits in
:meth:`ConsoleSource.answer` until his input (sent by a console page, submitted through
:meth:`Relay.submit`) has been accepted; a step with only one possible answer is answered
by the console itself.  The players' own pages (a gang's, or a player's) enter their own
loot picks, and their own cards (:meth:`Relay.claim`): every card of a step known, the step
goes by itself a moment later.  Every change of the game, whoever made it, bumps the relay's
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
from . import labels, shapes, views
from .tokens import GODFATHER, TEAM, Tokens

log = logging.getLogger(__name__)

PageQueue = asyncio.Queue[dict[str, Any] | None]  # the views for a live page (``None``: close it)

# Live pages per token: a phone that reconnects while its old socket is not yet known dead
# takes the oldest one's place.
PAGES_PER_TOKEN = 4

# What a team's own page may enter (for its own players): the loot card taken, the cards shown.
TEAM_INPUTS = ("pick", "claim")
# Cards a page may enter (or change) in one round: a few a step at a table; past this, a page that
# floods the console is refused (and the game log is not filled with its entries).
CLAIMS_PER_ROUND = 60


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
        # seconds before an answer goes by itself: the aims, Bang! Bang! Bang!, the Godfather's order
        # and a camera verdict the sensors agree with (sent by the page), the cards every player
        # entered on his own page (sent from here), the cards shown as preselected or tapped on the
        # Godfather's page while no player's page is open (sent by the page, each tap starting the moment again)
        self.grace = {"aims": 2.5, "bbb": 4.0, "privilege": 5.0, "verdict": 4.0, "cards": 3.0, "picks": 3.0, "shown": 4.0}
        self.cards_due: float | None = None  # when the cards go down by themselves (time.time())
        self.cards_held = False  # the Godfather asked the table to wait
        # The cards the players entered on their own pages (or the Godfather, for later): player ->
        # (card, who entered it: a team, or ``GODFATHER``), for the round they were entered in; an
        # undo holds the step where it lands (nothing goes by itself there until a card is entered again).
        self.claims: dict[str, tuple[str, str]] = {}
        self._claims_round = 0
        self._claim_counts: dict[str, int] = {}  # entries of each page this round
        self.claimed_at = 0.0
        self._held: tuple[int, str, int] | None = None
        self._restore_claims()
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
                view = cached[1]
            elif role == GODFATHER:
                view = views.godfather_view(self.session, version, self.team_links())
                view["grace"] = dict(self.grace)
                view["cards_held"] = self.cards_held
                claims = self.current_claims()
                view["claims"] = {n: {"card": c, "by": by} for n, (c, by) in claims.items()}
            elif role == TEAM and team is not None:
                view = views.team_view(self.session, version, team)
                claims = self.current_claims()
                view["asks"] = views.team_asks(self.session, team, {n: c for n, (c, _) in claims.items()})
            else:
                view = views.table_view(self.session, version)
            self._cache[(role, team)] = (version, view)
            if role == GODFATHER:  # the countdowns, as of now (a page that reconnects starts them from here),
                # and whether a player's page is open (then the cards are left to the players' pages)
                view = {**view, **self._countdowns(), "team_pages": self.team_pages()}
            return view

    def _countdowns(self) -> dict[str, float | None]:
        """Seconds before the cards go down by themselves, and before the cards entered on the pages go."""
        due = self.cards_due
        claimed = self.claimed_answer()
        return {"cards_in": None if due is None or self.cards_held else max(0.0, round(due - time.time(), 1)),
                "claims_in": None if claimed is None else max(0.0, round(claimed[1] - time.time(), 1))}

    # -- inputs from the Godfather, and from the players' own pages ------------------

    def submit(self, data: Any, *, team: str | None = None) -> str | None:
        """An input from the Godfather's page (``team`` None) or from a team's own page (its own
        players' loot picks and cards only): ``None`` when accepted, else the reason it was refused."""
        try:
            shapes.check(data)
        except shapes.ShapeError as exc:
            return str(exc)
        kind = data["kind"]
        if team is not None:
            refused = self._team_may(team, data)
            if refused is not None:
                return refused
        if kind == "claim":
            return self.claim(data["cards"], by=team or GODFATHER)
        seen = data.pop("seen", None)
        if seen is not None and seen != self.session.history.count:
            return "the table moved on since that page was drawn: look again"
        if kind == "sensor":
            return self._sensor(data)
        if kind == "undo":
            reason = self.session.undo(data.get("count"))
            if reason is None:
                with self.session.lock:
                    self._held = self._step_key()
            return reason
        if kind == "watch":  # the camera cued for the next throw: not an input of the game
            return self.session.cue_throw(data["thrower"], data.get("target"))
        if kind == "wait":
            if self.session.referee.step is not Step.CARDS:
                return "the table waits only while the cards go down"
            self.cards_held = True
            self.changed()
            return None
        later = data.pop("later", None) if kind == "show" else None
        try:
            inp = I.from_json(data)
        except I.BadInput as exc:
            return str(exc)
        if later:  # the cards to be discarded unseen at the end of the round, entered with the cards shown
            reason = self.claim(later, by=GODFATHER)
            if reason is not None:
                return reason
        try:
            return self.session.try_submit(inp)
        except Exception as exc:  # noqa: BLE001 (a bug in the engine: the input is refused, the game goes on unchanged)
            self.faults += 1
            log.error("the %s input could not be applied: %s: %s", kind, type(exc).__name__, exc)
            return f"this {kind} input could not be applied ({type(exc).__name__}); nothing changed"

    def _team_may(self, team: str, data: dict[str, Any]) -> str | None:
        """Why a team's page may not send ``data`` (``None``: it may)."""
        game = self.session.referee.game
        own = {p.name for p in game.players if views.team_of(self.session, p.seat) == team}
        kind = data["kind"]
        def page_of(name: str) -> str:
            seat = next(p.seat for p in game.players if p.name == name)
            return f"{views.team_of(self.session, seat)}'s page"

        names = [data["player"]] if kind == "pick" else list(data["cards"]) if kind == "claim" else []
        stranger = next((n for n in names if n not in {p.name for p in game.players}), None)
        if stranger is not None:
            return f"{stranger[:40]!r} is not a player"
        if kind == "pick":
            who = data["player"]
            return None if who in own else f"{who} takes on {page_of(who)}, or the Godfather enters it"
        if kind == "claim":
            other = next((n for n in data["cards"] if n not in own), None)
            return None if other is None else f"{other}'s card is entered on {page_of(other)}, or by the Godfather"
        return "only the Godfather enters this" if kind not in TEAM_INPUTS else None

    # -- the cards the players enter themselves ------------------------------------------

    def _step_key(self) -> tuple[int, str, int]:
        referee = self.session.referee
        return (referee.prompt().round, referee.step.value, self.session.history.count)

    def current_claims(self) -> dict[str, tuple[str, str]]:
        """The cards entered on the pages for this round."""
        with self.session.lock:
            number = self.session.referee.prompt().round
            if number != self._claims_round:  # a new round (an undo keeps them: they preselect, nothing goes by itself)
                self.claims = {}
                self._claim_counts = {}
                self._claims_round = number
            return self.claims

    def _restore_claims(self) -> None:
        """A resumed game: the cards entered on the pages this round, from the game log."""
        game_log = self.session.game_log
        number = self.session.referee.prompt().round
        for entry in getattr(game_log, "earlier", ()):
            claim = entry.get("claim") if isinstance(entry, dict) else None
            if not isinstance(claim, dict) or claim.get("round") != number or not isinstance(claim.get("cards"), dict):
                continue
            by = str(claim["by"]) if isinstance(claim.get("by"), str) else GODFATHER
            for name, card in claim["cards"].items():
                if card is None:
                    self.claims.pop(name, None)
                elif isinstance(card, str):
                    self.claims[name] = (card, by)
        if self.claims:
            self._claims_round = number
            self.claimed_at = time.time()

    def claim(self, cards: dict[str, str | None], *, by: str) -> str | None:
        """Cards entered on a page (``None``: entered by mistake, taken back): they preselect the
        Godfather's rows, and when every card of the step is known the step goes by itself."""
        with self.session.lock:
            claims = self.current_claims()
            rows = views.asked_cards(self.session)
            number = self.session.referee.prompt().round
            players = {p.name for p in self.session.referee.game.players}
            for name, card in cards.items():
                if name not in players:
                    return f"{name[:40]!r} is not a player"
                if name not in rows:
                    return f"round {number}: the table does not ask for {name}'s card now"
                if card is not None and card not in rows[name]["cards"]:
                    return f"round {number}: {name} cannot show {labels.card(card)} now"
            changed = {n: c for n, c in cards.items() if (claims.get(n) or (None, None))[0] != c}
            if not changed and self._held is None:
                return None  # sent again (a page that did not see its answer): nothing new
            entered = self._claim_counts.get(by, 0)
            if entered >= CLAIMS_PER_ROUND:
                who = "the Godfather" if by == GODFATHER else f"{by}'s page"
                return f"round {number}: {who} entered {entered} cards this round already: the Godfather enters the rest"
            self._claim_counts[by] = entered + 1
            if changed and self.session.game_log is not None:  # kept with the game: a resumed game has them again
                self.session.game_log.seen({"claim": {"round": number, "cards": changed, "by": by}})
            for name, card in changed.items():
                if card is None:
                    claims.pop(name, None)
                else:
                    claims[name] = (card, by)
            self.claimed_at = time.time()
            self._held = None
        self.changed()
        return None

    def claimed_answer(self) -> tuple[I.Input, float] | None:
        """The cards shown (or discarded) when every one of them was entered on the pages (or has
        only one possibility), and when they go: a moment after the last one was entered (time to
        correct one; the cards entered with the last step's, long ago, go at once)."""
        session = self.session
        with session.lock:
            step = session.referee.step
            if step not in (Step.REVEAL, Step.DISCARDS) or session.pending is not None or self._held == self._step_key():
                return None
            claims = self.current_claims()
            choices = views.card_choices(session)
            if not choices or not any(n in claims for n in choices):
                return None
            shown: dict[str, str] = {}
            for name, choice in choices.items():
                legal = choice["cards"]
                card = claims[name][0] if name in claims and claims[name][0] in legal else (legal[0] if len(legal) == 1 else None)
                if card is None:
                    return None
                if not choice.get("later"):
                    shown[name] = card
            return I.Show(shown), self.claimed_at + self.grace.get("cards", 3.0)

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

    def subscribe(self, token: str, role: str, team: str | None) -> PageQueue:
        """A live page for ``token``: its queue of views.  Past :data:`PAGES_PER_TOKEN`, the oldest page
        of that token is told to close (its views not yet sent are dropped: a page that stopped reading
        has its queue full)."""
        queue: PageQueue = asyncio.Queue(maxsize=2)
        pages = self._pages.setdefault(token, [])
        pages.append((queue, role, team))
        if len(pages) > PAGES_PER_TOKEN:
            dropped = pages.pop(0)[0]
            while not dropped.empty():
                dropped.get_nowait()
            dropped.put_nowait(None)
        return queue

    def unsubscribe(self, queue: PageQueue) -> None:
        for token, pages in list(self._pages.items()):
            pages[:] = [p for p in pages if p[0] is not queue]
            if not pages:
                del self._pages[token]

    def pages(self) -> int:
        """How many live pages are open."""
        return sum(len(p) for p in self._pages.values())

    def team_pages(self) -> int:
        """How many of them are players' own pages (a gang's, or a player's)."""
        return sum(1 for pages in list(self._pages.values()) for _, role, _ in list(pages) if role == TEAM)

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
        # The table is looked at without holding the relay's condition: looking takes the session's
        # lock, which another thread may hold while it waits for the devices' clock, whose callbacks
        # (the count shown) tell the relay of a change, which takes the condition.  The condition is
        # held only to wait, and only if nothing changed since the look (no change is missed).
        while True:
            seen = relay.version
            if relay.stopped or referee.step is not prompt.step or referee.prompt().round != prompt.round:
                break
            if session.undos != undos or session.history.count != inputs:
                return None  # an input was taken back, or one was given (a throw): the session asks again
            ends = session.intermission_ends
            if ends is not None and time.time() >= ends:
                return I.Resume()  # the 5 minutes are up
            auto = views.only_answer(session)
            due = prompt.step is not Step.CARDS or (not relay.cards_held and time.monotonic() - started >= self.cards_after)
            claimed = relay.claimed_answer() if auto is None else None
            if claimed is not None and time.time() >= claimed[1]:
                session.try_submit(claimed[0])  # the players' own entries: an input of the table
                continue
            if auto is not None and due:
                session.try_submit(auto, auto=True)  # refused: someone was first; the loop sees it
                continue
            wait = 0.5 if auto is None else max(0.01, min(0.5, self.cards_after - (time.monotonic() - started)))
            if claimed is not None:
                wait = max(0.01, min(wait, claimed[1] - time.time()))
            with relay.condition:
                if relay.version == seen and not relay.stopped:
                    relay.condition.wait(timeout=wait)
        relay.cards_due = None
        if relay.stopped:
            raise SystemExit("the console stopped")
        return None
