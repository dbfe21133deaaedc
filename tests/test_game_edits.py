"""Round-trip edits of the game file: comments and layout kept, each entry cited, the file wins,
twice is once."""

from datetime import UTC, datetime

import pytest

from assistant.errors import GameFileError
from assistant.gamefile.game import Death, EventKind, parse_game
from assistant.upkeep.edits import (
    AddDeath,
    AddEvent,
    AddPlayer,
    AddReplacement,
    EditRefused,
    Note,
    RemovePlayer,
    SetDay,
    SetDeadline,
    SetPageSize,
    apply_edits,
    check_edits,
    cite_comment,
)

GAME = """\
# Mini Normal 1901 -- keep this header
title = "Mini Normal 1901"
thread = "https://forum.example.org/viewtopic.php?t=1901"
ruleset = "mafiascum"
moderators = ["Host"]  # co-mod joins on day 2
timezone = "America/New_York"

[[players]]
name = "Alder"   # the first to sign up

[[players]]
name = "Birch"
replacements = ["Birch2"]

[[players]]
name = "Cedar"

[[days]]
day = 1
start_post = 0

# day 2 starts after the night

[private]
roles = { Alder = "Cop" }
"""


def cite(post: int, words: str) -> Note:
    return Note(words, post)


def test_a_day_end_is_written_beside_the_days_keys_with_its_cite_and_the_file_otherwise_untouched():
    result = apply_edits(
        GAME, [SetDay(1, cite(40, "Day 1 has ended. Cedar was lynched."), end_post=40)]
    )
    assert result.disagreements == ()
    assert result.written == ("days[1] (day 1).end_post = 40 (post 40)",)
    expected = GAME.replace(
        "start_post = 0\n",
        'start_post = 0\nend_post = 40  # post 40: "Day 1 has ended. Cedar was lynched."\n',
    )
    assert result.text == expected
    assert parse_game(result.text).days[0].end_post == 40


def test_new_entries_are_tables_after_their_kind_each_commented_and_the_private_table_stays_last():
    edits = [
        SetDay(2, cite(44, "Day 2 begins! Alder was found dead."), start_post=44),
        AddDeath("Alder", "night 1", cite(44, "Day 2 begins! Alder was found dead.")),
    ]
    result = apply_edits(GAME, edits)
    assert result.text.endswith(
        "# day 2 starts after the night\n"
        "\n"
        '[[days]]  # post 44: "Day 2 begins! Alder was found dead."\n'
        "day = 2\n"
        "start_post = 44\n"
        "\n"
        '[[deaths]]  # post 44: "Day 2 begins! Alder was found dead."\n'
        'player = "Alder"\n'
        'phase = "night 1"\n'
        "\n"
        "[private]\n"
        'roles = { Alder = "Cop" }\n'
    )
    game = parse_game(result.text)
    assert game.deaths == (Death("Alder", "night", 1),)
    assert [d.start_post for d in game.days] == [0, 44]


def test_applying_the_same_edits_twice_changes_nothing():
    edits = [
        SetDay(1, cite(40, "Day 1 is over"), end_post=40),
        SetDay(2, cite(44, "Day 2"), start_post=44, end=datetime(2026, 3, 5, 3, tzinfo=UTC)),
        AddDeath("birch2", "Night 1", cite(44, "Birch2 died")),
        AddReplacement("Cedar", "Cypress", 30, cite(30, "Cypress replaces Cedar")),
        AddPlayer("Dogwood", cite(2, "Dogwood joins")),
        AddEvent(2, EventKind.EXTEND, cite(50, "Extension: 24 hours"), hours=24, post=50),
    ]
    once = apply_edits(GAME, edits)
    assert len(once.written) == 6 and once.disagreements == ()
    twice = apply_edits(once.text, edits)
    assert twice.written == () and twice.disagreements == ()
    assert twice.text == once.text
    game = parse_game(once.text)
    assert game.days[1].end == datetime(2026, 3, 5, 3, tzinfo=UTC)
    assert (
        "end = 2026-03-04T22:00:00-05:00" in once.text
    )  # written in the game's zone, with its offset
    assert game.seat("Cedar").replacements == ("Cypress",) and game.seat(
        "Cedar"
    ).replacement_posts == (30,)
    assert (
        'replacements = [{name = "Cypress", post = 30}]  # post 30: "Cypress replaces Cedar"'
        in once.text
    )


def test_what_the_moderator_wrote_wins_and_the_difference_is_reported():
    text = GAME.replace("start_post = 0\n", "start_post = 0\nend_post = 38  # I ended it here\n")
    result = apply_edits(text, [SetDay(1, cite(40, "Day 1 is over"), end_post=40)])
    assert result.text == text
    assert result.written == ()
    assert result.disagreements == (
        "days[1] (day 1).end_post: the file says 38; post 40 says 40 (file kept)",
    )


