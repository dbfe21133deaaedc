"""What a game thread says about the game's public state: moderators, players, days, deaths, replacements.

A pure reader: posts in (anything with ``number``, ``author``, ``body_html`` and ``time``, such as
``parsers.page.Post``), facts out. Each fact cites the post and the moderator's own words (:class:`Cite`), so
whoever writes it into a game file can show where it came from. Nothing here is keyed to a forum, a thread or a
name: the reader looks for the shapes moderators write (player lists, "It is now Night 2", "X was lynched",
"X, Vanilla Townie, killed Night 1", "Y replaces X", "Deadline is Friday 10pm EST").

    facts = read_thread_facts(posts, timezone=ZoneInfo("America/New_York"))
    facts.moderators, facts.players, facts.day_starts, facts.day_ends, facts.deaths, facts.replacements
"""

from __future__ import annotations

import copy
import html
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from typing import Protocol

from assistant.count_state import counted_living, counted_roster, majority_needed, vote_count_day, wagon_of
from assistant.deadlines import read_deadline
from parsers.markup import parse_html

STRUCK_OPEN, STRUCK_CLOSE = "\x01", "\x02"  # marks struck-out text inside a line


class PostLike(Protocol):
    number: int
    author: str
    body_html: str
    time: datetime | None


@dataclass(frozen=True)
class Cite:
    """Where a fact comes from: the post's number and the moderator's words (one trimmed line)."""

    post: int
    words: str


@dataclass(frozen=True)
class PlayerFact:
    """One seat of the player list: its first account, later accounts in order, and whether it is marked dead."""

    name: str
    replacements: tuple[str, ...]
    dead: bool
    cite: Cite


@dataclass(frozen=True)
class DayStart:
    day: int
    post: int
    deadline: datetime | None  # UTC, when the announcement states one
    cite: Cite


@dataclass(frozen=True)
class DayEnd:
    day: int
    post: int
    cite: Cite


@dataclass(frozen=True)
class Elimination:
    """A day's lynch (``player`` is the seat name) or no-lynch (``player`` None)."""

    day: int
    player: str | None
    post: int
    cite: Cite


@dataclass(frozen=True)
class DeathFact:
    """A death other than by lynch. ``phase`` is "night N" or "day N"; ``post`` is set for a kill during a day."""

    player: str  # seat name
    phase: str
    post: int | None
    cause: str  # "night kill", "day kill" or "modkill"
    cite: Cite


@dataclass(frozen=True)
class ReplacementFact:
    player: str  # seat name (the seat's first account)
    new: str  # the account that takes the seat over
    post: int
    cite: Cite


@dataclass(frozen=True)
class DeadlineFact:
    """A day's deadline as announced (``kind`` "deadline") or moved (``kind`` "extension")."""

    day: int
    time: datetime  # UTC
    post: int
    kind: str
    cite: Cite


@dataclass(frozen=True)
class ThreadFacts:
    title: str | None
    moderators: tuple[str, ...]
    moderators_cite: Cite | None
    players: tuple[PlayerFact, ...]
    day_starts: tuple[DayStart, ...]
    day_ends: tuple[DayEnd, ...]
    eliminations: tuple[Elimination, ...]
    deaths: tuple[DeathFact, ...]
    replacements: tuple[ReplacementFact, ...]
    deadlines: tuple[DeadlineFact, ...]
    problems: tuple[str, ...] = ()

    def seat_accounts(self) -> dict[str, tuple[str, ...]]:
        """Each seat's accounts in order: the list's, then the announced replacements."""
        seats = {p.name: [p.name, *p.replacements] for p in self.players}
        for r in self.replacements:
            accounts = seats.setdefault(r.player, [r.player])
            if r.new.casefold() not in (a.casefold() for a in accounts):
                accounts.append(r.new)
        return {name: tuple(accounts) for name, accounts in seats.items()}


# --- reading a body into lines ------------------------------------------------------------------------------

_BLOCK_TAGS = {"p", "div", "li", "ul", "ol", "tr", "table", "h1", "h2", "h3", "h4", "h5", "h6", "dd", "dt",
               "fieldset", "center", "pre", "hr", "section", "article", "aside"}
_STRIKE_TAGS = {"s", "strike", "del"}
_SKIP_TAGS = {"script", "style", "input", "button", "img"}


def read_lines(body_html: str) -> list[str]:
    """The body's text, one entry per visual line, quotes of other posts left out, struck text marked."""
    if not body_html or not body_html.strip():
        return []
    root = parse_html(f"<div>{body_html}</div>")
    out: list[str] = []
    current: list[str] = []

    def newline() -> None:
        out.append("".join(current))
        current.clear()

    def walk(element, struck: bool) -> None:
        tag = element.tag if isinstance(element.tag, str) else ""
        tag = tag.lower()
        if tag in _SKIP_TAGS or tag == "blockquote" or "quotetitle" in (element.get("class") or ""):
            return
        style = (element.get("style") or "").replace(" ", "").lower()
        # superscript beside a listed name is its earlier account ("New<sup>Old</sup>"), read like struck text
        is_struck = tag in _STRIKE_TAGS or "line-through" in style or tag == "sup"
        block = tag in _BLOCK_TAGS and "display:inline" not in style
        if tag == "br" or block:
            newline()
        opened = is_struck and not struck
        if opened:
            current.append(STRUCK_OPEN)
        if element.text:
            current.append(element.text)
        for child in element:
            walk(child, struck or is_struck)
            if child.tail:
                current.append(child.tail)
        if opened:
            current.append(STRUCK_CLOSE)
        if block:
            newline()

    walk(root, False)
    newline()
    lines = []
    for line in out:
        text = " ".join(line.replace("\xa0", " ").split())
        text = text.replace(f"{STRUCK_OPEN} ", f" {STRUCK_OPEN}").replace(f" {STRUCK_CLOSE}", f"{STRUCK_CLOSE} ")
        text = text.replace(STRUCK_OPEN + STRUCK_CLOSE, "").strip()
        if _plain(text):
            lines.append(text)
    return lines


def read_links(body_html: str) -> list[str]:
    """Every link target in the body (countdown links carry a deadline)."""
    return [html.unescape(h) for h in re.findall(r"""href\s*=\s*["']([^"']+)["']""", body_html or "")]


def _plain(text: str) -> str:
    return text.replace(STRUCK_OPEN, "").replace(STRUCK_CLOSE, "").strip()


