"""The game file: the documented fields load as written; mistakes name the file, line and key."""

from datetime import UTC, datetime

import pytest

from assistant.errors import GameFileError
from assistant.gamefile.game import DayDecl, Death, Seat, load_game, parse_game

ISSUE_EXAMPLE = """\
title = "Witch Hunt 17"
thread = "https://forum.example.org/viewtopic.php?f=53&t=15787"
forum = "phpbb"                      # optional: detected from the page when omitted
ruleset = "witchhunt-online-2.0.1"   # a bundled ruleset name, or a path to a ruleset file
moderators = ["Cobalt"]
timezone = "America/New_York"        # optional

[fetch]
min_interval = 1.5

[[players]]
name = "Hiraki"
replacements = ["werewolf555"]
aliases = ["hira"]
vote_weight = 2

[[players]]
name = "Beefster"

[[days]]
day = 1
start_post = 0
end_post = 351

[[deaths]]
player = "Hiraki"
phase = "night 1"
post = 812
"""


def test_issue_example_loads_as_written(tmp_path):
    path = tmp_path / "wh17.toml"
    path.write_text(ISSUE_EXAMPLE)
    game = load_game(path)
    assert game.title == "Witch Hunt 17"
    assert game.forum == "phpbb"
    assert game.moderators == ("Cobalt",)
    assert game.fetch.min_interval == 1.5
    assert game.players == (
        Seat("Hiraki", replacements=("werewolf555",), aliases=("hira",), vote_weight=2),
        Seat("Beefster"),
    )
    assert game.days == (DayDecl(1, start_post=0, end_post=351),)
    assert game.deaths == (Death("Hiraki", "night", 1, post=812),)
    assert game.key == "https://forum.example.org/viewtopic.php?f=53&t=15787"


def test_a_replacement_account_names_its_seat_in_deaths():
    text = ISSUE_EXAMPLE.replace('player = "Hiraki"', 'player = "WEREWOLF555"')
    assert parse_game(text).deaths[0].player == "Hiraki"


def test_local_times_are_in_the_game_zone_across_dst():
    text = (
        ISSUE_EXAMPLE
        + "\n[[days]]\nday = 2\nstart = 2024-03-09T22:00:00\nend = 2024-03-11T22:00:00\n"
    )
    day2 = parse_game(text).day(2)
    assert day2.start == datetime(2024, 3, 10, 3, 0, tzinfo=UTC)  # EST, UTC-5
    assert day2.end == datetime(2024, 3, 12, 2, 0, tzinfo=UTC)  # EDT, UTC-4 after the change


@pytest.mark.parametrize(
    ("change", "line", "field", "words"),
    [
        (('aliases = ["hira"]', 'alias = ["hira"]'), 14, "players[1].alias", "unknown key"),
        (
            ("vote_weight = 2", 'vote_weight = "two"'),
            15,
            "players[1].vote_weight",
            "must be a number",
        ),
        (
            ("vote_weight = 2", 'vote_weight = 2\nvote_mode = "halves"'),
            16,
            "players[1].vote_mode",
            '"split"',
        ),
        (
            ("vote_weight = 2", 'vote_weight = 1\nvote_mode = "split"'),
            16,
            "players[1].vote_mode",
            "2 or more",
        ),
        (
            ('forum = "phpbb"', 'forum = "phpbb"\nlynches_per_day = 0'),
            4,
            "lynches_per_day",
            "1 or more",
        ),
        (("end_post = 351", "end_post = -4"), 23, "days[1].end_post", "must be 0 or more"),
        (
            ('phase = "night 1"', 'phase = "evening 1"'),
            27,
            "deaths[1].phase",
            "'day 2' or 'night 1'",
        ),
        (('player = "Hiraki"', 'player = "Nobody"'), 26, "deaths[1].player", "not a player"),
        (
            ('timezone = "America/New_York"', 'timezone = "Mars/Olympus"'),
            6,
            "timezone",
            "unknown time zone",
        ),
        (('forum = "phpbb"', 'forum = "myspace"'), 3, "forum", "unknown forum engine"),
        (("min_interval = 1.5", "min_interval = -1"), 9, "fetch.min_interval", "0 or more"),
    ],
)
def test_bad_values_name_file_line_and_key(change, line, field, words):
    with pytest.raises(GameFileError) as caught:
        parse_game(ISSUE_EXAMPLE.replace(*change), path="wh17.toml")
    error = caught.value
    assert (error.path, error.line, error.field) == ("wh17.toml", line, field)
    assert words in error.message
    assert str(error).startswith(f"wh17.toml:{line}: {field}: ")


def test_missing_required_key():
    with pytest.raises(GameFileError, match=r"missing required key 'ruleset'"):
        parse_game(ISSUE_EXAMPLE.replace('ruleset = "witchhunt-online-2.0.1"', ""))


def test_broken_toml_reports_its_line():
    with pytest.raises(GameFileError) as caught:
        parse_game(ISSUE_EXAMPLE.replace("day = 1", "day = = 1"), path="g.toml")
    assert caught.value.line == 21
    assert "not valid TOML" in str(caught.value)


def test_an_account_in_two_seats_is_refused():
    with pytest.raises(GameFileError, match="already belongs to another seat"):
        parse_game(ISSUE_EXAMPLE.replace('name = "Beefster"', 'name = "werewolf555"'))


def test_corrections_need_exactly_one_of_vote_or_ignore():
    with pytest.raises(GameFileError, match="exactly one of"):
        parse_game(ISSUE_EXAMPLE + "\n[[corrections]]\npost = 484\n")
    game = parse_game(ISSUE_EXAMPLE + '\n[[corrections]]\npost = 484\nvote = "Beefster"\n')
    assert game.corrections[0].vote == "Beefster"


