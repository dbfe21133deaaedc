"""Test support: a phpBB thread served on loopback that can misbehave (errors, stalls, cut pages,
new markup).

Pages are rendered by the demo's phpBB renderer and read back by ``parsers.phpbb``, so the tests
exercise the same path as a real sync. Faults are queued one-shot answers for page requests.
"""

from __future__ import annotations

import hashlib
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from email.utils import format_datetime, parsedate_to_datetime
from functools import cache

import requests
from jinja2 import Environment, FileSystemLoader
from support import forum_post

from assistant import bundled
from assistant.cli.demo import PhpbbThread
from assistant.forum.pageserver import LoopbackServer, Response
from assistant.gamefile.game import parse_game

TOPIC = "42"
HTML = {"Content-Type": "text/html; charset=utf-8"}
PLAYERS = ("Alder", "Birch", "Cedar", "Damson", "Elm")


def make_post(number: int, *, body: str | None = None) -> dict:
    """Post ``number`` of the loopback thread, by the players in turn."""
    user = PLAYERS[number % len(PLAYERS)]
    return forum_post(number, user, body if body is not None else f"post {number} by {user}")


def make_posts(count: int, start: int = 0) -> list[dict]:
    return [make_post(n) for n in range(start, start + count)]


Fault = Callable[[str, dict[str, str]], Response | None]


