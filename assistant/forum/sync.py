"""One sync of a game: fetch the pages not yet stored, parse them, and save their posts."""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime
from types import ModuleType
from urllib.parse import urlsplit

from assistant.errors import ForumError, VotalError
from assistant.forum import store
from assistant.forum.fetch import Fetched, Fetcher, Stopped, hold_until, same_site, shown_url, site_of
from assistant.gamefile.game import Game

MAX_PAGES = 5000  # no thread is longer; a sync reading more pages than this stops with an error
MAX_KEPT_PROBLEMS = 20  # a sync's page problems kept in its row (the first ones say what went wrong)
SYNC_DEADLINE = 3600.0  # seconds one sync may take; a longer one stops (what it read is kept) and the next resumes
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
    pages_left: int | None = None  # after the last page read, from the thread's post count
    problems: list[str] = field(default_factory=list)
    faults: list[str] = field(default_factory=list)  # failed answers met on the way (retried, or the error)

    @property
    def changed(self) -> bool:
        return bool(self.new_posts or self.changed_posts or self.deleted_posts)


def sync_game(
    game: Game,
    db: store.Store,
    fetcher: Fetcher,
    *,
    now: Callable[[], datetime],
    on_page: Callable[[SyncResult], None] | None = None,
    parser: ModuleType | None = None,
    lock_timeout: float = 0.0,
    recheck_from: int | None = None,
    deadline: float = SYNC_DEADLINE,
) -> SyncResult:
    """Fetch from the page holding the last stored post (it may have grown) to the thread's end.

    ``recheck_from`` (a post number) starts earlier, to catch edits on pages already read: unchanged pages
    cost a 304 where the forum sends validators.

    Each page is asked for with the validators (ETag / Last-Modified) it was last served with, so a poll
    with nothing new costs one request. Each page is saved in its own transaction as soon as it is read,
    so an interrupted sync keeps what it fetched and the next one resumes there. Posts gone from the
    forum are marked deleted (see :func:`_find_vanished`). Holds the game's lock: another process syncing
    the same game makes this raise :class:`store.GameLocked` after ``lock_timeout`` seconds.

    Bounded: only pages on the thread's own scheme and host are read (a next-page link elsewhere is an
    error), a pagination that repeats itself (a link back to a page read, a page of posts already read) is
    an error, and so is a sync still running ``deadline`` seconds after it started (by the fetcher's
    limiter clock). Each such error keeps what was saved before it.
    """
    check_ruleset(game)
    with store.lock_game(db, game.key, timeout=lock_timeout):
        sync = _Sync(game, db, fetcher, now, on_page, parser)
        sync.ends = fetcher.limiter.clock() + deadline
        sync.deadline = deadline
        return sync.run(recheck_from=recheck_from)


