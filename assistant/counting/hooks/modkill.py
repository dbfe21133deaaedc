"""A mod-kill that uses the town's hanging (Witchhunt Online 2.0.1, Behavior Rules: "make it use the
daily hanging for the town either on that day or the one that immediately follows").

``[[events]] kind = "modkill"`` on the day whose hanging it takes: the day ends at the event's post
(the clock ends it there) and its outcome is the mod-kill, whatever the votes say. A seat already
dead when that day's hanging is taken (killed the day before) leaves the day with no one hanged.
"""

from assistant.counting.hooks import Hook
from assistant.gamefile.game import EventKind
from assistant.gamefile.outcome import Kind, Outcome, Reason


class Modkill(Hook):
    name = "modkill"

    def settle(self, outcome: Outcome) -> Outcome:
        event = next(
            (
                e
                for e in self.day.game.events
                if e.day == self.day.number and e.kind == EventKind.MODKILL
            ),
            None,
        )
        if event is None:
            return outcome
        post = event.post if event.post is not None else outcome.post
        if event.player in self.day.living(post - 1 if post else self.day.bounds.start_post):
            return Outcome(Kind.ELIMINATION, event.player, post, Reason.MODKILL)
        return Outcome(Kind.NO_ELIMINATION, None, post, Reason.MODKILL)


HOOK = Modkill
