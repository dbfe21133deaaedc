"""One sync of a game: fetch the pages not yet stored, parse them, and save their posts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

import sqlite_utils

from assistant import store
from assistant.errors import ForumError
from assistant.fetch import Fetcher
from assistant.game import Game
from parsers.detect import detect_engine, get_parser

MAX_PAGES = 5000  # a guard against a forum whose "next" link loops


@dataclass
class SyncResult:
    engine: str
    requests: int = 0
    pages: int = 0
    new_posts: int = 0
    changed_posts: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.new_posts or self.changed_posts)


def sync_game(
    game: Game,
    db: sqlite_utils.Database,
    fetcher: Fetcher,
    *,
    now: Callable[[], datetime],
    on_page: Callable[[SyncResult], None] | None = None,
) -> SyncResult:
    """Fetch from the page holding the last stored post (it may have grown) to the thread's end.

    Each page is saved in its own transaction as soon as it is read, so an interrupted sync keeps
    what it fetched and the next one resumes there.
    """
    started = now()
    requests_before = fetcher.requests_made
    engine = game.forum or _detect(game, fetcher)
    parser = get_parser(engine)
    result = SyncResult(engine)
    last = store.last_post_number(db, game.key)
    url: str | None = parser.page_url(game.thread, after_post=last, per_page=game.fetch.posts_per_page)
    seen_urls: set[str] = set()
    error = None
    try:
        while url and url not in seen_urls and result.pages < MAX_PAGES:
            seen_urls.add(url)
            page = parser.parse_page(fetcher.get(url), url=url)
            result.pages += 1
            result.problems.extend(f"{url}: {p}" for p in page.problems)
            if not page.posts:
                detail = "; ".join(page.problems) or "no posts found"
                raise ForumError(
                    f"{url}: the page has no posts that Votal can read ({detail}); "
                    f"the forum's markup may have changed, or forum = {engine!r} is wrong"
                )
            saved = store.save_posts(db, game.key, page.posts, seen_at=now())
            result.new_posts += saved.new
            result.changed_posts += saved.changed
            result.requests = fetcher.requests_made - requests_before
            if on_page:
                on_page(result)
            url = page.next_url
    except ForumError as exc:
        error = str(exc)
        raise
    finally:
        result.requests = fetcher.requests_made - requests_before
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
                "error": error,
            },
        )
    return result


def _detect(game: Game, fetcher: Fetcher) -> str:
    try:
        return detect_engine(game.thread)
    except ForumError:
        return detect_engine(game.thread, fetcher.get(game.thread))
