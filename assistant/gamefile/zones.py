"""Time zones as moderators write them: IANA names, and fixed offsets such as ``UTC-5``,
``GMT+10:30``, ``+10:30``.

Abbreviations (``EST``, ``PST``, ``IST``...) are refused: ``EST`` may mean New York time, which
follows daylight saving, or a fixed UTC-5, and ``IST`` names three different zones. The error lists
the forms that are accepted, so the moderator can write what they mean.
"""

from __future__ import annotations

import re
from datetime import timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

ACCEPTED = (
    "a zone name such as America/New_York or Europe/London, or a fixed offset such as UTC-5, "
    "GMT+10:30 or +10:30"
)

_OFFSET = re.compile(r"^(?:(?:UTC|GMT)\s*)?([+\-\u2212])\s*(\d{1,2})(?::?(\d{2}))?$", re.IGNORECASE)
_PLAIN_UTC = {"utc", "gmt", "z", "utc+0", "gmt+0", "utc-0", "gmt-0"}
_ABBREVIATION = re.compile(r"^[A-Z]{2,5}$")
# What a moderator most likely means by a common abbreviation: the zone, and the abbreviation's own
# offset.
_MEANINGS = {
    "EST": ("America/New_York", "UTC-5"),
    "EDT": ("America/New_York", "UTC-4"),
    "CST": ("America/Chicago", "UTC-6"),
    "CDT": ("America/Chicago", "UTC-5"),
    "MST": ("America/Denver", "UTC-7"),
    "MDT": ("America/Denver", "UTC-6"),
    "PST": ("America/Los_Angeles", "UTC-8"),
    "PDT": ("America/Los_Angeles", "UTC-7"),
    "BST": ("Europe/London", "UTC+1"),
    "CET": ("Europe/Paris", "UTC+1"),
    "CEST": ("Europe/Paris", "UTC+2"),
    "AEST": ("Australia/Sydney", "UTC+10"),
    "AEDT": ("Australia/Sydney", "UTC+11"),
    "ACST": ("Australia/Adelaide", "UTC+9:30"),
    "ACDT": ("Australia/Adelaide", "UTC+10:30"),
}


class UnknownZone(ValueError):
    """A time zone Votal will not guess at; the message says what to write instead."""


def zone_label(zone: tzinfo) -> str:
    """A zone as people read it: its IANA name ("America/New_York"), or a fixed offset's
    ("UTC-05:00")."""
    return getattr(zone, "key", None) or zone.tzname(None) or "UTC"


def zone_named(text: str) -> tzinfo:
    """The zone ``text`` names: an IANA zone, or a fixed offset from UTC as moderators write it."""
    name = text.strip()
    if name.casefold() in _PLAIN_UTC:
        return ZoneInfo("UTC")
    offset = _OFFSET.match(name)
    if offset:
        sign, hours, minutes = offset.group(1), int(offset.group(2)), int(offset.group(3) or 0)
        if hours > 14 or minutes >= 60:
            raise UnknownZone(f"offset {text!r} is out of range (UTC-12:00 to UTC+14:00)")
        delta = timedelta(hours=hours, minutes=minutes)
        negative = sign in "-\u2212"
        return timezone(
            -delta if negative else delta,
            name=f"UTC{'-' if negative else '+'}{hours:02d}:{minutes:02d}",
        )
    if _ABBREVIATION.match(name):
        meant = _MEANINGS.get(name)
        hint = (
            f"{meant[0]} (follows daylight saving) or the fixed offset {meant[1]}"
            if meant
            else ACCEPTED
        )
        raise UnknownZone(
            f"{text!r} is an abbreviation, which can mean more than one zone: write {hint}"
        )
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise UnknownZone(f"unknown time zone {text!r}: write {ACCEPTED}") from None
