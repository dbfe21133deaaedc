"""Round-trip edits of the moderator's game file: add what the thread says, keep everything the
moderator wrote.

An edit is a value (:class:`SetDay`, :class:`AddDeath`, :class:`TakeBackDeath`,
:class:`AddReplacement`, :class:`AddPlayer`, :class:`RemovePlayer`, :class:`AddEvent`, ...);
:func:`apply_edits` takes the file's text and returns the new text, what it wrote and where the file
says something else. tomlkit keeps the moderator's comments, order and layout; each entry written
carries a comment citing the post and the moderator's own words. What the file already says wins: a
different value is a disagreement to report, never overwritten, unless the moderator asks for the
change (``replace=True``, the editing commands). The same edits applied twice change nothing.
:func:`write_game_file` is the one place that writes the file (whole or not at all).
"""

from __future__ import annotations

import os
import re
import tempfile
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, tzinfo
from pathlib import Path
from typing import Any, Protocol

import tomlkit
import tomlkit.container
import tomlkit.items

from assistant.errors import VotalError
from assistant.gamefile.choices import PhaseKind
from assistant.gamefile.game import PHASE_RE, EventKind, Game, game_zone_name, parse_game
from assistant.gamefile.zones import zone_named

CITE_WORDS = 90  # characters of the moderator's words kept in a comment
# a day's bounds: a later reading of the thread may move them
REVISABLE_POSTS = (
    "start_post",
    "end_post",
)
_CITED_POST = re.compile(r"#\s*post\s+(\d+)\b")  # the comment Votal writes: "# post 351: ..."


class Cited(Protocol):
    """Where a fact comes from: a post number (None when no post says it) and the words that say
    it."""

    @property
    def post(self) -> int | None: ...

    @property
    def words(self) -> str: ...


@dataclass(frozen=True)
class Note:
    """A cite for what the moderator typed at the command line rather than posted."""

    words: str
    post: int | None = None


@dataclass(frozen=True)
class SetDay:
    """A day's posts and times: only the fields given are written."""

    day: int
    cite: Cited
    start_post: int | None = None
    end_post: int | None = None
    start: datetime | None = None  # aware: written in the game's zone with its offset
    end: datetime | None = None


@dataclass(frozen=True)
class AddDeath:
    player: str  # any account of the seat
    phase: str  # "night 2", "day 3"
    cite: Cited
    post: int | None = None  # a kill during the day: dead from this post on


@dataclass(frozen=True)
class TakeBackDeath:
    """A death Votal read from ``told_at`` that the thread took back (the day's next complete count
    lists the seat): the entry citing that post goes; one the moderator wrote stays, and the
    difference is said."""

    player: str  # any account of the seat
    phase: str
    told_at: int
    cite: Cited


@dataclass(frozen=True)
class AddReplacement:
    old: str  # any account of the seat
    new: str
    post: int  # the new account holds the seat from this post on
    cite: Cited


@dataclass(frozen=True)
class AddPlayer:
    name: str
    cite: Cited
    # later accounts the player list names, from posts it does not say
    replacements: tuple[str, ...] = ()
    before: str | None = (
        None  # an account of the seat it goes before (its place on the list), else it goes last
    )


@dataclass(frozen=True)
class RemovePlayer:
    name: str  # the seat's name (its first account)


@dataclass(frozen=True)
class AddEvent:
    """A declared event ([[events]]): an extension, a deadline moved; one per (day, kind, post)."""

    day: int
    kind: EventKind
    cite: Cited
    hours: float | None = None
    post: int | None = None
    time: datetime | None = None


@dataclass(frozen=True)
class SetModerators:
    """The game's moderators, written only where the file names none."""

    names: tuple[str, ...]
    cite: Cited


@dataclass(frozen=True)
class AddModerator:
    """A moderator the thread shows later (a co-moderator the opening does not name), added to the
    file's list: `votal update` gives it only where the list is Votal's own reading of the
    thread."""

    name: str
    cite: Cited


@dataclass(frozen=True)
class SetDeadline:
    """A day's deadline as the thread states it: the first one is the day's ``end``; a later,
    different one is a declared change (an [[events]] entry of kind "deadline" citing its post), so
    the first stays on record and the moderator's own ``end`` is never rewritten."""

    day: int
    time: datetime  # aware
    cite: Cited


@dataclass(frozen=True)
class SetPageSize:
    """The posts a page of the thread holds (``[fetch] posts_per_page``), where the file gives none:
    once the thread has grown past its first page, that page shows it."""

    posts_per_page: int
    cite: Cited


Edit = (
    SetDay
    | AddDeath
    | TakeBackDeath
    | AddReplacement
    | AddPlayer
    | RemovePlayer
    | AddEvent
    | SetDeadline
    | SetModerators
    | AddModerator
    | SetPageSize
)


@dataclass(frozen=True)
class EditResult:
    text: str
    written: tuple[str, ...]  # one line per change made: "days[2].end_post = 351 (post 351)"
    disagreements: tuple[str, ...]  # where the file says otherwise; nothing was changed there

    @property
    def changed(self) -> bool:
        return bool(self.written)


