"""Every JSON use example of docs/advanced-rules.md (section 9.4), and every ruling of its section 8 that names a
moment, played as written through the engine, with the outcome the page states.

The examples are read from the page itself: an example added without a scenario here, or changed so that the
engine refuses it, fails.  The scenarios use the page's nine players (Aiko Bo Cy Dai Eve Finn Gin Hal Ivo).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from rules_kit import illegal, play
from test_rules_advanced import game, r, res, throw, use

DOC = (Path(__file__).resolve().parents[2] / "docs" / "advanced-rules.md").read_text(encoding="utf-8")
EXAMPLES: dict[str, list[dict]] = {}
for _line in re.findall(r"^(\{\"player\".*\})$", DOC, flags=re.M):
    _use = json.loads(_line)
    EXAMPLES.setdefault(_use["card"], []).append(_use)
SHURIKEN_LISTS = [json.loads(m) for m in re.findall(r'^"shuriken": (\[.*?\])$', DOC, flags=re.M | re.S)]
QUIET = [r() for _ in range(7)]


def _kept(card: str, holder: str) -> dict:
    return {"objects" if card in OBJECTS else "powers": {holder: card}}


OBJECTS = {"laser-beam", "dum-dum-bullet", "magic-bullet-right", "magic-bullet-left", "first-aid-kit", "kevlar", "clip",
           "four-leaf-clover", "deringer", "bludgeon", "x-ray-sunglasses", "magnet", "poisoned-tanto", "double-shuriken",
           "dark-tanto", "smoke-grenade", "angry-dragon", "fake-finger"}


def run(card: str, holder: str, rounds: list[dict], *, loot=None, extra_kept: dict | None = None) -> tuple:
    kept = _kept(card, holder)
    powers = kept.get("powers", {})
    objs = kept.get("objects", {})
    for k, v in (extra_kept or {}).items():
        (objs if k in OBJECTS else powers)[v] = k
    data = game(rounds, powers=powers if powers else None, objects=objs if objs else None, loot=loot)
    return play(data)


SCENARIOS: dict[str, Callable[[list[dict]], None]] = {}


def scenario(card: str):
    def register(fn):
        SCENARIOS[card] = fn
        return fn

    return register


@scenario("the-unbreakable")
def _(e):
    _, out = run("the-unbreakable", "Bo", [r({"Cy": "bang", "Finn": "bang", "Ivo": "bang"}, {"Cy": "Bo", "Finn": "Bo", "Ivo": "Bo"}, powers=e)])
    assert out["players"]["Bo"]["alive"] and out["players"]["Bo"]["wounds"] == 3


@scenario("you-dont-need-it-anymore")
def _(e):
    kill = r({"Bo": "bang", "Cy": "bang", "Eve": "bang"}, {"Bo": "Dai", "Cy": "Dai", "Eve": "Dai"}, powers=[e[0]])
    after = r(aims={"Cy": "Eve"}, dead=["Dai"], powers=[e[1]])
    _, out = run("you-dont-need-it-anymore", "Bo", [kill, after])
    assert not out["players"]["Dai"]["alive"] and out["players"]["Cy"]["wounds"] == 1  # Dai's tanto, in Bo's hands


@scenario("dragon-skin")
def _(e):
    _, out = run("dragon-skin", "Eve", [r({"Cy": "bang", "Dai": "tanto"}, {"Cy": "Eve", "Dai": "Eve"}, powers=e)])
    assert out["players"]["Eve"]["wounds"] == 1


@scenario("the-insane")
def _(e):
    _, out = run("the-insane", "Cy", [r({"Eve": "bang"}, {"Eve": "Cy"}, powers=e)])
    assert out["rounds"][0]["sharers"] == [] and all(p["wounds"] == 1 for p in out["players"].values())


@scenario("the-kid")
def _(e):
    run("the-kid", "Hal", [r(powers=e)])
    assert "never late" in illegal(game([r(aims={"Hal": None}, late=["Hal"], powers=e)], powers={"Hal": "the-kid"}))


@scenario("the-cunning")
def _(e):
    _, out = run("the-cunning", "Ivo", [r({"Ivo": "bang"}, powers=e)])
    assert out["players"]["Aiko"]["wounds"] == 1


@scenario("the-specialist")
def _(e):
    g, out = run("the-specialist", "Eve", [r({"Eve": "bbb"}, {"Eve": "Finn"}, powers=e)])
    assert g.players[4].hand["bbb"] == 1 and out["players"]["Finn"]["wounds"] == 1


@scenario("it-does-not-even-hurt")
def _(e):
    _, out = run("it-does-not-even-hurt", "Hal", [r(withdraw=["Hal"], powers=e)])
    assert "Hal" in out["rounds"][0]["sharers"] and out["players"]["Hal"]["cowardice"] == 1


@scenario("the-shotgun")
def _(e):
    reveal, pair, jam = e
    _, out = run("the-shotgun", "Eve", [r(), r(powers=[reveal]), r({"Eve": "bang"}, {"Eve": "Finn"}, powers=[pair])])
    assert out["players"]["Finn"]["wounds"] == 1 and out["players"]["Gin"]["wounds"] == 0
    g, out = run("the-shotgun", "Eve", [r(), r(powers=[reveal]), r({"Eve": "bang"}, {"Eve": "Finn"}, powers=[jam])])
    assert out["players"]["Finn"]["wounds"] == 0 and g.players[4].hand["bang"] == 2


@scenario("shaolin-monk")
def _(e):
    _, out = run("shaolin-monk", "Gin", [r(), r(), r(), r({"Bo": "bang"}, {"Bo": "Gin"}, powers=e)])
    assert out["players"]["Gin"]["wounds"] == 1 and "Gin" in out["rounds"][3]["sharers"]


@scenario("ninja")
def _(e):
    g, _ = run("ninja", "Dai", [r(), r(), r(aims={"Dai": "Finn"}, powers=e)])
    assert [g.players[s].name for s in g.order] == ["Aiko", "Bo", "Cy", "Eve", "Finn", "Dai", "Gin", "Hal", "Ivo"]


@scenario("samurai")
def _(e):
    _, out = run("samurai", "Aiko", QUIET[:4] + [r({"Aiko": "tanto", "Bo": "bbb"}, {"Bo": "Aiko"}, powers=e)])
    assert out["players"]["Aiko"]["wounds"] == 0 and out["players"]["Bo"]["wounds"] == 0
    assert "Aiko" in out["rounds"][4]["sharers"]


@scenario("kamikaze")
def _(e):
    kill = r({"Cy": "bang", "Finn": "bang", "Ivo": "bang"}, {"Cy": "Dai", "Finn": "Dai", "Ivo": "Dai"}, withdraw=["Eve"], powers=e)
    _, out = run("kamikaze", "Dai", [kill])
    assert not out["players"]["Dai"]["alive"] and out["players"]["Cy"]["wounds"] == 1 and out["players"]["Eve"]["wounds"] == 0


@scenario("ronin")
def _(e):
    g, _ = run("ronin", "Gin", [r(), r({"Gin": "shuriken"}, shuriken=[throw("Gin", ["Bo"])], powers=e)])
    assert g.players[6].hand["shuriken"] == 1 and g.players[6].hand["cling"] == 3


@scenario("geisha")
def _(e):
    rounds = QUIET[:3] + [r({"Bo": "bang", "Cy": "bang"}, {"Bo": "Aiko", "Cy": "Aiko", "Ivo": "Bo"}, powers=e)]
    _, out = run("geisha", "Aiko", rounds)
    assert out["players"]["Aiko"]["wounds"] == 0 and out["players"]["Eve"]["wounds"] == 1 and out["players"]["Finn"]["wounds"] == 1


@scenario("laser-beam")
def _(e):
    burst = r({"Cy": "bbb", "Dai": "tanto"}, {"Cy": "Bo", "Dai": "Cy", "Eve": "Cy"})
    _, out = run("laser-beam", "Cy", [r(objects=e), r(), burst])
    assert [out["players"][n]["wounds"] for n in ("Bo", "Dai", "Eve")] == [1, 1, 1]


@scenario("dum-dum-bullet")
def _(e):
    _, out = run("dum-dum-bullet", "Cy", QUIET[:4] + [r({"Cy": "bang"}, objects=e)])
    assert out["players"]["Dai"]["wounds"] == 2


@scenario("magic-bullet-right")
def _(e):
    _, out = run("magic-bullet-right", "Eve", [r(objects=e), r({"Eve": "bang"}, {"Eve": "Aiko"}, withdraw=["Ivo"])])
    assert out["players"]["Aiko"]["wounds"] == 1 and out["players"]["Hal"]["wounds"] == 1 and out["players"]["Ivo"]["wounds"] == 0


@scenario("magic-bullet-left")
def _(e):
    _, out = run("magic-bullet-left", "Finn", QUIET[:4] + [r({"Finn": "bang"}, {"Finn": "Aiko"}, objects=e)])
    assert out["players"]["Aiko"]["wounds"] == 1 and out["players"]["Bo"]["wounds"] == 1
    _, out = run("magic-bullet-left", "Finn", QUIET[:4] + [r({"Finn": "bang"}, {"Finn": "Aiko"}, withdraw=["Bo"], objects=e)])
    assert out["players"]["Cy"]["wounds"] == 1 and out["players"]["Bo"]["wounds"] == 0


@scenario("first-aid-kit")
def _(e):
    hurt = r({"Cy": "bang", "Finn": "bang"}, {"Cy": "Hal", "Finn": "Bo"})
    _, out = run("first-aid-kit", "Hal", [hurt, r(objects=e)])
    assert out["players"]["Hal"]["wounds"] == 0 and out["players"]["Bo"]["wounds"] == 0


@scenario("kevlar")
def _(e):
    _, out = run("kevlar", "Ivo", [r(), r(), r({"Aiko": "tanto"}, {"Aiko": "Ivo"}, objects=e)])
    assert out["players"]["Ivo"]["wounds"] == 0 and out["players"]["Ivo"]["cowardice"] == 2 and "Ivo" in out["rounds"][2]["sharers"]


@scenario("clip")
def _(e):
    g, _ = run("clip", "Bo", [r({"Bo": "bang"}), r({"Bo": "bang"}), r(objects=e)])
    assert g.players[1].hand["bang"] == 2 and g.players[1].hand["clic"] == 2  # 5, one played, 2 discarded


@scenario("four-leaf-clover")
def _(e):
    clover = r(withdraw=["Aiko", "Bo", "Dai", "Eve", "Finn", "Gin"], objects=e)
    _, out = run("four-leaf-clover", "Cy", [clover])
    assert out["rounds"][0]["sharers"] == ["Cy", "Hal", "Ivo"] and out["table"] == []


@scenario("deringer")
def _(e):
    _, out = run("deringer", "Finn", QUIET[:3] + [r({"Finn": "clic"}, {"Finn": "Hal"}, objects=e)])
    assert out["players"]["Hal"]["wounds"] == 1


@scenario("bludgeon")
def _(e):
    share = r(withdraw=["Aiko", "Bo", "Cy", "Dai", "Finn", "Hal", "Ivo"], objects=e)
    _, out = run("bludgeon", "Eve", [share])
    got = out["rounds"][0]["share"]
    assert out["money"]["yellow"] == 2 * got and out["money"]["purple"] == 0 and out["players"]["Eve"]["cowardice"] == 2


@scenario("x-ray-sunglasses")
def _(e):
    run("x-ray-sunglasses", "Hal", [r(objects=e)])


@scenario("magnet")
def _(e):
    g, _ = run("magnet", "Cy", [r(objects=e)])
    assert g.players[2].hand.get("shuriken") == 1 and g.players[0].hand.get("clic") == 1


@scenario("poisoned-tanto")
def _(e):
    star = r({"Gin": "shuriken"}, shuriken=[throw("Gin", ["Bo"])], objects=e)
    _, out = run("poisoned-tanto", "Gin", [star, r({"Gin": "tanto"}, {"Gin": "Hal"})])
    assert out["players"]["Bo"]["wounds"] == 1 and out["players"]["Hal"]["wounds"] == 2


@scenario("double-shuriken")
def _(e):
    (throws,) = SHURIKEN_LISTS
    _, out = run("double-shuriken", "Dai", [r(), r(), r({"Dai": "shuriken"}, shuriken=throws, objects=e)])
    assert out["players"]["Hal"]["wounds"] == 1


@scenario("dark-tanto")
def _(e):
    _, out = run("dark-tanto", "Aiko", QUIET[:4] + [r({"Aiko": "tanto"}, {"Aiko": "Bo"}, objects=e)])
    assert out["players"]["Bo"]["wounds"] == 1 and out["players"]["Ivo"]["wounds"] == 1
    _, out = run("dark-tanto", "Aiko", QUIET[:4] + [r({"Aiko": "tanto"}, {"Aiko": "Bo"}, withdraw=["Ivo"], objects=e)])
    assert out["players"]["Hal"]["wounds"] == 1 and out["players"]["Ivo"]["wounds"] == 0


@scenario("smoke-grenade")
def _(e):
    smoke = r({"Bo": "bbb", "Cy": "bang", "Gin": "shuriken"}, {"Bo": "Cy", "Cy": "Dai"}, objects=e)
    _, out = run("smoke-grenade", "Gin", [smoke])
    assert out["players"]["Cy"]["wounds"] == 1 and out["players"]["Dai"]["wounds"] == 0
    assert out["rounds"][0]["sharers"] == []


@scenario("angry-dragon")
def _(e):
    kill = r({"Cy": "bang", "Eve": "bang", "Finn": "bang"}, {"Cy": "Dai", "Eve": "Dai", "Finn": "Dai"}, objects=e)
    _, out = run("angry-dragon", "Dai", [kill])
    assert out["players"]["Dai"]["alive"] and out["players"]["Dai"]["wounds"] == 3
    _, out = run("angry-dragon", "Dai", [kill, r()])
    assert not out["players"]["Dai"]["alive"] and "Dai" in out["rounds"][1]["sharers"]


@scenario("fake-finger")
def _(e):
    _, out = run("fake-finger", "Aiko", [r(), r(), r(withdraw=["Aiko"]), r(withdraw=["Aiko"], objects=e)])
    assert out["players"]["Aiko"]["wounds"] == 0 and out["players"]["Aiko"]["honor"] == "none"


def test_every_example_has_a_scenario():
    assert len(EXAMPLES) >= 30 and set(EXAMPLES) == set(SCENARIOS)


@pytest.mark.parametrize("card", sorted(EXAMPLES))
def test_example_plays_as_the_page_says(card):
    SCENARIOS[card](EXAMPLES[card])


# -- the rulings of section 8 that name a moment ---------------------------------------------

SECTION_8 = DOC[DOC.index("## 8. Rulings") : DOC.index("## 9.")]
MOMENT_WORDS = re.compile(r"phase[- ]\d|phases \d|deaths|end of (?:the|a|his|its) round|end-of-round|at death", re.I)
RULINGS_WITH_A_MOMENT = sorted(
    key for key, text in re.findall(r"^- \*\*([A-E]\d+)\.(.*?)(?=^- \*\*|^###|\Z)", SECTION_8, flags=re.M | re.S)
    if MOMENT_WORDS.search(text)
)
RULINGS: dict[str, Callable[[], None]] = {}


def ruling(key: str):
    def register(fn):
        RULINGS[key] = fn
        return fn

    return register


@ruling("B3")
def _():
    """Two uses at one moment apply in the record's order; a phase's hits stay simultaneous."""
    both = r({"Bo": "bbb", "Cy": "bbb"}, {"Bo": "Cy", "Cy": "Bo"},
             powers=[use("Eve", "the-kid", "phase-2")], objects=[use("Hal", "x-ray-sunglasses", "phase-1", targets=["Cy", "Dai"])])
    out = res(game([both], powers={"Eve": "the-kid"}, objects={"Hal": "x-ray-sunglasses"}))
    assert out["players"]["Bo"]["wounds"] == 1 and out["players"]["Cy"]["wounds"] == 1


@ruling("B4")
def _():
    """A dead player's cards are out of play from his death (The Specialist at the end of the round)."""
    three = r({"Eve": "bbb", "Cy": "bang", "Ivo": "bang", "Finn": "bang"}, {"Eve": "Gin", "Cy": "Eve", "Ivo": "Eve"},
              powers=[use("Eve", "the-specialist", discard=["clic"])])
    first = r({"Cy": "bang"}, {"Cy": "Eve"})
    assert illegal(game([first, three], powers={"Eve": "the-specialist"})) == "round 2: Eve may not use The Specialist: Eve is dead"


