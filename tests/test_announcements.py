"""The thread reader: moderators, player lists and announcements in the styles moderators write
them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from assistant.reading.announcements import Cite, read_lines, read_thread_facts
from assistant.reading.announcements.phases import read_dawn
from assistant.reading.announcements.state import State
from parsers.page import Post

START = datetime(2026, 3, 2, 15, 0, tzinfo=UTC)  # a Monday


def make_thread(*posts: tuple[str, str]) -> list[Post]:
    return [
        Post(str(1000 + n), n, author, START + timedelta(hours=n), body, f"https://f.example/p{n}")
        for n, (author, body) in enumerate(posts)
    ]


PLAYERS = ("Alder", "Birch", "Cedar", "Damson", "Elm", "Fir", "Gorse")
CHATTER = tuple((name, f"hello from {name}") for name in PLAYERS)


def read_game(*posts: tuple[str, str], **options: int):
    """The facts of a thread whose opening post lists PLAYERS, each of whom says hello, then
    ``posts``."""
    roster = "<br>".join(PLAYERS)
    return read_thread_facts(
        make_thread(("Host", f"Players<br>{roster}"), *CHATTER, *posts), **options
    )


def test_numbered_list_with_struck_replacement_and_co_moderator():
    opening = (
        "Welcome to the game!<br>Mod: Host<br>Co-mod: Helper<br>Backup mod: Spare<br><br>"
        "<b>Players</b><br>1. Alder<br>2. <s>Oldbirch</s> Birch<br>3. Cedar replaced Cypress<br>"
        "4. Damson<br>5. Elm<br>6. Fir<br>7. Gorse, Vanilla Townie, lynched Day 1<br><br>Rules: be nice."
    )
    facts = read_thread_facts(make_thread(("Host", opening), *CHATTER, ("Cypress", "hi")))
    assert facts.moderators == ("Host", "Helper")
    assert [(p.name, p.replacements, p.dead) for p in facts.players] == [
        ("Alder", (), False),
        ("Oldbirch", ("Birch",), False),
        ("Cypress", ("Cedar",), False),
        ("Damson", (), False),
        ("Elm", (), False),
        ("Fir", (), False),
        ("Gorse", (), True),
    ]
    assert facts.players[1].cite == Cite(0, "2. Oldbirch Birch")


def test_list_in_a_later_moderator_post_one_name_per_line():
    roster = "<br>".join(PLAYERS)
    thread = make_thread(
        ("Host", "Signups are open."), ("Host", f"The players are:<br>{roster}"), *CHATTER
    )
    facts = read_thread_facts(thread)
    assert [p.name for p in facts.players] == list(PLAYERS)
    assert {p.cite.post for p in facts.players} == {1}


def test_announcements_days_deaths_replacements_deadline():
    roster = "<br>".join(f"{n}. {name}" for n, name in enumerate(PLAYERS, 1))
    thread = make_thread(
        ("Host", f"Players:<br>{roster}<br>Day 1 deadline: Friday 10pm EST"),
        *CHATTER,
        ("Host", "Hazel is replacing Damson."),
        ("Host", "Elm has been lynched! Elm was a Mafia Goon.<br>It is now Night 1."),
        (
            "Host",
            "Fir, Vanilla Townie, was killed Night 1.<br>It is now Day 2. With 5 alive, it takes 3 to lynch.",
        ),
        ("Host", "Gorse has been modkilled for inactivity."),
        ("Host", "A majority has been reached. Alder has been lynched.<br>Night 2 begins now."),
    )
    facts = read_thread_facts(thread, timezone=ZoneInfo("America/New_York"))
    assert [(s.day, s.post) for s in facts.day_starts] == [(1, 0), (2, 10)]
    assert facts.day_starts[0].deadline == datetime(2026, 3, 7, 3, 0, tzinfo=UTC)
    assert [(e.day, e.post) for e in facts.day_ends] == [(1, 9), (2, 12)]
    assert [(e.day, e.player, e.post) for e in facts.eliminations] == [
        (1, "Elm", 9),
        (2, "Alder", 12),
    ]
    assert [(d.player, d.phase, d.post, d.cause) for d in facts.deaths] == [
        ("Fir", "night 1", None, "night kill"),
        ("Gorse", "day 2", 11, "modkill"),
    ]
    assert [(r.player, r.new, r.post) for r in facts.replacements] == [("Damson", "Hazel", 8)]
    assert facts.replacements[0].cite.words == "Hazel is replacing Damson."


def test_after_post_reads_only_later_announcements():
    facts = read_game(
        ("Host", "Alder was lynched. It is now Night 1."),
        ("Host", "Birch was found dead. It is now Day 2."),
        after_post=8,
    )
    assert [(s.day, s.post) for s in facts.day_starts] == [(2, 9)]
    assert facts.eliminations == ()
    assert [(d.player, d.phase) for d in facts.deaths] == [("Birch", "night 1")]


def test_quotes_of_other_posts_are_not_read_and_struck_text_is_marked():
    lines = read_lines(
        "Alder<br><blockquote><cite>Birch wrote:</cite>Birch was lynched</blockquote>"
        '<span style="text-decoration: line-through">Cedar</span> Damson'
    )
    assert lines == ["Alder", "\x01Cedar\x02 Damson"]


def test_bracketed_numbers_superscript_accounts_and_names_written_without_spaces():
    opening = (
        "Living<br>[01] Alder<br>[02] Birch<sup>Oldbirch</sup><br>[03] Cedar &#8224; &lt; Cypress<br>"
        "[04] DamsonTree<br>[05] Elm<br>[06] Fir<br>[07] Gorse"
    )
    posters = [
        (name, "hi") for name in ("Alder", "Birch", "Cedar", "Damson Tree", "Elm", "Fir", "Gorse")
    ]
    facts = read_thread_facts(make_thread(("Host", opening), *posters))
    assert [(p.name, p.replacements, p.dead) for p in facts.players][:4] == [
        ("Alder", (), False),
        ("Oldbirch", ("Birch",), False),
        ("Cypress", ("Cedar",), False),
        ("Damson Tree", (), False),  # the account as the forum spells it
    ]


def test_a_rules_sentence_ends_no_day_and_a_flip_without_a_verb_is_the_lynch():
    facts = read_game(
        ("Host", "Reminder: a lynch is reached when a majority votes for one player."),
        ("Host", "The town strings up Birch.<br>Birch - Vanilla Townie<br>Night has fallen."),
        (
            "Host",
            "The town wakes to find Cedar dead.<br>Cedar - Town Cop<br>With 5 alive, it takes 3 to lynch.",
        ),
    )
    assert [(e.day, e.post) for e in facts.day_ends] == [(1, 9)]
    assert [(e.day, e.player) for e in facts.eliminations] == [(1, "Birch")]
    assert [(d.player, d.phase) for d in facts.deaths] == [("Cedar", "night 1")]
    assert [(s.day, s.post) for s in facts.day_starts] == [(1, 0), (2, 10)]


def test_an_unnamed_vote_counter_is_a_moderator_and_short_phase_words_are_read():
    facts = read_game(
        ("Counter", "Vote Count 1.3<br>Alder (2): Birch, Cedar"),
        ("Counter", "Alder has been lynched.<br>It is now nighttime."),
        ("Host", "Birch - Town Cop<br>D2 has started."),
    )
    assert facts.moderators == ("Host", "Counter")
    assert facts.moderators_cite == Cite(8, "Vote Count 1.3")
    assert [(e.day, e.player, e.post) for e in facts.eliminations] == [(1, "Alder", 9)]
    assert [(d.player, d.phase) for d in facts.deaths] == [("Birch", "night 1")]
    assert [(s.day, s.post) for s in facts.day_starts] == [(1, 0), (2, 10)]


def test_a_slip_in_the_list_is_the_one_account_that_close():
    opening = "Players<br>" + "<br>".join(
        ["Alder", "Birch", "Cedar replaced Prolasped Brain", "Damson", "Elm"]
    )
    posters = [
        (name, "hi") for name in ("Alder", "Birch", "Cedar", "Prolapsed Brain", "Damson", "Elm")
    ]
    facts = read_thread_facts(make_thread(("Host", opening), *posters))
    assert ("Prolapsed Brain", ("Cedar",)) in [(p.name, p.replacements) for p in facts.players]


def test_a_listed_name_meets_an_account_spelled_with_brackets_or_other_punctuation():
    """The list drops what wraps a name ("10. [Quill]"); the account keeps it: the seat is the
    account as the forum spells it, so that account's votes count."""
    opening = "Players<br>" + "<br>".join(
        ["1. Alder", "2. [Quill]", "3. -Sorrel-", "4. Damson", "5. Elm"]
    )
    posters = [(name, "hi") for name in ("Alder", "[Quill]", "-Sorrel-", "Damson", "Elm")]
    facts = read_thread_facts(make_thread(("Host", opening), *posters))
    assert [p.name for p in facts.players] == ["Alder", "[Quill]", "-Sorrel-", "Damson", "Elm"]


def test_the_closing_vote_count_states_the_days_own_numbers_and_starts_no_day():
    facts = read_game(
        (
            "Host",
            "Vote count 1.4. A lynch has been reached! With 7 alive, 4 to lynch<br>"
            "Alder (4): Birch, Cedar, Damson, Elm<br>Alder, Vanilla Townie, lynched D1.<br>Night 1 begins now.",
        ),
        ("Host", "Birch was found dead.<br>Day 2 begins now. With 5 alive, 3 to lynch."),
    )
    assert [(e.day, e.post) for e in facts.day_ends] == [(1, 8)]
    assert [(s.day, s.post) for s in facts.day_starts] == [(1, 0), (2, 9)]
    assert [(e.day, e.player) for e in facts.eliminations] == [(1, "Alder")]


def test_vote_count_wagons_and_event_lines_in_the_opening_post_are_not_seats():
    opening = (
        "Players<br>Alder<br>Birch*<br>Cedar<br><s>Cypress</s> Damson<br>Elm<br>Fir<br>Gorse<br><br>"
        "Latest Vote Count<br>Alder [L-2] - Birch, Cedar,<br>Birch (1): Alder<br>Not Voting: Elm, Fir<br><br>"
        "Events:<br>D1 starts - Damson replaces Cypress - D1 ends"
    )
    facts = read_thread_facts(make_thread(("Host", opening), *CHATTER, ("Cypress", "hi")))
    assert [(p.name, p.replacements) for p in facts.players] == [
        ("Alder", ()),
        ("Birch", ()),
        ("Cedar", ()),
        ("Cypress", ("Damson",)),
        ("Elm", ()),
        ("Fir", ()),
        ("Gorse", ()),
    ]


def test_vote_count_headings_name_their_day():
    from assistant.reading.count_state import vote_count_day

    assert [
        vote_count_day(line)
        for line in (
            "Votecount 3.01",
            "OFFICIAL VOTE COUNT 2.00",
            "VC 1.00Not Voting (7): Alder",
            "Day 3 Vote Count 1.2",
            "Vote count Day 2 #4",
            "Day One, Vote Count #3",
            "D2 FINAL VOTE COUNT",
            "Final Day 4 Vote Count",
            "Current VC 3.3",
            "Vote Count #4",
            "Alder 3.5",
        )
    ] == [3, 2, 1, 3, 2, 1, 2, 4, 3, None, None]


def test_vote_count_headings_number_their_count():
    from assistant.reading.count_state import count_number

    assert [
        count_number(line)
        for line in (
            "Votecount 3.01",
            "VC 1.00",
            "Day One: Vote Count Two",
            "Vote Count #4",
            "Day 2 Vote Count",
            "Alder 3.5",
        )
    ] == [1, 0, 2, 4, None, None]


