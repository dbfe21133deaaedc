"""The facts the thread reader gives: each one cites the post and the moderator's own words."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol


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
    """One seat of the player list: its first account, later accounts in order, and whether it is marked dead."""

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


@dataclass(frozen=True)
class DeathTakenBack:
    """A death told at ``told_at`` that the moderator's next complete count of the day takes back (it lists the
    seat, whose player went on posting): a joke or a mistake, cited by that count."""

    player: str  # seat name
    phase: str
    told_at: int
    cite: Cite


@dataclass(frozen=True)
class DeathFact:
    """A death other than by lynch. ``phase`` is "night N" or "day N"; ``post`` is set for a kill during a day."""

    player: str  # seat name
    phase: str
    post: int | None
    cause: str  # "night kill", "day kill", "modkill" or COUNTED_OUT
    cite: Cite


# The cause of a death read only from a day's count that no longer lists the seat: dated to the night
# before the count, though a lynch the moderator told in words the reader missed looks the same.
COUNTED_OUT = "left out of a count"


@dataclass(frozen=True)
class ReplacementFact:
    player: str  # seat name (the seat's first account)
    new: str  # the account that takes the seat over
    post: int
    cite: Cite


@dataclass(frozen=True)
class DeadlineFact:
    """A day's deadline as announced (``kind`` "deadline") or moved (``kind`` "extension")."""

    day: int
    time: datetime  # UTC
    post: int
    kind: str
    cite: Cite


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
