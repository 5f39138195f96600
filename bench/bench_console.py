"""The console under a flood, and the Godfather's taps per round.

    python bench/bench_console.py            # both
    python bench/bench_console.py --flood    # connections held, memory, time to answer the Godfather
    python bench/bench_console.py --taps     # taps per round, by rule set and player count (browser):
                                             # the Godfather's, and the players' on their own pages
                                             # (--seeds 0,101,...; --alone: the Godfather alone only;
                                             # --camera-aims: he has the simulated camera read the aims)
    python bench/bench_console.py --splits   # the Godfather's taps for the 2nd edition's loot, on many
                                             # splits (browser): games tuned on and games never tuned on

The flood runs on 127.0.0.1 only: the console is served by a process of its own (the table's
default file limit, 1,024), and this process opens 1,100 sockets that send half a request and
stop (from 20 loopback addresses), then 2,000 WebSocket handshakes without a token.  Figures:
the server's open files and memory before, during and after, and the Godfather's answer time
(median of 20 requests) without and under the flood.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "console")]

SERVER = """
import sys, time
sys.path[:0] = [{root!r}, {kit!r}]
from console_kit import console_table
from controller.console.server import ConsoleServer
session, relay = console_table(devices=False)
server = ConsoleServer(relay, host="127.0.0.1", port=0)
server.start()
print(server.port, relay.tokens.godfather, flush=True)
sys.stdin.read()
server.stop()
"""


def godfather_times(url: str, n: int = 20) -> list[float]:
    from flood import answer_time

    return [answer_time(url) for _ in range(n)]


def flood() -> dict[str, Any]:
    from flood import (
        close_all,
        half_open,
        open_files,
        rss_kib,
        websockets_without_token,
    )

    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))  # the attacker's side only
    code = SERVER.format(root=str(ROOT), kit=str(ROOT / "tests" / "console"))
    proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024)))  # noqa: PLW1509 (no threads yet)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        port, token = proc.stdout.readline().split()
        url = f"http://127.0.0.1:{port}/api/state?token={token}"
        godfather_times(url, 10)
        websockets_without_token(int(port), 5)  # the code of each path loaded once
        close_all(half_open(int(port), 5))
        time.sleep(0.5)
        base_files, base_rss = open_files(proc.pid), rss_kib(proc.pid)
        baseline = godfather_times(url, 40)
        print("opening 1,100 half-open sockets...", file=sys.stderr)
        held = half_open(int(port), 1100, addresses=20)
        time.sleep(0.5)
        flood_files, flood_rss = open_files(proc.pid), rss_kib(proc.pid)
        under = godfather_times(url, 40)
        print("2,000 WebSocket handshakes without a token...", file=sys.stderr)
        start = time.perf_counter()
        refused, other = websockets_without_token(int(port), 2000, addresses=20)
        ws_seconds = time.perf_counter() - start
        ws_rss = rss_kib(proc.pid)
        print("2,000 more...", file=sys.stderr)
        more = websockets_without_token(int(port), 2000, addresses=20)
        refused, other = refused + more[0], other + more[1]
        ws2_rss = rss_kib(proc.pid)
        under_ws = godfather_times(url)
        close_all(held)
        time.sleep(10)  # the server's request timeout (8 s) has passed for all of them
        after_files, after_rss = open_files(proc.pid), rss_kib(proc.pid)
        after = godfather_times(url)
    finally:
        proc.stdin.close()
        proc.wait(timeout=10)

    def ms(xs: list[float]) -> float:
        return round(1000 * statistics.median(xs), 2)

    return {
        "half-open sockets opened": len(held),
        "server open files: before / during / after": [base_files, flood_files, after_files],
        "server memory (MiB): before / half-open flood / after 2,000 WebSockets / after 4,000 / 10 s after": [
            round(base_rss / 1024, 1), round(flood_rss / 1024, 1), round(ws_rss / 1024, 1), round(ws2_rss / 1024, 1),
            round(after_rss / 1024, 1)],
        "WebSockets without a token: refused / other": [refused, other],
        "WebSocket handshakes refused per second": round(2000 / ws_seconds),
        "Godfather's answer (ms, median of 20): no flood / half-open flood / after WebSockets / after": [
            ms(baseline), ms(under), ms(under_ws), ms(after)],
        "ratio under the flood to no flood": round(statistics.median(under) / statistics.median(baseline), 2),
    }


# How the bots take their loot (2nd edition): each player one of these styles, none of them the
# console's own guess (the card worth most to the picker: controller/console/loot.py).
STYLES = "random,cash,paintings,diamonds"


def taps(seed: int = 0, *, own_pages: bool = True, styles: str = STYLES, camera_aims: bool = False) -> dict[str, Any]:
    """Taps per round (``seed`` 0: the games the tests play; else another game of each); ``own_pages``
    False: nobody but the Godfather uses the console; ``styles``: how the bots take their loot;
    ``camera_aims``: the simulated camera reads the aims (as ``demo`` has it)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "taps.json"
        env = dict(os.environ, CASHNGUNS_TAPS=str(out), CASHNGUNS_TAP_SEED=str(seed), CASHNGUNS_OWN_PAGES=str(int(own_pages)),
                   CASHNGUNS_PICK_STYLES=styles, CASHNGUNS_CAMERA_AIMS=str(int(camera_aims)))
        test = str(ROOT / "tests/console/test_console_browser.py")
        run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-m", "slow", "-k", "by_tapping and three", test],
                             cwd=ROOT, env=env, check=False, capture_output=True, text=True)
        if run.returncode != 0:  # a game that could not be played is said, not left out silently
            failed = [line for line in run.stdout.splitlines() if line.startswith("FAILED")]
            print(f"taps, seed {seed}: {', '.join(failed) or 'the browser test failed'}", file=sys.stderr)
        data = json.loads(out.read_text()) if out.exists() else {}
    result = {}
    for game, figures in data.items():
        rounds = {int(k): v for k, v in figures["per round"].items() if int(k) <= 3}
        steps = {int(k): v for k, v in figures["by step"].items() if int(k) <= 3}
        players = {int(k): v for k, v in figures.get("players per round", {}).items() if int(k) <= 3}
        by_players = {int(k): v for k, v in figures.get("players by step", {}).items() if int(k) <= 3}
        result[game] = {"per round": [rounds[k] for k in sorted(rounds)], "median": statistics.median(rounds.values()),
                     "by step, rounds 1-3": [steps.get(k, {}) for k in sorted(rounds)],
                     "players' taps per round (on their own pages)": [players.get(k, 0) for k in sorted(rounds)],
                     "players' taps by step": [by_players.get(k, {}) for k in sorted(rounds)]}
    return result