@ruling("C8")
def _():
    """The grenade is armed only in the round of its reveal."""
    quiet, shot = r(powers=[use("Cy", "the-insane", "phase-1")]), r({"Eve": "bang"}, {"Eve": "Cy"})
    out = res(game([quiet, shot], powers={"Cy": "the-insane"}))
    assert out["players"]["Cy"]["wounds"] == 1 and out["players"]["Aiko"]["wounds"] == 0 and out["rounds"][1]["sharers"]


@ruling("C9")
def _():
    """A hit on The Insane sets his grenade off even when his Kevlar stops the wound."""
    shot = r({"Eve": "bang"}, {"Eve": "Cy"}, powers=[use("Cy", "the-insane", "phase-3")],
             objects=[use("Cy", "kevlar", "phase-6")])
    out = res(game([shot], powers={"Cy": "the-insane"}, objects={"Cy": "kevlar"}))
    assert out["players"]["Cy"]["wounds"] == 0 and out["players"]["Cy"]["cowardice"] == 2
    assert out["players"]["Aiko"]["wounds"] == 1 and out["rounds"][0]["sharers"] == []


@ruling("C10")
def _():
    """In phase 5 all hits apply first, then the grenade wounds those still in the share and unwounded."""
    burst = r({"Bo": "bbb", "Finn": "bbb"}, {"Bo": "Cy", "Finn": "Eve"}, powers=[use("Cy", "the-insane", "phase-3")])
    out = res(game([burst], powers={"Cy": "the-insane"}))
    assert out["players"]["Eve"]["wounds"] == 1 and out["players"]["Aiko"]["wounds"] == 1 and out["players"]["Cy"]["wounds"] == 1
    assert out["rounds"][0]["sharers"] == []