class EditRefused(VotalError):
    """An edit that contradicts the thread or the rest of the game file."""

    exit_code = 2  # the moderator's input, not the game, is wrong


def apply_edits(
    text: str,
    edits: Iterable[Edit],
    *,
    path: str = "<game>",
    replace: bool = False,
    revise: bool = False,
) -> EditResult:
    """The game file ``text`` with ``edits`` applied, keeping its comments and layout.

    ``replace``: a value the file already holds is changed to the edit's (the moderator's own
    command); otherwise the file wins and the difference is reported. ``revise`` (`votal update`): a
    post number the file holds that is Votal's own earlier reading, still with the comment that
    cites that very post, gives way to the edit's, written with the edit's cite: the thread read
    further showed better evidence (a day 1 that starts after the first page, a day start read
    early). A post the moderator typed or changed (no cite, or one of another post) is kept and the
    difference reported. The result is checked by loading it as a game file, so an edit never leaves
    a file Votal cannot read.
    """
    doc = tomlkit.parse(text)
    # the zone load_game reads the file's times in
    zone = zone_named(game_zone_name(doc, Path(path)) or "UTC")
    editor = _Editor(doc, zone, replace, revise)
    for edit in edits:
        editor.apply(edit)
    new_text = tomlkit.dumps(editor.doc).rstrip("\n") + "\n" if editor.written else text
    if editor.written:
        # a GameFileError names the line an edit broke
        parse_game(new_text, path=path, players_required=False)
    return EditResult(new_text, tuple(editor.written), tuple(editor.disagreements))


def write_game_file(path: str | Path, text: str, *, why: str | None = None) -> None:
    """Write the whole file or nothing: a crash mid-write must not leave half a game file.

    ``why`` (the command that edits): the text replaced is kept first, for `votal undo`."""
    path = Path(path)
    if why is not None and path.exists():
        from assistant.upkeep.history import keep_previous

        previous = path.read_text(encoding="utf-8")
        if previous != text:
            keep_previous(path, previous, text, why)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)
        if path.exists():
            # the moderator's permissions, not mkstemp's 0600
            os.chmod(temporary, path.stat().st_mode & 0o7777)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def one_line(text: str) -> str:
    """``text`` safe for a comment or a terminal: control, format (bidi) and separator characters
    become spaces, runs of space one."""
    return re.sub(
        r"\s+", " ", "".join(" " if unicodedata.category(c)[0] in "CZ" else c for c in text)
    ).strip()


def cite_comment(cite: Cited) -> str:
    """``post 351: "Day 1 is over. Bob was lynched."``: one line, no control or bidi characters,
    kept short."""
    words = one_line(cite.words)
    if len(words) > CITE_WORDS:
        words = words[: CITE_WORDS - 1].rstrip() + "…"
    words = words.replace('"', "'")
    where = f"post {cite.post}: " if cite.post is not None else ""
    return f'{where}"{words}"' if where else words


