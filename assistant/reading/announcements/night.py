"""A moderator's post of the night: one that tells the day is over and opens no day.

Millers Hollow: "Once day is over, night starts ... flavor text announcing the next day and who
was eaten by the werewolves will occur once all the night time activities are finished". Where the
next day starts with the moderator's post, the post telling the lynch or the night falling is not
that post: a vote cast after it is cast at night. A post telling both (the lynch, then the morning's
dead) opens the day, as does one this reader cannot place (as every moderator post did before).

Each moderator post's reading is stored with it (:mod:`assistant.forum.stored_phases`, whose
``NIGHT_READER_VERSION`` is bumped when :func:`tells_night` reads a post otherwise).
"""

from __future__ import annotations

import re

from assistant.reading.announcements.deaths import KILL_VERB, LYNCH_VERB, NO_LYNCH
from assistant.reading.announcements.phases import (
    _DAY_BUSINESS,
    _MORNING,
    _NO_DEATH,
    BARE_PHASE,
    NIGHT_FALLS,
    NOW_PHASE,
    SHORT_PHASE,
    _conditional,
)
from assistant.reading.announcements.text import plain_text, read_lines

# The day's end told in words: "the village has spoken", "Day 1 is over", "the day has ended".
_DAY_OVER = re.compile(
    r"\b(?:the\s+)?(?:village|town)\s+has\s+spoken\b"
    r"|\bday(?:\s*\d{1,2})?\s+"
    r"(?:is\s+(?:now\s+)?over|has\s+(?:now\s+)?ended|is\s+done|has\s+closed)\b",
    re.IGNORECASE,
)
# "End of Night 1", "Night 2 is over": the night's own end.
_NIGHT_OVER = re.compile(
    r"\bend\s+of\s+(?:the\s+)?night\b"
    r"|\bnight(?:\s*\d{1,2})?\s+(?:is\s+over|has\s+ended|is\s+done)\b",
    re.IGNORECASE,
)
# A night's victim told: the news a morning brings ("found dead", "eaten by the werewolves").
_NIGHT_VICTIM = re.compile(
    r"\bfound\s+(?:\w+\s+)?(?:dead|eaten|killed|murdered|slain|mauled)\b"
    r"|\b(?:was|were|has\s+been|have\s+been)\s+(?:\w+\s+)?(?:eaten|devoured|mauled)\b"
    r"|\b(?:killed|died)\s+(?:in\s+the\s+night|last\s+night|overnight|during\s+the\s+night)\b",
    re.IGNORECASE,
)


def tells_night(body_html: str) -> bool:
    """Whether a moderator's post tells that the day is over (its lynch or no lynch, the night
    falling, "Night 1 begins") and opens no day ("Day 2 begins", the morning, a night's victim)."""
    text = " ".join(plain_text(line) for line in read_lines(body_html))
    if _opens_day(text):
        return False
    if NIGHT_FALLS.search(text) or _names_now(text, "night") or any(
        (m.group(1) or "").lower() == "night" or not (m.group(1) or m.group(2))
        for m in BARE_PHASE.finditer(text)  # "it is now night", "send your night actions"
    ):
        return True
    ended = LYNCH_VERB.search(text) or NO_LYNCH.search(text) or _DAY_OVER.search(text)
    # "see you in the morning!" ends a lynch's story; a morning with the day's business opens one
    morning = _MORNING.search(text) and _DAY_BUSINESS.search(text)
    return bool(ended) and not (morning or _NO_DEATH.search(text))


def _opens_day(text: str) -> bool:
    """"Day 2 begins", "it is now day", "day has begun", the night's end, or a night's victim told
    ("found dead", a death with the morning)."""
    if _names_now(text, "day") or _NIGHT_VICTIM.search(text) or _NIGHT_OVER.search(text):
        return True
    if _MORNING.search(text) and KILL_VERB.search(text):
        return True
    return any(m.group(2) or (m.group(1) or "").lower() == "day" for m in BARE_PHASE.finditer(text))


def _names_now(text: str, kind: str) -> bool:
    """Whether the text says the game is now in a ``kind`` phase ("Night 1 begins", "It is now
    Day 2", "N1 has started"), not as a condition ("when Day 2 begins")."""
    for match in NOW_PHASE.finditer(text):
        named = (match.group(1) or match.group(3) or match.group(5)).lower()
        if named.startswith(kind[0]) and not _conditional(text, match.start()):
            return True
    return any(m.group(1).lower() == kind[0] and not _conditional(text, m.start())
               for m in SHORT_PHASE.finditer(text))
