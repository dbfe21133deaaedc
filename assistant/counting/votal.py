"""What a day's replay gives: the votal and its parts, as values that import nothing of the replay
(hooks, drafts, alerts and the site read them without loading the loop).

Public shape (stable; :meth:`Votal.to_json` is what ``votal count --format json``, drafts, export
and the site read)::

    day            int     the day number
    alive          int     living seats as of the as-of point
    majority       int     votes needed for a majority of the living (null under plurality rules with no
                           threshold: clocktower-forum, millers-hollow)
    as_of_post     int     the last post the votal includes (None when the day has no posts yet)
    wagons         list    {"target", "votes", "voters": [seat, ...]}: votes desc, then earliest wagon;
                           voters in the order their standing votes were cast. ``votes`` is
                           weighted.
    no_elimination {"votes", "voters"}: sleep / no lynch / abstain votes
    not_voting     list    living seats with no standing vote, in game-file order
    outcome        {"kind", "target", "post", "reason"} or null while the day is undecided; kind is an
                           outcome.Kind (elimination | no_elimination | pending), reason an
                           outcome.Reason; post is the deciding post (the last counted post when a
                           deadline decided); "survived" is added when a lynch failed
                           (witchhunt-9.0's Deacon)
    problems       list    {"post", "voter", "text", "reason"}: votes that did not count and why (a vote a
                           private fact voids is only an action, with why_not "ruled out by the
                           moderator")
    deadline       str     ISO 8601 UTC deadline (extensions included), or null
    living         list    living seats as of the as-of point, in game-file order
    ruleset        str     the ruleset's name
    actions        list    every command read this day: {"post", "voter", "author", "text", "action",
                           "target", "no_elimination", "step", "counted", "why_not", "corrected",
                           "url", "nomination"}; action is the command as typed (vote | unvote |
                           nominate); "nomination" (bool) is true for the vote that nominated its
                           target (clocktower)
    changes        list    {"post", "voter", "votes": [{"target", "post"}, ...]}: each change of a voter's
                           standing votes, in order (target null: no elimination); read by
                           votes.standing_steps
    nominations    list    clocktower only: {"nominator", "nominee", "post", "votes", "voters"}
    runoff         object  Millers Hollow only: {"candidates", "deadline", "post"} or null; post is the last
                           post of the main vote, deadline null when the runoff is declared by posts
    election       object Millers Hollow, on a day with [[events]] kind = "sheriff_election": {"wagons",
                           "elected", "open_until"}, else null (the sheriff votes, never lynch
                           votes)
    lynches        list    earlier lynches of the day (game file lynches_per_day > 1), each like outcome
    no_elimination_majority int  votes no elimination needs to decide the day (the majority, or fewer with
                           [majority] no_elimination_below); null without a threshold or a
                           no-elimination vote
    flags          list    {"seat", "reason"}: e.g. missed two days of voting (removal), under a post minimum

With ``private`` (the moderator's ``count --format json``) two lists follow: ``doubts`` (what may
change the outcome: {"post", "kind", "target", "why"}) and ``notes`` (the same shape, kind "note":
what changes nothing).

Seats are named by their first ``name`` in the game file. Private facts of the game file (the Judge,
lovers, a sequestered player...) change outcomes but never appear in any of these fields;
``to_json(private=True)`` (the moderator's ``count`` and ``audit``) adds the real reasons and notes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields, is_dataclass
from datetime import datetime
from typing import Any

from assistant.counting.clock import iso_utc
from assistant.counting.votes import Change, Vote, show_votes
from assistant.gamefile.outcome import Outcome
from assistant.reading.names import Step


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
    """A vote that did not count, for the moderator to see. ``voter`` is the seat, else the
    account."""

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
    step: Step | None  # how the name was resolved
    counted: bool
    why_not: str | None
    corrected: bool = False
    url: str | None = None  # the post's permalink
    nomination: bool = False  # clocktower: this vote nominated its target
    # why a reading may be wrong ("learned alias", "broken tag"...); on a refused vote, why the
    # refusal may be
    doubt: str | None = None
    # The real reason when a private fact voided the vote (why_not reads WhyNot.RULED_OUT): only the
    # moderator's count and audit show it.
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
    """Millers Hollow: a day's sheriff election, tallied apart from the lynch. ``elected`` once it
    has closed with one leader; ``open_until`` while a tie (or the lynch's runoff) keeps it open two
    more hours."""

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
    lynches: tuple[
        Outcome, ...
    ] = ()  # earlier lynches this day (lynches_per_day > 1), before ``outcome``
    no_elimination_majority: int | None = (
        None  # votes no elimination needs (the majority unless the rules lower it)
    )
    # The moderator's own posted counts where they place a voter otherwise than Votal did as of that
    # post (assistant.counting.votecounts.Disagreement): for the moderator's count and audit, not
    # the players' page.
    count_checks: tuple[Any, ...] = field(default=(), repr=False, compare=False)
    # Moderator-only notes (why a private fact changed something). Never serialised, never shown to
    # players.
    private_notes: tuple[str, ...] = field(default=(), repr=False, compare=False)
    # What may be wrong with this count (assistant.counting.doubts.Doubt), worked out from the rest:
    # moderator-only.
    doubts: tuple[Any, ...] = field(default=(), repr=False, compare=False)

    def to_json(self, *, private: bool = False) -> dict[str, Any]:
        """The votal as JSON; ``private`` (the moderator's count and audit) adds the real reasons
        and notes, the doubts under ``doubts``, what changes nothing under ``notes`` (docs/json)."""
        data: dict[str, Any] = to_json(self, private=private)  # a dataclass: a JSON object
        if private:
            data["doubts"] = [d.to_json() for d in self.doubts if not d.note]
            data["notes"] = [d.to_json() for d in self.doubts if d.note]
        return data


def to_json(value: Any, *, private: bool = False) -> Any:
    """A result as JSON: dataclass fields in order (the moderator-only ones, ``repr=False``, when
    ``private``), vote counts as people write them, times in ISO 8601 UTC."""
    if hasattr(value, "to_json") and not isinstance(value, Votal):
        return value.to_json()  # an Outcome, a vote Change
    if is_dataclass(value):
        return {
            f.name: to_json(getattr(value, f.name), private=private)
            for f in fields(value)
            if f.repr or private
        }
    if isinstance(value, tuple | list):
        return [to_json(v, private=private) for v in value]
    if isinstance(value, float):
        return show_votes(value)
    if isinstance(value, datetime):
        return iso_utc(value)
    return value


@dataclass
class DayResult:
    """A replayed day: its votal, and what later days' rules read from it."""

    votal: Votal
    final_votes: dict[str, list[Vote]]  # the standing votes when the day was decided (or now)
    voted_at_deadline: frozenset[str]  # seats holding a vote when the deadline passed (or now)


def rank_wagons(
    by_target: dict[str | None, list[tuple[tuple[int, int], str]]],
    weight: Callable[[str], float] = lambda _: 1,
) -> tuple[tuple[Wagon, ...], NoEliminationCount]:
    """The wagons (most votes first, then the wagon whose standing vote was cast first) and the
    no-elimination count, from each target's (when cast, voter) votes; voters listed in the order
    they voted."""
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