class _Editor:
    def __init__(
        self, doc: tomlkit.TOMLDocument, zone: tzinfo, replace: bool, revise: bool = False
    ):
        self.doc, self.zone, self.replace, self.revise = doc, zone, replace, revise
        self.written: list[str] = []
        self.disagreements: list[str] = []

    def apply(self, edit: Edit) -> None:
        # each handler takes the one kind of edit its row names
        handlers: dict[type, Callable[[Any], None]] = {
            SetDay: self.set_day,
            AddDeath: self.add_death,
            TakeBackDeath: self.take_back_death,
            AddReplacement: self.add_replacement,
            AddPlayer: self.add_player,
            RemovePlayer: self.remove_player,
            AddEvent: self.add_event,
            SetDeadline: self.set_deadline,
            SetModerators: self.set_moderators,
            AddModerator: self.add_moderator,
            SetPageSize: self.set_page_size,
        }
        handlers[type(edit)](edit)

    # --- the tables

    def tables(self, name: str) -> list:
        found = self.doc.get(name)
        return list(found) if found is not None else []

    def append_table(
        self,
        name: str,
        values: dict[str, Any],
        cite: Cited,
        *,
        after: Sequence[str] = (),
        position: int | None = None,
    ) -> None:
        """A new [[name]] entry, commented with its cite, after the existing ones or before the one
        at ``position`` (a new array goes after the first of ``after`` that the file has, else at
        the end)."""
        table = tomlkit.table()
        for key, value in values.items():
            table.add(key, self.value(value))
        _comment(table, cite_comment(cite))
        # a blank line before whatever follows; one at the end of the file is dropped
        table.add(tomlkit.nl())
        array = self.doc.get(name)
        if array is None:
            array = tomlkit.aot()
            array.append(table)
            anchor = next((a for a in after if a in self.doc), None)
            if anchor is None:
                _end_with_blank_line(self.doc)
                self.doc.add(name, array)
            else:
                _end_with_blank_line(self.last_table(anchor))
                self.doc = _with_key_after(self.doc, anchor, name, array)
        elif position is not None and position < len(array):
            array.insert(position, table)
        else:
            _end_with_blank_line(array[-1])
            array.append(table)

    def last_table(self, name: str):
        found = self.doc[name]
        return found[-1] if isinstance(found, tomlkit.items.AoT) else found

    def value(self, value: Any):
        if isinstance(value, datetime) and value.tzinfo is not None:
            value = value.astimezone(self.zone)
        return tomlkit.item(value)

    def set_key(self, table, key: str, value: Any, cite: Cited, label: str):
        """Write ``key`` in ``table`` unless it is there; a different value is a disagreement (or
        replaced). Returns the table as the document now holds it (an insertion reads the file
        again)."""
        if key in table:
            held = table[key]
            if _same(held.unwrap() if hasattr(held, "unwrap") else held, value, self.zone):
                return table
            cited_by = self.votal_reading(table, key) if self.revise and not self.replace else None
            if not self.replace and cited_by is None:
                self.disagreements.append(
                    f"{label}.{key}: the file says {_show(held)}; {_source(cite)} says "
                    f"{_show(value)} (file kept)"
                )
                return table
            # the entry's own cite was this value's: the entry now cites the new post
            if cited_by == "table":
                _comment(table, cite_comment(cite))
                table[key] = value
            else:
                table[key] = _comment(self.value(value), cite_comment(cite))
            revised = f"; revises Votal's reading of post {_show(held)}" if cited_by else ""
            self.written.append(
                f"{label}.{key}: {_show(held)} -> {_show(value)} ({_source(cite)}{revised})"
            )
            return table
        table = self.insert_key(table, key, _comment(self.value(value), cite_comment(cite)))
        self.written.append(f"{label}.{key} = {_show(value)} ({_source(cite)})")
        return table

    def votal_reading(self, table, key: str) -> str | None:
        """Where the cite of a post number Votal wrote stands, when the file still holds it as
        written: "key" (the key's own comment) or "table" (the entry's, for a key written with its
        entry) citing the post the key holds. None for any other value: the moderator's."""
        if key not in REVISABLE_POSTS or not isinstance(table[key], tomlkit.items.Integer):
            return None
        held = int(table[key])
        own = table[key].trivia.comment
        cited, where = (own, "key") if own else (table.trivia.comment, "table")
        match = _CITED_POST.match(cited or "")
        return where if match and int(match.group(1)) == held else None

    def insert_key(self, table, key: str, item):
        """``key = item`` after the table's last key, before the comments and blank lines that close
        it (they belong to whatever the moderator wrote next). tomlkit has no public way to place a
        key, so the line is written after the last key's own line and the document read again;
        returns the table anew."""
        keys = [
            k for k in table if not isinstance(table[k], tomlkit.items.Table | tomlkit.items.AoT)
        ]
        if not keys:
            table.add(key, item)
            return table
        where = self.path_of(table)
        anchor = table[keys[-1]].trivia
        anchor.trail = (
            anchor.trail if anchor.trail.endswith("\n") else anchor.trail + "\n"
        ) + tomlkit.dumps({key: item})
        self.doc = tomlkit.parse(self.doc.as_string())
        found = self.doc[where[0]]
        return found[where[1]] if len(where) > 1 else found

    def path_of(self, table) -> tuple:
        """(name,) or (name, index) of a table of the document."""
        for name, value in self.doc.items():
            if value is table:
                return (name,)
            if isinstance(value, tomlkit.items.AoT):
                for index, entry in enumerate(value):
                    if entry is table:
                        return (name, index)
        # the editor only edits its own tables
        raise LookupError("the table is not in the game file")

    # --- seats

    def seats(self) -> list[tuple[int, Any, list[str]]]:
        """(index, table, accounts) per [[players]] entry."""
        found = []
        for i, table in enumerate(self.tables("players")):
            accounts = [str(table["name"])]
            for r in table.get("replacements", ()):
                accounts.append(str(r["name"]) if isinstance(r, dict) else str(r))
            found.append((i, table, accounts))
        return found

    def seat_of(self, account: str) -> tuple[int, Any, list[str]] | None:
        folded = account.casefold()
        return next((s for s in self.seats() if folded in (a.casefold() for a in s[2])), None)

    # --- the edits

    def set_day(self, edit: SetDay) -> None:
        days = self.tables("days")
        found = next(((i, t) for i, t in enumerate(days) if t.get("day") == edit.day), None)
        fields = {
            k: v
            for k, v in (
                ("start_post", edit.start_post),
                ("end_post", edit.end_post),
                ("start", edit.start),
                ("end", edit.end),
            )
            if v is not None
        }
        if not fields:
            return
        if found is None:
            self.append_table("days", {"day": edit.day, **fields}, edit.cite, after=("players",))
            shown = ", ".join(f"{k} = {_show(v)}" for k, v in fields.items())
            self.written.append(f"days: day {edit.day} with {shown} ({_source(edit.cite)})")
            return
        index, table = found
        for key, value in fields.items():
            table = self.set_key(
                table, key, value, edit.cite, f"days[{index + 1}] (day {edit.day})"
            )

    def set_moderators(self, edit: SetModerators) -> None:
        if not edit.names:
            return
        if "moderators" in self.doc:
            held = [str(m).casefold() for m in self.doc["moderators"]]
            if sorted(held) != sorted(n.casefold() for n in edit.names):
                self.disagreements.append(
                    f"moderators: the file says {list(map(str, self.doc['moderators']))}; "
                    f"{_source(edit.cite)} says {list(edit.names)} (file kept)"
                )
            return
        item = _comment(tomlkit.item(list(edit.names)), cite_comment(edit.cite))
        keys = [k for k in ("ruleset", "forum", "thread", "title") if k in self.doc]
        if keys:
            self.doc = _with_key_after(self.doc, keys[0], "moderators", item)
        else:
            self.doc.add("moderators", item)
        self.written.append(f"moderators = {list(edit.names)} ({_source(edit.cite)})")

    def add_moderator(self, edit: AddModerator) -> None:
        if "moderators" not in self.doc:
            self.set_moderators(SetModerators((edit.name,), edit.cite))
            return
        held = self.doc["moderators"]
        if edit.name.casefold() in (str(m).casefold() for m in held):
            return
        held.append(edit.name)
        self.comment_line(self.doc, "moderators", edit.cite)
        self.written.append(f"moderators: {edit.name} added ({_source(edit.cite)})")

    def set_page_size(self, edit: SetPageSize) -> None:
        fetch = self.doc.get("fetch")
        if fetch is not None and "posts_per_page" in fetch:
            if fetch["posts_per_page"] != edit.posts_per_page:
                self.disagreements.append(
                    f"fetch.posts_per_page: the file says {fetch['posts_per_page']}; "
                    f"{_source(edit.cite)} says {edit.posts_per_page} (file kept)"
                )
            return
        item = _comment(tomlkit.item(edit.posts_per_page), cite_comment(edit.cite))
        if fetch is not None:
            self.insert_key(fetch, "posts_per_page", item)
        # a new [fetch] table after the file's head and the blank line that ends it, before its
        # first table
        else:
            table = tomlkit.table()
            table.add("posts_per_page", item)
            table.add(tomlkit.nl())
            first = next(
                (
                    k
                    for k, v in self.doc.items()
                    if isinstance(v, tomlkit.items.Table | tomlkit.items.AoT)
                ),
                None,
            )
            if first is None:
                _end_with_blank_line(self.doc)
                self.doc.add("fetch", table)
            else:
                self.doc = _with_key_before(self.doc, first, "fetch", table)
        self.written.append(f"fetch.posts_per_page = {edit.posts_per_page} ({_source(edit.cite)})")

    def set_deadline(self, edit: SetDeadline) -> None:
        table = next((t for t in self.tables("days") if t.get("day") == edit.day), None)
        if table is None or "end" not in table:
            self.set_day(SetDay(edit.day, edit.cite, end=edit.time))
            return
        if _same(table["end"].unwrap(), edit.time, self.zone):
            return
        for event in self.tables("events"):
            if (
                (event.get("day"), event.get("kind")) == (edit.day, EventKind.DEADLINE)
                and "time" in event
                and _same(event["time"].unwrap(), edit.time, self.zone)
            ):
                return
        self.add_event(
            AddEvent(edit.day, EventKind.DEADLINE, edit.cite, post=edit.cite.post, time=edit.time)
        )

    def add_death(self, edit: AddDeath) -> None:
        seat = self.seat_of(edit.player)
        if seat is None:
            self.disagreements.append(
                f"deaths: {edit.player!r} is no player of this game ({_source(edit.cite)})"
            )
            return
        phase = _phase(edit.phase)
        accounts = {a.casefold() for a in seat[2]}
        for i, table in enumerate(self.tables("deaths")):
            if str(table.get("player", "")).casefold() in accounts:
                label = f"deaths[{i + 1}] ({seat[2][0]})"
                if self.revise_death(table, edit, phase, label):
                    return
                before = len(self.disagreements)
                table = self.set_key(table, "phase", phase, edit.cite, label)
                # a post only for the same death
                if edit.post is not None and len(self.disagreements) == before:
                    self.set_key(table, "post", edit.post, edit.cite, label)
                return
        # Votal's reading names the seat by its name, whichever account the post named (a fates
        # list's "Grey" for the seat "become"), so every reading of the thread writes the same; the
        # moderator's command as typed
        player = seat[2][0] if self.revise and not self.replace else edit.player
        values: dict[str, str | int] = {"player": player, "phase": phase}
        if edit.post is not None:
            values["post"] = edit.post
        self.append_table(
            "deaths",
            values,
            edit.cite,
            after=("days", "players"),
            position=self.death_position(phase, edit.post),
        )
        at = f" at post {edit.post}" if edit.post is not None else ""
        self.written.append(f"deaths: {edit.player}, {phase}{at} ({_source(edit.cite)})")

    def death_position(self, phase: str, post: int | None) -> int | None:
        """Where a death goes in the game's order (a day, then its night; a kill during a day before
        its lynch), whichever order the thread was read in: a file kept live and one written at once
        list the deaths alike. None: after the last."""
        order = _death_order(phase, post)
        return next(
            (
                i
                for i, t in enumerate(self.tables("deaths"))
                if (listed := _phase_or_none(str(t.get("phase", ""))))
                and order < _death_order(listed, t.get("post"))
            ),
            None,
        )

    def take_back_death(self, edit: TakeBackDeath) -> None:
        seat = self.seat_of(edit.player)
        if seat is None:
            return
        accounts, phase = {a.casefold() for a in seat[2]}, _phase(edit.phase)
        for i, table in enumerate(self.tables("deaths")):
            if str(table.get("player", "")).casefold() not in accounts or not _same(
                str(table["phase"]), phase, self.zone
            ):
                continue
            label = f"deaths[{i + 1}] ({seat[2][0]})"
            if not self.revise or self.replace or cited_post(table) != edit.told_at:
                self.disagreements.append(
                    f"{label}: {_source(edit.cite)} lists {seat[2][0]} alive after the death "
                    f"told at post {edit.told_at} (file kept)"
                )
                return
            deaths = self.doc["deaths"]
            deaths.remove(table)
            if not len(deaths):
                del self.doc["deaths"]
            self.written.append(
                f"{label}: taken back ({_source(edit.cite)} lists {seat[2][0]} alive; revises "
                f"Votal's reading of post {edit.told_at})"
            )
            return

    def revise_death(self, table, edit: AddDeath, phase: str, label: str) -> bool:
        """A seat dies once: a death Votal wrote from a later post (the entry's comment still cites
        it) gives way to the one the thread, read again knowing more, tells at an earlier post (a
        count that left the seat out witnessed the lynch an unknown replacement's name told). The
        moderator's entries are kept."""
        if (
            not self.revise
            or self.replace
            or edit.cite.post is None
            or _same(str(table["phase"]), phase, self.zone)
        ):
            return False
        cited = cited_post(table)
        if cited is None or cited <= edit.cite.post:
            return False
        held = str(table["phase"])
        table["phase"] = phase
        if edit.post is not None:
            table["post"] = edit.post
        elif "post" in table:
            del table["post"]
        _comment(table, cite_comment(edit.cite))
        deaths = self.doc["deaths"]
        # to its place in the game's order, as a file that read the earlier post first has it
        deaths.remove(table)
        position = self.death_position(phase, edit.post)
        if position is None:
            if len(deaths):
                _end_with_blank_line(deaths[-1])
            deaths.append(table)
        else:
            _end_with_blank_line(table)  # it may have been the last, which ends with none
            deaths.insert(position, table)
        self.written.append(
            f"{label}.phase: {held!r} -> {phase!r} ({_source(edit.cite)}; revises Votal's reading "
            f"of post {cited})"
        )
        return True

    def add_replacement(self, edit: AddReplacement) -> None:
        seat, holder = self.seat_of(edit.old), self.seat_of(edit.new)
        if seat is None:
            self.disagreements.append(
                f"replacements: {edit.old!r} is no player of this game ({_source(edit.cite)})"
            )
            return
        index, table, accounts = seat
        label = f"players[{index + 1}] ({accounts[0]}).replacements"
        if holder is not None and holder[0] != index:
            self.disagreements.append(
                f"{label}: {edit.new!r} already holds the seat of {holder[2][0]} "
                f"({_source(edit.cite)})"
            )
            return
        if "replacements" not in table:
            table = self.insert_key(table, "replacements", tomlkit.array())
        array = table["replacements"]
        for position, entry in enumerate(array):
            name = str(entry["name"]) if isinstance(entry, dict) else str(entry)
            if name.casefold() != edit.new.casefold():
                continue
            post = entry.get("post") if isinstance(entry, dict) else None
            if post == edit.post:
                return
            if not self.replace and not (self.revise and post is None):
                held = f"post {post}" if post is not None else "no post"
                self.disagreements.append(
                    f"{label}: the file gives {name} {held}; {_source(edit.cite)} says from post "
                    f"{edit.post} "
                    "(file kept)"
                )
                return
            array[position] = _replacement_entry(name, edit.post)
            self.written.append(f"{label}: {name} from post {edit.post} ({_source(edit.cite)})")
            self.comment_line(table, "replacements", edit.cite)
            return
        array.append(_replacement_entry(edit.new, edit.post))
        self.comment_line(table, "replacements", edit.cite)
        verb = (
            "holds the seat again"
            if accounts[0].casefold() == edit.new.casefold()
            else (f"replaces {edit.old}")
        )
        self.written.append(
            f"{label}: {edit.new} {verb} from post {edit.post} ({_source(edit.cite)})"
        )

    def comment_line(self, table, key: str, cite: Cited) -> None:
        """Cite on a key's line, joined to any comment the line has ("post 512: ..." once)."""
        item = table[key]
        comment = cite_comment(cite)
        held = item.trivia.comment.lstrip("#").strip()
        if comment not in held:
            _comment(item, f"{held}; {comment}" if held else comment)

    def add_player(self, edit: AddPlayer) -> None:
        if self.seat_of(edit.name) is not None:
            return
        values: dict[str, Any] = {"name": edit.name}
        replacements: list[str] = []
        for account in edit.replacements:
            holder = self.seat_of(account)
            if holder is not None or account.casefold() in (
                a.casefold() for a in (edit.name, *replacements)
            ):
                self.disagreements.append(
                    f"players: {account!r} is listed for {edit.name} but already holds "
                    f"the seat of {holder[2][0] if holder else edit.name} ({_source(edit.cite)})"
                )
                continue
            replacements.append(account)
        if replacements:
            values["replacements"] = replacements
        following = self.seat_of(edit.before) if edit.before is not None else None
        self.append_table(
            "players",
            values,
            edit.cite,
            after=("alerts", "fetch"),
            position=following[0] if following is not None else None,
        )
        replaced = f" (replaced {', '.join(replacements)})" if replacements else ""
        self.written.append(f"players: {edit.name}{replaced} ({_source(edit.cite)})")

    def remove_player(self, edit: RemovePlayer) -> None:
        seat = self.seat_of(edit.name)
        if seat is None:
            return
        players = self.doc["players"]
        del players[seat[0]]
        self.written.append(f"players: removed {seat[2][0]}")

    def add_event(self, edit: AddEvent) -> None:
        for table in self.tables("events"):
            if (table.get("day"), table.get("kind"), table.get("post")) == (
                edit.day,
                edit.kind,
                edit.post,
            ):
                return
        values: dict[str, Any] = {"day": edit.day, "kind": str(edit.kind)}
        for key in ("hours", "post", "time"):
            if getattr(edit, key) is not None:
                values[key] = getattr(edit, key)
        self.append_table("events", values, edit.cite, after=("deaths", "days", "players"))
        detail = ", ".join(
            f"{k} = {_show(v)}" for k, v in values.items() if k not in ("day", "kind")
        )
        self.written.append(
            f"events: day {edit.day} {edit.kind} {detail} ({_source(edit.cite)})".replace("  ", " ")
        )


