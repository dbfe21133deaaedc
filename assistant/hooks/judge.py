"""The Judge (Witch Hunt): when the rules defer a failed day ("no majority", a sleep majority), the Judge's
recorded pick decides it; a dead Judge means no one is eliminated (``[private] judge``, ``decisions``)."""

from assistant.hooks import Hook
from assistant.outcome import Kind, Outcome, Reason

DEFERRED = (Reason.NO_MAJORITY, Reason.SLEEP_MAJORITY)


class Judge(Hook):
    name = "judge"

    def settle(self, outcome: Outcome) -> Outcome:
        if outcome.kind != Kind.PENDING or outcome.reason not in DEFERRED:
            return outcome
        judge, pick = self.day.game.private.judge, self.decision("judge")
        if judge is not None and judge not in self.day.living(None):
            self.day.note(f"the Judge ({judge}) is dead: no one is eliminated")
            return Outcome(Kind.NO_ELIMINATION, None, outcome.post, outcome.reason)
        if pick is not None:
            self.day.note(f"the Judge ({judge or 'not named'}) decided: {pick}")
            if pick == "none":
                return Outcome(Kind.NO_ELIMINATION, None, outcome.post, Reason.JUDGE)
            return Outcome(Kind.ELIMINATION, pick, outcome.post, Reason.JUDGE)
        if judge is None and self.day.ruleset.judge_unnamed == "no_elimination":
            reason = Reason.DEADLINE if outcome.reason == Reason.NO_MAJORITY else outcome.reason
            return Outcome(Kind.NO_ELIMINATION, None, outcome.post, reason)
        return outcome


HOOK = Judge
