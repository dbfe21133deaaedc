"""Extra lives and survivals (Witchhunt): "An extra life will make any kill fail", and a lynch is a
kill.

A seat's extra lives are ``[private] extra_lives`` (listed once per life); each survival recorded in
the game file's public ``[[survivals]]`` before this day spent one. A lynch of a seat with a life
left fails, and so does one the moderator records as survived (``[[survivals]]`` with phase "day
N"): the day ends with no one eliminated and the survivor named, as "all kills are publicly
announced". A Judge whose rules say the pick ignores extra lives (``[deadline]
judge_ignores_extra_lives``) is not stopped by one.
"""

from assistant.counting.hooks import Hook
from assistant.gamefile.choices import PhaseKind
from assistant.gamefile.game import Survival
from assistant.gamefile.outcome import Kind, Outcome, Reason


class ExtraLives(Hook):
    name = "extra_lives"

    def settle(self, outcome: Outcome) -> Outcome:
        if outcome.kind != Kind.ELIMINATION or outcome.target is None:
            return outcome
        game, day, target = self.day.game, self.day.number, outcome.target
        recorded = any(
            s.player == target and s.phase == PhaseKind.DAY and s.phase_number == day
            for s in game.survivals
        )
        if not recorded:
            if outcome.reason == Reason.JUDGE and self.day.ruleset.judge_ignores_extra_lives:
                return outcome
            spent = sum(1 for s in game.survivals if s.player == target and _before(s, day))
            if game.private.extra_lives.count(target) <= spent:
                return outcome
            self.day.note(
                f"{target} has an extra life: survives the {self.day.ruleset.elimination_word}"
            )
        return Outcome(Kind.NO_ELIMINATION, None, outcome.post, outcome.reason, survived=target)


def _before(survival: Survival, day: int) -> bool:
    """Whether a survival came before day ``day``'s vote (night N comes after day N)."""
    return survival.phase_number < day


HOOK = ExtraLives