def _with_key_after(doc: tomlkit.TOMLDocument, anchor: str, key: str, item) -> tomlkit.TOMLDocument:
    """The document with ``key = item`` placed right after ``anchor`` (built anew: tomlkit has no
    public way to place a key, and its private one changed between releases)."""
    placed = tomlkit.document()
    placed.parsing(True)  # as read from a file: no indents or blank lines added on the way
    for name, value in doc.body:
        if name is None:
            placed.add(value)
            continue
        placed.append(name, value)
        if name.key == anchor:
            placed.append(key, item)
    placed.parsing(False)
    return placed


def _with_key_before(
    doc: tomlkit.TOMLDocument, anchor: str, key: str, item
) -> tomlkit.TOMLDocument:
    """The document with ``key = item`` placed right before ``anchor`` (built anew, as
    :func:`_with_key_after`)."""
    placed = tomlkit.document()
    placed.parsing(True)
    for name, value in doc.body:
        if name is None:
            placed.add(value)
            continue
        if name.key == anchor and key not in placed:
            placed.append(key, item)
        placed.append(name, value)
    placed.parsing(False)
    return placed


def _comment(item, text: str):
    """``text`` as the item's end-of-line comment, two spaces after the value as people write it."""
    item.comment(text)
    item.trivia.comment_ws = "  "
    return item


