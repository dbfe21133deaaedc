"""Fetching forum pages politely and within bounds.

Politely: one request per host per interval, robots.txt, retries with backoff, a real User-Agent.
Within bounds (as Scrapy's DOWNLOAD_MAXSIZE, DOWNLOAD_TIMEOUT and offsite filtering): each answer is
read as a stream and refused past ``max_page_bytes`` counted after decompression; each request has
an overall ``deadline`` (not only a socket timeout: a server trickling a byte at a time is cut off),
enforced by a watchdog that also cuts a request short the moment the run is stopped; redirects are
followed only within the thread's own scheme and host; a Retry-After is honoured up to a cap;
cookies go only to the thread's origin and never into a message.
"""

from __future__ import annotations

import contextlib
import http.cookiejar
import logging
import os
import random
import re
import socket
import threading
import time
import warnings
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Protocol
from urllib.parse import urlsplit
from urllib.robotparser import RobotFileParser

import requests
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

from assistant import __version__
from assistant.errors import ForumError, VotalError
from assistant.gamefile.weburl import url_problem

USER_AGENT = f"Votal/{__version__} (forum game vote counter; +https://pypi.org/project/votal/)"
ROBOTS_AGENT = "Votal"  # the token robots.txt rules name
RETRY_STATUSES = {429, 500, 502, 503, 504}
# a forum page, decompressed (Scrapy warns at this size); a bigger answer is refused
MAX_PAGE_BYTES = 32 * 2**20
PAGE_DEADLINE = 30.0  # seconds one request may take in all, headers and body
MAX_REDIRECTS = 5
ROBOTS_DEADLINE = (
    10.0  # robots.txt is small: a forum that cannot send it in this long is taken as without one
)
ROBOTS_MAX_BYTES = 512 * 1024  # as Google reads robots.txt (500 KiB)
# a Retry-After is never taken as longer than a week (nor can it overflow a date)
MAX_HOLD = 7 * 24 * 3600.0
CHUNK = 64 * 1024

log = logging.getLogger("votal.fetch")


class Stopped(Exception):
    """The run was asked to stop (Ctrl-C, SIGTERM); raised between requests, never in the middle of
    one."""


class Unreachable(ForumError):
    """The forum could not be reached at all (the connection refused, no such host): said once, in
    words, and not retried within the run (the next scheduled sync tries again)."""


class CookieError(VotalError):
    """A cookies file or variable that cannot be used. Its message never contains a cookie value."""

    exit_code = 2  # the command's input is wrong


@dataclass
class HostLimiter:
    """Spaces requests to each host by ``min_interval`` seconds. One instance is shared by all
    games.

    Thread-safe: the scheduler syncs games in worker threads, and two games may live on one forum.
    """

    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], object] = time.sleep  # a stop event's wait, in a run
    _next: dict[str, float] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def reserve(self, host: str, min_interval: float) -> float:
        """Claim the next slot for ``host``; returns how long to wait before using it."""
        with self._lock:
            now = self.clock()
            ready = max(now, self._next.get(host, now))
            self._next[host] = ready + min_interval
            return ready - now

    def wait(self, host: str, min_interval: float) -> None:
        delay = self.reserve(host, min_interval)
        if delay > 0:
            self.sleep(delay)

    def defer(self, host: str, seconds: float) -> None:
        """Hold every request to ``host`` back by ``seconds`` (a Retry-After)."""
        with self._lock:
            self._next[host] = max(self._next.get(host, 0.0), self.clock() + seconds)

    def held_for(self, host: str) -> float:
        """Seconds until ``host`` may be asked again (0 when it may be asked now)."""
        with self._lock:
            return max(0.0, self._next.get(host, 0.0) - self.clock())


