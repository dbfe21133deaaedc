"""What Votal accepts as a forum thread's address: an http(s) URL with a host, refused at once otherwise.

A URL the HTTP library cannot send (no scheme, ``ftp://``, no host) is not a forum that is down: retrying it
only delays the one line that says what is wrong. The game file, ``votal new`` and the fetcher all ask here.
"""

from __future__ import annotations

from urllib.parse import urlsplit

SCHEMES = ("http", "https")


def url_problem(url: str) -> str | None:
    """Why ``url`` is not a thread address Votal can fetch (one line, naming it), or None."""
    text = url.strip()
    if not text:
        return "no URL given: pass the thread's address, e.g. https://forum.example.org/viewtopic.php?t=5"
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
        return f"{shown!r} names no host: write the forum's address, e.g. https://forum.example.org/viewtopic.php?t=5"
    return None