def _trim(text: str, limit: int = 160) -> str:
    text = " ".join(_plain(text).split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


# --- names ----------------------------------------------------------------------------------------------------

_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                 "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "first": 1, "second": 2, "third": 3,
                 "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10}
_NUM = r"(\d{1,2}|" + "|".join(_NUMBER_WORDS) + r")"


def _number(word: str) -> int:
    word = word.lower()
    return int(word) if word.isdigit() else _NUMBER_WORDS[word]


class _Names:
    """Known accounts → seat name, and a finder for them in free text (whole words, case-insensitive)."""

    def __init__(self, seats: dict[str, Sequence[str]]):
        self.seat_of: dict[str, str] = {}
        self.spelling: dict[str, str] = {}  # squashed name -> the account as the forum spells it
        for seat, accounts in seats.items():
            for account in accounts:
                self.seat_of.setdefault(account.casefold(), seat)
                self.spelling.setdefault(_squash(account), account)
        names = sorted(self.seat_of, key=len, reverse=True)
        self.pattern = (
            re.compile(r"(?<![\w])(" + "|".join(re.escape(n) for n in names) + r")(?![\w])", re.IGNORECASE)
            if names else None
        )

    def find(self, text: str) -> list[tuple[int, int, str]]:
        if self.pattern is None:
            return []
        return [(m.start(), m.end(), self.seat_of[m.group(1).casefold()]) for m in self.pattern.finditer(text)]

    def seat(self, name: str) -> str | None:
        name = _clean_name(name)
        found = self.seat_of.get(name.casefold())
        if found is None and _squash(name) in self.spelling:
            found = self.seat_of.get(self.spelling[_squash(name)].casefold())
        return found

    def spelled(self, name: str) -> str:
        """The account as the forum spells it, for a name the moderator wrote ("HumblePoirot" → "Humble Poirot",
        a slip such as "Prolasped Brain" → "Prolapsed Brain" when one account alone is that close)."""
        key = _squash(name)
        if key in self.spelling or len(key) < 6:
            return self.spelling.get(key, name)
        from rapidfuzz import fuzz

        close = [k for k in self.spelling if len(k) >= 6 and fuzz.ratio(key, k) >= 90]
        return self.spelling[close[0]] if len(close) == 1 else name


def _squash(name: str) -> str:
    """A typed name without case, spaces, underscores or hyphens: how the moderator's list meets the accounts."""
    return re.sub(r"[\s_\-.]+", "", name).casefold()


def _clean_name(text: str) -> str:
    text = _plain(text)
    text = re.sub(r"^[\s\W_]+|[\s\W_]+$", lambda m: "" if not m.group(0).strip("_") else m.group(0), text)
    return text.strip(" .,:;!?*()[]{}\"'`~-–—|•·><†‡✝☠")


# --- the player list ---------------------------------------------------------------------------------------------

_BULLET = re.compile(
    r"^\s*(?:\[\d{1,2}\]\s*|(?:#|no\.?\s*)?\d{1,2}\s*[.):\]\-]\s*|\d{1,2}\s+(?=\S)|[-*•·◦▪►>+]+\s*)", re.IGNORECASE
)
_LIST_HEADER = re.compile(
    r"^\W*(?:the\s+)?(?:\w+\s+){0,3}?(players?|living|alive|survivors?|survived|roster|participants|"
    r"signups?|sign-ups|dead|graveyard|deceased|remaining|still\s+alive|in\s+the\s+game)\b[^.!?]{0,40}$",
    re.IGNORECASE,
)
_REPLACE_WORDS = re.compile(
    r"\s*(?:\(\s*)?\b(replaced\s+by|replacing|replaces|replaced|repl\.|subbed\s+(?:in\s+)?for|subbing\s+(?:in\s+)?for|"
    r"in\s+for|sub\s+for|subbed\s+by)\b\s*|\s+(?:->|→|=>|>>)\s+|\s+(<-|<|←)\s+",
    re.IGNORECASE,
)
_DEAD_WORDS = re.compile(
    r"\b(lynched|killed|dead|died|shot|stabbed|murdered|modkilled|mod-killed|eliminated|executed|hanged|hung|"
    r"poisoned|slain|night\s*\d|n\d|day\s*\d|d\d|flipped|deceased|burn(?:ed|t)|strangled)\b",
    re.IGNORECASE,
)
_ALIVE_WORDS = re.compile(r"\b(survived|won|alive|living|endgamed)\b", re.IGNORECASE)
_LABEL = re.compile(
    r"^(mod|mods|moderator|moderators|co-?mods?|co-?moderators?|host|hosts|co-?hosts?|backup|setup|reviewer|"
    r"reviewers|deadline|day|night|role|roles|note|notes|rules?|vote|votes|votecount|vote count|sample|flavou?r|"
    r"quicktopic|spoiler|with|not voting|edit)\b",
    re.IGNORECASE,
)
_SPLIT = re.compile(r"\s+[-–—|:]\s+|\s*[,;(\[{]\s*|(?:\s+[-–—]\s*|\s*[-–—]\s+)(?=[A-Z])|:\s+")


@dataclass(frozen=True)
class _Entry:
    accounts: tuple[str, ...]
    dead: bool
    line: str


# A vote count's wagon line: "Alder [L-2] - Birch, Cedar", "Alder (3): Birch, ...". Its names are voters, not
# the seat's other accounts.
_WAGON_LINE = re.compile(
    r"^[^\[(]{1,40}?\s*[\[(]\s*(?:L\s*-\s*\d+|\d+(?:\s*/\s*\d+)?(?:\s+votes?)?)\s*[\])]\s*(?:[-:–—]|$)",
    re.IGNORECASE,
)


_STAFF_LABEL = re.compile(
    r"\b(?:mods?|moderators?|co-?mods?|hosts?|co-?hosts?|reviewers?|reviewed|back-?\s?up|thanks|credits?|"
    r"design(?:ers?|ed)?|setup|spectators?|dead\s+chat)\b",
    re.IGNORECASE,
)
_PHASE_WORDS = re.compile(r"(?:day|night|d|n)\s*\d+\b", re.IGNORECASE)


def _read_entry(line: str, authors: _Names | None, moderators: set[str]) -> _Entry | None:
    """A player-list line as accounts (first account first), or None when it is no such line."""
    bare = _BULLET.sub("", line, count=1)
    plain = _plain(bare)
    if not plain or len(plain) > 140 or plain.endswith(":") or _LABEL.match(plain.lstrip(STRUCK_OPEN + "*")):
        return None
    if _WAGON_LINE.match(plain.lstrip(STRUCK_OPEN + "*")):
        return None
    if ":" in plain and _STAFF_LABEL.search(plain.split(":", 1)[0]):
        return None  # "Back-Up Mod: Spare", "Normalcy Reviewers: A, B": the game's staff, not its players
    # Struck accounts are earlier accounts of the seat (or a dead seat when it is the only one).
    struck = [
        _clean_name(name)
        for segment in re.findall(STRUCK_OPEN + r"([^" + STRUCK_CLOSE + r"]*)" + STRUCK_CLOSE, bare)
        for name in re.split(r"\s+[|/,]\s+|\s*,\s*|\s+>\s+", segment)  # "Old1 | Old2": several earlier accounts
    ]
    unstruck_text = re.sub(STRUCK_OPEN + r"[^" + STRUCK_CLOSE + r"]*" + STRUCK_CLOSE, " | ", bare)
    # "Birch (replacing Oldbirch)": the bracket belongs to the name, not to the role after it
    unstruck_text = re.sub(
        r"[(\[]\s*((?:replac|repl\.|sub|in\s+for)[^)\]]*)[)\]]", r" \1 ", unstruck_text, flags=re.IGNORECASE
    )
    pieces = [p for p in (_clean_name(s) for s in _SPLIT.split(unstruck_text)) if p]
    struck = [name for s in struck if s for name in _split_accounts(s, authors) if _name_like(name)]
    accounts: list[str] = []
    order_reversed = False
    if pieces:
        first = pieces[0]
        parts = _split_replaced(first)
        if len(parts) >= 3:
            names = [_clean_name(p) for p in parts[0::2]]
            words = [w for w in parts[1::2] if w]
            if names[-1] == "" and len(pieces) > 1:  # "X (replaced Y)": the other name is the next piece
                names[-1] = _clean_name(_split_replaced(pieces[1])[0])
            names = [n for n in names if n and _name_like(n)]
            # "New replaced Old" / "New replacing Old": the later account is written first.
            later_first = re.match(r"replac(?:ed|ing|es)$|repl\.$|in\s+for|sub|<|←", words[0] if words else "", re.I)
            if later_first and not re.match(r"replaced\s+by|subbed\s+by", words[0], re.IGNORECASE):
                order_reversed = True
            accounts = list(reversed(names)) if order_reversed else names
        else:
            name = _leading_name(first, authors)
            if name:
                accounts = [name]
        # Further pieces that are accounts of the thread ("Name - Replacement") join the seat.
        if authors is not None and accounts:
            for piece in pieces[1:]:
                piece_name = _split_replaced(piece)
                for candidate in piece_name[0::2]:
                    candidate = _clean_name(candidate)
                    if candidate and authors.seat(candidate) and candidate.casefold() not in {
                        a.casefold() for a in accounts + struck
                    }:
                        accounts.append(candidate)
    accounts = struck + [a for a in accounts if a.casefold() not in {s.casefold() for s in struck}]
    accounts = [a for a in accounts if a.casefold() not in moderators]
    if not accounts or not all(_name_like(a) and not _PHASE_WORDS.match(a) for a in accounts):
        return None  # "D1 starts - Cedar replaces Cypress - D1 ends" is a line of the game's events
    rest = _plain(unstruck_text)
    dead = bool(_DEAD_WORDS.search(rest)) and not _ALIVE_WORDS.search(rest)
    if struck and not pieces:
        dead = True  # the only name is struck out: a dead seat
    return _Entry(tuple(dict.fromkeys(accounts)), dead, line)


def _split_accounts(text: str, authors: _Names | None) -> list[str]:
    """"Old1 Old2" struck together: the thread's accounts it is made of, when it is nothing else."""
    if authors is None or authors.seat(text):
        return [text]
    found = authors.find(text)
    rest = text
    for start, end, _ in reversed(found):
        rest = rest[:start] + rest[end:]
    return [text[start:end] for start, end, _ in found] if len(found) > 1 and not rest.strip() else [text]


def _split_replaced(text: str) -> list[str]:
    """Names and the replacement words between them: [name, word, name, ...]."""
    return [part for part in _REPLACE_WORDS.split(text) if part is not None]


def _leading_name(text: str, authors: _Names | None) -> str | None:
    """The account a list line starts with: the longest thread account it starts with, else its first words."""
    if authors is not None:
        found = authors.find(text)
        if found and found[0][0] == 0:
            return text[: found[0][1]]
    words = text.split()
    if not words or len(words) > 4:
        return None
    return text if _name_like(text) else None


def _name_like(text: str) -> bool:
    if not text or len(text) > 32 or len(text.split()) > 4:
        return False
    if re.search(r"\w{3,}[.!?]\s|https?:|www\.", text):  # a sentence, not "Albert B. Rampage"
        return False
    return bool(re.search(r"\w", text))


def _first_count_roster(
    posts: Sequence[PostLike], moderators: set[str], authors: _Names
) -> tuple[list[_Entry], int] | None:
    """The players of day 1's first vote count ("Vote Count 1.0 ... Not voting: A, B, ... With 13 alive"), as
    list entries, when it lists as many of the thread's posters as it says are alive."""
    for post in posts[1:]:
        if post.author.casefold() not in moderators:
            continue
        lines = [_plain(line) for line in read_lines(post.body_html)]
        day = next((d for d in map(vote_count_day, lines[:3]) if d is not None), None)
        if day is None:
            continue
        names = counted_roster(lines, known=lambda name: authors.seat(authors.spelled(name))) if day == 1 else None
        if names is None:
            return None
        return [_Entry((authors.spelled(n),), False, n) for n in names], post.number
    return None


def _find_player_list(
    posts: Sequence[PostLike], moderators: set[str], authors: _Names | None
) -> tuple[list[_Entry], int | None]:
    """The player list: the opening post's, else the first moderator post with one. Returns entries and post."""
    for post in posts:
        if post.author.casefold() not in moderators:
            continue
        entries = _list_entries(read_lines(post.body_html), moderators, authors)
        if entries:
            return entries, post.number
    return [], None


def _list_entries(lines: list[str], moderators: set[str], authors: _Names | None) -> list[_Entry]:
    """Runs of list-like lines; a run counts when it sits under a player-list header or names thread accounts."""
    runs: list[tuple[bool, list[_Entry]]] = []
    header = False
    run: list[_Entry] = []
    run_header = False
    for line in lines:
        plain = _plain(line)
        entry = _read_entry(line, authors, moderators)
        if entry is None:
            if run:
                runs.append((run_header, run))
                run = []
            header = bool(_LIST_HEADER.match(plain.strip("*~=_ ")))
            if header:
                # "Living (8/12):" headers may have a list on the same line after a colon
                tail = plain.split(":", 1)[1].strip() if ":" in plain else ""
                if tail:
                    names = [n for n in (_clean_name(x) for x in re.split(r",|\band\b", tail)) if _name_like(n)]
                    if len(names) >= 3:
                        runs.append((True, [_Entry((n,), False, line) for n in names]))
            continue
        if not run:
            run_header = header
        run.append(entry)
    if run:
        runs.append((run_header, run))
    chosen: list[_Entry] = []
    chosen_runs: list[list[_Entry]] = []
    headed_total = sum(len(entries) for under_header, entries in runs if under_header)
    for under_header, entries in runs:
        before = len(chosen)
        known = sum(1 for e in entries if authors is not None and any(authors.seat(a) for a in e.accounts))
        vouched = authors is not None and known >= max(2, len(entries) // 2 + 1)
        # "Alive:" with one name left and "Dead:" with the rest are one list in two parts
        headed = under_header and (len(entries) >= 3 or headed_total >= 3) and (authors is None or known >= 1)
        if vouched or headed or (len(entries) >= 5 and authors is None):
            chosen.extend(entries)
        if len(chosen) > before:
            chosen_runs.append(entries)
    if authors is not None:
        vouched = [e for run in chosen_runs for e in _vouched(run, authors)]
        if sum(1 for e in vouched if any(authors.seat(a) for a in e.accounts)) >= 3:
            chosen = vouched
    if len(chosen) < 3:
        return []
    if authors is not None:
        chosen = [_Entry(tuple(authors.spelled(a) for a in e.accounts), e.dead, e.line) for e in chosen]
    # one seat per account: a later mention (the dead list repeating a name) merges into the first
    merged: list[_Entry] = []
    for entry in chosen:
        keys = {a.casefold() for a in entry.accounts}
        for i, other in enumerate(merged):
            if keys & {a.casefold() for a in other.accounts}:
                accounts = other.accounts + tuple(a for a in entry.accounts if a.casefold() not in
                                                  {x.casefold() for x in other.accounts})
                merged[i] = _Entry(accounts, other.dead or entry.dead, other.line)
                break
        else:
            merged.append(entry)
    return merged


def _vouched(run: list[_Entry], authors: _Names) -> list[_Entry]:
    """The thread's posters vouch for a list: a name that never posted stays only between two that did, in the
    same numbered or bulleted list, or on a line of its own (a player replaced before posting); headers and
    notes drop out."""
    posted = [any(authors.seat(a) for a in e.accounts) for e in run]

    def style(entry: _Entry) -> str:
        bullet = _BULLET.match(entry.line)
        return "" if not bullet else ("1" if any(c.isdigit() for c in bullet.group(0)) else bullet.group(0).strip())

    return [
        e for i, e in enumerate(run)
        if posted[i] or (0 < i < len(run) - 1 and posted[i - 1] and posted[i + 1]
                         and style(run[i - 1]) == style(e) == style(run[i + 1])
                         and (style(e) != "" or _plain(e.line).strip(" *") == e.accounts[0])
                         and not _LIST_HEADER.match(_plain(e.line)) and e.accounts[0][:1].isalnum())
    ]


# --- moderators ------------------------------------------------------------------------------------------------

_MOD_LINE = re.compile(
    r"^\W*(?:co-?\s*mod(?:erator)?s?|mod(?:erator)?s?|(?:co-?)?hosts?|hosted\s+by|run\s+by|modded\s+by|"
    r"moderated\s+by)\b\s*(?:\([^)]*\))?\s*(?::|-|by|is|are)?\s*(?P<names>.+)$",
    re.IGNORECASE,
)
_NOT_MOD_LINE = re.compile(r"\b(backup|reviewer|review|setup|design|thanks|special|flavou?r|art)\b", re.IGNORECASE)


def _read_moderators(opening: PostLike) -> tuple[tuple[str, ...], Cite | None]:
    mods = [opening.author]
    cite = None
    for line in read_lines(opening.body_html):
        plain = _plain(line)
        match = _MOD_LINE.match(plain)
        if not match or _NOT_MOD_LINE.search(plain.split(":")[0] if ":" in plain else plain):
            continue
        names = [n for n in (_clean_name(x) for x in re.split(r",|&|\band\b|/|\+", match.group("names"))) if n]
        names = [n for n in names if _name_like(n) and len(n.split()) <= 3]
        if not names or len(names) > 4:
            continue
        for name in names:
            if name.casefold() not in (m.casefold() for m in mods):
                mods.append(name)
        cite = cite or Cite(opening.number, _trim(line))
    return tuple(mods), cite


def _read_helpers(
    posts: Sequence[PostLike], mod_keys: set[str], seats: dict[str, list[str]]
) -> tuple[list[str], Cite | None]:
    """Accounts outside the player list that post the moderator's business (phase changes, vote counts) more
    than once: a co-moderator or vote counter the opening post does not name."""
    players = {_squash(a) for accounts in seats.values() for a in accounts}
    seen: dict[str, list[Cite]] = {}
    for post in posts:
        if post.author.casefold() in mod_keys or _squash(post.author) in players:
            continue
        for line in read_lines(post.body_html):
            plain = _plain(line)
            phase_talk = _NOW_PHASE.search(plain) or _SHORT_PHASE.search(plain) or _BARE_PHASE.search(plain)
            if phase_talk or re.match(r"\W*(?:official\s+)?vote\s*count\b", plain, re.IGNORECASE):
                seen.setdefault(post.author, []).append(Cite(post.number, _trim(line)))
                break
    helpers = [author for author, cites in seen.items() if len(cites) >= 2]
    return helpers, (seen[helpers[0]][0] if helpers else None)


# --- announcements ---------------------------------------------------------------------------------------------

_NOW_PHASE = re.compile(
    r"\b(?:it\s+is\s+now|it'?s\s+now|welcome\s+to|we\s+are\s+now\s+in|now\s+entering|entering|start\s+of|"
    r"beginning\s+of|dawns?\s+on|dawn\s+of)\s+(?:the\s+)?(day|night|[dn](?=\s*\d))\s*" + _NUM + r"\b"
    r"|\b(day|night)\s*" + _NUM + r"\s+(?:has\s+)?(?:now\s+)?(?:begun|began|started|starts\s+now|begins\s+now|"
    r"is\s+(?:now\s+)?(?:open|here|upon\s+us|underway)|begins(?=\s*[.!,]|\s*$)|starts(?=\s*[.!,]|\s*$)|"
    r"has\s+now\s+begun)"
    r"|^\W*(day|night)\s*" + _NUM + r"\s*(?:[:!\-–—]|$)",
    re.IGNORECASE,
)
_NIGHT_FALLS = re.compile(
    r"\bnight\s+(?:has\s+)?(?:fallen|falls|begins|has\s+begun|is\s+upon)\b|\bit\s+is\s+now\s+night\b", re.IGNORECASE
)
_LYNCH_VERB = re.compile(
    r"\b(?:has\s+been|have\s+been|was|were|is\s+being|is|got|gets|will\s+be)\s+(?:\w+\s+)?(?:lynched|hanged|hung|"
    r"executed|eliminated|voted\s+out|strung\s+up)\b|\b(?:lynched|hanged|hung|executed|eliminated)\s+(?:on\s+)?(?:day|d)\s*"
    + _NUM + r"\b|,\s*(?:was\s+)?lynched\b|\(lynched\)",
    re.IGNORECASE,
)
_LYNCH_REACHED = re.compile(
    r"\b(?:lynch|majority|hammer)\s+(?:has\s+been\s+|is\s+|was\s+)?(?:reached|achieved|attained)\b|"
    r"\bmajority\s+(?:vote\s+)?(?:on|for)\b|\b(?:has\s+been|was|is)\s+hammered\b|"
    r"\bthat'?s\s+(?:a\s+)?(?:lynch|hammer)\b",
    re.IGNORECASE,
)
_NO_LYNCH = re.compile(
    r"\bno[\s-]*lynch\s+(?:has\s+been\s+|is\s+|was\s+)?(?:reached|achieved|wins|it\s+is)\b|"
    r"\b(?:no\s*one|nobody)\s+(?:has\s+been|was|is|got)\s+(?:lynched|eliminated|executed)\b|"
    r"\btown\s+(?:has\s+)?(?:chose|chosen|decided|voted)\s+(?:not\s+to\s+lynch|to\s+no\s+lynch|no\s+lynch)\b|"
    r"\b(?:there\s+(?:is|was|will\s+be)\s+(?:a|no)\s+)no[\s-]lynch\b|\bresult(?:s|ed)?\s+in\s+a\s+no[\s-]lynch\b|"
    r"\bno\s+lynch\s+today\b|\bno\s+majority\s+(?:was\s+)?reached\b|\bno[\s-]lynch\s+(?:on\s+)?(?:day|d)\s*\d|"
    r"\bno[\s-]lynch\s+has\s+(?:occurred|happened|been\s+(?:reached|achieved))\b",
    re.IGNORECASE,
)
_KILL_VERB = re.compile(
    r"\b(?:was|has\s+been|is|were|got|had\s+been)\s+(?:found\s+)?(?:\w+\s+)?(?:killed|dead|murdered|shot|stabbed|"
    r"slain|poisoned|strangled|mauled|eaten|burn(?:ed|t)|crushed|eviscerated|executed|assassinated|slaughtered|"
    r"vanquished|taken\s+out)\b|\b(?:died|dies|perished|is\s+no\s+more)\b|"
    r",\s*(?:was\s+)?(?:killed|shot|stabbed|murdered|died|slain|dead)\b",
    re.IGNORECASE,
)
_CONDITION = re.compile(r"\b(?:when|whenever|if|once|until|unless|will|would|can|before|after)\b", re.IGNORECASE)
_IF_BEFORE = re.compile(r"\b(?:if|unless|when|whenever|once|until|should|in\s+case)\b", re.IGNORECASE)
_MODKILL = re.compile(r"\bmod[\s-]?kill(?:ed|s)?\b", re.IGNORECASE)
_FLIP = re.compile(
    r"^\W*(?P<name>[^,\n]{1,40}?)\s*(?:,|\s-\s|\s–\s|\swas\s(?:a|an|the)\s)\s*(?P<rest>.{2,160})$", re.IGNORECASE
)
_PHASE_IN = re.compile(r"\b(day|night|d|n)\s*" + _NUM + r"\b", re.IGNORECASE)
_NEGATION = re.compile(r"\b(not|no\s*one|nobody|nothing|n't|never|survived|saved|protected|would\s+have|if)\b",
                       re.IGNORECASE)
_WAS_ROLE = re.compile(r"\b(?:was|is)\s+(?:a|an|the)\s+\w", re.IGNORECASE)
# Words of a role reveal ("Name - Vanilla Townie", "Name, Mafia Goon"): a flip, in a post that ends a day or a night.
_ROLE_WORDS = re.compile(
    r"\b(town|townie|villager|vanilla|mafia|goon|scum|cop|doctor|medic|mason|vigilante|vig|godfather|roleblocker|"
    r"serial\s+killer|sk|werewolf|wolf|cult|cultist|survivor|jester|tracker|watcher|neutral|seer|bodyguard|"
    r"jailkeeper|gunsmith|neighbou?r|rolecop|innocent|guilty|killer|hider|bus\s+driver|lover|traitor|"
    r"third\s+party|independent|alien|vampire|witch|hunter|ninja|janitor|framer|strongman)s?\b",
    re.IGNORECASE,
)
_REPLACEMENT = re.compile(
    r"(?P<new>[^\s,.!:;()][^,.!:;()]{0,40}?)\s+(?:is\s+|has\s+|will\s+be\s+|will\s+)?(?:now\s+)?"
    r"(?:replacing|replaces|replaced|subbing\s+(?:in\s+)?for|subs\s+(?:in\s+)?for|is\s+in\s+for|in\s+for|"
    r"taking\s+over\s+for|takes\s+over\s+for|has\s+taken\s+over\s+for|(?:has\s+)?stepped\s+in\s+for)\s+"
    r"(?P<old>[^\s,.!:;()][^,.!:;()]{0,40}?)(?=\s*(?:[,.!:;()]|$|\s+(?:as|in|who|and|effective|from)\b))"
    r"|(?P<old2>[^\s,.!:;()][^,.!:;()]{0,40}?)\s+(?:is\s+being|has\s+been|is|was|will\s+be|got)\s+(?:now\s+)?"
    r"replaced\s+by\s+(?P<new2>[^\s,.!:;()][^,.!:;()]{0,40}?)(?=\s*(?:[,.!:;()]|$|\s+(?:as|in|who|and)\b))",
    re.IGNORECASE,
)
_NOT_REPLACEMENT = re.compile(r"\b(need|needs|needed|seek|seeking|looking|request|requested|will\s+be\s+replaced\s*$|"
                              r"prod|if)\b", re.IGNORECASE)


@dataclass
class _State:
    day: int = 0
    night: bool = True  # before day 1 starts
    ended: bool = False  # the current day has ended (lynch or night)
    lynched: bool = False  # ... by its lynch or no-lynch
    implicit: bool = False  # day 1 was taken to start with the opening post
    night_post: int | None = None  # the post that ended the last day
    count_day: int | None = None  # the day the vote count in the post being read is for
    dead: set = field(default_factory=set)  # seats read dead, also from posts read quietly (before after_post)
    posts_by_seat: dict = field(default_factory=dict)  # seat -> the numbers of the posts its accounts wrote
    listed_living: dict = field(default_factory=dict)  # day -> the seats its counts listed living
    counted_out: list = field(default_factory=list)  # (DeathFact, day, quiet): left out of a count, unconfirmed
    facts: dict = field(default_factory=lambda: {k: [] for k in (
        "starts", "ends", "elims", "deaths", "repl", "deadlines", "problems")})


def read_thread_facts(
    posts: Sequence[PostLike],
    *,
    title: str | None = None,
    moderators: Sequence[str] | None = None,
    players: dict[str, Sequence[str]] | None = None,
    after_post: int | None = None,
    timezone: tzinfo = UTC,
) -> ThreadFacts:
    """Everything the thread's moderators announce, read from ``posts`` (in thread order).

    ``moderators`` and ``players`` (seat name → accounts) are what the caller already knows, such as a game
    file's; without them the reader takes them from the thread. Announcements are read from posts after
    ``after_post`` only (the phase is still followed from the start, so day numbers stay right).
    """
    posts = list(posts)
    if not posts:
        return ThreadFacts(title, tuple(moderators or ()), None, (), (), (), (), (), (), (), ("no posts",))
    opening = posts[0]
    if moderators:
        mods, mods_cite = tuple(moderators), None
    else:
        mods, mods_cite = _read_moderators(opening)
    mod_keys = {m.casefold() for m in mods}
    authors = _Names({a: [a] for a in dict.fromkeys(p.author for p in posts) if a.casefold() not in mod_keys})
    problems: list[str] = []
    player_facts: list[PlayerFact] = []
    if players:
        seats = {name: list(accounts) for name, accounts in players.items()}
    else:
        entries, list_post = _find_player_list(posts, mod_keys, authors if authors.seat_of else None)
        counted = _first_count_roster(posts, mod_keys, authors)
        if counted is not None and len(counted[0]) > len(entries):  # the list is cut short: the count has all
            entries, list_post = counted
        seats = {}
        for entry in entries:
            seats[entry.accounts[0]] = list(entry.accounts)
            player_facts.append(
                PlayerFact(entry.accounts[0], entry.accounts[1:], entry.dead, Cite(list_post, _trim(entry.line)))
            )
        if not entries:
            problems.append("no player list found in the moderators' posts")
    if not moderators and seats:
        helpers, helpers_cite = _read_helpers(posts, mod_keys, seats)
        if helpers:
            mods = (*mods, *helpers)
            mods_cite = mods_cite or helpers_cite
            mod_keys |= {h.casefold() for h in helpers}
    state = _State()
    names = _Names(seats)
    state.posts_by_seat = _posts_by_seat(posts, names)
    opening_block = True  # the opening post and the moderators' posts right after it (reserved, kept up to date)
    run: list[PostLike] = []  # the moderators' posts since the last player's post
    for post in posts:
        if post.author.casefold() not in mod_keys:
            opening_block = False
            run = []
            continue
        run.append(post)
        quiet = after_post is not None and post.number <= after_post
        if post is opening:
            _read_opening(post, state, timezone, quiet=quiet)
            continue
        if opening_block:
            continue
        before = copy.deepcopy(state), copy.deepcopy(seats)
        _read_announcement(post, state, names, seats, timezone, quiet=quiet)
        _read_vote_count_day(post, run, state, timezone, quiet=quiet)
        _read_counted_living(post, state, names, seats, quiet=quiet)
        ends = len(state.facts["ends"]) - len(before[0].facts["ends"])
        if state.day - before[0].day > 1 or ends > 1:
            # a post that runs through several days is a summary the moderator keeps up to date (often
            # the reserved second post, edited after the fact): it announces nothing new
            state = before[0]
            seats.clear()
            seats.update(before[1])
            names.__init__(seats)
    _confirm_counted_out(state, posts[-1].number)
    if not moderators:  # a poster taken for a co-moderator who turns out to replace into a seat is a player
        players_keys = {a.casefold() for accounts in seats.values() for a in accounts}
        mods = tuple(m for m in mods if m == opening.author or m.casefold() not in players_keys)
    f = state.facts
    return ThreadFacts(
        title=title,
        moderators=mods,
        moderators_cite=mods_cite,
        players=tuple(player_facts),
        day_starts=tuple(f["starts"]),
        day_ends=tuple(f["ends"]),
        eliminations=tuple(f["elims"]),
        deaths=tuple(f["deaths"]),
        replacements=tuple(f["repl"]),
        deadlines=tuple(f["deadlines"]),
        problems=tuple(problems + f["problems"]),
    )


def _posts_by_seat(posts: Sequence[PostLike], names: _Names) -> dict[str, list[int]]:
    """Each seat's posts in the thread (by any of its accounts known when the reading starts)."""
    written: dict[str, list[int]] = {}
    for post in posts:
        seat = names.seat_of.get(post.author.casefold())
        if seat is not None:
            written.setdefault(seat, []).append(post.number)
    return written


def _confirm_counted_out(state: _State, last_post: int) -> None:
    """A seat a day's count left out is dead when its player posts no more until that day ends (a count can
    miss a line the reader cannot read; a living player's next post shows it). Posts after the day's end are
    not held against it: the dead talk once the game is over."""
    ends = {e.day: e.post for e in state.facts["ends"]}
    for death, day, quiet in state.counted_out:
        until = ends.get(day, last_post)
        if quiet or death.player in state.dead:
            continue  # read before the caller's after_post, or told in words too
        if not any(death.cite.post < n <= until for n in state.posts_by_seat.get(death.player, ())):
            state.facts["deaths"].append(death)


def _read_opening(post: PostLike, state: _State, timezone: tzinfo, *, quiet: bool) -> None:
    """Day 1 runs from the opening post unless a later post starts it; the opening post says little else
    that can be trusted in order, because moderators keep it up to date with the game (its dead list)."""
    lines = read_lines(post.body_html)
    deadline = None
    for line in lines:
        match = re.search(r"\b(?:day\s*(?:1|one)|eod\s*1)\b.*\b(?:deadline|ends?|end)\b|\bdeadline\b", _plain(line),
                          re.IGNORECASE)
        if match:
            deadline = read_deadline(_plain(line), post, timezone)
            if deadline:
                cite = Cite(post.number, _trim(line))
                break
    state.day, state.night, state.ended = 1, False, False
    start_cite = Cite(post.number, _trim(lines[0] if lines else ""))
    if not quiet:
        state.facts["starts"].append(DayStart(1, post.number, deadline, start_cite))
        if deadline:
            state.facts["deadlines"].append(DeadlineFact(1, deadline, post.number, "deadline", cite))
    state.implicit = True


def _read_announcement(
    post: PostLike, state: _State, names: _Names, seats: dict[str, list[str]], timezone: tzinfo, *, quiet: bool
) -> None:
    lines = read_lines(post.body_html)
    state.count_day = next((d for d in (vote_count_day(_plain(line)) for line in lines[:3]) if d is not None), None)
    f = state.facts
    dead = state.dead | {d.player for d in f["deaths"]} | {e.player for e in f["elims"] if e.player}

    def add(kind: str, fact) -> None:
        if kind in ("deaths", "elims") and fact.player:
            state.dead.add(fact.player)
        if not quiet:
            f[kind].append(fact)

    for line, plain in ((whole, sentence) for whole in lines for sentence in _sentences(_plain(whole))):
        cite = Cite(post.number, _trim(line))
        # replacements first: they add accounts that later lines may name
        for match in _REPLACEMENT.finditer(plain):
            new = match.group("new") or match.group("new2")
            old = match.group("old") or match.group("old2")
            if _NOT_REPLACEMENT.search(plain[: match.start()] + " " + plain[match.end():][:20]):
                continue
            new, old = _strip_lead(new), _strip_lead(old)
            seat = names.seat(old)
            if seat is None or not _name_like(new) or names.seat(new) == seat:
                continue
            seats.setdefault(seat, [seat]).append(new)
            names.__init__(seats)
            add("repl", ReplacementFact(seat, new, post.number, cite))
        # the phase
        phase = _phase_of(plain, state, post.number)
        if phase:
            kind, number = phase
            if kind == "day" and number == 1 and state.implicit and state.day == 1 and not state.ended:
                # "Day 1 has begun" after the opening post: day 1 starts here
                state.implicit = False
                deadline = read_deadline(plain, post, timezone) or _deadline_in(lines, post, timezone)
                if not quiet:
                    f["starts"][:] = [DayStart(1, post.number, deadline, cite)]
                    f["deadlines"][:] = [DeadlineFact(1, deadline, post.number, "deadline", cite)] if deadline else []
                continue
            # the same day again only after a night word may have ended it too early, never after its lynch
            # ("on the beginning of Day 2, everybody turns to Zodiark" in the lynch's story)
            if kind == "day" and (number > state.day or (number == state.day and state.night and not state.lynched)):
                _end_day(state, post, cite, add)
                state.day, state.night, state.ended, state.lynched = number, False, False, False
                deadline = read_deadline(plain, post, timezone) or _deadline_in(lines, post, timezone)
                add("starts", DayStart(number, post.number, deadline, cite))
                if deadline:
                    add("deadlines", DeadlineFact(number, deadline, post.number, "deadline", cite))
                continue
            if kind == "night" and number >= state.day and not state.night:
                _end_day(state, post, cite, add)
                state.night = True
                continue
        if _NIGHT_FALLS.search(plain) and not state.night and state.day:
            _end_day(state, post, cite, add)
            state.night = True
            continue
        if state.day == 0:
            continue
        # lynch / no lynch
        if not _has_elimination(f, state.day) and not (state.night and not state.ended):
            no_lynch = _NO_LYNCH.search(plain)
            if no_lynch and not _IF_BEFORE.search(plain[: no_lynch.start()]):  # "If no lynch is reached, ..."
                add("elims", Elimination(state.day, None, post.number, cite))
                _end_day(state, post, cite, add)
                state.lynched = True
                continue
            lynched = _named_before(plain, _LYNCH_VERB, names)
            night = _stated_night(plain)
            if lynched and lynched not in dead and night is not None:  # "X was hung upside down Night 3"
                add("deaths", DeathFact(lynched, f"night {night}", None, "night kill", cite))
                dead.add(lynched)
                continue
            if lynched and lynched not in dead:
                add("elims", Elimination(state.day, lynched, post.number, cite))
                dead.add(lynched)
                _end_day(state, post, cite, add)
                state.lynched = True
                continue
            if _LYNCH_REACHED.search(plain) and not _CONDITION.search(plain):
                _end_day(state, post, cite, add)
                state.lynched = True
        # deaths
        modkilled = _named_before(plain, _MODKILL, names)
        if modkilled and modkilled not in dead:
            phase_text = f"{'night' if state.night else 'day'} {state.day}"
            add("deaths", DeathFact(modkilled, phase_text, None if state.night else post.number, "modkill", cite))
            dead.add(modkilled)
            continue
        started_here = not state.night and any(d.post == post.number and d.day == state.day for d in f["starts"])
        killed = _named_before(plain, _KILL_VERB, names) or _flip_name(plain, names, state, started_here)
        if killed and killed not in dead:
            stated = _PHASE_IN.search(plain)
            lynch_line = bool(re.search(r"\blynch", plain, re.IGNORECASE))
            if stated:
                kind = "night" if stated.group(1).lower().startswith("n") else "day"
                number = _number(stated.group(2))
            elif started_here:  # the post that starts a day reports the night before it
                kind, number = "night", state.day - 1
            else:
                kind, number = ("night", state.day) if state.night else ("day", state.day)
            if kind == "day" and (lynch_line or (state.ended and not _has_elimination(f, number))) and \
                    not _has_elimination(f, number):
                add("elims", Elimination(number, killed, post.number, cite))
                dead.add(killed)
                if number == state.day and not state.night:
                    _end_day(state, post, cite, add)
                continue
            if kind == "night" and number == 0:
                continue
            day_kill = kind == "day" and number == state.day and not state.night and not state.ended
            add("deaths", DeathFact(killed, f"{kind} {number}", post.number if day_kill else None,
                                    "day kill" if kind == "day" else "night kill", cite))
            dead.add(killed)
            continue
        # deadlines and extensions during a day
        if not state.night and re.search(r"\b(deadline|eod|end\s+of\s+day|extend|extension|ends?\s+(?:at|on|in))\b",
                                         plain, re.IGNORECASE):
            when = read_deadline(plain, post, timezone)
            if when:
                kind = "extension" if re.search(r"\bextend|extension\b", plain, re.IGNORECASE) else "deadline"
                known = [d for d in f["deadlines"] if d.day == state.day]
                if not known or known[-1].time != when:
                    add("deadlines", DeadlineFact(state.day, when, post.number, kind if known else "deadline", cite))
    _read_majority_death(post, lines, state, names, add)
    _read_lynch_flip(post, lines, state, names, add)
    _read_dawn(post, lines, state, add, timezone)


MAX_DEATHS_IN_A_NIGHT = 3


def _read_counted_living(post: PostLike, state: _State, names: _Names, seats: dict[str, list[str]], *,
                         quiet: bool) -> None:
    """A day's vote count that lists every living player leaves out the seats that died since: a death the
    moderator told only in flavour text ("the town found a body") is still read. A seat missing from the
    day's count died in the night before it, when no more seats are missing than a night takes and its
    player posts no more that day (:func:`_confirm_counted_out`)."""
    if state.night or state.day < 2:
        return
    lines = read_lines(post.body_html)
    day = next((d for d in (vote_count_day(_plain(line)) for line in lines[:3]) if d is not None), None)
    if day != state.day:
        return
    unstruck = [re.sub(STRUCK_OPEN + "[^" + STRUCK_CLOSE + "]*" + STRUCK_CLOSE, "", line) for line in lines]
    living = counted_living([_plain(line) for line in unstruck], seat_of=names.seat)
    if living is None:
        return
    f = state.facts
    dead = state.dead | {d.player for d in f["deaths"]} | {e.player for e in f["elims"] if e.player}
    cite = Cite(post.number, _trim(_plain(lines[0])))
    pending = {death.player for death, _, _ in state.counted_out}
    # a seat an earlier count of the day listed living was left out by a line this one missed: no night
    # killed it since, and a day's kill is announced in words
    counted_before = state.listed_living.setdefault(day, set())
    missing = [seat for seat in seats if seat not in living | dead | pending | counted_before]
    counted_before |= living
    if len(missing) > MAX_DEATHS_IN_A_NIGHT:
        return  # more than a night takes: the count is not what it seems
    for seat in missing:  # kept also when quiet, so that a later count does not read the same death again
        state.counted_out.append((DeathFact(seat, f"night {state.day - 1}", None, "night kill", cite), day, quiet))


def _read_vote_count_day(post: PostLike, run: list[PostLike], state: _State, timezone: tzinfo, *, quiet: bool) -> None:
    """A moderator's vote count for the next day, posted at night: that day has started, even when the
    moderator announced it only in flavour text. It starts with the first post of the moderator's run of
    posts before the count (no player posted in between) that reads as a dawn, else with the count itself."""
    if not state.night or not state.day or state.night_post == post.number:
        return  # the post that ended the day holds its final count, whatever day that count names
    lines = read_lines(post.body_html)
    day = next((d for d in (vote_count_day(_plain(line)) for line in lines[:3]) if d is not None), None)
    if day != state.day + 1:
        return
    after_night = [p for p in run if state.night_post is None or p.number > state.night_post]
    start = next((p for p in after_night[:-1] if _DAWN.search(" ".join(map(_plain, read_lines(p.body_html))))),
                 post)
    start_lines = lines if start is post else read_lines(start.body_html)
    state.day, state.night, state.ended = day, False, False
    cite = Cite(start.number, _trim(start_lines[0] if start_lines else ""))
    deadline = _deadline_in(lines, post, timezone)
    if not quiet:
        state.facts["starts"].append(DayStart(day, start.number, deadline, cite))
        if deadline:
            state.facts["deadlines"].append(DeadlineFact(day, deadline, post.number, "deadline", cite))


_DAWN = re.compile(
    r"\b(?:woke|wake|wakes|awoke|awaken|awakens|morning|dawn|dawns|sunrise|sun\s+rises|daybreak|day\s+breaks)\b|"
    r"\b(?:no\s*one|nobody)\s+(?:has\s+|was\s+)?(?:died|killed)\b|\bno\s+(?:night\s*)?kills?\b|\bno\s+deaths?\b",
    re.IGNORECASE,
)
_DAY_BUSINESS = re.compile(r"\bdeadline\b|\bto\s+(?:lynch|eliminate)\b|\bvote\s*count\b|\balive\b", re.IGNORECASE)


def _read_dawn(post: PostLike, lines: list[str], state: _State, add, timezone: tzinfo) -> None:
    """A night ends without "It is now Day N" when the moderator reports its deaths (or that nobody died) and
    the day's business: the next day starts with that post."""
    f = state.facts
    if not state.night or not state.day or state.night_post == post.number:
        return
    text = " ".join(_plain(line) for line in lines)
    if _NIGHT_FALLS.search(text) or any(e.post == post.number for e in f["elims"]):
        return  # the lynch's story that begins the night ("see you in the morning!") is no dawn
    reported = any(d.cite.post == post.number and d.phase == f"night {state.day}" for d in f["deaths"])
    if not (reported or (_DAWN.search(text) and _DAY_BUSINESS.search(text))):
        return
    state.day, state.night, state.ended = state.day + 1, False, False
    cite = Cite(post.number, _trim(lines[0] if lines else ""))
    deadline = _deadline_in(lines, post, timezone)
    add("starts", DayStart(state.day, post.number, deadline, cite))
    if deadline:
        add("deadlines", DeadlineFact(state.day, deadline, post.number, "deadline", cite))


def _read_majority_death(post: PostLike, lines: list[str], state: _State, names: _Names, add) -> None:
    """A death the post tells of a seat its own vote count shows at majority ("Alder (5): ..." with "it takes 5
    to lynch") is that day's lynch, however it is worded ("Alder, a Vanilla Townie, died D3"): the day ends here."""
    f = state.facts
    if not state.day or _has_elimination(f, state.day):
        return
    told = [d for d in f["deaths"] if d.cite.post == post.number and d.phase == f"day {state.day}"]
    if len(told) != 1:
        return
    majority = majority_needed(" ".join(_plain(line) for line in lines))
    wagons = {names.seat(head): votes for head, votes in map(wagon_of, map(_plain, lines)) if head}
    death = told[0]
    if majority is None or wagons.get(death.player, 0) < majority:
        return
    f["deaths"].remove(death)
    add("elims", Elimination(state.day, death.player, post.number, death.cite))
    if not state.night:
        _end_day(state, post, death.cite, add)
        state.lynched = True


def _read_lynch_flip(post: PostLike, lines: list[str], state: _State, names: _Names, add) -> None:
    """A day that ended without a lynch read: the flip in the post that ended it, or in a later post of the
    same night that starts no day ("Steven Hacking was a Mafia Goon. Night 1 begins now.")."""
    f = state.facts
    ended = [e for e in f["ends"] if e.day == state.day]
    if not ended or _has_elimination(f, state.day) or any(s.post == post.number for s in f["starts"]):
        return
    dead = {d.player for d in f["deaths"] if d.cite.post != post.number} | {e.player for e in f["elims"] if e.player}
    for line in lines:
        for sentence in _sentences(_plain(line)):
            if re.search(r"\b(?:night|nk|night\s*kill|killed\s+(?:on\s+)?(?:night|n)\s*\d)", sentence, re.I):
                continue
            match = _FLIP.match(sentence)
            seat = names.seat(match.group("name")) if match else None
            if seat is None or seat in dead or not (_WAS_ROLE.search(sentence) or _DEAD_WORDS.search(sentence)
                                                    or _is_reveal(match.group("rest"))):
                continue
            if _NEGATION.search(match.group("rest")) or re.search(r"\breplac", sentence, re.I):
                continue
            f["deaths"][:] = [d for d in f["deaths"] if not (d.player == seat and d.cite.post == post.number)]
            add("elims", Elimination(state.day, seat, post.number, Cite(post.number, _trim(line))))
            return


_PHASE_CUE = re.compile(
    r"\b(day|night)\s*" + _NUM + r"\s+(?:deadline|will\s+end|ends\b|end\s+is|is\s+scheduled|actions|is\s+over|"
    r"has\s+ended|is\s+done)",
    re.IGNORECASE,
)
_ALIVE_COUNT = re.compile(
    r"\bwith\s+\d+\s+(?:players?\s+)?(?:alive|living|remaining|left)\b.{0,30}\bto\s+(?:lynch|eliminate|execute)", re.I
)


_SHORT_PHASE = re.compile(r"\b([dn])\s*(\d{1,2})\s+(?:has\s+)?(?:started|begun|begins|starts)\b", re.IGNORECASE)
_BARE_PHASE = re.compile(
    r"\bit\s+is\s+now\s+(night|day)(?:time)?\b(?!\s*\d)|\b(day\s+(?:begins|has\s+begun|starts|has\s+started))\b"
    r"|\b(?:send|submit|pm)\b[^.]{0,30}\bnight\s+actions?\b",
    re.IGNORECASE,
)


def _phase_of(text: str, state: _State, post: int) -> tuple[str, int] | None:
    """The phase a sentence says the game is in now, as ("day"|"night", number).

    "With 9 alive, 5 to lynch" after a night starts the next day, but not in the post that ended the day nor
    in the ended day's final count ("Vote Count 1.13 ... With 13 alive"): they state the day's own numbers."""
    match = _NOW_PHASE.search(text)
    if match:
        kind = "night" if (match.group(1) or match.group(3) or match.group(5)).lower().startswith("n") else "day"
        return kind, _number(match.group(2) or match.group(4) or match.group(6))
    match = _PHASE_CUE.search(text)
    if match:
        kind, number = match.group(1).lower(), _number(match.group(2))
        if re.search(r"\b(?:is\s+over|has\s+ended|is\s+done)", match.group(0), re.IGNORECASE):
            return ("night", number) if kind == "day" else ("day", number + 1)
        return kind, number
    match = _SHORT_PHASE.search(text)
    if match:
        return ("night" if match.group(1).lower() == "n" else "day"), int(match.group(2))
    match = _BARE_PHASE.search(text)
    if match and state.day:
        if (match.group(1) or "").lower() == "day" or match.group(2):
            return ("day", state.day + 1) if state.night else None
        return "night", state.day
    if state.night and state.day and state.night_post != post and _ALIVE_COUNT.search(text) and \
            state.count_day != state.day:
        return "day", state.day + 1
    return None


def _stated_night(text: str) -> int | None:
    """The night a sentence names ("... killed Night 3", "N2"), if it names one."""
    stated = _PHASE_IN.search(text)
    return _number(stated.group(2)) if stated and stated.group(1).lower().startswith("n") else None


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z\W])", text) if s.strip()]


