"""Discourse parser: JSON topic views into posts; skipped post types, deleted accounts, paging by
post number."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from assistant.errors import ForumError
from parsers import discourse
from parsers.page import Post

FIXTURES = Path(__file__).parent / "fixtures" / "discourse"
ORIGIN = "https://forum.example.net"


def read(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def item(number: int, **fields) -> dict:
    """A post as the API serialises it (the fields the parser reads, and a few it does not)."""
    return {
        "id": 9000 + number,
        "name": "",
        "username": "ruth",
        "created_at": f"2022-05-0{1 + number // 10}T1{number % 10}:00:00.000Z",
        "cooked": f"<p>post {number}</p>",
        "post_number": number,
        "post_type": 1,
        "updated_at": "2022-06-01T00:00:00.000Z",  # not an edit signal
        "topic_id": 77,
        "topic_slug": "big-game",
        "version": 1,
        "user_id": 12,
        "hidden": False,
        "deleted_at": None,
        "user_deleted": False,
        **fields,
    }


def test_first_view_reads_posts_skips_small_actions_and_links_the_next_view():
    page = discourse.parse_page(read("contract_t_1.json"), url=ORIGIN + "/t/1.json")
    assert [p.number for p in page.posts] == [
        1,
        2,
        3,
        4,
        5,
        6,
        7,
        8,
        10,
        11,
        *range(13, 22),
    ]  # 9 deleted, 12 closed
    assert page.next_url == ORIGIN + "/t/1/22.json"
    assert page.total_posts == 36
    assert page.problems == []


def test_deleted_account_keeps_its_name():
    page = discourse.parse_page(read("contract_t_1.json"), url=ORIGIN + "/t/1.json")
    assert page.posts[6] == Post(
        post_id="507",
        number=7,
        author="Quill",
        time=datetime(2021, 3, 14, 8, 30, tzinfo=UTC),
        body_html="I deleted my account. <strong>VOTE: Cedar</strong>",
        url=ORIGIN + "/t/game-thread/1/7",
        author_id=None,
    )


def test_views_do_not_overlap_and_the_last_one_ends_the_thread():
    middle = discourse.parse_page(read("contract_t_1_22.json"), url=ORIGIN + "/t/1/22.json")
    assert [p.number for p in middle.posts] == list(range(22, 37))
    assert middle.next_url == ORIGIN + "/t/1/37.json"
    last = discourse.parse_page(read("contract_t_1_37.json"), url=ORIGIN + "/t/1/37.json")
    assert [p.number for p in last.posts] == [37]
    assert last.next_url is None


def test_post_fields():
    answer = {
        "id": 77,
        "slug": "big-game",
        "post_stream": {
            "posts": [
                item(1, version=3, edit_reason="typo"),
                item(2, post_type=4, cooked="<p>whisper</p>"),  # staff whisper
                item(3, post_type=3, cooked="", action_code="closed.enabled"),  # small action
                item(4, post_type=2),  # moderator post: kept
                item(5, user_deleted=True, cooked="<p>(post deleted by author)</p>"),
                item(6, hidden=True, cooked_hidden=True, cooked=""),
                item(7, deleted_at="2022-05-02T00:00:00.000Z"),
                item(8, username=None, name=None, display_username=None, user_id=None),
            ],
            "stream": [9001, 9002, 9003, 9004, 9005, 9006, 9007, 9008],
        },
        "posts_count": 8,
    }
    page = discourse.parse_page(json.dumps(answer), url=ORIGIN + "/t/big-game/77/1.json")
    assert [(p.number, p.author, p.author_id, p.edited, p.deleted) for p in page.posts] == [
        (1, "ruth", "12", True, False),
        (4, "ruth", "12", False, False),
        (5, "ruth", "12", False, True),
        (6, "ruth", "12", False, False),  # hidden by flags: not deleted, and nothing to read
        (7, "ruth", "12", False, True),
        (8, "(deleted user)", None, False, False),
    ]
    assert page.posts[0].time == datetime(2022, 5, 1, 11, tzinfo=UTC)
    assert page.posts[3].body_html == ""
    assert page.posts[0].url == ORIGIN + "/t/big-game/77/1"
    assert page.next_url is None


def test_posts_json_pages_by_post_number():
    full = {"post_stream": {"posts": [item(n) for n in range(31, 51)]}, "id": 77}
    page = discourse.parse_page(
        json.dumps(full), url=ORIGIN + "/t/77/posts.json?post_number=30&asc=true"
    )
    assert len(page.posts) == 20
    assert page.next_url == ORIGIN + "/t/77/posts.json?post_number=50&asc=true"
    short = {"post_stream": {"posts": [item(n) for n in range(51, 55)]}, "id": 77}
    assert discourse.parse_page(json.dumps(short), url=page.next_url).next_url is None


def test_a_post_without_a_time_is_reported_and_the_rest_kept():
    answer = {
        "post_stream": {"posts": [item(1), item(2, created_at="yesterday")], "stream": [9001, 9002]}
    }
    page = discourse.parse_page(json.dumps(answer), url=ORIGIN + "/t/77.json")
    assert [p.number for p in page.posts] == [1]
    assert page.problems == [
        "post 9002: unreadable (ValueError: created_at 'yesterday' is not a time)"
    ]


def test_an_html_page_is_a_problem():
    page = discourse.parse_page(
        "<!DOCTYPE html><html><body>Log in</body></html>", url=ORIGIN + "/t/77.json"
    )
    assert page.posts == []
    assert page.problems == ["not a Discourse JSON answer (expected /t/{id}.json)"]


@pytest.mark.parametrize(
    ("thread", "after", "expected"),
    [
        (ORIGIN + "/t/big-game/77", None, ORIGIN + "/t/77.json"),
        (ORIGIN + "/t/big-game/77/120", None, ORIGIN + "/t/77.json"),
        (ORIGIN + "/t/77", 1, ORIGIN + "/t/77.json"),
        (ORIGIN + "/t/big-game/77", 120, ORIGIN + "/t/77/120.json"),
        (ORIGIN + "/t/77/5", 120, ORIGIN + "/t/77/120.json"),
    ],
)
def test_page_url(thread, after, expected):
    assert discourse.page_url(thread, after_post=after) == expected


def test_page_url_needs_a_topic():
    with pytest.raises(ForumError, match="not a Discourse topic URL"):
        discourse.page_url(ORIGIN + "/c/games/4")
