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
from assistant.forum.fetch import (
    Fetched,
    PageFetcher,
    Stopped,
    hold_until,
    same_site,
    shown_url,
    site_of,
)
from assistant.forum.stored_counts import readers_stamp, readings_current, save_readings
from assistant.gamefile.game import Game
from parsers.page import ThreadPage

MAX_PAGES = 5000  # no thread is longer; a sync reading more pages than this stops with an error
MAX_KEPT_PROBLEMS = (
    20  # a sync's page problems kept in its row (the first ones say what went wrong)
)
# seconds one sync may take; a longer one stops (what it read is kept) and the next resumes
SYNC_DEADLINE = 3600.0
HOLD_REMEMBERED = 60.0  # a Retry-After longer than this is stored, so later processes honour it too
# how long a stored robots.txt is trusted (RFC 9309: up to a day)
ROBOTS_MAX_AGE = timedelta(hours=24)


@dataclass
class SyncResult:
    engine: str
    requests: int = 0
    pages: int = 0
    new_posts: int = 0
    changed_posts: int = 0
    deleted_posts: int = 0
    not_modified: bool = (
        False  # the forum answered 304 for a page: nothing new on it, one request spent
    )
    pages_left: int | None = None  # after the last page read, from the thread's post count
    problems: list[str] = field(default_factory=list)
    # failed answers met on the way (retried, or the error)
    faults: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.new_posts or self.changed_posts or self.deleted_posts)


def sync_game(
    game: Game,
    db: store.Store,
    fetcher: PageFetcher,
    *,
    now: Callable[[], datetime],
    on_page: Callable[[SyncResult], None] | None = None,
    parser: ModuleType | None = None,
    lock_timeout: float = 0.0,
    recheck_from: int | None = None,
    deadline: float = SYNC_DEADLINE,
) -> SyncResult:
    """Fetch from the page holding the last stored post (it may have grown) to the thread's end.

    ``recheck_from`` (a post number) starts earlier, to catch edits on pages already read: unchanged
    pages cost a 304 where the forum sends validators.

    Each page is asked for with the validators (ETag / Last-Modified) it was last served with, so a
    poll with nothing new costs one request. Each page is saved in its own transaction as soon as it
    is read, so an interrupted sync keeps what it fetched and the next one resumes there. Posts gone
    from the forum are marked deleted (see :func:`_find_vanished`). Holds the game's lock: another
    process syncing the same game makes this raise :class:`store.GameLocked` after ``lock_timeout``
    seconds.

    Bounded: only pages on the thread's own scheme and host are read (a next-page link elsewhere is
    an error), a pagination that repeats itself (a link back to a page read, a page of posts already
    read) is an error, and so is a sync still running ``deadline`` seconds after it started (by the
    fetcher's limiter clock). Each such error keeps what was saved before it.
    """
    check_ruleset(game)
    with store.lock_game(db, game.key, timeout=lock_timeout):
        sync = _Sync(game, db, fetcher, now, on_page, deadline)
        return sync.run(parser, recheck_from=recheck_from)


@dataclass(frozen=True)
class _PageRead:
    """A page read in this sync, and the numbers its posts had in the store before it."""

    url: str
    fetched: Fetched
    page: ThreadPage
    numbers_before: dict[str, int]


