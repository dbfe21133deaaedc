"""Counting a stored game: load its posts once, replay the asked days, and show votals as text."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING

from assistant.counting.checks import (
    GameWarning,
    answered,
    check_corrections,
    check_days,
    check_outcomes,
)
from assistant.counting.clock import Timeline, phase_at
from assistant.counting.day_bounds import count_headings, with_bounds_doubt
from assistant.counting.day_replay import GameReplay
from assistant.counting.doubts import doubts_only, find_doubts
from assistant.counting.takeovers import (
    Takeover,
    could_return,
    could_take_over,
    find_seat_holders,
    find_takeovers,
    with_holders,
)
from assistant.counting.votal import Votal, to_json
from assistant.counting.votecounts import Learning, describe_checks, learn_counts
from assistant.counting.votes import show_votes, votes_needed
from assistant.errors import VotalError
from assistant.forum import store
from assistant.forum.stored_counts import load_posted_counts
from assistant.forum.stored_phases import load_night_posts
from assistant.gamefile.game import Game, Seat
from assistant.gamefile.outcome import summarize, words_of
from assistant.gamefile.rules import Ruleset, find_ruleset
from assistant.reading.names import Resolver, Roster, resolve_name
from assistant.reading.posted_count import PostedCount

if TYPE_CHECKING:
    from assistant.forum.store import ReadPost, Store


def ruleset_for(game: Game) -> Ruleset:
    """The game's ruleset: a bundled name, or a path relative to the game file."""
    return find_ruleset(game.ruleset, game.path.parent)


NO_POSTS = "no posts stored for this game; run `votal sync` first"


def require_posts(game: Game, db: Store) -> None:
    """Refuse to count a game the store holds nothing of (a wrong --db, a game never synced): an
    empty count would look like a day where nobody voted."""
    if store.last_post_number(db, game.key) is None:
        raise store.StoreError(f"{NO_POSTS} (the store holds no posts of {game.thread})")


# A replay's moment: (as-of post, as-of time, the roster's learned spellings).
_ReplayKey = tuple[int | None, datetime | None, tuple[tuple[str, tuple[str, int]], ...]]
# A game counted as of a post: (as-of post, its seats).
_HoldersKey = tuple[int | None, tuple[Seat, ...]]
_Holding = tuple[Game, "StoredGame", tuple[Takeover, ...]]


