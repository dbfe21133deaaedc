"""Replaying a day's votes into a votal: who votes whom as of any post, and how the day ends.

The votal is never edited in place: :func:`replay_day` is a pure function of (game, ruleset, posts, roster,
day, as-of point), like python-chess replaying a move stack. "The votal as of post 512" is the same call as
"the votal now".

Public shape (stable; :meth:`Votal.to_json` is what ``votal count --format json``, drafts, export and the site
read)::

    day            int     the day number
    alive          int     living seats as of the as-of point
    majority       int     votes needed for a majority of the living
    as_of_post     int     the last post the votal includes (None when the day has no posts yet)
    wagons         list    {"target", "votes", "voters": [seat, ...]}: votes desc, then earliest wagon;
                           voters in the order their standing votes were cast. ``votes`` is weighted.
    no_elimination {"votes", "voters"}: sleep / no lynch / abstain votes
    not_voting     list    living seats with no standing vote, in game-file order
    outcome        {"kind", "target", "post", "reason"} or null while the day is undecided
    problems       list    {"post", "voter", "text", "reason"}: votes that did not count and why
    deadline       str     ISO 8601 UTC deadline (extensions included), or null
    living         list    living seats as of the as-of point, in game-file order
    ruleset        str     the ruleset's name
    actions        list    every command read this day: {"post", "voter", "author", "text", "action",
                           "target", "no_elimination", "step", "counted", "why_not", "corrected"}
    nominations    list    clocktower only: {"nominator", "nominee", "post", "votes", "voters"}
    runoff         object  Millers Hollow only: {"candidates", "deadline", "post"} or null
    flags          list    {"seat", "reason"}: e.g. missed two days of voting (removal), under a post minimum

Seats are named by their first ``name`` in the game file. Private facts of the game file (the Judge, lovers,
a sequestered player...) change outcomes but never appear in any of these fields.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from assistant.clock import DayBounds, day_bounds
from assistant.game import Game
from assistant.rules import Outcome, Ruleset, Standing, decide_at_deadline, decide_early
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
]


class RosterLike(Protocol):
    def seat_of_author(self, author: str) -> str | None: ...


@dataclass(frozen=True)
class Wagon:
    target: str
    votes: float
    voters: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"target": self.target, "votes": _number(self.votes), "voters": list(self.voters)}


@dataclass(frozen=True)
class NoEliminationCount:
    votes: float = 0
    voters: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"votes": _number(self.votes), "voters": list(self.voters)}


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
            "votes": _number(self.votes),
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
    majority: int
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


def _number(value: float) -> int | float:
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

_NO_ELIM = "\x00no-elimination"  # internal key for sleep / no lynch votes


@dataclass
class _Vote:
    target: str  # a seat or _NO_ELIM
    order: tuple[int, int]  # (post, command index): when it was cast


def _in_day(post: ReadPost, bounds: DayBounds) -> bool:
    if bounds.start_post is not None and post.number < bounds.start_post:
        return False
    if bounds.end_post is not None and post.number > bounds.end_post:
        return False
    if bounds.start_post is None and bounds.start is not None:
        return post.time is None or post.time >= bounds.start
    return True


def _after_deadline(post: ReadPost, bounds: DayBounds) -> bool:
    """Votes count by post number when the day is declared by posts, else by time against the deadline."""
    if bounds.end_post is not None:
        return post.number > bounds.end_post
    return bounds.end is not None and post.time is not None and post.time > bounds.end


def _day_over(bounds: DayBounds, posts: Sequence[ReadPost], at_post: int | None, at_time: datetime | None) -> bool:
    if bounds.end_post is not None:
        return at_post is None or at_post >= bounds.end_post
    if bounds.end is None:
        return False
    if at_time is not None:
        return at_time >= bounds.end
    if at_post is not None:
        return any(p.number <= at_post and p.time is not None and p.time > bounds.end for p in posts)
    return any(p.time is not None and p.time > bounds.end for p in posts)


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

    ``roster`` is an :class:`assistant.names.Roster`; ``resolve`` replaces
    :func:`assistant.names.resolve_name` (same signature), for tests.
    """
    if resolve is None:
        from assistant.names import resolve_name as resolve
    resolve_name = resolve

    bounds = day_bounds(game, ruleset, day)
    moderators = {m.casefold() for m in game.moderators}
    corrections = {c.post: c for c in game.corrections}
    weights = {seat.name: seat.vote_weight for seat in game.players}

    day_posts = sorted((p for p in posts if _in_day(p, bounds)), key=lambda p: p.number)
    considered = [
        p
        for p in day_posts
        if (at_post is None or p.number <= at_post) and (at_time is None or p.time is None or p.time <= at_time)
    ]

    votes: dict[str, _Vote] = {}
    actions: list[Action] = []
    problems: list[Problem] = []
    outcome: Outcome | None = None
    last_in_time: int | None = None

    def standing(after_post: int | None) -> Standing:
        living = alive_seats(game, day, at_post=after_post if after_post is not None else bounds.start_post)
        return _standing(ruleset, votes, living, weights, after_post)

    for post in considered:
        late = _after_deadline(post, bounds)
        commands, corrected, why_ignored = _commands_of(post, corrections.get(post.number), ruleset)
        is_moderator = post.author.casefold() in moderators
        seat = None if is_moderator else roster.seat_of_author(post.author)
        living = alive_seats(game, day, at_post=post.number)
        for index, command in enumerate(commands):
            base = dict(post=post.number, voter=seat, author=post.author, text=command.raw, action=command.action)
            if is_moderator:
                actions.append(_not_counted(base, "moderator's post", corrected))
            elif seat is None:
                actions.append(_not_counted(base, "not a player", corrected))
                problems.append(Problem(post.number, post.author, command.raw, "not a player"))
            elif why_ignored:
                actions.append(_not_counted(base, why_ignored, corrected))
            elif outcome is not None:
                actions.append(_not_counted(base, "the day had already ended", corrected))
            elif late:
                actions.append(_not_counted(base, "after the deadline", corrected))
            elif seat not in living:
                actions.append(_not_counted(base, "voter is dead", corrected))
                problems.append(Problem(post.number, seat, command.raw, "voter is dead"))
            else:
                action = _apply(command, base, votes, (post.number, index), roster, living, resolve_name, corrected)
                actions.append(action)
                if not action.counted and action.action == "vote":
                    problems.append(Problem(post.number, seat, command.raw, action.why_not or "not counted"))
                if ruleset.check == "command" and outcome is None:
                    outcome = decide_early(ruleset, standing(post.number))
        if late:
            continue
        last_in_time = post.number
        if outcome is None:
            outcome = decide_early(ruleset, standing(post.number))

    as_of = considered[-1].number if considered else None
    if outcome is not None and as_of is not None and bounds.end_post is None and at_post is None:
        as_of = max(as_of, outcome.post or as_of)
    final = standing(as_of)
    if outcome is None and _day_over(bounds, posts, at_post, at_time):
        outcome = decide_at_deadline(ruleset, _standing(ruleset, votes, final.living, weights, last_in_time))

    wagons, no_elim = _wagons(votes, final.living, weights)
    not_voting = tuple(s for s in final.living if s not in votes or not _counts(votes[s], final.living))
    return Votal(
        day=day,
        alive=len(final.living),
        majority=final.majority,
        as_of_post=as_of,
        wagons=wagons,
        no_elimination=no_elim,
        not_voting=not_voting,
        outcome=outcome,
        problems=tuple(problems),
        deadline=bounds.end,
        living=final.living,
        ruleset=ruleset.name,
        actions=tuple(actions),
    )


