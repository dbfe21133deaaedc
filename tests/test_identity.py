"""Who wrote a post: only a seat's own account counts for it; look-alikes and strangers are
reported, never counted."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import game_toml, read_post

from assistant.gamefile.game import GameFileError, parse_game
from assistant.reading.identity import AuthorIndex, skeleton

SEATS = ("Alice", {"name": "Carol", "replacements": ["Carol Two"]}, "Bob", "Zoë")
GAME = game_toml(SEATS, title="Identity", moderators=["Cobalt"])


@pytest.fixture(scope="module")
def game():
    return parse_game(GAME)


@pytest.fixture(scope="module")
def index(game):
    return AuthorIndex(game)


def test_every_account_of_a_seat_counts_for_it(index):
    assert index.match("Alice") == ("Alice", "account")
    assert index.match("Carol Two") == ("Carol", "account")
    assert index.match(" Bob ") == ("Bob", "account")  # the spaces a page puts around a name


@pytest.mark.parametrize(
    ("author", "seat"),
    [("alice", "Alice"), ("ALICE", "Alice"), ("carol two", "Carol"), ("ZOË", "Zoë")],
)
def test_a_name_differing_only_in_letter_case_is_the_same_account(index, author, seat):
    # the forum engines refuse a second account that differs only in case: it is the listed one
    assert index.match(author) == (seat, "account")
    assert index.lookalike(author) is None


def test_a_name_in_another_unicode_encoding_is_the_same_account(index):
    assert index.match("Zoe\u0308") == (
        "Zoë",
        "account",
    )  # decomposed e + diaeresis: NFC makes it one text


@pytest.mark.parametrize(
    "author",
    [
        "A_lice",  # punctuation
        "Alice2",  # suffix
        "NotCarol",  # prefix
        "\u0421arol",  # Cyrillic capital Es
        "Ali\u0441e",  # Cyrillic small es
        "Ca\u200brol",  # zero-width space
        "\u202eCarol",  # right-to-left override
        "Carol\u2069",  # bidi isolate terminator
        "\uff21lice",  # fullwidth A
        "Cobalt2",  # a moderator's look-alike is nobody's either
        "Zoe",
    ],
)
def test_an_account_that_is_not_listed_counts_for_no_seat(index, author):
    assert index.match(author) == (None, None)


@pytest.mark.parametrize(
    ("author", "listed"),
    [
        ("\u0421arol", "'Carol'"),
        ("Ca\u200brol", "'Carol'"),
        ("\u202eCarol", "'Carol'"),
        ("A1ice", "'Alice'"),
        ("\uff21lice", "'Alice'"),
    ],
)
def test_look_alikes_are_reported_naming_the_account_they_imitate(index, author, listed):
    report = index.why_not(author)
    assert (
        report.startswith("look-alike account ") and listed in report and "never counted" in report
    )
    assert (
        "\\u" in report or author.isascii()
    )  # the hidden or foreign character is shown, not printed raw


def test_tr39_skeletons_join_look_alikes_and_only_them():
    assert skeleton("\u0421arol") == skeleton("Carol") == skeleton("C\u200barol")
    assert skeleton("A_lice") != skeleton("Alice")
    assert skeleton("Alice2") != skeleton("Alice")


@settings(
    max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)  # no load
@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=12))
def test_the_ascii_shortcut_gives_the_librarys_skeleton(name):
    from disarm import skeleton_key

    assert skeleton(name) == skeleton_key(name, digit_policy="tr39")


def test_an_unlisted_account_resembling_a_seat_is_reported_not_counted(index):
    assert (
        index.why_not("A_lice")
        == "not a player ('A_lice' resembles seat Alice but is not listed in the game file)"
    )
    assert index.why_not("Stranger") == "not a player"
    assert index.why_not("Cobalt") == "moderator's post"


def test_a_renamed_account_keeps_its_seat_by_user_id_and_is_reported(game):
    authors = [("Cobalt", "1"), ("Alice", "5"), ("Bob", "6"), ("Alicia", "5"), ("Alicia", "5")]
    index = AuthorIndex(game, authors)
    assert index.match("Alicia", "5") == ("Alice", "renamed")
    assert index.match("Alicia") == ("Alice", "renamed")  # the name alone: learnt from the thread
    assert index.match("Alice", "5") == ("Alice", "account")
    assert (
        "Alice",
        "account 'Alice' now posts as 'Alicia' (same user id): counted for it",
    ) in index.findings()


def test_a_listed_name_under_another_user_id_is_an_impostor(game):
    index = AuthorIndex(game, [("Alice", "5"), ("Bob", "6"), ("Bob", "6")])
    assert index.match("Alice", "9") == (None, None)
    assert "another forum account (user id 9)" in index.why_not("Alice", "9")


def test_a_listed_name_two_user_ids_post_under_counts_for_neither(game):
    index = AuthorIndex(game, [("Alice", "5"), ("Alice", "9")])
    assert index.match("Alice", "5") == (None, None)
    assert index.match("Alice") == (None, None)
    assert "user ids 5, 9" in index.why_not("Alice")


@pytest.mark.parametrize("order", ["seat first", "look-alike first"])
def test_another_user_id_under_a_seats_name_in_another_case_is_a_look_alike(game, order):
    """house-style.md: "Identity is exact (forum user ids where the page has them and they win
    ...)": the id posting as the file lists the seat ("Alice") is the seat's; another id posting
    as "alice" is another account, reported, and no longer makes the seat's own posts count for
    no one."""
    authors = [("Alice", "5"), ("Alice", "5"), ("alice", "9"), ("Bob", "6")]
    index = AuthorIndex(game, authors if order == "seat first" else authors[::-1])
    assert index.match("Alice", "5") == ("Alice", "account")
    assert index.match("alice", "9") == (None, None)
    report = (
        "look-alike account 'alice' (user id 9) is not seat Alice's account 'Alice' "
        "(user id 5): another forum account, never counted"
    )
    assert index.why_not("alice", "9") == report
    assert index.lookalike("alice", "9") == report
    assert index.lookalike("Alice", "5") is None
    assert ("alice", f"{report} (1 post)") in index.findings()


def test_a_single_user_id_under_a_seats_name_in_another_case_is_the_seat(game):
    # the forums refuse a second account differing only in case: alone, "alice" is "Alice"
    index = AuthorIndex(game, [("alice", "9"), ("Bob", "6")])
    assert index.match("alice", "9") == ("Alice", "account")
    assert index.lookalike("alice", "9") is None


def test_an_outsider_never_takes_the_seat_of_a_player_who_has_not_posted(game):
    authors = (
        [("Cobalt", "1")]
        + [("Carol", "2"), ("Bob", "3"), ("Zoë", "4")] * 3
        + [("Newname", "7")] * 20
    )
    index = AuthorIndex(game, authors)
    assert index.match("Newname", "7") == (None, None)
    assert index.suggestions() == [
        ("Newname", "Alice")
    ]  # for the moderator to confirm, never counted
    silent = [report for seat, report in index.findings() if seat == "Alice"]
    assert silent == [
        "has not posted under an account the game file lists; unlisted accounts posted: 'Newname' (20) "
        "(a renamed account is added to replacements)"
    ]


def test_a_look_alike_that_posts_is_among_the_findings(game):
    index = AuthorIndex(game, [("Alice", None), ("\u0421arol", None), ("\u0421arol", None)])
    reports = dict(index.findings())
    assert reports["\u0421arol"] == (
        "look-alike account '\\u0421arol' is not seat Carol's account 'Carol': never counted (2 posts)"
    )


def test_a_replacement_holds_the_seat_from_its_post_on():
    index = AuthorIndex(
        parse_game(GAME.replace('["Carol Two"]', '[{name = "Carol Two", post = 50}]'))
    )
    assert index.match("Carol", number=49) == ("Carol", "account")
    assert index.match("Carol", number=50) == (None, None)
    assert index.match("Carol Two", number=49) == (None, None)
    assert index.match("Carol Two", number=50) == ("Carol", "account")
    assert (
        index.why_not("Carol", number=50)
        == "Carol posted at 50, after being replaced by Carol Two at post 50"
    )
    assert (
        index.why_not("Carol Two", number=49)
        == "Carol Two posted at 49, before replacing into the seat at post 50"
    )


TALLY_GAME = game_toml(SEATS, title="Identity", moderators=["Cobalt"], days=[(1, 1)])


def _replay(posts: list[tuple[int, str, str | None, str]]):
    from golden.harness import count_day

    from assistant.gamefile.rules import load_ruleset
    from assistant.reading.names import Roster

    game = parse_game(TALLY_GAME)
    ruleset = load_ruleset(game.ruleset)
    read = [read_post(n, author, body, author_id=user_id) for n, author, user_id, body in posts]
    roster = Roster.from_game(game, ruleset, authors=[(p.author, p.author_id) for p in read])
    return count_day(game, read, ruleset=ruleset, roster=roster, day=1)


def test_in_the_tally_a_look_alike_never_votes_and_is_a_problem_even_when_it_only_posts():
    votal = _replay(
        [
            (1, "Alice", "5", "<b>vote Bob</b>"),
            (2, "\u0421arol", "66", "<b>vote Bob</b>"),  # Cyrillic С: not Carol
            (3, "A\u200blice", "67", "hello all"),  # zero-width space, no vote
            (4, "Carol", "7", "<b>vote Zoë</b>"),
        ]
    )
    assert {w.target: w.voters for w in votal.wagons} == {"Bob": ("Alice",), "Zoë": ("Carol",)}
    reported = {(p.post, p.voter): p.reason for p in votal.problems}
    assert reported[(2, "\u0421arol")].startswith(
        "look-alike account '\\u0421arol' is not seat Carol's account"
    )
    assert reported[(3, "A\u200blice")].startswith(
        "look-alike account 'A\\u200blice' is not seat Alice's account"
    )


def test_in_the_tally_a_case_look_alike_with_another_id_never_votes_but_the_seat_does():
    votal = _replay(
        [
            (1, "Alice", "5", "<b>vote Bob</b>"),
            (2, "ALICE", "9", "<b>vote Carol</b>"),
            (3, "ALICE", "9", "hello"),
            (4, "Carol", "7", "<b>vote Bob</b>"),
        ]
    )
    assert {w.target: w.voters for w in votal.wagons} == {"Bob": ("Alice", "Carol")}
    reported = {(p.post, p.voter): p.reason for p in votal.problems}
    assert reported[(2, "ALICE")].startswith("look-alike account 'ALICE' (user id 9) is not")


def test_in_the_tally_a_renamed_account_keeps_its_seat_and_is_flagged():
    votal = _replay([(1, "Alice", "5", "hello"), (2, "Alicia", "5", "<b>vote Bob</b>")])
    assert {w.target: w.voters for w in votal.wagons} == {"Bob": ("Alice",)}
    assert [f.seat for f in votal.flags if "renamed" in f.reason] == ["Alice"]


SECOND_SEAT = """
title = "t"
thread = "https://forum.example.org/viewtopic.php?t=1"
ruleset = "mafiascum"
[[players]]
name = "Quill"
[[players]]
name = "Bob"
replacements = [{name = "Quill", post = 50}]
[[players]]
name = "Carol"
[[days]]
day = 1
start_post = 0
[[deaths]]
player = "Quill"
phase = "day 1"
"""


def test_an_account_takes_a_second_seat_after_its_first_died():
    game = parse_game(SECOND_SEAT)
    index = AuthorIndex(game)
    assert index.match("Quill", None, 10)[0] == "Quill"
    assert index.match("Quill", None, 60)[0] == "Bob"
    assert index.match("Bob", None, 60)[0] is None  # replaced


@pytest.mark.parametrize(
    "change",
    [
        ('[[deaths]]\nplayer = "Quill"\nphase = "day 1"\n', ""),
        ('{name = "Quill", post = 50}', '"Quill"'),
    ],
    ids=["first seat alive", "no post"],
)
def test_a_second_seat_needs_the_first_dead_and_a_replacement_post(change):
    with pytest.raises(GameFileError, match="already belongs to another seat"):
        parse_game(SECOND_SEAT.replace(*change))
