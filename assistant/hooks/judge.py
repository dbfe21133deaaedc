"""The Judge (Witch Hunt): when the rules defer a failed day ("no majority", a sleep majority), the Judge's
recorded pick decides it, and it must be a living player. A dead Judge means no one is eliminated, unless the
ruleset lets a stand-in decide in the Judge's place (``judge_stand_ins``: the 2023 Apprentice, the Peeping
Tom) and that stand-in, named in ``[private]``, is alive (``[private] judge``, ``[[private.decisions]] judge``)."""

from assistant.hooks import Hook
from assistant.outcome import Kind, Outcome, Reason

DEFERRED = (Reason.NO_MAJORITY, Reason.SLEEP_MAJORITY)


class Judge(Hook):
    name = "judge"

    def settle(self, outcome: Outcome) -> Outcome:
        if outcome.kind != Kind.PENDING or outcome.reason not in DEFERRED:
            return outcome
        day, private = self.day, self.day.game.private
        living = day.living(None)
        judge, found = private.judge, self.decision("judge")
        decider, stand_in = judge or "not named", None
        if judge is not None and judge not in living:
            stand_ins = [getattr(private, role) for role in day.ruleset.judge_stand_ins]
            stand_in = next((seat for seat in stand_ins if seat is not None and seat in living), None)
            if stand_in is None:
                day.note(f"the Judge ({judge}) is dead: no one is eliminated")
                return Outcome(Kind.NO_ELIMINATION, None, outcome.post, outcome.reason)
            decider = f"{stand_in}, in the dead Judge's ({judge}) place"
        if found is not None:
            if found.pick != "none" and found.pick not in living:
                day.note(f"the recorded Judge's pick {found.pick} is not a living player: not a valid decision")
                return outcome
            day.note(f"the Judge ({decider}) decided: {found.pick}")
            if found.pick == "none":
                return Outcome(Kind.NO_ELIMINATION, None, outcome.post, Reason.JUDGE)
            return Outcome(Kind.ELIMINATION, found.pick, outcome.post, Reason.JUDGE)
        if stand_in is not None:
            day.note(f"the Judge ({judge}) is dead: {stand_in} may decide in the Judge's place")
        if judge is None and day.ruleset.judge_unnamed == "no_elimination":
            reason = Reason.DEADLINE if outcome.reason == Reason.NO_MAJORITY else outcome.reason
            return Outcome(Kind.NO_ELIMINATION, None, outcome.post, reason)
        return outcome


HOOK = Judge
