"""Rulings the engine now follows exactly: the 2nd edition's clip, title and tile, the diamond bonus,
first aid at 0 wounds; the "first wound" Objects after the protections; First Aid Kit on one mate; the
Clip at any moment; the Smoke Grenade closing phase 7; The Specialist alive; the story's wound counts.
Each with its effect and its refusal."""

from __future__ import annotations

import pytest

from controller.record.story import story
from controller.rules import Game, IllegalMove
from rules_kit import all_cards, illegal, play, record, rnd
from test_rules_advanced import game, r, res, throw, use

N4 = ["A", "B", "C", "D"]
A4 = {"A": "B", "B": "C", "C": "D", "D": "A"}
CASH = ["cash-5000"] * 4 + ["cash-10000"] * 4
PILES = [CASH, CASH, ["cash-5000"] * 4 + ["cash-20000"] * 4, ["cash-10000"] * 4 + ["cash-20000"] * 4]


def picks(*pairs):
    return [{"player": p, "take": t} for p, t in pairs]


# -- 2nd edition -------------------------------------------------------------------


def _d_bangs_while_a_lies_down(clip_round: int | None, rounds: int = 4):
    """D plays a bang every round while A lies down (D's card is discarded: used); B, C, D share."""
    out, loot = [], []
    for k in range(1, rounds + 1):
        pile = list(PILES[k - 1])
        if k == clip_round:
            pile[2] = "clip"  # D's first pick
        out.append(rnd(all_cards(N4, D="bang"), A4, withdraw=["A"], picks=picks(*zip(["B", "C", "D"] * 3, pile))))
        loot.append(pile)
    return record("classic-2014", 4, out, loot=loot)


def test_2014_clip_gives_back_the_bang_used_this_round():
    # Round 1: D's bang is discarded (A lay down); D takes the clip in that round's share: it comes back.
    data = _d_bangs_while_a_lies_down(clip_round=1, rounds=1)
    game_, _ = play(data)
    assert game_.players[3].hand["bang"] == 3 and game_.players[3].discarded["bang"] == 0


def test_2014_clip_lets_a_fourth_bang_be_played():
    # Bangs in rounds 1-3 empty D's hand; the clip taken in round 3 gives one back for round 4.
    data = _d_bangs_while_a_lies_down(clip_round=3)
    game_, _ = play(data)
    assert game_.players[3].hand["bang"] == 0 and game_.players[3].discarded["bang"] == 3
    without = _d_bangs_while_a_lies_down(clip_round=None)
    assert illegal(without) == "round 4: D has no Bang! card in hand"


def test_2014_clip_taken_before_any_bang_gives_nothing():
    r1 = rnd(all_cards(N4), A4, picks=picks(*zip(N4 * 2, ["clip"] + ["cash-5000"] * 7)))
    game_, _ = play(record("classic-2014", 4, [r1], loot=[["clip"] + ["cash-5000"] * 7]))
    assert game_.players[0].hand["bang"] == 3


def test_2014_face_down_card_must_have_been_in_hand_when_put_down():
    """The table's path: a card put down face down, a clip taken in phase 7, the card shown at the end."""
    game_ = Game("classic-2014", [(n, None) for n in N4], PILES[:3] + [["clip"] + PILES[3][1:]])
    for _ in range(3):  # D plays his three bangs; A lies down each time
        rnd_ = game_.begin_round()
        rnd_.play_cards({0: "clic", 1: "clic", 2: "clic", 3: "bang"})
        rnd_.aim({0: 1, 1: 2, 2: 3, 3: 0})
        rnd_.withdraw([0])
        rnd_.bang_bang_bang()
        rnd_.reveal()
        while (turn := rnd_.pick_turn()) is not None:
            rnd_.pick(turn, game_.table[0])
        rnd_.end_picks()
        rnd_.finish()
    rnd_ = game_.begin_round()
    rnd_.play_cards({0: "clic", 1: "clic", 2: "clic", 3: None})  # D has no bang left
    rnd_.aim({0: 1, 1: 2, 2: 3, 3: 0})
    rnd_.withdraw([0])
    rnd_.bang_bang_bang()
    rnd_.reveal()
    rnd_.pick(1, "cash-10000")
    rnd_.pick(2, "cash-10000")
    rnd_.pick(3, "clip")
    with pytest.raises(IllegalMove, match="round 4: D (had|has) no Bang! card in hand"):
        rnd_.reveal_cards({3: "bang"})
    rnd_.reveal_cards({3: "clic"})


