"""vBulletin parser: text dates in the board's zone ("Today", "Yesterday", summer time), vB4 and vB5
markup."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from assistant.errors import ForumError
from parsers import vbulletin
from parsers.page import Post, ThreadPage

FIXTURES = Path(__file__).parent / "fixtures" / "vbulletin"
THREAD = "https://forum.example.net/showthread.php?t=1"
NEW_YORK = ZoneInfo("America/New_York")
T0 = datetime(2021, 3, 14, 1, 30, tzinfo=UTC)
READ_AT = T0 + timedelta(hours=23)  # 8:30 pm in New York on the 14th


def read(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def first_page(**options) -> ThreadPage:
    return vbulletin.parse_page(read("contract_showthread.php_t-1.html"), url=THREAD, **options)


def test_text_dates_across_yesterday_today_and_the_switch_to_summer_time():
    text = read("contract_showthread.php_t-1.html")
    assert "Yesterday,&nbsp;" in text and "Today,&nbsp;" in text and "03-14-2021" not in text
    page = first_page(tz=NEW_YORK, now=READ_AT)
    # one post an hour from 01:30 UTC; New York moved from UTC-5 to UTC-4 at 07:00 UTC
    assert [p.time for p in page.posts] == [T0 + timedelta(hours=n) for n in range(1, 6)]


def test_guest_post_is_a_whole_record():
    page = first_page(tz=NEW_YORK, now=READ_AT)
    assert page.posts[2] == Post(
        post_id="503",
        number=3,
        author="Visitor",
        time=datetime(2021, 3, 14, 4, 30, tzinfo=UTC),
        body_html="hello from a guest <b>vote Ashe</b>",
        url="https://forum.example.net/showthread.php?t=1&p=503&viewfull=1#post503",
        author_id=None,
    )
    assert (page.next_url, page.total_posts) == (
        "https://forum.example.net/showthread.php?t=1&page=2",
        11,
    )


def test_relative_dates_without_the_read_time_are_problems_not_guesses():
    page = first_page(tz=NEW_YORK)
    assert [p.time for p in page.posts] == [None] * 5
    assert page.problems[0] == "post 501: cannot read the date 'Yesterday, 09:30 PM'"


def test_edited_and_deleted_posts():
    page = vbulletin.parse_page(
        read("contract_showthread.php_t-1_page-2.html"),
        url=THREAD + "&page=2",
        tz=NEW_YORK,
        now=READ_AT,
    )
    assert [(p.number, p.edited, p.deleted) for p in page.posts] == [
        (6, False, False),
        (7, False, False),
        (8, True, False),
        (9, False, True),
        (10, False, False),
    ]
    assert page.posts[1].author == "Quill" and page.posts[1].author_id is None  # a deleted account


def test_session_hash_is_dropped_from_the_next_page():
    text = read("contract_showthread.php_t-1.html").replace(
        'rel="next" href="showthread.php?t=1&amp;page=2"',
        'rel="next" href="showthread.php?s=0f3c9a&amp;t=1&amp;page=2"',
    )
    page = vbulletin.parse_page(text, url=THREAD, tz=NEW_YORK, now=READ_AT)
    assert page.next_url == "https://forum.example.net/showthread.php?t=1&page=2"


VB5_PAGE = """<html><head><meta name="generator" content="vBulletin 5.6.4"></head><body>
<ul class="conversation-list">
<li class="b-post js-post js-comment-entry__parent h-restore--on-preview b-post--first" data-node-id="3301"
    itemscope itemtype="http://schema.org/Article">
 <div class="b-post__grid">
  <div class="b-post__hide-when-deleted">
   <div class="b-userinfo" itemprop="author" itemscope itemtype="http://schema.org/Person">
    <div class="author h-text-size--14"><a href="https://games.example.org/member/58-ruth" itemprop="url"
     ><span itemprop="name">Ruth</span></a></div>
   </div>
  </div>
  <div class="b-post__content js-post__content">
   <div class="b-post__timestamp"><time itemprop="dateCreated" datetime="2020-11-01T05:59:00">Nov 1st, 2020,
    05:59 AM</time></div>
   <div class="b-post__count"><a href="https://games.example.org/forum/games/3300-big-game#post3301">#2</a></div>
   <div class="js-post__content-wrapper"><div class="js-post__content-text restore h-wordwrap"
     itemprop="text"><b>VOTE: Sam</b></div></div>
  </div>
 </div>
</li>
</ul></body></html>"""


def test_vbulletin_5_markup():
    page = vbulletin.parse_page(
        VB5_PAGE, url="https://games.example.org/forum/games/3300-big-game", tz=NEW_YORK
    )
    assert page.posts == [
        Post(
            post_id="3301",
            number=2,
            author="Ruth",
            time=datetime(
                2020, 11, 1, 10, 59, tzinfo=UTC
            ),  # 05:59 in New York (EST, after the DST end)
            body_html="<b>VOTE: Sam</b>",
            url="https://games.example.org/forum/games/3300-big-game#post3301",
            author_id="58",
        )
    ]
    assert page.problems == []


@pytest.mark.parametrize(
    ("thread", "after", "per_page", "expected"),
    [
        (THREAD, None, None, THREAD),
        (THREAD + "&page=4&s=abc", None, None, THREAD),
        (THREAD, 10, None, THREAD),
        (THREAD, 11, None, THREAD + "&page=2"),
        (THREAD, 11, 5, THREAD + "&page=3"),
        (
            "https://mu.example.com/showthread.php?t=9&pp=40",
            41,
            None,
            "https://mu.example.com/showthread.php?t=9&pp=40&page=2",
        ),
        (
            "https://mu.example.com/forums/showthread.php?12345-Mini-Mafia",
            25,
            None,
            "https://mu.example.com/forums/showthread.php?12345-Mini-Mafia/page3",
        ),
        (
            "https://mu.example.com/forums/showthread.php?12345-Mini-Mafia/page3",
            None,
            None,
            "https://mu.example.com/forums/showthread.php?12345-Mini-Mafia",
        ),
        (  # vBulletin 4 "advanced" friendly URLs
            "https://mu.example.com/forums/showthread.php/12345-Mini-Mafia/page2",
            41,
            None,
            "https://mu.example.com/forums/showthread.php/12345-Mini-Mafia/page5",
        ),
        (
            "https://games.example.org/forum/games/3300-big-game",
            21,
            None,
            "https://games.example.org/forum/games/3300-big-game/page3",
        ),
    ],
)
def test_page_url(thread, after, per_page, expected):
    assert vbulletin.page_url(thread, after_post=after, per_page=per_page) == expected


def test_page_url_needs_a_thread():
    with pytest.raises(ForumError, match="not a vBulletin thread URL"):
        vbulletin.page_url("https://forum.example.net/forumdisplay.php?f=3")
