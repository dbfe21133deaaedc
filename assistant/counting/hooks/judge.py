"""The Judge (Witch Hunt): when the rules defer a failed day ("no majority", a sleep majority), the
Judge's recorded pick decides it, and it must be a living player (``[private] judge``,
``[[private.decisions]] judge``).

Who decides is asked of :func:`assistant.counting.powers.judge_holder` as of the day's end (never
past the replay's point): "If the Judge is dead or declines Judgment, no one is eliminated" (Witch
Hunt 2023, Witchhunt Online 2.0.1; Witchhunt 9.0: dead players "may no longer utilize their
character abilities"), unless the ruleset lets a stand-in decide in the dead Judge's place
(``judge_stand_ins``: the 2023 Apprentice who chose the Judge, the Peeping Tom observing the Judge)
and that stand-in is alive. A stand-in decides only once the Judge is dead: a decision recorded at a
post where the Judge still lived was the Judge's own, queued, and a dead Judge's queued decision
counts for nothing (the stand-in may still decide)."""

from assistant.counting.hooks import Decision, Hook
from assistant.counting.powers import alive, decision, judge_holder
from assistant.gamefile.choices import JudgeUnnamed
from assistant.gamefile.outcome import Kind, Outcome, Reason

DEFERRED = (Reason.NO_MAJORITY, Reason.SLEEP_MAJORITY)


class Judge(Hook):
    name = "judge"

    def settle(self, outcome: Outcome) -> Outcome:
        if outcome.kind != Kind.PENDING or outcome.reason not in DEFERRED:
            return outcome
        day, judge = self.day, self.day.game.private.judge
        found = decision(self.day, "judge")
        if judge is None:  # the moderator recorded the pick without naming the Judge
            if found is not None:
                return self.decided(outcome, found, "not named")
            if day.ruleset.judge_unnamed == JudgeUnnamed.NO_ELIMINATION:
                reason = Reason.DEADLINE if outcome.reason == Reason.NO_MAJORITY else outcome.reason
                return Outcome(Kind.NO_ELIMINATION, None, outcome.post, reason)
            return outcome
        # the deferral happens at the day's end: the Judge (or a stand-in) killed during the day is
        # dead by then
        holder = judge_holder(day, day.bounds.end_post)
        if holder is None:
            day.note(f"the Judge ({judge}) is dead: no one is eliminated")
            return Outcome(Kind.NO_ELIMINATION, None, outcome.post, outcome.reason)
        if holder.instead_of is None:
            return outcome if found is None else self.decided(outcome, found, judge)
        if found is not None and found.post is not None and alive(day, judge, found.post):
            day.note(
                f"the Judge's decision at post {found.post} was made while the Judge ({judge}) lived, and the "
                f"Judge is dead at the day's end: it does not count ({holder.seat} may decide in the Judge's "
                "place)"
            )
            return outcome
        if found is None:
            day.note(f"the Judge ({judge}) is dead: {holder.seat} may decide in the Judge's place")
            return outcome
        return self.decided(outcome, found, f"{holder.seat}, in the dead Judge's ({judge}) place")

    def decided(self, outcome: Outcome, found: Decision, decider: str) -> Outcome:
        """The day as the recorded pick decides it: a living player, or "none" (the Judge
        declines)."""
        day = self.day
        if found.pick != "none" and not alive(day, found.pick, day.bounds.end_post):
            day.note(
                f"the recorded Judge's pick {found.pick} is not a living player: not a valid decision"
            )
            return outcome
        day.note(f"the Judge ({decider}) decided: {found.pick}")
        if found.pick == "none":
            return Outcome(Kind.NO_ELIMINATION, None, outcome.post, Reason.JUDGE)
        return Outcome(Kind.ELIMINATION, found.pick, outcome.post, Reason.JUDGE)


HOOK = Judge
