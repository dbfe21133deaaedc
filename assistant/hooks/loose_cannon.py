"""Witchhunt's Loose Cannon: kills himself "before a lynch vote is decided" to decide it
(``[private] loose_cannon``, ``[[private.decisions]] loose_cannon``)."""

from assistant.hooks import Hook
from assistant.outcome import Kind, Outcome, Reason


class LooseCannon(Hook):
    name = "loose_cannon"

    def settle(self, outcome: Outcome) -> Outcome:
        pick = self.decision("loose_cannon")
        if pick is None:
            return outcome
        day = self.day
        ended = [e.post for e in day.game.events if e.day == day.number and e.kind == "early_end" and e.post]
        post = ended[0] if ended else outcome.post
        day.note(f"the Loose Cannon decided the {day.ruleset.elimination_word}: {pick}")
        if pick == "none":
            return Outcome(Kind.NO_ELIMINATION, None, post, Reason.LOOSE_CANNON)
        return Outcome(Kind.ELIMINATION, pick, post, Reason.LOOSE_CANNON)


HOOK = LooseCannon
