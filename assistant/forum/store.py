"""The SQLite store: a cache of each game's posts, their revisions, and the commands read from them.

Every command opens the store the same way, as a plain :class:`sqlite3.Connection` whose rows read
by column name (:func:`open_db` creates it; :func:`open_reader` only opens one that exists). Writes
go through :func:`_writing`, one ``BEGIN IMMEDIATE`` transaction each; SQLite's own failures (a
corrupt or read-only file, a full disk) become a :class:`StoreError` that names the file.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from assistant.errors import VotalError
from parsers.reading import EXTRACTOR_VERSION, Command, ReadPost

if TYPE_CHECKING:
    from parsers.page import Post

Store = sqlite3.Connection


class StoreError(VotalError):
    """The store cannot be opened, read or written (corrupt, read-only, missing folder, disk
    full)."""

    exit_code = 2  # the command cannot run as asked (no store yet, or one it cannot use)


# The schema stays SQL: `create ... if not exists` is safe to run any number of times
# (ensure_schema), states the composite natural keys and indexes in one place, and runs on every
# open without importing sqlite-utils. Adding a column is an `alter table` here; anything beyond
# that goes through sqlite_utils.Migrations.
SCHEMA = """
create table if not exists posts (
    game text, post_id text, number integer, author text, author_id text, time text, url text,
    body_html text, body_hash text, edited integer, deleted integer, revisions integer,
    first_seen text, last_seen text, commands text, commands_version integer,
    vanished text,  -- when a re-read page no longer showed the post: it is kept, marked deleted, never dropped
    vote_count text, vote_count_version integer,  -- a moderator's post: the count it holds (JSON; null: none)
    night_told integer, night_told_version integer,  -- a moderator's post: 1 if it tells the night
    primary key (game, post_id)
);
create index if not exists idx_posts_game_number on posts (game, number);
-- covers game_stamp: `votal run` reads it twice a poll per game, and the table's rows hold the bodies
create index if not exists idx_posts_game_stamp on posts (game, number, revisions, deleted);
-- covers load_read_posts, which every count makes: read from the table, each row's commands lie past its body
create index if not exists idx_posts_read on posts (
    game, number, post_id, author, author_id, time, url, commands, edited, deleted, revisions
);
create table if not exists revisions (
    game text, post_id text, body_hash text, body_html text, seen_at text,
    commands text, commands_version integer,  -- read once, for an edited post's first revision
    primary key (game, post_id, body_hash)
);
create table if not exists syncs (
    id integer primary key, game text, started text, finished text, requests integer, pages integer,
    new_posts integer, changed_posts integer, deleted_posts integer, not_modified integer, faults integer,
    error text, problems text,  -- problems: JSON list of what the sync's pages could not read (null: none)
    readers text  -- the reader versions the store's readings were brought up to (stored_counts.READERS)
);
create index if not exists idx_syncs_game_id on syncs (game, id);
create table if not exists validators (
    game text, url text, etag text, last_modified text, next_url text, saved_at text, post_ids text,
    first_number integer,
    primary key (game, url)
);
create table if not exists robots (site text primary key, status integer, body text, fetched_at text);
create table if not exists holds (host text primary key, until text);
create table if not exists vote_counts (
    game text, day integer, as_of_post integer, number integer, created text,
    primary key (game, day, as_of_post)
);
create table if not exists alerts (
    game text, key text, kind text, message text, created text, sent text, send_error text, attempts integer,
    primary key (game, key)
);
create table if not exists run_states (
    -- what `votal run` last counted a game file on (a digest of the state) and the times its clock phase turns
    -- on, so a new process (`votal run --once` from cron) need not count a game that stood still since
    game text, game_file text, state text, deadline text, closes text,
    primary key (game, game_file)
);
create table if not exists outputs (
    -- what `votal run` last wrote each game's page and draft from (a digest of the game's state and
    -- the output's templates), so that no process writes them again while nothing they show changed
    game text, target text, fingerprint text,
    primary key (game, target)
);
"""


def open_db(path: str | Path, *, attempts: int = 60) -> Store:
    """Open (creating if needed) a store that several processes may share."""
    for attempt in range(attempts):
        try:
            return _open_db(path)
        except sqlite3.OperationalError as exc:
            # Switching a new file to WAL and creating its tables take locks that SQLite's busy
            # timeout does not wait for (a lock upgrade would deadlock), so processes opening one
            # new store at once retry.
            if "locked" not in str(exc) or attempt == attempts - 1:
                raise store_error(path, exc) from None
            time.sleep(min(0.01 * (attempt + 1), 0.25))
        except sqlite3.Error as exc:
            raise store_error(path, exc) from None
    raise AssertionError("unreachable")


def _open_db(path: str | Path) -> Store:
    if str(path) != ":memory:":
        folder = Path(path).parent
        if not folder.is_dir():
            raise StoreError(f"cannot open store {path}: folder {folder} does not exist")
    db = _connect(path)
    try:
        # WAL lets a reader (votal count) run while the scheduler writes.
        db.execute("PRAGMA journal_mode = WAL")
        db.executescript(SCHEMA)
        _add_columns(db)
    except BaseException:
        db.close()
        raise
    return db


# Columns added after stores were first made: (table, column, type).
_ADDED_COLUMNS = (
    ("syncs", "problems", "text"),
    ("posts", "vote_count", "text"),
    ("posts", "vote_count_version", "integer"),
    ("revisions", "commands", "text"),
    ("revisions", "commands_version", "integer"),
    ("posts", "night_told", "integer"),
    ("posts", "night_told_version", "integer"),
    ("syncs", "readers", "text"),
)


def _add_columns(db: Store) -> None:
    for table, column, kind in _ADDED_COLUMNS:
        if not _has_column(db, table, column):
            with contextlib.suppress(sqlite3.OperationalError):  # another process added it first
                db.execute(f"alter table {table} add column {column} {kind}")


def _has_column(db: Store, table: str, column: str) -> bool:
    return column in {row[1] for row in db.execute(f"pragma table_info({table})")}


def _connect(path: str | Path, *, uri: bool = False) -> Store:
    # isolation_level None: no implicit transactions; every write names its own (see _writing).
    # check_same_thread False: the scheduler opens one connection per run and hands it to no other
    # thread, but its worker threads are pooled. busy_timeout makes a second writer wait for the
    # first.
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, uri=uri)
    db.row_factory = sqlite3.Row
    db.execute("PRAGMA busy_timeout = 10000")
    return db


def ensure_schema(db: Store) -> None:
    """Create the tables and indexes; safe to run any number of times."""
    db.executescript(SCHEMA)
    _add_columns(db)


def sync_problems(row: sqlite3.Row | None) -> list[str]:
    """What a stored sync's pages could not read (an older store's rows have no such column:
    none)."""
    if row is None or "problems" not in row.keys() or not row["problems"]:  # noqa: SIM118 (a Row iterates values)
        return []
    return json.loads(row["problems"])


def open_reader(path: str | Path) -> Store:
    """The store for commands that only read it (count, audit, draft, status): no schema work, and
    any write refused, so that a read never writes it (an older store's missing columns read as
    never read); a store in a read-only folder is read as it stands."""
    if not Path(path).is_file():
        raise StoreError(
            f"no posts stored for this game; run `votal sync` first (there is no store at {path})"
        )
    try:
        db = _connect_read_only(Path(path))
        tables = {
            row[0] for row in db.execute("select name from sqlite_master where type = 'table'")
        }
    except sqlite3.Error as exc:
        raise store_error(path, exc) from None
    if "posts" not in tables:
        db.close()
        raise StoreError(f"{path} is not a Votal store (no posts table)")
    return db


def _connect_read_only(path: Path) -> Store:
    # Opened for writing where it can be, but with every write refused: the last connection's
    # close then removes the -wal and -shm files its reads made, as a writer's does.
    db = _connect(path)
    db.execute("PRAGMA query_only = ON")
    try:
        db.execute("select count(*) from sqlite_master").fetchone()
        return db
    except sqlite3.OperationalError as exc:
        db.close()
        if "readonly" not in str(exc) and "unable to open" not in str(exc):
            raise  # locked, say: no reason to read it otherwise
    # A WAL store is read through its -shm file. Where neither it nor -wal exists and none can be
    # made (a read-only folder), no process is writing the store: it is read as it stands.
    uri = path.resolve().as_uri()
    if any(path.with_name(path.name + end).exists() for end in ("-wal", "-shm")):
        return _connect(f"{uri}?mode=ro", uri=True)
    return _connect(f"{uri}?mode=ro&immutable=1", uri=True)


def store_error(path, exc: sqlite3.Error) -> StoreError:
    """One line naming the file and what SQLite said, in words a moderator can act on."""
    text = str(exc)
    lowered = text.lower()
    if "not a database" in lowered or "malformed" in lowered or "corrupt" in lowered:
        why = "the file is damaged or not a Votal store (move it away; `votal sync` rebuilds it from the forum)"
    elif "readonly" in lowered or "read-only" in lowered:
        why = "the file or its folder is read-only"
    elif "disk is full" in lowered or "disk i/o" in lowered:
        why = f"the disk is full or failing ({text})"
    elif "unable to open" in lowered:
        why = "the file cannot be opened (check the folder exists and is writable)"
    elif "locked" in lowered:
        why = "another process holds it locked"
    else:
        why = text
    return StoreError(f"store {path}: {why}")


def store_path(db: Store) -> str:
    return str(database_file(db) or ":memory:")


@contextmanager
def _writing(db: Store) -> Iterator[Store]:
    """One write transaction (BEGIN IMMEDIATE: the write lock is taken first, so no two writers
    deadlock); rolled back whole on any failure. Inside another transaction it simply joins it."""
    if db.in_transaction:
        yield db
        return
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.Error as exc:
        raise store_error(store_path(db), exc) from None
    try:
        yield db
    except BaseException as exc:
        if db.in_transaction:
            db.execute("ROLLBACK")
        if isinstance(exc, sqlite3.Error):
            raise store_error(store_path(db), exc) from None
        raise
    else:
        try:
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise store_error(store_path(db), exc) from None


def _rows(db: Store, sql: str, params: Sequence = ()) -> list[sqlite3.Row]:
    """Rows readable by column name (``row["number"]``)."""
    try:
        return db.execute(sql, params).fetchall()
    except sqlite3.DatabaseError as exc:
        raise store_error(store_path(db), exc) from None


def _tuples(db: Store, sql: str, params: Sequence = ()) -> list[tuple]:
    """Rows as plain tuples, for reads of every post, where reading by column name costs."""
    cursor = db.cursor()
    cursor.row_factory = None
    try:
        return cursor.execute(sql, params).fetchall()
    except sqlite3.DatabaseError as exc:
        raise store_error(store_path(db), exc) from None


def _one(db: Store, sql: str, params: Sequence = ()) -> sqlite3.Row | None:
    rows = _rows(db, sql, params)
    return rows[0] if rows else None


def _aggregate(db: Store, sql: str, params: Sequence = ()) -> sqlite3.Row:
    """The one row a query always answers with (an aggregate, or a row known to be stored)."""
    return _rows(db, sql, params)[0]


def _upsert(db: Store, table: str, row: dict, pk: Sequence[str]) -> None:
    _upsert_all(db, table, [row], pk)


def _upsert_all(db: Store, table: str, rows: list[dict], pk: Sequence[str]) -> None:
    """Insert rows, or update the columns given where the natural key ``pk`` exists (other columns
    keep their value): sqlite-utils' upsert, inside the caller's :func:`_writing` transaction."""
    if rows:
        _library(db)[table].upsert_all(rows, pk=tuple(pk))


def _insert_new(db: Store, table: str, rows: list[dict], pk: Sequence[str]) -> None:
    """Insert the rows whose natural key ``pk`` is not stored yet; stored ones stay as they are."""
    if rows:
        _library(db)[table].insert_all(rows, pk=tuple(pk), ignore=True)


def _library(db: Store):
    """sqlite-utils over the store's own connection, for writes inside :func:`_writing`: its writes
    then nest in our BEGIN IMMEDIATE transaction as savepoints, so a failure rolls the whole
    transaction back."""
    if not db.in_transaction:
        raise AssertionError("store writes go through _writing (one transaction each)")
    # No PRAGMA recursive_triggers (the store has no triggers), no plugins: only a wrapper over our
    # connection.
    return _library_class()(db, recursive_triggers=False, execute_plugins=False)


@functools.cache
def _library_class():
    # Imported here, on the write path only, so read-only commands (votal count) skip its import:
    # about 60 ms on top of what count imports anyway (python -X importtime, 5 runs 58-64 ms, load
    # 4).
    import sqlite_utils

    class Library(sqlite_utils.Database):
        # SQLite has had upserts since 3.24 (2018). Without this the library probes for them by
        # creating and dropping a table in the store, which bumps the store's schema version on
        # every write.
        supports_on_conflict = True

    return Library


@dataclass(frozen=True)
class SaveResult:
    new: int
    changed: int


def hash_body(body_html: str) -> str:
    import hashlib  # here, not at the top: a command that only reads the store never loads OpenSSL

    return hashlib.sha256(body_html.encode("utf-8")).hexdigest()[:20]


def save_posts(db: Store, game: str, posts: Iterable[Post], *, seen_at: datetime) -> SaveResult:
    """Upsert one page's posts in one transaction; a changed body adds a revision, never overwrites
    one."""
    posts = list(posts)
    if not posts:
        return SaveResult(0, 0)
    # one transaction per page: a sync killed mid-page leaves the page unwritten, not half-written
    with _writing(db):
        rows, revisions, result = _post_rows(db, game, posts, seen_at.isoformat())
        _write_posts(db, rows, revisions)
    return result


def _post_rows(db: Store, game: str, posts: list[Post], seen: str) -> tuple[list, list, SaveResult]:
    """The rows and revisions that save ``posts``, judged against what is stored."""
    stored = _stored_posts(db, game, [p.post_id for p in posts])
    new = changed = 0
    rows, revisions = [], []
    for post in posts:
        body_hash = hash_body(post.body_html)
        before = stored.get(post.post_id)
        same_body = before is not None and before["body_hash"] == body_hash
        if before is None:
            new += 1
        elif not same_body:
            changed += 1
        rows.append(_post_row(game, post, body_hash, before, same_body=same_body, seen=seen))
        if not same_body:
            revisions.append(
                {
                    "game": game,
                    "post_id": post.post_id,
                    "body_hash": body_hash,
                    "body_html": post.body_html,
                    "seen_at": seen,
                }
            )
    return rows, revisions, SaveResult(new, changed)


# The readings of a body stored with it, kept while the body is unchanged; an edited body is read
# again when a moderator's count is next asked for (stored_counts).
KEPT_READINGS = ("vote_count", "vote_count_version", "night_told", "night_told_version")


def _stored_posts(db: Store, game: str, ids: list[str]) -> dict[str, sqlite3.Row]:
    """What is stored of the posts ``ids``, by post id: what saving them again is judged by."""
    marks = ",".join("?" * len(ids))
    return {
        row["post_id"]: row
        for row in _rows(
            db,
            f"select post_id, body_hash, revisions, first_seen, edited, commands, commands_version, "
            f"{', '.join(KEPT_READINGS)} from posts where game = ? and post_id in ({marks})",
            [game, *ids],
        )
    }


def _post_row(
    game: str,
    post: Post,
    body_hash: str,
    before: sqlite3.Row | None,
    *,
    same_body: bool,
    seen: str,
) -> dict:
    """The row that saves ``post`` over what is stored of it (``before``)."""
    kept = before if same_body else None  # the stored readings of an unchanged body
    return {
        "game": game,
        "post_id": post.post_id,
        "number": post.number,
        "author": post.author,
        "author_id": post.author_id,
        "time": post.time.isoformat() if post.time else None,
        "url": post.url,
        "body_html": post.body_html,
        "body_hash": body_hash,
        "edited": int(
            post.edited or (before is not None and (not same_body or bool(before["edited"])))
        ),
        "deleted": int(post.deleted),
        "revisions": (before["revisions"] if before else 0) + (0 if same_body else 1),
        "first_seen": before["first_seen"] if before else seen,
        "last_seen": seen,
        "commands": _commands_of(post, kept),
        "commands_version": EXTRACTOR_VERSION,
        **{reading: kept[reading] if kept is not None else None for reading in KEPT_READINGS},
    }


def _commands_of(post: Post, kept: sqlite3.Row | None) -> str:
    """The post's commands, encoded: the stored ones of an unchanged body read by this extractor,
    else the parser's, else read from the body."""
    if kept is not None and kept["commands_version"] == EXTRACTOR_VERSION:
        return kept["commands"]
    return encode_commands(post.commands if post.commands is not None else _extract(post.body_html))


