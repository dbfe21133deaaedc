"""The doubt rules on small replays: what may change the outcome is a doubt, at its post; the rest
is a note."""

from __future__ import annotations

from dataclasses import replace

from golden.harness import count_day, read_post
from support import game_toml

from assistant.counting.doubts import (
    DOUBTFUL_DECISION,
    MODERATOR_DISAGREES,
    NOTE,
    POSSIBLE_HAMMER,
    UNEXPLAINED_ENDING,
    doubts_only,
    find_doubts,
)
from assistant.counting.votecounts import AliveDisagreement, Disagreement
from assistant.gamefile.game import parse_game
from assistant.gamefile.rules import load_ruleset
from assistant.reading.names import Roster

SEATS = (
    "Tfrost22",
    "Marigold",
    "Quentin",
    "Ysolde",
    "Bramble",
    "Odalys",
    "Pemberton",
)  # 7: 4 is a majority


def game_of(tables: str = "[[days]]\nday = 1\nstart_post = 0\n"):
    return parse_game(
        game_toml(
            SEATS,
            title="Doubts",
            thread="https://forum.example.org/viewtopic.php?t=3",
            moderators=["Warden"],
            tables=tables,
        )
    )


def doubts(lines, tables: str | None = None, *, rules: dict | None = None, **changes):
    game = game_of(tables) if tables is not None else game_of()
    ruleset = load_ruleset("mafiascum").with_options(**(rules or {}))
    votal = count_day(
        game,
        [read_post(line) for line in lines],
        ruleset=ruleset,
        roster=Roster.from_game(game, ruleset),
        day=1,
    )
    votal = replace(votal, **changes) if changes else votal
    return votal, find_doubts(votal, game, ruleset)


def kinds(found) -> list[tuple[str, int | None]]:
    return [(d.kind, d.post) for d in found]


THREE_ON_MARIGOLD = [
    "1 Quentin: vote Marigold",
    "2 Ysolde: vote Marigold",
    "3 Bramble: vote Marigold",
]


def test_a_quiet_count_has_no_doubt():
    _, found = doubts(["1 Quentin: vote Marigold", "2 Ysolde: vote Bramble"])
    assert found == ()


def test_a_vote_by_an_unlisted_account_that_would_be_the_hammer_is_a_possible_hammer():
    # Odalys posted: the look-alike account holds no silent seat (the count would take it for hers)
    votal, found = doubts(["0 Odalys:", *THREE_ON_MARIGOLD, "4 Odalys2: vote Marigold"])
    assert votal.outcome is None or votal.outcome.kind != "elimination"
    (doubt,) = doubts_only(found)
    assert (doubt.kind, doubt.post, doubt.target) == (POSSIBLE_HAMMER, 4, "Marigold")
    assert doubt.why.endswith("counted, it is a majority on Marigold (4 of 4)")


def test_two_uncounted_votes_together_close_the_gap():
    # neither alone reaches 4, both standing together do: the second is the possible hammer
    _, found = doubts(
        [
            "1 Quentin: vote Marigold",
            "2 Ysolde: vote Marigold",
            "3 Stranger: vote Marigold",
            "4 Outsider: vote Marigold",
        ]
    )
    assert kinds(doubts_only(found)) == [(POSSIBLE_HAMMER, 4)]
    assert kinds(found)[-1] == (NOTE, 3)


def test_an_uncounted_vote_replaced_by_its_voters_counted_vote_no_longer_stands():
    # Ysolde's unreadable vote is replaced by a readable one elsewhere: nothing can close the gap
    _, found = doubts(
        [
            "1 Quentin: vote Marigold",
            "2 Ysolde: vote Marigld zz",
            "3 Ysolde: vote Bramble",
            "4 Stranger: vote Marigold",
        ]
    )
    assert doubts_only(found) == []


