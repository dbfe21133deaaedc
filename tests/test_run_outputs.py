"""`votal run` keeps each game's page and draft present and current (real CLI, loopback threads).

Every round (`--once` included) writes what is missing or was written from another state; a round
with nothing new rewrites nothing; one layout for `run --site` and `site --out`, with an index of
games that `votal serve` answers at `/`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner
from loopback_forum import Forum, game_text, make_posts

from assistant.cli.main import main

REPO_ROOT = Path(__file__).resolve().parents[1]
VOTE = '<strong class="text-strong">VOTE: {}</strong>'
DAY_ONE = "[[days]]\nday = 1\nstart_post = 0\n"


@pytest.fixture
def forums(board) -> dict[str, Forum]:
    """Two games' threads on one loopback forum: ``quiet`` and ``busy`` (one page each)."""
    threads = {"quiet": Forum(make_posts(20)), "busy": Forum(make_posts(20))}
    board.plug(lambda path, query, headers: threads[query["copy"]].respond(path, query, headers))
    return threads


def write_games(folder: Path, base_url: str) -> list[Path]:
    paths = []
    for name in ("quiet", "busy"):
        text = game_text(base_url, tables=DAY_ONE).replace("&t=42", f"&t=42&copy={name}")
        path = folder / f"{name}.toml"
        path.write_text(text.replace("Loopback Game", f"The {name.title()} Game"), encoding="utf-8")
        paths.append(path)
    return paths


def votal(*args) -> str:
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.output


def outputs(folder: Path) -> dict[str, tuple[int, int]]:
    """Each file of the site and the drafts by inode and modification time (a write replaces it)."""
    found = {}
    for path in [*folder.glob("site/**/*"), *folder.glob("drafts/*")]:
        if path.is_file():
            info = path.stat()
            found[str(path.relative_to(folder))] = (info.st_ino, info.st_mtime_ns)
    return found


def run_once(games: list[Path], tmp_path: Path) -> str:
    return votal(
        "run",
        *games,
        "--db",
        tmp_path / "votal.db",
        "--site",
        tmp_path / "site",
        "--drafts",
        tmp_path / "drafts",
        "--once",
    )


def test_run_once_on_synced_games_writes_pages_and_drafts_then_only_what_changed(
    forums, board, tmp_path
) -> None:
    games = write_games(tmp_path, board.base_url)
    forums["busy"].edit(3, VOTE.format("Birch"))
    for game in games:  # synced before: the run finds nothing new on the forum
        votal("sync", game, "--db", tmp_path / "votal.db", "--quiet")

    first = run_once(games, tmp_path)
    assert "nothing new" in first
    written = outputs(tmp_path)
    assert {
        "site/index.html",
        "site/style.css",
        "site/quiet/index.html",
        "site/busy/votal.json",
        "drafts/quiet-votal.txt",
        "drafts/busy-votal.txt",
    } <= set(written)
    assert "Birch" in (tmp_path / "drafts" / "busy-votal.txt").read_text(encoding="utf-8")
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert 'href="busy/"' in index and "The Quiet Game" in index and "The Busy Game" in index

    run_once(games, tmp_path)
    assert outputs(tmp_path) == written  # nothing new: nothing rewritten

    forums["busy"].add(1)
    forums["busy"].edit(20, VOTE.format("Cedar"))
    run_once(games, tmp_path)
    rewritten = {name for name, stamp in outputs(tmp_path).items() if written.get(name) != stamp}
    page = ("index.html", "votal.json", "summary.json", "style.css", "countdown.js")
    busy_page = {f"site/busy/{name}" for name in page}
    assert rewritten == {*busy_page, "drafts/busy-votal.txt"}  # the index is the same: left alone
    assert "Cedar" in (tmp_path / "drafts" / "busy-votal.txt").read_text(encoding="utf-8")


def test_a_missing_output_is_written_again_alone(forums, board, tmp_path) -> None:
    games = write_games(tmp_path, board.base_url)
    run_once(games, tmp_path)
    (tmp_path / "drafts" / "quiet-votal.txt").unlink()
    (tmp_path / "site" / "index.html").unlink()
    written = outputs(tmp_path)
    run_once(games, tmp_path)
    rewritten = {name for name, stamp in outputs(tmp_path).items() if written.get(name) != stamp}
    assert rewritten == {"drafts/quiet-votal.txt", "site/index.html", "site/style.css"}


