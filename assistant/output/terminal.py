"""Text for a terminal: the one place that makes names and post text safe to print.

A player's name or post can hold terminal escape sequences (move the cursor, recolour, retitle the
window, hide text) and bidirectional controls (show text in another order than it is).
:func:`terminal_safe` shows each such character as a visible ``\\u....`` escape; every text printer
of the CLI goes through it.

Where the output is data, the data stays exact and is still safe on a terminal: JSON shows these
characters as its own ``\\u....`` escapes (which read back as the same text), HTML as character
references. Drafts are text for people (a bidi override in a name would reorder the moderator's own
post), so they are always escaped. CSV is exact in a file or a pipe and escaped on a terminal.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import logging

# C0 controls except tab and newline, DEL, C1 controls (CSI is U+009B), the Arabic letter mark, the
# left-to-right and right-to-left marks, embeddings and overrides, isolates, and the line and
# paragraph separators that some terminals treat as line breaks.
_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)


def terminal_safe(text: str) -> str:
    """``text`` with every control and bidi character replaced by a visible escape (``\\u001b``)."""
    return _UNSAFE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def json_safe(text: str) -> str:
    """JSON text with these characters as JSON escapes: the same data, safe to print.
    (``json.dumps`` with ``ensure_ascii=False`` escapes only C0 controls; outside strings JSON holds
    none of these characters.)"""
    return terminal_safe(text)


def html_safe(text: str) -> str:
    """HTML with these characters as character references: the same page in a browser, safe to
    print."""
    return _UNSAFE.sub(lambda match: f"&#x{ord(match.group()):x};", text)


def safe_log_formatter(fmt: str, datefmt: str | None = None) -> logging.Formatter:
    """A logging formatter whose lines go through :func:`terminal_safe` (alerts quote names and
    posts). ``logging`` is imported here, not at the top: `votal count` never logs and would pay for
    it at start-up."""
    import logging

    class SafeFormatter(logging.Formatter):
        def format(self, record: logging.LogRecord) -> str:
            return terminal_safe(super().format(record))

    return SafeFormatter(fmt, datefmt=datefmt)
