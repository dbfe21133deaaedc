"""The game file: the moderator's TOML description of a game, loaded into plain values.

The game file is the source of truth (the database is a cache of the forum). Loading checks every
key against :data:`SCHEMA`; an unknown key or a bad value raises :class:`GameFileError` naming the
file, the line and the key.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, tzinfo
from enum import Enum, StrEnum
from pathlib import Path
from typing import Any, Literal, Required, TypedDict

from assistant.errors import GameFileError, VotalError
from assistant.gamefile.choices import PhaseKind
from assistant.gamefile.findings import id_problem
from assistant.gamefile.rules import find_ruleset
from assistant.gamefile.weburl import url_problem
from assistant.gamefile.zones import UnknownZone, zone_named

ENGINES = ("phpbb", "discourse", "xenforo", "vbulletin", "proboards")


class EventKind(StrEnum):
    """An ``[[events]]`` entry's ``kind``, spelled as the game file spells it."""

    EXTEND = "extend"
    EARLY_END = "early_end"
    NOMINATE = "nominate"
    RUNOFF_END = "runoff_end"
    DEADLINE = "deadline"
    # a player announced dead is alive again from this day (post) on: the Witchhunt 9.0 Magician
    RETURN = "return"
    # Millers Hollow: `player` holds the sheriff's badge from this day (post) on
    SHERIFF = "sheriff"
    # Millers Hollow: this day's "vote X for sheriff" votes elect a sheriff
    SHERIFF_ELECTION = "sheriff_election"
    MODKILL = "modkill"  # Witchhunt Online: the moderator kills `player`, using this day's hanging


EVENT_KINDS = tuple(k.value for k in EventKind)
# the events that name the player they are about
_PLAYER_EVENTS = (EventKind.RETURN, EventKind.SHERIFF, EventKind.MODKILL)
# A table of the game file as tomllib reads it; check_table holds its values to SCHEMA before use.
TomlTable = dict[str, Any]


class VoteMode(StrEnum):
    """A seat's ``vote_mode``: how a vote_weight of N is cast."""

    WHOLE = "whole"  # one vote worth N
    SPLIT = "split"  # N separate votes of one, cast one at a time


PHASE_RE = re.compile(r"^\s*(day|night)\s*(\d+)\s*$", re.IGNORECASE)


class FieldType(Enum):
    """What a game file's key holds; a TABLE or TABLES key names a nested schema."""

    STR = "str"
    INT = "int"
    NUMBER = "number"
    BOOL = "bool"
    DATETIME = "datetime"
    STRINGS = "str[]"
    STRING_LISTS = "str[][]"
    REPLACEMENTS = "replacements"  # account names or {name = "New", post = 512} tables
    TABLE = "table"
    TABLES = "table[]"


