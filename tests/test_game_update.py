"""`votal update`'s plan, pure: moderator posts in, the game file's new text and its report out."""

from datetime import UTC, datetime
from types import SimpleNamespace

from support import stored_post

from assistant.gamefile.game import parse_game
from assistant.upkeep.update import plan_update
from parsers.page import Post

PLAYERS = ("Ash", "Beech", "Cherry", "Dogwood", "Elder", "Fig", "Gum")


def game_text(*, ruleset: str = "mafiascum", extra: str = "", players: bool = True) -> str:
    seats = "".join(f'\n[[players]]\nname = "{name}"\n' for name in PLAYERS) if players else ""
    return (
        '# kept by hand\ntitle = "Garden Mafia"\nthread = "https://forum.example.org/t/garden/77"\n'
        f'ruleset = "{ruleset}"\nmoderators = ["Gardener"]\n{extra}{seats}'
    )


def chatter(first: int, last: int) -> list[Post]:
    return [
        stored_post(n, PLAYERS[n % len(PLAYERS)], f"<p>thinking about post {n}</p>")
        for n in range(first, last + 1)
    ]


# Discourse-style paragraphs, one announcement per post.
THREAD = [
    stored_post(
        0,
        "Gardener",
        "<p>Welcome to Garden Mafia.</p><p><strong>Players</strong></p><ol>"
        + "".join(f"<li>{name}</li>" for name in PLAYERS)
        + "</ol><p>Day 1 begins now.</p>",
    ),
    *chatter(1, 9),
    stored_post(
        10,
        "Gardener",
        "<p>Cherry has been lynched! Cherry was a <strong>Mafia Goon</strong>.</p>"
        "<p>Night 1 begins. Send in your actions.</p>",
    ),
    stored_post(
        11,
        "Gardener",
        "<p>Dawn breaks. Elder was killed in the night. Elder was a Vanilla Townie.</p>"
        "<p>It is now Day 2.</p>",
    ),
    *chatter(12, 14),
    stored_post(15, "Gardener", "<p>Hazel replaces Fig.</p>"),
    *chatter(16, 18),
    stored_post(19, "Gardener", "<p>Dogwood has been modkilled for inactivity.</p>"),
]


def outcome_of(kind: str, target: str | None, post_number: int):
    return lambda game, day: SimpleNamespace(
        outcome=SimpleNamespace(kind=kind, target=target, post=post_number, reason="majority")
    )


def test_update_writes_each_announcement_once_with_its_cite():
    text = game_text()
    report = plan_update(
        text, THREAD, path="garden.toml", count_day=outcome_of("elimination", "Cherry", 9)
    )
    assert report.alarms == () and report.disagreements == ()
    game = parse_game(report.text)
    assert [(d.day, d.start_post, d.end_post) for d in game.days] == [(1, 0, 10), (2, 11, None)]
    assert [(d.player, d.phase, d.phase_number, d.post) for d in game.deaths] == [
        ("Cherry", "day", 1, None),
        ("Elder", "night", 1, None),
        ("Dogwood", "day", 2, 19),
    ]
    assert game.seat("Fig").replacements == ("Hazel",) and game.seat("Fig").replacement_posts == (
        15,
    )
    assert '# post 15: "Hazel replaces Fig."' in report.text
    assert report.text.startswith("# kept by hand\n")
    again = plan_update(
        report.text, THREAD, path="garden.toml", count_day=outcome_of("elimination", "Cherry", 9)
    )
    assert again.text == report.text and again.written == () and again.disagreements == ()
    assert again.read_after == game.last_named_post() == 19


def test_posts_the_file_already_covers_are_not_read_again():
    text = game_text(
        extra="\n[[days]]\nday = 1\nstart_post = 0\nend_post = 10\n\n[[days]]\nday = 2\nstart_post = 11\n"
    )
    report = plan_update(text, THREAD, path="garden.toml")
    assert report.read_after == 11
    assert not any(
        "Cherry" in line or "Elder" in line for line in report.written
    )  # posts 10-11 are known
    assert any("Hazel" in line for line in report.written)


def test_a_lynch_the_count_does_not_give_is_an_alarm_and_no_decision_is_a_note():
    wrong = plan_update(
        game_text(), THREAD, path="garden.toml", count_day=outcome_of("elimination", "Ash", 8)
    )
    assert wrong.alarms == (
        'DAY 1 OUTCOME DISAGREES: the moderator announced Cherry lynched (post 10: "Cherry has been lynched! Cherry '
        'was a Mafia Goon.") but the count gives Ash lynched (majority, post 8): one of the two is wrong',
    )
    undecided = plan_update(
        game_text(),
        THREAD,
        path="garden.toml",
        count_day=lambda game, day: SimpleNamespace(outcome=None),
    )
    assert undecided.alarms == ()
    assert any("the count has not decided the day" in note for note in undecided.notes)


