"""MafiaScum-style phpBB pages (``#N`` from 0, ``?start=`` offsets), rendered by the demo's phpBB
renderer."""

from __future__ import annotations

from loopback_forum import render_page

from assistant.cli.demo import PhpbbThread

FORUM_ID = "53"


def thread_url(base_url: str, *, topic_id: str = "1") -> str:
    return f"{base_url}/viewtopic.php?f={FORUM_ID}&t={topic_id}"


def render_thread(
    posts: list[dict],
    *,
    base_url: str,
    per_page: int = 25,
    topic_id: str = "1",
    title: str = "Game thread",
) -> dict[str, str]:
    """Every page of the thread, keyed like phpBB's links (``start`` left out on the first page)."""
    thread = PhpbbThread(posts, title, FORUM_ID, topic_id, per_page)
    pages = {}
    for start in thread.page_starts():
        suffix = f"&start={start}" if start else ""
        pages[f"/viewtopic.php?f={FORUM_ID}&t={topic_id}{suffix}"] = render_page(thread, start)
    return pages