# Each table's keys: key -> (type, required).
SCHEMA: dict[str, dict[str, tuple[FieldType, bool]]] = {
    "": {
        "title": (FieldType.STR, True),
        "thread": (FieldType.STR, True),
        "forum": (FieldType.STR, False),
        "ruleset": (FieldType.STR, True),
        "moderators": (FieldType.STRINGS, False),
        "timezone": (FieldType.STR, False),
        "start": (FieldType.DATETIME, False),
        "templates": (FieldType.STR, False),
        "fetch": (FieldType.TABLE, False),
        "alerts": (FieldType.TABLE, False),
        "players": (FieldType.TABLES, True),
        "days": (FieldType.TABLES, False),
        "deaths": (FieldType.TABLES, False),
        "survivals": (FieldType.TABLES, False),
        "corrections": (FieldType.TABLES, False),
        "resets": (FieldType.TABLES, False),
        "events": (FieldType.TABLES, False),
        "private": (FieldType.TABLE, False),
        "lynches_per_day": (FieldType.INT, False),
        "house": (FieldType.TABLE, False),
        "checks": (FieldType.TABLE, False),
    },
    "checks": {"accepted": (FieldType.STRINGS, False)},
    "house": {
        name: (FieldType.BOOL, False)
        for name in (
            "self_hammer_ignored",
            "broken_tags_void",
            "old_account_names_refused",
            "replacement_starts_unvoted",
            "votes_on_own_line",
            "deadline_plurality",
        )
    },
    "fetch": {
        "min_interval": (FieldType.NUMBER, False),
        "interval": (FieldType.NUMBER, False),
        "cookies_file": (FieldType.STR, False),
        "cookies_env": (FieldType.STR, False),
        "contact": (FieldType.STR, False),
        "posts_per_page": (FieldType.INT, False),
    },
    "alerts": {"webhook": (FieldType.STR, False)},
    "players": {
        "name": (FieldType.STR, True),
        "replacements": (FieldType.REPLACEMENTS, False),
        "aliases": (FieldType.STRINGS, False),
        "vote_weight": (FieldType.NUMBER, False),
        "vote_mode": (FieldType.STR, False),
    },
    "days": {
        "day": (FieldType.INT, True),
        "start_post": (FieldType.INT, False),
        "end_post": (FieldType.INT, False),
        "start": (FieldType.DATETIME, False),
        "end": (FieldType.DATETIME, False),
    },
    "deaths": {
        "player": (FieldType.STR, True),
        "phase": (FieldType.STR, True),
        "post": (FieldType.INT, False),
        "role": (FieldType.STR, False),
    },
    "survivals": {
        "player": (FieldType.STR, True),
        "phase": (FieldType.STR, True),
        "post": (FieldType.INT, False),
        "note": (FieldType.STR, False),
    },
    "resets": {"post": (FieldType.INT, True), "note": (FieldType.STR, False)},
    "corrections": {
        "post": (FieldType.INT, True),
        "vote": (FieldType.STR, False),
        "ignore": (FieldType.BOOL, False),
        "note": (FieldType.STR, False),
    },
    "events": {
        "day": (FieldType.INT, True),
        "kind": (FieldType.STR, True),
        "hours": (FieldType.NUMBER, False),
        "post": (FieldType.INT, False),
        "time": (FieldType.DATETIME, False),
        "player": (FieldType.STR, False),
        "target": (FieldType.STR, False),
        "note": (FieldType.STR, False),
    },
    "private": {
        "judge": (FieldType.STR, False),
        "sheriff": (FieldType.STR, False),
        "loose_cannon": (FieldType.STR, False),
        "apprentice": (FieldType.STR, False),
        "peeping_tom": (FieldType.STR, False),
        "deacon": (FieldType.STR, False),
        "holy": (FieldType.STRINGS, False),
        "lovers": (FieldType.STRING_LISTS, False),
        "roles": (FieldType.TABLE, False),
        "decisions": (FieldType.TABLES, False),
        "sequestered": (FieldType.TABLES, False),
        "extra_lives": (FieldType.STRINGS, False),
        "successors": (FieldType.TABLES, False),
    },
    "private.roles": {},  # free-form: seat name -> role name
    "private.decisions": {
        "day": (FieldType.INT, True),
        "judge": (FieldType.STR, False),
        "loose_cannon": (FieldType.STR, False),
        "post": (FieldType.INT, False),
    },
    "private.sequestered": {"day": (FieldType.INT, True), "player": (FieldType.STR, True)},
    "private.successors": {"sheriff": (FieldType.STR, True), "successor": (FieldType.STR, True)},
}
FREE_FORM = {"private.roles": FieldType.STR}


@dataclass(frozen=True)
class Seat:
    """One seat ("slot"): its first account names it; replacements are later accounts, in order.

    ``replacement_posts`` runs beside ``replacements``: the post from which each new account holds
    the seat (``{name = "New", post = 512}`` in the game file), None where the file gives only the
    name.
    """

    name: str
    replacements: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    vote_weight: float = 1
    replacement_posts: tuple[int | None, ...] = ()
    vote_mode: VoteMode = VoteMode.WHOLE

    @property
    def split_votes(self) -> int:
        """How many separate votes this seat casts (1 unless ``vote_mode = "split"``)."""
        return int(self.vote_weight) if self.vote_mode == VoteMode.SPLIT else 1

    @property
    def accounts(self) -> tuple[str, ...]:
        return (self.name, *self.replacements)

    @property
    def current(self) -> str:
        """The account holding the seat now: the last replacement, else the seat's name."""
        return self.accounts[-1]

    @property
    def shown(self) -> str:
        """The seat as players know it now: "New (replaced Old)", or just the name when never
        replaced."""
        return self.shown_at(None)

    def shown_at(self, post: int | None) -> str:
        """The seat as players knew it at ``post`` (None: now): its account then, and the ones it
        replaced."""
        holder = self.current if post is None else self.account_at(post)
        if holder == self.name:
            return self.name
        before = self.accounts[: self.accounts.index(holder)]
        return f"{holder} (replaced {', '.join(before)})"

    def account_at(self, post: int) -> str:
        """The account holding the seat at ``post``: the latest replacement whose post is at or
        before it.

        A replacement without a post is taken to hold the seat from the start of the game (the file
        does not say when), which is what counting did before replacements had posts.
        """
        holder = self.name
        for account, since in zip(self.replacements, self._since(), strict=True):
            if since is None or since <= post:
                holder = account
        return holder

    def out_of_turn(self, account: str, post: int) -> str | None:
        """Why ``account`` (one of the seat's) could not act for the seat at ``post``, or None.

        Only replacements with a post say anything: the old account after that post, the new one
        before it.
        """
        folded = [a.casefold() for a in self.accounts]
        if account.casefold() not in folded:
            return None
        i = folded.index(account.casefold())
        since = (None, *self._since())
        start, end = since[i], since[i + 1] if i + 1 < len(since) else None
        if start is not None and post < start:
            return f"{account} posted at {post}, before replacing into the seat at post {start}"
        if end is not None and post >= end:
            successor = self.accounts[i + 1]
            return f"{account} posted at {post}, after being replaced by {successor} at post {end}"
        return None

    def _since(self) -> tuple[int | None, ...]:
        return self.replacement_posts or (None,) * len(self.replacements)


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
    phase: PhaseKind
    phase_number: int
    post: int | None = None
    role: str | None = None  # the role announced with the death (public: a "flip")


