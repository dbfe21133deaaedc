"""The tally: who is alive, majority numbers, the JSON shape of a votal, corrections and private
facts."""

from __future__ import annotations

import json

from golden.harness import ExactRoster, count_day, read_post, resolve_exact
from support import game_toml

from assistant.counting.living import alive_seats
from assistant.gamefile.game import parse_game
from assistant.gamefile.rules import load_ruleset

GAME = game_toml(
    [
        "Alice",
        {"name": "Bob", "replacements": ["Bobby"]},
        {"name": "Carol", "vote_weight": 2},
        "Dave",
        "Erin",
    ],
    title="t",
    days=[(1, 0, 20), (2, 25)],
    tables=(
        '[[deaths]]\nplayer = "Erin"\nphase = "night 1"\n'
        '[[deaths]]\nplayer = "Dave"\nphase = "day 2"\npost = 30\n'
        '[[deaths]]\nplayer = "Alice"\nphase = "day 1"\n'
    ),
)


def game(extra: str = ""):
    return parse_game(GAME + extra)


def replay(g, lines, **kw):
    posts = [read_post(line) for line in lines]
    return count_day(
        g,
        posts,
        ruleset=load_ruleset(g.ruleset),
        roster=ExactRoster(g),
        resolve=resolve_exact,
        **kw,
    )


def test_alive_seats_follow_phase_ends_and_day_kills():
    g = game()
    assert alive_seats(g, 1) == ("Alice", "Bob", "Carol", "Dave", "Erin")
    assert alive_seats(g, 2, at_post=29) == ("Bob", "Carol", "Dave")
    assert alive_seats(g, 2, at_post=30) == ("Bob", "Carol")
    assert alive_seats(g, 2) == ("Bob", "Carol")
    assert alive_seats(g, 3) == ("Bob", "Carol")


def test_majority_is_more_than_half():
    ruleset = load_ruleset("mafiascum")
    assert [ruleset.majority_for(n) for n in (1, 2, 3, 4, 5, 12, 13)] == [1, 2, 2, 3, 3, 7, 7]


def test_votal_json_has_the_issue_shape():
    g = game()
    votal = replay(
        g,
        [
            "1 Alice: vote Bob",
            "2 Bobby: vote zed",
            "3 Stranger: vote Bob",
            "4 Mod: vote Bob",
            "21 Dave: vote Bob",
        ],
        day=1,
    )
    data = json.loads(json.dumps(votal.to_json()))
    assert {
        k: data[k]
        for k in (
            "day",
            "alive",
            "majority",
            "as_of_post",
            "wagons",
            "no_elimination",
            "not_voting",
            "outcome",
            "problems",
        )
    } == {
        "day": 1,
        "alive": 5,
        "majority": 3,
        "as_of_post": 4,
        "wagons": [{"target": "Bob", "votes": 1, "voters": ["Alice"]}],
        "no_elimination": {"votes": 0, "voters": []},
        "not_voting": ["Bob", "Carol", "Dave", "Erin"],
        "outcome": {
            "kind": "no_elimination",
            "target": None,
            "post": 4,
            "reason": "deadline",
            "doubt": "unexplained ending at post 4",
        },
        "problems": [
            {"post": 2, "voter": "Bob", "text": "vote zed", "reason": "unknown name"},
            {"post": 3, "voter": "Stranger", "text": "vote Bob", "reason": "not a player"},
        ],
    }
    assert [(a["post"], a["author"], a["counted"], a["why_not"]) for a in data["actions"]] == [
        (1, "Alice", True, None),
        (2, "Bobby", False, "unknown name"),
        (3, "Stranger", False, "not a player"),
        (4, "Mod", False, "moderator's post"),
        (21, "Dave", False, "after the day's end"),
    ]


def test_vote_weight_counts_toward_majority():
    g = game()
    votal = replay(g, ["1 Carol: vote Bob", "2 Alice: vote Bob"], day=1)
    assert (votal.wagons[0].votes, votal.outcome.post, votal.outcome.reason) == (3, 2, "majority")


