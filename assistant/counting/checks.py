"""Warnings for the moderator: where the game file and the thread disagree, or Votal had to assume
something.

A warning is not an error: the count still runs, but every output that shows the count (text,
``--format json``'s ``warnings`` beside ``problems``, ``votal status``, alerts) says what is
doubtful and what to add or fix. Pure: the store's facts come in as arguments.

A finding that changes nothing (the night's posts between two days, the moderator's close after
the hammer the day ended on) is a note: kept in the JSON, never in "needs you" or an alert.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from assistant.counting.doubts import PLAY_WENT_ON, count_after_hammer
from assistant.counting.living import alive_seats
from assistant.gamefile.choices import PhaseKind
from assistant.gamefile.findings import acceptable, finding_id
from assistant.gamefile.game import Game
from assistant.reading.posted_count import PostedCount

if TYPE_CHECKING:
    from assistant.counting.votal import Votal


class Severity(StrEnum):
    """Whether a finding asks the moderator for something (a warning) or is kept (a note)."""

    WARNING = "warning"
    NOTE = "note"


@dataclass(frozen=True)
class GameWarning:
    kind: str  # day_gap | missing_day | day_beyond_thread | ...
    message: str  # one line for the moderator, saying what to add or fix
    day: int | None = None  # the day it concerns; None: the whole game
    post: int | None = None
    severity: Severity = Severity.WARNING
    about: int | None = None  # the day its id names, if not the day shown (a missing death's)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "message": self.message,
            "day": self.day,
            "post": self.post,
            "id": self.id,
        }

    @property
    def note(self) -> bool:
        return self.severity == Severity.NOTE

    @property
    def id(self) -> str:
        """Stable while the thread grows: what ``[checks] accepted`` names (gamefile.findings)."""
        return finding_id(self.kind, self.about if self.about is not None else self.day, self.post)

    def to_note_json(self) -> dict[str, Any]:
        """As one of a count's ``notes`` (the doubts' shape: docs/json.md)."""
        return {"post": self.post, "kind": self.kind, "target": None, "why": self.message}


def warnings_only(found: Iterable[GameWarning]) -> list[GameWarning]:
    return [w for w in found if not w.note]


def notes_only(found: Iterable[GameWarning]) -> list[GameWarning]:
    return [w for w in found if w.note]


def answered(found: Iterable[GameWarning], accepted: Collection[str]) -> list[GameWarning]:
    """``found`` as the moderator has answered it: a warning whose id the game file accepts is a
    note; any other warning that can be accepted says how, beside what to fix."""
    result = []
    for warning in found:
        if warning.note or not acceptable(warning.kind):
            result.append(warning)
        elif warning.id in accepted:
            result.append(
                replace(
                    warning,
                    severity=Severity.NOTE,
                    message=f"{warning.message} (accepted in the game file)",
                )
            )
        else:
            hint = f'; or, if it is right as it is, accept it: [checks] accepted = ["{warning.id}"]'
            result.append(replace(warning, message=warning.message + hint))
    return result


def check_days(game: Game, *, last_post: int | None) -> list[GameWarning]:
    """Doubts about the declared days: a day number skipped, posts between two days that belong to
    neither, a day that starts beyond the last stored post."""
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
        if (
            before.end_post is not None
            and day.start_post is not None
            and day.start_post > before.end_post + 1
        ):
            first, last = before.end_post + 1, day.start_post - 1
            span = f"post {first}" if first == last else f"posts {first}-{last}"
            # the night between two days: a vote cast there is said by vote_between_days
            warnings.append(
                GameWarning(
                    "day_gap",
                    f"{span} lie between day {before.day} (ends at post {before.end_post}) and day {day.day} "
                    f"(starts at post {day.start_post}): votes there count for neither day",
                    day=day.day,
                    post=first,
                    severity=Severity.NOTE,
                )
            )
    for day in days:
        if day.start_post is not None and last_post is not None and day.start_post > last_post:
            # shown on the day before it, the one being played (its end is this start), not on every
            # day
            warnings.append(
                GameWarning(
                    "day_beyond_thread",
                    f"day {day.day} starts at post {day.start_post}, beyond the last stored post ({last_post}): "
                    "run `votal sync`, or check its start_post",
                    day=day.day - 1 if day.day > 1 else None,
                    post=day.start_post,
                    about=day.day,
                )
            )
    return warnings


def check_corrections(
    game: Game, *, present: Collection[int], last_post: int | None
) -> list[GameWarning]:
    """A ``[[corrections]]`` entry whose post is not in the stored thread corrects nothing: say
    which, and why (a post not synced yet, or no such post: a mistyped number). ``present``: the
    corrected posts the store holds."""
    warnings: list[GameWarning] = []
    for correction in game.corrections:
        if correction.post in present:
            continue
        if last_post is None or correction.post > last_post:
            stored = (
                "no post is stored yet"
                if last_post is None
                else f"the last stored post is {last_post}"
            )
            why = f"{stored}: it applies once `votal sync` stores that post (or check the number)"
        else:
            why = "the thread has no such post, so it corrects nothing: check the post number"
        warnings.append(
            GameWarning(
                "correction_without_post",
                f"[[corrections]] post = {correction.post}: {why}",
                post=correction.post,
            )
        )
    return warnings


def for_day(warnings: list[GameWarning], day: int) -> list[GameWarning]:
    """The warnings to show beside one day's count: the game's own and that day's."""
    return [w for w in warnings if w.day in (None, day)]


