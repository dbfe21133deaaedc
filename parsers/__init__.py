"""Forum parsers: pure functions from a page's text to posts, the next page, and problems found.

Each engine module offers the same three functions:

- ``parse_page(text, *, url) -> ThreadPage``
- ``page_url(thread_url, *, after_post=None) -> str``: the page that holds the post after
  ``after_post`` (the first page when None), so a sync resumes where the store stopped.
- ``looks_like(url, text=None) -> bool``: used by :func:`parsers.detect.detect_engine`.

``Post`` and ``ThreadPage`` live in :mod:`parsers.page`. This package imports nothing itself, so
:mod:`parsers.errors` (imported by every command) loads without the command grammar.
"""
