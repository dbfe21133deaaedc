"""Each non-phpBB engine read from a page in its real markup, not one rendered by Votal's own test
renderers.

The fixtures reproduce the engines' published page structure with invented games and people: XenForo
2.0's ``post_macros`` (a ``div.message-attribution-opposite``, where 2.1 and later print a ``ul``),
vBulletin 4.2's ``postbit_legacy`` with its quote, code and signature blocks and "Results 1 to 4 of
10", ProBoards' thread rows as its pages and scrapers show them (``div.container.posts``,
``ui-pagination``, ``edited_by``, a guest), and Discourse's ``/t/{id}.json`` with every field its
serializers send, a small-action post and a deleted one. Records are compared whole: every field of
every post, and the commands read from its body.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from parsers import discourse, proboards, vbulletin, xenforo
from parsers.commands import extract_commands

FIXTURES = Path(__file__).parent / "fixtures"


def at(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def records(page, *, commands_from_body: bool = False) -> list[tuple]:
    """Every field of each post but the body's HTML, which is stood for by the commands read from
    it."""
    return [
        (
            p.post_id,
            p.number,
            p.author,
            p.author_id,
            p.time,
            p.url,
            p.edited,
            p.deleted,
            [
                (c.action, c.target)
                for c in (extract_commands(p.body_html) if commands_from_body else p.commands)
            ],
        )
        for p in page.posts
    ]


def test_xenforo_20_thread_page():
    url = "https://games.example.net/threads/night-market-mafia.77/"
    text = (FIXTURES / "xenforo" / "xf20_threads_night-market.77.html").read_text(encoding="utf-8")
    page = xenforo.parse_page(text, url=url, per_page=4)
    link = "https://games.example.net/threads/night-market-mafia.77/post-"
    assert records(page) == [
        (
            "5101",
            1,
            "Lantern",
            "3",
            at(2019, 6, 1, 18, 0),
            link + "5101",
            False,
            False,
            [("vote", "name")],
        ),
        (
            "5104",
            2,
            "Pepper Moth",
            "41",
            at(2019, 6, 1, 18, 42, 10),
            link + "5104",
            False,
            False,
            [("vote", "Quince")],
        ),  # the quoted vote is the host's
        (
            "5109",
            3,
            "Quince",
            "58",
            at(2019, 6, 1, 19, 5),
            link + "5109",
            True,
            False,
            [("unvote", None)],
        ),  # the spoiler's vote and title, and the struck vote, do not count
        (
            "5112",
            4,
            "wanderer",
            None,
            at(2019, 6, 1, 19, 30),
            link + "5112",
            False,
            False,
            [("vote", "Quince")],
        ),  # a guest: no user id; the code block's vote does not count
    ]
    assert (page.next_url, page.problems) == (
        "https://games.example.net/threads/night-market-mafia.77/page-2",
        [],
    )


def test_vbulletin_42_postbit_legacy_page():
    url = "https://mafia.example.org/showthread.php?t=3301"
    text = (FIXTURES / "vbulletin" / "vb42_showthread.php_t-3301.html").read_text(encoding="utf-8")
    page = vbulletin.parse_page(text, url=url, now=at(2024, 1, 1))
    link = "https://mafia.example.org/showthread.php?t=3301&p={0}&viewfull=1#post{0}"
    assert records(page) == [
        (
            "770001",
            1,
            "Gullwing",
            "12",
            at(2014, 6, 14, 20, 0),
            link.format(770001),
            False,
            False,
            [("vote", "name")],
        ),
        (
            "770009",
            2,
            "Foghorn",
            "208",
            at(2014, 6, 14, 20, 31),
            link.format(770009),
            True,
            False,
            [("vote", "Tidepool")],
        ),  # not the quote's vote, nor the signature's
        (
            "770015",
            3,
            "Driftwood",
            None,
            at(2014, 6, 14, 21, 2),
            link.format(770015),
            False,
            False,
            [("vote", "Foghorn")],
        ),  # a guest
        (
            "770022",
            4,
            "Tidepool",
            "311",
            at(2014, 6, 14, 21, 40),
            link.format(770022),
            False,
            False,
            [("unvote", None), ("vote", "Foghorn")],
        ),  # not the code block's
    ]
    assert (page.next_url, page.total_posts, page.problems) == (
        "https://mafia.example.org/showthread.php?t=3301&page=2",
        10,
        [],
    )


def test_proboards_thread_page():
    url = "https://harbour.proboards.com/thread/88/harbour-mafia"
    text = (FIXTURES / "proboards" / "pb_thread_88_harbour-mafia.html").read_text(encoding="utf-8")
    page = proboards.parse_page(text, url=url, per_page=4)
    link = "https://harbour.proboards.com/post/"
    assert records(page) == [
        (
            "31001",
            1,
            "Harbourmaster",
            "7",
            at(2020, 3, 1, 20, 0),
            link + "31001",
            False,
            False,
            [("vote", "Name")],
        ),
        (
            "31005",
            2,
            "Saltmarsh",
            "19",
            at(2020, 3, 1, 20, 45),
            link + "31005",
            True,
            False,
            [("vote", "Kelpie")],
        ),  # the quote's vote is the host's
        (
            "31007",
            3,
            "Stowaway",
            None,
            at(2020, 3, 1, 21, 10),
            link + "31007",
            False,
            False,
            [("vote", "Saltmarsh")],
        ),  # a guest
        (
            "31012",
            4,
            "Kelpie",
            "23",
            at(2020, 3, 1, 22, 0),
            link + "31012",
            False,
            False,
            [("vote", "Saltmarsh")],
        ),  # not the spoiler's, the struck one or the code's
    ]
    assert (page.next_url, page.problems) == (
        "https://harbour.proboards.com/thread/88/harbour-mafia?page=2",
        [],
    )


def test_discourse_topic_json():
    text = (FIXTURES / "discourse" / "real_t_4242.json").read_text(encoding="utf-8")
    page = discourse.parse_page(text, url="https://forum.example.com/t/4242.json")
    link = "https://forum.example.com/t/tidewater-werewolf/4242/"
    assert records(page, commands_from_body=True) == [
        (
            "91001",
            1,
            "reedwarden",
            "5",
            at(2023, 10, 7, 16, 0),
            link + "1",
            False,
            False,
            [("vote", "name")],
        ),
        (
            "91002",
            2,
            "marram",
            "31",
            datetime(2023, 10, 7, 16, 20, 12, 345000, tzinfo=UTC),
            link + "2",
            False,
            False,
            [("vote", "sandpiper")],
        ),  # bbcode-b bold; the quote's vote is the host's
        # post 3 is a small action (the topic closed): not a player's post
        (
            "91004",
            4,
            "sandpiper",
            "44",
            at(2023, 10, 7, 17, 2),
            link + "4",
            True,
            False,
            [("unvote", None)],
        ),  # version 3; struck, <details> and code votes do not count
        (
            "91005",
            5,
            "tern",
            "52",
            at(2023, 10, 7, 17, 40),
            link + "5",
            False,
            True,
            [],
        ),  # deleted by its author
    ]
    assert (page.next_url, page.total_posts, page.problems) == (None, 5, [])