EARLY_REASONS = ("majority", "unanimous_minus_one", "no_possible_tie", "no_elimination_majority")
AFTER_THE_END = (
    "after the day's end",
    "the day had already ended",
)  # outcome.WhyNot AFTER_END, DAY_OVER
SHOWN_POSTS = 8


def check_outcomes(
    game: Game,
    votals: Sequence[Votal],
    *,
    counted_day: int,
    authors: Mapping[int, str],
    counts: Mapping[int, PostedCount] | None = None,
) -> list[GameWarning]:
    """Doubts that only the computed outcomes show, for a count of ``counted_day`` (``votals``: that
    day and the days before it, each replayed whole): an elimination with no [[deaths]] entry (the
    later day's living, and so its majority, are then wrong), a declared ``end_post`` that is not
    where the votes ended the day, and votes cast after a day ended and before the next began (they
    count for neither). ``authors``: who wrote each stored post, by number; ``counts``: the
    moderators' counts, by post. Each is said on the day it concerns (a missing death on the day it
    miscounts)."""
    warnings: list[GameWarning] = []
    mods = {m.casefold() for m in game.moderators}
    for votal in votals:
        warnings += _missing_death(game, votal, counted_day, votals)
        warnings += _end_post_disagrees(game, votal, authors, mods, counts or {})
        warnings += _votes_between_days(game, votal)
    return warnings


def _missing_death(
    game: Game, votal: Votal, counted_day: int, later: Sequence[Votal] = ()
) -> list[GameWarning]:
    """An earlier day's elimination with no [[deaths]] entry: the counted day's living are wrong. A
    note when the file answers it otherwise (:func:`_lynch_answered`): the day's own doubt asks."""
    day, outcome = votal.day, votal.outcome
    if (
        day >= counted_day
        or outcome is None
        or str(outcome.kind) != "elimination"
        or outcome.target is None
        or any(
            d.player == outcome.target and d.phase == PhaseKind.DAY and d.phase_number == day
            for d in game.deaths
        )
    ):
        return []
    at = f" at post {outcome.post}" if outcome.post is not None else ""
    said = f"day {day}: Votal counts {outcome.target} eliminated{at}, but [[deaths]] has no entry for it"
    answer = _lynch_answered(game, outcome.target, day, counted_day, later)
    if answer is not None:
        return [
            GameWarning(
                "missing_death",
                f"{said}; {answer}",
                day=counted_day,
                post=outcome.post,
                about=day,
                severity=Severity.NOTE,
            )
        ]
    return [
        GameWarning(
            "missing_death",
            f"{said}, so day {counted_day} still counts {outcome.target} alive (and its majority may "
            f'be wrong): add [[deaths]] player = "{outcome.target}", phase = "day {day}"; or, if the '
            "moderator did not count that lynch (a hammer after the deadline, a vote refused), correct "
            f"the votes (`votal audit --day {day}`)",
            day=counted_day,
            post=outcome.post,
            about=day,
        )
    ]


def _lynch_answered(
    game: Game, target: str, day: int, counted_day: int, later: Sequence[Votal]
) -> str | None:
    """Why a lynch Votal counts and the file lacks changes nothing about ``counted_day``, in words,
    or None: the file records the seat dead before that day starts (its living are right), records
    another seat lynched that day (the day ended otherwise: its own doubt says so), or the seat
    votes on a later day (its player was not lynched)."""
    if target not in alive_seats(game, counted_day, at_post=_first_post(game, counted_day)):
        return f"the file records {target} dead before day {counted_day}, so its living are right"
    other = [
        d.player
        for d in game.deaths
        if d.phase == PhaseKind.DAY
        and d.phase_number == day
        and d.post is None
        and d.player != target
    ]
    if other:
        return (
            f"the file records {other[0]} lynched that day: the moderator ended it otherwise "
            f"(day {day}'s count says so)"
        )
    voted = next(
        (
            v.day
            for v in later
            if v.day > day and any(a.voter == target and a.action == "vote" for a in v.actions)
        ),
        None,
    )
    if voted is not None:
        return f"{target} votes on day {voted}, so the moderator did not count that lynch"
    return None


def _first_post(game: Game, day: int) -> int | None:
    declared = game.day(day)
    return declared.start_post if declared is not None else None


