"""A store that cannot be used is one clear line; a sync that could not write is never recorded as a
success; lost posts never hide behind the validators of the pages that held them."""

import sqlite3
from datetime import UTC, datetime

import pytest
from click.testing import CliRunner
from loopback_forum import Forum, game_text, make_game, make_posts, serve

from assistant.cli.main import main
from assistant.forum import store
from assistant.forum.fetch import Fetcher
from assistant.forum.sync import sync_game

NOW = datetime(2026, 3, 5, 12, 0, tzinfo=UTC)


def cli(*args) -> tuple[int, str]:
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), repr(result.exception)
    return result.exit_code, result.output


@pytest.fixture
def game_file(tmp_path):
    path = tmp_path / "game.toml"
    path.write_text(game_text("http://127.0.0.1:9"), encoding="utf-8")
    return path


@pytest.mark.parametrize("command", ["count", "audit", "status", "sync"])
def test_a_corrupt_store_is_one_clear_line(tmp_path, game_file, command):
    db = tmp_path / "votal.db"
    db.write_bytes(b"this is not a database, just some bytes " * 200)
    extra = ["--day", "1"] if command == "audit" else []
    code, output = cli(command, game_file, "--db", db, *extra)
    assert code == 2
    assert "Traceback" not in output
    last = output.strip().splitlines()[-1]
    assert last.startswith("Error: ") and "votal.db" in last and "damaged" in last


def test_a_store_in_a_missing_folder_is_one_clear_line(tmp_path, game_file):
    db = tmp_path / "no" / "such" / "folder" / "votal.db"
    code, output = cli("sync", game_file, "--db", db)
    assert code == 2
    assert output.strip() == f"Error: cannot open store {db}: folder {db.parent} does not exist"
    assert not (tmp_path / "no").exists()


def test_a_read_only_store_is_one_clear_line(tmp_path, monkeypatch):
    path = tmp_path / "votal.db"
    store.open_db(path).close()
    connect = store._connect

    def read_only(
        p,
    ):  # what a read-only file gives a user who may not write it (root may write anyway)
        db = sqlite3.connect(
            f"file:{p}?mode=ro", uri=True, isolation_level=None, check_same_thread=False
        )
        db.row_factory = sqlite3.Row
        return db

    monkeypatch.setattr(store, "_connect", read_only)
    with pytest.raises(store.StoreError, match=r"votal.db: the file or its folder is read-only"):
        db = store.open_db(path)
        store.record_sync(db, {"game": "g", "error": None})
    monkeypatch.setattr(store, "_connect", connect)


def test_a_sync_that_could_not_write_is_never_recorded_as_a_success(tmp_path):
    forum = Forum(make_posts(30))
    with serve(forum) as server:
        game = make_game(server.base_url)
        db = store.open_db(tmp_path / "votal.db")
        sync_game(game, db, Fetcher(min_interval=0), now=lambda: NOW)
        before = store.count_posts(db, game.key)
        syncs_before = db.execute("select count(*) from syncs").fetchone()[0]
        forum.add(40)  # two more pages' worth: more than the disk can take
        pages = db.execute("pragma page_count").fetchone()[0]
        db.execute(f"pragma max_page_count = {pages}")  # the disk is full from here on
        with pytest.raises(store.StoreError, match="disk is full"):
            sync_game(game, db, Fetcher(min_interval=0), now=lambda: NOW)
        assert store.count_posts(db, game.key) == before  # what was stored before stays
        rows = db.execute("select error from syncs").fetchall()[syncs_before:]
        assert all(row["error"] for row in rows)  # a failure row if it fitted, else none at all
        db.execute("pragma max_page_count = 1000000")
        result = sync_game(game, db, Fetcher(min_interval=0), now=lambda: NOW)
        assert result.new_posts == 40 and store.count_posts(db, game.key) == 70


def test_lost_posts_are_fetched_again_despite_cached_validators(tmp_path):
    forum = Forum(make_posts(60))
    with serve(forum) as server:
        game = make_game(server.base_url)
        db = store.open_db(tmp_path / "votal.db")
        assert sync_game(game, db, Fetcher(min_interval=0), now=lambda: NOW).new_posts == 60
        db.execute(
            "delete from posts where number >= 10"
        )  # a store restored from an older copy, say
        for _ in range(2):  # and not only once
            result = sync_game(game, db, Fetcher(min_interval=0), now=lambda: NOW)
            assert store.count_posts(db, game.key) == 60
        assert result.new_posts == 0 and result.requests == 1  # then polls are cheap again


def test_a_page_read_with_problems_keeps_no_validators():
    from types import SimpleNamespace

    from assistant.forum.fetch import Fetched
    from assistant.forum.sync import _validators

    post = SimpleNamespace(post_id="1", number=1)
    fetched = Fetched(
        "u", "<html></html>", etag='"v1"', last_modified="Sun, 01 Mar 2026 22:00:00 GMT"
    )
    clean = SimpleNamespace(problems=[], next_url="n", posts=[post])
    troubled = SimpleNamespace(problems=["posts may be missing"], next_url="n", posts=[post])
    assert _validators(fetched, clean).etag == '"v1"'
    assert (_validators(fetched, troubled).etag, _validators(fetched, troubled).last_modified) == (
        None,
        None,
    )


def test_a_store_with_a_damaged_schema_is_one_line(tmp_path, game_file):
    db = tmp_path / "votal.db"
    connection = sqlite3.connect(db)
    connection.execute(
        "create table posts (game text, post_id text)"
    )  # a posts table missing its columns
    connection.commit()
    connection.close()
    code, output = cli("count", game_file, "--db", db, "--day", "1")
    assert code == 2 and "Traceback" not in output
    assert output.strip().startswith("Error: store ") and len(output.strip().splitlines()) == 1
