"""What a day's replay learns or checks beside the count: spellings a moderator's count taught, look-alike and
stranger accounts, old accounts named, self-hammers, and the flags the moderator is shown.

:class:`DayChecks` is a part of :class:`assistant.counting.day_replay.DayReplay`, kept apart so each job reads in one
sitting.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from assistant.counting.votal import Action, Flag
from parsers.reading import Command, ReadPost


class DayChecks:
    """Learned spellings, strangers and the moderator's flags."""

    def report_stranger(self, post: ReadPost) -> None:
        """A look-alike account that posts is a problem once a day, vote or not."""
        authors = getattr(self.r.roster, "authors", None)
        found = authors.lookalike(post.author) if authors is not None else None
        if found and post.author not in self.strangers:
            self.strangers.add(post.author)
            self.state.add_problem(post.number, post.author, "(a post)", found)

    def old_account(self, seat: str, typed: str, post: int) -> str | None:
        """The account ``typed`` names when it is one ``seat`` was played by before ``post`` (else None)."""
        accounts = self.game.seat(seat).accounts
        current = accounts.index(self.game.seat(seat).account_at(post))
        folded = typed.strip().casefold()
        return next((a for a in accounts[:current] if a.casefold() == folded), None)

    def reread_learned(self, post: int, living: tuple[str, ...]) -> None:
        """A moderator's count at ``post`` taught a spelling: a standing vote typed so counts from here on."""
        for seat, (command, base) in list(self.unread.items()):
            found = self.resolve(command.target or "", living, post)
            if found.step != "learned" or found.seat is None or seat not in living:
                continue
            del self.unread[seat]
            changes = len(self.state.book.changes)
            if self.state.book.vote(seat, found.seat, (post, -1), single=False) is not None:
                continue
            self.state.changed = self.state.changed or len(self.state.book.changes) > changes
            self.state.actions.append(Action(**{**base, "post": post}, target=found.seat, no_elimination=False,
                                       step="learned", counted=True, why_not=None, doubt="learned alias"))

    def flags(self, living: Sequence[str]) -> tuple[Flag, ...]:
        # A renamed account (the same forum user id) counts, and the moderator is told so they can list it.
        found: list[Flag] = [
            Flag(
                seat,
                f"posts as {author!r}, the seat's account renamed (same forum user id): counted "
                "(add it to the seat's replacements)",
            )
            for author, seat in self.unlisted.items()
        ]
        counted = {"first_revision": "the first version counts", "last_revision": "the latest version counts",
                   "flag": "neither counts until the moderator decides"}[self.ruleset.edited]
        found += [
            Flag(
                seat,
                f"edited post {post.number}: before {_shown_commands(post.first_commands)!r}, "
                f"after {_shown_commands(post.commands)!r} ({counted})",
            )
            for seat, post in self.edits
        ]
        least, most = self.ruleset.daily_minimum, self.ruleset.daily_cap
        found += [Flag(s, f"under the post minimum: {self.post_counts.get(s, 0)} of {least}")
                  for s in living if least and self.post_counts.get(s, 0) < least]
        found += [Flag(s, f"over the post cap: {self.capped_counts.get(s, 0)} of {most}")
                  for s in living if most and self.capped_counts.get(s, 0) > most]
        return tuple(found)


def teaching_posts(roster: Any) -> frozenset[int]:
    """The posts from which the roster knows a spelling a moderator's count taught it."""
    return frozenset(post for _, post in getattr(roster, "learned", {}).values())


def _shown_commands(commands: Sequence[Command] | None) -> str:
    return "; ".join(dict.fromkeys(c.raw for c in commands or ())) or "(no command)"
