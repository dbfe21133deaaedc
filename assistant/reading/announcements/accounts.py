"""The thread's accounts and the seats they hold, found in what the moderator writes."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from assistant.reading.announcements.text import clean_name, squash


class Names:
    """Known accounts → seat name, and a finder for them in free text (whole words,
    case-insensitive)."""

    def __init__(self, seats: Mapping[str, Sequence[str]]):
        self.rebuild(seats)

    def rebuild(self, seats: Mapping[str, Sequence[str]]) -> None:
        """Know the accounts of ``seats`` (all of them again: a seat has gained an account)."""
        self.seat_of: dict[str, str] = {}
        self.spelling: dict[str, str] = {}  # squashed name -> the account as the forum spells it
        for seat, accounts in seats.items():
            for account in accounts:
                self.seat_of.setdefault(account.casefold(), seat)
                self.spelling.setdefault(squash(account), account)
        # "Dwlee" for the account "Dwlee99": the moderator drops an account's trailing digits, when
        # the name left is long enough and only one account shortens to it
        stems: dict[str, list[str]] = {}
        for key, account in self.spelling.items():
            stem = key.rstrip("0123456789")
            if stem != key and len(stem) >= 4 and stem not in self.spelling:
                stems.setdefault(stem, []).append(account)
        self.stems = {stem: found[0] for stem, found in stems.items() if len(found) == 1}
        self.bare = _bare_names(self.seat_of)
        names = sorted([*self.seat_of, *self.bare], key=len, reverse=True)
        self.pattern: re.Pattern[str] | None = (
            re.compile(
                r"(?<![\w])(" + "|".join(re.escape(n) for n in names) + r")(?![\w])", re.IGNORECASE
            )
            if names
            else None
        )

    def find(self, text: str) -> list[tuple[int, int, str]]:
        if self.pattern is None:
            return []
        return [
            (m.start(), m.end(), self.seat_of.get(key) or self.bare[key])
            for m in self.pattern.finditer(text)
            for key in [m.group(1).casefold()]
        ]

    def seat(self, name: str) -> str | None:
        name = clean_name(name)
        found = self.seat_of.get(name.casefold()) or self.bare.get(name.casefold())
        if found is None:
            account = self.spelling.get(squash(name)) or self.stems.get(squash(name))
            found = self.seat_of.get(account.casefold()) if account else None
        return found

    def nickname(self, name: str) -> str | None:
        """The seat whose account alone starts with ``name`` ("Sleepy" for SleepyKrew), four letters
        at least."""
        key = squash(clean_name(name))
        if len(key) < 4:
            return None
        seats = {self.seat_of[a.casefold()] for k, a in self.spelling.items() if k.startswith(key)}
        return seats.pop() if len(seats) == 1 else None

    def spelled(self, name: str) -> str:
        """The account as the forum spells it, for a name the moderator wrote ("HumblePoirot" →
        "Humble Poirot", a slip such as "Prolasped Brain" → "Prolapsed Brain" or "Screenplay" →
        "Srceenplay" when one account alone is that close: one letter off or two swapped; "Dwlee" →
        "Dwlee99", the account without its trailing digits; "Rob13" → "Rob14", the one account that
        differs in its trailing digits)."""
        key = squash(name)
        if key in self.spelling or key in self.stems:
            return self.spelling.get(key) or self.stems[key]
        stem = key.rstrip("0123456789")
        if (
            stem != key and len(stem) >= 3
        ):  # "Rob13" for the account "Rob14": the one account with that stem
            same = [a for k, a in self.spelling.items() if k != k.rstrip("0123456789") == stem]
            if len(same) == 1:
                return same[0]
        if len(key) < 6:
            return name
        from rapidfuzz import fuzz
        from rapidfuzz.distance import OSA

        close = [
            k
            for k in self.spelling
            if len(k) >= 6 and (fuzz.ratio(key, k) >= 90 or OSA.distance(key, k) <= 1)
        ]
        return self.spelling[close[0]] if len(close) == 1 else name


_MARKS = "-_.~*=+^' "


def _bare_names(seat_of: dict[str, str]) -> dict[str, str]:
    """An account written without the marks around it ("Grey" for "-Grey-", "Alder" for
    "_Alder_"): the bare name (casefolded) -> its seat, when no account is that name, it keeps
    three letters and one seat alone has it."""
    found: dict[str, set[str]] = {}
    for account, seat in seat_of.items():
        bare = account.strip(_MARKS)
        if bare != account and len(bare) >= 3 and bare not in seat_of:
            found.setdefault(bare, set()).add(seat)
    return {bare: seats.pop() for bare, seats in found.items() if len(seats) == 1}
