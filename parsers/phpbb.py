"""phpBB 3.x topic pages (prosilver 3.0-3.3 and MafiaScum's style) read into posts."""

from __future__ import annotations

import re
from datetime import UTC, datetime, tzinfo
from functools import lru_cache
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

from parsers.errors import ForumError
from parsers.markup import classes_of, count_problems, frame_posts, parse_html, read_body, text_of
from parsers.page import Post, ThreadPage
from parsers.textdates import parse_iso_time, parse_text_date

NAME = "phpbb"

# phpBB's default posts per page, and MafiaScum's.
DEFAULT_PER_PAGE = 10
MAFIASCUM_PER_PAGE = 25


class _Chrome:
    """What one scan of a post found: its body element and the frame around it."""

    __slots__ = ("content", "profile_dt", "author_lines", "number", "stamps", "notices", "deleted")

    def __init__(self) -> None:
        self.content = self.profile_dt = self.number = None
        self.author_lines: list = []
        self.stamps: list[str] = []
        self.notices: list = []
        self.deleted = False


_TOTAL = re.compile(r"(\d[\d,.\u00a0 ]*)\s+posts?\b", re.IGNORECASE)
_USER_ID = re.compile(r"[?&;]u=(\d+)")
_POST_ID = re.compile(r"^p(\d+)$")
# A post container's start tag in the page's text (what _walk_page finds in the tree), and a body's.
_MARKER = re.compile(
    r"""<div(?=[^>]*\sclass=["'](?:[^"']*\s)?post[\s"'])[^>]*\sid=["']p(\d+)["']""", re.IGNORECASE
)


def parse_page(
    text: str,
    *,
    url: str,
    tz: tzinfo = UTC,
    now: datetime | None = None,
    per_page: int | None = None,
) -> ThreadPage:
    """Posts, next page and post total of one ``viewtopic.php`` page.

    ``tz`` and ``now`` only matter for 3.0 and 3.1 pages, which print dates as text in the viewer's
    zone (sometimes "Today, …" or "12 minutes ago"); ``per_page`` only when neither the canonical
    link nor the pagination bar tells a page's offset.
    """
    doc = parse_html(text)
    elements, bars, canonical, messages = _scan_page(doc)
    elements, chrome, problems = frame_posts(
        text,
        doc,
        elements,
        quick=_count_posts,
        marker=_MARKER,
        tag="div",
        body_start=_BODY_START,
        body=_body_of,
        ident=lambda e: e.get("id")[1:],
        find=_find_posts,
    )
    if chrome is not doc:
        _, bars, canonical, messages = _walk_page(chrome, stop_at_first_post=False)
    total = _read_total(bars)
    # the bar's page number and page size, read once for the three uses
    shown = _read_current_page(bars)
    start = _read_start(shown, canonical, url, total, per_page)
    base = _permalink_base(url)
    posts: list[Post] = []
    printed: list[int] = []  # the post numbers the page prints (MafiaScum)
    for position, element in enumerate(elements):
        try:
            post = _read_post(
                element, base=base, number=start + position + 1, tz=tz, now=now, problems=problems
            )
        except _Unreadable as exc:
            problems.append(f"post {element.get('id')}: {exc}")
        else:
            posts.append(post)
            if post.number != start + position + 1:
                printed.append(post.number)
    if not elements:
        problems.append(_explain_empty(chrome, messages))
    next_url = _read_next(bars, shown, url)
    problems.extend(
        count_problems(len(elements), _expected(shown, total, start, per_page, next_url), printed)
    )
    return ThreadPage(posts=posts, next_url=next_url, total_posts=total, problems=problems)


def page_url(thread_url: str, *, after_post: int | None = None, per_page: int | None = None) -> str:
    """The page holding post number ``after_post`` (the first page when None).

    MafiaScum numbers posts from 0 (25 a page); stock phpBB shows no numbers and Votal counts from 1
    (10 a page). On other hosts the offset errs a page early at page boundaries: re-reading a post
    is harmless, skipping one is not.
    """
    parts = urlsplit(thread_url)
    query = [
        (k, v)
        for k, v in parse_qsl(parts.query, keep_blank_values=True)
        if k not in ("start", "sid", "p")
    ]
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


def _scan_page(doc):
    """Post containers, pagination bars, the canonical link and an information box.

    Posts are siblings in every phpBB style: after the first one only its siblings are looked at, so
    the posts' bodies are not walked twice. A style that nests them differently gets the full walk.
    """
    posts, bars, canonical, messages = _walk_page(doc, stop_at_first_post=True)
    if not posts:
        return posts, bars, canonical, messages
    first = posts[0]
    for sibling in first.itersiblings("div"):
        value = sibling.get("class")
        if (
            value
            and "post" in value
            and "post" in value.split()
            and _POST_ID.match(sibling.get("id") or "")
        ):
            posts.append(sibling)
        else:
            bars.extend(inner for inner in sibling.iter("div") if "pagination" in classes_of(inner))
    if len(posts) == 1:
        return _walk_page(doc, stop_at_first_post=False)
    return posts, bars, canonical, messages


