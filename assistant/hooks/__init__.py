"""Rule hooks: the behaviour a ruleset's data cannot express, one small class per module, found by name.

A ruleset switches hooks on with ``[hooks] use = ["judge", ...]``; :func:`find_hook` maps each name to its
class (like python-chess's ``find_variant``). The day replay (:mod:`assistant.tally`) calls every hook of
the day at the same few points and never learns a hook's name. A hook overrides only the methods it needs;
each default changes nothing. Every hook reads the game file through ``self.day`` (``day.game``,
``day.ruleset``, ``day.number``, ``day.living(post)``, ``day.earlier(n)``: an earlier day's result), and may
end the day's vote at a post with ``day.end_day(outcome)`` (a Loose Cannon's shot: later votes count for
nothing; the outcome is settled like any other).

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

Adding a rule: a module here with a :class:`Hook` subclass whose ``name`` is the ruleset's word, listed in
:data:`HOOK_MODULES`. A private fact that voids a vote returns ``Verdict(False, why=..., private=True)``:
players see :attr:`assistant.outcome.WhyNot.RULED_OUT`, the moderator's count and audit see ``why``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any, ClassVar

from assistant import powers
from assistant.powers import Decision

if TYPE_CHECKING:
    from assistant.outcome import Outcome
    from assistant.rules import Standing
    from assistant.tally import DayReplay, Flag

# The bundled hooks, in the order they settle a day (a Loose Cannon's shot before the Judge, the Deacon's
# save after both).
HOOK_MODULES = (
    "loose_cannon",
    "judge",
    "deacon_holy",
    "extra_lives",
    "modkill",
    "clocktower",
    "dead_vote_token",
    "sheriff",
    "lovers",
    "sequestered",
    "missed_days",
)
# The methods the day replay calls, in the order of the table above.
HOOK_POINTS = (
    "check_voter", "check_vote", "voters", "targets", "weight", "at_post", "on_death",
    "standing", "settle", "flags", "votal",
)


@dataclass(frozen=True)
class Verdict:
    """A hook's word on a voter or a vote. ``problem``: list it for the moderator as a vote that did not
    count; ``private``: the reason is a private fact (players see only that it was ruled out)."""

    counted: bool = True
    why: str | None = None
    problem: bool = False
    private: bool = False
    nomination: bool = False  # the vote nominated its target (clocktower)


class Hook:
    """One rule's behaviour on one day. Subclasses set ``name`` and override what they need."""

    name: ClassVar[str] = ""

    def __init__(self, day: DayReplay):
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

    def decision(self, role: str) -> Decision | None:
        """The pick ``role`` made on this day, as of the replay's point (:func:`assistant.powers.decision`)."""
        return powers.decision(self.day, role)


def find_hook(name: str) -> type[Hook]:
    """The hook class registered under ``name`` (a ruleset's ``[hooks] use`` word)."""
    if name not in HOOK_MODULES:
        raise KeyError(name)
    module = import_module(f"{__name__}.{name}")
    return module.HOOK
