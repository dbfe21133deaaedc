"""A moderator's posted count is read by a sync once per body and reader version, and a count reads
what was stored, reading in memory only what no sync stored (a read never writes)."""

from datetime import UTC, datetime

import pytest
from loopback_forum import game_text
from support import stored_post

from assistant.forum import store
from assistant.forum.stored_counts import load_posted_counts, save_readings
from assistant.gamefile.game import parse_game
from assistant.reading import count_reader, posted_count

GAME = "https://forum.example.org/viewtopic.php?t=1"
T0 = datetime(2024, 3, 1, 22, 0, tzinfo=UTC)
COUNT = "Vote Count 1.1<br>Marigold (2): Quentin, Ysolde<br>Not voting (1): Odalys<br>With 3 alive, 2 to lynch"


@pytest.fixture
def db(tmp_path):
    return store.open_db(tmp_path / "votal.db")


@pytest.fixture
def reads(monkeypatch):
    """The posts the reader is run on."""
    seen: list[int] = []
    read = count_reader.read_count
    monkeypatch.setattr(
        count_reader, "read_count", lambda body, number: seen.append(number) or read(body, number)
    )
    return seen


def test_a_count_is_read_by_the_sync_and_then_taken_from_the_store(db, reads):
    store.save_posts(
        db,
        GAME,
        [
            stored_post(1, "Mod", COUNT),
            stored_post(2, "Mod", "no count here"),
            stored_post(3, "Quentin", "vote x"),
        ],
        seen_at=T0,
    )
    save_readings(db, GAME, ["mod"])  # as a sync does after storing posts
    assert reads == [1, 2]  # the two moderator posts
    first = load_posted_counts(db, GAME, ["Mod"])
    assert first == {1: count_reader.read_count(COUNT, 1)}  # as the reader reads it
    assert first[1].alive == 3 and [w.voters for w in first[1].wagons] == [("Quentin", "Ysolde")]
    assert load_posted_counts(db, GAME, ["Mod"]) == first
    assert reads == [1, 2, 1]  # never read again (the last: the comparison above)


def test_a_post_no_sync_read_is_read_in_memory_and_the_store_left_as_it_was(db, reads):
    store.save_posts(db, GAME, [stored_post(1, "Mod", COUNT)], seen_at=T0)
    before = db.execute("select * from posts").fetchall()
    assert load_posted_counts(db, GAME, ["Mod"])[1].alive == 3
    assert load_posted_counts(db, GAME, ["Mod"])[1].alive == 3
    assert reads == [1, 1]  # each read reads it: nothing was stored
    after = db.execute("select * from posts").fetchall()
    assert [tuple(row) for row in after] == [tuple(row) for row in before]


def test_an_edited_post_and_a_new_reader_are_read_again_by_the_next_sync(db, reads, monkeypatch):
    store.save_posts(db, GAME, [stored_post(1, "Mod", COUNT)], seen_at=T0)
    save_readings(db, GAME, ["Mod"])
    store.save_posts(
        db, GAME, [stored_post(1, "Mod", COUNT.replace("Ysolde", "Pemberton"))], seen_at=T0
    )  # edited
    save_readings(db, GAME, ["Mod"])
    assert load_posted_counts(db, GAME, ["Mod"])[1].wagons[0].voters == ("Quentin", "Pemberton")
    store.save_posts(
        db, GAME, [stored_post(1, "Mod", COUNT.replace("Ysolde", "Pemberton"))], seen_at=T0
    )  # the same again
    save_readings(db, GAME, ["Mod"])
    assert reads == [1, 1]
    monkeypatch.setattr(posted_count, "COUNT_READER_VERSION", posted_count.COUNT_READER_VERSION + 1)
    monkeypatch.setattr(
        "assistant.forum.stored_counts.COUNT_READER_VERSION", posted_count.COUNT_READER_VERSION
    )
    load_posted_counts(db, GAME, ["Mod"])
    assert reads == [1, 1, 1]  # read in memory until a sync stores the new reading
    save_readings(db, GAME, ["Mod"])
    load_posted_counts(db, GAME, ["Mod"])
    assert reads == [1, 1, 1, 1]  # an upgrade is read once more, by the sync


def test_a_store_made_before_readings_were_kept_is_read_without_a_write(tmp_path, reads):
    path = tmp_path / "old.db"
    old = store.open_db(path)
    store.save_posts(old, GAME, [stored_post(1, "Mod", COUNT)], seen_at=T0)
    old.execute("alter table posts drop column vote_count")
    old.execute("alter table posts drop column vote_count_version")
    old.close()
    db = store.open_reader(path)  # as `votal count` opens it: read-only, no schema work
    assert load_posted_counts(db, GAME, ["Mod"])[1].wagons[0].target == "Marigold"
    assert load_posted_counts(db, GAME, ["Mod"])[1].alive == 3
    assert reads == [1, 1]
    assert "vote_count" not in {row[1] for row in db.execute("pragma table_info(posts)")}
    db.close()
    writer = store.open_db(path)  # opening for a write adds the columns; the sync reads the posts
    save_readings(writer, GAME, ["Mod"])
    assert load_posted_counts(writer, GAME, ["Mod"])[1].alive == 3 and reads == [1, 1, 1]


def test_a_moderators_night_post_is_read_once_per_body(db, monkeypatch):
    from assistant.forum.stored_phases import load_night_posts
    from assistant.reading.announcements import night

    seen: list[str] = []
    read = night.tells_night
    monkeypatch.setattr(night, "tells_night", lambda body: seen.append(body) or read(body))
    lynch = "Birch was lynched. Night 1 begins."
    posts = [
        stored_post(1, "Mod", lynch),
        stored_post(2, "Mod", "Day 2 begins."),
        stored_post(3, "Ann", "vote x"),
    ]
    store.save_posts(db, GAME, posts, seen_at=T0)
    assert load_night_posts(db, GAME, ["mod"]) == frozenset({1}) and len(seen) == 2  # in memory
    save_readings(db, GAME, ["mod"])
    assert load_night_posts(db, GAME, ["Mod"]) == frozenset({1}) and len(seen) == 4  # kept
    edited = stored_post(1, "Mod", "Birch was lynched. Elm was found dead. Day 2 begins.")
    store.save_posts(db, GAME, [edited], seen_at=T0)
    save_readings(db, GAME, ["mod"])
    assert load_night_posts(db, GAME, ["Mod"]) == frozenset()  # the edit read again
    assert len(seen) == 5


def test_a_sync_reads_the_night_posts_only_of_a_game_whose_rules_ask_which_tell_the_night(tmp_path):
    from loopback_forum import make_game

    from assistant.forum.stored_phases import reads_nights

    game = make_game("https://forum.example.org", path=str(tmp_path / "game.toml"))
    assert not reads_nights(game)  # mafiascum: the days follow the clock
    file_text = game_text("https://forum.example.org").replace('"mafiascum"', '"millers-hollow"')
    assert reads_nights(parse_game(file_text, path=str(tmp_path / "game.toml")))
    unknown = game_text("https://forum.example.org").replace('"mafiascum"', '"rules/missing.toml"')
    assert not reads_nights(parse_game(unknown, path=str(tmp_path / "game.toml")))
