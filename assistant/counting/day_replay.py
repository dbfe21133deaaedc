"""The day replay's loop: one day's posts walked in order, each read into the one vote state machine
(:class:`assistant.counting.votes.VoteBook`), the count asked after each whether it ends the day,
then the votal.

:class:`GameReplay` replays a game's days as of one point (an earlier day once, when a rule needs
it); :class:`DayReplay` is one day's loop over its parts (:mod:`~assistant.counting.day_state`,
:mod:`~assistant.counting.day_commands`, :mod:`~assistant.counting.day_end`,
:mod:`~assistant.counting.day_checks`). :func:`replay_day_watched` is the same loop also showing the
moderator's counts the votal as of the post before each (:mod:`~assistant.counting.votecounts`
learns spellings from them). Everything a particular rule adds (a Judge, lovers, a sheriff,
nominations...) is a hook of :mod:`assistant.counting.hooks`, called at fixed points; the loop never
names one. Both are private to :mod:`assistant.counting`: the one way to a votal is
:func:`assistant.counting.count.count_stored`.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from assistant.counting.clock import Timeline
from assistant.counting.day_checks import DayChecks
from assistant.counting.day_commands import DayCommands
from assistant.counting.day_end import DayDecider
from assistant.counting.day_state import DayCount, DayState
from assistant.counting.hooks import DayPhase, Hooked
from assistant.counting.hooks.registry import hook_classes
from assistant.counting.votal import DayResult, Votal
from assistant.counting.votes import VoteBook
from assistant.gamefile.game import Game
from assistant.gamefile.rules import Ruleset
from assistant.reading.names import Resolver, Roster, resolve_name
from parsers.reading import ReadPost


class GameReplay:
    """One replay of a game's days as of one point; earlier days are replayed once, when a rule
    needs them."""

    def __init__(
        self,
        game: Game,
        ruleset: Ruleset,
        posts: Sequence[ReadPost],
        roster: Roster,
        resolve: Resolver,
        at_post: int | None,
        at_time: datetime | None,
        timeline: Timeline | None = None,
    ) -> None:
        self.game, self.ruleset, self.posts, self.roster = game, ruleset, posts, roster
        # each day's bounds, worked out once for every day replayed (the command's own, when it has
        # one)
        if timeline is None or timeline.game is not game:
            night = timeline.night_posts if timeline is not None else frozenset()
            timeline = Timeline(game, ruleset, night)
        self.timeline = timeline
        self.resolve, self.at_post, self.at_time = resolve, at_post, at_time
        self.memo: dict[int, DayResult] = {}
        # the posts up to the as-of post (``posts`` is in post order): a day as of an early post
        # reads no more
        upto = len(posts) if at_post is None else bisect_right([p.number for p in posts], at_post)
        self.posts_so_far = posts[:upto]
        self.hook_classes = hook_classes(ruleset.hooks)

    @classmethod
    def of(
        cls,
        game: Game,
        ruleset: Ruleset,
        posts: Sequence[ReadPost],
        roster: Roster,
        *,
        at_post: int | None = None,
        at_time: datetime | None = None,
        resolve: Resolver = resolve_name,
        timeline: Timeline | None = None,
    ) -> GameReplay:
        """A replay of ``posts`` (in any order) as of ``at_post`` / ``at_time``; :meth:`day` replays
        a day. ``timeline``: the game's days already worked out (``clock.Timeline``)."""
        return cls(
            game,
            ruleset,
            sorted(posts, key=lambda p: p.number),
            roster,
            resolve,
            at_post,
            at_time,
            timeline,
        )

    def adopt(self, results: dict[int, DayResult]) -> None:
        """Take days replayed by another replay as of the same point with the same roster (one that
        also held the moderator's counts: :func:`replay_day_watched`), where this one has not
        replayed them."""
        for number, result in results.items():
            self.memo.setdefault(number, result)

    def day(self, number: int) -> DayResult:
        if number not in self.memo:
            self.memo[number] = DayReplay(self, number).run()
        return self.memo[number]