def test_a_clocked_ruleset_leaves_the_days_to_the_clock_and_writes_the_rest():
    text = game_text(ruleset="witchhunt-online-2.0.1", extra="start = 2026-03-01T22:00:00\n")
    report = plan_update(text, THREAD, path="garden.toml", clocked=True)
    game = parse_game(report.text)
    assert game.days == ()
    assert {d.player for d in game.deaths} == {"Cherry", "Elder", "Dogwood"}
    assert game.seat("Fig").replacements == ("Hazel",)
    assert any("clock" in note for note in report.notes)


def test_a_file_without_players_gets_the_thread_list_first():
    report = plan_update(game_text(players=False), THREAD, path="garden.toml")
    game = parse_game(report.text)
    assert [s.name for s in game.players] == list(PLAYERS)
    assert game.seat("Fig").replacements == ("Hazel",)
    assert len(game.deaths) == 3


def test_a_file_without_moderators_gets_the_opening_posts_author():
    text = game_text().replace('moderators = ["Gardener"]\n', "")
    report = plan_update(text, THREAD, path="garden.toml")
    assert parse_game(report.text).moderators == ("Gardener",)
    assert 'ruleset = "mafiascum"\nmoderators = ["Gardener"]  # ' in report.text
    assert len(parse_game(report.text).deaths) == 3


def test_an_announcement_the_game_file_cannot_hold_is_reported_and_the_rest_written(monkeypatch):
    import assistant.upkeep.update as game_update
    from assistant.reading.announcements import Cite, DeathFact, ReplacementFact, ThreadFacts

    facts = ThreadFacts(
        None,
        ("Gardener",),
        None,
        (),
        (),
        (),
        (),
        (DeathFact("Ash", "night 4", None, "night kill", Cite(19, "Ash died")),),
        (ReplacementFact("Fig", "Hazel", 15, Cite(15, "Hazel replaces Fig.")),),
        (),
    )
    monkeypatch.setattr(game_update, "read_thread_facts", lambda posts, **options: facts)
    text = game_text(extra="\n[[days]]\nday = 1\nstart_post = 0\n")
    report = plan_update(text, THREAD, path="garden.toml")
    assert parse_game(report.text).seat("Fig").replacements == ("Hazel",)
    assert parse_game(report.text).deaths == ()
    assert len(report.disagreements) == 1
    assert (
        "deaths[1].phase" in report.disagreements[0]
        and "(post 19; not written)" in report.disagreements[0]
    )


def test_a_deadline_the_moderator_moves_is_not_written_back_over_the_later_one():
    """A joke "6 minute deadline" put right in the next post: `new` writes the first as the day's
    `end` and the later one as a declared change, which decides the day's end; `update` on the same
    thread writes nothing that moves it back, and one that has only seen the first deadline moves it
    forward the same way, so both files say the same."""
    from assistant.counting.clock import day_bounds
    from assistant.gamefile.rules import load_ruleset
    from assistant.reading.announcements import read_thread_facts
    from assistant.upkeep.new import plan_game_file

    thread = [
        *THREAD[:10],
        stored_post(
            10, "Gardener", "<p>You want a short day? OK. Deadline is Mar 2, 2026 at 8:00 UTC.</p>"
        ),
        stored_post(11, "Gardener", "<p>No, really: the deadline is Mar 9, 2026 at 22:00 UTC.</p>"),
        *chatter(12, 14),
    ]
    later = datetime(2026, 3, 9, 22, tzinfo=UTC)
    ruleset = load_ruleset("mafiascum")
    written = plan_game_file(
        read_thread_facts(thread),
        thread="https://forum.example.org/t/garden/77",
        posts=thread,
        forum="phpbb",
    ).text
    assert day_bounds(parse_game(written), ruleset, 1).end == later
    report = plan_update(written, thread, path="garden.toml")
    assert day_bounds(parse_game(report.text), ruleset, 1).end == later
    seen_first = plan_update(game_text(), thread[:11], path="garden.toml").text
    assert day_bounds(parse_game(seen_first), ruleset, 1).end == datetime(2026, 3, 2, 8, tzinfo=UTC)
    report = plan_update(seen_first, thread, path="garden.toml")
    assert day_bounds(parse_game(report.text), ruleset, 1).end == later
    assert [(e.day, e.kind, e.post, e.time) for e in parse_game(report.text).events] == [
        (1, "deadline", 11, later)
    ]
    assert parse_game(report.text).events == parse_game(written).events
