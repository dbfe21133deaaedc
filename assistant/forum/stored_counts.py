"""The moderators' posted vote counts as the store keeps them: each post is read when it is stored
(or edited, or the reader changes) by a sync, and a count then reads only the stored readings,
never the posts' HTML. A read never writes: a reading no sync stored yet is made in memory."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from sqlite3 import Row

from assistant.forum import store
from assistant.forum.stored_phases import NIGHT_READER_VERSION, read_night_rows
from assistant.reading.posted_count import (
    COUNT_READER_VERSION,
    PostedCount,
    decode_count,
    encode_count,
)


def load_posted_counts(
    db: store.Store, game: str, authors: Iterable[str]
) -> dict[int, PostedCount]:
    """Post number -> the count each live post by ``authors`` (the moderators' stored spellings)
    holds; a post no sync read with this reader (a moderator added to the game file, a reader
    upgraded since) is read now, in memory."""
    rows = store.load_vote_counts(db, game, sorted(set(authors)), COUNT_READER_VERSION)
    fresh = read_count_rows(rows)
    readings = ((row["number"], fresh.get(row["post_id"], row["vote_count"])) for row in rows)
    return {
        number: decode_count(text, post=number) for number, text in readings if text is not None
    }


def read_count_rows(rows: Sequence[Row]) -> dict[str, str | None]:
    """Post id -> the count (encoded) read from each of ``rows`` the store holds no reading of."""
    unread = [row for row in rows if row["unread"] is not None]
    if not unread:
        return {}
    from assistant.reading.count_reader import read_count  # its patterns compiled only when needed

    return {
        row["post_id"]: encode_count(read_count(row["unread"], row["number"])) for row in unread
    }


# A store whose last sync read with today's readers (and these moderators), and a sync that stored
# no post, has nothing to read again (a count reads in memory whatever is missing).
def readers_stamp(moderators: Iterable[str], *, nights: bool) -> str:
    """What a sync's readings were read with: today's readers, for these moderators."""
    names = ", ".join(sorted({m.casefold() for m in moderators}))
    readers = f"counts {COUNT_READER_VERSION}, nights {NIGHT_READER_VERSION}"
    read = "read" if nights else "not read"
    return f"{readers}, commands {store.EXTRACTOR_VERSION}; nights {read}; moderators {names}"


def readings_current(db: store.Store, game: str, stamp: str) -> bool:
    """Whether the last good sync of ``game`` (a store opened for writing) read with ``stamp``."""
    row = store.last_good_sync(db, game)
    return row is not None and row["readers"] == stamp


def save_readings(
    db: store.Store, game: str, moderators: Iterable[str], *, nights: bool = True
) -> None:
    """Read what the store holds no current reading of and store it (a sync, after storing posts):
    the moderators' counts and (``nights``) night posts stored or edited since they were last read
    or read by another reader version, and the commands another reader version read."""
    spellings = store.moderator_spellings(db, game, moderators)
    counts = read_count_rows(store.load_vote_counts(db, game, spellings, COUNT_READER_VERSION))
    if counts:
        store.save_vote_counts(db, game, counts.items(), COUNT_READER_VERSION)
    if nights:
        rows = store.load_night_readings(db, game, spellings, NIGHT_READER_VERSION)
        if told := read_night_rows(rows):
            store.save_night_readings(db, game, told.items(), NIGHT_READER_VERSION)
    store.save_commands_read_again(db, game)
