"""Witchhunt's Loose Cannon: "before a lynch vote is decided" ("before time is up"), while alive, he kills
himself to decide it (``[private] loose_cannon``, ``[[private.decisions]] loose_cannon`` with the ``post`` he
acted in). "Sacrifice yourself to end the day": a decision with a post ends the day at that post, so later
votes count for nothing. A decision after the day was decided (majority, unanimous minus one, the deadline)
or by a holder already dead changes nothing and is noted for the moderator."""

from assistant.hooks import Decision, Hook
from assistant.outcome import Kind, Outcome, Reason


class LooseCannon(Hook):
    name = "loose_cannon"

    def at_post(self, post: int | None) -> None:
        found = self.decision("loose_cannon")
        if self.day.outcome is not None or self.day.phase != "day":
            return  # decided already: settle notes that the shot came too late
        if post is None or found is None or found.post is None or post < found.post or not self.alive(found):
            return  # an invalid decision is noted when the day is settled
        self.day.end_day(self.decided(found, found.post))

    def settle(self, outcome: Outcome) -> Outcome:
        found = self.decision("loose_cannon")
        if found is None or outcome.reason == Reason.LOOSE_CANNON:
            return outcome
        day = self.day
        if not self.alive(found):
            day.note(f"the Loose Cannon ({day.game.private.loose_cannon}) was dead when the decision was recorded: "
                     "it does not count")
            return outcome
        acted = found.post
        if acted is not None and outcome.post is not None and acted > outcome.post:
            day.note(f"the Loose Cannon's decision at post {acted} came after the day was decided "
                     f"(post {outcome.post}): it does not count")
            return outcome
        ended = [e.post for e in day.game.events if e.day == day.number and e.kind == "early_end" and e.post]
        return self.decided(found, acted if acted is not None else ended[0] if ended else outcome.post)

    def alive(self, found: Decision) -> bool:
        """Whether the holder was alive when he acted (his own shot kills him at that post)."""
        day, holder = self.day, self.day.game.private.loose_cannon
        before = found.post - 1 if found.post is not None else day.bounds.start_post
        return holder is None or holder in day.living(-1 if before is None else before)

    def decided(self, found: Decision, post: int | None) -> Outcome:
        self.day.note(f"the Loose Cannon decided the {self.day.ruleset.elimination_word}: {found.pick}")
        if found.pick == "none":
            return Outcome(Kind.NO_ELIMINATION, None, post, Reason.LOOSE_CANNON)
        return Outcome(Kind.ELIMINATION, found.pick, post, Reason.LOOSE_CANNON)


HOOK = LooseCannon
