"""Days, nights and deadlines: when each phase starts and ends, in the game's time zone,
DST-correct.

Pure: every time comes in as an argument (there is no ``now()`` here). A day's bounds come from the
game file when it declares them (``[[days]]`` with posts or times), else from the ruleset's phase
lengths and the game's ``start``. Phase arithmetic is done on the wall clock of the game's zone, so
"days end at 10 pm New York time" stays 10 pm across a DST change. Extensions and early ends are
``[[events]]`` of the game file.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta, tzinfo
from itertools import count

from assistant.gamefile.choices import PhaseKind
from assistant.gamefile.game import EventKind, Game
from assistant.gamefile.rules import Ruleset


@dataclass(frozen=True)
class DayBounds:
    """Where a day starts and ends, by post number and/or by time (UTC). ``None``: not known
    (yet)."""

    day: int
    start_post: int | None = None
    end_post: int | None = None
    start: datetime | None = None
    end: datetime | None = None  # the deadline, extensions included
    extended_hours: float = 0


def iso_utc(moment: datetime | None) -> str | None:
    """ISO 8601 in UTC with a ``Z``, as every JSON output writes times; None stays None."""
    if moment is None:
        return None
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.isoformat().replace("+00:00", "Z")


def add_wall_hours(moment: datetime, hours: float, zone: tzinfo) -> datetime:
    """``moment`` plus ``hours`` of wall-clock time in ``zone``: 48 h after 10 pm is 10 pm, DST or
    not."""
    local = moment.astimezone(zone).replace(tzinfo=None) + timedelta(hours=hours)
    return local.replace(tzinfo=zone).astimezone(UTC)


def first_day_start(game: Game, ruleset: Ruleset) -> datetime | None:
    """Day 1's start: the game's ``start`` (moved to the ruleset's start-of-day time when it has
    one), after the first night when the game starts at night."""
    if game.start is None:
        return None
    zone = game.tz
    start = game.start
    if ruleset.sod is not None:
        hour, minute = (int(x) for x in ruleset.sod.split(":"))
        local = start.astimezone(zone)
        wanted = datetime.combine(local.date(), time(hour, minute), tzinfo=zone)
        if wanted.astimezone(UTC) < start - timedelta(minutes=1):
            wanted = datetime.combine(
                local.date() + timedelta(days=1), time(hour, minute), tzinfo=zone
            )
        start = wanted.astimezone(UTC)
    if ruleset.start_phase == PhaseKind.NIGHT and ruleset.night_hours:
        start = add_wall_hours(start, ruleset.night_hours, zone)
    return start


def day_bounds(game: Game, ruleset: Ruleset, day: int) -> DayBounds:
    """The bounds of ``day``: declared ones first, then phase lengths; extensions from the game's
    events.

    A computed day starts one night after the day before it ended, so a declared day (a Halftime day
    with its long night, a day extended or ended early) moves every computed day after it.
    """
    for bounds in iter_day_bounds(game, ruleset):
        if bounds.day == day:
            return bounds
    raise AssertionError(day)


class Timeline:
    """Every day's bounds, each worked out once (each computed day follows the one before it, so
    asking :func:`day_bounds` day by day walks the days again each time): a command makes one and
    passes it down.

    ``night_posts``: the moderators' posts that tell the night (the lynch, the night falling): under
    ``day_start = "moderator_post"`` no day opens with one of them."""

    def __init__(self, game: Game, ruleset: Ruleset, night_posts: frozenset[int] = frozenset()):
        self.game, self.ruleset, self.night_posts = game, ruleset, night_posts
        self._days: list[DayBounds] = []
        self._following = iter_day_bounds(game, ruleset)

    def day(self, number: int) -> DayBounds:
        while len(self._days) < number:
            self._days.append(next(self._following))
        return self._days[number - 1]


def iter_day_bounds(game: Game, ruleset: Ruleset) -> Iterator[DayBounds]:
    """Every day's bounds from day 1 on (endless): each computed day follows the one before it."""
    zone = game.tz
    scheduled = first_day_start(game, ruleset)
    for number in count(1):
        bounds = _bounds(game, ruleset, number, scheduled, zone)
        yield bounds
        end = bounds.end
        if end is None and scheduled is not None and ruleset.day_hours:
            end = add_wall_hours(scheduled, ruleset.day_hours, zone)  # a day declared by posts only
        scheduled = (
            add_wall_hours(end, ruleset.night_hours or 0, zone)
            if end and ruleset.day_hours
            else None
        )


def _bounds(
    game: Game, ruleset: Ruleset, day: int, scheduled: datetime | None, zone: tzinfo
) -> DayBounds:
    declared = game.day(day)
    start_post = declared.start_post if declared else None
    end_post = declared.end_post if declared else None
    start = declared.start if declared else None
    end = declared.end if declared else None
    if end_post is None:
        following = game.day(day + 1)
        if following is not None and following.start_post is not None:
            end_post = following.start_post - 1
    if start is None and start_post is None:
        start = scheduled
    if (
        end is None
        and start is not None
        and ruleset.day_hours
        and (declared is None or declared.end_post is None)
    ):
        end = add_wall_hours(start, ruleset.day_hours, zone)
    by_posts_only = declared is not None and declared.start is None and declared.end_post is None
    if (
        end is None
        and by_posts_only
        and ruleset.sod
        and scheduled is not None
        and ruleset.day_hours
    ):
        # A day declared by its first post still ends at the ruleset's hour ("until 11 am the next
        # day"): the deadline comes from the schedule, the start from the post.
        end = add_wall_hours(scheduled, ruleset.day_hours, zone)
    extended = 0.0
    for event in game.events:
        if event.day != day:
            continue
        if event.kind == EventKind.EXTEND and event.hours:
            extended += event.hours
        elif event.kind == EventKind.DEADLINE and event.time is not None:
            end = event.time
        elif event.kind == EventKind.EARLY_END or (
            event.kind == EventKind.MODKILL and "modkill" in ruleset.hooks
        ):
            if event.post is not None:
                end_post = event.post if end_post is None else min(end_post, event.post)
            if event.time is not None:
                end = event.time if end is None else min(end, event.time)
    if end is not None and extended:
        end = add_wall_hours(end, extended, zone)
    return DayBounds(day, start_post, end_post, start, end, extended)


@dataclass(frozen=True)
class Phase:
    """Which phase a moment falls in: ("day" | "night", number), with that phase's start and end
    (UTC)."""

    kind: str
    number: int
    start: datetime | None
    end: datetime | None


def phase_at(game: Game, ruleset: Ruleset, moment: datetime, *, limit: int = 400) -> Phase | None:
    """The phase ``moment`` falls in, from the days' bounds (declared times, else phase lengths).

    None when the game's days have no times (declared by posts only, no ``start``), or before day 1.
    Night N runs from the end of day N to the start of day N+1.
    """
    previous: DayBounds | None = None
    for bounds in iter_day_bounds(game, ruleset):
        if bounds.day > limit or bounds.start is None or bounds.end is None:
            return None
        if moment < bounds.start:
            if previous is None:
                return None
            return Phase("night", previous.day, previous.end, bounds.start)
        if moment < bounds.end:
            return Phase("day", bounds.day, bounds.start, bounds.end)
        previous = bounds
    return None
