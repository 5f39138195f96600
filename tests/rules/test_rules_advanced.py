"""Super Powers, Super Kiai and Objects: one scenario per card, an illegal use of each, and the
interactions the Yakuzas manual calls out (docs/advanced-rules.md)."""

from __future__ import annotations

import random

import pytest

from controller.record.generator import deal_loot
from controller.rules import RuleSet
from controller.rules.advanced import CATALOG
from rules_kit import illegal, play

NAMES = ["Aiko", "Bo", "Cy", "Dai", "Eve", "Finn", "Gin", "Hal", "Ivo"]
GANG = {"Aiko": "purple", "Bo": "yellow", "Cy": "red", "Dai": "purple", "Eve": "yellow", "Finn": "red",
        "Gin": "purple", "Hal": "yellow", "Ivo": "red"}
YAKUZAS = {"Aiko", "Dai", "Gin"}
AIMS = {"Aiko": "Bo", "Bo": "Cy", "Cy": "Dai", "Dai": "Eve", "Eve": "Finn", "Finn": "Gin", "Gin": "Hal",
        "Hal": "Ivo", "Ivo": "Aiko"}
PILE = [20000, 10000, 10000, 10000, 5000, 5000, 5000, 5000]


def r(cards=None, aims=None, withdraw=(), late=(), shuriken=(), powers=(), objects=(), dead=()):
    names = [n for n in NAMES if n not in dead]
    c = {n: ("cling" if n in YAKUZAS else "clic") for n in names}
    c.update(cards or {})
    a = {n: AIMS[n] for n in names}
    a.update(aims or {})
    out = {"cards": c, "aims": a, "withdraw": list(withdraw), "late": list(late), "shuriken": list(shuriken)}
    if powers:
        out["powers"] = list(powers)
    if objects:
        out["objects"] = list(objects)
    return out


def game(rounds, powers=None, objects=None, loot=None):
    data = {
        "format": "cashnguns-record/1",
        "ruleset": "yakuzas",
        "options": {"super_powers": powers is not None, "objects": objects is not None},
        "players": [{"name": n, "gang": GANG[n]} for n in NAMES],
        "loot": loot or [list(PILE) for _ in rounds] or [list(PILE)],
        "setup": {},
        "rounds": rounds,
    }
    if powers is not None:
        data["setup"]["powers"] = {"kept": powers}
    if objects is not None:
        data["setup"]["objects"] = {"kept": objects}
    return data


def use(player, card, when=None, **fields):
    out = {"player": player, "card": card}
    if when:
        out["when"] = when
    out.update(fields)
    return out


def throw(thrower, knocked=(), touched=(), target=None):
    out = {"thrower": thrower, "knocked": list(knocked), "touched": list(touched)}
    if target:
        out["target"] = target
    return out


def res(data):
    return play(data)[1]


THREE_AT = lambda who, *shooters: ({s: "bang" for s in shooters}, {s: who for s in shooters})  # noqa: E731


# -- setup -----------------------------------------------------------------------


def test_setup_kept_cards_checked():
    assert illegal(game([], powers={"Aiko": "the-kid"})) == "Aiko may not keep The Kid: not a card of the super kiai deck in yakuzas"
    assert "Kevlar is kept by 2 players" in illegal(game([], objects={"Bo": "kevlar", "Cy": "kevlar"}))
    assert "needs the objects option" in illegal({**game([], powers={"Bo": "the-kid"}), "setup": {"objects": {"kept": {"Bo": "clip"}}}})


def test_setup_dealt_counts_checked():
    data = game([], powers={"Bo": "the-kid"})
    data["setup"]["powers"]["dealt"] = {"yellow": ["the-kid", "the-cunning"], "red": ["dragon-skin", "super-coward"],
                                        "purple": ["samurai", "ninja"]}
    play(data)
    data["setup"]["powers"]["dealt"]["yellow"] = ["the-kid"]
    assert "a gang of 3 is dealt 2 cards, yellow got 1" in illegal(data)
    data["setup"]["powers"]["dealt"]["yellow"] = ["the-cunning", "dragon-skin"]
    assert "Dragon Skin is dealt twice" in illegal(data)


def test_classic_setup_and_no_shotgun():
    data = {"format": "cashnguns-record/1", "ruleset": "classic", "options": {"super_powers": True, "objects": True},
            "players": [{"name": n} for n in "ABCDE"], "loot": [], "rounds": [],
            "setup": {"powers": {"kept": {"A": "the-shotgun"}}}}
    assert "not a card of the super power deck in classic" in illegal(data)
    data["setup"] = {"objects": {"dealt": {"A": ["kevlar", "clip"]}, "kept": {"A": "kevlar"}}}
    play(data)
    data["setup"]["objects"]["kept"]["A"] = "magnet"
    assert "was not dealt to A" in illegal(data)
    data["setup"]["objects"] = {"kept": {"A": "poisoned-tanto"}}
    assert "gangster object deck" in illegal(data)


def test_advanced_options_not_in_2014():
    data = {"format": "cashnguns-record/1", "ruleset": "classic-2014", "options": {"super_powers": True},
            "players": [{"name": n} for n in "ABCD"], "loot": [], "rounds": []}
    assert "not played in classic-2014" in illegal(data)


def test_use_needs_the_card_and_the_right_moment():
    data = game([r(powers=[use("Bo", "the-kid", "phase-2")])], powers={"Cy": "the-kid"})
    assert illegal(data) == "round 1: Bo may not use The Kid: Bo does not hold it"
    data = game([r(powers=[use("Cy", "the-kid", "phase-6")])], powers={"Cy": "the-kid"})
    assert illegal(data) == "round 1: Cy may not use The Kid at phase 6: it is used at phase 1 or phase 2"
    data = game([r(powers=[use("Cy", "no-such-card", "phase-1")])], powers={"Cy": "the-kid"})
    assert "'no-such-card' is not a card" in illegal(data)