def _write_posts(db: Store, rows: list, revisions: list) -> None:
    _upsert_all(db, "posts", rows, ("game", "post_id"))
    _insert_new(db, "revisions", revisions, ("game", "post_id", "body_hash"))


def encode_commands(commands: Iterable[Command]) -> str:
    return json.dumps([_command_row(c) for c in commands], ensure_ascii=False)


def _command_row(command: Command) -> list:
    """[action, target, raw, bold (1/0), note, inline (1/0)], the trailing defaults (bold 1, no
    note, not inline) left out."""
    row: list = [command.action, command.target, command.raw]
    if command.inline:
        return [*row, int(command.bold), command.note, 1]
    if command.note:
        return [*row, int(command.bold), command.note]
    return [*row, 0] if not command.bold else row


def _extract(body_html: str) -> list[Command]:
    """The commands of a stored body. The reader is imported only here: a count replays the stored
    commands and never compiles its patterns."""
    from parsers.commands import extract_commands

    return extract_commands(body_html)


def decode_commands(text: str | None) -> tuple[Command, ...]:
    if not text or text == "[]":  # most posts hold no command: skip the JSON decoder
        return ()
    return tuple(
        Command(
            row[0],
            row[1],
            row[2],
            bold=bool(row[3]) if len(row) > 3 else True,
            note=row[4] if len(row) > 4 else None,
            inline=len(row) > 5 and bool(row[5]),
        )
        for row in json.loads(text)
    )


