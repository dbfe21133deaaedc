"""Rulesets as data: load a ruleset file, and decide a day's outcome from a replayed count.

A ruleset file (``data/rulesets/<name>.toml``) holds the numbers and words of a game's rules; each
table cites the document and section it comes from (``cite = "..."``). Only behaviour data cannot
express is code: a rule hook of :mod:`assistant.counting.hooks`, switched on by name in ``[hooks]
use = [...]``. The ``decide_*`` functions here are the threshold and plurality rules every ruleset
shares. Schema, every table optional except ``[ruleset]``::

    [ruleset]    name, title, document, elimination_word, no_elimination_label, death_order
    ("game_file" |
                 "random" | "alphabetical": the order a night's deaths are announced in the
                 day-start draft),
                 reveal_roles (bool: the dead's roles are announced, from [[deaths]] role; default
                 false)
    [votes]      no_elimination (bool: may players vote for no elimination), words (phrases meaning
    it),
                 multi_vote (clocktower), require_unvote (a new vote while voting needs an UNVOTE
                 first),
                 edited ("first_revision" | "last_revision" | "flag": an edited vote counts only
                 once the
                 moderator rules on it; every edit that changes a vote is flagged either way),
                 check ("post": a post is read whole | "command": every command is checked at once),
                 how_to (the day-start draft's words on how to vote), unbolded ("ignore" | "flag" |
                 "count":
                 a plain-text "vote X" line)
    [majority]   kind ("half_plus_one": more than half of the living), no_elimination_below (whole
    number:
                 no elimination takes this many votes fewer than the majority; default 0)
    [early_end]  on: any of "majority", "no_elimination_majority", "unanimous_minus_one" (each ends
    the day
                 at once), "no_possible_tie" (reported as possible: the game file declares the early
                 end)
    [deadline]   decide ("majority" | "plurality"), no_majority / sleep_majority ("no_elimination" |
    "judge"),
                 tie ("no_elimination" | "random" | "runoff"), no_elimination_competes (bool: in a
                 plurality
                 the no-elimination votes are a candidate), judge_unnamed ("pending" |
                 "no_elimination":
                 what a Judge deferral becomes when the game file names no Judge and records no
                 decision),
                 judge_ignores_extra_lives (bool),
                 judge_stand_ins (any of "apprentice", "peeping_tom": who decides in a dead Judge's
                 place)
    [phases]     day_hours, night_hours, start ("day" | "night"), sod ("HH:MM" local), timezone,
                 night_votes (bool, default true: false lets `votal run` pause polling at night),
                 day_start ("clock" | "moderator_post": a day after the first, not declared in the
                 game
                 file, starts with the moderator's first post after the last day's vote ended)
    [posts]      daily_minimum, daily_cap, cap_lifted_hours_before_eod
    [runoff]     hours, still_tied_note (a public line the drafts add when a runoff ends still tied)
    [hooks]      use: any of HOOK_MODULES below ("judge", "loose_cannon", "deacon_holy",
                 "clocktower", "dead_vote_token", "sheriff", "lovers", "sequestered", "missed_days",
                 "extra_lives", "modkill")

Outcomes are values: ``Outcome(kind, target, post, reason)`` (:mod:`assistant.gamefile.outcome`).
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import Enum, StrEnum
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from assistant import bundled
from assistant.errors import RulesetError
from assistant.gamefile.choices import (
    CheckAt,
    DayStart,
    DeathOrder,
    Decide,
    EarlyEnd,
    EditedVotes,
    Fallback,
    JudgeUnnamed,
    MajorityKind,
    PhaseKind,
    TiePolicy,
    Unbolded,
)
from assistant.gamefile.outcome import Kind, Outcome, Reason


@dataclass(frozen=True)
class Ruleset:
    """A game's rules as values. Defaults are MafiaScum's: a majority of the living ends the day at
    once."""

    name: str
    title: str = ""
    document: str | None = None
    path: str | None = None
    elimination_word: str = "lynch"
    no_elimination_label: str = "No Lynch"
    death_order: DeathOrder = DeathOrder.GAME_FILE
    reveal_roles: bool = (
        False  # the drafts announce a dead player's role ([[deaths]] role): a "flip"
    )
    # votes
    no_elimination_vote: bool = True
    no_elimination_words: tuple[str, ...] = ()
    multi_vote: bool = False
    require_unvote: bool = False
    edited: EditedVotes = EditedVotes.FIRST_REVISION
    check: CheckAt = CheckAt.POST
    how_to_vote: str | None = (
        None  # the day-start draft's line on how to vote, in the rules' own words
    )
    unbolded: Unbolded = Unbolded.IGNORE
    # majority
    majority_kind: MajorityKind = MajorityKind.HALF_PLUS_ONE
    no_elimination_below: int = 0  # no elimination takes this many votes fewer than the majority
    # before the deadline
    early_end: tuple[EarlyEnd, ...] = (EarlyEnd.MAJORITY, EarlyEnd.NO_ELIMINATION_MAJORITY)
    # at the deadline
    decide: Decide = Decide.MAJORITY
    no_majority: Fallback = Fallback.NO_ELIMINATION
    sleep_majority: Fallback = Fallback.NO_ELIMINATION
    tie: TiePolicy = TiePolicy.NO_ELIMINATION
    no_elimination_competes: bool = True
    judge_unnamed: JudgeUnnamed = JudgeUnnamed.PENDING
    judge_ignores_extra_lives: bool = False
    # roles that decide in a dead Judge's place: apprentice, peeping_tom
    judge_stand_ins: tuple[str, ...] = ()
    # phases
    day_hours: float | None = None
    night_hours: float | None = None
    start_phase: PhaseKind = PhaseKind.DAY
    sod: str | None = None
    timezone: str | None = None
    night_votes: bool = True  # false: nothing is counted at night, so `votal run` may pause polling
    # MODERATOR_POST: a computed day after day 1 starts with the moderator's post
    day_start: DayStart = DayStart.CLOCK
    # posting limits
    daily_minimum: int | None = None
    daily_cap: int | None = None
    cap_lifted_hours: float | None = None
    # runoff
    runoff_hours: float | None = None
    runoff_still_tied_note: str | None = None
    hooks: tuple[str, ...] = ()
    cites: dict[str, str] = field(default_factory=dict, compare=False)

    @property
    def threshold(self) -> bool:
        """Whether a majority number means anything (False for plurality rules with no
        threshold)."""
        return self.decide == Decide.MAJORITY or EarlyEnd.MAJORITY in self.early_end

    @property
    def ends_at_majority(self) -> bool:
        """Whether a wagon reaching a majority ends the day at once (a hammer): then
        :attr:`threshold` holds too."""
        return EarlyEnd.MAJORITY in self.early_end

    @property
    def has_judge(self) -> bool:
        """Whether the rules give a Judge anything to decide (the judge hook, or a Judge's day)."""
        return "judge" in self.hooks or Fallback.JUDGE in (self.no_majority, self.sleep_majority)

    def majority_for(self, alive: int) -> int:
        """Votes needed for a majority of ``alive`` living voters: more than half."""
        if self.majority_kind == MajorityKind.HALF_PLUS_ONE:
            return alive // 2 + 1
        raise AssertionError(self.majority_kind)

    def no_elimination_needed(self, majority: int) -> int:
        """Votes for no elimination that decide the day: the majority, or fewer where the rules say
        so."""
        return max(1, majority - self.no_elimination_below)

    def with_options(self, **changes: Any) -> Ruleset:
        """A copy with some values changed, e.g. ``tie="random"`` for a clocktower game that wants
        it."""
        return replace(self, **changes)


# table -> key -> (attribute, type, allowed values or None) The rule hooks a ruleset may use (a
# module of assistant.counting.hooks each), in the order they settle a day: a Loose Cannon's shot
# before the Judge, the Deacon's save after both. Held here, with the words a ruleset may use, so
# reading a ruleset never loads the hooks (assistant.counting.hooks.registry does, for a replay).
HOOK_MODULES = (
    "loose_cannon",
    "judge",
    "deacon_holy",
    "extra_lives",
    "modkill",
    "clocktower",
    "dead_vote_token",
    "sheriff",
    "lovers",
    "sequestered",
    "missed_days",
)


class ValueType(Enum):
    """What a ruleset key holds; each is checked as :func:`_check_value` says."""

    STR = "str"
    BOOL = "bool"
    INT = "int"  # a whole number, 0 or more
    NUMBER = "number"  # hours, more than 0
    HOURS = "hours"  # hours, 0 or more
    TIME = "time"  # a time of day, "22:00"
    STRINGS = "str[]"


# the allowed values: words, or a StrEnum whose member the key then holds
_Allowed = tuple[str, ...] | type[StrEnum] | None
_SCHEMA: dict[str, dict[str, tuple[str, ValueType, _Allowed]]] = {
    "ruleset": {
        "name": ("name", ValueType.STR, None),
        "title": ("title", ValueType.STR, None),
        "document": ("document", ValueType.STR, None),
        "elimination_word": ("elimination_word", ValueType.STR, None),
        "no_elimination_label": ("no_elimination_label", ValueType.STR, None),
        "death_order": ("death_order", ValueType.STR, DeathOrder),
        "reveal_roles": ("reveal_roles", ValueType.BOOL, None),
    },
    "votes": {
        "no_elimination": ("no_elimination_vote", ValueType.BOOL, None),
        "words": ("no_elimination_words", ValueType.STRINGS, None),
        "multi_vote": ("multi_vote", ValueType.BOOL, None),
        "require_unvote": ("require_unvote", ValueType.BOOL, None),
        "edited": ("edited", ValueType.STR, EditedVotes),
        "check": ("check", ValueType.STR, CheckAt),
        "how_to": ("how_to_vote", ValueType.STR, None),
        "unbolded": ("unbolded", ValueType.STR, Unbolded),
    },
    "majority": {
        "kind": ("majority_kind", ValueType.STR, MajorityKind),
        "no_elimination_below": ("no_elimination_below", ValueType.INT, None),
    },
    "early_end": {"on": ("early_end", ValueType.STRINGS, EarlyEnd)},
    "deadline": {
        "decide": ("decide", ValueType.STR, Decide),
        "no_majority": ("no_majority", ValueType.STR, Fallback),
        "sleep_majority": ("sleep_majority", ValueType.STR, Fallback),
        "tie": ("tie", ValueType.STR, TiePolicy),
        "no_elimination_competes": ("no_elimination_competes", ValueType.BOOL, None),
        "judge_unnamed": ("judge_unnamed", ValueType.STR, JudgeUnnamed),
        "judge_ignores_extra_lives": ("judge_ignores_extra_lives", ValueType.BOOL, None),
        "judge_stand_ins": ("judge_stand_ins", ValueType.STRINGS, ("apprentice", "peeping_tom")),
    },
    "phases": {
        "day_hours": ("day_hours", ValueType.NUMBER, None),
        "night_hours": ("night_hours", ValueType.HOURS, None),
        "start": ("start_phase", ValueType.STR, PhaseKind),
        "sod": ("sod", ValueType.TIME, None),
        "timezone": ("timezone", ValueType.STR, None),
        "night_votes": ("night_votes", ValueType.BOOL, None),
        "day_start": ("day_start", ValueType.STR, DayStart),
    },
    "posts": {
        "daily_minimum": ("daily_minimum", ValueType.INT, None),
        "daily_cap": ("daily_cap", ValueType.INT, None),
        "cap_lifted_hours_before_eod": ("cap_lifted_hours", ValueType.HOURS, None),
    },
    "runoff": {
        "hours": ("runoff_hours", ValueType.NUMBER, None),
        "still_tied_note": ("runoff_still_tied_note", ValueType.STR, None),
    },
    "hooks": {"use": ("hooks", ValueType.STRINGS, HOOK_MODULES)},
}


def bundled_rulesets() -> list[str]:
    """Names of the rulesets shipped with Votal."""
    folder = bundled.data() / "rulesets"
    return sorted(p.name[: -len(".toml")] for p in folder.iterdir() if p.name.endswith(".toml"))


def find_ruleset(name: str, folder: Path) -> Ruleset:
    """A game file's ``ruleset``: a bundled name, or a path relative to the game file's
    ``folder``."""
    if name.endswith(".toml") or "/" in name or "\\" in name:
        return load_ruleset(folder / name)
    return load_ruleset(name)


def load_ruleset(name_or_path: str | Path) -> Ruleset:
    """A bundled ruleset by name (``mafiascum``), or a ruleset file by path
    (``rules/house.toml``)."""
    text_name = str(name_or_path)
    if (
        isinstance(name_or_path, Path)
        or text_name.endswith(".toml")
        or "/" in text_name
        or "\\" in text_name
    ):
        path = Path(name_or_path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise RulesetError(
                str(path), None, None, f"cannot read: {exc.strerror or exc}"
            ) from None
        return _parse_once(text, str(path))
    resource = bundled.data() / "rulesets" / f"{text_name}.toml"
    if not resource.is_file():
        known = ", ".join(bundled_rulesets())
        raise RulesetError(
            text_name, None, None, f"no bundled ruleset of that name (bundled: {known})"
        )
    return _parse_once(resource.read_text(encoding="utf-8"), f"rulesets/{text_name}.toml")


@functools.lru_cache(maxsize=64)
def _parse_once(text: str, path: str) -> Ruleset:
    # `votal run` asks for each game's ruleset several times a round: the file is read each time (an
    # edit takes effect), parsed once per text. A Ruleset is frozen, so sharing it is safe.
    return parse_ruleset(text, path=path)


_HEADER = re.compile(r"^\s*\[\s*([A-Za-z0-9_.\-]+)\s*\]\s*(#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-]+)\s*=")


def _locate(text: str) -> dict[tuple[str, str | None], int]:
    """(table, key) -> line, for error messages (ruleset files are plain headers and key = value
    lines)."""
    where: dict[tuple[str, str | None], int] = {}
    table = ""
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header:
            table = header.group(1)
            where.setdefault((table, None), number)
            continue
        key = _KEY.match(line)
        if key:
            where.setdefault((table, key.group(1)), number)
    return where


def parse_ruleset(text: str, *, path: str = "<ruleset>") -> Ruleset:
    """Check a ruleset file's text against the schema and build the Ruleset."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"line (\d+)", str(exc))
        raise RulesetError(
            path, int(found.group(1)) if found else None, None, f"not valid TOML: {exc}"
        ) from None
    lines = _locate(text)

    def fail(table: str, key: str | None, message: str) -> RulesetError:
        line = lines.get((table, key)) or lines.get((table, None))
        return RulesetError(path, line, f"{table}.{key}" if key else table, message)

    values: dict[str, Any] = {}
    cites: dict[str, str] = {}
    for table, content in raw.items():
        if table not in _SCHEMA:
            raise fail(table, None, f"unknown table (known tables: {', '.join(sorted(_SCHEMA))})")
        if not isinstance(content, dict):
            raise fail(table, None, "must be a table")
        schema = _SCHEMA[table]
        for key, value in content.items():
            if key == "cite":
                if not isinstance(value, str) or not value.strip():
                    raise fail(
                        table, key, "must name the document and section the table comes from"
                    )
                cites[table] = value
                continue
            if key not in schema:
                raise fail(
                    table, key, f"unknown key (known keys: {', '.join(sorted([*schema, 'cite']))})"
                )
            attribute, kind, allowed = schema[key]
            values[attribute] = _check_value(
                value, kind, allowed, functools.partial(fail, table, key)
            )
    if "name" not in values:
        raise fail("ruleset", None, "missing required key 'name'")
    ruleset = Ruleset(**values, cites=cites, path=path)
    if ruleset.timezone is not None:
        try:
            ZoneInfo(ruleset.timezone)
        except (ZoneInfoNotFoundError, ValueError):
            raise fail("phases", "timezone", f"unknown time zone {ruleset.timezone!r}") from None
    if ruleset.tie == TiePolicy.RUNOFF and not ruleset.runoff_hours:
        raise fail("deadline", "tie", "a runoff needs [runoff] hours")
    return ruleset


def _check_value(
    value: Any,
    kind: ValueType,
    allowed: _Allowed,
    fail: Callable[[str], RulesetError],
) -> Any:
    choices = tuple(m.value for m in allowed) if isinstance(allowed, type) else allowed
    member = allowed if isinstance(allowed, type) else str
    if kind is ValueType.STR:
        if not isinstance(value, str):
            raise fail(f"must be a string, not {value!r}")
    elif kind is ValueType.BOOL:
        if not isinstance(value, bool):
            raise fail(f"must be true or false, not {value!r}")
    elif kind is ValueType.INT:
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise fail(f"must be a whole number, not {value!r}")
    elif kind in (ValueType.NUMBER, ValueType.HOURS):
        bad = not isinstance(value, int | float) or isinstance(value, bool)
        if bad or value < 0 or (kind is ValueType.NUMBER and value == 0):
            raise fail(f"must be a positive number of hours, not {value!r}")
    elif kind is ValueType.TIME:
        if not isinstance(value, str) or not re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d", value):
            raise fail(f'must be a time of day such as "22:00", not {value!r}')
    elif kind is ValueType.STRINGS:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise fail(f"must be a list of strings, not {value!r}")
        if choices is not None:
            for v in value:
                if v not in choices:
                    raise fail(f"unknown value {v!r} (one of: {', '.join(choices)})")
            return tuple(member(v) for v in value)
        return tuple(value)
    if choices is not None and value not in choices:
        raise fail(f"unknown value {value!r} (one of: {', '.join(choices)})")
    return member(value) if choices is not None else value


# --- deciding
# ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """The count at one moment, as the rules see it (the tally has already applied private
    facts)."""

    post: int | None  # the post this standing is after
    majority: int
    # (target, votes, voter seats): votes desc, then earliest
    wagons: tuple[tuple[str, float, int], ...]
    no_elimination: float
    voters: int  # seats that may vote now
    undecided: float  # vote weight of those who may vote and have not voted at all
    no_elimination_voters: int = 0  # seats voting for no elimination
    nominations_left: bool = True  # whether new candidates can still appear (clocktower)
    eligible: float = 0  # vote weight of every seat that may vote now


def decide_early(ruleset: Ruleset, standing: Standing) -> Outcome | None:
    """An outcome that ends the day before its deadline, or None."""
    top = standing.wagons[0] if standing.wagons else None
    early = ruleset.early_end
    if EarlyEnd.MAJORITY in early and top and top[1] >= standing.majority:
        return Outcome(Kind.ELIMINATION, top[0], standing.post, Reason.MAJORITY)
    no_elimination_needed = ruleset.no_elimination_needed(standing.majority)
    if (
        EarlyEnd.NO_ELIMINATION_MAJORITY in early
        and standing.no_elimination >= no_elimination_needed
    ):
        return _sleep_majority(ruleset, standing.post)
    if EarlyEnd.UNANIMOUS_MINUS_ONE in early and standing.voters >= 2:
        if top and top[2] >= standing.voters - 1:
            return Outcome(Kind.ELIMINATION, top[0], standing.post, Reason.UNANIMOUS_MINUS_ONE)
        if ruleset.no_elimination_vote and standing.no_elimination_voters >= standing.voters - 1:
            return _sleep_majority(ruleset, standing.post)
    return None


def early_end_possible(ruleset: Ruleset, standing: Standing) -> str | None:
    """The leader when no remaining vote can tie or pass it (``[early_end] on =
    ["no_possible_tie"]``), else None. It never ends the day by itself: the Storyteller "may only
    declare an early end" then, and the game file records it (``[[events]] kind = "early_end"``).

    Remaining votes: under multi-voting every voter may still add a vote to a rival (a living player
    who voted the leader too), so a rival can reach its votes plus every voter not on it; with one
    vote each, only the weight of those who have not voted can move.
    """
    top = standing.wagons[0] if standing.wagons else None
    if EarlyEnd.NO_POSSIBLE_TIE not in ruleset.early_end or not top or top[1] <= 0:
        return None
    rivals = [v for _, v, _ in standing.wagons[1:]]
    if ruleset.no_elimination_competes and ruleset.no_elimination_vote:
        rivals.append(standing.no_elimination)
    if standing.nominations_left:
        rivals.append(0)  # a seat not yet nominated could still collect every remaining vote
    if ruleset.multi_vote:
        reach = [v + max(0.0, standing.eligible - v) for v in rivals]
    else:
        reach = [v + standing.undecided for v in rivals]
    return top[0] if all(r < top[1] for r in reach) else None


def _sleep_majority(ruleset: Ruleset, post: int | None) -> Outcome:
    if ruleset.sleep_majority == Fallback.JUDGE:
        return Outcome(Kind.PENDING, None, post, Reason.SLEEP_MAJORITY)
    return Outcome(Kind.NO_ELIMINATION, None, post, Reason.MAJORITY)


def decide_at_deadline(ruleset: Ruleset, standing: Standing) -> Outcome:
    """The outcome when the deadline ends the day without an early end (before any private
    decision)."""
    top = standing.wagons[0] if standing.wagons else None
    if ruleset.decide == Decide.MAJORITY:
        if top and top[1] >= standing.majority:
            return Outcome(Kind.ELIMINATION, top[0], standing.post, Reason.MAJORITY)
        if ruleset.no_elimination_vote and standing.no_elimination >= ruleset.no_elimination_needed(
            standing.majority
        ):
            return _sleep_majority(ruleset, standing.post)
        if ruleset.no_majority == Fallback.JUDGE:
            return Outcome(Kind.PENDING, None, standing.post, Reason.NO_MAJORITY)
        return Outcome(Kind.NO_ELIMINATION, None, standing.post, Reason.DEADLINE)
    return decide_plurality(ruleset, standing)


def leaders(ruleset: Ruleset, standing: Standing) -> list[str | None]:
    """The seats (None: no elimination) with the most votes, when anyone has votes."""
    scores: list[tuple[str | None, float]] = [(t, v) for t, v, _ in standing.wagons]
    if ruleset.no_elimination_competes:
        scores.append((None, standing.no_elimination))
    best = max((v for _, v in scores), default=0)
    if best <= 0:
        return []
    return [t for t, v in scores if v == best]


def decide_plurality(ruleset: Ruleset, standing: Standing, *, runoff: bool = False) -> Outcome:
    """Most votes wins; a tie follows the ruleset's tie policy (a runoff's tie is no
    elimination)."""
    top = leaders(ruleset, standing)
    reason = Reason.RUNOFF if runoff else Reason.PLURALITY
    if not top:
        return Outcome(Kind.NO_ELIMINATION, None, standing.post, Reason.DEADLINE)
    if len(top) == 1:
        if top[0] is None:
            return Outcome(Kind.NO_ELIMINATION, None, standing.post, reason)
        return Outcome(Kind.ELIMINATION, top[0], standing.post, reason)
    if runoff or ruleset.tie == TiePolicy.NO_ELIMINATION:
        return Outcome(Kind.NO_ELIMINATION, None, standing.post, Reason.TIE)
    if ruleset.tie == TiePolicy.RUNOFF:
        return Outcome(Kind.PENDING, None, standing.post, Reason.RUNOFF)
    return Outcome(Kind.PENDING, None, standing.post, Reason.TIE)