@dataclass(frozen=True)
class Survival:
    """A public failed kill: the player survived (an extra life, a protection, the Deacon) and it is
    announced."""

    player: str
    phase: PhaseKind
    phase_number: int
    post: int | None = None
    note: str | None = None


@dataclass(frozen=True)
class Reset:
    """The moderator reset the vote count at this post: every vote cast before it is gone."""

    post: int
    note: str | None = None


@dataclass(frozen=True)
class Correction:
    post: int
    vote: str | None = None
    ignore: bool = False
    note: str | None = None


@dataclass(frozen=True)
class Event:
    day: int
    kind: EventKind
    hours: float | None = None
    post: int | None = None
    time: datetime | None = None
    player: str | None = None
    target: str | None = None
    note: str | None = None


# The roles whose pick a [[private.decisions]] entry records.
DecidingRole = Literal["judge", "loose_cannon"]
DECIDING_ROLES: tuple[DecidingRole, ...] = ("judge", "loose_cannon")


class PrivateDecision(TypedDict, total=False):
    """A ``[[private.decisions]]`` entry: its day, each deciding role's pick (a seat or "none"), and
    the post it was made at, when the file says."""

    day: Required[int]
    judge: str
    loose_cannon: str
    post: int


@dataclass(frozen=True)
class Private:
    """Facts players must never see: they change outcomes, never public output."""

    judge: str | None = None
    sheriff: str | None = None
    loose_cannon: str | None = None
    apprentice: str | None = (
        None  # Witch Hunt 2023: the Apprentice who chose the Judge; decides when the Judge dies
    )
    peeping_tom: str | None = (
        None  # observing the Judge: may decide in the Judge's place when the Judge is dead
    )
    deacon: str | None = None
    holy: tuple[str, ...] = ()
    lovers: tuple[tuple[str, ...], ...] = ()
    roles: dict[str, str] = field(default_factory=dict)
    decisions: tuple[PrivateDecision, ...] = ()
    sequestered: tuple[tuple[int, str], ...] = ()
    extra_lives: tuple[str, ...] = ()  # a seat once per extra life it starts with (Survivalist...)
    successors: dict[str, str] = field(default_factory=dict)  # sheriff -> the successor he named


@dataclass(frozen=True)
class FetchSettings:
    min_interval: float = 1.5
    interval: float = 300.0  # seconds between scheduled syncs
    cookies_file: str | None = None
    cookies_env: str | None = None
    contact: str | None = None
    posts_per_page: int | None = None


@dataclass(frozen=True)
class House:
    """House rules the game file switches on (``[house]``); each is off unless set."""

    self_hammer_ignored: bool = (
        False  # a vote by the wagon's own seat that would reach majority does not count
    )
    broken_tags_void: bool = False  # a vote read from a broken tag does not count
    old_account_names_refused: bool = (
        False  # a vote naming a seat by an account it no longer plays is refused
    )
    replacement_starts_unvoted: bool = False  # a replacement's standing vote is cleared at its post
    votes_on_own_line: bool = False  # a vote sharing its line with other text does not count
    deadline_plurality: bool = (
        False  # no majority at the deadline: the seat with the most votes is lynched
    )


@dataclass(frozen=True)
class Game:
    path: Path
    title: str
    thread: str
    ruleset: str
    players: tuple[Seat, ...]
    forum: str | None = None
    moderators: tuple[str, ...] = ()
    timezone: str | None = None
    start: datetime | None = None
    templates: Path | None = None
    fetch: FetchSettings = field(default_factory=FetchSettings)
    webhook: str | None = None
    days: tuple[DayDecl, ...] = ()
    deaths: tuple[Death, ...] = ()
    survivals: tuple[Survival, ...] = ()
    corrections: tuple[Correction, ...] = ()
    resets: tuple[Reset, ...] = ()
    events: tuple[Event, ...] = ()
    private: Private = field(default_factory=Private)
    lynches_per_day: int = 1  # the day goes on after a lynch until this many
    house: House = field(default_factory=lambda: House())
    accepted: frozenset[str] = frozenset()  # [checks] accepted: ids of warnings answered

    @property
    def key(self) -> str:
        """The name this game is stored under: the thread URL, so renaming the file loses
        nothing."""
        return self.thread

    @property
    def tz(self) -> tzinfo:
        """The game's zone: the game file's ``timezone``, else its ruleset's (set at load), else
        UTC."""
        return zone_named(self.timezone or "UTC")

    def seat(self, name: str) -> Seat:
        for seat in self.players:
            if seat.name == name:
                return seat
        raise KeyError(name)

    def shown(self, name: str, post: int | None = None) -> str:
        """How players' posts and pages name a seat at ``post`` (None: now): "New (replaced Old)"
        once replaced; anything that is no seat's name (No Lynch, a moderator) as it is."""
        seat = next((s for s in self.players if s.name == name), None)
        return seat.shown_at(post) if seat is not None else name

    def day(self, number: int) -> DayDecl | None:
        return next((d for d in self.days if d.day == number), None)

    def last_named_post(self) -> int | None:
        """The last post the game file names (a day's start or end, a death, a replacement, an
        event): what the thread says after it is news to the file."""
        named = [
            *(p for d in self.days for p in (d.start_post, d.end_post)),
            *(d.post for d in self.deaths),
            *(p for s in self.players for p in s.replacement_posts),
            *(e.post for e in self.events),
        ]
        known = [p for p in named if p is not None]
        return max(known) if known else None