def last_post_number(db: Store, game: str) -> int | None:
    return _rows(db, "select max(number) as n from posts where game = ?", [game])[0]["n"]


def game_stamp(db: Store, game: str) -> tuple:
    """What changes whenever a count of ``game`` could: its posts (the last number, how many, their
    numbers, revisions and deletions) and whether its last sync failed or could not read some posts.
    Equal stamps, with the same game file and clock, give the same count: `votal run` skips a game
    whose stamp stands still."""
    posts = _aggregate(
        db,
        "select max(number), count(*), sum(number), sum(revisions), sum(deleted) from posts where game = ?",
        [game],
    )
    sync = _one(
        db,
        "select error is not null, problems from syncs where game = ? order by id desc limit 1",
        [game],
    )
    return (*posts, *(sync or (None, None)))


def count_posts(db: Store, game: str) -> int:
    return _rows(db, "select count(*) as n from posts where game = ?", [game])[0]["n"]


def moderator_bodies(
    db: Store, game: str, moderators: Iterable[str], *, up_to: int | None = None
) -> dict[int, str]:
    """Post number -> body of each live post by a moderator (their vote counts teach names), up to
    ``up_to``."""
    # Only the moderators' bodies are read: their stored spellings are found first, then their posts
    # by exact name.
    spellings = moderator_spellings(db, game, moderators)
    if not spellings:
        return {}
    rows = _rows(
        db,
        f"select number, body_html from posts where game = ? and author in ({','.join('?' * len(spellings))}) "
        "and not deleted and body_html <> '' and (? is null or number <= ?) order by number, post_id",
        [game, *spellings, up_to, up_to],
    )
    return {r["number"]: r["body_html"] for r in rows}