def _replacement_entry(name: str, post: int):
    entry = tomlkit.inline_table()
    entry.update({"name": name, "post": post})
    return entry


def _end_with_blank_line(table) -> None:
    """A table about to be followed by a new one ends with a blank line, as a person would leave
    it."""
    body = table.body if isinstance(table, tomlkit.container.Container) else table.value.body
    if body and not isinstance(body[-1][1], tomlkit.items.Whitespace):
        table.add(tomlkit.nl())


def _phase(text: str) -> str:
    found = PHASE_RE.match(text)
    if not found:
        raise EditRefused(f"phase must look like 'night 2' or 'day 3', not {text!r}")
    return f"{found.group(1).lower()} {int(found.group(2))}"


def _same(held: Any, value: Any, zone: tzinfo) -> bool:
    if isinstance(held, datetime) and isinstance(value, datetime):
        held = held if held.tzinfo else held.replace(tzinfo=zone)
        value = value if value.tzinfo else value.replace(tzinfo=zone)
        return held == value
    if isinstance(held, str) and isinstance(value, str):
        return held.strip().casefold() == value.strip().casefold() or _phase_or_none(
            held
        ) == _phase_or_none(value)
    return held == value


def cited_post(table) -> int | None:
    """The post an entry's comment cites when it is the one Votal wrote ("# post 351: ..."), else
    None."""
    match = _CITED_POST.match(table.trivia.comment or "")
    return int(match.group(1)) if match else None


