"""Millers Hollow's Lovers "can never vote for each other in the lynching votes" (``[private]
lovers``). Such a vote reads as ruled out by the moderator: nothing players see tells them who the
lovers are."""

from assistant.counting.hooks import DayView, Hook, Verdict


class Lovers(Hook):
    name = "lovers"

    def __init__(self, day: DayView) -> None:
        super().__init__(day)
        self.partners: dict[str, set[str]] = {}
        for pair in day.game.private.lovers:
            for a in pair:
                self.partners.setdefault(a, set()).update(b for b in pair if b != a)

    def check_vote(self, seat: str, target: str | None, action: str, post: int) -> Verdict | None:
        if target in self.partners.get(seat, ()):
            return Verdict(
                False,
                f"{seat} and {target} are lovers and may not vote for each other",
                private=True,
            )
        return None


HOOK = Lovers
