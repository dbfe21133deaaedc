"""The SQLite store: a cache of each game's posts, their revisions, and the commands read from them."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import sqlite_utils

from parsers.commands import EXTRACTOR_VERSION, Command, ReadPost, extract_commands
from parsers.page import Post


def open_db(path: str | Path) -> sqlite_utils.Database:
    """Open (creating if needed) a store that several processes may share."""
    db = sqlite_utils.Database(path)
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
            "error": str,
        },
        pk="id",
        if_not_exists=True,
    )
    db["syncs"].create_index(["game", "id"], if_not_exists=True)


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
    seen = seen_at.isoformat()
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
            commands = encode_commands(extract_commands(post.body_html))
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
    with db.conn:  # one transaction per page: a sync killed mid-page leaves the page unwritten, not half-written
        db["posts"].upsert_all(rows, pk=("game", "post_id"))
        if revisions:
            db["revisions"].insert_all(revisions, pk=("game", "post_id", "body_hash"), ignore=True)
    return SaveResult(new, changed)


def encode_commands(commands: Iterable[Command]) -> str:
    return json.dumps([[c.action, c.target, c.raw] for c in commands], ensure_ascii=False)


def decode_commands(text: str | None) -> tuple[Command, ...]:
    return tuple(Command(a, t, r) for a, t, r in json.loads(text or "[]"))


def last_post_number(db: sqlite_utils.Database, game: str) -> int | None:
    row = next(db.query("select max(number) as n from posts where game = ?", [game]))
    return row["n"]


def count_posts(db: sqlite_utils.Database, game: str) -> int:
    return next(db.query("select count(*) as n from posts where game = ?", [game]))["n"]


def load_read_posts(db: sqlite_utils.Database, game: str) -> list[ReadPost]:
    """Every stored post of a game, in thread order, with its commands (read again if read by older code)."""
    rows = list(
        db.query(
            "select post_id, number, author, time, url, body_html, edited, deleted, revisions, commands, "
            "commands_version from posts where game = ? order by number, post_id",
            [game],
        )
    )
    stale = [r for r in rows if r["commands_version"] != EXTRACTOR_VERSION]
    if stale:
        for row in stale:
            row["commands"] = encode_commands(extract_commands(row["body_html"]))
        with db.conn:
            for row in stale:
                db["posts"].update(
                    (game, row["post_id"]), {"commands": row["commands"], "commands_version": EXTRACTOR_VERSION}
                )
    firsts = _first_revisions(db, game) if any(r["revisions"] > 1 for r in rows) else {}
    return [
        ReadPost(
            number=r["number"],
            post_id=r["post_id"],
            author=r["author"],
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


def _first_revisions(db: sqlite_utils.Database, game: str) -> dict[str, str]:
    first: dict[str, str] = {}
    for row in db.query(
        "select post_id, body_html from revisions where game = ? order by seen_at desc, rowid desc", [game]
    ):
        first[row["post_id"]] = row["body_html"]  # ordered newest first: the last one written wins
    return first


def record_sync(db: sqlite_utils.Database, row: dict) -> None:
    with db.conn:
        db["syncs"].insert(row)


def last_sync(db: sqlite_utils.Database, game: str) -> dict | None:
    return next(db.query("select * from syncs where game = ? order by id desc limit 1", [game]), None)
