"""One test (or a few) per ruling of rulings.md, for each rule set it concerns."""

from __future__ import annotations

import pytest

import random

from controller.record.generator import deal_loot
from controller.rules import Game, IllegalMove, RuleSet
from controller.rules.names import card_label
from rules_kit import YAKUZA_NAMES, all_cards, illegal, play, record, rnd

C5 = ["A", "B", "C", "D", "E"]
Y6 = YAKUZA_NAMES[6]  # P1 Y1 R1 P2 Y2 R2
Y6_AIMS = {"P1": "Y1", "Y1": "R1", "R1": "P2", "P2": "Y2", "Y2": "R2", "R2": "P1"}
C5_AIMS = {"A": "B", "B": "C", "C": "D", "D": "E", "E": "A"}
Y6_CARDS = {"P1": "cling", "P2": "cling"}


def y6(cards=None, aims=None, **kw):
    return rnd(all_cards(Y6, "clic", **{**Y6_CARDS, **(cards or {})}), {**Y6_AIMS, **(aims or {})}, **kw)


def c5(cards=None, aims=None, **kw):
    return rnd(all_cards(C5, "clic", **(cards or {})), {**C5_AIMS, **(aims or {})}, **kw)


# -- rule sets -----------------------------------------------------------------


@pytest.mark.parametrize(
    "ruleset,bad,good", [("classic", [3, 7], [4, 6]), ("classic-2014", [3, 9], [4, 8]), ("yakuzas", [5], [6, 9])]
)
def test_player_counts(ruleset, bad, good):
    for n in good:
        play(record(ruleset, n, []))
    for n in bad:
        names = [f"N{k}" for k in range(n)]
        data = record(ruleset, n, [], names=names) if ruleset != "yakuzas" else record(ruleset, 6, [])
        if ruleset == "yakuzas":
            data["players"] = data["players"][:n]
        assert "players" in illegal(data)


def test_decks_classic_has_one_bbb():
    r1 = c5(cards={"A": "bbb"}, aims={"A": "C"}, withdraw=["C"])
    r2 = c5(cards={"A": "bbb"})
    assert illegal(record("classic", 5, [r1, r2])) == "round 2: A has no Bang! Bang! Bang! card in hand"


def test_decks_2014_has_no_bbb_and_three_bangs():
    names = ["A", "B", "C", "D"]
    aims = {"A": "B", "B": "A", "C": "D", "D": "C"}
    bbb = rnd(all_cards(names, A="bbb"), aims, withdraw=names)
    assert illegal(record("classic-2014", 4, [bbb])) == "round 1: A has no Bang! Bang! Bang! card in hand"
    bang = rnd(all_cards(names, A="bang"), aims, withdraw=names)
    game, _ = play(record("classic-2014", 4, [bang, bang, bang]))
    assert game.players[0].hand.get("bang", 0) == 0
    assert illegal(record("classic-2014", 4, [bang] * 4)) == "round 4: A has no Bang! card in hand"


def test_decks_yakuza_cards_are_not_gangster_cards():
    assert illegal(record("yakuzas", 6, [y6(cards={"Y1": "tanto"})])) == "round 1: Y1 has no tanto card in hand"
    assert illegal(record("yakuzas", 6, [y6(cards={"P1": "bang"})])) == "round 1: P1 has no Bang! card in hand"


def test_loot_piles_checked():
    data = record("classic", 5, [], loot=[[20000] * 4])
    assert illegal(data) == "loot: pile 1 has 4 items, a classic pile has 5"
    data = record("classic", 5, [], loot=[[20000] * 5, [20000] * 5, [20000] * 5])
    assert illegal(data) == "loot: pile 3 makes 15 x 20000; the classic deck has 10"
    data = record("yakuzas", 6, [], loot=[[20000] * 7 + [1000]])
    assert "1000" in illegal(data)


# -- yakuzas gangs and seats ---------------------------------------------------


@pytest.mark.parametrize("n", [6, 7, 8, 9])
def test_official_seatings_accepted(n):
    play(record("yakuzas", n, []))


def test_other_seating_refused_unless_free():
    names = ["P1", "P2", "Y1", "R1", "Y2", "R2"]
    assert "may not sit at seat 1" in illegal(record("yakuzas", 6, [], names=names))
    play(record("yakuzas", 6, [], names=names, options={"free_seating": True}))


def test_gang_sizes_checked_even_with_free_seating():
    names = ["P1", "P2", "P3", "Y1", "R1", "R2"]
    message = illegal(record("yakuzas", 6, [], names=names, options={"free_seating": True}))
    assert message == "players: the purple gang has 2 players at 6, not 3"


def test_gang_only_in_yakuzas():
    data = record("classic", 5, [])
    data["players"][0]["gang"] = "red"
    assert "may not have a gang" in illegal(data)


# -- seats and directions ------------------------------------------------------


def test_left_is_next_in_list_and_tanto_retargets_leftwards():
    # P1 aims left at Y1; Y1 withdraws: the tanto goes on leftwards to R1.
    game, res = play(record("yakuzas", 6, [y6(cards={"P1": "tanto"}, aims={"P1": "Y1"}, withdraw=["Y1"])]))
    assert res["players"]["R1"]["wounds"] == 1


def test_tanto_retargets_rightwards():
    # P1 aims right at R2; R2 withdraws: the tanto goes on rightwards to Y2.
    _, res = play(record("yakuzas", 6, [y6(cards={"P1": "tanto"}, aims={"P1": "R2"}, withdraw=["R2"])]))
    assert res["players"]["Y2"]["wounds"] == 1


