"""The polite fetcher against a loopback server: limiter, robots.txt, Retry-After, backoff, cookies,
stopping."""

from __future__ import annotations

import http.cookiejar
import logging
import random
import threading
from datetime import UTC, datetime, timedelta

import pytest
from loopback_forum import FakeTime, StallAwareSession, make_game

from assistant.errors import ForumError
from assistant.forum.fetch import (
    CookieError,
    Fetcher,
    HostLimiter,
    RobotsCache,
    Stopped,
    load_cookies,
    make_fetcher,
    retry_after,
)
from assistant.forum.pageserver import Response

SECRET = "s3cr3t-session-0xC0FFEE"


class Scripted:
    """A handler answering page requests from a script (then 200), recording what it was asked."""

    def __init__(self, *script: Response, robots: str = "User-agent: *\nDisallow: /private/\n"):
        self.script = list(script)
        self.robots = robots
        self.asked: list[tuple[str, dict[str, str]]] = []

    def __call__(self, path: str, query: dict[str, str], headers: dict[str, str]) -> Response:
        self.asked.append((path, headers))
        if path == "/robots.txt":
            return Response(200, self.robots, {"Content-Type": "text/plain"})
        if self.script:
            return self.script.pop(0)
        return Response(
            200, "<html><body>page</body></html>", {"Content-Type": "text/html", "ETag": '"v1"'}
        )

    def pages(self) -> list[str]:
        return [p for p, _ in self.asked if p != "/robots.txt"]


def fetcher(fake: FakeTime, **options) -> Fetcher:
    options.setdefault("min_interval", 0)
    return Fetcher(
        limiter=HostLimiter(clock=fake.clock, sleep=fake.sleep), rng=random.Random(7), **options
    )


def test_user_agent_names_votal_and_the_contact(board) -> None:
    handler = Scripted()
    with board.plug(handler) as server:
        fetcher(FakeTime(), contact="mod@example.org").get(server.base_url + "/viewtopic.php?t=1")
    agents = {h["User-Agent"] for _, h in handler.asked}
    assert agents == {
        "Votal/0.1.0 (forum game vote counter; +https://pypi.org/project/votal/; contact: mod@example.org)"
    }


def test_limiter_spaces_requests_per_host_and_is_shared_between_fetchers(board) -> None:
    fake = FakeTime()
    limiter = HostLimiter(clock=fake.clock, sleep=fake.sleep)
    handler = Scripted()
    with board.plug(handler) as server:
        port = server.base_url.rsplit(":", 1)[1]
        one = Fetcher(min_interval=5, limiter=limiter)
        two = Fetcher(min_interval=5, limiter=limiter)
        one.get(
            f"http://127.0.0.1:{port}/viewtopic.php?t=1"
        )  # robots.txt, then the page: 5 s apart
        two.get(f"http://127.0.0.1:{port}/viewtopic.php?t=2")  # another game, same host: waits too
        one.get(
            f"http://localhost:{port}/viewtopic.php?t=3"
        )  # another host: its own robots.txt, no wait
    assert fake.sleeps == [
        5.0,
        5.0,
        5.0,
        5.0,
    ]  # 127.0.0.1: robots, page, (two's robots), page; localhost: page
    assert handler.pages() == ["/viewtopic.php"] * 3


def test_robots_txt_is_read_once_per_host_and_obeyed(board) -> None:
    handler = Scripted()
    robots = RobotsCache()
    fake = FakeTime()
    with board.plug(handler) as server:
        for _ in range(3):
            fetcher(fake, robots=robots).get(server.base_url + "/viewtopic.php?t=1")
        with pytest.raises(ForumError) as caught:
            fetcher(fake, robots=robots).get(server.base_url + "/private/viewtopic.php?t=1")
    assert [p for p, _ in handler.asked].count("/robots.txt") == 1
    assert "/private/viewtopic.php" not in handler.pages()
    assert "robots.txt does not allow Votal" in str(caught.value)