def test_corrections_apply_and_are_marked():
    g = game('[[corrections]]\npost = 2\nvote = "Dave"\n[[corrections]]\npost = 3\nignore = true\n')
    votal = replay(
        g, ["1 Alice: vote Bob", "2 Bob: vote Alicee", "3 Dave: vote Bob"], day=1, at_post=3
    )
    assert [(w.target, w.voters) for w in votal.wagons] == [("Bob", ("Alice",)), ("Dave", ("Bob",))]
    assert [(a.post, a.counted, a.corrected, a.why_not) for a in votal.actions] == [
        (1, True, False, None),
        (2, True, True, None),
        (3, False, True, "ruled out by the moderator"),
    ]
    assert votal.outcome is None


def test_day_kill_removes_votes_and_lowers_majority():
    g = game()
    lines = ["25 Bob: vote Dave", "26 Dave: vote Bob", "30 Dave: vote Carol", "31 Carol: vote Bob"]
    before = replay(g, lines, day=2, at_post=29)
    assert (before.alive, before.majority, before.outcome) == (3, 2, None)
    after = replay(g, lines, day=2)
    assert (after.alive, after.majority) == (2, 2)
    assert after.outcome.target == "Bob" and after.outcome.post == 31
    assert [p.reason for p in after.problems] == ["voter is dead"]


PRIVATE_WORDS = (
    "judge",
    "lover",
    "sequester",
    "deacon",
    "holy",
    "sheriff",
    "cannon",
    "magistrate",
    "private",
)


def private_game(ruleset: str, private: str):
    seats = ("Ariadne", "Bob", "Chloe", "Dion", "Eris")
    return parse_game(
        game_toml(seats, title="t", ruleset=ruleset, days=[(1, 0, 9)], tables=private)
    )


def test_who_holds_the_judge_role_never_shows_in_the_votal():
    lines = ["1 Bob: vote Eris", "2 Chloe: vote Eris", "3 Dion: vote Bob"]
    as_judge = {
        name: replay(
            private_game("witchhunt-online-2.0.1", f'[private]\njudge = "{name}"'), lines, day=1
        )
        for name in ("Ariadne", "Chloe", "Eris")
    }
    unnamed = replay(private_game("witchhunt-online-2.0.1", ""), lines, day=1)
    dumps = {json.dumps(v.to_json(), sort_keys=True) for v in (*as_judge.values(), unnamed)}
    assert len(dumps) == 1
    assert as_judge["Ariadne"].outcome.kind == "pending"


def test_private_facts_change_outcomes_but_not_the_public_fields():
    private = """
[private]
judge = "Ariadne"
lovers = [["Bob", "Chloe"]]
[[private.decisions]]
day = 1
judge = "Dion"
[[private.sequestered]]
day = 1
player = "Eris"
"""
    lines = ["1 Bob: vote Chloe", "2 Eris: vote Bob", "3 Dion: vote Eris", "4 Ariadne: vote Bob"]
    mh = replay(private_game("millers-hollow", private), lines, day=1)
    wh = replay(private_game("witchhunt-online-2.0.1", private), lines, day=1)
    assert (
        mh.outcome.target == "Bob" and wh.outcome.target == "Dion"
    )  # the private facts did decide
    assert len(mh.private_notes) == 3 and len(wh.private_notes) == 1
    for votal in (mh, wh):
        data = votal.to_json()
        data.pop(
            "outcome"
        )  # its reason may be "judge": the rules announce that the Judge decided, not who
        text = json.dumps(data).casefold()
        assert [w for w in PRIVATE_WORDS if w in text] == []
        assert "private_notes" not in repr(votal)
    voided = [(a.post, a.why_not) for a in mh.actions if not a.counted]
    # players read the same words as for a post the moderator ignored; the moderator's count and
    # audit the real ones
    assert voided == [
        (1, "ruled out by the moderator"),
        (2, "ruled out by the moderator"),
        (3, "ruled out by the moderator"),
    ]
    assert [a["private_why"] for a in mh.to_json(private=True)["actions"] if not a["counted"]] == [
        "Bob and Chloe are lovers and may not vote for each other",
        "Eris is sequestered and cannot vote",
        "Eris is sequestered and cannot be lynched",
    ]
    assert mh.problems == ()