def _not_counted(base: dict, why: str, corrected: bool) -> Action:
    return Action(**base, target=None, no_elimination=False, step=None, counted=False, why_not=why, corrected=corrected)


def _commands_of(post: ReadPost, correction, ruleset: Ruleset) -> tuple[tuple[Command, ...], bool, str | None]:
    """The commands a post counts for: a moderator's correction wins, then the revision the rules read."""
    commands = post.commands
    if post.edited and post.first_commands is not None and ruleset.edited == "first_revision":
        commands = post.first_commands
    if correction is not None:
        if correction.ignore:
            return commands, True, "ignored by the moderator's correction"
        return (Command("vote", correction.vote, correction.vote or ""),), True, None
    if post.deleted:
        return commands, False, "post deleted"
    return commands, False, None


def _counts(vote: _Vote, living: Collection[str]) -> bool:
    return vote.target == _NO_ELIM or vote.target in living


def _apply(command, base, votes, order, roster, living, resolve_name, corrected) -> Action:
    seat = base["voter"]
    current = votes.get(seat)
    if command.action == "unvote":
        target = None
        step = None
        if command.target:
            resolution = resolve_name(command.target, roster, alive=frozenset(living))
            target = _NO_ELIM if resolution.no_elimination else resolution.seat
            step = resolution.step
            if target is not None and current is not None and current.target != target:
                return Action(
                    **base,
                    target=_shown(target),
                    no_elimination=target == _NO_ELIM,
                    step=step,
                    counted=False,
                    why_not="was not voting for that target",
                    corrected=corrected,
                )
        if current is None:
            return Action(
                **base,
                target=_shown(target),
                no_elimination=target == _NO_ELIM,
                step=step,
                counted=False,
                why_not="no vote to remove",
                corrected=corrected,
            )
        del votes[seat]
        return Action(
            **base,
            target=_shown(current.target),
            no_elimination=current.target == _NO_ELIM,
            step=step,
            counted=True,
            why_not=None,
            corrected=corrected,
        )
    if command.action != "vote":
        return Action(
            **base,
            target=None,
            no_elimination=False,
            step=None,
            counted=False,
            why_not=f"not a {command.action} game",
            corrected=corrected,
        )
    resolution = resolve_name(command.target or "", roster, alive=frozenset(living))
    if resolution.no_elimination:
        target = _NO_ELIM
    elif resolution.seat is None:
        return Action(
            **base,
            target=None,
            no_elimination=False,
            step=resolution.step,
            counted=False,
            why_not=resolution.reason or "unknown name",
            corrected=corrected,
        )
    elif resolution.seat not in living:
        return Action(
            **base,
            target=resolution.seat,
            no_elimination=False,
            step=resolution.step,
            counted=False,
            why_not="target is dead",
            corrected=corrected,
        )
    else:
        target = resolution.seat
    if current is None or current.target != target:
        votes[seat] = _Vote(target, order)
    return Action(
        **base,
        target=_shown(target),
        no_elimination=target == _NO_ELIM,
        step=resolution.step,
        counted=True,
        why_not=None,
        corrected=corrected,
    )


