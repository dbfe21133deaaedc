"""The errors Votal reports in one line; the parsers' own is a forum page that cannot be read.

They live beside the parsers, which import nothing from the application: the application
(:mod:`assistant.errors`) builds its own errors on :class:`VotalError`.
"""

from __future__ import annotations


class VotalError(Exception):
    """Base class: a problem to report to the user in one line."""


class ForumError(VotalError):
    """The forum could not be read: HTTP failure, or a page that changed shape."""