@dataclass
class RobotsCache:
    """robots.txt rules per site, read once per run (shared by every game's fetcher, like the
    limiter).

    ``read`` answers are kept as (status, text) too, so a sync can store them and the next process
    can :meth:`prime` the cache instead of asking again (RFC 9309 allows a day's caching).
    """

    _rules: dict[str, RobotFileParser] = field(default_factory=dict)
    _answers: dict[str, tuple[int, str]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def get(self, site: str, read: Callable[[str], tuple[int, str] | None]) -> RobotFileParser:
        with self._lock:  # one fetch per site even when two games on it start together
            if site not in self._rules:
                answer = read(site)
                self._rules[site] = parse_robots(site, answer)
                if answer is not None:
                    self._answers[site] = answer
            return self._rules[site]

    def knows(self, site: str) -> bool:
        return site in self._rules

    def prime(self, site: str, status: int, text: str) -> None:
        """Use a stored answer for ``site`` instead of fetching robots.txt."""
        with self._lock:
            self._rules.setdefault(site, parse_robots(site, (status, text)))

    def answer(self, site: str) -> tuple[int, str] | None:
        """What ``site`` answered when this cache fetched its robots.txt (None if primed or
        unreachable)."""
        return self._answers.get(site)

    def crawl_delay(self, site: str) -> float:
        rules = self._rules.get(site)
        delay = rules.crawl_delay(ROBOTS_AGENT) if rules is not None else None
        return float(delay or 0)


class _Rules(RobotFileParser):
    """robotparser's rules, with the two flags its read() sets (set here as it does, without a
    request)."""

    allow_all: bool
    disallow_all: bool


def parse_robots(site: str, answer: tuple[int, str] | None) -> RobotFileParser:
    """robots.txt rules from the site's answer (status, text); None: unreachable."""
    rules = _Rules(site + "/robots.txt")
    if answer is None:
        # RFC 9309 says to assume "disallow all" while robots.txt is unreachable; for a reader that
        # asks for a few pages every few minutes that would stop a game over one flaky minute, so we
        # go on and read robots.txt again on the next run.
        rules.allow_all = True
    elif answer[0] in (401, 403):
        rules.disallow_all = True  # as urllib.robotparser.read() does
    elif answer[0] >= 400:
        rules.allow_all = True
    else:
        rules.parse(answer[1].splitlines())
    return rules


@dataclass(frozen=True)
class Fetched:
    """One answer: the page text, or ``not_modified`` when the forum said 304 to a conditional
    GET."""

    url: str
    text: str | None
    etag: str | None = None
    last_modified: str | None = None
    not_modified: bool = False


_META_CHARSET = re.compile(
    rb"""<meta[^>]{0,200}?charset\s*=\s*["']?([A-Za-z0-9._:-]{1,40})""", re.IGNORECASE
)


@dataclass
class Answer:
    """A forum's answer, its body read (capped) by :meth:`Fetcher._send`."""

    status_code: int
    headers: Mapping[str, str]
    content: bytes
    declared_encoding: str | None = (
        None  # from Content-Type (requests says ISO-8859-1 for any text/* without one)
    )

    @property
    def text(self) -> str:
        """The body as text: in the charset the answer declares, else the page's <meta> charset,
        else UTF-8 (a stray bad byte shown as U+FFFD) unless it plainly is not, then Windows-1252.
        Forums rarely declare a charset on HTML, and HTTP's ISO-8859-1 default would garble UTF-8
        names."""
        declared = self.declared_encoding
        if declared is None or declared.lower() == "iso-8859-1":
            found = _META_CHARSET.search(self.content[:4096])
            declared = found.group(1).decode("ascii") if found else None
        if declared:
            with contextlib.suppress(LookupError):
                return self.content.decode(declared, errors="replace")
        text = self.content.decode("utf-8", errors="replace")
        if text.count("\ufffd") <= 16:
            return text
        return self.content.decode("windows-1252", errors="replace")


@dataclass
class Fetcher:
    """GETs pages with politeness and retries; raises :class:`ForumError` with one clear line.

    Waits go through the limiter's ``sleep``; with ``stop`` (an Event) no request is made once it is
    set, and a limiter sleeping on ``stop.wait`` ends a wait at once (what :func:`make_fetcher` and
    the scheduler use). ``cookies`` are sent but never shown: they are left out of ``repr`` and of
    messages.
    """

    min_interval: float = 1.5
    contact: str | None = None
    timeout: tuple[float, float] = (10.0, 30.0)
    retries: int = 3
    backoff: float = 2.0
    max_backoff: float = 120.0
    max_retry_after: float = (
        120.0  # a longer Retry-After ends this sync (and is held); a later one tries again
    )
    max_page_bytes: int = MAX_PAGE_BYTES
    deadline: float = PAGE_DEADLINE
    origin: str | None = (
        None  # scheme://host[:port] of the thread: the only site fetched and sent cookies
    )
    limiter: HostLimiter = field(default_factory=HostLimiter)
    robots: RobotsCache | None = field(default_factory=RobotsCache)
    session: requests.Session = field(default_factory=requests.Session, repr=False)
    cookies: dict[str, str] | http.cookiejar.CookieJar = field(default_factory=dict, repr=False)
    stop: threading.Event | None = field(default=None, repr=False)
    rng: random.Random = field(default_factory=random.Random, repr=False)
    wall_clock: Callable[[], datetime] = field(default=lambda: datetime.now(UTC), repr=False)
    requests_made: int = 0
    # every failed answer, retried or not, for the sync's record
    faults: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        agent = USER_AGENT if not self.contact else USER_AGENT[:-1] + f"; contact: {self.contact})"
        self.session.headers["User-Agent"] = agent
        self.session.mount("http://", _WatchedAdapter())
        self.session.mount("https://", _WatchedAdapter())
        # The moderator's cookies never enter the session's jar: each request gets only those meant
        # for its URL, and only on the thread's origin (see _cookies_for). Cookies the forum sets
        # are kept for its own host alone.
        if not isinstance(self.cookies, http.cookiejar.CookieJar):
            self.cookies = _jar_of(self.cookies, urlsplit(self.origin or "").hostname or "")
        self._jar: http.cookiejar.CookieJar = self.cookies
        self._site = _origin(self.origin) if self.origin else None
        # what a request's watch may shut
        self._sockets: weakref.WeakSet[socket.socket] = weakref.WeakSet()
        if self.origin:
            host = urlsplit(self.origin).hostname or ""
            self.session.cookies.set_policy(
                http.cookiejar.DefaultCookiePolicy(allowed_domains=[host])
            )

    def get(self, url: str) -> str:
        """The page's text."""
        return self.fetch(url).text or ""

    def fetch(
        self, url: str, *, etag: str | None = None, last_modified: str | None = None
    ) -> Fetched:
        """GET ``url``; with ``etag``/``last_modified`` a conditional GET that may answer
        ``not_modified``."""
        if (problem := url_problem(url)) is not None:
            # no request can mend it: refused before robots.txt and any retry
            raise ForumError(problem)
        if self.robots is not None:
            self._check_robots(self.robots, url)
        headers = {}
        if etag:
            headers["If-None-Match"] = etag
        if last_modified:
            headers["If-Modified-Since"] = last_modified
        response = self._request(url, headers, accept={200, 304})
        if response.status_code == 304:
            return Fetched(url, None, etag, last_modified, not_modified=True)
        if response.status_code >= 400:
            private = response.status_code in (401, 403)
            hint = " (a private thread? set [fetch] cookies_file or cookies_env)" if private else ""
            raise ForumError(f"HTTP {response.status_code} fetching {shown_url(url)}{hint}")
        return Fetched(
            url, response.text, response.headers.get("ETag"), response.headers.get("Last-Modified")
        )

    def _request(
        self, url: str, headers: dict[str, str], *, accept: set[int], small: bool = False
    ) -> Answer:
        """One GET with the limiter, retries and backoff. Statuses in ``accept`` and 4xx are
        returned."""
        host = urlsplit(url).netloc
        shown = shown_url(url)
        for attempt in range(self.retries + 1):
            delay = self.limiter.reserve(host, self._interval_for(url))
            if delay > self.max_retry_after:
                # held back by an earlier long Retry-After: fail this sync now rather than block for
                # hours
                raise ForumError(self._held_message(host, delay))
            self._pause(delay)
            if self.stop is not None and self.stop.is_set():
                raise Stopped(f"stopped before fetching {shown}")
            self.requests_made += 1
            try:
                response = self._send(url, headers, small=small)
            except requests.RequestException as exc:
                # Timeouts, dropped connections and bodies cut short (ChunkedEncodingError) are
                # worth a retry; a forum that refuses the connection or whose name does not resolve
                # is said once, in words.
                unreachable = _unreachable(exc, urlsplit(url).hostname or host)
                if unreachable is not None:
                    self.faults.append(f"{unreachable} fetching {shown}")
                    raise Unreachable(f"{unreachable} (fetching {shown})") from None
                problem = f"{type(exc).__name__} fetching {shown}"
                self.faults.append(problem)
                if attempt < self.retries:
                    log.warning("%s; retrying", problem)
                    self._pause(self._backoff(attempt))
                    continue
                raise ForumError(f"{problem} (gave up after {attempt + 1} tries)") from None
            status = response.status_code
            if status in accept:
                return response
            if status in RETRY_STATUSES:
                self.faults.append(f"HTTP {status} fetching {shown}")
                wait = retry_after(response.headers.get("Retry-After"), now=self.wall_clock())
                if wait is not None and wait > self.max_retry_after:
                    self.limiter.defer(host, wait)
                    raise ForumError(
                        f"HTTP {status} fetching {shown}; " + self._held_message(host, wait)
                    )
                if attempt < self.retries:
                    log.warning("HTTP %s fetching %s; retrying", status, shown)
                    if wait is not None and status in (429, 503):
                        self.limiter.defer(host, wait)
                    else:
                        self._pause(self._backoff(attempt))
                    continue
                raise ForumError(
                    f"HTTP {status} fetching {shown} (gave up after {attempt + 1} tries)"
                )
            if 400 <= status < 500:
                return response
            raise ForumError(f"HTTP {status} fetching {shown}")
        raise AssertionError("unreachable")

    def _send(self, url: str, headers: dict[str, str], *, small: bool = False) -> Answer:
        """One GET whose redirects (only within the origin) and body are read under one deadline and
        the cap. ``small``: a robots.txt, with a smaller cap and deadline (a forum that trickles it
        is given up on sooner)."""
        deadline = min(self.deadline, ROBOTS_DEADLINE) if small else self.deadline
        watch = _Watch(deadline, self.stop, self._sockets)
        shown = shown_url(url)
        try:
            with watch:
                for _ in range(MAX_REDIRECTS + 1):
                    self._check_origin(url, shown)
                    response = self.session.get(
                        url,
                        headers=headers,
                        cookies=self._cookies_for(url),
                        timeout=self.timeout,
                        allow_redirects=False,
                        stream=True,
                    )
                    if not response.is_redirect:
                        break
                    target = requests.compat.urljoin(url, response.headers["Location"])
                    response.close()
                    if _origin(target) != _origin(url):
                        raise ForumError(
                            f"{shown} redirects to another site ({shown_url(target)}); Votal "
                            f"follows redirects only within {_origin(url)}"
                        )
                    url = target
                else:
                    raise ForumError(f"{shown}: more than {MAX_REDIRECTS} redirects")
                answer = Answer(
                    response.status_code,
                    response.headers,
                    self._read_body(
                        response, shown, ROBOTS_MAX_BYTES if small else self.max_page_bytes
                    ),
                    requests.utils.get_encoding_from_headers(response.headers),
                )
        except (requests.RequestException, OSError) as exc:
            if watch.fired:
                raise self._cut_off(deadline, shown) from None
            if isinstance(exc, requests.RequestException):
                raise
            raise requests.ConnectionError(type(exc).__name__) from None
        if watch.fired:  # the socket was shut under the reader: what it read may be cut anywhere
            raise self._cut_off(deadline, shown)
        return answer

    def _read_body(self, response: requests.Response, shown: str, cap: int) -> bytes:
        """The body, decompressed, refused past ``max_page_bytes`` (a gzip bomb inflates only that
        far)."""
        declared = response.headers.get("Content-Length", "")
        if (
            declared.isdigit()
            and int(declared) > cap
            and not response.headers.get("Content-Encoding")
        ):
            response.close()
            raise ForumError(
                f"{shown}: the page is {int(declared) // 2**20} MB; Votal reads at most "
                f"{_size(cap)}"
            )
        parts, total = [], 0
        try:
            for chunk in response.iter_content(CHUNK):
                total += len(chunk)
                if total > cap:
                    raise ForumError(
                        f"{shown}: the page is larger than {_size(cap)} (after decompression); "
                        "Votal stopped reading it"
                    )
                parts.append(chunk)
        finally:
            response.close()
        return b"".join(parts)

    def _cut_off(self, deadline: float, shown: str) -> Exception:
        if self.stop is not None and self.stop.is_set():
            return Stopped(f"stopped while fetching {shown}")
        return ForumError(
            f"{shown}: the forum took longer than {deadline:g} s to send the page; gave up on it"
        )

    def _check_origin(self, url: str, shown: str) -> None:
        if self._site and _origin(url) != self._site:
            raise ForumError(
                f"{shown} is not on the thread's site ({self.origin}); Votal reads only that site"
            )

    def _cookies_for(self, url: str) -> dict[str, str]:
        """The moderator's cookies that belong to ``url``: on the thread's origin only (never
        another host, subdomain or scheme), matching the cookie's domain and path, secure ones over
        https only."""
        if not self._jar or (self._site and _origin(url) != self._site):
            return {}
        parts = urlsplit(url)
        host, path = (parts.hostname or "").lower(), parts.path or "/"
        found = {}
        for cookie in self._jar:
            domain = cookie.domain.lower().lstrip(".")
            if host != domain and not (
                cookie.domain.startswith(".") and host.endswith("." + domain)
            ):
                continue
            if cookie.secure and parts.scheme != "https":
                continue
            if not path.startswith(cookie.path or "/"):
                continue
            found[cookie.name] = cookie.value or ""
        return found

    def _held_message(self, host: str, seconds: float) -> str:
        # the time, not a countdown: the message stays the same from poll to poll, so it alerts once
        until = hold_until(self.wall_clock(), seconds)
        return f"{host} asked Votal to wait until {until:%Y-%m-%d %H:%M} UTC"

    def _pause(self, seconds: float) -> None:
        # The limiter's sleep waits (a run's limiter sleeps on its stop event, so a stop ends the
        # wait).
        if seconds > 0:
            self.limiter.sleep(seconds)
        if self.stop is not None and self.stop.is_set():
            raise Stopped("stopped while waiting for the forum")

    def _backoff(self, attempt: int) -> float:
        """Exponential backoff with jitter, so that several clients that failed together do not
        retry together."""
        return min(self.max_backoff, self.backoff * (2**attempt)) * (0.5 + self.rng.random() / 2)

    def _interval_for(self, url: str) -> float:
        if self.robots is None:
            return self.min_interval
        return max(self.min_interval, self.robots.crawl_delay(_site(url)))

    def _check_robots(self, robots: RobotsCache, url: str) -> None:
        rules = robots.get(_site(url), self._read_robots)
        if not rules.can_fetch(ROBOTS_AGENT, url):
            raise ForumError(
                f"{_site(url)}/robots.txt does not allow Votal to fetch {shown_url(url)}"
            )

    def _read_robots(self, site: str) -> tuple[int, str] | None:
        try:
            response = self._request(site + "/robots.txt", {}, accept={200}, small=True)
        except Unreachable:
            # the thread is on the same host: say so once, not once for robots.txt and again for the
            # page
            raise
        except ForumError as exc:
            log.warning("robots.txt unreadable (%s); going on without it for this run", exc)
            return None
        return response.status_code, response.text if response.status_code == 200 else ""


def hold_until(now: datetime, seconds: float) -> datetime:
    """``now`` plus ``seconds``, rounded up to the minute: never earlier than the forum asked."""
    until = now + timedelta(seconds=seconds)
    whole = until.replace(second=0, microsecond=0)
    return whole if whole == until else whole + timedelta(minutes=1)


def post_json(url: str, payload: dict, *, timeout: float = 5.0) -> None:
    """POST ``payload`` as JSON (an alert to a Discord-compatible webhook); raises on a non-2xx
    answer. The answer's body is never read (nothing in it is needed), and a redirect is not
    followed."""
    with requests.post(
        url,
        json=payload,
        timeout=timeout,
        headers={"User-Agent": USER_AGENT},
        stream=True,
        allow_redirects=False,
    ) as response:
        response.raise_for_status()


def retry_after(value: str | None, *, now: datetime | None = None) -> float | None:
    """Seconds to wait from a Retry-After header (seconds or an HTTP date); None if absent or
    unreadable."""
    if not value:
        return None
    value = value.strip()
    # Unicode digits too ("²" is one, and no number): whatever float cannot read is unreadable
    if value.isdigit():
        try:
            return min(float(value), MAX_HOLD)
        except ValueError:
            return None
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, OverflowError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return min(MAX_HOLD, max(0.0, (when - (now or datetime.now(UTC))).total_seconds()))


def load_cookies(
    cookies_file: str | Path | None,
    cookies_env: str | None,
    *,
    domain: str,
    environ: Mapping[str, str] | None = None,
) -> http.cookiejar.CookieJar:
    """Cookies for a logged-in session, from a file and/or an environment variable named in the game
    file.

    A file is either Netscape ``cookies.txt`` (as browser extensions export it) or one ``name=value;
    name2=value2`` line; the variable holds such a line. Cookies given as a line are scoped to
    ``domain`` (the forum's host) so they never travel to another site. Error messages name the file
    or variable, never a value.
    """
    environ = os.environ if environ is None else environ
    found: dict[str, str] = {}
    jar: http.cookiejar.CookieJar = http.cookiejar.CookieJar()
    if cookies_file:
        path = Path(cookies_file).expanduser()
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise CookieError(
                f"cannot read cookies file {path}: {exc.strerror or type(exc).__name__}"
            ) from None
        except UnicodeDecodeError:
            raise CookieError(f"cookies file {path} is not UTF-8 text") from None
        if _is_netscape(text):
            jar = http.cookiejar.MozillaCookieJar(str(path))
            try:
                # cookiejar warns with the bad line's text: keep values unseen
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    jar.load(ignore_discard=True, ignore_expires=True)
            except (http.cookiejar.LoadError, OSError):
                # LoadError's own message quotes the offending line, which may hold a cookie value.
                raise CookieError(
                    f"cookies file {path} is not a valid Netscape cookies.txt"
                ) from None
            for number, cookie in enumerate(jar, start=1):
                if cookie.expires == 0:  # curl and browser exports write 0 for a session cookie
                    cookie.expires, cookie.discard = None, True
                _check_cookie(
                    cookie.name, cookie.value or "", number, source=f"cookies file {path}"
                )
        else:
            found.update(_parse_cookie_line(text, source=f"cookies file {path}"))
    if cookies_env:
        if cookies_env not in environ:
            raise CookieError(
                f"environment variable {cookies_env} (named by [fetch] cookies_env) is not set"
            )
        found.update(
            _parse_cookie_line(environ[cookies_env], source=f"environment variable {cookies_env}")
        )
    for name, value in found.items():
        jar.set_cookie(_make_cookie(name, value, domain))
    return jar


class PageFetcher(Protocol):
    """What a sync asks of a fetcher: a :class:`Fetcher`, or one wrapping it."""

    @property
    def limiter(self) -> HostLimiter: ...

    @property
    def robots(self) -> RobotsCache | None: ...

    @property
    def faults(self) -> list[str]: ...

    @property
    def requests_made(self) -> int: ...

    def fetch(
        self, url: str, *, etag: str | None = None, last_modified: str | None = None
    ) -> Fetched: ...

    def get(self, url: str) -> str: ...


def make_fetcher(
    game,
    *,
    limiter: HostLimiter | None = None,
    robots: RobotsCache | None = None,
    stop: threading.Event | None = None,
    environ: Mapping[str, str] | None = None,
    **options,
) -> Fetcher:
    """A fetcher with a game's ``[fetch]`` settings (interval, contact, cookies) and the run's
    shared limiter."""
    settings = game.fetch
    return Fetcher(
        origin=site_of(game.thread),
        min_interval=settings.min_interval,
        contact=settings.contact,
        limiter=limiter or (HostLimiter(sleep=stop.wait) if stop is not None else HostLimiter()),
        robots=robots if robots is not None else RobotsCache(),
        cookies=load_cookies(
            _relative_to(game, settings.cookies_file),
            settings.cookies_env,
            domain=urlsplit(game.thread).hostname or "",
            environ=environ,
        ),
        stop=stop,
        **options,
    )


def _relative_to(game, cookies_file: str | None) -> Path | None:
    """A relative cookies file is found beside the game file, like the game's other paths."""
    if not cookies_file:
        return None
    path = Path(cookies_file).expanduser()
    return path if path.is_absolute() else Path(game.path).parent / path


def _is_netscape(text: str) -> bool:
    first = text.lstrip().splitlines()[0] if text.strip() else ""
    return (
        first.startswith("# Netscape HTTP Cookie File")
        or first.startswith("# HTTP Cookie File")
        or any(
            line.count("\t") >= 6 for line in text.splitlines() if line and not line.startswith("#")
        )
    )


def _parse_cookie_line(text: str, *, source: str) -> dict[str, str]:
    cookies = {}
    for number, part in enumerate(text.strip().split(";"), start=1):
        part = part.strip()
        if not part:
            continue
        name, sep, value = part.partition("=")
        if not sep or not name.strip():
            raise CookieError(f"{source}: cookie {number} is not name=value")
        _check_cookie(name.strip(), value.strip(), number, source=source)
        cookies[name.strip()] = value.strip()
    if not cookies:
        raise CookieError(f"{source} holds no cookies")
    return cookies


def _check_cookie(name: str, value: str, number: int, *, source: str) -> None:
    """A cookie must be plain printable ASCII: anything else would make the HTTP library fail with
    an error that quotes the whole header, the cookie's value included."""
    if not all(" " < ch < "\x7f" for ch in name) or not all(
        " " <= ch < "\x7f" and ch != ";" for ch in value
    ):
        raise CookieError(
            f"{source}: cookie {number} holds characters a cookie cannot (control, non-ASCII)"
        )


def _make_cookie(name: str, value: str, domain: str) -> http.cookiejar.Cookie:
    return http.cookiejar.Cookie(
        0,
        name,
        value,
        None,
        False,
        domain,
        False,
        False,
        "/",
        False,
        False,
        None,
        True,
        None,
        None,
        {},
    )


def _jar_of(cookies: dict[str, str], domain: str) -> http.cookiejar.CookieJar:
    jar = http.cookiejar.CookieJar()
    for name, value in cookies.items():
        jar.set_cookie(_make_cookie(name, value, domain))
    return jar


def _size(count: int) -> str:
    return f"{count / 2**20:g} MB"


def _origin(url: str) -> str:
    """``scheme://host:port`` with the default port spelled out, lower case: what "the same site"
    compares."""
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = None
    port = port or {"http": 80, "https": 443}.get(parts.scheme.lower())
    return f"{parts.scheme.lower()}://{(parts.hostname or '').lower()}:{port}"


def same_site(url: str, thread: str) -> bool:
    """Whether ``url`` is on the thread's scheme, host and port (where next-page links may lead)."""
    return _origin(url) == _origin(thread)


class _Watch:
    """A watchdog for one request: when its deadline passes or the run's ``stop`` is set, it shuts
    the request's sockets, which ends a read blocked on them at once. Sockets are registered by the
    connection classes below, through a thread-local (each request runs in one thread). One thread
    (:class:`_Watchdog`) watches every request of the process."""

    _local = threading.local()

    def __init__(
        self, seconds: float, stop: threading.Event | None, sockets: weakref.WeakSet | None = None
    ) -> None:
        self.ends = time.monotonic() + seconds
        self.stop = stop
        # Every socket the fetcher's connections opened (kept-alive ones included: a request may
        # reuse one); a fetcher makes one request at a time, so firing shuts them all.
        self.sockets: weakref.WeakSet[socket.socket] = (
            sockets if sockets is not None else weakref.WeakSet()
        )
        self.fired = False
        self._lock = threading.Lock()

    def __enter__(self) -> _Watch:
        self._local.watch = self
        _WATCHDOG.add(self)
        return self

    def __exit__(self, *exc) -> None:
        self._local.watch = None
        _WATCHDOG.discard(self)

    def due(self, now: float) -> bool:
        return now >= self.ends or (self.stop is not None and self.stop.is_set())

    def fire(self) -> None:
        with self._lock:
            self.fired = True
            for sock in list(self.sockets):
                _shut(sock)

    @classmethod
    def register(cls, sock: socket.socket | None) -> None:
        watch = getattr(cls._local, "watch", None)
        if watch is not None and sock is not None:
            with watch._lock:
                watch.sockets.add(sock)
                if watch.fired:
                    _shut(sock)


class _Watchdog:
    """The one thread that fires the watches of requests in flight. It sleeps while none is; while
    some are, it looks every tenth of a second (a stop is an Event it cannot wait on together with
    the deadlines)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._active: set[_Watch] = set()
        self._thread: threading.Thread | None = None

    def add(self, watch: _Watch) -> None:
        with self._cond:
            self._active.add(watch)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._run, name="votal-fetch-watchdog", daemon=True
                )
                self._thread.start()
            self._cond.notify()

    def discard(self, watch: _Watch) -> None:
        with self._cond:
            self._active.discard(watch)

    def _run(self) -> None:
        with self._cond:
            while True:
                if not self._active:
                    self._cond.wait()
                    continue
                now = time.monotonic()
                for watch in [w for w in self._active if w.due(now)]:
                    watch.fire()
                    self._active.discard(watch)
                nearest = min((w.ends for w in self._active), default=now + 0.1)
                self._cond.wait(timeout=min(0.1, max(0.0, nearest - now)))


_WATCHDOG = _Watchdog()


def _shut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)


class _WatchedHTTPConnection(HTTPConnection):
    def connect(self) -> None:
        super().connect()
        _Watch.register(self.sock)


class _WatchedHTTPSConnection(HTTPSConnection):
    def connect(self) -> None:
        super().connect()
        _Watch.register(self.sock)


class _WatchedHTTPPool(HTTPConnectionPool):
    ConnectionCls = _WatchedHTTPConnection


class _WatchedHTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _WatchedHTTPSConnection


class _WatchedAdapter(HTTPAdapter):
    """requests' adapter whose connections register their sockets with the current request's
    watchdog."""

    def init_poolmanager(self, *args, **kwargs) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = dict(_WATCHED_POOLS)

    def proxy_manager_for(self, proxy: str, **kwargs):  # noqa: ANN201 (requests' signature)
        """Through an HTTP proxy (HTTP_PROXY and the like) requests are watched too; a SOCKS proxy
        keeps its own pools (and only the socket timeout)."""
        manager = super().proxy_manager_for(proxy, **kwargs)
        if not proxy.lower().startswith("socks"):
            manager.pool_classes_by_scheme = dict(_WATCHED_POOLS)
        return manager


_WATCHED_POOLS = {"http": _WatchedHTTPPool, "https": _WatchedHTTPSPool}


def _unreachable(exc: BaseException, host: str) -> str | None:
    """In words, why ``host`` could not be reached at all, when that is what ``exc`` says (the
    library wraps the socket's error a few levels down), else None."""
    todo: list[BaseException | None] = [exc]
    seen: list[BaseException] = []
    while todo and len(seen) < 32:
        found = todo.pop()
        if found is None or any(found is s for s in seen):
            continue
        seen.append(found)
        if isinstance(found, ConnectionRefusedError):
            return (
                f"the forum at {host} refused the connection (is the address right, and the forum "
                "up?)"
            )
        if isinstance(found, socket.gaierror) or type(found).__name__ == "NameResolutionError":
            return (
                f"no forum found at {host}: the host name does not resolve (check the thread's "
                "address)"
            )
        todo += [getattr(found, "reason", None), found.__cause__, found.__context__]
        todo += [arg for arg in getattr(found, "args", ()) if isinstance(arg, BaseException)]
    return None


def site_of(url: str) -> str:
    """``scheme://host[:port]`` of a URL: where its robots.txt lives."""
    return _site(url)


def _site(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def shown_url(url: str) -> str:
    """A URL safe for messages: no credentials or session ids that a query might carry."""
    parts = urlsplit(url)
    query = "&".join(
        p for p in parts.query.split("&") if not p.lower().startswith(("sid=", "s=", "token"))
    )
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{parts.hostname or ''}{port}{parts.path}" + (
        f"?{query}" if query else ""
    )