def test_an_unreadable_name_that_looks_like_the_wagon_one_short_says_so():
    _, looks = doubts([*THREE_ON_MARIGOLD, "4 Odalys: vote Marigold or Bramble"])
    (doubt,) = doubts_only(looks)
    assert (doubt.kind, doubt.post, doubt.target) == (POSSIBLE_HAMMER, 4, "Marigold")
    assert doubt.why.endswith(
        "(several targets: Bramble or Marigold); if it names Marigold, it is a majority (4 of 4)"
    )


def test_an_unreadable_name_one_short_of_a_majority_is_a_wildcard_for_any_wagon():
    # nothing like a seat's name, yet the moderator may read it otherwise: for Marigold, it hammers
    _, found = doubts([*THREE_ON_MARIGOLD, "4 Odalys: vote extension please"])
    (doubt,) = doubts_only(found)
    assert (doubt.kind, doubt.post, doubt.target) == (POSSIBLE_HAMMER, 4, "Marigold")
    assert doubt.why == (
        f"1 vote {WILD1}: Odalys's 'vote extension please' (post 4: unknown name); "
        f"counted for Marigold (3 of 4), it makes a majority (4): {CHECK1}"
    )


def test_a_vote_far_from_a_majority_is_a_note():
    _, found = doubts(["1 Quentin: vote Marigold", "2 Stranger: vote Marigold"])
    assert kinds(found) == [(NOTE, 2)]


def test_a_hammer_read_by_a_guessed_spelling_is_doubtful_and_by_initials_a_note():
    _, guessed = doubts([*THREE_ON_MARIGOLD, "4 Odalys: vote Marigodl"])
    assert kinds(doubts_only(guessed)) == [(DOUBTFUL_DECISION, 4)]
    _, plain = doubts([*THREE_ON_MARIGOLD, "4 Odalys: vote Marigold"])
    assert plain == ()


def test_players_voting_on_after_the_hammer_make_it_doubtful():
    late = ["5 Quentin: vote Odalys", "6 Ysolde: vote Odalys", "7 Tfrost22: vote Odalys"]
    _, found = doubts([*THREE_ON_MARIGOLD, "4 Odalys: vote Marigold", *late])
    (doubt,) = doubts_only(found)
    assert (doubt.kind, doubt.post) == (DOUBTFUL_DECISION, 4)
    _, two = doubts([*THREE_ON_MARIGOLD, "4 Odalys: vote Marigold", *late[:2]])
    assert doubts_only(two) == []  # two late votes happen on days decided right


def test_the_moderators_latest_count_matters_only_about_the_wagon_at_stake():
    lines = ["1 Quentin: vote Marigold", "2 Ysolde: vote Marigold", "3 Bramble: vote Odalys"]
    on_leader = Disagreement(5, "Pemberton", "Marigold", None)
    elsewhere = Disagreement(5, "Bramble", "Quentin", "Odalys")
    _, found = doubts(lines, count_checks=(on_leader, elsewhere))
    assert [(d.kind, d.target) for d in doubts_only(found)] == [(MODERATOR_DISAGREES, "Marigold")]
    # an earlier count, superseded by a later one, says nothing
    _, later = doubts(lines, count_checks=(replace(on_leader, post=2), replace(elsewhere, post=5)))
    assert doubts_only(later) == []
    # a number alive the count states otherwise is a note
    _, alive = doubts(lines, count_checks=(AliveDisagreement(5, 9, 7),))
    assert kinds(alive) == [(NOTE, 5)]


