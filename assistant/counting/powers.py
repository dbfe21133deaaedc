"""Who holds a role's power as of a post: a power is a fact with a time, gained and lost at a point
of the game.

A role's power is gained at a post or phase (from the start, elected, chosen, inherited) and lost at
death or use. Every rule hook asks here, never on its own, "as of this post, does this seat hold
this power?", and a replay as of a post never sees a decision, an election or a death recorded after
it: :func:`decision` hides a decision whose ``post`` lies after the replay's point, and
:func:`alive` reads the living as of the post asked (a death recorded at a later post has not
happened yet).

- the Judge's power (:func:`judge_holder`): the Judge's while alive; once the Judge is dead, a
  stand-in's the ruleset names (``judge_stand_ins``: the Witch Hunt 2023 Apprentice who chose the
  Judge, "take over their duties if they die"; the Peeping Tom observing the Judge, "If that role is
  dead, you may make decisions ... in their place"), while that stand-in lives;
- the Loose Cannon's (:func:`loose_cannon_lost`): while alive and until used ("Sacrifice yourself";
  Witchhunt Online 2.0.1: "Once per game");
- the sheriff's badge (:func:`passed_on`): "The badge is passed on to his successor at the time of
  his death" (Millers Hollow); who holds it before that (a recorded badge, an election) is the
  sheriff hook's to say.

Pure: everything comes from the day being replayed (:class:`assistant.counting.hooks.DayView`).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING

from assistant.counting.hooks import Decision

if TYPE_CHECKING:
    from assistant.counting.hooks import DayView as DayReplay
    from assistant.gamefile.game import DecidingRole, Game


@dataclass(frozen=True)
class Holder:
    """A seat holding a role's power as of a post; ``instead_of``: the dead holder whose place it
    takes."""

    seat: str
    instead_of: str | None = None


def point(day: DayReplay, post: int | None = None) -> int | None:
    """The post a question about ``day`` is asked as of: ``post``, never past the replay's own point
    (None: the day's end, its day kills included)."""
    at_post = day.r.at_post
    if post is None:
        return at_post
    return post if at_post is None else min(post, at_post)


def alive(day: DayReplay, seat: str | None, post: int | None = None) -> bool:
    """Whether ``seat`` is alive as of ``post`` (None: the day's end) as the replay sees it."""
    return seat is not None and seat in day.living(point(day, post))


def decision(day: DayReplay, role: DecidingRole, number: int | None = None) -> Decision | None:
    """The pick ``role`` made on day ``number`` (default: the day replayed), as
    ``[[private.decisions]]`` records it (a seat or "none", and the post it was made at when
    recorded), or None. A replay as of a post never sees a decision recorded after it."""
    number = day.number if number is None else number
    at_post = day.r.at_post
    for recorded in day.game.private.decisions:
        if recorded.get("day") == number and role in recorded:
            post = recorded.get("post")
            if post is not None and at_post is not None and post > at_post:
                return None
            return Decision(recorded[role], post)
    return None


def judge_holder(day: DayReplay, post: int | None = None) -> Holder | None:
    """Who holds the Judge's power as of ``post`` (None: the day's end): the Judge while alive, then
    the first living stand-in the ruleset names; None when no one does (the Judge unnamed, or dead
    with no stand-in)."""
    private = day.game.private
    if private.judge is None:
        return None
    if alive(day, private.judge, post):
        return Holder(private.judge)
    for role in day.ruleset.judge_stand_ins:
        seat = getattr(private, role)
        if alive(day, seat, post):
            return Holder(seat, instead_of=private.judge)
    return None


def loose_cannon_lost(day: DayReplay, post: int | None = None) -> str | None:
    """Why the Loose Cannon's power is not his as of ``post``, or None while it is: he must be alive
    (his own shot kills him at the post he acts in, so ask as of the post before it) and must not
    have used it on an earlier day ("Sacrifice yourself"; Witchhunt Online 2.0.1: "Once per
    game")."""
    holder = day.game.private.loose_cannon
    if holder is None:
        return None
    if not alive(day, holder, post):
        return f"the Loose Cannon ({holder}) was already dead"
    for number in range(1, day.number):
        if decision(day, "loose_cannon", number) is None:
            continue
        outcome = day.earlier(number).votal.outcome
        if outcome is not None and str(outcome.reason) == "loose_cannon":
            return f"the Loose Cannon ({holder}) already acted on day {number}"
    return None


def passed_on(game: Game, holder: str | None, living: Collection[str]) -> str | None:
    """The badge's holder among ``living``: a dead holder's goes to the successor he named, at his
    death, and on down the line ("The badge is passed on to his successor at the time of his
    death")."""
    seen = set()
    while holder is not None and holder not in living and holder not in seen:
        seen.add(holder)
        holder = game.private.successors.get(holder)
    return holder if holder in living else None
