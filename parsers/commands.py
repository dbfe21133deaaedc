"""Reading vote commands from a post's bold text, ignoring quotes, spoilers, code and struck text."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

# Bump when extraction changes: stored commands of an older version are read again from the post.
EXTRACTOR_VERSION = 1


@dataclass(frozen=True)
class Command:
    """One command as typed. ``target`` is the text after VOTE (None for a bare UNVOTE)."""

    action: str  # "vote" | "unvote" | "nominate"
    target: str | None
    raw: str  # the bold text it was read from


@dataclass(frozen=True)
class ReadPost:
    """A stored post with the commands read from it: what the tally replays."""

    number: int
    post_id: str
    author: str
    time: datetime | None
    url: str
    commands: tuple[Command, ...]
    edited: bool = False
    deleted: bool = False
    first_commands: tuple[Command, ...] | None = None  # from the first revision, when edited


def extract_commands(body_html: str) -> list[Command]:
    """Every command in the post's countable bold text, in order."""
    raise NotImplementedError("being written: see the vote-reading issue")