def load_game(path: str | Path, *, players_required: bool = True) -> Game:
    """Read and check a game file. ``players_required=False``: a file without [[players]] yet
    (`votal update` fills them from the thread's player list)."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise GameFileError(str(path), None, None, f"cannot read: {exc.strerror or exc}") from None
    if b"\0" in data:
        raise GameFileError(
            str(path),
            None,
            None,
            "not a game file: it holds binary data (a TOML text file is needed)",
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise GameFileError(
            str(path), line, None, "not UTF-8 text (save the game file as UTF-8)"
        ) from None
    return parse_game(text, path=path, players_required=players_required)


def parse_game(text: str, *, path: str | Path = "<game>", players_required: bool = True) -> Game:
    path = Path(path)
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = getattr(exc, "lineno", None) or _line_from_message(str(exc))
        raise GameFileError(str(path), line, None, f"not valid TOML: {exc}") from None
    checker = _Checker(str(path), text)
    if not players_required:
        raw.setdefault("players", [])
    checker.check_table(raw, "", index=None)
    return _build(raw, path, checker, players_required)


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

    def check_table(self, values: TomlTable, table: str, index: int | None) -> None:
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
            if kind is FieldType.TABLE:
                if not isinstance(value, dict):
                    raise self.fail(table, index, key, "must be a table")
                self.check_table(value, sub, None)
            elif kind is FieldType.TABLES:
                if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
                    raise self.fail(table, index, key, f"must be an array of tables ([[{sub}]])")
                for i, item in enumerate(value):
                    self.check_table(item, sub, i)
            elif not _has_type(value, kind):
                raise self.fail(table, index, key, f"must be {_TYPE_WORDS[kind]}, not {value!r}")
            elif (
                kind is FieldType.INT and value < 0
            ):  # post and day numbers, page sizes: none is negative
                raise self.fail(table, index, key, f"must be 0 or more, not {value}")
            elif kind is FieldType.STR and key not in _MAY_BE_EMPTY and not value.strip():
                raise self.fail(table, index, key, "must not be empty")
        for key, (_, required) in schema.items():
            if required and key not in values:
                raise self.fail(table, index, None, f"missing required key '{key}'")


# Strings that may be empty: a free note, and a correction's vote ("" reads as no vote).
_MAY_BE_EMPTY = frozenset({"note", "vote"})

_TYPE_WORDS = {
    FieldType.STR: "a string",
    FieldType.INT: "a whole number",
    FieldType.NUMBER: "a number",
    FieldType.BOOL: "true or false",
    FieldType.DATETIME: "a date-time such as 2024-03-01T22:00:00",
    FieldType.STRINGS: "a list of strings",
    FieldType.STRING_LISTS: "a list of lists of strings",
    FieldType.REPLACEMENTS: 'a list of account names or {name = "New", post = 512} tables',
}


def _has_type(value: object, kind: FieldType) -> bool:
    if kind is FieldType.STR:
        return isinstance(value, str)
    if kind is FieldType.INT:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind is FieldType.NUMBER:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind is FieldType.BOOL:
        return isinstance(value, bool)
    if kind is FieldType.DATETIME:
        return isinstance(value, date | str)
    if kind is FieldType.STRINGS:
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if kind is FieldType.STRING_LISTS:
        return isinstance(value, list) and all(_has_type(v, FieldType.STRINGS) for v in value)
    if kind is FieldType.REPLACEMENTS:
        return isinstance(value, list) and all(
            isinstance(v, str) or _is_replacement(v) for v in value
        )
    raise AssertionError(kind)


def _is_replacement(value: object) -> bool:
    """``{name = "New", post = 512}``: a replacement holding the seat from a post on."""
    return (
        isinstance(value, dict)
        and isinstance(value.get("name"), str)
        and set(value) <= {"name", "post"}
        and _has_type(value.get("post", 0), FieldType.INT)
    )


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


def game_zone_name(raw: Mapping[str, object], path: Path) -> str | None:
    """The zone a game file's local times are in: its ``timezone``, else its ruleset's ("11 am West
    Coast time"); None: UTC. ``raw`` is the parsed file (a dict, or a tomlkit document while editing
    it)."""
    name = raw.get("timezone")
    if name is None:
        try:
            name = find_ruleset(str(raw.get("ruleset", "")), path.parent).timezone
        except VotalError:
            name = None  # a broken ruleset is reported where it is loaded
    return str(name) if name else None


@dataclass(frozen=True)
class _Builder:
    """What every table of a game file is read with: the checker, the game's zone and its seats."""

    checker: _Checker
    zone: tzinfo
    account_to_seat: dict[str, str]

    def when(self, value: date | str, table: str, index: int | None, key: str) -> datetime:
        return _to_utc(value, self.zone, lambda msg: self.checker.fail(table, index, key, msg))

    def seat_of(self, name: str, table: str, index: int | None, key: str) -> str:
        try:
            return self.account_to_seat[name.casefold()]
        except KeyError:
            message = f"{name!r} is not a player of this game"
            raise self.checker.fail(table, index, key, message) from None


