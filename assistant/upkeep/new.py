"""A first game file from what a thread says (`votal new`): the text to write and a report of what
was found.

Pure: facts in (from :func:`assistant.reading.announcements.read_thread_facts`), TOML text and a
report out. Every entry read from the thread carries a comment citing the post and the moderator's
words, so the moderator reviews the file against the thread instead of writing it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, tzinfo
from typing import TYPE_CHECKING, Any

from assistant.gamefile.game import DayDecl, Game, parse_game
from assistant.reading.announcements import ThreadFacts
from assistant.upkeep.edits import write_game_file
from assistant.upkeep.update import edits_from_facts, write_edits
from assistant.upkeep.update import page_size as update_page_size

if TYPE_CHECKING:
    from assistant.forum.fetch import Fetched, HostLimiter, PageFetcher, RobotsCache
    from assistant.reading.announcements import PostLike

DEFAULT_RULESET = "mafiascum"


@dataclass(frozen=True)
class NewGame:
    text: str  # the game file (empty when nothing usable was found)
    found: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    summary: dict = field(default_factory=dict)

    @property
    def usable(self) -> bool:
        return bool(self.text)


def plan_game_file(
    facts: ThreadFacts,
    *,
    thread: str,
    forum: str,
    posts: Sequence[PostLike] = (),
    ruleset: str = DEFAULT_RULESET,
    timezone: str | None = None,
    last_post: int | None = None,
    min_interval: float | None = None,
    posts_per_page: int | None = None,
) -> NewGame:
    """The game file ``facts`` support, what was found and what the moderator still has to add.

    The file's head (title, thread, forum, ruleset, timezone, fetch) is written here; everything
    read from the thread is then written by the edits `votal update` writes
    (:func:`assistant.upkeep.update.edits_from_facts`, checked against the thread's ``posts`` as
    update checks them), so a file `new` writes on a finished thread and one `new` wrote at the
    game's first page and `update` kept to its end say the same in the same words.
    """
    title = facts.title or thread
    if not facts.players:
        return _no_player_list(title, thread, forum)
    head = _file_head(title, thread, forum, ruleset, timezone, min_interval, posts_per_page)
    edits, notes = edits_from_facts(
        facts,
        has_players=False,
        clocked=False,
        has_moderators=False,
        opening=posts[0].number if posts else None,
    )
    # one account, one seat: a name the list repeats under another seat is left to the moderator
    # (said below)
    text, _, disagreements = write_edits(head, edits, posts, path="<new game>")
    game = parse_game(text, players_required=False)
    if not game.players:
        return _no_player_list(title, thread, forum)
    days = sorted(game.days, key=lambda d: d.day)
    found = [f"posts per page: {posts_per_page}"] if posts_per_page is not None else []
    found += _found(game, title, forum, days)
    missing = [] if facts.title else ["no thread title found: set `title`"]
    missing += _missing_days(facts, days)
    missing += notes
    missing += [f"{d}: check" for d in disagreements]
    missing += facts.problems
    summary: dict[str, Any] = {"title": title, "thread": thread, "forum": forum, "ruleset": ruleset}
    summary.update(_summary(game, days, last_post))
    return NewGame(text, found, missing, summary)


def _summary(game: Game, days: list[DayDecl], last_post: int | None) -> dict[str, Any]:
    """What the file written holds, for `votal new --format json`."""
    return {
        "moderators": list(game.moderators),
        "players": [{"name": s.name, "replacements": list(s.replacements)} for s in game.players],
        "days": [
            {
                "day": d.day,
                "start_post": d.start_post,
                "end_post": d.end_post,
                "end": d.end.isoformat() if d.end is not None else None,
            }
            for d in days
        ],
        "deaths": [
            {"player": d.player, "phase": f"{d.phase} {d.phase_number}", "post": d.post}
            for d in game.deaths
        ],
        "last_post": last_post,
    }


def _file_head(
    title: str,
    thread: str,
    forum: str,
    ruleset: str,
    timezone: str | None,
    min_interval: float | None,
    posts_per_page: int | None,
) -> str:
    """The game file's head: title, thread, forum, ruleset, timezone and [fetch]."""
    lines = [
        f"title = {_s(title)}",
        f"thread = {_s(thread)}",
        f"forum = {_s(forum)}",
        f"ruleset = {_s(ruleset)}",
    ]
    if timezone:
        lines.append(f"timezone = {_s(timezone)}")
    fetch = [f"min_interval = {min_interval:g}"] if min_interval is not None else []
    if posts_per_page is not None:
        fetch.append(f"posts_per_page = {posts_per_page}  # as the thread's first page shows")
    if fetch:
        lines += ["", "[fetch]", *fetch]
    return "\n".join(lines) + "\n"