def _end_post_disagrees(
    game: Game,
    votal: Votal,
    authors: Mapping[int, str],
    mods: Collection[str],
    counts: Mapping[int, PostedCount],
) -> list[GameWarning]:
    """A declared ``end_post`` that is not the post the votes ended the day at. The moderator's
    close after the hammer is how days end (players post until the moderator sees the hammer): a
    note, unless play went on as if the day had not ended (a moderator's count after the hammer
    with the hammered wagon short of the majority, or ``PLAY_WENT_ON`` players voting on), which
    says the moderator may not have counted that hammer."""
    day, outcome = votal.day, votal.outcome
    declared = game.day(day)
    end_post = declared.end_post if declared is not None else None
    if (
        end_post is None
        or outcome is None
        or outcome.post is None
        or str(outcome.reason) not in EARLY_REASONS
    ):
        return []
    hammer, reason = outcome.post, str(outcome.reason).replace("_", " ")
    closer = authors.get(end_post)
    if closer and closer.casefold() not in mods:  # a player's post ends the day: the hammer's
        if hammer == end_post:
            return []
        return [
            GameWarning(
                "end_post_disagrees",
                f"day {day}: end_post = {end_post}, but the votes ended the day at post {hammer} "
                f"({reason}): check end_post, or the votes with `votal audit --day {day}`",
                day=day,
                post=end_post,
            )
        ]
    between = [
        n for n, who in authors.items() if hammer < n < end_post and who.casefold() not in mods
    ]
    if not between:
        return []
    went_on = _play_went_on(game, votal, hammer, end_post, counts)
    posts = f"{len(between)} player post{'s' if len(between) > 1 else ''} between"
    said = (
        f"day {day}: end_post = {end_post} lies after the hammer Votal computes at post "
        f"{hammer} ({reason}; {posts})"
    )
    return [_closed_after_hammer(day, end_post, said, went_on)]


def _closed_after_hammer(day: int, end_post: int, said: str, went_on: str | None) -> GameWarning:
    """A moderator's close after the hammer: a note, or a warning when play went on after it."""
    if not went_on:
        return GameWarning(
            "end_post_after_hammer",
            f"{said}: the moderator's close after it",
            day=day,
            post=end_post,
            severity=Severity.NOTE,
        )
    return GameWarning(
        "end_post_disagrees",
        f"{said}, and play went on after it ({went_on}): the moderator may not have counted "
        f"that hammer. Check with `votal audit --day {day}`; if a vote was misread, add a "
        "[[corrections]] entry for its post (vote = the seat it names, or ignore = true)",
        day=day,
        post=end_post,
    )


def _play_went_on(
    game: Game, votal: Votal, hammer: int, end_post: int, counts: Mapping[int, PostedCount]
) -> str | None:
    """What shows the day went on after the hammer, in words: the moderator's own count posted
    after it with the hammered wagon short of a majority, or ``PLAY_WENT_ON`` players or more
    voting after it. None when nothing does."""
    short = count_after_hammer(votal, game, counts, end_post)
    if short is not None:
        return short
    voters = {
        a.voter or a.author
        for a in votal.actions
        if a.action == "vote" and a.why_not in AFTER_THE_END and hammer < a.post <= end_post
    }
    if len(voters) >= PLAY_WENT_ON:
        return f"{len(voters)} players voted after it"
    return None


def _votes_between_days(game: Game, votal: Votal) -> list[GameWarning]:
    """Votes cast after the day ended and before the next began: they count for neither day. A
    note (players who had not seen the hammer or the close), unless ``PLAY_WENT_ON`` players vote
    so: then the day's end may be wrong."""
    late_actions = [
        a for a in votal.actions if a.why_not in AFTER_THE_END and a.action in ("vote", "unvote")
    ]
    late = sorted({a.post for a in late_actions})
    if not late:
        return []
    day, outcome = votal.day, votal.outcome
    declared = game.day(day)
    end_post = declared.end_post if declared is not None else None
    ended = outcome.post if outcome is not None and outcome.post is not None else end_post
    since = f" (post {ended})" if ended is not None else ""
    shown = ", ".join(str(p) for p in late[:SHOWN_POSTS]) + (
        f" and {len(late) - SHOWN_POSTS} more" if len(late) > SHOWN_POSTS else ""
    )
    said = (
        f"post{'s' if len(late) > 1 else ''} {shown}: votes after day {day} ended{since} and "
        f"before day {day + 1} began count for neither day"
    )
    voters = {a.voter or a.author for a in late_actions if a.action == "vote"}
    # votes after the declared end (the night) may be the next day's if it began earlier: said there
    concerns = day + 1 if end_post is not None and late[-1] > end_post else day
    if len(voters) < PLAY_WENT_ON:
        return [
            GameWarning(
                "vote_between_days", said, day=concerns, post=late[0], severity=Severity.NOTE
            )
        ]
    return [
        GameWarning(
            "vote_between_days",
            f"{said}; {len(voters)} players voted so, as if the day went on: check day {day}'s "
            f"end_post and day {day + 1}'s start_post (`votal audit --day {day}`)",
            day=concerns,
            post=late[0],
        )
    ]
