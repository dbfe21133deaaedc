"""ProBoards parser: post rows, millisecond times, and post numbers derived from the page."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from assistant.errors import ForumError
from parsers import proboards
from parsers.page import Post, ThreadPage

FIXTURES = Path(__file__).parent / "fixtures" / "proboards"
THREAD = "https://forum.example.net/thread/1/game-thread"


def read(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def test_guest_post_is_a_whole_record():
    page = proboards.parse_page(read("contract_thread_1_game-thread.html"), url=THREAD)
    assert page.posts[2] == Post(
        post_id="503",
        number=3,
        author="Visitor",
        time=datetime(2021, 3, 14, 4, 30, tzinfo=UTC),
        body_html="hello from a guest <b>vote Ashe</b>",
        url="https://forum.example.net/post/503",
        author_id=None,
    )
    assert page.next_url == THREAD + "?page=2"


def test_a_page_with_a_next_page_is_full_so_it_settles_the_page_size():
    # five posts a page here, though the default is 20: page 2 still starts at post 6
    page = proboards.parse_page(
        read("contract_thread_1_game-thread_page-2.html"), url=THREAD + "?page=2"
    )
    assert [(p.number, p.post_id, p.author, p.edited) for p in page.posts] == [
        (6, "506", "Dusk", False),
        (7, "507", "Quill", False),
        (8, "508", "Ashe", True),
        (9, "509", "Birch", False),
        (10, "510", "Cedar", False),
    ]


def test_last_page_numbers_come_from_the_forum_page_size():
    page = proboards.parse_page(
        read("contract_thread_1_game-thread_page-3.html"), url=THREAD + "?page=3", per_page=5
    )
    assert page == ThreadPage(
        posts=[
            Post(
                post_id="511",
                number=11,
                author="Dusk",
                time=datetime(2021, 3, 14, 12, 30, tzinfo=UTC),
                body_html="<b>VOTE: Ashe</b>",
                url="https://forum.example.net/post/511",
                author_id="47",
            )
        ],
        next_url=None,
        problems=[],
    )


def test_current_page_comes_from_the_control_bar_not_the_request():
    # asked for page 40 of a 3-page thread: the forum showed page 3
    page = proboards.parse_page(
        read("contract_thread_1_game-thread_page-3.html"), url=THREAD + "?page=40", per_page=5
    )
    assert [p.number for p in page.posts] == [11]


def test_signature_is_not_part_of_the_body():
    text = read("contract_thread_1_game-thread_page-3.html")
    assert 'class="signature"' in text
    (post,) = proboards.parse_page(text, url=THREAD + "?page=3", per_page=5).posts
    assert "Nobody" not in post.body_html


@pytest.mark.parametrize(
    ("thread", "after", "per_page", "expected"),
    [
        (THREAD, None, None, THREAD),
        (THREAD + "?page=3", None, None, THREAD),
        (THREAD, 20, None, THREAD),
        (THREAD, 21, None, THREAD + "?page=2"),
        (THREAD, 11, 5, THREAD + "?page=3"),
        (
            "https://werewolf.proboards.com/thread/812",
            45,
            None,
            "https://werewolf.proboards.com/thread/812?page=3",
        ),
    ],
)
def test_page_url(thread, after, per_page, expected):
    assert proboards.page_url(thread, after_post=after, per_page=per_page) == expected


def test_page_url_needs_a_thread():
    with pytest.raises(ForumError, match="not a ProBoards thread URL"):
        proboards.page_url("https://werewolf.proboards.com/board/3/games")


def test_last_page_without_the_page_size_says_what_it_assumed():
    page = proboards.parse_page(
        read("contract_thread_1_game-thread_page-3.html"), url=THREAD + "?page=3"
    )
    assert [p.number for p in page.posts] == [41]
    assert page.problems == [
        "post numbers on page 3 assume 20 posts a page: set [fetch] posts_per_page"
    ]
