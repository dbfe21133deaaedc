"""The clock: day bounds from the game file or the ruleset's phases, DST-correct deadlines,
extensions."""

from __future__ import annotations

from datetime import UTC, datetime

from support import game_toml

from assistant.counting.clock import (
    DayBounds,
    Phase,
    add_wall_hours,
    day_bounds,
    first_day_start,
    phase_at,
)
from assistant.gamefile.game import parse_game
from assistant.gamefile.rules import load_ruleset


def game(ruleset: str, extra: str = "", tail: str = ""):
    return parse_game(
        game_toml(["Ann"], title="t", ruleset=ruleset, moderators=(), extra=extra) + tail
    )


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def test_wall_hours_keep_the_local_time_across_dst():
    from zoneinfo import ZoneInfo

    zone = ZoneInfo("America/New_York")
    # 10 pm EST on 10 March 2023 plus 48 h is 10 pm EDT on 12 March: 47 real hours.
    assert add_wall_hours(utc("2023-03-11T03:00"), 48, zone) == utc("2023-03-13T02:00")
    # And back in November: 49 real hours.
    assert add_wall_hours(utc("2023-11-04T02:00"), 48, zone) == utc("2023-11-06T03:00")


def test_witch_hunt_2023_days_start_and_end_at_10pm_new_york():
    g = game("witch-hunt-2023", 'timezone = "America/New_York"\nstart = 2023-03-10')
    rules = load_ruleset("witch-hunt-2023")
    assert first_day_start(g, rules) == utc("2023-03-11T03:00")
    assert [day_bounds(g, rules, n) for n in (1, 2)] == [
        DayBounds(1, None, None, utc("2023-03-11T03:00"), utc("2023-03-13T02:00")),
        DayBounds(2, None, None, utc("2023-03-14T02:00"), utc("2023-03-16T02:00")),
    ]


def test_the_ruleset_zone_applies_when_the_game_names_none():
    g = game("millers-hollow", "start = 2024-07-01T18:00:00Z")
    rules = load_ruleset("millers-hollow")
    bounds = day_bounds(g, rules, 1)
    assert (bounds.start, bounds.end) == (utc("2024-07-01T18:00"), utc("2024-07-02T18:00"))
    # Winter: 11 am Pacific is 19:00 UTC.
    assert day_bounds(g, rules, 130).end == utc("2024-11-08T19:00")


def test_extensions_move_the_deadline_and_every_later_day():
    tail = '[[events]]\nday = 1\nkind = "extend"\nhours = 24\n'
    g = game("witchhunt-online-2.0.1", "start = 2024-03-01T18:00:00Z", tail)
    rules = load_ruleset("witchhunt-online-2.0.1")
    one, two = day_bounds(g, rules, 1), day_bounds(g, rules, 2)
    assert (one.end, one.extended_hours) == (utc("2024-03-04T18:00"), 24)
    assert (two.start, two.end) == (utc("2024-03-05T18:00"), utc("2024-03-07T18:00"))


def test_declared_days_win_over_phase_lengths_and_the_next_day_ends_the_last():
    tail = "[[days]]\nday = 1\nstart_post = 0\n[[days]]\nday = 2\nstart_post = 40\nend = 2024-03-09T18:00:00Z\n"
    g = game("witchhunt-online-2.0.1", "start = 2024-03-01T18:00:00Z", tail)
    rules = load_ruleset("witchhunt-online-2.0.1")
    assert day_bounds(g, rules, 1) == DayBounds(1, 0, 39, None, None)
    assert day_bounds(g, rules, 2) == DayBounds(2, 40, None, None, utc("2024-03-09T18:00"))


def test_an_early_end_event_cuts_the_day_at_its_post():
    tail = '[[days]]\nday = 1\nstart_post = 0\nend_post = 90\n[[events]]\nday = 1\nkind = "early_end"\npost = 57\n'
    g = game("mafiascum", "", tail)
    assert day_bounds(g, load_ruleset("mafiascum"), 1).end_post == 57


def test_phase_at_finds_days_and_nights():
    g = game("clocktower-forum", "start = 2024-01-01T00:00:00Z")
    rules = load_ruleset("clocktower-forum")
    assert phase_at(g, rules, utc("2023-12-31T23:00")) is None
    assert phase_at(g, rules, utc("2024-01-02T23:59")) == Phase(
        "day", 1, utc("2024-01-01T00:00"), utc("2024-01-03T00:00")
    )
    assert phase_at(g, rules, utc("2024-01-03T10:00")) == Phase(
        "night", 1, utc("2024-01-03T00:00"), utc("2024-01-04T00:00")
    )
    assert phase_at(g, rules, utc("2024-01-04T00:00")).number == 2
    assert phase_at(game("mafiascum"), load_ruleset("mafiascum"), utc("2024-01-01T00:00")) is None


def test_a_declared_day_moves_the_computed_days_after_it():
    # witchhunt-online-2.0.1.txt, How does Halftime work exactly?: "it is recommended that you use
    # double the usual night phase length for Halftime": day 2 declared after a 48-hour night starts
    # a day late, and so do the days computed after it (48 h days, 24 h nights).
    g = game(
        "witchhunt-online-2.0.1",
        "start = 2024-03-01T22:00:00Z",
        "[[days]]\nday = 2\nstart = 2024-03-05T22:00:00Z\n",
    )
    assert day_bounds(g, load_ruleset("witchhunt-online-2.0.1"), 2).end == utc("2024-03-07T22:00")
    day3 = day_bounds(g, load_ruleset("witchhunt-online-2.0.1"), 3)
    assert (day3.start, day3.end) == (utc("2024-03-08T22:00"), utc("2024-03-10T22:00"))


def test_a_new_deadline_moves_the_computed_days_after_it():
    # witchhunt-online-2.0.1.txt, Voting and Deadlines: a Reveal "extend[s] the day by 24 hours"; a
    # deadline the moderator moves does the same to the night and the days after it.
    rules = load_ruleset("witchhunt-online-2.0.1")
    extended = game(
        rules.name,
        "start = 2024-03-01T22:00:00Z",
        '[[events]]\nday = 1\nkind = "extend"\nhours = 24\n',
    )
    assert day_bounds(extended, rules, 2).start == utc("2024-03-05T22:00")
    moved = game(
        rules.name,
        "start = 2024-03-01T22:00:00Z",
        '[[events]]\nday = 1\nkind = "deadline"\ntime = 2024-03-03T10:00:00Z\n',
    )
    assert day_bounds(moved, rules, 2).start == utc("2024-03-04T10:00")
    assert phase_at(moved, rules, utc("2024-03-04T09:00")) == Phase(
        "night", 1, utc("2024-03-03T10:00"), utc("2024-03-04T10:00")
    )


def test_a_day_declared_by_its_first_post_still_ends_at_the_rulesets_hour():
    # millers-hollow-master-rules.txt, Day Time Lynching: "Lynching continues until 11 am the next
    # day".
    g = game(
        "millers-hollow",
        "start = 2024-07-01T11:00:00-07:00",
        "[[days]]\nday = 2\nstart_post = 40\n",
    )
    bounds = day_bounds(g, load_ruleset("millers-hollow"), 2)
    assert (bounds.start_post, bounds.start, bounds.end) == (40, None, utc("2024-07-03T18:00"))