def _build(raw: TomlTable, path: Path, checker: _Checker, players_required: bool) -> Game:
    zone_name = game_zone_name(raw, path)
    try:
        zone = zone_named(zone_name or "UTC")
    except UnknownZone as exc:
        raise checker.fail("", None, "timezone", str(exc)) from None
    forum = raw.get("forum")
    _check_thread(raw, checker)
    seats = _build_seats(raw, checker, players_required)
    builder = _Builder(checker, zone, _seat_of_account(seats))
    days = _build_days(raw, builder)
    deaths, survivals = _build_deaths(raw, builder), _build_survivals(raw, builder)
    corrections, events = _build_corrections(raw, checker), _build_events(raw, builder)
    private = _build_private(raw.get("private", {}), builder.seat_of, checker)
    _check_moderators(raw.get("moderators", ()), seats, checker)
    # days come only from [[days]]: every day named must be declared
    if days and "start" not in raw:
        _check_days_named(raw, {d.day for d in days}, checker)
    fetch = raw.get("fetch", {})
    _check_fetch(fetch, checker)
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
        start=builder.when(raw["start"], "", None, "start") if "start" in raw else None,
        templates=(path.parent / templates) if templates else None,
        fetch=FetchSettings(**fetch),
        webhook=raw.get("alerts", {}).get("webhook"),
        days=tuple(days),
        deaths=deaths,
        survivals=survivals,
        corrections=corrections,
        resets=tuple(Reset(r["post"], r.get("note")) for r in raw.get("resets", ())),
        events=events,
        private=private,
        lynches_per_day=_lynches_per_day(raw, checker),
        house=House(**raw.get("house", {})),
        accepted=_accepted(raw.get("checks", {}), checker),
    )


def _check_thread(raw: TomlTable, checker: _Checker) -> None:
    """The forum engine is one Votal knows, and the thread is an http(s) address."""
    forum = raw.get("forum")
    if forum is not None and forum not in ENGINES:
        known = ", ".join(ENGINES)
        raise checker.fail("", None, "forum", f"unknown forum engine {forum!r} (one of: {known})")
    if (problem := url_problem(raw["thread"])) is not None:
        raise checker.fail("", None, "thread", f"must be the thread's http(s) URL: {problem}")


def _build_seats(raw: TomlTable, checker: _Checker, players_required: bool) -> list[Seat]:
    seats = [_build_seat(p, i, checker) for i, p in enumerate(raw["players"])]
    if not seats and players_required:
        raise checker.fail("", None, "players", "a game needs at least one [[players]] entry")
    dead = {str(d.get("player", "")).casefold() for d in raw.get("deaths", ())}
    _check_unique_accounts(seats, checker, dead)
    return seats


def _build_seat(player: TomlTable, index: int, checker: _Checker) -> Seat:
    weight = player.get("vote_weight", 1)
    if weight < 0:
        raise checker.fail("players", index, "vote_weight", "must not be negative")
    if player.get("vote_mode", VoteMode.WHOLE) not in tuple(VoteMode):
        raise checker.fail("players", index, "vote_mode", 'must be "whole" or "split"')
    mode = VoteMode(player.get("vote_mode", VoteMode.WHOLE))
    if mode == VoteMode.SPLIT and (weight < 2 or weight != int(weight)):
        message = '"split" needs a whole vote_weight of 2 or more'
        raise checker.fail("players", index, "vote_mode", message)
    names, posts = _replacements(player.get("replacements", ()), checker, index)
    aliases = tuple(player.get("aliases", ()))
    return Seat(player["name"], names, aliases, weight, posts, mode)