class DayReplay:
    """One day's replay loop. It owns the day's :class:`DayState` and hands it to the parts that
    move it, each its own object: ``commands`` (:class:`DayCommands`: the posts' commands into the
    vote book), ``end`` (:class:`DayDecider`: the phase and the outcome), ``checks``
    (:class:`DayChecks`: watches, moves nothing), and the ``count`` over it (:class:`DayCount`:
    reads only). The hooks see it as a :class:`assistant.counting.hooks.DayView`, each name taken
    from the part that owns it."""

    def __init__(self, replay: GameReplay, day: int):
        self.r = replay
        self.game, self.ruleset, self.number = replay.game, replay.ruleset, day
        game, ruleset = self.game, self.ruleset
        self.bounds = replay.timeline.day(day)
        self.moderators = {m.casefold() for m in game.moderators}
        self.state = state = DayState(
            VoteBook(
                multi_vote=ruleset.multi_vote,
                require_unvote=ruleset.require_unvote,
                split={s.name: s.split_votes for s in game.players if s.split_votes > 1},
            )
        )
        self.book, self.actions = state.book, state.actions  # the same objects, for the hooks
        # Each hook point -> the bound methods of the hooks that override it (filled below, once the
        # hooks can read every part): most days call none, cheaply.
        self.hooked = Hooked()
        self.count = count = DayCount(
            game, ruleset, day, self.bounds.start_post, state, self.hooked
        )
        self.checks = DayChecks(replay.roster, ruleset, self.bounds.end, self.moderators, state)
        self.end = end = DayDecider(replay, day, state, count, self.moderators, self.hooked)
        self.commands = DayCommands(
            replay, state, count, end, self.checks, self.moderators, self.hooked
        )
        # what the hooks read (:class:`assistant.counting.hooks.DayView`), from the part that owns
        # it
        self.living, self.targets, self.resolve = count.living, count.targets, self.commands.resolve
        self.earlier, self.note = (
            replay.day,
            state.note,
        )  # an earlier day (replayed once); a moderator-only line
        self.in_day, self.after_main, self.over_by, self.end_day = (
            end.in_day,
            end.after_main,
            end.over_by,
            end.end_day,
        )
        self.hooked.fill([cls(self) for cls in replay.hook_classes])

    phase = property(lambda self: self.state.phase)
    outcome = property(lambda self: self.state.outcome)
    changed = property(
        lambda self: self.state.changed, lambda self, value: setattr(self.state, "changed", value)
    )
    runoff = property(lambda self: self.end.runoff)
    voted_at_deadline = property(lambda self: self.end.voted_at_deadline)

    # -- the loop
    # ------------------------------------------------------------------------------------------

    def run(self, watch: tuple[list[int], Callable[[int, Votal], None]] | None = None) -> DayResult:
        """The day's result; ``watch`` (posts, seen): see :func:`replay_day_watched`."""
        at_time, state, count, end, checks, commands = (
            self.r.at_time,
            self.state,
            self.count,
            self.end,
            self.checks,
            self.commands,
        )
        considered = [
            p
            for p in self.r.posts_so_far
            if end.in_day(p) and (at_time is None or p.time is None or p.time <= at_time)
        ]
        if end.night_from is not None:
            self.read_night(at_time)
        stops, show = watch if watch is not None else ([], None)
        stops = list(stops)
        seen: tuple[str, ...] = ()
        for hook in self.hooked.at_post:
            hook(None)
        for index, post in enumerate(considered):
            while stops and stops[0] <= post.number:
                self.show(stops.pop(0), considered[:index], show)
            if not end.place(post):
                continue
            if state.phase is DayPhase.DAY:
                checks.count_post(post)
            living = count.living(post.number)
            if seen and living != seen:
                for seat in seen:
                    if seat not in living:
                        for on_death in self.hooked.on_death:
                            on_death(seat, post.number)
            for hook in self.hooked.at_post:
                hook(post.number)
            if state.phase is DayPhase.DAY and state.outcome is None:
                commands.declared_at(post.number, living)
            commands.read_post(post, living)
            # The count only moves when a vote changed or someone died: skip the rest (long days are
            # long).
            if (
                state.phase in (DayPhase.DAY, DayPhase.RUNOFF)
                and state.outcome is None
                and (state.changed or living != seen)
            ):
                end.decide_early(post.number)
            state.changed, seen = False, living
        for stop in stops:
            self.show(stop, considered, show)
        return self.finish(considered, end.close(considered))

    def read_night(self, at_time: datetime | None) -> None:
        """The votes cast in the night before the day (after the day before ended, before the
        moderator opened this one): listed, never counted, so that one that matters is heard of."""
        for post in self.r.posts_so_far:
            if at_time is not None and post.time is not None and post.time > at_time:
                break
            if self.end.in_night_before(post):
                self.commands.read_night_post(post, self.count.living(post.number))

    def show(
        self, stop: int, considered: Sequence[ReadPost], seen: Callable[[int, Votal], None] | None
    ) -> None:
        """Show ``seen`` the votal as of the posts read so far; it may teach the roster a spelling
        at ``stop``."""
        assert seen is not None
        seen(stop, self.finish(considered, over=False).votal)
        self.commands.relearn()

    # -- the votal
    # ----------------------------------------------------------------------------------------

    def finish(self, considered: Sequence[ReadPost], over: bool) -> DayResult:
        state, end, ruleset = self.state, self.end, self.ruleset
        # the last post of the day's vote (``considered`` is in post order; the late posts come
        # last)
        as_of = next((p.number for p in reversed(considered) if end.phase_of_post(p)), None)
        living = self.count.living(as_of if as_of is not None else self.bounds.start_post)
        wagons, no_elim, _, voting = self.count.tally(living, as_of)
        outcome = (
            end.pending_runoff
            if state.outcome is None and state.phase is DayPhase.RUNOFF
            else state.outcome
        )
        majority = ruleset.majority_for(len(living)) if ruleset.threshold else None
        flags = [*self.checks.flags(living), *end.flags()]
        for flagged in self.hooked.flags:
            flags += flagged(living, voting, over)
        fields: dict[str, Any] = dict(
            day=self.number,
            alive=len(living),
            majority=majority,
            as_of_post=as_of,
            wagons=wagons,
            no_elimination=no_elim,
            not_voting=tuple(s for s in living if s not in voting),
            outcome=outcome,
            problems=tuple(state.problems),
            deadline=self.bounds.end,
            living=living,
            ruleset=ruleset.name,
            actions=tuple(state.actions),
            runoff=end.runoff,
            flags=tuple(flags),
            changes=tuple(state.book.changes),
            lynches=tuple(state.lynched),
            no_elimination_majority=(
                ruleset.no_elimination_needed(majority)
                if majority is not None and ruleset.no_elimination_vote
                else None
            ),
        )
        for hook in self.hooked.votal:
            hook(fields)
        votal = Votal(**fields, private_notes=tuple(state.notes))
        final = state.final_votes if state.final_votes is not None else state.book.snapshot()
        return DayResult(votal, final, end.voted_at_deadline or frozenset(voting))