def test_robots_crawl_delay_slows_the_limiter(board) -> None:
    handler = Scripted(robots="User-agent: Votal\nCrawl-delay: 12\n")
    fake = FakeTime()
    with board.plug(handler) as server:
        f = fetcher(fake, min_interval=1)
        f.get(server.base_url + "/viewtopic.php?t=1")
        f.get(server.base_url + "/viewtopic.php?t=1")
    assert fake.sleeps == [1.0, 12.0]  # robots.txt read with min_interval; pages then 12 s apart


def test_429_with_retry_after_waits_that_long_then_succeeds(board) -> None:
    handler = Scripted(Response(429, "slow down", {"Retry-After": "30"}))
    fake = FakeTime()
    with board.plug(handler) as server:
        text = fetcher(fake).get(server.base_url + "/viewtopic.php?t=1")
    assert text == "<html><body>page</body></html>"
    assert fake.sleeps == [30.0]
    assert handler.pages() == ["/viewtopic.php", "/viewtopic.php"]


def test_503_with_an_http_date_retry_after(board) -> None:
    handler = Scripted(
        Response(503, "maintenance", {"Retry-After": "Sun, 01 Mar 2026 22:01:30 GMT"})
    )
    fake = FakeTime()
    with board.plug(handler) as server:
        f = fetcher(fake, wall_clock=lambda: datetime(2026, 3, 1, 22, 0, tzinfo=UTC))
        f.get(server.base_url + "/viewtopic.php?t=1")
    assert fake.sleeps == [90.0]


def test_a_retry_after_longer_than_the_limit_ends_the_sync_and_holds_the_host_back(board) -> None:
    handler = Scripted(Response(429, "come back tomorrow", {"Retry-After": "86400"}))
    fake = FakeTime()
    with board.plug(handler) as server:
        host = "127.0.0.1:" + server.base_url.rsplit(":", 1)[1]
        start = datetime(2026, 3, 1, 22, 0, 30, tzinfo=UTC)
        f = fetcher(fake, wall_clock=lambda: start + timedelta(seconds=fake.now))
        with pytest.raises(ForumError) as first:
            f.get(server.base_url + "/viewtopic.php?t=1")
        assert f.limiter.held_for(host) == 86400
        fake.sleep(
            600
        )  # ten minutes later the host is still held back: no request, the same message
        with pytest.raises(ForumError) as again:
            f.get(server.base_url + "/viewtopic.php?t=1")
    assert str(first.value) == (
        f"HTTP 429 fetching {server.base_url}/viewtopic.php?t=1; {host} asked Votal to wait until 2026-03-02 22:01 UTC"
    )
    assert str(again.value) == f"{host} asked Votal to wait until 2026-03-02 22:01 UTC"
    assert handler.pages() == ["/viewtopic.php"]
    assert fake.sleeps == [600]


def test_server_errors_back_off_exponentially_with_jitter_then_give_up(board) -> None:
    handler = Scripted(*[Response(500, "boom")] * 4)
    fake = FakeTime()
    with board.plug(handler) as server, pytest.raises(ForumError) as caught:
        fetcher(fake, retries=3, backoff=2.0).get(server.base_url + "/viewtopic.php?t=1&sid=abc123")
    assert (
        str(caught.value)
        == (
            f"HTTP 500 fetching {server.base_url}/viewtopic.php?t=1 (gave up after 4 tries)"  # no session id shown
        )
    )
    assert len(handler.pages()) == 4
    assert len(fake.sleeps) == 3
    for attempt, slept in enumerate(fake.sleeps):
        base = 2.0 * 2**attempt
        assert base / 2 <= slept <= base
    assert len({s / 2**i for i, s in enumerate(fake.sleeps)}) == 3  # jittered: not one fixed factor