def _seat_of_account(seats: list[Seat]) -> dict[str, str]:
    account_to_seat: dict[str, str] = {}
    # an account in two seats names its first one (the second is named by its own name)
    for seat in seats:
        for account in seat.accounts:
            account_to_seat.setdefault(account.casefold(), seat.name)
    return account_to_seat


def _build_days(raw: TomlTable, builder: _Builder) -> list[DayDecl]:
    checker = builder.checker
    days: list[DayDecl] = []
    seen_days: set[int] = set()
    for i, d in enumerate(raw.get("days", ())):
        if d["day"] < 1:
            raise checker.fail("days", i, "day", "days are numbered from 1")
        if d["day"] in seen_days:
            raise checker.fail("days", i, "day", f"day {d['day']} is declared twice")
        seen_days.add(d["day"])
        days.append(_build_day(d, i, builder))
    _check_day_order(days, checker)
    days.sort(key=lambda d: d.day)
    return days


def _build_day(declared: TomlTable, index: int, builder: _Builder) -> DayDecl:
    start_post, end_post = declared.get("start_post"), declared.get("end_post")
    if start_post is not None and end_post is not None and end_post < start_post:
        raise builder.checker.fail("days", index, "end_post", "must not be before start_post")
    start, end = (
        builder.when(declared[key], "days", index, key) if key in declared else None
        for key in ("start", "end")
    )
    if start and end and end < start:
        raise builder.checker.fail("days", index, "end", "must not be before start")
    return DayDecl(declared["day"], start_post, end_post, start, end)


def _read_phase(
    entry: TomlTable, table: str, index: int, checker: _Checker
) -> tuple[PhaseKind, int]:
    """An entry's ``phase`` ("day 2", "night 1") as its kind and number."""
    phase = PHASE_RE.match(entry["phase"])
    if not phase:
        message = f"must look like 'day 2' or 'night 1', not {entry['phase']!r}"
        raise checker.fail(table, index, "phase", message)
    return PhaseKind(phase.group(1).lower()), int(phase.group(2))


def _build_deaths(raw: TomlTable, builder: _Builder) -> tuple[Death, ...]:
    deaths = []
    for i, d in enumerate(raw.get("deaths", ())):
        kind, number = _read_phase(d, "deaths", i, builder.checker)
        player = builder.seat_of(d["player"], "deaths", i, "player")
        deaths.append(Death(player, kind, number, d.get("post"), d.get("role")))
    return tuple(deaths)


def _build_survivals(raw: TomlTable, builder: _Builder) -> tuple[Survival, ...]:
    survivals = []
    for i, d in enumerate(raw.get("survivals", ())):
        kind, number = _read_phase(d, "survivals", i, builder.checker)
        player = builder.seat_of(d["player"], "survivals", i, "player")
        survivals.append(Survival(player, kind, number, d.get("post"), d.get("note")))
    return tuple(survivals)


def _build_corrections(raw: TomlTable, checker: _Checker) -> tuple[Correction, ...]:
    corrections = []
    for i, c in enumerate(raw.get("corrections", ())):
        if ("vote" in c) == bool(c.get("ignore")):
            message = "give exactly one of 'vote = \"Name\"' or 'ignore = true'"
            raise checker.fail("corrections", i, None, message)
        corrections.append(
            Correction(c["post"], c.get("vote"), bool(c.get("ignore")), c.get("note"))
        )
    return tuple(corrections)


def _build_events(raw: TomlTable, builder: _Builder) -> tuple[Event, ...]:
    return tuple(_build_event(e, i, builder) for i, e in enumerate(raw.get("events", ())))


def _build_event(entry: TomlTable, index: int, builder: _Builder) -> Event:
    kind = entry["kind"]
    if kind not in EVENT_KINDS:
        known = ", ".join(EVENT_KINDS)
        raise builder.checker.fail(
            "events", index, "kind", f"unknown event {kind!r} (one of: {known})"
        )
    if kind in _PLAYER_EVENTS and "player" not in entry:
        message = f'a {kind!r} event needs player = "Name"'
        raise builder.checker.fail("events", index, None, message)
    return Event(
        entry["day"],
        EventKind(kind),
        entry.get("hours"),
        entry.get("post"),
        builder.when(entry["time"], "events", index, "time") if "time" in entry else None,
        builder.seat_of(entry["player"], "events", index, "player") if "player" in entry else None,
        entry.get("target"),
        entry.get("note"),
    )


def _accepted(checks: TomlTable, checker: _Checker) -> frozenset[str]:
    """``[checks] accepted``: each the id of a warning that can be accepted (gamefile.findings)."""
    accepted = checks.get("accepted", [])
    for text in accepted:
        problem = id_problem(text)
        if problem is not None:
            raise checker.fail("checks", None, "accepted", problem)
    return frozenset(accepted)