def test_a_moderator_command_replaces_a_value_and_its_comment():
    text = GAME.replace("start_post = 0\n", "start_post = 0\nend_post = 38  # from votal update\n")
    result = apply_edits(text, [SetDay(1, cite(40, "Day 1 is over"), end_post=40)], replace=True)
    assert 'end_post = 40  # post 40: "Day 1 is over"\n' in result.text
    assert result.written == ("days[1] (day 1).end_post: 38 -> 40 (post 40)",)


def test_a_death_of_a_seat_already_dead_in_another_phase_is_a_disagreement():
    once = apply_edits(GAME, [AddDeath("Birch", "night 1", cite(44, "Birch died"))]).text
    result = apply_edits(
        once, [AddDeath("Birch2", "day 2", cite(60, "Birch2 was modkilled"), post=60)]
    )
    assert result.text == once
    assert result.disagreements[0].startswith(
        "deaths[1] (Birch).phase: the file says 'night 1'; post 60 says 'day 2'"
    )


def test_a_plain_replacement_is_kept_when_the_thread_gives_its_post_unless_the_moderator_asks():
    edit = AddReplacement("Birch", "Birch2", 25, cite(25, "Birch2 is in for Birch"))
    kept = apply_edits(GAME, [edit])
    assert kept.text == GAME and "file kept" in kept.disagreements[0]
    changed = apply_edits(GAME, [edit], replace=True)
    assert (
        'replacements = [{name = "Birch2", post = 25}]  # post 25: "Birch2 is in for Birch"'
        in changed.text
    )


def test_a_first_replacement_goes_beside_the_seats_keys_not_after_its_closing_comment():
    text = GAME.replace('name = "Cedar"\n', 'name = "Cedar"\n\n# days below\n')
    result = apply_edits(text, [AddReplacement("Cedar", "Cypress", 30, cite(30, "Cypress is in"))])
    assert (
        'name = "Cedar"\nreplacements = [{name = "Cypress", post = 30}]  # post 30: "Cypress is in"\n\n# days below\n'
        in (result.text)
    )


def test_a_replacement_already_holding_another_seat_is_a_disagreement():
    result = apply_edits(
        GAME, [AddReplacement("Alder", "birch2", 30, cite(30, "Birch2 replaces Alder"))]
    )
    assert result.text == GAME
    assert result.disagreements == (
        "players[1] (Alder).replacements: 'birch2' already holds the seat of Birch (post 30)",
    )


def test_removing_a_player_keeps_the_others_and_their_comments():
    result = apply_edits(GAME, [RemovePlayer("Cedar")])
    game = parse_game(result.text)
    assert [s.name for s in game.players] == ["Alder", "Birch"]
    assert 'name = "Alder"   # the first to sign up' in result.text
    assert "# day 2 starts after the night" in result.text


def test_players_are_added_to_a_file_with_none():
    bare = GAME.split("[[players]]")[0]
    result = apply_edits(
        bare, [AddPlayer(n, cite(0, "Players: Ash, Beech")) for n in ("Ash", "Beech")]
    )
    assert [s.name for s in parse_game(result.text).players] == ["Ash", "Beech"]
    assert result.text.startswith(bare)


def test_an_edit_that_would_leave_an_unreadable_file_is_refused():
    with pytest.raises(GameFileError, match=r"days\[2\].end_post: must not be before start_post"):
        apply_edits(GAME, [SetDay(2, cite(10, "Day 2"), start_post=30, end_post=20)])


def test_the_cite_is_one_short_line_without_control_or_bidi_characters():
    words = 'Day 1 is over!\n\nThe "town"\u202e lynched\tCedar. ' + "x" * 200
    comment = cite_comment(cite(40, words))
    assert comment.startswith("post 40: \"Day 1 is over! The 'town' lynched Cedar. xxx")
    assert comment.endswith('…"') and "\n" not in comment and "\u202e" not in comment
    assert len(comment) < 110