@ruling("C14")
def _():
    """The Specialist needs a bbb that fired in phase 5."""
    withdrew = r({"Eve": "bbb"}, {"Eve": "Finn"}, withdraw=["Finn"], powers=[use("Eve", "the-specialist", discard=["clic"])])
    assert "Eve's Bang! Bang! Bang! did not fire this round" in illegal(game([withdrew], powers={"Eve": "the-specialist"}))


@ruling("D4")
def _():
    """The Kamikaze's neighbours at the deaths step include a player dying in the same round."""
    cards = {"Bo": "bang", "Cy": "bang", "Hal": "bang", "Finn": "bang", "Ivo": "bang", "Dai": "tanto"}
    aims = {"Bo": "Dai", "Cy": "Dai", "Hal": "Dai", "Finn": "Eve", "Ivo": "Eve", "Dai": "Eve"}
    out = res(game([r(cards, aims, powers=[use("Dai", "kamikaze", "deaths")])], powers={"Dai": "kamikaze"}))
    assert out["players"]["Eve"]["wounds"] == 4 and out["players"]["Cy"]["wounds"] == 1


@ruling("E1")
def _():
    """The Laser Beam bursts at those aiming at its holder in phase 5; the bbb's own target takes one wound."""
    burst = r({"Cy": "bbb"}, {"Cy": "Bo", "Bo": "Cy", "Eve": "Cy"}, objects=[use("Cy", "laser-beam", "phase-1")])
    out = res(game([burst], objects={"Cy": "laser-beam"}))
    assert out["players"]["Bo"]["wounds"] == 1 and out["players"]["Eve"]["wounds"] == 1


