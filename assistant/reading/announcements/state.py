"""Where the reading of a thread stands: the day, whether it is night, who is dead, and the facts
read so far."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple

from assistant.reading.announcements.accounts import Names
from assistant.reading.announcements.facts import (
    Cite,
    DayEnd,
    DayStart,
    DeadlineFact,
    DeadlineKind,
    DeathFact,
    Elimination,
    Fact,
    FactLog,
    PostLike,
)


class Dawn(NamedTuple):
    """The moderators' first post after a day ended, and its first line."""

    post: int
    words: str


class Wagons(NamedTuple):
    """A day's vote count that gives both each wagon's votes (by seat) and what a lynch takes."""

    day: int
    votes: dict[str | None, int]
    needed: int


class WonInDay(NamedTuple):
    """The game told won while a day was open: the post and the words."""

    post: int
    cite: Cite


class Replaced(NamedTuple):
    """ "Alder has been replaced.": the post and the name, its successor still to be named."""

    post: int
    name: str


class CountedOut(NamedTuple):
    """A seat a day's count left out: dead once its player posts no more that day."""

    death: DeathFact
    day: int
    quiet: bool
    complete: bool  # the count states the number alive and lists that many


@dataclass
class State:
    day: int = 0
    night: bool = True  # before day 1 starts
    ended: bool = False  # the current day has ended (lynch or night)
    lynched: bool = False  # ... by its lynch or no-lynch
    implicit: bool = False  # day 1 was taken to start with the opening post
    night_post: int | None = None  # the post that ended the last day
    dawn: Dawn | None = None
    # a day started only by its numbers stated at night, no player posted since
    inferred_start: int | None = None
    # a night was named with its day's number ("Day 1" then "Night 1")
    nights_numbered_by_day: bool = False
    count_day: int | None = None  # the day the vote count in the post being read is for
    wagons: Wagons | None = None  # of the day's last count that gives them
    # the post being read is one the caller already knows: follow it, record nothing
    quiet: bool = False
    # post -> the phases of the deaths it told, also when read quietly
    told: dict[int, set[str]] = field(default_factory=dict)
    dead: set[str] = field(default_factory=set)  # seats read dead, also from posts read quietly
    posts_by_seat: dict[str, list[int]] = field(default_factory=dict)  # seat -> its accounts' posts
    # day -> the seats its counts list living
    listed_living: dict[int, set[str]] = field(default_factory=dict)
    # the moderator declared the game won: later posts are talk about it, no news of deaths
    over: bool = False
    won_in_day: WonInDay | None = None
    # day 1's start and deadline as the opening gave them, taken back by a Night 0
    day_one: tuple[list[DayStart], list[DeadlineFact]] = field(default_factory=lambda: ([], []))
    counted_out: list[CountedOut] = field(default_factory=list)
    replaced: Replaced | None = None
    # (new, old): a replacement between accounts no seat holds yet
    unplaced: list[tuple[str, str]] = field(default_factory=list)
    # seat -> accounts that held it before the one the list names
    earlier: dict[str, list[str]] = field(default_factory=dict)
    authors: Names | None = None  # the thread's posters: a new account is spelled as it posts
    # (seat, account casefolded): the later accounts this reading's list gives
    listed: frozenset[tuple[str, str]] = frozenset()
    facts: FactLog = field(default_factory=FactLog)
    # the facts read quietly: followed, not told
    quiet_facts: set[Fact] = field(default_factory=set)

    def add(self, fact: Fact) -> None:
        """Record a fact of the post being read. One read quietly is kept too, so that the reading
        goes on from it exactly as a reading of the whole thread does (a day's lynch already told,
        its start already read), and is left out of what the reader gives (:meth:`told_facts`)."""
        if isinstance(fact, (DeathFact, Elimination)) and fact.player:
            self.dead.add(fact.player)
        if isinstance(fact, DeathFact):
            self.told.setdefault(fact.cite.post, set()).add(fact.phase)
        self.facts.of_kind(fact).append(fact)
        if self.quiet:
            self.quiet_facts.add(fact)

    def told_facts(self) -> FactLog:
        """The facts of the posts read aloud (after the caller's ``after_post``)."""
        return self.facts.without(self.quiet_facts)

    def snapshot(self) -> State:
        """A copy to go back to, each container copied as deep as a reading changes it. What a
        reading never changes is shared: the thread's posters, each seat's posts, the facts
        (frozen)."""
        return dataclasses.replace(
            self,
            facts=FactLog(*(list(facts) for facts in self.facts.lists())),
            told={post: set(phases) for post, phases in self.told.items()},
            dead=set(self.dead),
            listed_living={day: set(seats) for day, seats in self.listed_living.items()},
            counted_out=list(self.counted_out),
            unplaced=list(self.unplaced),
            earlier={seat: list(accounts) for seat, accounts in self.earlier.items()},
            quiet_facts=set(self.quiet_facts),
        )

    def start_day(
        self, day: int, post: int, deadline: datetime | None, cite: Cite, told_at: int | None = None
    ) -> None:
        """Record a day's start, and the deadline its announcement (``told_at``, else its post)
        states."""
        self.add(DayStart(day, post, deadline, cite))
        if deadline:
            told = post if told_at is None else told_at
            self.add(DeadlineFact(day, deadline, told, DeadlineKind.DEADLINE, cite))

    def has_elimination(self, day: int) -> bool:
        return any(e.day == day for e in self.facts.elims)

    def end_day(self, post: PostLike, cite: Cite) -> None:
        if self.day and not self.night and not self.ended:
            self.add(DayEnd(self.day, post.number, cite))
            self.ended = True
            self.night_post = post.number
        self.night = bool(self.day)  # a day that ends gives way to the night
