"""What Votal accepts as a forum thread's address: an http(s) URL with a host, refused at once
otherwise.

A URL the HTTP library cannot send (no scheme, ``ftp://``, no host) is not a forum that is down:
retrying it only delays the one line that says what is wrong. The game file, ``votal new`` and the
fetcher all ask here.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

SCHEMES = ("http", "https")
_EXAMPLE = "https://forum.example.org/viewtopic.php?t=5"  # a thread's address, in messages
PAGE_QUERY_KEYS = ("start", "page")  # phpBB's and vBulletin's place in a thread, not the thread
_PAGE_IN_PATH = (
    re.compile(r"(/threads/[^/]+/)page-\d+/?$"),  # XenForo: /threads/name.123/page-5
    re.compile(r"(/t/[^/]+/\d+)/\d+/?$"),  # Discourse: /t/slug/123/400 (a post number)
)


def url_problem(url: str) -> str | None:
    """Why ``url`` is not a thread address Votal can fetch (one line, naming it), or None."""
    text = url.strip()
    if not text:
        return f"no URL given: pass the thread's address, e.g. {_EXAMPLE}"
    shown = text if len(text) <= 120 else text[:117] + "..."
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - a port that is not a number raises here
    except ValueError as exc:
        return f"{shown!r} is not a valid URL ({exc})"
    scheme = parts.scheme.lower()
    if "://" not in text:
        return f"{shown!r} has no scheme: write it as https://{text.lstrip('/')} (or http://)"
    if scheme not in SCHEMES:
        return f"{shown!r} is not an http(s) URL: Votal reads forum threads over http or https only"
    if not parts.hostname:
        return f"{shown!r} names no host: write the forum's address, e.g. {_EXAMPLE}"
    return None


def thread_address(url: str) -> str:
    """The thread's address from the address of one of its pages: a page's position
    (``&start=400``, ``page=3``, ``/page-5``, Discourse's post number) and the ``#post`` anchor left
    out, so the game is stored under the thread whichever page was copied."""
    parts = urlsplit(url.strip())
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    kept = [(k, v) for k, v in pairs if k not in PAGE_QUERY_KEYS]
    query = parts.query if len(kept) == len(pairs) else urlencode(kept)  # as written unless cut
    path = parts.path
    for pattern in _PAGE_IN_PATH:
        path = pattern.sub(r"\1", path)
    return urlunsplit((parts.scheme, parts.netloc, path, query, ""))
