"""Which forum engine serves a thread: from its URL and, better, from its first page."""

from __future__ import annotations

import importlib
from types import ModuleType

from parsers.errors import ForumError

ENGINES = ("phpbb", "discourse", "xenforo", "vbulletin", "proboards")


def get_parser(name: str) -> ModuleType:
    """The parser module for engine ``name``."""
    key = name.strip().lower()
    if key not in ENGINES:
        raise ForumError(f"unknown forum engine {name!r}: use one of {', '.join(ENGINES)}")
    return importlib.import_module(f"parsers.{key}")


def detect_engine(url: str, text: str | None = None) -> str:
    """The engine of the thread at ``url``; ``text`` (its first page) settles what the URL cannot.

    The page's markup outranks the URL (forums rewrite URLs); a page no parser recognises, or a URL
    that fits none or several engines without a page, is an error with a hint.
    """
    by_url = [name for name in ENGINES if get_parser(name).looks_like(url)]
    if text is not None:
        by_text = [name for name in ENGINES if get_parser(name).looks_like(url, text)]
        if len(by_text) == 1:
            return by_text[0]
        both = [name for name in by_text if name in by_url]
        if len(both) == 1:
            return both[0]
        if by_text:
            raise ForumError(f"{url} looks like {' or '.join(by_text)}: {_hint(by_text[0])}")
        raise ForumError(f"cannot tell which forum engine serves {url} from its page: {_hint()}")
    if len(by_url) == 1:
        return by_url[0]
    raise ForumError(
        f"cannot tell which forum engine serves {url} from its address alone: {_hint()}"
    )


def check_engine(name: str, url: str, text: str) -> None:
    """Raise when the page at ``url`` is clearly another engine's than the one the game file
    names."""
    parser = get_parser(name)
    if parser.looks_like(url, text):
        return
    others = [
        other for other in ENGINES if other != name and get_parser(other).looks_like(url, text)
    ]
    if others:
        raise ForumError(f"{url} looks like {others[0]}, not {name}: {_hint(others[0])}")
    raise ForumError(
        f"{url} does not look like a {name} thread page: check the thread URL, or {_hint()}"
    )


def _hint(name: str | None = None) -> str:
    if name:
        return f'set forum = "{name}" in the game file'
    return 'set forum = "phpbb" (or discourse, xenforo, vbulletin, proboards) in the game file'