def _death_order(phase: str, post: int | None) -> tuple[int, int, float]:
    kind, number = phase.split()
    return (
        int(number),
        0 if kind == PhaseKind.DAY else 1,
        post if post is not None else float("inf"),
    )


def _phase_or_none(text: str) -> str | None:
    found = PHASE_RE.match(text)
    return f"{found.group(1).lower()} {int(found.group(2))}" if found else None


def _show(value: Any) -> str:
    if hasattr(value, "unwrap"):
        value = value.unwrap()
    if isinstance(value, datetime):
        return value.isoformat()
    return repr(value) if isinstance(value, str) else str(value)


def _source(cite: Cited) -> str:
    return f"post {cite.post}" if cite.post is not None else cite_comment(cite)


def check_edits(
    game: Game,
    edits: Iterable[Edit],
    *,
    posts: Sequence[int] = (),
    revise: bool = False,
    playing_day: int | None = None,
) -> None:
    """Refuse an edit that contradicts the thread (``posts``: the stored post numbers) or the rest
    of the file. ``revise`` (`votal update`): a second death of a seat is left to
    :func:`apply_edits`, which revises Votal's own reading or reports the difference.
    ``playing_day`` (the edit commands: the day the thread or the clock is on): an edit ahead of the
    game (:func:`check_not_ahead`) is refused too."""
    if playing_day is not None:
        check_not_ahead(game, edits, playing_day)
    checker = _EditChecker(game, set(posts), revise)
    for edit in edits:
        checker.check(edit)


