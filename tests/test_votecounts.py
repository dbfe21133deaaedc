"""Reading a moderator's posted vote count, and holding it against Votal's reading: disagreements,
learned aliases."""

from __future__ import annotations

from dataclasses import replace

import pytest
from golden.harness import count_day, read_post
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import game_toml

from assistant.counting.day_replay import replay_day_watched
from assistant.counting.doubts import NOTE
from assistant.counting.votecounts import (
    AliveDisagreement,
    Disagreement,
    LearnedAlias,
    PostedWagon,
    check_count,
    describe_checks,
    learn_from_counts,
    learn_game,
    read_vote_count,
)
from assistant.gamefile.game import House, parse_game
from assistant.gamefile.rules import load_ruleset
from assistant.reading.names import NO_ELIMINATION, Roster

SEATS = ("Tfrost22", "Marigold", "Quentin", "Ysolde", "Bramble", "Odalys", "Pemberton")
GAME = game_toml(
    SEATS,
    title="Counts",
    thread="https://forum.example.org/viewtopic.php?t=3",
    moderators=["Warden"],
    days=[(1, 0)],
)


@pytest.mark.parametrize(
    "line",
    [
        "Marigold (2): Quentin, Ysolde",
        "Marigold [2] - Quentin, Ysolde",
        "Marigold - 2 - Quentin, Ysolde - (L-2)",
        "Marigold: 2 (Quentin, Ysolde)",
        "Marigold (2) - Quentin, Ysolde (L-2)",
        "Marigold (L-2): Quentin, Ysolde",  # votes still needed instead of votes
        "Marigold [L-2] - Quentin, Ysolde <--LYNCH",  # a note after the list
        '<div style="display:inline;font-weight:bold">Marigold</div> (L-2): Quentin, Ysolde',  # phpBB's old bold
        "Marigold: (2) Quentin, Ysolde",
        "Marigold (2/4): Quentin, Ysolde",  # two of the four needed
        "Marigold {2/4} - Quentin, Ysolde",
        "(2) Marigold \u2014 Quentin, Ysolde (L-2)",  # the number first
        "2 Marigold: Quentin, Ysolde",
        "2 Marigold (Quentin, Ysolde) L-2",
        "Marigold \u2013 Quentin, Ysolde (2)",  # the number last
        "Marigold (L-2) Quentin, Ysolde",  # the votes needed part the name from its voters
        "Marigold (L-2) | 2 votes: Quentin, Ysolde",
        "Marigold        2   Quentin, Ysolde",  # in columns
        "Marigold        2 (L-2) Quentin, Ysolde",
        "Marigold 2 votes: Quentin, Ysolde",
        "Marigold [2]: Quentin / Ysolde",  # voters parted by slashes, as many as the votes
        "Marigold (2, L-2): Quentin, Ysolde",  # the votes and the votes needed in one bracket
        "Marigold (2)(L-2) [Quentin, Ysolde]",  # the voters in one bracket
        "Marigold (3): Quentin, Quentin, Ysolde",  # a double voter listed twice
        "(2)Marigold: Quentin, Ysolde",  # the number first, no space after it
        "Marigold (2): Quentin. Ysolde",  # a full stop for a comma, as many names as the votes
        "L-2 (2) Marigold - Quentin, Ysolde",  # the votes needed set before the line
    ],
)
def test_each_style_of_wagon_line_is_read(line):
    count = read_vote_count(f"{line}<br>Bramble (1): Odalys<br>Not voting (1): Pemberton", post=40)
    assert count is not None
    assert count.wagons == (
        PostedWagon("Marigold", 3 if "Quentin, Quentin" in line else 2, ("Quentin", "Ysolde")),
        PostedWagon("Bramble", 1, ("Odalys",)),
    )
    assert count.not_voting == ("Pemberton",)


