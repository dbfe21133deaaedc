"""The watched pass over a day, internal to :mod:`assistant.counting`: one replay that also
shows the moderator's counts the votal as of the post before each, so that they can teach the
roster spellings (:func:`assistant.counting.votecounts.learn_from_counts`). It is no way to reach
a votal: every caller counts through :func:`assistant.counting.count.count_stored` (or its I/O
edge, ``count_game``), which uses it."""

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

__all__: list[str] = []  # private to assistant.counting


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
    """The whole result of ``day`` replayed as of ``at_post`` / ``at_time``, also showing
    ``seen(post, votal)`` the votal just before each post of ``watch`` (as of the post before it),
    in post order, in one pass: a moderator's count is held against the reading as of the post
    before it without a replay per count.

    ``seen`` may teach ``roster`` a spelling from that post on (``roster.learn``): the rest of the
    pass reads with it, as a replay made afterwards would. The votal shown holds what an as-of
    replay's would (votes, living, actions, problems); what a hook computes from the whole replay
    (an election, nominations) and the outcome of a deadline passed but not yet reached by a post
    are the full replay's."""
    replay = GameReplay.of(game, ruleset, posts, roster, at_post=at_post, at_time=at_time, resolve=resolve_name,
                           timeline=timeline)
    result = replay.memo[day] = DayReplay(replay, day).run(watch=(sorted(watch), seen))
    return result
