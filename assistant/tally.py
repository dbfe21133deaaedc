"""Replaying a day's votes into a votal: who votes whom as of any post, and how the day ends.

The votal is never edited in place: :func:`replay_day` is a pure function of (game, ruleset, posts, roster,
day, as-of point), like python-chess replaying a move stack. "The votal as of post 512" is the same call as
"the votal now".

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
    outcome        {"kind", "target", "post", "reason"} or null while the day is undecided; kind is
                           elimination | no_elimination | pending, reason one of rules.OUTCOME_REASONS;
                           post is the deciding post (the last counted post when a deadline decided);
                           "survived" is added when a lynch failed (witchhunt-9.0's Deacon)
    problems       list    {"post", "voter", "text", "reason"}: votes that did not count and why (a vote a
                           private fact voids is only an action with why_not "not a valid vote")
    deadline       str     ISO 8601 UTC deadline (extensions included), or null
    living         list    living seats as of the as-of point, in game-file order
    ruleset        str     the ruleset's name
    actions        list    every command read this day: {"post", "voter", "author", "text", "action",
                           "target", "no_elimination", "step", "counted", "why_not", "corrected", "url",
                           "nomination"};
                           action is the command as typed (vote | unvote | nominate); "nomination" (bool)
                           is true for the vote that nominated its target (clocktower)
    nominations    list    clocktower only: {"nominator", "nominee", "post", "votes", "voters"}
    runoff         object  Millers Hollow only: {"candidates", "deadline", "post"} or null; post is the last
                           post of the main vote, deadline null when the runoff is declared by posts
    flags          list    {"seat", "reason"}: e.g. missed two days of voting (removal), under a post minimum

Seats are named by their first ``name`` in the game file. Private facts of the game file (the Judge, lovers,
a sequestered player...) change outcomes but never appear in any of these fields.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from assistant.clock import add_wall_hours, day_bounds, zone_of
from assistant.game import Game
from assistant.rules import (
    Outcome,
    Ruleset,
    Standing,
    decide_at_deadline,
    decide_early,
    decide_plurality,
    leaders,
)
from parsers.commands import Command, ReadPost

__all__ = [
    "Action",
    "Nomination",
    "NoEliminationCount",
    "Outcome",
    "Problem",
    "Runoff",
    "Flag",
    "Votal",
    "Wagon",
    "alive_seats",
    "majority_for",
    "replay_day",
    "show_votes",
]


@dataclass(frozen=True)
class Wagon:
    target: str
    votes: float
    voters: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"target": self.target, "votes": show_votes(self.votes), "voters": list(self.voters)}


@dataclass(frozen=True)
class NoEliminationCount:
    votes: float = 0
    voters: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"votes": show_votes(self.votes), "voters": list(self.voters)}


@dataclass(frozen=True)
class Problem:
    """A vote that did not count, for the moderator to see. ``voter`` is the seat, else the account."""

    post: int
    voter: str
    text: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"post": self.post, "voter": self.voter, "text": self.text, "reason": self.reason}


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

    def to_json(self) -> dict[str, Any]:
        return {
            "post": self.post,
            "voter": self.voter,
            "author": self.author,
            "text": self.text,
            "action": self.action,
            "target": self.target,
            "no_elimination": self.no_elimination,
            "step": self.step,
            "counted": self.counted,
            "why_not": self.why_not,
            "corrected": self.corrected,
            "url": self.url,
            "nomination": self.nomination,
        }


@dataclass(frozen=True)
class Nomination:
    nominator: str
    nominee: str
    post: int
    votes: float
    voters: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "nominator": self.nominator,
            "nominee": self.nominee,
            "post": self.post,
            "votes": show_votes(self.votes),
            "voters": list(self.voters),
        }


@dataclass(frozen=True)
class Runoff:
    candidates: tuple[str, ...]
    deadline: datetime | None
    post: int | None  # the post that opened it (the last counted post of the main vote)

    def to_json(self) -> dict[str, Any]:
        return {
            "candidates": list(self.candidates),
            "deadline": _iso(self.deadline),
            "post": self.post,
        }


@dataclass(frozen=True)
class Flag:
    seat: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "reason": self.reason}


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
    # Moderator-only notes (why a private fact changed something). Never serialised, never shown to players.
    private_notes: tuple[str, ...] = field(default=(), repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "day": self.day,
            "alive": self.alive,
            "majority": self.majority,
            "as_of_post": self.as_of_post,
            "wagons": [w.to_json() for w in self.wagons],
            "no_elimination": self.no_elimination.to_json(),
            "not_voting": list(self.not_voting),
            "outcome": self.outcome.to_json() if self.outcome else None,
            "problems": [p.to_json() for p in self.problems],
            "deadline": _iso(self.deadline),
            "living": list(self.living),
            "ruleset": self.ruleset,
            "actions": [a.to_json() for a in self.actions],
            "nominations": [n.to_json() for n in self.nominations],
            "runoff": self.runoff.to_json() if self.runoff else None,
            "flags": [f.to_json() for f in self.flags],
        }


def show_votes(value: float) -> int | float:
    """A vote count as people write it: 3, not 3.0 (weights may make it 2.5)."""
    return int(value) if float(value).is_integer() else value


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment else None


def majority_for(n: int, ruleset: Ruleset | None = None) -> int:
    """Votes needed for a majority of ``n`` living seats under ``ruleset`` (default: more than half)."""
    if ruleset is None:
        return n // 2 + 1
    return ruleset.majority_for(n)


def alive_seats(game: Game, day: int, at_post: int | None = None) -> tuple[str, ...]:
    """Seats alive on ``day`` (as of ``at_post`` when given), in game-file order.

    A death in phase "day N" / "night N" counts from the end of that phase (night N ends before day N+1);
    a death with ``post`` counts from that post on (a kill during the day). Without ``at_post`` a day
    kill on ``day`` itself counts as done.
    """
    dead = set()
    for death in game.deaths:
        if death.phase_number < day:
            dead.add(death.player)
        elif death.post is not None:
            if at_post is not None:
                if at_post >= death.post:
                    dead.add(death.player)
            elif death.phase == "day" and death.phase_number == day:
                dead.add(death.player)
    return tuple(seat.name for seat in game.players if seat.name not in dead)


# --- the replay ----------------------------------------------------------------------------------------

_NO_ELIM = "\x00no-elimination"  # internal target for sleep / no lynch / abstain votes
_INVALID = "not a valid vote"  # the public word for a vote a private fact voids (lovers, sequestered)


@dataclass
class _Vote:
    target: str  # a seat or _NO_ELIM
    order: tuple[int, int]  # (post, command index): when it was cast


@dataclass
class _DayResult:
    votal: Votal
    final_votes: dict[str, list[_Vote]]
    voted_at_deadline: frozenset[str]
    over: bool


def replay_day(
    game: Game,
    ruleset: Ruleset,
    posts: Sequence[ReadPost],
    roster: Any,
    *,
    day: int,
    at_post: int | None = None,
    at_time: datetime | None = None,
    resolve: Callable[..., Any] | None = None,
) -> Votal:
    """The votal of ``day`` as of ``at_post`` / ``at_time`` (default: everything in ``posts``).

    ``posts`` may be the whole thread: the day's posts are picked by the day's bounds (game file, else
    the ruleset's phases). ``roster`` is an :class:`assistant.names.Roster`; ``resolve`` stands in for
    :func:`assistant.names.resolve_name` (same signature), for tests.
    """
    if resolve is None:
        from assistant.names import resolve_name as resolve
    ordered = sorted(posts, key=lambda p: p.number)
    return _Replay(game, ruleset, ordered, roster, resolve, at_post, at_time).day(day).votal


class _Replay:
    """One replay of a game's days as of one point; earlier days are replayed once, when a rule needs them."""

    def __init__(self, game, ruleset, posts, roster, resolve, at_post, at_time):
        self.game, self.ruleset, self.posts, self.roster = game, ruleset, posts, roster
        self.resolve, self.at_post, self.at_time = resolve, at_post, at_time
        self.memo: dict[int, _DayResult] = {}

    def day(self, number: int) -> _DayResult:
        if number not in self.memo:
            self.memo[number] = _DayReplay(self, number).run()
        return self.memo[number]

    def spent_tokens(self, before_day: int) -> frozenset[str]:
        """Dead seats that ended an earlier day voting a player: their one vote token is spent."""
        spent: set[str] = set()
        for earlier in range(1, before_day):
            result = self.day(earlier)
            living_then = set(alive_seats(self.game, earlier))
            for voter, votes in result.final_votes.items():
                if voter not in living_then and any(v.target != _NO_ELIM for v in votes):
                    spent.add(voter)
        return frozenset(spent)


class _DayReplay:
    def __init__(self, replay: _Replay, day: int):
        self.r = replay
        self.game, self.ruleset, self.number = replay.game, replay.ruleset, day
        game, ruleset, private = self.game, self.ruleset, self.game.private
        self.bounds = day_bounds(game, ruleset, day)
        self.next_bounds = day_bounds(game, ruleset, day + 1)
        self.moderators = {m.casefold() for m in game.moderators}
        self.corrections = {c.post: c for c in game.corrections}
        self.weights = {seat.name: float(seat.vote_weight) for seat in game.players}
        if ruleset.has("sheriff") and private.sheriff in self.weights:
            self.weights[private.sheriff] *= 2  # MH "Sheriff": the sheriff's vote counts as two
        self.sequestered = frozenset(p for d, p in private.sequestered if d == day and ruleset.has("sequestered"))
        self.lovers: dict[str, set[str]] = {}
        if ruleset.has("lovers"):
            for pair in private.lovers:
                for a in pair:
                    self.lovers.setdefault(a, set()).update(b for b in pair if b != a)
        self.spent = replay.spent_tokens(day) if ruleset.has("dead_vote_token") else frozenset()
        # A day timed by the clock starts when the last one's deadline passed; a runoff runs past that.
        self.runoff_before: datetime | None = None
        if ruleset.tie == "runoff" and day > 1 and self.bounds.start_post is None and game.day(day) is None:
            previous = replay.day(day - 1).votal.runoff
            self.runoff_before = previous.deadline if previous is not None else None
        self.votes: dict[str, list[_Vote]] = {}
        self.changed = False  # whether a vote changed since the count was last decided
        self.nominations: list[tuple[str, str, int]] = []
        self.actions: list[Action] = []
        self.problems: list[Problem] = []
        self.notes: list[str] = []
        self.outcome: Outcome | None = None
        self.final_votes: dict[str, list[_Vote]] | None = None
        self.phase = "day"
        self.runoff: Runoff | None = None
        self.candidates: tuple[str, ...] = ()
        self.last_day_post: int | None = None
        self.last_runoff_post: int | None = None
        self.voted_at_deadline: frozenset[str] = frozenset()
        self.post_counts: dict[str, int] = {}
        self.unlisted: dict[str, str] = {}  # account the game file does not list -> the seat it was read as
        self.edits: list[tuple[str, ReadPost]] = []  # posts whose edit changed their commands
        self.capped_counts: dict[str, int] = {}
        self.kill_posts = sorted({d.post for d in self.game.deaths if d.post is not None})
        self.living_cache: dict[int | None, tuple[str, ...]] = {}

    # -- who is who at a post ------------------------------------------------------------------------

    def living(self, at_post: int | None) -> tuple[str, ...]:
        # Asked at every post of a long day; the answer changes only at a day kill's post.
        key = None if at_post is None else bisect_right(self.kill_posts, at_post)
        if key not in self.living_cache:
            self.living_cache[key] = alive_seats(self.game, self.number, at_post=at_post)
        return self.living_cache[key]

    def may_vote(self, seat: str, living: Collection[str]) -> bool:
        if seat in living:
            return seat not in self.sequestered
        return self.ruleset.has("dead_vote_token") and seat not in self.spent

    def voters(self, living: Sequence[str]) -> list[str]:
        eligible = [s for s in living if s not in self.sequestered]
        if self.ruleset.has("dead_vote_token"):
            eligible += [s.name for s in self.game.players if s.name not in living and s.name not in self.spent]
        return eligible

    # -- where a post falls ----------------------------------------------------------------------------

    def in_day(self, post: ReadPost) -> bool:
        b = self.bounds
        if b.start_post is not None:
            return post.number >= b.start_post
        if b.start is not None:
            if post.time is not None and self.runoff_before is not None and post.time <= self.runoff_before:
                return False  # still the previous day's runoff
            return post.time is None or post.time >= b.start
        return True

    def after_main(self, post: ReadPost) -> bool:
        """Votes count by post number when the day is declared by posts, else by time against the deadline."""
        b = self.bounds
        if b.end_post is not None:
            return post.number > b.end_post
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
            end_time = add_wall_hours(self.bounds.end, self.ruleset.runoff_hours or 0, zone_of(self.game, self.ruleset))
        return end_post, end_time

    def in_runoff(self, post: ReadPost) -> bool:
        end_post, end_time = self.runoff_end()
        if end_post is not None and post.number > end_post:
            return False
        return not (end_time is not None and post.time is not None and post.time > end_time)

    def main_over(self, considered: Sequence[ReadPost]) -> bool:
        b = self.bounds
        at_post, at_time = self.r.at_post, self.r.at_time
        if b.end_post is not None:
            return at_post is None or at_post >= b.end_post
        if b.end is None:
            return False
        if at_time is not None:
            return at_time >= b.end
        return any(p.time is not None and p.time > b.end for p in considered) or (
            at_post is None and any(p.time is not None and p.time > b.end for p in self.r.posts)
        )

    def runoff_over(self, considered: Sequence[ReadPost]) -> bool:
        end_post, end_time = self.runoff_end()
        at_post, at_time = self.r.at_post, self.r.at_time
        if end_post is not None:
            return at_post is None or at_post >= end_post
        if end_time is None:
            return False
        if at_time is not None:
            return at_time >= end_time
        pool = considered if at_post is not None else self.r.posts
        return any(p.time is not None and p.time > end_time for p in pool)

    # -- the run -------------------------------------------------------------------------------------------

    def run(self) -> _DayResult:
        at_post, at_time = self.r.at_post, self.r.at_time
        considered = [
            p
            for p in self.r.posts
            if self.in_day(p)
            and (at_post is None or p.number <= at_post)
            and (at_time is None or p.time is None or p.time <= at_time)
        ]
        seen: tuple[str, ...] = ()
        self.declared_nominations(None)
        for post in considered:
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
            self.declared_nominations(post.number)
            self.read_post(post)
            living = self.living(post.number)
            # The count only moves when a vote changed or someone died: skip the rest (long days are long).
            if self.phase in ("day", "runoff") and self.outcome is None and (self.changed or living != seen):
                self.outcome = self.decide_early(post.number)
            self.changed, seen = False, living
        over = self.outcome is not None and self.phase == "day"
        if self.phase == "day" and self.outcome is None and self.main_over(considered):
            self.end_main()
        if self.phase == "runoff" and self.runoff_over(considered):
            self.end_runoff()
        over = over or self.phase == "late"
        if self.outcome is not None and self.outcome.kind != "pending":
            over = True
        return self.finish(considered, over)

    def end_main(self) -> None:
        """The main vote's deadline passed: decide it (unless an early end already did)."""
        self.phase = "late"
        self.voted_at_deadline = frozenset(v for v, votes in self.votes.items() if votes)
        if self.outcome is not None:
            return
        standing = self.standing(self.last_day_post)
        outcome = decide_at_deadline(self.ruleset, standing)
        if outcome.kind == "pending" and outcome.reason == "runoff":
            self.candidates = tuple(t for t in leaders(self.ruleset, standing) if t is not None)
            for voter, votes in self.votes.items():
                self.votes[voter] = [v for v in votes if v.target == _NO_ELIM or v.target in self.candidates]
            _, end_time = self.runoff_end()
            self.runoff = Runoff(self.candidates, end_time, self.last_day_post)
            self.phase = "runoff"
            self.outcome = None
            self.pending_runoff = outcome
            return
        self.outcome = self.settle(outcome)

    def end_runoff(self) -> None:
        self.phase = "late"
        self.voted_at_deadline |= frozenset(v for v, votes in self.votes.items() if votes)
        last = self.last_runoff_post if self.last_runoff_post is not None else self.last_day_post
        standing = self.standing(last)
        self.outcome = self.settle(decide_plurality(self.ruleset, standing, runoff=True))

    def settle(self, outcome: Outcome) -> Outcome:
        """Apply what the game file's private table decides: the Judge, a Loose Cannon, the Deacon, a draw."""
        game, ruleset, private, day = self.game, self.ruleset, self.game.private, self.number
        living_end = self.living(None)
        decision = next((d for d in private.decisions if d.get("day") == day), {})
        if ruleset.has("loose_cannon") and "loose_cannon" in decision:
            pick = decision["loose_cannon"]
            ended = next((e.post for e in game.events if e.day == day and e.kind == "early_end" and e.post), None)
            post = ended if ended is not None else outcome.post
            self.notes.append(f"the Loose Cannon decided the {ruleset.elimination_word}: {pick}")
            if pick == "none":
                outcome = Outcome("no_elimination", None, post, "loose_cannon")
            else:
                outcome = Outcome("elimination", pick, post, "loose_cannon")
        elif outcome.kind == "pending" and outcome.reason in ("no_majority", "sleep_majority"):
            if ruleset.has("judge") and private.judge is not None and private.judge not in living_end:
                self.notes.append(f"the Judge ({private.judge}) is dead: no one is eliminated")
                outcome = Outcome("no_elimination", None, outcome.post, outcome.reason)
            elif "judge" in decision:
                pick = decision["judge"]
                self.notes.append(f"the Judge ({private.judge or 'not named'}) decided: {pick}")
                if pick == "none":
                    outcome = Outcome("no_elimination", None, outcome.post, "judge")
                else:
                    outcome = Outcome("elimination", pick, outcome.post, "judge")
            elif private.judge is None and ruleset.judge_unnamed == "no_elimination":
                reason = "deadline" if outcome.reason == "no_majority" else outcome.reason
                outcome = Outcome("no_elimination", None, outcome.post, reason)
        elif outcome.kind == "pending" and outcome.reason == "tie":
            standing = self.standing(outcome.post)
            tied = [t for t in leaders(ruleset, standing) if t is not None]
            drawn = [d.player for d in game.deaths if d.phase == "day" and d.phase_number == day and d.player in tied]
            if len(drawn) == 1:
                outcome = Outcome("elimination", drawn[0], outcome.post, "tie")
        if (
            outcome.kind == "elimination"
            and ruleset.has("deacon_holy")
            and private.deacon is not None
            and private.deacon in living_end
            and outcome.target in private.holy
        ):
            self.notes.append(f"the Deacon ({private.deacon}) is alive and {outcome.target} is holy: survives")
            outcome = Outcome("no_elimination", None, outcome.post, outcome.reason, survived=outcome.target)
        return outcome

    def declared_nominations(self, post: int | None) -> None:
        """``[[events]] kind = "nominate"``: the moderator's word that ``player`` nominated ``target`` at ``post``
        (a nomination is a first vote, so the nominator's vote on the nominee stands too)."""
        if not self.ruleset.has("clocktower"):
            return
        seats = {a.casefold(): s.name for s in self.game.players for a in (*s.accounts, *s.aliases)}
        for event in self.game.events:
            if event.day != self.number or event.kind != "nominate" or event.post != post:
                continue
            nominee = seats.get((event.target or "").casefold())
            if event.player is None or nominee is None or any(n == nominee for _, n, _ in self.nominations):
                continue
            at = post if post is not None else (self.bounds.start_post or 0)
            self.nominations.append((event.player, nominee, at))
            alive = event.player in self.living(post)
            if alive:
                mine = [v for v in self.votes.get(event.player, []) if v.target != _NO_ELIM]
                self.votes[event.player] = [*mine, _Vote(nominee, (at, -1))]
                self.changed = True
            # In the audit trail too, so that the vote log and the timeline replay to the same wagons.
            self.actions.append(
                Action(
                    post=at,
                    voter=event.player,
                    author=event.player,
                    text=f"nominated {nominee} (recorded by the moderator)",
                    action="nominate",
                    target=nominee,
                    no_elimination=False,
                    step="declared",
                    counted=alive,
                    why_not=None if alive else "voter is dead",
                    nomination=True,
                )
            )

    # -- reading a post -----------------------------------------------------------------------------------

    def count_post(self, post: ReadPost) -> None:
        seat, how = self.r.roster.author_match(post.author)
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

    def read_post(self, post: ReadPost) -> None:
        commands, corrected, why_ignored = _commands_of(post, self.corrections.get(post.number), self.ruleset)
        moderator = post.author.casefold() in self.moderators
        seat = None if moderator else self.r.roster.author_match(post.author)[0]
        if seat is not None and _edited_commands(post):
            self.edits.append((seat, post))
        if not commands:
            return
        living = self.living(post.number)
        for index, command in enumerate(commands):
            base = dict(
                post=post.number,
                voter=seat,
                author=post.author,
                text=command.raw,
                action=command.action,
                corrected=corrected,
                url=post.url or None,
            )
            why = None
            if moderator:
                why = "moderator's post"
            elif seat is None:
                why = "not a player"
                self.problems.append(Problem(post.number, post.author, command.raw, why))
            elif why_ignored:
                why = why_ignored
            elif self.phase == "late":
                why = "after the day's end"
            elif self.outcome is not None:
                why = "the day had already ended"
            elif not self.may_vote(seat, living):
                if seat in living:
                    why = _INVALID
                    self.notes.append(f"post {post.number}: {seat} is sequestered and cannot vote")
                else:
                    why = "voter is dead"
                    if self.ruleset.has("dead_vote_token"):
                        why = "voter is dead and has spent their vote token"
                    self.problems.append(Problem(post.number, seat, command.raw, why))
            if why is not None:
                self.actions.append(
                    Action(**base, target=None, no_elimination=False, step=None, counted=False, why_not=why)
                )
                continue
            action = self.apply(command, base, (post.number, index), living)
            self.actions.append(action)
            if self.ruleset.check == "command" and self.outcome is None:
                self.outcome = self.decide_early(post.number)

    def apply(self, command: Command, base: dict, order: tuple[int, int], living: tuple[str, ...]) -> Action:
        seat = base["voter"]
        mine = self.votes.setdefault(seat, [])

        def done(target, step, counted=True, why=None, nomination=False, problem=False) -> Action:
            if problem:
                self.problems.append(Problem(order[0], seat, command.raw, why))
            return Action(
                **base,
                target=None if target == _NO_ELIM else target,
                no_elimination=target == _NO_ELIM,
                step=step,
                counted=counted,
                why_not=why,
                nomination=nomination,
            )

        if command.action == "unvote":
            target, step = None, None
            if command.target:
                found = self.resolve(command.target, living)
                target = _NO_ELIM if found.no_elimination else found.seat
                step = found.step
            if not mine:
                return done(target, step, False, "no vote to remove")
            if target is not None and all(v.target != target for v in mine):
                if self.ruleset.multi_vote:
                    return done(target, step, False, "was not voting for that target")
                target = None  # "UNVOTE: X" while voting Y still takes the vote back
            removed = [v for v in mine if target is None or v.target == target]
            self.votes[seat] = [v for v in mine if v not in removed]
            self.changed = True
            return done(removed[0].target if len(removed) == 1 else target, step)
        if command.action not in ("vote", "nominate"):
            return done(None, None, False, f"not a command ({command.action})")
        found = self.resolve(command.target or "", living)
        if found.no_elimination:
            if not self.ruleset.no_elimination_vote:
                return done(None, found.step, False, "no-elimination votes are not allowed", problem=True)
            target = _NO_ELIM
        elif found.seat is None:
            return done(None, found.step, False, found.reason or "unknown name", problem=True)
        elif found.seat not in living:
            return done(found.seat, found.step, False, "target is dead", problem=True)
        else:
            target = found.seat
        if target in self.sequestered:
            self.notes.append(f"post {order[0]}: {target} is sequestered and cannot be lynched")
            return done(target, found.step, False, _INVALID)
        if target in self.lovers.get(seat, ()):
            self.notes.append(f"post {order[0]}: {seat} and {target} are lovers and may not vote for each other")
            return done(target, found.step, False, _INVALID)
        if self.phase == "runoff" and target != _NO_ELIM and target not in self.candidates:
            return done(target, found.step, False, "not in the runoff", problem=True)
        nomination = False
        if self.ruleset.has("clocktower") and target != _NO_ELIM:
            nominated = {n for _, n, _ in self.nominations}
            nominators = {n for n, _, _ in self.nominations}
            if target not in nominated:
                if seat not in living:
                    return done(target, found.step, False, "not nominated (the dead cannot nominate)", problem=True)
                if seat in nominators:
                    return done(
                        target, found.step, False, "not nominated, and the voter has nominated today", problem=True
                    )
                self.nominations.append((seat, target, order[0]))
                nomination = True
            elif command.action == "nominate":
                return done(target, found.step, False, "already nominated today", problem=True)
        if any(v.target == target for v in mine):
            return done(target, found.step, nomination=nomination)
        if self.ruleset.require_unvote and mine and not self.ruleset.multi_vote:
            shown = mine[0].target
            why = "already voting: unvote first" if shown == _NO_ELIM else f"already voting {shown}: unvote first"
            return done(target, found.step, False, why, problem=True)
        single = not self.ruleset.multi_vote or seat not in living  # the dead hold one vote
        if single or target == _NO_ELIM:
            mine.clear()
        else:
            mine[:] = [v for v in mine if v.target != _NO_ELIM]
        mine.append(_Vote(target, order))
        self.changed = True
        return done(target, found.step, nomination=nomination)

    def resolve(self, text: str, living: Collection[str]):
        return self.r.resolve(text, self.r.roster, alive=frozenset(living))

    # -- the count ---------------------------------------------------------------------------------------

    def tally(self, living: Sequence[str]):
        voters = self.voters(living)
        allowed = set(voters)
        targets = set(living) - self.sequestered
        by_target: dict[str, list[tuple[tuple[int, int], str]]] = {}
        for voter, votes in self.votes.items():
            if voter not in allowed:
                continue
            for vote in votes:
                if vote.target == _NO_ELIM or vote.target in targets:
                    by_target.setdefault(vote.target, []).append((vote.order, voter))
        wagons = []
        no_elim = NoEliminationCount()
        for target, cast in by_target.items():
            cast.sort()
            names = tuple(v for _, v in cast)
            total = sum(self.weights.get(v, 1.0) for v in names)
            if target == _NO_ELIM:
                no_elim = NoEliminationCount(total, names)
            else:
                wagons.append((-total, cast[0][0], Wagon(target, total, names)))
        wagons.sort(key=lambda w: (w[0], w[1]))
        voting = {v for cast in by_target.values() for _, v in cast}
        return tuple(w for *_, w in wagons), no_elim, voters, voting

    def standing(self, post: int | None) -> Standing:
        living = self.living(post if post is not None else self.bounds.start_post)
        wagons, no_elim, voters, voting = self.tally(living)
        nominated = {n for _, n, _ in self.nominations}
        return Standing(
            post=post,
            majority=self.ruleset.majority_for(len(living)),
            wagons=tuple((w.target, w.votes, len(w.voters)) for w in wagons),
            no_elimination=no_elim.votes,
            voters=len(voters),
            undecided=sum(self.weights.get(v, 1.0) for v in voters if v not in voting),
            no_elimination_voters=len(no_elim.voters),
            nominations_left=any(s not in nominated for s in living if s not in self.sequestered),
        )

    def decide_early(self, post: int) -> Outcome | None:
        outcome = decide_early(self.ruleset, self.standing(post))
        if outcome is None:
            return None
        self.final_votes = {v: list(votes) for v, votes in self.votes.items()}
        return self.settle(outcome)

    # -- the votal ----------------------------------------------------------------------------------------

    def finish(self, considered: Sequence[ReadPost], over: bool) -> _DayResult:
        in_day = [p.number for p in considered if self.phase_of_post(p)]
        as_of = max(in_day) if in_day else None
        living = self.living(as_of if as_of is not None else self.bounds.start_post)
        if as_of is None and self.r.at_post is None:
            living = self.living(self.bounds.start_post)
        wagons, no_elim, voters, voting = self.tally(living)
        outcome = self.outcome
        if outcome is None and self.phase == "runoff":
            outcome = self.pending_runoff
        not_voting = tuple(s for s in living if s not in voting)
        nominations = []
        for nominator, nominee, post in self.nominations:
            wagon = next((w for w in wagons if w.target == nominee), None)
            nominations.append(
                Nomination(nominator, nominee, post, wagon.votes if wagon else 0, wagon.voters if wagon else ())
            )
        flags = self.flags(living, voting, over)
        votal = Votal(
            day=self.number,
            alive=len(living),
            majority=self.ruleset.majority_for(len(living)) if self.ruleset.threshold else None,
            as_of_post=as_of,
            wagons=wagons,
            no_elimination=no_elim,
            not_voting=not_voting,
            outcome=outcome,
            problems=tuple(self.problems),
            deadline=self.bounds.end,
            living=living,
            ruleset=self.ruleset.name,
            actions=tuple(self.actions),
            nominations=tuple(nominations),
            runoff=self.runoff,
            flags=flags,
            private_notes=tuple(self.notes),
        )
        final = self.final_votes if self.final_votes is not None else self.votes
        return _DayResult(votal, final, self.voted_at_deadline or frozenset(voting), over)

    def phase_of_post(self, post: ReadPost) -> bool:
        """Whether a post belongs to the day's vote (main or runoff), for as_of_post."""
        if not self.after_main(post):
            return True
        return self.runoff is not None and self.in_runoff(post)

    def flags(self, living: Sequence[str], voting: Collection[str], over: bool) -> tuple[Flag, ...]:
        # An account inferred for a seat counts, but the moderator is told so they can confirm it in the game file.
        found: list[Flag] = [
            Flag(
                seat,
                f"posts as {author!r}, an account the game file does not list: read as this seat "
                "(add it to the seat's replacements to confirm)",
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
        ruleset = self.ruleset
        if ruleset.daily_minimum:
            for seat in living:
                count = self.post_counts.get(seat, 0)
                if count < ruleset.daily_minimum:
                    found.append(Flag(seat, f"under the post minimum: {count} of {ruleset.daily_minimum}"))
        if ruleset.daily_cap:
            for seat in living:
                count = self.capped_counts.get(seat, 0)
                if count > ruleset.daily_cap:
                    found.append(Flag(seat, f"over the post cap: {count} of {ruleset.daily_cap}"))
        earlier_known = self.number > 1 and (
            self.game.day(self.number - 1) is not None or day_bounds(self.game, ruleset, self.number - 1).start
        )
        if ruleset.has("missed_days") and earlier_known:
            earlier = self.r.day(self.number - 1)
            earlier_living = set(alive_seats(self.game, self.number - 1))
            earlier_jailed = {p for d, p in self.game.private.sequestered if d == self.number - 1}
            missed_before = earlier_living - earlier_jailed - set(earlier.voted_at_deadline)
            voted = self.voted_at_deadline if over else frozenset(voting)
            for seat in living:
                if seat in missed_before and seat not in voted and seat not in self.sequestered:
                    if over:
                        found.append(Flag(seat, "missed two days of voting in a row: removal"))
                    else:
                        found.append(Flag(seat, f"missed the day {self.number - 1} vote and has not voted today"))
        return tuple(found)


def _commands_of(post: ReadPost, correction, ruleset: Ruleset) -> tuple[tuple[Command, ...], bool, str | None]:
    """The commands a post counts for: a moderator's correction wins, then the revision the rules read."""
    commands = post.commands
    edited = _edited_commands(post)
    if edited and ruleset.edited == "first_revision":
        commands = post.first_commands
    if correction is not None:
        if correction.ignore:
            return commands, True, "ignored by the moderator's correction"
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