@pytest.mark.parametrize(
    "line",
    [
        "Not voting (2): Pemberton, Odalys",
        "Yet to vote (2): Pemberton, Odalys",
        "Not yet voting (2): Pemberton, Odalys",
        "Non-voters (2): Pemberton, Odalys",
        "Not voting : Pemberton, Odalys",  # no number: the not-voting line needs none
        "(2) (NOT VOTING) \u2014 Pemberton, Odalys",
    ],
)
def test_the_not_voting_line_is_no_wagon(line):
    count = read_vote_count(f"Marigold (2): Quentin, Ysolde<br>{line}", post=40)
    assert count.wagons == (PostedWagon("Marigold", 2, ("Quentin", "Ysolde")),)
    assert count.not_voting == ("Pemberton", "Odalys")


def test_a_line_without_a_number_beside_the_wagon_lines_is_a_wagon_too():
    body = (
        "Marigold (2): Quentin, Ysolde<br>Bramble: Odalys<br>Quentin: Pemberton<br><br>Deadline: Friday, noon<br>"
        "Not voting: Bramble"
    )
    count = read_vote_count(body, post=40)
    assert count.wagons == (
        PostedWagon("Marigold", 2, ("Quentin", "Ysolde")),
        PostedWagon("Bramble", 1, ("Odalys",)),
        PostedWagon("Quentin", 1, ("Pemberton",)),
    )
    # a count needs two wagon lines with numbers, or one and the not-voting line
    assert read_vote_count("Marigold (2): Quentin, Ysolde<br>Note: Ysolde is away", post=40) is None
    noted = read_vote_count(
        "Marigold (2): Quentin, Ysolde<br>Not voting: Bramble<br>Note: all votes are in", post=40
    )
    assert [w.target for w in noted.wagons] == ["Marigold"]  # not beside a wagon line


def test_a_hyphen_inside_a_name_is_no_separator_beside_the_votes_needed():
    count = read_vote_count("Mari-gold (L-2): Quentin, Ysolde<br>Bramble (L-3): Odalys", post=40)
    assert count.wagons == (
        PostedWagon("Mari-gold", 2, ("Quentin", "Ysolde")),
        PostedWagon("Bramble", 1, ("Odalys",)),
    )
    marked_last = read_vote_count(
        "Mari-gold: Quentin, Ysolde [L-2]<br>Bramble: Odalys [L-3]", post=40
    )
    assert marked_last.wagons == count.wagons


def test_a_count_may_open_with_its_non_voters():
    body = (
        "Not Voting: Pemberton<br>Bramble: Odalys<br>Marigold: Quentin, Ysolde (L-2)<br><br>"
        "Deadline: Friday"
    )
    count = read_vote_count(body, post=40)
    assert count.not_voting == ("Pemberton",)
    assert count.wagons == (
        PostedWagon("Bramble", 1, ("Odalys",)),
        PostedWagon("Marigold", 2, ("Quentin", "Ysolde")),
    )


def test_a_number_one_off_the_names_listed_is_the_moderator_s_slip_and_the_names_count():
    body = (
        "Marigold (2): Quentin, Ysolde, Odalys (L-2)<br>Bramble (1): Tfrost22<br>"
        "Not voting: Pemberton"
    )
    count = read_vote_count(body, post=40)
    assert count.wagons == (
        PostedWagon("Bramble", 1, ("Tfrost22",)),
        PostedWagon("Marigold", 3, ("Quentin", "Ysolde", "Odalys")),
    )
    # a slipped line never outweighs a line whose number fits, nor makes a post a count by itself
    clash = read_vote_count(
        "Marigold (1): Quentin, Ysolde<br>Bramble (1): Quentin<br>Odalys (1): Tfrost22", post=40
    )
    assert [w.target for w in clash.wagons] == ["Bramble", "Odalys"]
    alone = "Marigold (2): Quentin, Ysolde, Odalys<br>Bramble (2): Tfrost22"
    assert read_vote_count(alone, post=40) is None


def test_the_largest_wagon_named_above_the_count_is_no_wagon():
    body = (
        "The largest wagon is at L-2 (Marigold)<br><br>Bramble (2): Marigold, Odalys<br>"
        "Odalys (1): Quentin<br>Not voting: Ysolde"
    )
    count = read_vote_count(body, post=40)
    assert [w.target for w in count.wagons] == ["Bramble", "Odalys"]


