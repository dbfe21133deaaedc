"""ProBoards thread pages (``/thread/{id}/{slug}?page=N``) read into posts.

ProBoards prints no post numbers: they are derived from the page number and the posts per page, so
the thread's first post is 1. A page that has a next page is full, which settles its size; the last
page relies on ``per_page`` (the forum's setting, default 20).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, tzinfo
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

import lxml.etree

from parsers.errors import ForumError
from parsers.markup import count_problems, frame_posts, parse_html, read_body, text_of
from parsers.page import Post, ThreadPage

NAME = "proboards"
DEFAULT_PER_PAGE = 20


def _has_class(name: str) -> str:
    return f"contains(concat(' ', normalize-space(@class), ' '), ' {name} ')"


_POSTS = lxml.etree.XPath(f"//tr[{_has_class('post')} and starts-with(@id, 'post-')]")
_USER = lxml.etree.XPath(
    f".//td[{_has_class('left-panel')}]//a[{_has_class('user-link')}]"
    f" | .//td[{_has_class('left-panel')}]//*[{_has_class('user-guest')}]"
    f" | .//a[{_has_class('user-link')}] | .//*[{_has_class('user-guest')}]"
)
_STAMP = lxml.etree.XPath(
    ".//span[contains(@class, 'date')]//abbr[@data-timestamp]/@data-timestamp", smart_strings=False
)
_BODY = lxml.etree.XPath(f".//td[{_has_class('content')}]//div[{_has_class('message')}]")
_EDITED = lxml.etree.XPath(f".//*[{_has_class('edited_by')}]")
_NEXT = lxml.etree.XPath(
    f"//*[{_has_class('control-bar')}]//li[{_has_class('next')} and "
    f"not({_has_class('state-disabled')})]//a/@href"
    " | //link[@rel='next']/@href",
    smart_strings=False,
)
_CURRENT = lxml.etree.XPath(f"//*[{_has_class('control-bar')}]//li[{_has_class('state-selected')}]")
_THREAD_PATH = re.compile(r"^/thread/(?P<id>\d+)(?:/(?P<slug>[^/?]*))?/?$")
_USER_ID = re.compile(r"/user/(\d+)")
# A post row's start tag in the page's text (what _POSTS finds in the tree), and its body's.
_QUICK = re.compile(r'id="post-(\d+)"')
_MARKER = re.compile(
    r"""<tr(?=[^>]*\sclass=["'](?:[^"']*\s)?post[\s"'])[^>]*\sid=["']post-(\d+)["']""",
    re.IGNORECASE,
)
_BODY_START = re.compile(r"""<div\s[^>]*class=["'](?:[^"']*\s)?message[\s"']""", re.IGNORECASE)


def parse_page(
    text: str,
    *,
    url: str,
    tz: tzinfo = UTC,
    now: datetime | None = None,
    per_page: int | None = None,
) -> ThreadPage:
    """Posts and next page of one thread page."""
    doc = parse_html(text)
    elements, doc, problems = frame_posts(
        text,
        doc,
        _POSTS(doc),
        quick=lambda t: len(_QUICK.findall(t)),
        marker=_MARKER,
        tag="tr",
        body_start=_BODY_START,
        body=lambda e: next(iter(_BODY(e)), None),
        ident=lambda e: e.get("id", "").removeprefix("post-"),
        find=_POSTS,
    )
    nexts = _NEXT(doc)
    next_url = urljoin(url, nexts[0]) if nexts else None
    page = _current_page(doc, url)
    size = len(elements) if next_url and elements else (per_page or DEFAULT_PER_PAGE)
    first = (page - 1) * size + 1
    posts: list[Post] = []
    for position, element in enumerate(elements):
        try:
            posts.append(_read_post(element, url=url, number=first + position))
        except _Unreadable as exc:
            problems.append(f"post {element.get('id')}: {exc}")
    if not elements:
        problems.append(
            "no ProBoards posts (tr.post#post-N) found: the page markup may have changed"
        )
    problems.extend(f"post {p.post_id}: no readable time" for p in posts if p.time is None)
    if page > 1 and not next_url and per_page is None and elements:
        # the last page alone cannot tell the page size the numbers before it depend on
        problems.append(
            f"post numbers on page {page} assume {DEFAULT_PER_PAGE} posts a page: set [fetch] "
            "posts_per_page"
        )
    # no counts on the page itself
    problems.extend(count_problems(len(elements), per_page if next_url else None))
    return ThreadPage(posts, next_url, total_posts=None, problems=problems)


def page_url(thread_url: str, *, after_post: int | None = None, per_page: int | None = None) -> str:
    """``/thread/{id}/{slug}`` with ``?page=N`` holding post ``after_post`` (numbered from 1)."""
    parts = urlsplit(thread_url)
    if not _THREAD_PATH.match(parts.path):
        raise ForumError(f"not a ProBoards thread URL (expected /thread/123/slug): {thread_url}")
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "page"]
    page = 1 if not after_post else (after_post - 1) // (per_page or DEFAULT_PER_PAGE) + 1
    if page > 1:
        query.append(("page", str(page)))
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(query), ""))


def looks_like(url: str, text: str | None = None) -> bool:
    """A ``*.proboards.com`` or ``/thread/123/…`` URL, or a page with ProBoards' post rows."""
    if text is not None:
        return (
            bool(re.search(r"<tr[^>]*id=\"post-\d+\"", text))
            or "proboards.com" in text.lower()
            and ('class="user-link' in text)
        )
    parts = urlsplit(url)
    return parts.netloc.endswith("proboards.com") or bool(_THREAD_PATH.match(parts.path))


class _Unreadable(Exception):
    pass


def _read_post(element, *, url: str, number: int) -> Post:
    post_id = element.get("id", "").removeprefix("post-")
    if not post_id.isdigit():
        raise _Unreadable("no post id (tr#post-N)")
    users = [u for u in _USER(element) if text_of(u).strip()]
    if not users:
        raise _Unreadable("no author (a.user-link / span.user-guest)")
    bodies = _BODY(element)
    if not bodies:
        raise _Unreadable("no post body (td.content div.message)")
    found_id = _USER_ID.search(users[0].get("href") or "")
    time = None
    for stamp in _STAMP(element):
        if stamp.strip().isdigit():
            time = datetime.fromtimestamp(int(stamp.strip()) / 1000, UTC)
            break
    body_html, commands = read_body(bodies[0])
    return Post(
        post_id=post_id,
        number=number,
        author=text_of(users[0]).strip(),
        time=time,
        body_html=body_html,
        url=urljoin(url, f"/post/{post_id}"),
        edited=bool(_EDITED(element)),
        deleted=False,
        author_id=found_id.group(1) if found_id else None,
        commands=commands,
    )


def _current_page(doc, url: str) -> int:
    for item in _CURRENT(doc):
        text = text_of(item).strip()
        if text.isdigit():
            return int(text)
    value = dict(parse_qsl(urlsplit(url).query)).get("page", "1")
    return int(value) if value.isdigit() and int(value) > 0 else 1
