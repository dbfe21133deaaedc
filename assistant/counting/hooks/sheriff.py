"""Millers Hollow's Sheriff: "The sheriff's vote counts as two", from the election on; the badge
passes to the successor he named, at his death; the election is held in the lynch thread and tallied
on its own.

Who holds the badge:

- ``[[events]] kind = "sheriff"``: the moderator's record that ``player`` holds it from that day
  (post) on;
- on a day with ``[[events]] kind = "sheriff_election"``, that day's "vote X for sheriff" votes
  (never lynch votes) elect the player with the most ("The sheriff vote occurs just like the lynch
  vote"); a tie, or a tie of the lynch vote, keeps the election open two more hours. "The benefits
  of being the sheriff are immediately applied to the lynch vote at the end of the day of voting":
  the winner counts twice in that day's decision and on every later day;
- ``[private] sheriff``: the sheriff from day 1 when the game records no election and no badge, else
  the election's winner when its votes elect no one (the moderator's word);
- ``[[private.successors]]``: when the holder dies, the successor he named takes the badge, at his
  death (:func:`assistant.counting.powers.passed_on`, asked as of the post:
  :func:`assistant.counting.powers.point`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from assistant.counting.clock import add_wall_hours
from assistant.counting.hooks import DayPhase, DayView, Hook
from assistant.counting.powers import passed_on, point
from assistant.counting.votal import SheriffElection, Wagon, rank_wagons
from assistant.gamefile.game import EventKind
from parsers.reading import ReadPost

# Each voter's standing sheriff ballot: (the seat voted for, (post, command index)).
_Ballots = dict[str, tuple[str, tuple[int, int]]]


class Sheriff(Hook):
    name = "sheriff"

    def __init__(self, day: DayView) -> None:
        super().__init__(day)
        events = day.game.events
        self.election_day = any(
            e.kind == EventKind.SHERIFF_ELECTION and e.day == day.number for e in events
        )
        self.recorded = any(
            e.kind in (EventKind.SHERIFF, EventKind.SHERIFF_ELECTION) for e in events
        )
        self._election: SheriffElection | None = None
        self._before: list[str | None] | None = None
        self._holders: dict[tuple[int | None, DayPhase], str | None] = {}

    # -- who holds the badge
    # -------------------------------------------------------------------------

    def weight(self, seat: str, post: int | None, weight: float) -> float:
        return weight * 2 if seat == self.holder(post) else weight

    def holder(self, post: int | None) -> str | None:
        key = (post, self.day.phase)
        if key not in self._holders:
            day, at = (
                self.day,
                point(self.day, post),
            )  # never past the replay's point: no later badge or death
            holder = self.holder_before()
            for e in day.game.events:
                if (
                    e.kind == EventKind.SHERIFF
                    and e.day == day.number
                    and (e.post is None or at is None or at >= e.post)
                ):
                    holder = e.player
            if self.election_day and day.phase is not DayPhase.DAY:
                holder = self.election_result() or holder
            self._holders[key] = passed_on(day.game, holder, day.living(at))
        return self._holders[key]

    def holder_before(self) -> str | None:
        """Who holds the badge as this day starts: the records and elections of the days before
        it."""
        if self._before is None:
            day, game = self.day, self.day.game
            holder = None if self.recorded else game.private.sheriff
            for number in range(1, day.number):
                for e in game.events:
                    if e.kind == EventKind.SHERIFF and e.day == number:
                        holder = e.player
                if any(
                    e.kind == EventKind.SHERIFF_ELECTION and e.day == number for e in game.events
                ):
                    election = day.earlier(number).votal.election
                    holder = (
                        (election.elected if election else None) or game.private.sheriff or holder
                    )
                holder = (
                    passed_on(game, holder, day.earlier(number).votal.living) if holder else holder
                )
            self._before = [holder]
        return self._before[0]

    def election_result(self) -> str | None:
        election = self.election()
        if election is None:
            return None
        return election.elected or (
            self.day.game.private.sheriff if election.open_until is None else None
        )

    # -- the election
    # ------------------------------------------------------------------------------------

    def election(self) -> SheriffElection | None:
        """The day's sheriff election as of the replay's point (None on a day without one)."""
        if not self.election_day:
            return None
        if self._election is None:
            self._election = self._tally_election()
        return self._election

    def _tally_election(self) -> SheriffElection:
        day = self.day
        at_post, at_time = day.r.at_post, day.r.at_time
        posts = [
            p
            for p in day.r.posts
            if day.in_day(p)
            and (at_post is None or p.number <= at_post)
            and (at_time is None or p.time is None or p.time <= at_time)
        ]
        main = [p for p in posts if not day.after_main(p)]
        ballots: _Ballots = {}
        self._read(main, ballots)
        closed = day.over_by(day.bounds.end_post, day.bounds.end, posts)
        wagons = _wagons(ballots)
        tied = len(wagons) > 1 and wagons[0].votes == wagons[1].votes
        open_until = None
        if closed and (tied or day.runoff is not None) and day.bounds.end is not None:
            # "In the case of a tie, the vote is extended two hours"; a tied lynch vote keeps it
            # open as long.
            open_until = add_wall_hours(day.bounds.end, 2, day.game.tz)
            self._read(
                [
                    p
                    for p in posts
                    if day.after_main(p) and p.time is not None and p.time <= open_until
                ],
                ballots,
            )
            wagons = _wagons(ballots)
            tied = len(wagons) > 1 and wagons[0].votes == wagons[1].votes
            if day.over_by(None, open_until, posts):
                closed, open_until = True, None
            else:
                closed = False
        elected = (
            wagons[0].target if closed and open_until is None and wagons and not tied else None
        )
        return SheriffElection(wagons, elected, open_until)

    def _read(self, posts: Sequence[ReadPost], ballots: _Ballots) -> None:
        day = self.day
        for post in posts:
            if post.author.casefold() in day.moderators:
                continue
            seat = day.r.roster.author_match(post.author, post.author_id)[0]  # the id wins
            if seat is None:
                continue
            living = day.living(post.number)
            for index, command in enumerate(post.commands):
                if command.action != "sheriff" or seat not in living:
                    continue
                found = day.resolve(command.target or "", living)
                if found.seat is not None and found.seat in living:
                    ballots[seat] = (found.seat, (post.number, index))

    def votal(self, fields: dict[str, Any]) -> None:
        fields["election"] = self.election()


def _wagons(ballots: _Ballots) -> tuple[Wagon, ...]:
    """The election's wagons, ranked as the lynch's are (one vote each: the sheriff's counts once
    here)."""
    cast: dict[str | None, list[tuple[tuple[int, int], str]]] = {}
    for voter, (target, order) in ballots.items():
        cast.setdefault(target, []).append((order, voter))
    return rank_wagons(cast)[0]


HOOK = Sheriff