def test_a_vote_count_for_the_next_day_posted_at_night_starts_that_day_with_the_dawn_before_it():
    facts = read_game(
        (
            "Host",
            "Alder has been lynched. He was Vanilla Town.<br>Send your night actions within 48 hours.",
        ),
        ("Birch", "gg"),
        ("Host", "The town woke up to a quiet street."),
        (
            "Host",
            "Official Vote Count 2.00<br>Not Voting (6): Birch, Cedar, Damson, Elm, Fir, Gorse",
        ),
        ("Cedar", "[vote]Birch[/vote]"),
        ("Host", "Official Vote Count 2.01<br>Birch (1): Cedar"),
    )
    assert [(s.day, s.post) for s in facts.day_starts] == [(1, 0), (2, 10)]
    assert [(e.day, e.post) for e in facts.day_ends] == [(1, 8)]


def test_a_days_vote_count_listing_the_living_reads_a_death_told_only_in_flavour_text():
    facts = read_game(
        ("Host", "Alder has been lynched. He was Vanilla Town.<br>Night 1 begins now."),
        ("Host", "The rooster crowed over a sight nobody wanted to see."),
        (
            "Host",
            "Vote Count 2.00<br>Birch (1): Cedar<br>Not Voting (4): <s>Cedar</s>, Birch, Damson, Elm, Gorse<br>"
            "With 5 alive, it takes 3 to lynch.",
        ),
        ("Birch", "[vote]Cedar[/vote]"),
        # a wagon line in a shape the reader does not take: Cedar seems left out, but posts again
        (
            "Host",
            "Vote Count 2.01<br>Cedar gets 1 vote from Birch<br>Not Voting (3): Damson, Elm, Gorse",
        ),
        ("Cedar", "still here"),
        ("Host", "Cedar has been lynched. It is now Night 2."),
        ("Fir", "gg all"),  # the dead talk once the day is over
    )
    assert [(d.player, d.phase, d.post, d.cite.post) for d in facts.deaths] == [
        ("Fir", "night 1", None, 10)
    ]
    assert [(s.day, s.post) for s in facts.day_starts] == [(1, 0), (2, 10)]


def test_a_count_that_names_an_unknown_account_or_miscounts_the_living_reads_no_death():
    from assistant.reading.count_state import counted_living

    seats = {name.casefold(): name for name in PLAYERS}
    seat_of = lambda name: seats.get(name.casefold())  # noqa: E731
    count = ["Vote Count 2.00Birch (1): Cedar", "Not Voting: Birch, Damson, Elm"]
    assert counted_living(count, seat_of=seat_of) == {"Birch", "Cedar", "Damson", "Elm"}
    assert counted_living([*count, "With 4 alive, 3 to lynch"], seat_of=seat_of) == {
        "Birch",
        "Cedar",
        "Damson",
        "Elm",
    }
    assert counted_living([*count, "With 5 alive, 3 to lynch"], seat_of=seat_of) is None
    assert (
        counted_living(["Birch (1): Cedar", "Cedar (1): Birch"], seat_of=seat_of) is None
    )  # nothing says "all"
    assert (
        counted_living(
            ["Birch (1): Cedar, Newcomer", "Not Voting: Elm", "3 alive"], seat_of=seat_of
        )
        is None
    )
    assert (
        counted_living(["Birch (1): Cedar", "Cedar (1): Birch, Birch", "2 alive"], seat_of=seat_of)
        is None
    )


def test_the_lynch_story_naming_the_day_it_happened_starts_no_day():
    facts = read_game(
        ("Host", "Day 2 begins now."),
        ("Host", "Vote count 2.3<br>Lynch has been reached. Modscene forthcoming."),
        (
            "Host",
            "You walk back to the square on the beginning of Day 2 and throw Alder into a well.<br>"
            "Alder was a Vanilla Townie.<br>Night 2 begins now.",
        ),
    )
    assert [(s.day, s.post) for s in facts.day_starts] == [(1, 0), (2, 8)]
    assert [(e.day, e.post) for e in facts.day_ends] == [(1, 8), (2, 9)]
    assert [(e.day, e.player, e.post) for e in facts.eliminations] == [(2, "Alder", 10)]


def test_the_lynch_story_that_begins_the_night_is_no_dawn():
    facts = read_game(
        ("Host", "Lynch has been achieved! Scene to come."),
        (
            "Host",
            "The sword fell.<br>Alder, Vanilla Townie has been Lynched Day One.<br>Night begins now.<br>"
            "Deadline for Night One is Thursday. Hopefully I'll see you in the morning...",
        ),
        (
            "Host",
            "The sun rises over the table, one seat empty.<br>Birch, Town Mason was Cooked Night 1.<br>"
            "Day has begun. Deadline for Day 2 is Friday.",
        ),
    )
    assert [(s.day, s.post) for s in facts.day_starts] == [(1, 0), (2, 10)]
    assert [(d.player, d.phase) for d in facts.deaths] == [("Birch", "night 1")]


def test_a_lynch_word_in_a_sentence_naming_a_night_is_a_night_kill():
    facts = read_game(
        ("Host", "Alder has been lynched. Night 1 begins."),
        ("Host", "Birch, Vanilla Town was Hung Upside Down Night 1.<br>Day 2 begins now."),
    )
    assert [(e.day, e.player) for e in facts.eliminations] == [(1, "Alder")]
    assert [(d.player, d.phase) for d in facts.deaths] == [("Birch", "night 1")]
    assert [(e.day, e.post) for e in facts.day_ends] == [(1, 8)]


def test_a_death_of_the_seat_the_posts_own_count_shows_at_majority_is_the_lynch():
    facts = read_game(
        (
            "Host",
            "VOTECOUNT 1.Final<br>With 7 players alive, it takes 4 to lynch!<br>"
            "Alder (4): Birch, Cedar, Damson, Elm<br>Birch (1): Alder<br>The crowd turned on him.<br>"
            "Alder, a Vanilla Townie has been killed D1.<br>"
            "It is now N1. Send your actions.",
        ),
        (
            "Host",
            "Birch, a Vanilla Townie has been killed N1.<br>With 5 alive, it takes 3 to lynch!",
        ),
    )
    assert [(e.day, e.player, e.post) for e in facts.eliminations] == [(1, "Alder", 8)]
    assert [(e.day, e.post) for e in facts.day_ends] == [(1, 8)]
    assert [(d.player, d.phase) for d in facts.deaths] == [("Birch", "night 1")]
    assert [(s.day, s.post) for s in facts.day_starts] == [(1, 0), (2, 9)]


def test_majority_and_wagon_lines_of_a_count():
    from assistant.reading.count_state import majority_needed, wagon_of

    assert [
        majority_needed(t)
        for t in (
            "With 9 alive, it takes 5 to lynch!",
            "With 10 alive, 6 votes are required to lynch.",
            "With 12 alive, majority is 7",
            "Deadline is Friday",
        )
    ] == [5, 6, 7, None]
    assert wagon_of("Alder (5): Birch, Cedar") == ("Alder", 5)
    assert wagon_of("Vote Count 2.4Alder [3] - Birch") == ("Alder", 3)
    assert wagon_of("Alder was lynched") == (None, 0)


def test_thats_a_lynch_a_bracketed_lynched_and_its_now_without_an_apostrophe():
    facts = read_game(
        ("Host", "Thats a lynch! with 4 minutes to spare."),
        (
            "Host",
            "Final Votecount of Day 1<br>Alder (4) - Birch, Cedar, Damson, Elm<br>"
            "Alder, Vanilla Town, Kicked out of his house Day 1 (lynched).",
        ),
        (
            "Host",
            "Birch, Vanilla Town, Partially digested Night 1<br>Its now Day 2. With 5 alive, it is 3 to lynch.",
        ),
    )
    assert [(e.day, e.post) for e in facts.day_ends] == [(1, 8)]
    assert [(e.day, e.player, e.post) for e in facts.eliminations] == [(1, "Alder", 9)]
    assert [(s.day, s.post) for s in facts.day_starts] == [(1, 0), (2, 10)]


def test_a_rule_about_a_no_lynch_is_no_no_lynch():
    facts = read_game(
        (
            "Host",
            "The two weeks is a deadline. If no lynch has been reached by that time, it counts as a no lynch.",
        ),
        ("Host", "No lynch has been reached! It is now Night 1."),
    )
    assert [(e.day, e.player, e.post) for e in facts.eliminations] == [(1, None, 9)]
    assert [(e.day, e.post) for e in facts.day_ends] == [(1, 9)]


def test_the_ended_days_final_count_in_a_later_post_starts_no_day():
    facts = read_game(
        ("Host", "A lynch has been reached."),
        (
            "Host",
            "VOTE COUNT 1.13Alder (4): Birch, Cedar, Damson, Elm<br>Not Voting (2): Fir, Gorse<br>"
            "With 7 players alive, it takes 4 votes to lynch.",
        ),
        ("Host", "Alder was lynched Day One. Night One begins now."),
        ("Host", "Day Two begins now."),
    )
    assert [(s.day, s.post) for s in facts.day_starts] == [(1, 0), (2, 11)]
    assert [(e.day, e.player, e.post) for e in facts.eliminations] == [(1, "Alder", 10)]


def test_a_player_list_cut_short_gives_way_to_day_ones_first_count():
    thread = make_thread(
        ("Host", "Welcome!"),
        (
            "Host",
            "Alive<br>1) Alder<br>2) Birch<br>Dead<br>1) Cedar (Vanilla Townie)",
        ),  # kept up to date later
        (
            "Host",
            "Welcome to Day 1.<br>VC 1.00Not Voting: Alder, Birch, Cedar, Damson, Elm, Fir, Gorse<br>"
            "With 7 alive, the majority is 4.",
        ),
        *CHATTER,
    )
    facts = read_thread_facts(thread)
    assert [p.name for p in facts.players] == list(PLAYERS)
    assert {p.cite.post for p in facts.players} == {2}


def test_a_first_count_naming_many_who_never_posted_or_miscounting_keeps_the_list():
    roster = "<br>".join(PLAYERS[:6])
    for count in (
        "Not Voting: Alder, Birch, Cedar, Damson, Elm, Stranger, Outsider<br>With 7 alive, 4 to lynch.",
        "Not Voting: Alder, Birch, Cedar, Damson, Elm, Fir, Gorse<br>With 8 alive, 5 to lynch.",
    ):
        thread = make_thread(
            ("Host", f"Players<br>{roster}"), ("Host", f"VC 1.00<br>{count}"), *CHATTER
        )
        assert [p.name for p in read_thread_facts(thread).players] == list(PLAYERS[:6])


def test_a_poster_taken_for_a_co_moderator_who_replaces_into_a_seat_is_a_player():
    facts = read_game(
        ("Newbie", "Vote Count 1.2<br>Alder (1): Birch<br>Not voting: Cedar"),
        ("Host", "Newbie replaces Gorse."),
        ("Newbie", "It is now Night 1, says my count"),
    )
    assert facts.moderators == ("Host",)
    assert [(r.player, r.new) for r in facts.replacements] == [("Gorse", "Newbie")]


def test_a_fieldset_legend_is_a_line_of_its_own():
    facts = read_game(
        ("Host", "Alder was lynched. It is now Night 1."),
        (
            "Host",
            '<fieldset><legend>Night 1</legend><div style="display:inline">Birch, '
            '<div style="display:inline">Vanilla Townie</div>, has been killed.</div></fieldset><br>'
            '<div style="display:inline">Day 2 has started</div>',
        ),
    )
    assert [(d.player, d.phase) for d in facts.deaths] == [("Birch", "night 1")]
    assert [(s.day, s.post) for s in facts.day_starts] == [(1, 0), (2, 9)]


