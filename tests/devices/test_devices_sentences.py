"""What the speaker says, sentence by sentence, in each language: a table of situations and the
sentence a reader of that language expects to hear (gender, plural and word order right)."""

from itertools import pairwise

import pytest

from controller.devices.vocabulary import (
    LANGUAGES,
    MAX_NUMBER,
    MAX_SEAT,
    PAUSE,
    Phrases,
    clip_texts,
    sentence,
)

SITUATIONS = {
    "count 1": Phrases.count(1),
    "count 2": Phrases.count(2),
    "seat 3 has 1 wound": Phrases.wounded(3, 1),
    "seat 3 has 2 wounds": Phrases.wounded(3, 2),
    "seat 0 has 3 wounds": Phrases.wounded(0, 3),
    "seat 5 died": Phrases.dead(5),
    "seats 0, 2 and 4 share": Phrases.split([0, 2, 4]),
    "seat 1 shares alone": Phrases.split([1]),
    "seat 8 wins": Phrases.winners(seats=[8]),
    "seats 1 and 6 win": Phrases.winners(seats=[1, 6]),
    "the purple gang wins": Phrases.winners(gangs=["purple"]),
    "the purple and red gangs win": Phrases.winners(gangs=["purple", "red"]),
    "seat 1 lay down too late": Phrases.too_late(1),
    "seat 4 must stand up": Phrases.stand_up(4),
    "seats 3 and 5 aim again": Phrases.aim_again([3, 5]),
    "seat 0 aims again": Phrases.aim_again([0]),
    "seat 7 must lie down": Phrases.lie_down(7),
    "seat 4 has 3 wounds, seat 2 died": Phrases.together(Phrases.wounded(4, 3), Phrases.dead(2)),
    "banzai": Phrases.banzai(),
    "you lost": Phrases.you_lost(),
}