# -- Super Powers -------------------------------------------------------------------


def test_six_feet_under():
    cards, aims = THREE_AT("Dai", "Bo", "Cy", "Eve")
    base = res(game([r(cards, aims)], powers={}))
    with_power = res(game([r(cards, aims)], powers={"Bo": "six-feet-under"}))
    assert not with_power["players"]["Dai"]["alive"]
    assert with_power["scores"]["yellow"] == base["scores"]["yellow"] + 10000
    # the holder's own gang's dead do not count: Gin (purple) holds it, Dai is purple
    same_gang = res(game([r(cards, aims)], powers={"Gin": "samurai", "Hal": "six-feet-under"}))
    assert same_gang["scores"]["yellow"] == base["scores"]["yellow"] + 10000
    assert "counts by itself at the end of the game" in illegal(
        game([r(powers=[use("Bo", "six-feet-under", "phase-1")])], powers={"Bo": "six-feet-under"})
    )


def test_the_unbreakable():
    cards, aims = THREE_AT("Eve", "Cy", "Finn", "Ivo")
    out = res(game([r(cards, aims, powers=[use("Eve", "the-unbreakable")])], powers={"Eve": "the-unbreakable"}))
    assert out["players"]["Eve"] == {"alive": True, "wounds": 3, "cowardice": 0, "honor": "none"}
    # a fourth wound kills him
    one = r({"Cy": "bbb"}, {"Cy": "Eve"})
    out = res(game([r(cards, aims, powers=[use("Eve", "the-unbreakable")]), one], powers={"Eve": "the-unbreakable"}))
    assert not out["players"]["Eve"]["alive"] and out["players"]["Eve"]["wounds"] == 4
    # not revealed: he dies at 3
    assert not res(game([r(cards, aims)], powers={"Eve": "the-unbreakable"}))["players"]["Eve"]["alive"]
    assert illegal(game([r(powers=[use("Eve", "the-unbreakable")])], powers={"Eve": "the-unbreakable"})) == (
        "round 1: Eve may not use The Unbreakable at the deaths: Eve did not reach 3 wounds then"
    )


def test_you_dont_need_it_anymore():
    cards, aims = THREE_AT("Cy", "Bo", "Eve", "Hal")
    r1 = r(cards, aims, powers=[use("Bo", "you-dont-need-it-anymore", "deaths", **{"from": "Cy"})])
    second = use("Bo", "you-dont-need-it-anymore", "phase-2", weapon="Cy", played="bang", target="Finn")
    r2 = r(aims={"Bo": "Dai"}, dead=["Cy"], powers=[second])
    g, out = play(game([r1, r2], powers={"Bo": "you-dont-need-it-anymore"}))
    assert out["players"]["Finn"]["wounds"] == 1
    assert g.players[1].kit.hand["bang"] == 1  # Cy's deck: one bang left
    # every round he must play a card for the second weapon
    assert "must play a card for Cy's weapon too" in illegal(
        game([r1, r(aims={"Bo": "Dai"}, dead=["Cy"])], powers={"Bo": "you-dont-need-it-anymore"})
    )
    # only at the game's first death
    late_take = r(cards, {**aims, "Cy": "Eve"}, dead=["Dai"],
                  powers=[use("Bo", "you-dont-need-it-anymore", "deaths", **{"from": "Cy"})])
    killed_first = r({"Bo": "bang", "Eve": "bang", "Cy": "bang"}, {"Bo": "Dai", "Eve": "Dai", "Cy": "Dai"})
    assert "the game's first death was in round 1" in illegal(
        game([killed_first, late_take], powers={"Bo": "you-dont-need-it-anymore"})
    )


def test_dragon_skin():
    cards, aims = {"Cy": "bang", "Finn": "bang"}, {"Cy": "Eve", "Finn": "Eve"}
    out = res(game([r(cards, aims, powers=[use("Eve", "dragon-skin", "phase-6")])], powers={"Eve": "dragon-skin"}))
    assert out["players"]["Eve"]["wounds"] == 1
    assert res(game([r(cards, aims)], powers={"Eve": "dragon-skin"}))["players"]["Eve"]["wounds"] == 2
    assert "no wound reached Eve then" in illegal(
        game([r(powers=[use("Eve", "dragon-skin", "phase-6")])], powers={"Eve": "dragon-skin"})
    )


def test_dragon_skin_is_permanent_and_counts_the_whole_round():
    first = r({"Cy": "bang", "Finn": "bang"}, {"Cy": "Eve", "Finn": "Eve"}, powers=[use("Eve", "dragon-skin", "phase-6")])
    later = r({"Cy": "bbb", "Finn": "bang"}, {"Cy": "Eve", "Finn": "Eve"})  # phase 5 then phase 6: one wound
    out = res(game([first, later], powers={"Eve": "dragon-skin"}))
    assert out["players"]["Eve"]["wounds"] == 2


def test_the_insane_grenade():
    r1 = r({"Eve": "bang"}, {"Eve": "Cy"}, withdraw=["Hal"], powers=[use("Cy", "the-insane", "phase-3")])
    g, out = play(game([r1], powers={"Cy": "the-insane"}))
    # everyone in the share and unwounded takes a wound: all but Cy (hit) and Hal (withdrew)
    for name in NAMES:
        expected = 0 if name == "Hal" else 1
        assert out["players"][name]["wounds"] == expected, name
    assert out["rounds"][0]["sharers"] == [] and out["table"] == sorted(PILE, reverse=True)
    # not shot: nothing happens, and the card is spent
    quiet = r(powers=[use("Cy", "the-insane", "phase-1")])
    again = r(powers=[use("Cy", "the-insane", "phase-1")])
    assert all(p["wounds"] == 0 for p in res(game([quiet], powers={"Cy": "the-insane"}))["players"].values())
    assert illegal(game([quiet, again], powers={"Cy": "the-insane"})) == "round 2: Cy may not use The Insane: already used"
    assert "phase 4: it is used at phase 1, phase 2 or phase 3" in illegal(
        game([r(powers=[use("Cy", "the-insane", "phase-4")])], powers={"Cy": "the-insane"})
    )


