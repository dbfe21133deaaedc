"""Resolving typed names to seats: each step, living seats first, dead seats and moderators reported
as such."""

from __future__ import annotations

import pytest
from support import game_toml

from assistant.gamefile.game import parse_game
from assistant.reading.names import Resolution, Roster, fold_name, resolve_name

SEATS = (
    "Shattered Viewpoint",
    "Green Crayons",
    {"name": "Prox", "replacements": ["Thor665"]},
    "evilpacman18",
    "Me=Weird",
    {"name": "Zoë", "aliases": ["zozo"]},
    "Guderian",
    "ScottBrothers",
    "Hiraki",
    "Hiroko",
    "Necessary Evil",
    "Zdenek",
)
GAME = game_toml(SEATS, title="Names", moderators=["neil1113"])
NO_ELIMINATION = ("no lynch", "no elimination", "sleep", "abstain")


@pytest.fixture(scope="module")
def game():
    return parse_game(GAME)


@pytest.fixture(scope="module")
def roster(game):
    return Roster.from_game(game, NO_ELIMINATION)


def everyone_but(game, *dead):
    return frozenset(s.name for s in game.players) - set(dead)


def resolve(roster, game, text, *dead):
    return resolve_name(text, roster, alive=everyone_but(game, *dead))


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        (
            "Green Crayons",
            Resolution("Green Crayons", "Green Crayons", "exact", matched="Green Crayons"),
        ),
        (
            "green crayons",
            Resolution("green crayons", "Green Crayons", "exact", matched="Green Crayons"),
        ),
        (
            "GreenCrayons",
            Resolution("GreenCrayons", "Green Crayons", "folded", matched="Green Crayons"),
        ),
        ("me weird", Resolution("me weird", "Me=Weird", "folded", matched="Me=Weird")),
        ("Zoe", Resolution("Zoe", "Zoë", "folded", matched="Zoë")),
        (
            "Z\u043e\u00eb",
            Resolution("Z\u043e\u00eb", "Zoë", "folded", matched="Zoë"),
        ),  # Cyrillic o
        ("ZOZO", Resolution("ZOZO", "Zoë", "exact", matched="zozo")),
        ("thor 665", Resolution("thor 665", "Prox", "account", matched="Thor665")),
        ("Thor", Resolution("Thor", "Prox", "word", matched="Thor665")),
        ("Crayons", Resolution("Crayons", "Green Crayons", "word", matched="Green Crayons")),
        ("SV", Resolution("SV", "Shattered Viewpoint", "acronym", matched="Shattered Viewpoint")),
        ("ScottBro", Resolution("ScottBro", "ScottBrothers", "acronym", matched="ScottBrothers")),
        ("Guder", Resolution("Guder", "Guderian", "prefix", matched="Guderian")),
        ("ScoBro", Resolution("ScoBro", "ScottBrothers", "acronym", matched="ScottBrothers")),
        ("SB", Resolution("SB", "ScottBrothers", "acronym", matched="ScottBrothers")),
        ("EPM", Resolution("EPM", "evilpacman18", "abbreviation", matched="evilpacman18")),
        ("Guderain", Resolution("Guderain", "Guderian", "fuzzy", matched="Guderian")),
        ("Me=Wierd", Resolution("Me=Wierd", "Me=Weird", "fuzzy", matched="Me=Weird")),
        ("Zed", Resolution("Zed", "Zdenek", "fuzzy", matched="Zdenek")),
        ("@Guderian's", Resolution("@Guderian's", "Guderian", "exact", matched="Guderian")),
        ("Me=Weird (L-1)", Resolution("Me=Weird (L-1)", "Me=Weird", "exact", matched="Me=Weird")),
    ],
)
def test_each_step_resolves_a_living_seat(roster, game, typed, expected):
    assert resolve(roster, game, typed) == expected


def test_trailing_words_are_dropped_before_guessing(roster, game):
    assert resolve(roster, game, "Thor because he lied") == Resolution(
        "Thor because he lied", "Prox", "word", matched="Thor665", used="Thor"
    )
    assert resolve(roster, game, "NE <<<<<<L-1") == Resolution(
        "NE <<<<<<L-1", "Necessary Evil", "acronym", matched="Necessary Evil", used="NE"
    )


