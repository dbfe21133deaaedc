"""Clocktower-style nominations: a living player's first vote for someone not yet nominated
nominates them (one nomination per nominator, one per nominee a day; the dead cannot nominate).
``[[events]] kind = "nominate"`` records one the thread missed. Adds ``nominations`` to the votal. A
declared early end (``[[events]] kind = "early_end"``) executes the leader for reason
``no_possible_tie``."""

from dataclasses import replace
from typing import Any

from assistant.counting.hooks import DayView, Hook, Verdict
from assistant.counting.votal import Action, Nomination
from assistant.gamefile.game import EventKind
from assistant.gamefile.outcome import Outcome, Reason
from assistant.gamefile.rules import Standing
from assistant.reading.names import Step


class Clocktower(Hook):
    name = "clocktower"

    def __init__(self, day: DayView) -> None:
        super().__init__(day)
        self.nominations: list[tuple[str, str, int]] = []  # (nominator, nominee, post)

    def nominated(self, seat: str) -> bool:
        return any(nominee == seat for _, nominee, _ in self.nominations)

    def check_vote(self, seat: str, target: str | None, action: str, post: int) -> Verdict | None:
        if target is None:
            return None
        if self.nominated(target):
            return (
                Verdict(False, "already nominated today", problem=True)
                if action == "nominate"
                else None
            )
        if seat not in self.day.living(post):
            return Verdict(False, "not nominated (the dead cannot nominate)", problem=True)
        if any(nominator == seat for nominator, _, _ in self.nominations):
            return Verdict(False, "not nominated, and the voter has nominated today", problem=True)
        self.nominations.append((seat, target, post))
        return Verdict(nomination=True)

    def at_post(self, post: int | None) -> None:
        """The moderator's word that ``player`` nominated ``target`` at ``post`` (a nomination is a
        first vote, so the nominator's vote on the nominee stands too)."""
        day = self.day
        seats = {a.casefold(): s.name for s in day.game.players for a in (*s.accounts, *s.aliases)}
        for event in day.game.events:
            if event.day != day.number or event.kind != EventKind.NOMINATE or event.post != post:
                continue
            nominee = seats.get((event.target or "").casefold())
            if event.player is None or nominee is None or self.nominated(nominee):
                continue
            at = post if post is not None else (day.bounds.start_post or 0)
            self.nominations.append((event.player, nominee, at))
            alive = event.player in day.living(post)
            if alive:
                day.book.vote(event.player, nominee, (at, -1))
                day.changed = True
            # In the audit trail too, so that the vote log and the timeline replay to the same
            # wagons.
            day.actions.append(
                Action(
                    post=at,
                    voter=event.player,
                    author=event.player,
                    text=f"nominated {nominee} (recorded by the moderator)",
                    action="nominate",
                    target=nominee,
                    no_elimination=False,
                    step=Step.DECLARED,
                    counted=alive,
                    why_not=None if alive else "voter is dead",
                    nomination=True,
                )
            )

    def standing(self, standing: Standing) -> Standing:
        at = standing.post if standing.post is not None else self.day.bounds.start_post
        living = self.day.living(at)
        nominators = {nominator for nominator, _, _ in self.nominations}
        left = any(not self.nominated(s) for s in self.day.targets(living)) and any(
            s not in nominators for s in living
        )
        return replace(standing, nominations_left=left)

    def settle(self, outcome: Outcome) -> Outcome:
        """An early end the Storyteller declared ([[events]] kind = "early_end") ended voting before
        the deadline: the leader is executed because no remaining vote could tie or pass them, not
        at the deadline."""
        day = self.day
        declared = any(
            e.day == day.number and e.kind == EventKind.EARLY_END and e.post == day.bounds.end_post
            for e in day.game.events
        )
        if declared and outcome.reason == Reason.PLURALITY and day.bounds.end_post is not None:
            return replace(outcome, reason=Reason.NO_POSSIBLE_TIE)
        return outcome

    def votal(self, fields: dict[str, Any]) -> None:
        wagons = {w.target: w for w in fields["wagons"]}
        fields["nominations"] = tuple(
            Nomination(
                nominator,
                nominee,
                post,
                wagons[nominee].votes if nominee in wagons else 0,
                wagons[nominee].voters if nominee in wagons else (),
            )
            for nominator, nominee, post in self.nominations
        )


HOOK = Clocktower