def test_a_name_written_in_brackets_is_a_wagon_and_one_seat_s_two_accounts_stay_one_voter():
    count = read_vote_count(
        "[Marigold] (2): Quentin, Ysolde<br>Bramble (1): Odalys / Pemberton", post=40
    )
    assert count.wagons == (
        PostedWagon("[Marigold]", 2, ("Quentin", "Ysolde")),
        PostedWagon(
            "Bramble", 1, ("Odalys / Pemberton",)
        ),  # one vote: the old and new account of one seat
    )


def test_struck_and_quoted_votes_are_not_in_the_count():
    body = (
        "<blockquote><cite>Ysolde wrote:</cite>Quentin (5): a, b, c, d, e<br>Odalys (1): f</blockquote>"
        "Marigold (1): Quentin, <s>Ysolde</s><br>Bramble (1): Odalys"
    )
    count = read_vote_count(body, post=40)
    assert count.wagons == (
        PostedWagon("Marigold", 1, ("Quentin",)),
        PostedWagon("Bramble", 1, ("Odalys",)),
    )


@pytest.mark.parametrize(
    "body",
    [
        "I think Marigold (2) is scummy, and so is Bramble (1).",  # prose with numbers
        "Marigold (5): Quentin, Ysolde<br>Bramble (1): Odalys",  # numbers that do not match the voters
        "Marigold: 2 - Quentin, Ysolde<br>Bramble: 2 - Quentin, Odalys",  # a log: one voter on two wagons
        "Marigold (1): Quentin",  # one line, nothing else: not a count
        "Marigold: Quentin, Ysolde<br>Bramble: Odalys",  # no number and no votes needed: a list, not a count
        "(2) Marigold \u2014 Quentin, Ysolde<br>(2) Bramble \u2014 Odalys, Ysolde",  # a voter on two wagons
    ],
)
def test_what_is_not_a_count(body):
    assert read_vote_count(body, post=40) is None


def _setup(lines):
    game = parse_game(GAME)
    ruleset = load_ruleset(game.ruleset)
    posts = [read_post(line) for line in lines]
    roster = Roster.from_game(game, ruleset)
    return game, ruleset, posts, roster


def test_a_count_teaches_a_nickname_and_reports_each_disagreement():
    game, ruleset, posts, roster = _setup(
        [
            "1 Quentin: vote Icicle",
            "2 Ysolde: vote Marigold",
            "3 Odalys: vote Bramble",
            "4 Bramble: vote Marigold",
        ]
    )
    votal = count_day(game, posts, ruleset=ruleset, roster=roster, day=1, at_post=4)
    count = read_vote_count(
        "Tfrost22 (1): Quentin<br>Marigold (1): Ysolde<br>Odalys (1): Bramble", post=5
    )
    disagreements, learned = check_count(count, votal, roster, posts)
    assert disagreements == [
        Disagreement(
            5, "Bramble", "Odalys", "Marigold"
        ),  # the moderator slipped, or Votal misread post 4
        Disagreement(5, "Quentin", "Tfrost22", None),  # "Icicle": a name no spelling rule reaches
    ]
    assert learned == [LearnedAlias(5, "Quentin", "Icicle", "Tfrost22", cast=1)]


def test_a_no_lynch_wagon_is_read_as_no_elimination():
    game, ruleset, posts, roster = _setup(["1 Quentin: vote no lynch", "2 Ysolde: vote Marigold"])
    votal = count_day(game, posts, ruleset=ruleset, roster=roster, day=1, at_post=2)
    count = read_vote_count("No Lynch (1): Quentin<br>Marigold (1): Ysolde", post=3)
    assert check_count(count, votal, roster, posts) == ([], [])
    assert NO_ELIMINATION == "no elimination"


