"""A moderator's posted count is read once per body and reader version, and a count reads what was stored."""

from datetime import UTC, datetime

import pytest

from assistant.forum import store
from assistant.forum.stored_counts import load_posted_counts
from assistant.reading import count_reader, posted_count
from parsers.page import Post

GAME = "https://forum.example.org/viewtopic.php?t=1"
T0 = datetime(2024, 3, 1, 22, 0, tzinfo=UTC)
COUNT = "Vote Count 1.1<br>Marigold (2): Quentin, Ysolde<br>Not voting (1): Odalys<br>With 3 alive, 2 to lynch"


def post(number: int, body: str, *, author: str = "Mod") -> Post:
    return Post(str(1000 + number), number, author, T0, body, f"https://forum.example.org/p{number}")


@pytest.fixture
def db(tmp_path):
    return store.open_db(tmp_path / "votal.db")


@pytest.fixture
def reads(monkeypatch):
    """The posts the reader is run on."""
    seen: list[int] = []
    read = count_reader.read_count
    monkeypatch.setattr(count_reader, "read_count", lambda body, number: seen.append(number) or read(body, number))
    return seen


def test_a_count_is_read_once_and_then_taken_from_the_store(db, reads):
    store.save_posts(db, GAME, [post(1, COUNT), post(2, "no count here"), post(3, "vote x", author="Quentin")],
                     seen_at=T0)
    first = load_posted_counts(db, GAME, ["Mod"])
    assert first == {1: count_reader.read_count(COUNT, 1)}  # as the reader reads it
    assert first[1].alive == 3 and [w.voters for w in first[1].wagons] == [("Quentin", "Ysolde")]
    assert reads == [1, 2, 1]  # the two moderator posts, then the comparison above
    assert load_posted_counts(db, GAME, ["Mod"]) == first
    assert reads == [1, 2, 1]  # never read again


def test_an_edited_post_and_a_new_reader_are_read_again(db, reads, monkeypatch):
    store.save_posts(db, GAME, [post(1, COUNT)], seen_at=T0)
    load_posted_counts(db, GAME, ["Mod"])
    store.save_posts(db, GAME, [post(1, COUNT.replace("Ysolde", "Pemberton"))], seen_at=T0)  # edited
    assert load_posted_counts(db, GAME, ["Mod"])[1].wagons[0].voters == ("Quentin", "Pemberton")
    store.save_posts(db, GAME, [post(1, COUNT.replace("Ysolde", "Pemberton"))], seen_at=T0)  # the same again
    load_posted_counts(db, GAME, ["Mod"])
    assert reads == [1, 1]
    monkeypatch.setattr(posted_count, "COUNT_READER_VERSION", posted_count.COUNT_READER_VERSION + 1)
    monkeypatch.setattr("assistant.forum.stored_counts.COUNT_READER_VERSION", posted_count.COUNT_READER_VERSION)
    load_posted_counts(db, GAME, ["Mod"])
    load_posted_counts(db, GAME, ["Mod"])
    assert reads == [1, 1, 1]  # an upgrade reads each post once more


def test_a_store_made_before_readings_were_kept_is_read_once(tmp_path, reads):
    path = tmp_path / "old.db"
    old = store.open_db(path)
    store.save_posts(old, GAME, [post(1, COUNT)], seen_at=T0)
    old.execute("alter table posts drop column vote_count")
    old.execute("alter table posts drop column vote_count_version")
    old.close()
    db = store.open_reader(path)  # as `votal count` opens it: no schema work
    assert load_posted_counts(db, GAME, ["Mod"])[1].wagons[0].target == "Marigold"
    assert load_posted_counts(db, GAME, ["Mod"])[1].alive == 3
    assert reads == [1]


def test_a_moderators_night_post_is_read_once_per_body(db, monkeypatch):
    from assistant.forum.stored_phases import load_night_posts
    from assistant.reading.announcements import night

    seen: list[str] = []
    read = night.tells_night
    monkeypatch.setattr(night, "tells_night", lambda body: seen.append(body) or read(body))
    lynch = "Birch was lynched. Night 1 begins."
    posts = [post(1, lynch), post(2, "Day 2 begins."), post(3, "vote x", author="Ann")]
    store.save_posts(db, GAME, posts, seen_at=T0)
    assert load_night_posts(db, GAME, ["mod"]) == frozenset({1})
    assert load_night_posts(db, GAME, ["Mod"]) == frozenset({1}) and len(seen) == 2  # kept
    edited = post(1, "Birch was lynched. Elm was found dead. Day 2 begins.")
    store.save_posts(db, GAME, [edited], seen_at=T0)
    assert load_night_posts(db, GAME, ["Mod"]) == frozenset()  # the edit read again
    assert len(seen) == 3
