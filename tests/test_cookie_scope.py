"""The moderator's cookies go only to the thread's host over the thread's scheme: never after a
redirect elsewhere, never to http after https, never to another subdomain; and never into a message
or the store."""

from __future__ import annotations

import logging
import traceback
from datetime import UTC, datetime

import pytest
import responses
from click.testing import CliRunner
from hostile_server import HostileServer, head, robots_or
from loopback_forum import Forum, game_text, make_posts, serve

from assistant.cli.main import main
from assistant.errors import ForumError
from assistant.forum import store
from assistant.forum.fetch import CookieError, Fetcher, load_cookies, make_fetcher
from assistant.gamefile.game import parse_game

SECRET = "s3cr3t-0xC0FFEE"
THREAD = "https://forum.example.org/viewtopic.php?f=7&t=42"
PAGE = "<html><body>page</body></html>"


def https_fetcher(jar) -> Fetcher:
    return Fetcher(
        min_interval=0, retries=0, robots=None, cookies=jar, origin="https://forum.example.org"
    )


def netscape(tmp_path, *lines: str):
    path = tmp_path / "cookies.txt"
    path.write_text("# Netscape HTTP Cookie File\n" + "".join(line + "\n" for line in lines))
    return load_cookies(path, None, domain="forum.example.org")


@responses.activate
def test_only_cookies_for_the_thread_host_are_sent_and_only_there(tmp_path):
    jar = netscape(
        tmp_path,
        f"forum.example.org\tFALSE\t/\tTRUE\t0\tsid\t{SECRET}",
        ".example.org\tTRUE\t/\tFALSE\t0\tlang\ten",
        "other.example.org\tFALSE\t/\tFALSE\t0\tother\tnot-for-the-forum",
        "example.org\tFALSE\t/\tFALSE\t0\tparent\tnot-for-the-forum-either",
    )
    responses.get(THREAD, body=PAGE)
    responses.get("https://other.example.org/viewtopic.php?t=42", body=PAGE)
    f = https_fetcher(jar)
    f.get(THREAD)
    with pytest.raises(ForumError, match="not on the thread's site"):
        f.get("https://other.example.org/viewtopic.php?t=42")
    with pytest.raises(ForumError, match="not on the thread's site"):
        f.get("http://forum.example.org/viewtopic.php?f=7&t=42")  # the same host over http
    assert [c.request.url for c in responses.calls] == [THREAD]
    sent = responses.calls[0].request.headers["Cookie"]
    assert sorted(sent.split("; ")) == ["lang=en", f"sid={SECRET}"]


@responses.activate
def test_no_cookie_follows_a_redirect_to_http_or_another_subdomain(tmp_path):
    jar = load_cookies(None, "C", domain="forum.example.org", environ={"C": f"sid={SECRET}"})
    for target in (
        "http://forum.example.org/viewtopic.php?t=42",
        "https://cdn.example.org/viewtopic.php?t=42",
    ):
        responses.get(THREAD, status=302, headers={"Location": target})
        responses.get(target, body=PAGE)
        with pytest.raises(ForumError, match="redirects to another site") as caught:
            https_fetcher(jar).get(THREAD)
        assert SECRET not in str(caught.value)
        assert [c.request.url for c in responses.calls] == [THREAD]
        responses.calls.reset()
        responses.reset()


@responses.activate
def test_a_cookie_for_https_only_is_never_sent_over_http(tmp_path):
    jar = netscape(tmp_path, f"forum.example.org\tFALSE\t/\tTRUE\t0\tsid\t{SECRET}")
    responses.get("http://forum.example.org/viewtopic.php?t=42", body=PAGE)
    Fetcher(min_interval=0, robots=None, cookies=jar, origin="http://forum.example.org").get(
        "http://forum.example.org/viewtopic.php?t=42"
    )
    assert "Cookie" not in responses.calls[0].request.headers


@pytest.mark.parametrize("value", [f"{SECRET}\r\nX-Evil: 1", f"{SECRET}\u2019", f"{SECRET}\x00"])
def test_a_cookie_that_would_break_the_header_is_refused_without_showing_it(value):
    with pytest.raises(CookieError) as caught:
        load_cookies(None, "C", domain="forum.example.org", environ={"C": f"sid={value}"})
    assert SECRET not in str(caught.value)
    assert "cookie 1 holds characters a cookie cannot" in str(caught.value)


def test_cookies_never_reach_output_logs_tracebacks_or_the_store(tmp_path, caplog, monkeypatch):
    """A failing sync over real HTTP, with every way it can report: nothing shows the cookie."""
    caplog.set_level(logging.DEBUG)
    monkeypatch.setenv("FORUM_COOKIES", f"phpbb3_sid={SECRET}")

    def answer(path, headers, out):
        out.write(
            head(
                302,
                Location=f"http://localhost:{server.port}/?sid={SECRET}&token={SECRET}",
                Content_Length="0",
            )
        )

    with HostileServer(robots_or(answer)) as server:
        text = game_text(server.base_url, fetch_extra='cookies_env = "FORUM_COOKIES"')
        (tmp_path / "game.toml").write_text(text)
        db = tmp_path / "votal.db"
        result = CliRunner().invoke(main, ["sync", str(tmp_path / "game.toml"), "--db", str(db)])
        sent = [h.get("Cookie", "") for p, h in server.requests if p != "/robots.txt"]
    assert result.exit_code == 1
    assert sent == [f"phpbb3_sid={SECRET}"]  # the forum got it
    shown = result.output + caplog.text + "".join(traceback.format_exception(result.exception))
    dump = "\n".join(store.open_db(db).iterdump())
    assert "redirects to another site" in result.output
    assert SECRET not in shown and SECRET not in dump


def test_a_loopback_sync_sends_cookies_to_the_thread_and_never_stores_them(tmp_path, monkeypatch):
    forum = Forum(make_posts(30))
    with serve(forum) as server:
        game = parse_game(
            game_text(server.base_url, fetch_extra='cookies_env = "C"'),
            path=str(tmp_path / "g.toml"),
        )
        f = make_fetcher(game, environ={"C": f"sid={SECRET}"})
        db = store.open_db(tmp_path / "votal.db")
        from assistant.forum.sync import sync_game

        sync_game(game, db, f, now=lambda: datetime(2026, 3, 5, tzinfo=UTC))
    assert {h.get("Cookie") for p, _, h in forum.seen if p != "/robots.txt"} == {f"sid={SECRET}"}
    assert SECRET not in "\n".join(db.iterdump())