def test_private_facts_load_and_names_must_be_players():
    text = ISSUE_EXAMPLE + '\n[private]\njudge = "Beefster"\nlovers = [["Hiraki", "Beefster"]]\n'
    game = parse_game(text)
    assert game.private.judge == "Beefster"
    assert game.private.lovers == (("Hiraki", "Beefster"),)
    with pytest.raises(GameFileError, match="not a player"):
        parse_game(text.replace('judge = "Beefster"', 'judge = "Zed"'))


def test_unreadable_file_is_one_line(tmp_path):
    with pytest.raises(GameFileError, match="cannot read"):
        load_game(tmp_path / "missing.toml")


REPLACED = """\
title = "Replacements"
thread = "https://forum.example.org/viewtopic.php?t=1"
ruleset = "mafiascum"

[[players]]
name = "Old"
replacements = ["Old2", {name = "New", post = 512}]

[[players]]
name = "Other"
"""


def test_a_replacement_may_say_from_which_post_the_new_account_holds_the_seat():
    seat = parse_game(REPLACED).players[0]
    assert seat.accounts == ("Old", "Old2", "New")
    assert seat.replacement_posts == (None, 512)
    assert seat.current == "New"
    assert seat.shown == "New (replaced Old, Old2)"
    assert seat.account_at(511) == "Old2" and seat.account_at(512) == "New"
    assert seat.shown_at(511) == "Old2 (replaced Old)" and seat.shown_at(600) == seat.shown
    assert parse_game(REPLACED).players[1].shown == "Other"
    assert parse_game(REPLACED).shown("Old", 100) == "Old2 (replaced Old)"
    assert parse_game(REPLACED).shown("No Lynch") == "No Lynch"


def test_votes_out_of_turn_are_the_old_account_after_the_post_and_the_new_one_before_it():
    seat = parse_game(REPLACED).players[0]
    assert seat.out_of_turn("Old2", 511) is None
    assert "after being replaced by New at post 512" in seat.out_of_turn("old2", 512)
    assert "before replacing into the seat at post 512" in seat.out_of_turn("New", 400)
    assert seat.out_of_turn("New", 512) is None
    assert (
        seat.out_of_turn("Old", 100) is None
    )  # Old2 has no post: nothing is known about Old's last post
    assert parse_game(REPLACED).players[1].out_of_turn("Other", 9999) is None


def test_the_list_of_names_form_still_loads_without_posts():
    seat = parse_game(REPLACED.replace('{name = "New", post = 512}', '"New"')).players[0]
    assert seat == Seat("Old", replacements=("Old2", "New"))
    assert seat.account_at(0) == "New"  # no posts: the newest account holds the seat throughout


@pytest.mark.parametrize(
    ("replacements", "message"),
    [
        ('[{name = "New", post = "512"}]', "list of account names or {name"),
        ('[{name = "New", from = 512}]', "list of account names or {name"),
        ('[{name = "A", post = 600}, {name = "B", post = 500}]', "posts must rise"),
    ],
)
def test_a_bad_replacement_names_the_line_and_key(replacements, message):
    text = REPLACED.replace('["Old2", {name = "New", post = 512}]', replacements)
    with pytest.raises(GameFileError) as caught:
        parse_game(text, path="g.toml")
    assert str(caught.value).startswith("g.toml:7: players[1].replacements: ")
    assert message in str(caught.value)


def test_without_a_timezone_local_times_follow_the_rulesets_clock():
    # millers-hollow-master-rules.txt, Role Assignment: "At 11:00 AM on the first day (all times are
    # in West Coast time)": a game file that names no zone writes its times on that clock, so 11:00
    # is 18:00 UTC in July.
    text = ISSUE_EXAMPLE.replace('timezone = "America/New_York"        # optional\n', "").replace(
        'ruleset = "witchhunt-online-2.0.1"', 'ruleset = "millers-hollow"'
    )
    text = text.replace(
        'moderators = ["Cobalt"]', 'moderators = ["Cobalt"]\nstart = 2024-07-01T11:00:00'
    )
    game = parse_game(text)
    assert game.timezone == "America/Los_Angeles"
    assert game.start == datetime(2024, 7, 1, 18, 0, tzinfo=UTC)
    utc_rules = parse_game(text.replace('ruleset = "millers-hollow"', 'ruleset = "mafiascum"'))
    assert (utc_rules.timezone, utc_rules.start) == (None, datetime(2024, 7, 1, 11, 0, tzinfo=UTC))


def test_survivals_roles_returns_and_the_sheriffs_records_load():
    game = parse_game(
        ISSUE_EXAMPLE.replace("post = 812\n", 'post = 812\nrole = "Seer"\n')
        + """
[[survivals]]
player = "werewolf555"
phase = "night 2"
note = "an extra life"

[[events]]
day = 5
kind = "return"
player = "Beefster"

[[events]]
day = 2
kind = "sheriff_election"

[private]
extra_lives = ["Beefster", "Beefster"]

[[private.successors]]
sheriff = "Hiraki"
successor = "Beefster"
"""
    )
    assert game.deaths[0].role == "Seer"
    assert (game.survivals[0].player, game.survivals[0].phase, game.survivals[0].phase_number) == (
        "Hiraki",
        "night",
        2,
    )
    assert [(e.kind, e.player) for e in game.events] == [
        ("return", "Beefster"),
        ("sheriff_election", None),
    ]
    assert game.private.extra_lives == ("Beefster", "Beefster")
    assert game.private.successors == {"Hiraki": "Beefster"}


def test_an_event_that_names_a_player_needs_one():
    with pytest.raises(GameFileError, match="a 'return' event needs player"):
        parse_game(ISSUE_EXAMPLE + '\n[[events]]\nday = 5\nkind = "return"\n')
