"""Replaying a day's votes into a votal: who votes whom as of any post, and how the day ends.

The votal is never edited in place: :func:`replay_day` is a pure function of (game, ruleset, posts, roster,
day, as-of point), like python-chess replaying a move stack. "The votal as of post 512" is the same call as
"the votal now".

:class:`DayReplay` is the loop: it walks the day's posts, reads each command into the one vote state machine
(:class:`assistant.votes.VoteBook`), asks the rules (:mod:`assistant.rules`) whether the count ends the day,
and at the deadline (or a runoff's end) decides it. Everything a particular rule adds (a Judge, lovers, a
sheriff, nominations...) is a hook of :mod:`assistant.hooks`, called at fixed points; the loop never names one.

Public shape (stable; :meth:`Votal.to_json` is what ``votal count --format json``, drafts, export and the site
read)::

    day            int     the day number
    alive          int     living seats as of the as-of point
    majority       int     votes needed for a majority of the living (null under plurality rules with no
                           threshold: clocktower-forum, millers-hollow)
    as_of_post     int     the last post the votal includes (None when the day has no posts yet)
    wagons         list    {"target", "votes", "voters": [seat, ...]}: votes desc, then earliest wagon;
                           voters in the order their standing votes were cast. ``votes`` is weighted.
    no_elimination {"votes", "voters"}: sleep / no lynch / abstain votes
    not_voting     list    living seats with no standing vote, in game-file order
    outcome        {"kind", "target", "post", "reason"} or null while the day is undecided; kind is an
                           outcome.Kind (elimination | no_elimination | pending), reason an outcome.Reason;
                           post is the deciding post (the last counted post when a deadline decided);
                           "survived" is added when a lynch failed (witchhunt-9.0's Deacon)
    problems       list    {"post", "voter", "text", "reason"}: votes that did not count and why (a vote a
                           private fact voids is only an action, with why_not "ruled out by the moderator")
    deadline       str     ISO 8601 UTC deadline (extensions included), or null
    living         list    living seats as of the as-of point, in game-file order
    ruleset        str     the ruleset's name
    actions        list    every command read this day: {"post", "voter", "author", "text", "action",
                           "target", "no_elimination", "step", "counted", "why_not", "corrected", "url",
                           "nomination"}; action is the command as typed (vote | unvote | nominate);
                           "nomination" (bool) is true for the vote that nominated its target (clocktower)
    changes        list    {"post", "voter", "votes": [{"target", "post"}, ...]}: each change of a voter's
                           standing votes, in order (target null: no elimination); read by votes.standing_steps
    nominations    list    clocktower only: {"nominator", "nominee", "post", "votes", "voters"}
    runoff         object  Millers Hollow only: {"candidates", "deadline", "post"} or null; post is the last
                           post of the main vote, deadline null when the runoff is declared by posts
    election       object Millers Hollow, on a day with [[events]] kind = "sheriff_election": {"wagons",
                           "elected", "open_until"}, else null (the sheriff votes, never lynch votes)
    lynches        list    earlier lynches of the day (game file lynches_per_day > 1), each like outcome
    no_elimination_majority int  votes no elimination needs to decide the day (the majority, or fewer with
                           [majority] no_elimination_below); null without a threshold or a no-elimination vote
    flags          list    {"seat", "reason"}: e.g. missed two days of voting (removal), under a post minimum

Seats are named by their first ``name`` in the game file. Private facts of the game file (the Judge, lovers,
a sequestered player...) change outcomes but never appear in any of these fields; ``to_json(private=True)``
(the moderator's ``count`` and ``audit``) adds the real reasons and notes.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, fields, is_dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from assistant.clock import add_wall_hours, day_bounds, iso_utc
from assistant.game import Game
from assistant.hooks import HOOK_MODULES, HOOK_POINTS, Hook, Verdict, find_hook
from assistant.living import alive_seats, change_posts
from assistant.names import resolve_name
from assistant.outcome import Kind, Outcome, Reason, WhyNot
from assistant.rules import (
    Ruleset,
    Standing,
    decide_at_deadline,
    decide_early,
    decide_plurality,
    early_end_possible,
    leaders,
)
from assistant.votes import Change, Vote, VoteBook, show_votes
from parsers.commands import Command, ReadPost

__all__ = [
    "Action",
    "DayReplay",
    "Flag",
    "Nomination",
    "NoEliminationCount",
    "Problem",
    "Runoff",
    "Votal",
    "Wagon",
    "replay_day",
    "replay_day_watched",
]


@dataclass(frozen=True)
class Wagon:
    target: str
    votes: float
    voters: tuple[str, ...]


@dataclass(frozen=True)
class NoEliminationCount:
    votes: float = 0
    voters: tuple[str, ...] = ()


@dataclass(frozen=True)
class Problem:
    """A vote that did not count, for the moderator to see. ``voter`` is the seat, else the account."""

    post: int
    voter: str
    text: str
    reason: str


@dataclass(frozen=True)
class Action:
    """One command as read and judged: the audit trail every output builds on."""

    post: int
    voter: str | None  # the seat, None when the author holds no seat
    author: str  # the account that posted
    text: str  # the raw bold text
    action: str  # vote | unvote | nominate
    target: str | None  # the resolved seat
    no_elimination: bool
    step: str | None  # how the name was resolved
    counted: bool
    why_not: str | None
    corrected: bool = False
    url: str | None = None  # the post's permalink
    nomination: bool = False  # clocktower: this vote nominated its target
    # why a reading may be wrong ("learned alias", "broken tag"...); on a refused vote, why the refusal may be
    doubt: str | None = None
    # The real reason when a private fact voided the vote (why_not reads WhyNot.RULED_OUT): only the moderator's
    # count and audit show it.
    private_why: str | None = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class Nomination:
    nominator: str
    nominee: str
    post: int
    votes: float
    voters: tuple[str, ...]


@dataclass(frozen=True)
class Runoff:
    candidates: tuple[str, ...]
    deadline: datetime | None
    post: int | None  # the post that opened it (the last counted post of the main vote)


@dataclass(frozen=True)
class SheriffElection:
    """Millers Hollow: a day's sheriff election, tallied apart from the lynch. ``elected`` once it has closed
    with one leader; ``open_until`` while a tie (or the lynch's runoff) keeps it open two more hours."""

    wagons: tuple[Wagon, ...]
    elected: str | None
    open_until: datetime | None


@dataclass(frozen=True)
class Flag:
    seat: str
    reason: str


@dataclass(frozen=True)
class Votal:
    day: int
    alive: int
    majority: int | None
    as_of_post: int | None
    wagons: tuple[Wagon, ...]
    no_elimination: NoEliminationCount
    not_voting: tuple[str, ...]
    outcome: Outcome | None
    problems: tuple[Problem, ...]
    deadline: datetime | None = None
    living: tuple[str, ...] = ()
    ruleset: str = ""
    actions: tuple[Action, ...] = ()
    nominations: tuple[Nomination, ...] = ()
    runoff: Runoff | None = None
    flags: tuple[Flag, ...] = ()
    changes: tuple[Change, ...] = ()
    election: SheriffElection | None = None
    lynches: tuple[Outcome, ...] = ()  # earlier lynches this day (lynches_per_day > 1), before ``outcome``
    no_elimination_majority: int | None = None  # votes no elimination needs (the majority unless the rules lower it)
    # The moderator's own posted counts where they place a voter otherwise than Votal did as of that post
    # (assistant.votecounts.Disagreement): for the moderator's count and audit, not the players' page.
    count_checks: tuple[Any, ...] = field(default=(), repr=False, compare=False)
    # Moderator-only notes (why a private fact changed something). Never serialised, never shown to players.
    private_notes: tuple[str, ...] = field(default=(), repr=False, compare=False)
    # What may be wrong with this count (assistant.doubts.Doubt), worked out from the rest: moderator-only.
    doubts: tuple[Any, ...] = field(default=(), repr=False, compare=False)

    def to_json(self, *, private: bool = False) -> dict[str, Any]:
        """The votal as JSON; ``private`` (the moderator's own count and audit) adds the real reasons and notes."""
        return to_json(self, private=private)


def to_json(value: Any, *, private: bool = False) -> Any:
    """A result as JSON: dataclass fields in order (the moderator-only ones, ``repr=False``, when ``private``),
    vote counts as people write them, times in ISO 8601 UTC."""
    if hasattr(value, "to_json") and not isinstance(value, Votal):
        return value.to_json()  # an Outcome, a vote Change
    if is_dataclass(value):
        return {f.name: to_json(getattr(value, f.name), private=private) for f in fields(value) if f.repr or private}
    if isinstance(value, tuple | list):
        return [to_json(v, private=private) for v in value]
    if isinstance(value, float):
        return show_votes(value)
    if isinstance(value, datetime):
        return iso_utc(value)
    return value


# --- the replay ----------------------------------------------------------------------------------------


@dataclass
class DayResult:
    """A replayed day: its votal, and what later days' rules read from it."""

    votal: Votal
    final_votes: dict[str, list[Vote]]  # the standing votes when the day was decided (or now)
    voted_at_deadline: frozenset[str]  # seats holding a vote when the deadline passed (or now)


def replay_day(
    game: Game,
    ruleset: Ruleset,
    posts: Sequence[ReadPost],
    roster: Any,
    *,
    day: int,
    at_post: int | None = None,
    at_time: datetime | None = None,
    resolve: Callable[..., Any] = resolve_name,
) -> Votal:
    """The votal of ``day`` as of ``at_post`` / ``at_time`` (default: everything in ``posts``).

    ``posts`` may be the whole thread: the day's posts are picked by the day's bounds (game file, else
    the ruleset's phases). ``roster`` is an :class:`assistant.names.Roster`; ``resolve`` stands in for
    :func:`assistant.names.resolve_name` (same signature), for tests.
    """
    return replay_days(game, ruleset, posts, roster, days=[day], at_post=at_post, at_time=at_time, resolve=resolve)[0]


def replay_days(
    game: Game,
    ruleset: Ruleset,
    posts: Sequence[ReadPost],
    roster: Any,
    *,
    days: Sequence[int],
    at_post: int | None = None,
    at_time: datetime | None = None,
    resolve: Callable[..., Any] = resolve_name,
) -> list[Votal]:
    """The votals of ``days``, as :func:`replay_day` gives each, from one replay: a day an earlier one
    needs is replayed once for all of them."""
    replay = GameReplay.of(game, ruleset, posts, roster, at_post=at_post, at_time=at_time, resolve=resolve)
    return [replay.day(day).votal for day in days]


def replay_day_watched(
    game: Game,
    ruleset: Ruleset,
    posts: Sequence[ReadPost],
    roster: Any,
    *,
    day: int,
    watch: Sequence[int],
    seen: Callable[[int, Votal], None],
    at_post: int | None = None,
    at_time: datetime | None = None,
) -> DayResult:
    """:func:`replay_day` (its whole result), also showing ``seen(post, votal)`` the votal just before each
    post of ``watch`` (as of the post before it), in post order, in one pass: a moderator's count is held
    against the reading as of the post before it without a replay per count.

    ``seen`` may teach ``roster`` a spelling from that post on (``roster.learn``): the rest of the pass reads
    with it, as a replay made afterwards would. The votal shown holds what an as-of replay's would (votes,
    living, actions, problems); what a hook computes from the whole replay (an election, nominations) and
    the outcome of a deadline passed but not yet reached by a post are the full replay's."""
    replay = GameReplay.of(game, ruleset, posts, roster, at_post=at_post, at_time=at_time, resolve=resolve_name)
    result = replay.memo[day] = DayReplay(replay, day).run(watch=(sorted(watch), seen))
    return result


class GameReplay:
    """One replay of a game's days as of one point; earlier days are replayed once, when a rule needs them."""

    def __init__(self, game, ruleset, posts, roster, resolve, at_post, at_time):
        self.game, self.ruleset, self.posts, self.roster = game, ruleset, posts, roster
        self.resolve, self.at_post, self.at_time = resolve, at_post, at_time
        self.memo: dict[int, DayResult] = {}
        # the posts up to the as-of post (``posts`` is in post order): a day as of an early post reads no more
        upto = len(posts) if at_post is None else bisect_right([p.number for p in posts], at_post)
        self.posts_so_far = posts[:upto]
        order = {name: i for i, name in enumerate(HOOK_MODULES)}
        self.hook_classes = [find_hook(n) for n in sorted(ruleset.hooks, key=lambda n: order.get(n, len(order)))]

    @classmethod
    def of(
        cls, game: Game, ruleset: Ruleset, posts: Sequence[ReadPost], roster: Any, *, at_post: int | None = None,
        at_time: datetime | None = None, resolve: Callable[..., Any] = resolve_name,
    ) -> GameReplay:
        """A replay of ``posts`` (in any order) as of ``at_post`` / ``at_time``; :meth:`day` replays a day."""
        return cls(game, ruleset, sorted(posts, key=lambda p: p.number), roster, resolve, at_post, at_time)

    def adopt(self, results: dict[int, DayResult]) -> None:
        """Take days replayed by another replay as of the same point with the same roster (one that also
        held the moderator's counts: :func:`replay_day_watched`), where this one has not replayed them."""
        for number, result in results.items():
            self.memo.setdefault(number, result)

    def day(self, number: int) -> DayResult:
        if number not in self.memo:
            self.memo[number] = DayReplay(self, number).run()
        return self.memo[number]


class DayReplay:
    """One day's replay loop. Hooks read its public attributes: ``game``, ``ruleset``, ``number``, ``bounds``,
    ``book`` (the standing votes), :meth:`living`, :meth:`earlier`, :meth:`note`, :meth:`add_problem`,
    :meth:`end_day`."""

    def __init__(self, replay: GameReplay, day: int):
        self.r = replay
        self.game, self.ruleset, self.number = replay.game, replay.ruleset, day
        game, ruleset = self.game, self.ruleset
        self.bounds = day_bounds(game, ruleset, day)
        self.next_bounds = day_bounds(game, ruleset, day + 1)
        declared = game.day(day)
        self.declared_end = declared is not None and declared.end_post is not None  # the moderator's last post
        self.moderators = {m.casefold() for m in game.moderators}
        self.corrections = {c.post: c for c in game.corrections}
        # A split seat's votes count one each; its whole weight is what it may place (``capacity``).
        self.weights = {s.name: 1.0 if s.split_votes > 1 else float(s.vote_weight) for s in game.players}
        self.capacity = {s.name: float(s.split_votes) for s in game.players if s.split_votes > 1}
        self.book = VoteBook(multi_vote=ruleset.multi_vote, require_unvote=ruleset.require_unvote,
                             split={s.name: s.split_votes for s in game.players if s.split_votes > 1})
        self.actions: list[Action] = []
        self.problems: list[Problem] = []
        self.notes: list[str] = []
        self.outcome: Outcome | None = None
        self.final_votes: dict[str, list[Vote]] | None = None
        self.changed = False  # whether a vote changed since the count was last decided
        self.phase = "day"  # day | runoff | late (after the day's vote, before the next day)
        self.runoff: Runoff | None = None
        self.pending_runoff: Outcome | None = None
        self.candidates: tuple[str, ...] = ()
        self.last_day_post: int | None = None
        self.last_runoff_post: int | None = None
        self.voted_at_deadline: frozenset[str] = frozenset()
        self.post_counts: dict[str, int] = {}
        self.capped_counts: dict[str, int] = {}
        self.unlisted: dict[str, str] = {}  # account the game file does not list -> the seat it was read as
        self.strangers: set[str] = set()  # look-alike accounts already reported this day
        self.edits: list[tuple[str, ReadPost]] = []  # posts whose edit changed their commands
        # Each voter's last vote whose name could not be read: a moderator's count may teach it later.
        self.unread: dict[str, tuple[Command, dict]] = {}
        self.resets = frozenset(r.post for r in game.resets)
        self.house = game.house
        # [house] replacement_starts_unvoted: post -> seats a new account takes over at that post
        self.replaced_at: dict[int, list[str]] = {}
        if self.house.replacement_starts_unvoted:
            for seat in game.players:
                for since in seat.replacement_posts:
                    if since is not None:
                        self.replaced_at.setdefault(since, []).append(seat.name)
        self.lynched: list[Outcome] = []  # earlier lynches of a day with lynches_per_day > 1
        self.ruling_flags: list[Flag] = []  # recorded day deaths the deadline's votes do not bear out
        self.teaching_posts = _teaching_posts(replay.roster)
        self.kill_posts = change_posts(game)
        self.living_cache: dict[int | None, tuple[str, ...]] = {}
        # A day timed by the clock starts when the last one's deadline passed; a runoff runs past that.
        self.runoff_before: datetime | None = None
        if ruleset.tie == "runoff" and day > 1 and self.bounds.start_post is None and game.day(day) is None:
            previous = replay.day(day - 1).votal.runoff
            self.runoff_before = previous.deadline if previous is not None else None
        self.opened_at = self.opening_post_time() if ruleset.day_start == "moderator_post" else None
        hooks = [cls(self) for cls in replay.hook_classes]
        # Each hook point -> the bound methods of the hooks that override it: most days call none, cheaply.
        self.hooked: dict[str, list[Callable]] = {
            name: [getattr(h, name) for h in hooks if getattr(type(h), name) is not getattr(Hook, name)]
            for name in HOOK_POINTS
        }

    # -- for hooks ---------------------------------------------------------------------------------------

    def living(self, at_post: int | None) -> tuple[str, ...]:
        """The living seats as of ``at_post`` (None: at the day's end, day kills included)."""
        # Asked at every post of a long day; the answer changes only at a day kill's post.
        key = None if at_post is None else bisect_right(self.kill_posts, at_post)
        if key not in self.living_cache:
            self.living_cache[key] = alive_seats(self.game, self.number, at_post=at_post)
        living = self.living_cache[key]
        if self.lynched:  # a first lynch of the day: dead from its post on (the majority is recomputed)
            gone = {o.target for o in self.lynched if at_post is None or o.post is None or o.post <= at_post}
            living = tuple(s for s in living if s not in gone)
        return living

    def earlier(self, number: int) -> DayResult:
        """An earlier day of the same replay (replayed once, as of the same point)."""
        return self.r.day(number)

    def note(self, text: str) -> None:
        """A moderator-only line: why a private fact changed something."""
        self.notes.append(text)

    def add_problem(self, post: int, voter: str, text: str, reason: str) -> None:
        self.problems.append(Problem(post, voter, text, reason))

    def end_day(self, outcome: Outcome) -> None:
        """A hook's word that the day's vote ends here (a Loose Cannon's shot): later votes count for nothing."""
        if self.outcome is None and self.phase == "day":
            self.final_votes = self.book.snapshot()
            self.outcome = self.settle(outcome)

    # -- where a post falls ----------------------------------------------------------------------------

    def opening_post_time(self) -> datetime | None:
        """When a day the game file does not declare opens under ``day_start = "moderator_post"``: at the
        moderator's first post after the last day's vote (and its runoff) ended. Until that post the night
        runs and no post is the day's; None for day 1 and declared days (their own bounds say)."""
        if self.number == 1 or self.game.day(self.number) is not None:
            return None
        previous = day_bounds(self.game, self.ruleset, self.number - 1).end
        ended = max((t for t in (previous, self.runoff_before) if t is not None), default=None)
        if ended is None:
            return None
        opening = next(
            (p.time for p in self.r.posts
             if p.time is not None and p.time > ended and p.author.casefold() in self.moderators),
            None,
        )
        return opening if opening is not None else datetime.max.replace(tzinfo=ended.tzinfo)

    def in_day(self, post: ReadPost) -> bool:
        b = self.bounds
        if b.start_post is not None:
            return post.number >= b.start_post
        if self.opened_at is not None:
            return post.time is not None and post.time >= self.opened_at
        if b.start is not None:
            if post.time is not None and self.runoff_before is not None and post.time <= self.runoff_before:
                return False  # still the previous day's runoff
            return post.time is None or post.time >= b.start
        return True

    def after_main(self, post: ReadPost) -> bool:
        """After the main vote: past the declared last post, else past the deadline (by post or by time)."""
        b = self.bounds
        if b.end_post is not None:
            if post.number > b.end_post:
                return True
            if self.declared_end:
                return False  # the moderator's own last post of the day: it decides, whatever the clock says
        # a day declared by its first post still ends at the ruleset's hour ("until 11 am the next day")
        return b.end is not None and post.time is not None and post.time > b.end

    def before_next_day(self, post: ReadPost) -> bool:
        nb = self.next_bounds
        if nb.start_post is not None:
            return post.number < nb.start_post
        if nb.start is not None and post.time is not None:
            return post.time < nb.start
        return False  # unknown: later posts are not listed as this day's

    def runoff_end(self) -> tuple[int | None, datetime | None]:
        end_post, end_time = None, None
        for e in self.game.events:
            if e.day == self.number and e.kind == "runoff_end":
                end_post = e.post if e.post is not None else end_post
                end_time = e.time if e.time is not None else end_time
        if end_post is None and self.next_bounds.start_post is not None and self.game.day(self.number + 1):
            end_post = self.next_bounds.start_post - 1
        if end_time is None and end_post is None and self.bounds.end is not None:
            end_time = add_wall_hours(self.bounds.end, self.ruleset.runoff_hours or 0, self.game.tz)
        return end_post, end_time

    def in_runoff(self, post: ReadPost) -> bool:
        end_post, end_time = self.runoff_end()
        if end_post is not None and post.number > end_post:
            return False
        return not (end_time is not None and post.time is not None and post.time > end_time)

    def over_by(self, end_post: int | None, end_time: datetime | None, considered: Sequence[ReadPost]) -> bool:
        """Whether an end (by post or by time) has passed as of the replay's point."""
        at_post, at_time = self.r.at_post, self.r.at_time
        if end_post is not None:
            return at_post is None or at_post >= end_post
        if end_time is None:
            return False
        if at_time is not None:
            return at_time >= end_time
        pool = considered if at_post is not None else self.r.posts
        return any(p.time is not None and p.time > end_time for p in pool)

    # -- the loop ------------------------------------------------------------------------------------------

    def run(self, watch: tuple[list[int], Callable[[int, Votal], None]] | None = None) -> DayResult:
        """The day's result; ``watch`` (posts, seen): see :func:`replay_day_watched`."""
        at_time = self.r.at_time
        considered = [
            p
            for p in self.r.posts_so_far
            if self.in_day(p) and (at_time is None or p.time is None or p.time <= at_time)
        ]
        stops, show = watch if watch is not None else ([], None)
        stops = list(stops)
        seen: tuple[str, ...] = ()
        for hook in self.hooked["at_post"]:
            hook(None)
        for index, post in enumerate(considered):
            while stops and stops[0] <= post.number:
                self.show(stops.pop(0), considered[:index], show)
            if self.phase == "day" and self.after_main(post):
                self.end_main()
            if self.phase == "runoff" and not self.in_runoff(post):
                self.end_runoff()
            if self.phase == "day":
                self.last_day_post = post.number
                self.count_post(post)
            elif self.phase == "runoff":
                self.last_runoff_post = post.number
            elif not self.before_next_day(post):
                continue
            living = self.living(post.number)
            if seen and living != seen:
                for seat in seen:
                    if seat not in living:
                        for hook in self.hooked["on_death"]:
                            hook(seat, post.number)
            for hook in self.hooked["at_post"]:
                hook(post.number)
            if self.phase == "day" and self.outcome is None:
                self.declared_at(post.number, living)
            self.read_post(post, living)
            # The count only moves when a vote changed or someone died: skip the rest (long days are long).
            if self.phase in ("day", "runoff") and self.outcome is None and (self.changed or living != seen):
                self.outcome = self.decide_early(post.number)
            self.changed, seen = False, living
        for stop in stops:
            self.show(stop, considered, show)
        if self.phase == "day" and self.outcome is None and self.main_over(considered):
            self.end_main()
        if self.phase == "runoff" and self.over_by(*self.runoff_end(), considered):
            self.end_runoff()
        # over: the vote has ended (an early end, even one pending a decision; the deadline; a decided runoff)
        outcome = self.outcome
        over = self.phase == "late" or (outcome is not None and (self.phase == "day" or outcome.kind != Kind.PENDING))
        return self.finish(considered, over)

    def show(self, stop: int, considered: Sequence[ReadPost], seen: Callable[[int, Votal], None] | None) -> None:
        """Show ``seen`` the votal as of the posts read so far; it may teach the roster a spelling at ``stop``."""
        assert seen is not None
        seen(stop, self.finish(considered, over=False).votal)
        self.teaching_posts = _teaching_posts(self.r.roster)

    def declared_at(self, post: int, living: tuple[str, ...]) -> None:
        """What the game file says happens at ``post``, before its votes are read: the moderator reset the
        count ([[resets]]), a replacement starts with no vote ([house]), a moderator's count taught a name."""
        if post in self.resets:
            self.book.keep_only((), post)
            self.unread.clear()
            self.changed = True
        for seat in self.replaced_at.get(post, ()):
            if self.book.votes_of(seat):
                self.book.set(seat, [], post)
                self.changed = True
        if post in self.teaching_posts:
            self.reread_learned(post, living)

    def main_over(self, considered: Sequence[ReadPost]) -> bool:
        return self.over_by(self.bounds.end_post, self.bounds.end, considered)

    def end_main(self) -> None:
        """The main vote's deadline passed: decide it (unless an early end already did)."""
        self.phase = "late"
        self.voted_at_deadline = frozenset(v for v, votes in self.book.held.items() if votes)
        if self.outcome is not None:
            return
        standing = self.standing(self.last_day_post)
        outcome = decide_at_deadline(self.ruleset, standing)
        if outcome.kind == Kind.PENDING and outcome.reason == Reason.RUNOFF:
            self.candidates = tuple(t for t in leaders(self.ruleset, standing) if t is not None)
            # "Votes for players not involved in the tie will be discarded and those votes must be recast":
            # abstentions too, so a discarded voter recasts without an unvote.
            self.book.keep_only(self.candidates, self.last_day_post or 0)
            _, end_time = self.runoff_end()
            self.runoff = Runoff(self.candidates, end_time, self.last_day_post)
            self.phase = "runoff"
            self.pending_runoff = outcome
            return
        self.outcome = self.settle(outcome)

    def end_runoff(self) -> None:
        self.phase = "late"
        self.voted_at_deadline |= frozenset(v for v, votes in self.book.held.items() if votes)
        last = self.last_runoff_post if self.last_runoff_post is not None else self.last_day_post
        self.outcome = self.settle(decide_plurality(self.ruleset, self.standing(last), runoff=True))

    def decide_early(self, post: int) -> Outcome | None:
        outcome = decide_early(self.ruleset, self.standing(post))
        if outcome is None:
            return None
        self.final_votes = self.book.snapshot()
        outcome = self.hammer_doubt(self.settle(outcome))
        if outcome.kind == Kind.ELIMINATION and len(self.lynched) + 1 < self.game.lynches_per_day:
            self.lynched.append(outcome)  # lynches_per_day: the day goes on without this wagon
            self.book.drop(outcome.target, post)
            self.final_votes = None
            return None
        return outcome

    def hammer_doubt(self, outcome: Outcome) -> Outcome:
        """The outcome, marked doubtful when the vote that decided it was read with doubt."""
        if outcome.post is None or outcome.kind not in (Kind.ELIMINATION, Kind.NO_ELIMINATION):
            return outcome
        for action in reversed(self.actions):
            if action.post != outcome.post:
                break
            if action.counted and action.action in ("vote", "nominate") and action.target == outcome.target:
                return replace(outcome, doubt=action.doubt) if action.doubt else outcome
        return outcome

    def settle(self, outcome: Outcome) -> Outcome:
        """A tie the rules settle by a draw the moderator recorded, a deadline the moderator ruled, then what
        the hooks decide."""
        if outcome.kind == Kind.NO_ELIMINATION and outcome.reason == Reason.DEADLINE and self.house.deadline_plurality:
            most = decide_plurality(self.ruleset, self.standing(outcome.post))  # a tie follows the ruleset
            outcome = most if most.kind != Kind.PENDING else outcome
        if outcome.kind == Kind.NO_ELIMINATION and outcome.reason == Reason.DEADLINE:
            outcome = self.ruled_deadline(outcome)
        if outcome.kind == Kind.PENDING and outcome.reason == Reason.TIE:
            tied = [t for t in leaders(self.ruleset, self.standing(outcome.post)) if t is not None]
            drawn = [
                d.player
                for d in self.game.deaths
                if d.phase == "day" and d.phase_number == self.number and d.player in tied
            ]
            if len(drawn) == 1:
                outcome = Outcome(Kind.ELIMINATION, drawn[0], outcome.post, Reason.TIE)
        for hook in self.hooked["settle"]:
            outcome = hook(outcome)
        return outcome

    def ruled_deadline(self, outcome: Outcome) -> Outcome:
        """No majority at the deadline, and the game file records a seat's death this day at no post (a lynch,
        not a day kill, which has its post): when that seat had the most votes, the moderator ruled the
        deadline as many games' own rules say (the most votes, or a lowered threshold, lynch) and the recorded
        death is the day's outcome. A recorded death the votes do not bear out is flagged."""
        recorded = [d.player for d in self.game.deaths
                    if d.phase == "day" and d.phase_number == self.number and d.post is None]
        if not recorded:
            return outcome
        top = [t for t in leaders(self.ruleset, self.standing(outcome.post)) if t is not None]
        ruled = [seat for seat in recorded if seat in top]
        if len(ruled) == 1:
            return Outcome(Kind.ELIMINATION, ruled[0], outcome.post, Reason.PLURALITY)
        self.ruling_flags = [
            Flag(seat, f"the game file records this seat's death on day {self.number} at no post, but no majority "
                       "was reached and it did not have the most votes at the deadline: check the votes (a day "
                       "kill needs its post)")
            for seat in recorded
        ]
        return outcome

    # -- reading a post -----------------------------------------------------------------------------------

    def count_post(self, post: ReadPost) -> None:
        seat, how = self.r.roster.author_match(post.author, post.author_id, post.number)
        if seat is None and not post.commands and post.author.casefold() not in self.moderators:
            self.report_stranger(post)  # a look-alike is reported even when it casts no vote
        if seat is None or post.deleted:
            return
        if how != "account":
            self.unlisted.setdefault(post.author, seat)
        self.post_counts[seat] = self.post_counts.get(seat, 0) + 1
        lift = self.ruleset.cap_lifted_hours
        end = self.bounds.end
        if end is not None and lift is not None and post.time is not None and post.time > end - timedelta(hours=lift):
            return
        self.capped_counts[seat] = self.capped_counts.get(seat, 0) + 1

    def read_post(self, post: ReadPost, living: tuple[str, ...]) -> None:
        commands, corrected, why_ignored = _commands_of(post, self.corrections.get(post.number), self.ruleset)
        moderator = post.author.casefold() in self.moderators
        seat = None if moderator else self.r.roster.author_match(post.author, post.author_id, post.number)[0]
        stranger = self.stranger(post) if seat is None and not moderator and commands else None
        if seat is not None and _edited_commands(post):
            self.edits.append((seat, post))
        for index, command in enumerate(commands):
            if not command.bold and self.ruleset.unbolded != "count":
                if self.ruleset.unbolded == "flag" and self.check_voter(seat, moderator, why_ignored, living).counted:
                    # "Please bold all votes", though the rules require only "vote [name]": the moderator decides.
                    self.add_problem(post.number, seat, command.raw, _UNBOLDED)
                    self.actions.append(Action(post=post.number, voter=seat, author=post.author, text=command.raw,
                                               action=command.action, target=None, no_elimination=False, step=None,
                                               counted=False, why_not=_UNBOLDED, url=post.url or None))
                continue
            base = dict(post=post.number, voter=seat, author=post.author, text=command.raw,
                        action=command.action, corrected=corrected, url=post.url or None)
            verdict = stranger or self.check_voter(seat, moderator, why_ignored, living)
            if not verdict.counted:
                if verdict.problem:
                    self.add_problem(post.number, seat or post.author, command.raw, verdict.why)
                self.actions.append(self.judged(base, None, None, verdict, order=(post.number, index)))
                continue
            self.actions.append(self.apply(command, base, (post.number, index), living))
            if self.ruleset.check == "command" and self.outcome is None and self.changed:
                self.outcome = self.decide_early(post.number)
                self.changed = False  # decided on this count already

    def stranger(self, post: ReadPost) -> Verdict:
        """Why a post's author holds no seat: a look-alike of a listed account, an account outside its
        replacement window, or simply not a player (:mod:`assistant.identity` words it)."""
        authors = getattr(self.r.roster, "authors", None)
        if authors is None:
            return _NOT_A_PLAYER
        return Verdict(False, authors.why_not(post.author, post.author_id, post.number), problem=True)

    def report_stranger(self, post: ReadPost) -> None:
        """A look-alike account that posts is a problem once a day, vote or not."""
        authors = getattr(self.r.roster, "authors", None)
        found = authors.lookalike(post.author) if authors is not None else None
        if found and post.author not in self.strangers:
            self.strangers.add(post.author)
            self.add_problem(post.number, post.author, "(a post)", found)

    def check_voter(self, seat: str | None, moderator: bool, why_ignored: str | None, living) -> Verdict:
        if moderator:
            return _MODERATOR_POST
        if seat is None:
            return _NOT_A_PLAYER
        if why_ignored:
            return Verdict(False, why_ignored)
        if self.phase == "late":
            return _AFTER_END
        if self.outcome is not None:
            return _DAY_OVER
        alive = seat in living
        verdict = _COUNTED if alive else _VOTER_DEAD
        for hook in self.hooked["check_voter"]:
            verdict = hook(seat, alive, verdict)
        return verdict

    def judged(self, base: dict, target: str | None, step: str | None, verdict: Verdict, *, order,
               no_elimination: bool = False) -> Action:
        """The action for a command a verdict refused or marked (a private reason stays private)."""
        why, private_why = verdict.why, None
        if verdict.private:
            private_why, why = verdict.why, WhyNot.RULED_OUT
            self.note(f"post {order[0]}: {base['voter']} {base['text']!r}: {verdict.why}")
        return Action(**base, target=target, no_elimination=no_elimination, step=step, counted=verdict.counted,
                      why_not=why, nomination=verdict.nomination, private_why=private_why)

    def done(self, command: Command, base: dict, target: str | None, step: str | None, why: str | None = None, *,
             no_elim: bool = False, problem: bool = False, nomination: bool = False, found: Any = None,
             doubt: str | None = None) -> Action:
        """The action for a command of a voter who may vote: counted when ``why`` is None. ``found``: the
        resolution of a name that could not be read (a moderator's count may teach it later); ``doubt``: why a
        refusal deserves the moderator's look."""
        seat = base["voter"]
        if problem:
            self.add_problem(base["post"], seat, command.raw, why)
        if command.action in ("vote", "unvote"):  # a later vote or unvote replaces one whose name was unreadable
            self.unread.pop(seat, None)
            if command.action == "vote" and found is not None and found.reason is not None and command.target:
                self.unread[seat] = (command, base)
        return Action(**base, target=target, no_elimination=no_elim, step=step, counted=why is None, why_not=why,
                      nomination=nomination, doubt=(_doubt(command, found) if why is None else None) or doubt)

    def apply(self, command: Command, base: dict, order: tuple[int, int], living: tuple[str, ...]) -> Action:
        """Move the vote book by one command of a voter who may vote now."""
        if command.action == "unvote":
            return self.unvote(command, base, order, living)
        if command.action not in ("vote", "nominate"):
            why = _SHERIFF_VOTE if command.action == "sheriff" else f"not a command ({command.action})"
            return self.done(command, base, None, None, why)
        if command.note == "broken tag" and self.house.broken_tags_void:
            return self.done(command, base, None, None, _BROKEN_TAG_VOID, problem=True)
        if command.inline and self.house.votes_on_own_line:
            # where a line ends is read from the page's markup: the moderator should look at the post
            return self.done(command, base, None, None, _OFF_LINE_VOID, problem=True, doubt=OFF_LINE)
        seat, found = base["voter"], self.resolve(command.target or "", living, order[0])
        target, why = self.target_of(command, found, order[0], living)
        if why is not None:
            unread = found if found.seat is None and not found.no_elimination else None
            return self.done(command, base, target, found.step, why, problem=True, found=unread)
        nomination = False
        for hook in self.hooked["check_vote"]:
            verdict = hook(seat, target, command.action, order[0])
            if verdict is not None and not verdict.counted:
                if verdict.problem:
                    self.add_problem(order[0], seat, command.raw, verdict.why)
                return self.judged(base, target, found.step, verdict, order=order, no_elimination=target is None)
            nomination = nomination or (verdict is not None and verdict.nomination)
        if self.phase == "runoff" and target is not None and target not in self.candidates:
            why = "not in the runoff"
        elif target == seat and self.house.self_hammer_ignored and self.would_hammer(seat, order[0]):
            why = "a self-hammer does not count (house rule)"
        else:
            changes = len(self.book.changes)
            why = self.book.vote(seat, target, order, single=seat not in living, text=command.target or "")
            self.changed = self.changed or len(self.book.changes) > changes
        if why is not None:
            return self.done(command, base, target, found.step, why, no_elim=target is None, problem=True)
        return self.done(command, base, target, found.step, no_elim=target is None, nomination=nomination,
                         found=found)

    def target_of(self, command: Command, found: Any, post: int, living) -> tuple[str | None, str | None]:
        """The seat a vote names (None: no elimination) and why it cannot count, from its resolved name."""
        if found.no_elimination:
            return None, None if self.ruleset.no_elimination_vote else "no-elimination votes are not allowed"
        if found.seat is None:
            return None, found.reason or "unknown name"
        if self.house.old_account_names_refused and (old := self.old_account(found.seat, command.target or "", post)):
            return found.seat, f"names {old}, an account the seat no longer plays (house rule)"
        if found.seat not in living:
            return found.seat, WhyNot.TARGET_DEAD
        return found.seat, None

    def unvote(self, command: Command, base: dict, order: tuple[int, int], living) -> Action:
        """Take back the vote named (a no-elimination word names that vote), else every vote."""
        named, target, step, no_elim = False, None, None, False
        if command.target:
            found = self.resolve(command.target, living, order[0])
            step, no_elim = found.step, found.no_elimination
            target = None if no_elim else found.seat
            named = no_elim or target is not None  # an unknown name takes back every vote
        why, removed = self.book.unvote(base["voter"], order[0], named=named, target=target)
        if why is not None:
            return self.done(command, base, target, step, why, no_elim=no_elim)
        self.changed = True
        taken = removed[0].target if len(removed) == 1 else None
        return self.done(command, base, taken, step, no_elim=len(removed) == 1 and taken is None)

    def old_account(self, seat: str, typed: str, post: int) -> str | None:
        """The account ``typed`` names when it is one ``seat`` was played by before ``post`` (else None)."""
        accounts = self.game.seat(seat).accounts
        current = accounts.index(self.game.seat(seat).account_at(post))
        folded = typed.strip().casefold()
        return next((a for a in accounts[:current] if a.casefold() == folded), None)

    def would_hammer(self, seat: str, post: int) -> bool:
        """Whether ``seat``'s vote on itself would give its own wagon a majority now."""
        standing = self.standing(post)
        votes = next((w[1] for w in standing.wagons if w[0] == seat), 0)
        return standing.majority is not None and votes + self.weight(seat, post) >= standing.majority

    def reread_learned(self, post: int, living: tuple[str, ...]) -> None:
        """A moderator's count at ``post`` taught a spelling: a standing vote typed so counts from here on."""
        for seat, (command, base) in list(self.unread.items()):
            found = self.resolve(command.target or "", living, post)
            if found.step != "learned" or found.seat is None or seat not in living:
                continue
            del self.unread[seat]
            changes = len(self.book.changes)
            if self.book.vote(seat, found.seat, (post, -1), single=False) is not None:
                continue
            self.changed = self.changed or len(self.book.changes) > changes
            self.actions.append(Action(**{**base, "post": post}, target=found.seat, no_elimination=False,
                                       step="learned", counted=True, why_not=None, doubt="learned alias"))

    def resolve(self, text: str, living: Collection[str], post: int | None = None):
        return self.r.resolve(text, self.r.roster, alive=frozenset(living), at_post=post)

    # -- the count ---------------------------------------------------------------------------------------

    def voters(self, living: Sequence[str]) -> list[str]:
        """The seats whose votes count now: the living, as the hooks amend them."""
        seats = list(living)
        for hook in self.hooked["voters"]:
            seats = hook(seats, living)
        return seats

    def targets(self, living: Sequence[str]) -> set[str]:
        """The seats that may be voted off now: the living, as the hooks amend them."""
        seats = set(living)
        for hook in self.hooked["targets"]:
            seats = hook(seats)
        return seats

    def weight(self, seat: str, post: int | None) -> float:
        weight = self.weights.get(seat, 1.0)
        for hook in self.hooked["weight"]:
            weight = hook(seat, post, weight)
        return weight

    def weigher(self, post: int | None) -> Callable[[str], float]:
        """A seat's vote weight at ``post``, as a one-argument function (a plain lookup when no hook weighs)."""
        if not self.hooked["weight"]:
            weights = self.weights
            return lambda seat: weights.get(seat, 1.0)
        return lambda seat: self.weight(seat, post)

    def tally(self, living: Sequence[str], post: int | None):
        voters = self.voters(living)
        allowed = set(voters)
        targets = self.targets(living)
        by_target: dict[str | None, list[tuple[tuple[int, int], str]]] = {}
        for voter, votes in self.book.held.items():
            if voter not in allowed:
                continue
            for vote in votes:
                if vote.target is None or vote.target in targets:
                    by_target.setdefault(vote.target, []).append((vote.order, voter))
        wagons, no_elim = rank_wagons(by_target, self.weigher(post))
        voting = {v for cast in by_target.values() for _, v in cast}
        return wagons, no_elim, voters, voting

    def standing(self, post: int | None) -> Standing:
        living = self.living(post if post is not None else self.bounds.start_post)
        wagons, no_elim, voters, voting = self.tally(living, post)
        weight = self.weigher(post)
        standing = Standing(
            post=post,
            majority=self.ruleset.majority_for(len(living)),
            wagons=tuple((w.target, w.votes, len(w.voters)) for w in wagons),
            no_elimination=no_elim.votes,
            voters=len(voters),
            undecided=sum(map(weight, (v for v in voters if v not in voting))) + self.unplaced(voters),
            no_elimination_voters=len(no_elim.voters),
            eligible=sum(self.capacity.get(v, weight(v)) for v in voters),
        )
        for hook in self.hooked["standing"]:
            standing = hook(standing)
        return standing

    def unplaced(self, voters: Sequence[str]) -> float:
        """Votes a split doublevoter holds but has not placed yet (it is partly undecided)."""
        held = self.book.held
        return sum(max(0, room - len(held.get(v, ()))) for v, room in self.capacity.items() if v in voters
                   and held.get(v))

    # -- the votal ----------------------------------------------------------------------------------------

    def finish(self, considered: Sequence[ReadPost], over: bool) -> DayResult:
        # the last post of the day's vote (``considered`` is in post order; the late posts come last)
        as_of = next((p.number for p in reversed(considered) if self.phase_of_post(p)), None)
        living = self.living(as_of if as_of is not None else self.bounds.start_post)
        wagons, no_elim, _, voting = self.tally(living, as_of)
        outcome = self.outcome
        if outcome is None and self.phase == "runoff":
            outcome = self.pending_runoff
        majority = self.ruleset.majority_for(len(living)) if self.ruleset.threshold else None
        fields: dict[str, Any] = dict(
            day=self.number,
            alive=len(living),
            majority=majority,
            as_of_post=as_of,
            wagons=wagons,
            no_elimination=no_elim,
            not_voting=tuple(s for s in living if s not in voting),
            outcome=outcome,
            problems=tuple(self.problems),
            deadline=self.bounds.end,
            living=living,
            ruleset=self.ruleset.name,
            actions=tuple(self.actions),
            runoff=self.runoff,
            flags=self.flags(living, voting, over),
            changes=tuple(self.book.changes),
            lynches=tuple(self.lynched),
            no_elimination_majority=(
                self.ruleset.no_elimination_needed(majority)
                if majority is not None and self.ruleset.no_elimination_vote else None
            ),
        )
        for hook in self.hooked["votal"]:
            hook(fields)
        votal = Votal(**fields, private_notes=tuple(self.notes))
        final = self.final_votes if self.final_votes is not None else self.book.snapshot()
        return DayResult(votal, final, self.voted_at_deadline or frozenset(voting))

    def phase_of_post(self, post: ReadPost) -> bool:
        """Whether a post belongs to the day's vote (main or runoff), for as_of_post."""
        if not self.after_main(post):
            return True
        return self.runoff is not None and self.in_runoff(post)

    def flags(self, living: Sequence[str], voting: Collection[str], over: bool) -> tuple[Flag, ...]:
        # A renamed account (the same forum user id) counts, and the moderator is told so they can list it.
        found: list[Flag] = [
            Flag(
                seat,
                f"posts as {author!r}, the seat's account renamed (same forum user id): counted "
                "(add it to the seat's replacements)",
            )
            for author, seat in self.unlisted.items()
        ]
        counted = {"first_revision": "the first version counts", "last_revision": "the latest version counts",
                   "flag": "neither counts until the moderator decides"}[self.ruleset.edited]
        found += [
            Flag(
                seat,
                f"edited post {post.number}: before {_shown_commands(post.first_commands)!r}, "
                f"after {_shown_commands(post.commands)!r} ({counted})",
            )
            for seat, post in self.edits
        ]
        ruleset, least, most = self.ruleset, self.ruleset.daily_minimum, self.ruleset.daily_cap
        found += [Flag(s, f"under the post minimum: {self.post_counts.get(s, 0)} of {least}")
                  for s in living if least and self.post_counts.get(s, 0) < least]
        found += [Flag(s, f"over the post cap: {self.capped_counts.get(s, 0)} of {most}")
                  for s in living if most and self.capped_counts.get(s, 0) > most]
        if self.outcome is None and self.phase == "day" and "no_possible_tie" in ruleset.early_end:
            leader = early_end_possible(ruleset, self.standing(self.last_day_post))
            if leader is not None:
                found.append(Flag(leader, "an early end is possible: no remaining vote can tie or pass this "
                                  'nomination (the Storyteller may end the day: [[events]] kind = "early_end")'))
        found += self.ruling_flags
        for hook in self.hooked["flags"]:
            found += hook(living, voting, over)
        return tuple(found)


def rank_wagons(
    by_target: dict[str | None, list[tuple[tuple[int, int], str]]], weight: Callable[[str], float] = lambda _: 1
) -> tuple[tuple[Wagon, ...], NoEliminationCount]:
    """The wagons (most votes first, then the wagon whose standing vote was cast first) and the no-elimination
    count, from each target's (when cast, voter) votes; voters listed in the order they voted."""
    wagons = []
    no_elim = NoEliminationCount()
    for target, cast in by_target.items():
        cast.sort()
        names = tuple(v for _, v in cast)
        total = sum(map(weight, names))
        if target is None:
            no_elim = NoEliminationCount(total, names)
        else:
            wagons.append((-total, cast[0][0], Wagon(target, total, names)))
    wagons.sort(key=lambda w: (w[0], w[1]))
    return tuple(w for *_, w in wagons), no_elim


# The verdicts on a voter that need no hook: made once (a long day reads thousands of commands).
_COUNTED = Verdict()
_SHERIFF_VOTE = "a vote in the sheriff election, not a lynch vote"
_BROKEN_TAG_VOID = "a vote in a broken tag does not count (house rule)"
_OFF_LINE_VOID = "not on a line of its own: does not count (house rule)"
_UNBOLDED = "not in bold: the rules ask for bold votes (count it with [[corrections]] if it is one)"
_MODERATOR_POST = Verdict(False, WhyNot.MODERATOR_POST)
_NOT_A_PLAYER = Verdict(False, WhyNot.NOT_A_PLAYER, problem=True)
_AFTER_END = Verdict(False, WhyNot.AFTER_END)
_DAY_OVER = Verdict(False, WhyNot.DAY_OVER)
_VOTER_DEAD = Verdict(False, WhyNot.VOTER_DEAD, problem=True)


OFF_LINE = "off its own line"  # a vote refused under [house] votes_on_own_line: where a line ends is read from markup
_SHORT = 3  # letters: a partial name this short is a guess worth a look


def _teaching_posts(roster: Any) -> frozenset[int]:
    """The posts from which the roster knows a spelling a moderator's count taught it."""
    return frozenset(post for _, post in getattr(roster, "learned", {}).values())


def _doubt(command: Command, found: Any) -> str | None:
    """Why a counted vote deserves the moderator's look, or None."""
    if command.note == "broken tag":
        return "broken tag"
    if found is None:
        return None
    if found.step == "learned":
        return "learned alias"
    if found.step in ("prefix", "abbreviation", "substring", "acronym"):
        typed = found.used or command.target or ""
        if len("".join(c for c in typed if c.isalnum())) <= _SHORT and found.step != "acronym":
            return "short prefix"
    return None


def _commands_of(post: ReadPost, correction, ruleset: Ruleset) -> tuple[tuple[Command, ...], bool, str | None]:
    """The commands a post counts for: a moderator's correction wins, then the revision the rules read."""
    commands = post.commands
    edited = _edited_commands(post)
    if edited and ruleset.edited == "first_revision":
        commands = post.first_commands
    if correction is not None:
        if correction.ignore:
            return commands, True, WhyNot.RULED_OUT
        return (Command("vote", correction.vote, correction.vote or ""),), True, None
    if post.deleted:
        return commands, False, "post deleted"
    if edited and ruleset.edited == "flag":
        return commands, False, "edited after posting: the moderator decides ([[corrections]] in the game file)"
    return commands, False, None


def _edited_commands(post: ReadPost) -> bool:
    """Whether an edit changed what the post commands (not just its other text)."""
    if not post.edited or post.first_commands is None:
        return False
    return [(c.action, c.target) for c in post.first_commands] != [(c.action, c.target) for c in post.commands]


def _shown_commands(commands: Sequence[Command] | None) -> str:
    return "; ".join(dict.fromkeys(c.raw for c in commands or ())) or "(no command)"
