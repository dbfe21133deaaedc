"""A day the moderator has started but the game file does not declare yet, counted from the
moderator's post.

Between two runs of `votal update` the thread moves on: the moderator opens day 3 and a player asks
for its count. The game file is the moderator's and stays as it is; the count reads the day's start
(and its end, when the moderator has ended it) from the moderators' posts after the last post the
file names, as `votal update` would write them, and says so beside the count. A day nobody has
announced is still refused (never guessed).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.counting.checks import GameWarning
from assistant.gamefile.game import DayDecl, Game

if TYPE_CHECKING:  # the function imports the readers when it is called
    from assistant.reading.announcements.facts import PostLike


def with_announced_days(
    game: Game, posts: Sequence[PostLike], wanted: int
) -> tuple[Game, list[GameWarning]]:
    """``game`` with the days after its last declared one up to ``wanted`` that the moderators'
    ``posts`` start (each with its announced end, if any), and a warning for each: (the game, the
    warnings). The game unchanged when the file declares no days or moderators, or the moderators
    have not started ``wanted``."""
    from assistant.reading.announcements import read_thread_facts

    if game.day(wanted) is not None or not game.days or not game.moderators or not posts:
        return game, []
    facts = read_thread_facts(
        posts,
        title=game.title,
        moderators=game.moderators,
        players={s.name: s.accounts for s in game.players} or None,
        after_post=game.last_named_post(),
        timezone=game.tz,
    )
    starts = {s.day: s for s in facts.day_starts}
    ends = {e.day: e for e in facts.day_ends}
    if wanted not in starts:
        return _after_last_end(game, posts, wanted)
    days = sorted(game.days, key=lambda d: d.day)
    warnings: list[GameWarning] = []
    for number in range(days[-1].day + 1, wanted + 1):
        start = starts.get(number)
        last = days[-1]
        after = max(p for p in (last.start_post, last.end_post, -1) if p is not None)
        if start is None or start.post <= after:
            continue  # a day not announced stays undeclared (the file's checks say so)
        end = ends.get(number)
        end_post = end.post if end is not None and end.post >= start.post else None
        days.append(DayDecl(number, start_post=start.post, end_post=end_post))
        ended = f", ended at post {end_post}" if end_post is not None else ""
        warnings.append(
            GameWarning(
                "announced_day",
                f"day {number} is not declared: counted from post {start.post}, where the moderator starts it "
                f'("{start.cite.words}"){ended}; `votal update` writes it into the game file',
                day=number,
                post=start.post,
            )
        )
    if game.day(wanted) is None and not any(d.day == wanted for d in days):
        return game, []
    return replace(game, days=tuple(days)), warnings


def _after_last_end(
    game: Game, posts: Sequence[PostLike], wanted: int
) -> tuple[Game, list[GameWarning]]:
    """``wanted`` counted from the moderators' first post after the end of the day before it, when
    the file declares that day the last, with its end, and a player posted after that post: (the
    game with the day, its warning), else the game unchanged."""
    last = max(game.days, key=lambda d: d.day)
    if last.day != wanted - 1 or last.end_post is None:
        return game, []
    moderators = {m.casefold() for m in game.moderators}
    after = [p for p in posts if p.number > last.end_post]
    start = next((p.number for p in after if p.author.casefold() in moderators), None)
    if start is None or not any(
        p.number > start and p.author.casefold() not in moderators for p in after
    ):
        return game, []
    warning = GameWarning(
        "inferred_day",
        f"day {wanted} is not declared and no moderator's post read starts it: counted from post "
        f"{start}, the moderators' first post after day {last.day} ends at post {last.end_post}; "
        f"check the thread and add a [[days]] entry with day = {wanted} and start_post",
        day=wanted,
        post=start,
    )
    days = (*game.days, DayDecl(wanted, start_post=start))
    return replace(game, days=days), [warning]
