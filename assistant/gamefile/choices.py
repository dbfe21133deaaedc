"""The words a ruleset or game file chooses among ("majority", "plurality", "day"...), one StrEnum
each: a Ruleset or Game holds members and the code asks them, while the file's spelling (and
JSON's) is the value. Apart from rules, so the outcome's wording can ask them too without
importing the ruleset.
"""

from __future__ import annotations

from enum import StrEnum


class MajorityKind(StrEnum):
    """How a majority is reckoned (``[majority] kind``, spelled as the ruleset file spells it)."""

    HALF_PLUS_ONE = "half_plus_one"  # more than half of the living


class EarlyEnd(StrEnum):
    """``[early_end] on``: what ends the day before its deadline."""

    MAJORITY = "majority"
    NO_ELIMINATION_MAJORITY = "no_elimination_majority"
    UNANIMOUS_MINUS_ONE = "unanimous_minus_one"
    NO_POSSIBLE_TIE = "no_possible_tie"  # only said: the moderator declares the early end


class Decide(StrEnum):
    """``[deadline] decide``: how the deadline decides the day."""

    MAJORITY = "majority"
    PLURALITY = "plurality"


class Fallback(StrEnum):
    """``[deadline] no_majority`` and ``sleep_majority``: who decides a day no wagon won."""

    NO_ELIMINATION = "no_elimination"
    JUDGE = "judge"


class TiePolicy(StrEnum):
    """``[deadline] tie``."""

    NO_ELIMINATION = "no_elimination"
    RANDOM = "random"
    RUNOFF = "runoff"


class JudgeUnnamed(StrEnum):
    """``[deadline] judge_unnamed``: a Judge's day when the game file names no Judge."""

    PENDING = "pending"
    NO_ELIMINATION = "no_elimination"


class EditedVotes(StrEnum):
    """``[votes] edited``: which version of an edited post's votes counts."""

    FIRST_REVISION = "first_revision"
    LAST_REVISION = "last_revision"
    FLAG = "flag"


class CheckAt(StrEnum):
    """``[votes] check``: whether the count is decided after each post or each command."""

    POST = "post"
    COMMAND = "command"


class Unbolded(StrEnum):
    """``[votes] unbolded``: what a plain-text "vote X" does."""

    IGNORE = "ignore"
    FLAG = "flag"  # the moderator decides
    COUNT = "count"


class DayStart(StrEnum):
    """``[phases] day_start``: what starts a day after day 1."""

    CLOCK = "clock"
    MODERATOR_POST = "moderator_post"


class DeathOrder(StrEnum):
    """``[ruleset] death_order``: the order the drafts announce the night's dead in."""

    GAME_FILE = "game_file"
    RANDOM = "random"
    ALPHABETICAL = "alphabetical"


class PhaseKind(StrEnum):
    """Whether a phase ("day 2" in a game file, ``[phases] start``) is a day or a night."""

    DAY = "day"
    NIGHT = "night"
