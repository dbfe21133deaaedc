"""The days the announcements give, folded from their start and end facts, each on its own evidence.

A day is its own start and end posts, as the moderator's posts give them; a day whose evidence does
not fit its neighbours' (a day number skipped, a day that starts before the one before it ends, an
end before its start) is told as a note for the moderator to check, never made to fit by moving
the other days.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from assistant.reading.announcements.facts import DayEnd, DayStart


class DayDoubt(Enum):
    """What does not fit in a day's evidence."""

    GAP = "gap"  # days on either side read, this one neither started nor ended
    OVERLAP = "overlap"  # it starts before the day before it ends
    ENDS_BEFORE_START = "ends before start"


@dataclass(frozen=True)
class DayBounds:
    """A day as the announcements give it: its start and end (each the last read, as a file keeps
    it)."""

    day: int
    start: DayStart | None
    end: DayEnd | None


@dataclass(frozen=True)
class DayNote:
    day: int
    doubt: DayDoubt
    words: str  # the note as the moderator reads it
    evidence: tuple[DayStart | DayEnd, ...]  # the facts that do not fit

    def __str__(self) -> str:
        return f"day {self.day}: {self.words}: check [[days]]"


def fold_days(starts: Sequence[DayStart], ends: Sequence[DayEnd]) -> list[DayBounds]:
    """Each day the facts name, in day order, with its last start and last end read."""
    last_start = {s.day: s for s in starts}
    last_end = {e.day: e for e in ends}
    return [
        DayBounds(day, last_start.get(day), last_end.get(day))
        for day in sorted(last_start.keys() | last_end.keys())
    ]


def day_notes(days: Sequence[DayBounds]) -> list[DayNote]:
    """The days whose evidence does not fit: each told once, for that day alone."""
    notes = [
        DayNote(
            d.day,
            DayDoubt.ENDS_BEFORE_START,
            f"ends at post {d.end.post}, before it starts at post {d.start.post}",
            (d.start, d.end),
        )
        for d in days
        if d.start is not None and d.end is not None and d.end.post < d.start.post
    ]
    for before, after in zip(days, days[1:], strict=False):
        notes.extend(_gap(before, after))
        if (
            after.day == before.day + 1
            and before.end is not None
            and after.start is not None
            and after.start.post < before.end.post
        ):
            notes.append(
                DayNote(
                    after.day,
                    DayDoubt.OVERLAP,
                    f"starts at post {after.start.post}, "
                    f"before day {before.day} ends at post {before.end.post}",
                    (before.end, after.start),
                )
            )
    return sorted(notes, key=lambda note: note.day)


def _gap(before: DayBounds, after: DayBounds) -> list[DayNote]:
    """The days between two read that the announcements neither start nor end."""
    evidence = tuple(f for f in (before.start, before.end, after.start, after.end) if f is not None)
    return [
        DayNote(
            day,
            DayDoubt.GAP,
            f"no start or end read between day {before.day} and day {after.day}",
            evidence,
        )
        for day in range(before.day + 1, after.day)
    ]