def test_dead_leave_the_table_at_end_of_round():
    # 7 players P1 Y1 P2 R1 P3 Y2 R2.  Y1 dies in round 3; from round 4 P1 and P2 are neighbours,
    # both purple: P2's left is R1, right is P1 (same gang), so only R1 is a legal tanto target.
    names = YAKUZA_NAMES[7]
    aims = {"P1": "Y1", "Y1": "R1", "P2": "R1", "R1": "P2", "P3": "Y2", "Y2": "R2", "R2": "P1"}
    base = {"P1": "cling", "P2": "cling", "P3": "cling"}
    hit = rnd(all_cards(names, **{**base, "P1": "tanto"}), aims)
    r3 = rnd(all_cards(names, **base, R1="bang"), {**aims, "R1": "Y1"}, withdraw=[])
    r3["cards"]["P1"] = "shuriken"
    r3["shuriken"] = [{"thrower": "P1", "knocked": ["Y2"], "touched": []}]
    # Round 3: P1 throws at Y2 (not a neighbour); R1 shoots Y1 for his third wound.
    game, res = play(record("yakuzas", 7, [hit, hit, r3]))
    assert not res["players"]["Y1"]["alive"]
    r4 = rnd(all_cards([n for n in names if n != "Y1"], **base), {**{k: v for k, v in aims.items() if k != "Y1"}, "P1": "R2"})
    play(record("yakuzas", 7, [hit, hit, r3, r4]))
    r4_bad = rnd(r4["cards"], {**r4["aims"], "P1": "P2"})
    assert illegal(record("yakuzas", 7, [hit, hit, r3, r4_bad])) == "round 4: P1 may not aim at P2: same gang"
    r4_none = rnd(r4["cards"], {**r4["aims"], "P2": None})
    assert illegal(record("yakuzas", 7, [hit, hit, r3, r4_none])) == "round 4: P2 must aim at someone: R1"


def test_neighbour_counted_before_death_not_after():
    # In round 1, P2 in a 7-player game may not aim at P1 across Y1 (not a neighbour).
    names = YAKUZA_NAMES[7]
    aims = {"P1": "Y1", "Y1": "R1", "P2": "Y1", "R1": "P2", "P3": "Y2", "Y2": "R2", "R2": "P1"}
    r1 = rnd(all_cards(names, P1="cling", P2="cling", P3="cling"), {**aims, "P2": "R2"})
    assert illegal(record("yakuzas", 7, [r1])) == "round 1: P2 may not aim a tanto at R2: not a neighbour"


# -- phase 3: aiming -----------------------------------------------------------


def test_no_aim_at_self_or_own_gang():
    assert illegal(record("classic", 5, [c5(aims={"A": "A"})])) == "round 1: A may not aim at A: every player aims at another player"
    assert illegal(record("yakuzas", 6, [y6(aims={"Y1": "Y2"})])) == "round 1: Y1 may not aim at Y2: same gang"
    assert illegal(record("classic-2014", 4, [rnd(all_cards("ABCD"), {"A": "A", "B": "A", "C": "A", "D": "A"})])) == (
        "round 1: A may not aim at A: every player aims at another player"
    )


def test_gangster_in_yakuzas_may_aim_anywhere_but_own_gang():
    play(record("yakuzas", 6, [y6(aims={"Y1": "P2", "R1": "Y2"})]))


def test_tanto_only_at_neighbour():
    assert illegal(record("yakuzas", 6, [y6(aims={"P1": "R1"})])) == "round 1: P1 may not aim a tanto at R1: not a neighbour"


def test_yakuza_between_two_yakuzas_aims_at_no_one_but_can_throw():
    names = ["P1", "P2", "P3", "Y1", "R1", "Y2", "R2"]
    cards = all_cards(names, P1="cling", P2="shuriken", P3="cling")
    aims = {"P1": "R2", "P2": None, "P3": "Y1", "Y1": "R1", "R1": "Y2", "Y2": "R2", "R2": "Y1"}
    throw = {"thrower": "P2", "knocked": ["R1"], "touched": []}
    _, res = play(record("yakuzas", 7, [rnd(cards, aims, shuriken=[throw])], names=names, options={"free_seating": True}))
    assert res["players"]["R1"]["wounds"] == 1
    bad = rnd(cards, {**aims, "P2": "P1"})
    assert illegal(record("yakuzas", 7, [bad], names=names, options={"free_seating": True})) == (
        "round 1: P2 may not aim at P1: same gang"
    )
    # With a tanto and no target, the tanto does nothing.
    cards2 = dict(cards, P2="tanto")
    _, res = play(record("yakuzas", 7, [rnd(cards2, aims)], names=names, options={"free_seating": True}))
    assert all(p["wounds"] == 0 for p in res["players"].values())


def test_null_aim_refused_when_a_target_exists():
    assert illegal(record("classic", 5, [c5(aims={"B": None})])).startswith("round 1: B must aim at someone")


def test_late_player_loses_his_card_and_stays_in_share():
    r1 = c5(cards={"A": "bang"}, aims={"A": None}, late=["A"])
    _, res = play(record("classic", 5, [r1]))
    assert res["players"]["B"]["wounds"] == 0
    assert "A" in res["rounds"][0]["sharers"]
    bad = c5(late=["A"])
    assert illegal(record("classic", 5, [bad])) == "round 1: A pointed late: the aim must be null"


@pytest.mark.parametrize("ruleset,n", [("classic", 5), ("yakuzas", 6), ("classic-2014", 4)])
def test_late_card_is_gone_from_hand(ruleset, n):
    names = C5[:n] if ruleset != "yakuzas" else Y6
    card = "bang" if ruleset != "yakuzas" else "tanto"
    who = names[1]
    base = all_cards(names, **({} if ruleset != "yakuzas" else Y6_CARDS))
    aims = C5_AIMS if ruleset == "classic" else (Y6_AIMS if ruleset == "yakuzas" else {"A": "B", "B": "C", "C": "D", "D": "A"})
    r = rnd({**base, who: card}, {**aims, who: None}, late=[who])
    if ruleset == "yakuzas":
        who, card = "P1", "tanto"
        r = rnd({**base, who: card}, {**aims, who: None}, late=[who])
    rounds = [r, r] if ruleset != "classic" else [r, r]
    if ruleset == "classic":  # 2 bangs only
        play(record(ruleset, n, rounds))
        assert illegal(record(ruleset, n, [r, r, r])) == f"round 3: {who} has no {card_label(card)} card in hand"
    else:
        game, _ = play(record(ruleset, n, rounds))
        assert game.players[[p.name for p in game.players].index(who)].hand[card] == (1 if ruleset == "classic-2014" else 0)


