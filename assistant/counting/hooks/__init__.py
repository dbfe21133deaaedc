"""Rule hooks: the behaviour a ruleset's data cannot express, one small class per module, found by
name.

A ruleset switches hooks on with ``[hooks] use = ["judge", ...]``;
:func:`assistant.counting.hooks.registry.find_hook` maps each name to its class (like python-chess's
``find_variant``). The day replay (:mod:`assistant.counting.day_replay`) calls every hook of the day
at the same few points and never learns a hook's name; this module is the contract between them (the
base class, its verdicts, and :class:`DayView`, what a hook may read of the day). A hook overrides
only the methods it needs; each default changes nothing. Every hook reads the game file through
``self.day`` (``day.game``, ``day.ruleset``, ``day.number``, ``day.living(post)``,
``day.earlier(n)``: an earlier day's result), and may end the day's vote at a post with
``day.end_day(outcome)`` (a Loose Cannon's shot: later votes count for nothing; the outcome is
settled like any other).

    check_voter(seat, alive, verdict) -> Verdict   may this seat vote now? (default: the living may)
    check_vote(seat, target, action, post) -> Verdict | None   refuse a vote, or mark it (a nomination)
    voters(seats, living) -> list                 the seats whose votes count (sequestered out, dead tokens in)
    targets(seats) -> set                          the seats that may be voted off
    weight(seat, post, weight) -> float           a vote's weight (a sheriff's counts double)
    at_post(post)                                  before each post (None: before the first): declared events
    on_death(seat, post)                           a voter died during the day
    standing(standing) -> Standing                 adjust the count the rules decide on
    settle(outcome) -> Outcome                     a role's decision, a save: change how the day ends
    flags(living, voting, over) -> [Flag]          warnings for the moderator (and drafts)
    votal(fields)                                  add to the finished votal's fields (nominations)

Adding a rule: a module here with a :class:`Hook` subclass whose ``name`` is the ruleset's word,
listed in :data:`assistant.gamefile.rules.HOOK_MODULES`. A private fact that voids a vote returns
``Verdict(False, why=..., private=True)``: players see
:attr:`assistant.gamefile.outcome.WhyNot.RULED_OUT`, the moderator's count and audit see ``why``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, Protocol

if TYPE_CHECKING:
    from datetime import datetime

    from assistant.counting.clock import DayBounds
    from assistant.counting.votal import Action, DayResult, Flag, Runoff
    from assistant.counting.votes import VoteBook
    from assistant.gamefile.game import Game
    from assistant.gamefile.outcome import Outcome
    from assistant.gamefile.rules import Ruleset, Standing
    from assistant.reading.names import Resolution, Roster
    from parsers.reading import ReadPost

# The methods the day replay calls, in the order of the table above.
HOOK_POINTS = (
    "check_voter",
    "check_vote",
    "voters",
    "targets",
    "weight",
    "at_post",
    "on_death",
    "standing",
    "settle",
    "flags",
    "votal",
)

# Each hook point -> the bound methods of the day's hooks that override it. A point's methods share
# its signature (the table above); the points differ, so one list type holds any.
Hooked = dict[str, list[Callable[..., Any]]]


@dataclass(frozen=True)
class Verdict:
    """A hook's word on a voter or a vote. ``problem``: list it for the moderator as a vote that did
    not count; ``private``: the reason is a private fact (players see only that it was ruled
    out)."""

    counted: bool = True
    why: str | None = None
    problem: bool = False
    private: bool = False
    nomination: bool = False  # the vote nominated its target (clocktower)


class Decision(NamedTuple):
    pick: str  # a seat, or "none"
    post: int | None  # where it was made, when the game file says


class ReplayView(Protocol):
    """What a hook may read of the whole replay
    (:class:`assistant.counting.day_replay.GameReplay`)."""

    @property
    def at_post(self) -> int | None: ...  # the as-of post (None: everything)
    @property
    def at_time(self) -> datetime | None: ...
    @property
    def posts(self) -> Sequence[ReadPost]: ...  # the thread, in post order
    @property
    def roster(self) -> Roster: ...


class DayView(Protocol):
    """What a hook may read of its day (:class:`assistant.counting.day_replay.DayReplay` is one):
    named here, not imported, so the hooks never import the loop that calls them."""

    @property
    def r(self) -> ReplayView: ...  # the whole replay, read-only

    game: Game
    ruleset: Ruleset
    number: int
    bounds: DayBounds
    book: VoteBook
    phase: str  # day | runoff | late
    outcome: Outcome | None
    changed: bool  # a hook that moves a vote says so
    actions: list[Action]
    moderators: set[str]  # casefolded
    runoff: Runoff | None
    voted_at_deadline: frozenset[str]

    def living(self, at_post: int | None) -> tuple[str, ...]: ...
    def earlier(self, number: int) -> DayResult: ...
    def note(self, text: str) -> None: ...
    def end_day(self, outcome: Outcome) -> None: ...
    def targets(self, living: Sequence[str]) -> set[str]: ...
    def resolve(
        self, text: str, living: Collection[str], post: int | None = None
    ) -> Resolution: ...
    def in_day(self, post: ReadPost) -> bool: ...
    def after_main(self, post: ReadPost) -> bool: ...
    def over_by(
        self, end_post: int | None, end_time: datetime | None, considered: Sequence[ReadPost]
    ) -> bool: ...


class Hook:
    """One rule's behaviour on one day. Subclasses set ``name`` and override what they need."""

    name: ClassVar[str] = ""

    def __init__(self, day: DayView):
        self.day = day

    def check_voter(self, seat: str, alive: bool, verdict: Verdict) -> Verdict:
        return verdict

    def check_vote(self, seat: str, target: str | None, action: str, post: int) -> Verdict | None:
        return None

    def voters(self, seats: list[str], living: Sequence[str]) -> list[str]:
        return seats

    def targets(self, seats: set[str]) -> set[str]:
        return seats

    def weight(self, seat: str, post: int | None, weight: float) -> float:
        return weight

    def at_post(self, post: int | None) -> None:
        pass

    def on_death(self, seat: str, post: int) -> None:
        pass

    def standing(self, standing: Standing) -> Standing:
        return standing

    def settle(self, outcome: Outcome) -> Outcome:
        return outcome

    def flags(self, living: Sequence[str], voting: Iterable[str], over: bool) -> Iterable[Flag]:
        return ()

    def votal(self, fields: dict[str, Any]) -> None:
        pass
