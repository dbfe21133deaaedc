"""`votal new` asks the forum for each page once: the first page, read for the thread's title and page size,
is the one the sync starts from (on a polite forum every request costs [fetch] min_interval of waiting)."""

from __future__ import annotations

from click.testing import CliRunner
from loopback_forum import Forum, Switchboard, make_posts

from assistant.cli.main import main
from assistant.forum import store


def test_new_reads_each_page_of_the_thread_once(tmp_path) -> None:
    forum = Forum(make_posts(60))  # three pages of 25
    with Switchboard().plug(forum.respond) as board, board.server:
        url = f"{board.base_url}/viewtopic.php?f=7&t=42"
        CliRunner().invoke(main, ["new", url, "-o", str(tmp_path / "game.toml"), "--db", str(tmp_path / "v.db"),
                                  "--min-interval", "0"])
    pages = forum.page_requests()
    assert len(pages) == len(set(pages)) == 3
    db = store.open_db(tmp_path / "v.db")
    assert [p.number for p in store.load_posts(db, url)] == list(range(60))
