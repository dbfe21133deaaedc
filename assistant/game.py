"""The game file: the moderator's TOML description of a game, loaded into plain values.

The game file is the source of truth (the database is a cache of the forum). Loading checks every key
against :data:`SCHEMA`; an unknown key or a bad value raises :class:`GameFileError` naming the file, the
line and the key.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from assistant.errors import GameFileError, RulesetError
from assistant.rules import find_ruleset

ENGINES = ("phpbb", "discourse", "xenforo", "vbulletin", "proboards")
EVENT_KINDS = ("extend", "early_end", "nominate", "runoff_end", "deadline")
PHASE_RE = re.compile(r"^\s*(day|night)\s*(\d+)\s*$", re.IGNORECASE)

# Each table's keys: key -> (type, required). Types: "str", "int", "number", "bool", "datetime",
# "str[]", "str[][]", or "table"/"table[]" naming a nested schema.
SCHEMA: dict[str, dict[str, tuple[str, bool]]] = {
    "": {
        "title": ("str", True),
        "thread": ("str", True),
        "forum": ("str", False),
        "ruleset": ("str", True),
        "moderators": ("str[]", False),
        "timezone": ("str", False),
        "start": ("datetime", False),
        "templates": ("str", False),
        "fetch": ("table", False),
        "alerts": ("table", False),
        "players": ("table[]", True),
        "days": ("table[]", False),
        "deaths": ("table[]", False),
        "corrections": ("table[]", False),
        "events": ("table[]", False),
        "private": ("table", False),
    },
    "fetch": {
        "min_interval": ("number", False),
        "interval": ("number", False),
        "cookies_file": ("str", False),
        "cookies_env": ("str", False),
        "contact": ("str", False),
        "posts_per_page": ("int", False),
    },
    "alerts": {"webhook": ("str", False)},
    "players": {
        "name": ("str", True),
        "replacements": ("str[]", False),
        "aliases": ("str[]", False),
        "vote_weight": ("number", False),
    },
    "days": {
        "day": ("int", True),
        "start_post": ("int", False),
        "end_post": ("int", False),
        "start": ("datetime", False),
        "end": ("datetime", False),
    },
    "deaths": {"player": ("str", True), "phase": ("str", True), "post": ("int", False)},
    "corrections": {
        "post": ("int", True),
        "vote": ("str", False),
        "ignore": ("bool", False),
        "note": ("str", False),
    },
    "events": {
        "day": ("int", True),
        "kind": ("str", True),
        "hours": ("number", False),
        "post": ("int", False),
        "time": ("datetime", False),
        "player": ("str", False),
        "target": ("str", False),
        "note": ("str", False),
    },
    "private": {
        "judge": ("str", False),
        "sheriff": ("str", False),
        "loose_cannon": ("str", False),
        "deacon": ("str", False),
        "holy": ("str[]", False),
        "lovers": ("str[][]", False),
        "roles": ("table", False),
        "decisions": ("table[]", False),
        "sequestered": ("table[]", False),
    },
    "private.roles": {},  # free-form: seat name -> role name
    "private.decisions": {
        "day": ("int", True),
        "judge": ("str", False),
        "loose_cannon": ("str", False),
    },
    "private.sequestered": {"day": ("int", True), "player": ("str", True)},
}
FREE_FORM = {"private.roles": "str"}


@dataclass(frozen=True)
class Seat:
    """One seat ("slot"): its first account names it; replacements are later accounts."""

    name: str
    replacements: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    vote_weight: float = 1

    @property
    def accounts(self) -> tuple[str, ...]:
        return (self.name, *self.replacements)


@dataclass(frozen=True)
class DayDecl:
    day: int
    start_post: int | None = None
    end_post: int | None = None
    start: datetime | None = None
    end: datetime | None = None


@dataclass(frozen=True)
class Death:
    player: str
    phase: str  # "day" or "night"
    phase_number: int
    post: int | None = None


@dataclass(frozen=True)
class Correction:
    post: int
    vote: str | None = None
    ignore: bool = False
    note: str | None = None


@dataclass(frozen=True)
class Event:
    day: int
    kind: str
    hours: float | None = None
    post: int | None = None
    time: datetime | None = None
    player: str | None = None
    target: str | None = None
    note: str | None = None


@dataclass(frozen=True)
class Private:
    """Facts players must never see: they change outcomes, never public output."""

    judge: str | None = None
    sheriff: str | None = None
    loose_cannon: str | None = None
    deacon: str | None = None
    holy: tuple[str, ...] = ()
    lovers: tuple[tuple[str, ...], ...] = ()
    roles: dict[str, str] = field(default_factory=dict)
    decisions: tuple[dict[str, Any], ...] = ()
    sequestered: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True)
class FetchSettings:
    min_interval: float = 1.5
    interval: float = 300.0  # seconds between scheduled syncs
    cookies_file: str | None = None
    cookies_env: str | None = None
    contact: str | None = None
    posts_per_page: int | None = None


@dataclass(frozen=True)
class Game:
    path: Path
    title: str
    thread: str
    ruleset: str
    players: tuple[Seat, ...]
    forum: str | None = None
    moderators: tuple[str, ...] = ()
    timezone: str | None = None  # as the game file says it
    start: datetime | None = None
    templates: Path | None = None
    ruleset_zone: str | None = None  # the ruleset's [phases] timezone: the game's zone when the file names none
    fetch: FetchSettings = field(default_factory=FetchSettings)
    webhook: str | None = None
    days: tuple[DayDecl, ...] = ()
    deaths: tuple[Death, ...] = ()
    corrections: tuple[Correction, ...] = ()
    events: tuple[Event, ...] = ()
    private: Private = field(default_factory=Private)

    @property
    def key(self) -> str:
        """The name this game is stored under: the thread URL, so renaming the file loses nothing."""
        return self.thread

    @property
    def tz(self) -> ZoneInfo:
        """The game's time zone, the one home of it: the game file's, else the ruleset's, else UTC."""
        return ZoneInfo(self.timezone or self.ruleset_zone or "UTC")

    def seat(self, name: str) -> Seat:
        for seat in self.players:
            if seat.name == name:
                return seat
        raise KeyError(name)

    def day(self, number: int) -> DayDecl | None:
        return next((d for d in self.days if d.day == number), None)


