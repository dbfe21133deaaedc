"""Replaying a day's votes into a votal: who votes whom as of any post, and how the day ends.

The votal is never edited in place: :func:`replay_day` is a pure function of (game, ruleset, posts, roster,
day, as-of point), like python-chess replaying a move stack. "The votal as of post 512" is the same call as
"the votal now".

These are the entry points; the loop is :mod:`assistant.counting.day_replay` (its parts, each an object:
:mod:`assistant.counting.day_state`, :mod:`assistant.counting.day_commands`, :mod:`assistant.counting.day_end`,
:mod:`assistant.counting.day_checks`), the hooks it calls :mod:`assistant.counting.hooks`.

The votal's public shape (what ``votal count --format json``, drafts, export and the site read) is described in
:mod:`assistant.counting.votal`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from assistant.counting.clock import Timeline
from assistant.counting.day_replay import DayReplay, GameReplay
from assistant.counting.votal import DayResult, Votal
from assistant.gamefile.game import Game
from assistant.gamefile.rules import Ruleset
from assistant.reading.names import resolve_name
from parsers.reading import ReadPost

__all__ = ["GameReplay", "replay_day", "replay_day_watched", "replay_days"]


def replay_day(
    game: Game,
    ruleset: Ruleset,
    posts: Sequence[ReadPost],
    roster: Any,
    *,
    day: int,
    at_post: int | None = None,
    at_time: datetime | None = None,
    resolve: Callable[..., Any] = resolve_name,
) -> Votal:
    """The votal of ``day`` as of ``at_post`` / ``at_time`` (default: everything in ``posts``).

    ``posts`` may be the whole thread: the day's posts are picked by the day's bounds (game file, else
    the ruleset's phases). ``roster`` is an :class:`assistant.reading.names.Roster`; ``resolve`` stands in for
    :func:`assistant.reading.names.resolve_name` (same signature), for tests.
    """
    return replay_days(game, ruleset, posts, roster, days=[day], at_post=at_post, at_time=at_time, resolve=resolve)[0]


def replay_days(
    game: Game,
    ruleset: Ruleset,
    posts: Sequence[ReadPost],
    roster: Any,
    *,
    days: Sequence[int],
    at_post: int | None = None,
    at_time: datetime | None = None,
    resolve: Callable[..., Any] = resolve_name,
) -> list[Votal]:
    """The votals of ``days``, as :func:`replay_day` gives each, from one replay: a day an earlier one
    needs is replayed once for all of them."""
    replay = GameReplay.of(game, ruleset, posts, roster, at_post=at_post, at_time=at_time, resolve=resolve)
    return [replay.day(day).votal for day in days]


def replay_day_watched(
    game: Game,
    ruleset: Ruleset,
    posts: Sequence[ReadPost],
    roster: Any,
    *,
    day: int,
    watch: Sequence[int],
    seen: Callable[[int, Votal], None],
    at_post: int | None = None,
    at_time: datetime | None = None,
    timeline: Timeline | None = None,
) -> DayResult:
    """:func:`replay_day` (its whole result), also showing ``seen(post, votal)`` the votal just before each
    post of ``watch`` (as of the post before it), in post order, in one pass: a moderator's count is held
    against the reading as of the post before it without a replay per count.

    ``seen`` may teach ``roster`` a spelling from that post on (``roster.learn``): the rest of the pass reads
    with it, as a replay made afterwards would. The votal shown holds what an as-of replay's would (votes,
    living, actions, problems); what a hook computes from the whole replay (an election, nominations) and
    the outcome of a deadline passed but not yet reached by a post are the full replay's."""
    replay = GameReplay.of(game, ruleset, posts, roster, at_post=at_post, at_time=at_time, resolve=resolve_name,
                           timeline=timeline)
    result = replay.memo[day] = DayReplay(replay, day).run(watch=(sorted(watch), seen))
    return result