EXPECTED = {
    "en": {
        "count 1": "One.",
        "count 2": "Two.",
        "seat 3 has 1 wound": "Seat three: one wound.",
        "seat 3 has 2 wounds": "Seat three: two wounds.",
        "seat 0 has 3 wounds": "Seat zero: three wounds.",
        "seat 5 died": "Seat five: dead.",
        "seats 0, 2 and 4 share": "Share the loot: seat zero, seat two and seat four.",
        "seat 1 shares alone": "Share the loot: seat one.",
        "seat 8 wins": "The winner is seat eight.",
        "seats 1 and 6 win": "The winners are seat one and seat six.",
        "the purple gang wins": "The winner is the purple gang.",
        "the purple and red gangs win": "The winners are the purple gang and the red gang.",
        "seat 1 lay down too late": "Seat one: too late, stand your character up.",
        "seat 4 must stand up": "Seat four: stand your character up.",
        "seats 3 and 5 aim again": "Aim again: seat three and seat five.",
        "seat 0 aims again": "Aim again: seat zero.",
        "seat 7 must lie down": "Seat seven: lay your character down.",
        "seat 4 has 3 wounds, seat 2 died": "Seat four: three wounds. Seat two: dead.",
        "banzai": "Banzai!",
        "you lost": "You lost!",
    },
    "pt": {
        "count 1": "Um.",
        "count 2": "Dois.",
        "seat 3 has 1 wound": "Lugar três: um ferimento.",
        "seat 3 has 2 wounds": "Lugar três: dois ferimentos.",
        "seat 0 has 3 wounds": "Lugar zero: três ferimentos.",
        "seat 5 died": "Lugar cinco: morreu.",
        "seats 0, 2 and 4 share": "Dividam o saque: lugar zero, lugar dois e lugar quatro.",
        "seat 1 shares alone": "Dividam o saque: lugar um.",
        "seat 8 wins": "Vence: lugar oito.",
        "seats 1 and 6 win": "Vencem: lugar um e lugar seis.",
        "the purple gang wins": "Vence: a gangue roxa.",
        "the purple and red gangs win": "Vencem: a gangue roxa e a gangue vermelha.",
        "seat 1 lay down too late": "Lugar um: tarde demais, levante seu personagem.",
        "seat 4 must stand up": "Lugar quatro: levante seu personagem.",
        "seats 3 and 5 aim again": "Mirem de novo: lugar três e lugar cinco.",
        "seat 0 aims again": "Mirem de novo: lugar zero.",
        "seat 7 must lie down": "Lugar sete: deite seu personagem.",
        "seat 4 has 3 wounds, seat 2 died": "Lugar quatro: três ferimentos. Lugar dois: morreu.",
        "banzai": "Banzai!",
        "you lost": "Perdeu!",
    },
    "fr": {
        "count 1": "Un.",
        "count 2": "Deux.",
        "seat 3 has 1 wound": "Place trois : une blessure.",
        "seat 3 has 2 wounds": "Place trois : deux blessures.",
        "seat 0 has 3 wounds": "Place zéro : trois blessures.",
        "seat 5 died": "Place cinq : hors jeu.",
        "seats 0, 2 and 4 share": "Partage du butin : place zéro, place deux et place quatre.",
        "seat 1 shares alone": "Partage du butin : place un.",
        "seat 8 wins": "Victoire : place huit.",
        "seats 1 and 6 win": "Victoire : place un et place six.",
        "the purple gang wins": "Victoire : le gang violet.",
        "the purple and red gangs win": "Victoire : le gang violet et le gang rouge.",
        "seat 1 lay down too late": "Place un : trop tard, relevez votre personnage.",
        "seat 4 must stand up": "Place quatre : relevez votre personnage.",
        "seats 3 and 5 aim again": "Visez à nouveau : place trois et place cinq.",
        "seat 0 aims again": "Visez à nouveau : place zéro.",
        "seat 7 must lie down": "Place sept : couchez votre personnage.",
        "seat 4 has 3 wounds, seat 2 died": "Place quatre : trois blessures. Place deux : hors jeu.",
        "banzai": "Banzai !",
        "you lost": "Perdu !",
    },
    "hu": {
        "count 1": "Egy.",
        "count 2": "Kettő.",
        "seat 3 has 1 wound": "Hármas szék: egy seb.",
        "seat 3 has 2 wounds": "Hármas szék: két seb.",
        "seat 0 has 3 wounds": "Nullás szék: három seb.",
        "seat 5 died": "Ötös szék: meghalt.",
        "seats 0, 2 and 4 share": "Osztozkodás: nullás szék, kettes szék és négyes szék.",
        "seat 1 shares alone": "Osztozkodás: egyes szék.",
        "seat 8 wins": "A győztes: nyolcas szék.",
        "seats 1 and 6 win": "A győztesek: egyes szék és hatos szék.",
        "the purple gang wins": "A győztes: a lila banda.",
        "the purple and red gangs win": "A győztesek: a lila banda és a piros banda.",
        "seat 1 lay down too late": "Egyes szék: túl késő, állítsd fel a figurádat.",
        "seat 4 must stand up": "Négyes szék: állítsd fel a figurádat.",
        "seats 3 and 5 aim again": "Célozzatok újra: hármas szék és ötös szék.",
        "seat 0 aims again": "Célozzatok újra: nullás szék.",
        "seat 7 must lie down": "Hetes szék: fektesd le a figurádat.",
        "seat 4 has 3 wounds, seat 2 died": "Négyes szék: három seb. Kettes szék: meghalt.",
        "banzai": "Banzai!",
        "you lost": "Vesztettél!",
    },
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_situation_is_said_as_a_reader_of_the_language_writes_it(language):
    assert set(EXPECTED[language]) == set(SITUATIONS)
    said = {situation: sentence(clips, language) for situation, clips in SITUATIONS.items()}
    assert said == EXPECTED[language]


def test_wounds_agree_in_number_and_gender():
    for n in range(1, MAX_NUMBER + 1):
        en, pt, fr, hu = (clip_texts(lang)[f"wounds.{n}"] for lang in ("en", "pt", "fr", "hu"))
        if n == 1:
            assert (en, pt, fr, hu) == ("one wound", "um ferimento", "une blessure", "egy seb")
        else:
            assert en.endswith(" wounds") and pt.endswith(" ferimentos") and fr.endswith(" blessures")
            assert hu.endswith(" seb") and not hu.startswith("kettő")  # no plural after a numeral; "két seb"
        assert " un " not in f" {fr} "  # "blessure" is feminine


def test_every_seat_is_said_with_its_own_number():
    for language in LANGUAGES:
        texts = clip_texts(language)
        names = [texts[f"seat.{n}"] for n in range(MAX_SEAT + 1)]
        assert len(set(names)) == len(names)
    en = clip_texts("en")
    assert [en[f"seat.{n}"] for n in (0, 1, 8)] == ["seat zero", "seat one", "seat eight"]


def test_no_sentence_says_a_word_twice_in_a_row_or_a_pronoun():
    for language in LANGUAGES:
        for clips in SITUATIONS.values():
            words = sentence(clips, language).lower().replace(",", "").replace(".", "").replace(":", "").split()
            assert all(a != b for a, b in pairwise(words)), (language, words)
    english = " ".join(sentence(clips, "en") for clips in SITUATIONS.values()).lower()
    for pronoun in ("his", "her", "he", "she", "him"):
        assert f" {pronoun} " not in f" {english} "


def test_several_announcements_are_one_sequence_with_a_pause_between():
    clips = Phrases.together(Phrases.wounded(1, 1), Phrases.split([2, 3]))
    assert clips.count(PAUSE) == 1
    assert sentence(clips, "en") == "Seat one: one wound. Share the loot: seat two and seat three."
