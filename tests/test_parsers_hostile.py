"""Hostile post bodies never cost the posts around them, on every engine's page markup.

A body nested hundreds deep, holding 10 MB of text, leaving a <table> open, or forging a post block
(boards that allow HTML) must leave every other post on the page read, with its own author and its
own commands; a page holding fewer posts than it says is a problem, never a quiet success.
"""

from __future__ import annotations

import importlib

import pytest
from support import thread_around

from parsers.detect import get_parser

BASE = "http://forum.test"
HTML_ENGINES = ["phpbb", "xenforo", "vbulletin", "proboards"]


def _page(engine: str, second_body: str) -> tuple[str, str]:
    forum = importlib.import_module(f"forums.{engine}")
    pages = forum.render_thread(thread_around(second_body), base_url=BASE, topic_id="9")
    (path, text), *_ = pages.items()
    return BASE + path, text


def _read(engine: str, second_body: str):
    url, text = _page(engine, second_body)
    return get_parser(engine).parse_page(text, url=url)


def _commands(post) -> list[tuple[str, str | None]]:
    return [(c.action, c.target) for c in post.commands or ()]


def _who_voted(page) -> list[tuple[str, list]]:
    return [(p.author, _commands(p)) for p in page.posts]


EXPECTED_OTHERS = [("Ashe", [("vote", "Birch")]), ("Dusk", [("vote", "Cedar")])]

DEEP = "<div>" * 400 + "<b>VOTE: Ashe</b>" + "</div>" * 400
HUGE = "<p>" + "x" * 10_000_000 + "</p><b>VOTE: Ashe</b>"


@pytest.mark.parametrize("engine", HTML_ENGINES)
@pytest.mark.parametrize(("kind", "body"), [("deep", DEEP), ("huge", HUGE)])
def test_a_deep_or_huge_body_is_read_whole_and_ends_nothing(engine, kind, body):
    page = _read(engine, body)
    assert _who_voted(page)[1:] == [("Mallory", [("vote", "Ashe")]), *EXPECTED_OTHERS]
    assert page.problems == []


@pytest.mark.parametrize("engine", HTML_ENGINES)
def test_a_body_deeper_than_the_parser_goes_costs_only_itself(engine):
    page = _read(engine, "<div>" * 3000 + "<b>VOTE: Ashe</b>" + "</div>" * 3000)
    assert _who_voted(page)[2:] == EXPECTED_OTHERS
    assert [p.author for p in page.posts] == ["Moderator", "Mallory", "Ashe", "Dusk"]


@pytest.mark.parametrize("engine", HTML_ENGINES)
@pytest.mark.parametrize(
    "body",
    [
        "<table><tr><td>a table never closed",
        "<table>never closed",
        "<div><span>open",
        "<div>" * 5 + "five open",
    ],
)
def test_unclosed_markup_never_hands_the_next_posts_to_its_author(engine, body):
    page = _read(engine, body)
    assert _who_voted(page) == [("Moderator", []), ("Mallory", []), *EXPECTED_OTHERS]


FORGED = {
    "phpbb": '<div id="p999" class="post bg1"><div class="inner"><div class="postbody"><p class="author">by '
    '<strong><a href="./memberlist.php?mode=viewprofile&amp;u=41" class="username">Ashe</a></strong></p>'
    '<div class="content"><b>VOTE: Dusk</b></div></div></div></div>',
    "xenforo": '<article class="message message--post js-post" data-author="Ashe" data-content="post-999" '
    'id="js-post-999"><h4 class="message-name"><a class="username" data-user-id="42">Ashe</a></h4>'
    '<div class="message-userContent"><article class="message-body"><div class="bbWrapper"><b>VOTE: Dusk</b>'
    "</div></article></div></article>",
    "vbulletin": '<li class="postbitlegacy postbitim postcontainer" id="post_999"><div class="username_container">'
    '<a class="username" href="member.php?u=42"><strong>Ashe</strong></a></div><div id="post_message_999">'
    '<blockquote class="postcontent restore"><b>VOTE: Dusk</b></blockquote></div></li>',
    "proboards": '<table><tr class="post" id="post-999"><td class="left-panel"><a class="user-link" href="/user/42">'
    'Ashe</a></td><td class="content"><article><div class="message"><b>VOTE: Dusk</b></div></article></td></tr>'
    "</table>",
}


@pytest.mark.parametrize("engine", HTML_ENGINES)
def test_a_body_cannot_forge_a_post(engine):
    page = _read(engine, "Look: " + FORGED[engine])
    assert [p.post_id for p in page.posts] == ["700", "701", "702", "703"]
    assert _who_voted(page)[2:] == EXPECTED_OTHERS
    assert any("999" in problem for problem in page.problems)


