"""Clocktower's "Dead players: one vote": a dead player may vote once more in the game (their
token), and spends it by ending a day voting for a player; a player killed during the day keeps at
most one vote."""

from collections.abc import Sequence

from assistant.counting.hooks import DayView, Hook, Verdict
from assistant.counting.living import alive_seats


class DeadVoteToken(Hook):
    name = "dead_vote_token"

    def __init__(self, day: DayView) -> None:
        super().__init__(day)
        self.spent = self.spent_tokens()

    def spent_tokens(self) -> frozenset[str]:
        """Dead seats that ended an earlier day voting a player: their token is spent."""
        spent: set[str] = set()
        game = self.day.game
        for earlier in range(1, self.day.number):
            living_then = set(alive_seats(game, earlier))
            for voter, votes in self.day.earlier(earlier).final_votes.items():
                if voter not in living_then and any(v.target is not None for v in votes):
                    spent.add(voter)
        return frozenset(spent)

    def check_voter(self, seat: str, alive: bool, verdict: Verdict) -> Verdict:
        if alive:
            return verdict
        if seat in self.spent:
            return Verdict(False, "voter is dead and has spent their vote token", problem=True)
        return Verdict()

    def on_death(self, seat: str, post: int) -> None:
        """ "Dead players: can only vote on once": a player killed during the day keeps the first of
        their votes."""
        self.day.book.keep_one(seat, post)
        self.day.changed = True

    def voters(self, seats: list[str], living: Sequence[str]) -> list[str]:
        dead = [
            s.name
            for s in self.day.game.players
            if s.name not in living and s.name not in self.spent
        ]
        return [*seats, *dead]


HOOK = DeadVoteToken