def test_privilege_2014():
    names = ["A", "B", "C", "D"]
    aims = {"A": "B", "B": "C", "C": "D", "D": "A"}
    r = rnd(all_cards(names, B="bang"), aims, privilege={"player": "B", "target": "D"})
    _, res = play(record("classic-2014", 4, [r]))
    assert res["players"]["D"]["wounds"] == 1 and res["players"]["C"]["wounds"] == 0
    same = rnd(all_cards(names), aims, privilege={"player": "B", "target": "C"})
    assert illegal(record("classic-2014", 4, [same])) == "round 1: B must pick a target other than C"
    self_order = rnd(all_cards(names), aims, privilege={"player": "A", "target": "C"})
    assert illegal(record("classic-2014", 4, [self_order])) == "round 1: A is the Godfather: the privilege orders another player"
    at_self = rnd(all_cards(names), aims, privilege={"player": "B", "target": "B"})
    assert illegal(record("classic-2014", 4, [at_self])) == "round 1: B may not aim at B: every player aims at another player"
    late = rnd(all_cards(names), {**aims, "B": None}, late=["B"], privilege={"player": "B", "target": "D"})
    assert illegal(record("classic-2014", 4, [late])) == "round 1: B has no target to change: B pointed late"


def test_privilege_only_in_2014():
    r = c5(privilege={"player": "B", "target": "D"})
    assert "classic-2014" in illegal(record("classic", 5, [r]))


# -- phase 4: withdrawing ------------------------------------------------------


def test_gangster_withdraws_with_cowardice_token():
    _, res = play(record("classic", 5, [c5(withdraw=["B"])]))
    assert res["players"]["B"]["cowardice"] == 1
    _, res = play(record("yakuzas", 6, [y6(withdraw=["Y1"])]))
    assert res["players"]["Y1"]["cowardice"] == 1 and res["players"]["Y1"]["honor"] == "none"


def test_withdrawing_gangster_discards_his_card():
    _, res = play(record("classic", 5, [c5(cards={"B": "bang"}, withdraw=["B"])]))
    assert res["players"]["C"]["wounds"] == 0


def test_yakuza_honour_finger_then_band_aid_wound_then_new_finger():
    r = y6(withdraw=["P1"])
    game, res = play(record("yakuzas", 6, [r]))
    assert res["players"]["P1"] == {"alive": True, "wounds": 0, "cowardice": 0, "honor": "finger"}
    _, res = play(record("yakuzas", 6, [r, r]))
    assert res["players"]["P1"] == {"alive": True, "wounds": 1, "cowardice": 0, "honor": "none"}
    _, res = play(record("yakuzas", 6, [r, r, r]))
    assert res["players"]["P1"]["honor"] == "finger" and res["players"]["P1"]["wounds"] == 1


def test_band_aid_third_wound_kills():
    hit = y6(cards={"Y1": "bang"}, aims={"Y1": "P2"})
    w = y6(withdraw=["P2"])
    game, res = play(record("yakuzas", 6, [hit, hit, w, w]))
    assert res["players"]["P2"] == {"alive": False, "wounds": 3, "cowardice": 0, "honor": "none"}


def test_gangster_aiming_at_withdrawn_discards_and_stays():
    _, res = play(record("classic", 5, [c5(cards={"A": "bang"}, withdraw=["B"])]))
    assert res["players"]["B"]["wounds"] == 0
    assert "A" in res["rounds"][0]["sharers"]
    _, res = play(record("yakuzas", 6, [y6(cards={"Y1": "bang"}, withdraw=["R1"])]))
    assert res["players"]["R1"]["wounds"] == 0 and "Y1" in res["rounds"][0]["sharers"]


def test_gangster_aiming_at_withdrawn_yakuza_discards():
    _, res = play(record("yakuzas", 6, [y6(cards={"R1": "bang"}, withdraw=["P2"])]))
    assert res["players"]["P2"]["wounds"] == 0


def test_tanto_skips_every_withdrawn_player():
    # P1 aims left at Y1; Y1 and R1 withdraw: the tanto reaches P2 (a yakuza, same gang).
    _, res = play(record("yakuzas", 6, [y6(cards={"P1": "tanto"}, withdraw=["Y1", "R1"])]))
    assert res["players"]["P2"]["wounds"] == 1


def test_tanto_hits_its_holder_when_alone_in_share():
    everyone_else = [n for n in Y6 if n != "P1"]
    _, res = play(record("yakuzas", 6, [y6(cards={"P1": "tanto"}, withdraw=everyone_else)]))
    assert res["players"]["P1"]["wounds"] == 1
    assert res["rounds"][0]["sharers"] == []


def test_yakuza_keeps_cling_when_target_withdraws():
    game, _ = play(record("yakuzas", 6, [y6(withdraw=["Y1"])]))
    assert game.players[0].discarded["cling"] == 1


def test_2014_no_token_and_discard():
    names = ["A", "B", "C", "D"]
    aims = {"A": "B", "B": "C", "C": "D", "D": "A"}
    _, res = play(record("classic-2014", 4, [rnd(all_cards(names, A="bang"), aims, withdraw=["B"])]))
    assert res["players"]["B"] == {"alive": True, "wounds": 0, "cowardice": 0}
    assert res["players"]["A"]["wounds"] == 0


