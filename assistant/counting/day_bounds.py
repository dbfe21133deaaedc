"""Doubts about a day's bounds in the game file: a day whose start and end posts the thread itself
contradicts. One misread boundary puts a day over the wrong posts, and its count then looks
certain; a moderator would name the evidence in one sentence, so the day carries one
``day_bounds`` doubt.

The evidence, in the order it is looked for:

- the day starts and ends at the same post, or spans almost no player posts;
- most of the moderator's counts inside the day (two or more) are headed for the day before or
  after ("Vote Count 2.3" in day 3);
- the moderator posts a count for the day after its end post, before the next day starts;
- the day ended without a decision while players kept voting after its end post;
- the file does not declare the day and no moderator's post read starts it: its start is Votal's
  guess (``announced_days``).
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import TYPE_CHECKING

from assistant.counting.doubts import DAY_BOUNDS, Doubt, doubts_only
from assistant.gamefile.outcome import Kind, WhyNot
from assistant.reading.count_state import vote_count_day

if TYPE_CHECKING:
    from assistant.counting.votal import Votal
    from assistant.gamefile.game import Game
    from parsers.reading import ReadPost

# A day of real play holds dozens of player posts; fewer than this and its bounds are misread.
# Chosen on half A of the three sets (no right day has fewer).
MIN_PLAYER_POSTS = 5
# Distinct players voting after a day's end, on a day that ended with no decision: play went on.
# (doubts.PLAY_WENT_ON's figure, chosen on half A of the development games.)
VOTERS_AFTER_END = 3


# A count's heading anywhere in its first line ("Mini Normal 1744 Vote Count 2.01", "Day 2 final
# vote count"): the moderator's own number for the day, whatever the title before it.
_HEADED_FOR = re.compile(
    r"\b(?:vote\s*count|votecount|vc)\s*#?\s*(\d{1,2})\s*\.\s*\d{1,3}(?![\d.])"
    r"|\b(?:day|d)\s*(\d{1,2})\s*(?:final\s+)?(?:vote\s*count|votecount|vc)\b"
    r"|\b(?:vote\s*count|votecount|vc)\s*(?:#\s*\d+\s*)?(?:of|for|,|-|:)?\s*(?:day|d)\s*"
    r"(\d{1,2})\b",
    re.IGNORECASE,
)


class Evidence(Enum):
    """Why a day's bounds look misread."""

    NO_SPAN = "starts and ends at the same post"
    FEW_POSTS = "spans almost no player posts"
    COUNTS_FOR_ANOTHER_DAY = "holds the moderator's counts for the day beside it"
    COUNTED_AFTER_END = "has a count of its own posted after its end"
    VOTED_AFTER_END = "ended without a decision while players kept voting"
    GUESSED_START = "starts where no moderator's post read starts it"


@dataclass(frozen=True)
class Bounds:
    """A declared day's posts as the file gives them, and the next day's start."""

    day: int
    start: int
    end: int | None
    next_start: int | None


def count_headings(bodies: Mapping[int, str]) -> dict[int, int]:
    """Post number -> the day its count is headed for, read from the post's first lines."""
    headings = {}
    for number, body in bodies.items():
        for line in _first_lines(body):
            day = headed_for(line)
            if day is not None:
                headings[number] = day
                break
    return headings


_QUOTE = re.compile(r"<blockquote\b.*?</blockquote>", re.IGNORECASE | re.DOTALL)
_LINE_BREAK = re.compile(r"<br\s*/?>|</(?:p|div|li|h\d|tr)>", re.IGNORECASE)
_TAG = re.compile(r"<[^>]*>")


def _first_lines(body: str, lines: int = 3) -> list[str]:
    """The first lines of a post's own text (quotes left out). Tags are dropped by pattern: a count
    parses no HTML (the moderators' posts were read when they were stored)."""
    text = _TAG.sub("", _LINE_BREAK.sub("\n", _QUOTE.sub("", body[:4000])))
    found = (" ".join(html.unescape(line).split()) for line in text.splitlines())
    return [line for line in found if line][:lines]


def headed_for(line: str) -> int | None:
    """The day a vote count's heading line names, or None."""
    day = vote_count_day(line)
    if day is not None:
        return day
    match = _HEADED_FOR.search(line)
    return int(next(g for g in match.groups() if g)) if match else None


def bounds_of(game: Game, day: int) -> Bounds | None:
    declared = game.day(day)
    if declared is None or declared.start_post is None:
        return None
    following = game.day(day + 1)
    next_start = following.start_post if following is not None else None
    return Bounds(day, declared.start_post, declared.end_post, next_start)


