"""Millers Hollow's Magistrate: a sequestered player "cannot vote ... but can not be lynched" that
day (``[[private.sequestered]]``). Both read as ruled out by the moderator: the page never says who
is jailed."""

from collections.abc import Sequence

from assistant.counting.hooks import DayView, Hook, Verdict


class Sequestered(Hook):
    name = "sequestered"

    def __init__(self, day: DayView) -> None:
        super().__init__(day)
        self.seats = frozenset(p for d, p in day.game.private.sequestered if d == day.number)

    def check_voter(self, seat: str, alive: bool, verdict: Verdict) -> Verdict:
        if alive and seat in self.seats:
            return Verdict(False, f"{seat} is sequestered and cannot vote", private=True)
        return verdict

    def check_vote(self, seat: str, target: str | None, action: str, post: int) -> Verdict | None:
        if target in self.seats:
            return Verdict(False, f"{target} is sequestered and cannot be lynched", private=True)
        return None

    def voters(self, seats: list[str], living: Sequence[str]) -> list[str]:
        return [s for s in seats if s not in self.seats]

    def targets(self, seats: set[str]) -> set[str]:
        return seats - self.seats


HOOK = Sequestered
