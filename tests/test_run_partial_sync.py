"""`votal run` never announces how a day stands from a store that a failed sync left half-filled."""

from __future__ import annotations

from datetime import UTC, datetime

from loopback_forum import Forum, Switchboard, game_text, make_posts

from assistant.cli.schedule import Runner
from assistant.forum import store
from assistant.forum.fetch import HostLimiter
from assistant.gamefile.game import load_game

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
VOTE = '<strong class="text-strong">VOTE: {}</strong>'
DAY = "[[days]]\nday = 1\nstart_post = 0\nend = 2026-03-03T22:00:00Z\n"


def test_no_hammer_alert_from_a_sync_that_failed_part_way(tmp_path) -> None:
    forum = Forum(make_posts(60))
    for number in (26, 27, 28):  # Birch, Cedar, Damson: 3 of 5 is a majority, on the second page
        forum.edit(number, VOTE.format("Alder"))
    passthrough = lambda path, query: None  # noqa: E731
    forum.faults += [passthrough, passthrough]
    forum.restyle()  # the third page cannot be read: the sync fails after storing two pages
    board = Switchboard()
    with board.server:
        board.plug(forum.respond)
        path = tmp_path / "game.toml"
        path.write_text(game_text(board.base_url, tables=DAY), encoding="utf-8")
        runner = Runner(
            db_path=tmp_path / "votal.db",
            limiter=HostLimiter(sleep=lambda s: None),
            now=lambda: NOW,
        )
        game_key = load_game(path).key
        db = store.open_db(tmp_path / "votal.db")
        failed = runner.run_game(path)
        forum.restyle()  # and again on the next poll, which first counts the half-filled store
        failed_again = runner.run_game(path)
        before = [a["kind"] for a in store.load_alerts(db, game_key, limit=20)]
        whole = runner.run_game(path)
        after = [a["kind"] for a in store.load_alerts(db, game_key, limit=20)]
    assert (bool(failed.error), bool(failed_again.error), whole.error) == (True, True, None)
    assert "forum_error" in before and "hammer" not in before
    assert after.count("hammer") == 1
