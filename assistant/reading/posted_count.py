"""A moderator's posted vote count as read (``count_reader``), and the form the store keeps it
in."""

from __future__ import annotations

import json
from dataclasses import dataclass


@dataclass(frozen=True)
class PostedWagon:
    target: str  # as the moderator wrote it
    votes: float
    voters: tuple[str, ...]  # as the moderator wrote them


@dataclass(frozen=True)
class PostedCount:
    post: int
    wagons: tuple[PostedWagon, ...]
    not_voting: tuple[str, ...] = ()
    alive: int | None = None  # the number of living players the count states ("With 9 alive, ...")


# The reading of each moderator's post is stored with it (assistant.forum.stored_counts) under this
# version: bump it when assistant.reading.count_reader reads a post otherwise, and every stored
# reading is read again, once.
COUNT_READER_VERSION = 2


def encode_count(count: PostedCount | None) -> str | None:
    """A reading as the store keeps it (JSON; None: the post holds no count)."""
    if count is None:
        return None
    wagons = [[w.target, w.votes, list(w.voters)] for w in count.wagons]
    return json.dumps([wagons, list(count.not_voting), count.alive], ensure_ascii=False)


def decode_count(text: str, *, post: int) -> PostedCount:
    wagons, not_voting, alive = json.loads(text)
    return PostedCount(
        post, tuple(PostedWagon(t, v, tuple(vs)) for t, v, vs in wagons), tuple(not_voting), alive
    )
