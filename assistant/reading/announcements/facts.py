"""The facts the thread reader gives: each one cites the post and the moderator's own words."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, Protocol


class PostLike(Protocol):
    @property
    def number(self) -> int: ...

    @property
    def author(self) -> str: ...

    @property
    def body_html(self) -> str: ...

    @property
    def time(self) -> datetime | None: ...


@dataclass(frozen=True)
class Cite:
    """Where a fact comes from: the post's number and the moderator's words (one trimmed line)."""

    post: int
    words: str


@dataclass(frozen=True)
class PlayerFact:
    """One seat of the player list: its first account, later accounts in order, and whether it is
    marked dead."""

    name: str
    replacements: tuple[str, ...]
    dead: bool
    cite: Cite


@dataclass(frozen=True)
class DayStart:
    day: int
    post: int
    deadline: datetime | None  # UTC, when the announcement states one
    cite: Cite


@dataclass(frozen=True)
class DayEnd:
    day: int
    post: int
    cite: Cite


@dataclass(frozen=True)
class Elimination:
    """A day's lynch (``player`` is the seat name) or no-lynch (``player`` None)."""

    day: int
    player: str | None
    post: int
    cite: Cite


class DeathCause(StrEnum):
    """How a seat died other than by its day's lynch."""

    NIGHT_KILL = "night kill"
    DAY_KILL = "day kill"
    MODKILL = "modkill"
    # read only from a day's count that no longer lists the seat: dated to the night before the
    # count, though a lynch the moderator told in words the reader missed looks the same
    COUNTED_OUT = "left out of a count"


class DeadlineKind(StrEnum):
    """A day's deadline as first announced, or moved by an extension."""

    DEADLINE = "deadline"
    EXTENSION = "extension"


@dataclass(frozen=True)
class DeathTakenBack:
    """A death told at ``told_at`` that the moderator's next complete count of the day takes back
    (it lists the seat, whose player went on posting): a joke or a mistake, cited by that count."""

    player: str  # seat name
    phase: str
    told_at: int
    cite: Cite


@dataclass(frozen=True)
class DeathFact:
    """A death other than by lynch. ``phase`` is "night N" or "day N"; ``post`` is set for a kill
    during a day."""

    player: str  # seat name
    phase: str
    post: int | None
    cause: DeathCause
    cite: Cite


@dataclass(frozen=True)
class ReplacementFact:
    player: str  # seat name (the seat's first account)
    new: str  # the account that takes the seat over
    post: int
    cite: Cite


@dataclass(frozen=True)
class DeadlineFact:
    """A day's deadline as announced or moved."""

    day: int
    time: datetime  # UTC
    post: int
    kind: DeadlineKind
    cite: Cite


Fact = DayStart | DayEnd | Elimination | DeathFact | ReplacementFact | DeadlineFact | DeathTakenBack
# the kinds in the order of FactLog's fields
_KINDS = (DayStart, DayEnd, Elimination, DeathFact, ReplacementFact, DeadlineFact, DeathTakenBack)


@dataclass
class FactLog:
    """The facts read so far, one list per kind, each in the order read."""

    starts: list[DayStart] = field(default_factory=list)
    ends: list[DayEnd] = field(default_factory=list)
    elims: list[Elimination] = field(default_factory=list)
    deaths: list[DeathFact] = field(default_factory=list)
    replacements: list[ReplacementFact] = field(default_factory=list)
    deadlines: list[DeadlineFact] = field(default_factory=list)
    taken_back: list[DeathTakenBack] = field(default_factory=list)

    def of_kind(self, fact: Fact) -> list[Any]:
        """The list a fact of this kind goes in (its element type is the fact's own)."""
        return dict(zip(_KINDS, self.lists(), strict=True))[type(fact)]

    def lists(self) -> tuple[list[Any], ...]:
        """Every kind's list, in the order of the fields."""
        return (
            self.starts,
            self.ends,
            self.elims,
            self.deaths,
            self.replacements,
            self.deadlines,
            self.taken_back,
        )

    def without(self, left_out: set[Fact]) -> FactLog:
        """A copy with the facts of ``left_out`` taken out."""
        return FactLog(*([f for f in facts if f not in left_out] for facts in self.lists()))


@dataclass(frozen=True)
class ThreadFacts:
    title: str | None
    moderators: tuple[str, ...]
    moderators_cite: Cite | None
    players: tuple[PlayerFact, ...]
    day_starts: tuple[DayStart, ...]
    day_ends: tuple[DayEnd, ...]
    eliminations: tuple[Elimination, ...]
    deaths: tuple[DeathFact, ...]
    replacements: tuple[ReplacementFact, ...]
    deadlines: tuple[DeadlineFact, ...]
    problems: tuple[str, ...] = ()
    deaths_taken_back: tuple[DeathTakenBack, ...] = ()

    def seat_accounts(self) -> dict[str, tuple[str, ...]]:
        """Each seat's accounts in order: the list's, then the announced replacements."""
        seats = {p.name: [p.name, *p.replacements] for p in self.players}
        for r in self.replacements:
            accounts = seats.setdefault(r.player, [r.player])
            if r.new.casefold() not in (a.casefold() for a in accounts):
                accounts.append(r.new)
        return {name: tuple(accounts) for name, accounts in seats.items()}
