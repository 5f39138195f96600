"""The Godfather's console in a real browser: headless Chromium, driven by Playwright.

A round of Yakuzas is played through the page: the cards go down, the aims are tapped
(player, then target), the sensors judge the withdrawals, the Bang! Bang! Bang! and the
cards are tapped, a camera verdict is overruled (its frame on screen), and the split
shows.  Screenshots of the main screens are taken (into docs/ with CASHNGUNS_SCREENSHOTS=docs).
"""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest

from controller.console.server import ConsoleServer
from controller.rules import Card
from controller.table.referee import Step
from controller.table.session import CameraVerdict
from console_kit import console_table

CHROMIUM = os.environ.get("CASHNGUNS_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
# Screenshots go to docs/ with CASHNGUNS_SCREENSHOTS=docs (to refresh the ones kept there), else to a temp folder.
SHOTS = os.environ.get("CASHNGUNS_SCREENSHOTS")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("CI"), reason="no Chromium here (CI installs Debian's chromium)"
)
YAKUZAS = ("Aiko", "Dee", "Gus")


class WrongCamera:
    """The simulated camera films the throw, but this one says nothing fell (its frame is real);
    it keeps the truth it was shown."""

    def __init__(self) -> None:
        from controller.table.camera import SimulatedCamera

        self.truths = []
        self.camera = SimulatedCamera(7)

    def judge(self, *, thrower, seats, number, truth=None):
        self.truths.append(truth)
        seen = self.camera.judge(thrower=thrower, seats=seats, number=number, truth=truth)
        return CameraVerdict([], [], 0.97, False, "nothing fell", frame=seen.frame)

    def reachable(self, thrower, seats):
        return self.camera.reachable(thrower, seats)


def pick_seed():
    """A game where a yakuza throws a shuriken in round 1 (he plays it and stays up)."""
    for seed in range(1, 400):
        session, hub = console_table(seed=seed, devices=False)
        bots = session.bots
        throwers = [y for y in YAKUZAS if bots.card_of(y) is Card.SHURIKEN
                    and not bots.rng(1, "withdraw", y).random() < bots.temper.withdraw]
        if throwers:
            return seed
    raise AssertionError("no seed with a shuriken in round 1")


@pytest.fixture
def console():
    from playwright.sync_api import sync_playwright

    camera = WrongCamera()
    session, hub = console_table(seed=pick_seed(), camera=camera)
    server = ConsoleServer(hub, host="127.0.0.1", port=0)
    server.start()
    hub.base_url = f"http://127.0.0.1:{server.port}"
    failures = []

    def run():
        try:
            session.run()
        except SystemExit:
            pass
        except Exception as exc:  # reported by the test
            failures.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"],
        )
        page = browser.new_page(viewport={"width": 412, "height": 915}, device_scale_factor=1)
        yield session, hub, page, camera, browser
        browser.close()
    server.stop()
    thread.join(timeout=5)
    assert not failures, failures


def wait_step(page, step, round_no=1):
    page.wait_for_function(
        "([s, r]) => window.document.getElementById('step').textContent.includes(s)"
        " && window.document.getElementById('round').textContent.includes('Round ' + r)",
        arg=[step, round_no], timeout=15000,
    )


def submit(page, selector):
    """Click a button that sends an input, and wait until the page shows the state it led to."""
    version = int(page.get_attribute("body", "data-version") or 0)
    page.click(selector)
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=version, timeout=15000)


