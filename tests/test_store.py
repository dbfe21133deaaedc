"""The store: upserts that change nothing the second time, revisions kept, commands cached by
version."""

from datetime import UTC, datetime

import pytest
from support import stored_post

from assistant.forum import store
from parsers import commands
from parsers.commands import Command

GAME = "https://forum.example.org/viewtopic.php?t=1"
T0 = datetime(2024, 3, 1, 22, 0, tzinfo=UTC)
T1 = datetime(2024, 3, 2, 9, 30, tzinfo=UTC)


@pytest.fixture
def db(tmp_path):
    return store.open_db(tmp_path / "votal.db")


def rows(db):
    return db.execute("select * from posts order by number").fetchall()


def test_a_second_save_changes_nothing(db):
    page = [
        stored_post(0, "Hiraki", "Day 1 begins"),
        stored_post(1, "Hiraki", "<strong>VOTE: Beefster</strong>"),
    ]
    assert store.save_posts(db, GAME, page, seen_at=T0) == store.SaveResult(new=2, changed=0)
    before = rows(db)
    assert store.save_posts(db, GAME, page, seen_at=T0) == store.SaveResult(new=0, changed=0)
    assert rows(db) == before
    assert db.execute("select count(*) from revisions").fetchone()[0] == 2


def test_an_edited_post_keeps_its_earlier_revision(db):
    store.save_posts(
        db, GAME, [stored_post(1, "Hiraki", "<strong>VOTE: Beefster</strong>")], seen_at=T0
    )
    result = store.save_posts(
        db,
        GAME,
        [stored_post(1, "Hiraki", "<strong>VOTE: Dekes</strong>", edited=True)],
        seen_at=T1,
    )
    assert result == store.SaveResult(new=0, changed=1)
    bodies = [
        r["body_html"] for r in db.execute("select body_html from revisions order by seen_at")
    ]
    assert bodies == ["<strong>VOTE: Beefster</strong>", "<strong>VOTE: Dekes</strong>"]
    [read] = store.load_read_posts(db, GAME)
    assert read.edited
    assert [c.target for c in read.commands] == ["Dekes"]
    assert [c.target for c in read.first_commands] == ["Beefster"]


def test_posts_of_two_games_do_not_mix(db):
    store.save_posts(
        db, GAME, [stored_post(0, "Hiraki", "a"), stored_post(1, "Hiraki", "b")], seen_at=T0
    )
    store.save_posts(db, GAME + "2", [stored_post(5, "Hiraki", "c")], seen_at=T0)
    assert store.last_post_number(db, GAME) == 1
    assert store.last_post_number(db, GAME + "2") == 5
    assert store.last_post_number(db, "other") is None
    assert store.count_posts(db, GAME) == 2


def test_read_posts_come_back_in_thread_order_with_commands(db):
    store.save_posts(
        db,
        GAME,
        [
            stored_post(2, "Hiraki", "<b>unvote</b>", time=T0),
            stored_post(1, "Hiraki", "<b>VOTE: Beefster</b>", time=T0),
        ],
        seen_at=T0,
    )
    read = store.load_read_posts(db, GAME)
    assert [p.number for p in read] == [1, 2]
    assert read[0].commands == (Command("vote", "Beefster", read[0].commands[0].raw),)
    assert read[1].commands[0].action == "unvote"
    assert read[0].time == T0
    assert read[0].first_commands is None


def test_read_posts_up_to_a_post_number_and_every_posts_author(db):
    page = [stored_post(3, "Ann", "c"), stored_post(1, "Bob", "a"), stored_post(2, "Ann", "b")]
    store.save_posts(db, GAME, page, seen_at=T0)
    assert [p.number for p in store.load_read_posts(db, GAME, up_to=2)] == [1, 2]
    assert [p.number for p in store.load_read_posts(db, GAME, up_to=0)] == []
    assert [p.number for p in store.load_read_posts(db, GAME)] == [1, 2, 3]
    assert store.post_authors(db, GAME) == [("Bob", None), ("Ann", None), ("Ann", None)]
    store.save_posts(db, GAME, [stored_post(4, "Ann", "d", author_id="77")], seen_at=T0)
    assert store.post_authors(db, GAME)[-1] == ("Ann", "77")  # the forum's user id, for identity
    assert store.load_read_posts(db, GAME)[-1].author_id == "77"