def _strip_lead(text: str) -> str:
    text = re.sub(r"^(?:and|also|player|user|please\s+welcome|welcome)\s+", "", text.strip(), flags=re.IGNORECASE)
    return _clean_name(text)


def _has_elimination(facts: dict, day: int) -> bool:
    return any(e.day == day for e in facts["elims"])


def _end_day(state: _State, post: PostLike, cite: Cite, add) -> None:
    if state.day and not state.night and not state.ended:
        add("ends", DayEnd(state.day, post.number, cite))
        state.ended = True
        state.night_post = post.number
    state.night = bool(state.day)  # a day that ends gives way to the night


def _named_before(text: str, verb: re.Pattern, names: _Names) -> str | None:
    """The seat named closest before ``verb`` in the same clause, unless the clause is negated."""
    for match in verb.finditer(text):
        clause_start = max(text.rfind(c, 0, match.start()) for c in ".!?;") + 1
        before = [n for n in names.find(text[clause_start: match.start()])]
        if not before:
            continue
        between = text[clause_start + before[-1][1]: match.start()]
        if _NEGATION.search(between) or _NEGATION.search(match.group(0)) or len(between) > 80:
            continue
        return before[-1][2]
    return None


def _flip_name(text: str, names: _Names, state: _State, started_here: bool = False) -> str | None:
    """ "Name, Vanilla Townie, killed Night 1" or "Name was a Mafia Goon" in a post after a night."""
    match = _FLIP.match(text)
    if not match:
        return None
    seat = names.seat(match.group("name"))
    if seat is None:
        return None
    rest = match.group("rest")
    if _NEGATION.search(rest) or _ALIVE_WORDS.search(rest) or re.search(r"\breplac", rest, re.IGNORECASE):
        return None
    after_phase = state.night or state.ended or started_here
    if _DEAD_WORDS.search(rest) or ((_WAS_ROLE.search(text) or _is_reveal(rest)) and after_phase):
        return seat
    return None


def _is_reveal(rest: str) -> bool:
    """The part after a name is a role and nothing more: "Vanilla Townie", "Town-aligned One Shot Vigilante"."""
    return bool(_ROLE_WORDS.search(rest)) and len(rest.split()) <= 6 and not re.search(r"\d|[?]", rest)


def _deadline_in(lines: list[str], post: PostLike, timezone: tzinfo) -> datetime | None:
    for line in lines:
        plain = _plain(line)
        if re.search(r"\b(deadline|eod|end\s+of\s+day|ends?|due)\b", plain, re.IGNORECASE):
            when = read_deadline(plain, post, timezone)
            if when:
                return when
    for link in read_links(post.body_html):
        when = read_deadline(link, post, timezone)
        if when:
            return when
    return None