@pytest.mark.parametrize(
    "typed", ["no lynch", "No Lynch", "nolynch", "NO-LYNCH", "sleep", "Abstain", "NL"]
)
def test_no_elimination_words(roster, game, typed):
    found = resolve(roster, game, typed)
    assert (found.seat, found.no_elimination, found.reason) == (None, True, None)


def test_no_elimination_words_come_from_the_ruleset(game):
    from assistant.gamefile.rules import load_ruleset

    roster = Roster.from_game(game, load_ruleset("mafiascum"))
    assert resolve_name("No Lynch", roster, alive=everyone_but(game)).no_elimination
    assert not resolve_name("No one", roster, alive=everyone_but(game)).no_elimination


def test_no_elimination_is_not_guessed_from_a_prefix(roster, game):
    assert resolve(roster, game, "No one").no_elimination is False


def test_a_dead_seat_is_reported_not_bent_onto_a_living_one(roster, game):
    assert resolve(roster, game, "Hiraki", "Hiraki") == Resolution(
        "Hiraki", None, "exact", reason="target is dead", matched="Hiraki", candidates=("Hiraki",)
    )
    # a typo closest to the dead seat stays with the dead seat
    assert resolve(roster, game, "Hirqki", "Hiraki") == Resolution(
        "Hirqki", None, "fuzzy", reason="target is dead", matched="Hiraki", candidates=("Hiraki",)
    )


def test_living_seats_come_first_for_partial_names(roster, game):
    # "Hir" starts both Hiraki and Hiroko: with Hiraki dead it can only mean Hiroko
    assert resolve(roster, game, "Hir", "Hiraki").seat == "Hiroko"
    assert resolve(roster, game, "Hir") == Resolution(
        "Hir", None, "prefix", reason="ambiguous: Hiraki or Hiroko", candidates=("Hiraki", "Hiroko")
    )


def test_a_moderator_is_not_a_player(roster, game):
    assert resolve(roster, game, "neil1113") == Resolution(
        "neil1113",
        None,
        "exact",
        reason="not a player",
        matched="neil1113",
        candidates=("neil1113",),
    )
    assert resolve(roster, game, "neil").reason == "not a player"


@pytest.mark.parametrize("typed", ["deadline extension", "Bobby Tables", "qqq", "x"])
def test_unknown_names_are_unresolved(roster, game, typed):
    found = resolve(roster, game, typed)
    assert (found.seat, found.no_elimination, found.reason) == (None, False, "unknown name")


def test_nothing_typed(roster, game):
    assert resolve(roster, game, " :. ") == Resolution(" :. ", None, None, reason="no name given")


def test_close_typos_of_two_names_are_ambiguous(game):
    other = parse_game(GAME.replace('name = "Hiroko"', 'name = "Hirake"'))
    roster = Roster.from_game(other, NO_ELIMINATION)
    found = resolve_name("Hiraka", roster, alive=everyone_but(other))
    assert (found.seat, found.reason) == (None, "ambiguous: Hirake or Hiraki")


def test_answers_are_cached_per_roster(roster, game):
    alive = everyone_but(game)
    assert resolve_name("Guderain", roster, alive=alive) is resolve_name(
        "Guderain", roster, alive=set(alive)
    )


@pytest.mark.parametrize(
    ("name", "folded"),
    [
        ("Me=Weird", "meweird"),
        ("Zoë", "zoe"),
        ("T S O", "tso"),
        ("Ｆｕｌｌ", "full"),
        ("_over9000", "over9000"),
    ],
)
def test_fold_name(name, folded):
    assert fold_name(name) == folded


@pytest.mark.parametrize("typed", ["me", "him", "her", "all", "the scum", "this guy", "no"])
def test_pronouns_and_function_words_are_not_guessed_at(roster, game, typed):
    found = resolve(roster, game, typed)
    assert (found.seat, found.no_elimination) == (None, False)


def test_a_seat_literally_called_a_common_word_still_resolves():
    named = parse_game(GAME.replace('name = "Hiroko"', 'name = "Me"'))
    roster = Roster.from_game(named, NO_ELIMINATION)
    assert resolve_name("ME", roster, alive=everyone_but(named)).seat == "Me"