def test_a_recorded_lynch_without_a_majority_is_an_ending_votal_cannot_explain():
    tables = (
        "[[days]]\nday = 1\nstart_post = 0\nend_post = 9\n\n"
        '[[deaths]]\nplayer = "Marigold"\nphase = "day 1"\n'
    )
    votal, found = doubts(
        ["1 Quentin: vote Marigold", "2 Ysolde: vote Marigold", "9 Warden: vote Quentin"], tables
    )
    assert votal.outcome.reason == "plurality"  # taken as the moderator's ruling...
    assert kinds(doubts_only(found)) == [(UNEXPLAINED_ENDING, 9)]  # ...but never silently
    house = tables.replace("[[days]]", "[house]\ndeadline_plurality = true\n\n[[days]]", 1)
    _, ruled = doubts(
        ["1 Quentin: vote Marigold", "2 Ysolde: vote Marigold", "9 Warden: vote Quentin"], house
    )
    assert doubts_only(ruled) == []


def test_a_day_that_ended_by_its_deadline_rule_is_explained():
    tables = "[[days]]\nday = 1\nstart_post = 0\nend_post = 9\n"
    votal, found = doubts(["1 Quentin: vote Marigold", "9 Warden: vote Quentin"], tables)
    assert (votal.outcome.kind, votal.outcome.reason) == ("no_elimination", "deadline")
    assert doubts_only(found) == []


def test_no_lynch_with_a_wagon_one_vote_short_asks_to_check_the_living_and_the_votes():
    # "more than half of the living": one death the game file lacks puts the majority one too high
    tables = "[[days]]\nday = 1\nstart_post = 0\nend_post = 9\n"
    votal, found = doubts([*THREE_ON_MARIGOLD, "9 Warden: vote Quentin"], tables)
    assert (votal.outcome.kind, votal.majority) == ("no_elimination", 4)
    (doubt,) = doubts_only(found)
    assert (doubt.kind, doubt.target) == (UNEXPLAINED_ENDING, "Marigold")
    assert "one vote short (3 of 4)" in doubt.why and "a death missing" in doubt.why
    # two short is an ordinary no lynch
    _, far = doubts(
        ["1 Quentin: vote Marigold", "2 Ysolde: vote Marigold", "9 Warden: vote Quentin"], tables
    )
    assert doubts_only(far) == []


def test_an_uncounted_vote_that_would_make_it_unanimous_minus_one():
    five = [
        f"{n} {seat}: vote Marigold"
        for n, seat in enumerate(("Quentin", "Ysolde", "Bramble", "Odalys"), 1)
    ]
    rules = {"early_end": ("unanimous_minus_one",)}
    # Tfrost22 posted: the look-alike account holds no silent seat (the count would take it)
    lines = ["0 Tfrost22:", *five, "5 Pemberton: vote Marigold", "6 Tfrost23: vote Marigold"]
    _, found = doubts(lines, rules=rules)
    (doubt,) = doubts_only(found)
    assert (doubt.kind, doubt.post, doubt.target) == (POSSIBLE_HAMMER, 6, "Marigold")
    assert doubt.why.endswith("counted, it is unanimous minus one on Marigold (6 of 7)")


def test_at_a_plurality_deadline_uncounted_votes_that_change_the_leader():
    tables = "[[days]]\nday = 1\nstart_post = 0\nend_post = 9\n"
    rules = {"decide": "plurality", "early_end": ()}
    tied = [
        "1 Quentin: vote Marigold",
        "2 Ysolde: vote Marigold",
        "3 Bramble: vote Pemberton",
        "4 Odalys: vote Pemberton",
    ]
    votal, found = doubts(
        [*tied, "5 Stranger: vote Marigold", "9 Warden: vote Quentin"], tables, rules=rules
    )
    assert (votal.outcome.kind, votal.outcome.reason) == ("no_elimination", "tie")
    (doubt,) = doubts_only(found)
    assert (doubt.kind, doubt.post, doubt.target) == (POSSIBLE_HAMMER, 5, "Marigold")
    assert "would make Marigold lead at the deadline (3 votes)" in doubt.why
    # an uncounted vote that leaves the same tie changes nothing; one that makes a lead a tie does
    _, same = doubts(
        [*tied, "5 Stranger: vote Bramble", "9 Warden: vote Quentin"], tables, rules=rules
    )
    assert doubts_only(same) == []
    _, tie = doubts(
        [*tied[:3], "5 Stranger: vote Pemberton", "9 Warden: vote Quentin"], tables, rules=rules
    )
    assert [d.why for d in doubts_only(tie)] == [
        "the votes not counted, counted, would make Marigold and Pemberton lead at the deadline (2 votes), not what "
        "Votal decided"
    ]