class _EditChecker:
    """What an edit is checked against: the stored thread and the rest of the game file."""

    def __init__(self, game: Game, stored: set[int], revise: bool) -> None:
        self.game, self.stored, self.revise = game, stored, revise
        self.last = max(stored) if stored else None
        self.days = {d.day: d for d in game.days}
        self.accounts = {a.casefold(): s for s in game.players for a in (*s.accounts, *s.aliases)}
        self.moderators = {m.casefold() for m in game.moderators}

    def check(self, edit: Edit) -> None:
        if isinstance(edit, SetDay):
            self.stored_post(edit.end_post, f"day {edit.day} end")
            self.stored_post(edit.start_post, f"day {edit.day} start")
            _check_day_order(self.days, edit)
        elif isinstance(edit, AddDeath):
            self.check_death(edit)
        elif isinstance(edit, AddReplacement):
            self.check_replacement(edit)
        elif isinstance(edit, AddModerator):
            if (seat := self.accounts.get(edit.name.casefold())) is not None:
                raise EditRefused(f"moderator: {edit.name!r} is a name of the seat {seat.name}")
        elif isinstance(edit, AddPlayer):
            if edit.name.casefold() in self.moderators:
                raise EditRefused(f"player add: {edit.name!r} is a moderator of this game")
        elif isinstance(edit, RemovePlayer):
            _check_removal(self.game, edit.name)
        elif isinstance(edit, AddEvent):
            self.stored_post(edit.post, f"day {edit.day} {edit.kind}")

    def stored_post(self, post: int | None, what: str) -> None:
        if post is None or post in self.stored:
            return
        if self.last is None:
            raise EditRefused(
                f"{what}: no posts of this game are stored; run `votal sync {self.game.path}` first"
            )
        raise EditRefused(
            f"{what}: post {post} is not in the stored thread (posts up to {self.last}; "
            "sync first?)"
        )

    def check_death(self, edit: AddDeath) -> None:
        seat = self.accounts.get(edit.player.casefold())
        if seat is None:
            raise EditRefused(f"kill: {edit.player!r} is not a player of {self.game.path.name}")
        phase = _phase(edit.phase)
        self.stored_post(edit.post, f"kill of {edit.player}")
        kind, number = phase.split()
        day = self.days.get(int(number))
        if (
            edit.post is not None
            and kind == PhaseKind.DAY
            and day is not None
            and (
                (day.start_post is not None and edit.post < day.start_post)
                or (day.end_post is not None and edit.post > day.end_post)
            )
        ):
            end = day.end_post if day.end_post is not None else ""
            raise EditRefused(
                f"kill: post {edit.post} is not on day {number} (posts {day.start_post}-{end})"
            )
        earlier = next((d for d in self.game.deaths if d.player == seat.name), None)
        if (
            earlier is not None
            and f"{earlier.phase} {earlier.phase_number}" != phase
            and not self.revise
        ):
            raise EditRefused(
                f"kill: {seat.name} is already dead ({earlier.phase} {earlier.phase_number})"
            )

    def check_replacement(self, edit: AddReplacement) -> None:
        seat = self.accounts.get(edit.old.casefold())
        if seat is None:
            raise EditRefused(f"replace: {edit.old!r} is not a player of {self.game.path.name}")
        taken = self.accounts.get(edit.new.casefold())
        # the seat's first account may take it back after its replacements
        back = edit.new.casefold() == seat.name.casefold() and bool(seat.replacements)
        if taken is not None and (
            taken.name != seat.name
            or (edit.new.casefold() not in (a.casefold() for a in seat.replacements) and not back)
        ):
            raise EditRefused(f"replace: {edit.new!r} is already a name of the seat {taken.name}")
        if edit.new.casefold() in self.moderators:
            raise EditRefused(f"replace: {edit.new!r} is a moderator of this game")
        self.stored_post(edit.post, f"replacement of {edit.old}")
        # () when none has a post
        posts_of = seat.replacement_posts or (None,) * len(seat.replacements)
        since = [
            p
            for p, a in zip(posts_of, seat.replacements, strict=True)
            if a.casefold() != edit.new.casefold() and p is not None
        ]
        if since and edit.post <= max(since):
            raise EditRefused(
                f"replace: {seat.name}'s seat was already replaced at post {max(since)}; "
                f"post {edit.post} is before that"
            )


