"""Who is alive when: the game file's deaths, returns and mod-kills, as of a day and a post.

A death in phase "day N" / "night N" counts from the end of that phase (night N ends before day
N+1); a death with ``post`` counts from that post on (a kill during the day). ``[[events]] kind =
"return"`` brings a seat announced dead back from that day (post) on, without rewriting the days
before it (the Witchhunt 9.0 Magician: "If you die before Halftime, your death is fake. The morning
after Halftime, reveal that you are alive"). ``kind = "modkill"`` kills its player at its post (at
the day's start without one). The latest of a seat's records that has happened decides.
"""

from __future__ import annotations

from collections.abc import Iterator
from math import inf

from assistant.gamefile.choices import PhaseKind
from assistant.gamefile.game import EventKind, Game


def alive_seats(game: Game, day: int, at_post: int | None = None) -> tuple[str, ...]:
    """Seats alive on ``day`` (as of ``at_post`` when given), in game-file order.

    Without ``at_post``, a kill during ``day`` itself counts as done (the day's end).
    """
    latest: dict[
        str, tuple[tuple[float, float, float], bool]
    ] = {}  # seat -> (when, alive after it)
    for when, seat, alive in _records(game, day, at_post):
        if seat not in latest or when >= latest[seat][0]:
            latest[seat] = (when, alive)
    return tuple(seat.name for seat in game.players if latest.get(seat.name, (None, True))[1])


def change_posts(game: Game) -> list[int]:
    """The posts at which someone dies or returns during a day, sorted: the living change only
    there."""
    posts = {d.post for d in game.deaths if d.post is not None}
    posts |= {
        e.post
        for e in game.events
        if e.kind in (EventKind.RETURN, EventKind.MODKILL) and e.post is not None
    }
    return sorted(posts)


def _records(
    game: Game, day: int, at_post: int | None
) -> Iterator[tuple[tuple[int, int, float], str, bool]]:
    """(when, seat, alive after) for every death and return that has happened as of (day,
    at_post)."""
    for death in game.deaths:
        number = death.phase_number
        if number < day:
            happened = True
        elif death.post is not None:
            happened = (
                at_post >= death.post
                if at_post is not None
                else death.phase == PhaseKind.DAY and number == day
            )
        else:
            happened = False
        if happened:
            when: tuple[int, int, float]
            if death.phase == PhaseKind.DAY and death.post is not None:
                when = (number, 0, death.post)
            else:
                when = (number, 2 if death.phase == PhaseKind.DAY else 3, 0)
            yield when, death.player, False
    for event in game.events:
        if event.kind not in (EventKind.RETURN, EventKind.MODKILL) or event.player is None:
            continue
        if event.day < day or (
            event.day == day and (event.post is None or at_post is None or at_post >= event.post)
        ):
            when = (event.day, 0, event.post if event.post is not None else -inf)
            yield when, event.player, event.kind == EventKind.RETURN