def test_rep_and_arrows_in_the_list_name_the_seats_earlier_accounts():
    thread = make_thread(
        (
            "Host",
            "Player List:<br>Alder rep. Oldalder<br>Birch<br>Cedar rep. Midcedar rep. Firstcedar*<br>"
            "Damson<br>Elmo -> Elm<br>Fir<br>Gorse",
        ),
        *CHATTER,
    )
    seats = read_thread_facts(thread).seat_accounts()
    assert seats["Oldalder"] == ("Oldalder", "Alder")
    assert seats["Firstcedar"] == ("Firstcedar", "Midcedar", "Cedar")
    assert seats["Elmo"] == ("Elmo", "Elm")


def test_a_header_between_a_list_of_names_and_a_list_of_fates_is_no_seat():
    thread = make_thread(
        (
            "Host",
            "Still Here<br>Alder<br>Birch<br>Cedar<br>Damson<br>Not So Lucky<br>"
            "Elm, Vanilla Townie, lynched Day 1<br>Fir, Cop, killed Night 1<br>Died<br>"
            "Gorse - Mafia Goon - lynched Day 2",
        ),
        *CHATTER,
    )
    assert [p.name for p in read_thread_facts(thread).players] == list(PLAYERS)


def test_a_day_that_ends_with_no_name_read_lynched_the_seat_its_last_count_shows_at_majority():
    facts = read_game(
        (
            "Host",
            "VOTECOUNT 1.04<br>(0) Alder —<br>(4) [LYNCH!] Birch — Alder, Cedar, Damson, Elm<br>"
            "(1) Cedar — Birch<br>(2) (NOT VOTING) — Fir, Gorse<br>With 7 alive, it took 4 votes to lynch.",
        ),
        (
            "Host",
            "A lynch has been achieved!<br>The frogs took him to the tree.<br>Birch was Hops<br>a Goon",
        ),
        (
            "Host",
            "Nobody died.<br>VOTECOUNT 2.00<br>(6) (NOT VOTING) — Alder, Cedar, Damson, Elm, Fir, Gorse<br>"
            "With 6 alive, it takes 4 votes to lynch.",
        ),
    )
    assert [(e.day, e.player, e.post) for e in facts.eliminations] == [(1, "Birch", 9)]
    assert [(s.day, s.post) for s in facts.day_starts] == [(1, 0), (2, 10)]
    assert facts.deaths == ()


def test_a_count_with_the_votes_before_the_name():
    from assistant.reading.count_state import counted_living, wagon_of

    assert wagon_of("(4) [LYNCH!] Birch — Alder, Cedar") == ("Birch", 4)
    assert wagon_of("(0) Alder —") == ("Alder", 0)
    lines = [
        "VOTECOUNT 2.01",
        "(2) Birch — Alder, Cedar",
        "(1) (NOT VOTING) — Birch",
        "With 3 alive, 2 to lynch.",
    ]
    known = {"Alder", "Birch", "Cedar"}
    assert counted_living(lines, seat_of=lambda n: n if n in known else None) == known


def test_a_kill_of_the_night_after_the_open_day_ends_it_and_starts_the_next():
    facts = read_game(
        (
            "Host",
            "Alder is a Vanilla Townie, his scene comes later.",
        ),  # the day's end, in words not read
        (
            "Host",
            "Sorry for the delay.<br>Birch — Town Vigilante was killed Night 1.<br>Vote Count<br>"
            "Not Voting: Cedar, Damson, Elm, Fir, Gorse",
        ),
    )
    assert [(d.player, d.phase) for d in facts.deaths] == [("Birch", "night 1")]
    assert [(s.day, s.post) for s in facts.day_starts] == [(1, 0), (2, 9)]
    assert [(e.day, e.post) for e in facts.day_ends] == [(1, 9)]


def test_a_slip_in_the_phase_number_means_the_phase_that_follows():
    facts = read_game(
        ("Host", "Alder was lynched. Night 1 begins."),
        ("Host", "Birch was killed. Day 2 has begun."),
        (
            "Host",
            "Cedar has died, they were a vanilla townie<br>Night 1 starts now and ends in 48 hours",
        ),
        ("Host", "Damson was found dead.<br>Day 1 begins now"),
    )
    assert [(s.day, s.post) for s in facts.day_starts] == [(1, 0), (2, 9), (3, 11)]
    assert [(e.day, e.post) for e in facts.day_ends] == [(1, 8), (2, 10)]


def test_a_night_nobody_died_in_and_number_words_in_the_count_start_the_day():
    facts = read_game(
        ("Host", "Alder was lynched. Night 1 begins."),
        (
            "Host",
            "You all wake up, expecting something... But wait. You're all here. Nobody has died.",
        ),
        ("Host", "Birch was lynched. Night starts now"),
        ("Host", "Please send night actions."),
        (
            "Host",
            "With five alive, it takes three to lynch! Deadline is three weeks from this post.",
        ),
    )
    assert [(s.day, s.post) for s in facts.day_starts] == [(1, 0), (2, 9), (3, 12)]
    assert [(e.day, e.post) for e in facts.day_ends] == [(1, 8), (2, 10)]


def test_the_days_still_on_takes_back_a_day_end_made_by_mistake():
    facts = read_game(
        ("Host", "A lynch has been reached. Flavour after I've woken up."),
        (
            "Host",
            "I made a mistake, with seven alive it takes four to lynch! Sorry, the days still on.",
        ),
        ("Host", "A lynch has been reached, for real this time. Alder was lynched."),
    )
    assert [(e.day, e.post) for e in facts.day_ends] == [(1, 10)]
    assert [(e.day, e.player) for e in facts.eliminations] == [(1, "Alder")]
    assert [(s.day, s.post) for s in facts.day_starts] == [(1, 0)]


def test_fates_the_player_list_gives_fill_deaths_the_announcements_did_not_tell():
    thread = make_thread(
        (
            "Host",
            "Players<br>1. Alder, Vanilla Townie, lynched Day 1<br>2. Birch, Cop, killed Night 1<br>3. Cedar<br>"
            "4. Damson, Mason, died during Night 2<br>5. Elm<br>6. Fir<br>7. Gorse, Goon, was the first lynch of "
            "Day 2",
        ),
        *CHATTER,
        ("Host", "The town hanged the butcher. It is now Night 1."),
        ("Host", "Day 2 has begun."),
        ("Host", "Gorse was lynched. It is now Night 2."),
        ("Host", "Day 3 has begun."),
    )
    facts = read_thread_facts(thread)
    assert sorted((e.day, e.player) for e in facts.eliminations) == [(1, "Alder"), (2, "Gorse")]
    assert [(d.player, d.phase) for d in facts.deaths] == [
        ("Birch", "night 1"),
        ("Damson", "night 2"),
    ]


def test_several_seats_told_dead_in_one_sentence():
    facts = read_game(
        ("Host", "Alder was lynched. Night 1 has begun."),
        (
            "Host",
            "They wake to find two missing.<br>Birch, Vanilla Townie, and Cedar, Town Mason, have died.<br>"
            "Day 2 begins now.",
        ),
        ("Host", "Damson was lynched. Night 2 has begun."),
        ("Host", "Dawn rises. Elm and Fir have been shot. Day 3 begins now."),
    )
    assert [(d.player, d.phase) for d in facts.deaths] == [
        ("Birch", "night 1"),
        ("Cedar", "night 1"),
        ("Elm", "night 2"),
        ("Fir", "night 2"),
    ]


def test_a_first_listed_player_who_never_posted_stays_when_the_dead_list_names_them_and_accents_fold():
    chatter = [(name, "hi") for name in ("Birch", "Cedar", "Damson", "Elm", "Fir", "Gorse", "Zoë")]
    thread = make_thread(
        (
            "Host",
            "Players:<br>Alder<br>Birch<br>Cedar<br>Damson<br>Elm<br>Fir<br>Gorse<br>Zoe<br>Alive (6)<br>Birch"
            "<br>Cedar<br>Damson<br>Elm<br>Fir<br>Gorse<br>Dead (2)<br>Alder, Vanilla Townie, lynched Day 2<br>"
            "Zoe, Vanilla Townie, killed Night 2",
        ),
        *chatter,
    )
    assert [p.name for p in read_thread_facts(thread).players] == [*PLAYERS, "Zoë"]


def test_a_wagon_marked_lynched_lynches_its_head_not_its_last_voter():
    facts = read_game(
        (
            "Host",
            "Final Vote Count<br>Alder - Birch, Cedar, Damson, Elm (LYNCHED)<br>Not voting - Fir, Gorse",
        ),
    )
    assert [(e.day, e.player, e.post) for e in facts.eliminations] == [(1, "Alder", 8)]


def test_a_complete_count_reads_a_slipped_name_as_the_one_account_that_close():
    players = ("Alder", "Birch", "Cedar", "Damson", "Elm", "Fir", "Srceenplay")
    thread = make_thread(
        ("Host", "Players<br>" + "<br>".join(players)),
        *((p, "hi") for p in players),
        (
            "Host",
            "Day 1 Vote Count 1.12<br>Alder [Lynched] : Birch, Cedar, Damson, Elm<br>Not Voting (3) : Fir, "
            "Alder, Srceenplay<br>With 7 alive, It takes 4 to reach a Lynch.",
        ),
        ("Host", "Night 1 Ends in 48 hours"),
        (
            "Host",
            "Day 2 Vote Count 2.00<br>Not Voting (5) : Cedar, Damson, Elm, Fir, Screenplay<br>"
            "With 5 alive, It takes 3 to reach a Lynch.",
        ),
    )
    facts = read_thread_facts(thread)
    assert [(e.day, e.player, e.post) for e in facts.eliminations] == [(1, "Alder", 8)]
    assert [(d.player, d.phase) for d in facts.deaths] == [("Birch", "night 1")]


def test_a_lynch_post_that_states_the_next_majority_and_no_night_starts_the_next_day():
    facts = read_game(
        (
            "Host",
            "Vote Count<br>4 Alder (Birch, Cedar, Damson, Elm) LYNCH<br>0 Not Voting<br>"
            "Alder, townie, has been lynched.<br>4 to lynch<br>Deadline May 11th",
        ),
        (
            "Host",
            "Vote Count<br>4 Birch (Cedar, Damson, Elm, Fir) LYNCH<br>Birch, goon, has been lynched.<br>"
            "With 6 alive it took 4 to lynch.",
        ),
    )
    assert [(s.day, s.post) for s in facts.day_starts] == [(1, 0), (2, 8)]
    assert [(e.day, e.player) for e in facts.eliminations] == [(1, "Alder"), (2, "Birch")]


def test_the_final_count_after_the_words_that_ended_the_day_starts_no_day():
    facts = read_game(
        (
            "Host",
            "Lynch reached. No more posting.<br>Final Vote Count<br>Alder (Lynched): Birch, Cedar, Damson, Elm<br>"
            "Not Voting: Fir, Gorse<br>With 7 alive it takes 4 to lynch.",
        ),
    )
    assert [(s.day, s.post) for s in facts.day_starts] == [(1, 0)]
    assert [(e.day, e.player) for e in facts.eliminations] == [(1, "Alder")]