def test_names_spelt_as_they_sound(game):
    named = parse_game(GAME.replace('name = "Hiroko"', 'name = "StefanB"'))
    roster = Roster.from_game(named, NO_ELIMINATION)
    found = resolve_name("Stephan", roster, alive=everyone_but(named))
    assert (found.seat, found.step) == ("StefanB", "fuzzy")


def test_game_words_name_a_seat_by_a_whole_word_or_a_unique_start_but_are_not_guessed_at(game):
    text = (
        GAME.replace('name = "Hiroko"', 'name = "Killthestory"')
        .replace('name = "Hiraki"', 'name = "WhyMafia"')
        .replace('name = "Zdenek"', 'name = "Matias"')
        .replace('name = "Guderian"', 'name = "Very_Town"')
    )
    named = parse_game(text)
    roster = Roster.from_game(named, NO_ELIMINATION)
    alive = everyone_but(named)
    assert resolve_name("kill", roster, alive=alive).seat == "Killthestory"  # the start of one name
    assert resolve_name("town", roster, alive=alive).seat == "Very_Town"  # a whole word of one name
    assert resolve_name("mafia", roster, alive=alive).seat == "WhyMafia"
    assert resolve_name("scum", roster, alive=alive).seat is None  # nor by likeness


def test_one_letter_names_a_seat_only_when_no_other_name_starts_with_it(roster, game):
    assert resolve(roster, game, "V").seat is None  # no name starts with V
    assert resolve(roster, game, "E").seat == "evilpacman18"
    assert resolve(roster, game, "G").seat is None  # Green Crayons, Guderian
    assert resolve(roster, game, "E", "evilpacman18").reason == "target is dead"


SHORTENED = """
title = "Shortened names"
thread = "https://forum.example.org/viewtopic.php?t=2"
ruleset = "mafiascum"
moderators = ["Hostess"]

[[players]]
name = "Silent Pike"

[[players]]
name = "spindleworth"

[[players]]
name = "ThePaleOwl-N-Moon"

[[players]]
name = "Bowlingball"

[[players]]
name = "Silverfox"

[[players]]
name = "Cerberus48"

[[players]]
name = "-Q-"

[[players]]
name = "badger"
replacements = ["Quill"]

[[players]]
name = "Harrow"

[[players]]
name = "Hattie"

[[players]]
name = "Gromit7"

[[players]]
name = "Wenceslas"

[[players]]
name = "Tfrost22"

[[players]]
name = "M00nbeam"

[[players]]
name = "Copper Kettle"

[[players]]
name = "Lalalander"
"""


@pytest.fixture(scope="module")
def shortened():
    game = parse_game(SHORTENED)
    return game, Roster.from_game(game, NO_ELIMINATION)


def read(shortened, typed, *dead):
    game, roster = shortened
    return resolve_name(typed, roster, alive=everyone_but(game, *dead))


@pytest.mark.parametrize(
    ("typed", "seat", "step"),
    [
        ("SP", "Silent Pike", "acronym"),  # initials rank above the start of "spindleworth"
        ("spin", "spindleworth", "prefix"),
        (
            "owl",
            "ThePaleOwl-N-Moon",
            "word",
        ),  # a whole word part ranks above letters inside "Bowlingball"
        ("PONM", "ThePaleOwl-N-Moon", "acronym"),  # the leading "The" may be skipped
        ("TPO", "ThePaleOwl-N-Moon", "acronym"),
        ("Sliverfox", "Silverfox", "fuzzy"),  # two letters swapped
        ("Cerebus", "Cerberus48", "fuzzy"),  # a typo in one word part of the name
        ("[Q]", "-Q-", "folded"),  # punctuation folded
        ("Q", "-Q-", "folded"),
        ("Cerberus's slot", "Cerberus48", "word"),
        ("timorG", "Gromit7", "fuzzy"),  # spelt backwards
        ("Wensecals", "Wenceslas", "fuzzy"),  # letters shuffled inside the name, the first kept
        ("Frosty", "Tfrost22", "fuzzy"),  # a pet form of a part of the name
        ("Pikey", "Silent Pike", "fuzzy"),
        (
            "lingbball",
            "Bowlingball",
            "fuzzy",
        ),  # the end of the name, which people shorten to, a letter more
        ("Moonbe", "M00nbeam", "fuzzy"),  # digits read as the letters they stand for
        ("KettleCopper", "Copper Kettle", "fuzzy"),  # the name's word parts in another order
        ("Lalalalalalander", "Lalalander", "fuzzy"),  # a syllable said over and over
    ],
)
def test_names_are_read_the_way_people_shorten_and_misspell_them(shortened, typed, seat, step):
    found = read(shortened, typed)
    assert (found.seat, found.step) == (seat, step)


