"""Forum parsers: pure functions from a page's text to posts, the next page, and problems found.

Each engine module offers the same three functions:

- ``parse_page(text, *, url) -> ThreadPage``
- ``page_url(thread_url, *, after_post=None) -> str``: the page that holds the post after
  ``after_post`` (the first page when None), so a sync resumes where the store stopped.
- ``looks_like(url, text=None) -> bool``: used by :func:`parsers.detect.detect_engine`.
"""

from parsers.page import Post, ThreadPage

__all__ = ["Post", "ThreadPage"]