def latest_begun_day(game: Game, playing_day: int) -> int:
    """The latest day that has begun: one the file declares, the one after a day it ends, or the day
    the thread or the clock is on (``playing_day``)."""
    declared = [d.day for d in game.days]
    after_ended = [d.day + 1 for d in game.days if d.end_post is not None or d.end is not None]
    return max([1, playing_day, *declared, *after_ended])


def _check_day_not_ahead(edit: SetDay, latest: int, where: str) -> None:
    """A day ends only once begun, and starts only right after the last one begun."""
    ends = edit.end_post is not None or edit.end is not None
    starts = (edit.start_post, edit.start) != (None, None)
    if ends and edit.day > latest:
        raise EditRefused(
            f"day {edit.day} has not started: {where} (did you mean `day end {latest}`?)"
        )
    if starts and edit.day > latest + 1:
        raise EditRefused(
            f"day {edit.day} cannot start yet: {where}, so the next day to start "
            f"is day {latest + 1}"
        )


def check_not_ahead(game: Game, edits: Iterable[Edit], playing_day: int) -> None:
    """A day ends and a seat dies only in a phase that has begun; a day starts only right after the
    last one begun (``votal day end 9`` in a game on day 2 is a typo, never a day 9)."""
    latest = latest_begun_day(game, playing_day)
    where = f"the game is on day {latest}"
    for edit in edits:
        if isinstance(edit, SetDay):
            _check_day_not_ahead(edit, latest, where)
        if isinstance(edit, AddDeath):
            number = int(_phase(edit.phase).split()[1])  # night N follows day N
            if number > latest:
                raise EditRefused(f"kill: {edit.phase} has not begun: {where}")


def _check_day_order(days: dict, edit: SetDay) -> None:
    day = days.get(edit.day)
    start = edit.start_post if edit.start_post is not None else (day.start_post if day else None)
    end = edit.end_post if edit.end_post is not None else (day.end_post if day else None)
    if start is not None and end is not None and end < start:
        raise EditRefused(f"day {edit.day}: the end, post {end}, is before the start, post {start}")
    before, after = days.get(edit.day - 1), days.get(edit.day + 1)
    # one post may end a day and start the next ("Bob was lynched. Night falls... Day 3 begins"),
    # never more
    if (
        before is not None
        and before.end_post is not None
        and start is not None
        and start < before.end_post
    ):
        raise EditRefused(
            f"day {edit.day}: post {start} is before day {edit.day - 1}'s end (post "
            f"{before.end_post})"
        )
    if (
        before is not None
        and before.end_post is not None
        and end is not None
        and end <= before.end_post
    ):
        raise EditRefused(
            f"day {edit.day}: post {end} is not after day {edit.day - 1}'s end (post "
            f"{before.end_post})"
        )
    if (
        after is not None
        and after.start_post is not None
        and end is not None
        and end > after.start_post
    ):
        raise EditRefused(
            f"day {edit.day}: post {end} is after day {edit.day + 1}'s start (post "
            f"{after.start_post})"
        )


def _check_removal(game: Game, name: str) -> None:
    seat = next((s for s in game.players if s.name.casefold() == name.casefold()), None)
    if seat is None:
        owner = next(
            (s for s in game.players if name.casefold() in (a.casefold() for a in s.accounts)), None
        )
        if owner is not None:
            raise EditRefused(
                f"player remove: {name!r} is a replacement in {owner.name}'s seat; "
                "remove it from that seat's replacements instead"
            )
        raise EditRefused(f"player remove: {name!r} is not a player of {game.path.name}")
    if len(game.players) == 1:
        raise EditRefused(f"player remove: {seat.name} is the game's only player")
    private = game.private
    named = [
        *(f"[[deaths]] ({d.phase} {d.phase_number})" for d in game.deaths if d.player == seat.name),
        *(
            f"[[events]] (day {e.day} {e.kind})"
            for e in game.events
            if seat.name in (e.player, e.target)
        ),
        *(f"[[corrections]] (post {c.post})" for c in game.corrections if c.vote == seat.name),
        *(
            ["[private]"]
            if seat.name
            in (
                private.judge,
                private.sheriff,
                private.loose_cannon,
                private.deacon,
                *private.holy,
                *(n for pair in private.lovers for n in pair),
                *private.roles,
                *(p for _, p in private.sequestered),
            )
            else []
        ),
    ]
    if named:
        raise EditRefused(
            f"player remove: {seat.name} is named in {', '.join(named)}; change those first"
        )