def moderator_spellings(db: Store, game: str, moderators: Iterable[str]) -> list[str]:
    """The spellings under which the store holds posts by ``moderators`` (matched with Python's
    casefold: SQLite's nocase folds ASCII only)."""
    names = {m.casefold() for m in moderators}
    return (
        [
            r["author"]
            for r in _rows(db, "select distinct author from posts where game = ?", [game])
            if r["author"] is not None and r["author"].casefold() in names
        ]
        if names
        else []
    )


def save_vote_counts(
    db: Store, game: str, readings: Iterable[tuple[str, str | None]], version: int
) -> None:
    """Store what each post (by id) was read to hold: a count as JSON, or None."""
    with _writing(db):
        db.executemany(
            "update posts set vote_count = ?, vote_count_version = ? where game = ? and post_id = ?",
            [(reading, version, game, post_id) for post_id, reading in readings],
        )


def load_vote_counts(
    db: Store, game: str, authors: Sequence[str], version: int
) -> list[sqlite3.Row]:
    """The live posts by ``authors`` (exact spellings) with what they were read to hold:
    ``post_id``, ``number``, ``vote_count`` (JSON, else null) and, where it was never read or read
    by another reader ``version`` (stored before readings were kept, edited since, or the reader
    upgraded), ``unread`` (the body to read; else null)."""
    if not authors:
        return []
    count, read_by = _column(db, "posts", "vote_count"), _column(db, "posts", "vote_count_version")
    return _rows(
        db,
        f"select post_id, number, {count} as vote_count, "
        f"case when {read_by} is not ? then body_html end as unread "
        f"from posts where game = ? and author in ({','.join('?' * len(authors))}) and not deleted "
        f"and body_html <> '' and ({count} is not null or {read_by} is not ?) "
        "order by number, post_id",
        [version, game, *authors, version],
    )


def _column(db: Store, table: str, column: str) -> str:
    """``column`` where ``table`` has it, else null: a read of a store made before the column was
    added (which opening it for a write adds) finds it never read."""
    return column if _has_column(db, table, column) else "null"


def save_night_readings(
    db: Store, game: str, readings: Iterable[tuple[str, bool]], version: int
) -> None:
    """Store whether each post (by id) was read to tell the night (a moderator's post)."""
    with _writing(db):
        db.executemany(
            "update posts set night_told = ?, night_told_version = ? "
            "where game = ? and post_id = ?",
            [(int(told), version, game, post_id) for post_id, told in readings],
        )


