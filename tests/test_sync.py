"""Incremental sync against a misbehaving loopback phpBB forum: request counts, edits, deletions,
faults."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from loopback_forum import FakeTime, Forum, make_game, make_posts, stored_posts

from assistant.errors import ForumError
from assistant.forum import store
from assistant.forum.fetch import HostLimiter, RobotsCache, make_fetcher
from assistant.forum.sync import looks_truncated, sync_game

NOW = datetime(2026, 3, 5, 12, 0, tzinfo=UTC)


def now() -> datetime:
    return NOW


class Setup:
    """A forum of 60 posts (pages start at 0, 25, 50), a game on it, a store and a fetcher that
    never sleeps."""

    def __init__(self, board, *, posts: int = 60, send_etag: bool = True, stock: bool = False):
        self.forum = Forum(make_posts(posts), send_etag=send_etag, stock=stock)
        board.plug(self.forum.respond)
        self.game = make_game(board.base_url)
        self.db = store.open_db(":memory:")
        self.time = FakeTime()
        self.sleeps = self.time.sleeps
        self.fetcher = make_fetcher(
            self.game,
            limiter=HostLimiter(clock=self.time.clock, sleep=self.time.sleep),
            robots=RobotsCache(),
            rng=random.Random(1),
        )

    def sync(self):
        self.forum.seen.clear()
        return sync_game(self.game, self.db, self.fetcher, now=now)

    def summary(self, result) -> tuple:
        return (
            result.pages,
            result.requests,
            result.new_posts,
            result.changed_posts,
            result.deleted_posts,
        )

    def live_ids(self) -> list[str]:
        return [p["post_id"] for p in stored_posts(self.db, self.game.key) if not p["deleted"]]


def test_first_sync_reads_every_page_and_stores_whole_records(board) -> None:
    s = Setup(board)
    result = s.sync()
    assert s.summary(result) == (3, 4, 60, 0, 0)  # 3 pages + robots.txt
    assert s.forum.page_requests() == [0, 25, 50]
    posts = stored_posts(s.db, s.game.key)
    assert posts[0] == {
        "post_id": "1000",
        "number": 0,
        "author": "Alder",
        "body_html": "post 0 by Alder",
        "deleted": 0,
        "revisions": 1,
        "edited": 0,
    }
    assert [p["number"] for p in posts] == list(range(60))


def test_an_idle_poll_costs_one_conditional_request(board) -> None:
    s = Setup(board)
    s.sync()
    result = s.sync()
    assert s.summary(result) == (0, 1, 0, 0, 0)
    assert result.not_modified
    assert not result.changed
    [(path, query, headers)] = s.forum.seen
    assert query.get("start") == "50" and headers.get("If-None-Match")


def test_an_idle_poll_without_validators_reads_only_the_last_page(board) -> None:
    s = Setup(board, send_etag=False)
    s.sync()
    result = s.sync()
    assert s.summary(result) == (1, 1, 0, 0, 0)
    assert s.forum.page_requests() == [50]


def test_an_idle_poll_with_last_modified_only_is_one_conditional_request(board) -> None:
    s = Setup(board, send_etag=False)
    s.forum.send_last_modified = True
    s.sync()
    result = s.sync()
    assert (s.summary(result), result.not_modified) == ((0, 1, 0, 0, 0), True)
    [(path, query, headers)] = s.forum.seen
    assert headers["If-Modified-Since"] == "Sun, 01 Mar 2026 22:59:00 GMT"
    s.forum.add(1)
    assert s.summary(s.sync()) == (1, 1, 1, 0, 0)


def test_a_last_modified_as_recent_as_our_read_is_not_trusted(board) -> None:
    s = Setup(board, send_etag=False)
    s.forum.send_last_modified = True
    s.forum.posts[-1]["time"] = NOW  # the newest post is from the very second we read the page
    s.sync()
    s.sync()
    [(path, query, headers)] = s.forum.seen
    assert (
        "If-Modified-Since" not in headers
    )  # a post in that same second would not count as modified


def test_new_posts_cost_only_the_pages_they_are_on(board) -> None:
    s = Setup(board)
    s.sync()
    s.forum.add(3)  # 60..62: still on the page at 50
    assert s.summary(s.sync()) == (1, 1, 3, 0, 0)
    s.forum.add(30)  # 63..92: fill the page at 50 and go on to 75
    assert s.summary(s.sync()) == (2, 2, 30, 0, 0)
    assert s.forum.page_requests() == [50, 75]
    assert len(s.live_ids()) == 93


def test_an_edited_post_adds_a_revision_and_a_vanished_post_is_marked_deleted(board) -> None:
    s = Setup(board)
    s.sync()
    s.forum.edit(52, '<strong class="text-strong">VOTE: Birch</strong>')
    gone = s.forum.delete(57)  # phpBB renumbers 58.. as 57..
    result = s.sync()
    assert s.summary(result) == (1, 1, 0, 1, 1)
    rows = {r["post_id"]: r for r in s.db.execute("select * from posts")}
    assert (rows["1052"]["revisions"], rows["1052"]["edited"]) == (2, 1)
    assert [
        r["body_html"]
        for r in s.db.execute(
            "select body_html from revisions where post_id = '1052' order by rowid"
        )
    ] == [
        "post 52 by Cedar",
        '<strong class="text-strong">VOTE: Birch</strong>',
    ]
    assert (
        rows[gone["id"]]["deleted"],
        rows[gone["id"]]["vanished"],
        rows[gone["id"]]["body_html"],
    ) == (
        1,
        NOW.isoformat(),
        "post 57 by Cedar",
    )
    assert rows["1058"]["number"] == 57
    assert len(s.live_ids()) == 59
    assert s.summary(s.sync()) == (0, 1, 0, 0, 0)  # and then idle again


def test_the_last_post_vanishing_is_noticed(board) -> None:
    s = Setup(board)
    s.sync()
    s.forum.delete(59)
    assert s.summary(s.sync()) == (1, 1, 0, 0, 1)
    assert post_row(s, "1059")["deleted"] == 1


def test_a_deletion_on_an_earlier_page_is_found_by_the_renumbering_and_marks_only_that_post(
    board,
) -> None:
    s = Setup(board)
    s.sync()
    s.forum.delete(
        10
    )  # the forum renumbers every later post: the last page starts one post earlier
    result = s.sync()
    assert s.summary(result) == (
        3,
        3,
        0,
        0,
        1,
    )  # the last page, then back to the page that lost a post
    assert s.forum.page_requests() == [50, 25, 0]
    assert s.live_ids() == [str(1000 + n) for n in range(60) if n != 10]
    assert [
        r["number"]
        for r in s.db.execute("select number from posts where deleted = 0 order by number")
    ] == list(range(59))
    assert s.summary(s.sync()) == (0, 1, 0, 0, 0)  # and idle again


@pytest.mark.parametrize("stock", [False, True], ids=["numbered-from-0", "stock-phpbb-from-1"])
@pytest.mark.parametrize("deleted", [(0,), (10, 40), (30, 57), (24, 25, 49, 50), (5, 6, 7, 59)])
def test_any_deletions_are_marked_and_nothing_else(board, deleted, stock) -> None:
    s = Setup(board, stock=stock)
    s.sync()
    for number in sorted(deleted, reverse=True):
        s.forum.delete(number)
    s.forum.add(2)
    result = s.sync()
    assert (result.deleted_posts, result.new_posts) == (len(deleted), 2)
    assert [p["post_id"] for p in stored_posts(s.db, s.game.key) if p["deleted"]] == [
        str(1000 + n) for n in deleted
    ]
    live = list(s.db.execute("select number from posts where deleted = 0 order by number"))
    assert [r["number"] for r in live] == list(range(int(stock), 62 - len(deleted) + int(stock)))


def test_no_deletion_no_extra_request(board) -> None:
    s = Setup(board, send_etag=False)
    s.sync()
    s.forum.edit(57, "edited on the last page")
    s.forum.add(1)
    assert s.summary(s.sync()) == (1, 1, 1, 1, 0)


def test_server_errors_are_retried_and_the_sync_completes(board) -> None:
    s = Setup(board)
    s.forum.fail(500, 502)
    result = s.sync()
    assert s.summary(result) == (3, 6, 60, 0, 0)
    assert len(s.sleeps) == 2  # backed off twice


def test_429_retry_after_is_honoured(board) -> None:
    s = Setup(board)
    s.forum.fail(429, headers={"Retry-After": "7"})
    assert s.sync().new_posts == 60
    assert s.sleeps == [7.0]


def test_a_forum_that_keeps_failing_raises_and_records_the_failed_sync(board) -> None:
    s = Setup(board)
    s.sync()
    s.forum.add(5)
    s.forum.fail(500, 500, 500, 500)
    with pytest.raises(ForumError, match=r"HTTP 500 fetching .* \(gave up after 4 tries\)"):
        s.sync()
    assert store.last_sync(s.db, s.game.key)["error"].startswith("HTTP 500")
    assert s.summary(s.sync()) == (1, 1, 5, 0, 0)  # and the next sync catches up


def test_a_truncated_page_is_fetched_again(board) -> None:
    s = Setup(board)
    s.sync()
    s.forum.add(2)
    s.forum.truncate()
    result = s.sync()
    assert s.summary(result) == (1, 2, 2, 0, 0)
    assert len(s.live_ids()) == 62


def test_a_page_truncated_twice_saves_nothing_and_marks_nothing_deleted(board) -> None:
    s = Setup(board)
    s.sync()
    s.forum.add(2)
    s.forum.truncate(times=2)
    before = stored_posts(s.db, s.game.key)
    with pytest.raises(ForumError, match="cut short twice"):
        s.sync()
    assert stored_posts(s.db, s.game.key) == before


def test_changed_markup_is_an_error_not_an_empty_page(board) -> None:
    s = Setup(board)
    s.sync()
    s.forum.add(1)
    s.forum.restyle()
    before = stored_posts(s.db, s.game.key)
    with pytest.raises(ForumError, match="markup may have changed"):
        s.sync()
    assert stored_posts(s.db, s.game.key) == before
    assert "markup may have changed" in store.last_sync(s.db, s.game.key)["error"]


def test_a_game_being_synced_elsewhere_is_not_synced_twice(board, tmp_path) -> None:
    s = Setup(board)
    s.db = store.open_db(tmp_path / "votal.db")
    other = store.open_db(tmp_path / "votal.db")
    with (
        store.lock_game(other, s.game.key),
        pytest.raises(store.GameLocked, match="another votal process"),
    ):
        s.sync()
    assert s.forum.seen == []
    assert s.sync().new_posts == 60  # the lock is free again


def test_looks_truncated() -> None:
    assert looks_truncated("<!DOCTYPE html><html><body><div>half a pa")
    assert not looks_truncated("<!DOCTYPE html><html><body></body></html>\n")
    assert not looks_truncated('{"post_stream": {}}')


def test_cookies_reach_the_forum_but_never_the_store(board) -> None:
    secret = "phpbb3_sid=0123456789abcdef-private"
    s = Setup(board)
    s.game = make_game(board.base_url, fetch_extra='cookies_env = "FORUM_COOKIES"')
    s.fetcher = make_fetcher(
        s.game, environ={"FORUM_COOKIES": secret}, limiter=HostLimiter(sleep=lambda x: None)
    )
    s.forum.fail(500, 500, 500, 500)
    with pytest.raises(ForumError) as caught:
        s.sync()
    s.sync()
    assert {h.get("Cookie") for p, q, h in s.forum.seen if p != "/robots.txt"} == {secret}
    dump = "\n".join(s.db.iterdump())
    assert "0123456789abcdef" not in dump and "0123456789abcdef" not in str(caught.value)
    assert len(s.live_ids()) == 60


def test_an_idle_cron_poll_costs_one_request_too(board, tmp_path) -> None:
    """Each `votal sync` is a new process: robots.txt is kept in the store for a day, so it is not
    asked again."""
    s = Setup(board)
    s.db = store.open_db(tmp_path / "votal.db")

    def poll(at: datetime):
        s.forum.seen.clear()
        fresh = make_fetcher(
            s.game, limiter=HostLimiter(sleep=lambda x: None)
        )  # as a new process would
        return sync_game(
            s.game, store.open_db(tmp_path / "votal.db"), fresh, now=lambda: at
        ).requests

    assert poll(NOW) == 4
    assert poll(NOW + timedelta(minutes=5)) == 1
    assert [p for p, q, h in s.forum.seen] == ["/viewtopic.php"]
    assert poll(NOW + timedelta(hours=25)) == 2  # a day later robots.txt is read again
    assert [p for p, q, h in s.forum.seen] == ["/robots.txt", "/viewtopic.php"]


def test_a_long_retry_after_is_honoured_by_the_next_processes_too(board, tmp_path) -> None:
    s = Setup(board)
    s.db = store.open_db(tmp_path / "votal.db")
    s.forum.fail(429, headers={"Retry-After": "7200"})

    def poll(at: datetime):
        s.forum.seen.clear()
        fresh = make_fetcher(
            s.game, limiter=HostLimiter(sleep=lambda x: None), wall_clock=lambda: at
        )
        return sync_game(s.game, store.open_db(tmp_path / "votal.db"), fresh, now=lambda: at)

    with pytest.raises(ForumError, match="asked Votal to wait until 2026-03-05 14:00 UTC"):
        poll(NOW)
    with pytest.raises(ForumError, match="asked Votal to wait until 2026-03-05 14:00 UTC") as later:
        poll(NOW + timedelta(minutes=5))  # a new process: no request at all
    assert s.forum.seen == []
    assert (
        str(later.value)
        == f"{s.game.thread.split('/')[2]} asked Votal to wait until 2026-03-05 14:00 UTC"
    )
    assert poll(NOW + timedelta(hours=2, minutes=1)).new_posts == 60


@pytest.mark.parametrize("send_etag", [True, False])
def test_a_recheck_finds_an_edit_on_an_earlier_page(board, send_etag) -> None:
    s = Setup(board, send_etag=send_etag)
    s.sync()
    s.forum.edit(30, "edited long after")
    assert s.summary(s.sync())[3] == 0  # a plain poll reads the last page only
    s.forum.seen.clear()
    result = sync_game(s.game, s.db, s.fetcher, now=now, recheck_from=26)
    assert (result.changed_posts, result.requests, result.not_modified) == (1, 2, send_etag)
    assert s.forum.page_requests() == [25, 50]  # with ETags the unchanged last page answers 304
    assert post_row(s, "1030")["revisions"] == 2


def test_a_restored_post_is_no_longer_deleted(board) -> None:
    s = Setup(board)
    s.sync()
    gone = s.forum.delete(57)
    assert s.sync().deleted_posts == 1
    s.forum.posts.insert(57, gone)
    s.sync()
    row = post_row(s, "1057")
    assert (row["deleted"], row["vanished"], row["number"]) == (0, None, 57)
    assert s.summary(s.sync()) == (0, 1, 0, 0, 0)


def test_a_post_shown_as_deleted_keeps_its_place_when_another_vanishes(board) -> None:
    s = Setup(board)
    s.forum.edit(
        20, '<div class="notice post_deleted_msg">This post was deleted by a moderator.</div>'
    )
    s.sync()
    assert post_row(s, "1020")["deleted"] == 1  # the forum says so, and still shows it
    s.forum.delete(10)
    assert s.sync().deleted_posts == 1
    assert [p["post_id"] for p in stored_posts(s.db, s.game.key) if p["deleted"]] == [
        "1010",
        "1020",
    ]
    assert post_row(s, "1020")["vanished"] is None


def post_row(s, post_id: str):
    return s.db.execute(
        "select * from posts where game = ? and post_id = ?", [s.game.key, post_id]
    ).fetchone()


@pytest.mark.parametrize("restored", [5, 30])
def test_a_post_restored_on_an_earlier_page_comes_back_on_the_next_sync(board, restored) -> None:
    s = Setup(board)
    s.sync()
    gone = s.forum.delete(restored)
    assert s.sync().deleted_posts == 1
    s.forum.posts.insert(restored, gone)
    s.sync()
    row = post_row(s, str(1000 + restored))
    assert (row["deleted"], row["vanished"], row["number"]) == (0, None, restored)
    assert len(s.live_ids()) == 60
    assert s.summary(s.sync())[2:] == (0, 0, 0)