def test_the_kid_is_never_late():
    out = res(game([r(powers=[use("Hal", "the-kid", "phase-2")])], powers={"Hal": "the-kid"}))
    assert out["rounds_played"] == 1
    late = r(aims={"Hal": None}, late=["Hal"], powers=[use("Hal", "the-kid", "phase-2")])
    assert illegal(game([late], powers={"Hal": "the-kid"})) == "round 1: Hal is The Kid: Hal aims after everyone and is never late"


def test_the_cunning():
    out = res(game([r({"Ivo": "bang"}, powers=[use("Ivo", "the-cunning", "phase-1")])], powers={"Ivo": "the-cunning"}))
    assert out["players"]["Aiko"]["wounds"] == 1  # his card is the one he picked, as recorded
    assert "at phase 5" in illegal(game([r(powers=[use("Ivo", "the-cunning", "phase-5")])], powers={"Ivo": "the-cunning"}))


def test_super_coward_counts_his_own_tokens_only():
    rounds = [r(withdraw=["Finn", "Cy"]), r(withdraw=["Finn"])]
    base = res(game(rounds, powers={}))
    coward = res(game(rounds, powers={"Finn": "super-coward"}))
    assert coward["scores"]["red"] == base["scores"]["red"] + 2 * 10000  # Finn: -10,000 becomes +10,000
    assert coward["players"]["Finn"]["cowardice"] == 2


def test_the_specialist():
    r1 = r({"Eve": "bbb"}, {"Eve": "Finn"}, powers=[use("Eve", "the-specialist", discard=["clic"])])
    g, out = play(game([r1], powers={"Eve": "the-specialist"}))
    eve = g.players[4]
    assert eve.hand["bbb"] == 1 and eve.hand["clic"] == 4
    assert out["players"]["Finn"]["wounds"] == 1
    withdrew = r({"Eve": "bbb"}, {"Eve": "Finn"}, withdraw=["Finn"], powers=[use("Eve", "the-specialist", discard=["clic"])])
    assert illegal(game([withdrew], powers={"Eve": "the-specialist"})) == (
        "round 1: Eve may not use The Specialist: Eve's Bang! Bang! Bang! did not fire this round"
    )


def test_it_does_not_even_hurt():
    r1 = r(withdraw=["Hal"], powers=[use("Hal", "it-does-not-even-hurt")])
    out = res(game([r1], powers={"Hal": "it-does-not-even-hurt"}))
    assert "Hal" in out["rounds"][0]["sharers"] and out["players"]["Hal"]["cowardice"] == 1
    assert illegal(game([r(powers=[use("Hal", "it-does-not-even-hurt")])], powers={"Hal": "it-does-not-even-hurt"})) == (
        "round 1: Hal may not use It Does Not Even Hurt: Hal is a sharer already"
    )


def test_it_does_not_even_hurt_not_after_a_grenade():
    r1 = r({"Eve": "bang"}, {"Eve": "Cy"}, withdraw=["Hal"],
           powers=[use("Cy", "the-insane", "phase-3"), use("Hal", "it-does-not-even-hurt")])
    assert "the round ended at phase 6 (grenade)" in illegal(game([r1], powers={"Cy": "the-insane", "Hal": "it-does-not-even-hurt"}))


SHOTGUN = {"Eve": "the-shotgun"}


def test_the_shotgun_two_targets_markers():
    reveal = r(powers=[use("Eve", "the-shotgun", "phase-1")])
    pair = use("Eve", "the-shotgun", "phase-3", targets=["Finn", "Gin"], markers={"Finn": "wound", "Gin": "blank"})
    r2 = r({"Eve": "bang"}, {"Eve": "Finn"}, powers=[pair])
    out = res(game([reveal, r2], powers=SHOTGUN))
    assert out["players"]["Finn"]["wounds"] == 1 and out["players"]["Gin"]["wounds"] == 0
    both = use("Eve", "the-shotgun", "phase-3", targets=["Finn", "Gin"], markers={"Finn": "wound", "Gin": "wound"})
    out = res(game([reveal, r({"Eve": "bbb"}, {"Eve": "Finn"}, powers=[both])], powers=SHOTGUN))
    assert out["players"]["Finn"]["wounds"] == 1 and out["players"]["Gin"]["wounds"] == 1


def test_the_shotgun_jam_takes_the_card_back():
    reveal = r(powers=[use("Eve", "the-shotgun", "phase-1")])
    jam = use("Eve", "the-shotgun", "phase-3", targets=["Finn", "Gin"], markers={"Finn": "blank", "Gin": "blank"},
              take_back=True, discard=["clic"])
    g, out = play(game([reveal, r({"Eve": "bang"}, {"Eve": "Finn"}, powers=[jam])], powers=SHOTGUN))
    assert out["players"]["Finn"]["wounds"] == 0 and out["players"]["Gin"]["wounds"] == 0
    assert g.players[4].hand["bang"] == 2 and g.players[4].hand["clic"] == 3


def test_the_shotgun_one_target_withdrew_fires_at_the_other():
    reveal = r(powers=[use("Eve", "the-shotgun", "phase-1")])
    pair = use("Eve", "the-shotgun", "phase-3", targets=["Finn", "Gin"], markers={"Finn": "blank", "Gin": "blank"})
    out = res(game([reveal, r({"Eve": "bang"}, {"Eve": "Finn"}, withdraw=["Finn"], powers=[pair])], powers=SHOTGUN))
    assert out["players"]["Gin"]["wounds"] == 1  # a plain pistol shot: no markers


