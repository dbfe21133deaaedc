"""phpBB 3.x topic pages (prosilver 3.0-3.3 and MafiaScum's style) read into posts."""

from __future__ import annotations

import re
from datetime import UTC, datetime, tzinfo
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

import lxml.etree
import lxml.html

from assistant.errors import ForumError
from parsers.page import Post, ThreadPage
from parsers.textdates import parse_text_date

NAME = "phpbb"

# phpBB's default posts per page, and MafiaScum's.
DEFAULT_PER_PAGE = 10
MAFIASCUM_PER_PAGE = 25


def _has_class(name: str) -> str:
    return f"contains(concat(' ', normalize-space(@class), ' '), ' {name} ')"


_POSTS = lxml.etree.XPath(f"//div[starts-with(@id, 'p') and {_has_class('post')}]")
_CONTENT = lxml.etree.XPath(f".//div[{_has_class('content')}]")
_PROFILE_DT = lxml.etree.XPath(f".//dl[{_has_class('postprofile')}]/dt")
_AUTHOR_LINE = lxml.etree.XPath(f".//p[{_has_class('author')}]")
_TIME = lxml.etree.XPath(f".//p[{_has_class('author')}]//time[@datetime]/@datetime")
_NUMBER = lxml.etree.XPath(f".//span[{_has_class('post-number-bolded')}]")
_NOTICES = lxml.etree.XPath(f".//div[{_has_class('notice')}]")
_DELETED_MARKS = lxml.etree.XPath(
    f".//div[{_has_class('post_deleted_msg')}] | .//p[{_has_class('post-notice')} and {_has_class('deleted')}]"
)
_PAGINATION = lxml.etree.XPath(f"//div[{_has_class('pagination')}]")
_CANONICAL = lxml.etree.XPath("//link[@rel='canonical']/@href")
_MESSAGE = lxml.etree.XPath("//div[@id='message']")

_TOTAL = re.compile(r"(\d[\d,.\u00a0 ]*)\s+posts?\b", re.IGNORECASE)
_USER_ID = re.compile(r"[?&;]u=(\d+)")
_POST_ID = re.compile(r"^p(\d+)$")


def parse_page(
    text: str, *, url: str, tz: tzinfo = UTC, now: datetime | None = None, per_page: int | None = None
) -> ThreadPage:
    """Posts, next page and post total of one ``viewtopic.php`` page.

    ``tz`` and ``now`` only matter for 3.0-era pages, which print dates as text in the viewer's zone;
    ``per_page`` only when neither the canonical link nor the pagination bar tells a page's offset.
    """
    doc = _parse_html(text)
    elements = [el for el in _POSTS(doc) if _POST_ID.match(el.get("id", ""))]
    total = _read_total(doc)
    start = _read_start(doc, url, total, per_page)
    problems: list[str] = []
    posts: list[Post] = []
    for position, element in enumerate(elements):
        try:
            posts.append(_read_post(element, url=url, number=start + position + 1, tz=tz, now=now, problems=problems))
        except _Unreadable as exc:
            problems.append(f"post {element.get('id')}: {exc}")
    if not elements:
        problems.append(_explain_empty(doc))
    return ThreadPage(posts=posts, next_url=_read_next(doc, url), total_posts=total, problems=problems)


def page_url(thread_url: str, *, after_post: int | None = None, per_page: int | None = None) -> str:
    """The page holding post number ``after_post`` (the first page when None).

    MafiaScum numbers posts from 0 (25 a page); stock phpBB shows no numbers and Votal counts from 1
    (10 a page). On other hosts the offset errs a page early at page boundaries: re-reading a post is
    harmless, skipping one is not.
    """
    parts = urlsplit(thread_url)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k not in ("start", "sid", "p")]
    if not any(k == "t" for k, _ in query):
        raise ForumError(f"phpBB thread URL needs a topic id (t=...): {thread_url}")
    per_page = per_page or _guess_per_page(thread_url)
    if after_post is not None:
        index = after_post if _is_mafiascum(thread_url) else after_post - 1
        start = max(index, 0) // per_page * per_page
        if start:
            query.append(("start", str(start)))
    path = parts.path if parts.path.endswith(".php") else parts.path.rstrip("/") + "/viewtopic.php"
    return urlunsplit((parts.scheme, parts.netloc, path, urlencode(query), ""))


def looks_like(url: str, text: str | None = None) -> bool:
    """True for a ``viewtopic.php`` URL or a page with phpBB's post markup."""
    if text is not None:
        return bool(
            re.search(r"<div id=\"p\d+\" class=\"post\b", text)
            or ("viewtopic.php" in text and 'class="postprofile"' in text)
            or re.search(r"<body[^>]*id=\"phpbb\"", text)
        )
    return "viewtopic.php" in urlsplit(url).path


class _Unreadable(Exception):
    pass


def _parse_html(text: str) -> lxml.html.HtmlElement:
    try:
        return lxml.html.document_fromstring(text)
    except ValueError:  # a str that declares its own encoding
        return lxml.html.document_fromstring(text.encode("utf-8"))


def _read_post(element, *, url: str, number: int, tz: tzinfo, now: datetime | None, problems: list[str]) -> Post:
    post_id = element.get("id")[1:]
    contents = _CONTENT(element)
    if not contents:
        raise _Unreadable("no div.content body")
    author, author_id = _read_author(element)
    if not author:
        raise _Unreadable("no author name")
    shown = _NUMBER(element)
    if shown:
        digits = re.sub(r"\D", "", shown[0].text_content())
        if not digits:
            raise _Unreadable(f"post number {shown[0].text_content()!r} is not a number")
        number = int(digits)
    time = _read_time(element, tz=tz, now=now)
    if time is None:
        problems.append(f"post {post_id}: no readable time")
    notices = _NOTICES(element)
    deleted = "deleted" in element.get("class", "").split() or bool(_DELETED_MARKS(element))
    edited = any(
        "post_deleted_msg" not in n.get("class", "") and "bumped" not in n.text_content().lower() for n in notices
    )
    return Post(
        post_id=post_id,
        number=number,
        author=author,
        time=time,
        body_html=_inner_html(contents[0]),
        url=_permalink(url, post_id),
        edited=edited,
        deleted=deleted,
        author_id=author_id,
    )


