"""Dates forums print as text, read in the board's zone: formats, "Today"/"Yesterday", "minutes
ago", DST."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from parsers.textdates import parse_iso_time, parse_text_date

NEW_YORK = ZoneInfo("America/New_York")
LONDON = ZoneInfo("Europe/London")
NOW = datetime(2021, 3, 14, 23, 45, tzinfo=UTC)  # 7:45 pm in New York, the day summer time began


def at(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "tz", "expected"),
    [
        ("Mon Dec 06, 2010 4:04 pm", NEW_YORK, at(2010, 12, 6, 21, 4)),  # phpBB default format
        (
            " \u00bb Mon Dec 06, 2010 4:04 pm ",
            NEW_YORK,
            at(2010, 12, 6, 21, 4),
        ),  # as cut from "by X » date"
        (
            "Sun Mar 14, 2021 3:30 am",
            NEW_YORK,
            at(2021, 3, 14, 7, 30),
        ),  # just after the switch: EDT
        ("Sun Mar 14, 2021 1:30 am", NEW_YORK, at(2021, 3, 14, 6, 30)),  # just before it: EST
        ("06 Dec 2010, 16:04", LONDON, at(2010, 12, 6, 16, 4)),
        ("04-23-2013, 03:09 PM", NEW_YORK, at(2013, 4, 23, 19, 9)),  # vBulletin
        ("04-23-2013,\u00a003:09 PM", UTC, at(2013, 4, 23, 15, 9)),
        ("Today, 03:09 PM", NEW_YORK, at(2021, 3, 14, 19, 9)),
        ("Yesterday, 11:50 PM", NEW_YORK, at(2021, 3, 14, 4, 50)),  # the 13th, still EST
        ("Today at 9:15", LONDON, at(2021, 3, 14, 9, 15)),
        ("Less than a minute ago", NEW_YORK, at(2021, 3, 14, 23, 45)),
        ("12 minutes ago", NEW_YORK, at(2021, 3, 14, 23, 33)),
        ("1 hour ago", UTC, at(2021, 3, 14, 22, 45)),
    ],
)
def test_parse_text_date(text, tz, expected):
    assert parse_text_date(text, tz=tz, now=NOW) == expected


@pytest.mark.parametrize("text", ["Today, 03:09 PM", "12 minutes ago"])
def test_relative_dates_need_the_read_time(text):
    assert parse_text_date(text, tz=NEW_YORK) is None


@pytest.mark.parametrize("text", ["", "ISO", "sometime last week", "13-45-2013, 03:09 PM"])
def test_unknown_text_is_none(text):
    assert parse_text_date(text, tz=NEW_YORK, now=NOW) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2013-04-23T20:09:45+00:00", at(2013, 4, 23, 20, 9, 45)),
        ("2021-01-01T12:00:00+0000", at(2021, 1, 1, 12)),
        ("2021-03-14T02:30:00.000Z", at(2021, 3, 14, 2, 30)),
        ("2013-04-23T16:09:45-04:00", at(2013, 4, 23, 20, 9, 45)),
        ("2020-11-01T05:59:00", at(2020, 11, 1, 10, 59)),  # no offset: the board's zone
        ("not a time", None),
    ],
)
def test_parse_iso_time(text, expected):
    assert parse_iso_time(text, tz=NEW_YORK) == expected
