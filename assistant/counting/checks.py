"""Warnings for the moderator: where the game file and the thread disagree, or Votal had to assume something.

A warning is not an error: the count still runs, but every output that shows the count (text, ``--format
json``'s ``warnings`` beside ``problems``, ``votal status``, alerts) says what is doubtful and what to add or
fix. Pure: the store's facts come in as arguments.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from assistant.gamefile.game import Game

if TYPE_CHECKING:
    from assistant.counting.votal import Votal


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


def check_corrections(game: Game, *, present: Collection[int], last_post: int | None) -> list[GameWarning]:
    """A ``[[corrections]]`` entry whose post is not in the stored thread corrects nothing: say which, and why
    (a post not synced yet, or no such post: a mistyped number). ``present``: the corrected posts the store
    holds."""
    warnings: list[GameWarning] = []
    for correction in game.corrections:
        if correction.post in present:
            continue
        if last_post is None or correction.post > last_post:
            stored = "no post is stored yet" if last_post is None else f"the last stored post is {last_post}"
            why = f"{stored}: it applies once `votal sync` stores that post (or check the number)"
        else:
            why = "the thread has no such post, so it corrects nothing: check the post number"
        warnings.append(GameWarning("correction_without_post", f"[[corrections]] post = {correction.post}: {why}",
                                    post=correction.post))
    return warnings


def for_day(warnings: list[GameWarning], day: int) -> list[GameWarning]:
    """The warnings to show beside one day's count: the game's own and that day's."""
    return [w for w in warnings if w.day in (None, day)]


EARLY_REASONS = ("majority", "unanimous_minus_one", "no_possible_tie", "no_elimination_majority")
AFTER_THE_END = ("after the day's end", "the day had already ended")  # outcome.WhyNot AFTER_END, DAY_OVER
SHOWN_POSTS = 8


def check_outcomes(
    game: Game, votals: Sequence[Votal], *, counted_day: int, authors: Mapping[int, str]
) -> list[GameWarning]:
    """Doubts that only the computed outcomes show, for a count of ``counted_day`` (``votals``: that day and
    the days before it, each replayed whole): an elimination with no [[deaths]] entry (the later day's
    living, and so its majority, are then wrong), a declared ``end_post`` that is not where the votes ended
    the day, and votes cast after a day ended and before the next began (they count for neither).
    ``authors``: who wrote each stored post, by number."""
    warnings: list[GameWarning] = []
    mods = {m.casefold() for m in game.moderators}
    for votal in votals:
        day, outcome = votal.day, votal.outcome
        if (
            day < counted_day
            and outcome is not None
            and str(outcome.kind) == "elimination"
            and outcome.target is not None
            and not any(d.player == outcome.target and d.phase == "day" and d.phase_number == day for d in game.deaths)
        ):
            at = f" at post {outcome.post}" if outcome.post is not None else ""
            warnings.append(
                GameWarning(
                    "missing_death",
                    f"day {day}: Votal counts {outcome.target} eliminated{at}, but [[deaths]] has no entry for it, "
                    f"so day {counted_day} still counts {outcome.target} alive (and its majority may be wrong): add "
                    f'[[deaths]] player = "{outcome.target}", phase = "day {day}"; or, if the moderator did not '
                    "count that lynch (a hammer after the deadline, a vote refused), correct the votes "
                    f"(`votal audit --day {day}`)",
                    post=outcome.post,
                )
            )
        declared = game.day(day)
        end_post = declared.end_post if declared is not None else None
        if end_post is not None and outcome is not None and str(outcome.reason) in EARLY_REASONS:
            # the moderator's own "the day is over" post may come after the hammer; a player's post is the hammer
            closer = authors.get(end_post)
            between = [n for n, who in authors.items() if outcome.post is not None and outcome.post < n < end_post
                       and who.casefold() not in mods]
            if outcome.post is not None and outcome.post < end_post and between and not (
                closer and closer.casefold() not in mods
            ):
                # players posted between the hammer and the moderator's close: the day ran on past it
                warnings.append(
                    GameWarning(
                        "end_post_disagrees",
                        f"day {day}: end_post = {end_post} lies after the hammer Votal computes at post "
                        f"{outcome.post} ({str(outcome.reason).replace('_', ' ')}; {len(between)} player "
                        f"post{'s' if len(between) > 1 else ''} between): was the hammer missed, or a vote misread? "
                        f"Check with `votal audit --day {day}`",
                        post=end_post,
                    )
                )
            elif outcome.post is not None and outcome.post != end_post and closer and closer.casefold() not in mods:
                warnings.append(
                    GameWarning(
                        "end_post_disagrees",
                        f"day {day}: end_post = {end_post}, but the votes ended the day at post {outcome.post} "
                        f"({str(outcome.reason).replace('_', ' ')}): check end_post, or the votes with "
                        f"`votal audit --day {day}`",
                        post=end_post,
                    )
                )
        late = sorted({a.post for a in votal.actions if a.why_not in AFTER_THE_END and a.action in ("vote", "unvote")})
        if late:
            ended = outcome.post if outcome is not None and outcome.post is not None else end_post
            since = f" (post {ended})" if ended is not None else ""
            shown = ", ".join(str(p) for p in late[:SHOWN_POSTS]) + (
                f" and {len(late) - SHOWN_POSTS} more" if len(late) > SHOWN_POSTS else ""
            )
            warnings.append(
                GameWarning(
                    "vote_between_days",
                    f"post{'s' if len(late) > 1 else ''} {shown}: votes after day {day} ended{since} and before "
                    f"day {day + 1} began count for neither day",
                    post=late[0],
                )
            )
    return warnings

