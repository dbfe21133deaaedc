"""Deciding a day: where a post falls (the main vote, a runoff, after the end), the early end, the
deadline, a runoff's end, and how an outcome is settled (a drawn tie, a ruled deadline, the hooks'
decisions).

:class:`DayDecider` is the day replay's decider: it alone sets the state's ``phase`` and (but for a
hook's ``end_day``) its ``outcome``, and owns the runoff (its candidates, its end) and the
deadline's last posts; it reads the count (:class:`assistant.counting.day_state.DayCount`) and moves
the book only to discard votes (a runoff, a first lynch of several).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from functools import cached_property
from typing import Protocol

from assistant.counting.clock import Timeline, add_wall_hours
from assistant.counting.day_state import DayCount, DayState
from assistant.counting.hooks import DayPhase, Hooked
from assistant.counting.votal import DayResult, Flag, Runoff
from assistant.gamefile.choices import DayStart, EarlyEnd, PhaseKind, TiePolicy
from assistant.gamefile.game import EventKind, Game
from assistant.gamefile.outcome import Kind, Outcome, Reason
from assistant.gamefile.rules import (
    Ruleset,
    decide_at_deadline,
    decide_early,
    decide_plurality,
    early_end_possible,
    leaders,
)
from parsers.reading import ReadPost

_NOT_YET = 1 << 62  # the post number of a day the moderator has not opened yet: after every post


class _Replay(Protocol):
    """What the decider reads of :class:`assistant.counting.day_replay.GameReplay` (which imports
    this module): the thread, the as-of point, the days' bounds and earlier days."""

    game: Game
    ruleset: Ruleset
    timeline: Timeline
    posts: Sequence[ReadPost]
    at_post: int | None
    at_time: datetime | None

    def day(self, number: int) -> DayResult: ...


