"""The moderators' posted vote counts as the store keeps them: each post is read once, when it is stored (or
edited, or the reader changes), and a count then reads only the stored readings, never the posts' HTML."""

from __future__ import annotations

from collections.abc import Iterable

from assistant.forum import store
from assistant.reading.posted_count import COUNT_READER_VERSION, PostedCount, decode_count, encode_count


def load_posted_counts(db: store.Store, game: str, authors: Iterable[str]) -> dict[int, PostedCount]:
    """Post number -> the count each live post by ``authors`` (the moderators' stored spellings) holds; posts
    not read yet by this reader are read now, once, and their reading stored."""
    rows = store.load_vote_counts(db, game, sorted(set(authors)), COUNT_READER_VERSION)
    unread = [row for row in rows if row["unread"] is not None]
    fresh: dict[str, str | None] = {}
    if unread:
        from assistant.reading.count_reader import read_count  # its patterns are compiled only when a post needs them

        fresh = {row["post_id"]: encode_count(read_count(row["unread"], row["number"])) for row in unread}
        store.save_vote_counts(db, game, fresh.items(), COUNT_READER_VERSION)
    readings = ((row["number"], fresh.get(row["post_id"], row["vote_count"])) for row in rows)
    return {number: decode_count(text, post=number) for number, text in readings if text is not None}


def read_posted_counts(db: store.Store, game: str, moderators: Iterable[str]) -> None:
    """Read the counts in the moderators' posts stored or edited since they were last read (after a sync)."""
    load_posted_counts(db, game, store.moderator_spellings(db, game, moderators))