# -- phase 5: Bang! Bang! Bang! ------------------------------------------------


def test_bbb_fells_target_before_his_bang():
    _, res = play(record("classic", 5, [c5(cards={"A": "bbb", "B": "bang"}, aims={"B": "A"})]))
    assert res["players"]["B"]["wounds"] == 1 and res["players"]["A"]["wounds"] == 0


def test_mutual_bbb_both_hit():
    _, res = play(record("classic", 5, [c5(cards={"A": "bbb", "B": "bbb"}, aims={"B": "A"})]))
    assert res["players"]["A"]["wounds"] == 1 and res["players"]["B"]["wounds"] == 1


def test_bbb_in_yakuzas_fells_a_yakuza_before_his_tanto():
    _, res = play(record("yakuzas", 6, [y6(cards={"Y1": "bbb", "P2": "tanto"}, aims={"Y1": "P2"})]))
    assert res["players"]["P2"]["wounds"] == 1 and res["players"]["Y2"]["wounds"] == 0


# -- phase 5b: shuriken --------------------------------------------------------


def throw(thrower, knocked=(), touched=(), target=None):
    out = {"thrower": thrower, "knocked": list(knocked), "touched": list(touched)}
    if target:
        out["target"] = target
    return out


def test_shuriken_knocks_a_gangster():
    _, res = play(record("yakuzas", 6, [y6(cards={"P1": "shuriken"}, shuriken=[throw("P1", ["R1"], target="R1")])]))
    assert res["players"]["R1"]["wounds"] == 1 and "R1" not in res["rounds"][0]["sharers"]


def test_shuriken_touching_gangster_does_nothing_touching_yakuza_wounds():
    t = throw("P1", [], ["R1", "P2"])
    _, res = play(record("yakuzas", 6, [y6(cards={"P1": "shuriken"}, shuriken=[t])]))
    assert res["players"]["R1"]["wounds"] == 0 and res["players"]["P2"]["wounds"] == 1


def test_shuriken_fails_on_a_neighbour_that_is_not_legal():
    # P1's neighbours Y1 and R2 are not legal (R1, P2... standing gangsters R1 and Y2 are further away).
    t = throw("P1", ["R1", "Y1"])
    _, res = play(record("yakuzas", 6, [y6(cards={"P1": "shuriken"}, shuriken=[t])]))
    assert all(p["wounds"] == 0 for p in res["players"].values())


def test_shuriken_fails_when_it_hits_no_standing_character():
    t = throw("P1", ["R1"])
    _, res = play(record("yakuzas", 6, [y6(cards={"P1": "shuriken"}, withdraw=["R1"], shuriken=[t])]))
    assert res["players"]["R1"]["wounds"] == 0
    miss = throw("P1")
    _, res = play(record("yakuzas", 6, [y6(cards={"P1": "shuriken"}, shuriken=[miss])]))
    assert all(p["wounds"] == 0 for p in res["players"].values())


def test_shuriken_neighbour_legal_when_only_neighbours_stand():
    # Everyone but P1's neighbours Y1, R2 (and P1) lies down: they are legal targets.
    w = ["R1", "P2", "Y2"]
    t = throw("P1", ["Y1"], target="Y1")
    _, res = play(record("yakuzas", 6, [y6(cards={"P1": "shuriken"}, withdraw=w, shuriken=[t])]))
    assert res["players"]["Y1"]["wounds"] == 1


def test_shuriken_declared_target_must_be_legal():
    t = throw("P1", ["Y1"], target="Y1")
    assert illegal(record("yakuzas", 6, [y6(cards={"P1": "shuriken"}, shuriken=[t])])) == (
        "round 1: P1 may not throw at Y1: a neighbour, and other gangsters are standing"
    )


def test_shuriken_already_out_not_affected_and_thrower_out_of_share_after_hit():
    # Y1's bbb fells R1 first; a second shuriken touching P1 wounds P1 (a standing yakuza).
    # Y2's bbb fells R1; P1 knocks over R1 (already out: unaffected) and Y2 (wounded);
    # then P2's shuriken touches P1, who threw but still stands: a touched yakuza is wounded.
    r = y6(cards={"P1": "shuriken", "P2": "shuriken", "Y2": "bbb"}, aims={"Y2": "R1"},
           shuriken=[throw("P1", ["R1", "Y2"]), throw("P2", [], ["P1"])])
    _, res = play(record("yakuzas", 6, [r]))
    assert res["players"]["R1"]["wounds"] == 1
    assert res["players"]["Y2"]["wounds"] == 1
    assert res["players"]["P1"]["wounds"] == 1
    assert res["rounds"][0]["sharers"] == ["Y1", "P2", "R2"]


def test_shuriken_order_is_the_records_and_felled_yakuza_does_not_throw():
    r = y6(cards={"P1": "shuriken", "P2": "shuriken"}, shuriken=[throw("P2", [], ["P1"]), throw("P1", ["R1"])])
    assert illegal(record("yakuzas", 6, [r])) == "round 1: P1 is out of the share and may not throw"


def test_throw_without_a_shuriken_refused():
    r = y6(shuriken=[throw("P1", ["R1"])])
    assert illegal(record("yakuzas", 6, [r])) == "round 1: P1 did not play a shuriken and may not throw"
    r = y6(shuriken=[throw("Y1", ["R1"])])
    assert illegal(record("yakuzas", 6, [r])) == "round 1: Y1 did not play a shuriken and may not throw"


def test_unthrown_shuriken_with_gangsters_standing_refused():
    r = y6(cards={"P1": "shuriken"})
    assert illegal(record("yakuzas", 6, [r])) == "round 1: P1 played a shuriken but did not throw it"