def load_night_readings(
    db: Store, game: str, authors: Sequence[str], version: int
) -> list[sqlite3.Row]:
    """The live posts by ``authors`` (exact spellings) with ``post_id``, ``number``, ``night_told``
    (1: the post tells the night) and, where reader ``version`` never read it, ``unread``."""
    if not authors:
        return []
    told, read_by = _column(db, "posts", "night_told"), _column(db, "posts", "night_told_version")
    return _rows(
        db,
        f"select post_id, number, {told} as night_told, "
        f"case when {read_by} is not ? then body_html end as unread "
        f"from posts where game = ? and author in ({','.join('?' * len(authors))}) and not deleted "
        "and body_html <> '' order by number, post_id",
        [version, game, *authors],
    )


def post_authors(db: Store, game: str) -> list[tuple[str, str | None]]:
    """Who wrote the stored posts of a game: (name, forum user id) once for each post (what
    :meth:`Roster.from_game` takes), grouped by author (every `votal count` reads them)."""
    rows = _rows(
        db,
        "select author, author_id, count(*) as n from posts where game = ? group by author, author_id "
        "order by min(number)",
        [game],
    )
    return [pair for row in rows for pair in [(row["author"], row["author_id"])] * row["n"]]


def load_read_posts(db: Store, game: str, *, up_to: int | None = None) -> list[ReadPost]:
    """Every stored post of a game (up to post number ``up_to``), in thread order, with its commands
    (read again in memory where older code read them: a read never writes; the next sync stores
    them)."""
    fresh = _commands_read_again(db, game)
    # Plain tuples, not rows read by column name: every `votal count` reads every post (a tenth of
    # its work).
    rows = _tuples(
        db,
        "select number, post_id, author, author_id, time, url, commands, edited, deleted, revisions "
        "from posts where game = ? and (? is null or number <= ?) order by number, post_id",
        [game, up_to, up_to],
    )
    firsts = _first_commands(db, game, {r[1] for r in rows if r[9] > 1})
    iso = datetime.fromisoformat
    # Positional, in ReadPost's field order (edited, deleted, first_commands, author_id last): a
    # frozen dataclass's keyword arguments cost every stored post of every count a lookup each (6 M
    # instructions).
    return [
        ReadPost(
            number,
            post_id,
            author,
            iso(time) if time else None,
            url,
            decode_commands(fresh.get(post_id, commands) if fresh else commands),
            bool(edited),
            bool(deleted),
            firsts.get(post_id) if revisions > 1 else None,
            author_id,
        )
        for number, post_id, author, author_id, time, url, commands, edited, deleted, revisions in rows
    ]


def _commands_read_again(db: Store, game: str) -> dict[str, str]:
    """Post id -> the commands (encoded) of each post whose stored ones another reader version read,
    read again from its body."""
    # Bodies are read only where commands must be read again: every `votal count` loads the thread.
    stale = _rows(
        db,
        "select post_id, body_html from posts where game = ? and commands_version is not ?",
        [game, EXTRACTOR_VERSION],
    )
    return {row["post_id"]: encode_commands(_extract(row["body_html"])) for row in stale}


def save_commands_read_again(db: Store, game: str) -> None:
    """Store the commands of the posts, and of edited posts' first revisions, that another reader
    version read (what a sync does after a reader upgrade, so that a count reads them as stored)."""
    fresh = _commands_read_again(db, game)
    edited_sql = "select post_id from posts where game = ? and revisions > 1"
    edited = {row[0] for row in _tuples(db, edited_sql, [game])}
    firsts = {
        post_id: first
        for post_id, first in _first_revisions(db, game, edited).items()
        if first.read_again
    }
    if not fresh and not firsts:
        return
    with _writing(db):
        db.executemany(
            "update posts set commands = ?, commands_version = ? where game = ? and post_id = ?",
            [(commands, EXTRACTOR_VERSION, game, post_id) for post_id, commands in fresh.items()],
        )
        db.executemany(
            "update revisions set commands = ?, commands_version = ? "
            "where game = ? and post_id = ? and body_hash = ?",
            [
                (first.commands, EXTRACTOR_VERSION, game, post_id, first.body_hash)
                for post_id, first in firsts.items()
            ],
        )


_IDS_A_QUERY = 500  # post ids bound in one query (SQLite before 3.32 allows 999 parameters)


@dataclass(frozen=True)
class _FirstRevision:
    body_hash: str
    commands: str | None  # encoded
    read_again: bool  # read now: the stored commands were another reader version's, or none


def _first_commands(db: Store, game: str, post_ids: set[str]) -> dict[str, tuple[Command, ...]]:
    """The commands of the first stored revision of each of ``post_ids`` (edited posts), as kept
    with the revision (read again in memory where another reader version read them)."""
    firsts = _first_revisions(db, game, post_ids)
    return {post_id: decode_commands(first.commands) for post_id, first in firsts.items()}


def _first_revisions(db: Store, game: str, post_ids: set[str]) -> dict[str, _FirstRevision]:
    """The first stored revision of each of ``post_ids`` with its commands, read from its body where
    this reader version never read it."""
    if not post_ids:
        return {}
    read_by = _column(db, "revisions", "commands_version")
    kept = _column(db, "revisions", "commands")
    first: dict[str, tuple] = {}
    # Only the edited posts' revisions, found by the table's key (game, post_id, ...): every post
    # has one, and each row's seen_at and commands lie past its body, so reading them all cost a
    # count more than its replay.
    wanted = sorted(post_ids)
    for at in range(0, len(wanted), _IDS_A_QUERY):
        chunk = wanted[at : at + _IDS_A_QUERY]
        for row in _tuples(
            db,
            f"select post_id, body_hash, {kept}, {read_by} from revisions where game = ? "
            f"and post_id in ({','.join('?' * len(chunk))}) order by seen_at desc, rowid desc",
            [game, *chunk],
        ):
            first[row[0]] = row  # ordered newest first: the last one written wins
    return {post_id: _first_revision(db, game, row) for post_id, row in first.items()}