def test_a_timeout_is_retried(board) -> None:
    # Was flaky: a 0.1 s read timeout against a 0.5 s stall also timed out robots.txt or the retry
    # on a busy machine. Now the stalled answer waits until the test ends (no read timeout can
    # outlast it), and only the request it stalls is sent with a short read timeout
    # (StallAwareSession): robots.txt and the retry get one no loaded machine comes near, so exactly
    # one request times out whatever the load.
    stalled, release = threading.Event(), threading.Event()
    pages_asked: list[str] = []

    def stalls_next(url: str) -> bool:  # the first page request is the one the handler holds
        if url.endswith("/robots.txt"):
            return False
        pages_asked.append(url)
        return len(pages_asked) == 1

    def handler(path, query, headers):
        if path == "/viewtopic.php" and not stalled.is_set():
            stalled.set()
            release.wait(
                60
            )  # held until the client gave up on it (a bound, not a timing under test)
        return Response(200, "<html><body>late but whole</body></html>")

    fake = FakeTime()
    try:
        with board.plug(handler) as server:
            f = fetcher(fake, session=StallAwareSession(stalls_next))
            assert (
                f.get(server.base_url + "/viewtopic.php?t=1")
                == "<html><body>late but whole</body></html>"
            )
    finally:
        release.set()
    assert f.requests_made == 3  # robots.txt, the timed-out page, the retry
    assert len(fake.sleeps) == 1
    assert f.faults == ["ReadTimeout fetching " + server.base_url + "/viewtopic.php?t=1"]


def test_conditional_get_answers_not_modified(board) -> None:
    def handler(path, query, headers):
        if headers.get("If-None-Match") == '"v1"':
            return Response(304, "", {"ETag": '"v1"'})
        return Response(
            200,
            "<html>v1</html>",
            {"ETag": '"v1"', "Last-Modified": "Sun, 01 Mar 2026 22:00:00 GMT"},
        )

    with board.plug(handler) as server:
        f = fetcher(FakeTime(), robots=None)
        first = f.fetch(server.base_url + "/viewtopic.php?t=1")
        again = f.fetch(
            server.base_url + "/viewtopic.php?t=1",
            etag=first.etag,
            last_modified=first.last_modified,
        )
    assert (first.text, first.etag, first.last_modified, first.not_modified) == (
        "<html>v1</html>",
        '"v1"',
        "Sun, 01 Mar 2026 22:00:00 GMT",
        False,
    )
    assert (again.text, again.not_modified) == (None, True)


def test_stop_ends_a_long_wait_at_once_and_makes_no_more_requests(board) -> None:
    # Was racy: a 0.05 s timer set the stop, and on a loaded machine it could fire before robots.txt
    # and the page were even asked for (no page request, so the last assertion failed). The stop now
    # comes from another thread once the fetcher is inside the long wait the 429 asked for, whatever
    # the load.
    handler = Scripted(Response(429, "slow down", {"Retry-After": "100"}))
    stop, waiting = threading.Event(), threading.Event()
    waits: list[float] = []

    def sleep(seconds: float) -> bool:
        waits.append(seconds)
        if seconds >= 60:  # the Retry-After hold, not a pause between requests
            waiting.set()
        return stop.wait(seconds)

    stopper = threading.Thread(target=lambda: (waiting.wait(60), stop.set()), daemon=True)
    with board.plug(handler) as server:
        f = Fetcher(min_interval=0, limiter=HostLimiter(sleep=sleep), stop=stop)
        stopper.start()
        with pytest.raises(Stopped):
            f.get(server.base_url + "/viewtopic.php?t=1")  # would wait 100 s without the stop
        stopper.join(60)
        with pytest.raises(Stopped):
            f.get(server.base_url + "/viewtopic.php?t=2")
    assert handler.pages() == ["/viewtopic.php"]
    assert waiting.is_set() and max(waits) >= 60  # the stop ended the hold, not its end


def test_retry_after_values() -> None:
    now = datetime(2026, 3, 1, 22, 0, tzinfo=UTC)
    assert retry_after("120", now=now) == 120.0
    assert retry_after("Sun, 01 Mar 2026 22:00:10 GMT", now=now) == 10.0
    assert retry_after("Sun, 01 Mar 2026 21:00:00 GMT", now=now) == 0.0
    assert retry_after("soon", now=now) is None
    assert retry_after(None, now=now) is None


