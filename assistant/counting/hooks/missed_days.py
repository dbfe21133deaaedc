"""Millers Hollow: a player who misses two days of voting in a row is flagged for removal."""

from collections.abc import Iterable, Sequence

from assistant.counting.clock import day_bounds
from assistant.counting.hooks import Hook
from assistant.counting.living import alive_seats
from assistant.counting.votal import Flag


class MissedDays(Hook):
    name = "missed_days"

    def flags(self, living: Sequence[str], voting: Iterable[str], over: bool) -> list[Flag]:
        day, game = self.day, self.day.game
        before = day.number - 1
        if before < 1 or (
            game.day(before) is None and not day_bounds(game, day.ruleset, before).start
        ):
            return []
        jailed = {
            d: {p for n, p in game.private.sequestered if n == d} for d in (before, day.number)
        }
        missed_before = (
            set(alive_seats(game, before))
            - jailed[before]
            - set(day.earlier(before).voted_at_deadline)
        )
        voted = day.voted_at_deadline if over else frozenset(voting)
        found = []
        for seat in living:
            if seat in missed_before and seat not in voted and seat not in jailed[day.number]:
                if over:
                    found.append(Flag(seat, "missed two days of voting in a row: removal"))
                else:
                    found.append(
                        Flag(seat, f"missed the day {before} vote and has not voted today")
                    )
        return found


HOOK = MissedDays