def test_a_lynch_the_game_file_moved_past_without_recording_is_the_moderator_disagreeing():
    # Marigold reaches 4 of 7 at post 4, but the file records day 1's end and day 2's start, and no
    # lynch
    lines = [*THREE_ON_MARIGOLD, "4 Odalys: vote Marigold", "9 Warden: vote Quentin"]
    two_days = (
        "[[days]]\nday = 1\nstart_post = 0\nend_post = 9\n\n[[days]]\nday = 2\nstart_post = 9\n"
    )
    votal, found = doubts(lines, two_days)
    assert (votal.outcome.kind, votal.outcome.target, votal.outcome.post) == (
        "elimination",
        "Marigold",
        4,
    )
    (doubt,) = doubts_only(found)
    assert (doubt.kind, doubt.post, doubt.target) == (MODERATOR_DISAGREES, 4, "Marigold")
    assert doubt.why.startswith(
        "the game file records day 1's end at post 9 with no death of Marigold, but Votal's "
        "count lynches Marigold at post 4"
    )
    # the lynch recorded: nothing to say; the next day not yet recorded: the file is merely behind
    _, recorded = doubts(lines, two_days + '\n[[deaths]]\nplayer = "Marigold"\nphase = "day 1"\n')
    assert doubts_only(recorded) == []
    _, behind = doubts(lines, "[[days]]\nday = 1\nstart_post = 0\nend_post = 9\n")
    assert doubts_only(behind) == []
    # a count as of a post before the day's end is not held against the ending
    early = count_day(
        game_of(two_days),
        [read_post(line) for line in lines[:4]],
        ruleset=load_ruleset("mafiascum"),
        roster=Roster.from_game(game_of(two_days), load_ruleset("mafiascum")),
        day=1,
    )
    assert doubts_only(find_doubts(early, game_of(two_days), load_ruleset("mafiascum"))) == []


def test_a_count_with_fewer_alive_is_a_doubt_when_its_majority_decides_the_day():
    # 7 alive in the file (4 is a majority); the moderator's count at post 2 says 5 alive (3 is a
    # majority)
    votal, found = doubts(THREE_ON_MARIGOLD, count_checks=(AliveDisagreement(2, 5, 7),))
    assert votal.outcome is None  # Votal waits for a fourth vote...
    (doubt,) = doubts_only(
        found
    )  # ...which, if the moderator's number is right, the day no longer needs
    assert (doubt.kind, doubt.post, doubt.target) == (MODERATOR_DISAGREES, 3, "Marigold")
    assert doubt.why == (
        "the moderator's count says 5 alive, the game file gives 7 (count at post 2): with 5 alive, "
        "Marigold has a majority at post 3 (3 of 3): a death may be missing from the game file"
    )
    # no wagon reaching the count's majority: a note
    _, far = doubts(THREE_ON_MARIGOLD[:2], count_checks=(AliveDisagreement(2, 5, 7),))
    assert kinds(far) == [(NOTE, 2)]