# --- Cookies for private threads: sent to the forum, never shown.


def cookie_header(handler: Scripted) -> set[str]:
    return {h.get("Cookie", "") for p, h in handler.asked if p != "/robots.txt"}


def test_cookies_from_a_simple_line_in_a_file(board, tmp_path) -> None:
    (tmp_path / "cookies.txt").write_text(f"phpbb3_u=77; phpbb3_sid={SECRET}\n")
    handler = Scripted()
    with board.plug(handler) as server:
        game = make_game(server.base_url, path=str(tmp_path / "game.toml"))
        game = _with_fetch(game, cookies_file="cookies.txt")  # relative to the game file
        make_fetcher(game).get(game.thread)
    assert cookie_header(handler) == {f"phpbb3_u=77; phpbb3_sid={SECRET}"}


def test_cookies_from_a_netscape_file_and_an_environment_variable(board, tmp_path) -> None:
    handler = Scripted()
    with board.plug(handler) as server:
        jar_file = tmp_path / "cookies.txt"
        jar_file.write_text(
            "# Netscape HTTP Cookie File\n"
            f"127.0.0.1\tFALSE\t/\tFALSE\t0\tphpbb3_sid\t{SECRET}\n"
            "other.example\tFALSE\t/\tFALSE\t0\telsewhere\tnot-for-this-forum\n"
        )
        game = _with_fetch(
            make_game(server.base_url), cookies_file=str(jar_file), cookies_env="FORUM_COOKIES"
        )
        f = make_fetcher(game, environ={"FORUM_COOKIES": "phpbb3_k=remember"})
        f.get(game.thread)
    assert cookie_header(handler) == {f"phpbb3_sid={SECRET}; phpbb3_k=remember"}


def test_cookies_never_appear_in_repr_errors_or_logs(board, tmp_path, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    handler = Scripted(*[Response(500, "boom")] * 2, Response(403, "forbidden"))
    with board.plug(handler) as server:
        game = _with_fetch(make_game(server.base_url), cookies_env="FORUM_COOKIES")
        f = make_fetcher(game, environ={"FORUM_COOKIES": f"sid={SECRET}"}, retries=1, backoff=0)
        messages = [repr(f), str(f.__dict__.get("cookies") is not None)]
        for _ in range(2):
            with pytest.raises(ForumError) as caught:
                f.get(game.thread)
            messages.append(str(caught.value))
    assert "private thread?" in messages[-1]
    assert all(SECRET not in m for m in messages)
    assert SECRET not in caplog.text
    assert cookie_header(handler) == {f"sid={SECRET}"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"just-a-token-{SECRET}", "cookie 1 is not name=value"),
        (
            f"# Netscape HTTP Cookie File\nbad line {SECRET}\tx\ty\tz\tw\tv\tu\n",
            "not a valid Netscape cookies.txt",
        ),
    ],
)
def test_a_bad_cookies_file_is_named_without_its_contents(tmp_path, text, expected) -> None:
    path = tmp_path / "cookies.txt"
    path.write_text(text)
    with pytest.raises(CookieError) as caught:
        load_cookies(path, None, domain="forum.example")
    assert expected in str(caught.value)
    assert str(path) in str(caught.value)
    assert SECRET not in str(caught.value)


def test_a_missing_cookie_variable_is_named() -> None:
    with pytest.raises(CookieError, match="environment variable FORUM_COOKIES .* is not set"):
        load_cookies(None, "FORUM_COOKIES", domain="forum.example", environ={})


def test_line_cookies_are_scoped_to_the_forum_host() -> None:
    jar = load_cookies(None, "C", domain="forum.example", environ={"C": "a=1; b=2"})
    assert isinstance(jar, http.cookiejar.CookieJar)
    assert sorted((c.name, c.value, c.domain) for c in jar) == [
        ("a", "1", "forum.example"),
        ("b", "2", "forum.example"),
    ]


def _with_fetch(game, **changes):
    from dataclasses import replace

    return replace(game, fetch=replace(game.fetch, **changes))