def test_2014_godfather_title_passes_left_on_his_death():
    kill = rnd(all_cards(N4, B="bang", C="bang", D="bang"), {"A": "B", "B": "A", "C": "A", "D": "A"},
               picks=picks(*zip(["B", "C", "D"] * 3, CASH)))
    after = rnd(all_cards(["B", "C", "D"]), {"B": "C", "C": "D", "D": "B"}, picks=picks(*zip(["B", "C", "D"] * 3, CASH)))
    game_, out = play(record("classic-2014", 4, [kill, after], loot=[CASH, CASH]))
    assert not out["players"]["A"]["alive"] and game_.godfather == 1  # B, on A's left
    wrong = rnd(all_cards(["B", "C", "D"]), {"B": "C", "C": "D", "D": "B"}, picks=picks(("C", "cash-5000")))
    assert illegal(record("classic-2014", 4, [kill, wrong], loot=[CASH, CASH])) == "round 2: C picked out of turn: it is B's turn"


def test_2014_new_godfather_tile_only_while_loot_remains():
    ok = rnd(all_cards(N4), A4, picks=picks(*zip(N4 * 3, [CASH[0], "godfather"] + CASH[1:])))
    game_, _ = play(record("classic-2014", 4, [ok], loot=[CASH]))
    assert game_.godfather == 1
    late = rnd(all_cards(N4), A4, picks=picks(*zip(N4 * 3, CASH + ["godfather"])))
    assert illegal(record("classic-2014", 4, [late], loot=[CASH])) == "round 1: A may not pick: the loot is gone"


def test_2014_no_privilege_on_a_late_pointer():
    ok = rnd(all_cards(N4, B="bang"), A4, privilege={"player": "B", "target": "D"})
    _, out = play(record("classic-2014", 4, [ok]))
    assert out["players"]["D"]["wounds"] == 1
    late = rnd(all_cards(N4), {**A4, "B": None}, late=["B"], privilege={"player": "B", "target": "D"})
    assert illegal(record("classic-2014", 4, [late])) == "round 1: B has no target to change: B pointed late"


def test_2014_diamond_bonus_to_the_single_living_holder_of_the_most():
    game_ = Game("classic-2014", [(n, None) for n in N4], [])
    a, b, c, d = game_.players
    assert game_.scores() == {"A": 0, "B": 0, "C": 0, "D": 0}  # the most is 0: no bonus
    a.loot, a.money = ["diamond-1000"], 1000
    b.loot, b.money = ["diamond-1000"], 1000
    assert game_.scores()["A"] == 1000 and game_.scores()["B"] == 1000  # shared: no bonus
    b.alive = False
    assert game_.scores()["A"] == 61000  # the dead do not count


def test_2014_first_aid_at_zero_wounds_stays_at_zero():
    r1 = rnd(all_cards(N4), A4, picks=picks(*zip(N4 * 2, ["first-aid"] + ["cash-5000"] * 7)))
    _, out = play(record("classic-2014", 4, [r1], loot=[["first-aid"] + ["cash-5000"] * 7]))
    assert out["players"]["A"]["wounds"] == 0
    hurt = rnd(all_cards(N4, D="bang"), A4, picks=picks(*zip(["B", "C", "D"] * 3, CASH)))
    heal = rnd(all_cards(N4), A4, picks=picks(*zip(N4 * 2, ["first-aid"] + CASH[1:])))
    _, out = play(record("classic-2014", 4, [hurt, heal], loot=[CASH, ["first-aid"] + CASH[1:]]))
    assert out["players"]["A"]["wounds"] == 0


# -- "first wound" Objects, decided after the protections ------------------------------
# Seats: Aiko Bo Cy Dai Eve Finn Gin Hal Ivo; Aiko, Dai, Gin are yakuzas.