def bounds_doubt(
    votal: Votal,
    game: Game,
    posts: Sequence[ReadPost],
    headings: Mapping[int, int],
    guessed: bool = False,
) -> Doubt | None:
    """The one doubt about ``votal``'s day bounds, or None when the thread bears them out.
    ``guessed``: the day's start is Votal's guess, not the file's nor a moderator's post."""
    bounds = bounds_of(game, votal.day)
    if bounds is None:
        return None
    moderators = {m.casefold() for m in game.moderators}
    found = (Evidence.GUESSED_START, bounds.start) if guessed else None
    found = found or _span_evidence(bounds, posts, moderators)
    found = found or _heading_evidence(bounds, headings)
    found = found or _after_end_evidence(bounds, votal, headings, _player_posts(posts, moderators))
    if found is None:
        return None
    evidence, post = found
    span = (
        f"posts {bounds.start}-{bounds.end}"
        if bounds.end is not None
        else f"from post {bounds.start}"
    )
    source = "as Votal guessed" if guessed else "in the game file"
    why = (
        f"day {bounds.day} ({span} {source}) {evidence.value}: its start or end post "
        "may be "
        f"misread; check them with `votal audit --day {bounds.day}`"
    )
    return Doubt(post, DAY_BOUNDS, None, why)


def _span_evidence(
    bounds: Bounds, posts: Sequence[ReadPost], moderators: set[str]
) -> tuple[Evidence, int] | None:
    if bounds.end is None:
        return None
    if bounds.end == bounds.start:
        return Evidence.NO_SPAN, bounds.end
    players = sum(1 for n in _player_posts(posts, moderators) if bounds.start < n < bounds.end)
    if players < MIN_PLAYER_POSTS and _last(posts) > bounds.end:
        return Evidence.FEW_POSTS, bounds.end
    return None


def _heading_evidence(bounds: Bounds, headings: Mapping[int, int]) -> tuple[Evidence, int] | None:
    """Most counts inside the day are headed for another day: the day sits over another's posts."""
    end = bounds.end if bounds.end is not None else float("inf")
    inside = [(post, day) for post, day in sorted(headings.items()) if bounds.start <= post < end]
    if not inside:
        return None
    named, times = Counter(day for _, day in inside).most_common(1)[0]
    # a shifted day sits over its neighbour's posts; a count numbered otherwise is no day's number
    if abs(named - bounds.day) != 1 or times < 2 or times * 2 <= len(inside):
        return None
    first = next(post for post, day in inside if day == named)
    return Evidence.COUNTS_FOR_ANOTHER_DAY, first


def _player_posts(posts: Sequence[ReadPost], moderators: set[str]) -> list[int]:
    return [p.number for p in posts if (p.author or "").casefold() not in moderators]


def _after_end_evidence(
    bounds: Bounds, votal: Votal, headings: Mapping[int, int], player_posts: Sequence[int]
) -> tuple[Evidence, int] | None:
    """Play went on past the end post: the moderator counted the day again after players posted (not
    the day's final count, right after its end), or, the day closed with no decision, players kept
    voting."""
    if bounds.end is None:
        return None
    later = [
        post for post, day in sorted(headings.items()) if post > bounds.end and day > bounds.day
    ]
    stop = later[0] if later else float("inf")  # the moderator counting the next day: play moved on
    end = bounds.end
    counted = [
        post
        for post, day in sorted(headings.items())
        if end < post < stop
        and day == bounds.day
        and sum(1 for n in player_posts if end < n < post) >= MIN_PLAYER_POSTS
    ]
    if counted:
        return Evidence.COUNTED_AFTER_END, counted[0]
    outcome = votal.outcome
    if outcome is not None and outcome.kind == Kind.ELIMINATION:
        return None
    after = {
        a.voter or a.author
        for a in votal.actions
        if a.action == "vote"
        and a.why_not in (WhyNot.AFTER_END, WhyNot.DAY_OVER)
        and a.post < _votes_until(bounds, stop)
    }
    if len(after) >= VOTERS_AFTER_END:
        return Evidence.VOTED_AFTER_END, bounds.end
    return None


def _votes_until(bounds: Bounds, stop: float) -> float:
    """Votes after the end are play going on until the next day starts (when it starts later)."""
    if bounds.next_start is not None and bounds.end is not None and bounds.next_start > bounds.end:
        return min(stop, bounds.next_start)
    return stop


def _last(posts: Sequence[ReadPost]) -> int:
    return posts[-1].number if posts else 0


def with_bounds_doubt(
    votal: Votal,
    game: Game,
    posts: Sequence[ReadPost],
    headings: Mapping[int, int],
    guessed: bool = False,
) -> Votal:
    """``votal`` with its day-bounds doubt among its doubts (and on its outcome, if it has none)."""
    doubt = bounds_doubt(votal, game, posts, headings, guessed)
    if doubt is None:
        return votal
    held = doubts_only(votal.doubts)
    notes = [d for d in votal.doubts if d.note]
    doubts = sorted([*held, doubt], key=lambda d: (d.post is None, d.post or 0))
    outcome = votal.outcome
    if outcome is not None and outcome.doubt is None:
        outcome = replace(outcome, doubt=f"day bounds at post {doubt.post}")
    return replace(votal, doubts=(*doubts, *notes), outcome=outcome)
