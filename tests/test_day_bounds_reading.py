"""Day bounds read from the moderator's posts: a post that only mentions an end (a countdown, the
rules, a question) ends no day, and one post does not both open and close a new day. Real wording
each."""

from __future__ import annotations

from test_announcements import CHATTER, PLAYERS, make_thread

from assistant.reading.announcements import read_thread_facts

OPENING = ("Host", "Players<br>" + "<br>".join(PLAYERS))
LYNCH = ("Host", "Birch was lynched. He was a Vanilla Townie. Night 1 begins now.")


def bounds(*posts: tuple[str, str]):
    """(day starts, day ends) as (day, post), of a thread: the opening post, each player's hello
    (posts 1-7), then ``posts`` from post 8."""
    facts = read_thread_facts(make_thread(OPENING, *CHATTER, *posts))
    return [(s.day, s.post) for s in facts.day_starts], [(e.day, e.post) for e in facts.day_ends]


def test_a_countdown_to_nightfall_ends_no_day():
    # 1521 post 1276: "Day 2: Votecount #3 ... Night falls in (expired on 2013-12-24 12:00:00)"
    count = (
        "Host",
        "Votecount #3<br>Alder (1) - Cedar<br>Night falls in (expired on 2026-03-04 12:00:00)",
    )
    assert bounds(count, ("Alder", "hi"), LYNCH)[1] == [(1, 10)]


def test_a_countdown_to_the_end_of_the_day_ends_no_day():
    # 1690 post 1626: "(expired on 2015-08-01 14:45:00) remain until Day 4 is over."
    count = (
        "Host",
        "Votecount 1.02<br>(expired on 2026-03-05 14:45:00) remain until Day 1 is over.",
    )
    assert bounds(count, ("Alder", "hi"), LYNCH)[1] == [(1, 10)]


def test_a_countdown_to_the_end_of_the_night_tells_the_night_running():
    # 1690 post 464: "Votecount 1.07 ... (expired on 2015-06-30 11:46:00) until Night 1 is over."
    final = (
        "Host",
        "Votecount 1.07<br>Birch (4): Alder, Cedar, Damson, Elm<br>"
        "(expired on 2026-03-04 11:46:00) until Night 1 is over.",
    )
    day_two = (
        "Host",
        "Votecount 2.00<br>With 6 alive, it takes 4 to lynch.<br>"
        "(expired on 2026-03-07 00:00:00) until Day 2 is over.",
    )
    starts, ends = bounds(final, day_two, ("Alder", "hi"))
    assert (starts, ends) == ([(1, 0), (2, 9)], [(1, 8)])


def test_the_rules_of_nights_end_no_day():
    # 1161 post 28: the moderator's word on short nights, in day 1's first count
    rules = (
        "Host",
        "Nights will end after 48 hours or after i have recieved all night actions. This means "
        "you need to send 'no action' PM's to me if you have a night action but do not wish to "
        "use it.",
    )
    assert bounds(rules, ("Alder", "hi"), LYNCH)[1] == [(1, 10)]


def test_a_question_in_a_faq_ends_no_day():
    # 1543 post 544: a list of questions a player may ask the moderator
    faq = (
        "Host",
        "You may ask me:<br>1. Has the moderator of the game declared the game is over?<br>"
        "2. Is it day or night?",
    )
    assert bounds(faq, ("Alder", "hi"), LYNCH)[1] == [(1, 10)]


def test_a_post_that_would_open_and_close_a_new_day_does_neither():
    # 1412 post 1300, in the night: "With 6 alive it will take 4 votes to Lynch" beside "A lynch
    # has been reached" (the story of the day just ended)
    recap = (
        "Host",
        "With 6 alive it will take 4 votes to Lynch. A lynch has been reached. "
        "Birch was the lynchee.",
    )
    starts, ends = bounds(
        LYNCH,
        ("Alder", "hi"),
        recap,
        ("Cedar", "hi"),
        ("Host", "Nobody died last night. It is now Day 2."),
    )
    assert (starts, ends) == ([(1, 0), (2, 12)], [(1, 8)])


def test_a_later_days_deadline_told_during_a_day_starts_no_day():
    # "Day 2 will end at ..." while day 1 is open: the moderator's plan
    plan = ("Host", "Schedule note: Day 2 will end at 18:00 UTC on Friday, 13 March.")
    assert bounds(plan, ("Alder", "hi"), LYNCH) == ([(1, 0)], [(1, 10)])


def test_an_unnumbered_count_at_night_is_the_ended_days_final_count():
    # 1908 posts 1960-1965: the hammer, then "Official Vote Count ... With 13 alive, it takes 7 to
    # lynch" before the lynch's story: the ended day's numbers, not the next day's start
    hammer = ("Host", "That's a hammer. Death scene coming soon")
    final = (
        "Host",
        "Official Vote Count<br>Birch (6): Alder, Cedar, Damson, Elm, Fir, Gorse<br>"
        "With 10 alive, it takes 6 to lynch.",
    )
    story = ("Host", "Birch, a Vanilla Townie, was lynched day 1.<br>Night 1 has fallen!")
    dawn = ("Host", "Cedar, a Vanilla Townie, was killed night 1.<br>Day 2 has dawned!")
    starts, ends = bounds(hammer, final, story, dawn, ("Alder", "hi"))
    assert (starts, ends) == ([(1, 0), (2, 11)], [(1, 8)])


def test_a_day_headed_dawn_starts_that_day():
    # 1908 post 2760: "Day 5 Dawn | No-one died in the night!", then the day's first count
    dawn = ("Host", "Day 2 Dawn<br>The town gathers in the square again.")
    count = (
        "Host",
        "Official Vote Count<br>Not Voting (6): Alder, Cedar<br>With 6 alive, it takes 4.",
    )
    starts, ends = bounds(LYNCH, ("Alder", "hi"), dawn, count, ("Cedar", "hi"))
    assert (starts, ends) == ([(1, 0), (2, 10)], [(1, 8)])
