"""A read never writes the store: every command that only reads runs on a store file and folder
made read-only, after a sync, after a reader upgrade and on a store made before the readings
were kept, and leaves the file's bytes, its time and its folder as they were (issue 35)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from loopback_forum import Forum, game_text
from support import forum_thread

from assistant.cli.main import main
from assistant.forum import store
from assistant.reading import posted_count
from parsers.reading import EXTRACTOR_VERSION

HOST = "Host"
COUNT = (
    "Vote Count 1.1<br>Birch (2): Cedar, Damson<br>Not voting (3): Alder, Birch, Elm<br>"
    "With 5 alive, 3 to lynch"
)
THREAD = [
    (HOST, "Day 1 begins now."),
    ("Cedar", "<b>VOTE: Birch</b>"),
    ("Damson", "<b>vote birch</b>"),
    (HOST, COUNT),
    ("Elm", "<b>VOTE: Cedar</b>"),
    ("Elm", "<b>unvote</b> <b>VOTE: Birch</b>"),
    (HOST, "Birch was lynched! Birch was a Vanilla Townie.<br>It is now Night 1."),
    (HOST, "Alder was found dead.<br>Day 2 begins now."),
    ("Cedar", "<b>VOTE: Damson</b>"),
]
AS_OF_THE_COUNT = ("count", "--day", "1", "--at-post", "4")
# Every command that only reads the store (`serve` reads the site, not the store).
READS = [
    ("count",),
    ("count", "--all-days", "--format", "json"),
    AS_OF_THE_COUNT,
    ("status",),
    ("status", "--format", "json"),
    ("audit", "--day", "1"),
    ("audit", "--format", "json"),
    ("export", "--format", "json"),
    ("export", "--format", "csv", "--table", "days"),
    ("export", "--format", "html"),
    ("draft", "day-end", "--day", "1", "--force"),
    ("draft", "day-start", "--force"),
    ("draft", "reminder", "--force"),
]


@pytest.fixture
def synced(board, tmp_path, monkeypatch):
    """A game file and its store in a folder of its own, after a sync that stored the thread."""
    board.plug(Forum(forum_thread(THREAD)).respond)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("VOTAL_DB", raising=False)
    game = tmp_path / "game.toml"
    text = game_text(
        board.base_url,
        extra=f'moderators = ["{HOST}"]\n',
        tables="[[days]]\nday = 1\nstart_post = 0\n",
    )
    game.write_text(text.replace('"mafiascum"', '"millers-hollow"'), encoding="utf-8")
    (tmp_path / "store").mkdir()
    db = tmp_path / "store" / "game.db"
    assert invoke("sync", game, "--db", db, "--quiet").exit_code == 0
    return game, db


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def fingerprint(db: Path) -> tuple:
    """What a write would change: the file's bytes and time, and what its folder holds."""
    return db.read_bytes(), db.stat().st_mtime_ns, sorted(os.listdir(db.parent))


def read_only(db: Path) -> None:
    """The store and its folder read-only, so no -wal or -shm can be made beside it either (for
    root, whom modes do not stop, the store's own read-only opening refuses any write)."""
    db.chmod(0o444)
    db.parent.chmod(0o555)


@pytest.fixture(autouse=True)
def writable_again(tmp_path):
    yield
    for folder in [tmp_path, *tmp_path.rglob("*")]:
        if folder.is_dir():
            folder.chmod(0o755)


def every_read_leaves_the_store_as_it_was(game: Path, db: Path, tmp_path: Path) -> list[str]:
    read_only(db)
    before = fingerprint(db)
    outputs = []
    for args in READS:
        command, *rest = args
        result = invoke(command, game, *rest, "--db", db)
        assert result.exit_code == 0, (args, result.output)
        assert fingerprint(db) == before, args
        outputs.append(result.output)
    site = invoke("site", game, "--db", db, "--out", tmp_path / "site")
    assert site.exit_code == 0, site.output
    assert (tmp_path / "site" / "game" / "index.html").is_file()
    assert fingerprint(db) == before
    return outputs


def stored_versions(db: Path) -> set[tuple]:
    with sqlite3.connect(db) as connection:
        return set(
            connection.execute(
                "select vote_count_version, night_told_version from posts where author = ?", [HOST]
            )
        )


