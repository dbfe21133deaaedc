"""vBulletin 4 and 5 thread pages (``showthread.php?t=…&page=…``) read into posts.

vBulletin 4 prints dates only as text in the viewer's zone ("04-23-2013, 03:09 PM", "Today, 03:09
PM"): pass the forum's zone as ``tz`` and the fetch time as ``now``.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, tzinfo
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

import lxml.etree

from parsers.errors import ForumError
from parsers.markup import classes_of, count_problems, frame_posts, parse_html, read_body, text_of
from parsers.page import Post, ThreadPage
from parsers.textdates import parse_iso_time, parse_text_date

NAME = "vbulletin"
DEFAULT_PER_PAGE = 10


def _has_class(name: str) -> str:
    return f"contains(concat(' ', normalize-space(@class), ' '), ' {name} ')"


# vBulletin 4
_POSTS4 = lxml.etree.XPath(f"//li[{_has_class('postcontainer')} and starts-with(@id, 'post_')]")
# vBulletin 5
_POSTS5 = lxml.etree.XPath(f"//li[{_has_class('b-post')} and @data-node-id]")
_COUNT5 = lxml.etree.XPath(f".//*[{_has_class('b-post__count')}]")
_USER5 = lxml.etree.XPath(
    f".//*[@itemprop='author']//*[@itemprop='name'] | .//*[{_has_class('b-post__author')}]//a"
    f" | .//*[{_has_class('author')}]//a"
)
_TIME5 = lxml.etree.XPath(
    ".//time[@itemprop='dateCreated']/@datetime | .//time/@datetime", smart_strings=False
)
_BODY5 = lxml.etree.XPath(f".//div[{_has_class('js-post__content-text')}]")
_EDITED5 = lxml.etree.XPath(f".//*[{_has_class('b-post__edit')}] | .//*[{_has_class('edited')}]")

_NEXT = lxml.etree.XPath(
    f"//a[@rel='next']/@href | //link[@rel='next']/@href | "
    f"//*[{_has_class('js-pagenav-next-button')}]/@href",
    smart_strings=False,
)
_STATS = re.compile(r"Results\s+(\d[\d,]*)\s+to\s+(\d[\d,]*)\s+of\s+(\d[\d,]*)", re.IGNORECASE)
# A post's start tag in the page's text (what _POSTS4 / _POSTS5 find in the tree), and its body's.
_QUICK4 = re.compile(r'id="post_(\d+)"')
_QUICK5 = re.compile(r'data-node-id="(\d+)"')
_MARKER4 = re.compile(
    r"""<li(?=[^>]*\sclass=["'](?:[^"']*\s)?postcontainer[\s"'])[^>]*\sid=["']post_(\d+)["']""",
    re.IGNORECASE,
)
_MARKER5 = re.compile(
    r"""<li(?=[^>]*\sclass=["'](?:[^"']*\s)?b-post[\s"'])[^>]*\sdata-node-id=["'](\d+)["']""",
    re.IGNORECASE,
)
_BODY_START4 = re.compile(r"""<div\s[^>]*id=["']post_message_""", re.IGNORECASE)
_BODY_START5 = re.compile(
    r"""<div\s[^>]*class=["'](?:[^"']*\s)?js-post__content-text[\s"']""", re.IGNORECASE
)
_USER_ID = re.compile(r"member\.php\?(?:[^#]*&)?(?:u=)?(\d+)")
_SEO_THREAD = re.compile(r"^(?P<id>\d+)(?:-[^/&]*)?")