def _read_author(element) -> tuple[str, str | None]:
    """The poster's name: the profile column, else the "by NAME" line (guests have no profile link)."""
    for holder in (*_PROFILE_DT(element), *_AUTHOR_LINE(element)):
        for link in holder.iter("a"):
            href = link.get("href", "")
            name = link.text_content().strip()
            if name and "mode=viewprofile" in href:
                found = _USER_ID.search(href)
                return name, found.group(1) if found else None
        for tag in holder.iter("span", "strong"):
            if "username" in tag.get("class", "") and tag.text_content().strip():
                return tag.text_content().strip(), None
        strong = holder.find(".//strong")
        if strong is not None and strong.text_content().strip():
            return strong.text_content().strip(), None
    return "", None


def _read_time(element, *, tz: tzinfo, now: datetime | None) -> datetime | None:
    for stamp in _TIME(element):
        try:
            return datetime.fromisoformat(stamp.strip()).astimezone(UTC)
        except ValueError:
            continue
    # 3.0-era and MafiaScum's visible line: "... » Mon Dec 06, 2010 4:04 pm"
    for line in _AUTHOR_LINE(element):
        tail = line.text_content().rsplit("\u00bb", 1)[-1]
        found = parse_text_date(tail, tz=tz, now=now)
        if found is not None:
            return found
    return None


def _inner_html(element) -> str:
    parts = [element.text or ""]
    parts.extend(lxml.html.tostring(child, encoding="unicode") for child in element)
    return "".join(parts).strip()


def _permalink(page: str, post_id: str) -> str:
    return urljoin(page, f"viewtopic.php?p={post_id}#p{post_id}")


def _read_total(doc) -> int | None:
    for bar in _PAGINATION(doc):
        found = _TOTAL.search(bar.text_content())
        if found:
            return int(re.sub(r"\D", "", found.group(1)))
    return None


def _start_of(href: str) -> int | None:
    query = dict(parse_qsl(urlsplit(href).query))
    value = query.get("start")
    return int(value) if value is not None and value.isdigit() else None


def _read_start(doc, url: str, total: int | None, per_page: int | None) -> int:
    """The offset of the page's first post, for forums that print no post numbers.

    The canonical link carries the offset phpBB actually used (it clamps a start past the end);
    without one, the requested start when it is inside the topic, else the current page of the bar.
    """
    for href in _CANONICAL(doc):
        return _start_of(href) or 0
    asked = _start_of(url)
    if asked is not None and (total is None or asked < total):
        return asked
    current, shown_per_page = _read_current_page(doc)
    if current and (shown_per_page or per_page):
        return (current - 1) * (shown_per_page or per_page)
    return asked or 0


def _read_current_page(doc) -> tuple[int | None, int | None]:
    """The current page number and posts per page as the pagination bar shows them."""
    current = per_page = None
    for bar in _PAGINATION(doc):
        for item in bar.iter("li", "strong"):
            if item.tag == "li" and "active" in item.get("class", "").split():
                text = item.text_content().strip()
            elif item.tag == "strong" and item.getparent() is not None and item.getparent().tag == "span":
                text = item.text_content().strip()  # 3.0: <span><strong>2</strong>, <a>3</a></span>
            else:
                continue
            if text.isdigit():
                current = int(text)
        for link in bar.iter("a"):
            text, start = link.text_content().strip(), _start_of(link.get("href", ""))
            if text.isdigit() and int(text) > 1 and start:
                per_page = start // (int(text) - 1)
        if current:
            break
    return current, per_page


def _read_next(doc, url: str) -> str | None:
    for bar in _PAGINATION(doc):
        for link in bar.iter("a"):
            if link.get("rel") == "next" and link.get("href"):
                return _clean_url(urljoin(url, link.get("href")))
    # 3.0 has no rel=next: the link numbered one past the current page.
    current, _ = _read_current_page(doc)
    if current:
        for bar in _PAGINATION(doc):
            for link in bar.iter("a"):
                if link.text_content().strip() == str(current + 1) and link.get("href"):
                    return _clean_url(urljoin(url, link.get("href")))
    return None


def _clean_url(href: str) -> str:
    """Drop the session id phpBB adds to links for cookieless visitors."""
    parts = urlsplit(href)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "sid"]
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(query), ""))


def _explain_empty(doc) -> str:
    for box in _MESSAGE(doc):
        said = " ".join(" ".join(box.itertext()).split())
        return f"no posts on the page; the forum says: {said[:200]}"
    if doc.find(".//form[@id='login']") is not None or doc.find(".//input[@name='login']") is not None:
        return "no posts on the page: the forum asks to log in (set cookies in [fetch])"
    return "no phpBB post containers (div.post#pNNN) found: the page markup may have changed"


def _guess_per_page(thread_url: str) -> int:
    query = dict(parse_qsl(urlsplit(thread_url).query))
    if query.get("ppp", "").isdigit():
        return int(query["ppp"])
    if _is_mafiascum(thread_url):
        return MAFIASCUM_PER_PAGE
    return DEFAULT_PER_PAGE


def _is_mafiascum(thread_url: str) -> bool:
    return urlsplit(thread_url).netloc.lower().endswith("mafiascum.net")
