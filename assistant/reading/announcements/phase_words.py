"""The words that name a phase, as a table of rules: each row a named pattern, the phase it reads
and a wording it reads (tests/test_phase_words.py reads each row's example). A new wording is a new
row.

What a phase word means for the game (a day starting, a slip of the number, a plan for later)
depends on where the reading stands, and is decided by :mod:`phases`; here a sentence only yields
what it names.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum, StrEnum

from assistant.reading.announcements.text import NUMBER, read_number


class Phase(StrEnum):
    DAY = "day"
    NIGHT = "night"

    @classmethod
    def named(cls, word: str) -> Phase:
        """The phase a word names: "Day", "night", "D", "n"."""
        return cls.NIGHT if word.lower().startswith("n") else cls.DAY


class Wording(Enum):
    """How a sentence names a phase; each is one row of :data:`PHASE_RULES`."""

    NOW_IN = "now in"  # "It is now Night 2", "Welcome to Day 3"
    BEGINS = "begins"  # "Day 3 has begun", "Night 1 is upon us"
    HEADING = "heading"  # "Day 2:", "Night 1", "Day 5 Dawn" opening a sentence
    SHORT = "short"  # "D3 has started"
    CUE = "cue"  # the phase's business: "Day 2 deadline", "Night 1 actions", "Day 4 is over"
    BARE_NOW = "bare now"  # "It is now night", no number
    DAY_BEGINS = "day begins"  # "Day has begun", no number
    NIGHT_ACTIONS = "night actions"  # "Send in your night actions"
    NIGHT_FALLS = "night falls"  # "Night has fallen"
    DAY_OVER = "day over"  # "The village has spoken", "Day 1 is over"
    NIGHT_OVER = "night over"  # "End of Night 1", "Night 2 is over"


@dataclass(frozen=True)
class PhaseRule:
    wording: Wording
    # groups: ``phase`` and ``number`` where the wording names them, ``over``
    pattern: re.Pattern[str]
    phase: Phase | None  # the phase the wording names when it has no ``phase`` group
    example: str  # a sentence the row reads
    reads: tuple[Phase, int | None]  # what it reads there


@dataclass(frozen=True)
class PhaseWord:
    """A phase a sentence names: the row that read it, the phase and its number (None when
    unnumbered), whether the words say it is over ("Day 4 is over"), and where the words stand in
    the sentence."""

    wording: Wording
    phase: Phase
    number: int | None
    over: bool
    start: int
    end: int


def _rule(
    wording: Wording,
    pattern: str,
    example: str,
    reads: tuple[Phase, int | None],
    phase: Phase | None = None,
) -> PhaseRule:
    compiled = re.compile(pattern, re.IGNORECASE | re.VERBOSE)
    return PhaseRule(wording, compiled, phase, example, reads)


_ENDS_HEADING = r"(?: [:!\-–—] | $ )"
# "Night Phase 1", "Day phase 2": the phase's number after the word phase
_PHASE = r"(?P<phase> day | night ) (?:\s+phase)? \s* "
# A countdown tells when, not that night fell: "Night falls in (expired ...)"
_NOT_WHEN = r"(?!\s+(?:in|at|on|after)\b)"

PHASE_RULES: tuple[PhaseRule, ...] = (
    _rule(
        Wording.NOW_IN,
        r"""
        \b(?: it\s+is(?:\s+now)? | it'?s(?:\s+now)? | welcome\s+to | we\s+are\s+now\s+in | now\s+entering
            | entering
            | start\s+of | beginning\s+of | dawns?\s+on | dawn\s+of )
        \s+ (?:the\s+)? (?P<phase> day | night | [dn](?=\s*\d) ) \s* """
        + NUMBER
        + r"\b",
        "It is now Night 2.",
        (Phase.NIGHT, 2),
    ),
    _rule(
        Wording.BEGINS,
        r"""
        \b """
        + _PHASE
        + NUMBER
        + r""" \s+ (?:has\s+)? (?:now\s+)?
        (?: begun | began | started | starts\s+now | begins\s+now | beginning | dawned
          | is\s+(?:now\s+)? (?: open | here | upon\s+us | underway )
          | begins (?= \s*[.!,] | \s*$ ) | starts (?= \s*[.!,] | \s*$ )
          | has\s+now\s+begun )""",
        "Day three has begun!",
        (Phase.DAY, 3),
    ),
    _rule(
        Wording.HEADING,
        r"""
        ^\W* (?P<phase> day | night ) \s* """
        + NUMBER
        + r""" \s* (?: """
        + _ENDS_HEADING
        + r""" | dawn\s* """
        + _ENDS_HEADING
        + ")",
        "Day 5 Dawn:",
        (Phase.DAY, 5),
    ),
    _rule(
        Wording.SHORT,
        r"""
        \b (?P<phase> [dn] ) \s* (?P<number> \d{1,2} ) \s+ (?:has\s+)?
        (?: started | begun | begins | starts )\b""",
        "D3 has started, go vote.",
        (Phase.DAY, 3),
    ),
    _rule(
        Wording.CUE,
        r"""
        \b """
        + _PHASE
        + NUMBER
        + r""" \s+
        (?: deadline | will\s+end | ends\b | end\s+is | is\s+scheduled | actions
          | (?P<over> is\s+over | has\s+ended | is\s+done ) )""",
        "Night 1 actions are due by Friday.",
        (Phase.NIGHT, 1),
    ),
    _rule(
        Wording.BARE_NOW,
        r"\b it\s+is\s+now\s+ (?P<phase> night | day ) (?:time)?\b (?!\s*\d)",
        "It is now nighttime.",
        (Phase.NIGHT, None),
    ),
    _rule(
        Wording.DAY_BEGINS,
        r"\b day\s+ (?: begins | has\s+begun | starts | has\s+started )\b",
        "Day begins, and the town wakes.",
        (Phase.DAY, None),
        Phase.DAY,
    ),
    _rule(
        Wording.NIGHT_ACTIONS,
        r"\b (?: send | submit | pm )\b [^.]{0,30} \bnight\s+actions?\b",
        "Please send me your night actions.",
        (Phase.NIGHT, None),
        Phase.NIGHT,
    ),
    _rule(
        Wording.NIGHT_FALLS,
        r"""
        \b night\s+ (?:phase\s+)? (?:has\s+)?
        (?: fallen | falls | begins | has\s+begun | is\s+upon | starts | has\s+started )\b """
        + _NOT_WHEN
        + r"""
        | \b it\s+is\s+now\s+night\b | \b entering\s+ (?:the\s+)? ["“']? night\s+phase\b""",
        "Night has fallen.",
        (Phase.NIGHT, None),
        Phase.NIGHT,
    ),
    _rule(
        Wording.DAY_OVER,
        r"""
        \b (?:the\s+)? (?: village | town ) \s+has\s+spoken\b
        | \b day (?: \s*\d{1,2} )? \s+ (?: is\s+(?:now\s+)?over | has\s+(?:now\s+)?ended
                                                      | is\s+done | has\s+closed )\b""",
        "The village has spoken.",
        (Phase.DAY, None),
        Phase.DAY,
    ),
    _rule(
        Wording.NIGHT_OVER,
        r"""
        \b end\s+of\s+ (?:the\s+)? night\b
        | \b night (?: \s*\d{1,2} )? \s+ (?: is\s+over | has\s+ended | is\s+done )\b""",
        "End of Night 1.",
        (Phase.NIGHT, None),
        Phase.NIGHT,
    ),
)
_RULES = {rule.wording: rule for rule in PHASE_RULES}