def load_game(path: str | Path) -> Game:
    """Read and check a game file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise GameFileError(str(path), None, None, f"cannot read: {exc.strerror or exc}") from None
    return parse_game(text, path=path)


def parse_game(text: str, *, path: str | Path = "<game>") -> Game:
    path = Path(path)
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = getattr(exc, "lineno", None) or _line_from_message(str(exc))
        raise GameFileError(str(path), line, None, f"not valid TOML: {exc}") from None
    checker = _Checker(str(path), text)
    checker.check_table(raw, "", index=None)
    return _build(raw, path, checker)


def _line_from_message(message: str) -> int | None:
    found = re.search(r"line (\d+)", message)
    return int(found.group(1)) if found else None


class _Checker:
    """Checks keys and types against SCHEMA and knows which line each key is on."""

    def __init__(self, path: str, text: str):
        self.path = path
        self.lines = _locate_keys(text)

    def line(self, table: str, index: int | None, key: str | None) -> int | None:
        return self.lines.get((table, index, key)) or self.lines.get((table, index, None))

    def fail(self, table: str, index: int | None, key: str | None, message: str) -> GameFileError:
        shown = ".".join(p for p in (table, key) if p) or None
        if index is not None and table:
            shown = f"{table}[{index + 1}]" + (f".{key}" if key else "")
        return GameFileError(self.path, self.line(table, index, key), shown, message)

    def check_table(self, values: dict, table: str, index: int | None) -> None:
        schema = SCHEMA[table]
        for key, value in values.items():
            if table in FREE_FORM:
                if not isinstance(value, str):
                    raise self.fail(table, index, key, "must be a string")
                continue
            if key not in schema:
                known = ", ".join(sorted(schema))
                raise self.fail(table, index, key, f"unknown key (known keys: {known})")
            kind, _ = schema[key]
            sub = f"{table}.{key}" if table else key
            if kind == "table":
                if not isinstance(value, dict):
                    raise self.fail(table, index, key, "must be a table")
                self.check_table(value, sub, None)
            elif kind == "table[]":
                if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
                    raise self.fail(table, index, key, f"must be an array of tables ([[{sub}]])")
                for i, item in enumerate(value):
                    self.check_table(item, sub, i)
            elif not _has_type(value, kind):
                raise self.fail(table, index, key, f"must be {_TYPE_WORDS[kind]}, not {value!r}")
        for key, (_, required) in schema.items():
            if required and key not in values:
                raise self.fail(table, index, None, f"missing required key '{key}'")


_TYPE_WORDS = {
    "str": "a string",
    "int": "a whole number",
    "number": "a number",
    "bool": "true or false",
    "datetime": "a date-time such as 2024-03-01T22:00:00",
    "str[]": "a list of strings",
    "str[][]": "a list of lists of strings",
}


def _has_type(value: Any, kind: str) -> bool:
    if kind == "str":
        return isinstance(value, str)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "datetime":
        return isinstance(value, date | str)
    if kind == "str[]":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if kind == "str[][]":
        return isinstance(value, list) and all(_has_type(v, "str[]") for v in value)
    raise AssertionError(kind)


_HEADER = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_.\-\"' ]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-]+|\"[^\"]*\")\s*=")


def _locate_keys(text: str) -> dict[tuple[str, int | None, str | None], int]:
    """Map (table, array index, key) to the line it is written on, for error messages.

    tomllib gives values without positions; game files are simple enough (headers and
    ``key = value`` lines) that a line scan finds each key. Inline tables fall back to their header.
    """
    where: dict[tuple[str, int | None, str | None], int] = {}
    counts: dict[str, int] = {}
    table, index = "", None
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header:
            table = header.group(2).replace('"', "").replace("'", "").replace(" ", "")
            if header.group(1) == "[[":
                index = counts.get(table, -1) + 1
                counts[table] = index
            else:
                index = None
            where.setdefault((table, index, None), number)
            continue
        key = _KEY.match(line)
        if key:
            where.setdefault((table, index, key.group(1).strip('"')), number)
    return where


def _build(raw: dict, path: Path, checker: _Checker) -> Game:
    zone_name = raw.get("timezone")
    if zone_name is not None:
        try:
            ZoneInfo(zone_name)
        except (ZoneInfoNotFoundError, ValueError):
            raise checker.fail("", None, "timezone", f"unknown time zone {zone_name!r}") from None
    ruleset_zone = None if zone_name is not None else _ruleset_zone(raw["ruleset"], path)
    zone = ZoneInfo(zone_name or ruleset_zone or "UTC")

    def when(value: Any, table: str, index: int | None, key: str) -> datetime:
        return _to_utc(value, zone, lambda msg: checker.fail(table, index, key, msg))

    forum = raw.get("forum")
    if forum is not None and forum not in ENGINES:
        raise checker.fail("", None, "forum", f"unknown forum engine {forum!r} (one of: {', '.join(ENGINES)})")
    if not re.match(r"^https?://", raw["thread"]):
        raise checker.fail("", None, "thread", "must be the thread's http(s) URL")

    seats = []
    for i, p in enumerate(raw["players"]):
        weight = p.get("vote_weight", 1)
        if weight < 0:
            raise checker.fail("players", i, "vote_weight", "must not be negative")
        seats.append(Seat(p["name"], tuple(p.get("replacements", ())), tuple(p.get("aliases", ())), weight))
    if not seats:
        raise checker.fail("", None, "players", "a game needs at least one [[players]] entry")
    _check_unique_accounts(seats, checker)
    account_to_seat = {a.casefold(): s.name for s in seats for a in s.accounts}

    def seat_of(name: str, table: str, index: int | None, key: str) -> str:
        try:
            return account_to_seat[name.casefold()]
        except KeyError:
            raise checker.fail(table, index, key, f"{name!r} is not a player of this game") from None

    days = []
    seen_days: set[int] = set()
    for i, d in enumerate(raw.get("days", ())):
        if d["day"] < 1:
            raise checker.fail("days", i, "day", "days are numbered from 1")
        if d["day"] in seen_days:
            raise checker.fail("days", i, "day", f"day {d['day']} is declared twice")
        seen_days.add(d["day"])
        start_post, end_post = d.get("start_post"), d.get("end_post")
        if start_post is not None and end_post is not None and end_post < start_post:
            raise checker.fail("days", i, "end_post", "must not be before start_post")
        days.append(
            DayDecl(
                d["day"],
                start_post,
                end_post,
                when(d["start"], "days", i, "start") if "start" in d else None,
                when(d["end"], "days", i, "end") if "end" in d else None,
            )
        )
    days.sort(key=lambda d: d.day)

    deaths = []
    for i, d in enumerate(raw.get("deaths", ())):
        phase = PHASE_RE.match(d["phase"])
        if not phase:
            raise checker.fail("deaths", i, "phase", f"must look like 'day 2' or 'night 1', not {d['phase']!r}")
        player = seat_of(d["player"], "deaths", i, "player")
        deaths.append(Death(player, phase.group(1).lower(), int(phase.group(2)), d.get("post")))

    corrections = []
    for i, c in enumerate(raw.get("corrections", ())):
        if ("vote" in c) == bool(c.get("ignore")):
            raise checker.fail("corrections", i, None, "give exactly one of 'vote = \"Name\"' or 'ignore = true'")
        corrections.append(Correction(c["post"], c.get("vote"), bool(c.get("ignore")), c.get("note")))

    events = []
    for i, e in enumerate(raw.get("events", ())):
        if e["kind"] not in EVENT_KINDS:
            raise checker.fail("events", i, "kind", f"unknown event {e['kind']!r} (one of: {', '.join(EVENT_KINDS)})")
        events.append(
            Event(
                e["day"],
                e["kind"],
                e.get("hours"),
                e.get("post"),
                when(e["time"], "events", i, "time") if "time" in e else None,
                seat_of(e["player"], "events", i, "player") if "player" in e else None,
                e.get("target"),
                e.get("note"),
            )
        )

    private = _build_private(raw.get("private", {}), seat_of, checker)
    fetch = raw.get("fetch", {})
    if fetch.get("min_interval", 0) < 0:
        raise checker.fail("fetch", None, "min_interval", "must be 0 or more seconds")
    if fetch.get("interval", 1) <= 0:
        raise checker.fail("fetch", None, "interval", "must be more than 0 seconds")
    templates = raw.get("templates")
    return Game(
        path=path,
        title=raw["title"],
        thread=raw["thread"],
        ruleset=raw["ruleset"],
        players=tuple(seats),
        forum=forum,
        moderators=tuple(raw.get("moderators", ())),
        timezone=zone_name,
        ruleset_zone=ruleset_zone,
        start=when(raw["start"], "", None, "start") if "start" in raw else None,
        templates=(path.parent / templates) if templates else None,
        fetch=FetchSettings(**fetch),
        webhook=raw.get("alerts", {}).get("webhook"),
        days=tuple(days),
        deaths=tuple(deaths),
        corrections=tuple(corrections),
        events=tuple(events),
        private=private,
    )


def _ruleset_zone(name: str, path: Path) -> str | None:
    """The time zone of the game's ruleset: local times of a game file without ``timezone`` are in it."""
    try:
        return find_ruleset(name, path.parent).timezone
    except RulesetError:
        return None  # a broken ruleset is reported, with its line, where the game's rules are loaded