def test_votes_naming_an_account_that_votes_without_a_seat_are_a_possible_hammer_at_a_majority():
    # "Nightjar" posts and votes but holds no seat (an unannounced replacement); players vote it by
    # its name
    lines = [
        "1 Nightjar: vote Quentin",
        "2 Quentin: vote night",
        "3 Ysolde: vote Nightjar",
        "4 Bramble: vote Nightjar",
    ]
    _, three = doubts(lines)
    assert doubts_only(three) == []  # 3 of 4: a note each
    _, found = doubts([*lines, "5 Nightjar: vote Nightjar"])
    (doubt,) = doubts_only(found)
    assert (doubt.kind, doubt.post, doubt.target) == (POSSIBLE_HAMMER, 5, None)
    assert doubt.why.endswith(
        "the votes naming Nightjar, an account that votes without a seat, are a majority if it "
        "holds one (4 of 4)"
    )
    # an account that never voted is not known to be in the game, but four votes Votal cannot place
    # could be four votes on one wagon: a wildcard doubt, not the stranger's
    _, unknown = doubts(lines[1:] + ["5 Odalys: vote Nightjar"])
    (doubt,) = doubts_only(unknown)
    assert (doubt.post, doubt.why.split(":")[0]) == (5, f"4 votes {WILD}")


def test_a_seats_refused_vote_still_standing_when_a_counted_vote_completes_the_wagon():
    # the game file has Pemberton dead (6 alive: 4 is a majority), but Pemberton votes Marigold
    # first; three counted votes follow: with Pemberton's vote standing, the third is a majority
    dead = (
        '[[days]]\nday = 1\nstart_post = 0\n\n[[deaths]]\nplayer = "Pemberton"\nphase = "night 0"\n'
    )
    votal, found = doubts(
        [
            "1 Pemberton: vote Marigold",
            *[f"{n + 1}{line[1:]}" for n, line in enumerate(THREE_ON_MARIGOLD, 1)],
        ],
        dead,
    )
    assert votal.outcome is None
    (doubt,) = doubts_only(found)
    assert (doubt.kind, doubt.post, doubt.target) == (POSSIBLE_HAMMER, 4, "Marigold")
    assert doubt.why == (
        "Bramble's 'vote Marigold' brings Marigold to 4 of 4 with the votes not counted still "
        "standing (Pemberton): counted, it is a majority"
    )
    # an unlisted account's vote may be stale (the account replaced out): this rule weighs it
    # only when cast; the wildcard rule says, where it stands, that it may be a seat's
    _, stranger = doubts(
        [
            "1 Stranger: vote Marigold",
            *[f"{n + 1}{line[1:]}" for n, line in enumerate(THREE_ON_MARIGOLD[:2], 1)],
            "4 Odalys: vote Marigold",
        ]
    )
    (doubt,) = doubts_only(stranger)
    assert doubt.post == 4 and doubt.why.startswith(f"1 vote {WILD1}: Stranger's")


# -- wildcards: uncounted votes by voters who are, or may be, seats --------------------------------

WILD = "not counted could each be for any wagon"
WILD1 = "not counted could be for any wagon"  # one vote: no "each"
CHECK1 = "check who cast it and whom it names"
CHECK = "check who cast them and whom they name"


def test_wildcards_of_distinct_voters_together_reach_a_majority_once_at_the_post_they_first_do():
    lines = [
        "1 Quentin: vote Marigold",
        "2 Ysolde: vote Marigold",
        "3 Odalys: vote Xyzzy",
        "4 Newcomer: vote whoever",
        "5 Bramble: vote Quentin",
        "6 Newcomer: vote whoever again",
    ]
    votal, found = doubts(lines)
    assert votal.outcome is None or votal.outcome.kind != "elimination"
    (doubt,) = doubts_only(found)
    assert (doubt.kind, doubt.post, doubt.target) == (POSSIBLE_HAMMER, 4, "Marigold")
    assert doubt.why == (
        f"2 votes {WILD}: Odalys's 'vote Xyzzy' (post 3: unknown name); "
        "Newcomer's 'vote whoever' (post 4: not a player); counted for Marigold "
        f"(2 of 4), they make a majority (4): {CHECK}"
    )


def test_a_wildcard_voter_who_votes_again_readably_is_no_wildcard_any_more():
    _, found = doubts(
        [
            "1 Quentin: vote Marigold",
            "2 Ysolde: vote Marigold",
            "3 Odalys: vote Xyzzy",
            "4 Odalys: vote Pemberton",
            "5 Newcomer: vote whoever",
        ]
    )
    assert doubts_only(found) == []