STORED = range(0, 120)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            SetDay(1, cite(500, ""), end_post=500),
            "post 500 is not in the stored thread (posts up to 119",
        ),
        (SetDay(2, cite(30, ""), start_post=30), "day 2: post 30 is before day 1's end (post 40)"),
        (SetDay(1, cite(70, ""), end_post=70), "day 1: post 70 is after day 2's start (post 44)"),
        (AddDeath("Elm", "night 1", cite(44, "")), "kill: 'Elm' is not a player"),
        (AddDeath("Alder", "dusk 1", cite(44, "")), "phase must look like 'night 2' or 'day 3'"),
        (
            AddDeath("Alder", "day 1", cite(50, ""), post=50),
            "kill: post 50 is not on day 1 (posts 0-40)",
        ),
        (AddDeath("Cedar", "night 2", cite(90, "")), "kill: Cedar is already dead (night 1)"),
        (AddReplacement("Elm", "Fir", 50, cite(50, "")), "replace: 'Elm' is not a player"),
        (
            AddReplacement("Alder", "Birch2", 50, cite(50, "")),
            "replace: 'Birch2' is already a name of the seat Birch",
        ),
        (AddReplacement("Alder", "Host", 50, cite(50, "")), "replace: 'Host' is a moderator"),
        (
            AddReplacement("Birch", "Beech", 20, cite(20, "")),
            "Birch's seat was already replaced at post 30",
        ),
        (AddPlayer("host", cite(1, "")), "player add: 'host' is a moderator"),
        (RemovePlayer("Cedar"), "player remove: Cedar is named in [[deaths]] (night 1)"),
        (RemovePlayer("Alder"), "player remove: Alder is named in [private]"),
        (RemovePlayer("Birch2"), "'Birch2' is a replacement in Birch's seat"),
    ],
)
def test_edits_that_contradict_the_thread_or_the_file_are_refused(edit, message):
    text = (
        GAME.replace(
            "start_post = 0\n",
            "start_post = 0\nend_post = 40\n\n[[days]]\nday = 2\nstart_post = 44\n",
        )
        .replace('replacements = ["Birch2"]', 'replacements = [{name = "Birch2", post = 30}]')
        .replace("[private]", '[[deaths]]\nplayer = "Cedar"\nphase = "night 1"\n\n[private]')
    )
    with pytest.raises(EditRefused) as caught:
        check_edits(parse_game(text, path="mini.toml"), [edit], posts=STORED)
    assert message in str(caught.value)


def test_a_consistent_edit_passes_the_checks():
    check_edits(
        parse_game(GAME),
        [SetDay(1, cite(40, ""), end_post=40), AddDeath("Alder", "night 1", cite(44, ""))],
        posts=STORED,
    )
    ended = parse_game(GAME.replace("start_post = 0\n", "start_post = 0\nend_post = 40\n"))
    check_edits(
        ended,
        [SetDay(2, cite(40, "Cedar was lynched. Day 2 begins!"), start_post=40)],
        posts=STORED,
    )


def test_without_stored_posts_a_post_cannot_be_checked_and_the_error_says_to_sync():
    with pytest.raises(EditRefused, match="no posts of this game are stored; run `votal sync"):
        check_edits(parse_game(GAME), [SetDay(1, cite(40, ""), end_post=40)], posts=())


def test_the_first_deadline_is_the_days_end_and_a_later_different_one_a_cited_event():
    first = SetDeadline(
        1, datetime(2026, 3, 3, 3, tzinfo=UTC), cite(0, "Deadline: Monday 10 pm EST")
    )
    moved = SetDeadline(
        1, datetime(2026, 3, 4, 3, tzinfo=UTC), cite(30, "Deadline extended to Tuesday 10 pm EST")
    )
    once = apply_edits(GAME, [first, moved, first])
    game = parse_game(once.text)
    assert game.days[0].end == datetime(2026, 3, 3, 3, tzinfo=UTC)
    assert [(e.day, e.kind, e.post, e.time) for e in game.events] == [
        (1, "deadline", 30, datetime(2026, 3, 4, 3, tzinfo=UTC))
    ]
    assert once.disagreements == ()
    assert apply_edits(once.text, [first, moved]).text == once.text


def test_a_listed_replacement_that_already_holds_a_seat_is_reported_not_written_twice():
    result = apply_edits(
        GAME, [AddPlayer("Dogwood", cite(0, "Dogwood (replaced by Birch2)"), ("Birch2", "Dw2"))]
    )
    assert parse_game(result.text).seat("Dogwood").replacements == ("Dw2",)
    assert result.disagreements == (
        "players: 'Birch2' is listed for Dogwood but already holds the seat of Birch (post 0)",
    )


def test_a_replacement_is_checked_against_a_seat_whose_replacements_have_no_posts():
    check_edits(
        parse_game(GAME),
        [AddReplacement("Birch2", "Birch3", 50, cite(50, "Birch3 in"))],
        posts=STORED,
    )


