"""Who votes for whom as of a post: the one vote state machine, and vote counts as people write
them.

:class:`VoteBook` holds each voter's standing votes and moves them by the four transitions a thread
has (vote, unvote, sleep: a vote for no elimination, nominate: a first vote) under the ruleset's
``multi_vote`` and ``require_unvote``. The tally drives it; every change it makes is recorded
(:class:`Change`), and the players' page, the export's timeline and the drafts read those changes
(:func:`standing_steps`) instead of working out again which votes stand.

A target is a seat's name, or ``None`` for no elimination (sleep / no lynch / abstain).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

Target = str | None  # a seat, or None: no elimination


class Vote(NamedTuple):  # named tuples: a long day makes thousands
    target: Target
    order: tuple[
        int, int
    ]  # (post, command index): when it was cast; earlier votes are listed first
    text: str = (
        ""  # the target as typed (a hook may read it again, e.g. after a count teaches a spelling)
    )

    @property
    def post(self) -> int:
        return self.order[0]


class Change(NamedTuple):
    """A voter's standing votes after a change, as (target, post cast in) pairs; empty: no vote."""

    post: int
    voter: str
    votes: tuple[tuple[Target, int], ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "post": self.post,
            "voter": self.voter,
            "votes": [{"target": t, "post": p} for t, p in self.votes],
        }


@dataclass
class VoteBook:
    """Each voter's standing votes. Methods return ``(counted, why_not)``: why a command changed
    nothing."""

    multi_vote: bool = False
    require_unvote: bool = False
    split: dict[str, int] = field(
        default_factory=dict
    )  # voter -> separate votes it casts (vote_mode "split")
    held: dict[str, list[Vote]] = field(default_factory=dict)
    changes: list[Change] = field(default_factory=list)

    def votes_of(self, voter: str) -> list[Vote]:
        return self.held.get(voter, [])

    def vote(
        self,
        voter: str,
        target: Target,
        order: tuple[int, int],
        *,
        single: bool = False,
        text: str = "",
    ) -> str | None:
        """Cast a vote. ``single``: this voter holds one vote even under multi-voting (the dead)."""
        mine = self.votes_of(voter)
        if any(v.target == target for v in mine):
            return None  # repeated: the vote stands from when it was first cast
        room = self.split.get(voter, 1)
        if room > 1 and not single:
            # A split doublevoter places its votes one at a time; once all are placed, a new one
            # moves the oldest.
            if self.require_unvote and len(mine) >= room:
                return "every vote placed: unvote first"
            self.set(
                voter, [*mine[max(0, len(mine) - room + 1) :], Vote(target, order, text)], order[0]
            )
            return None
        if self.require_unvote and mine and not self.multi_vote:
            shown = mine[0].target
            return (
                "already voting: unvote first"
                if shown is None
                else f"already voting {shown}: unvote first"
            )
        # one vote replaces the last; under multi-voting a real vote adds to the others and ends a
        # sleep vote
        kept = (
            []
            if single or not self.multi_vote or target is None
            else [v for v in mine if v.target is not None]
        )
        self.set(voter, [*kept, Vote(target, order, text)], order[0])
        return None

    def unvote(
        self, voter: str, post: int, *, named: bool = False, target: Target = None
    ) -> tuple[str | None, list[Vote]]:
        """Take back the vote on ``target`` (when ``named``), else every vote: (why not, the votes
        taken back)."""
        mine = self.votes_of(voter)
        if not mine:
            return "no vote to remove", []
        if named and all(v.target != target for v in mine):
            if self.multi_vote or self.split.get(voter, 1) > 1:
                return "was not voting for that target", []
            named = False  # "UNVOTE: X" while voting Y still takes the vote back
        removed = [v for v in mine if not named or v.target == target]
        self.set(voter, [v for v in mine if named and v.target != target], post)
        return None, removed

    def keep_one(self, voter: str, post: int) -> None:
        """A voter who may hold one vote only from now on (killed during a multi-voting day) keeps
        the first."""
        mine = self.votes_of(voter)
        if len(mine) > 1:
            self.set(voter, mine[:1], post)

    def keep_only(self, allowed: Iterable[Target], post: int) -> None:
        """Discard every vote whose target is not ``allowed`` (a runoff keeps votes for its
        candidates)."""
        allowed = set(allowed)
        for voter, mine in list(self.held.items()):
            kept = [v for v in mine if v.target in allowed]
            if kept != mine:
                self.set(voter, kept, post)

    def drop(self, target: Target, post: int) -> None:
        """Take back every vote on ``target`` (its wagon is over: a first lynch of a two-lynch
        day)."""
        for voter, mine in list(self.held.items()):
            kept = [v for v in mine if v.target != target]
            if kept != mine:
                self.set(voter, kept, post)

    def set(self, voter: str, votes: Sequence[Vote], post: int) -> None:
        self.held[voter] = list(votes)
        self.changes.append(Change(post, voter, tuple((v.target, v.post) for v in votes)))

    def snapshot(self) -> dict[str, list[Vote]]:
        return {v: list(votes) for v, votes in self.held.items()}


def standing_steps(
    changes: Iterable[Mapping[str, Any] | Change],
) -> list[tuple[int, dict[str, tuple[tuple[Target, int], ...]]]]:
    """The standing votes after each recorded change: [(post, voter -> ((target, post cast in),
    ...)), ...].

    Reads the tally's changes (``Votal.changes`` or their JSON), so every output agrees with the
    tally.
    """
    state: dict[str, tuple[tuple[Target, int], ...]] = {}
    steps = []
    for change in changes:
        if isinstance(change, Change):
            post, voter, votes = change.post, change.voter, change.votes
        else:
            post, voter = change["post"], change["voter"]
            votes = tuple((v["target"], v["post"]) for v in change["votes"])
        if votes:
            state[voter] = tuple(votes)
        else:
            state.pop(voter, None)
        steps.append((post, dict(state)))
    return steps


def count_voters(state: Mapping[str, Sequence[tuple[Target, int]]]) -> dict[Target, int]:
    """Voters per target in one step of :func:`standing_steps`."""
    counts: dict[Target, int] = {}
    for votes in state.values():
        for target, _ in votes:
            counts[target] = counts.get(target, 0) + 1
    return counts


def show_votes(value: float) -> int | float:
    """A vote count as people write it: 3, not 3.0 (weights may make it 2.5)."""
    return int(value) if float(value).is_integer() else value


def votes_needed(votes: float, majority: int | None) -> int | None:
    """The "L-n" of forum votals: whole votes a wagon still needs for a majority (0 once it has one;
    None without a threshold). Weighted votes round up: 1.5 votes short is L-2, as no one casts half
    a vote."""
    if majority is None:
        return None
    missing = majority - votes
    return max(0, int(missing) if float(missing).is_integer() else int(missing) + 1)