def test_an_unreadable_name_is_never_for_the_voters_own_wagon():
    # a player spells their own name so that it reads: Marigold's unreadable vote names someone else
    _, own = doubts([*THREE_ON_MARIGOLD, "4 Marigold: vote extension please"])
    assert doubts_only(own) == []


def test_a_day_closed_without_a_decision_while_wildcards_could_have_decided_it():
    tables = "[[days]]\nday = 1\nstart_post = 0\nend_post = 9\n"
    lines = [
        *THREE_ON_MARIGOLD,
        "4 Newcomer: vote whoever",
        "5 Odalys: vote Quentin",
        "6 Odalys: vote Pemberton",
        "9 Warden: vote Quentin",
    ]
    _, found = doubts(lines, tables)
    wild = [d for d in doubts_only(found) if d.kind == POSSIBLE_HAMMER]
    assert [(d.post, d.target) for d in wild] == [(4, "Marigold"), (9, "Marigold")]
    assert wild[1].why.startswith(
        "the day ended at post 9 without a majority in Votal's count; "
        f"1 vote {WILD1}: Newcomer's 'vote whoever'"
    )
    assert kinds(doubts_only(found)) == [(POSSIBLE_HAMMER, 4), (POSSIBLE_HAMMER, 9)]


def test_wildcards_count_with_their_vote_weights():
    lines = ["1 Quentin: vote Marigold", "2 Ysolde: vote Marigold", "3 Odalys: vote Xyzzy"]
    assert doubts_only(doubts(lines)[1]) == []  # one vote cannot close a gap of two
    game = parse_game(_weighted("Odalys", 2))
    ruleset = load_ruleset("mafiascum")
    roster = Roster.from_game(game, ruleset)
    votal = count_day(
        game, [read_post(line) for line in lines], ruleset=ruleset, roster=roster, day=1
    )
    (doubt,) = doubts_only(find_doubts(votal, game, ruleset))
    assert (doubt.post, doubt.target) == (3, "Marigold")
    assert doubt.why.endswith(f"counted for Marigold (2 of 4), it makes a majority (4): {CHECK1}")


def _weighted(seat: str, weight: int) -> str:
    """The test game's file with ``seat`` casting ``weight`` votes."""
    players = "".join(
        f'[[players]]\nname = "{name}"\n' + f"vote_weight = {weight}\n" * (name == seat)
        for name in SEATS
    )
    return (
        'title = "Doubts"\nthread = "https://forum.example.org/viewtopic.php?t=3"\n'
        'ruleset = "mafiascum"\nmoderators = ["Warden"]\n'
        "[[days]]\nday = 1\nstart_post = 0\n" + players
    )


# -- seats learned from the moderator's counts ----------------------------------------------------


