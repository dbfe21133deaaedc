"""Warnings for the moderator: where the game file and the thread disagree, or Votal had to assume something.

A warning is not an error: the count still runs, but every output that shows the count (text, ``--format
json``'s ``warnings`` beside ``problems``, ``votal status``, alerts) says what is doubtful and what to add or
fix. Pure: the store's facts come in as arguments.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from assistant.game import Game


@dataclass(frozen=True)
class GameWarning:
    kind: str  # day_gap | missing_day | day_beyond_thread | ...
    message: str  # one line for the moderator, saying what to add or fix
    day: int | None = None  # the day it concerns; None: the whole game
    post: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "message": self.message, "day": self.day, "post": self.post}


def check_days(game: Game, *, last_post: int | None) -> list[GameWarning]:
    """Doubts about the declared days: a day number skipped, posts between two days that belong to neither,
    a day that starts beyond the last stored post."""
    warnings: list[GameWarning] = []
    days = sorted(game.days, key=lambda d: d.day)
    for before, day in zip(days, days[1:], strict=False):
        for missing in range(before.day + 1, day.day):
            warnings.append(
                GameWarning(
                    "missing_day",
                    f"day {missing} is not declared (days {before.day} and {day.day} are): add a [[days]] entry "
                    f"with day = {missing}",
                )
            )
        if before.end_post is not None and day.start_post is not None and day.start_post > before.end_post + 1:
            first, last = before.end_post + 1, day.start_post - 1
            span = f"post {first}" if first == last else f"posts {first}-{last}"
            warnings.append(
                GameWarning(
                    "day_gap",
                    f"{span} lie between day {before.day} (ends at post {before.end_post}) and day {day.day} "
                    f"(starts at post {day.start_post}): votes there count for neither day",
                    post=first,
                )
            )
    for day in days:
        if day.start_post is not None and last_post is not None and day.start_post > last_post:
            warnings.append(
                GameWarning(
                    "day_beyond_thread",
                    f"day {day.day} starts at post {day.start_post}, beyond the last stored post ({last_post}): "
                    "run `votal sync`, or check its start_post",
                    post=day.start_post,
                )
            )
    return warnings


def for_day(warnings: list[GameWarning], day: int) -> list[GameWarning]:
    """The warnings to show beside one day's count: the game's own and that day's."""
    return [w for w in warnings if w.day in (None, day)]