# The wordings that say the game is now in a numbered phase, in the order tried at one place
NOW = (Wording.NOW_IN, Wording.BEGINS, Wording.HEADING)
BARE = (Wording.BARE_NOW, Wording.DAY_BEGINS, Wording.NIGHT_ACTIONS)


def _word(rule: PhaseRule, match: re.Match[str]) -> PhaseWord:
    groups = match.groupdict()
    named = groups.get("phase")
    phase = Phase.named(named) if named else rule.phase
    assert phase is not None, rule.wording  # a row names its phase or has a group for it
    number = groups.get("number")
    read = read_number(number) if number else None
    over = bool(groups.get("over"))
    return PhaseWord(rule.wording, phase, read, over, match.start(), match.end())


def phase_words(text: str, wordings: tuple[Wording, ...]) -> Iterator[PhaseWord]:
    """The phases ``text`` names in these wordings, left to right and never overlapping; where two
    rows read at one place, the one listed first."""
    rules = [_RULES[w] for w in wordings]
    at = 0
    while at <= len(text):
        found = [m for m in (rule.pattern.search(text, at) for rule in rules)]
        first = min((m.start() for m in found if m is not None), default=None)
        if first is None:
            return
        index, match = next(
            (i, m) for i, m in enumerate(found) if m is not None and m.start() == first
        )
        yield _word(rules[index], match)
        at = match.end() if match.end() > match.start() else match.end() + 1


def first_phase_word(text: str, wordings: tuple[Wording, ...]) -> PhaseWord | None:
    return next(phase_words(text, wordings), None)


def names_phase(text: str, wording: Wording) -> bool:
    return _RULES[wording].pattern.search(text) is not None
