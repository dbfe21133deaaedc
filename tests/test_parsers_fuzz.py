"""Fuzzing the parsers with hypothesis: whatever one post's body holds, every other post on the page
is read with its own author and its own commands, and the hostile post itself is read or reported,
never silently lost."""

from __future__ import annotations

import importlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import thread_around

from parsers.detect import get_parser

BASE = "http://forum.test"
ENGINES = ["phpbb", "xenforo", "vbulletin", "proboards"]

# Pieces of hostile bodies: markup left open or closed too often, look-alikes of the page's own
# frame, raw-text elements, comments, entities, deep nesting and plain text.
PIECES = st.sampled_from(
    [
        "<table>",
        "<tr>",
        "<td>",
        "</td>",
        "</tr>",
        "</table>",
        "<div>",
        "</div>",
        "<span>",
        "</span>",
        "<li>",
        "</li>",
        "<ol>",
        "</ol>",
        "<ul>",
        "<article>",
        "</article>",
        "<blockquote>",
        "</blockquote>",
        "<b>",
        "</b>",
        "<p>",
        "<br>",
        "<!--",
        "-->",
        "<script>",
        "</script>",
        "<style>",
        "<textarea>",
        "<select>",
        "<option>",
        "<form>",
        "<tbody>",
        "<h4>",
        "&amp;",
        "&#x202e;",
        "\u200b",
        "<b>VOTE: Ashe</b>",
        '<div class="content">',
        '<div class="post">',
        '<a class="username">Ashe</a>',
        "x" * 50,
        "vote",
    ]
)
BODIES = st.one_of(
    st.lists(PIECES, max_size=40).map("".join),
    st.integers(min_value=1, max_value=600).map(lambda n: "<div>" * n + "text" + "</div>" * n),
    st.text(max_size=200),
)


@settings(
    max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(engine=st.sampled_from(ENGINES), body=BODIES)
def test_one_hostile_body_costs_no_other_post(engine, body):
    forum = importlib.import_module(f"forums.{engine}")
    pages = forum.render_thread(thread_around(body), base_url=BASE, topic_id="9")
    (path, text), *_ = pages.items()
    page = get_parser(engine).parse_page(text, url=BASE + path)
    read = {p.post_id: p for p in page.posts}
    for post_id, author, commands in (
        ("700", "Moderator", []),
        ("702", "Ashe", [("vote", "Birch")]),
        ("703", "Dusk", [("vote", "Cedar")]),
    ):
        post = read[post_id]
        assert post.author == author
        assert [(c.action, c.target) for c in post.commands] == commands
    assert "701" in read or page.problems
