"""Rulesets as data: load a ruleset file and decide a day's outcome from a replayed tally.

A ruleset file (``data/rulesets/<name>.toml``) holds the numbers and words of a game's rules; each table
cites the document and section it comes from. Only behaviour that data cannot express is code here,
named by the ruleset's ``hooks`` list (python-chess style: a variant overrides a few methods).

Schema (every table optional unless marked; ``cite`` is allowed in every table)::

    [ruleset]            name (required), title, document, words.* (elimination / no_elimination labels)
    [votes]              no_elimination (bool), no_elimination_label, multi_vote, edited ("first_revision"|"last"),
                         unvote_other ("ignore"|"remove"), check ("post"|"command")
    [majority]           kind ("half_plus_one"), weighted (bool), count_no_elimination (bool)
    [early_end]          on (list of: "majority", "no_elimination_majority", "unanimous_minus_one",
                         "no_possible_tie")
    [deadline]           decide ("majority"|"plurality"), no_majority ("no_elimination"|"judge"|"plurality"),
                         sleep_majority ("no_elimination"|"judge"), tie ("no_elimination"|"random"|"runoff"
                         |"judge"), tie_options (list)
    [judge]              declines ("no_elimination")
    [phases]             day_hours, night_hours, start ("day"|"night"), sod ("HH:MM"), timezone
    [posts]              daily_minimum, daily_cap, cap_lifted_hours_before_eod
    [runoff]             hours, still_tied ("no_elimination")
    [hooks]              list: deacon_holy, loose_cannon, clocktower, dead_vote_token, sheriff, lovers,
                         sequestered, missed_days
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Any

from assistant.errors import RulesetError

OUTCOME_KINDS = ("elimination", "no_elimination", "pending")
OUTCOME_REASONS = (
    "majority",
    "unanimous_minus_one",
    "plurality",
    "deadline",
    "no_majority",
    "sleep_majority",
    "tie",
    "runoff",
    "judge",
    "loose_cannon",
    "no_possible_tie",
)
EARLY_ENDS = ("majority", "no_elimination_majority", "unanimous_minus_one", "no_possible_tie")
HOOKS = (
    "deacon_holy",
    "loose_cannon",
    "clocktower",
    "dead_vote_token",
    "sheriff",
    "lovers",
    "sequestered",
    "missed_days",
    "judge",
    "runoff",
)


@dataclass(frozen=True)
class Outcome:
    """How a day ended (or is ending): ``kind`` and ``reason`` are from OUTCOME_KINDS / OUTCOME_REASONS."""

    kind: str
    target: str | None
    post: int | None
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "target": self.target, "post": self.post, "reason": self.reason}


@dataclass(frozen=True)
class Ruleset:
    """A game's rules as values. Defaults are MafiaScum's: majority of the living ends the day at once."""

    name: str
    title: str = ""
    document: str | None = None
    path: str | None = None
    elimination_word: str = "lynch"
    no_elimination_label: str = "No Lynch"
    # votes
    no_elimination_vote: bool = True
    multi_vote: bool = False
    edited: str = "first_revision"
    check: str = "post"
    # majority
    majority_kind: str = "half_plus_one"
    # when the day ends before its deadline
    early_end: tuple[str, ...] = ("majority", "no_elimination_majority")
    # at the deadline
    decide: str = "majority"
    no_majority: str = "no_elimination"
    sleep_majority: str = "no_elimination"
    tie: str = "no_elimination"
    tie_options: tuple[str, ...] = ()
    # phases
    day_hours: float | None = None
    night_hours: float | None = None
    start_phase: str = "day"
    sod: str | None = None
    timezone: str | None = None
    # posting limits
    daily_minimum: int | None = None
    daily_cap: int | None = None
    cap_lifted_hours: float | None = None
    # runoff
    runoff_hours: float | None = None
    runoff_still_tied: str = "no_elimination"
    hooks: tuple[str, ...] = ()
    cites: dict[str, str] = field(default_factory=dict)

    def majority_for(self, alive: float) -> int:
        """Votes needed for a majority of ``alive`` living voters (more than half)."""
        if self.majority_kind == "half_plus_one":
            return int(alive // 2) + 1
        raise AssertionError(self.majority_kind)

    def has(self, hook: str) -> bool:
        return hook in self.hooks

    def with_options(self, **changes: Any) -> Ruleset:
        """A copy with some values changed (e.g. a game's tie policy)."""
        from dataclasses import replace

        return replace(self, **changes)


# table -> key -> (attribute, type, allowed values or None)
_SCHEMA: dict[str, dict[str, tuple[str, str, tuple | None]]] = {
    "ruleset": {
        "name": ("name", "str", None),
        "title": ("title", "str", None),
        "document": ("document", "str", None),
        "elimination_word": ("elimination_word", "str", None),
        "no_elimination_label": ("no_elimination_label", "str", None),
    },
    "votes": {
        "no_elimination": ("no_elimination_vote", "bool", None),
        "multi_vote": ("multi_vote", "bool", None),
        "edited": ("edited", "str", ("first_revision", "last_revision")),
        "check": ("check", "str", ("post", "command")),
    },
    "majority": {"kind": ("majority_kind", "str", ("half_plus_one",))},
    "early_end": {"on": ("early_end", "str[]", EARLY_ENDS)},
    "deadline": {
        "decide": ("decide", "str", ("majority", "plurality")),
        "no_majority": ("no_majority", "str", ("no_elimination", "judge", "plurality")),
        "sleep_majority": ("sleep_majority", "str", ("no_elimination", "judge")),
        "tie": ("tie", "str", ("no_elimination", "random", "runoff", "judge")),
        "tie_options": ("tie_options", "str[]", ("no_elimination", "random", "runoff", "judge")),
    },
    "phases": {
        "day_hours": ("day_hours", "number", None),
        "night_hours": ("night_hours", "number", None),
        "start": ("start_phase", "str", ("day", "night")),
        "sod": ("sod", "time", None),
        "timezone": ("timezone", "str", None),
    },
    "posts": {
        "daily_minimum": ("daily_minimum", "int", None),
        "daily_cap": ("daily_cap", "int", None),
        "cap_lifted_hours_before_eod": ("cap_lifted_hours", "number", None),
    },
    "runoff": {
        "hours": ("runoff_hours", "number", None),
        "still_tied": ("runoff_still_tied", "str", ("no_elimination",)),
    },
    "hooks": {"use": ("hooks", "str[]", HOOKS)},
}


def bundled_rulesets() -> list[str]:
    """Names of the rulesets shipped with Votal."""
    folder = files("assistant.data") / "rulesets"
    return sorted(p.name[: -len(".toml")] for p in folder.iterdir() if p.name.endswith(".toml"))


def load_ruleset(name_or_path: str | Path) -> Ruleset:
    """A bundled ruleset by name (``mafiascum``), or a ruleset file by path."""
    text_name = str(name_or_path)
    if isinstance(name_or_path, Path) or text_name.endswith(".toml") or "/" in text_name:
        path = Path(name_or_path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise RulesetError(str(path), None, None, f"cannot read: {exc.strerror or exc}") from None
        return parse_ruleset(text, path=str(path))
    resource = files("assistant.data") / "rulesets" / f"{text_name}.toml"
    if not resource.is_file():
        known = ", ".join(bundled_rulesets())
        raise RulesetError(text_name, None, None, f"no bundled ruleset of that name (bundled: {known})")
    return parse_ruleset(resource.read_text(encoding="utf-8"), path=f"rulesets/{text_name}.toml")


_HEADER = re.compile(r"^\s*\[\s*([A-Za-z0-9_.\-]+)\s*\]\s*(#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-]+)\s*=")


def _locate(text: str) -> dict[tuple[str, str | None], int]:
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
        raise RulesetError(path, int(found.group(1)) if found else None, None, f"not valid TOML: {exc}") from None
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
                if not isinstance(value, str):
                    raise fail(table, key, "must be a string naming the document and section")
                cites[table] = value
                continue
            if key not in schema:
                raise fail(table, key, f"unknown key (known keys: {', '.join(sorted([*schema, 'cite']))})")
            attribute, kind, allowed = schema[key]
            values[attribute] = _check_value(value, kind, allowed, lambda m, t=table, k=key: fail(t, k, m))
    if "name" not in values:
        raise fail("ruleset", None, "missing required key 'name'")
    ruleset = Ruleset(**values, cites=cites, path=path)
    if ruleset.timezone is not None:
        from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

        try:
            ZoneInfo(ruleset.timezone)
        except (ZoneInfoNotFoundError, ValueError):
            raise fail("phases", "timezone", f"unknown time zone {ruleset.timezone!r}") from None
    return ruleset


def _check_value(value: Any, kind: str, allowed: tuple | None, fail) -> Any:
    if kind == "str":
        if not isinstance(value, str):
            raise fail(f"must be a string, not {value!r}")
    elif kind == "bool":
        if not isinstance(value, bool):
            raise fail(f"must be true or false, not {value!r}")
    elif kind == "int":
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise fail(f"must be a whole number, not {value!r}")
    elif kind == "number":
        if not isinstance(value, int | float) or isinstance(value, bool) or value <= 0:
            raise fail(f"must be a positive number, not {value!r}")
    elif kind == "time":
        if not isinstance(value, str) or not re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d", value):
            raise fail(f'must be a time of day such as "22:00", not {value!r}')
    elif kind == "str[]":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise fail(f"must be a list of strings, not {value!r}")
        if allowed is not None:
            for v in value:
                if v not in allowed:
                    raise fail(f"unknown value {v!r} (one of: {', '.join(allowed)})")
        return tuple(value)
    if allowed is not None and value not in allowed:
        raise fail(f"unknown value {value!r} (one of: {', '.join(allowed)})")
    return value


@dataclass(frozen=True)
class Standing:
    """The count at one moment, as the rules see it (private facts already applied by the tally)."""

    post: int | None  # the post this standing is after
    living: tuple[str, ...]
    majority: int
    wagons: tuple[tuple[str, float], ...]  # (target, votes), in display order: votes desc, then earliest
    no_elimination: float
    voters: int  # living seats that may vote
    voting: int  # living seats whose vote counts for someone or for no elimination


def decide_early(ruleset: Ruleset, standing: Standing) -> Outcome | None:
    """An outcome that ends the day before its deadline, or None."""
    top = standing.wagons[0] if standing.wagons else None
    if "majority" in ruleset.early_end and top and top[1] >= standing.majority:
        return Outcome("elimination", top[0], standing.post, "majority")
    if "no_elimination_majority" in ruleset.early_end and standing.no_elimination >= standing.majority:
        return Outcome("no_elimination", None, standing.post, "majority")
    return None


def decide_at_deadline(ruleset: Ruleset, standing: Standing) -> Outcome:
    """The outcome when the deadline ends the day without an early end."""
    top = standing.wagons[0] if standing.wagons else None
    if ruleset.decide == "majority":
        if top and top[1] >= standing.majority:
            return Outcome("elimination", top[0], standing.post, "majority")
        if ruleset.no_elimination_vote and standing.no_elimination >= standing.majority:
            if ruleset.sleep_majority == "judge":
                return Outcome("pending", None, standing.post, "sleep_majority")
            return Outcome("no_elimination", None, standing.post, "majority")
        if ruleset.no_majority == "judge":
            return Outcome("pending", None, standing.post, "no_majority")
        if ruleset.no_majority == "no_elimination":
            return Outcome("no_elimination", None, standing.post, "deadline")
    return _decide_plurality(ruleset, standing)


def _decide_plurality(ruleset: Ruleset, standing: Standing) -> Outcome:
    if not standing.wagons or standing.wagons[0][1] <= 0:
        return Outcome("no_elimination", None, standing.post, "deadline")
    best = standing.wagons[0][1]
    if standing.no_elimination > best:
        return Outcome("no_elimination", None, standing.post, "plurality")
    tied = [t for t, v in standing.wagons if v == best]
    if len(tied) == 1 and standing.no_elimination < best:
        return Outcome("elimination", tied[0], standing.post, "plurality")
    if ruleset.tie == "runoff":
        return Outcome("pending", None, standing.post, "runoff")
    if ruleset.tie in ("random", "judge"):
        return Outcome("pending", None, standing.post, "tie")
    return Outcome("no_elimination", None, standing.post, "tie")