def test_dum_dum_not_spent_on_a_hit_dragon_skin_cancels():
    r1 = r({"Finn": "bbb", "Cy": "bang"}, {"Finn": "Eve", "Cy": "Eve"},
           powers=[use("Eve", "dragon-skin", "phase-5")], objects=[use("Cy", "dum-dum-bullet", "phase-1")])
    r2 = r({"Cy": "bang"}, {"Cy": "Dai"})
    data = game([r1, r2], powers={"Eve": "dragon-skin"}, objects={"Cy": "dum-dum-bullet"})
    g, out = play(data)
    assert out["players"]["Eve"]["wounds"] == 1
    assert out["players"]["Dai"]["wounds"] == 2  # the Object waited for a hit that wounds
    text = story(g)
    assert "Cy hits Eve (Bang!, no wound)" in text


def test_dum_dum_spent_on_a_hit_dragon_skin_only_cuts_down():
    r1 = r({"Cy": "bang"}, {"Cy": "Eve"}, powers=[use("Eve", "dragon-skin", "phase-6")],
           objects=[use("Cy", "dum-dum-bullet", "phase-1")])
    r2 = r({"Cy": "bang"}, {"Cy": "Dai"})
    g, out = play(game([r1, r2], powers={"Eve": "dragon-skin"}, objects={"Cy": "dum-dum-bullet"}))
    assert out["players"]["Eve"]["wounds"] == 1 and out["players"]["Dai"]["wounds"] == 1
    assert "Cy hits Eve (Bang!)" in story(g)  # 2 wounds aimed, 1 taken


@pytest.mark.parametrize("card", ["magic-bullet-left", "magic-bullet-right"])
def test_magic_bullet_no_second_victim_when_the_target_takes_no_wound(card):
    r1 = r({"Cy": "bbb", "Finn": "bang"}, {"Cy": "Eve", "Finn": "Eve"}, powers=[use("Eve", "dragon-skin", "phase-5")],
           objects=[use("Finn", card, "phase-1")])
    out = res(game([r1], powers={"Eve": "dragon-skin"}, objects={"Finn": card}))
    assert out["players"]["Eve"]["wounds"] == 1
    assert out["players"]["Finn"]["wounds"] == 0 and out["players"]["Dai"]["wounds"] == 0  # Eve's neighbours
    r2 = r({"Finn": "bang"}, {"Finn": "Aiko"})
    out = res(game([r1, r2], powers={"Eve": "dragon-skin"}, objects={"Finn": card}))
    other = "Bo" if card == "magic-bullet-left" else "Ivo"
    assert out["players"]["Aiko"]["wounds"] == 1 and out["players"][other]["wounds"] == 1


def test_poisoned_tanto_not_spent_on_a_hit_dragon_skin_cancels():
    r1 = r({"Cy": "bbb", "Gin": "tanto"}, {"Cy": "Hal", "Gin": "Hal"}, powers=[use("Hal", "dragon-skin", "phase-5")],
           objects=[use("Gin", "poisoned-tanto", "phase-1")])
    r2 = r({"Gin": "tanto"}, {"Gin": "Finn"})
    out = res(game([r1, r2], powers={"Hal": "dragon-skin"}, objects={"Gin": "poisoned-tanto"}))
    assert out["players"]["Hal"]["wounds"] == 1 and out["players"]["Finn"]["wounds"] == 2


def test_dark_tanto_no_second_blade_when_the_target_takes_no_wound():
    r1 = r({"Cy": "bbb", "Gin": "tanto"}, {"Cy": "Hal", "Gin": "Hal"}, powers=[use("Hal", "dragon-skin", "phase-5")],
           objects=[use("Gin", "dark-tanto", "phase-1")])
    out = res(game([r1], powers={"Hal": "dragon-skin"}, objects={"Gin": "dark-tanto"}))
    assert out["players"]["Finn"]["wounds"] == 0  # Gin's other neighbour
    r2 = r({"Gin": "tanto"}, {"Gin": "Hal"})
    out = res(game([r1, r({}), r2], powers={"Hal": "dragon-skin"}, objects={"Gin": "dark-tanto"},
                   loot=[[20000, 10000, 10000, 10000, 5000, 5000, 5000, 5000]] * 3))
    assert out["players"]["Hal"]["wounds"] == 2 and out["players"]["Finn"]["wounds"] == 1