@dataclass(frozen=True)
class StoredGame:
    """What a command reads of the stored thread, read once (a lower layer never goes back to the
    store): every post with its commands, the moderators' posted counts as read when their posts
    were stored and the day each count is headed for, the game's ruleset, roster and timeline (each
    day's bounds, worked out once), with the replays made from them: the count and the warnings as
    of one moment share one replay. :func:`load_stored_game` reads one from the store; :meth:`of`
    makes one from posts in hand."""

    posts: list[ReadPost]
    roster: Roster
    ruleset: Ruleset
    timeline: Timeline  # each day's bounds, worked out once
    counts: dict[int, PostedCount] = field(
        default_factory=dict
    )  # by post number: the moderators' counts
    announced: tuple[
        GameWarning, ...
    ] = ()  # days counted from the moderators' posts, not the file (announced_days)
    # by post number: the day a moderator's count is headed for
    headings: dict[int, int] = field(default_factory=dict)
    unread: tuple[str, ...] = ()  # the posts the last good sync could not read, as it recorded them
    # how a typed name is read (the golden tests pin rules with exact names)
    resolve: Resolver = resolve_name
    _replays: dict[_ReplayKey, GameReplay] = field(default_factory=dict, compare=False, repr=False)
    _holders: dict[_HoldersKey, _Holding] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(
        cls,
        game: Game,
        posts: Iterable[ReadPost],
        *,
        counts: Mapping[int, PostedCount] | None = None,
        headings: Mapping[int, int] | None = None,
        ruleset: Ruleset | None = None,
        roster: Roster | None = None,
        resolve: Resolver = resolve_name,
        night: frozenset[int] = frozenset(),
    ) -> StoredGame:
        """The thread of ``game`` from posts in hand (no store): what a bench or a test counts
        through the same path as a command. ``ruleset``: else the game's; ``roster``: else the
        game's, with the posts' authors; ``night``: the moderator's posts that tell the night (where
        the moderator's post opens a day)."""
        ruleset = ruleset or ruleset_for(game)
        ordered = sorted(posts, key=lambda post: post.number)
        roster = roster or Roster.from_game(game, ruleset, authors=post_authors(ordered))
        timeline = Timeline(game, ruleset, night)
        return cls(
            ordered,
            roster,
            ruleset,
            timeline,
            dict(counts or {}),
            headings=dict(headings or {}),
            resolve=resolve,
        )

    @property
    def last_post(self) -> int | None:
        """The highest stored post number (posts are in thread order), deleted or not."""
        return self.posts[-1].number if self.posts else None

    @property
    def first_post(self) -> int | None:
        return self.posts[0].number if self.posts else None

    def posts_up_to(self, at_post: int | None) -> list[ReadPost]:
        """The stored posts up to ``at_post`` (every one when None): a count never looks past it."""
        return [p for p in self.posts if at_post is None or p.number <= at_post]

    def counts_up_to(self, at_post: int | None) -> dict[int, PostedCount]:
        """The moderators' counts posted up to ``at_post`` (every one when None)."""
        return {n: c for n, c in self.counts.items() if at_post is None or n <= at_post}

    def post_time(self, number: int) -> datetime | None:
        """When post ``number`` was written (else the nearest earlier post with a time)."""
        for post in reversed(self.posts):
            if post.number <= number and post.time is not None:
                return post.time
        return None

    def fresh(self, game: Game) -> StoredGame:
        """The same stored thread for counting ``game`` (the same game file seen otherwise: the
        players' view, without its private facts) with its own roster, timeline and replays: nothing
        learned or replayed for one view reaches the other."""
        roster = Roster.from_game(game, self.ruleset, authors=post_authors(self.posts))
        timeline = Timeline(game, self.ruleset, self.timeline.night_posts)
        return StoredGame(
            self.posts,
            roster,
            self.ruleset,
            timeline,
            self.counts,
            headings=self.headings,
            unread=self.unread,
            resolve=self.resolve,
        )

    def holding(
        self, game: Game, *, at_post: int | None
    ) -> tuple[Game, StoredGame, tuple[Takeover, ...]]:
        """``game`` as counted as of ``at_post``: with the seats the moderator's counts up to then
        show held by an account the file does not list (:mod:`takeovers`), each its seat's
        replacement from the account's first post; the thread read for that game (this one when
        there are none); and those holders. Worked out once a moment and a game file."""
        key = (at_post, game.players)
        if key not in self._holders:
            holders = tuple(_seat_holders(game, self, at_post))
            taken = with_holders(game, holders) if holders else game
            self._holders[key] = (taken, self.fresh(taken) if holders else self, holders)
        return self._holders[key]

    def replay(self, game: Game, *, at_post: int | None, at_time: datetime | None) -> GameReplay:
        """The game replayed as of a point (its days replayed when asked, each once). The roster's
        learned spellings are part of the key: a count that learns from the moderator's counts
        replays afresh."""
        key = (at_post, at_time, tuple(sorted(self.roster.learned.items())))
        if key not in self._replays:
            posts = self.posts_up_to(at_post)
            self._replays[key] = GameReplay.of(
                game,
                self.ruleset,
                posts,
                self.roster,
                at_post=at_post,
                at_time=at_time,
                resolve=self.resolve,
                timeline=self.timeline,
            )
        return self._replays[key]


def load_stored_game(game: Game, db: Store) -> StoredGame:
    """Every stored post of ``game``, the moderators' counts, its ruleset, roster and timeline."""
    ruleset = ruleset_for(game)
    posts = store.load_read_posts(db, game.key)
    roster = Roster.from_game(game, ruleset, authors=post_authors(posts))
    moderators = {m.casefold() for m in game.moderators}
    spellings = {
        p.author for p in posts if p.author is not None and p.author.casefold() in moderators
    }
    counts = load_posted_counts(db, game.key, spellings)
    # where the moderator's post opens a day, the posts that tell the night open none
    night: frozenset[int] = frozenset()
    if ruleset.day_start == "moderator_post":
        night = load_night_posts(db, game.key, game.moderators)
    headings = count_headings(store.moderator_bodies(db, game.key, game.moderators))
    last = store.last_sync(db, game.key)
    # a sync that failed says more than the posts it could not read
    unread = store.sync_problems(last) if last is not None and not last["error"] else []
    return StoredGame(
        posts,
        roster,
        ruleset,
        Timeline(game, ruleset, night),
        counts,
        headings=headings,
        unread=tuple(unread),
    )


