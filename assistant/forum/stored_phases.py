"""The moderators' posts that tell the night, as the store keeps them: each post is read by a sync
(again after an edit or a change of the reader), and a count then reads only the stored readings;
a reading no sync stored yet is made in memory, never written by the read."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from sqlite3 import Row

from assistant.errors import VotalError
from assistant.forum import store
from assistant.gamefile.game import Game
from assistant.gamefile.rules import find_ruleset

# Bump when :func:`assistant.reading.announcements.night.tells_night` reads a post otherwise: every
# stored reading is then read again by the next sync. Kept here so that a count imports no reader
# to check it.
NIGHT_READER_VERSION = 1


def load_night_posts(db: store.Store, game: str, moderators: Iterable[str]) -> frozenset[int]:
    """The numbers of the live posts by ``moderators`` that tell the night; a post no sync read
    with this reader is read now, in memory."""
    spellings = store.moderator_spellings(db, game, moderators)
    rows = store.load_night_readings(db, game, spellings, NIGHT_READER_VERSION)
    fresh = read_night_rows(rows)
    return frozenset(row["number"] for row in rows if fresh.get(row["post_id"], row["night_told"]))


def reads_nights(game: Game) -> bool:
    """Whether counting ``game`` asks which posts tell the night (its rules open a day at the
    moderator's post): a sync reads them only then, sparing other games the reader's import."""
    try:
        ruleset = find_ruleset(game.ruleset, game.path.parent)
    except VotalError:
        return False  # the count says what is wrong with the ruleset, and reads them if it must
    return ruleset.day_start == "moderator_post"


def read_night_rows(rows: Sequence[Row]) -> dict[str, bool]:
    """Post id -> whether each of ``rows`` the store holds no reading of tells the night."""
    unread = [row for row in rows if row["unread"] is not None]
    if not unread:
        return {}
    from assistant.reading.announcements import night  # its patterns compiled only when needed

    return {row["post_id"]: night.tells_night(row["unread"]) for row in unread}
