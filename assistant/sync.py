"""One sync of a game: fetch the pages not yet stored, parse them, and save their posts."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from types import ModuleType
from urllib.parse import urlsplit

import sqlite_utils

from assistant import store
from assistant.errors import ForumError
from assistant.fetch import Fetched, Fetcher, Stopped, hold_until, site_of
from assistant.game import Game

MAX_PAGES = 5000  # a guard against a forum whose "next" link loops
HOLD_REMEMBERED = 60.0  # a Retry-After longer than this is stored, so later processes honour it too
ROBOTS_MAX_AGE = timedelta(hours=24)  # how long a stored robots.txt is trusted (RFC 9309: up to a day)


@dataclass
class SyncResult:
    engine: str
    requests: int = 0
    pages: int = 0
    new_posts: int = 0
    changed_posts: int = 0
    deleted_posts: int = 0
    not_modified: bool = False  # the forum answered 304 for a page: nothing new on it, one request spent
    problems: list[str] = field(default_factory=list)
    faults: list[str] = field(default_factory=list)  # failed answers met on the way (retried, or the error)

    @property
    def changed(self) -> bool:
        return bool(self.new_posts or self.changed_posts or self.deleted_posts)


def sync_game(
    game: Game,
    db: sqlite_utils.Database,
    fetcher: Fetcher,
    *,
    now: Callable[[], datetime],
    on_page: Callable[[SyncResult], None] | None = None,
    parser: ModuleType | None = None,
    lock_timeout: float = 0.0,
) -> SyncResult:
    """Fetch from the page holding the last stored post (it may have grown) to the thread's end.

    That first page is asked for with the validators (ETag / Last-Modified) it was last served with, so a
    poll with nothing new costs one request. Each page is saved in its own transaction as soon as it is
    read, so an interrupted sync keeps what it fetched and the next one resumes there. Posts that a
    re-read page no longer shows are marked deleted. Holds the game's lock (another process syncing the
    same game makes this raise :class:`store.GameLocked` after ``lock_timeout`` seconds).
    """
    with store.lock_game(db, game.key, timeout=lock_timeout):
        return _sync_locked(game, db, fetcher, now=now, on_page=on_page, parser=parser)


def _sync_locked(game, db, fetcher, *, now, on_page, parser) -> SyncResult:
    started = now()
    requests_before = fetcher.requests_made
    faults_before = len(fetcher.faults)
    engine = game.forum or (parser.NAME if parser else _detect(game, fetcher))
    parser = parser or get_parser(engine)
    result = SyncResult(engine)
    site = site_of(game.thread)
    robots_unknown = fetcher.robots is not None and not fetcher.robots.knows(site)
    if robots_unknown:  # a robots.txt read by an earlier sync saves this one a request
        stored = store.load_robots(db, site, fetched_after=started - ROBOTS_MAX_AGE)
        if stored is not None:
            fetcher.robots.prime(site, *stored)
            robots_unknown = False
    last = store.last_post_number(db, game.key)
    url: str | None = parser.page_url(game.thread, after_post=last, per_page=game.fetch.posts_per_page)
    seen_urls: set[str] = set()
    error = None
    host = urlsplit(game.thread).netloc
    try:
        held = store.load_hold(db, host)
        if held is not None and held > started:
            raise ForumError(f"{host} asked Votal to wait until {held:%Y-%m-%d %H:%M} UTC")
        while url and result.pages < MAX_PAGES:
            if url in seen_urls:
                result.problems.append(f"{url}: the thread's next-page links go round in a loop")
                break
            seen_urls.add(url)
            # Validators exist only for pages whose posts are all saved, so a 304 means nothing to read here.
            known = store.load_validators(db, game.key, url)
            fetched = _fetch_whole(fetcher, url, known)
            if fetched.not_modified:
                result.not_modified = True
                url = known.next_url  # unchanged, so its next-page link is too (None: the thread's end)
                continue
            page = parser.parse_page(fetched.text, url=url)
            result.pages += 1
            result.problems.extend(f"{url}: {p}" for p in page.problems)
            if not page.posts:
                detail = "; ".join(page.problems) or "no posts found"
                raise ForumError(
                    f"{url}: the page has no posts that Votal can read ({detail}); "
                    f"the forum's markup may have changed, or forum = {engine!r} is wrong"
                )
            ids = [p.post_id for p in page.posts]
            numbers_before = store.load_post_numbers(db, game.key, ids)
            seen_at = now()
            saved = store.save_posts(db, game.key, page.posts, seen_at=seen_at)
            result.new_posts += saved.new
            result.changed_posts += saved.changed
            if not page.problems:  # a post we could not read is not a deleted post
                gone = store.mark_vanished(
                    db, game.key, ids, last_page=page.next_url is None, numbers_before=numbers_before, seen_at=seen_at
                )
                result.deleted_posts += len(gone)
            store.save_validators(
                db, game.key, url, store.Validators(fetched.etag, fetched.last_modified, page.next_url), seen_at=seen_at
            )
            result.requests = fetcher.requests_made - requests_before
            if on_page:
                on_page(result)
            url = page.next_url
    except (ForumError, Stopped) as exc:
        error = str(exc) if isinstance(exc, ForumError) else "stopped"
        raise
    finally:
        result.requests = fetcher.requests_made - requests_before
        result.faults = fetcher.faults[faults_before:]
        wait = fetcher.limiter.held_for(host)
        if wait > HOLD_REMEMBERED:
            store.save_hold(db, host, hold_until(now(), wait))
        if robots_unknown and fetcher.robots.answer(site) is not None:
            store.save_robots(db, site, fetcher.robots.answer(site), fetched_at=started)
        store.record_sync(
            db,
            {
                "game": game.key,
                "started": started.isoformat(),
                "finished": now().isoformat(),
                "requests": result.requests,
                "pages": result.pages,
                "new_posts": result.new_posts,
                "changed_posts": result.changed_posts,
                "deleted_posts": result.deleted_posts,
                "not_modified": int(result.not_modified),
                "faults": len(result.faults),
                "error": error,
            },
        )
    return result


def _fetch_whole(fetcher: Fetcher, url: str, known: store.Validators | None) -> Fetched:
    """Fetch a page, once more if it arrived cut short: a truncated page would read as deleted posts."""
    known = known or store.Validators()
    fetched = fetcher.fetch(url, etag=known.etag, last_modified=known.last_modified)
    if fetched.not_modified or not looks_truncated(fetched.text or ""):
        return fetched
    fetched = fetcher.fetch(url)
    if looks_truncated(fetched.text or ""):
        raise ForumError(f"{url}: the page arrived cut short twice (no closing </html>); nothing saved from it")
    return fetched


def looks_truncated(text: str) -> bool:
    """An HTML document that opens ``<html`` but never closes it was cut off on the way."""
    head = text[:4000].lower()
    return "<html" in head and "</html>" not in text[-4000:].lower()


def get_parser(engine: str) -> ModuleType:
    """The parser module of a forum engine (``parsers.phpbb`` …)."""
    try:
        return importlib.import_module(f"parsers.{engine}")
    except ModuleNotFoundError:
        raise ForumError(f"Votal has no parser for forum = {engine!r} yet") from None


def _detect(game: Game, fetcher: Fetcher) -> str:
    from parsers.detect import detect_engine

    try:
        return detect_engine(game.thread)
    except ForumError:
        return detect_engine(game.thread, fetcher.get(game.thread))