def _count_posts(text: str) -> int:
    """Post containers in the page's text, counted by their class as the templates write it
    (cheap)."""
    return text.count('class="post ') + text.count('class="post"')


_BODY_START = re.compile(r"""<div\s[^>]*class=["'](?:[^"']*\s)?content[\s"']""", re.IGNORECASE)


def _body_of(element):
    return _scan_post(element).content


def _find_posts(doc) -> list:
    return _walk_page(doc, stop_at_first_post=False)[0]


def _expected(
    shown, total: int | None, start: int, per_page: int | None, next_url: str | None
) -> int | None:
    """How many posts the page says it holds: a full page before the last, the rest of the total on
    the last."""
    size = shown[1] or per_page
    if total is not None and (next_url is None or size):
        left = total - start
        return max(min(left, size) if size else left, 0)
    return size if next_url and size else None


def _walk_page(doc, *, stop_at_first_post: bool):
    posts, bars, canonical, messages = [], [], None, []
    for element in doc.iter("div", "link"):
        if element.tag == "link":
            if canonical is None and element.get("rel") == "canonical":
                canonical = element.get("href")
            continue
        ident = element.get("id") or ""
        classes = classes_of(element)
        if "post" in classes and _POST_ID.match(ident):
            posts.append(element)
            if stop_at_first_post:
                break
        elif "pagination" in classes:
            bars.append(element)
        elif ident == "message":
            messages.append(element)
    return posts, bars, canonical, messages


def _scan_post(element) -> _Chrome:
    """One pass over the post's elements (lxml's C iterator does the walking).

    The frame's class names (content, author, notice, postprofile, post-number-bolded …) never come
    out of phpBB's BBCode, so what a body holds cannot be mistaken for the frame; the first
    div.content is the body. Reading an attribute is what costs here (each is a lookup in libxml2's
    memory), so a span's or a dl's class is read only until the one wanted is found.
    """
    found = _Chrome()
    found.deleted = "deleted" in (element.get("class") or "") and "deleted" in classes_of(element)
    stamps, author_lines, notices = found.stamps, found.author_lines, found.notices
    for child in element.iter("div", "p", "dl", "time", "span"):
        tag = child.tag
        if tag == "div":
            value = child.get("class")
            # substrings first: most divs are neither
            if value and ("content" in value or "notice" in value):
                classes = value.split()
                if "content" in classes:
                    if found.content is None:
                        found.content = child
                elif "notice" in classes:
                    if "post_deleted_msg" in classes:
                        found.deleted = True
                    else:
                        notices.append(child)
        elif tag == "span":
            if found.number is None:
                value = child.get("class")
                if value and "post-number-bolded" in value.split():
                    found.number = child
        elif tag == "p":
            value = child.get("class")
            if value and ("author" in value or "deleted" in value):
                classes = value.split()
                if "author" in classes:
                    author_lines.append(child)
                elif "post-notice" in classes and "deleted" in classes:
                    found.deleted = True
        elif tag == "time":
            stamp = child.get("datetime")
            if stamp:
                stamps.append(stamp)
        elif found.profile_dt is None:  # dl
            value = child.get("class")
            if value and "postprofile" in value.split():
                found.profile_dt = next(child.iterchildren("dt"), None)
    return found


def _read_post(
    element, *, base: str, number: int, tz: tzinfo, now: datetime | None, problems: list[str]
) -> Post:
    post_id = element.get("id")[1:]
    found = _scan_post(element)
    if found.content is None:
        raise _Unreadable("no div.content body")
    author, author_id = _read_author(found)
    if not author:
        raise _Unreadable("no author name")
    if found.number is not None:
        shown = text_of(found.number)
        digits = shown.strip().lstrip("#")
        if not digits.isdigit():
            digits = re.sub(r"\D", "", shown)
            if not digits:
                raise _Unreadable(f"post number {shown!r} is not a number")
        number = int(digits)
    time = _read_time(found, tz=tz, now=now)
    if time is None:
        problems.append(f"post {post_id}: no readable time")
    edited = bool(found.notices) and any("bumped" not in text_of(n).lower() for n in found.notices)
    body_html, commands = read_body(found.content)
    # Positional, in Post's field order: keyword arguments cost every post of every page a lookup
    # each.
    return Post(
        post_id,
        number,
        author,
        time,
        body_html,
        f"{base}?p={post_id}#p{post_id}",
        edited,
        found.deleted,
        author_id,
        commands,
    )


