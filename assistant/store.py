"""The SQLite store: a cache of each game's posts, their revisions, and the commands read from them."""

from __future__ import annotations

import fcntl
import hashlib
import json
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
from parsers.commands import EXTRACTOR_VERSION, Command, ReadPost, extract_commands
from parsers.page import Post

if TYPE_CHECKING:  # sqlite-utils is imported where a store is opened for writing: see open_reader
    import sqlite_utils


def open_db(path: str | Path, *, attempts: int = 60) -> sqlite_utils.Database:
    """Open (creating if needed) a store that several processes may share."""
    for attempt in range(attempts):
        try:
            return _open_db(path)
        except sqlite3.OperationalError as exc:
            # Switching a new file to WAL and creating its tables take locks that SQLite's busy timeout does
            # not wait for (a lock upgrade would deadlock), so processes opening one new store at once retry.
            if "locked" not in str(exc) or attempt == attempts - 1:
                raise
            time.sleep(min(0.01 * (attempt + 1), 0.25))
    raise AssertionError("unreachable")


def _open_db(path: str | Path) -> sqlite_utils.Database:
    import sqlite_utils

    # execute_plugins=False: Votal uses no sqlite-utils plugins, and finding them scans every installed
    # package's entry points, a cost every `votal` command would pay at start-up.
    db = sqlite_utils.Database(path, execute_plugins=False)
    # WAL lets a reader (votal count) run while the scheduler writes; busy_timeout makes a second
    # writer wait for the first instead of failing.
    db.execute("PRAGMA busy_timeout = 10000")
    db.enable_wal()
    ensure_schema(db)
    return db


def ensure_schema(db: sqlite_utils.Database) -> None:
    """Create the tables and indexes; safe to run any number of times."""
    db["posts"].create(
        {
            "game": str,
            "post_id": str,
            "number": int,
            "author": str,
            "author_id": str,
            "time": str,
            "url": str,
            "body_html": str,
            "body_hash": str,
            "edited": int,
            "deleted": int,
            "revisions": int,
            "first_seen": str,
            "last_seen": str,
            "commands": str,
            "commands_version": int,
            # when a re-read page no longer showed the post: it is kept, marked deleted, never dropped
            "vanished": str,
        },
        pk=("game", "post_id"),
        if_not_exists=True,
    )
    db["posts"].create_index(["game", "number"], if_not_exists=True)
    db["revisions"].create(
        {"game": str, "post_id": str, "body_hash": str, "body_html": str, "seen_at": str},
        pk=("game", "post_id", "body_hash"),
        if_not_exists=True,
    )
    db["syncs"].create(
        {
            "id": int,
            "game": str,
            "started": str,
            "finished": str,
            "requests": int,
            "pages": int,
            "new_posts": int,
            "changed_posts": int,
            "deleted_posts": int,
            "not_modified": int,
            "faults": int,
            "error": str,
        },
        pk="id",
        if_not_exists=True,
    )
    db["syncs"].create_index(["game", "id"], if_not_exists=True)
    ensure_sync_schema(db)


@dataclass(frozen=True)
class SaveResult:
    new: int
    changed: int


def hash_body(body_html: str) -> str:
    return hashlib.sha256(body_html.encode("utf-8")).hexdigest()[:20]


def save_posts(db: sqlite_utils.Database, game: str, posts: Iterable[Post], *, seen_at: datetime) -> SaveResult:
    """Upsert one page's posts in one transaction; a changed body adds a revision, never overwrites one."""
    posts = list(posts)
    if not posts:
        return SaveResult(0, 0)
    rows, revisions, result = _post_rows(db, game, posts, seen_at.isoformat())
    with db.conn:  # one transaction per page: a sync killed mid-page leaves the page unwritten, not half-written
        _write_posts(db, rows, revisions)
    return result