def _seat_holders(game: Game, stored: StoredGame, at_post: int | None) -> list[Takeover]:
    """The seats held by an account the game file does not list, as the counts up to ``at_post``
    show (looked for only when an unlisted account voted after some seat went silent)."""
    posts = stored.posts_up_to(at_post)
    if not game.players or not (could_take_over(game, posts) or could_return(game, posts)):
        return []
    counts = stored.counts_up_to(at_post)
    return find_seat_holders(game, stored.ruleset, posts, roster=stored.roster, counts=counts)


def post_authors(posts: Sequence[ReadPost]) -> dict[tuple[str, str | None], int]:
    """Who wrote ``posts``: (name, forum user id) -> how many posts, in the order each first posted
    (what ``Roster.from_game`` takes as counted authors: never a list of one pair a post, counted
    again)."""
    times: dict[tuple[str, str | None], int] = {}
    for post in posts:
        key = (post.author, post.author_id)
        times[key] = times.get(key, 0) + 1
    return times


def game_warnings(
    game: Game,
    db: Store,
    *,
    days: Sequence[int] = (),
    stored: StoredGame | None = None,
    now: datetime | None = None,
) -> list[GameWarning]:
    """What the moderator should double-check about this game file against the stored thread, and
    about the bounds Votal assumed for any of ``days`` (the days being shown) that the game file
    does not declare. The game's own findings and those of ``days``, warnings and notes
    (``GameWarning.severity``), as the game file's ``[checks] accepted`` answers them. ``stored``:
    the thread already read by this command (else it is read here). ``now``: the moment a count of
    the current state is as of; the days are replayed whole as of it (the count's own replay, when
    it was made from ``stored``), else with every stored post."""
    stored = stored or load_stored_game(game, db)
    warnings = check_days(game, last_post=stored.last_post)
    warnings += [w for w in stored.announced if not days or w.day in days]
    if game.corrections:
        present = {post.number for post in stored.posts}
        warnings += check_corrections(game, present=present, last_post=stored.last_post)
    if stored.unread:
        warnings.append(_unread_warning(stored.unread))
    warnings += _inferred_days(game, stored, days)
    if days:
        warnings += _outcome_warnings(game, stored, max(days), now)
        warnings += _takeover_warnings(game, stored, days)
    if undeclared(game, stored.timeline, 1):
        first = stored.first_post
        warnings.append(
            GameWarning(
                "inferred_day",
                f"day 1 is not declared: it is assumed to run from the thread's first post ({first}); add a "
                "[[days]] entry with day = 1 and start_post = the post that starts it",
                day=1,
                post=first,
            )
        )
    # each day's own findings
    shown = [w for w in warnings if not days or w.day is None or w.day in days]
    return answered(shown, game.accepted)


def _unread_warning(unread: Sequence[str]) -> GameWarning:
    """The posts the last sync could not read: their votes are missing from the count."""
    more = f" (and {len(unread) - 1} more)" if len(unread) > 1 else ""
    return GameWarning(
        "sync_problems",
        f"the last sync could not read every post: {unread[0]}{more}; votes in posts it could not "
        "read are not in this count (check the thread, then sync again)",
    )


def _inferred_days(game: Game, stored: StoredGame, days: Sequence[int]) -> list[GameWarning]:
    """The days after the first among ``days`` the file does not declare, whose start Votal
    assumed from the ruleset's phase lengths."""
    warnings = []
    for day in days:
        if day > 1 and game.day(day) is None:
            bounds = stored.timeline.day(day)
            if bounds.start is not None:
                start = f"{bounds.start.astimezone(game.tz):%Y-%m-%d %H:%M %Z}"
                warnings.append(
                    GameWarning(
                        "inferred_day",
                        f"day {day} is not declared: its start is assumed from the ruleset's "
                        f"phase lengths ({start}); add a [[days]] entry with day = {day} and "
                        "start_post = the post that starts it",
                        day=day,
                    )
                )
    return warnings