def test_a_kill_in_the_night_told_while_the_day_is_open_is_its_dawn_and_counts_headed_by_version():
    from assistant.reading.count_state import vote_count_day

    assert vote_count_day("vote count / votecount / vote-count / VC - v. 3.00") == 3
    assert vote_count_day("Vote count as of 3.12.2017") is None
    facts = read_game(
        ("Host", "The scene for Alder comes later."),
        ("Host", "Birch was killed in the night, he was a town voyeur."),
    )
    assert [(d.player, d.phase, d.post) for d in facts.deaths] == [("Birch", "night 1", None)]
    assert [(s.day, s.post) for s in facts.day_starts] == [(1, 0), (2, 9)]
    assert [(e.day, e.post) for e in facts.day_ends] == [(1, 9)]


def test_later_accounts_written_one_after_another_and_a_bracketed_header_and_a_slipped_wagon_name():
    from assistant.reading.count_state import wagon_of

    assert wagon_of("Alder (4/4) - Birch, Cedar, Damson, Elm <-- LYNCH") == ("Alder", 4)
    chatter = [(name, "hi") for name in (*PLAYERS, "Oldalder", "Midalder", "Xnadrojx")]
    thread = make_thread(
        (
            "Host",
            "Still Here (Alive):<br>1. Oldalder Midalder Alder<br>Gone (Dead):<br>2. Birch, Cop, killed Night 1"
            "<br>3. Cedar, Townie, lynched Day 1<br>4. Damson<br>5. Elm<br>6. Fir<br>7. Gorse<br>8. Xnadrojx",
        ),
        *chatter,
        (
            "Host",
            "Vote Count<br>With 8 votes in play, it's 5 to lynch!<br>"
            "Xnarojx (5/5) - Birch, Cedar, Damson, Elm, Fir <-- LYNCH<br>Not Voting - Gorse",
        ),
        ("Host", "Day 1 has ended"),
    )
    facts = read_thread_facts(thread)
    assert facts.seat_accounts()["Oldalder"] == ("Oldalder", "Midalder", "Alder")
    assert [(e.day, e.player) for e in facts.eliminations if e.post > 0] == [(1, "Xnadrojx")]


def test_a_replacement_told_in_two_sentences_with_a_nickname_and_a_misspelt_new_account():
    """ "Damso has been replaced. Hazle takes his spot!": the old seat by a nickname that starts one
    account alone, the new account as it posts (one poster alone is that close)."""
    facts = read_game(
        ("Host", "It is now Day 1."),
        ("Hazelnut", "hi all, glad to join"),
        ("Host", "Damso has been replaced. Hazelnot takes his spot! Welcome him."),
        ("Host", "Bir has been replaced."),  # too short a nickname for one seat: nothing read
        ("Host", "Cedar has been replaced. We are looking for someone."),
        ("Host", "Hazelnot has been lynched! He was a Vanilla Townie. It is now Night 1."),
    )
    assert [(r.player, r.new, r.post) for r in facts.replacements] == [("Damson", "Hazelnut", 10)]
    assert [(e.player, e.day) for e in facts.eliminations] == [
        ("Damson", 1)
    ]  # the moderator's spelling is read


def test_a_moderator_post_right_after_the_opening_post_may_start_day_1():
    """The opening post and the moderator's posts right after it are kept up to date and mostly not
    read; one of them starting day 1 ("Confirmations are in. Day 1 starts now!") is where day 1
    starts."""
    roster = "<br>".join(PLAYERS)
    thread = make_thread(
        ("Host", f"Players<br>{roster}"),
        ("Host", "Rules: be nice."),
        ("Host", "Confirmations are in. Day 1 starts now!"),
        *CHATTER,
        ("Host", "Day One: Vote Count Two<br>Alder (1): Birch"),
    )
    facts = read_thread_facts(thread)
    assert [(s.day, s.post) for s in facts.day_starts] == [(1, 2)]
    assert [(s.day, s.post) for s in read_thread_facts(thread[:2] + thread[3:]).day_starts] == [
        (1, 0)
    ]


def test_a_list_fate_by_any_kill_verb_and_a_name_with_an_initial_in_one_sentence():
    thread = make_thread(
        (
            "Host",
            "Players<br>1. Alder - Vanilla Townie stabbed night one.<br>2. Birch<br>3. Cedar J. Oak<br>"
            "4. Damson, Goon, strangled night two<br>5. Elm<br>6. Fir<br>7. Gorse",
        ),
        *(
            (name, "hi")
            for name in ("Alder", "Birch", "Cedar J. Oak", "Damson", "Elm", "Fir", "Gorse")
        ),
        ("Host", "Birch was lynched. Night 1 has begun."),
        ("Host", "Night 1<br>Cedar J. Oak, Town Tracker, has been killed.<br>Day 2 has started"),
    )
    facts = read_thread_facts(thread)
    assert [(d.player, d.phase, d.cite.post) for d in facts.deaths] == [
        ("Cedar J. Oak", "night 1", 9),
        ("Alder", "night 1", 0),
        ("Damson", "night 2", 0),
    ]


def test_a_second_kill_told_with_also_and_a_day_that_has_dawned():
    facts = read_game(
        ("Host", "Alder has been lynched! Night 1 begins."),
        (
            "Host",
            "Birch has been killed in the night! He was a Doctor.<br>Cedar has also been killed in the night! "
            "He was a Townie.<br>Day two has dawned. Good luck everyone!",
        ),
    )
    assert [(d.player, d.phase) for d in facts.deaths] == [
        ("Birch", "night 1"),
        ("Cedar", "night 1"),
    ]
    assert [(s.day, s.post) for s in facts.day_starts] == [(1, 0), (2, 9)]


def test_a_phase_named_as_a_condition_starts_nothing():
    facts = read_game(
        ("Host", "You may change your target at any time before the Night Phase begins."),
        (
            "Host",
            "Alder was lynched Day 1. Night will last until a replacement is found. I will prod everyone "
            "when D2 has begun.",
        ),
        (
            "Host",
            "Birch was found brutally murdered in her sleep. She was a Vigilante Day 2 has officially begun.",
        ),
    )
    assert [(s.day, s.post) for s in facts.day_starts] == [(1, 0), (2, 10)]
    assert [(e.day, e.post) for e in facts.day_ends] == [(1, 9)]
    assert [(d.player, d.phase, d.post) for d in facts.deaths] == [("Birch", "night 1", None)]


def test_a_numbered_wagon_marked_lynched_and_a_night_phase_that_starts_now():
    facts = read_game(
        (
            "Host",
            "Day 1 - Final VoteCount<br>1. Alder<br>2. Birch - LYNCHED (Alder, Cedar, Damson, Elm)<br>"
            "3. Cedar L-3 (Fir)<br>His body is searched to discover...<br>Birch - Vanilla Town<br>"
            "Night phase starts now. Day 2 begins Friday.",
        ),
        (
            "Host",
            "One of your own is dead, with a bullet between the eyes.<br>Cedar - Vanilla Town<br>"
            "Day 2 Starts now.",
        ),
        (
            "Host",
            "Votecount 2.09<br>Damson ( LYNCH ) : Alder, Elm, Fir<br>Not voting : Gorse<br>"
            'Game entering "night phase"',
        ),
    )
    assert [(e.day, e.player, e.post) for e in facts.eliminations] == [
        (1, "Birch", 8),
        (2, "Damson", 10),
    ]
    assert [(e.day, e.post) for e in facts.day_ends] == [(1, 8), (2, 10)]
    assert [(d.player, d.phase) for d in facts.deaths] == [("Cedar", "night 1")]


def test_a_count_with_dashed_numbers_and_an_unnumbered_count_leave_out_the_dead():
    facts = read_game(
        ("Host", "Alder was lynched. Night 1 has begun."),
        ("Host", "The owner inspects the bodies. ROLE PM ... Birch ... Town JailKeeper ..."),
        (
            "Host",
            "VC - v. 2.00<br>Cedar - 0 -<br>Damson - 1 - Elm<br>NOT VOTING - 4 - Cedar, Damson, Fir, Gorse<br>"
            "5 alive takes 3 to LYNCH",
        ),
        ("Host", "Damson was lynched. Night 2 has begun."),
        ("Host", "This morning you wake up in anticipation. Day 3 begins now."),
        (
            "Host",
            "Official Vote Count<br>Not Voting (3): Cedar, Fir, Gorse<br>With 3 alive, it takes 2 to lynch.",
        ),
    )
    assert [(d.player, d.phase, d.cite.post) for d in facts.deaths] == [
        ("Birch", "night 1", 10),
        ("Elm", "night 2", 13),
    ]


def test_the_role_told_of_the_seat_at_the_threshold_while_the_day_is_open_is_its_lynch():
    facts = read_game(
        (
            "Host",
            "Vote Count 1.7<br>Alder [4] Birch, Cedar, Damson, Elm<br>Birch [1] Alder<br>Not Voting [2]<br>"
            "Lynch Threshold: 4",
        ),
        ("Host", "Alder was a Vanilla Townie and I'll do all the pretty formatting later."),
        (
            "Host",
            "Birch was killed and was a Mafia Goon. It is now Day 2. With 5 alive, the lynch threshold is 3.",
        ),
    )
    assert [(e.day, e.player, e.post) for e in facts.eliminations] == [(1, "Alder", 9)]
    assert [(d.player, d.phase) for d in facts.deaths] == [("Birch", "night 1")]
    # without the count showing Alder at the threshold, the same words lynch nobody
    facts = read_game(
        ("Host", "Alder was a Vanilla Townie and I'll do all the pretty formatting later.")
    )
    assert facts.eliminations == () and facts.deaths == ()


def test_a_night_zero_opens_the_game_and_its_kill_is_told_before_day_one():
    facts = read_thread_facts(
        make_thread(
            ("Host", "Players<br>" + "<br>".join(PLAYERS)),
            ("Host", "Rules: Night 0 works like any other night."),
            ("Host", "Roles are out. This is also the beginning of Night Zero."),
            (
                "Host",
                "Alder, 1-Shot Gunsmith, has been killed! It is now Day One. With 6 alive, it takes 4 to lynch.",
            ),
            *CHATTER,
        )
    )
    assert [(d.player, d.phase) for d in facts.deaths] == [("Alder", "night 0")]
    assert [(s.day, s.post) for s in facts.day_starts] == [(1, 3)]
    # the same after the players have confirmed in the thread
    facts = read_game(("Host", "Night 0 has begun."), ("Host", "Birch has died. Day 1 begins now."))
    assert [(d.player, d.phase) for d in facts.deaths] == [("Birch", "night 0")]
    assert [(s.day, s.post) for s in facts.day_starts] == [(1, 9)]


def test_a_night_zero_opening_whose_end_is_not_read_keeps_day_one_at_the_opening():
    thread = make_thread(
        ("Host", "Players<br>" + "<br>".join(PLAYERS)), ("Host", "Night 0 begins now."), *CHATTER
    )
    assert [(s.day, s.post) for s in read_thread_facts(thread).day_starts] == [(1, 0)]


def test_the_flip_after_an_unnamed_majority_is_the_lynch_and_a_list_of_players_is_no_flip():
    facts = read_game(
        (
            "Host",
            "Final vote count<br>Alder [4]: Birch / Cedar / Damson / Elm<br>Majority has been reached.<br>"
            "Casualty report<br>Alder † - town - vanilla<br>Start of night 1<br>Achievement unlocked!<br>"
            "Birch, Cedar and Damson have achieved Fifty - Make at least 50 posts on day 1.",
        ),
    )
    assert [(e.day, e.player) for e in facts.eliminations] == [(1, "Alder")]
    assert facts.deaths == ()