def _post_rows(db: sqlite_utils.Database, game: str, posts: list[Post], seen: str) -> tuple[list, list, SaveResult]:
    """The rows and revisions that save ``posts``, judged against what is stored."""
    ids = [p.post_id for p in posts]
    marks = ",".join("?" * len(ids))
    stored = {
        row["post_id"]: row
        for row in db.query(
            f"select post_id, body_hash, revisions, first_seen, edited, commands, commands_version "
            f"from posts where game = ? and post_id in ({marks})",
            [game, *ids],
        )
    }
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
        if same_body and before["commands_version"] == EXTRACTOR_VERSION:
            commands = before["commands"]
        else:
            commands = encode_commands(post.commands if post.commands is not None else extract_commands(post.body_html))
        rows.append(
            {
                "game": game,
                "post_id": post.post_id,
                "number": post.number,
                "author": post.author,
                "author_id": post.author_id,
                "time": post.time.isoformat() if post.time else None,
                "url": post.url,
                "body_html": post.body_html,
                "body_hash": body_hash,
                "edited": int(post.edited or (before is not None and (not same_body or bool(before["edited"])))),
                "deleted": int(post.deleted),
                "revisions": (before["revisions"] if before else 0) + (0 if same_body else 1),
                "first_seen": before["first_seen"] if before else seen,
                "last_seen": seen,
                "commands": commands,
                "commands_version": EXTRACTOR_VERSION,
            }
        )
        if not same_body:
            revisions.append(
                {"game": game, "post_id": post.post_id, "body_hash": body_hash, "body_html": post.body_html,
                 "seen_at": seen}
            )
    return rows, revisions, SaveResult(new, changed)


def _write_posts(db: sqlite_utils.Database, rows: list, revisions: list) -> None:
    db["posts"].upsert_all(rows, pk=("game", "post_id"))
    if revisions:
        db["revisions"].insert_all(revisions, pk=("game", "post_id", "body_hash"), ignore=True)


def encode_commands(commands: Iterable[Command]) -> str:
    return json.dumps([[c.action, c.target, c.raw] for c in commands], ensure_ascii=False)


def decode_commands(text: str | None) -> tuple[Command, ...]:
    if not text or text == "[]":  # most posts hold no command: skip the JSON decoder
        return ()
    return tuple(Command(a, t, r) for a, t, r in json.loads(text))


def open_reader(path: str | Path) -> sqlite3.Connection:
    """A connection for commands that only read the store (count, audit, draft).

    Plain sqlite3, not sqlite-utils: importing sqlite-utils costs a tenth of a second, a third of a
    whole `votal count`. The read functions below accept either kind of connection.
    """
    if not Path(path).is_file():
        raise VotalError(f"no store at {path}: run `votal sync GAME_FILE --db {path}` first")
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA busy_timeout = 10000")
    if "posts" not in {row[0] for row in connection.execute("select name from sqlite_master where type = 'table'")}:
        raise VotalError(f"{path} is not a Votal store (no posts table)")
    return connection


