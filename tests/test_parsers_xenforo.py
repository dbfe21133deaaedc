"""XenForo 2 parser: saved thread pages read into whole post records, and the markup of older
versions."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from assistant.errors import ForumError
from parsers import xenforo
from parsers.page import Post, ThreadPage

FIXTURES = Path(__file__).parent / "fixtures" / "xenforo"
THREAD = "https://forum.example.net/threads/game-thread.1/"


def read(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def test_guest_post_is_a_whole_record():
    page = xenforo.parse_page(read("contract_threads_game-thread.1_.html"), url=THREAD)
    assert page.posts[2] == Post(
        post_id="503",
        number=3,
        author="Visitor",
        time=datetime(2021, 3, 14, 4, 30, tzinfo=UTC),
        body_html="hello from a guest <b>vote Ashe</b>",
        url="https://forum.example.net/threads/game-thread.1/post-503",
        author_id=None,
    )
    assert page.next_url == "https://forum.example.net/threads/game-thread.1/page-2"


def test_quotes_stay_in_the_body_and_the_signature_does_not():
    first = xenforo.parse_page(read("contract_threads_game-thread.1_.html"), url=THREAD).posts
    assert first[3].body_html.count("bbCodeBlock--quote") == 2
    (last,) = xenforo.parse_page(
        read("contract_threads_game-thread.1_page-3.html"), url=THREAD + "page-3"
    ).posts
    assert "VOTE: Nobody" in read(
        "contract_threads_game-thread.1_page-3.html"
    )  # the signature is on the page
    assert last.body_html == "<b>VOTE: Ashe</b>"


def test_last_page_with_one_post():
    page = xenforo.parse_page(
        read("contract_threads_game-thread.1_page-3.html"), url=THREAD + "page-3"
    )
    assert page == ThreadPage(
        posts=[
            Post(
                post_id="511",
                number=11,
                author="Dusk",
                time=datetime(2021, 3, 14, 12, 30, tzinfo=UTC),
                body_html="<b>VOTE: Ashe</b>",
                url="https://forum.example.net/threads/game-thread.1/post-511",
                author_id="47",
            )
        ],
        next_url=None,
        total_posts=None,
        problems=[],
    )


# XenForo 2.1: the epoch is in data-time (2.2 moved it to data-timestamp); numbers past 999 have
# separators.
XF21_POST = """<html id="XF"><body><div class="block-body">
<article class="message message--post js-post js-inlineModContainer" data-author="Ruth" data-content="post-90210"
 id="js-post-90210">
 <div class="message-inner">
  <div class="message-cell message-cell--user"><section class="message-user">
   <h4 class="message-name"><a href="/members/ruth.77/" class="username" data-user-id="77">Ruth</a></h4>
  </section></div>
  <div class="message-cell message-cell--main"><div class="message-main">
   <header class="message-attribution message-attribution--split">
    <a href="/threads/big-game.9/post-90210" class="u-concealed" rel="nofollow"><time class="u-dt"
     datetime="2020-11-01T05:59:00+0000" data-time="1604210340" data-date-string="Nov 1, 2020"
     data-time-string="5:59 AM">Nov 1, 2020</time></a>
    <ul class="message-attribution-opposite message-attribution-opposite--list">
     <li><a href="/threads/big-game.9/post-90210" rel="nofollow">#1,234</a></li>
    </ul>
   </header>
   <div class="message-content js-messageContent">
    <div class="messageNotice messageNotice--deleted">Deleted by Mod.</div>
    <div class="message-userContent"><article class="message-body js-selectToQuote">
     <div class="bbWrapper"><b>VOTE: Sam</b></div>
    </article></div>
    <div class="message-lastEdit">Last edited: <time class="u-dt" data-time="1604210400">Nov 1, 2020</time></div>
   </div>
  </div></div>
 </div>
</article>
</div></body></html>"""


def test_xenforo_21_markup():
    page = xenforo.parse_page(XF21_POST, url="https://forum.example.net/threads/big-game.9/page-62")
    assert page.posts == [
        Post(
            post_id="90210",
            number=1234,
            author="Ruth",
            time=datetime(2020, 11, 1, 5, 59, tzinfo=UTC),
            body_html="<b>VOTE: Sam</b>",
            url="https://forum.example.net/threads/big-game.9/post-90210",
            edited=True,
            deleted=True,
            author_id="77",
        )
    ]
    assert page.problems == []


def test_post_without_a_number_is_reported():
    page = xenforo.parse_page(XF21_POST.replace("#1,234", "Share"), url=THREAD)
    assert page.posts == []
    assert page.problems == [
        "post post-90210: no post number (#N in .message-attribution-opposite)"
    ]


@pytest.mark.parametrize(
    ("thread", "after", "per_page", "expected"),
    [
        (THREAD, None, None, THREAD),
        ("https://forum.example.net/threads/game-thread.1/page-7", None, None, THREAD),
        ("https://forum.example.net/threads/game-thread.1/post-512", None, None, THREAD),
        (THREAD, 20, None, THREAD),
        (THREAD, 21, None, THREAD + "page-2"),
        (THREAD, 11, 5, THREAD + "page-3"),
        (
            "https://forum.example.net/threads/4521",
            41,
            None,
            "https://forum.example.net/threads/4521/page-3",
        ),
        (  # a board without friendly URLs
            "https://forum.example.net/index.php?threads/game-thread.1/page-4",
            30,
            None,
            "https://forum.example.net/index.php?threads/game-thread.1/page-2",
        ),
    ],
)
def test_page_url(thread, after, per_page, expected):
    assert xenforo.page_url(thread, after_post=after, per_page=per_page) == expected


def test_page_url_needs_a_thread():
    with pytest.raises(ForumError, match="not a XenForo thread URL"):
        xenforo.page_url("https://forum.example.net/forums/games.4/")