class _Sync:
    """The state of one sync: what was read, to tell a vanished post from a renumbered one."""

    def __init__(
        self,
        game: Game,
        db: store.Store,
        fetcher: PageFetcher,
        now: Callable[[], datetime],
        on_page: Callable[[SyncResult], None] | None,
        deadline: float,
    ) -> None:
        self.game, self.db, self.fetcher, self.now, self.on_page = game, db, fetcher, now, on_page
        self.parser: (
            ModuleType  # the engine's, known once the sync starts (detecting it costs requests)
        )
        self.result: SyncResult
        self.deadline = deadline
        self.ends = fetcher.limiter.clock() + deadline  # by the fetcher's limiter clock
        self.seen_ids: set[str] = set()  # posts shown by the pages read in this sync
        # the first page read: (its first number, the numbers its posts had before)
        self.earliest: tuple[int, dict[str, int]] | None = None
        self.base: int | None = None  # the forum's first post number, 0 or 1
        self.page_size = 0  # the most posts a page read showed
        self.first_read: int | None = None  # the first post number read in this sync
        self.readers: str | None = None  # what the readings were read with (stored_counts)

    def run(self, parser: ModuleType | None, *, recheck_from: int | None = None) -> SyncResult:
        game, fetcher = self.game, self.fetcher
        started = self.now()
        requests_before = fetcher.requests_made
        faults_before = len(fetcher.faults)
        engine = game.forum or (parser.NAME if parser else _detect(game, fetcher))
        self.parser = parser or get_parser(engine)
        result = self.result = SyncResult(engine)
        site = site_of(game.thread)
        robots_unknown = self.prime_robots(site, started)
        url = self.start_url(recheck_from)
        error = None
        host = urlsplit(game.thread).netloc
        try:
            held = store.load_hold(self.db, host)
            if held is not None and held > started:
                raise ForumError(f"{host} asked Votal to wait until {held:%Y-%m-%d %H:%M} UTC")
            self.read_pages(url, requests_before)
        except BaseException as exc:
            # whatever ended the sync (the forum, a stop, a store that could not be written) is its
            # error: a sync that failed is never recorded as a good one
            error = _error_of(exc)
            raise
        finally:
            result.requests = fetcher.requests_made - requests_before
            result.faults = fetcher.faults[faults_before:]
            row = self.sync_row(error, started)
            self.remember(
                error, row, host=host, site=site if robots_unknown else None, started=started
            )
        return result

    def prime_robots(self, site: str, started: datetime) -> bool:
        """Whether the site's robots.txt is still unknown; one read by an earlier sync saves a
        request."""
        robots = self.fetcher.robots
        if robots is None or robots.knows(site):
            return False
        stored = store.load_robots(self.db, site, fetched_after=started - ROBOTS_MAX_AGE)
        if stored is None:
            return True
        robots.prime(site, *stored)
        return False

    def start_url(self, recheck_from: int | None) -> str | None:
        """The page holding the last stored post, or ``recheck_from``'s if earlier."""
        game = self.game
        last = store.last_post_number(self.db, game.key)
        if recheck_from is not None and last is not None:
            last = min(last, max(recheck_from, 0))
        self.base = store.first_post_number(self.db, game.key)
        url: str | None = self.parser.page_url(
            game.thread, after_post=last, per_page=game.fetch.posts_per_page
        )
        return url

    def read_pages(self, url: str | None, requests_before: int) -> None:
        """Read from ``url`` to the thread's end, saving each page as it is read."""
        game, db, fetcher, result = self.game, self.db, self.fetcher, self.result
        seen_urls: set[str] = set()
        while url:
            self.check_bounds(url, seen_urls)
            seen_urls.add(url)
            known = self.known_validators(url)
            fetched = _fetch_whole(fetcher, url, known)
            if fetched.not_modified:
                result.not_modified = True
                self.note_unchanged(known)
                # unchanged, so its next-page link is too (None: the thread's end)
                url = known.next_url
                continue
            page = self.read_page(url, fetched)
            if result.pages > 1 and self.seen_ids.issuperset(p.post_id for p in page.posts):
                raise ForumError(
                    f"{shown_url(url)}: the thread's pagination repeats itself (this page shows "
                    f"only posts already read in this sync); stopped after {result.pages - 1} "
                    "pages, what was read is saved"
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
            self.find_vanished(self.earliest)
        # what a count reads is read here, as posts are stored (or once after a reader upgrade): a
        # count, which never writes, then reads the readings. A sync that stored nothing, after one
        # that read with today's readers, has nothing to read (the idle poll stays cheap).
        from assistant.forum.stored_phases import reads_nights

        nights = reads_nights(game)
        self.readers = readers_stamp(game.moderators, nights=nights)
        if result.changed or not readings_current(db, game.key, self.readers):
            save_readings(db, game.key, game.moderators, nights=nights)

    def known_validators(self, url: str) -> store.Validators:
        """Validators exist only for pages whose posts are all saved: a 304 means nothing to read
        here."""
        known = store.load_validators(self.db, self.game.key, url)
        stored = (
            store.load_post_numbers(self.db, self.game.key, known.post_ids)
            if known.post_ids
            else {}
        )
        if len(stored) < len(known.post_ids):
            # posts of that page were lost from the store: read it whole again
            return store.Validators()
        return known

    def sync_row(self, error: str | None, started: datetime) -> dict[str, object]:
        """The sync's row in the store."""
        result = self.result
        return {
            "game": self.game.key,
            "started": started.isoformat(),
            "finished": self.now().isoformat(),
            "requests": result.requests,
            "pages": result.pages,
            "new_posts": result.new_posts,
            "changed_posts": result.changed_posts,
            "deleted_posts": result.deleted_posts,
            "not_modified": int(result.not_modified),
            "faults": len(result.faults),
            "error": error,
            # what the pages could not read, so count, status and run say so after this sync too
            "problems": json.dumps(result.problems[:MAX_KEPT_PROBLEMS])
            if result.problems
            else None,
            "readers": self.readers if error is None else None,
        }

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
        """Before each page: on the thread's site, not read before in this sync, within the sync's
        limits."""
        shown, done = shown_url(url), self.result.pages
        if not same_site(url, self.game.thread):
            raise ForumError(
                f"{shown}: the thread's next-page link leads to another site; Votal reads only "
                f"{site_of(self.game.thread)} (stopped after {done} pages, what was read is saved)"
            )
        if url in seen_urls:
            raise ForumError(
                f"{shown}: the thread's next-page links go round in a loop; stopped after {done} "
                "pages, what was read is saved"
            )
        if done >= MAX_PAGES:
            raise ForumError(
                f"more than {MAX_PAGES} pages in one sync; stopped, what was read is saved"
            )
        if self.fetcher.limiter.clock() > self.ends:
            raise ForumError(
                f"the sync ran longer than {self.deadline / 60:g} min; stopped after {done} pages, "
                "what was read is saved and the next sync resumes there"
            )

    def remember(
        self, error: str | None, row: dict, *, host: str, site: str | None, started: datetime
    ) -> None:
        """Store a long Retry-After, a fresh robots.txt and the sync's row. When the store cannot
        take them (a full disk) after the sync already failed, the sync's own error is what the
        moderator sees; and no row ever says a sync succeeded that did not."""
        fetcher = self.fetcher
        try:
            wait = fetcher.limiter.held_for(host)
            if wait > HOLD_REMEMBERED:
                store.save_hold(self.db, host, hold_until(self.now(), wait))
            answer = (
                fetcher.robots.answer(site)
                if site is not None and fetcher.robots is not None
                else None
            )
            if site is not None and answer is not None:
                store.save_robots(self.db, site, answer, fetched_at=started)
            store.record_sync(self.db, row)
        except store.StoreError:
            if error is None:
                raise

    def read_page(self, url: str, fetched: Fetched):
        """Parse one page; a page with no readable post is an error (changed markup), never an empty
        page."""
        # Engines that print local times ("Today, 03:09 PM") read them in the game's zone, relative
        # to now.
        page = self.parser.parse_page(
            fetched.text,
            url=url,
            tz=self.game.tz,
            now=self.now(),
            per_page=self.game.fetch.posts_per_page,
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
        """Save one page's posts and its validators in one transaction (one commit a page, and a
        304 never hides unsaved posts)."""
        ids = [p.post_id for p in page.posts]
        numbers_before = store.load_post_numbers(self.db, self.game.key, ids)
        seen_at = self.now()
        pages = [(url, page.posts, _validators(fetched, page))]
        saved = store.save_pages(self.db, self.game.key, pages, gone=(), seen_at=seen_at)
        self.result.new_posts += saved.new
        self.result.changed_posts += saved.changed
        self.note_seen(ids, page.posts[0].number, numbers_before)

    def note_unchanged(self, known: store.Validators) -> None:
        """A page the forum says is unchanged still shows its posts: count them as seen."""
        if known.post_ids and known.first_number is not None:
            ids = list(known.post_ids)
            self.note_seen(
                ids, known.first_number, store.load_post_numbers(self.db, self.game.key, ids)
            )

    def note_seen(self, ids: list[str], first: int, numbers_before: dict[str, int]) -> None:
        self.seen_ids.update(ids)
        if self.earliest is None or first < self.earliest[0]:
            self.earliest = (first, numbers_before)

    def walk_back(self, url: str, fetched: Fetched, page: ThreadPage) -> bool:
        """If posts before ``page`` vanished, read earlier pages back to them and save all at once;
        else False.

        The forum numbers posts by position: before this page it shows ``first - base`` posts. If
        more are stored (and not marked deleted), some vanished; if fewer while some stored there
        vanished, those are back (restored on the forum). Earlier pages are read, newest first,
        until the counts agree; then they, this page, and the deleted marks are written in one
        transaction, all judged by the numbers stored before this sync, so a sync killed at any
        point leaves nothing half-renumbered.
        """
        walked = self.read_back(_PageRead(url, fetched, page, self.numbers_before(page)))
        if walked is None:
            return False
        read, since = walked
        if len(read) == 1:
            return False  # nothing vanished before this page
        if any(r.page.problems for r in read):
            # a post we could not read is not a deleted post (the problem is already reported)
            return False
        self.save_walked(read, since)
        return True

    def numbers_before(self, page: ThreadPage) -> dict[str, int]:
        """The numbers the page's posts had in the store before this sync."""
        return store.load_post_numbers(self.db, self.game.key, [p.post_id for p in page.posts])

    def read_back(self, start: _PageRead) -> tuple[list[_PageRead], int | None] | None:
        """The pages from ``start`` back to where the stored posts before them agree with the
        forum's numbering, and the post number from which a stored post no page showed is gone
        (None: all); None when there is nothing to compare with or the pages cannot be trusted."""
        base = self.base or 0
        read, seen, current = [start], set[str](), start
        while True:
            seen.update(p.post_id for p in current.page.posts)
            first = current.page.posts[0].number
            if not current.numbers_before:
                if len(read) > 1:
                    self.give_up(current.url, "an earlier page holds no post stored before")
                return None  # a page of new posts only: nothing to compare with
            since = min(current.numbers_before.values())
            before_on_forum = first - base
            stored_before = store.count_live_posts(
                self.db, self.game.key, exclude=seen, below=since
            )
            fewer = stored_before < before_on_forum
            restored = fewer and store.count_vanished(self.db, self.game.key, below=since) > 0
            if stored_before == before_on_forum or (fewer and not restored):
                # else posts vanished before this page, or one marked vanished is back
                return (
                    read,
                    since,
                )
            if before_on_forum <= 0:
                # the thread's first page is read: every unseen stored post is gone
                return (
                    read,
                    None,
                )
            if len(read) == 1 and current.page.problems:
                return None
            if self.result.pages >= MAX_PAGES:
                raise ForumError(
                    f"more than {MAX_PAGES} pages read to find deleted posts; nothing marked"
                )
            earlier = self.read_before(first)
            if earlier is None:
                return None
            read.append(earlier)
            current = earlier

    def read_before(self, first: int) -> _PageRead | None:
        """The page before the one starting at post ``first``; None (said) when the forum gives
        another."""
        url = self.parser.page_url(
            self.game.thread, after_post=first - 1, per_page=self.game.fetch.posts_per_page
        )
        fetched = _fetch_whole(self.fetcher, url, None)
        page = self.read_page(url, fetched)
        if page.posts[0].number >= first:
            self.give_up(url, f"the page asked for as the one before post {first} is not")
            return None
        return _PageRead(url, fetched, page, self.numbers_before(page))

    def save_walked(self, read: list[_PageRead], since: int | None) -> None:
        """The pages walked back over, and the posts none of them showed marked deleted, in one
        transaction."""
        seen = {p.post_id for r in read for p in r.page.posts}
        gone = store.find_missing(self.db, self.game.key, since_number=since, present=seen)
        saved = store.save_pages(
            self.db,
            self.game.key,
            [(r.url, r.page.posts, _validators(r.fetched, r.page)) for r in reversed(read)],
            gone=gone,
            seen_at=self.now(),
        )
        self.result.new_posts += saved.new
        self.result.changed_posts += saved.changed
        self.result.deleted_posts += len(gone)
        for r in read:
            self.note_seen(
                [x.post_id for x in r.page.posts], r.page.posts[0].number, r.numbers_before
            )

    def give_up(self, url: str, why: str) -> None:
        self.result.problems.append(
            f"{url}: {why}; posts that vanished before it are not marked deleted"
        )

    def find_vanished(self, earliest: tuple[int, dict[str, int]]) -> None:
        """Once the thread's end has been read: mark deleted the stored posts at or after the first
        page read (as numbered before this sync) that no page showed. Posts before it are accounted
        for by :meth:`walk_back`. A sync cut short marks nothing; the next one finds the same posts
        missing."""
        first, numbers_before = earliest
        if first <= (self.base or 0):
            since = None  # the thread's first page was read: every unseen stored post is gone
        elif numbers_before:
            since = min(numbers_before.values())
        else:
            return  # the earliest page read held no stored post: nothing to compare with
        gone = store.mark_missing(
            self.db, self.game.key, since_number=since, present=self.seen_ids, seen_at=self.now()
        )
        self.result.deleted_posts += len(gone)


def _error_of(exc: BaseException) -> str:
    """What a sync's row says ended it."""
    if isinstance(exc, VotalError):
        return str(exc)
    if isinstance(exc, (Stopped, KeyboardInterrupt)):
        return "stopped"
    return f"{type(exc).__name__}: the sync did not finish"


def check_ruleset(game: Game) -> None:
    """Load the game's ruleset before anything is fetched or written: a missing or broken ruleset is
    the moderator's error now, not after the store holds the thread."""
    # As counting.ruleset_for finds it, without importing the tally (a third of an idle poll's
    # start-up).
    from assistant.gamefile.rules import load_ruleset

    name = game.ruleset
    load_ruleset(game.path.parent / name if name.endswith(".toml") or "/" in name else name)


def _validators(fetched: Fetched, page) -> store.Validators:
    """What to remember of a page for the next conditional GET. A page read with problems (posts
    that may be missing) keeps no ETag or Last-Modified: a 304 must never stand for a page whose
    posts we did not get."""
    if page.problems:
        return store.Validators(None, None, page.next_url)
    return store.Validators(
        fetched.etag,
        fetched.last_modified,
        page.next_url,
        tuple(p.post_id for p in page.posts),
        page.posts[0].number,
    )


def _fetch_whole(fetcher: PageFetcher, url: str, known: store.Validators | None) -> Fetched:
    """Fetch a page, once more if it arrived cut short: a truncated page would read as deleted
    posts."""
    known = known or store.Validators()
    fetched = fetcher.fetch(url, etag=known.etag, last_modified=_usable_last_modified(known))
    if fetched.not_modified or not looks_truncated(fetched.text or ""):
        return fetched
    fetcher.faults.append(f"truncated page fetching {url}")
    fetched = fetcher.fetch(url)
    if looks_truncated(fetched.text or ""):
        fetcher.faults.append(f"truncated page fetching {url}")
        raise ForumError(
            f"{url}: the page arrived cut short twice (no closing </html>); nothing saved from it"
        )
    return fetched


def _usable_last_modified(known: store.Validators) -> str | None:
    """Last-Modified counts whole seconds: a post made in the second our copy was read would not
    make the page "modified since" it. Only a Last-Modified clearly older than our read is safe to
    send."""
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


def _detect(game: Game, fetcher: PageFetcher) -> str:
    from parsers.detect import detect_engine

    try:
        return detect_engine(game.thread)
    except ForumError:
        return detect_engine(game.thread, fetcher.get(game.thread))