@pytest.mark.parametrize("engine", HTML_ENGINES)
def test_a_page_short_of_the_posts_it_says_it_holds_is_a_problem(engine):
    forum = importlib.import_module(f"forums.{engine}")
    posts = thread_around("hello") * 6
    posts = [
        dict(p, number=n + 1, id=str(700 + n)) for n, p in enumerate(posts)
    ]  # 24 posts: a full page first
    pages = forum.render_thread(posts, base_url=BASE, topic_id="9", per_page=10)
    (path, text), *_ = pages.items()
    clipped = _drop_post(engine, text, "705")
    page = get_parser(engine).parse_page(
        clipped, url=BASE + path, per_page=10
    )  # as the game file may say
    assert "705" not in [p.post_id for p in page.posts]
    assert any("posts may be missing" in problem for problem in page.problems), page.problems


def _drop_post(engine: str, text: str, post_id: str) -> str:
    """The page with one post's markup cut out, as if the forum had lost it from the middle of a
    page."""
    starts = {
        "phpbb": f'<div id="p{post_id}"',
        "xenforo": "<article",
        "vbulletin": '<li class="postbitlegacy',
        "proboards": "<tr",
    }
    ident = {
        "phpbb": f'id="p{post_id}"',
        "xenforo": f'data-content="post-{post_id}"',
        "vbulletin": f'id="post_{post_id}"',
        "proboards": f'id="post-{post_id}"',
    }[engine]
    at = text.index(ident)
    start = text.rindex(starts[engine], 0, at + len(ident))
    tag = {"phpbb": "div", "xenforo": "article", "vbulletin": "li", "proboards": "tr"}[engine]
    from parsers.markup import _end_of

    return text[:start] + text[_end_of(text, start, tag) :]


@pytest.mark.parametrize(("kind", "body"), [("deep", DEEP), ("huge", HUGE)])
def test_discourse_bodies_deep_or_huge_keep_their_commands(kind, body):
    from parsers.commands import extract_commands

    url, text = _page("discourse", body)
    page = get_parser("discourse").parse_page(text, url=url)
    assert [p.author for p in page.posts] == ["Moderator", "Mallory", "Ashe", "Dusk"]
    assert [(c.action, c.target) for c in extract_commands(page.posts[1].body_html)] == [
        ("vote", "Ashe")
    ]


def test_a_discourse_answer_with_a_hole_in_the_stream_is_a_problem():
    import json

    url, text = _page("discourse", "hello")
    data = json.loads(text)
    del data["post_stream"]["posts"][2]
    page = get_parser("discourse").parse_page(json.dumps(data), url=url)
    assert [p.author for p in page.posts] == ["Moderator", "Mallory", "Dusk"]
    assert page.problems == [
        "the answer's 3 posts are not a run of the topic's stream: posts may be missing"
    ]


@pytest.mark.parametrize("engine", HTML_ENGINES)
@pytest.mark.parametrize(
    "wrap",
    [
        "{}",
        "<div>{}</div>",
        "<blockquote>{}</blockquote>",
        "<div><div>{}</div></div> after",
        "<div><div><div>{}",
    ],
)
def test_a_post_forged_in_the_last_post_of_a_page_is_never_a_post(engine, wrap):
    forum = importlib.import_module(f"forums.{engine}")
    posts = thread_around("hello")
    posts[-1] = dict(posts[-1], content="<b>VOTE: Birch</b> Look: " + wrap.format(FORGED[engine]))
    (path, text), *_ = forum.render_thread(posts, base_url=BASE, topic_id="9").items()
    page = get_parser(engine).parse_page(text, url=BASE + path)
    assert [p.post_id for p in page.posts] == ["700", "701", "702", "703"]
    assert [p.author for p in page.posts] == ["Moderator", "Mallory", "Ashe", "Dusk"]
    assert _commands(page.posts[-1]) == [
        ("vote", "Birch")
    ]  # the forged vote is no command of Dusk's either
    assert any("999" in problem for problem in page.problems), page.problems


@pytest.mark.parametrize("engine", ["phpbb", "vbulletin"])
def test_posts_read_from_inside_markup_left_open_say_so(engine):
    page = _read(engine, "<div>" * 5 + "five open")
    assert _who_voted(page) == [("Moderator", []), ("Mallory", []), *EXPECTED_OTHERS]
    assert any("left markup open" in problem and "702" in problem for problem in page.problems), (
        page.problems
    )


def test_a_discourse_body_cannot_forge_a_post():
    url, text = _page("discourse", "Look: " + FORGED["xenforo"] + FORGED["phpbb"])
    page = get_parser("discourse").parse_page(text, url=url)
    assert [p.post_id for p in page.posts] == ["700", "701", "702", "703"]
    assert [p.author for p in page.posts] == ["Moderator", "Mallory", "Ashe", "Dusk"]
