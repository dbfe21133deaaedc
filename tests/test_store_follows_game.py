"""The store follows the game file, not the working directory: the real CLI on a loopback thread."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from loopback_forum import Forum, game_text, make_posts

from assistant.cli.main import main

ROOT = Path(__file__).resolve().parents[1]


def invoke(*args, code: int = 0, env: dict | None = None):
    result = CliRunner().invoke(main, [str(a) for a in args], env=env, catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result


@pytest.fixture
def games(board, tmp_path, monkeypatch):
    """Two game files in one folder, and a working directory elsewhere."""
    board.plug(Forum(make_posts(30)).respond)
    folder = tmp_path / "games"
    folder.mkdir()
    paths = []
    for name in ("one", "two"):
        path = folder / f"{name}.toml"
        text = game_text(board.base_url).replace("Loopback Game", f"Game {name}")
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.delenv("VOTAL_DB", raising=False)
    return paths, elsewhere


def test_the_store_sits_beside_the_game_file_and_is_found_from_any_directory(games, monkeypatch):
    (one, two), elsewhere = games
    invoke("sync", one, "--quiet")
    assert (one.parent / "one.db").is_file() and not (one.parent / "two.db").exists()
    assert not list(elsewhere.iterdir()), "nothing is left in the working directory"
    monkeypatch.chdir(one.parent.parent)
    assert "Game one" in invoke("count", one).output
    invoke("count", two, code=2)  # two games in one folder never share a store


def test_db_and_votal_db_still_choose(games, tmp_path):
    (one, _), _ = games
    chosen = tmp_path / "chosen.db"
    invoke("sync", one, "--quiet", env={"VOTAL_DB": str(chosen)})
    assert chosen.is_file() and not (one.parent / "one.db").exists()
    invoke("count", one, "--db", chosen)


def test_a_store_left_in_the_working_directory_is_named_with_how_to_move_it(games):
    (one, two), elsewhere = games
    # where earlier versions kept every store (a process of its own: it closes its store as it ends)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "assistant", "sync", str(one), "--quiet", "--db", "votal.db"]
    synced = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert synced.returncode == 0, synced.stderr
    result = invoke("count", one, code=2)
    line = result.output.strip()
    assert line == (
        "Error: one.toml's posts are in ./votal.db, the old default; the store now sits beside the "
        f"game file: `mv votal.db {one.parent / 'one.db'}` (or pass --db votal.db)"
    )
    shutil.move("votal.db", one.parent / "one.db")
    assert "Game one" in invoke("count", one).output
    assert os.listdir(elsewhere) == []


def test_run_once_keeps_each_games_store_beside_it(games):
    (one, two), _ = games
    invoke("run", one, two, "--once", "--quiet")
    assert (one.parent / "one.db").is_file() and (one.parent / "two.db").is_file()
    assert "Game two" in invoke("count", two).output
    assert invoke("status", one, two).output.count("posts") >= 2


def test_a_sync_lock_leaves_no_file_and_a_waiting_sync_still_gets_it_after(tmp_path):
    import threading

    from assistant.forum import store

    first, second = store.open_db(tmp_path / "game.db"), store.open_db(tmp_path / "game.db")
    order = []
    held = threading.Event()

    def wait_for_it():
        held.wait()
        with store.lock_game(second, "game", timeout=30):
            order.append("second")

    waiter = threading.Thread(target=wait_for_it)
    waiter.start()
    with store.lock_game(first, "game"):
        assert list(tmp_path.glob("*.lock"))
        held.set()
        with pytest.raises(store.GameLocked), store.lock_game(second, "game"):
            pass
        order.append("first")
    waiter.join(timeout=30)
    assert order == ["first", "second"]
    assert not list(tmp_path.glob("*.lock"))
