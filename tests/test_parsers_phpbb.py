"""phpBB parser: saved prosilver 3.3, 3.0-era and MafiaScum pages read into whole post records."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from assistant.cli.demo import PhpbbThread, pagination
from assistant.errors import ForumError
from parsers import phpbb
from parsers.page import Post

FIXTURES = Path(__file__).parent / "fixtures" / "phpbb"
PROSILVER = "https://games.example.org/viewtopic.php?f=2&t=7"
MAFIASCUM = "https://forum.mafiascum.net/viewtopic.php?f=53&t=15787"
ARCHIVE = "https://forum.mafiascum.net/viewtopic.php?f=53&t=15783"
NEW_YORK = ZoneInfo("America/New_York")


def read(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def summary(post: Post) -> tuple:
    return (
        post.number,
        post.post_id,
        post.author,
        post.author_id,
        post.time,
        post.edited,
        post.deleted,
    )


def at(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def test_prosilver_first_page_reads_every_post_numbered_from_one():
    page = phpbb.parse_page(read("prosilver33_t7_start0.html"), url=PROSILVER)
    assert [summary(p) for p in page.posts] == [
        (1, "101", "Cobalt", "2", at(2019, 11, 5, 18, 3, 11), False, False),
        (2, "102", "Hiraki", "57", at(2019, 11, 5, 18, 22, 11), False, False),
        (3, "103", "Visitor", None, at(2019, 11, 5, 18, 41, 11), False, False),  # guest
        (4, "104", "Dekes", "58", at(2019, 11, 5, 19, 0, 11), False, False),
        (
            5,
            "105",
            "AntB",
            "59",
            at(2019, 11, 5, 19, 19, 11),
            False,
            True,
        ),  # soft-deleted, moderator view
        (
            6,
            "106",
            "boberz",
            "60",
            at(2019, 11, 5, 19, 38, 11),
            True,
            False,
        ),  # edited with a reason
        (7, "107", "Beefster", "61", at(2019, 11, 5, 19, 57, 11), False, False),
        (8, "108", "Quilford", None, at(2019, 11, 5, 20, 16, 11), False, False),  # deleted account
        (9, "109", "Hiraki", "57", at(2019, 11, 5, 20, 35, 11), False, False),
        (10, "110", "Dekes", "58", at(2019, 11, 5, 20, 54, 11), False, False),
    ]
    # the session id phpBB adds for cookieless visitors is dropped from the next page
    assert page.next_url == "https://games.example.org/viewtopic.php?f=2&t=7&start=10"
    assert page.total_posts == 11
    assert page.problems == []


def test_prosilver_body_is_the_content_only_without_signature():
    page = phpbb.parse_page(read("prosilver33_t7_start0.html"), url=PROSILVER)
    assert page.posts[0] == Post(
        post_id="101",
        number=1,
        author="Cobalt",
        time=at(2019, 11, 5, 18, 3, 11),
        body_html='<span style="font-size:150%;line-height:116%"><strong class="text-strong">Day 1</strong>'
        "</span><br>\nIt takes 4 votes to lynch.",
        url="https://games.example.org/viewtopic.php?p=101#p101",
        author_id="2",
    )


def test_prosilver_keeps_nested_quotes_in_the_body():
    body = phpbb.parse_page(read("prosilver33_t7_start0.html"), url=PROSILVER).posts[3].body_html
    assert body.count("<blockquote") == 3
    assert body.startswith("<blockquote><cite>")
    assert body.endswith("I am not voting in here.")


def test_prosilver_last_page_with_one_post():
    page = phpbb.parse_page(read("prosilver33_t7_start10.html"), url=PROSILVER + "&start=10")
    assert page == phpbb.ThreadPage(
        posts=[
            Post(
                post_id="111",
                number=11,
                author="AntB",
                time=at(2019, 11, 5, 21, 13, 11),
                body_html='<strong class="text-strong">VOTE: boberz</strong>',
                url="https://games.example.org/viewtopic.php?p=111#p111",
                author_id="59",
            )
        ],
        next_url=None,
        total_posts=11,
        problems=[],
    )


def test_prosilver_numbers_follow_the_canonical_offset_when_start_was_past_the_end():
    # phpBB clamps a start past the end to the last page; its canonical link says which
    page = phpbb.parse_page(read("prosilver33_t7_start10.html"), url=PROSILVER + "&start=500")
    assert [p.number for p in page.posts] == [11]


def test_mafiascum_pages_use_the_printed_zero_based_numbers_across_pages():
    pages = [
        phpbb.parse_page(
            read(f"mafiascum_t15787_start{start}.html"), url=f"{MAFIASCUM}&start={start}"
        )
        for start in (0, 25, 50)
    ]
    assert [len(p.posts) for p in pages] == [25, 25, 1]
    assert [p.number for page in pages for p in page.posts] == list(range(51))
    assert [p.post_id for page in pages for p in page.posts] == [
        str(5500000 + n) for n in range(51)
    ]
    assert [p.next_url for p in pages] == [f"{MAFIASCUM}&start=25", f"{MAFIASCUM}&start=50", None]
    assert {p.total_posts for p in pages} == {51}
    assert all(p.problems == [] for p in pages)


def test_mafiascum_special_posts():
    page = phpbb.parse_page(read("mafiascum_t15787_start0.html"), url=MAFIASCUM)
    assert [summary(p) for p in page.posts[15:18]] == [
        (
            15,
            "5500015",
            "Cobalt",
            "2001",
            at(2013, 4, 24, 5, 24, 45),
            False,
            False,
        ),  # vote count box
        (
            16,
            "5500016",
            "Quilford",
            None,
            at(2013, 4, 24, 6, 1, 45),
            False,
            False,
        ),  # deleted account
        (17, "5500017", "AntB", "3103", at(2013, 4, 24, 6, 38, 45), True, False),  # edited
    ]
    assert page.posts[1].body_html == (
        '<span class="bbvote" title="This is an official vote.">VOTE: Dekes</span><br>\nrandom vote'
    )


def test_mafiascum_last_page_body_excludes_the_signature():
    (post,) = phpbb.parse_page(
        read("mafiascum_t15787_start50.html"), url=f"{MAFIASCUM}&start=50"
    ).posts
    assert post == Post(
        post_id="5500050",
        number=50,
        author="Hiraki",
        time=at(2013, 4, 25, 2, 59, 45),
        body_html='<span class="bbvote" title="This is an official vote.">UNVOTE</span><br>\n'
        '<span class="bbvote" title="This is an official vote.">VOTE: Beefster</span><br>\n'
        "<blockquote><div><cite>In post 24, Dekes wrote:</cite><blockquote><div><cite>In post 20, Hiraki "
        'wrote:</cite><span class="bbvote" title="This is an official vote.">VOTE: Dekes</span></div>'
        "</blockquote>nested</div></blockquote>",
        url="https://forum.mafiascum.net/viewtopic.php?p=5500050#p5500050",
        author_id="3101",
    )


def test_archived_30_page_reads_text_dates_in_the_board_zone():
    page = phpbb.parse_page(
        read("phpbb30_t15783_start5.html"), url=f"{ARCHIVE}&start=5", tz=NEW_YORK
    )
    assert [summary(p) for p in page.posts] == [
        (6, "2659951", "Mastina", "901", at(2010, 12, 6, 21, 17), False, False),
        (7, "2659958", "LyingBrian", "903", at(2010, 12, 6, 22, 10), False, False),
        (8, "2659965", "Zachrulez", "902", at(2010, 12, 6, 23, 3), False, False),
        (9, "2659972", "Mastina", "901", at(2010, 12, 6, 23, 56), False, False),
        (10, "2659979", "Nobody", None, at(2010, 12, 7, 0, 49), False, False),  # guest
    ]
    assert (
        page.posts[1].body_html
        == '<div style="display:inline;font-weight:bold">vote: Zachrulez</div>'
    )
    assert (
        page.next_url == f"{ARCHIVE}&start=10"
    )  # 3.0 has no rel=next: the link after the current page
    assert page.total_posts == 12
    assert page.problems == []


def test_archived_30_page_past_the_end_is_numbered_from_the_pagination_bar():
    page = phpbb.parse_page(
        read("phpbb30_t15783_start10.html"), url=f"{ARCHIVE}&start=40", tz=NEW_YORK
    )
    assert [summary(p) for p in page.posts] == [
        (11, "2659986", "LyingBrian", "903", at(2010, 12, 7, 1, 42), False, False),
        (12, "2659993", "Zachrulez", "902", at(2010, 12, 7, 2, 35), True, False),
    ]
    assert page.next_url is None


def test_changed_markup_is_a_problem_not_an_empty_success():
    html = "<html><body><div class='topic'><div class='message'>VOTE: x</div></div></body></html>"
    page = phpbb.parse_page(html, url=PROSILVER)
    assert page.posts == []
    assert page.problems == [
        "no phpBB post containers (div.post#pNNN) found: the page markup may have changed"
    ]


def test_information_box_is_reported():
    html = (
        '<html><body id="phpbb"><div class="panel" id="message"><div class="inner"><h2 class="message-title">'
        "Information</h2><p>The requested topic does not exist.</p></div></div></body></html>"
    )
    page = phpbb.parse_page(html, url=PROSILVER)
    assert page.problems == [
        "no posts on the page; the forum says: Information The requested topic does not exist."
    ]


def test_post_without_a_body_is_reported_and_the_rest_kept():
    html = read("prosilver33_t7_start10.html").replace(
        '<div class="content">', '<div class="contents">'
    )
    page = phpbb.parse_page(html, url=PROSILVER + "&start=10")
    assert page.posts == []
    assert page.problems == ["post p111: no div.content body"]


@pytest.mark.parametrize(
    ("thread", "after", "per_page", "expected"),
    [
        (PROSILVER, None, None, PROSILVER),
        (PROSILVER + "&start=20&sid=abc", None, None, PROSILVER),
        (PROSILVER, 11, None, PROSILVER + "&start=10"),  # stock: post 11 is the first of page 2
        (PROSILVER, 10, None, PROSILVER),
        (MAFIASCUM, 50, None, MAFIASCUM + "&start=50"),  # MafiaScum numbers from 0
        (
            "http://127.0.0.1:8080/viewtopic.php?t=9",
            50,
            25,
            "http://127.0.0.1:8080/viewtopic.php?t=9&start=25",
        ),
        (MAFIASCUM, 49, None, MAFIASCUM + "&start=25"),
        (MAFIASCUM, 0, None, MAFIASCUM),
        (
            "http://127.0.0.1:8080/viewtopic.php?t=9",
            60,
            25,
            "http://127.0.0.1:8080/viewtopic.php?t=9&start=50",
        ),
        (
            "http://127.0.0.1:8080/viewtopic.php?t=9&ppp=50",
            60,
            None,
            "http://127.0.0.1:8080/viewtopic.php?t=9&ppp=50&start=50",
        ),
    ],
)
def test_page_url(thread, after, per_page, expected):
    assert phpbb.page_url(thread, after_post=after, per_page=per_page) == expected


def test_page_url_needs_a_topic_id():
    with pytest.raises(ForumError, match="t="):
        phpbb.page_url("https://games.example.org/viewtopic.php?p=101")


def test_looks_like():
    assert phpbb.looks_like(PROSILVER)
    assert phpbb.looks_like("https://x.org/forum/topic/1", read("prosilver33_t7_start10.html"))
    assert not phpbb.looks_like("https://meta.discourse.org/t/some-topic/123")
    assert not phpbb.looks_like("https://x.org/t/1", '{"post_stream": {"posts": []}}')


# phpBB 3.1 prosilver prints no <time> element: the date is text in the board's zone, sometimes
# relative.
PROSILVER_31_PAGE = """<!DOCTYPE html><html dir="ltr" lang="en-gb"><head><meta charset="utf-8" /></head>
<body id="phpbb" class="nojs notouch section-viewtopic ltr "><div id="page-body">
<div class="action-bar top">
 <div class="pagination">2 posts &bull; Page <strong>1</strong> of <strong>1</strong></div>
