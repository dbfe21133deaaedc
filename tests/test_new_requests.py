"""`votal new` asks the forum for each page once: the first page, read for the thread's title and
page size, is the one the sync starts from (on a polite forum each request costs min_interval of
waiting)."""

from __future__ import annotations

from click.testing import CliRunner
from loopback_forum import Forum, Switchboard, make_posts

from assistant.cli.main import main
from assistant.forum import store


def test_new_reads_each_page_of_the_thread_once(tmp_path) -> None:
    forum = Forum(make_posts(60))  # three pages of 25
    with Switchboard().plug(forum.respond) as board, board.server:
        url = f"{board.base_url}/viewtopic.php?f=7&t=42"
        out, db = str(tmp_path / "game.toml"), str(tmp_path / "v.db")
        CliRunner().invoke(main, ["new", url, "-o", out, "--db", db, "--min-interval", "0"])
    pages = forum.page_requests()
    assert len(pages) == len(set(pages)) == 3
    stored = store.load_posts(store.open_db(db), url)
    assert [p.number for p in stored] == list(range(60))
