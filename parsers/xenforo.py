"""XenForo 2 thread pages (``/threads/{slug}.{id}/page-{n}``) read into posts."""

from __future__ import annotations

import re
from datetime import UTC, datetime, tzinfo
from urllib.parse import urljoin, urlsplit, urlunsplit

import lxml.etree

from parsers.errors import ForumError
from parsers.markup import classes_of, count_problems, frame_posts, parse_html, read_body, text_of
from parsers.page import Post, ThreadPage
from parsers.textdates import parse_iso_time

NAME = "xenforo"
DEFAULT_PER_PAGE = 20  # XenForo's default messages per page


def _has_class(name: str) -> str:
    return f"contains(concat(' ', normalize-space(@class), ' '), ' {name} ')"


_POSTS = lxml.etree.XPath(
    f"//article[{_has_class('message--post')}] | //div[{_has_class('message--post')}]"
)
_NEXT = lxml.etree.XPath(
    f"//link[@rel='next']/@href | //a[{_has_class('pageNav-jump--next')}]/@href",
    smart_strings=False,
)
_BLOCK_MESSAGE = lxml.etree.XPath(f"//div[{_has_class('blockMessage')}]")

_THREAD_PATH = re.compile(
    r"^(?P<base>.*?/threads/(?:[^/]*\.)?(?P<id>\d+))(?:/(?:page-\d+|post-\d+|unread|latest)?)?/?$"
)
_NUMBER = re.compile(r"#\s*(\d[\d,.\u00a0\u202f' ]*)")
_POST_ID = re.compile(r"(\d+)$")
# A message's start tag in the page's text (what _POSTS finds in the tree), and its body's.
_QUICK = re.compile(r'data-content="post-(\d+)"')
_MARKER = re.compile(
    r"""<(?:article|div)(?=[^>]*\sclass=["'](?:[^"']*\s)?message--post[\s"'])"""
    r"""[^>]*\sdata-content=["']post-(\d+)["']""",
    re.IGNORECASE,
)
_BODY_START = re.compile(r"""<div\s[^>]*class=["'](?:[^"']*\s)?bbWrapper[\s"']""")


def _ident(element) -> str:
    found = _POST_ID.search(element.get("data-content") or "")
    return found.group(1) if found else ""


def _body_of(element):
    return _scan_post(element).body


def parse_page(
    text: str,
    *,
    url: str,
    tz: tzinfo = UTC,
    now: datetime | None = None,
    per_page: int | None = None,
) -> ThreadPage:
    """Posts and next page of one thread page. XenForo prints ``#N`` (from 1) and epoch times."""
    doc = parse_html(text)
    elements = _POSTS(doc)
    elements, chrome, problems = frame_posts(
        text,
        doc,
        elements,
        quick=lambda t: len(_QUICK.findall(t)),
        marker=_MARKER,
        tag="article",
        body_start=_BODY_START,
        body=_body_of,
        ident=_ident,
        find=_POSTS,
    )
    posts: list[Post] = []
    for element in elements:
        try:
            posts.append(_read_post(element, url=url))
        except _Unreadable as exc:
            problems.append(
                f"post {element.get('data-content') or element.get('id') or '?'}: {exc}"
            )
    if not elements:
        problems.append(_explain_empty(chrome))
    problems.extend(f"post {p.post_id}: no readable time" for p in posts if p.time is None)
    nexts = _NEXT(chrome)
    next_url = urljoin(url, nexts[0]) if nexts else None
    full = per_page if next_url else None  # a page before the last holds a whole page of posts
    problems.extend(count_problems(len(elements), full, [p.number for p in posts]))
    return ThreadPage(posts, next_url, total_posts=None, problems=problems)


def page_url(thread_url: str, *, after_post: int | None = None, per_page: int | None = None) -> str:
    """``/threads/{slug}.{id}/`` or its ``page-{n}`` holding post ``after_post`` (numbered from
    1)."""
    parts = urlsplit(thread_url)
    # no friendly URLs
    routed = parts.path.endswith("index.php") and parts.query.startswith("threads/")
    found = _THREAD_PATH.match("/" + parts.query.split("&")[0] if routed else parts.path)
    if not found:
        raise ForumError(f"not a XenForo thread URL (expected /threads/slug.123/): {thread_url}")
    page = 1 if not after_post else (after_post - 1) // (per_page or DEFAULT_PER_PAGE) + 1
    route = found.group("base") + ("/" if page == 1 else f"/page-{page}")
    if routed:
        return urlunsplit((parts.scheme, parts.netloc, parts.path, route.lstrip("/"), ""))
    return urlunsplit((parts.scheme, parts.netloc, route, parts.query, ""))


