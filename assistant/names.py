"""Resolving a typed name to a seat, the way a careful moderator reads it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Resolution:
    """What a typed name means. ``seat`` is None when it does not count; ``reason`` then says why."""

    text: str
    seat: str | None  # the seat's first name
    step: str | None  # which rule resolved it: exact, folded, alias, account, prefix, substring, acronym, fuzzy
    no_elimination: bool = False  # a sleep / no lynch / no elimination vote
    reason: str | None = None  # "unknown name", "ambiguous: A or B", "target is dead", "not a player"