def _first_revision(db: Store, game: str, row: tuple) -> _FirstRevision:
    post_id, body_hash, commands, version = row
    if version == EXTRACTOR_VERSION:
        return _FirstRevision(body_hash, commands, read_again=False)
    body_sql = "select body_html from revisions where game = ? and post_id = ? and body_hash = ?"
    body = _aggregate(db, body_sql, [game, post_id, body_hash])["body_html"]
    return _FirstRevision(body_hash, encode_commands(_extract(body)), read_again=True)


def record_sync(db: Store, row: dict) -> None:
    with _writing(db):
        db.execute(
            f"insert into syncs ({', '.join(row)}) values ({', '.join('?' * len(row))})",
            list(row.values()),
        )


def last_sync(db: Store, game: str) -> sqlite3.Row | None:
    return _one(db, "select * from syncs where game = ? order by id desc limit 1", [game])


def last_good_sync(db: Store, game: str) -> sqlite3.Row | None:
    return _one(
        db, "select * from syncs where game = ? and error is null order by id desc limit 1", [game]
    )


def post_totals(db: Store, game: str) -> sqlite3.Row:
    """``stored`` and ``deleted`` post counts of a game."""
    return _rows(
        db,
        "select count(*) as stored, coalesce(sum(deleted), 0) as deleted from posts where game = ?",
        [game],
    )[0]


def sync_totals(db: Store, game: str, *, since: datetime) -> sqlite3.Row:
    """``syncs``, ``requests`` and failed answers (``n``) of a game's syncs started since
    ``since``."""
    return _rows(
        db,
        "select coalesce(sum(faults), 0) as n, count(*) as syncs, coalesce(sum(requests), 0) as requests "
        "from syncs where game = ? and started >= ?",
        [game, since.isoformat()],
    )[0]


# --- What the scheduler and sync keep beside the posts: HTTP validators, vanished posts, alerts,
# locks.


@dataclass(frozen=True)
class Validators:
    """What the forum sent with the stored copy of a page: its ETag and Last-Modified, and what the
    page held (a 304 says the page is unchanged but does not repeat it): its next-page link, its
    post ids in order and its first post's number."""

    etag: str | None = None
    last_modified: str | None = None
    next_url: str | None = None
    post_ids: tuple[str, ...] = ()
    first_number: int | None = None
    saved_at: datetime | None = None  # when we read that copy


def load_validators(db: Store, game: str, url: str) -> Validators:
    """The validators of the stored copy of ``url`` (all None if unknown)."""
    row = _one(db, "select * from validators where game = ? and url = ?", [game, url])
    if row is None:
        return Validators()
    ids = tuple(json.loads(row["post_ids"])) if row["post_ids"] else ()
    saved = datetime.fromisoformat(row["saved_at"]) if row["saved_at"] else None
    return Validators(
        row["etag"], row["last_modified"], row["next_url"], ids, row["first_number"], saved
    )


def _write_validators(db: Store, game: str, url: str, validators: Validators, seen: str) -> None:
    if validators.etag or validators.last_modified:
        _upsert(
            db,
            "validators",
            {
                "game": game,
                "url": url,
                "etag": validators.etag,
                "last_modified": validators.last_modified,
                "next_url": validators.next_url,
                "post_ids": json.dumps(list(validators.post_ids)),
                "first_number": validators.first_number,
                "saved_at": seen,
            },
            ("game", "url"),
        )
    else:
        db.execute("delete from validators where game = ? and url = ?", [game, url])


def save_pages(
    db: Store,
    game: str,
    pages: Sequence[tuple[str, list[Post], Validators]],
    *,
    gone: Iterable[str],
    seen_at: datetime,
) -> SaveResult:
    """Save several pages (url, posts, validators) and mark ``gone`` deleted, all in ONE
    transaction.

    For a deletion found by re-reading earlier pages: the forum renumbered every post after it, and
    a sync killed halfway must not leave some posts renumbered and others not.
    """
    seen = seen_at.isoformat()
    new = changed = 0
    with _writing(db):
        for url, posts, validators in pages:
            rows, revisions, result = _post_rows(db, game, list(posts), seen)
            new, changed = new + result.new, changed + result.changed
            _write_posts(db, rows, revisions)
            _write_validators(db, game, url, validators, seen)
            _clear_vanished(db, game, [p.post_id for p in posts])
        _mark_gone(db, game, gone, seen)
    return SaveResult(new, changed)


def _clear_vanished(db: Store, game: str, ids: list[str]) -> None:
    if ids:
        marks = ",".join("?" * len(ids))
        db.execute(
            f"update posts set vanished = null where game = ? and vanished is not null and post_id in ({marks})",
            [game, *ids],
        )


def load_robots(db: Store, site: str, *, fetched_after: datetime) -> tuple[int, str] | None:
    """A site's stored robots.txt answer (status, text) if fetched after ``fetched_after``."""
    row = _one(db, "select status, body, fetched_at from robots where site = ?", [site])
    if row is None or datetime.fromisoformat(row["fetched_at"]) <= fetched_after:
        return None
    return row["status"], row["body"] or ""


def save_robots(db: Store, site: str, answer: tuple[int, str], *, fetched_at: datetime) -> None:
    with _writing(db):
        _upsert(
            db,
            "robots",
            {
                "site": site,
                "status": answer[0],
                "body": answer[1],
                "fetched_at": fetched_at.isoformat(),
            },
            ("site",),
        )


def load_hold(db: Store, host: str) -> datetime | None:
    """Until when ``host`` asked not to be asked again (a long Retry-After), if it did."""
    row = _one(db, "select until from holds where host = ?", [host])
    return datetime.fromisoformat(row["until"]) if row else None


