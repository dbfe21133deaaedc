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
from assistant.reading.announcements.phase_words import (
    BARE,
    NOW,
    Phase,
    Wording,
    names_phase,
    phase_words,
)
from assistant.reading.announcements.phases import _DAY_BUSINESS, _MORNING, _NO_DEATH, _conditional
from assistant.reading.announcements.text import plain_text, read_lines

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
    if (
        names_phase(text, Wording.NIGHT_FALLS)
        or _names_now(text, Phase.NIGHT)
        or any(
            # "it is now night", "send your night actions"
            w.phase is Phase.NIGHT
            for w in phase_words(text, BARE)
        )
    ):
        return True
    ended = LYNCH_VERB.search(text) or NO_LYNCH.search(text) or names_phase(text, Wording.DAY_OVER)
    # "see you in the morning!" ends a lynch's story; a morning with the day's business opens one
    morning = _MORNING.search(text) and _DAY_BUSINESS.search(text)
    return bool(ended) and not (morning or _NO_DEATH.search(text))


def _opens_day(text: str) -> bool:
    """ "Day 2 begins", "it is now day", "day has begun", the night's end, or a night's victim told
    ("found dead", a death with the morning)."""
    if (
        _names_now(text, Phase.DAY)
        or _NIGHT_VICTIM.search(text)
        or names_phase(text, Wording.NIGHT_OVER)
    ):
        return True
    if _MORNING.search(text) and KILL_VERB.search(text):
        return True
    return any(w.phase is Phase.DAY for w in phase_words(text, BARE))


def _names_now(text: str, phase: Phase) -> bool:
    """Whether the text says the game is now in that phase ("Night 1 begins", "It is now Day 2",
    "N1 has started"), not as a condition ("when Day 2 begins")."""
    return any(
        w.phase is phase and not _conditional(text, w.start)
        for wordings in (NOW, (Wording.SHORT,))
        for w in phase_words(text, wordings)
    )