class DayDecider:
    """How the day's vote ends: the phases a post falls in, and the outcome when the count or the
    clock says. ``replay``: the :class:`assistant.counting.day_replay.GameReplay` (the thread, the
    as-of point, earlier days)."""

    def __init__(
        self,
        replay: _Replay,
        number: int,
        state: DayState,
        count: DayCount,
        moderators: set[str],
        hooked: Hooked,
    ):
        self.r, self.game, self.ruleset, self.number = replay, replay.game, replay.ruleset, number
        self.state, self.count, self.moderators, self.hooked = state, count, moderators, hooked
        self.bounds, self.next_bounds = replay.timeline.day(number), replay.timeline.day(number + 1)
        declared = self.game.day(number)
        self.declared_end = (
            declared is not None and declared.end_post is not None
        )  # the moderator's last post
        self.runoff: Runoff | None = None
        self.pending_runoff: Outcome | None = None
        self.candidates: tuple[str, ...] = ()
        self.last_day_post: int | None = None
        self.last_runoff_post: int | None = None
        self.voted_at_deadline: frozenset[str] = frozenset()
        self.ruling_flags: list[
            Flag
        ] = []  # recorded day deaths the deadline's votes do not bear out
        # A day timed by the clock starts when the last one's deadline passed; a runoff runs past
        # that.
        self.runoff_before: datetime | None = None
        clocked = self.bounds.start_post is None and not self.declares_start(number)
        if self.ruleset.tie == TiePolicy.RUNOFF and number > 1 and clocked:
            previous = replay.day(number - 1).votal.runoff
            self.runoff_before = previous.deadline if previous is not None else None
        opened_by_post = self.ruleset.day_start == DayStart.MODERATOR_POST
        # where the night before this day began: a time, or the post the day before ended at
        self.night_from: datetime | int | None = None
        self.opened_at = self.opening_post_time() if opened_by_post else None
        # "Once day is over, night starts": a day opened by the moderator's post after a day that
        # ended at a declared post starts at that post (a vote in between is no day's); the next
        # day's, for this day's end
        self.opened_post = self.opening_post(number) if opened_by_post else None
        self.next_opened_post = self.opening_post(number + 1) if opened_by_post else None

    def place(self, post: ReadPost) -> bool:
        """Move the phase on to where ``post`` falls, deciding the main vote or the runoff whose end
        it passed; whether the post is still the day's (the vote's, or after it and before the next
        day)."""
        state = self.state
        if state.phase is DayPhase.DAY and self.after_main(post):
            self.end_main()
        if state.phase is DayPhase.RUNOFF and not self.in_runoff(post):
            self.end_runoff()
        if state.phase is DayPhase.DAY:
            self.last_day_post = post.number
        elif state.phase is DayPhase.RUNOFF:
            self.last_runoff_post = post.number
        else:
            return self.before_next_day(post)
        return True

    def close(self, considered: Sequence[ReadPost]) -> bool:
        """After the last post read: decide a vote whose end has passed as of the replay's point;
        whether the vote is over (an early end, even one pending a decision; the deadline; a decided
        runoff)."""
        state, b = self.state, self.bounds
        if (
            state.phase is DayPhase.DAY
            and state.outcome is None
            and self.over_by(b.end_post, b.end, considered)
        ):
            self.end_main()
        if state.phase is DayPhase.RUNOFF and self.over_by(*self.runoff_end(), considered):
            self.end_runoff()
        outcome = state.outcome
        return state.phase is DayPhase.LATE or (
            outcome is not None and (state.phase is DayPhase.DAY or outcome.kind != Kind.PENDING)
        )

    def end_day(self, outcome: Outcome) -> None:
        """A hook's word that the day's vote ends here (a Loose Cannon's shot): later votes count
        for nothing."""
        state = self.state
        if state.outcome is None and state.phase is DayPhase.DAY:
            state.final_votes = state.book.snapshot()
            state.outcome = self.settle(outcome)

    # -- where a post falls
    # ----------------------------------------------------------------------------

    def opening_post_time(self) -> datetime | None:
        """When a day the game file does not declare opens under ``day_start = "moderator_post"``:
        at the moderator's first post after the last day's vote (and its runoff) ended that does not
        tell the night (the lynch, the night falling). Until that post the night runs and no post is
        the day's; None for day 1 and declared days (their own bounds say)."""
        if self.number == 1 or self.declares_start(self.number):
            return None
        previous = self.r.timeline.day(self.number - 1).end
        ended = max((t for t in (previous, self.runoff_before) if t is not None), default=None)
        if ended is None:
            return None
        self.night_from = ended
        opening = next(
            (
                p.time
                for p in self.r.posts
                if p.time is not None and p.time > ended and self.opens_day(p)
            ),
            None,
        )
        return opening if opening is not None else datetime.max.replace(tzinfo=ended.tzinfo)

    def opening_post(self, number: int) -> int | None:
        """The post that opens day ``number`` when the game file does not declare it and the day
        before ended at a declared post (its ``end_post``, or its runoff's recorded end): the
        moderator's first post after it that does not tell the night (beyond every post while none
        has come yet). None for day 1, declared days, days ended by time."""
        if number == 1 or self.declares_start(number):
            return None
        ended = self.game.day(number - 1)
        if ended is None or ended.end_post is None:
            return None
        last = max(
            [
                ended.end_post,
                *(
                    e.post
                    for e in self.game.events
                    if e.day == number - 1 and e.kind == EventKind.RUNOFF_END and e.post is not None
                ),
            ]
        )
        if number == self.number:
            self.night_from = last
        return next(
            (p.number for p in self.r.posts if p.number > last and self.opens_day(p)), _NOT_YET
        )

    def opens_day(self, post: ReadPost) -> bool:
        """Whether a post after a day's end may open the next day: the moderator's, not one telling
        the night ("Once day is over, night starts"; the next day comes with the moderator's
        post)."""
        moderator = post.author.casefold() in self.moderators
        return moderator and post.number not in self.r.timeline.night_posts

    def in_night_before(self, post: ReadPost) -> bool:
        """Whether a player's ``post`` came in the night before this day: after the day before
        ended and before the moderator opened this one (``day_start = "moderator_post"``)."""
        night_from = self.night_from
        if night_from is None or post.author.casefold() in self.moderators:
            return False
        if isinstance(night_from, int):
            return self.opened_post is not None and night_from < post.number < self.opened_post
        return (
            self.opened_at is not None
            and post.time is not None
            and night_from < post.time < self.opened_at
        )

    def declares_start(self, number: int) -> bool:
        """Whether the game file says where day ``number`` starts (its ``start_post`` or ``start``);
        a ``[[days]]`` entry with neither (only an end, a deadline) leaves the start to the thread,
        as an undeclared day does."""
        declared = self.game.day(number)
        return declared is not None and (
            declared.start_post is not None or declared.start is not None
        )

    def in_day(self, post: ReadPost) -> bool:
        b = self.bounds
        if b.start_post is not None:
            return post.number >= b.start_post
        if self.opened_post is not None:
            return post.number >= self.opened_post
        if self.opened_at is not None:
            return post.time is not None and post.time >= self.opened_at
        if b.start is not None:
            if (
                post.time is not None
                and self.runoff_before is not None
                and post.time <= self.runoff_before
            ):
                return False  # still the previous day's runoff
            return post.time is None or post.time >= b.start
        # no start known: still never inside the day before it ("Once day is over, night starts")
        ended = self.previous_end_post
        return ended is None or post.number > ended

    @cached_property
    def previous_end_post(self) -> int | None:
        """The post the day before this one ended at: its declared ``end_post``, else the post its
        vote was decided at (a hammer Votal computes, replayed as of the same point); None for day 1
        or a day not yet decided."""
        if self.number == 1:
            return None
        declared = self.game.day(self.number - 1)
        if declared is not None and declared.end_post is not None:
            return declared.end_post
        outcome = self.r.day(self.number - 1).votal.outcome
        return outcome.post if outcome is not None else None

    def after_main(self, post: ReadPost) -> bool:
        """After the main vote: past the declared last post, else past the deadline (by post or by
        time)."""
        b = self.bounds
        if b.end_post is not None:
            if post.number > b.end_post:
                return True
            if self.declared_end:
                return False  # the moderator's own last post of the day: it decides, whatever the clock says
        # a day declared by its first post still ends at the ruleset's hour ("until 11 am the next
        # day")
        return b.end is not None and post.time is not None and post.time > b.end

    def before_next_day(self, post: ReadPost) -> bool:
        nb = self.next_bounds
        if nb.start_post is not None:
            return post.number < nb.start_post
        if self.next_opened_post is not None:
            return post.number < self.next_opened_post
        if nb.start is not None and post.time is not None:
            return post.time < nb.start
        return False  # unknown: later posts are not listed as this day's

    def runoff_end(self) -> tuple[int | None, datetime | None]:
        end_post, end_time = None, None
        for e in self.game.events:
            if e.day == self.number and e.kind == EventKind.RUNOFF_END:
                end_post = e.post if e.post is not None else end_post
                end_time = e.time if e.time is not None else end_time
        if (
            end_post is None
            and self.next_bounds.start_post is not None
            and self.game.day(self.number + 1)
        ):
            end_post = self.next_bounds.start_post - 1
        if end_time is None and end_post is None and self.bounds.end is not None:
            end_time = add_wall_hours(self.bounds.end, self.ruleset.runoff_hours or 0, self.game.tz)
        return end_post, end_time

    def in_runoff(self, post: ReadPost) -> bool:
        end_post, end_time = self.runoff_end()
        if end_post is not None and post.number > end_post:
            return False
        return not (end_time is not None and post.time is not None and post.time > end_time)

    def over_by(
        self, end_post: int | None, end_time: datetime | None, considered: Sequence[ReadPost]
    ) -> bool:
        """Whether an end (by post or by time) has passed as of the replay's point."""
        at_post, at_time = self.r.at_post, self.r.at_time
        if end_post is not None:
            return at_post is None or at_post >= end_post
        if end_time is None:
            return False
        if at_time is not None:
            return at_time >= end_time
        pool = considered if at_post is not None else self.r.posts
        return any(p.time is not None and p.time > end_time for p in pool)

    def phase_of_post(self, post: ReadPost) -> bool:
        """Whether a post belongs to the day's vote (main or runoff), for as_of_post."""
        if not self.after_main(post):
            return True
        return self.runoff is not None and self.in_runoff(post)

    # -- deciding
    # ------------------------------------------------------------------------------------------

    def end_main(self) -> None:
        """The main vote's deadline passed: decide it (unless an early end already did)."""
        state = self.state
        state.phase = DayPhase.LATE
        self.voted_at_deadline = frozenset(v for v, votes in state.book.held.items() if votes)
        if state.outcome is not None:
            return
        standing = self.count.standing(self.last_day_post)
        outcome = decide_at_deadline(self.ruleset, standing)
        if outcome.kind == Kind.PENDING and outcome.reason == Reason.RUNOFF:
            self.candidates = tuple(t for t in leaders(self.ruleset, standing) if t is not None)
            # "Votes for players not involved in the tie will be discarded and those votes must be
            # recast": abstentions too, so a discarded voter recasts without an unvote.
            state.book.keep_only(self.candidates, self.last_day_post or 0)
            _, end_time = self.runoff_end()
            self.runoff = Runoff(self.candidates, end_time, self.last_day_post)
            state.phase = DayPhase.RUNOFF
            self.pending_runoff = outcome
            return
        state.outcome = self.settle(outcome)

    def end_runoff(self) -> None:
        state = self.state
        state.phase = DayPhase.LATE
        self.voted_at_deadline |= frozenset(v for v, votes in state.book.held.items() if votes)
        last = self.last_runoff_post if self.last_runoff_post is not None else self.last_day_post
        state.outcome = self.settle(
            decide_plurality(self.ruleset, self.count.standing(last), runoff=True)
        )

    def decide_early(self, post: int) -> None:
        """The count moved at ``post`` (the day's vote not yet decided): whether the rules end the
        day now."""
        outcome, state = decide_early(self.ruleset, self.count.standing(post)), self.state
        if outcome is None:
            return
        state.final_votes = state.book.snapshot()
        outcome = self.hammer_doubt(self.settle(outcome))
        if outcome.kind == Kind.ELIMINATION and len(state.lynched) + 1 < self.game.lynches_per_day:
            state.lynched.append(outcome)  # lynches_per_day: the day goes on without this wagon
            state.book.drop(outcome.target, post)
            state.final_votes = None
            return
        state.outcome = outcome

    def hammer_doubt(self, outcome: Outcome) -> Outcome:
        """The outcome, marked doubtful when the vote that decided it was read with doubt."""
        if outcome.post is None or outcome.kind not in (Kind.ELIMINATION, Kind.NO_ELIMINATION):
            return outcome
        for action in reversed(self.state.actions):
            if action.post != outcome.post:
                break
            if (
                action.counted
                and action.action in ("vote", "nominate")
                and action.target == outcome.target
            ):
                return replace(outcome, doubt=action.doubt) if action.doubt else outcome
        return outcome

    def settle(self, outcome: Outcome) -> Outcome:
        """A tie the rules settle by a draw the moderator recorded, a deadline the moderator ruled,
        then what the hooks decide."""
        deadline = outcome.kind == Kind.NO_ELIMINATION and outcome.reason == Reason.DEADLINE
        if deadline and self.game.house.deadline_plurality:
            most = decide_plurality(
                self.ruleset, self.count.standing(outcome.post)
            )  # a tie follows the ruleset
            outcome = most if most.kind != Kind.PENDING else outcome
        if outcome.kind == Kind.NO_ELIMINATION and outcome.reason == Reason.DEADLINE:
            outcome = self.ruled_deadline(outcome)
        if outcome.kind == Kind.PENDING and outcome.reason == Reason.TIE:
            tied = [
                t for t in leaders(self.ruleset, self.count.standing(outcome.post)) if t is not None
            ]
            drawn = [
                d.player
                for d in self.game.deaths
                if d.phase == PhaseKind.DAY and d.phase_number == self.number and d.player in tied
            ]
            if len(drawn) == 1:
                outcome = Outcome(Kind.ELIMINATION, drawn[0], outcome.post, Reason.TIE)
        for hook in self.hooked.settle:
            outcome = hook(outcome)
        return outcome

    def ruled_deadline(self, outcome: Outcome) -> Outcome:
        """No majority at the deadline, and the game file records a seat's death this day at no post
        (a lynch, not a day kill, which has its post): when that seat had the most votes, the
        moderator ruled the deadline as many games' own rules say (the most votes, or a lowered
        threshold, lynch) and the recorded death is the day's outcome. A recorded death the votes do
        not bear out is flagged."""
        recorded = [
            d.player
            for d in self.game.deaths
            if d.phase == PhaseKind.DAY and d.phase_number == self.number and d.post is None
        ]
        if not recorded:
            return outcome
        top = [t for t in leaders(self.ruleset, self.count.standing(outcome.post)) if t is not None]
        ruled = [seat for seat in recorded if seat in top]
        if len(ruled) == 1:
            return Outcome(Kind.ELIMINATION, ruled[0], outcome.post, Reason.PLURALITY)
        self.ruling_flags = [
            Flag(
                seat,
                f"the game file records this seat's death on day {self.number} at no post, but no majority "
                "was reached and it did not have the most votes at the deadline: check the votes (a day "
                "kill needs its post)",
            )
            for seat in recorded
        ]
        return outcome

    def flags(self) -> list[Flag]:
        """What the moderator is shown of the day's end: an early end the Storyteller may call, and
        a recorded death the deadline's votes do not bear out."""
        found = []
        state, ruleset = self.state, self.ruleset
        if (
            state.outcome is None
            and state.phase is DayPhase.DAY
            and EarlyEnd.NO_POSSIBLE_TIE in ruleset.early_end
        ):
            leader = early_end_possible(ruleset, self.count.standing(self.last_day_post))
            if leader is not None:
                found.append(
                    Flag(
                        leader,
                        "an early end is possible: no remaining vote can tie or pass this "
                        'nomination (the Storyteller may end the day: [[events]] kind = "early_end")',
                    )
                )
        return found + self.ruling_flags
