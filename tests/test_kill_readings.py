"""Night and day kills as moderators word them: the day a kill happened in, the dawn that tells the
night's kills wherever in its post they stand, a game told over that goes on, and names written
loosely in a kill's line."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from assistant.reading.announcements import read_thread_facts
from assistant.reading.announcements.accounts import Names
from parsers.page import Post

START = datetime(2026, 3, 2, 15, 0, tzinfo=UTC)
PLAYERS = ("Alder", "Birch", "Cedar", "Damson", "Elm", "Fir", "Gorse")


def read_game(*posts: tuple[str, str], players: tuple[str, ...] = PLAYERS):
    """The facts of a thread whose opening post lists ``players``, each of whom says hello, then
    ``posts``; "Alder" in a post stands for a player's chatter."""
    roster = "<br>".join(players)
    thread = [("Host", f"Players<br>{roster}"), *((p, f"hello from {p}") for p in players), *posts]
    return read_thread_facts(
        [
            Post(str(1000 + n), n, author, START + timedelta(hours=n), body, f"https://f/p{n}")
            for n, (author, body) in enumerate(thread)
        ]
    )


def deaths(facts) -> list[tuple[str, str, str]]:
    return [(d.player, d.phase, str(d.cause)) for d in facts.deaths]


def test_a_kill_with_the_day_it_happened_in_is_a_day_kill_and_the_day_goes_on():
    facts = read_game(
        ("Host", "Day 1 begins. With 7 alive it's 4 to lynch."),
        ("Birch", "VOTE: Cedar"),
        ("Host", "A shot rings out in the square.<br>Alder (Town Mason) killed day 1"),
        ("Cedar", "VOTE: Birch"),
        ("Host", "Birch (Mafia Goon) lynched day 1<br>Night 1 begins."),
    )
    assert [(d.player, d.phase, str(d.cause), d.post) for d in facts.deaths] == [
        ("Alder", "day 1", "day kill", 10)
    ]
    assert [(e.day, e.player) for e in facts.eliminations] == [(1, "Birch")]


def test_a_day_named_in_the_night_before_it_is_no_days_death():
    facts = read_game(
        ("Host", "Day 1 begins."),
        ("Host", "Alder, Vanilla Townie, was lynched.<br>Night 1 begins."),
        (
            "Host",
            "The night was long. Birch was all set to speak up on D2 and was shot before he could. "
            "Birch was a Vanilla Townie.",
        ),
        ("Host", "Day 2 has begun."),
    )
    assert [(e.day, e.player) for e in facts.eliminations] == [(1, "Alder")]
    assert deaths(facts) == [("Birch", "night 1", "night kill")]


def test_the_post_that_opens_a_day_tells_the_nights_kills_before_the_words_that_open_it():
    # the reader took the day for still open: the flavour's body comes before "Day 3 has begun"
    facts = read_game(
        ("Host", "Day 2 begins."),
        ("Birch", "VOTE: Cedar"),
        (
            "Host",
            "The maid screams: Alder was found dead in the cellar!<br>Birch, a cop, is dead.<br>"
            "Day 3 has begun! Deadline in a week.",
        ),
    )
    assert deaths(facts) == [
        ("Alder", "night 2", "night kill"),
        ("Birch", "night 2", "night kill"),
    ]


def test_a_kill_in_the_sentence_that_opens_the_day_is_the_nights():
    facts = read_game(
        ("Host", "Day 1 begins."),
        ("Host", "Alder, Vanilla Townie, was lynched.<br>Night 1 begins."),
        ("Host", "Day 2 has begun, and Birch, an innocent townie, was killed.<br>Deadline Friday."),
    )
    assert deaths(facts) == [("Birch", "night 1", "night kill")]
    assert [s.day for s in facts.day_starts] == [1, 2]


def test_a_game_told_over_that_opens_a_new_day_goes_on():
    facts = read_game(
        ("Host", "Day 1 begins."),
        ("Host", "Alder was lynched. GAME OVER MAN. GAME OVER.<br>Night 1 begins."),
        ("Host", "Day 2 has begun. Nobody died."),
        ("Host", "Birch has been lynched D2, he was a mafia goon!<br>Night 2 has begun."),
        ("Host", "Cedar has died Night 2, he was a Vanilla Townie!<br>Day 3 has begun!"),
    )
    assert [(e.day, e.player) for e in facts.eliminations] == [(1, "Alder"), (2, "Birch")]
    assert deaths(facts) == [("Cedar", "night 2", "night kill")]


def test_the_game_won_in_the_post_that_opens_the_day_keeps_the_nights_kills():
    facts = read_game(
        ("Host", "Day 1 begins."),
        ("Host", "Alder, Vanilla Townie, was lynched.<br>Night 1 begins."),
        (
            "Host",
            "Day 2<br>Birch has been killed. He was a Vanilla Townie.<br>Game Over<br>"
            "Cedar, Mafia Goon, wins!",
        ),
    )
    assert deaths(facts) == [("Birch", "night 1", "night kill")]


def test_a_kill_line_naming_its_role_in_brackets_reads_the_name_as_the_moderator_spells_it():
    facts = read_game(
        ("Host", "Day 1 begins."),
        ("Host", "Alder, Vanilla Townie, was lynched.<br>Night 1 begins."),
        ("Host", "Mapelgrove (Doctor) - killed during Night 1<br>Day 2 starts now."),
        players=("Alder", "Maplegrove", "Cedar", "Damson", "Elm"),
    )
    assert deaths(facts) == [("Maplegrove", "night 1", "night kill")]


def test_players_killed_together_in_slang():
    facts = read_game(
        ("Host", "Day 1 begins."),
        ("Host", "Alder, Vanilla Townie, was lynched.<br>Night 1 begins."),
        ("Host", "Birch, the Town Doctor and Cedar, the VT were offed N1. It is now D2."),
    )
    assert deaths(facts) == [
        ("Birch", "night 1", "night kill"),
        ("Cedar", "night 1", "night kill"),
    ]


def test_an_account_written_without_the_marks_around_it():
    names = Names({"-Grey-": ["-Grey-"], "_Alder_": ["_Alder_"], "Birch": ["Birch"]})
    assert [seat for _, _, seat in names.find("Grey has been found dead! Alder too.")] == [
        "-Grey-",
        "_Alder_",
    ]
    assert names.seat("Grey") == "-Grey-"
    # a bare name another account already is, or that two seats share, is no alias
    assert Names({"-Birch-": ["-Birch-"], "Birch": ["Birch"]}).seat("Birch") == "Birch"
    assert Names({"-Oak-": ["-Oak-"], "~Oak~": ["~Oak~"]}).find("Oak") == []
