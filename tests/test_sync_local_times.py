"""A forum that prints local times ("Today, 03:09 PM") is read in the game's zone, relative to the
sync time."""

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from forums import serve_pages, vbulletin

from assistant.forum import store
from assistant.forum.fetch import Fetcher
from assistant.forum.pageserver import LoopbackServer
from assistant.forum.sync import sync_game
from assistant.gamefile.game import parse_game

ZONE = ZoneInfo("America/New_York")
NOW = datetime(2024, 3, 12, 14, 0, tzinfo=UTC)  # 10:00 EDT: "Today" is 12 March there


def test_vbulletin_today_and_yesterday_are_read_in_the_game_zone(tmp_path):
    posts = [
        {
            "number": 1,
            "id": "501",
            "user": "Alice",
            "content": "<b>VOTE: Bob</b>",
            "time": datetime(2024, 3, 11, 23, 30, tzinfo=ZONE),
        },  # shown as "Yesterday, 11:30 PM"
        {
            "number": 2,
            "id": "502",
            "user": "Bob",
            "content": "hello",
            "time": datetime(2024, 3, 12, 1, 30, tzinfo=ZONE),
        },  # shown as "Today, 01:30 AM"
    ]
    with LoopbackServer(serve_pages({})) as server:
        server.handler = serve_pages(
            vbulletin.render_thread(posts, base_url=server.base_url, tz=ZONE, now=NOW)
        )
        game = parse_game(
            f'title = "t"\nthread = "{vbulletin.thread_url(server.base_url)}"\nforum = "vbulletin"\n'
            'ruleset = "mafiascum"\ntimezone = "America/New_York"\n[fetch]\nmin_interval = 0\n'
            '[[players]]\nname = "Alice"\n[[players]]\nname = "Bob"\n'
        )
        db = store.open_db(tmp_path / "v.db")
        result = sync_game(game, db, Fetcher(min_interval=0), now=lambda: NOW)
    assert result.problems == []
    times = [p.time for p in store.load_read_posts(db, game.key)]
    assert times == [
        datetime(2024, 3, 12, 3, 30, tzinfo=UTC),
        datetime(2024, 3, 12, 5, 30, tzinfo=UTC),
    ]
