"""Fetching forum pages politely: one request per host per interval, retries, timeouts, a real User-Agent."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from urllib.parse import urlsplit

import requests

from assistant import __version__
from assistant.errors import ForumError

USER_AGENT = f"Votal/{__version__} (forum game vote counter; +https://pypi.org/project/votal/)"
RETRY_STATUSES = {429, 500, 502, 503, 504}


@dataclass
class HostLimiter:
    """Spaces requests to each host by ``min_interval`` seconds. One instance is shared by all games."""

    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep
    _next: dict[str, float] = field(default_factory=dict)

    def wait(self, host: str, min_interval: float) -> None:
        now = self.clock()
        ready = self._next.get(host, now)
        if ready > now:
            self.sleep(ready - now)
        self._next[host] = max(now, ready) + min_interval

    def defer(self, host: str, seconds: float) -> None:
        """Hold every request to ``host`` back by ``seconds`` (a Retry-After)."""
        self._next[host] = max(self._next.get(host, 0.0), self.clock() + seconds)


@dataclass
class Fetcher:
    """GETs pages with politeness and retries; raises :class:`ForumError` with one clear line."""

    min_interval: float = 1.5
    contact: str | None = None
    timeout: tuple[float, float] = (10.0, 30.0)
    retries: int = 3
    backoff: float = 2.0
    limiter: HostLimiter = field(default_factory=HostLimiter)
    session: requests.Session = field(default_factory=requests.Session)
    cookies: dict[str, str] = field(default_factory=dict)
    requests_made: int = 0

    def __post_init__(self) -> None:
        agent = USER_AGENT if not self.contact else USER_AGENT[:-1] + f"; contact: {self.contact})"
        self.session.headers["User-Agent"] = agent
        self.session.cookies.update(self.cookies)

    def get(self, url: str) -> str:
        host = urlsplit(url).netloc
        for attempt in range(self.retries + 1):
            self.limiter.wait(host, self.min_interval)
            self.requests_made += 1
            try:
                response = self.session.get(url, timeout=self.timeout)
            except (requests.ConnectionError, requests.Timeout) as exc:
                problem = f"{type(exc).__name__} fetching {_shown(url)}"
                if attempt < self.retries:
                    self.limiter.sleep(self._backoff(attempt))
                    continue
                raise ForumError(f"{problem} (gave up after {attempt + 1} tries)") from None
            if response.status_code in RETRY_STATUSES and attempt < self.retries:
                wait = retry_after(response.headers.get("Retry-After"))
                if wait is not None:
                    self.limiter.defer(host, wait)
                else:
                    self.limiter.sleep(self._backoff(attempt))
                continue
            if response.status_code >= 400:
                raise ForumError(f"HTTP {response.status_code} fetching {_shown(url)}")
            if response.encoding is None or response.encoding.lower() == "iso-8859-1":
                # Forums rarely declare a charset on HTML; requests' HTTP default would garble UTF-8 names.
                response.encoding = response.apparent_encoding or "utf-8"
            return response.text
        raise AssertionError("unreachable")

    def _backoff(self, attempt: int) -> float:
        return self.backoff * (2**attempt) * (0.5 + random.random() / 2)


def retry_after(value: str | None) -> float | None:
    """Seconds to wait from a Retry-After header (seconds or an HTTP date); None if absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _shown(url: str) -> str:
    """A URL safe for messages: no credentials or session ids that a query might carry."""
    parts = urlsplit(url)
    query = "&".join(p for p in parts.query.split("&") if not p.lower().startswith(("sid=", "s=", "token")))
    return f"{parts.scheme}://{parts.hostname or ''}{parts.path}" + (f"?{query}" if query else "")
