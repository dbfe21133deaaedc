"""Reading a deadline the way moderators write one ("Deadline is Friday 10pm EST", countdown links)
into UTC."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, tzinfo
from zoneinfo import ZoneInfo

from dateutil import parser as dateparser

# Zone words moderators write, most specific first. Offsets such as "GMT+10.30" are read separately.
_ZONES = (
    (r"e[sd]t|eastern(?:\s+(?:standard|daylight))?(?:\s+time)?|et\b", "America/New_York"),
    (r"c[sd]t|central(?:\s+(?:standard|daylight))?(?:\s+time)?", "America/Chicago"),
    (r"m[sd]t|mountain(?:\s+(?:standard|daylight))?(?:\s+time)?", "America/Denver"),
    (r"p[sd]t|pacific(?:\s+(?:standard|daylight))?(?:\s+time)?", "America/Los_Angeles"),
    (r"bst|british\s+summer\s+time", "Europe/London"),
    (r"cet|cest", "Europe/Paris"),
    (r"aest|aedt", "Australia/Sydney"),
    (r"gmt|utc|zulu", "UTC"),
)
_ZONE_RE = re.compile(r"\b(" + "|".join(z for z, _ in _ZONES) + r")\b\.?", re.IGNORECASE)
_OFFSET_RE = re.compile(r"\b(?:gmt|utc)\s*([+-])\s*(\d{1,2})(?:[:.](\d{2}))?\b", re.IGNORECASE)
_COUNTDOWN = re.compile(r"[?&]iso=(\d{8}T\d{2}(?:\d{2}){0,2})", re.IGNORECASE)
_RELATIVE = re.compile(
    r"\b(?:in|within|ends\s+in|of)\s+(\d{1,3})\s*(hours?|hrs?|h|days?)\b"
    r"|\b(\d{1,3})\s*(hours?|hrs?|days?)\s+(?:from\s+(?:now|this\s+post)|after\s+this\s+post)",
    re.IGNORECASE,
)
_TRIGGER = re.compile(
    r"\b(?:deadline|eo[dn]\s*\d*|end\s+of\s+(?:day|night)\s*\d*|(?:day|"
    r"night)\s*\d*\s+(?:will\s+)?ends?|ends?|due|until|by|extended\s+(?:to|until)|"
    r"moved\s+to)\b\s*(?:is|will\s+be|:|at|on|by|of|-)?\s*",
    re.IGNORECASE,
)
_MONTH = r"jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec"
_DATE_HINT = re.compile(
    r"\b(?:"
    + _MONTH
    + r")[a-z]*\.?\s+\d{1,2}|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:"
    + _MONTH
    + r")|"
    r"\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b|\b\d{4}-\d{2}-\d{2}\b|"
    r"\b(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?\b",
    re.IGNORECASE,
)
_TIME_HINT = re.compile(
    r"\b\d{1,2}(?::\d{2}(?::\d{2})?)?\s*(?:[ap]\.?m\.?)\b|\b\d{1,2}:\d{2}\b|\bnoon\b|\bmidnight\b",
    re.IGNORECASE,
)


def read_deadline(text: str, post: object, timezone: tzinfo = UTC) -> datetime | None:
    """The deadline ``text`` states, as UTC; None when it states none we can read.

    ``post`` gives the time it was written (``post.time``, UTC): a date without a year is the next
    one after it, "in 48 hours" counts from it, and a deadline before it is no deadline. Times
    without a zone are read in ``timezone``.
    """
    written: datetime | None = getattr(post, "time", None)
    countdown = _COUNTDOWN.search(text)
    if countdown:
        digits = countdown.group(1).ljust(15, "0")
        local = datetime.strptime(digits, "%Y%m%dT%H%M%S")
        return _after(local.replace(tzinfo=timezone).astimezone(UTC), written)
    trigger = _TRIGGER.search(text)
    if trigger is None:
        return None
    phrase = text[trigger.end() : trigger.end() + 90]
    if (
        written is not None
        and not _DATE_HINT.search(phrase)
        and (relative := _relative(text)) is not None
    ):
        return written + relative
    if not _DATE_HINT.search(phrase) and not _TIME_HINT.search(phrase):
        return None
    zone, phrase = _phrase_zone(phrase, timezone)
    phrase = _bare_phrase(phrase)
    if not (_DATE_HINT.search(phrase) or _TIME_HINT.search(phrase)):
        return None
    base = (
        (written or datetime(2000, 1, 1, tzinfo=UTC))
        .astimezone(zone)
        .replace(hour=0, minute=0, second=0, microsecond=0, tzinfo=None)
    )
    try:
        local, _ = dateparser.parse(
            phrase, default=base, fuzzy_with_tokens=True, tzinfos=_zones_read_above
        )
    except (ValueError, OverflowError):
        return None
    return _after_written(local, zone, phrase, written)


def _relative(text: str) -> timedelta | None:
    """ "in 48 hours", "3 days from now": the time from the post to the deadline."""
    relative = _RELATIVE.search(text)
    if relative is None:
        return None
    amount = int(relative.group(1) or relative.group(3))
    unit = (relative.group(2) or relative.group(4)).lower()
    return timedelta(days=amount) if unit.startswith("d") else timedelta(hours=amount)


def _phrase_zone(phrase: str, timezone: tzinfo) -> tuple[tzinfo, str]:
    """The zone the phrase names ("GMT+10.30", "EST"), else ``timezone``; and the phrase without
    it."""
    offset = _OFFSET_RE.search(phrase)
    if offset:
        sign = 1 if offset.group(1) == "+" else -1
        minutes = int(offset.group(3) or 0)
        if offset.group(3) and "." in offset.group(0) and minutes in (5, 50):
            minutes = 30  # "GMT+10.5"
        zone = _fixed(
            sign * (int(offset.group(2)) * 60 + (30 if offset.group(3) == "30" else minutes))
        )
        return zone, phrase[: offset.start()] + " " + phrase[offset.end() :]
    named = _ZONE_RE.search(phrase)
    if named is None:
        return timezone, phrase
    name = next(name for pattern, name in _ZONES if re.fullmatch(pattern, named.group(1), re.I))
    return ZoneInfo(name), phrase[: named.start()] + " " + phrase[named.end() :]


def _bare_phrase(phrase: str) -> str:
    """The phrase cut to its first sentence and one time, with the words dateutil would misread left
    out."""
    phrase = re.split(r"(?<![A-Z][a-z])[.!?;](?:\s|$)|\bcountdown\b|\bwith\b|\buntil\b", phrase)[0]
    times = list(_TIME_HINT.finditer(phrase))
    # "10pm EST / 7pm PST": the same moment again, for another zone
    for other in reversed(times[1:]):
        phrase = phrase[: other.start()] + " " + phrase[other.end() :]
    phrase = re.sub(r"[()\[\]]", " ", phrase)
    phrase = re.sub(r"\b(\d{1,2})(?:st|nd|rd|th)\b", r"\1", phrase)
    phrase = re.sub(r"\bnoon\b", "12:00 pm", phrase, flags=re.IGNORECASE)
    phrase = re.sub(r"\bmidnight\b", "11:59 pm", phrase, flags=re.IGNORECASE)
    return re.sub(
        r"\b(time|my|at|on|of|the|is|will|be|this|coming|next|[A-Za-z]+day\s+night)\b",
        " ",
        phrase,
        flags=re.IGNORECASE,
    )


def _after_written(
    local: datetime, zone: tzinfo, phrase: str, written: datetime | None
) -> datetime | None:
    """The local time read, as UTC, moved to the first such time after the post was written (a date
    alone is the day's start in the zone); None when it is before the post or more than sixty days
    after it."""
    when = local.replace(tzinfo=zone).astimezone(UTC)
    if written is None:
        return when
    if when < written and not _DATE_HINT.search(phrase):
        when += timedelta(days=1)  # a time alone ("EoD at 9am") is the next such time
    if when < written - timedelta(hours=12):
        if re.search(r"\b\d{4}\b|\d+/\d+/\d+", phrase):
            return None
        when = local.replace(year=local.year + 1, tzinfo=zone).astimezone(UTC)
        if when < written:
            return None
    if when > written + timedelta(days=60):
        return None
    return when


def _zones_read_above(name: str | None, offset: int | None) -> None:
    """What dateutil takes for a zone ("PST" after "GMT-8", "USA") is no zone: the zone was read
    above."""
    return None


def _after(when: datetime, written: datetime | None) -> datetime | None:
    if written is not None and when < written - timedelta(hours=12):
        return None
    return when


def _fixed(minutes: int) -> tzinfo:
    from datetime import timezone as fixed

    return fixed(timedelta(minutes=minutes))