def _takeover_warnings(game: Game, stored: StoredGame, days: Sequence[int]) -> list[GameWarning]:
    """A seat the moderator's counts show held by an unlisted account that voted during ``days`` (a
    renamed account, a replacement never announced): its votes are refused until the game file lists
    it. Looked for only when such a vote falls in the days shown and some seat went silent before
    it, with the counts up to the days' end."""
    shown = [game.day(d) for d in days]
    starts = [d.start_post for d in shown if d is not None and d.start_post is not None]
    ends = [d.end_post for d in shown if d is not None and d.end_post is not None]
    bounded = bool(shown) and len(starts) == len(shown)
    first = min(starts) if bounded else None
    last = max(ends) if bounded and len(ends) == len(shown) else None
    if not game.players or not could_take_over(game, stored.posts, voted_from=first, voted_to=last):
        return []
    counts = {n: count for n, count in stored.counts.items() if last is None or n <= last}
    return [
        GameWarning(
            "takeover",
            f"{t.account} seems to hold {t.seat}'s seat ({t.words()}): Votal counts its votes "
            f"for the seat from post {t.post}; `votal update` writes it, or add "
            f'{{name = "{t.account}", post = {t.post}}} to {t.seat}\'s replacements',
            post=t.post,
        )
        for t in find_takeovers(
            game, stored.ruleset, stored.posts, {}, roster=stored.roster, counts=counts
        )
    ]


def _outcome_warnings(
    game: Game, stored: StoredGame, day: int, now: datetime | None
) -> list[GameWarning]:
    """Checks against the computed outcomes of ``day`` and the days before it, each replayed
    whole."""
    known = [
        d
        for d in range(1, day + 1)
        if not undeclared(game, stored.timeline, d) or (d == 1 and not game.days)
    ]
    game, stored, _ = stored.holding(game, at_post=None)  # the seats as the count counts them
    replay = stored.replay(game, at_post=None, at_time=now)
    votals = [replay.day(d).votal for d in known]
    authors = {p.number: p.author for p in stored.posts}
    return check_outcomes(game, votals, counted_day=day, authors=authors, counts=stored.counts)


def as_of(
    game: Game,
    db: Store,
    *,
    at_post: int | None,
    at_time: datetime | None,
    now: datetime,
    stored: StoredGame | None = None,
) -> datetime:
    """The moment a count is as of: the time given, else the time of the as-of post (so an open day
    as of an early post is undecided, whatever the clock says now), else now. ``stored``: the thread
    already read."""
    if at_time is not None:
        return at_time
    if at_post is not None:
        found = (
            stored.post_time(at_post)
            if stored is not None
            else store.post_time(db, game.key, at_post)
        )
        return found or now
    return now


def undeclared(game: Game, timeline: Timeline, day: int) -> bool:
    """A day the game file does not declare and the ruleset's phase lengths do not time."""
    if game.day(day) is not None:
        return False
    bounds = timeline.day(day)
    return bounds.start is None and bounds.start_post is None


def require_declared(game: Game, timeline: Timeline, day: int) -> None:
    """Never guess where a day begins (counting it from post 0 would replay earlier days' votes as
    its own); day 1 of a game that declares no days at all is counted from the first post, with a
    warning."""
    if not undeclared(game, timeline, day) or (day == 1 and not game.days):
        return
    before = game.day(day - 1)
    hint = ""
    if before is not None and before.end_post is not None:
        hint = f" (day {day - 1} ends at post {before.end_post})"
    raise VotalError(
        f"{game.path}: day {day} is not declared: add a [[days]] entry with day = {day} and start_post = the post "
        f"that starts it{hint}, or start = its start time"
    )


def current_day(
    game: Game,
    db: Store | None,
    *,
    at_time: datetime | None = None,
    at_post: int | None = None,
    stored: StoredGame | None = None,
) -> int:
    """The day being played: the latest day that has started, by stored posts or by the clock.

    A declared day has started when the store holds its start post (up to ``at_post``), or
    ``at_time`` is past its start. A game timed only by the ruleset's phase lengths (``start`` and
    no declared days) is on the day ``at_time`` falls in, or the one whose night it is. Day 1 when
    nothing tells. ``stored``: the thread already read by this command.
    """
    last = stored.last_post if stored is not None else None
    if stored is None and db is not None:
        last = store.last_post_number(db, game.key)
    if at_post is not None and last is not None:
        last = min(last, at_post)
    started = [
        d.day
        for d in game.days
        if (d.start_post is not None and last is not None and d.start_post <= last)
        or (d.start is not None and at_time is not None and d.start <= at_time)
        or (d.start_post is None and d.start is None)
    ]
    by_clock = None
    if at_time is not None and game.start is not None:
        phase = phase_at(game, stored.ruleset if stored is not None else ruleset_for(game), at_time)
        by_clock = phase.number if phase else None
    return max([*started, by_clock or 1])