def test_no_gangster_standing_shuriken_back_to_hand_cling_discarded():
    gangsters = ["Y1", "R1", "Y2", "R2"]
    r = y6(cards={"P1": "shuriken"}, withdraw=gangsters)
    game, _ = play(record("yakuzas", 6, [r]))
    p1 = game.players[0]
    assert p1.hand["shuriken"] == 1 and p1.hand["cling"] == 4
    # and he may play it again
    r2 = y6(cards={"P1": "shuriken"}, shuriken=[throw("P1", ["R1"])])
    _, res = play(record("yakuzas", 6, [r, r2]))
    assert res["players"]["R1"]["wounds"] == 1
    # a throw with no gangster standing is refused
    bad = y6(cards={"P1": "shuriken"}, withdraw=gangsters, shuriken=[throw("P1", ["P2"])])
    assert "no gangster is standing" in illegal(record("yakuzas", 6, [bad]))


def test_no_cling_left_shuriken_discarded():
    gangsters = ["Y1", "R1", "Y2", "R2"]
    clings = [y6() for _ in range(5)]
    keep = y6(cards={"P1": "shuriken", "P2": "tanto", **{g: "bang" for g in gangsters}}, withdraw=gangsters + ["P2"])
    game, _ = play(record("yakuzas", 6, clings + [keep], loot=None))
    assert game.players[0].hand.get("shuriken", 0) == 0


def test_shuriken_discarded_after_throw():
    r = y6(cards={"P1": "shuriken"}, shuriken=[throw("P1")])
    assert illegal(record("yakuzas", 6, [r, r])) == "round 2: P1 has no shuriken card in hand"


def test_thrower_cannot_hit_himself_or_list_twice():
    r = y6(cards={"P1": "shuriken"}, shuriken=[throw("P1", ["P1"])])
    assert "own standee" in illegal(record("yakuzas", 6, [r]))
    r = y6(cards={"P1": "shuriken"}, shuriken=[throw("P1", ["R1"], ["R1"])])
    assert "listed twice" in illegal(record("yakuzas", 6, [r]))


def test_shuriken_only_in_yakuzas():
    r = c5(shuriken=[throw("A", ["B"])])
    assert "no shuriken in classic" in illegal(record("classic", 5, [r]))


# -- phase 6 -------------------------------------------------------------------


def test_phase6_simultaneous_mutual_bangs():
    _, res = play(record("classic", 5, [c5(cards={"A": "bang", "B": "bang"}, aims={"B": "A"})]))
    assert res["players"]["A"]["wounds"] == 1 and res["players"]["B"]["wounds"] == 1
    assert res["rounds"][0]["sharers"] == ["C", "D", "E"]


def test_phase6_several_cards_several_wounds_and_felled_can_be_hit():
    r = c5(cards={"A": "bbb", "C": "bang", "D": "bang"}, aims={"A": "B", "C": "B", "D": "B"})
    _, res = play(record("classic", 5, [r]))
    assert res["players"]["B"]["wounds"] == 3 and not res["players"]["B"]["alive"]


def test_phase6_felled_by_shuriken_can_still_be_hit_by_tanto():
    r = y6(cards={"P1": "shuriken", "P2": "tanto"}, aims={"P2": "R1"}, shuriken=[throw("P1", ["R1"])])
    _, res = play(record("yakuzas", 6, [r]))
    assert res["players"]["R1"]["wounds"] == 2


def test_yakuza_hit_by_bang_still_uses_tanto():
    r = y6(cards={"P2": "tanto", "R1": "bang"}, aims={"P2": "Y2", "R1": "P2"})
    _, res = play(record("yakuzas", 6, [r]))
    assert res["players"]["P2"]["wounds"] == 1 and res["players"]["Y2"]["wounds"] == 1


# -- wounds and death ----------------------------------------------------------


def test_dead_player_may_not_act():
    kill = c5(cards={"A": "bang", "C": "bang"}, aims={"A": "B", "C": "B"})
    r3 = c5(cards={"A": "bbb"}, aims={"A": "B"})
    game, res = play(record("classic", 5, [kill, r3]))
    assert not res["players"]["B"]["alive"] and res["players"]["B"]["wounds"] == 3
    after = rnd(all_cards(C5), {"A": "C", "B": "C", "C": "D", "D": "E", "E": "A"})
    assert illegal(record("classic", 5, [kill, r3, after])) == "round 3: B is dead and may not play a card"
    aim_dead = rnd(all_cards(["A", "C", "D", "E"]), {"A": "B", "C": "D", "D": "E", "E": "A"})
    assert illegal(record("classic", 5, [kill, r3, aim_dead])) == "round 3: A may not aim at B: dead"


def test_wounds_count_past_three():
    r = c5(cards={"A": "bbb", "C": "bang", "D": "bang", "E": "bang"}, aims={"A": "B", "C": "B", "D": "B", "E": "B"})
    _, res = play(record("classic", 5, [c5(cards={"C": "bang"}, aims={"C": "B"}), r]))
    assert res["players"]["B"]["wounds"] == 5


def test_dead_yakuza_money_stays_with_gang():
    # Y1 shares round 1 then dies in round 2; yellow keeps round 1's money.
    r1 = y6(withdraw=["P1", "R1", "P2", "Y2", "R2"])
    kill = y6(cards={"R1": "bbb", "R2": "bang", "P1": "tanto"}, aims={"R1": "Y1", "R2": "Y1", "P1": "Y1"})
    _, res = play(record("yakuzas", 6, [r1, kill]))
    assert not res["players"]["Y1"]["alive"]
    assert res["money"]["yellow"] >= 75000


# -- phase 7: bills ------------------------------------------------------------


