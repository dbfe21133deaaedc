"""How a day ends, as a value and in words: outcome kinds and reasons, the ruleset's words, and the
one place that says an outcome in English (drafts, ``votal count``, alerts, status and the page all
use it).

Kinds and reasons are :class:`enum.StrEnum` members: they compare equal to their JSON strings, so a
template or a script written against ``"majority"`` keeps working.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from assistant.gamefile.choices import Fallback, TiePolicy


class Kind(StrEnum):
    ELIMINATION = "elimination"
    NO_ELIMINATION = "no_elimination"
    PENDING = "pending"  # the rules hand the decision to someone (the Judge, a draw, a runoff)


class Reason(StrEnum):
    MAJORITY = "majority"
    UNANIMOUS_MINUS_ONE = "unanimous_minus_one"
    PLURALITY = "plurality"
    DEADLINE = "deadline"
    NO_MAJORITY = "no_majority"
    SLEEP_MAJORITY = "sleep_majority"
    TIE = "tie"
    RUNOFF = "runoff"
    JUDGE = "judge"
    LOOSE_CANNON = "loose_cannon"
    NO_POSSIBLE_TIE = "no_possible_tie"
    MODKILL = (
        "modkill"  # the moderator killed a player, using the day's elimination (Witchhunt Online)
    )
    # public only: a private fact decided the day and the moderator will announce it
    MODERATOR = "moderator"


class WhyNot(StrEnum):
    """Why a command did not count: the reasons more than one module compares against."""

    MODERATOR_POST = "moderator's post"
    # a typed name that names nobody (assistant.reading.names); a count may teach what it meant
    UNKNOWN_NAME = "unknown name"
    CUT_OFF_NAME = "cut-off name"  # "VOTE: Mi--": a name teased, not typed
    NO_NAME_GIVEN = "no name given"
    # the start of a reason that goes on to name the seats in question ("ambiguous: A or B")
    AMBIGUOUS = "ambiguous"
    SEVERAL_TARGETS = "several targets"
    NOT_A_PLAYER = "not a player"
    VOTER_DEAD = "voter is dead"
    TARGET_DEAD = "target is dead"
    AFTER_END = "after the day's end"
    DAY_OVER = "the day had already ended"
    # "Once day is over, night starts": a vote between a day's end and the post opening the next
    AT_NIGHT = "cast at night, before the moderator opened the day: counts for no day"
    # What players see when a private fact (lovers, a sequestered seat) voids a vote, and when the
    # moderator ignores a post: the two read the same, so the page never tells which it was. Count
    # and audit, the moderator's own commands, show the real reason.
    RULED_OUT = "ruled out by the moderator"


@dataclass(frozen=True)
class Outcome:
    """How a day ended (or is ending). ``survived``: the seat a lynch failed to kill (public when it
    happens)."""

    kind: Kind
    target: str | None
    post: int | None
    reason: Reason
    survived: str | None = None
    doubt: str | None = None  # why the deciding reading may be wrong: the moderator should check it

    def to_json(self) -> dict[str, Any]:
        data = {
            "kind": str(self.kind),
            "target": self.target,
            "post": self.post,
            "reason": str(self.reason),
        }
        if self.survived is not None:
            data["survived"] = self.survived
        if self.doubt is not None:
            data["doubt"] = self.doubt
        return data


@dataclass(frozen=True)
class Words:
    """The ruleset's own words: "lynch" / "lynched" (MafiaScum), "eliminate" / "eliminated" (Witch
    Hunt 2023)."""

    verb: str  # lynch, eliminate, execute, hang
    past: str  # lynched, eliminated, executed, hanged
    noun: str  # lynch, elimination, execution, hanging
    no_elimination: str  # the no-elimination vote's label: No Lynch, Sleep, No Elimination


_IRREGULAR_PAST = {"hang": "hanged", "hanging": "hanged", "kill": "killed", "lynching": "lynched"}
_NOUN = {"lynch": "lynch", "hang": "hanging", "kill": "kill"}


class RulesetWords(Protocol):
    """What the words read of a ruleset (:class:`assistant.gamefile.rules.Ruleset`, which imports
    this module)."""

    @property
    def elimination_word(self) -> str: ...
    @property
    def no_elimination_label(self) -> str: ...
    @property
    def no_majority(self) -> Fallback: ...
    @property
    def sleep_majority(self) -> Fallback: ...
    @property
    def tie(self) -> TiePolicy: ...


def words_of(ruleset: RulesetWords) -> Words:
    """The ruleset's words for an elimination, from its ``elimination_word`` (a verb or a noun)."""
    word = (ruleset.elimination_word or "lynch").strip()
    lower = word.casefold()
    if lower in _IRREGULAR_PAST:
        verb = "hang" if lower.startswith("hang") else lower.removesuffix("ing")
        past = _IRREGULAR_PAST[lower]
    elif lower.endswith("ed") and len(lower) > 3:  # eliminated -> eliminate, lynched -> lynch
        past, verb = lower, lower[:-1] if lower[-3] in "tcsvgz" else lower[:-2]
    elif lower.endswith("ion"):  # elimination, execution
        verb, past = lower[:-3] + "e", lower[:-3] + "ed"
    elif lower.endswith("e"):
        verb, past = lower, lower + "d"
    else:
        verb, past = lower, lower + "ed"
    if lower.endswith("ion"):
        noun = lower
    elif verb.endswith("e"):
        noun = _NOUN.get(verb, verb[:-1] + "ion")
    else:
        noun = _NOUN.get(verb, verb)
    label = ruleset.no_elimination_label or f"No {noun.title()}"
    return Words(verb=verb, past=past, noun=noun, no_elimination=label)