def parse_page(
    text: str,
    *,
    url: str,
    tz: tzinfo = UTC,
    now: datetime | None = None,
    per_page: int | None = None,
) -> ThreadPage:
    """Posts, next page and total of one thread page (vBulletin 4 postbit or vBulletin 5 b-post)."""
    doc = parse_html(text)
    posts: list[Post] = []
    elements4, chrome4, problems = frame_posts(
        text,
        doc,
        _POSTS4(doc),
        quick=lambda t: len(_QUICK4.findall(t)),
        marker=_MARKER4,
        tag="li",
        body_start=_BODY_START4,
        body=lambda e: _scan_postbit(e).body,
        ident=lambda e: e.get("id", "").removeprefix("post_"),
        find=_POSTS4,
    )
    elements5, chrome5, problems5 = frame_posts(
        text,
        doc,
        _POSTS5(doc),
        quick=lambda t: len(_QUICK5.findall(t)),
        marker=_MARKER5,
        tag="li",
        body_start=_BODY_START5,
        body=lambda e: next(iter(_BODY5(e)), None),
        ident=lambda e: e.get("data-node-id", ""),
        find=_POSTS5,
    )
    problems += problems5
    doc = chrome4 if chrome4 is not doc else chrome5
    for element in elements4:
        try:
            posts.append(_read_post4(element, url=url, tz=tz, now=now, problems=problems))
        except _Unreadable as exc:
            problems.append(f"post {element.get('id')}: {exc}")
    for element in elements5:
        try:
            post = _read_post5(element, url=url, tz=tz)
            posts.append(post)
            if post.time is None:
                problems.append(f"post {post.post_id}: no readable time")
        except _Unreadable as exc:
            problems.append(f"post {element.get('data-node-id')}: {exc}")
    if not elements4 and not elements5:
        problems.append(_explain_empty(doc))
    nexts = _NEXT(doc)
    next_url = _clean_url(urljoin(url, nexts[0])) if nexts else None
    total, shown = _post_stats(doc)
    problems.extend(
        count_problems(len(elements4) + len(elements5), shown, [p.number for p in posts])
    )
    return ThreadPage(posts, next_url, total_posts=total, problems=problems)


def _post_stats(doc) -> tuple[int | None, int | None]:
    """The thread's post count and the posts this page shows, from "Results 1 to 15 of 200"."""
    stats = _STATS.search(
        " ".join(doc.xpath("//*[starts-with(@id, 'postpagestats')]//text()"))
    ) or _STATS.search(" ".join(doc.xpath("//a[@rel='next']/@title")))
    if stats is None:
        return None, None
    first, last, total = (int(stats.group(n).replace(",", "")) for n in (1, 2, 3))
    return total, last - first + 1


def page_url(thread_url: str, *, after_post: int | None = None, per_page: int | None = None) -> str:
    """The page of ``showthread.php?t=…`` (or a ``showthread.php?123-title`` / vB5 ``/123-title``
    URL) holding post ``after_post`` (numbered from 1)."""
    parts = urlsplit(thread_url)
    size = per_page or _per_page_in(thread_url) or DEFAULT_PER_PAGE
    page = 1 if not after_post else (after_post - 1) // size + 1
    query = [
        (k, v)
        for k, v in parse_qsl(parts.query, keep_blank_values=True)
        if k not in ("page", "s", "p")
    ]
    if any(k == "t" for k, _ in query):
        if page > 1:
            query.append(("page", str(page)))
        return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(query), ""))
    seo = _SEO_THREAD.match(parts.query)
    if parts.path.endswith("showthread.php") and seo:
        base = re.sub(r"/page\d+$", "", parts.query.split("&")[0])
        return urlunsplit(
            (
                parts.scheme,
                parts.netloc,
                parts.path,
                base + (f"/page{page}" if page > 1 else ""),
                "",
            )
        )
    segments = parts.path.rstrip("/").split("/")
    if segments and re.fullmatch(r"page\d+", segments[-1]):
        segments.pop()
    if segments and _SEO_THREAD.match(segments[-1]):  # vBulletin 5: /forum/section/123-title/page2
        path = "/".join(segments) + (f"/page{page}" if page > 1 else "")
        return urlunsplit((parts.scheme, parts.netloc, path, "", ""))
    raise ForumError(f"not a vBulletin thread URL (expected showthread.php?t=123): {thread_url}")


def looks_like(url: str, text: str | None = None) -> bool:
    """A ``showthread.php`` URL, or a page with vBulletin's post markup or generator tag."""
    if text is not None:
        return (
            'content="vBulletin' in text
            or ("postcontainer" in text and "post_message_" in text)
            or ("b-post" in text and "data-node-id" in text)
        )
    path = urlsplit(url).path
    return path.endswith("showthread.php") or "/showthread.php/" in path


class _Unreadable(Exception):
    pass


class _Postbit:
    """What one pass over a vBulletin 4 postbit found."""

    __slots__ = ("counter", "user", "date", "body", "edited")

    def __init__(self) -> None:
        self.counter = self.user = self.date = self.body = None
        self.edited = False


def _scan_postbit(element) -> _Postbit:
    """One pass over the postbit's elements; the frame's class names never come out of BBCode."""
    found = _Postbit()
    in_username = False
    for child in element.iter("a", "span", "div", "blockquote"):
        classes = classes_of(child)
        tag = child.tag
        if tag == "blockquote":
            if "postcontent" in classes:
                if "lastedited" in classes:
                    found.edited = True
                elif found.body is None and (child.getparent().get("id") or "").startswith(
                    "post_message_"
                ):
                    found.body = child
        elif tag == "div":
            if "username_container" in classes:
                in_username = True
        elif "postcounter" in classes:
            if found.counter is None:
                found.counter = child
        elif "username" in classes:
            if found.user is None and (in_username or found.body is None):
                found.user = child
        elif tag == "span" and "date" in classes and found.date is None:
            found.date = child
    return found