def test_a_bare_two_letter_prefix_needs_to_be_the_only_name_starting_so(shortened):
    assert read(shortened, "Ha").seat is None  # Harrow and Hattie
    assert (
        read(shortened, "Ha", "Hattie").seat is None
    )  # Hattie is dead, but "Ha" still starts her name
    assert read(shortened, "Gr").seat == "Gromit7"


def test_old_and_new_account_of_one_seat_joined_by_a_slash_name_that_seat(shortened):
    found = read(shortened, "badger/Quill")
    assert found.seat == "badger"
    assert read(shortened, "Quill / badger slot").seat == "badger"


@pytest.mark.parametrize("typed", ["Harrow / Silverfox", "Harrow or Silverfox", "badger\\Harrow"])
def test_two_seats_in_one_vote_are_no_vote(shortened, typed):
    found = read(shortened, typed)
    assert found.seat is None
    assert found.reason.startswith("several targets: ")
    assert len(found.candidates) == 2


def test_a_typo_is_not_stretched_onto_a_short_name(shortened):
    assert read(shortened, "Hxrrxw").seat is None


def test_a_word_that_only_looks_like_a_part_of_a_name_names_no_one(shortened):
    assert (
        read(shortened, "Kettleball").seat is None
    )  # "Bowlingball"'s end with a letter changed is a word
    assert (
        read(shortened, "Lingy").seat is None
    )  # a pet form is made from most of a name, not a piece of it


def test_a_teasing_cut_off_name_is_no_vote(shortened):
    assert read(shortened, "Ha\u2026").reason == "cut-off name"  # "VOTE: Ha--"
    assert (
        read(shortened, "Gr\u2026").reason == "cut-off name"
    )  # two letters are a tease, even if unique
    assert read(shortened, "Harrow\u2026").seat == "Harrow"  # a whole name that trails off
    assert (
        read(shortened, "Wences\u2026").seat == "Wenceslas"
    )  # "Vote Wences......": enough of the name


def test_words_around_the_name(shortened):
    assert read(shortened, "to Hammer: Harrow").seat == "Harrow"  # "Vote to Hammer: Harrow"
    assert read(shortened, "Harrow because of post 12").seat == "Harrow"


def test_pass_is_a_no_elimination_vote_where_the_ruleset_has_one(shortened):
    from assistant.gamefile.rules import load_ruleset

    game, _ = shortened
    roster = Roster.from_game(game, load_ruleset("mafiascum"))
    assert resolve_name("pass", roster, alive=everyone_but(game)).no_elimination


def test_a_learned_spelling_names_its_seat_from_the_post_that_taught_it(shortened):
    game, _ = shortened
    roster = Roster.from_game(game, NO_ELIMINATION)
    roster.learn("Vulpes", "Silverfox", 40)
    alive = everyone_but(game)
    assert resolve_name("Vulpes", roster, alive=alive, at_post=39).seat is None  # not yet taught
    assert resolve_name("vulpes!", roster, alive=alive, at_post=40) == Resolution(
        "vulpes!", "Silverfox", "learned", matched="vulpes!"
    )
    assert (
        resolve_name("Harrow", roster, alive=alive, at_post=41).seat == "Harrow"
    )  # a whole name is never relearned
    roster.learn("Harrow", "Silverfox", 41)
    assert resolve_name("Harrow", roster, alive=alive, at_post=42).seat == "Harrow"