def reason_words(reason: str) -> str:
    """A reason as a few words: "unanimous minus one"."""
    return str(reason).replace("_", " ")


def summarize(outcome: Outcome | None, words: Words | None = None) -> str:
    """One line for the moderator's terminal and alerts: how the day ended, why, and at which post,
    in the ruleset's ``words`` ("lynched" under MafiaScum's rules, "eliminated" under others)."""
    past, noun = (words.past, words.noun) if words is not None else ("eliminated", "elimination")
    if outcome is None:
        return "undecided"
    why = reason_words(outcome.reason)
    at = f", post {outcome.post}" if outcome.post is not None else ""
    check = (
        f"; doubtful ({outcome.doubt}): check post {outcome.post} before closing the day"
        if outcome.doubt
        else ""
    )
    if outcome.kind == Kind.ELIMINATION:
        return f"{outcome.target} {past} ({why}{at}){check}"
    if outcome.kind == Kind.NO_ELIMINATION:
        return f"no {noun} ({why}{at}){check}"
    return (
        f"pending: {why}{at}; the rules leave the decision to someone (e.g. the Judge): record it "
        "in the game file"
    )


_BECAUSE = {
    Reason.MAJORITY: "a majority of the living voted for {target}",
    Reason.UNANIMOUS_MINUS_ONE: "all but one of the living voted for {target}",
    Reason.PLURALITY: "{target} had the most votes at the deadline",
    Reason.DEADLINE: "the deadline passed without a majority",
    Reason.NO_MAJORITY: "no one had a majority at the deadline",
    Reason.SLEEP_MAJORITY: "a majority voted {no}",
    Reason.TIE: "the vote was tied at the deadline",
    Reason.RUNOFF: "the runoff",
    Reason.JUDGE: "the Judge's decision",
    Reason.LOOSE_CANNON: "the Loose Cannon's decision",
    Reason.NO_POSSIBLE_TIE: "no remaining votes could tie or pass {target}",
    Reason.MODERATOR: "the moderator's ruling",
    Reason.MODKILL: "the moderator's kill took the day's {noun}",
}