def game_splits(seeds: range, styles: str) -> list[dict[str, Any]]:
    """The splits of rounds 1-3 of 5-player 2nd edition games played by the bots: what the Godfather's
    page is given (the turns and the likely cards, the table) and what the players really took."""
    import copy

    from console_kit import console_table

    from controller.console.loot import split_plan
    from controller.table import inputs as I
    from controller.table.bots import Bots, Temper
    from controller.table.referee import Step

    out = []
    for seed in seeds:
        session, _relay = console_table("classic-2014", 5, seed=seed, cards=False, devices=False,
                                        temper=Temper(pick_styles=tuple(styles.split(","))))
        referee, bots = session.referee, session.bots
        while referee.step is not Step.OVER and referee.prompt().round <= 3:
            prompt = referee.prompt()
            if prompt.step is not Step.PICKS:
                referee.submit(bots.answer(prompt))
                continue
            played, truth = copy.deepcopy(referee), []
            other = Bots(played, bots.seed, bots.temper)
            while played.step is Step.PICKS and played.prompt().round == prompt.round and played.prompt().players:
                pick = other.answer(played.prompt())
                assert isinstance(pick, I.Pick)
                truth.append((pick.player, str(pick.take)))
                played.submit(pick)
            out.append({"split": split_plan(referee), "table": [str(x) for x in prompt.options["table"]],
                        "tile": prompt.options["tile"], "truth": truth})
            for player, take in truth:
                referee.submit(I.Pick(player, take))
    return out