def _read_post4(
    element, *, url: str, tz: tzinfo, now: datetime | None, problems: list[str]
) -> Post:
    post_id = element.get("id", "").removeprefix("post_")
    if not post_id.isdigit():
        raise _Unreadable("no post id (li#post_N)")
    found = _scan_postbit(element)
    digits = re.sub(r"\D", "", text_of(found.counter)) if found.counter is not None else ""
    if not digits:
        raise _Unreadable("no post number (a.postcounter #N)")
    if found.user is None:
        raise _Unreadable("no author (a.username / span.username.guest)")
    author = text_of(found.user).strip()
    user_id = _USER_ID.search(found.user.get("href") or "")
    classes = classes_of(element)
    deleted = "postbitdeleted" in classes or "deleted" in classes
    if found.body is None and not deleted:
        raise _Unreadable("no post body (div#post_message_N > blockquote.postcontent)")
    shown = " ".join(text_of(found.date).split()) if found.date is not None else ""
    time = parse_text_date(shown, tz=tz, now=now) if shown else None
    if time is None:
        problems.append(f"post {post_id}: cannot read the date {shown or 'nothing'!r}")
    permalink = found.counter.get("href")
    body_html, commands = read_body(found.body) if found.body is not None else ("", ())
    return Post(
        post_id=post_id,
        number=int(digits),
        author=author,
        time=time,
        body_html=body_html,
        url=_clean_url(urljoin(url, permalink)) + f"#post{post_id}"
        if permalink
        else urljoin(url, f"showthread.php?p={post_id}#post{post_id}"),
        edited=found.edited,
        deleted=deleted,
        author_id=user_id.group(1) if user_id else None,
        commands=commands,
    )


def _read_post5(element, *, url: str, tz: tzinfo) -> Post:
    post_id = element.get("data-node-id", "")
    counts = _COUNT5(element)
    digits = re.sub(r"\D", "", text_of(counts[0])) if counts else ""
    if not digits:
        raise _Unreadable("no post number (.b-post__count)")
    users = [u for u in _USER5(element) if text_of(u).strip()]
    if not users:
        raise _Unreadable("no author")
    bodies = _BODY5(element)
    if not bodies:
        raise _Unreadable("no post body (div.js-post__content-text)")
    # vBulletin 5 prints ISO times without an offset: they are in the board's zone
    time = next(
        (t for t in (parse_iso_time(s, tz=tz) for s in _TIME5(element)) if t is not None), None
    )
    found_id = _USER_ID.search(users[0].get("href") or "") or re.search(
        r"/member/(\d+)", users[0].get("href") or ""
    )
    link = counts[0].get("href") or (
        counts[0].find(".//a").get("href") if counts[0].find(".//a") is not None else None
    )
    body_html, commands = read_body(bodies[0])
    return Post(
        post_id=post_id,
        number=int(digits),
        author=text_of(users[0]).strip(),
        time=time,
        body_html=body_html,
        url=urljoin(url, link) if link else f"{url.split('#')[0]}#post{post_id}",
        edited=bool(_EDITED5(element)),
        deleted="b-post--deleted" in element.get("class", ""),
        author_id=found_id.group(1) if found_id else None,
        commands=commands,
    )


def _per_page_in(url: str) -> int | None:
    value = dict(parse_qsl(urlsplit(url).query)).get("pp", "")
    return int(value) if value.isdigit() else None


def _clean_url(href: str) -> str:
    """Drop the session hash vBulletin adds to links for cookieless visitors (and the fragment)."""
    parts = urlsplit(href)
    query = "&".join(
        piece for piece in parts.query.split("&") if piece and not piece.startswith("s=")
    )
    return urlunsplit((parts.scheme, parts.netloc, parts.path, query, ""))


def _explain_empty(doc) -> str:
    for box in doc.xpath(
        f"//div[{_has_class('standard_error')}] | //div[{_has_class('blockrow')}]"
    ):
        said = " ".join(" ".join(box.itertext()).split())
        if said:
            return f"no posts on the page; the forum says: {said[:200]}"
    return "no vBulletin posts (li.postcontainer#post_N) found: the page markup may have changed"