def save_hold(db: Store, host: str, until: datetime) -> None:
    """Remember a long Retry-After beyond this process (the next `votal sync` from cron honours it
    too)."""
    with _writing(db):
        _upsert(db, "holds", {"host": host, "until": until.isoformat()}, ("host",))


def find_missing(
    db: Store, game: str, *, since_number: int | None, present: Iterable[str]
) -> list[str]:
    """Stored posts not known to have vanished, numbered ``since_number`` or later (all, if None),
    not in ``present``. (A post the forum marks deleted but still shows is not missing.)"""
    present = set(present)
    since = "" if since_number is None else " and number >= ?"
    rows = _rows(
        db,
        "select post_id from posts where game = ? and vanished is null"
        + since
        + " order by number, post_id",
        [game] if since_number is None else [game, since_number],
    )
    return [r["post_id"] for r in rows if r["post_id"] not in present]


def mark_missing(
    db: Store,
    game: str,
    *,
    since_number: int | None,
    present: Iterable[str],
    seen_at: datetime,
) -> list[str]:
    """Mark deleted (never drop) what :func:`find_missing` finds; returns their ids. One
    transaction."""
    gone = find_missing(db, game, since_number=since_number, present=present)
    if gone:
        with _writing(db):
            _mark_gone(db, game, gone, seen_at.isoformat())
    return gone


def _mark_gone(db: Store, game: str, post_ids: Iterable[str], seen: str) -> None:
    db.executemany(
        "update posts set deleted = 1, vanished = ? where game = ? and post_id = ?",
        [(seen, game, post_id) for post_id in post_ids],
    )


def count_live_posts(
    db: Store, game: str, *, exclude: Iterable[str] = (), below: int | None = None
) -> int:
    """Stored posts the forum still shows, as far as we know (not vanished; a post it marks deleted
    but shows still takes a place in its numbering), numbered below ``below`` if given, leaving out
    ``exclude``."""
    excluded = set(exclude)
    rows = _rows(
        db,
        "select post_id from posts where game = ? and vanished is null"
        + ("" if below is None else " and number < ?"),
        [game] if below is None else [game, below],
    )
    return sum(1 for r in rows if r["post_id"] not in excluded)


def count_vanished(db: Store, game: str, *, below: int | None = None) -> int:
    """Stored posts a re-read page no longer showed (marked deleted), below ``below`` if given."""
    query = "select count(*) as n from posts where game = ? and vanished is not null"
    if below is None:
        return _rows(db, query, [game])[0]["n"]
    return _rows(db, query + " and number < ?", [game, below])[0]["n"]


def first_post_at(db: Store, game: str, moment: datetime) -> int | None:
    """The number of the first stored post made at or after ``moment``."""
    return _rows(
        db,
        "select min(number) as n from posts where game = ? and time >= ?",
        [game, moment.isoformat()],
    )[0]["n"]


def number_vote_count(
    db: Store, game: str, day: int, as_of_post: int, *, now: datetime, keep: bool = True
) -> int:
    """The number of day ``day``'s vote count as of ``as_of_post`` ("Vote Count 3.2" is day 3's
    second): the number it was given before, else the next one, kept (``keep``) so that drafting it
    again gives the same."""

    def find() -> tuple[int | None, int]:
        given = _one(
            db,
            "select number from vote_counts where game = ? and day = ? and as_of_post = ?",
            [game, day, as_of_post],
        )
        last = _aggregate(
            db, "select max(number) as n from vote_counts where game = ? and day = ?", [game, day]
        )["n"]
        return (given["number"] if given else None), (last or 0) + 1

    given, following = find()
    if given is not None or not keep:
        return given if given is not None else following
    with _writing(db):
        given, following = (
            find()
        )  # again inside the write lock: another process may have numbered it
        if given is not None:
            return given
        row = {
            "game": game,
            "day": day,
            "as_of_post": as_of_post,
            "number": following,
            "created": now.isoformat(),
        }
        _upsert(db, "vote_counts", row, ("game", "day", "as_of_post"))
    return following


def post_time(db: Store, game: str, number: int) -> datetime | None:
    """When post ``number`` was written (else the nearest earlier post with a time): "as of post P"
    is as of then."""
    row = _one(
        db,
        "select time from posts where game = ? and number <= ? and time is not null order by number desc limit 1",
        [game, number],
    )
    return datetime.fromisoformat(row["time"]) if row else None


def first_post_number(db: Store, game: str) -> int | None:
    """The number of the thread's first post as stored (0 on MafiaScum, 1 on most forums), deleted
    or not."""
    return _rows(db, "select min(number) as n from posts where game = ?", [game])[0]["n"]


def load_post_numbers(db: Store, game: str, post_ids: Iterable[str]) -> dict[str, int]:
    """Stored post numbers by post id, for the ids given that are stored."""
    ids = list(post_ids)
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    return {
        r["post_id"]: r["number"]
        for r in _rows(
            db,
            f"select post_id, number from posts where game = ? and post_id in ({marks})",
            [game, *ids],
        )
    }


def add_alerts(db: Store, game: str, alerts: Iterable[dict], *, now: datetime) -> list[dict]:
    """Store alerts not stored before (by ``key``); returns only the new ones, so each is sent
    once."""
    alerts = list(alerts)
    if not alerts:
        return []  # no write transaction (and no wait for the write lock) when a run has nothing to say
    new = []
    with _writing(db):
        for alert in alerts:
            cursor = db.execute(
                "insert or ignore into alerts (game, key, kind, message, created, attempts) values (?, ?, ?, ?, ?, 0)",
                [game, alert["key"], alert["kind"], alert["message"], now.isoformat()],
            )
            if cursor.rowcount:
                new.append(alert)
    return new