def split_taps(splits: list[dict[str, Any]]) -> list[int]:
    """The Godfather's taps for each split, on the console's own page (its picks panel, drawn by
    console.js in Chromium), entered by the tap driver's rule (tests/console/tap_driver.py)."""
    from playwright.sync_api import Page, sync_playwright
    from tap_driver import ARGS, CHROMIUM, Godfather

    from controller.console.labels import labels

    static = ROOT / "controller" / "console" / "static"
    html = (static / "console.html").read_text().replace('<link rel="stylesheet" href="/static/console.css">',
                                                         f"<style>{(static / 'console.css').read_text()}</style>")
    html = re.sub(r'<script src="/static/console.js"[^>]*></script>', lambda _: f"<script>{(static / 'console.js').read_text()}</script>", html)

    class Counter(Godfather):  # type: ignore[misc]  # the tests' tap driver, on sys.path only at run time
        def __init__(self, page: Page) -> None:  # only the page: no table behind it
            self.page = page
            self.taps = 0

        def tap(self, selector: str) -> None:
            self.page.locator(selector).first.click(timeout=5000)
            self.taps += 1

    counts = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.set_content(html)
        # the panel only: no table drawn around it, no server (nothing is sent, the page stays "live")
        page.evaluate("() => { window.redraw = () => drawPanel(); window.setOnline = () => {}; window.send = async () => true; }")
        driver = Counter(page)
        for split in splits:
            page.evaluate("""([s, words]) => {
                cancelGoes(); online = true; sending = false; failed = null; draft = { picks: [] };
                state = { role: "godfather", step: "picks", finished: false, round: 1, inputs: 0, undo: null, uses: {},
                          split: s.split, options: { table: s.table, tile: s.tile }, words, grace: { picks: 600 } };
                drawPanel();
            }""", [split, labels("classic-2014")])
            before = driver.taps
            driver._split([tuple(t) for t in split["truth"]])
            counts.append(driver.taps - before)
        browser.close()
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flood", action="store_true")
    parser.add_argument("--taps", action="store_true")
    parser.add_argument("--splits", action="store_true")
    parser.add_argument("--seeds", default="0,101,102,103,104",
                        help="--taps: the games (0: the tests' games; the others were never tuned on)")
    parser.add_argument("--alone", action="store_true", help="--taps: only the Godfather alone (no player's own page)")
    parser.add_argument("--camera-aims", action="store_true",
                        help="--taps: the Godfather alone with the simulated camera reading the aims (instead of by hand)")
    args = parser.parse_args()
    both = not (args.flood or args.taps or args.splits)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    if args.flood or both:
        for key, value in flood().items():
            print(f"{key}: {value}")
    if args.taps or both:
        seeds = [int(x) for x in args.seeds.split(",")]  # the tests' games, then games never tuned on

        def which(seed: int) -> str:
            return "the tests game" if not seed else f"seed {seed} (never tuned on)"

        if not args.alone:
            for seed in seeds[:3]:
                for game, figures in taps(seed).items():
                    print(f"taps, {game}, {which(seed)}: {figures}", flush=True)
        how = "the camera reading the aims" if args.camera_aims else "no player's own page"
        for seed in seeds:
            for game, figures in taps(seed, own_pages=False, camera_aims=args.camera_aims).items():
                print(f"taps, {game}, {which(seed)}, the Godfather alone ({how}): {figures}", flush=True)
        if not args.alone:
            for style in ("cash", "random"):  # every player taking his loot one way
                for game, figures in taps(0, own_pages=False, styles=style).items():
                    if game.startswith("classic-2014"):
                        print(f"taps, {game}, the tests game, the Godfather alone, every player's loot '{style}': {figures}",
                              flush=True)
    if args.splits or both:
        # seeds 1000-1099 were used to choose the page's rules for the split; 2000-2099 never were
        runs = [("tuned on", range(1000, 1100), STYLES), ("never tuned on", range(2000, 2100), STYLES)]
        runs += [("never tuned on", range(3000, 3040), style) for style in ("cash", "paintings", "diamonds", "random")]
        for name, split_seeds, styles in runs:
            games = game_splits(split_seeds, styles)
            counts = split_taps(games)
            picks = [len(g["truth"]) for g in games]
            print(f"splits, seeds {split_seeds.start}-{split_seeds.stop - 1} ({name}), loot taken {styles}: {len(games)} splits, "
                  f"cards taken {statistics.mean(picks):.2f} a split; the Godfather's taps: mean {statistics.mean(counts):.2f}, "
                  f"median {statistics.median(counts)}, at most {max(counts)}, ratio to one tap per card taken "
                  f"{sum(counts) / sum(picks):.2f}", flush=True)


if __name__ == "__main__":
    from by_hand import run  # bench/ is the script's folder

    run(main)
