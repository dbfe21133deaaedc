"""Crash safety: a real `sync` process killed with SIGKILL at many points, then a clean resume; two
processes on one DB.

The child process stalls at a chosen point (inside a write transaction, via SQLite's progress
handler, or while waiting for the forum) and is killed there with kill -9. The store must pass
SQLite's integrity check, hold only whole pages, and after one more sync equal a store that was
never interrupted.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest
from loopback_forum import Forum, game_text, make_posts, stored_posts

from assistant.forum import store
from assistant.forum.fetch import make_fetcher
from assistant.forum.sync import sync_game
from assistant.gamefile.game import load_game

REPO_ROOT = Path(__file__).resolve().parents[1]
NOW = datetime(2026, 3, 5, 12, 0, tzinfo=UTC)

CHILD = """
import sys, time
from datetime import UTC, datetime
from assistant.forum.fetch import make_fetcher
from assistant.gamefile.game import load_game
from assistant.forum.store import open_db
from assistant.forum.sync import sync_game

game, db, stall_at = load_game(sys.argv[1]), open_db(sys.argv[2]), int(sys.argv[3])
calls = 0

def progress():
    global calls
    if db.in_transaction:  # only count work inside a write transaction
        calls += 1
        if calls == stall_at:
            print("stalled", flush=True)
            time.sleep(120)  # killed here
    return 0

db.set_progress_handler(progress, 20)
result = sync_game(game, db, make_fetcher(game), now=lambda: datetime(2026, 3, 5, 12, tzinfo=UTC))
print("done", result.new_posts, calls, flush=True)
"""


@pytest.fixture
def forum(board) -> Forum:
    forum = Forum(make_posts(60))
    board.plug(forum.respond)
    return forum


def write_once(path: Path, text: str) -> Path:
    """Write ``path`` unless it already holds ``text``: rewriting it would truncate the file under a
    child that is starting up and reading it (it then runs an empty script and exits without a
    word)."""
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    return path


def start_child(
    tmp_path: Path, base_url: str, db_name: str, stall_at: int, *, thread_extra: str = ""
) -> subprocess.Popen:
    game = game_text(base_url).replace("&t=42", f"&t=42{thread_extra}")
    game_file = write_once(tmp_path / f"game{thread_extra}.toml", game)
    script = write_once(tmp_path / "child.py", CHILD)
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    return subprocess.Popen(
        [sys.executable, str(script), str(game_file), str(tmp_path / db_name), str(stall_at)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def resume(tmp_path: Path, db_name: str, base_url: str) -> list[dict]:
    """One uninterrupted sync in this process, after the checks on what the killed one left."""
    db = store.open_db(tmp_path / db_name)
    assert db.execute("pragma integrity_check").fetchone()[0] == "ok"
    game = load_game(tmp_path / "game.toml")
    left = store.count_posts(db, game.key)
    assert left in (0, 25, 50, 60), f"a page was half written: {left} posts"
    sync_game(game, db, make_fetcher(game), now=lambda: NOW)
    return stored_posts(db, game.key)


def reference(tmp_path: Path, base_url: str) -> list[dict]:
    (tmp_path / "game.toml").write_text(game_text(base_url), encoding="utf-8")
    game = load_game(tmp_path / "game.toml")
    db = store.open_db(tmp_path / "reference.db")
    sync_game(game, db, make_fetcher(game), now=lambda: NOW)
    return stored_posts(db, game.key)


def test_kill_9_inside_write_transactions_then_a_clean_resume(forum, board, tmp_path) -> None:
    expected = reference(tmp_path, board.base_url)
    assert len(expected) == 60
    # ~265 progress calls happen inside transactions during a 3-page sync; stall at points across
    # them
    points = (1, 70, 150, 230, 260)
    children = [
        start_child(tmp_path, board.base_url, f"killed{n}.db", at) for n, at in enumerate(points)
    ]
    for n, (stall_at, child) in enumerate(zip(points, children, strict=True)):
        line = child.stdout.readline().strip()
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        assert line == "stalled", (stall_at, line, child.stderr.read()[-2000:])
        assert child.returncode == -signal.SIGKILL
        assert resume(tmp_path, f"killed{n}.db", board.base_url) == expected, (
            f"stall point {stall_at}"
        )


def test_kill_9_while_waiting_for_the_forum_then_a_clean_resume(forum, board, tmp_path) -> None:
    expected = reference(tmp_path, board.base_url)
    for page in (1, 2, 3):
        arrived, release = threading.Event(), threading.Event()

        def hold(path, query, arrived=arrived, release=release):
            arrived.set()
            release.wait(30)
            return None

        forum.faults = [lambda p, q: None] * (page - 1) + [hold]
        child = start_child(tmp_path, board.base_url, f"waiting{page}.db", 10**9)
        assert arrived.wait(30), (
            child.stderr.read()[-2000:] if child.poll() is not None else "no request"
        )
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        release.set()
        assert resume(tmp_path, f"waiting{page}.db", board.base_url) == expected


def test_two_processes_on_one_store(forum, board, tmp_path) -> None:
    """Two games in one DB synced at once by two processes, and a third process on a game already
    locked."""
    expected = reference(tmp_path, board.base_url)
    store.open_db(
        tmp_path / "shared.db"
    ).close()  # an existing store, as when cron and `votal run` share one
    children = [
        start_child(tmp_path, board.base_url, "shared.db", 10**9, thread_extra=x)
        for x in ("", "&x=2")
    ]
    outputs = [child.communicate(timeout=60) for child in children]
    assert [c.returncode for c in children] == [0, 0], [err[-2000:] for _, err in outputs]
    assert [out.split()[:2] for out, _ in outputs] == [["done", "60"], ["done", "60"]]
    db = store.open_db(tmp_path / "shared.db")
    assert db.execute("pragma integrity_check").fetchone()[0] == "ok"
    game = load_game(tmp_path / "game.toml")
    assert stored_posts(db, game.key) == expected
    assert stored_posts(db, game.key + "&x=2") == expected

    with store.lock_game(db, game.key):
        child = start_child(tmp_path, board.base_url, "shared.db", 10**9)
        out, err = child.communicate(timeout=60)
    assert child.returncode == 1
    assert "GameLocked" in err and "being synced by another votal process" in err


def test_kill_9_while_looking_for_a_deleted_post_then_a_clean_resume(
    forum, board, tmp_path
) -> None:
    """A post deleted on page 1: the sync reads back from the last page; killed anywhere, the next
    finds it."""
    reference(tmp_path, board.base_url)
    game = load_game(tmp_path / "game.toml")
    points = (1, 15, 40, 70, 100)
    for n in range(len(points)):
        db = store.open_db(tmp_path / f"walk{n}.db")
        sync_game(game, db, make_fetcher(game), now=lambda: NOW)
        db.close()
    forum.delete(10)
    children = [
        start_child(tmp_path, board.base_url, f"walk{n}.db", at) for n, at in enumerate(points)
    ]
    for n, (stall_at, child) in enumerate(zip(points, children, strict=True)):
        line = child.stdout.readline().strip()
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        assert line == "stalled" or line.startswith("done"), (
            stall_at,
            line,
            child.stderr.read()[-2000:],
        )
        db = store.open_db(tmp_path / f"walk{n}.db")
        assert db.execute("pragma integrity_check").fetchone()[0] == "ok"
        sync_game(game, db, make_fetcher(game), now=lambda: NOW)
        posts = stored_posts(db, game.key)
        assert [p["post_id"] for p in posts if p["deleted"]] == ["1010"], f"stall point {stall_at}"
        assert sorted(p["number"] for p in posts if not p["deleted"]) == list(range(59))