def _found(game: Game, title: str, forum: str, days: list[DayDecl]) -> list[str]:
    """What the file written holds, one line each, for the report."""
    found = [f"title: {title}", f"forum: {forum}", f"moderators: {', '.join(game.moderators)}"]
    replaced = sum(len(s.replacements) for s in game.players)
    found.append(
        f"players: {len(game.players)} seats" + (f", {replaced} replacements" if replaced else "")
    )
    if days:
        found.append(f"days: {len(days)} ({sum(1 for d in days if d.end_post is not None)} ended)")
    if game.deaths:
        deaths = ", ".join(f"{d.player} {d.phase} {d.phase_number}" for d in game.deaths)
        found.append(f"deaths: {len(game.deaths)} ({deaths})")
    return found


def _missing_days(facts: ThreadFacts, days: list[DayDecl]) -> list[str]:
    """What the days lack: day 1's start, the current day's deadline, an ended day's lynch."""
    if not days:
        return ["no day start found: add [[days]] with day = 1 and its start_post"]
    missing = []
    current = days[-1]
    if current.end_post is None and current.end is None:
        missing.append(f"no deadline found: add `end` to day {current.day}")
    for day in days:
        if day.end_post is not None and not any(e.day == day.day for e in facts.eliminations):
            missing.append(
                f"day {day.day} ended at post {day.end_post} with no lynch or no-lynch read: check"
            )
    return missing


def _no_player_list(title: str, thread: str, forum: str) -> NewGame:
    """Nothing to write: the advice is what to do next, never an edit of a file not written."""
    advice = (
        "no player list found in the moderators' posts (a list of the players, one a line): "
        "run `votal new` again once the moderator has posted it"
    )
    summary = {"title": title, "thread": thread, "forum": forum, "written": False}
    return NewGame("", [], [advice], summary)