def test_wagons_are_sorted_by_votes_then_the_earliest_standing_vote():
    g = game()
    votal = replay(
        g,
        ["1 Alice: vote Dave", "2 Bob: vote Erin", "3 Dave: vote Erin", "4 Alice: vote Bob"],
        day=1,
    )
    assert [(w.target, w.voters) for w in votal.wagons] == [
        ("Erin", ("Bob", "Dave")),
        ("Bob", ("Alice",)),
    ]


def test_replay_reads_names_through_the_real_roster():
    from assistant.reading.names import Roster

    g = game()
    ruleset = load_ruleset("mafiascum")
    posts = [
        read_post(line)
        for line in (
            "25 Bobby: vote dave",
            "26 Dave: vote NO LYNCH",
            "27 Bob: vote erin",
            "28 Carol: vote Zzyzx",
        )
    ]
    votal = count_day(
        g, posts, ruleset=ruleset, roster=Roster.from_game(g, ruleset), day=2, at_post=28
    )
    assert [(w.target, w.voters) for w in votal.wagons] == [("Dave", ("Bob",))]
    assert votal.no_elimination.voters == ("Dave",)
    assert [(p.post, p.voter, p.reason) for p in votal.problems] == [
        (27, "Bob", "target is dead"),
        (28, "Carol", "unknown name"),
    ]
    assert votal.outcome is None


def test_an_account_the_game_file_does_not_list_never_counts_and_is_reported():
    from assistant.reading.names import Roster

    g = game()
    posts = [
        read_post(line)
        for line in ["1 Alice: vote Bob", "2 CarolX: vote Bob", "3 Dave: vote Carol"]
    ]
    ruleset = load_ruleset(g.ruleset)
    votal = count_day(g, posts, ruleset=ruleset, roster=Roster.from_game(g, ruleset), day=1)
    assert votal.wagons[0].voters == ("Alice",)  # CarolX resembles Carol's account but is not it
    [problem] = votal.problems
    assert (problem.post, problem.voter, problem.text) == (2, "CarolX", "vote Bob")
    assert problem.reason.startswith("not a player")
    assert replay(g, ["1 Alice: vote Bob", "2 Carol: vote Bob"], day=1).flags == ()


EDITED = [
    "1 Alice: vote Bob",
    "2 Bob edited(vote Alice): vote Carol",
    "3 Carol edited(vote Bob): vote Bob",
]


def test_every_edit_that_changes_a_vote_is_flagged_and_the_policy_decides_what_counts():
    from dataclasses import replace as changed

    g = game()
    first = replay(g, EDITED, day=1)  # mafiascum counts an edited vote as first posted
    assert {w.target: w.voters for w in first.wagons} == {
        "Bob": ("Alice", "Carol"),
        "Alice": ("Bob",),
    }
    [flag] = first.flags  # post 3's edit left its vote as it was: no flag
    assert flag.seat == "Bob"
    assert (
        "edited post 2" in flag.reason
        and "vote Alice" in flag.reason
        and "vote Carol" in flag.reason
    )

    posts = [read_post(line) for line in EDITED]
    rules = load_ruleset(g.ruleset)
    latest = count_day(
        g,
        posts,
        ruleset=changed(rules, edited="last_revision"),
        roster=ExactRoster(g),
        day=1,
        resolve=resolve_exact,
    )
    assert {w.target: w.voters for w in latest.wagons} == {
        "Bob": ("Alice", "Carol"),
        "Carol": ("Bob",),
    }
    held = count_day(
        g,
        posts,
        ruleset=changed(rules, edited="flag"),
        roster=ExactRoster(g),
        day=1,
        resolve=resolve_exact,
    )
    assert {w.target: w.voters for w in held.wagons} == {"Bob": ("Alice", "Carol")}
    assert "Bob" in held.not_voting and "moderator decides" in held.flags[0].reason
    corrected = count_day(
        parse_game(GAME + '[[corrections]]\npost = 2\nvote = "Carol"\n'),
        posts,
        ruleset=changed(rules, edited="flag"),
        roster=ExactRoster(g),
        day=1,
        resolve=resolve_exact,
    )
    assert {w.target: w.voters for w in corrected.wagons} == {
        "Bob": ("Alice", "Carol"),
        "Carol": ("Bob",),
    }