def test_rule_book_split_example():
    pile = [20000, 10000, 10000, 5000, 5000]
    _, res = play(record("classic", 5, [c5(withdraw=["D", "E"])], loot=[pile]))
    assert res["rounds"][0] == {"pot": 50000, "sharers": ["A", "B", "C"], "share": 10000, "left": [20000]}
    _, res = play(record("classic", 5, [c5(withdraw=["E"])], loot=[pile]))
    assert res["rounds"][0]["share"] == 0 and res["table"] == [20000, 10000, 10000, 5000, 5000]
    _, res = play(record("classic", 5, [c5(withdraw=["C", "D", "E"])], loot=[pile]))
    assert res["rounds"][0]["share"] == 25000 and res["table"] == []


def test_leftover_stays_for_next_round():
    p1 = [20000, 10000, 10000, 5000, 5000]
    p2 = [20000, 20000, 10000, 10000, 5000]
    _, res = play(record("classic", 5, [c5(withdraw=["D", "E"]), c5(withdraw=["E"])], loot=[p1, p2]))
    assert res["rounds"][1]["pot"] == 85000
    assert res["rounds"][1]["share"] == 20000  # 20 / 20 / 20 / 10+10, 5 stays
    assert res["table"] == [5000]


def test_yakuzas_money_goes_to_gang():
    _, res = play(record("yakuzas", 6, [y6(withdraw=["P1", "R1", "P2", "R2"])]))
    assert res["money"] == {"purple": 0, "yellow": 70000, "red": 0}


def test_wounded_not_sharers_even_if_standing():
    _, res = play(record("classic", 5, [c5(cards={"A": "bang"}, aims={"A": "B"})]))
    assert "B" not in res["rounds"][0]["sharers"]


# -- phase 7: classic-2014 picks -----------------------------------------------

N4 = ["A", "B", "C", "D"]
A4 = {"A": "B", "B": "C", "C": "D", "D": "A"}


def picks(*pairs):
    return [{"player": p, "take": t} for p, t in pairs]


def test_picks_start_with_godfather_and_go_clockwise():
    loot = ["cash-20000", "cash-10000", "cash-5000", "diamond-1000", "diamond-5000", "painting", "painting", "first-aid"]
    order = ["A", "B", "C", "D"] * 2
    r = rnd(all_cards(N4), A4, picks=picks(*zip(order, loot)))
    game, res = play(record("classic-2014", 4, [r], loot=[loot]))
    assert res["money"] == {"A": 20000 + 5000, "B": 10000, "C": 5000, "D": 1000}
    bad = rnd(all_cards(N4), A4, picks=picks(("B", "painting")))
    assert illegal(record("classic-2014", 4, [bad], loot=[loot])) == "round 1: B picked out of turn: it is A's turn"


def test_picks_start_with_first_sharer_after_absent_godfather():
    loot = ["cash-20000", "cash-10000", "cash-5000", "diamond-1000", "diamond-5000", "painting", "painting", "first-aid"]
    order = ["B", "C", "D"] * 3
    r = rnd(all_cards(N4), A4, withdraw=["A"], picks=picks(*zip(order, loot)))
    _, res = play(record("classic-2014", 4, [r], loot=[loot]))
    assert res["rounds"][0]["sharers"] == ["B", "C", "D"]
    assert res["money"] == {"A": 0, "B": 21000, "C": 15000, "D": 5000}
    wrong = rnd(all_cards(N4), A4, withdraw=["A"], picks=picks(("C", "painting")))
    assert illegal(record("classic-2014", 4, [wrong], loot=[loot])) == "round 1: C picked out of turn: it is B's turn"


def test_all_loot_must_be_taken_and_not_more():
    loot = ["cash-20000"] * 8
    short = rnd(all_cards(N4), A4, picks=picks(("A", "cash-20000")))
    assert illegal(record("classic-2014", 4, [short], loot=[loot])) == "round 1: B did not pick: loot is left on the table"
    missing = rnd(all_cards(N4), A4, picks=picks(("A", "painting")))
    assert illegal(record("classic-2014", 4, [missing], loot=[loot])) == (
        "round 1: A may not take a painting: it is not on the table"
    )


def test_godfather_tile_makes_next_godfather():
    loot = ["cash-5000"] * 8
    order = ["A", "B", "C", "D"] * 3
    takes = ["cash-5000", "godfather"] + ["cash-5000"] * 7
    r1 = rnd(all_cards(N4), A4, picks=picks(*zip(order, takes)))
    # Round 2: B is the Godfather, so B picks first, and A may be ordered.
    pile2 = ["cash-5000"] * 4 + ["cash-10000"] * 4
    r2 = rnd(all_cards(N4), A4, privilege={"player": "A", "target": "C"}, picks=picks(*zip(["B", "C", "D", "A"] * 2, pile2)))
    game, _ = play(record("classic-2014", 4, [r1, r2], loot=[loot, pile2]))
    assert game.godfather == 1
    twice = rnd(all_cards(N4), A4, picks=picks(("A", "godfather"), ("B", "godfather")))
    assert "already" in illegal(record("classic-2014", 4, [twice], loot=[loot])) or "taken this round" in illegal(
        record("classic-2014", 4, [twice], loot=[loot])
    )


def test_no_sharers_loot_stays():
    r = rnd(all_cards(N4), A4, withdraw=N4)
    _, res = play(record("classic-2014", 4, [r]))
    assert len(res["table"]) == 8 and res["rounds"][0]["sharers"] == []


