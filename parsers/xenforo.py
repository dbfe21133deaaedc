"""XenForo 2 thread pages (``/threads/{slug}.{id}/page-{n}``) read into posts."""

from __future__ import annotations

import re
from datetime import UTC, datetime, tzinfo
from urllib.parse import urljoin, urlsplit, urlunsplit

import lxml.etree
import lxml.html

from assistant.errors import ForumError
from parsers.page import Post, ThreadPage
from parsers.textdates import parse_iso_time

NAME = "xenforo"
DEFAULT_PER_PAGE = 20  # XenForo's default messages per page


def _has_class(name: str) -> str:
    return f"contains(concat(' ', normalize-space(@class), ' '), ' {name} ')"


_POSTS = lxml.etree.XPath(f"//article[{_has_class('message--post')}] | //div[{_has_class('message--post')}]")
_BODY = lxml.etree.XPath(f".//article[{_has_class('message-body')}]//div[{_has_class('bbWrapper')}]")
_ANY_BODY = lxml.etree.XPath(f".//div[{_has_class('bbWrapper')}]")
_NAME = lxml.etree.XPath(f".//*[{_has_class('message-name')}]//*[{_has_class('username')}]")
_NUMBER_LINKS = lxml.etree.XPath(f".//*[{_has_class('message-attribution-opposite')}]//a")
_TIME = lxml.etree.XPath(f".//*[{_has_class('message-attribution-main')}]//time | .//time[{_has_class('u-dt')}]")
_EDITED = lxml.etree.XPath(f".//*[{_has_class('message-lastEdit')}]")
_DELETED = lxml.etree.XPath(f".//*[{_has_class('messageNotice--deleted')}]")
_NEXT = lxml.etree.XPath(f"//link[@rel='next']/@href | //a[{_has_class('pageNav-jump--next')}]/@href")
_BLOCK_MESSAGE = lxml.etree.XPath(f"//div[{_has_class('blockMessage')}]")

_THREAD_PATH = re.compile(
    r"^(?P<base>.*?/threads/(?:[^/]*\.)?(?P<id>\d+))(?:/(?:page-\d+|post-\d+|unread|latest)?)?/?$"
)
_NUMBER = re.compile(r"#\s*(\d[\d,.\u00a0\u202f' ]*)")
_POST_ID = re.compile(r"(\d+)$")


def parse_page(
    text: str,
    *,
    url: str,
    tz: tzinfo = UTC,
    now: datetime | None = None,
    per_page: int | None = None,
) -> ThreadPage:
    """Posts and next page of one thread page. XenForo prints ``#N`` (from 1) and epoch times."""
    doc = lxml.html.document_fromstring(text.encode("utf-8") if text.startswith("<?xml") else text)
    elements = _POSTS(doc)
    posts: list[Post] = []
    problems: list[str] = []
    for element in elements:
        try:
            posts.append(_read_post(element, url=url))
        except _Unreadable as exc:
            problems.append(f"post {element.get('data-content') or element.get('id') or '?'}: {exc}")
    if not elements:
        problems.append(_explain_empty(doc))
    problems.extend(f"post {p.post_id}: no readable time" for p in posts if p.time is None)
    nexts = _NEXT(doc)
    next_url = urljoin(url, nexts[0]) if nexts else None
    return ThreadPage(posts, next_url, total_posts=None, problems=problems)


def page_url(thread_url: str, *, after_post: int | None = None, per_page: int | None = None) -> str:
    """``/threads/{slug}.{id}/`` or its ``page-{n}`` holding post ``after_post`` (numbered from 1)."""
    parts = urlsplit(thread_url)
    routed = parts.path.endswith("index.php") and parts.query.startswith("threads/")  # no friendly URLs
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


def _read_post(element, *, url: str) -> Post:
    ident = element.get("data-content") or element.get("id") or ""
    found = _POST_ID.search(ident)
    if not found:
        raise _Unreadable("no post id (data-content=post-N)")
    post_id = found.group(1)
    names = _NAME(element)
    author = element.get("data-author") or (names[0].text_content().strip() if names else "")
    if not author:
        raise _Unreadable("no author")
    author_id = next((n.get("data-user-id") for n in names if n.get("data-user-id") not in (None, "", "0")), None)
    number, permalink = None, None
    for link in _NUMBER_LINKS(element):
        shown = _NUMBER.search(link.text_content())
        if shown:
            number = int(re.sub(r"\D", "", shown.group(1)))
            permalink = urljoin(url, link.get("href", "")) if link.get("href") else None
            break
    if number is None:
        raise _Unreadable("no post number (#N in .message-attribution-opposite)")
    deleted = bool(_DELETED(element)) or "message--deleted" in element.get("class", "")
    bodies = _BODY(element) or _ANY_BODY(element)
    if not bodies and not deleted:
        raise _Unreadable("no .bbWrapper body")
    return Post(
        post_id=post_id,
        number=number,
        author=author,
        time=_read_time(element),
        body_html=_inner_html(bodies[0]) if bodies else "",
        url=permalink or urljoin(url, f"/posts/{post_id}/"),
        edited=bool(_EDITED(element)),
        deleted=deleted,
        author_id=author_id,
    )


def _read_time(element) -> datetime | None:
    """XenForo 2.0/2.1 put the epoch in ``data-time``; 2.2+ in ``data-timestamp`` (``data-time`` is then "12:00 PM")."""
    for stamp in _TIME(element):
        for attr in ("data-timestamp", "data-time"):
            value = (stamp.get(attr) or "").strip()
            if value.isdigit():
                return datetime.fromtimestamp(int(value), UTC)
        when = parse_iso_time(stamp.get("datetime") or "")
        if when is not None:
            return when
    return None


def _inner_html(element) -> str:
    parts = [element.text or ""]
    parts.extend(lxml.html.tostring(child, encoding="unicode") for child in element)
    return "".join(parts).strip()


def _explain_empty(doc) -> str:
    for box in _BLOCK_MESSAGE(doc):
        said = " ".join(" ".join(box.itertext()).split())
        if said:
            return f"no posts on the page; the forum says: {said[:200]}"
    return "no XenForo posts (article.message--post) found: the page markup may have changed"