def test_the_shotgun_illegal_uses():
    reveal = r(powers=[use("Eve", "the-shotgun", "phase-1")])
    apart = use("Eve", "the-shotgun", "phase-3", targets=["Finn", "Hal"], markers={"Finn": "wound", "Hal": "wound"})
    assert "Finn and Hal are not adjacent" in illegal(game([reveal, r({"Eve": "bang"}, {"Eve": "Finn"}, powers=[apart])], powers=SHOTGUN))
    pair = use("Eve", "the-shotgun", "phase-3", targets=["Finn", "Gin"], markers={"Finn": "wound", "Gin": "wound"})
    assert "Eve has not taken up the Shotgun" in illegal(game([r({"Eve": "bang"}, {"Eve": "Finn"}, powers=[pair])], powers=SHOTGUN))
    no_markers = use("Eve", "the-shotgun", "phase-3", targets=["Finn", "Gin"])
    assert "how the markers landed" in illegal(game([reveal, r({"Eve": "bang"}, {"Eve": "Finn"}, powers=[no_markers])], powers=SHOTGUN))


# -- Super Kiai -------------------------------------------------------------------------


def test_shaolin_monk_stays_in_the_share():
    r1 = r({"Bo": "bang"}, {"Bo": "Gin"}, powers=[use("Gin", "shaolin-monk", "phase-6")])
    out = res(game([r1], powers={"Gin": "shaolin-monk"}))
    assert out["players"]["Gin"]["wounds"] == 1 and "Gin" in out["rounds"][0]["sharers"]
    # permanent: the next round, no entry needed
    r2 = r({"Eve": "bang"}, {"Eve": "Gin"})
    out = res(game([r1, r2], powers={"Gin": "shaolin-monk"}))
    assert "Gin" in out["rounds"][1]["sharers"]
    assert "no wound reached Gin then" in illegal(game([r(powers=[use("Gin", "shaolin-monk", "phase-6")])], powers={"Gin": "shaolin-monk"}))


def test_shaolin_monk_hit_by_bbb_discards_his_card():
    r1 = r({"Bo": "bbb", "Gin": "tanto"}, {"Bo": "Gin"}, powers=[use("Gin", "shaolin-monk", "phase-5")])
    out = res(game([r1], powers={"Gin": "shaolin-monk"}))
    assert out["players"]["Hal"]["wounds"] == 0 and "Gin" in out["rounds"][0]["sharers"]


def test_ninja_changes_seat():
    move = use("Dai", "ninja", "phase-1", seat=["Finn", "Gin"])
    r1 = r({"Dai": "tanto"}, {"Dai": "Finn"}, powers=[move])
    g, out = play(game([r1], powers={"Dai": "ninja"}))
    assert [g.players[s].name for s in g.order] == ["Aiko", "Bo", "Cy", "Eve", "Finn", "Dai", "Gin", "Hal", "Ivo"]
    assert out["players"]["Finn"]["wounds"] == 1
    # the new seat lasts: in round 2, Eve is no longer his neighbour
    r2 = r({"Dai": "tanto"}, {"Dai": "Eve"})
    assert illegal(game([r1, r2], powers={"Dai": "ninja"})) == "round 2: Dai may not aim a tanto at Eve: not a neighbour"
    bad = use("Dai", "ninja", "phase-1", seat=["Finn", "Hal"])
    assert "do not sit next to each other" in illegal(game([r(powers=[bad])], powers={"Dai": "ninja"}))


def test_samurai_parries_all_round():
    r1 = r({"Aiko": "tanto", "Bo": "bbb", "Ivo": "bang"}, {"Bo": "Aiko"}, powers=[use("Aiko", "samurai", "phase-5")])
    out = res(game([r1], powers={"Aiko": "samurai"}))
    assert out["players"]["Aiko"]["wounds"] == 0 and "Aiko" in out["rounds"][0]["sharers"]
    assert out["players"]["Bo"]["wounds"] == 0  # her tanto has no normal effect
    no_tanto = r({"Bo": "bbb"}, {"Bo": "Aiko"}, powers=[use("Aiko", "samurai", "phase-5")])
    assert illegal(game([no_tanto], powers={"Aiko": "samurai"})) == "round 1: Aiko may not use The Samurai at phase 5: Aiko has no tanto in play"


def test_samurai_does_not_parry_the_grenade():
    r1 = r({"Aiko": "tanto", "Bo": "bang", "Eve": "bang"}, {"Bo": "Aiko", "Eve": "Cy"},
           powers=[use("Aiko", "samurai", "phase-6"), use("Cy", "the-insane", "phase-2")])
    out = res(game([r1], powers={"Aiko": "samurai", "Cy": "the-insane"}))
    assert out["players"]["Aiko"]["wounds"] == 1  # parried Bo's bang, then the grenade
    assert out["players"]["Bo"]["wounds"] == 1  # the grenade; her tanto did nothing


def test_kamikaze_wounds_neighbours_in_the_share():
    cards, aims = {"Cy": "bang", "Eve": "bang", "Finn": "bang"}, {"Cy": "Dai", "Eve": "Dai", "Finn": "Dai"}
    r1 = r(cards, aims, withdraw=["Eve"], powers=[use("Dai", "kamikaze", "deaths")])
    # Eve withdrew: her bang is discarded; give Dai a third shooter
    r1["cards"]["Ivo"] = "bang"
    r1["aims"]["Ivo"] = "Dai"
    out = res(game([r1], powers={"Dai": "kamikaze"}))
    assert not out["players"]["Dai"]["alive"]
    assert out["players"]["Cy"]["wounds"] == 1 and out["players"]["Eve"]["wounds"] == 0
    assert "Dai did not die then" in illegal(game([r(powers=[use("Dai", "kamikaze", "deaths")])], powers={"Dai": "kamikaze"}))