def test_first_aid_heals_and_clip_returns_a_bang():
    loot1 = ["cash-5000"] * 8
    loot2 = ["first-aid", "clip"] + ["cash-5000"] * 6
    hit = rnd(all_cards(N4, D="bang"), A4, picks=picks(*zip(["B", "C", "D"] * 3, loot1)))  # D hits A
    r2 = rnd(all_cards(N4), A4, picks=picks(*zip(["A", "B", "C", "D"] * 2, loot2)))
    game, res = play(record("classic-2014", 4, [hit, r2], loot=[loot1, loot2]))
    assert res["players"]["A"]["wounds"] == 0  # healed by the first-aid kit
    assert game.players[1].hand["bang"] == 3  # B used no bang: the clip gives nothing
    r2b = rnd(all_cards(N4), A4, picks=picks(*zip(["A", "B", "C", "D"] * 2, ["clip", "first-aid"] + ["cash-5000"] * 6)))
    game, _ = play(record("classic-2014", 4, [hit, r2b], loot=[loot1, ["first-aid", "clip"] + ["cash-5000"] * 6]))
    assert game.players[3].hand["bang"] == 2 and game.players[0].hand["bang"] == 3
    r2c = rnd(all_cards(N4), A4, picks=picks(*zip(["A", "B", "C", "D"] * 2, ["cash-5000", "cash-5000", "cash-5000", "clip"] + ["cash-5000"] * 4)))
    game, _ = play(record("classic-2014", 4, [hit, r2c], loot=[loot1, ["clip"] + ["cash-5000"] * 7]))
    assert game.players[3].hand["bang"] == 3  # D got his used bang back


def test_picks_only_in_2014():
    assert "picks" in illegal(record("classic", 5, [c5(picks=picks(("A", "cash-5000")))]))


# -- end of game ---------------------------------------------------------------


def quiet_rounds(k, ruleset="classic"):
    if ruleset == "classic":
        return [c5() for _ in range(k)]
    return [y6() for _ in range(k)]


def test_game_ends_after_round_8_and_no_round_after():
    deck = ["clic"] * 5 + ["bang", "bang", "bbb"]
    rounds = [rnd(all_cards(C5, card), {**C5_AIMS, "D": "A", "E": "A"}, withdraw=["A", "B", "C"]) for card in deck]
    loot = deal_loot(random.Random(0), RuleSet.CLASSIC)
    game, res = play(record("classic", 5, rounds, loot=loot))
    assert res["finished"] and res["rounds_played"] == 8
    data = record("classic", 5, rounds + [c5()], loot=loot + [loot[0]])
    assert illegal(data).startswith("loot: at most 8 piles")
    assert res["players"]["D"]["wounds"] == 0 and res["money"]["D"] == res["money"]["E"] > 0
    data = record("classic", 5, rounds + [c5()], loot=loot)
    assert illegal(data) == "round 9: the game ended after round 8"


def test_classic_early_end_last_player_alive():
    # A kills B, C, D, E over three rounds... simpler: everyone but A dies at once with bangs on each other.
    names = ["A", "B", "C", "D"]
    r = rnd(all_cards(names, B="bang", C="bang", D="bang"), {"A": "B", "B": "C", "C": "D", "D": "B"})
    r2 = rnd(all_cards(names, B="bang", C="bang", D="bbb"), {"A": "B", "B": "C", "C": "D", "D": "B"})
    r3 = rnd(all_cards(names, B="bbb", C="bbb", D="bang"), {"A": "B", "B": "C", "C": "D", "D": "C"})
    game, res = play(record("classic", 4, [r, r2, r3], names=names))
    alive = [n for n, p in res["players"].items() if p["alive"]]
    assert res["finished"] == (len(alive) <= 1)
    if res["finished"]:
        assert res["winners"] == alive


def test_yakuzas_early_end_one_gang_left_wins():
    # Kill yellow and red quickly: 3 rounds of bangs between gangsters and tantos.
    kill = y6(cards={"Y1": "bang", "R1": "bang", "Y2": "bang", "R2": "bang", "P1": "tanto", "P2": "tanto"},
              aims={"Y1": "R1", "R1": "Y1", "Y2": "R2", "R2": "Y2", "P1": "Y1", "P2": "Y2"})
    kill3 = y6(cards={"Y1": "bbb", "R1": "bbb", "Y2": "bbb", "R2": "bbb"},
               aims={"Y1": "R1", "R1": "Y1", "Y2": "R2", "R2": "Y2"})
    game, res = play(record("yakuzas", 6, [kill, kill3]))
    # Y1 and Y2 took 2+1 = 3 wounds; R1 and R2 took 1+1 = 2.
    assert not res["players"]["Y1"]["alive"] and not res["players"]["Y2"]["alive"]
    assert not res["finished"]
    last = rnd(all_cards(["P1", "R1", "P2", "R2"], P1="tanto", P2="tanto"),
               {"P1": "R1", "R1": "P1", "P2": "R2", "R2": "P2"})
    game, res = play(record("yakuzas", 6, [kill, kill3, last]))
    assert res["finished"] and res["winners"] == ["purple"] and res["rounds_played"] == 3


def test_yakuzas_nobody_alive_no_winner():
    game = Game("yakuzas", [(n, {"P": "purple", "Y": "yellow", "R": "red"}[n[0]]) for n in Y6], [])
    for p in game.players:
        p.alive = False
    game.rounds_played = 3
    game._check_end()
    assert game.finished and game.winners == []


def test_intermission_after_round_4():
    game, _ = play(record("yakuzas", 6, [y6() for _ in range(4)]))
    assert game.intermission_due
    game, _ = play(record("yakuzas", 6, [y6() for _ in range(3)]))
    assert not game.intermission_due


def _scored(ruleset, names, gangs=None):
    players = [(n, None if gangs is None else gangs[i]) for i, n in enumerate(names)]
    game = Game(ruleset, players, [], free_seating=True)
    return game