@ruling("E13")
def _():
    """Smoke Grenade: a holder out of the share may use it; closing phase 7 changes nothing."""
    out = res(game([r(withdraw=["Gin"], objects=[use("Gin", "smoke-grenade", "phase-4")])], objects={"Gin": "smoke-grenade"}))
    assert out["rounds"][0]["sharers"] == []
    out = res(game([r(objects=[use("Gin", "smoke-grenade", "phase-7")])], objects={"Gin": "smoke-grenade"}))
    assert len(out["rounds"][0]["sharers"]) == 9


@ruling("E14")
def _():
    """Angry Dragon: he shares in the next round, for his gang, and dies after its phase 7."""
    kill = r({"Cy": "bang", "Eve": "bang", "Finn": "bang"}, {"Cy": "Dai", "Eve": "Dai", "Finn": "Dai"},
             objects=[use("Dai", "angry-dragon")])
    out = res(game([kill, r()], objects={"Dai": "angry-dragon"}))
    assert "Dai" in out["rounds"][1]["sharers"] and not out["players"]["Dai"]["alive"] and out["money"]["purple"] > 0


def test_every_ruling_naming_a_moment_has_a_scenario():
    assert len(RULINGS_WITH_A_MOMENT) >= 8 and set(RULINGS_WITH_A_MOMENT) == set(RULINGS)


@pytest.mark.parametrize("key", RULINGS_WITH_A_MOMENT)
def test_ruling_plays_as_the_page_says(key):
    RULINGS[key]()