def _lynches_per_day(raw: TomlTable, checker: _Checker) -> int:
    value: int = raw.get("lynches_per_day", 1)
    if value < 1:
        raise checker.fail("", None, "lynches_per_day", "must be 1 or more")
    return value


MIN_SYNC_INTERVAL = (
    60.0  # seconds: `votal run` never polls a forum more often than this (its last-hour pace)
)
MAX_SYNC_INTERVAL = 7 * 24 * 3600.0
MAX_MIN_INTERVAL = 3600.0  # seconds between two requests: more would make one sync take days


def _check_fetch(fetch: TomlTable, checker: _Checker) -> None:
    """The [fetch] numbers: finite (nan and inf are TOML numbers too), and within bounds that keep
    Votal polite to the forum and a sync finite."""
    wait = fetch.get("min_interval", 0)
    if not math.isfinite(wait) or not 0 <= wait <= MAX_MIN_INTERVAL:
        raise checker.fail(
            "fetch",
            None,
            "min_interval",
            f"must be 0 or more seconds, at most {MAX_MIN_INTERVAL:g} (got {wait})",
        )
    interval = fetch.get("interval", MIN_SYNC_INTERVAL)
    if not math.isfinite(interval) or not MIN_SYNC_INTERVAL <= interval <= MAX_SYNC_INTERVAL:
        raise checker.fail(
            "fetch",
            None,
            "interval",
            f"must be {MIN_SYNC_INTERVAL:g} to {MAX_SYNC_INTERVAL:g} seconds (got {interval}); a "
            "shorter one would hammer the forum",
        )
    if fetch.get("posts_per_page", 1) <= 0:
        raise checker.fail("fetch", None, "posts_per_page", "must be 1 or more")


def _check_day_order(days: list[DayDecl], checker: _Checker) -> None:
    """[[days]] in file order: numbers rising, each day after the one before it, by post and by
    time."""
    for i in range(1, len(days)):
        before, day = days[i - 1], days[i]
        if day.day < before.day:
            raise checker.fail(
                "days",
                i,
                "day",
                f"day {day.day} is listed after day {before.day}: list days in order",
            )
        if (
            day.start_post is not None
            and before.start_post is not None
            and day.start_post <= before.start_post
        ):
            raise checker.fail(
                "days",
                i,
                "start_post",
                f"day {day.day} starts at post {day.start_post}, not after day {before.day} "
                f"(post {before.start_post}): days out of order",
            )
        # one post may both end a day and start the next (the moderator's "day 1 is over; day 2
        # begins")
        if (
            day.start_post is not None
            and before.end_post is not None
            and day.start_post < before.end_post
        ):
            raise checker.fail(
                "days",
                i,
                "start_post",
                f"day {day.day} starts at post {day.start_post}, inside day {before.day} "
                f"(posts {_span(before.start_post, before.end_post)}): days overlap",
            )
        if day.start is not None and before.start is not None and day.start <= before.start:
            raise checker.fail(
                "days",
                i,
                "start",
                f"day {day.day} starts at {day.start:%Y-%m-%d %H:%M} UTC, not after day "
                f"{before.day} ({before.start:%Y-%m-%d %H:%M} UTC): days out of order",
            )
        if day.start is not None and before.end is not None and day.start < before.end:
            raise checker.fail(
                "days",
                i,
                "start",
                f"day {day.day} starts at {day.start:%Y-%m-%d %H:%M} UTC, before day {before.day} "
                f"ends ({before.end:%Y-%m-%d %H:%M} UTC): days overlap",
            )


def _span(first: int | None, last: int) -> str:
    return f"{first}-{last}" if first is not None else f"up to {last}"


def _check_moderators(moderators: list[str], seats: list[Seat], checker: _Checker) -> None:
    """A moderator's posts never count as votes, so a moderator who is also a player would silently
    lose theirs."""
    owner = {a.casefold(): s.name for s in seats for a in s.accounts}
    for name in moderators:
        if name.casefold() in owner:
            raise checker.fail(
                "",
                None,
                "moderators",
                f"{name!r} is also a player (seat {owner[name.casefold()]!r}): a moderator's posts "
                "never count as votes; remove the name from one of the two",
            )


