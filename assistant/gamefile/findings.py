"""Findings the moderator may accept in the game file (``[checks] accepted``), named by stable ids.

A warning about the game file against the thread that the moderator has checked and found right (the
moderator did count that late hammer; those votes between the days were the night's chatter) stops
asking: its id, listed under ``[checks] accepted``, turns it into a note. An id names what the
finding is about, never its wording: ``end_post_disagrees:day2:post23`` (kind, then the day and the
post where it has them), so a finding keeps its id while the thread grows. Warnings that fix
themselves (a sync that failed, a day the file has not caught up with) are not accepted: `votal
sync` and `votal update` answer them.
"""

from __future__ import annotations

import re
from enum import StrEnum


class AcceptableKind(StrEnum):
    """The kinds of warning a moderator may accept (made by assistant.counting.checks and count)."""

    END_POST_DISAGREES = "end_post_disagrees"
    VOTE_BETWEEN_DAYS = "vote_between_days"
    MISSING_DEATH = "missing_death"
    INFERRED_DAY = "inferred_day"
    CORRECTION_WITHOUT_POST = "correction_without_post"
    TAKEOVER = "takeover"


_ID = re.compile(r"^(?P<kind>[a-z_]+)(?::day(?P<day>\d+))?(?::post(?P<post>\d+))?$")


def finding_id(kind: str, day: int | None, post: int | None) -> str:
    """The stable id of a finding: its kind, then ``:dayN`` and ``:postN`` where it has them."""
    day_part = f":day{day}" if day is not None else ""
    return kind + day_part + (f":post{post}" if post is not None else "")


def acceptable(kind: str) -> bool:
    return kind in AcceptableKind.__members__.values()


def id_problem(text: str) -> str | None:
    """Why ``text`` is no id of an acceptable finding (None when it is one)."""
    found = _ID.match(text)
    if found is None:
        return (
            f'{text!r} is not a finding id (such as "end_post_disagrees:day2:post23", as '
            "`votal count --format json` gives it)"
        )
    if not acceptable(found["kind"]):
        kinds = ", ".join(k.value for k in AcceptableKind)
        return f"{text!r} is no warning that can be accepted (their kinds: {kinds})"
    return None