def test_a_round_through_the_page(console, tmp_path):
    session, hub, page, camera, browser = console
    DOCS = Path(SHOTS) if SHOTS else tmp_path
    bots = session.bots
    page.goto(hub.godfather_link())
    wait_step(page, "cards")
    page.screenshot(path=str(DOCS / "console-godfather.png"), full_page=True)
    page.click("[data-action=submit-cards]")

    wait_step(page, "aims")
    state = hub.view("godfather", None)
    gangsters = [p["name"] for p in state["players"] if not p["yakuza"]]
    for name, targets in state["options"]["targets"].items():
        if not targets:
            continue
        # a Bang! Bang! Bang! never at a yakuza here: the shuriken must still fly
        choice = next((t for t in targets if t in gangsters), targets[0]) if bots.card_of(name) is Card.BBB else targets[0]
        page.click(f'[data-seat="{name}"]')
        page.click(f'[data-seat="{choice}"]')
    # an aim the rules forbid is refused at once, on the page
    gangster = gangsters[0]
    mate = next(p["name"] for p in state["players"] if p["gang"] == state["players"][[q["name"] for q in state["players"]].index(gangster)]["gang"] and p["name"] != gangster)
    page.click(f'[data-seat="{gangster}"]')
    page.click(f'[data-seat="{mate}"]')
    assert "may not aim" in page.inner_text("#refused")
    page.click(f'[data-seat="{gangster}"]')  # unselect
    page.screenshot(path=str(DOCS / "console-aims.png"), full_page=True)
    page.click("[data-action=submit-aims]")

    # the withdrawal count is the tilt sensors' (simulated standees); then Bang! Bang! Bang!
    wait_step(page, "bbb")
    for name in hub.view("godfather", None)["cards"]:
        if bots.card_of(name) is Card.BBB:
            page.click(f'[data-action="bbb-{name}"]')
    page.click("[data-action=submit-bbb]")

    # the shuriken: the camera says nothing fell; the Godfather sees the frame and overrules
    wait_step(page, "throws")
    page.wait_for_selector("[data-verdict]", timeout=15000)
    assert page.locator(".verdict img").count() == 1
    page.screenshot(path=str(DOCS / "console-camera-verdict.png"), full_page=True)
    knocked, touched = camera.truths[-1]
    names = session.referee.names
    for name in names(knocked):
        page.click(f'[data-action="knocked-{name}"]')
    for name in names(touched):
        page.click(f'[data-action="touched-{name}"]')
    submit(page, "[data-action=overrule-verdict]")
    while page.get_attribute("body", "data-step") == "throws":  # more throws if another yakuza has one
        page.wait_for_function("() => document.querySelector('[data-action=submit-throws-done]')"
                               " || document.querySelector('[data-verdict]') || document.body.dataset.step !== 'throws'")
        if page.locator("[data-verdict]").count():
            submit(page, "[data-action=confirm-verdict]")
        elif page.get_attribute("body", "data-step") == "throws":
            submit(page, "[data-action=submit-throws-done]")
    thrown = session.referee.record.rounds[0].shuriken if session.referee.record.rounds else None

    wait_step(page, "reveal")
    for name in hub.view("godfather", None)["cards"]:
        page.click(f'[data-action="card-{name}-{bots.card_of(name).value}"]')
    page.click("[data-action=submit-reveal]")
    wait_step(page, "discards")
    log = page.inner_text("#log")
    assert "Split:" in log or "No one shares" in log or "cannot share" in log
    page.screenshot(path=str(DOCS / "console-split.png"), full_page=True)
    for name in hub.view("godfather", None)["cards"]:
        page.click(f'[data-action="card-{name}-{bots.card_of(name).value}"]')
    page.click("[data-action=submit-discards]")
    wait_step(page, "cards", round_no=2)

    round_one = session.referee.record.rounds[0]
    assert round_one.shuriken and round_one.shuriken[0].knocked == names(knocked)
    assert thrown is None or thrown == round_one.shuriken
    assert "shuriken" in page.inner_text("#log")

    # a gang's page shows its own cards, and only those
    team = browser.new_page(viewport={"width": 412, "height": 915})
    team.goto(hub.team_links()["purple"])
    team.wait_for_selector("[data-secret]")
    purple = {p.name for p in session.referee.game.players if str(p.gang) == "purple"}
    secrets = [el.get_attribute("data-secret") for el in team.query_selector_all("[data-secret]")]
    assert set(secrets) == purple
    others = {c for p in session.referee.game.players if str(p.gang) != "purple" for c in (p.power, p.object) if c}
    html = team.content()
    assert not any(card in html for card in others)
    team.screenshot(path=str(DOCS / "console-gang.png"), full_page=True)
    assert session.referee.step is Step.CARDS
