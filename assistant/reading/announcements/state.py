"""Where the reading of a thread stands: the day, whether it is night, who is dead, and the facts
read so far."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field, replace
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
    DeathTakenBack,
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


@dataclass(frozen=True)
class PhaseState:
    """Where the game stands as the reading goes: the day, whether it is night, and what is known of
    how the day began and ended. Changed only by :class:`State`'s transitions, each a new value."""

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
    # the moderator declared the game won: later posts are talk about it, no news of deaths
    over: bool = False
    won_in_day: WonInDay | None = None


@dataclass
class State:
    phase: PhaseState = PhaseState()
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

    def drop(self, fact: Fact) -> None:
        """Take back a fact read earlier, which a later reading tells otherwise."""
        self.facts.of_kind(fact).remove(fact)
        self.quiet_facts.discard(fact)

    def redate(self, death: DeathFact, dated: DeathFact) -> None:
        """``dated`` is ``death`` in the phase it belongs to: it takes its place, read as quietly."""
        self.facts.deaths[self.facts.deaths.index(death)] = dated
        self.told.setdefault(dated.cite.post, set()).add(dated.phase)
        if death in self.quiet_facts:
            self.quiet_facts.discard(death)
            self.quiet_facts.add(dated)

    def take_back_death(self, death: DeathFact, cite: Cite) -> None:
        """A death told during the day, taken back by the day's next complete count (``cite``):
        told as taken back, so that a file kept live drops it too; its seat lives unless another
        fact kills it."""
        self.drop(death)
        self.add(DeathTakenBack(death.player, death.phase, death.cite.post, cite))
        f = self.facts
        if not any(e.player == death.player for e in f.elims) and not any(
            d.player == death.player for d in f.deaths
        ):
            self.dead.discard(death.player)

    def leave_out_of_count(self, counted_out: CountedOut) -> None:
        """A seat a day's count leaves out: dead once the thread shows it (:meth:`confirm_death`)."""
        self.counted_out.append(counted_out)

    def confirm_death(self, death: DeathFact) -> None:
        """A death read from a count that left the seat out, confirmed when the reading ends."""
        self.facts.deaths.append(death)

    def list_living(self, day: int, living: set[str]) -> frozenset[str]:
        """Note the seats a count of ``day`` lists living; give those its earlier counts listed."""
        listed = self.listed_living.setdefault(day, set())
        before = frozenset(listed)
        listed |= living
        return before

    def keep_unplaced(self, new: str, old: str) -> None:
        """A replacement between accounts no seat holds yet, kept until one turns up in a seat."""
        self.unplaced.append((new, old))

    def add_earlier_account(self, seat: str, account: str) -> None:
        """``account`` held ``seat`` before the account the player list names."""
        self.earlier.setdefault(seat, []).append(account)

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
        phase = self.phase
        if phase.day and not phase.night and not phase.ended:
            self.add(DayEnd(phase.day, post.number, cite))
            phase = replace(phase, ended=True, night_post=post.number)
        # a day that ends gives way to the night
        self.phase = replace(phase, night=bool(phase.day))

    # The phase's transitions: each change of the day, the night and what is known of them is one
    # of these, so that the rules say which transition they make.

    def take_day_one_from_opening(self) -> None:
        """The opening post starts day 1, unless a later post does (``implicit``)."""
        self.phase = replace(self.phase, day=1, night=False, ended=False, implicit=True)

    def begin_night_zero(self) -> None:
        """A Night 0 opens the game: day 1's start and deadline read from the opening are set aside
        (kept in ``day_one`` for a Night 0 whose end the reader never sees)."""
        f = self.facts
        self.day_one = (
            [s for s in f.starts if s.day == 1],
            [d for d in f.deadlines if d.day == 1],
        )
        f.starts[:] = [s for s in f.starts if s.day != 1]
        f.deadlines[:] = [d for d in f.deadlines if d.day != 1]
        self.phase = replace(self.phase, day=0, night=True, ended=False, implicit=False)

    def keep_day_one_unseen(self) -> None:
        """The thread read, day 1 never started: its start from the opening stands after all."""
        if not any(s.day == 1 for s in self.facts.starts):
            self.facts.starts[:0], self.facts.deadlines[:0] = self.day_one

    def start_day_one_here(self, post: int, deadline: datetime | None, cite: Cite) -> None:
        """ "Day 1 has begun" after the opening: day 1 starts here, not with the opening post (what
        the opening gave for day 1 is dropped)."""
        self.phase = replace(self.phase, implicit=False)
        self.facts.starts[:], self.facts.deadlines[:] = [], []
        self.start_day(1, post, deadline, cite)

    def open_day(
        self, day: int, post: int, deadline: datetime | None, cite: Cite, told_at: int | None = None
    ) -> None:
        """Day ``day`` starts at ``post``: no longer night, nothing of it ended or lynched yet."""
        self.phase = replace(self.phase, day=day, night=False, ended=False, lynched=False)
        self.start_day(day, post, deadline, cite, told_at)

    def move_to_named_day(
        self, day: int, post: PostLike, deadline: datetime | None, cite: Cite, inferred: bool
    ) -> None:
        """A sentence names a later day (or the same day again after a night word): the open day
        ends here and that day starts; ``inferred`` when only its stated numbers start it."""
        self.phase = replace(self.phase, inferred_start=post.number if inferred else None)
        self.end_day(post, cite)
        self.open_day(day, post.number, deadline, cite)

    def restart_inferred_day(self, post: int, deadline: datetime | None, cite: Cite) -> None:
        """The day started from its stated numbers is started by name before any player posted: its
        start (and deadline) move to this post."""
        f, day, inferred = self.facts, self.phase.day, self.phase.inferred_start
        f.starts[:] = [s for s in f.starts if not (s.day == day and s.post == inferred)]
        f.deadlines[:] = [d for d in f.deadlines if not (d.day == day and d.post == inferred)]
        self.phase = replace(self.phase, inferred_start=None)
        self.start_day(day, post, deadline, cite)

    def confirm_inferred_start(self) -> None:
        """A player posted in the day: a start inferred from its stated numbers stands."""
        self.phase = replace(self.phase, inferred_start=None)

    def fall_night(self, post: PostLike, cite: Cite) -> None:
        """Night falls: the open day ends, and it is night even before any day (a "Night 0")."""
        self.end_day(post, cite)
        self.phase = replace(self.phase, night=True)

    def end_day_by_lynch(self, post: PostLike, cite: Cite) -> None:
        """The day's lynch (or no-lynch) is told: the day ends, by it."""
        self.end_day(post, cite)
        self.phase = replace(self.phase, lynched=True)

    def reopen_day(self) -> None:
        """ "The day's still on": the day ended by mistake is open again; its end, and a lynch told
        with it, are taken back."""
        f, day, ended_at = self.facts, self.phase.day, self.phase.night_post
        if ended_at is None:
            return  # no day ended
        taken_back = [e for e in f.elims if e.day == day and e.post >= ended_at]
        f.elims[:] = [e for e in f.elims if e not in taken_back]
        f.ends[:] = [e for e in f.ends if not (e.day == day and e.post == ended_at)]
        self.dead -= {e.player for e in taken_back}
        self.phase = replace(self.phase, night=False, ended=False, lynched=False)

    def note_nights_numbered_by_day(self) -> None:
        """ "Day 1 ... Night 1": a night takes its day's number."""
        self.phase = replace(self.phase, nights_numbered_by_day=True)

    def note_dawn(self, post: int, words: str) -> None:
        """The moderators' first post after the day ended, whatever it says."""
        self.phase = replace(self.phase, dawn=Dawn(post, words))

    def tell_won_in_day(self, post: int, cite: Cite) -> None:
        """The game told won while a day is open: the post ends that day (if nothing else does)."""
        self.phase = replace(self.phase, won_in_day=WonInDay(post, cite))

    def declare_game_over(self) -> None:
        """The game is over: later posts tell no deaths."""
        self.phase = replace(self.phase, over=True)

    def resume_game(self) -> None:
        """A day starts after the game was told over: the words were flavour."""
        self.phase = replace(self.phase, over=False)

    # What the reading keeps beside the phase.

    def read_post(self, number: int, after_post: int | None) -> None:
        """The post to be read next: quietly when the caller already knows it."""
        self.quiet = after_post is not None and number <= after_post

    def read_aloud(self) -> None:
        """What is read from here on is told, whatever the caller knew."""
        self.quiet = False

    def note_count_day(self, day: int | None) -> None:
        """The day the vote count in the post being read is for (None: no count)."""
        self.count_day = day

    def keep_wagons(self, wagons: Wagons) -> None:
        """The day's last count that gives each wagon's votes and what a lynch takes."""
        self.wagons = wagons

    def note_replaced(self, post: int, name: str) -> None:
        """ "Alder has been replaced.": the successor is named in a later sentence."""
        self.replaced = Replaced(post, name)