def test_ronin_takes_the_shuriken_back():
    r1 = r({"Gin": "shuriken"}, shuriken=[throw("Gin", ["Bo"])], powers=[use("Gin", "ronin", "phase-5b")])
    g, out = play(game([r1], powers={"Gin": "ronin"}))
    gin = g.players[6]
    assert out["players"]["Bo"]["wounds"] == 1
    assert gin.hand["shuriken"] == 1 and gin.hand["cling"] == 4
    assert "it is used at phase 5b" in illegal(game([r(powers=[use("Gin", "ronin", "phase-6")])], powers={"Gin": "ronin"}))


def test_geisha_redirects_everyone_aiming_at_her():
    charm = use("Aiko", "geisha", "phase-4", redirect={"Bo": "Eve", "Cy": "Finn", "Ivo": "Cy"})
    r1 = r({"Bo": "bang", "Cy": "bang", "Ivo": "bang"}, {"Bo": "Aiko", "Cy": "Aiko"}, powers=[charm])
    out = res(game([r1], powers={"Aiko": "geisha"}))
    assert out["players"]["Aiko"]["wounds"] == 0
    assert [out["players"][n]["wounds"] for n in ("Eve", "Finn", "Cy")] == [1, 1, 1]
    missing = use("Aiko", "geisha", "phase-4", redirect={"Bo": "Eve", "Cy": "Finn"})
    assert "every player aiming at Aiko: Bo, Cy, Ivo" in illegal(game([r(aims={"Bo": "Aiko", "Cy": "Aiko"}, powers=[missing])], powers={"Aiko": "geisha"}))


# -- Objects ------------------------------------------------------------------------------


def test_laser_beam_bursts_at_everyone_aiming_at_him():
    reveal = use("Cy", "laser-beam", "phase-1")
    r1 = r({"Cy": "bbb"}, {"Cy": "Bo", "Dai": "Cy", "Eve": "Cy"}, objects=[reveal])
    out = res(game([r1], objects={"Cy": "laser-beam"}))
    assert [out["players"][n]["wounds"] for n in ("Bo", "Dai", "Eve")] == [1, 1, 1]
    assert illegal(game([r(), r(), r(objects=[reveal])], objects={"Cy": "laser-beam"})) == (
        "round 3: Cy may not reveal Laser Beam in round 3: visible Objects are revealed in round 1 or 5"
    )


def test_dum_dum_bullet():
    r1 = r({"Cy": "bang"}, objects=[use("Cy", "dum-dum-bullet", "phase-1")])
    out = res(game([r1], objects={"Cy": "dum-dum-bullet"}))
    assert out["players"]["Dai"]["wounds"] == 2
    # once only
    out = res(game([r1, r({"Cy": "bang"})], objects={"Cy": "dum-dum-bullet"}))
    assert out["players"]["Dai"]["wounds"] == 3


def test_magic_bullet_right_skips_players_who_withdrew():
    r1 = r({"Eve": "bang"}, {"Eve": "Aiko"}, withdraw=["Ivo"], objects=[use("Eve", "magic-bullet-right", "phase-1")])
    out = res(game([r1], objects={"Eve": "magic-bullet-right"}))
    assert out["players"]["Aiko"]["wounds"] == 1 and out["players"]["Hal"]["wounds"] == 1  # Eve's gang mate
    assert out["players"]["Ivo"]["wounds"] == 0


def test_magic_bullet_left():
    r1 = r({"Finn": "bang"}, {"Finn": "Aiko"}, withdraw=["Bo"], objects=[use("Finn", "magic-bullet-left", "phase-1")])
    out = res(game([r1], objects={"Finn": "magic-bullet-left"}))
    assert out["players"]["Cy"]["wounds"] == 1 and out["players"]["Bo"]["wounds"] == 0


def test_magic_bullet_does_not_skip_the_felled():
    r1 = r({"Finn": "bang", "Dai": "tanto", "Ivo": "bbb"}, {"Finn": "Aiko", "Ivo": "Bo"},
           objects=[use("Finn", "magic-bullet-left", "phase-1")])
    out = res(game([r1], objects={"Finn": "magic-bullet-left"}))
    assert out["players"]["Bo"]["wounds"] == 2  # felled by Ivo's bbb, then the magic bullet


def test_first_aid_kit():
    hurt = r({"Cy": "bang", "Finn": "bang"}, {"Cy": "Hal", "Finn": "Bo"})
    heal = r(objects=[use("Hal", "first-aid-kit", heal={"Hal": 1, "Bo": 1})])
    out = res(game([hurt, heal], objects={"Hal": "first-aid-kit"}))
    assert out["players"]["Hal"]["wounds"] == 0 and out["players"]["Bo"]["wounds"] == 0
    bad = r(objects=[use("Hal", "first-aid-kit", heal={"Cy": 1})])
    assert "not Cy's" in illegal(game([hurt, bad], objects={"Hal": "first-aid-kit"}))


def test_kevlar():
    r1 = r({"Aiko": "tanto"}, {"Aiko": "Ivo"}, objects=[use("Ivo", "kevlar", "phase-6", **{"from": "Aiko"})])
    out = res(game([r1], objects={"Ivo": "kevlar"}))
    assert out["players"]["Ivo"] == {"alive": True, "wounds": 0, "cowardice": 2, "honor": "none"}
    assert "Ivo" in out["rounds"][0]["sharers"]
    hurt_before = r({"Cy": "bang"}, {"Cy": "Ivo"}) if False else r({"Hal": "bang"})
    assert "no hit reached Ivo" in illegal(game([hurt_before, r1], objects={"Ivo": "kevlar"}))