def test_a_phase_in_a_roles_name_is_no_time_of_death_and_a_body_found_is_a_death():
    facts = read_game(
        ("Host", "Alder was lynched. Night 1 has begun."),
        (
            "Host",
            "This morning you discovered the body of birch whose role lay beside him. Day 2 begins now.",
        ),
        ("Host", "Cedar was lynched. Night 2 has begun."),
        ("Host", "Nobody died. Day 3 begins now."),
        ("Host", "Damson was a town N2 Watcher. He was killed by the vigilante."),
    )
    assert [(d.player, d.phase) for d in facts.deaths] == [
        ("Birch", "night 1"),
        ("Damson", "day 3"),
    ]


def test_a_count_after_the_lynch_that_states_the_days_own_number_alive_starts_no_day():
    facts = read_game(
        (
            "Host",
            "VOTECOUNT 1.07<br>(4) Alder [LYNCH!] — Birch, Cedar, Damson, Elm<br>(0) Birch —<br>"
            "(2) (NOT VOTING) — Fir, Gorse<br>With 7 alive, it takes 4 votes to lynch.",
        ),
        ("Host", "A lynch has been achieved! The frogs set the noose."),
        (
            "Host",
            "As daybreak comes, nobody died.<br>VOTECOUNT 2.00<br>With 6 alive, it takes 4 votes to lynch.",
        ),
    )
    assert [(e.day, e.player, e.post) for e in facts.eliminations] == [(1, "Alder", 8)]
    assert [(s.day, s.post) for s in facts.day_starts] == [(1, 0), (2, 10)]


def test_a_no_lynch_in_the_event_of_a_tie_is_a_rule_not_news():
    facts = read_game(
        (
            "Host",
            "Votecount<br>Alder - 3 (Birch, Cedar, Damson)<br>The deadline is Friday. In the event of a tie, "
            "there will be a no lynch.",
        ),
    )
    assert facts.eliminations == () and facts.day_ends == ()


def _seats(opening: str, *posters: str) -> dict[str, tuple[str, ...]]:
    """The seats read from an opening post when ``posters`` (default: PLAYERS) each said hello."""
    chatter = [(name, "hi") for name in posters or PLAYERS]
    return read_thread_facts(make_thread(("Host", opening), *chatter)).seat_accounts()


def test_role_text_after_a_struck_name_is_no_account_and_the_struck_seat_is_dead():
    """The opening post kept up to date: "~~Alder~~ Vanilla townie" is a dead seat and its role, and
    a placeholder for a seat waiting for its player is no account either."""
    facts = read_thread_facts(
        make_thread(
            (
                "Host",
                "1. <s>Alder</s> Vanilla townie<br>2.<s>Birch</s> (Who replaced Oldbirch) 2-shot tracker<br>"
                "3. <s>Cedar</s> Vanilla townie<br>4. Damson - White mage<br>5. <s>Elm</s>Looking for Replacement"
                "<br>6. Fir<br>7. Gorse",
            ),
            *CHATTER,
            ("Oldbirch", "hi"),
        )
    )
    assert [(p.name, p.replacements, p.dead) for p in facts.players] == [
        ("Alder", (), True),
        ("Oldbirch", ("Birch",), True),
        ("Cedar", (), True),
        ("Damson", (), False),
        ("Elm", (), True),
        ("Fir", (), False),
        ("Gorse", (), False),
    ]


def test_a_list_line_naming_two_seats_joins_neither():
    seats = _seats(
        "Players<br>Alder<br>Birch<br>Cedar (repl. Cypress)<br>Damson<br>Elm (repl. Elmo)<br>Fir<br>Gorse<br>"
        "(Other roles: Alder - Cop, Birch - Doctor, everyone else - Vanilla Townies)<br>"
        "Cedar replaces Cypress; Elm replaces Elmo",
        *PLAYERS,
        "Cypress",
        "Elmo",
    )
    assert seats == {
        "Alder": ("Alder",),
        "Birch": ("Birch",),
        "Cypress": ("Cypress", "Cedar"),
        "Damson": ("Damson",),
        "Elmo": ("Elmo", "Elm"),
        "Fir": ("Fir",),
        "Gorse": ("Gorse",),
    }


def test_prod_marks_part_the_struck_earlier_accounts():
    seats = _seats(
        "Players<br>Alder *<br>Birch<br>Cedar <s>Midcedar * Firstcedar ^ **</s><br>Damson<br>Elm<br>Fir<br>Gorse",
        *PLAYERS,
        "Midcedar",
        "Firstcedar",
    )
    assert seats["Midcedar"] == ("Midcedar", "Firstcedar", "Cedar")
    assert len(seats) == 7


def test_a_chain_of_replacements_in_brackets_keeps_its_order():
    seats = _seats(
        "Players<br>Alder<br>Birch<br>Cedar (repl. Midcedar, Firstcedar*)<br>Damson<br>"
        "<s>Elm</s> (who replaced Midelm, who replaced Firstelm) - Vanilla townie<br>Fir<br>Gorse",
        *PLAYERS,
        "Midcedar",
        "Firstcedar",
        "Midelm",
        "Firstelm",
    )
    assert seats["Firstcedar"] == ("Firstcedar", "Midcedar", "Cedar")
    assert seats["Firstelm"] == ("Firstelm", "Midelm", "Elm")


def test_a_listed_name_without_its_accounts_trailing_digits_is_that_account():
    """ "Cedar Vanilla Towny lynched D3" with nothing between name and role: the account "Cedar77"
    shortened."""
    facts = read_thread_facts(
        make_thread(
            (
                "Host",
                "Alive<br>Alder Mafia Goon<br>Birch Mafia Goon<br>Dead<br>Cedar Vanilla Towny lynched D3<br>"
                "Damson Weak Doctor killed N3<br>Elm Vanilla Towny lynched D1<br>Fir Cop killed N1<br>"
                "Gorse Vanilla Towny endgamed D5",
            ),
            *[
                (name, "hi")
                for name in ("Alder", "Birch", "Cedar77", "Cedar7", "Damson", "Elm", "Fir", "Gorse")
            ],
            ("Host", "Cedar was lynched."),
        )
    )
    # two accounts shorten to "Cedar": neither is it, and the listed seat stays as the moderator
    # wrote it
    assert [(p.name, p.replacements) for p in facts.players][2] == ("Cedar", ())
    facts = read_thread_facts(
        make_thread(
            (
                "Host",
                "Alive<br>Alder Mafia Goon<br>Birch Mafia Goon<br>Dead<br>Cedar Vanilla Towny lynched D3<br>"
                "Damson Weak Doctor killed N3<br>Elm Vanilla Towny lynched D1<br>Fir Cop killed N1<br>"
                "Gorse Vanilla Towny endgamed D5",
            ),
            *[
                (name, "hi")
                for name in ("Alder", "Birch", "Cedar77", "Damson", "Elm", "Fir", "Gorse")
            ],
            ("Host", "It is Day 1."),
            ("Alder", "hi"),
            ("Host", "Cedar was lynched."),
        )
    )
    assert [p.name for p in facts.players][2] == "Cedar77"
    assert "Cedar77" in [e.player for e in facts.eliminations]  # "Cedar was lynched" names the seat


def test_a_listed_name_that_never_posted_stays_with_its_fate_between_posted_lines():
    seats = _seats(
        "Players:<br><s>Oldalder</s> Alder (Mafia Goon — died Day 3)<br>Birch (Vanilla Townie — died Night 1)<br>"
        "Quietone (Vanilla Townie — died Night 0)<br>Cedar<br>Damson (Vanilla Townie — died Day 1)<br>Elm<br>Fir<br>"
        "Gorse<br>This game's wiki page has a short summary.",
    )
    assert list(seats) == [
        "Oldalder",
        "Birch",
        "Quietone",
        "Cedar",
        "Damson",
        "Elm",
        "Fir",
        "Gorse",
    ]


def test_a_role_broken_onto_its_own_line_or_a_slip_in_a_list_of_fates_is_no_seat():
    """ "Mafia Goon, lynched Day 1" (the end of the line above) never posted and is a role; "Gorsr,
    Vanilla Townie" in the fates under the list is a slip for "Gorse", vouched for by no new name
    around it."""
    seats = _seats(
        "Players:<br>Alder<br>Birch<br>Cedar<br>Damson<br>Elm<br>Fir<br>Gorse<br>Results:<br>"
        "Alder, Vanilla Townie, lynched Day 2<br>Birch, Vanilla Townie, killed Night 1<br>Gorsr, Vanilla Townie, "
        "survived<br>Cedar, Vanilla Townie, survived<br><br>Damson,<br>Mafia Goon, lynched Day 1<br>"
        "Elm, Vanilla Townie, killed Night 2<br>Fir, Cop, killed Night 3",
    )
    assert list(seats) == list(PLAYERS)
    seats = _seats(
        "Players:<br>Alder,<br>Mafia Goon, lynched Day 1<br>Birch, Vanilla Townie, killed Night 1<br>"
        "Cedar, Vanilla Townie, survived<br>Damson, Cop, killed Night 2<br>Elm<br>Fir<br>Gorse",
    )
    assert list(seats) == list(PLAYERS)


def test_a_flip_names_a_seat_by_the_first_word_of_its_account_when_one_account_alone_starts_so():
    thread = make_thread(
        ("Host", "Players<br>Alder Brook Jr<br>Birch<br>Cedar<br>Damson<br>Elm<br>Fir<br>Gorse"),
        *(
            (name, "hi")
            for name in ("Alder Brook Jr", "Birch", "Cedar", "Damson", "Elm", "Fir", "Gorse")
        ),
        ("Host", "Birch was lynched. It is now night 1."),
        ("Host", "Day 2<br>{Alder, Compulsive Neighborizer (Town), has been killed.}"),
    )
    assert [(d.player, d.phase) for d in read_thread_facts(thread).deaths] == [
        ("Alder Brook Jr", "night 1")
    ]


def test_words_to_a_player_and_talk_after_the_game_was_won_tell_no_deaths():
    facts = read_game(
        ("Host", "Alder, you called out the scum team Day 1, well done."),
        ("Host", "Birch has been lynched! They were a Vanilla Townie!"),
        ("Host", "Cedar has won! He was a Mafia Goon!"),
        ("Host", "Notable players:<br>-Damson, day 1<br>never forget"),
    )
    assert [(e.day, e.player) for e in facts.eliminations] == [(1, "Birch")]
    assert facts.deaths == ()


def test_a_name_that_never_posted_ends_where_its_role_begins_and_a_one_shot_role_is_no_death():
    facts = read_thread_facts(
        make_thread(
            (
                "Host",
                "Living Players<br>Alder Vanilla Townie<br>Birch (replaces Oldbirch) Town Doctor<br>"
                "Quietone Town 1-Shot Vigilante<br>Cedar (replaces Oldcedar) Vanilla Townie<br>Damson Vanilla Townie"
                "<br>Dead Players<br>Elm Mafia Goon Lynched Day 1<br>Fir Vanilla Townie Killed Night 1<br>"
                "Gorse, Mafia Goon Lynched Day 2",
            ),
            *CHATTER,
        )
    )
    assert [(p.name, p.dead) for p in facts.players][:5] == [
        ("Alder", False),
        ("Oldbirch", False),
        ("Quietone", False),
        ("Oldcedar", False),
        ("Damson", False),
    ]


def test_a_replacement_with_the_verb_in_quotes_is_read():
    facts = read_game(
        ("Host", 'Yew "replaces" Birch, effective immediately. Yew is an alt of Birch.'),
        ("Host", "Quince “replaces” Cedar."),
    )
    assert [(r.player, r.new, r.post) for r in facts.replacements] == [
        ("Birch", "Yew", 8),
        ("Cedar", "Quince", 9),
    ]


