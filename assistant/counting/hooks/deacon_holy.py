"""Witchhunt 9.0's Deacon: while the Deacon lives (at the lynch's post), a Holy Villager (the Deacon
among them) survives a lynch (``[private] deacon``, ``holy``). The survival is public; who the
Deacon is never is."""

from assistant.counting.hooks import Hook
from assistant.gamefile.outcome import Kind, Outcome


class DeaconHoly(Hook):
    name = "deacon_holy"

    def settle(self, outcome: Outcome) -> Outcome:
        private = self.day.game.private
        # "Which characters are Holy? The ones with the gold cards: Priest, Acolyte, Bishop, Nun,
        # King, and Deacon": the Deacon is a Holy Villager himself, listed in `holy` or not.
        holy = (*private.holy, private.deacon)
        if outcome.kind != Kind.ELIMINATION or private.deacon is None or outcome.target not in holy:
            return outcome
        if private.deacon not in self.day.living(
            outcome.post
        ):  # "as long as you are alive": at the lynch
            return outcome
        self.day.note(
            f"the Deacon ({private.deacon}) is alive and {outcome.target} is holy: survives"
        )
        return Outcome(
            Kind.NO_ELIMINATION, None, outcome.post, outcome.reason, survived=outcome.target
        )


HOOK = DeaconHoly
