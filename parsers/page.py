"""What every forum parser returns: posts of one thread page, the next page, and what it could not
read."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from parsers.reading import Command


@dataclass(frozen=True)
class Post:
    """One post as the forum shows it. Times are timezone-aware UTC."""

    post_id: str  # the forum's own id, unique within the forum
    number: int  # the forum's post number in the thread (MafiaScum 0-based, most others 1-based)
    author: str  # the account name the forum shows
    time: datetime | None
    body_html: str  # the post body's inner HTML, signature excluded
    url: str  # permalink to the post
    edited: bool = False
    deleted: bool = False
    author_id: str | None = None
    # The body's commands when the parser read them from its own parse of the page (saves parsing
    # the body a second time); None leaves them to the store. Derived from body_html, so not part of
    # equality.
    commands: tuple[Command, ...] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class ThreadPage:
    """A parsed page. ``problems`` lists what could not be read; nothing is silently dropped."""

    posts: list[Post]
    next_url: str | None
    total_posts: int | None = None
    problems: list[str] = field(default_factory=list)