def test_yakuzas_score_formula():
    game = _scored("yakuzas", YAKUZA_NAMES[7], ["purple", "yellow", "purple", "red", "purple", "yellow", "red"])
    game.gang_money.update({g: 100000 for g in game.gang_money})
    p = {x.name: x for x in game.players}
    p["Y1"].cowardice = 2  # living: -10,000
    p["R1"].cowardice = 3
    p["R1"].alive = False  # dead: cowardice does not count; -20,000 (gang of 2)
    p["P1"].alive = False  # gang of 3: -30,000
    scores = game.scores()
    assert scores == {"purple": 70000, "yellow": 90000, "red": 80000}


def test_yakuzas_tie_breaks():
    game = _scored("yakuzas", YAKUZA_NAMES[7], ["purple", "yellow", "purple", "red", "purple", "yellow", "red"])
    game.gang_money.update({"purple": 50000, "yellow": 50000, "red": 50000})
    assert game.leaders() == ["yellow", "red"]  # smaller gangs first; then wounds tie: shared
    p = {x.name: x for x in game.players}
    p["R1"].wounds = 1
    assert game.leaders() == ["red"]  # most wounds among living members
    p["R2"].wounds = 2
    p["R2"].alive = False  # a dead member's wounds do not count, and costs 20,000
    assert game.leaders() == ["yellow"]


def test_classic_scores_and_tie_breaks():
    game = _scored("classic", ["A", "B", "C", "D"])
    p = game.players
    for x in p:
        x.money = 50000
    p[0].cowardice = 1
    p[1].money = 45000  # 45,000 and 50,000 - 5,000: equal scores
    p[3].alive = False
    p[2].money = 45000
    p[2].cowardice = 0
    assert game.scores() == {"A": 45000, "B": 45000, "C": 45000, "D": None}
    p[1].wounds = 1
    assert game.leaders() == ["C"]  # fewer cowardice (B, C) then fewer wounds (C)
    p[2].wounds = 1
    assert game.leaders() == ["B", "C"]


def test_2014_scores_paintings_diamonds_bonus():
    game = _scored("classic-2014", ["A", "B", "C", "D"])
    a, b, c, d = game.players
    a.loot = ["painting", "painting", "diamond-1000"]
    a.money = 1000
    b.loot = ["diamond-1000", "diamond-1000"]
    b.money = 2000
    c.loot = ["cash-20000"]
    c.money = 20000
    scores = game.scores()
    assert scores == {"A": 13000, "B": 62000, "C": 20000, "D": 0}
    a.loot.append("diamond-5000")
    a.money += 5000
    assert game.scores()["A"] == 18000 and game.scores()["B"] == 2000  # tie on 2 diamond cards: no bonus
    c.money = 18000
    c.wounds = 1
    assert game.leaders() == ["C"]  # 18,000 each, C has more wounds
    d.alive = False
    assert game.scores()["D"] is None


# -- cards face down: a real table shows them as the phases come -----------------


def _face_down_round(game, rr, reveal_at):
    """Play a recorded round with every card face down, each shown at the moment ``reveal_at`` says."""
    from controller.rules import Card

    seat = game.seat_of
    cards = {seat(n): Card(c) for n, c in rr["cards"].items()}
    rnd = game.begin_round()
    rnd.play_cards({s: None for s in cards})
    rnd.aim({seat(n): (None if t is None else seat(t)) for n, t in rr["aims"].items()}, late=[seat(n) for n in rr.get("late", [])])
    rnd.withdraw(seat(n) for n in rr.get("withdraw", []))
    rnd.reveal_cards({s: c for s, c in cards.items() if c is Card.BBB and s in rnd.in_share()})
    rnd.bang_bang_bang()
    if game.is_yakuzas:
        for t in rr.get("shuriken", []):
            rnd.throw(seat(t["thrower"]), [seat(n) for n in t["knocked"]], [seat(n) for n in t["touched"]])
        rnd.reveal_cards({s: c for s, c in cards.items() if c is Card.SHURIKEN and s in rnd.pending_throwers() + rnd.in_share()})
        rnd.end_throws()
    live = {w.owner for w in rnd.weapons if w.live and w.owner not in rnd.out}
    rnd.reveal_cards({s: cards[s] for s in live})
    rnd.reveal()
    rnd.reveal_cards(cards)  # the discarded cards, shown at the end
    rnd.share_bills()
    rnd.finish()
    return rnd


@pytest.mark.parametrize("ruleset,seed", [("classic", 1), ("classic", 2), ("yakuzas", 3), ("yakuzas", 4), ("yakuzas", 5)])
def test_face_down_cards_give_the_same_game(ruleset, seed):
    from controller.record import new_game, replay, result
    from controller.record.generator import random_record

    record = random_record(seed, ruleset)
    game = new_game(record)
    for rr in record.rounds:
        _face_down_round(game, rr.to_dict(ruleset), "as the phases come")
    assert result(game) == result(replay(record))


def test_a_card_must_be_shown_before_phase_6_and_at_the_end():
    game = Game("classic", [(n, None) for n in C5], [[20000, 10000, 10000, 5000, 5000]])
    rnd = game.begin_round()
    rnd.play_cards({s: None for s in range(5)})
    rnd.aim({0: 1, 1: 2, 2: 3, 3: 4, 4: 0})
    rnd.withdraw([4])
    rnd.bang_bang_bang()
    with pytest.raises(IllegalMove, match="round 1: A has not shown the card played"):
        rnd.reveal()
    rnd.reveal_cards({0: "bang", 1: "clic", 2: "clic"})
    with pytest.raises(IllegalMove, match="round 1: A showed Bang! already, not Clic Clic Clic"):
        rnd.reveal_cards({0: "clic"})
    rnd.reveal()  # D's card was discarded: his target withdrew; E withdrew
    rnd.share_bills()
    with pytest.raises(IllegalMove, match="round 1: D has not shown the card played"):
        rnd.finish()
    rnd.reveal_cards({3: "bbb", 4: "clic"})
    rnd.finish()
    assert game.players[1].wounds == 1 and game.players[3].hand["bbb"] == 0
