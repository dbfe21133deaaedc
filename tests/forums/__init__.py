"""Test-only forum renderers: corpus-style posts wrapped in each engine's real page markup or API
answers.

Each module offers ``thread_url(base_url, *, topic_id)`` (the URL a game file names) and
``render_thread(posts, *, base_url, per_page, …) -> {path_with_query: text}``. Posts are dicts with
``number``, ``id``, ``user``, ``content`` (body HTML) and ``time`` (aware UTC datetime); optional
``user_id``, ``edited``, ``deleted``, ``guest``, ``signature`` (and for Discourse ``deleted_user``,
``post_type``). The phpBB module renders MafiaScum's style through the demo's renderer, which takes
none of the optional keys. Numbers are printed as given, so a corpus game keeps MafiaScum's
numbering everywhere except on ProBoards, which prints none: there the first post is 1.
:func:`serve_pages` answers a loopback server's requests from such a dict.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit

from assistant.forum.pageserver import Response

HTML = {"Content-Type": "text/html; charset=utf-8"}
JSON = {"Content-Type": "application/json; charset=utf-8"}


def page_key(path_with_query: str) -> str:
    """A request's path and query with the query in a fixed order, for looking pages up."""
    parts = urlsplit(path_with_query)
    query = sorted(parse_qsl(parts.query, keep_blank_values=True))
    return parts.path + ("?" + urlencode(query) if query else "")


def serve_pages(pages: dict[str, str]):
    """A handler for :class:`assistant.forum.pageserver.LoopbackServer` answering from rendered
    pages (404 else)."""
    table = {page_key(key): text for key, text in pages.items()}

    def respond(path: str, query: dict[str, str], headers: dict[str, str]) -> Response:
        key = page_key(path + ("?" + urlencode(query) if query else ""))
        if key not in table:
            return Response(404, "<html><body><p>Not found</p></body></html>", dict(HTML))
        return Response(200, table[key], dict(JSON if path.endswith(".json") else HTML))

    return respond