def test_the_list_posts_own_replacement_lines_chain_into_the_seats():
    """A timeline kept under the list names the seat's earlier accounts the list line leaves out."""
    seats = _seats(
        "Alive<br>Alder, Goon<br>Birch, Goon<br>Dead<br>Cedar, Cop, killed Night 1<br>Damson, Doctor, lynched Day 1<br>"
        "Elm rep rep, Vanilla Townie, endgamed Day 3<br>Fir, Vanilla Townie<br>Gorse, Vanilla Townie<br>"
        "Game timeline<br>Day 1 begins<br>Midelm replaces Firstelm<br>Day 2 begins<br>Elm replaces Midelm<br>Endgame",
        *PLAYERS,
        "Firstelm",
        "Midelm",
    )
    assert seats["Firstelm"] == ("Firstelm", "Midelm", "Elm")
    assert len(seats) == 7


def test_a_listed_name_off_by_its_trailing_digits_is_the_one_account_that_close():
    """The moderator types "Rob13" for the account "Rob14", in the list and when announcing the
    replacement, which dates it."""
    thread = make_thread(
        (
            "Host",
            "Players<br>1. Alder<br>2. Rob13 (replacing Oldbirch)<br>3. Cedar<br>4. Damson<br>5. Elm",
        ),
        *[(name, "hi") for name in ("Alder", "Oldbirch", "Cedar", "Damson", "Elm", "Rob14")],
        ("Host", "Day 1 begins."),
        ("Host", "Rob13 replaces Oldbirch."),
    )
    facts = read_thread_facts(thread)
    assert facts.seat_accounts()["Oldbirch"] == ("Oldbirch", "Rob14")
    assert [(r.player, r.new, r.post) for r in facts.replacements] == [("Oldbirch", "Rob14", 8)]


def test_a_name_both_lists_give_is_a_seat_whoever_posted_beside_it():
    """ "Hazel88" in the roster and in the fates under it is no slip, though its neighbours in the
    fates repeat the roster; the one account of its stem that posted ("Hazel1", the account
    renamed) holds it."""
    roster = (
        "Alder<br>Birch*<br>Cedar<br>Damson<br>Elm<br>Hazel88<br>Fir <s>Oldfir</s> <s>Olderfir</s>"
    )
    roster += "<br>Gorse*"
    fates = ", Vanilla Townie, survived<br>".join((*PLAYERS, "Hazel88"))
    opening = f"Players:<br>{roster}<br><br>Results:<br>{fates}, Vanilla Townie, survived"
    seats = _seats(opening, *PLAYERS, "Hazel1")
    assert len(seats) == 8
    assert seats["Hazel1"] == ("Hazel1",)


def test_a_replacement_line_joins_a_listed_seat_to_the_seat_an_earlier_replacement_gives():
    """The opening kept up to date lists "6. Hazel" among the dead, and under it the events:
    "Midhazel replaces Oldhazel", then "Hazel replaces Midhazel": one seat, not two."""
    opening = (
        "Alive players:<br>1. Alder<br>2. Birch<br><br>Dead People<br>"
        "3. Cedar - Vanilla Town, lynched day 1.<br>4. Damson - Cop, killed night 1.<br>"
        "5. Elm - Vanilla Town, lynched day 2.<br>6. Hazel - Vanilla Town, killed night 2.<br><br>"
        "Important Events<br>Midhazel replaces Oldhazel<br>Hazel replaces Midhazel<br>"
        "Cedar lynched day 1."
    )
    posters = ("Alder", "Birch", "Cedar", "Damson", "Elm", "Oldhazel", "Midhazel", "Hazel")
    seats = _seats(opening, *posters)
    assert len(seats) == 6 and seats["Oldhazel"] == ("Oldhazel", "Midhazel", "Hazel")
    # two numbered seats stay two, whatever a line between them says
    numbered = opening.replace("Important Events<br>", "7. Midhazel<br><br>")
    assert len(_seats(numbered, *posters)) == 7


def test_a_fates_line_led_by_the_phase_its_player_died_in_is_a_dead_seat():
    """The opening kept up to date: the living, then "- Day 1, Elm, Vanilla Townie" for the dead (a
    timeline's "- Day 1: Elm lynched" below names no seat)."""
    opening = (
        "Alive:<br>Alder<br>Birch<br>Cedar<br>Damson<br><br>Dead:<br>"
        "- Day 1, Elm, Vanilla Townie<br>- Night 1, Fir, Town Doctor<br>"
        "- Day 2, Gorse replaces Oldgorse, Vanilla Townie<br><br>"
        "Timeline:<br>- Day 1: Elm lynched<br>- Night 1: Fir night killed<br>- Day 2: Gorse lynched"
    )
    facts = read_thread_facts(
        make_thread(("Host", opening), *[(n, "hi") for n in (*PLAYERS, "Oldgorse")])
    )
    assert facts.seat_accounts() == {
        **{name: (name,) for name in PLAYERS[:6]},
        "Oldgorse": ("Oldgorse", "Gorse"),
    }
    assert [p.name for p in facts.players if p.dead] == ["Elm", "Fir", "Oldgorse"]


def test_a_list_numbered_again_under_its_own_heading_whose_names_never_posted_is_no_seats():
    """ "Replacements list: 1) Standby 2) Spareone" below the players 1 to 7 are players waiting to
    replace in; the living and the dead, each numbered from 1, are one list."""
    players = "<br>".join(f"{n}) {name}" for n, name in enumerate(PLAYERS, 1))
    seats = _seats(f"Players<br>{players}<br>Replacements list<br>1) Standby<br>2) Spareone")
    assert list(seats) == list(PLAYERS)
    parts = "Alive<br>1) Alder<br>2) Birch<br>3) Cedar<br>Dead<br>1) Damson<br>2) Elm<br>3) Fir<br>4) Gorse"
    assert list(_seats(parts, *PLAYERS[:3])) == list(PLAYERS)


def test_a_letter_raised_after_a_name_is_a_prod_mark_no_earlier_account():
    """ "Elm<sup>X</sup>" under "Note: an X is a prod": Elm's seat alone, not an account "X" that
    would join it to "Gorse<sup>X</sup><sup>X</sup>"; "Fir<sup>Oldfir</sup>" is Fir's earlier
    account."""
    lines = [f"{n}. {name}" for n, name in enumerate(PLAYERS[:4], 1)]
    lines += [
        "5. Elm<sup>X</sup>",
        "6. Fir<sup><s>Oldfir</s></sup>",
        "7. Gorse<sup>X</sup><sup>X</sup>",
    ]
    seats = _seats("Players<br>" + "<br>".join(lines) + "<br>Note: an X is a prod.")
    assert seats == {
        **{name: (name,) for name in PLAYERS[:5]},
        "Oldfir": ("Oldfir", "Fir"),
        "Gorse": ("Gorse",),
    }


def test_a_bbcode_tag_left_unrendered_is_markup_not_part_of_a_name():
    """ "8. Oldhazel[/strike] Hazel": the seat of Oldhazel, then Hazel, not an account "/strike]
    Hazel"; a name in brackets stays a name."""
    assert read_lines("Oldhazel**[/strike] Hazel<br>Cedar, Vanilla Townie[/b][/u]<br>[winger]") == [
        "Oldhazel** Hazel",
        "Cedar, Vanilla Townie",
        "[winger]",
    ]
    players = "<br>".join(f"{n}. {name}" for n, name in enumerate(PLAYERS[:6], 1))
    seats = _seats(f"Players<br>{players}<br>7. <s>Oldgorse**[/strike]</s> Gorse", *PLAYERS)
    assert seats["Oldgorse"] == ("Oldgorse", "Gorse")


def test_a_title_after_mod_and_the_reviewers_after_the_moderators_are_no_moderators():
    opening = (
        "Moderated by Host and reviewed by Checker, Other.<br>Links<br>Mod thread<br>Moderator Information<br>"
        "Players<br>" + "<br>".join(PLAYERS)
    )
    facts = read_thread_facts(make_thread(("Host", opening), *CHATTER))
    assert facts.moderators == ("Host",)


def test_a_pronoun_replaces_nobody():
    """ "In other news, I'm replacing Birch" (the moderator's news of another game): "I'm" is no
    account; a replacement named by its account still is."""
    facts = read_game(
        ("Host", "In other news, I'm replacing Birch, so wish me well."),
        ("Host", "Hazel is replacing Damson."),
    )
    assert [(r.player, r.new) for r in facts.replacements] == [("Damson", "Hazel")]


def test_a_replacement_told_in_the_passive_names_the_old_account_first():
    """ "Damson is replaced by Hazel" is Hazel replacing Damson, as "has been replaced by" is; it
    never makes "by Hazel" an account of Damson's seat."""
    facts = read_game(
        ("Host", "It is now Day 1."),
        ("Host", "Damson is replaced by Hazel."),
        ("Host", "Elm is now replaced by the wonderful Ivy!"),
        ("Ivy", "hi all, reading in"),
    )
    assert [(r.player, r.new) for r in facts.replacements] == [("Damson", "Hazel"), ("Elm", "Ivy")]
    # a poster who holds a seat ends the name: another player, so the newcomer keeps the moderator's
    # words
    held = read_game(
        ("Host", "It is now Day 1."), ("Elm", "hi"), ("Host", "Damson is replaced by Big Elm.")
    )
    assert [(r.player, r.new) for r in held.replacements] == [("Damson", "Big Elm")]


def test_a_death_the_days_next_count_contradicts_is_taken_back():
    """ "Elm has been modkilled" as a joke: Elm goes on posting and the moderator's next count of
    the day lists Elm not voting, so Elm is alive; Fir, left out of the next day's count, died in
    the night."""
    facts = read_game(
        ("Host", "It is now Day 1."),
        ("Host", "Elm has been modkilled for bringing a game that was not mine."),
        ("Elm", "YOU CANNOT MODKILL ME"),
        (
            "Host",
            "Vote Count 1.02<br>Birch (2): Cedar, Alder<br>Not Voting (5): Birch, Damson, Elm, Fir, Gorse<br>"
            "With 7 alive, it takes 4 to lynch.",
        ),
        ("Host", "Birch has been lynched. He was a Vanilla Townie. It is now Night 1."),
        (
            "Host",
            "Vote Count 2.00<br>Not Voting (5): Alder, Cedar, Damson, Elm, Gorse<br>"
            "With 5 alive, it takes 3 to lynch.",
        ),
    )
    assert [(d.player, d.phase) for d in facts.deaths] == [("Fir", "night 1")]
    assert [(e.player, e.day) for e in facts.eliminations] == [("Birch", 1)]


def test_a_death_stays_when_the_player_is_silent_or_the_count_leaves_the_seat_out():
    kept = read_game(
        ("Host", "It is now Day 1."),
        ("Host", "Elm has been modkilled for insulting other players."),
        (
            "Host",
            "Vote Count 1.02<br>Birch (2): Cedar, Alder<br>Not Voting (4): Birch, Damson, Fir, Gorse<br>"
            "With 6 alive, it takes 4 to lynch.",
        ),
    )
    assert [(d.player, d.phase, d.post) for d in kept.deaths] == [("Elm", "day 1", 9)]
    # the moderator's count lists Elm by mistake, but Elm has not posted since: the death stands
    listed = read_game(
        ("Host", "It is now Day 1."),
        ("Host", "Elm has been modkilled for insulting other players."),
        (
            "Host",
            "Vote Count 1.02<br>Birch (2): Cedar, Alder<br>Not Voting (5): Birch, Damson, Elm, Fir, Gorse<br>"
            "With 7 alive, it takes 4 to lynch.",
        ),
    )
    assert [d.player for d in listed.deaths] == ["Elm"]