def test_every_read_command_runs_on_a_read_only_store_and_writes_nothing(synced, tmp_path):
    game, db = synced
    outputs = every_read_leaves_the_store_as_it_was(game, db, tmp_path)
    counted = outputs[READS.index(AS_OF_THE_COUNT)]
    assert "Birch     2  Cedar, Damson" in counted
    assert stored_versions(db) == {(posted_count.COUNT_READER_VERSION, 1)}  # the sync read them


def test_after_a_reader_upgrade_reads_read_in_memory_and_the_next_sync_stores(
    synced, tmp_path, monkeypatch
):
    game, db = synced
    stored = every_read_leaves_the_store_as_it_was(game, db, tmp_path)
    upgraded = posted_count.COUNT_READER_VERSION + 1
    monkeypatch.setattr(posted_count, "COUNT_READER_VERSION", upgraded)
    monkeypatch.setattr("assistant.forum.stored_counts.COUNT_READER_VERSION", upgraded)
    monkeypatch.setattr("assistant.forum.stored_phases.NIGHT_READER_VERSION", 2)
    monkeypatch.setattr("assistant.forum.stored_counts.NIGHT_READER_VERSION", 2)
    monkeypatch.setattr(store, "EXTRACTOR_VERSION", EXTRACTOR_VERSION + 1)
    read = every_read_leaves_the_store_as_it_was(game, db, tmp_path)
    # what count and audit show holds no clock
    timeless = [i for i, args in enumerate(READS) if args[0] in ("count", "audit")]
    assert [read[i] for i in timeless] == [stored[i] for i in timeless]  # the same, read in memory
    for folder in (db.parent, db):
        folder.chmod(0o755 if folder.is_dir() else 0o644)
    assert invoke("sync", game, "--db", db, "--quiet").exit_code == 0
    assert stored_versions(db) == {(upgraded, 2)}  # the sync read every moderator's post again
    with sqlite3.connect(db) as connection:
        versions = set(connection.execute("select commands_version from posts"))
    assert versions == {(EXTRACTOR_VERSION + 1,)}


def test_a_store_made_before_the_readings_were_kept_is_read_without_a_write(synced, tmp_path):
    game, db = synced
    with sqlite3.connect(db) as connection:
        for column in ("vote_count", "vote_count_version", "night_told", "night_told_version"):
            connection.execute(f"alter table posts drop column {column}")
        connection.execute("alter table syncs drop column readers")  # kept since, too
    old = every_read_leaves_the_store_as_it_was(game, db, tmp_path)
    assert "Birch     2  Cedar, Damson" in old[READS.index(AS_OF_THE_COUNT)]
    for folder in (db.parent, db):
        folder.chmod(0o755 if folder.is_dir() else 0o644)
    # a sync opens the store for a write: the columns are added and the posts read
    assert invoke("sync", game, "--db", db, "--quiet").exit_code == 0
    assert stored_versions(db) == {(posted_count.COUNT_READER_VERSION, 1)}


def test_an_idle_sync_reads_nothing_again_until_the_readers_or_the_moderators_change(
    synced, monkeypatch
):
    """The poll that finds nothing new stays cheap: the readings were brought up to today's
    readers by the sync before. A new reader version, or another moderator, is read by the next
    sync, new posts or not."""
    from assistant.forum import sync

    game, db = synced
    calls: list[str] = []
    real = sync.save_readings

    def counted(*args, **kwargs):
        calls.append(args[1])
        return real(*args, **kwargs)

    monkeypatch.setattr(sync, "save_readings", counted)
    assert invoke("sync", game, "--db", db, "--quiet").exit_code == 0
    assert calls == []  # nothing new, readings current
    monkeypatch.setattr("assistant.forum.stored_counts.COUNT_READER_VERSION", 99)
    assert invoke("sync", game, "--db", db, "--quiet").exit_code == 0
    assert len(calls) == 1
    assert invoke("sync", game, "--db", db, "--quiet").exit_code == 0
    assert len(calls) == 1
    text = game.read_text(encoding="utf-8").replace(
        f'moderators = ["{HOST}"]', f'moderators = ["{HOST}", "Cohost"]'
    )
    game.write_text(text, encoding="utf-8")
    assert invoke("sync", game, "--db", db, "--quiet").exit_code == 0
    assert len(calls) == 2