def test_first_wound_objects_not_spent_on_kevlar_or_samurai():
    kevlar = r({"Eve": "bang"}, {"Eve": "Finn"}, objects=[use("Finn", "kevlar", "phase-6"),
                                                         use("Eve", "dum-dum-bullet", "phase-1")])
    again = r({"Eve": "bang"}, {"Eve": "Finn"})
    out = res(game([kevlar, again], objects={"Finn": "kevlar", "Eve": "dum-dum-bullet"}))
    assert out["players"]["Finn"]["wounds"] == 2 and out["players"]["Finn"]["cowardice"] == 2
    samurai = r({"Cy": "bang", "Aiko": "tanto"}, {"Cy": "Aiko"}, powers=[use("Aiko", "samurai", "phase-6")],
                objects=[use("Cy", "dum-dum-bullet", "phase-1")])
    out = res(game([samurai, r({"Cy": "bang"}, {"Cy": "Dai"})], powers={"Aiko": "samurai"}, objects={"Cy": "dum-dum-bullet"}))
    assert out["players"]["Aiko"]["wounds"] == 0 and out["players"]["Dai"]["wounds"] == 2


def test_first_wound_objects_act_through_protections_that_do_not_stop_a_hit():
    # The Unbreakable changes the death threshold, not the hit: the Dum-Dum doubles it.
    r1 = r({"Cy": "bbb"}, {"Cy": "Bo"}, objects=[use("Cy", "dum-dum-bullet", "phase-1")])
    r2 = r({"Cy": "bang"}, {"Cy": "Bo"}, powers=[use("Bo", "the-unbreakable", "deaths")])
    out = res(game([r1, r2], powers={"Bo": "the-unbreakable"}, objects={"Cy": "dum-dum-bullet"}))
    assert out["players"]["Bo"]["wounds"] == 3 and out["players"]["Bo"]["alive"]
    # A band-aid flip (phase 4) is not a hit: a Poisoned Tanto later still doubles.
    first, second = r(withdraw=["Aiko"], objects=[use("Gin", "poisoned-tanto", "phase-1")]), r(withdraw=["Aiko"])
    third = r({"Gin": "tanto"}, {"Gin": "Finn"})
    out = res(game([first, second, third], objects={"Gin": "poisoned-tanto", "Aiko": "fake-finger"}))
    assert out["players"]["Aiko"]["wounds"] == 1 and out["players"]["Finn"]["wounds"] == 2


def test_shuriken_hits_do_not_use_a_tanto_object():
    r1 = r({"Gin": "shuriken"}, shuriken=[throw("Gin", ["Bo"], target="Bo")], objects=[use("Gin", "poisoned-tanto", "phase-1")])
    r2 = r({"Gin": "tanto"}, {"Gin": "Finn"})
    out = res(game([r1, r2], objects={"Gin": "poisoned-tanto"}))
    assert out["players"]["Bo"]["wounds"] == 1 and out["players"]["Finn"]["wounds"] == 2


# -- First Aid Kit, Clip, Smoke Grenade, The Specialist --------------------------------


def test_first_aid_kit_heals_the_holder_and_at_most_one_mate():
    hurt = r({"Cy": "bang", "Finn": "bang", "Ivo": "bbb"}, {"Cy": "Hal", "Finn": "Bo", "Ivo": "Eve"})
    two = r(objects=[use("Hal", "first-aid-kit", heal={"Bo": 1, "Eve": 1})])
    assert illegal(game([hurt, two], objects={"Hal": "first-aid-kit"})) == (
        "round 2: Hal may not use First Aid Kit: heals Hal's own wounds and/or one other gang member's, "
        "not Bo and Eve's"
    )
    one = r(objects=[use("Hal", "first-aid-kit", heal={"Hal": 1, "Eve": 1})])
    out = res(game([hurt, one], objects={"Hal": "first-aid-kit"}))
    assert [out["players"][n]["wounds"] for n in ("Hal", "Bo", "Eve")] == [0, 1, 0]