def _check_days_named(raw: TomlTable, declared: set[int], checker: _Checker) -> None:
    """Deaths and decisions name days; in a game timed only by [[days]], none may lie past the last
    one."""
    last = max(declared)

    def need(day: int, table: str, index: int | None, key: str, what: str) -> None:
        if day > last:
            raise checker.fail(
                table, index, key, f"{what}, but the last day [[days]] declares is day {last}"
            )

    for i, d in enumerate(raw.get("deaths", ())):
        phase = PHASE_RE.match(d["phase"])
        if phase is None:
            continue  # reported where the deaths are read
        kind, number = phase.groups()
        if kind.lower() == "day" and int(number) < 1:
            raise checker.fail(
                "deaths", i, "phase", "days are numbered from 1 (a death before day 1 is 'night 0')"
            )
        need(
            int(number),
            "deaths",
            i,
            "phase",
            f"{d['phase']!r} is "
            + ("part of" if kind.lower() == "day" else "the night after")
            + f" day {number}",
        )
    private = raw.get("private", {})
    for table in ("decisions", "sequestered"):
        for i, d in enumerate(private.get(table, ())):
            need(d["day"], f"private.{table}", i, "day", f"the entry is for day {d['day']}")


def _replacements(
    raw: list[str | TomlTable], checker: _Checker, index: int
) -> tuple[tuple[str, ...], tuple[int | None, ...]]:
    """Names and posts of a seat's replacements; posts, where given, must rise with each
    replacement."""
    names = tuple(r if isinstance(r, str) else r["name"] for r in raw)
    posts = tuple(None if isinstance(r, str) else r.get("post") for r in raw)
    known = [p for p in posts if p is not None]
    if known != sorted(known) or len(set(known)) != len(known):
        raise checker.fail(
            "players",
            index,
            "replacements",
            "the posts must rise in the order replacements are listed",
        )
    return names, (posts if known else ())


def _check_unique_accounts(seats: list[Seat], checker: _Checker, dead: set[str]) -> None:
    """An account belongs to one seat, except that it may take a second seat after its first one
    died: a replacement with a ``post`` into the later seat, the earlier seat listed in [[deaths]]
    (by any account)."""
    owner: dict[str, int] = {}
    for i, seat in enumerate(seats):
        posts = seat.replacement_posts or (None,) * len(seat.replacements)
        since = dict(zip((a.casefold() for a in seat.replacements), posts, strict=True))
        for account in seat.accounts:
            folded = account.casefold()
            if folded in owner and owner[folded] != i:
                first = seats[owner[folded]]
                if since.get(folded) is None or not {a.casefold() for a in first.accounts} & dead:
                    raise checker.fail(
                        "players",
                        i,
                        "name",
                        f"account {account!r} already belongs to another seat (it may take a "
                        "second seat only as a replacement with a post, after its first seat died)",
                    )
                continue
            owner[folded] = i


# (name, table, index, key) -> the seat a name in the game file is
_SeatOf = Callable[[str, str, int | None, str], str]


def _build_private(raw: TomlTable, seat_of: _SeatOf, checker: _Checker) -> Private:
    def one(key: str) -> str | None:
        return seat_of(raw[key], "private", None, key) if key in raw else None

    decisions = []
    for i, d in enumerate(raw.get("decisions", ())):
        decision: PrivateDecision = {"day": d["day"]}
        if "post" in d:
            # where the decision was made: an as-of replay before it never sees it
            decision["post"] = d["post"]
        for role in DECIDING_ROLES:
            if role in d:
                pick = d[role]
                decision[role] = (
                    "none"
                    if pick.casefold() == "none"
                    else seat_of(pick, "private.decisions", i, role)
                )
        decisions.append(decision)
    lovers = tuple(
        tuple(seat_of(n, "private", None, "lovers") for n in pair) for pair in raw.get("lovers", ())
    )
    successors = {
        seat_of(s["sheriff"], "private.successors", i, "sheriff"): seat_of(
            s["successor"], "private.successors", i, "successor"
        )
        for i, s in enumerate(raw.get("successors", ()))
    }
    return Private(
        judge=one("judge"),
        sheriff=one("sheriff"),
        loose_cannon=one("loose_cannon"),
        apprentice=one("apprentice"),
        peeping_tom=one("peeping_tom"),
        deacon=one("deacon"),
        holy=tuple(seat_of(n, "private", None, "holy") for n in raw.get("holy", ())),
        lovers=lovers,
        roles={seat_of(k, "private.roles", None, k): v for k, v in raw.get("roles", {}).items()},
        decisions=tuple(decisions),
        sequestered=tuple(
            (s["day"], seat_of(s["player"], "private.sequestered", i, "player"))
            for i, s in enumerate(raw.get("sequestered", ()))
        ),
        extra_lives=tuple(
            seat_of(n, "private", None, "extra_lives") for n in raw.get("extra_lives", ())
        ),
        successors=successors,
    )


def _to_utc(value: date | str, zone: tzinfo, fail: Callable[[str], GameFileError]) -> datetime:
    """TOML date-times with an offset are exact; local ones are in the game's time zone."""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            raise fail(
                f"not a date-time: {value!r} (write 2024-03-01T22:00:00, optionally with an offset)"
            ) from None
    if isinstance(value, date) and not isinstance(value, datetime):
        value = datetime.combine(value, time())
    if value.tzinfo is None:
        value = value.replace(tzinfo=zone)
    return value.astimezone(UTC)
