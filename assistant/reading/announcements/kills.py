"""Kills as the post that opens a day tells them.

The post that opens day N reports night N-1's deaths, wherever in it they stand: before the words
that open the day (flavour, then "Day 3 has begun"), or in the same sentence ("Day 5 has begun, and
Alder was killed"). A sentence-by-sentence reading dates such a death by where it stands, to the
day still open or to the day just opened; these rules date it to the night.
"""

from __future__ import annotations

from assistant.reading.announcements.accounts import Names
from assistant.reading.announcements.deaths import KILLED_IN_DAY, read_death
from assistant.reading.announcements.facts import Cite, DeathCause, DeathFact, PostLike
from assistant.reading.announcements.state import State


def _opened_here(post: PostLike, state: State) -> int | None:
    """The day the post opens, if it opens one and the day is open."""
    if state.phase.night or state.phase.ended:
        return None
    opened = [s.day for s in state.facts.starts if s.post == post.number]
    return opened[-1] if opened and opened[-1] == state.phase.day else None


def read_death_in_dawn(plain: str, post: PostLike, cite: Cite, state: State, names: Names) -> None:
    """A sentence that opens a day may tell the night's death too ("Day 5 has begun, and Alder, an
    innocent townie, was killed"): the death is read from it (:func:`date_dawn_deaths` dates it)."""
    if _opened_here(post, state) is not None:
        read_death(plain, post, cite, state, names)


def date_dawn_deaths(post: PostLike, state: State) -> None:
    """A kill the post that opens day N dated to day N, or to day N-1 it closed, died in night N-1:
    it was read before the words that open the day, or with them. One whose own line says it was
    killed in the day ("Alder, Cop, killed day 2") keeps its day."""
    day = _opened_here(post, state)
    if day is None or day < 2:
        return
    f = state.facts
    for death in list(f.deaths):
        if (
            death.cite.post != post.number
            or death.cause is not DeathCause.DAY_KILL
            or death.phase not in (f"day {day}", f"day {day - 1}")
            or KILLED_IN_DAY.search(death.cite.words)
        ):
            continue
        night = DeathFact(death.player, f"night {day - 1}", None, DeathCause.NIGHT_KILL, death.cite)
        state.redate(death, night)
