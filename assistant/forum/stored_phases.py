"""The moderators' posts that tell the night, as the store keeps them: each post is read once (again
after an edit or a change of the reader), and a count then reads only the stored readings."""

from __future__ import annotations

from collections.abc import Iterable

from assistant.forum import store

# Bump when :func:`assistant.reading.announcements.night.tells_night` reads a post otherwise: every
# stored reading is then read again, once. Kept here so that a count imports no reader to check it.
NIGHT_READER_VERSION = 1


def load_night_posts(db: store.Store, game: str, moderators: Iterable[str]) -> frozenset[int]:
    """The numbers of the live posts by ``moderators`` that tell the night; a post not read yet by
    this reader is read now, once, and its reading stored."""
    spellings = store.moderator_spellings(db, game, moderators)
    rows = store.load_night_readings(db, game, spellings, NIGHT_READER_VERSION)
    fresh: dict[str, bool] = {}
    unread = [row for row in rows if row["unread"] is not None]
    if unread:
        from assistant.reading.announcements import night  # its patterns compiled only when needed

        fresh = {row["post_id"]: night.tells_night(row["unread"]) for row in unread}
        store.save_night_readings(db, game, fresh.items(), NIGHT_READER_VERSION)
    return frozenset(row["number"] for row in rows if fresh.get(row["post_id"], row["night_told"]))