def survived_words(outcome: Outcome, words: Words) -> str:
    """A failed elimination as the rules announce it ("all kills are publicly announced"), told the
    same way wherever it is told (the day-end and the judge drafts): who decided it, and that the
    target survived."""
    s = outcome.survived
    if outcome.reason == Reason.JUDGE:
        decided = f"The Judge decided to {words.verb} {s}"
    elif outcome.reason == Reason.LOOSE_CANNON:
        decided = f"The Loose Cannon decided to {words.verb} {s}"
    elif outcome.reason in (Reason.PLURALITY, Reason.RUNOFF):
        decided = f"{s} had the most votes"
    else:
        decided = f"A majority voted to {words.verb} {s}"
    return f"{decided}, but {s} survived: no one is {words.past}."


def judge_declined(outcome: Outcome, ruleset: RulesetWords) -> bool:
    """No elimination after the rules deferred to the Judge: declined, dead or unnamed, all read the
    same.

    The rules announce only the result ("If the Judge is dead or declines Judgment, no one is
    eliminated"), so a dead Judge must not read differently from a declining one: that would tell
    the players the Judge died.
    """
    if outcome.kind != Kind.NO_ELIMINATION or outcome.survived:
        return False
    return (
        outcome.reason == Reason.JUDGE
        or (outcome.reason == Reason.NO_MAJORITY and ruleset.no_majority == Fallback.JUDGE)
        or (outcome.reason == Reason.SLEEP_MAJORITY and ruleset.sleep_majority == Fallback.JUDGE)
    )


def announce(
    outcome: Outcome, words: Words, ruleset: RulesetWords, *, after_runoff: bool = False
) -> str:
    """One plain sentence for players saying what happened and why (the drafts' outcome line)."""
    o, who = outcome, outcome.target or ""

    def because() -> str:
        return _BECAUSE.get(o.reason, reason_words(o.reason)).format(
            target=who, no=words.no_elimination, noun=words.noun
        )

    if o.kind == Kind.ELIMINATION:
        if o.reason == Reason.TIE and ruleset.tie == TiePolicy.RANDOM:
            return (
                f"{who} is {words.past}: the vote was tied, and {who} was drawn at random among "
                "the tied players."
            )
        if o.reason == Reason.RUNOFF or (
            after_runoff and o.reason in (Reason.PLURALITY, Reason.TIE)
        ):
            return f"{who} had the most votes in the runoff and is {words.past}."
        if o.reason == Reason.JUDGE:
            return f"The Judge has decided: {who} is {words.past}."
        if o.reason == Reason.LOOSE_CANNON:
            return f"The Loose Cannon has ended the day: {who} is {words.past}."
        if o.reason == Reason.MODKILL:
            return f"{who} was mod-killed: this is the day's {words.noun}."
        return f"{who} is {words.past}: {because()}."
    if o.kind == Kind.NO_ELIMINATION:
        if o.survived:
            return survived_words(o, words)
        if o.reason == Reason.MAJORITY:
            return f"A majority voted {words.no_elimination}: no one is {words.past}."
        if o.reason == Reason.LOOSE_CANNON:
            return f"The Loose Cannon has ended the day: no one is {words.past}."
        if judge_declined(o, ruleset):
            return f"The decision passed to the Judge: no one is {words.past}."
        if o.reason == Reason.RUNOFF or (after_runoff and o.reason == Reason.TIE):
            return f"The runoff ended still tied: no one is {words.past}."
        if o.reason == Reason.TIE:
            return f"The vote ended tied: no one is {words.past}."
        if o.reason == Reason.PLURALITY:
            return f"{words.no_elimination} had the most votes: no one is {words.past}."
        return f"No one is {words.past}: {because()}."
    if o.reason == Reason.RUNOFF:
        return "The vote is tied: a runoff between the tied players decides."
    if o.reason == Reason.TIE and o.target is None:
        return "The vote is tied: the rules decide between the tied players."
    if o.reason == Reason.MODERATOR:
        return "The moderator will announce the result."
    return f"The decision passes to the Judge: {because()}."