class _Sync:
    """The state of one sync: what was read, to tell a vanished post from a renumbered one."""

    def __init__(self, game, db, fetcher, now, on_page, parser):
        self.game, self.db, self.fetcher, self.now, self.on_page = game, db, fetcher, now, on_page
        self.parser = parser
        self.seen_ids: set[str] = set()  # posts shown by the pages read in this sync
        self.earliest: tuple[int, dict[str, int]] | None = None  # first read page: (first number, numbers before)
        self.base: int | None = None  # the forum's first post number, 0 or 1
        self.page_size = 0  # the most posts a page read showed
        self.first_read: int | None = None  # the first post number read in this sync

    def run(self, *, recheck_from: int | None = None) -> SyncResult:
        game, db, fetcher, now = self.game, self.db, self.fetcher, self.now
        started = now()
        requests_before = fetcher.requests_made
        faults_before = len(fetcher.faults)
        engine = game.forum or (self.parser.NAME if self.parser else _detect(game, fetcher))
        self.parser = self.parser or get_parser(engine)
        result = self.result = SyncResult(engine)
        site = site_of(game.thread)
        robots_unknown = fetcher.robots is not None and not fetcher.robots.knows(site)
        if robots_unknown:  # a robots.txt read by an earlier sync saves this one a request
            stored = store.load_robots(db, site, fetched_after=started - ROBOTS_MAX_AGE)
            if stored is not None:
                fetcher.robots.prime(site, *stored)
                robots_unknown = False
        last = store.last_post_number(db, game.key)
        if recheck_from is not None and last is not None:
            last = min(last, max(recheck_from, 0))
        self.base = store.first_post_number(db, game.key)
        url: str | None = self.parser.page_url(game.thread, after_post=last, per_page=game.fetch.posts_per_page)
        seen_urls: set[str] = set()
        error = None
        host = urlsplit(game.thread).netloc
        try:
            held = store.load_hold(db, host)
            if held is not None and held > started:
                raise ForumError(f"{host} asked Votal to wait until {held:%Y-%m-%d %H:%M} UTC")
            while url:
                self.check_bounds(url, seen_urls)
                seen_urls.add(url)
                # Validators exist only for pages whose posts are all saved: a 304 means nothing to read here.
                known = store.load_validators(db, game.key, url)
                if known.post_ids and len(store.load_post_numbers(db, game.key, known.post_ids)) < len(known.post_ids):
                    known = store.Validators()  # posts of that page were lost from the store: read it whole again
                fetched = _fetch_whole(fetcher, url, known)
                if fetched.not_modified:
                    result.not_modified = True
                    self.note_unchanged(known)
                    url = known.next_url  # unchanged, so its next-page link is too (None: the thread's end)
                    continue
                page = self.read_page(url, fetched)
                if result.pages > 1 and self.seen_ids.issuperset(p.post_id for p in page.posts):
                    raise ForumError(
                        f"{shown_url(url)}: the thread's pagination repeats itself (this page shows only posts already "
                        f"read in this sync); stopped after {result.pages - 1} pages, what was read is saved"
                    )
                if not (result.pages == 1 and self.walk_back(url, fetched, page)):
                    self.save_page(url, fetched, page)
                result.requests = fetcher.requests_made - requests_before
                result.pages_left = self.pages_left(page)
                if self.on_page:
                    self.on_page(result)
                url = page.next_url
            if url is None and not result.problems and self.earliest is not None:
                # the whole end of the thread was read and understood: what is missing from it is gone
                self.find_vanished()
            # what a count reads is read here, as posts are stored (or once after a reader upgrade):
            # a count, which never writes, then reads the readings
            from assistant.forum.stored_counts import save_readings
            from assistant.forum.stored_phases import reads_nights

            save_readings(db, game.key, game.moderators, nights=reads_nights(game))
        except BaseException as exc:
            # whatever ended the sync (the forum, a stop, a store that could not be written) is its error:
            # a sync that failed is never recorded as a good one
            stopped = isinstance(exc, (Stopped, KeyboardInterrupt))
            error = str(exc) if isinstance(exc, VotalError) else "stopped" if stopped else (
                f"{type(exc).__name__}: the sync did not finish"
            )
            raise
        finally:
            result.requests = fetcher.requests_made - requests_before
            result.faults = fetcher.faults[faults_before:]
            self.remember(
                error,
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
                    # what the pages could not read, so count, status and run say so after this sync too
                    "problems": json.dumps(result.problems[:MAX_KEPT_PROBLEMS]) if result.problems else None,
                },
                host=host,
                site=site if robots_unknown else None,
                started=started,
            )
        return result

    def pages_left(self, page) -> int | None:
        """Pages still to read after ``page``, from the post count the forum shows (None where it
        shows none): what a progress bar's total and time left are worked out from."""
        if not page.posts:
            return None
        self.page_size = max(self.page_size, len(page.posts))
        if self.first_read is None:
            self.first_read = page.posts[0].number
        if page.next_url is None:
            return 0
        if not page.total_posts:
            return None
        # nothing stored before this sync: the first page read is the thread's first
        base = self.base if self.base is not None else self.first_read
        left = page.total_posts - (page.posts[-1].number - base + 1)
        return max(0, -(-left // self.page_size))

    def check_bounds(self, url: str, seen_urls: set[str]) -> None:
        """Before each page: on the thread's site, not read before in this sync, within the sync's limits."""
        shown, done = shown_url(url), self.result.pages
        if not same_site(url, self.game.thread):
            raise ForumError(
                f"{shown}: the thread's next-page link leads to another site; Votal reads only "
                f"{site_of(self.game.thread)} (stopped after {done} pages, what was read is saved)"
            )
        if url in seen_urls:
            raise ForumError(
                f"{shown}: the thread's next-page links go round in a loop; stopped after {done} pages, "
                "what was read is saved"
            )
        if done >= MAX_PAGES:
            raise ForumError(f"more than {MAX_PAGES} pages in one sync; stopped, what was read is saved")
        if self.fetcher.limiter.clock() > self.ends:
            raise ForumError(
                f"the sync ran longer than {self.deadline / 60:g} min; stopped after {done} pages, what was read "
                "is saved and the next sync resumes there"
            )

    def remember(self, error: str | None, row: dict, *, host: str, site: str | None, started: datetime) -> None:
        """Store a long Retry-After, a fresh robots.txt and the sync's row. When the store cannot take them
        (a full disk) after the sync already failed, the sync's own error is what the moderator sees; and no
        row ever says a sync succeeded that did not."""
        fetcher = self.fetcher
        try:
            wait = fetcher.limiter.held_for(host)
            if wait > HOLD_REMEMBERED:
                store.save_hold(self.db, host, hold_until(self.now(), wait))
            if site is not None and fetcher.robots.answer(site) is not None:
                store.save_robots(self.db, site, fetcher.robots.answer(site), fetched_at=started)
            store.record_sync(self.db, row)
        except store.StoreError:
            if error is None:
                raise

    def read_page(self, url: str, fetched: Fetched):
        """Parse one page; a page with no readable post is an error (changed markup), never an empty page."""
        # Engines that print local times ("Today, 03:09 PM") read them in the game's zone, relative to now.
        page = self.parser.parse_page(
            fetched.text, url=url, tz=self.game.tz, now=self.now(), per_page=self.game.fetch.posts_per_page
        )
        self.result.pages += 1
        self.result.problems.extend(f"{url}: {p}" for p in page.problems)
        if not page.posts:
            detail = "; ".join(page.problems) or "no posts found"
            raise ForumError(
                f"{url}: the page has no posts that Votal can read ({detail}); "
                f"the forum's markup may have changed, or forum = {self.result.engine!r} is wrong"
            )
        if self.base is None:
            self.base = min(p.number for p in page.posts)
        return page

    def save_page(self, url: str, fetched: Fetched, page) -> None:
        """Save one page's posts (one transaction), then its validators."""
        ids = [p.post_id for p in page.posts]
        numbers_before = store.load_post_numbers(self.db, self.game.key, ids)
        seen_at = self.now()
        saved = store.save_posts(self.db, self.game.key, page.posts, seen_at=seen_at)
        self.result.new_posts += saved.new
        self.result.changed_posts += saved.changed
        store.clear_vanished(self.db, self.game.key, ids)
        store.save_validators(self.db, self.game.key, url, _validators(fetched, page), seen_at=seen_at)
        self.note_seen(ids, page.posts[0].number, numbers_before)

    def note_unchanged(self, known: store.Validators) -> None:
        """A page the forum says is unchanged still shows its posts: count them as seen."""
        if known.post_ids and known.first_number is not None:
            ids = list(known.post_ids)
            self.note_seen(ids, known.first_number, store.load_post_numbers(self.db, self.game.key, ids))

    def note_seen(self, ids: list[str], first: int, numbers_before: dict[str, int]) -> None:
        self.seen_ids.update(ids)
        if self.earliest is None or first < self.earliest[0]:
            self.earliest = (first, numbers_before)

    def walk_back(self, url: str, fetched: Fetched, page) -> bool:
        """If posts before ``page`` vanished, read earlier pages back to them and save all at once; else False.

        The forum numbers posts by position: before this page it shows ``first - base`` posts. If
        more are stored (and not marked deleted), some vanished; if fewer while some stored there
        vanished, those are back (restored on the forum). Earlier pages are read, newest first,
        until the counts agree; then they, this page, and the deleted marks are written in one
        transaction, all judged by the numbers stored before this sync, so a sync killed at any
        point leaves nothing half-renumbered.
        """
        base = self.base or 0
        read: list[tuple[str, Fetched, object, dict[str, int]]] = []
        seen: set[str] = set()
        current_url, current_fetched, current = url, fetched, page
        while True:
            ids = [p.post_id for p in current.posts]
            numbers_before = store.load_post_numbers(self.db, self.game.key, ids)
            read.append((current_url, current_fetched, current, numbers_before))
            seen.update(ids)
            first = current.posts[0].number
            if not numbers_before:
                if len(read) > 1:
                    self.give_up(current_url, "an earlier page holds no post stored before")
                return False  # a page of new posts only: nothing to compare with
            since = min(numbers_before.values())
            before_on_forum = first - base
            stored_before = store.count_live_posts(self.db, self.game.key, exclude=seen, below=since)
            fewer = stored_before < before_on_forum
            restored = fewer and store.count_vanished(self.db, self.game.key, below=since) > 0
            if stored_before == before_on_forum or (fewer and not restored):
                break  # else posts vanished before this page, or one marked vanished is back
            if before_on_forum <= 0:
                since = None  # the thread's first page is read: every unseen stored post is gone
                break
            if len(read) == 1 and current.problems:
                return False
            if self.result.pages >= MAX_PAGES:
                raise ForumError(f"more than {MAX_PAGES} pages read to find deleted posts; nothing marked")
            current_url = self.parser.page_url(
                self.game.thread, after_post=first - 1, per_page=self.game.fetch.posts_per_page
            )
            current_fetched = _fetch_whole(self.fetcher, current_url, None)
            current = self.read_page(current_url, current_fetched)
            if current.posts[0].number >= first:
                self.give_up(current_url, f"the page asked for as the one before post {first} is not")
                return False
        if len(read) == 1:
            return False  # nothing vanished before this page
        if any(p.problems for _, _, p, _ in read):
            return False  # a post we could not read is not a deleted post (the problem is already reported)
        gone = store.find_missing(self.db, self.game.key, since_number=since, present=seen)
        saved = store.save_pages(
            self.db,
            self.game.key,
            [(u, p.posts, _validators(f, p)) for u, f, p, _ in reversed(read)],
            gone=gone,
            seen_at=self.now(),
        )
        self.result.new_posts += saved.new
        self.result.changed_posts += saved.changed
        self.result.deleted_posts += len(gone)
        for _, _, p, numbers_before in read:
            self.note_seen([x.post_id for x in p.posts], p.posts[0].number, numbers_before)
        return True

    def give_up(self, url: str, why: str) -> None:
        self.result.problems.append(f"{url}: {why}; posts that vanished before it are not marked deleted")

    def find_vanished(self) -> None:
        """Once the thread's end has been read: mark deleted the stored posts at or after the first page read
        (as numbered before this sync) that no page showed. Posts before it are accounted for by
        :meth:`walk_back`. A sync cut short marks nothing; the next one finds the same posts missing."""
        first, numbers_before = self.earliest
        if first <= (self.base or 0):
            since = None  # the thread's first page was read: every unseen stored post is gone
        elif numbers_before:
            since = min(numbers_before.values())
        else:
            return  # the earliest page read held no stored post: nothing to compare with
        gone = store.mark_missing(self.db, self.game.key, since_number=since, present=self.seen_ids, seen_at=self.now())
        self.result.deleted_posts += len(gone)


def check_ruleset(game: Game) -> None:
    """Load the game's ruleset before anything is fetched or written: a missing or broken ruleset is the
    moderator's error now, not after the store holds the thread."""
    # As counting.ruleset_for finds it, without importing the tally (a third of an idle poll's start-up).
    from assistant.gamefile.rules import load_ruleset

    name = game.ruleset
    load_ruleset(game.path.parent / name if name.endswith(".toml") or "/" in name else name)


def _validators(fetched: Fetched, page) -> store.Validators:
    """What to remember of a page for the next conditional GET. A page read with problems (posts that may be
    missing) keeps no ETag or Last-Modified: a 304 must never stand for a page whose posts we did not get."""
    if page.problems:
        return store.Validators(None, None, page.next_url)
    return store.Validators(
        fetched.etag, fetched.last_modified, page.next_url, tuple(p.post_id for p in page.posts), page.posts[0].number
    )


def _fetch_whole(fetcher: Fetcher, url: str, known: store.Validators | None) -> Fetched:
    """Fetch a page, once more if it arrived cut short: a truncated page would read as deleted posts."""
    known = known or store.Validators()
    fetched = fetcher.fetch(url, etag=known.etag, last_modified=_usable_last_modified(known))
    if fetched.not_modified or not looks_truncated(fetched.text or ""):
        return fetched
    fetcher.faults.append(f"truncated page fetching {url}")
    fetched = fetcher.fetch(url)
    if looks_truncated(fetched.text or ""):
        fetcher.faults.append(f"truncated page fetching {url}")
        raise ForumError(f"{url}: the page arrived cut short twice (no closing </html>); nothing saved from it")
    return fetched


def _usable_last_modified(known: store.Validators) -> str | None:
    """Last-Modified counts whole seconds: a post made in the second our copy was read would not make the
    page "modified since" it. Only a Last-Modified clearly older than our read is safe to send."""
    if not known.last_modified or known.saved_at is None:
        return None
    try:
        modified = parsedate_to_datetime(known.last_modified)
    except (TypeError, ValueError):
        return None
    if modified.tzinfo is None:
        modified = modified.replace(tzinfo=UTC)
    return known.last_modified if modified <= known.saved_at - timedelta(seconds=2) else None


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
