"""Witchhunt's Loose Cannon: "before a lynch vote is decided" ("before time is up"), while alive, he kills
himself to decide it (``[private] loose_cannon``, ``[[private.decisions]] loose_cannon`` with the ``post`` he
acted in). A decision after the day was decided (majority, unanimous minus one, the deadline) or by a holder
already dead changes nothing and is noted for the moderator."""

from assistant.hooks import Hook
from assistant.outcome import Kind, Outcome, Reason


class LooseCannon(Hook):
    name = "loose_cannon"

    def settle(self, outcome: Outcome) -> Outcome:
        found = self.decision("loose_cannon")
        if found is None:
            return outcome
        day, holder = self.day, self.day.game.private.loose_cannon
        acted = found.post
        before = acted - 1 if acted is not None else day.bounds.start_post  # alive until his own shot
        if holder is not None and holder not in day.living(-1 if before is None else before):
            day.note(f"the Loose Cannon ({holder}) was dead when the decision was recorded: it does not count")
            return outcome
        if acted is not None and outcome.post is not None and acted > outcome.post:
            day.note(f"the Loose Cannon's decision at post {acted} came after the day was decided "
                     f"(post {outcome.post}): it does not count")
            return outcome
        ended = [e.post for e in day.game.events if e.day == day.number and e.kind == "early_end" and e.post]
        post = acted if acted is not None else ended[0] if ended else outcome.post
        day.note(f"the Loose Cannon decided the {day.ruleset.elimination_word}: {found.pick}")
        if found.pick == "none":
            return Outcome(Kind.NO_ELIMINATION, None, post, Reason.LOOSE_CANNON)
        return Outcome(Kind.ELIMINATION, found.pick, post, Reason.LOOSE_CANNON)


HOOK = LooseCannon