@dataclass
class Forum:
    """The thread's posts (in order; numbers are positions, as phpBB renumbers after a deletion) and
    faults."""

    posts: list[dict] = field(default_factory=list)
    per_page: int = 25
    send_etag: bool = True
    robots: str = "User-agent: *\nDisallow: /admin/\n"
    faults: list[Fault] = field(default_factory=list)
    seen: list[tuple[str, dict[str, str], dict[str, str]]] = field(
        default_factory=list
    )  # path, query, headers
    lock: threading.Lock = field(default_factory=threading.Lock)
    issued: int = 0  # the highest post id handed out
    stock: bool = False  # stock phpBB: no printed post numbers (the parser counts from 1)
    send_last_modified: bool = (
        False  # Last-Modified: the newest post's time on the page (whole seconds)
    )

    def __post_init__(self) -> None:
        self.issued = max([self.issued, *(int(p["id"]) for p in self.posts)])

    def respond(self, path: str, query: dict[str, str], headers: dict[str, str]) -> Response:
        with self.lock:
            self.seen.append((path, dict(query), dict(headers)))
            if path == "/robots.txt":
                return Response(200, self.robots, {"Content-Type": "text/plain"})
            fault = self.faults.pop(0) if self.faults else None
        answer = (
            fault(path, query) if fault else None
        )  # outside the lock: a stalled answer holds up no other
        if answer is not None:
            return answer
        with self.lock:
            html = self.render(int(query.get("start", "0") or 0))
        answer_headers = dict(HTML)
        if self.send_last_modified:
            start = int(query.get("start", "0") or 0)
            newest = max(
                p["time"] for p in self.posts[start : start + self.per_page] or self.posts[-1:]
            )
            asked = headers.get("If-Modified-Since")
            if asked and parsedate_to_datetime(asked) >= newest.replace(microsecond=0):
                return Response(304, "", {})
            answer_headers["Last-Modified"] = format_datetime(newest, usegmt=True)
        if self.send_etag:
            tag = '"' + hashlib.sha1(html.encode()).hexdigest()[:16] + '"'
            if headers.get("If-None-Match") == tag:
                return Response(304, "", {"ETag": tag})
            answer_headers["ETag"] = tag
        return Response(200, html, answer_headers)

    def render(self, start: int) -> str:
        numbered = [{**p, "number": i} for i, p in enumerate(self.posts)]
        html = render_page(PhpbbThread(numbered, "Loopback Game", "7", TOPIC, self.per_page), start)
        return (
            re.sub(r"<span class='post-number-bolded'>#\d+</span>", "", html)
            if self.stock
            else html
        )

    # --- changes between polls

    def add(self, count: int) -> None:
        """New posts at the end, with ids never used before (a forum does not reuse a deleted post's
        id)."""
        self.issued = max([self.issued, *(int(p["id"]) for p in self.posts)])
        for _ in range(count):
            number = len(self.posts)
            self.posts.append({**make_post(number), "id": str(max(self.issued + 1, 1000 + number))})
            self.issued = int(self.posts[-1]["id"])

    def edit(self, number: int, body: str) -> None:
        self.posts[number] = {**self.posts[number], "content": body}

    def delete(self, number: int) -> dict:
        return self.posts.pop(number)

    # --- faults for the next page requests

    def fail(self, *statuses: int, headers: dict[str, str] | None = None) -> None:
        for status in statuses:
            self.faults.append(
                lambda p, q, s=status: Response(
                    s, f"<html><body>error {s}</body></html>", {**HTML, **(headers or {})}
                )
            )

    def stall(self, seconds: float) -> None:
        def slow(path, query):
            time.sleep(seconds)
            return None

        slow.stalls = True  # what StallAwareSession looks for
        self.faults.append(slow)

    def stalls_next(self, url: str) -> bool:
        """Whether the next page request gets a stalled answer (robots.txt never does)."""
        with self.lock:
            return (
                not url.endswith("/robots.txt")
                and bool(self.faults)
                and getattr(self.faults[0], "stalls", False)
            )

    def truncate(self, times: int = 1) -> None:
        for _ in range(times):
            self.faults.append(lambda p, q: Response(200, self._cut(q)))

    def restyle(self) -> None:
        """The forum's markup changes: post containers are renamed."""

        def restyled(path, query):
            return Response(
                200,
                self.render(int(query.get("start", "0") or 0)).replace(
                    'class="post ', 'class="msg '
                ),
            )

        self.faults.append(restyled)

    def _cut(self, query: dict[str, str]) -> str:
        html = self.render(int(query.get("start", "0") or 0))
        return html[: len(html) * 2 // 3]

    def page_requests(self) -> list[str]:
        """The ``start`` of each page asked for, in order (0 for the first page)."""
        return [int(q.get("start", "0") or 0) for p, q, _ in self.seen if p != "/robots.txt"]


class StallAwareSession(requests.Session):
    """A fetcher's session for a test of a stalled answer: the request the test's script stalls is
    sent with a read timeout it overruns at once, every other with one no loaded machine comes near.
    Which request times out is then the script's doing, never the machine's load (a 2 s read timeout
    for every request was a bet that no loopback answer ever takes that long)."""

    SHORT, LONG = 0.5, 60.0

    def __init__(self, stalls_next: Callable[[str], bool]) -> None:
        super().__init__()
        self.stalls_next = stalls_next

    def request(self, method, url, *args, **kwargs):
        connect = (kwargs.get("timeout") or (10.0, None))[0]
        kwargs["timeout"] = (connect, self.SHORT if self.stalls_next(url) else self.LONG)
        return super().request(method, url, *args, **kwargs)


class FakeTime:
    """A monotonic clock that only moves when something sleeps: waits cost no real time and are
    recorded."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(round(seconds, 6))
        self.now += seconds


def render_page(thread: PhpbbThread, start: int) -> str:
    """The demo renderer's page, with one template environment for the whole test run."""
    import assistant.cli.demo as demo

    original = demo._environment
    demo._environment = _environment
    try:
        return thread.render(start)
    finally:
        demo._environment = original


@cache
def _environment() -> Environment:
    root = bundled.templates()
    return Environment(loader=FileSystemLoader([str(root), str(root / "demo")]), autoescape=True)


def serve(forum: Forum) -> LoopbackServer:
    return LoopbackServer(forum.respond)


class Switchboard:
    """One loopback server for a whole test module, answering with whichever handler a test plugs
    in.

    (Starting a server per test costs half a second at shutdown.)
    """

    def __init__(self) -> None:
        self.handler = None
        self.server = LoopbackServer(self)

    def __call__(self, path, query, headers) -> Response:
        return self.handler(path, query, headers)

    @property
    def base_url(self) -> str:
        return self.server.base_url

    def plug(self, handler) -> Switchboard:
        """Answer with ``handler`` from now on; usable as ``with board.plug(h) as server:``."""
        self.handler = handler
        return self

    def __enter__(self) -> Switchboard:
        return self

    def __exit__(self, *exc) -> None:
        self.handler = None


def switchboard_running():
    """A module's one loopback server, as a generator for
    ``pytest.fixture(scope="module")(...)``."""
    switchboard = Switchboard()
    with switchboard.server:
        yield switchboard


def game_text(base_url: str, *, extra: str = "", fetch_extra: str = "", tables: str = "") -> str:
    """A game file for the loopback thread: ``extra`` top-level keys, ``fetch_extra`` [fetch] keys,
    ``tables``."""
    players = "\n".join(f'[[players]]\nname = "{name}"\n' for name in PLAYERS)
    return (
        f'title = "Loopback Game"\nthread = "{base_url}/viewtopic.php?f=7&t={TOPIC}"\nforum = "phpbb"\n'
        f'ruleset = "mafiascum"\n{extra}\n'
        f'[fetch]\nmin_interval = 0\nposts_per_page = 25\ncontact = "mod@example.org"\n{fetch_extra}\n'
        f"{tables}\n{players}"
    )


def make_game(base_url: str, *, path: str = "game.toml", **parts):
    return parse_game(game_text(base_url, **parts), path=path)


def stored_posts(db, game_key: str) -> list[dict]:
    """Every stored post as a comparable record (timestamps of our own reads left out)."""
    return [
        {
            k: row[k]
            for k in ("post_id", "number", "author", "body_html", "deleted", "revisions", "edited")
        }
        for row in db.execute("select * from posts where game = ? order by post_id", [game_key])
    ]


def with_posts(forum: Forum, posts: list[dict]) -> Forum:
    return replace(forum, posts=posts)
