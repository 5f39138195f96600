"""Plays rounds on the Godfather's page by tapping, as a Godfather would, and counts the taps.

The bots act the players (their cards, aims, lay-downs, throws); the driver reads what really
happened from them and taps only what the page does not already show: a target for each
shooter the page does not fill in, a card where the preselected one is wrong, the seats a
shuriken knocked over when the camera is wrong, and a step's main button where the step does not
go by itself.

The players enter their own loot picks and cards on their own pages (a gang's page in Yakuzas,
a player's page otherwise), as the table would: those taps are counted apart (``players``).
"""

from __future__ import annotations

import copy
import os
import shutil
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from controller.console.server import ConsoleServer
from controller.table import inputs as I
from controller.table.referee import Step

CHROMIUM = os.environ.get("CASHNGUNS_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


class TruthCamera:
    """The simulated camera, keeping the truth each throw was judged from."""

    def __init__(self, seed: int = 7) -> None:
        from controller.table.camera import SimulatedCamera

        self.camera = SimulatedCamera(seed)
        self.truths: list = []

    def judge(self, *, thrower, seats, number, truth=None):
        self.truths.append(truth)
        return self.camera.judge(thrower=thrower, seats=seats, number=number, truth=truth)

    def reachable(self, thrower, seats):
        return self.camera.reachable(thrower, seats)


class TruthAimCamera(TruthCamera):
    """The simulated camera reading the aims too (filmed from where the weapons really point), as ``demo`` has it."""

    def read_aims(self, *, seats, shooters, candidates, number, truth=None):
        return self.camera.read_aims(seats=seats, shooters=shooters, candidates=candidates, number=number, truth=truth)


@dataclass
class Table:
    """A console served on 127.0.0.1 for a session played in a thread of its own."""

    session: object
    relay: object
    server: ConsoleServer
    thread: threading.Thread
    failures: list = field(default_factory=list)

    @classmethod
    def start(cls, session, relay) -> Table:
        server = ConsoleServer(relay, host="127.0.0.1", port=0)
        server.start()
        relay.base_url = f"http://127.0.0.1:{server.port}"
        failures: list = []

        def run() -> None:
            try:
                session.run()
            except SystemExit:
                pass
            except Exception as exc:  # noqa: BLE001 (reported by the test)
                failures.append(exc)

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        return cls(session, relay, server, thread, failures)

    def stop(self) -> None:
        self.server.stop()
        self.thread.join(timeout=5)


class Godfather:
    """Taps the page; ``taps`` counts every tap, ``per_round`` the taps of each round."""

    def __init__(self, page, table: Table, camera: TruthCamera | None = None, *, own_pages: bool = True) -> None:
        self.page = page
        self.own_pages = own_pages  # the players enter their picks and cards on their own pages
        self.team_pages: dict = {}
        self.page_errors: list[str] = []  # script errors on the players' pages
        self.player_taps = 0
        self.players_per_round: dict[int, int] = {}
        self.players_log: list[tuple[int, str, str, str]] = []  # (round, step, team, selector)
        self.table = table
        self.session = table.session
        self.relay = table.relay
        self.camera = camera
        self.taps = 0
        self.per_round: dict[int, int] = {}
        self.log: list[tuple[int, str, str]] = []  # (round, step, selector) of each tap
        self.splits: list[tuple[int, list[tuple[str, str]]]] = []  # (round, the true split) entered alone
        self.shots = None  # a folder: screenshots of the main screens, once each

    def shoot(self, name: str, page=None) -> None:
        if self.shots is None or (self.shots / name).exists():
            return
        (page or self.page).screenshot(path=str(self.shots / name))

    # -- tapping and waiting -------------------------------------------------------

    def tap(self, selector: str) -> None:
        number = self.session.referee.prompt().round
        step = self.session.referee.step.value
        self.page.locator(selector).first.click(timeout=10000)
        self.taps += 1
        self.per_round[number] = self.per_round.get(number, 0) + 1
        self.log.append((number, step, selector))

    # -- the players' own pages -----------------------------------------------------

    def team_page(self, name: str):
        """The page of ``name``'s team (opened once, beside the Godfather's), showing the latest state."""
        from controller.console.views import team_of

        session = self.session
        team = team_of(session, session.referee.game.seat_of(name))
        page = self.team_pages.get(team)
        if page is None:  # another phone: a browser context of its own
            context = self.page.context.browser.new_context(viewport=self.page.viewport_size, device_scale_factor=1)
            context.on("weberror", lambda error: self.page_errors.append(str(error.error)))
            page = context.new_page()
            page.goto(self.relay.team_links()[team])
            page.wait_for_selector("#link:not(.down)", timeout=10000)
            self.team_pages[team] = page
        self.fresh(page)
        return team, page

    def close_pages(self) -> None:
        for page in self.team_pages.values():
            page.context.close()
        self.team_pages = {}

    def player_tap(self, name: str, selector: str) -> None:
        """A tap on ``name``'s own page (a player's tap, not the Godfather's)."""
        number = self.session.referee.prompt().round
        step = self.session.referee.step.value
        team, page = self.team_page(name)
        if step in ("picks", "throws"):
            self.shoot(f"console-own-page-{step}.png", page)
        page.locator(selector).first.click(timeout=10000)
        page.wait_for_function("() => !document.querySelector('#sent').textContent.startsWith('sending')", timeout=15000)
        self.player_taps += 1
        self.players_per_round[number] = self.players_per_round.get(number, 0) + 1
        self.players_log.append((number, step, team, selector))

    def enter_own_cards(self, rows: dict) -> None:
        """Each player whose card the table asks for enters it on his own page (a card the rules
        leave alone needs no tap)."""
        bots = self.session.bots
        for name in sorted(rows):
            if len(rows[name]["cards"]) == 1:
                continue
            card = bots.card_of(name).value
            _team, page = self.team_page(name)
            selector = f'[data-action="mine-{name}-{card}"]'
            if page.locator(selector).count() and page.get_attribute(selector, "aria-pressed") != "true":
                self.player_tap(name, selector)

    def settle(self) -> None:
        """Wait until the page shows the server's latest state and nothing is being sent."""
        self.fresh(self.page)

    def fresh(self, page) -> None:
        """Wait until ``page`` shows the server's latest state and sends nothing; else say what each side had."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        version = self.relay.version
        try:
            page.wait_for_function(
                "v => Number(document.body.dataset.version) >= v && !document.querySelector('#sent').textContent.startsWith('sending')",
                arg=version, timeout=15000)
        except PlaywrightTimeout:
            shown = page.evaluate("() => [document.body.dataset.version, document.body.dataset.step, document.body.dataset.role,"
                                  " document.querySelector('#sent').textContent, document.querySelector('#link').textContent]")
            guard = self.table.server.guard
            raise AssertionError(
                f"the page stayed stale: page (version, step, role, sent, link) {shown}; server version {self.relay.version}"
                f" (waited for {version}), step {self.session.referee.step.value}, live pages {self.relay.pages()},"
                f" connections {guard.count()} refused {guard.refused} evicted {guard.evicted} timed out {guard.timed_out}") from None

    def wait_change(self, before: tuple, timeout: float = 15.0) -> None:
        import time

        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.where() != before or self.table.failures:
                return
            time.sleep(0.02)
        raise AssertionError(f"the table stayed at {before}")

    def where(self) -> tuple:
        referee = self.session.referee
        with self.session.lock:  # one consistent look (an input changes the step and the history at once)
            return (referee.prompt().round, referee.step, self.session.history.count, self.session.pending is not None)

    # -- a step -------------------------------------------------------------------------

    def play_until(self, rounds: int) -> None:
        """Play until round ``rounds`` is over (or the game is)."""
        while self.session.referee.step is not Step.OVER and self.session.referee.prompt().round <= rounds:
            assert not self.table.failures, self.table.failures
            self.play_step()

    def play_step(self, until: Callable[[], bool] | None = None) -> None:
        """Play the step the table is at; ``until``: a look at the table (taken under its lock) that,
        when true, leaves the step alone (a test waiting for a step sees it before anything is tapped)."""
        from controller.console.views import only_answer

        session = self.session
        with session.lock:  # one consistent look at the table
            if until is not None and until():
                return
            before = self.where()
            prompt = session.referee.prompt()
            step = prompt.step
            auto = only_answer(session)
        if auto is not None or (step is Step.WITHDRAW and session.pending is None and session.devices is not None):
            self.wait_change(before)
            return
        if step is Step.THROWS and session.pending is None and session.bots.throw_plan(prompt) is not None:
            # the session is about to put up the camera's verdict: a throw filmed and judged, which a loaded
            # machine takes a while over
            self.wait_change(before, timeout=60.0)
            return
        self.settle()
        if self.where() != before:
            return  # the table moved on meanwhile (a step answered by itself): look again
        if step is Step.THROWS and session.pending:
            self.shoot("console-camera-verdict.png")
        elif step is Step.THROWS:
            self.shoot("console-cards.png")
        elif step is Step.AIMS and prompt.round == 2:
            self.shoot("console-next-round.png")
        elif step is Step.PICKS:
            self.shoot("console-picks.png")
        getattr(self, f"_{step.value}")(prompt)
        self.wait_change(before, timeout=20.0)

    def _truth(self, prompt) -> I.Input:
        return self.session.bots.answer(prompt)

    def _cards(self, prompt) -> None:
        self.tap("[data-action=submit-cards]")

    def _aims(self, prompt) -> None:
        truth = self._truth(prompt)
        page = self.page
        reads = hasattr(self.camera, "read_aims")
        if reads:  # the camera's reading comes first (the page fills the aims in from it)
            import time

            end = time.monotonic() + 120
            while self.session.pending is None and self.session.referee.step is Step.AIMS and time.monotonic() < end:
                time.sleep(0.05)
            self.settle()
        for _ in range(4 * len(prompt.players)):
            shooter = page.get_attribute(".seat.shooter", "data-seat", timeout=1000) if page.locator(".seat.shooter").count() else None
            if shooter is None:
                break
            if shooter in truth.late:
                self.tap(f'[data-action="late-{shooter}"]')
            else:
                self.tap(f'[data-seat="{truth.aims[shooter]}"]')
        # aims the page filled in (one legal target, or the camera's reading) that the table did otherwise: correct them
        # (read at once: the aims may have gone by themselves meanwhile, and then there is nothing to correct)
        shown = dict(page.eval_on_selector_all(
            '[data-action^="shooter-"]', "bs => bs.map(b => [b.dataset.action.slice(8), b.textContent.split(' → ')[1] || ''])"))
        for name in prompt.players:
            want = "late" if name in truth.late else (truth.aims.get(name) or "no one")
            if name not in shown or shown[name].removesuffix(" (unsure: check)") == want:
                continue
            self.tap(f'[data-action="shooter-{name}"]')
            self.tap(f'[data-action="late-{name}"]' if name in truth.late else f'[data-seat="{want}"]')
            shown[name] = want
        if any(text.endswith(" (unsure: check)") for text in shown.values()):
            self.tap("[data-action=submit-aims]")  # the camera's guesses checked on the frame: one tap confirms them
        # else the aims go by themselves after a moment (no tap)

    def _privilege_order(self, order) -> None:
        self.tap(f'[data-seat="{order.player}"]')
        self.tap(f'[data-seat="{order.target}"]')
        # the order goes by itself a moment after its target is tapped (no tap)

    def _privilege(self, prompt) -> None:
        truth = self._truth(prompt)
        if truth.player is not None:
            self._privilege_order(truth)
        # no order: "No order" goes by itself after a moment (no tap)

    def _withdraw(self, prompt) -> None:
        check = self.session.pending["check"]
        truth = self._truth(prompt)
        for name in check["seats"]:
            if name in truth.withdrew:
                self.tap(f'[data-action="down-{name}"]')
        self.tap("[data-action=submit-withdraw]")

    def _bbb(self, prompt) -> None:
        shown = self._truth(prompt).cards
        if self.own_pages and shown:
            for name in shown:
                self.player_tap(name, f'[data-action="mine-{name}-bbb"]')
            self.settle()
            self.tap("[data-action=submit-bbb]")
            return
        if any(not self.page.locator(f'[data-action="bbb-{n}"]').count() for n in shown):
            from controller.console.views import card_choices

            raise AssertionError(("bbb", shown, prompt, card_choices(self.session), self.page.get_attribute("body", "data-version"),
                                  self.relay.version, self.session.referee.step, self.session.referee.prompt()))
        for name in shown:
            self.tap(f'[data-action="bbb-{name}"]')
        if shown:
            return  # what is shown goes by itself a moment after the last tap (no tap)
        else:  # "nobody shows one" goes by itself after a moment: the moment is cut short (not a tap)
            self.page.locator("[data-action=submit-bbb]").first.click(timeout=10000)

    def _throws(self, prompt) -> None:
        pending = self.session.pending
        if pending and "verdict" in pending:
            verdict = pending["verdict"]
            names = self.session.referee.names
            knocked, touched = (names(t) for t in self.camera.truths[-1])
            if sorted(verdict["knocked"]) == sorted(knocked) and sorted(verdict["touched"]) == sorted(touched):
                if not verdict["sure"]:
                    self.tap("[data-action=confirm-verdict]")
                return  # sure (the camera and the sensors agree): the verdict goes by itself after a moment
            shown = {**{n: "knocked" for n in verdict["knocked"]}, **{n: "touched" for n in verdict["touched"]}}
            want = {**{n: "knocked" for n in knocked}, **{n: "touched" for n in touched}}
            cycle = [None, "knocked", "touched"]
            for name in sorted(set(shown) | set(want)):
                steps = (cycle.index(want.get(name)) - cycle.index(shown.get(name))) % 3
                for _ in range(steps):
                    self.tap(f'[data-seat="{name}"]')
            self.tap("[data-action=overrule-verdict]")
            return
        truth = self._truth(prompt)
        if isinstance(truth, I.Show):
            (name,) = truth.cards
            if self.page.get_attribute(f'[data-action="thrower-{name}"]', "aria-pressed") != "true":
                self.tap(f'[data-action="thrower-{name}"]')
            self.tap("[data-action=show-shuriken]")
            return
        if self.page.locator('[data-action^="next-"]').count():  # the cards of phase 6 come with "no more throws"
            if self.own_pages:
                from controller.console.views import next_choices

                self.enter_own_cards(next_choices(self.session))
                self.settle()
            after = copy.deepcopy(self.session.referee)
            after.submit(truth)
            if not self._cards_rows(after.prompt().players, "next"):
                self.tap("[data-action=submit-throws-done]")
            # else a card tapped: no more throws, and the cards go by themselves a moment after the last tap
            self._wait_past(Step.THROWS, Step.REVEAL)
            return
        self.tap("[data-action=submit-throws-done]")

    def _wait_past(self, *steps) -> None:
        import time

        end = time.monotonic() + 15
        while self.session.referee.step in steps and time.monotonic() < end:
            time.sleep(0.02)

    def _cards_rows(self, players, prefix: str) -> int:
        """Tap the true card of each row where the page preselected another one; how many were tapped."""
        bots = self.session.bots
        referee = self.session.referee
        hidden = set(referee.names(referee.round.hidden_cards()))
        tapped = 0
        for name in sorted(hidden | set(players)):
            card = bots.card_of(name).value
            button = self.page.locator(f'[data-action="{prefix}-{name}-{card}"]')
            if button.count() and button.first.get_attribute("aria-pressed") != "true":
                self.tap(f'[data-action="{prefix}-{name}-{card}"]')
                tapped += 1
        return tapped

    def _own_cards(self) -> bool:
        """The players enter the cards the table asks for on their own pages; every card known,
        the step goes by itself (no tap of the Godfather's)."""
        from controller.console.views import card_choices

        if not self.own_pages:
            return False
        before = self.where()
        if self.relay.claimed_answer() is None:  # else entered already (the discards, with the cards shown)
            self.enter_own_cards(card_choices(self.session))
        self.wait_change(before, timeout=5.0 + self.relay.grace.get("cards", 3.0))
        return True

    def _reveal(self, prompt) -> None:
        if self._own_cards():
            return
        self._cards_rows(prompt.players, "card")
        # the cards (as preselected, or as tapped) go by themselves a moment after the last tap (no tap)

    def _discards(self, prompt) -> None:
        if self._own_cards():
            return
        try:  # entered with the cards shown: they go by themselves
            self.wait_change(self.where(), timeout=1.5)
            return
        except AssertionError:
            pass
        self._cards_rows(prompt.players, "card")
        # the cards (as preselected, or as tapped) go by themselves a moment after the last tap (no tap)

    def _picks(self, prompt) -> None:
        if self.own_pages:  # the player takes it on his own page
            truth = self._truth(prompt)
            action = "tile" if truth.take == "godfather" else truth.take
            self.player_tap(truth.player, f'[data-action="take-{action}"]')
            return
        truth = self._true_split()
        self.splits.append((prompt.round, truth))
        self._split(truth)

    def _true_split(self) -> list[tuple[str, str]]:
        """The loot each player really takes this round, in turn (the bots, played on a copy)."""
        from controller.table.bots import Bots

        referee = copy.deepcopy(self.session.referee)
        bots = Bots(referee, self.session.bots.seed, self.session.bots.temper)
        number, truth = referee.prompt().round, []
        while referee.step is Step.PICKS and referee.prompt().round == number and referee.prompt().players:
            pick = bots.answer(referee.prompt())
            truth.append((pick.player, str(pick.take)))
            referee.submit(pick)
        return truth

    def _plan(self) -> tuple[list[tuple[str, str, str, list[str]]], int]:
        """The split the page shows: (who, take, how, the cards that turn may take, likeliest first) of
        each turn, and the turn marked next (-1: none)."""
        turns = self.page.eval_on_selector_all(
            '[data-action^="turn-"]',
            "bs => bs.map(b => [b.dataset.who, b.dataset.take, b.dataset.how, b.dataset.options, b.classList.contains('next')])")
        plan = [(who, take, how, options.split()) for who, take, how, options, _ in turns]
        return plan, next((i for i, t in enumerate(turns) if t[4]), -1)

    def _split(self, truth: list[tuple[str, str]]) -> None:
        """Enter the split as a Godfather who knows it: at the first turn guessed wrong, the tile's
        button when it is the taker's next turn; else, that turn being next, the turn (when the next
        likely card is the one taken) or the card; else the turn (it becomes the next, its next likely
        card), then as before.  Every turn right: "Confirm the split" if some are guessed, else it goes
        by itself after a moment."""
        for _ in range(4 * len(truth) + 4):
            plan, cursor = self._plan()
            wrong = next((i for i, (who, take, _h, _o) in enumerate(plan) if i >= len(truth) or (who, take) != truth[i]),
                         None if len(plan) == len(truth) else min(len(plan), len(truth)))
            if wrong is None:
                if any(how == "likely" for _, _, how, _ in plan):
                    self.tap("[data-action=submit-picks]")
                return
            who, take = truth[wrong]
            start = max(cursor, 0)
            if take == "godfather" and next(i for i in range(start, len(plan)) if plan[i][0] == who) == wrong:
                self.tap(f'[data-action="tile-{who}"]')
                continue
            if wrong != cursor:
                self.tap(f'[data-action="turn-{wrong}"]')
                continue
            _, shown, how, options = plan[wrong]
            is_open = how == "entered"
            after = options[(options.index(shown) + 1) % len(options)] if is_open else next((o for o in options if o != shown), shown)
            if after == take:
                self.tap(f'[data-action="turn-{wrong}"]')
            elif take == "godfather":
                self.tap(f'[data-action="tile-{who}"]')
            else:
                self.tap(f'[data-action="pick-{take}"]')
        raise AssertionError(("the split could not be entered", truth, self._plan()))

    def _intermission(self, prompt) -> None:
        self.tap("[data-action=submit-resume]")