def _s(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def create_game_file(
    url: str,
    out: str,
    *,
    db,
    ruleset: str | None,
    timezone: str | None,
    now,
    progress=None,
    fetcher=None,
    min_interval: float | None = None,
    forum: str | None = None,
) -> NewGame:
    """Sync the thread at ``url`` into ``db``, read it, and write the game file to ``out`` when
    usable (I/O edge of :func:`plan_game_file`)."""
    from dataclasses import replace

    from assistant.forum import store
    from assistant.forum.fetch import make_fetcher
    from assistant.forum.sync import sync_game
    from assistant.gamefile.game import parse_game
    from assistant.reading.announcements import read_thread_facts
    from parsers.detect import get_parser
    from parsers.markup import read_title

    url, zone = _checked_address(url, timezone)
    game = _bare_game(url, out, ruleset or DEFAULT_RULESET, timezone, min_interval)
    fetcher = fetcher or make_fetcher(game)
    engine, seen = (forum, None) if forum else detect_from_page(url, fetcher)
    parser = get_parser(engine)
    first_url = parser.page_url(url)
    # the first page, for the thread's title and page size; the sync starts from it
    fetched = seen if seen is not None and seen.url == first_url else fetcher.fetch(first_url)
    first = fetched.text or ""
    game = replace(game, forum=engine)
    # progress: each page's SyncResult
    sync_game(game, db, FirstPageKept(fetcher, fetched), now=now, on_page=progress)
    # PostLike declares settable attributes, which a frozen Post has not (a fix that belongs in
    # facts.py)
    posts: Sequence[PostLike] = store.load_posts(db, game.key)  # type: ignore[assignment]
    facts = read_thread_facts(posts, title=read_title(first), timezone=zone)
    result = plan_game_file(
        facts,
        thread=url,
        forum=engine,
        posts=posts,
        ruleset=ruleset or DEFAULT_RULESET,
        timezone=timezone,
        last_post=posts[-1].number if posts else None,
        min_interval=min_interval,
        posts_per_page=page_size(parser, url, parser.parse_page(first, url=first_url)),
    )
    if result.usable:
        # what we write must load: a failure here is our bug, not the thread's
        parse_game(result.text, path=out)
        write_game_file(out, result.text, why="votal new --force")  # an overwritten file: undoable
    return result


def _bare_game(
    url: str, out: str, ruleset: str, timezone: str | None, min_interval: float | None
) -> Game:
    """The game as `votal new` knows it before reading the thread: its address and settings."""
    from pathlib import Path

    from assistant.gamefile.game import FetchSettings

    settings = FetchSettings() if min_interval is None else FetchSettings(min_interval=min_interval)
    return Game(
        path=Path(out),
        title=url,
        thread=url,
        ruleset=ruleset,
        players=(),
        timezone=timezone,
        fetch=settings,
    )


def _checked_address(url: str, timezone: str | None) -> tuple[str, tzinfo]:
    """The thread's address and the moderator's zone, refused before any request (a retry cannot
    mend either)."""
    from assistant.errors import BadInput
    from assistant.gamefile.weburl import thread_address, url_problem
    from assistant.gamefile.zones import UnknownZone, zone_named

    if (problem := url_problem(url)) is not None:
        raise BadInput(problem)
    url = thread_address(url)  # a page's address copied from the browser names the same thread
    try:  # the forms the game file accepts (UTC-5, GMT+10:30, IANA names), refused with them listed
        zone = zone_named(timezone) if timezone else UTC
    except UnknownZone as exc:
        raise BadInput(f"--timezone: {exc}") from None
    return url, zone


class FirstPageKept:
    """A fetcher whose first request, when it is for the page ``fetched`` already holds (and not
    conditional), is answered with it: `votal new` reads the thread's first page for its title,
    then syncs from it: a polite forum's pause between requests is not spent on one page twice."""

    def __init__(self, fetcher: PageFetcher, fetched: Fetched | None) -> None:
        self._fetcher, self._kept = fetcher, fetched

    def fetch(
        self, url: str, *, etag: str | None = None, last_modified: str | None = None
    ) -> Fetched:
        kept, self._kept = self._kept, None
        if kept is not None and kept.url == url and etag is None and last_modified is None:
            return kept
        return self._fetcher.fetch(url, etag=etag, last_modified=last_modified)

    def get(self, url: str) -> str:
        return self.fetch(url).text or ""

    # the rest is the fetcher's
    @property
    def limiter(self) -> HostLimiter:
        return self._fetcher.limiter

    @property
    def robots(self) -> RobotsCache | None:
        return self._fetcher.robots

    @property
    def faults(self) -> list[str]:
        return self._fetcher.faults

    @property
    def requests_made(self) -> int:
        return self._fetcher.requests_made


def detect_from_page(url: str, fetcher):
    """The forum engine serving ``url`` and the page fetched to tell it (None when the address
    told). One Votal cannot tell is an error that says to name it (`votal new --forum`): there is
    no game file yet."""
    from assistant.errors import ForumError
    from parsers.detect import ENGINES, detect_engine

    try:
        return detect_engine(url), None
    except ForumError:
        pass
    seen = fetcher.fetch(url)
    try:
        return detect_engine(url, seen.text or ""), seen
    except ForumError as exc:
        said = str(exc).split(": set forum = ", 1)[0]
        raise ForumError(f"{said}: name it with --forum (one of {', '.join(ENGINES)})") from None


def page_size(parser, thread: str, first_page) -> int | None:
    """The posts a page holds, as the thread's first page shows them
    (:func:`assistant.upkeep.update.page_size`, which `votal update` uses once the thread grows past
    its first page)."""
    return update_page_size(parser, thread, len(first_page.posts), bool(first_page.next_url))
