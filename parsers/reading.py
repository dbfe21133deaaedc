"""What reading a post gives: the commands read from it (``Command``) and a stored post with them
(``ReadPost``).

Apart from :mod:`parsers.commands`, which reads them, so that what only replays stored commands
(``votal count``) never compiles the reader's patterns.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

# Bump when parsers.commands' extraction changes: stored commands of an older version are read again
# from the post.
EXTRACTOR_VERSION = 14


@dataclass(frozen=True)
class Command:
    """One command as typed. ``target`` is the text after VOTE (None for a bare UNVOTE).

    ``action`` "void" is a vote a moderator would not count, kept so it can be shown: ``note`` says
    why ("several targets", "two votes in one tag"). On a vote, ``note`` marks a doubtful reading
    ("broken tag"). ``inline``: the command is not on a line of its own: other text stands before it
    on its line (outside the bold or a preamble in it, "so yeah, vote X") or after its bold on the
    same line ("vote X because...").
    """

    action: (
        str  # "vote" | "unvote" | "nominate" | "sheriff" (a vote in a sheriff election) | "void"
    )
    target: str | None
    raw: str  # the bold text it was read from
    # False: read from plain text (a ruleset may flag such a vote; it never counts by itself)
    bold: bool = True
    note: str | None = None
    inline: bool = False  # other text shares its line (a house rule may refuse such a vote)


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
    author_id: str | None = None  # the forum's user id of the author, where the page gives one