def _check_unique_accounts(seats: list[Seat], checker: _Checker) -> None:
    owner: dict[str, int] = {}
    for i, seat in enumerate(seats):
        for account in seat.accounts:
            folded = account.casefold()
            if folded in owner and owner[folded] != i:
                raise checker.fail("players", i, "name", f"account {account!r} already belongs to another seat")
            owner[folded] = i


def _build_private(raw: dict, seat_of, checker: _Checker) -> Private:
    def one(key: str) -> str | None:
        return seat_of(raw[key], "private", None, key) if key in raw else None

    decisions = []
    for i, d in enumerate(raw.get("decisions", ())):
        decision = {"day": d["day"]}
        for role in ("judge", "loose_cannon"):
            if role in d:
                pick = d[role]
                decision[role] = "none" if pick.casefold() == "none" else seat_of(pick, "private.decisions", i, role)
        decisions.append(decision)
    lovers = tuple(tuple(seat_of(n, "private", None, "lovers") for n in pair) for pair in raw.get("lovers", ()))
    return Private(
        judge=one("judge"),
        sheriff=one("sheriff"),
        loose_cannon=one("loose_cannon"),
        deacon=one("deacon"),
        holy=tuple(seat_of(n, "private", None, "holy") for n in raw.get("holy", ())),
        lovers=lovers,
        roles={seat_of(k, "private.roles", None, k): v for k, v in raw.get("roles", {}).items()},
        decisions=tuple(decisions),
        sequestered=tuple(
            (s["day"], seat_of(s["player"], "private.sequestered", i, "player"))
            for i, s in enumerate(raw.get("sequestered", ()))
        ),
    )


def _to_utc(value: Any, zone: ZoneInfo, fail) -> datetime:
    """TOML date-times with an offset are exact; local ones are in the game's time zone."""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            raise fail(f"not a date-time: {value!r} (write 2024-03-01T22:00:00, optionally with an offset)") from None
    if isinstance(value, date) and not isinstance(value, datetime):
        value = datetime.combine(value, time())
    if value.tzinfo is None:
        value = value.replace(tzinfo=zone)
    return value.astimezone(UTC)