def count_game(
    game: Game,
    db: Store,
    *,
    days: Sequence[int] | None = None,
    at_post: int | None = None,
    at_time: datetime | None = None,
    stored: StoredGame | None = None,
) -> list[Votal]:
    """:func:`count_stored` of the thread in the store (``stored``: already read by this command;
    else it is read here, once): the I/O edge of the one path from store to votal."""
    stored = stored or load_stored_game(game, db)
    return count_stored(game, stored, days=days, at_post=at_post, at_time=at_time)


def count_stored(
    game: Game,
    stored: StoredGame,
    *,
    days: Sequence[int] | None = None,
    at_post: int | None = None,
    at_time: datetime | None = None,
) -> list[Votal]:
    """The one path from the thread read once to votals: the votals of ``days`` (default: every
    declared day up to the current one) as of ``at_post`` / ``at_time``, with the seats the
    moderator's counts show held by unlisted accounts, the spellings those counts teach, their
    disagreements, and the doubts and notes. Every command, page, draft, bench and golden test
    counts through here; it never reads the store."""
    if days is None:
        days = range(1, current_day(game, None, at_time=at_time, stored=stored) + 1)
    # a seat the moderator's counts show held by an unlisted account is counted as theirs
    game, stored, holders = stored.holding(game, at_post=at_post)
    for day in days:
        require_declared(game, stored.timeline, day)
    learning = _learn_from_counts(game, stored, days, at_post=at_post, at_time=at_time)
    # the replay is shared with the warnings as of the same moment
    replay = stored.replay(game, at_post=at_post, at_time=at_time)
    if learning is not None:
        replay.adopt(learning.days)
    votals = [replay.day(day).votal for day in days]
    checks = learning.disagreements if learning is not None else {}
    votals = [
        replace(v, count_checks=tuple(checks[v.day])) if checks.get(v.day) else v for v in votals
    ]
    # the moderator's count headings and the posts up to the as-of post: never look past it
    headings = {n: day for n, day in stored.headings.items() if at_post is None or n <= at_post}
    posts = stored.posts_up_to(at_post)
    counts = stored.counts_up_to(at_post)
    votals = [with_doubts(v, game, stored.ruleset, holders, counts) for v in votals]
    guessed = {w.day for w in stored.announced if w.kind == "inferred_day"}
    return [with_bounds_doubt(v, game, posts, headings, v.day in guessed) for v in votals]


def _learn_from_counts(
    game: Game,
    stored: StoredGame,
    days: Sequence[int],
    *,
    at_post: int | None,
    at_time: datetime | None,
) -> Learning | None:
    """What the moderator's own counts up to ``at_post`` teach: the names Votal could not read,
    each from its post on, and where they disagree; the one replay of each day that held them is
    the count's own."""
    counts = stored.counts_up_to(at_post)
    if not counts or not days:
        return None
    posts = stored.posts_up_to(at_post)
    return learn_counts(
        game,
        stored.ruleset,
        posts,
        stored.roster,
        counts,
        range(1, max(days) + 1),
        at_post=at_post,
        at_time=at_time,
        timeline=stored.timeline,
    )


def with_doubts(
    votal: Votal,
    game: Game,
    ruleset: Ruleset,
    holders: Sequence[Takeover] = (),
    counts: Mapping[int, PostedCount] | None = None,
) -> Votal:
    """The votal with its doubts, and its outcome's ``doubt`` kept only when a doubt puts the
    decision in question (a reading the replay marked but the calibration calls a note, a prefix, is
    dropped there). ``holders``: the seats counted as held by an account the game file does not
    list; ``counts``: the moderator's posted counts up to the as-of post."""
    found = find_doubts(votal, game, ruleset, holders, counts)
    outcome = votal.outcome
    if outcome is not None:
        first = next(iter(doubts_only(found)), None)
        said = f"{first.kind.replace('_', ' ')} at post {first.post}" if first is not None else None
        outcome = replace(outcome, doubt=said)
    return replace(votal, doubts=found, outcome=outcome)