def test_commands_read_by_older_code_are_read_again(db, monkeypatch):
    store.save_posts(db, GAME, [stored_post(1, "Hiraki", "<b>VOTE: Beefster</b>")], seen_at=T0)
    db.execute("update posts set commands = '[]', commands_version = -1")
    [read] = store.load_read_posts(db, GAME)
    assert [c.target for c in read.commands] == ["Beefster"]
    version = "select commands_version from posts"
    assert db.execute(version).fetchone()["commands_version"] == -1  # a read never writes
    store.save_commands_read_again(db, GAME)  # the next sync stores them
    assert db.execute(version).fetchone()["commands_version"] == commands.EXTRACTOR_VERSION
    assert [c.target for c in store.load_read_posts(db, GAME)[0].commands] == ["Beefster"]


def test_schema_can_be_ensured_again(db):
    store.ensure_schema(db)
    store.ensure_schema(db)
    assert {"posts", "revisions", "syncs"} <= {
        r[0] for r in db.execute("select name from sqlite_master where type = 'table'")
    }


def _open_after(path, barrier, results):
    barrier.wait()
    try:
        store.open_db(path)
        results.put("ok")
    except Exception as exc:  # reported to the parent, which asserts on it
        results.put(repr(exc))


def test_processes_opening_one_new_store_at_once_all_succeed(tmp_path):
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    for trial in range(3):
        path = tmp_path / f"new{trial}.db"
        barrier, results = context.Barrier(4), context.Queue()
        workers = [
            context.Process(target=_open_after, args=(path, barrier, results)) for _ in range(4)
        ]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(timeout=60)
        assert [results.get(timeout=5) for _ in workers] == ["ok"] * 4


def test_a_commands_note_is_kept():
    from assistant.forum.store import decode_commands, encode_commands
    from parsers.commands import Command

    commands = (
        Command("void", None, "VOTE: Ann VOTE: Bob", note="two votes in one tag"),
        Command("vote", "Ann", "v"),
        Command("vote", "Ann", "vote Ann", bold=False),
        Command("vote", "Ann", "so, vote Ann", inline=True),
        Command("vote", "Ann", "[b]so, vote Ann", note="broken tag", inline=True),
    )
    assert decode_commands(encode_commands(commands)) == commands


def test_a_failure_mid_write_leaves_nothing_of_the_transaction(db):
    """sqlite-utils' upserts nest in _writing's BEGIN IMMEDIATE as savepoints: when the second page
    fails inside the library's upsert, the first page (its savepoint already released) is rolled
    back too."""
    store.save_posts(db, GAME, [stored_post(0, "Hiraki", "Day 1 begins")], seen_at=T0)
    before = (
        [tuple(r) for r in rows(db)],
        db.execute("select count(*) from revisions").fetchone()[0],
    )
    db.execute(
        "create trigger refuse before insert on posts when new.post_id = '1007' "
        "begin select raise(abort, 'disk is full'); end"
    )
    pages = [
        (
            "page1",
            [
                stored_post(0, "Hiraki", "Day 1 begins, edited"),
                stored_post(1, "Hiraki", "<strong>VOTE: Beefster</strong>"),
            ],
            store.Validators(etag='"a"'),
        ),
        (
            "page2",
            [stored_post(6, "Hiraki", "fine"), stored_post(7, "Hiraki", "refused")],
            store.Validators(etag='"b"'),
        ),
    ]
    with pytest.raises(store.StoreError, match="disk is full"):
        store.save_pages(db, GAME, pages, gone=["1000"], seen_at=T1)
    assert not db.in_transaction
    assert (
        [tuple(r) for r in rows(db)],
        db.execute("select count(*) from revisions").fetchone()[0],
    ) == before
    assert db.execute("select count(*) from validators").fetchone()[0] == 0
    db.execute("drop trigger refuse")
    assert store.save_pages(db, GAME, pages, gone=[], seen_at=T1) == store.SaveResult(
        new=3, changed=1
    )
    assert [r["number"] for r in rows(db)] == [0, 1, 6, 7]