def save_run_state(
    db: Store,
    game: str,
    game_file: str,
    *,
    state: str,
    deadline: datetime | None,
    closes: datetime | None,
) -> None:
    with _writing(db):
        db.execute(
            "insert or replace into run_states (game, game_file, state, deadline, closes) values (?, ?, ?, ?, ?)",
            [game, game_file, state, *(t.isoformat() if t else None for t in (deadline, closes))],
        )


def load_run_state(
    db: Store, game: str, game_file: str
) -> tuple[str, datetime | None, datetime | None] | None:
    """The state digest `votal run` last counted ``game_file`` on, and its deadline and election
    close."""
    row = _one(
        db,
        "select state, deadline, closes from run_states where game = ? and game_file = ?",
        [game, game_file],
    )
    if row is None:
        return None
    return row["state"], *(
        datetime.fromisoformat(t) if t else None for t in (row["deadline"], row["closes"])
    )


def save_output_fingerprint(db: Store, game: str, target: str, fingerprint: str) -> None:
    with _writing(db):
        db.execute(
            "insert or replace into outputs (game, target, fingerprint) values (?, ?, ?)",
            [game, target, fingerprint],
        )


def load_output_fingerprint(db: Store, game: str, target: str) -> str | None:
    """What `votal run` last wrote ``target`` (a page's folder, a draft) of ``game`` from."""
    row = _one(db, "select fingerprint from outputs where game = ? and target = ?", [game, target])
    return row["fingerprint"] if row is not None else None


def load_unsent_alerts(db: Store, game: str, *, max_attempts: int) -> list[sqlite3.Row]:
    return _rows(
        db,
        "select key, kind, message, attempts from alerts where game = ? and sent is null and attempts < ? "
        "order by created, rowid",
        [game, max_attempts],
    )


def mark_alerts_sent(
    db: Store, game: str, keys: Iterable[str], *, sent_at: datetime | None, error: str | None = None
) -> None:
    """Record one webhook attempt for the alerts ``keys`` (sent, or failed with ``error``)."""
    with _writing(db):
        db.executemany(
            "update alerts set sent = ?, send_error = ?, attempts = attempts + 1 where game = ? and key = ?",
            [(sent_at.isoformat() if sent_at else None, error, game, key) for key in keys],
        )


def load_alerts(db: Store, game: str, *, limit: int = 20) -> list[sqlite3.Row]:
    """The latest alerts of a game, newest first."""
    return _rows(
        db,
        "select key, kind, message, created, sent, send_error from alerts where game = ? "
        "order by created desc, rowid desc limit ?",
        [game, limit],
    )


def database_file(db: Store) -> Path | None:
    """The file behind ``db`` (None for an in-memory store)."""
    for row in db.execute("pragma database_list").fetchall():
        if row[1] == "main" and row[2]:
            return Path(row[2])
    return None


class GameLocked(VotalError):
    """Another process is syncing this game right now."""


_memory_locks: dict[tuple[int, str], threading.Lock] = {}
_memory_locks_guard = threading.Lock()


@contextmanager
def lock_game(db: Store, game: str, *, timeout: float = 0.0) -> Iterator[None]:
    """Hold the game's sync lock: an ``fcntl`` lock on a file beside the DB, freed by the OS even on
    kill -9.

    Waits up to ``timeout`` seconds, then raises :class:`GameLocked`.
    """
    path = database_file(db)
    if path is None:  # in-memory store: only this process can see it
        with _memory_locks_guard:
            lock = _memory_locks.setdefault((id(db), game), threading.Lock())
        if not lock.acquire(timeout=timeout) if timeout > 0 else not lock.acquire(blocking=False):
            raise GameLocked(f"game {game} is being synced by another task")
        try:
            yield
        finally:
            lock.release()
        return
    import hashlib

    lock_path = path.with_name(f"{path.name}.{hashlib.sha256(game.encode()).hexdigest()[:12]}.lock")
    handle = _take_file_lock(lock_path, time.monotonic() + timeout, game)
    try:
        yield
    finally:
        # removed while still held, so no empty lock file is left behind; a process waiting on the
        # removed file finds it is no longer the one at lock_path and takes the lock on a new one
        lock_path.unlink(missing_ok=True)
        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
        handle.close()


def _take_file_lock(lock_path: Path, deadline: float, game: str):
    """A handle holding the ``flock`` on the file now at ``lock_path`` (never a removed one)."""
    while True:
        handle = open(lock_path, "a+")  # noqa: SIM115 (held open for the lock's lifetime)
        try:
            while True:
                try:
                    fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise GameLocked(
                            f"game {game} is being synced by another votal process "
                            f"(lock {lock_path.name})"
                        ) from None
                    time.sleep(0.05)
            with contextlib.suppress(FileNotFoundError):
                if os.stat(lock_path).st_ino == os.fstat(handle.fileno()).st_ino:
                    return handle
        except BaseException:
            handle.close()
            raise
        handle.close()  # the holder removed this file as it let go: lock the one there now


def load_posts(db: Store, game: str) -> list[Post]:
    """Every stored post of a game that is not deleted, with its body, in thread order (for reading
    what the moderator announces)."""
    from parsers.page import Post  # here: counts, which read no bodies, never build its classes

    rows = _rows(
        db,
        "select post_id, number, author, author_id, time, url, body_html, edited from posts "
        "where game = ? and not deleted order by number, post_id",
        [game],
    )
    return [
        Post(
            post_id=r["post_id"],
            number=r["number"],
            author=r["author"],
            time=datetime.fromisoformat(r["time"]) if r["time"] else None,
            body_html=r["body_html"] or "",
            url=r["url"],
            edited=bool(r["edited"]),
            author_id=r["author_id"],
        )
        for r in rows
    ]