def test_clip_any_moment_including_phase_5b():
    r1, r2 = r({"Bo": "bang"}), r({"Bo": "bang"})
    r3 = r({"Gin": "shuriken"}, shuriken=[throw("Gin", ["Cy"], target="Cy")],
           objects=[use("Bo", "clip", "phase-5b", discard=["clic", "clic"])])
    g, _ = play(game([r1, r2, r3], objects={"Bo": "clip"}))
    assert g.players[1].hand["bang"] == 2
    early = r({"Gin": "shuriken"}, shuriken=[throw("Gin", ["Cy"], target="Cy")],
              objects=[use("Bo", "clip", "phase-5b", discard=["clic", "clic"])])
    assert "Bo has used no Bang! card yet" in illegal(game([early], objects={"Bo": "clip"}))


def test_smoke_grenade_closing_phase_7_changes_nothing():
    r1 = r(objects=[use("Gin", "smoke-grenade", "phase-7")])
    out = res(game([r1], objects={"Gin": "smoke-grenade"}))
    assert len(out["rounds"][0]["sharers"]) == 9  # the share happened
    deaths = r(objects=[use("Gin", "smoke-grenade", "deaths")])
    assert "may not use Smoke Grenade at the deaths" in illegal(game([deaths], objects={"Gin": "smoke-grenade"}))


def test_the_specialist_must_be_alive():
    three = r({"Eve": "bbb", "Cy": "bang", "Ivo": "bang", "Finn": "bang"}, {"Eve": "Gin", "Cy": "Eve", "Ivo": "Eve"},
              powers=[use("Eve", "the-specialist", discard=["clic"])])
    wounds = r({"Cy": "bang"}, {"Cy": "Eve"})
    assert illegal(game([wounds, three], powers={"Eve": "the-specialist"})) == (
        "round 2: Eve may not use The Specialist: Eve is dead"
    )


def test_shotgun_pair_first_wound_object_goes_to_the_target_actually_wounded():
    reveal = r(powers=[use("Eve", "the-shotgun", "phase-1")], objects=[use("Eve", "dum-dum-bullet", "phase-1")])
    pair = use("Eve", "the-shotgun", "phase-3", targets=["Finn", "Gin"], markers={"Finn": "wound", "Gin": "wound"})
    shot = r({"Bo": "bbb", "Eve": "bang"}, {"Bo": "Finn", "Eve": "Finn"}, powers=[pair, use("Finn", "dragon-skin", "phase-5")])
    kept = {"Eve": "the-shotgun", "Finn": "dragon-skin"}
    out = res(game([reveal, shot], powers=kept, objects={"Eve": "dum-dum-bullet"}))
    assert out["players"]["Finn"]["wounds"] == 1 and out["players"]["Gin"]["wounds"] == 2
    plain = r({"Bo": "bbb", "Eve": "bang"}, {"Bo": "Finn", "Eve": "Finn"}, powers=[pair])
    out = res(game([reveal, plain], powers={"Eve": "the-shotgun"}, objects={"Eve": "dum-dum-bullet"}))
    assert out["players"]["Finn"]["wounds"] == 3 and out["players"]["Gin"]["wounds"] == 1  # first of the two, clockwise


def test_the_grenade_does_not_use_its_holders_first_wound_object():
    boom = r({"Eve": "bang"}, {"Eve": "Cy"}, withdraw=["Hal"], powers=[use("Cy", "the-insane", "phase-3")],
             objects=[use("Cy", "dum-dum-bullet", "phase-1")])
    later = r({"Cy": "bang"}, {"Cy": "Hal"})
    out = res(game([boom, later], powers={"Cy": "the-insane"}, objects={"Cy": "dum-dum-bullet"}))
    assert out["players"]["Aiko"]["wounds"] == 1  # the grenade
    assert out["players"]["Hal"]["wounds"] == 2  # Cy's first wounding bang