def test_the_files_local_times_are_compared_in_the_zone_load_game_reads_them_in():
    # A Millers Hollow file without `timezone`: its local times are West Coast time (the ruleset's
    # zone), so the thread's 11 am Pacific end is the end the file already holds, not a disagreement
    # with a UTC reading.
    text = (
        GAME.replace('ruleset = "mafiascum"', 'ruleset = "millers-hollow"')
        .replace('timezone = "America/New_York"\n', "")
        .replace("start_post = 0\n", "start_post = 0\nend = 2024-07-02T11:00:00\n")
    )
    end = datetime(2024, 7, 2, 18, 0, tzinfo=UTC)  # 11:00 PDT
    assert parse_game(text).day(1).end == end
    result = apply_edits(text, [SetDay(1, cite(40, "Day 1 ends at 11 am"), end=end)])
    assert (result.written, result.disagreements) == ((), ())


def test_a_page_size_goes_into_a_new_fetch_table_after_the_head_and_a_different_one_is_the_files_to_keep():
    first_page = Note("as the thread's first page shows")
    result = apply_edits(GAME, [SetPageSize(25, first_page)])
    assert result.written == ("fetch.posts_per_page = 25 (as the thread's first page shows)",)
    assert parse_game(result.text).fetch.posts_per_page == 25
    head, rest = result.text.split("[fetch]\n")
    assert head.endswith('timezone = "America/New_York"\n\n') and "[[players]]" not in head
    assert rest.startswith("posts_per_page = 25  # as the thread's first page shows\n\n[[players]]")
    assert apply_edits(result.text, [SetPageSize(25, first_page)]).text == result.text
    kept = apply_edits(result.text, [SetPageSize(10, first_page)])
    assert kept.text == result.text and kept.disagreements == (
        "fetch.posts_per_page: the file says 25; as the thread's first page shows says 10 (file kept)",
    )


def test_deaths_are_written_in_the_games_order_whichever_order_they_are_read_in():
    """A night kill read after a later lynch (the reader met it in a later post) goes before it, so
    a file kept live and one written at once list their deaths alike; a kill during a day goes
    before that day's lynch."""
    game = GAME.replace(
        "start_post = 0\n", "start_post = 0\nend_post = 30\n\n[[days]]\nday = 2\nstart_post = 31\n"
    )
    edits = [
        AddDeath("Alder", "day 2", cite(60, "Alder was lynched.")),
        AddDeath("Birch", "night 1", cite(70, "Birch had died in the night.")),
        AddDeath("Cedar", "day 2", cite(80, "Cedar was shot."), post=45),
    ]
    for order in (edits, edits[::-1], [edits[1], edits[0], edits[2]]):
        text = apply_edits(game, order).text
        assert [(d.player, d.phase, d.phase_number) for d in parse_game(text).deaths] == [
            ("Birch", "night", 1),
            ("Cedar", "day", 2),
            ("Alder", "day", 2),
        ]


def test_a_death_votal_revises_to_an_earlier_phase_moves_to_its_place_in_the_games_order():
    """Votal's reading of Alder's death from a later post (night 2) gives way to the lynch the
    thread tells at an earlier one (day 2): the entry moves before night 2's kill, where a file that
    read the lynch first has it."""
    game = GAME.replace(
        "start_post = 0\n", "start_post = 0\nend_post = 30\n\n[[days]]\nday = 2\nstart_post = 31\n"
    )
    lynch = AddDeath("Alder", "day 2", cite(60, "Alder was lynched."))
    kill = AddDeath("Birch", "night 2", cite(70, "Birch died in the night."))
    read_late = AddDeath("Alder", "night 2", cite(80, "Vote count 3.1"))

    def one_by_one(*edits):  # as `votal update` writes them
        text = game
        for edit in edits:
            text = apply_edits(text, [edit], revise=True).text
        return text

    revised = one_by_one(kill, read_late, lynch)
    assert [(d.player, d.phase, d.phase_number) for d in parse_game(revised).deaths] == [
        ("Alder", "day", 2),
        ("Birch", "night", 2),
    ]
    assert revised == one_by_one(lynch, kill)


def test_votals_reading_names_a_dead_seat_by_its_name_and_the_moderators_command_as_typed():
    """A fates list's "Birch2, killed Night 1" and a count that leaves Birch's seat out name one
    seat: Votal's reading writes it as the seat's name either way, so every reading of the thread
    writes the same entry; the moderator's own `votal kill Birch2` is written as typed."""
    read = apply_edits(
        GAME, [AddDeath("Birch2", "night 1", cite(30, "Birch2, killed Night 1"))], revise=True
    )
    assert 'player = "Birch"' in read.text
    typed = apply_edits(GAME, [AddDeath("Birch2", "night 1", cite(30, "votal kill"))], replace=True)
    assert 'player = "Birch2"' in typed.text
