"""Deadlines as moderators write them, read into UTC from the time of the post that states them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest

from assistant.reading.deadlines import read_deadline

WRITTEN = SimpleNamespace(time=datetime(2011, 1, 12, 18, 0, tzinfo=UTC))  # a Wednesday
NEW_YORK = ZoneInfo("America/New_York")


@pytest.mark.parametrize(
    ("text", "zone", "expected"),
    [
        ("EoD 1 is Friday 10pm EST", UTC, datetime(2011, 1, 15, 3, 0, tzinfo=UTC)),
        (
            "Deadline is Sunday, January 30, at 5:42 PM Central Time.",
            UTC,
            datetime(2011, 1, 30, 23, 42, tzinfo=UTC),
        ),
        (
            "Day 2 ends at 9am (GMT) on the 21st January 2011.",
            NEW_YORK,
            datetime(2011, 1, 21, 9, 0, tzinfo=UTC),
        ),
        ("Deadline: Jan 20 14:09", NEW_YORK, datetime(2011, 1, 20, 19, 9, tzinfo=UTC)),
        (
            "The deadline is 11:30pm 21st January GMT+10.30",
            UTC,
            datetime(2011, 1, 21, 23, 30, tzinfo=timezone(timedelta(hours=10, minutes=30))),
        ),
        ("Night 1 ends in 48 hours, countdown here", UTC, datetime(2011, 1, 14, 18, 0, tzinfo=UTC)),
        (
            "https://www.timeanddate.com/countdown/generic?iso=20110214T20&p0=179",
            NEW_YORK,
            datetime(2011, 2, 15, 1, 0, tzinfo=UTC),
        ),
    ],
)
def test_deadline_forms(text, zone, expected):
    assert read_deadline(text, WRITTEN, zone) == expected


@pytest.mark.parametrize(
    "text", ["Votes must be in bold.", "Deadline is soon", "Deadline was January 3, 2010 at 5pm"]
)
def test_no_deadline(text):
    assert read_deadline(text, WRITTEN, UTC) is None


def test_a_date_without_a_year_is_the_next_one():
    written = SimpleNamespace(time=datetime(2010, 12, 30, 12, 0, tzinfo=UTC))
    assert read_deadline("Deadline is January 3 at noon", written, UTC) == datetime(
        2011, 1, 3, 12, 0, tzinfo=UTC
    )


def test_the_same_deadline_in_a_second_zone_is_read_once_and_quietly(recwarn):
    """The first zone is read; '7pm PST' is that moment again, and dateutil is not left to warn
    about 'EST'."""
    when = read_deadline("Deadline is Friday 10pm GMT-5 EST / 7pm PST", WRITTEN, UTC)
    assert when == datetime(2011, 1, 15, 3, 0, tzinfo=UTC)
    assert not [w for w in recwarn if "tzname" in str(w.message)]
