"""Doubts about a day's bounds: each piece of evidence a moderator would name, on a small replay,
and a right day left alone."""

from __future__ import annotations

from golden.harness import count_day, read_post

from assistant.counting.day_bounds import (
    DAY_BOUNDS,
    bounds_doubt,
    count_headings,
    headed_for,
    with_bounds_doubt,
)
from assistant.gamefile.game import parse_game
from assistant.gamefile.rules import load_ruleset
from assistant.reading.names import Roster

SEATS = ("Tfrost22", "Marigold", "Quentin", "Ysolde", "Bramble", "Odalys", "Pemberton")


def game_of(days: str):
    return parse_game(
        'title = "Bounds"\nthread = "https://forum.example.org/viewtopic.php?t=4"\n'
        'ruleset = "mafiascum"\n'
        'moderators = ["Warden"]\n'
        + days
        + "".join(f'[[players]]\nname = "{name}"\n' for name in SEATS)
    )


def chatter(first: int, last: int) -> list[str]:
    return [f"{n} {SEATS[n % len(SEATS)]}:" for n in range(first, last + 1)]


def day_doubt(days: str, lines: list[str], headings: dict[int, int] | None = None, day: int = 1):
    game = game_of(days)
    ruleset = load_ruleset("mafiascum")
    posts = [read_post(line) for line in lines]
    votal = count_day(game, posts, ruleset=ruleset, roster=Roster.from_game(game, ruleset), day=day)
    return votal, bounds_doubt(votal, game, posts, headings or {}), game, posts


TWO_DAYS = "[[days]]\nday = 1\nstart_post = 0\nend_post = 40\n[[days]]\nday = 2\nstart_post = 42\n"


def test_a_day_with_its_play_inside_its_bounds_has_no_doubt():
    lines = ["0 Warden:", *chatter(1, 39), "40 Warden:", "41 Warden:", *chatter(43, 60)]
    _, doubt, _, _ = day_doubt(TWO_DAYS, lines, {20: 1, 35: 1, 50: 2})
    assert doubt is None


def test_a_day_that_starts_and_ends_at_one_post_is_doubted():
    days = TWO_DAYS + "end_post = 42\n[[days]]\nday = 3\nstart_post = 43\n"
    lines = ["0 Warden:", *chatter(1, 39), "40 Warden:", "42 Warden:", *chatter(43, 80)]
    _, doubt, _, _ = day_doubt(days, lines, day=2)
    assert (doubt.kind, doubt.post) == (DAY_BOUNDS, 42)
    assert "starts and ends at the same post" in doubt.why


def test_a_day_of_almost_no_player_posts_is_doubted():
    days = TWO_DAYS + "end_post = 45\n[[days]]\nday = 3\nstart_post = 46\n"
    lines = ["0 Warden:", *chatter(1, 39), "40 Warden:", "42 Warden:", *chatter(43, 80)]
    _, doubt, _, _ = day_doubt(days, lines, day=2)
    assert "spans almost no player posts" in doubt.why


def test_a_day_over_posts_the_moderator_counts_as_another_day_is_doubted():
    """Day 2 of the file sits over day 1's posts: the moderator's counts there are headed "1.x"."""
    lines = ["0 Warden:", *chatter(1, 39), "40 Warden:", *chatter(43, 70)]
    days = "[[days]]\nday = 1\nstart_post = 0\nend_post = 2\n"
    days += "[[days]]\nday = 2\nstart_post = 3\nend_post = 40\n"
    _, doubt, _, _ = day_doubt(days, lines, {10: 1, 25: 1, 38: 1}, day=2)
    assert (doubt.kind, doubt.post) == (DAY_BOUNDS, 10)
    assert "counts for the day beside it" in doubt.why


def test_counts_numbered_for_no_neighbouring_day_are_no_evidence():
    """A moderator who numbers counts from 1 each day ("Vote Count 1.2" in day 4) shifts nothing."""
    lines = ["0 Warden:", *chatter(1, 39), "40 Warden:", *chatter(43, 70)]
    days = "[[days]]\nday = 1\nstart_post = 0\nend_post = 2\n"
    days += "[[days]]\nday = 4\nstart_post = 3\nend_post = 40\n"
    _, doubt, _, _ = day_doubt(days, lines, {10: 1, 25: 1, 38: 1}, day=4)
    assert doubt is None


def test_a_count_of_the_day_after_players_posted_past_its_end_is_doubted():
    lines = ["0 Warden:", *chatter(1, 39), *chatter(41, 60), *chatter(62, 80)]
    _, doubt, _, _ = day_doubt(TWO_DAYS, lines, {20: 1, 61: 1})
    assert (doubt.post, "count of its own posted after its end" in doubt.why) == (61, True)


def test_the_days_final_count_right_after_its_end_is_no_doubt():
    lines = ["0 Warden:", *chatter(1, 39), "40 Warden:", "41 Warden:", *chatter(43, 60)]
    _, doubt, _, _ = day_doubt(TWO_DAYS, lines, {20: 1, 41: 1})
    assert doubt is None


def test_players_voting_on_after_an_end_without_a_decision_is_doubted():
    days = "[[days]]\nday = 1\nstart_post = 0\nend_post = 10\n[[days]]\nday = 2\nstart_post = 60\n"
    lines = [
        "0 Warden:",
        *chatter(1, 9),
        "10 Warden:",
        "11 Quentin: vote Marigold",
        "12 Ysolde: vote Marigold",
        "13 Bramble: vote Pemberton",
        *chatter(14, 59),
    ]
    votal, doubt, game, posts = day_doubt(days, lines)
    assert (doubt.post, "kept voting" in doubt.why) == (10, True)
    doubted = with_bounds_doubt(votal, game, posts, {})
    assert doubted.doubts[0] == doubt and doubted.outcome.doubt == "day bounds at post 10"


def test_count_headings_read_the_moderators_number_behind_a_title():
    assert headed_for("Mini Normal 1744 Vote Count 2.01") == 2
    assert headed_for("Mini Normal 1744 Day 2 final vote count") == 2
    assert headed_for("Vote Count 3.1") == 3
    assert headed_for("Day 2 will end at noon") is None
    assert count_headings(
        {5: "<b>Mini Normal 12 Vote Count 1.03</b><br>Alder - Birch (L-3)", 6: "hi"}
    ) == {5: 1}