def format_votal_text(game: Game, votal: Votal, warnings: Sequence[GameWarning] = ()) -> str:
    """A votal for people reading a terminal."""
    as_of = f", as of post {votal.as_of_post}" if votal.as_of_post is not None else ""
    threshold = (
        f"{votal.majority} is a majority" if votal.majority is not None else "most votes wins"
    )
    lines = [f"{game.title}: Day {votal.day}{as_of}", f"{votal.alive} alive, {threshold}"]
    words = words_of(ruleset_for(game))  # the ruleset's own: "No Lynch" and "lynched", or others
    if votal.deadline:
        lines.append(f"Deadline: {votal.deadline.astimezone(game.tz):%a %d %b %Y %H:%M %Z}")
    lines.append("")
    width = max([len(w.target) for w in votal.wagons] + [len(words.no_elimination)])
    for wagon in votal.wagons:
        need = votes_needed(wagon.votes, votal.majority)
        tag = f"  (L-{need})" if need else ""
        lines.append(
            f"  {wagon.target:<{width}}  {show_votes(wagon.votes):>2}  {', '.join(wagon.voters)}{tag}"
        )
    if votal.no_elimination.votes:
        label = words.no_elimination
        voters = ", ".join(votal.no_elimination.voters)
        lines.append(f"  {label:<{width}}  {show_votes(votal.no_elimination.votes):>2}  {voters}")
    if not votal.wagons and not votal.no_elimination.votes:
        lines.append("  (no votes)")
    if votal.not_voting:
        lines.append(f"  Not voting: {', '.join(votal.not_voting)}")
    if votal.election is not None:
        e = votal.election
        votes = (
            "; ".join(f"{w.target} {show_votes(w.votes)} ({', '.join(w.voters)})" for w in e.wagons)
            or "no votes"
        )
        state = (
            f"{e.elected} elected"
            if e.elected
            else (
                f"open until {e.open_until.astimezone(game.tz):%a %d %b %H:%M %Z}"
                if e.open_until
                else "not decided"
            )
        )
        lines.append(f"  Sheriff election: {votes}; {state}")
    lines.append("")
    lines.append(f"Outcome: {summarize(votal.outcome, words)}")
    lines.extend(
        f"  DOUBT ({d.kind.replace('_', ' ')}) {d.describe()}" for d in doubts_only(votal.doubts)
    )
    for problem in votal.problems:
        lines.append(
            f'  problem at post {problem.post}: {problem.voter} "{problem.text}": {problem.reason}'
        )
    for flag in votal.flags:
        lines.append(f"  note on {flag.seat}: {flag.reason}")
    lines.extend(f"  {line}" for line in describe_checks(votal.count_checks))
    for warning in warnings:
        lines.append(f"  {'note' if warning.note else 'warning'}: {warning.message}")
    for note in votal.private_notes:
        lines.append(f"  private (moderator only): {note}")
    return "\n".join(lines)


def format_audit_text(votal: Votal) -> str:
    """Every command read on the day, how it resolved, and why it did or did not count (the real
    reason, private facts included: the moderator's own view)."""
    lines = [f"Day {votal.day}: {len(votal.actions)} commands read"]
    for a in votal.actions:
        data = to_json(a, private=True)
        resolved = data.get("target") or ("no elimination" if data.get("no_elimination") else "-")
        how = f" by {data['step']}" if data.get("step") else ""
        status = (
            "counted"
            if data.get("counted")
            else f"not counted: {data.get('private_why') or data.get('why_not')}"
        )
        fixed = " [corrected in game file]" if data.get("corrected") else ""
        if data.get("step") == "learned":
            fixed += f" [learned from the moderator's count at post {data['post']}]"
        if data.get("doubt"):
            fixed += f" [doubtful: {data['doubt']}]"
        author = data.get("author") or ""
        voter = data.get("voter") or "?"
        who = voter if author in ("", voter) else f"{voter} ({author})"
        lines.append(
            f"  #{data['post']:<6} {who:<24} {data['action']:<8} {data.get('text')!r:<28} -> {resolved}{how}; "
            f"{status}{fixed}"
        )
    lines.extend(f"  {line}" for line in describe_checks(votal.count_checks))
    lines.extend(
        f"  {'note' if d.note else 'DOUBT (' + d.kind.replace('_', ' ') + ')'} {d.describe()}"
        for d in votal.doubts
    )
    return "\n".join(lines)


def count_current_day(
    game: Game, db: store.Store, now: datetime, *, stored: StoredGame | None = None
) -> Votal | None:
    """The current day's votal from stored posts (the default count hook); ``stored``: the thread
    already read."""
    return count_game(
        game,
        db,
        days=[current_day(game, db, at_time=now, stored=stored)],
        at_time=now,
        stored=stored,
    )[0]
