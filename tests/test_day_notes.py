"""Each day on its own evidence: the days folded from their start and end facts, and a note for a
day that does not fit its neighbours, told for that day alone."""

from __future__ import annotations

from assistant.gamefile.game import parse_game
from assistant.reading.announcements import Cite
from assistant.reading.announcements.days import DayDoubt, day_notes, fold_days
from assistant.reading.announcements.facts import DayEnd, DayStart
from assistant.upkeep.update import plan_update


def start(day: int, post: int) -> DayStart:
    return DayStart(day, post, None, Cite(post, f"Day {day} begins"))


def end(day: int, post: int) -> DayEnd:
    return DayEnd(day, post, Cite(post, f"Night {day} begins"))


def test_days_that_follow_fold_without_a_note():
    days = fold_days([start(1, 0), start(2, 40)], [end(1, 30), end(2, 70)])
    bounds = [(d.day, d.start.post, d.end.post) for d in days if d.start and d.end]
    assert bounds == [(1, 0, 30), (2, 40, 70)]
    assert day_notes(days) == []


def test_a_later_start_of_a_day_is_the_one_kept():
    days = fold_days([start(1, 0), start(1, 5)], [])
    assert [(d.day, d.start.post if d.start else None, d.end) for d in days] == [(1, 5, None)]


def test_a_day_skipped_is_a_note_for_that_day_only():
    days = fold_days([start(1, 0), start(2, 40), start(4, 120)], [end(1, 30), end(2, 70)])
    notes = day_notes(days)
    assert [(n.day, n.doubt) for n in notes] == [(3, DayDoubt.GAP)]
    assert str(notes[0]) == "day 3: no start or end read between day 2 and day 4: check [[days]]"
    # the later day keeps its own start
    assert [d.start.post for d in days if d.start] == [0, 40, 120]


def test_an_overlap_and_an_end_before_its_start_are_notes():
    days = fold_days([start(1, 0), start(2, 20), start(3, 90)], [end(1, 30), end(3, 80)])
    assert [(n.day, n.doubt) for n in day_notes(days)] == [
        (2, DayDoubt.OVERLAP),
        (3, DayDoubt.ENDS_BEFORE_START),
    ]


def test_a_day_announced_past_a_skipped_number_starts_there_and_the_skip_is_noted():
    from test_announcements import CHATTER, read_game

    facts = read_game(
        ("Host", "Elm has been lynched! Elm was a Vanilla Townie.<br>It is now Night 1."),
        ("Host", "Day 3 begins now. With 6 alive, it takes 4 to lynch."),
        *CHATTER,
        ("Host", "Alder has been lynched. Alder was a Mafia Goon.<br>Night 3 begins."),
    )
    assert [(s.day, s.post) for s in facts.day_starts] == [(1, 0), (3, 9)]
    assert [(e.day, e.post) for e in facts.day_ends] == [(1, 8), (3, 17)]
    assert [(e.day, e.player) for e in facts.eliminations] == [(1, "Elm"), (3, "Alder")]
    assert "day 2: no start or end read between day 1 and day 3: check [[days]]" in facts.problems


def test_a_file_kept_live_gets_the_day_after_a_skipped_number_and_a_note_for_the_skip():
    from support import stored_post
    from test_game_update import THREAD, chatter, game_text

    grown = [
        *THREAD[:11],
        *chatter(11, 13),  # day 1 lynched at post 10; night 1 talk
        stored_post(14, "Gardener", "<p>Day 3 begins now. With 6 alive, it takes 4 to lynch.</p>"),
        *chatter(15, 17),
    ]
    first = plan_update(game_text(), grown[:12], path="garden.toml")
    assert [(d.day, d.start_post, d.end_post) for d in parse_game(first.text).days] == [(1, 0, 10)]
    report = plan_update(first.text, grown, path="garden.toml")
    game = parse_game(report.text)
    assert [(d.day, d.start_post, d.end_post) for d in game.days] == [(1, 0, 10), (3, 14, None)]
    note = "reader: day 2: no start or end read between day 1 and day 3: check [[days]]"
    assert note in report.notes
