"""Reading the dates forums print as text (in the viewer's zone) into UTC datetimes."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, tzinfo

# Formats seen in phpBB's and vBulletin's default date settings, weekday already removed.
_FORMATS = (
    "%b %d, %Y %I:%M %p",  # phpBB default "D M d, Y g:i a" -> "Dec 06, 2010 4:04 pm"
    "%b %d, %Y %H:%M",
    "%d %b %Y, %H:%M",
    "%d %b %Y %H:%M",
    "%m-%d-%Y, %I:%M %p",  # vBulletin 4 "04-23-2013, 03:09 PM"
    "%m-%d-%Y %I:%M %p",
    "%m-%d-%Y, %H:%M",
    "%d-%m-%Y, %H:%M",
    "%Y-%m-%d, %H:%M",
    "%Y-%m-%d %H:%M",
    "%Y-%m-%d %H:%M:%S",
    "%d.%m.%Y, %H:%M",
    "%d.%m.%Y %H:%M",
    "%B %d, %Y, %I:%M %p",
    "%B %d, %Y %I:%M %p",
    "%b %d, %Y, %I:%M %p",
    "%d %B %Y, %H:%M",
)
_TIME_FORMATS = ("%I:%M %p", "%H:%M", "%I:%M:%S %p", "%H:%M:%S")
_WEEKDAY = re.compile(r"^(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+", re.IGNORECASE)
_RELATIVE = re.compile(r"^(today|yesterday)\s*,?\s*(?:at\s+)?(.*)$", re.IGNORECASE)
_AGO = re.compile(r"^(?:(less than a)|(\d+)|(an?|one))\s+(minute|hour)s?\s+ago$", re.IGNORECASE)


def parse_text_date(text: str, *, tz: tzinfo = UTC, now: datetime | None = None) -> datetime | None:
    """A forum's printed date, read in zone ``tz``, as UTC; None when the text is no date we know.

    "Today"/"Yesterday" are read relative to ``now`` (required for them: no wall clock here).
    """
    clean = " ".join(text.replace("\xa0", " ").split()).strip(" ,»«-")
    clean = clean.replace(" at ", " ")
    ago = _AGO.match(clean)
    if ago:  # phpBB 3.1+: "Less than a minute ago", "12 minutes ago" (to the minute, like the page)
        if now is None:
            return None
        count = 0 if ago.group(1) else int(ago.group(2) or 1)
        step = timedelta(minutes=1) if ago.group(4).lower() == "minute" else timedelta(hours=1)
        return (now - count * step).astimezone(UTC).replace(second=0, microsecond=0)
    relative = _RELATIVE.match(clean)
    if relative:
        if now is None:
            return None
        day = now.astimezone(tz).date()
        if relative.group(1).lower() == "yesterday":
            day -= timedelta(days=1)
        clock = _read_clock(relative.group(2))
        if clock is None:
            return None
        local = datetime.combine(day, clock.time())
        return local.replace(tzinfo=tz).astimezone(UTC)
    clean = _WEEKDAY.sub("", clean)
    for fmt in _FORMATS:
        try:
            local = datetime.strptime(clean, fmt)
        except ValueError:
            continue
        return local.replace(tzinfo=tz).astimezone(UTC)
    return None


def _read_clock(text: str) -> datetime | None:
    text = text.strip().upper()
    for fmt in _TIME_FORMATS:
        try:
            return datetime.strptime(text, fmt)
        except ValueError:
            continue
    return None


def parse_iso_time(text: str, *, tz: tzinfo = UTC) -> datetime | None:
    """An ISO 8601 time as UTC; one without an offset is read in zone ``tz``. None when it is no
    such time."""
    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=tz)
    return when.astimezone(UTC)
