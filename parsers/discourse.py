"""Discourse topics read through the JSON API (``/t/{id}.json``, ``/t/{id}/{post_number}.json``)
into posts.

Paging design: every request is a topic view, ``/t/{id}.json`` for the start and
``/t/{id}/{n}.json`` ("the posts near post n": a few before it, the rest from it on). Each answer
carries ``post_stream.stream``, every visible post id in order, so the parser knows from the answer
alone whether the thread goes on, and a post number past the end still answers with the last posts
instead of nothing. ``/t/{id}/posts.json?post_number=N&asc=true`` answers are read too.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, tzinfo
from urllib.parse import parse_qsl, urlsplit, urlunsplit

from parsers.errors import ForumError
from parsers.page import Post, ThreadPage
from parsers.textdates import parse_iso_time

NAME = "discourse"
CHUNK = 20  # posts per answer, as Discourse's web client asks for them

REGULAR, MODERATOR_ACTION, SMALL_ACTION, WHISPER = 1, 2, 3, 4
# /t/{slug}/{id}[/{n}] or /t/{id}[/{n}]; Discourse never makes an all-digit slug, so two numbers are
# id and n
_TOPIC_PATH = re.compile(
    r"^/t/(?:(?P<slug>(?!\d+(?:/|\.json|$))[^/]+)/)?(?P<id>\d+)(?:/(?P<number>\d+))?(?:\.json)?/?$"
)
_POSTS_PATH = re.compile(r"^/t/(?P<id>\d+)/posts\.json$")


def parse_page(
    text: str,
    *,
    url: str,
    tz: tzinfo = UTC,
    now: datetime | None = None,
    per_page: int | None = None,
) -> ThreadPage:
    """Posts of one topic-view or posts.json answer, and the request that continues it.

    Small-action posts ("closed the topic") and whispers are not the players' posts and are left
    out.
    """
    try:
        data = json.loads(text)
    except ValueError:
        return ThreadPage(
            [], None, problems=["not a Discourse JSON answer (expected /t/{id}.json)"]
        )
    stream_data = data.get("post_stream") if isinstance(data, dict) else None
    if not isinstance(stream_data, dict) or not isinstance(stream_data.get("posts"), list):
        return ThreadPage(
            [],
            None,
            problems=["Discourse answer without post_stream.posts: the API may have changed"],
        )
    raw = stream_data["posts"]
    origin = _origin(url)
    posts: list[Post] = []
    problems: list[str] = []
    for item in raw:
        try:
            if item.get("post_type", REGULAR) in (SMALL_ACTION, WHISPER):
                continue
            posts.append(_read_post(item, origin=origin, topic=data))
        except (KeyError, TypeError, ValueError) as exc:
            ident = item.get("id") if isinstance(item, dict) else "?"
            problems.append(f"post {ident}: unreadable ({exc.__class__.__name__}: {exc})")
    # A topic view near post n also holds a few posts before it: leave those to the previous page,
    # so pages do not overlap, unless nothing is left (n past the end answers with the last posts).
    asked = _asked_number(url)
    if asked is not None and any(p.number >= asked for p in posts):
        posts = [p for p in posts if p.number >= asked]
    total = data.get("posts_count") if isinstance(data.get("posts_count"), int) else None
    problems.extend(_missing_from_stream(stream_data.get("stream"), raw))
    return ThreadPage(posts, _next_url(url, data, raw), total_posts=total, problems=problems)


def _missing_from_stream(stream, raw: list) -> list[str]:
    """The answer's posts are a run of the topic's stream (every visible post id, in order): a hole
    in the run means posts the answer left out."""
    ids = [item.get("id") for item in raw if isinstance(item, dict)]
    if not isinstance(stream, list) or not ids or ids[0] not in stream:
        return []
    first = stream.index(ids[0])
    if stream[first : first + len(ids)] == ids:
        return []
    return [
        f"the answer's {len(ids)} posts are not a run of the topic's stream: posts may be missing"
    ]


def page_url(thread_url: str, *, after_post: int | None = None, per_page: int | None = None) -> str:
    """``/t/{id}.json`` for the start, else the topic view near post ``after_post`` (which includes
    it)."""
    parts = urlsplit(thread_url)
    found = _TOPIC_PATH.match(parts.path) or _POSTS_PATH.match(parts.path)
    if not found:
        raise ForumError(f"not a Discourse topic URL (expected /t/slug/123): {thread_url}")
    topic = found.group("id")
    path = (
        f"/t/{topic}.json" if not after_post or after_post <= 1 else f"/t/{topic}/{after_post}.json"
    )
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def looks_like(url: str, text: str | None = None) -> bool:
    """A ``/t/…/123`` URL, or a page that is Discourse JSON or a Discourse-generated HTML page."""
    if text is not None:
        head = text.lstrip()[:1]
        if head == "{":
            return '"post_stream"' in text
        return 'content="Discourse' in text or "data-discourse-setup" in text
    return bool(_TOPIC_PATH.match(urlsplit(url).path))


def _read_post(item: dict, *, origin: str, topic: dict) -> Post:
    number = int(item["post_number"])
    author = (
        item.get("username") or item.get("name") or item.get("display_username") or "(deleted user)"
    )
    created = parse_iso_time(item["created_at"])
    if created is None:
        raise ValueError(f"created_at {item['created_at']!r} is not a time")
    slug = item.get("topic_slug") or topic.get("slug") or "-"
    topic_id = item.get("topic_id") or topic.get("id")
    # A post hidden by flags is still the player's post: its body is empty unless the reader may see
    # it.
    deleted = bool(item.get("deleted_at")) or bool(item.get("user_deleted"))
    return Post(
        post_id=str(item["id"]),
        number=number,
        author=author,
        time=created,
        body_html=item.get("cooked") or "",
        url=f"{origin}/t/{slug}/{topic_id}/{number}",
        edited=int(item.get("version") or 1) > 1,
        deleted=deleted,
        author_id=str(item["user_id"]) if item.get("user_id") is not None else None,
    )


def _next_url(url: str, data: dict, raw: list) -> str | None:
    if not raw:
        return None
    parts = urlsplit(url)
    last = raw[-1]
    stream = data["post_stream"].get("stream")
    topic = data.get("id") or last.get("topic_id")
    if isinstance(stream, list) and stream:
        if last.get("id") == stream[-1] or last.get("id") not in stream:
            return None
        return urlunsplit(
            (parts.scheme, parts.netloc, f"/t/{topic}/{int(last['post_number']) + 1}.json", "", "")
        )
    query = dict(parse_qsl(parts.query))
    if _POSTS_PATH.match(parts.path) and "post_number" in query and len(raw) >= CHUNK:
        return urlunsplit(
            (
                parts.scheme,
                parts.netloc,
                parts.path,
                f"post_number={last['post_number']}&asc=true",
                "",
            )
        )
    return None


def _asked_number(url: str) -> int | None:
    found = _TOPIC_PATH.match(urlsplit(url).path)
    return int(found.group("number")) if found and found.group("number") else None


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"
