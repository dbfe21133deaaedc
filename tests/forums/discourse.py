"""Discourse JSON answers (``/t/{id}.json`` and ``/t/{id}/{post_number}.json`` topic views) for
loopback tests.

A topic view near post n holds up to five posts before n and the rest of the 20 from n on, filled
from before when n is near the end, with ``post_stream.stream`` listing every visible post id
(Discourse's TopicView#filter_posts_near, as the web client reads it).
"""

from __future__ import annotations

import json
import zlib
from datetime import datetime

SLUG = "game-thread"
CHUNK = 20
BEFORE = CHUNK // 4


def thread_url(base_url: str, *, topic_id: str = "1") -> str:
    return f"{base_url}/t/{SLUG}/{topic_id}"


def render_thread(
    posts: list[dict],
    *,
    base_url: str,
    per_page: int = CHUNK,
    topic_id: str = "1",
    title: str = "Game thread",
) -> dict[str, str]:
    """``/t/{id}.json`` and one ``/t/{id}/{n}.json`` for every post number (and one past the
    end)."""
    items = [_item(p, topic_id) for p in posts]
    pages = {f"/t/{topic_id}.json": _view(items, 0, topic_id, title)}
    numbers = [p["number"] for p in posts]
    for n in [*numbers, (numbers[-1] + 1 if numbers else 1)]:
        index = next((i for i, m in enumerate(numbers) if m >= n), len(numbers))
        pages[f"/t/{topic_id}/{n}.json"] = _view(items, index, topic_id, title)
    return pages


def _view(items: list[dict], index: int, topic_id: str, title: str) -> str:
    visible = [i for i in items if i["post_type"] in (1, 2, 3)]
    before = visible[max(index - BEFORE, 0) : index]
    after = visible[index : index + CHUNK - len(before)]
    if len(before) + len(after) < CHUNK:
        before = visible[max(index - (CHUNK - len(after)), 0) : index]
    chosen = before + after
    answer = {
        "post_stream": {"posts": chosen, "stream": [i["id"] for i in visible]},
        "id": int(topic_id),
        "title": title,
        "fancy_title": title,
        "slug": SLUG,
        "posts_count": len(visible),
        "highest_post_number": max((i["post_number"] for i in items), default=0),
        "archetype": "regular",
        "chunk_size": CHUNK,
    }
    return json.dumps(answer)


def _item(post: dict, topic_id: str) -> dict:
    when: datetime = post["time"]
    stamp = when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}Z"
    deleted_user = post.get("deleted_user") or post.get(
        "guest"
    )  # Discourse has no guests: an anonymised account
    uid = (
        None
        if deleted_user
        else int(post.get("user_id") or zlib.crc32(post["user"].encode()) % 100000)
    )
    return {
        "id": int(post["id"]),
        "name": post["user"] if deleted_user else "",
        "username": None if deleted_user else post["user"],
        "avatar_template": "/letter_avatar_proxy/v4/letter/x/5f8ce5/{size}.png",
        "created_at": stamp,
        "cooked": post["content"],
        "post_number": post["number"],
        "post_type": post.get("post_type", 1),
        "updated_at": stamp,
        "reply_count": 0,
        "reply_to_post_number": None,
        "quote_count": 0,
        "incoming_link_count": 0,
        "reads": 3,
        "score": 0.6,
        "yours": False,
        "topic_id": int(topic_id),
        "topic_slug": SLUG,
        "display_username": post["user"] if deleted_user else "",
        "version": 2 if post.get("edited") else 1,
        "user_id": uid,
        "hidden": False,
        "trust_level": 1,
        "deleted_at": when.strftime("%Y-%m-%dT%H:%M:%S.000Z") if post.get("deleted") else None,
        "user_deleted": False,
        "edit_reason": "typo" if post.get("edited") else None,
        "wiki": False,
    }
