"""A game file that contradicts itself is refused at load, naming the file, line and key; time zones
are read as moderators write them."""

from datetime import UTC, datetime, timedelta

import pytest

from assistant.errors import GameFileError
from assistant.gamefile.game import parse_game

GAME = """\
title = "Checks"
thread = "https://forum.example.org/viewtopic.php?t=1"
ruleset = "mafiascum"
moderators = ["Mod"]

[[players]]
name = "Ada"
replacements = ["Ada2"]

[[players]]
name = "Bo"

[[players]]
name = "Cy"

[[days]]
day = 1
start_post = 1
end_post = 100

[[days]]
day = 2
start_post = 120
end_post = 200

[[days]]
day = 3
start_post = 230

[[deaths]]
player = "Bo"
phase = "night 1"

[private]
judge = "Cy"

[[private.decisions]]
day = 2
judge = "none"
"""


def lines_of(text: str, needle: str, nth: int = 1) -> int:
    found = [i for i, line in enumerate(text.splitlines(), start=1) if line.strip() == needle]
    return found[nth - 1]


def refused(text: str) -> GameFileError:
    with pytest.raises(GameFileError) as caught:
        parse_game(text, path="g.toml")
    return caught.value


def test_the_consistent_file_loads():
    game = parse_game(GAME, path="g.toml")
    assert [d.day for d in game.days] == [1, 2, 3]


def test_a_day_starting_inside_the_one_before_is_refused():
    text = GAME.replace("start_post = 120", "start_post = 90")
    error = refused(text)
    assert (error.line, error.field) == (lines_of(text, "start_post = 90"), "days[2].start_post")
    assert "inside day 1 (posts 1-100)" in error.message and "overlap" in error.message


def test_one_post_may_end_a_day_and_start_the_next():
    game = parse_game(GAME.replace("start_post = 120", "start_post = 100"))
    assert game.day(2).start_post == 100


def test_end_post_before_start_post_is_refused():
    text = GAME.replace("end_post = 200", "end_post = 110")
    error = refused(text)
    assert (error.line, error.field) == (lines_of(text, "end_post = 110"), "days[2].end_post")


def test_days_whose_posts_run_backwards_are_refused():
    text = GAME.replace("start_post = 230", "start_post = 110")
    error = refused(text)
    assert error.field == "days[3].start_post" and "out of order" in error.message


def test_days_listed_out_of_order_are_refused():
    text = GAME.replace(
        "day = 2\nstart_post = 120\nend_post = 200", "day = 3\nstart_post = 120\nend_post = 200", 1
    )
    text = text.replace("day = 3\nstart_post = 230", "day = 2\nstart_post = 230")
    error = refused(text)
    assert error.field == "days[3].day" and "listed after day 3" in error.message


def test_days_by_time_must_not_overlap():
    text = GAME.replace(
        "day = 1\nstart_post = 1\nend_post = 100",
        "day = 1\nstart = 2024-03-01T10:00:00\nend = 2024-03-03T10:00:00",
    ).replace("day = 2\nstart_post = 120\nend_post = 200", "day = 2\nstart = 2024-03-02T10:00:00")
    error = refused(text)
    assert error.field == "days[2].start" and "overlap" in error.message


def test_a_time_end_before_its_start_is_refused():
    text = GAME.replace(
        "day = 3\nstart_post = 230",
        "day = 3\nstart = 2024-03-05T10:00:00\nend = 2024-03-04T10:00:00",
    )
    error = refused(text)
    assert error.field == "days[3].end"


def test_a_moderator_who_is_also_a_player_is_refused():
    text = GAME.replace('moderators = ["Mod"]', 'moderators = ["Mod", "ada2"]')
    error = refused(text)
    assert (error.line, error.field) == (4, "moderators")
    assert "'ada2' is also a player (seat 'Ada')" in error.message


def test_a_death_on_a_day_the_file_does_not_have_is_refused():
    text = GAME.replace('phase = "night 1"', 'phase = "night 7"')
    error = refused(text)
    assert (error.line, error.field) == (lines_of(text, 'phase = "night 7"'), "deaths[1].phase")
    assert "last day [[days]] declares is day 3" in error.message


def test_a_death_on_day_zero_is_refused():
    error = refused(GAME.replace('phase = "night 1"', 'phase = "day 0"'))
    assert error.field == "deaths[1].phase"


def test_a_death_naming_no_seat_is_refused():
    error = refused(GAME.replace('player = "Bo"', 'player = "Dee"'))
    assert error.field == "deaths[1].player" and "not a player" in error.message


def test_a_decision_for_a_day_that_does_not_exist_is_refused():
    text = GAME.replace('day = 2\njudge = "none"', 'day = 9\njudge = "none"')
    error = refused(text)
    assert (error.line, error.field) == (lines_of(text, "day = 9"), "private.decisions[1].day")


def test_the_same_account_in_two_seats_is_refused():
    error = refused(GAME.replace('name = "Cy"', 'name = "Cy"\nreplacements = ["ADA2"]'))
    assert (
        error.field.startswith("players[3]") and "already belongs to another seat" in error.message
    )


@pytest.mark.parametrize(
    ("written", "offset_hours"),
    [
        ("GMT+10:30", 10.5),
        ("UTC-5", -5),
        ("+10:30", 10.5),
        ("utc+2", 2),
        ("-03:00", -3),
        ("UTC", 0),
    ],
)
def test_offsets_as_moderators_write_them_are_accepted(written, offset_hours):
    text = GAME.replace(
        'moderators = ["Mod"]', f'moderators = ["Mod"]\ntimezone = "{written}"'
    ).replace("day = 3\nstart_post = 230", "day = 3\nstart = 2024-03-05T12:00:00")
    start = parse_game(text).day(3).start
    assert start == datetime(2024, 3, 5, 12, tzinfo=UTC) - timedelta(hours=offset_hours)


@pytest.mark.parametrize("written", ["EST", "IST", "Mars/Olympus", "UTC+15"])
def test_zones_votal_cannot_read_are_refused_with_the_accepted_forms(written):
    text = GAME.replace('moderators = ["Mod"]', f'moderators = ["Mod"]\ntimezone = "{written}"')
    error = refused(text)
    assert (error.line, error.field) == (5, "timezone")
    if written != "UTC+15":
        assert "UTC-5" in error.message and "America/New_York" in error.message


def test_local_times_of_a_game_without_a_zone_are_in_the_rulesets_zone():
    # witch-hunt-2023 names America/New_York: 10 pm there on 5 March 2024 is 03:00 UTC on the 6th
    text = GAME.replace('ruleset = "mafiascum"', 'ruleset = "witch-hunt-2023"').replace(
        "day = 3\nstart_post = 230", "day = 3\nstart = 2024-03-05T22:00:00"
    )
    game = parse_game(text)
    assert game.day(3).start == datetime(2024, 3, 6, 3, tzinfo=UTC)
    assert str(game.tz) == "America/New_York"
