"""Millers Hollow's Sheriff: "the sheriff's vote counts as two" (``[private] sheriff``)."""

from assistant.hooks import Hook


class Sheriff(Hook):
    name = "sheriff"

    def weight(self, seat: str, post: int | None, weight: float) -> float:
        return weight * 2 if seat == self.day.game.private.sheriff else weight


HOOK = Sheriff