def test_a_learned_name_counts_from_the_count_that_taught_it_and_a_hammer_by_it_is_doubtful():
    game, ruleset, posts, roster = _setup(
        [
            "1 Quentin: vote Icicle",
            "2 Ysolde: vote Tfrost22",
            "3 Odalys: vote Tfrost22",
            "4 Warden:",  # the moderator's count
            "6 Bramble: vote Icicle",
        ]
    )
    count = read_vote_count(
        "Tfrost22 (3): Quentin, Ysolde, Odalys<br>Not voting (4): Bramble, x, y, z", post=4
    )
    learn_from_counts([count], game, ruleset, posts, roster, day=1)
    before = count_day(game, posts, ruleset=ruleset, roster=roster, day=1, at_post=3)
    assert [(w.target, w.voters) for w in before.wagons] == [
        ("Tfrost22", ("Ysolde", "Odalys"))
    ]  # as it was then
    after = count_day(game, posts, ruleset=ruleset, roster=roster, day=1, at_post=5)
    assert [(w.target, w.voters) for w in after.wagons] == [
        ("Tfrost22", ("Ysolde", "Odalys", "Quentin"))
    ]
    learned = [a for a in after.actions if a.step == "learned"]
    assert [(a.post, a.voter, a.target, a.doubt) for a in learned] == [
        (4, "Quentin", "Tfrost22", "learned alias")
    ]
    hammered = count_day(game, posts, ruleset=ruleset, roster=roster, day=1)
    assert (hammered.outcome.target, hammered.outcome.post) == ("Tfrost22", 6)
    # the outcome names the first doubt that holds the day
    assert hammered.outcome.doubt == "doubtful decision at post 6"


def test_a_hammer_by_a_short_prefix_is_marked_and_noted_without_holding_the_day():
    """The count marks the vote and keeps a note at its post; the calibration calls a prefix a
    note, so the outcome carries no doubt (what `votal count` prints)."""
    game, ruleset, posts, roster = _setup(
        [
            "1 Quentin: vote Marigold",
            "2 Ysolde: vote Marigold",
            "3 Odalys: vote Marigold",
            "4 Bramble: vote Mar",
        ]
    )
    votal = count_day(game, posts, ruleset=ruleset, roster=roster, day=1)
    assert votal.actions[-1].doubt == "short prefix"
    assert [(d.kind, d.post) for d in votal.doubts] == [(NOTE, 4)]
    assert votal.doubts[0].why.endswith("was read through a prefix; short prefix")
    assert votal.outcome.doubt is None
    sure = count_day(
        game,
        [*posts[:3], read_post("4 Bramble: vote Marigold")],
        ruleset=ruleset,
        roster=roster,
        day=1,
    )
    assert (sure.outcome.doubt, sure.doubts) == (None, ())


def test_a_hammer_in_a_broken_tag_is_a_note_in_the_count_the_moderator_reads():
    from assistant.counting.count import format_audit_text, format_votal_text
    from parsers.commands import extract_commands

    game, ruleset, posts, roster = _setup(
        ["1 Quentin: vote Marigold", "2 Ysolde: vote Marigold", "3 Odalys: vote Marigold"]
    )
    hammer = replace(
        posts[0],
        number=4,
        post_id="1004",
        author="Bramble",
        commands=tuple(extract_commands('<span class="bbvote">VOTE: Marigold[/vot]</span>')),
    )
    votal = count_day(game, [*posts, hammer], ruleset=ruleset, roster=roster, day=1)
    assert (votal.outcome.target, votal.outcome.post, votal.outcome.doubt) == ("Marigold", 4, None)
    shown = format_votal_text(game, votal).splitlines()
    assert "Outcome: Marigold lynched (majority, post 4)" in shown
    assert "[doubtful: broken tag]" in format_audit_text(votal)
    assert [(d.kind, d.post) for d in votal.doubts] == [(NOTE, 4)]


def test_a_vote_refused_for_sharing_its_line_is_doubtful_so_the_moderator_looks_at_it():
    game, ruleset, posts, roster = _setup(
        ["1 Quentin: vote Marigold", "2 Ysolde: inline vote Marigold"]
    )
    game = replace(game, house=House(votes_on_own_line=True))
    refused = count_day(game, posts, ruleset=ruleset, roster=roster, day=1).actions[-1]
    assert (refused.counted, refused.doubt) == (False, "off its own line")
    counted = count_day(
        replace(game, house=House()), posts, ruleset=ruleset, roster=roster, day=1
    ).actions[-1]
    assert (counted.counted, counted.doubt) == (True, None)


def test_a_voter_named_in_brackets_is_kept_and_a_note_after_a_voter_is_dropped():
    count = read_vote_count(
        "Marigold (2): [Odalys], Quentin (L-1)<br>Bramble (1): Ysolde [since 40]", post=41
    )
    assert count.wagons == (
        PostedWagon("Marigold", 2, ("[Odalys]", "Quentin")),
        PostedWagon("Bramble", 1, ("Ysolde",)),
    )