def test_clip():
    r1, r2 = r({"Bo": "bang"}), r({"Bo": "bang"})
    r3 = r(objects=[use("Bo", "clip", "phase-1", discard=["clic", "clic"])])
    g, _ = play(game([r1, r2, r3], objects={"Bo": "clip"}))
    assert g.players[1].hand["bang"] == 2 and g.players[1].hand["clic"] == 2  # 5, 2 discarded, 1 played
    assert "Bo has used no Bang! card yet" in illegal(game([r3], objects={"Bo": "clip"}))
    assert "when is needed for clip" in illegal(game([r(objects=[use("Bo", "clip")])], objects={"Bo": "clip"}))


def test_four_leaf_clover():
    r1 = r(withdraw=["Aiko", "Bo", "Dai", "Eve", "Finn", "Gin"], objects=[use("Cy", "four-leaf-clover")])
    out = res(game([r1], objects={"Cy": "four-leaf-clover"}))
    # 70,000 among Cy, Hal and Ivo: 20,000 each, 10,000 left, which Cy takes for red
    assert out["money"] == {"purple": 0, "yellow": 20000, "red": 50000} and out["table"] == []
    exact = r(withdraw=["Aiko", "Bo", "Cy", "Dai", "Eve", "Finn", "Gin", "Hal"], objects=[use("Ivo", "four-leaf-clover")])
    assert "the share was exact" in illegal(game([exact], objects={"Ivo": "four-leaf-clover"}))


def test_deringer():
    r1 = r({"Finn": "clic"}, {"Finn": "Hal"}, objects=[use("Finn", "deringer")])
    assert res(game([r1], objects={"Finn": "deringer"}))["players"]["Hal"]["wounds"] == 1
    bang = r({"Finn": "bang"}, {"Finn": "Hal"}, objects=[use("Finn", "deringer")])
    assert "Finn's Clic Clic Clic is not in play" in illegal(game([bang], objects={"Finn": "deringer"}))


def test_bludgeon():
    r1 = r(withdraw=["Aiko", "Bo", "Cy", "Dai", "Finn", "Hal", "Ivo"], objects=[use("Eve", "bludgeon", target="Gin")])
    out = res(game([r1], objects={"Eve": "bludgeon"}))
    assert out["money"]["yellow"] == 70000 and out["money"]["purple"] == 0
    assert out["players"]["Eve"]["cowardice"] == 2
    mate = r(withdraw=["Aiko", "Cy", "Dai", "Finn", "Gin", "Hal", "Ivo"], objects=[use("Eve", "bludgeon", target="Bo")])
    assert "not a member of the same gang" in illegal(game([mate], objects={"Eve": "bludgeon"}))


def test_x_ray_sunglasses():
    res(game([r(objects=[use("Hal", "x-ray-sunglasses", targets=["Cy", "Dai"])])], objects={"Hal": "x-ray-sunglasses"}))
    assert "Bo is not an opponent" in illegal(
        game([r(objects=[use("Hal", "x-ray-sunglasses", targets=["Cy", "Bo"])])], objects={"Hal": "x-ray-sunglasses"})
    )


def test_magnet_and_blank_cards():
    grab = use("Cy", "magnet", took={"Bo": "bang", "Aiko": "shuriken"}, gave={"Bo": "clic", "Aiko": "clic"},
               targets=["Bo", "Aiko"])
    g, _ = play(game([r(objects=[grab])], objects={"Cy": "magnet"}))
    cy, aiko = g.players[2], g.players[0]
    assert cy.hand.get("shuriken") == 1 and aiko.hand.get("clic") == 1 and aiko.hand["shuriken"] == 0
    # a card of the other kit is a blank
    r2 = r({"Aiko": "clic", "Cy": "shuriken"}, {"Cy": "Dai"})
    out = res(game([r(objects=[grab]), r2], objects={"Cy": "magnet"}))
    assert all(p["wounds"] == 0 for p in out["players"].values())
    own = use("Cy", "magnet", took={"Finn": "clic", "Aiko": "cling"}, gave={"Finn": "clic", "Aiko": "clic"}, targets=["Finn", "Aiko"])
    assert "Finn is not an opponent" in illegal(game([r(objects=[own])], objects={"Cy": "magnet"}))


def test_poisoned_tanto_not_with_the_shuriken():
    reveal = use("Gin", "poisoned-tanto", "phase-1")
    star = r({"Gin": "shuriken"}, shuriken=[throw("Gin", ["Bo"])], objects=[reveal])
    stab = r({"Gin": "tanto"}, {"Gin": "Hal"})
    out = res(game([star, stab], objects={"Gin": "poisoned-tanto"}))
    assert out["players"]["Bo"]["wounds"] == 1  # the shuriken is not poisoned
    assert out["players"]["Hal"]["wounds"] == 2  # the first tanto wound is


def test_dark_tanto_second_blade_not_with_the_shuriken():
    reveal = use("Aiko", "dark-tanto", "phase-1")
    star = r({"Aiko": "shuriken"}, shuriken=[throw("Aiko", ["Cy"])], objects=[reveal])
    stab = r({"Aiko": "tanto"}, {"Aiko": "Bo"}, withdraw=["Ivo"])
    out = res(game([star, stab], objects={"Aiko": "dark-tanto"}))
    assert out["players"]["Cy"]["wounds"] == 1 and out["players"]["Hal"]["wounds"] == 1  # Ivo withdrew: Hal
    assert out["players"]["Bo"]["wounds"] == 1 and out["players"]["Ivo"]["wounds"] == 0


def test_double_shuriken():
    twice = r({"Dai": "shuriken"}, shuriken=[throw("Dai", [], [], "Hal"), throw("Dai", ["Hal"], [], "Hal")],
              objects=[use("Dai", "double-shuriken")])
    out = res(game([twice], objects={"Dai": "double-shuriken"}))
    assert out["players"]["Hal"]["wounds"] == 1
    once = r({"Dai": "shuriken"}, shuriken=[throw("Dai", ["Hal"]), throw("Dai", ["Bo"])])
    assert illegal(game([once], objects={"Dai": "double-shuriken"})) == "round 1: Dai already threw the shuriken"