def test_an_account_in_its_second_seat_votes_for_that_seat():
    from assistant.reading.names import Roster

    g = parse_game("""
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
[[players]]
name = "Dave"
[[days]]
day = 1
start_post = 0
end_post = 40
[[days]]
day = 2
start_post = 41
[[deaths]]
player = "Quill"
phase = "day 1"
""")
    ruleset = load_ruleset("mafiascum")
    posts = [read_post(line) for line in ("45 Quill: vote Carol", "55 Quill: vote Carol")]
    votal = count_day(g, posts, ruleset=ruleset, roster=Roster.from_game(g, ruleset), day=2)
    assert [(w.target, w.voters) for w in votal.wagons] == [("Carol", ("Bob",))]
    assert [p.post for p in votal.problems] == [
        45
    ]  # the dead seat's account before it took the second seat


def test_witchhunt_9_no_lynch_words_are_read_as_no_vote_not_as_a_players_name():
    # witchhunt-rules-9.0.txt, FAQ: 'Is "None" a valid target option? No': the ruleset keeps its
    # no-lynch words so that the real name reader reports "vote none" as not a vote instead of
    # matching it to a player (Nona).
    from assistant.reading.names import Roster

    g = parse_game(
        GAME.replace('"mafiascum"', '"witchhunt-9.0"')
        .replace('name = "Dave"', 'name = "Nona"')
        .replace('player = "Dave"', 'player = "Nona"')
    )
    ruleset = load_ruleset("witchhunt-9.0")
    posts = [read_post("1 Bob: vote none"), read_post("2 Carol: vote no lynch")]
    votal = count_day(g, posts, ruleset=ruleset, roster=Roster.from_game(g, ruleset), day=1)
    assert votal.wagons == ()
    assert [(p.voter, p.reason) for p in votal.problems] == [
        ("Bob", "no-elimination votes are not allowed"),
        ("Carol", "no-elimination votes are not allowed"),
    ]


MH_NIGHT = """
title = "t"
thread = "https://forum.example.org/viewtopic.php?t=1"
ruleset = "millers-hollow"
moderators = ["Mod"]
[[players]]
name = "Helen"
[[players]]
name = "Paris"
[[players]]
name = "Icarus"
[[players]]
name = "Jason"
[[players]]
name = "Medea"
[[players]]
name = "Orpheus"
[[days]]
day = 1
start_post = 0
end_post = 8
[[days]]
day = 2
[[deaths]]
player = "Medea"
phase = "day 1"
"""
MH_NIGHT_POSTS = [
    "1 Helen: vote Medea",
    "2 Paris: vote Medea",
    "8 Icarus: vote Medea",
    "9 Mod:",
    "10 Jason: vote Orpheus",
    "12 Mod:",
    "13 Icarus: vote Paris",
]


def test_a_vote_after_the_moderators_night_post_counts_for_no_day():
    """millers-hollow-master-rules.txt: "Once day is over, night starts ... flavor text announcing
    the next day ... will occur once all the night time activities are finished": post 9, which
    tells the night, does not open day 2 (post 12 does), so Jason's vote at post 10 is listed as
    cast at night and counts for no day."""
    from assistant.gamefile.outcome import WhyNot

    g = parse_game(MH_NIGHT)
    ruleset = load_ruleset(g.ruleset)
    posts = [read_post(line) for line in MH_NIGHT_POSTS]

    def day_two(night: frozenset[int]):
        return count_day(
            g,
            posts,
            ruleset=ruleset,
            roster=ExactRoster(g),
            resolve=resolve_exact,
            day=2,
            night=night,
        )

    before = day_two(frozenset())  # the night post taken for the day's opening, as before
    assert {w.target: w.voters for w in before.wagons} == {
        "Orpheus": ("Jason",),
        "Paris": ("Icarus",),
    }
    votal = day_two(frozenset({9}))
    assert {w.target: w.voters for w in votal.wagons} == {"Paris": ("Icarus",)}
    night = [
        (a.post, a.voter, a.target, a.counted)
        for a in votal.actions
        if a.why_not == WhyNot.AT_NIGHT
    ]
    assert night == [(10, "Jason", "Orpheus", False)]