def _rows(db, sql: str, params: Sequence = ()) -> list[dict]:
    """Rows as dicts through either a sqlite-utils Database or a plain sqlite3 connection."""
    cursor = db.execute(sql, params)
    names = [column[0] for column in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def _transaction(db):
    return getattr(db, "conn", db)  # sqlite-utils keeps its sqlite3 connection in .conn


def last_post_number(db: sqlite_utils.Database | sqlite3.Connection, game: str) -> int | None:
    return _rows(db, "select max(number) as n from posts where game = ?", [game])[0]["n"]


def count_posts(db: sqlite_utils.Database, game: str) -> int:
    return next(db.query("select count(*) as n from posts where game = ?", [game]))["n"]


def post_authors(db: sqlite_utils.Database | sqlite3.Connection, game: str) -> list[tuple[str, str | None]]:
    """Who wrote each stored post of a game, (name, forum user id), in thread order (what
    :meth:`Roster.from_game` takes)."""
    rows = _rows(db, "select author, author_id from posts where game = ? order by number, post_id", [game])
    return [(row["author"], row["author_id"]) for row in rows]


def load_read_posts(
    db: sqlite_utils.Database | sqlite3.Connection, game: str, *, up_to: int | None = None
) -> list[ReadPost]:
    """Every stored post of a game (up to post number ``up_to``), in thread order, with its commands (read
    again if read by older code)."""
    # Bodies are read only where commands must be read again: every `votal count` loads the thread.
    stale = _rows(
        db,
        "select post_id, body_html from posts where game = ? and commands_version is not ?",
        [game, EXTRACTOR_VERSION],
    )
    if stale:
        fresh = {row["post_id"]: encode_commands(extract_commands(row["body_html"])) for row in stale}
        with _transaction(db) as connection:
            connection.executemany(
                "update posts set commands = ?, commands_version = ? where game = ? and post_id = ?",
                [(commands, EXTRACTOR_VERSION, game, post_id) for post_id, commands in fresh.items()],
            )
    rows = _rows(
        db,
        "select post_id, number, author, author_id, time, url, edited, deleted, revisions, commands "
        "from posts where game = ? and (? is null or number <= ?) order by number, post_id",
        [game, up_to, up_to],
    )
    firsts = _first_revisions(db, game) if any(r["revisions"] > 1 for r in rows) else {}
    return [
        ReadPost(
            number=r["number"],
            post_id=r["post_id"],
            author=r["author"],
            author_id=r["author_id"],
            time=datetime.fromisoformat(r["time"]) if r["time"] else None,
            url=r["url"],
            commands=decode_commands(r["commands"]),
            edited=bool(r["edited"]),
            deleted=bool(r["deleted"]),
            first_commands=(
                tuple(extract_commands(firsts[r["post_id"]])) if r["revisions"] > 1 and r["post_id"] in firsts else None
            ),
        )
        for r in rows
    ]


def _first_revisions(db: sqlite_utils.Database | sqlite3.Connection, game: str) -> dict[str, str]:
    first: dict[str, str] = {}
    for row in _rows(
        db, "select post_id, body_html from revisions where game = ? order by seen_at desc, rowid desc", [game]
    ):
        first[row["post_id"]] = row["body_html"]  # ordered newest first: the last one written wins
    return first


def record_sync(db: sqlite_utils.Database, row: dict) -> None:
    with db.conn:
        db["syncs"].insert(row)


def last_sync(db: sqlite_utils.Database, game: str) -> dict | None:
    return next(db.query("select * from syncs where game = ? order by id desc limit 1", [game]), None)


# --- What the scheduler and sync keep beside the posts: HTTP validators, vanished posts, alerts, locks.


def ensure_sync_schema(db: sqlite_utils.Database) -> None:
    """Tables for incremental sync and alerts; safe to run any number of times."""
    db["validators"].create(
        {
            "game": str,
            "url": str,
            "etag": str,
            "last_modified": str,
            "next_url": str,
            "saved_at": str,
            "post_ids": str,
            "first_number": int,
        },
        pk=("game", "url"),
        if_not_exists=True,
    )
    db["robots"].create(
        {"site": str, "status": int, "body": str, "fetched_at": str}, pk="site", if_not_exists=True
    )
    db["holds"].create({"host": str, "until": str}, pk="host", if_not_exists=True)
    db["alerts"].create(
        {
            "game": str,
            "key": str,
            "kind": str,
            "message": str,
            "created": str,
            "sent": str,
            "send_error": str,
            "attempts": int,
        },
        pk=("game", "key"),
        if_not_exists=True,
    )


@dataclass(frozen=True)
class Validators:
    """What the forum sent with the stored copy of a page: its ETag and Last-Modified, and what the page
    held (a 304 says the page is unchanged but does not repeat it): its next-page link, its post ids in
    order and its first post's number."""

    etag: str | None = None
    last_modified: str | None = None
    next_url: str | None = None
    post_ids: tuple[str, ...] = ()
    first_number: int | None = None
    saved_at: datetime | None = None  # when we read that copy


def load_validators(db: sqlite_utils.Database, game: str, url: str) -> Validators:
    """The validators of the stored copy of ``url`` (all None if unknown)."""
    row = next(db.query("select * from validators where game = ? and url = ?", [game, url]), None)
    if row is None:
        return Validators()
    ids = tuple(json.loads(row["post_ids"])) if row.get("post_ids") else ()
    saved = datetime.fromisoformat(row["saved_at"]) if row.get("saved_at") else None
    return Validators(row["etag"], row["last_modified"], row["next_url"], ids, row.get("first_number"), saved)


def save_validators(
    db: sqlite_utils.Database, game: str, url: str, validators: Validators, *, seen_at: datetime
) -> None:
    """Remember a page's validators; only after its posts are saved, so a 304 never hides unsaved posts."""
    with db.conn:
        _write_validators(db, game, url, validators, seen_at.isoformat())


def _write_validators(db: sqlite_utils.Database, game: str, url: str, validators: Validators, seen: str) -> None:
    if validators.etag or validators.last_modified:
        db["validators"].upsert(
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
            pk=("game", "url"),
        )
    else:
        db.execute("delete from validators where game = ? and url = ?", [game, url])


def save_pages(
    db: sqlite_utils.Database,
    game: str,
    pages: Sequence[tuple[str, list[Post], Validators]],
    *,
    gone: Iterable[str],
    seen_at: datetime,
) -> SaveResult:
    """Save several pages (url, posts, validators) and mark ``gone`` deleted, all in ONE transaction.

    For a deletion found by re-reading earlier pages: the forum renumbered every post after it, and a
    sync killed halfway must not leave some posts renumbered and others not.
    """
    seen = seen_at.isoformat()
    new = changed = 0
    with db.atomic():
        for url, posts, validators in pages:
            rows, revisions, result = _post_rows(db, game, list(posts), seen)
            new, changed = new + result.new, changed + result.changed
            _write_posts(db, rows, revisions)
            _write_validators(db, game, url, validators, seen)
            _clear_vanished(db, game, [p.post_id for p in posts])
        for post_id in gone:
            db["posts"].update((game, post_id), {"deleted": 1, "vanished": seen})
    return SaveResult(new, changed)


def clear_vanished(db: sqlite_utils.Database, game: str, post_ids: Iterable[str]) -> None:
    """Posts shown again (a moderator restored them) have not vanished."""
    with db.conn:
        _clear_vanished(db, game, list(post_ids))


def _clear_vanished(db: sqlite_utils.Database, game: str, ids: list[str]) -> None:
    if ids:
        marks = ",".join("?" * len(ids))
        db.execute(
            f"update posts set vanished = null where game = ? and vanished is not null and post_id in ({marks})",
            [game, *ids],
        )


def load_robots(db: sqlite_utils.Database, site: str, *, fetched_after: datetime) -> tuple[int, str] | None:
    """A site's stored robots.txt answer (status, text) if fetched after ``fetched_after``."""
    row = next(db.query("select status, body, fetched_at from robots where site = ?", [site]), None)
    if row is None or datetime.fromisoformat(row["fetched_at"]) <= fetched_after:
        return None
    return row["status"], row["body"] or ""


def save_robots(db: sqlite_utils.Database, site: str, answer: tuple[int, str], *, fetched_at: datetime) -> None:
    with db.conn:
        db["robots"].upsert(
            {"site": site, "status": answer[0], "body": answer[1], "fetched_at": fetched_at.isoformat()}, pk="site"
        )


def load_hold(db: sqlite_utils.Database, host: str) -> datetime | None:
    """Until when ``host`` asked not to be asked again (a long Retry-After), if it did."""
    row = next(db.query("select until from holds where host = ?", [host]), None)
    return datetime.fromisoformat(row["until"]) if row else None


def save_hold(db: sqlite_utils.Database, host: str, until: datetime) -> None:
    """Remember a long Retry-After beyond this process (the next `votal sync` from cron honours it too)."""
    with db.conn:
        db["holds"].upsert({"host": host, "until": until.isoformat()}, pk="host")


def find_missing(
    db: sqlite_utils.Database, game: str, *, since_number: int | None, present: Iterable[str]
) -> list[str]:
    """Stored posts not known to have vanished, numbered ``since_number`` or later (all, if None), not in
    ``present``. (A post the forum marks deleted but still shows is not missing.)"""
    present = set(present)
    since = "" if since_number is None else " and number >= ?"
    rows = db.query(
        "select post_id from posts where game = ? and vanished is null" + since + " order by number, post_id",
        [game] if since_number is None else [game, since_number],
    )
    return [r["post_id"] for r in rows if r["post_id"] not in present]


def mark_missing(
    db: sqlite_utils.Database,
    game: str,
    *,
    since_number: int | None,
    present: Iterable[str],
    seen_at: datetime,
) -> list[str]:
    """Mark deleted (never drop) what :func:`find_missing` finds; returns their ids. One transaction."""
    gone = find_missing(db, game, since_number=since_number, present=present)
    if gone:
        with db.conn:
            for post_id in gone:
                db["posts"].update((game, post_id), {"deleted": 1, "vanished": seen_at.isoformat()})
    return gone


def count_live_posts(
    db: sqlite_utils.Database, game: str, *, exclude: Iterable[str] = (), below: int | None = None
) -> int:
    """Stored posts the forum still shows, as far as we know (not vanished; a post it marks deleted but shows
    still takes a place in its numbering), numbered below ``below`` if given, leaving out ``exclude``."""
    excluded = set(exclude)
    rows = db.query(
        "select post_id from posts where game = ? and vanished is null" + ("" if below is None else " and number < ?"),
        [game] if below is None else [game, below],
    )
    return sum(1 for r in rows if r["post_id"] not in excluded)


def first_post_at(db: sqlite_utils.Database, game: str, moment: datetime) -> int | None:
    """The number of the first stored post made at or after ``moment``."""
    row = next(
        db.query("select min(number) as n from posts where game = ? and time >= ?", [game, moment.isoformat()])
    )
    return row["n"]


def first_post_number(db: sqlite_utils.Database, game: str) -> int | None:
    """The number of the thread's first post as stored (0 on MafiaScum, 1 on most forums), deleted or not."""
    return next(db.query("select min(number) as n from posts where game = ?", [game]))["n"]


def load_post_numbers(db: sqlite_utils.Database, game: str, post_ids: Iterable[str]) -> dict[str, int]:
    """Stored post numbers by post id, for the ids given that are stored."""
    ids = list(post_ids)
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    return {
        r["post_id"]: r["number"]
        for r in db.query(f"select post_id, number from posts where game = ? and post_id in ({marks})", [game, *ids])
    }


def add_alerts(db: sqlite_utils.Database, game: str, alerts: Iterable[dict], *, now: datetime) -> list[dict]:
    """Store alerts not stored before (by ``key``); returns only the new ones, so each is sent once."""
    new = []
    with db.conn:
        for alert in alerts:
            cursor = db.execute(
                "insert or ignore into alerts (game, key, kind, message, created, attempts) values (?, ?, ?, ?, ?, 0)",
                [game, alert["key"], alert["kind"], alert["message"], now.isoformat()],
            )
            if cursor.rowcount:
                new.append(alert)
    return new


def load_unsent_alerts(db: sqlite_utils.Database, game: str, *, max_attempts: int) -> list[dict]:
    return list(
        db.query(
            "select key, kind, message, attempts from alerts where game = ? and sent is null and attempts < ? "
            "order by created, rowid",
            [game, max_attempts],
        )
    )


def mark_alert_sent(
    db: sqlite_utils.Database, game: str, key: str, *, sent_at: datetime | None, error: str | None = None
) -> None:
    with db.conn:
        db.execute(
            "update alerts set sent = ?, send_error = ?, attempts = attempts + 1 where game = ? and key = ?",
            [sent_at.isoformat() if sent_at else None, error, game, key],
        )


def load_alerts(db: sqlite_utils.Database, game: str, *, limit: int = 20) -> list[dict]:
    """The latest alerts of a game, newest first."""
    return list(
        db.query(
            "select key, kind, message, created, sent, send_error from alerts where game = ? "
            "order by created desc, rowid desc limit ?",
            [game, limit],
        )
    )


def database_file(db: sqlite_utils.Database) -> Path | None:
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
def lock_game(db: sqlite_utils.Database, game: str, *, timeout: float = 0.0) -> Iterator[None]:
    """Hold the game's sync lock: an ``fcntl`` lock on a file beside the DB, freed by the OS even on kill -9.

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
    lock_path = path.with_name(f"{path.name}.{hashlib.sha256(game.encode()).hexdigest()[:12]}.lock")
    handle = open(lock_path, "a+")  # noqa: SIM115 (held open for the lock's lifetime)
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise GameLocked(
                        f"game {game} is being synced by another votal process (lock {lock_path.name})"
                    ) from None
                time.sleep(0.05)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
    finally:
        handle.close()