def test_a_changed_draft_template_rewrites_the_drafts_only(forums, board, tmp_path) -> None:
    games = write_games(tmp_path, board.base_url)
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "votal.j2").write_text("Day {{ day }}: a votal\n", encoding="utf-8")
    for game in games:
        text = game.read_text(encoding="utf-8")
        text = text.replace("[fetch]", f'templates = "{templates}"\n\n[fetch]', 1)
        game.write_text(text, encoding="utf-8")
    run_once(games, tmp_path)
    written = outputs(tmp_path)
    (templates / "votal.j2").write_text("Day {{ day }}: our own votal\n", encoding="utf-8")
    run_once(games, tmp_path)
    rewritten = {name for name, stamp in outputs(tmp_path).items() if written.get(name) != stamp}
    assert rewritten == {"drafts/quiet-votal.txt", "drafts/busy-votal.txt"}
    draft = (tmp_path / "drafts" / "busy-votal.txt").read_text(encoding="utf-8")
    assert draft == "Day 1: our own votal"


def test_site_writes_the_layout_run_writes_and_serve_answers_at_the_root(
    forums, board, tmp_path
) -> None:
    quiet, busy = write_games(tmp_path, board.base_url)
    db = tmp_path / "votal.db"
    votal("run", busy, "--db", db, "--site", tmp_path / "site", "--once")
    votal("sync", quiet, "--db", db, "--quiet")
    said = votal("site", quiet, "--db", db, "--out", tmp_path / "site")
    assert "site/quiet/ and the index of games" in said
    assert (tmp_path / "site" / "busy" / "index.html").is_file()  # the run's game stays listed

    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    serve = [sys.executable, "-m", "assistant", "serve", str(tmp_path / "site"), "--port", "0"]
    server = subprocess.Popen(serve, stdout=subprocess.PIPE, text=True, env=env)
    try:
        base = server.stdout.readline().split(" at ", 1)[1].split(" ", 1)[0].rstrip("/")

        def get(path: str) -> str:
            with urllib.request.urlopen(base + path, timeout=10) as answer:  # noqa: S310 (loopback)
                assert answer.status == 200
                return answer.read().decode("utf-8")

        index = get("/")
        assert "2 games" in index and 'href="quiet/"' in index and 'href="busy/"' in index
        assert "<h1>The Quiet Game</h1>" in get("/quiet/")
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_the_index_is_written_again_when_a_games_day_ends(forums, board, tmp_path) -> None:
    quiet, busy = write_games(tmp_path, board.base_url)
    run_once([quiet, busy], tmp_path)
    index = tmp_path / "site" / "index.html"
    assert "ended" not in index.read_text(encoding="utf-8")
    text = quiet.read_text(encoding="utf-8")
    quiet.write_text(text.replace(DAY_ONE, DAY_ONE + "end_post = 10\n"), encoding="utf-8")
    run_once([quiet, busy], tmp_path)
    listed = index.read_text(encoding="utf-8")
    assert listed.count('<span class="tag">ended</span>') == 1
    # by title: the busy game, then the quiet one, whose day ended
    assert listed.index("The Busy Game") < listed.index("The Quiet Game") < listed.index("ended")


def test_a_site_folder_that_cannot_be_written_stops_neither_the_syncs_nor_the_drafts(
    forums, board, tmp_path
) -> None:
    games = write_games(tmp_path, board.base_url)
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the site's folder should be", encoding="utf-8")
    said = votal(
        "run",
        *games,
        "--db",
        tmp_path / "votal.db",
        "--site",
        blocker / "site",
        "--drafts",
        tmp_path / "drafts",
        "--once",
    )
    assert said.count(": 20 new") == 2
    assert sorted(p.name for p in (tmp_path / "drafts").iterdir()) == [
        "busy-votal.txt",
        "quiet-votal.txt",
    ]