def test_smoke_grenade_ends_the_round():
    r1 = r({"Bo": "bbb", "Cy": "bang"}, {"Bo": "Cy", "Cy": "Dai"}, objects=[use("Gin", "smoke-grenade", "phase-5")])
    out = res(game([r1], objects={"Gin": "smoke-grenade"}))
    assert out["players"]["Cy"]["wounds"] == 1 and out["players"]["Dai"]["wounds"] == 0
    assert out["rounds"][0]["sharers"] == [] and sum(out["table"]) == sum(PILE)
    throws_after = r({"Gin": "shuriken"}, shuriken=[throw("Gin", ["Bo"])], objects=[use("Gin", "smoke-grenade", "phase-5")])
    assert illegal(game([throws_after], objects={"Gin": "smoke-grenade"})) == "round 1: shuriken: the round ended at phase 5 (Smoke Grenade)"


GANGSTER_DECK = ["clic"] * 5 + ["bang", "bang", "bbb"]
YAKUZA_DECK = ["cling"] * 5 + ["tanto", "tanto", "shuriken"]


def quiet(k, **extra):
    """Round ``k`` (0-based) where everyone points late: every card is lost, no one is hurt."""
    cards = {n: (YAKUZA_DECK if n in YAKUZAS else GANGSTER_DECK)[k] for n in NAMES}
    return r(cards, {n: None for n in NAMES}, late=NAMES, **extra)


LOOT8 = deal_loot(random.Random(4), RuleSet.YAKUZAS)


def test_smoke_grenade_not_in_the_last_round():
    rounds = [quiet(k) for k in range(7)] + [quiet(7, objects=[use("Gin", "smoke-grenade", "phase-2")])]
    assert illegal(game(rounds, objects={"Gin": "smoke-grenade"}, loot=LOOT8)) == (
        "round 8: Gin may not use Smoke Grenade: last round"
    )


def test_angry_dragon_lives_one_more_round():
    cards, aims = {"Cy": "bang", "Eve": "bang", "Finn": "bang"}, {"Cy": "Dai", "Eve": "Dai", "Finn": "Dai"}
    r1 = r(cards, aims, objects=[use("Dai", "angry-dragon")])
    g, out = play(game([r1], objects={"Dai": "angry-dragon"}))
    assert out["players"]["Dai"]["alive"] and out["players"]["Dai"]["wounds"] == 3
    g, out = play(game([r1, r({"Dai": "tanto"})], objects={"Dai": "angry-dragon"}))
    assert not out["players"]["Dai"]["alive"] and out["players"]["Eve"]["wounds"] == 1  # his revenge
    assert "Dai did not die then" in illegal(game([r(objects=[use("Dai", "angry-dragon")])], objects={"Dai": "angry-dragon"}))


def test_angry_dragon_in_the_last_round_dies_before_the_score():
    rounds = [quiet(k) for k in range(7)]
    last = quiet(7, objects=[use("Dai", "angry-dragon")])  # bbb for the gangsters, shuriken for the yakuzas
    shooters = ["Cy", "Eve", "Finn"]
    last["aims"].update({n: "Dai" for n in shooters}, Dai="Eve")
    last["late"] = [n for n in NAMES if n not in shooters + ["Dai"]]
    g, out = play(game(rounds + [last], objects={"Dai": "angry-dragon"}, loot=LOOT8))
    assert out["finished"] and not out["players"]["Dai"]["alive"]
    base = res(game(rounds + [{**last, "objects": []}], objects={"Dai": "angry-dragon"}, loot=LOOT8))
    assert out["scores"] == base["scores"]  # his gang pays for a dead member all the same


def test_fake_finger_on_a_band_aid_flip():
    first = r(withdraw=["Aiko"])
    second = r(withdraw=["Aiko"], objects=[use("Aiko", "fake-finger")])
    out = res(game([first, second], objects={"Aiko": "fake-finger"}))
    assert out["players"]["Aiko"] == {"alive": True, "wounds": 0, "cowardice": 0, "honor": "none"}
    assert "did not turn an honour marker" in illegal(game([second], objects={"Aiko": "fake-finger"}))


# -- interactions the manual calls out --------------------------------------------------


def test_kevlar_against_the_grenade():
    r1 = r({"Eve": "bang"}, {"Eve": "Cy"}, powers=[use("Cy", "the-insane", "phase-3")],
           objects=[use("Hal", "kevlar", "phase-6", **{"from": "Cy"})])
    out = res(game([r1], powers={"Cy": "the-insane"}, objects={"Hal": "kevlar"}))
    assert out["players"]["Hal"]["wounds"] == 0 and out["players"]["Hal"]["cowardice"] == 2
    assert out["rounds"][0]["sharers"] == []  # the grenade leaves no share


def test_kevlar_and_smoke_grenade():
    r1 = r({"Aiko": "tanto"}, {"Aiko": "Ivo"},
           objects=[use("Ivo", "kevlar", "phase-6"), use("Gin", "smoke-grenade", "phase-6")])
    out = res(game([r1], objects={"Ivo": "kevlar", "Gin": "smoke-grenade"}))
    assert out["players"]["Ivo"]["cowardice"] == 2 and out["players"]["Ivo"]["wounds"] == 0
    assert out["rounds"][0]["sharers"] == []


@pytest.mark.parametrize("card", ["poisoned-tanto", "dark-tanto"])
def test_tanto_objects_wait_for_a_tanto(card):
    reveal = use("Gin", card, "phase-1")
    star = r({"Gin": "shuriken"}, shuriken=[throw("Gin", ["Bo"])], objects=[reveal])
    g, _ = play(game([star], objects={"Gin": card}))
    assert g.players[6].has(card)  # still there for his first tanto wound