def _shown(target: str | None) -> str | None:
    return None if target == _NO_ELIM else target


def _wagons(votes: dict[str, _Vote], living: Sequence[str], weights: dict[str, float]):
    alive = set(living)
    by_target: dict[str, list[tuple[tuple[int, int], str]]] = {}
    for voter, vote in votes.items():
        if voter in alive and _counts(vote, alive):
            by_target.setdefault(vote.target, []).append((vote.order, voter))
    wagons = []
    no_elim = NoEliminationCount()
    for target, cast in by_target.items():
        cast.sort()
        voters = tuple(v for _, v in cast)
        total = sum(weights.get(v, 1) for v in voters)
        if target == _NO_ELIM:
            no_elim = NoEliminationCount(total, voters)
        else:
            wagons.append((-total, cast[0][0], Wagon(target, total, voters)))
    wagons.sort(key=lambda w: (w[0], w[1]))
    return tuple(w for *_, w in wagons), no_elim


def _standing(ruleset: Ruleset, votes, living: tuple[str, ...], weights, post: int | None) -> Standing:
    wagons, no_elim = _wagons(votes, living, weights)
    voting = sum(1 for s in living if s in votes and _counts(votes[s], living))
    return Standing(
        post=post,
        living=living,
        majority=ruleset.majority_for(len(living)),
        wagons=tuple((w.target, w.votes) for w in wagons),
        no_elimination=no_elim.votes,
        voters=len(living),
        voting=voting,
    )