def test_a_seat_held_by_an_unlisted_account_counts_with_a_note_and_a_doubt_when_it_decides():
    from assistant.counting.takeovers import Takeover, with_holders

    holder = Takeover("Pemberton", "Newcomer", 4, (5,), "name")
    game = with_holders(game_of(), [holder])
    assert game.seat("Pemberton").accounts == ("Pemberton", "Newcomer")
    assert game.seat("Pemberton").replacement_posts == (4,)
    assert with_holders(game, [holder]) == game  # a seat that lists the account already: kept
    ruleset = load_ruleset("mafiascum")
    lines = [*THREE_ON_MARIGOLD, "4 Newcomer: vote Marigold"]
    roster = Roster.from_game(game, ruleset)
    votal = count_day(
        game, [read_post(line) for line in lines], ruleset=ruleset, roster=roster, day=1
    )
    outcome = votal.outcome
    assert (outcome.kind, outcome.target, outcome.post) == ("elimination", "Marigold", 4)
    found = find_doubts(votal, game, ruleset, [holder])
    assert kinds(found) == [(DOUBTFUL_DECISION, 4), (NOTE, 4)]
    assert found[0].why.startswith(
        "the vote that decided the day, Newcomer's 'vote Marigold' for "
        "Marigold, counts for Pemberton's seat only as the moderator's "
        "counts show it"
    )
    assert found[1].why == (
        "Newcomer is counted in Pemberton's seat from post 4: the count at "
        "post 5 lists Newcomer where Pemberton was; Newcomer posts from post 4; "
        "`votal update` writes it into the game file"
    )
    # not the deciding vote: the note alone
    early = count_day(
        game,
        [read_post(line) for line in ["4 Newcomer: vote Quentin"]],
        ruleset=ruleset,
        roster=Roster.from_game(game, ruleset),
        day=1,
    )
    assert kinds(find_doubts(early, game, ruleset, [holder])) == [(NOTE, 4)]


def test_the_wildcard_of_a_seat_that_died_since_no_longer_stands():
    killed = (
        '[[days]]\nday = 1\nstart_post = 0\n\n[[deaths]]\nplayer = "Odalys"\nphase = "day 1"\n'
        "post = 4\n"
    )
    lines = [
        "1 Quentin: vote Marigold",
        "2 Ysolde: vote Marigold",
        "3 Odalys: vote Xyzzy",
        "5 Bramble: vote Marigold",
    ]
    _, found = doubts(lines, killed)
    assert [d for d in doubts_only(found) if "any wagon" in d.why] == []
    _, alive = doubts(lines)  # alive, her unreadable vote could close it once Bramble votes
    assert [(d.kind, d.post) for d in doubts_only(alive)] == [(POSSIBLE_HAMMER, 5)]


# Marigold died in night 0 by the file; the players go on voting for her
MARIGOLD_DEAD = (
    '[[days]]\nday = 1\nstart_post = 0\nend_post = 9\n\n[[deaths]]\nplayer = "Marigold"\n'
    'phase = "night 0"\n'
)


def test_votes_for_a_seat_the_file_has_dead_that_would_be_its_majority_doubt_that_death():
    # 6 alive by the file; with Marigold alive, 7 and a majority of 4
    lines = [
        "1 Quentin: vote Marigold",
        "2 Ysolde: vote Marigold",
        "3 Bramble: vote Marigold",
        "4 Odalys: vote Marigold",
        "9 Warden: vote Quentin",
    ]
    votal, found = doubts(lines, MARIGOLD_DEAD)
    assert votal.outcome.kind == "no_elimination"
    assert [a.target for a in votal.actions if a.why_not == "target is dead"] == ["Marigold"] * 4
    (doubt,) = doubts_only(found)
    assert (doubt.kind, doubt.post, doubt.target) == (POSSIBLE_HAMMER, 4, "Marigold")
    assert "whom the game file has dead (alive, 4 of 4 at post 4)" in doubt.why


def test_a_no_lynch_with_two_last_votes_on_a_dead_seat_doubts_that_death_and_one_does_not():
    two = ["1 Quentin: vote Marigold", "2 Ysolde: vote Marigold", "9 Warden: vote Quentin"]
    (doubt,) = doubts_only(doubts(two, MARIGOLD_DEAD)[1])
    assert (doubt.kind, doubt.target) == (UNEXPLAINED_ENDING, "Marigold")
    assert doubt.why.startswith("Quentin, Ysolde vote for Marigold, whom the game file has dead")
    # one slip, or a vote taken back, is no doubt
    assert doubts_only(doubts(two[:1] + two[2:], MARIGOLD_DEAD)[1]) == []
    moved = [*two[:2], "3 Ysolde: unvote", "9 Warden: vote Quentin"]
    assert doubts_only(doubts(moved, MARIGOLD_DEAD)[1]) == []
