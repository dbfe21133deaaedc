"""`votal status` data: last sync, posts, day and leader, deadline, open problems."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from loopback_forum import FakeTime, Forum, game_text, make_game, make_posts, serve

from assistant.errors import ForumError
from assistant.forum import store
from assistant.forum.fetch import HostLimiter, make_fetcher
from assistant.forum.sync import sync_game
from assistant.gamefile.game import parse_game
from assistant.output.status import collect_status, format_status_text

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
VOTE = '<strong class="text-strong">VOTE: {}</strong>'


def test_status_of_a_synced_game(monkeypatch) -> None:
    forum = Forum(make_posts(30))
    forum.edit(3, VOTE.format("Birch"))
    forum.edit(4, VOTE.format("Birch"))
    forum.edit(6, VOTE.format("Zanzibar"))
    forum.delete(29)
    db = store.open_db(":memory:")
    with serve(forum) as server:
        day = "[[days]]\nday = 1\nstart_post = 0\nend = 2026-03-03T22:00:00Z\n"
        game = make_game(server.base_url, tables=day, path="games/loop.toml")
        fetcher = make_fetcher(
            game, limiter=HostLimiter(clock=FakeTime().clock, sleep=FakeTime().sleep)
        )
        sync_game(game, db, fetcher, now=lambda: NOW - timedelta(minutes=5))
        forum.posts.append(
            make_posts(1)[0] | {"id": "2000"}
        )  # a new post, and then the forum breaks
        forum.restyle()
        with pytest.raises(ForumError):  # the failure is what status must show
            sync_game(game, db, fetcher, now=lambda: NOW)
    reads = []
    read_posts = store.load_read_posts
    monkeypatch.setattr(
        store, "load_read_posts", lambda *a, **k: reads.append(a) or read_posts(*a, **k)
    )
    status = collect_status(game, db, now=NOW)
    assert (
        len(reads) == 1
    )  # the count and the warnings (which replay the days again) share one read
    assert status == {
        "game": "Loopback Game",
        "file": "games/loop.toml",
        "thread": game.thread,
        "timezone": "UTC",
        "last_sync": NOW.isoformat(),
        "last_sync_ok": (NOW - timedelta(minutes=5)).isoformat(),
        "last_sync_requests": 1,
        "last_sync_faults": 0,
        "syncs_24h": 2,
        "requests_24h": 4,
        "faults_24h": 0,
        "posts": 29,
        "deleted_posts": 0,
        "day": 1,
        "leader": {"target": "Birch", "votes": 2},
        "majority": 3,
        "outcome": None,
        "day_closed": False,  # the game file records no end of the day
        "deadline": "2026-03-03T22:00:00+00:00",
        "deadline_in_seconds": 34 * 3600,
        "problems": [
            "last sync failed: " + status["problems"][0].removeprefix("last sync failed: ")
        ],
        # a vote not counted that could change nothing is a note: in the JSON, not in "needs you"
        "doubts": [],
        "notes": ["post 6: Birch's 'VOTE: Zanzibar' not counted: unknown name"],
        "warnings": [
            "the last sync failed part-way: the day below is counted from the posts stored so far"
        ],
        "alerts": [],
    }
    assert "markup may have changed" in status["problems"][0]
    text = format_status_text(status)
    failed = status["problems"][0]
    assert (
        text.splitlines()
        == [
            "Loopback Game",
            "  needs you (2):",  # what needs the moderator comes first
            f"    {failed}",
            "    warning: the last sync failed part-way: the day below is counted from the posts stored so far",
            "  day 1: Birch 2/3",
            "  deadline: 2026-03-03 22:00 UTC (in 34 h 00 min)",  # in the game's zone, named; JSON keeps ISO UTC
            f"  last sync: {NOW:%Y-%m-%d %H:%M} UTC "
            f"(failed; last good: {NOW - timedelta(minutes=5):%Y-%m-%d %H:%M} UTC)",
            "  last 24 h: 2 syncs, 4 requests",
            "  posts: 29",
            "  notes: 1, nothing to do (votal status --format json lists them)",  # the vote not counted
        ]
    )


def test_status_of_a_game_never_synced() -> None:
    game = parse_game(game_text("http://forum.example"), path="g.toml")
    status = collect_status(game, store.open_db(":memory:"), now=NOW)
    assert (status["last_sync"], status["posts"], status["day"], status["problems"]) == (
        None,
        0,
        None,
        [],
    )
    assert (
        format_status_text(status)
        == "Loopback Game\n  never synced (run: votal sync GAME_FILE)\n  posts: 0"
    )


def test_alerts_show_in_status() -> None:
    from assistant.output.alerts import Alert, AlertKind, deliver_alerts

    game = parse_game(game_text("http://forum.example"), path="g.toml")
    db = store.open_db(":memory:")
    deliver_alerts(
        db, game, [Alert(AlertKind.DEADLINE_NEAR, "deadline:1:x", "Day 1 ends in 40 min.")], now=NOW
    )
    status = collect_status(game, db, now=NOW)
    assert status["alerts"] == [
        {
            "kind": "deadline_near",
            "message": "Day 1 ends in 40 min.",
            "created": NOW.isoformat(),
            "sent": None,
        }
    ]
    assert (
        format_status_text(status).splitlines()[-1]
        == "  last alert (2026-03-02 12:00 UTC): Day 1 ends in 40 min."
    )


def test_status_says_the_hammer_was_read_with_doubt_right_under_the_decided_day() -> None:
    status = collect_status(
        parse_game(game_text("http://forum.example"), path="g.toml"),
        store.open_db(":memory:"),
        now=NOW,
    )
    status |= {
        "day": 2,
        "leader": {"target": "Birch", "votes": 3},
        "majority": 3,
        "outcome": {
            "kind": "elimination",
            "target": "Birch",
            "post": 42,
            "reason": "majority",
            "doubt": "broken tag",
        },
    }
    assert format_status_text(status).splitlines()[1:4] == [
        "  needs you (2):",
        "    day 2 is decided: Birch (majority, post 42)",
        "    the hammer was read with doubt (broken tag): check post 42 before closing the day",
    ]


def test_status_lists_what_needs_the_moderator_first_and_folds_the_rest() -> None:
    status = collect_status(
        parse_game(game_text("http://forum.example"), path="g.toml"),
        store.open_db(":memory:"),
        now=NOW,
    )
    status |= {
        "day": 2,
        "leader": {"target": "Birch", "votes": 3},
        "majority": 3,
        "outcome": {"kind": "elimination", "target": "Birch", "post": 42, "reason": "majority"},
        "problems": [f"post {n}: Elm's 'vote x' not counted: unknown name" for n in range(1, 8)],
        "warnings": ["posts 25-29 lie between day 1 and day 2"],
    }
    lines = format_status_text(status).splitlines()
    assert lines[:8] == [
        "Loopback Game",
        "  needs you (9):",
        "    day 2 is decided: Birch (majority, post 42)",
        "    post 1: Elm's 'vote x' not counted: unknown name",
        "    post 2: Elm's 'vote x' not counted: unknown name",
        "    post 3: Elm's 'vote x' not counted: unknown name",
        "    post 4: Elm's 'vote x' not counted: unknown name",
        "    ... and 4 more (votal status --format json)",
    ]
    assert lines[8] == "  day 2: Birch 3/3"


def test_status_text_shows_times_in_the_games_zone_named_and_json_keeps_utc():
    status = {
        "game": "Zoned",
        "timezone": "America/New_York",
        "day": None,
        "deadline": "2026-03-03T22:00:00+00:00",
        "deadline_in_seconds": 3600,
        "last_sync": "2026-03-02T12:00:00+00:00",
        "last_sync_ok": "2026-03-02T12:00:00+00:00",
        "syncs_24h": 1,
        "requests_24h": 1,
        "faults_24h": 0,
        "posts": 3,
        "deleted_posts": 0,
        "notes": [],
        "alerts": [],
        "problems": [],
        "doubts": [],
        "warnings": [],
        "outcome": None,
        "day_closed": False,
    }
    text = format_status_text(status)
    assert "deadline: 2026-03-03 17:00 EST (in 1 h 00 min)" in text
    assert "last sync: 2026-03-02 07:00 EST" in text
    assert "last 24 h: 1 sync, 1 request" in text  # the nouns agree with their numbers
