"""Errors the core raises; the CLI turns each into one line and a non-zero exit."""

from __future__ import annotations

from parsers.errors import ForumError, VotalError  # the parsers' errors are the application's too

__all__ = ["BadInput", "ForumError", "GameFileError", "RulesetError", "UnknownPlayer", "VotalError"]


class GameFileError(VotalError):
    """A game file that cannot be used, with where the problem is."""

    exit_code = 2  # the command's input is wrong (the CLI exits 1 for a problem found, 2 for this)

    def __init__(self, path: str, line: int | None, field: str | None, message: str):
        self.path, self.line, self.field, self.message = str(path), line, field, message
        where = self.path + (f":{line}" if line else "")
        super().__init__(f"{where}: {field}: {message}" if field else f"{where}: {message}")


class RulesetError(GameFileError):
    """A ruleset file that cannot be used (same shape as a game file error)."""


class BadInput(VotalError):
    """A value given on the command line that cannot be used (a thread address, a time zone)."""

    exit_code = 2


class UnknownPlayer(VotalError, KeyError):
    """A name that is no seat of the game."""

    exit_code = 2

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""