def replay_day_watched(
    game: Game,
    ruleset: Ruleset,
    posts: Sequence[ReadPost],
    roster: Roster,
    *,
    day: int,
    watch: Sequence[int],
    seen: Callable[[int, Votal], None],
    at_post: int | None = None,
    at_time: datetime | None = None,
    timeline: Timeline | None = None,
) -> DayResult:
    """The whole result of ``day`` replayed as of ``at_post`` / ``at_time``, also showing
    ``seen(post, votal)`` the votal just before each post of ``watch`` (as of the post before it),
    in post order, in one pass: a moderator's count is held against the reading as of the post
    before it without a replay per count.

    ``seen`` may teach ``roster`` a spelling from that post on (``roster.learn``): the rest of the
    pass reads with it, as a replay made afterwards would. The votal shown holds what an as-of
    replay's would (votes, living, actions, problems); what a hook computes from the whole replay
    (an election, nominations) and the outcome of a deadline passed but not yet reached by a post
    are the full replay's."""
    replay = GameReplay.of(
        game,
        ruleset,
        posts,
        roster,
        at_post=at_post,
        at_time=at_time,
        resolve=resolve_name,
        timeline=timeline,
    )
    result = replay.memo[day] = DayReplay(replay, day).run(watch=(sorted(watch), seen))
    return result
