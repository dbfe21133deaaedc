"""Witchhunt's Loose Cannon: "before a lynch vote is decided" ("before time is up"), while alive, he
kills himself to decide it (``[private] loose_cannon``, ``[[private.decisions]] loose_cannon`` with
the ``post`` he acted in). "Sacrifice yourself to end the day": a decision with a post ends the day
at that post, so later votes count for nothing. His pick is a living player ("Target – Any unique
currently living player"), or "none" only where the rules have a vote for no elimination (Witchhunt
9.0: "Is 'None' a valid target option? No"). A decision after the day was decided (majority,
unanimous minus one, the deadline), by a holder already dead, or naming no valid target changes
nothing and is noted for the moderator."""

from assistant.counting.hooks import DayPhase, Decision, Hook
from assistant.counting.powers import alive, decision, loose_cannon_lost
from assistant.gamefile.game import EventKind
from assistant.gamefile.outcome import Kind, Outcome, Reason

# the day decided by the votes themselves, at a post: a shot must come before it
VOTED = (Reason.MAJORITY, Reason.UNANIMOUS_MINUS_ONE, Reason.NO_POSSIBLE_TIE)


class LooseCannon(Hook):
    name = "loose_cannon"

    def at_post(self, post: int | None) -> None:
        found = decision(self.day, "loose_cannon")
        if self.day.outcome is not None or self.day.phase is not DayPhase.DAY:
            return  # decided already: settle notes that the shot came too late
        if (
            post is None
            or found is None
            or found.post is None
            or post < found.post
            or self.invalid(found)
        ):
            return  # an invalid decision is noted when the day is settled
        self.day.end_day(self.decided(found, found.post))

    def settle(self, outcome: Outcome) -> Outcome:
        found = decision(self.day, "loose_cannon")
        if found is None or outcome.reason == Reason.LOOSE_CANNON:
            return outcome
        day, acted = self.day, found.post
        why = self.invalid(found)
        if why is None and acted is not None and outcome.post is not None and acted > outcome.post:
            why = f"came after the day was decided (post {outcome.post})"
        if why is not None:
            day.note(
                f"the Loose Cannon's decision{'' if acted is None else f' at post {acted}'} {why}: "
                "it does not count"
            )
            return outcome
        if acted is None and outcome.reason in VOTED and outcome.post is not None:
            # the moderator's record wins, but "before a lynch vote is decided" cannot be checked
            # without a post
            day.note(
                f"the Loose Cannon's decision has no post: taken as made before the vote decided the day at "
                f"post {outcome.post} (record its post to check)"
            )
        ended = [
            e.post
            for e in day.game.events
            if e.day == day.number and e.kind == EventKind.EARLY_END and e.post
        ]
        return self.decided(
            found, acted if acted is not None else ended[0] if ended else outcome.post
        )

    def invalid(self, found: Decision) -> str | None:
        """Why the decision cannot count, or None: the power must be his as he acts (alive: his own
        shot kills him at that post; not used on an earlier day), and the pick a living player (or
        "none" where the rules have that vote)."""
        day = self.day
        before = found.post - 1 if found.post is not None else day.bounds.start_post
        lost = loose_cannon_lost(day, -1 if before is None else before)
        if lost is not None:
            return f"was made when {lost}"
        if found.pick == "none":
            return (
                None
                if day.ruleset.no_elimination_vote
                else "names no one, and no one is not a target here"
            )
        if not alive(day, found.pick, found.post):
            return f"names {found.pick}, not a living player"
        return None

    def decided(self, found: Decision, post: int | None) -> Outcome:
        self.day.note(
            f"the Loose Cannon decided the {self.day.ruleset.elimination_word}: {found.pick}"
        )
        if found.pick == "none":
            return Outcome(Kind.NO_ELIMINATION, None, post, Reason.LOOSE_CANNON)
        return Outcome(Kind.ELIMINATION, found.pick, post, Reason.LOOSE_CANNON)


HOOK = LooseCannon