</div>
{posts}
</div></body></html>"""
PROSILVER_31_POST = """<div id="p{pid}" class="post has-profile bg2">
 <div class="inner">
  <dl class="postprofile" id="profile{pid}">
   <dt class="has-profile-rank no-avatar"><div class="avatar-container"></div>
    <a href="./memberlist.php?mode=viewprofile&amp;u=2" style="color: #AA0000;" class="username-coloured">Cobalt</a>
   </dt>
   <dd class="profile-rank">Site Admin</dd>
  </dl>
  <div class="postbody"><div id="post_content{pid}">
   <h3 class="first"><a href="#p{pid}">Day 1</a></h3>
   <p class="author"><a href="./viewtopic.php?p={pid}#p{pid}"><span class="imageset icon_post_target"
    title="Post">Post</span></a><span class="responsive-hide">by <strong><a
    href="./memberlist.php?mode=viewprofile&amp;u=2" style="color: #AA0000;" class="username-coloured">Cobalt</a>
    </strong> &raquo; </span>{when} </p>
   <div class="content"><strong class="text-strong">Day 1 begins</strong></div>
  </div></div>
 </div>
</div>"""


def test_prosilver_31_text_dates_relative_to_the_read_time():
    posts = "".join(
        PROSILVER_31_POST.format(pid=pid, when=when)
        for pid, when in ((8, "Today, 9:04 am"), (9, "12 minutes ago"))
    )
    now = datetime(2021, 3, 14, 23, 45, tzinfo=UTC)  # 7:45 pm in New York
    page = phpbb.parse_page(
        PROSILVER_31_PAGE.format(posts=posts), url=PROSILVER, tz=NEW_YORK, now=now
    )
    assert [summary(p) for p in page.posts] == [
        (1, "8", "Cobalt", "2", at(2021, 3, 14, 13, 4), False, False),
        (2, "9", "Cobalt", "2", at(2021, 3, 14, 23, 33), False, False),
    ]
    assert page.problems == []


def test_prosilver_31_relative_date_without_the_read_time_is_a_problem():
    posts = PROSILVER_31_POST.format(pid=8, when="Today, 9:04 am")
    html = PROSILVER_31_PAGE.format(posts=posts).replace("2 posts", "1 post")
    page = phpbb.parse_page(html, url=PROSILVER, tz=NEW_YORK)
    assert [p.time for p in page.posts] == [None]
    assert page.problems == ["post 8: no readable time"]


@pytest.mark.parametrize(
    ("total_pages", "on_page", "shown"),
    [
        (3, 2, [1, 2, 3]),
        (110, 1, [1, 2, 3, 4, 5, 0, 110]),
        (110, 18, [1, 0, 15, 16, 17, 18, 19, 20, 21, 0, 110]),
        (110, 110, [1, 0, 106, 107, 108, 109, 110]),
    ],
)
def test_demo_pagination_lists_pages_the_way_phpbb_does(total_pages, on_page, shown):
    assert pagination(total_pages, on_page) == shown


def test_a_long_threads_pagination_bar_with_ellipses_still_gives_the_total_and_the_next_page():
    moment = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
    posts = [
        {"number": n, "id": str(900 + n), "user": "Ann", "content": "hi", "time": moment}
        for n in range(400)
    ]
    html = PhpbbThread(posts, "Long", "53", "15787", 25).render(200)
    assert 'class="ellipsis"' in html
    page = phpbb.parse_page(html, url=MAFIASCUM + "&start=200")
    assert (page.total_posts, page.posts[0].number, page.problems) == (400, 200, [])
    assert page.next_url == MAFIASCUM + "&start=225"