def looks_like(url: str, text: str | None = None) -> bool:
    """A ``/threads/…`` URL, or a page with XenForo 2's message markup."""
    if text is not None:
        return 'id="XF"' in text or "message--post" in text or 'data-template="thread_view"' in text
    parts = urlsplit(url)
    if parts.path.endswith("index.php") and parts.query.startswith("threads/"):
        return bool(_THREAD_PATH.match("/" + parts.query.split("&")[0]))
    return bool(_THREAD_PATH.match(parts.path))


class _Unreadable(Exception):
    pass


class _Frame:
    """What one pass over a message found."""

    __slots__ = (
        "body",
        "in_body_article",
        "names",
        "number",
        "permalink",
        "stamp",
        "edited",
        "deleted",
    )

    def __init__(self) -> None:
        self.body = self.stamp = None  # elements
        self.number: int | None = None
        self.permalink: str | None = None
        self.in_body_article = self.edited = self.deleted = False
        self.names: list = []


def _scan_post(element) -> _Frame:
    """One pass over the message's elements (lxml's C iterator walks, Python only looks at
    classes)."""
    found = _Frame()
    found.deleted = "message--deleted" in classes_of(element)
    for child in element.iter("article", "div", "h4", "ul", "time"):
        tag = child.tag
        if tag == "time":
            if found.stamp is None:
                found.stamp = child  # the attribution's time comes before the last-edit one
            continue
        classes = classes_of(child)
        if not classes:
            continue
        if tag == "div":
            if "bbWrapper" in classes:
                # the body is the first bbWrapper inside article.message-body (a signature has its
                # own)
                if found.body is None and found.in_body_article:
                    found.body = child
            elif "message-lastEdit" in classes:
                found.edited = True
            elif "messageNotice--deleted" in classes:
                found.deleted = True
            elif "message-attribution-opposite" in classes and found.number is None:
                _read_number(child, found)
        elif tag == "article" and "message-body" in classes:
            found.in_body_article = True
        elif tag == "h4" and "message-name" in classes:
            found.names.extend(n for n in child.iter() if "username" in classes_of(n))
        elif tag == "ul" and "message-attribution-opposite" in classes and found.number is None:
            _read_number(child, found)
    return found


def _read_number(holder, found: _Frame) -> None:
    """``#N`` in the attribution's opposite side: a ``ul`` from XenForo 2.1, a ``div`` in 2.0."""
    for link in holder.iter("a"):
        shown = _NUMBER.search(text_of(link))
        if shown:
            found.number = int(re.sub(r"\D", "", shown.group(1)))
            found.permalink = link.get("href")
            break


def _read_post(element, *, url: str) -> Post:
    ident = element.get("data-content") or element.get("id") or ""
    matched = _POST_ID.search(ident)
    if not matched:
        raise _Unreadable("no post id (data-content=post-N)")
    post_id = matched.group(1)
    found = _scan_post(element)
    author = element.get("data-author") or (text_of(found.names[0]).strip() if found.names else "")
    if not author:
        raise _Unreadable("no author")
    author_id = next(
        (
            n.get("data-user-id")
            for n in found.names
            if n.get("data-user-id") not in (None, "", "0")
        ),
        None,
    )
    if found.number is None:
        raise _Unreadable("no post number (#N in .message-attribution-opposite)")
    if found.body is None and not found.deleted:
        raise _Unreadable("no .bbWrapper body in article.message-body")
    body_html, commands = read_body(found.body) if found.body is not None else ("", ())
    return Post(
        post_id=post_id,
        number=found.number,
        author=author,
        time=_read_time(found.stamp),
        body_html=body_html,
        url=urljoin(url, found.permalink)
        if found.permalink
        else urljoin(url, f"/posts/{post_id}/"),
        edited=found.edited,
        deleted=found.deleted,
        author_id=author_id,
        commands=commands,
    )


def _read_time(stamp) -> datetime | None:
    """XenForo 2.0/2.1 put the epoch in ``data-time``; 2.2+ in ``data-timestamp`` (``data-time`` is
    then "12:00 PM")."""
    if stamp is None:
        return None
    for attr in ("data-timestamp", "data-time"):
        value = (stamp.get(attr) or "").strip()
        if value.isdigit():
            return datetime.fromtimestamp(int(value), UTC)
    return parse_iso_time(stamp.get("datetime") or "")


def _explain_empty(doc) -> str:
    for box in _BLOCK_MESSAGE(doc):
        said = " ".join(" ".join(box.itertext()).split())
        if said:
            return f"no posts on the page; the forum says: {said[:200]}"
    return "no XenForo posts (article.message--post) found: the page markup may have changed"