def test_voters_written_as_links_side_by_side_are_one_name_each():
    link = '<a href="https://forum.example.org/viewtopic.php?p={0}#p{0}">{1}</a>'
    body = (
        f"<b>Marigold (2)</b>: {link.format(11, 'Quentin')} {link.format(12, 'Ysolde Fay')}<br>"
        f"<b>Bramble (1)</b>: {link.format(13, 'Odalys')}"
    )
    count = read_vote_count(body, post=40)
    assert count.wagons == (
        PostedWagon("Marigold", 2, ("Quentin", "Ysolde Fay")),
        PostedWagon("Bramble", 1, ("Odalys",)),
    )


def test_a_count_stating_another_number_alive_is_a_disagreement():
    """Seven seats and no death in the game file, but the moderator's count says six alive: a death
    is missing on one side, and with it the majority."""
    game, ruleset, posts, roster = _setup(["1 Quentin: vote Marigold", "2 Ysolde: vote Marigold"])
    votal = count_day(game, posts, ruleset=ruleset, roster=roster, day=1, at_post=2)
    body = (
        "Marigold (2): Quentin, Ysolde<br>Not voting (4): Tfrost22, Bramble, Odalys, Pemberton<br>"
        "With 6 alive, 4 to lynch."
    )
    count = read_vote_count(body, post=3)
    assert count.alive == 6
    disagreements, _ = check_count(count, votal, roster, posts)
    assert disagreements == [AliveDisagreement(3, posted_alive=6, alive=7)]
    assert "says 6 alive; the game file gives 7" in disagreements[0].describe()
    agreeing = read_vote_count(body.replace("With 6 alive, 4", "With 7 alive, 4"), post=3)
    assert check_count(agreeing, votal, roster, posts) == ([], [])


def test_an_earlier_days_count_teaches_the_days_after_it():
    """Counting day 2 holds day 1's counts too: the nickname learned on day 1 is read on day 2."""
    text = GAME.replace(
        "start_post = 0\n", "start_post = 0\nend_post = 4\n[[days]]\nday = 2\nstart_post = 5\n"
    )
    game = parse_game(text)
    ruleset = load_ruleset(game.ruleset)
    posts = [
        read_post(line)
        for line in ["1 Quentin: vote Icicle", "2 Ysolde: vote Marigold", "6 Odalys: vote Icicle"]
    ]
    roster = Roster.from_game(game, ruleset)
    bodies = {
        3: "Tfrost22 (1): Quentin<br>Marigold (1): Ysolde",
        7: "Tfrost22 (1): Odalys<br>Not voting (1): Ysolde",
    }
    learning = learn_game(game, ruleset, posts, roster, bodies, [1, 2])
    checks, learned = learning.disagreements, learning.learned
    assert [(a.text, a.seat, a.post) for a in learned] == [("Icicle", "Tfrost22", 3)]
    assert set(checks) == {1, 2}
    day2 = count_day(game, posts, ruleset=ruleset, roster=roster, day=2)
    assert [(w.target, w.voters) for w in day2.wagons] == [("Tfrost22", ("Odalys",))]


_COMMANDS = st.sampled_from(
    [
        "vote Marigold",
        "vote Quentin",
        "vote Tfrost22",
        "unvote",
        "vote no lynch",
        "vote Frosty",
        "vote Nobodyhere",
        "vote Quentin; vote Marigold",
    ]
)