def test_a_replacement_running_on_without_a_stop_and_one_that_will_replace():
    facts = read_game(
        ("Host", "It is now Day 1."),
        ("Host", "Hazel Replaces Alder Since it's really late, I'll make a vote count tomorrow"),
        ("Host", "Rowan will replace Birch."),
        ("Host", "I will replace Cedar if he does not post today."),  # a condition: nothing read
    )
    assert [(r.player, r.new, r.post) for r in facts.replacements] == [
        ("Alder", "Hazel", 9),
        ("Birch", "Rowan", 10),
    ]


def test_a_list_kept_up_to_date_names_the_last_account_and_a_replacement_gives_the_earlier_ones():
    """The opening post edited after the game lists each seat's last account; "Fir replaces Oldfir"
    then names the seat's earlier account, and so does a chain told in the order it happened."""
    facts = read_thread_facts(
        make_thread(
            ("Host", "Players<br>" + "<br>".join(PLAYERS)),
            ("Firstgorse", "hello"),
            ("Midgorse", "hello"),
            *CHATTER,
            ("Oldfir", "hi"),
            ("Host", "It is now Day 1."),
            ("Host", "Midgorse replaces Firstgorse."),
            ("Host", "Fir replaces Oldfir!"),
            ("Host", "Gorse replaces Midgorse."),
            ("Host", "Stranger replaces Nobody."),  # neither is any seat's: nothing read
        )
    )
    seats = facts.seat_accounts()
    assert seats["Fir"] == ("Fir", "Oldfir") and seats["Gorse"] == (
        "Gorse",
        "Midgorse",
        "Firstgorse",
    )
    assert len(seats) == len(PLAYERS) and facts.replacements == ()


def test_a_count_complete_by_its_stated_number_alive_reads_a_death_its_player_says_goodbye_after():
    facts = read_game(
        ("Host", "Alder has been lynched. He was Vanilla Town.<br>Night 1 begins now."),
        (
            "Host",
            "Fir thought the whole quest was stupid, so he just left.",
        ),  # flavour: no death read
        (
            "Host",
            "Vote Count 2.00<br>Not Voting (5): Birch, Cedar, Damson, Elm, Gorse<br>"
            "With 5 alive, it takes 3 to lynch.",
        ),
        ("Fir", "bah, it was stupid anyway"),  # a parting word
        ("Birch", "[vote]Cedar[/vote]"),
    )
    assert [(d.player, d.phase, d.cite.post) for d in facts.deaths] == [("Fir", "night 1", 10)]


def test_day_ones_deadline_told_after_players_voted_keeps_the_start_at_the_opening():
    """ "Day 1 Ends Sunday ..." says day 1 is running: the votes cast before it stand."""
    facts = read_game(
        ("Alder", "Vote: Birch"),
        ("Host", "Day 1 Ends Sunday 15th March 20:30 GMT. With 7 Alive it takes 4 to lynch."),
    )
    assert [(s.day, s.post) for s in facts.day_starts] == [(1, 0)]
    assert [(d.day, d.time.day, d.time.month) for d in facts.deadlines] == [(1, 15, 3)]
    started = read_game(
        ("Alder", "Vote: Birch"), ("Host", "It is now Day 1. With 7 Alive it takes 4 to lynch.")
    )
    assert [(s.day, s.post) for s in started.day_starts] == [(1, 9)]


def test_a_replacement_taken_for_a_co_moderator_tells_no_news():
    """The replacement's own posts, read while he was taken for a co-moderator, are a player's
    guesses: "Maestro was killed" is no death, "It is now Night 1, says my count" ends no day."""
    facts = read_game(
        ("Host", "It is now Day 1."),
        ("Newbie", "Vote Count 1.2<br>Alder (1): Birch<br>Not voting: Cedar"),
        ("Host", "Newbie replaces Gorse."),
        ("Newbie", "It is now Night 1, says my count. Elm was killed by the vig, I bet."),
        ("Birch", "vote: Cedar"),
    )
    assert facts.moderators == ("Host",) and facts.moderators_cite is None
    assert facts.deaths == () and [(e.day, e.post) for e in facts.day_ends] == []
    assert [(r.player, r.new, r.post) for r in facts.replacements] == [("Gorse", "Newbie", 10)]


def test_a_pictures_placeholder_in_a_list_item_is_no_seat():
    """An avatar list where one player has no picture: the item shows "no avatar" where the image
    would be, and the name below it is the seat (the placeholder is never a player), at the start
    and on a finished thread."""

    def items(note: str) -> str:
        return "".join(
            f'<li><img src="https://f.example/a{n}.png" alt="Image"><br>{name}<br></li>'
            if name != "Damson"
            else f'<li><span style="font-size:smaller">no avatar</span><br>Damson{note}<br></li>'
            for n, name in enumerate(PLAYERS)
        )

    seats = _seats(f"Welcome!<br><ol>{items('')}</ol>Day 1 begins now.", "Alder")
    assert seats == {name: (name,) for name in PLAYERS}
    note = ' <span style="font-size:50%">replaced Oldamson</span>'
    seats = _seats(f"Welcome!<br><ol>{items(note)}</ol>Day 1 begins now.", *PLAYERS, "Oldamson")
    assert "no avatar" not in seats and len(seats) == len(PLAYERS)
    assert seats["Oldamson"] == ("Oldamson", "Damson")


def test_a_hydras_heads_named_in_the_lists_note_are_accounts_of_its_seat():
    """ "Cedar (hydra of Cyan and Teal)": one seat played by two people; each head may post and vote
    under its own account, at the start (nobody has posted) as on a finished thread. A hydra whose
    heads are private keeps its one account."""
    opening = (
        "Players:<br>1. Alder<br>2. Birch (hydra, private heads)<br>3. Cedar (hydra of Cyan and Teal)<br>"
        "4. Damson (a Hydra of Dun, Umber &amp; Sepia)<br>5. Elm<br>6. Fir<br>7. Gorse"
    )
    for posters in (("Alder",), (*PLAYERS, "Teal")):
        seats = _seats(opening, *posters)
        assert len(seats) == len(PLAYERS) and seats["Birch"] == ("Birch",)
        assert seats["Cedar"] == ("Cedar", "Cyan", "Teal")
        assert seats["Damson"] == ("Damson", "Dun", "Umber", "Sepia")


def test_the_game_told_won_while_a_day_is_open_ends_that_day():
    """No "lynched", no "Night": the game's end is the open day's end, and the flip it tells is the
    lynch. A win told as a condition ("Town wins if ...") ends nothing."""
    facts = read_game(
        ("Alder", "VOTE: Birch"),
        ("Host", "Remember: the town wins if the last mafia goon is lynched."),
        ("Cedar", "VOTE: Birch"),
        (
            "Host",
            "Birch was the last mafia goon and, with that, the town fulfills its win condition!<br>"
            "I'll post the night actions later.",
        ),
        ("Cedar", "gg all"),
    )
    assert [(e.day, e.post) for e in facts.day_ends] == [(1, 11)]
    assert [(e.day, e.player, e.post) for e in facts.eliminations] == [(1, "Birch", 11)]
    assert facts.deaths == ()
    unnamed = read_game(("Alder", "VOTE: Birch"), ("Host", "Town wins!"), ("Birch", "gg"))
    assert [(e.day, e.post) for e in unnamed.day_ends] == [(1, 9)] and unnamed.eliminations == ()


def test_a_role_told_with_the_lynch_in_an_open_day_is_its_lynch_by_nickname_too():
    """ "Quil is a VT, official lynch scene here later": the day's lynch, told before its write-up,
    of the player whose account alone starts with the name. A role told with no word of the lynch,
    or as a condition, ends nothing."""
    names = ("Alder", "Birchwood", "Cedar", "Damson", "Elm", "Fir", "Gorse")
    opening = ("Host", "Players<br>" + "<br>".join(names))
    chatter = [(name, f"hello from {name}") for name in names]
    facts = read_thread_facts(
        make_thread(
            opening,
            *chatter,
            ("Host", "Damson is a Mason with Elm, as the setup says."),
            ("Host", "If Alder is a VT, the lynch went wrong."),
            ("Alder", "VOTE: Birchwood"),
            ("Host", "Birch is a VT, official lynch scene here later."),
            ("Host", "Cedar, Vanilla Townie, was killed Night 1."),
        )
    )
    assert [(e.day, e.player, e.post) for e in facts.eliminations] == [(1, "Birchwood", 11)]
    assert [(e.day, e.post) for e in facts.day_ends] == [(1, 11)]
    assert [(s.day, s.post) for s in facts.day_starts] == [(1, 0), (2, 12)]


def test_a_flip_names_its_player_as_the_moderator_spells_him_one_letter_off():
    """ "The Ruffling was a Mafia goon" for the account "The Rufflig": the lynch the day's end post
    tells, with the tolerance the list reader gives the moderator's names (one letter off, six
    letters at least)."""
    names = ("Alder", "The Rufflig", "Cedar", "Damson", "Elm", "Fir", "Gorse")
    facts = read_thread_facts(
        make_thread(
            ("Host", "Players<br>" + "<br>".join(names)),
            *[(name, f"hello from {name}") for name in names],
            ("Alder", "VOTE: The Rufflig"),
            (
                "Host",
                "Claiming a role so you don't get lynched.<br>The Ruffling was a Mafia goon<br>Night starts now",
            ),
        )
    )
    assert [(e.day, e.player, e.post) for e in facts.eliminations] == [(1, "The Rufflig", 9)]


def test_a_note_in_brackets_between_the_names_and_a_relative_who_replaced_are_read_past():
    """ "Yew (a hydra of two) replaces Birch" is Yew replacing Birch; "Quince (who replaced Cedar),
    Vanilla Townie, killed Night 2" names Quince as Cedar's replacement, and "who" is never an
    account."""
    facts = read_game(
        ("Host", "Yew (Cyan and Teal hydra) replaces Birch. Welcome them."),
        ("Host", "Quince (who replaced Cedar), Vanilla Townie, was killed Night 2!"),
        ("Host", "Hazel, who replaced Damson, is here."),
    )
    assert [(r.player, r.new) for r in facts.replacements] == [
        ("Birch", "Yew"),
        ("Cedar", "Quince"),
        ("Damson", "Hazel"),
    ]
    assert all(
        "who" not in (a.casefold() for a in accounts) for accounts in facts.seat_accounts().values()
    )


def test_replacements_told_with_a_description_in_pairs_agreed_or_welcomed_are_read():
    """ "Yew, a hydra of Cyan and Teal, replaces Birch"; "Quince and Hazel replace Cedar and Damson,
    respectively"; "Ivy has agreed to replace Elm"; "Please give a warm welcome to Juniper who is
    replacing Fir": each names the newcomer and the seat, and no description becomes an account."""
    facts = read_game(
        ("Host", "Edit: Yew, a hydra of Cyan and Teal, replaces Birch."),
        ("Host", "Quince and Hazel replace Cedar and Damson, respectively, effective immediately."),
        ("Host", "Ivy has agreed to replace Elm!"),
        ("Host", "Please give a warm welcome to Juniper who is replacing Fir"),
    )
    assert [(r.player, r.new) for r in facts.replacements] == [
        ("Birch", "Yew"),
        ("Cedar", "Quince"),
        ("Damson", "Hazel"),
        ("Elm", "Ivy"),
        ("Fir", "Juniper"),
    ]


