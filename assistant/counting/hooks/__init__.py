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
from dataclasses import dataclass, field
from enum import Enum
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


class DayPhase(Enum):
    """Where a day's vote stands: the main vote, a runoff, or over (after the day's vote, before the
    next day)."""

    DAY = "day"
    RUNOFF = "runoff"
    LATE = "late"


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
    phase: DayPhase
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


@dataclass
class Hooked:
    """The methods the day replay calls, in the order of the table above: at each point, the bound
    methods of the day's hooks that override it (most days call none, cheaply)."""

    check_voter: list[Callable[[str, bool, Verdict], Verdict]] = field(default_factory=list)
    check_vote: list[Callable[[str, str | None, str, int], Verdict | None]] = field(
        default_factory=list
    )
    voters: list[Callable[[list[str], Sequence[str]], list[str]]] = field(default_factory=list)
    targets: list[Callable[[set[str]], set[str]]] = field(default_factory=list)
    weight: list[Callable[[str, int | None, float], float]] = field(default_factory=list)
    at_post: list[Callable[[int | None], None]] = field(default_factory=list)
    on_death: list[Callable[[str, int], None]] = field(default_factory=list)
    standing: list[Callable[[Standing], Standing]] = field(default_factory=list)
    settle: list[Callable[[Outcome], Outcome]] = field(default_factory=list)
    flags: list[Callable[[Sequence[str], Iterable[str], bool], Iterable[Flag]]] = field(
        default_factory=list
    )
    votal: list[Callable[[dict[str, Any]], None]] = field(default_factory=list)

    def fill(self, hooks: Sequence[Hook]) -> None:
        """Each point's methods from the hooks that override it, in the hooks' order (set in place:
        the day's parts hold this object from before the hooks, which read them, exist)."""

        def overriding(name: str) -> list[Hook]:
            return [h for h in hooks if getattr(type(h), name) is not getattr(Hook, name)]

        self.check_voter = [h.check_voter for h in overriding("check_voter")]
        self.check_vote = [h.check_vote for h in overriding("check_vote")]
        self.voters = [h.voters for h in overriding("voters")]
        self.targets = [h.targets for h in overriding("targets")]
        self.weight = [h.weight for h in overriding("weight")]
        self.at_post = [h.at_post for h in overriding("at_post")]
        self.on_death = [h.on_death for h in overriding("on_death")]
        self.standing = [h.standing for h in overriding("standing")]
        self.settle = [h.settle for h in overriding("settle")]
        self.flags = [h.flags for h in overriding("flags")]
        self.votal = [h.votal for h in overriding("votal")]