def _read_author(found: _Chrome) -> tuple[str, str | None]:
    """The poster's name: the profile column, else the "by NAME" line (guests have no profile
    link)."""
    holders = ([found.profile_dt] if found.profile_dt is not None else []) + found.author_lines
    for holder in holders:
        for link in holder.iter("a"):
            href = link.get("href", "")
            if "mode=viewprofile" in href:
                name = text_of(link).strip()
                if name:
                    found_id = _USER_ID.search(href)
                    return name, found_id.group(1) if found_id else None
        # also profile links on boards with rewritten URLs
        for tag in holder.iter("a", "span", "strong"):
            if "username" in (tag.get("class") or ""):
                name = text_of(tag).strip()
                if name:
                    found_id = _USER_ID.search(tag.get("href") or "")
                    return name, found_id.group(1) if found_id else None
        for strong in holder.iter("strong"):
            name = text_of(strong).strip()
            if name:
                return name, None
    return "", None


def _read_time(found: _Chrome, *, tz: tzinfo, now: datetime | None) -> datetime | None:
    for stamp in found.stamps:
        when = parse_iso_time(stamp, tz=tz)
        if when is not None:
            return when
    # 3.0-era and MafiaScum's visible line: "... » Mon Dec 06, 2010 4:04 pm"
    for line in found.author_lines:
        tail = text_of(line).rsplit("\u00bb", 1)[-1]
        when = parse_text_date(tail, tz=tz, now=now)
        if when is not None:
            return when
    return None


def _read_total(bars) -> int | None:
    for bar in bars:
        # "949 posts" leads the bar: its own text first, the whole bar's only if that fails
        found = _TOTAL.search(bar.text or "") or _TOTAL.search(text_of(bar))
        if found:
            return int(re.sub(r"\D", "", found.group(1)))
    return None


@lru_cache(maxsize=64)
def _permalink_base(url: str) -> str:
    """viewtopic.php beside the page (permalinks: viewtopic.php?p={id}#p{id}); the same for every
    page of a thread, so joined once."""
    return urljoin(url.split("?", 1)[0].split("#", 1)[0], "viewtopic.php")


def _start_of(href: str) -> int | None:
    query = dict(parse_qsl(urlsplit(href).query))
    value = query.get("start")
    return int(value) if value is not None and value.isdigit() else None


def _read_start(
    shown, canonical: str | None, url: str, total: int | None, per_page: int | None
) -> int:
    """The offset of the page's first post, for forums that print no post numbers.

    The canonical link carries the offset phpBB actually used (it clamps a start past the end);
    without one, the requested start when it is inside the topic, else the current page of the bar.
    """
    if canonical:
        return _start_of(canonical) or 0
    asked = _start_of(url)
    if asked is not None and (total is None or asked < total):
        return asked
    current, shown_per_page = shown
    if current and (shown_per_page or per_page):
        return (current - 1) * (shown_per_page or per_page)
    return asked or 0


def _read_current_page(bars) -> tuple[int | None, int | None]:
    """The current page number and posts per page as the pagination bar shows them."""
    current = per_page = None
    for bar in bars:
        for item in bar.iter("li", "strong"):
            if item.tag == "li":
                value = item.get("class")
                # substring first
                if not value or "active" not in value or "active" not in value.split():
                    continue
                text = text_of(item).strip()
            elif (
                item.tag == "strong"
                and item.getparent() is not None
                and item.getparent().tag == "span"
            ):
                text = text_of(item).strip()  # 3.0: <span><strong>2</strong>, <a>3</a></span>
            else:
                continue
            if text.isdigit():
                current = int(text)
        # the last numbered link that carries a start decides
        for link in reversed(list(bar.iter("a"))):
            text = text_of(link).strip()
            if text.isdigit() and int(text) > 1:
                # parsing the URL costs: only for page-number links
                start = _start_of(link.get("href", ""))
                if start:
                    per_page = start // (int(text) - 1)
                    break
        if current:
            break
    return current, per_page


def _read_next(bars, shown, url: str) -> str | None:
    for bar in bars:
        for link in bar.iter("a"):
            if link.get("rel") == "next" and link.get("href"):
                return _clean_url(urljoin(url, link.get("href")))
    # 3.0 has no rel=next: the link numbered one past the current page.
    current, _ = shown
    if current:
        for bar in bars:
            for link in bar.iter("a"):
                if text_of(link).strip() == str(current + 1) and link.get("href"):
                    return _clean_url(urljoin(url, link.get("href")))
    return None


def _clean_url(href: str) -> str:
    """Drop the session id phpBB adds to links for cookieless visitors, and any fragment."""
    if "sid=" not in href and "#" not in href:
        return href
    parts = urlsplit(href)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "sid"]
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(query), ""))


def _explain_empty(doc, messages) -> str:
    for box in messages:
        said = " ".join(" ".join(box.itertext()).split())
        return f"no posts on the page; the forum says: {said[:200]}"
    if (
        doc.find(".//form[@id='login']") is not None
        or doc.find(".//input[@name='login']") is not None
    ):
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
