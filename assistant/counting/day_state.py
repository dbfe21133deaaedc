"""One day's replay state and the count over it: :class:`DayState`, what the day's vote has come to
(the one mutable record of a day's replay, owned by
:class:`assistant.counting.day_replay.DayReplay`, moved by its parts), and :class:`DayCount`, who is
alive and whose votes count for whom at what weight, which reads it and never moves it.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from assistant.counting.hooks import DayPhase, Hooked
from assistant.counting.living import alive_seats, change_posts
from assistant.counting.votal import Action, NoEliminationCount, Problem, Wagon, rank_wagons
from assistant.counting.votes import Vote, VoteBook
from assistant.gamefile.game import Game
from assistant.gamefile.outcome import Outcome
from assistant.gamefile.rules import Ruleset, Standing


@dataclass(slots=True, eq=False)
class DayState:
    """What a day's vote has come to so far. The commands move the book and add actions and
    problems; the decider sets the phase and the outcome; a hook may do either (its moves are said
    in ``changed``)."""

    book: VoteBook
    actions: list[Action] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(
        default_factory=list
    )  # moderator-only lines: why a private fact changed something
    changed: bool = False  # whether a vote changed since the count was last decided
    phase: DayPhase = DayPhase.DAY
    outcome: Outcome | None = None
    final_votes: dict[str, list[Vote]] | None = None  # the votes standing when the vote ended early
    lynched: list[Outcome] = field(
        default_factory=list
    )  # earlier lynches of a day with lynches_per_day > 1

    def add_problem(self, post: int, voter: str, text: str, reason: str) -> None:
        self.problems.append(Problem(post, voter, text, reason))

    def note(self, text: str) -> None:
        self.notes.append(text)


class DayCount:
    """The day's count as the state stands: the living, the voters and targets the hooks allow, each
    vote's weight, and the :class:`Standing` the rules decide on."""

    def __init__(
        self,
        game: Game,
        ruleset: Ruleset,
        number: int,
        start_post: int | None,
        state: DayState,
        hooked: Hooked,
    ):
        self.game, self.ruleset, self.number, self.start_post = game, ruleset, number, start_post
        self.book, self.lynched, self.hooked = (
            state.book,
            state.lynched,
            hooked,
        )  # the state's, read only
        # A split seat's votes count one each; its whole weight is what it may place (``capacity``).
        self.weights = {
            s.name: 1.0 if s.split_votes > 1 else float(s.vote_weight) for s in game.players
        }
        self.capacity = {s.name: float(s.split_votes) for s in game.players if s.split_votes > 1}
        self.kill_posts = change_posts(game)
        self.living_cache: dict[int | None, tuple[str, ...]] = {}

    def living(self, at_post: int | None) -> tuple[str, ...]:
        """The living seats as of ``at_post`` (None: at the day's end, day kills included)."""
        # Asked at every post of a long day; the answer changes only at a day kill's post.
        key = None if at_post is None else bisect_right(self.kill_posts, at_post)
        if key not in self.living_cache:
            self.living_cache[key] = alive_seats(self.game, self.number, at_post=at_post)
        living = self.living_cache[key]
        if (
            self.lynched
        ):  # a first lynch of the day: dead from its post on (the majority is recomputed)
            gone = {
                o.target
                for o in self.lynched
                if at_post is None or o.post is None or o.post <= at_post
            }
            living = tuple(s for s in living if s not in gone)
        return living

    def voters(self, living: Sequence[str]) -> list[str]:
        """The seats whose votes count now: the living, as the hooks amend them."""
        seats = list(living)
        for hook in self.hooked.voters:
            seats = hook(seats, living)
        return seats

    def targets(self, living: Sequence[str]) -> set[str]:
        """The seats that may be voted off now: the living, as the hooks amend them."""
        seats = set(living)
        for hook in self.hooked.targets:
            seats = hook(seats)
        return seats

    def weight(self, seat: str, post: int | None) -> float:
        weight = self.weights.get(seat, 1.0)
        for hook in self.hooked.weight:
            weight = hook(seat, post, weight)
        return weight

    def weigher(self, post: int | None) -> Callable[[str], float]:
        """A seat's vote weight at ``post``, as a one-argument function (a plain lookup when no hook
        weighs)."""
        if not self.hooked.weight:
            weights = self.weights
            return lambda seat: weights.get(seat, 1.0)
        return lambda seat: self.weight(seat, post)

    def tally(
        self, living: Sequence[str], post: int | None
    ) -> tuple[tuple[Wagon, ...], NoEliminationCount, list[str], set[str]]:
        voters = self.voters(living)
        allowed = set(voters)
        targets = self.targets(living)
        by_target: dict[str | None, list[tuple[tuple[int, int], str]]] = {}
        for voter, votes in self.book.held.items():
            if voter not in allowed:
                continue
            for vote in votes:
                if vote.target is None or vote.target in targets:
                    by_target.setdefault(vote.target, []).append((vote.order, voter))
        wagons, no_elim = rank_wagons(by_target, self.weigher(post))
        voting = {v for cast in by_target.values() for _, v in cast}
        return wagons, no_elim, voters, voting

    def standing(self, post: int | None) -> Standing:
        living = self.living(post if post is not None else self.start_post)
        wagons, no_elim, voters, voting = self.tally(living, post)
        weight = self.weigher(post)
        standing = Standing(
            post=post,
            majority=self.ruleset.majority_for(len(living)),
            wagons=tuple((w.target, w.votes, len(w.voters)) for w in wagons),
            no_elimination=no_elim.votes,
            voters=len(voters),
            undecided=sum(map(weight, (v for v in voters if v not in voting)))
            + self.unplaced(voters),
            no_elimination_voters=len(no_elim.voters),
            eligible=sum(self.capacity.get(v, weight(v)) for v in voters),
        )
        for hook in self.hooked.standing:
            standing = hook(standing)
        return standing

    def unplaced(self, voters: Sequence[str]) -> float:
        """Votes a split doublevoter holds but has not placed yet (it is partly undecided)."""
        held = self.book.held
        return sum(
            max(0, room - len(held.get(v, ())))
            for v, room in self.capacity.items()
            if v in voters and held.get(v)
        )

    def would_hammer(self, seat: str, post: int) -> bool:
        """Whether ``seat``'s vote on itself would give its own wagon a majority now."""
        standing = self.standing(post)
        votes = next((w[1] for w in standing.wagons if w[0] == seat), 0)
        return (
            standing.majority is not None and votes + self.weight(seat, post) >= standing.majority
        )
