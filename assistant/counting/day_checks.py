"""What a day's replay checks beside the count: who posts how often (a minimum, a cap), look-alike
and renamed accounts, edited commands, and the flags the moderator is shown of them.

:class:`DayChecks` watches the day's posts and never moves a vote: the loop shows it each post of
the day's vote; the command reader shows it each post whose edit changed its commands.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from assistant.counting.day_state import DayState
from assistant.counting.votal import Flag
from assistant.gamefile.choices import EditedVotes
from assistant.gamefile.rules import Ruleset
from assistant.reading.names import Roster
from parsers.reading import Command, ReadPost


class DayChecks:
    """Post counts, strangers, renamed accounts and edits, and the moderator's flags of them."""

    def __init__(
        self,
        roster: Roster,
        ruleset: Ruleset,
        deadline: datetime | None,
        moderators: set[str],
        state: DayState,
    ):
        self.roster, self.ruleset, self.moderators, self.state = roster, ruleset, moderators, state
        # posts after this time are not held against the day's cap (``cap_lifted_hours`` before the
        # deadline)
        lift = ruleset.cap_lifted_hours
        self.cap_until = (
            deadline - timedelta(hours=lift) if deadline is not None and lift is not None else None
        )
        self.post_counts: dict[str, int] = {}
        self.capped_counts: dict[str, int] = {}
        self.unlisted: dict[
            str, str
        ] = {}  # account the game file does not list -> the seat it was read as
        self.strangers: set[str] = set()  # look-alike accounts already reported this day
        self.edits: list[tuple[str, ReadPost]] = []  # posts whose edit changed their commands

    def count_post(self, post: ReadPost) -> None:
        """A post of the day's vote: its author's post counts, an unlisted account read as a seat, a
        stranger."""
        seat, how = self.roster.author_match(post.author, post.author_id, post.number)
        if seat is None and not post.commands and post.author.casefold() not in self.moderators:
            self.report_stranger(post)  # a look-alike is reported even when it casts no vote
        if seat is None or post.deleted:
            return
        if how != "account":
            self.unlisted.setdefault(post.author, seat)
        self.post_counts[seat] = self.post_counts.get(seat, 0) + 1
        if self.cap_until is not None and post.time is not None and post.time > self.cap_until:
            return
        self.capped_counts[seat] = self.capped_counts.get(seat, 0) + 1

    def report_stranger(self, post: ReadPost) -> None:
        """A look-alike account that posts is a problem once a day, vote or not."""
        authors = getattr(self.roster, "authors", None)
        found = authors.lookalike(post.author, post.author_id) if authors is not None else None
        if found and post.author not in self.strangers:
            self.strangers.add(post.author)
            self.state.add_problem(post.number, post.author, "(a post)", found)

    def edited(self, seat: str, post: ReadPost) -> None:
        """A seat's post whose edit changed what it commands: the moderator is told what it said
        before."""
        self.edits.append((seat, post))

    def flags(self, living: Sequence[str]) -> tuple[Flag, ...]:
        # A renamed account (the same forum user id) counts, and the moderator is told so they can
        # list it.
        found = [
            Flag(
                seat,
                f"posts as {author!r}, the seat's account renamed (same forum user id): counted "
                "(add it to the seat's replacements)",
            )
            for author, seat in self.unlisted.items()
        ]
        counted = {
            EditedVotes.FIRST_REVISION: "the first version counts",
            EditedVotes.LAST_REVISION: "the latest version counts",
            EditedVotes.FLAG: "neither counts until the moderator decides",
        }[self.ruleset.edited]
        found += [
            Flag(
                seat,
                f"edited post {post.number}: before {_shown_commands(post.first_commands)!r}, "
                f"after {_shown_commands(post.commands)!r} ({counted})",
            )
            for seat, post in self.edits
        ]
        least, most = self.ruleset.daily_minimum, self.ruleset.daily_cap
        found += [
            Flag(s, f"under the post minimum: {self.post_counts.get(s, 0)} of {least}")
            for s in living
            if least and self.post_counts.get(s, 0) < least
        ]
        found += [
            Flag(s, f"over the post cap: {self.capped_counts.get(s, 0)} of {most}")
            for s in living
            if most and self.capped_counts.get(s, 0) > most
        ]
        return tuple(found)


def _shown_commands(commands: Sequence[Command] | None) -> str:
    return "; ".join(dict.fromkeys(c.raw for c in commands or ())) or "(no command)"