def test_a_bracketed_account_after_a_nickname_is_the_newcomer_and_himself_is_nobody():
    """ "Hawkie (Prohawk) replaces Birch" when Prohawk posts: the account in brackets is the
    newcomer, not the nickname before it; "Cedar is being replaced by himself" names no new
    account."""
    facts = read_game(
        ("Prohawk", "hi"),
        ("Host", "Hawkie (Prohawk) replaces Birch effective immediately."),
        ("Host", "To clear up confusion, Cedar is being replaced by himself!"),
    )
    assert [(r.player, r.new) for r in facts.replacements] == [("Birch", "Prohawk")]


def test_an_announcement_naming_the_lists_newcomer_otherwise_dates_that_account():
    """The list gives Birch's seat to DrippingGoofball; "DGB replaces Birch" is that replacement,
    dated, and never a second account that would take the seat from the one who posts."""
    thread = make_thread(
        (
            "Host",
            "Players<br>"
            + "<br>".join(
                p if p != "Birch" else "Birch replaced by DrippingGoofball" for p in PLAYERS
            ),
        ),
        *CHATTER,
        ("Host", "DGB replaces Birch."),
        ("DrippingGoofball", "hi all"),
    )
    facts = read_thread_facts(thread)
    assert facts.seat_accounts()["Birch"] == ("Birch", "DrippingGoofball")
    assert [(r.player, r.new) for r in facts.replacements] == [("Birch", "DrippingGoofball")]


def test_an_announcement_of_the_lists_newcomer_by_the_account_it_posts_as_dates_it():
    """An opening edited as the game went ("Birch replaced by Yew") and the moderator's later "Yew
    replaces Birch": Yew holds the seat from that announcement's post, as a file kept from the start
    would say."""
    thread = make_thread(
        (
            "Host",
            "Players<br>"
            + "<br>".join(p if p != "Birch" else "Birch replaced by Yew" for p in PLAYERS),
        ),
        *CHATTER,
        ("Host", "Yew replaces Birch."),
        ("Yew", "hi all"),
    )
    facts = read_thread_facts(thread)
    assert facts.seat_accounts()["Birch"] == ("Birch", "Yew")
    announced = len(CHATTER) + 1
    assert [(r.player, r.new, r.post) for r in facts.replacements] == [("Birch", "Yew", announced)]


def test_a_list_numbering_every_seat_gives_the_seats_in_the_numbers_order():
    """An opening kept up to date shows the living apart from the dead: the seats are still 1 to 7
    in order, as the moderator numbered them (and as day 1's first count, or a file kept from the
    start, has them)."""
    numbered = dict(enumerate(PLAYERS, start=1))
    alive, dead = (4, 1, 6, 3, 7), (5, 2)
    opening = (
        "Alive:<br>"
        + "<br>".join(f"{n}. {numbered[n]}" for n in alive)
        + "<br><br>Dead:<br>"
        + "<br>".join(f"{n}. {numbered[n]}" for n in dead)
    )
    facts = read_thread_facts(make_thread(("Host", opening), *CHATTER))
    assert [p.name for p in facts.players] == list(PLAYERS)
    unnumbered = (
        "Alive:<br>"
        + "<br>".join(numbered[n] for n in alive)
        + "<br><br>Dead:<br>"
        + "<br>".join(numbered[n] for n in dead)
    )
    assert [
        p.name for p in read_thread_facts(make_thread(("Host", unnumbered), *CHATTER)).players
    ] == [numbered[n] for n in (*alive, *dead)]


def test_replaces_in_for_names_the_player_replaced():
    """ "Yew replaces in for Birch": the player replaced is Birch, not "in for Birch"."""
    facts = read_game(
        ("Host", "Yew replaces in for Birch. Deadline for Night Two is Thursday."), ("Yew", "hi")
    )
    assert [(r.player, r.new) for r in facts.replacements] == [("Birch", "Yew")]


@pytest.mark.parametrize(
    ("body", "night"),
    [
        ("The village has spoken: Birch was lynched. He was a Villager.<br>Night falls.", True),
        ("Birch was lynched! Birch was a Vanilla Townie.<br>Night 1 begins.", True),
        ("Birch has been lynched. See you in the morning!", True),
        ("No one was lynched. Send your night actions.", True),
        ("Day 1 is over. Birch, the Seer, has been lynched.", True),
        ("The sun rises. Damson was found eaten by the werewolves.<br>Day 2 begins.", False),
        ("Birch was lynched. The next morning, Elm was found dead.", False),  # the day's news too
        ("Elm was killed in the night. It is now Day 2.", False),
        ("Good morning! Elm has died. Elm was a Villager.", False),
        ("END OF NIGHT 1 Elm died. Elm was lynched by the wolves' lies.", False),
        ("I will open the thread when Day 2 begins.", False),
        ("Reminder: 2 hours to the deadline.", False),  # nothing told: may open a day, as before
    ],
)
def test_a_moderators_post_that_tells_the_night_and_opens_no_day(body, night):
    # millers-hollow-master-rules.txt: "Once day is over, night starts ... flavor text announcing
    # the next day and who was eaten by the werewolves will occur once all the night time
    # activities are finished": the lynch's and the night's post opens no day; the morning's does.
    from assistant.reading.announcements.night import tells_night

    assert tells_night(body) is night


def test_a_role_in_brackets_then_killed_and_the_night():
    facts = read_game(
        ("Host", "Alder (Vanilla Townie) lynched day 1<br>Night one ends Thursday."),
        (
            "Host",
            "Everyone wakes up. Well, almost everyone.<br>Birch (Vanilla Townie) killed night one.<br>"
            "With 5 alive it's 3 to lynch.",
        ),
    )
    assert [(e.day, e.player) for e in facts.eliminations] == [(1, "Alder")]
    assert [(d.player, d.phase, d.cause) for d in facts.deaths] == [
        ("Birch", "night 1", "night kill")
    ]


def test_a_lynch_foretold_on_a_condition_is_no_lynch():
    facts = read_game(
        (
            "Host",
            "Vote Count 1.3<br>Alder (2) - Birch, Cedar<br>With 7 alive, 4 to lynch.<br>"
            "Alder will be lynched at deadline if votes don't change.",
        ),
        ("Host", "Birch was lynched Day 1. He was a Mafia Goon."),
    )
    assert [(e.day, e.player, e.post) for e in facts.eliminations] == [(1, "Birch", 9)]
    assert [(e.day, e.post) for e in facts.day_ends] == [(1, 9)]


def test_a_role_told_with_no_article_of_the_wagon_a_count_marks_at_majority_is_the_lynch():
    facts = read_game(
        (
            "Host",
            "Vote Count 1.4<br>Alder - Birch, Cedar, Damson, Elm (L-0)<br>Birch - Alder (L-3)<br>"
            "With 7 alive it takes 4 to lynch<br>The town dragged him off at last. Alder was Mafia Goon",
        ),
    )
    assert [(e.day, e.player, e.post) for e in facts.eliminations] == [(1, "Alder", 8)]
    # marked hammered in the count, the role told in the next post
    facts = read_game(
        ("Host", "Vote Count 1.2<br>Not Voting: Fir<br>Birch: Cedar, Damson, Elm (Hammered!)"),
        ("Host", "The crowd closes in.<br>Birch was a Vanilla Townie."),
    )
    assert [(e.day, e.player, e.post) for e in facts.eliminations] == [(1, "Birch", 9)]


def test_a_count_that_lists_the_voters_without_numbers_gives_the_wagon_at_majority():
    facts = read_game(
        (
            "Host",
            "Vote Count 1.5:<br>Cedar: Alder, Birch, Damson<br>Birch: Cedar<br>"
            "With 5 alive, it takes 3 to lynch.",
        ),
        ("Host", "The day is long. Night 1 has begun, all actions are due in 48 hours!"),
    )
    assert [(e.day, e.player, e.post) for e in facts.eliminations] == [(1, "Cedar", 9)]


def test_the_lynchee_and_a_role_told_with_the_day_in_words_after_a_count_named_current_or_final():
    facts = read_game(
        ("Host", "Flip later. Thread locked since I believe someone has been hammered."),
        (
            "Host",
            "Current VC 1.3<br>Alder: Birch, Cedar, Damson, Elm [L-0]<br>With 7 alive it will take 4 "
            "votes to Lynch.<br>A lynch has been reached. Alder was the lynchee. He was a Vanilla "
            "Townie.<br>Night 1 starts now.",
        ),
        ("Host", "Nobody died. Day 2 begins now."),
        ("Fir", "hello"),
        (
            "Host",
            "Birch, Town Neighbor, stoked the fireplace day two.<br>Night Two begins now.",
        ),
        ("Host", "Nobody died. It is now Day 3."),
        ("Fir", "hello"),
        (
            "Host",
            "Final Day 3 Vote Count<br>Cedar - Damson, Elm, Fir (Lynched)<br>With 5 alive it takes 3 "
            "to lynch<br>Cedar was Town Doctor<br>It's night three.",
        ),
    )
    assert [(e.day, e.player, e.post) for e in facts.eliminations] == [
        (1, "Alder", 9),
        (2, "Birch", 12),
        (3, "Cedar", 15),
    ]
    assert [(e.day, e.post) for e in facts.day_ends] == [(1, 8), (2, 12), (3, 15)]


def test_a_hammered_player_and_a_lynch_told_under_a_spelling_no_account_has():
    facts = read_game(
        (
            "Host",
            "Vote Count 1.6<br>Birch (4) - Alder, Cedar, Damson, Elm<br>With 7 alive, 4 to lynch.",
        ),
        ("Host", "Birchbirchbirch, Vanilla Townie, was lynched on Day 1."),
    )
    assert [(e.day, e.player, e.post) for e in facts.eliminations] == [(1, "Birch", 9)]
    # no count at majority: an unknown name lynches nobody
    facts = read_game(("Host", "Birchbirchbirch, Vanilla Townie, was lynched on Day 1."))
    assert facts.eliminations == ()
    facts = read_game(("Host", "Someone hammered. Damson has been Hammered! Their role was Cop."))
    assert [(e.day, e.player, e.post) for e in facts.eliminations] == [(1, "Damson", 8)]


def test_a_game_told_over_in_flavour_goes_on_when_a_day_starts():
    facts = read_game(
        ("Host", "Alder is gone. GAME OVER MAN. GAME OVER.<br>Night 1 begins now."),
        ("Host", "Birch has died Night 1! He was a Vanilla Townie.<br>Day 2 begins!"),
        ("Fir", "hello"),
        ("Host", "Cedar - Vanilla Townie was lynched Day 2!"),
    )
    assert [(e.day, e.player) for e in facts.eliminations] == [(2, "Cedar")]


def test_a_day_opened_by_its_dawn_has_no_lynch_yet():
    # a day the dawn opens is as new as one "Day 2 begins" opens: the lynch told belongs to day 1
    state = State()
    state.open_day(1, 0, None, Cite(0, "Day 1"))
    lynch, dawn = make_thread(
        ("Host", "Alder was lynched."), ("Host", "Nobody died last night. Deadline in 48 hours.")
    )
    state.end_day_by_lynch(lynch, Cite(lynch.number, "Alder was lynched."))
    read_dawn(dawn, read_lines(dawn.body_html), state, UTC)
    assert (state.phase.day, state.phase.night, state.phase.ended, state.phase.lynched) == (
        2,
        False,
        False,
        False,
    )