def test_writes_leave_the_schema_alone(db):
    """The upsert library must not probe the store with tables of its own (readers would
    re-prepare)."""
    version = db.execute("pragma schema_version").fetchone()[0]
    store.save_posts(db, GAME, [stored_post(0, "Hiraki", "Day 1 begins")], seen_at=T0)
    store.save_hold(db, "forum.example.org", T1)
    assert db.execute("pragma schema_version").fetchone()[0] == version


def test_moderator_bodies_match_names_as_casefold_does(db):
    page = [
        stored_post(0, "ÅSA", "Day 1 begins"),
        stored_post(1, "Hiraki", "<strong>VOTE: Beefster</strong>"),
        stored_post(2, "åsa", "Vote count 1.1"),
        stored_post(3, "Åsa", ""),  # an empty body teaches nothing
        stored_post(4, "Åsa", "Vote count 1.2"),
        stored_post(5, "Straße", "Mod's alt"),
    ]
    store.save_posts(db, GAME, page, seen_at=T0)
    store.save_posts(db, "other game", [stored_post(9, "Åsa", "not this game")], seen_at=T0)
    store.mark_missing(db, GAME, since_number=4, present=["1005"], seen_at=T1)  # post 4 vanished
    assert store.moderator_bodies(db, GAME, ["åsa", "STRASSE"]) == {
        0: "Day 1 begins",
        2: "Vote count 1.1",
        5: "Mod's alt",
    }
    assert store.moderator_bodies(db, GAME, ["Åsa"], up_to=1) == {0: "Day 1 begins"}
    assert store.moderator_bodies(db, GAME, ["Nobody"]) == {}
    assert store.moderator_bodies(db, GAME, []) == {}


def test_edited_posts_read_in_several_queries_each_keep_their_first_revision(db, monkeypatch):
    # The edited posts' revisions are read by post id, a few ids a query: each post gets its own
    # first revision, whichever query holds it, and an unedited post none.
    monkeypatch.setattr(store, "_IDS_A_QUERY", 2)
    names = ["Ann", "Bob", "Cat", "Dee", "Eve"]
    store.save_posts(
        db,
        GAME,
        [stored_post(n, "Hiraki", f"<b>VOTE: {name}</b>") for n, name in enumerate(names)],
        seen_at=T0,
    )
    store.save_posts(
        db,
        GAME,
        [stored_post(n, "Hiraki", "<b>VOTE: Zed</b>", edited=True) for n in (0, 1, 2, 4)],
        seen_at=T1,
    )
    store.save_posts(
        db,
        GAME,
        [stored_post(n, "Hiraki", "<b>VOTE: Yul</b>", edited=True) for n in (1, 4)],
        seen_at=T1.replace(hour=11),
    )
    read = store.load_read_posts(db, GAME)
    assert [[c.target for c in p.commands] for p in read] == [
        ["Zed"],
        ["Yul"],
        ["Zed"],
        ["Dee"],
        ["Yul"],
    ]
    assert [p.first_commands and p.first_commands[0].target for p in read] == [
        "Ann",
        "Bob",
        "Cat",
        None,
        "Eve",
    ]


def test_an_edited_posts_first_commands_are_read_once(db, monkeypatch):
    store.save_posts(
        db, GAME, [stored_post(1, "Hiraki", "<strong>VOTE: Beefster</strong>")], seen_at=T0
    )
    store.save_posts(
        db,
        GAME,
        [stored_post(1, "Hiraki", "<strong>VOTE: Dekes</strong>", edited=True)],
        seen_at=T1,
    )
    bodies = []
    extract = store._extract  # the store's one call into the command reader
    monkeypatch.setattr(store, "_extract", lambda body: bodies.append(body) or extract(body))
    [read] = store.load_read_posts(db, GAME)  # before a sync stored its reading: read in memory
    assert [c.target for c in read.first_commands] == ["Beefster"]
    store.save_commands_read_again(db, GAME)  # as a sync does
    for _ in range(3):
        [read] = store.load_read_posts(db, GAME)
        assert [c.target for c in read.first_commands] == ["Beefster"]
    first = "<strong>VOTE: Beefster</strong>"
    assert bodies == [first, first]  # kept with the revision, not read at every count