# -- more refusals and edge cases ---------------------------------------------------------

VISIBLE = ["laser-beam", "dum-dum-bullet", "magic-bullet-right", "magic-bullet-left", "poisoned-tanto", "dark-tanto"]


@pytest.mark.parametrize("card", VISIBLE)
def test_visible_objects_revealed_only_in_round_1_or_5_and_once(card):
    holder = "Gin" if card in ("poisoned-tanto", "dark-tanto") else "Cy"
    reveal = use(holder, card, "phase-1")
    assert illegal(game([r(), r(objects=[reveal])], objects={holder: card})) == (
        f"round 2: {holder} may not reveal {CATALOG[card].name} in round 2: visible Objects are revealed in round 1 or 5"
    )
    assert illegal(game([r(objects=[reveal, dict(reveal)])], objects={holder: card})) == (
        f"round 1: {holder} may not reveal {CATALOG[card].name}: it is already revealed"
    )
    assert f"{CATALOG[card].name} at phase 3" in illegal(game([r(objects=[use(holder, card, "phase-3")])], objects={holder: card}))


def test_super_coward_has_no_use_entry():
    assert "counts by itself at the end of the game" in illegal(
        game([r(powers=[use("Finn", "super-coward", "phase-7")])], powers={"Finn": "super-coward"})
    )


def test_objects_and_powers_go_in_their_own_lists():
    data = game([r(powers=[use("Cy", "kevlar", "phase-6")])], objects={"Cy": "kevlar"}, powers={})
    assert "kevlar belongs in the objects list" in illegal(data)


def test_smoke_grenade_closing_phase_1_leaves_no_cards():
    smoke = use("Gin", "smoke-grenade", "phase-1")
    empty = {"cards": {}, "aims": {}, "withdraw": [], "objects": [smoke]}
    out = res(game([empty, r()], objects={"Gin": "smoke-grenade"}))
    assert out["rounds"][0]["sharers"] == [] and out["rounds"][1]["pot"] == 2 * sum(PILE)
    assert illegal(game([r(objects=[smoke])], objects={"Gin": "smoke-grenade"})) == (
        "round 1: Aiko put down a card after the round ended"
    )


def test_ninja_moves_once_a_round():
    moves = [use("Dai", "ninja", "phase-1", seat=["Finn", "Gin"]), use("Dai", "ninja", "phase-1", seat=["Aiko", "Bo"])]
    assert "the Ninja moves once a round" in illegal(game([r(aims={"Dai": "Finn"}, powers=moves)], powers={"Dai": "ninja"}))


def test_double_shuriken_same_opponent_only_after_a_miss():
    # the first throw, declared at Hal, knocks Bo over instead: it did not fail
    twice = r({"Dai": "shuriken"}, shuriken=[throw("Dai", ["Bo"], [], "Hal"), throw("Dai", ["Hal"], [], "Hal")],
              objects=[use("Dai", "double-shuriken")])
    assert illegal(game([twice], objects={"Dai": "double-shuriken"})) == (
        "round 1: Dai may not throw at Hal again: the first throw did not fail"
    )
    other = r({"Dai": "shuriken"}, shuriken=[throw("Dai", ["Hal"], [], "Hal"), throw("Dai", ["Bo"], [], "Bo")],
              objects=[use("Dai", "double-shuriken")])
    out = res(game([other], objects={"Dai": "double-shuriken"}))
    assert out["players"]["Hal"]["wounds"] == 1 and out["players"]["Bo"]["wounds"] == 1


def test_angry_dragon_and_kamikaze_blast_at_the_definitive_death():
    cards, aims = {"Cy": "bang", "Eve": "bang", "Finn": "bang"}, {"Cy": "Dai", "Eve": "Dai", "Finn": "Dai"}
    r1 = r(cards, aims, objects=[use("Dai", "angry-dragon")])
    r2 = r(powers=[use("Dai", "kamikaze", "end-of-round")])
    out = res(game([r1, r2], powers={"Dai": "kamikaze"}, objects={"Dai": "angry-dragon"}))
    assert not out["players"]["Dai"]["alive"]
    assert out["players"]["Cy"]["wounds"] == 1 and out["players"]["Eve"]["wounds"] == 1


def test_angry_dragon_does_not_keep_a_gang_alive():
    # Everyone of purple but Dai is dead; Dai lives on an Angry Dragon: purple counts as gone.
    g, _ = play(game([r()], objects={"Dai": "angry-dragon"}))
    for p in g.players:
        if p.gang is not None and str(p.gang) == "purple" and p.name != "Dai":
            p.alive = False
    g.players[3].dragon_until = 2
    assert [p.name for p in g.players if not p.counts_as_dead and str(p.gang) == "purple"] == []


def test_geisha_may_send_a_player_at_his_own_gang():
    charm = use("Aiko", "geisha", "phase-4", redirect={"Bo": "Hal", "Ivo": "Cy"})
    r1 = r({"Bo": "bang"}, {"Bo": "Aiko"}, powers=[charm])
    out = res(game([r1], powers={"Aiko": "geisha"}))
    assert out["players"]["Hal"]["wounds"] == 1  # Bo's gang mate


def test_story_tells_the_card_uses(capsys):
    from controller.record import from_dict, replay
    from controller.record.story import story

    r1 = r({"Eve": "bang"}, {"Eve": "Cy"}, withdraw=["Hal"], powers=[use("Cy", "the-insane", "phase-3")])
    text = story(replay(from_dict(game([r1], powers={"Cy": "the-insane"}))))
    assert "Cy uses The Insane" in text and "Cy's grenade explodes" in text and "no share" in text