# The same examples every run (derandomize): a property test drawing new ones each run could fail
# once in CI and pass on the rerun, hiding what it found; no health check on how fast a loaded
# machine generates them. (4,000 random examples explored once found no failure.)
@settings(
    max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    lines=st.lists(st.tuples(st.sampled_from(SEATS), _COMMANDS), min_size=1, max_size=14),
    stops=st.sets(st.integers(min_value=1, max_value=16), min_size=1, max_size=5),
)
def test_one_watched_replay_shows_each_count_what_a_replay_as_of_the_post_before_it_gives(
    lines, stops
):
    """The one pass that holds every count of a day shows each the votal a replay as of the post
    before it gives: the same votes, living, outcome, actions and problems."""
    game, ruleset, posts, roster = _setup(
        [f"{n} {author}: {text}" for n, (author, text) in enumerate(lines, 1)]
    )
    shown: dict[int, object] = {}
    replay_day_watched(
        game, ruleset, posts, roster, day=1, watch=sorted(stops), seen=shown.__setitem__
    )
    assert sorted(shown) == sorted(stops)
    for stop, votal in shown.items():
        expected = count_day(game, posts, ruleset=ruleset, roster=roster, day=1, at_post=stop - 1)
        for name in ("wagons", "no_elimination", "living", "not_voting", "actions", "problems"):
            assert getattr(votal, name) == getattr(expected, name), (stop, name)
        # the outcome as replayed (the count adds its doubt to it afterwards)
        assert undoubted(votal.outcome) == undoubted(expected.outcome), stop


def test_a_disagreement_repeated_by_later_counts_is_one_line_naming_each_count():
    checks = [
        Disagreement(40, "Quentin", "Marigold", None),
        AliveDisagreement(40, 6, 7),
        Disagreement(55, "Quentin", "Marigold", None),
        Disagreement(55, "Ysolde", "Bramble", "Odalys"),
        AliveDisagreement(55, 6, 7),
        Disagreement(70, "Quentin", "Marigold", None),
    ]
    assert describe_checks(checks) == [
        "the counts at posts 40, 55 and 70 have Quentin on Marigold; Votal read not voting: one of them is wrong",
        "the counts at posts 40 and 55 say 6 alive; the game file gives 7: a death (or a return) is missing on one "
        "side, and with it the majority",
        "the count at post 55 has Ysolde on Bramble; Votal read Odalys: one of them is wrong",
    ]


def undoubted(outcome):
    return replace(outcome, doubt=None) if outcome is not None else None


def test_a_short_name_fitting_two_players_is_read_as_the_moderators_count_reads_it():
    """ "CD" is ChannelDart's initials, and Cedar's letters too: Votal guesses ChannelDart; the
    count reads Cedar, and from that count on the standing vote and later ones are Cedar's. A count
    that keeps the voter's earlier vote is behind the thread, and teaches nothing."""
    text = GAME + '[[players]]\nname = "ChannelDart"\n[[players]]\nname = "Cedar"\n'
    game = parse_game(text)
    ruleset = load_ruleset(game.ruleset)
    posts = [
        read_post(line)
        for line in [
            "1 Quentin: vote Cedar",
            "2 Ysolde: vote Cedar",
            "3 Odalys: vote CD",
            "4 Warden:",
            "5 Bramble: vote CD",
        ]
    ]
    roster = Roster.from_game(game, ruleset)
    count = read_vote_count("Cedar (3): Quentin, Ysolde, Odalys<br>Not voting: Bramble", post=4)
    learn_from_counts([count], game, ruleset, posts, roster, day=1)
    assert roster.learned == {"cd": ("Cedar", 4)}
    before = count_day(game, posts, ruleset=ruleset, roster=roster, day=1, at_post=3)
    assert [(w.target, w.voters) for w in before.wagons] == [
        ("Cedar", ("Quentin", "Ysolde")),
        ("ChannelDart", ("Odalys",)),
    ]
    after = count_day(game, posts, ruleset=ruleset, roster=roster, day=1)
    assert [(w.target, w.voters) for w in after.wagons] == [
        ("Cedar", ("Quentin", "Ysolde", "Odalys", "Bramble"))
    ]
    moved = [(a.post, a.voter, a.target, a.step) for a in after.actions if a.step == "learned"]
    assert moved == [(4, "Odalys", "Cedar", "learned"), (5, "Bramble", "Cedar", "learned")]

    behind = [read_post(x) for x in ("1 Odalys: vote Cedar", "2 Odalys: vote CD", "3 Warden:")]
    roster = Roster.from_game(game, ruleset)
    stale = read_vote_count("Cedar (1): Odalys<br>Not voting: Quentin", post=3)
    learn_from_counts([stale], game, ruleset, behind, roster, day=1)
    assert roster.learned == {}
