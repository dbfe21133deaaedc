"""The player list: numbered or bulleted lines, one name per line, struck-out or replaced accounts,
dead marks; else day 1's first vote count when the list is cut short."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from assistant.reading.announcements.accounts import Names
from assistant.reading.announcements.deaths import ALIVE_WORDS, DEAD_WORDS, ROLE_WORDS
from assistant.reading.announcements.facts import PostLike
from assistant.reading.announcements.replacements import NOT_REPLACEMENT, REPLACEMENT
from assistant.reading.announcements.seat_count import stated_seats
from assistant.reading.announcements.text import (
    BLANK,
    STRUCK_CLOSE,
    STRUCK_OPEN,
    clean_name,
    name_like,
    plain_text,
    read_lines,
    squash,
    strip_lead,
)
from assistant.reading.count_state import counted_roster, unvoted_roster, vote_count_day

_BULLET = re.compile(
    r"^\s*(?:\[\d{1,2}\]\s*|(?:#|no\.?\s*)?\d{1,2}\s*[.):\]\-]\s*|\d{1,2}\s+(?=\S)|"
    r"[-*•·◦▪►>+]+\s*)",
    re.IGNORECASE,
)
_LIST_HEADER = re.compile(
    r"^\W*(?:the\s+)?(?:\w+\s+){0,3}?\(?(players?|player\s*list|living|alive|survivors?|survived|"
    r"roster|participants|signups?|sign-ups|dead|died|graveyard|deceased|remaining|still\s+alive|"
    r"in\s+the\s+game)\b[^.!?]{0,40}$",
    re.IGNORECASE,
)
_REPLACE_WORDS = re.compile(
    r"\s*(?:\(\s*)?\b((?:replaced\s+by|replacing|replaces|replaced|subbed\s+(?:in\s+)?for|"
    r"subbing\s+(?:in\s+)?for|in\s+for|sub\s+for|subbed\s+by)\b|repl?\.)\s*|\s+(->|→|=>|>>)\s+|"
    r"\s+(<-|<|←)\s+",
    re.IGNORECASE,
)
_LABEL = re.compile(
    r"^(mod|mods|moderator|moderators|co-?mods?|co-?moderators?|host|hosts|co-?hosts?|backup|setup|"
    r"reviewer|reviewers|deadline|day|night|role|roles|note|notes|rules?|vote|votes|votecount|"
    r"vote count|sample|flavou?r|quicktopic|spoiler|with|not voting|edit)\b",
    re.IGNORECASE,
)
_SPLIT = re.compile(r"\s+[-–—|:]\s+|\s*[,;(\[{]\s*|(?:\s+[-–—]\s*|\s*[-–—]\s+)(?=[A-Z])|:\s+")


@dataclass(frozen=True)
class _ListedSeat:
    accounts: tuple[str, ...]
    dead: bool
    line: str
    paragraph: int = 0  # the blank lines above it in its post


# A vote count's wagon line: "Alder [L-2] - Birch, Cedar", "Alder (3): Birch, ...". Its names are
# voters, not the seat's other accounts.
_WAGON_LINE = re.compile(
    r"^[^\[(]{1,40}?\s*[\[(]\s*(?:L\s*-\s*\d+|\d+(?:\s*/\s*\d+)?(?:\s+votes?)?)\s*[\])]"
    r"\s*(?:[-:–—]|$)"
    r"|^[^\[(]{1,40}?\s+[-–—:]\s*\d{1,2}\s*(?:votes?)?\s*[(\[:]",  # "Alder - 2 (Birch, Cedar)"
    re.IGNORECASE,
)
_STAFF_LABEL = re.compile(
    r"\b(?:mods?|moderators?|co-?mods?|hosts?|co-?hosts?|reviewers?|reviewed|back-?\s?up|thanks|"
    r"credits?|design(?:ers?|ed)?|setup|spectators?|dead\s+chat)\b",
    re.IGNORECASE,
)
# "• 1. Alder": an HTML list's bullet before the moderator's own number
_NUMBER_AFTER_BULLET = re.compile(r"^\s*\d{1,2}\s*[.):]\s+")
_PHASE_WORDS = re.compile(r"(?:day|night|d|n)\s*\d+\b", re.IGNORECASE)
# What a list line says of a seat that is no account: its role ("~~Alder~~ Vanilla Townie", "White
# Mage"), a seat waiting for a player ("Looking for Replacement")
_SEAT_NOTE = re.compile(
    ROLE_WORDS.pattern
    + r"|\b(?:mage|roles?|replacements?|replacing|needed|wanted|tbd|tba|vacant|open|empty|"
    r"looking|seeking|slot)\b",
    re.IGNORECASE,
)
# A list note naming a hydra's heads: "(hydra of Birch and Cedar)", "(a Hydra of Birch, Cedar &
# Damson)"
_HYDRA_OF = re.compile(r"\bhydra\s+(?:of|with|by)\s+(?P<heads>[^()\[\]{}|;:]+)", re.IGNORECASE)
# Prod or alt marks after a name, inside a struck run of earlier accounts: "~~Oldalder * Midalder ^
# **~~"
_STRUCK_SPLIT = re.compile(r"\s+[|/,]\s+|\s*,\s*|\s+>\s+|(?:\s+[*^]+)+(?:\s+|$)")


# A fate's line led by the phase its player died in: "Day 1, Alder, Vanilla Townie" (not a
# timeline's "Day 1: Alder lynched", nor a link's "Day 1 - Vote Count 2")
_PHASE_FIRST = re.compile(r"^\s*(?:day|night)\s*\d{1,2}\s*,\s*(?=\w)", re.IGNORECASE)


def _read_entry(line: str, authors: Names | None, moderators: set[str]) -> _ListedSeat | None:
    """A player-list line as accounts (first account first), or None when it is no such line."""
    bare = _NUMBER_AFTER_BULLET.sub("", _BULLET.sub("", line, count=1), count=1)
    if (phase_first := _PHASE_FIRST.match(bare)) is not None:
        entry = _read_entry(bare[phase_first.end() :], authors, moderators)
        return _ListedSeat(entry.accounts, True, line) if entry is not None else None
    plain = plain_text(bare)
    if _is_no_entry(plain):
        return None
    if (bracketed := _bracketed_name(bare, moderators)) is not None:
        # "[winger]": a name in brackets alone is the account's
        return _ListedSeat((bracketed,), False, line)
    # Struck accounts are earlier accounts of the seat (or a dead seat when it is the only one); a
    # letter alone struck or raised after a name is a mark ("theaceofspades<sup>X</sup>": a prod)
    struck = [
        name
        for segment in re.findall(STRUCK_OPEN + r"([^" + STRUCK_CLOSE + r"]*)" + STRUCK_CLOSE, bare)
        for part in _STRUCK_SPLIT.split(segment)  # "Old1 | Old2": several earlier accounts
        if (cleaned := clean_name(part))
        for name in _split_accounts(cleaned, authors)
        if name_like(name) and len(squash(name)) > 1
    ]
    unstruck_text = _unstruck(bare)
    pieces = [p for p in (clean_name(s) for s in _SPLIT.split(unstruck_text)) if p]
    latest_struck = struck[-1] if struck else None
    accounts: list[str] = []
    if pieces:
        accounts, latest_struck = _first_accounts(pieces, struck, latest_struck, authors)
        accounts.extend(_hydra_heads(unstruck_text, accounts))
        accounts.extend(_posted_pieces(pieces, accounts, struck, authors))
    accounts = struck + [a for a in accounts if a.casefold() not in {s.casefold() for s in struck}]
    accounts = [a for a in accounts if a.casefold() not in moderators]
    # a later name that never posted and reads as a role or a vacancy is no account (nobody posted
    # yet: none has)
    accounts = accounts[:1] + [
        a
        for a in accounts[1:]
        if (authors is not None and authors.seat(a)) or not _SEAT_NOTE.search(a)
    ]
    if not accounts or not all(name_like(a) and not _PHASE_WORDS.match(a) for a in accounts):
        return None  # "D1 starts - Cedar replaces Cypress - D1 ends" is a line of the game's events
    # "1-Shot Vigilante" is a role, not a fate
    rest = re.sub(
        r"\b(?:\d|one|two|three|single|double)[\s-]*shot\b",
        " ",
        plain_text(unstruck_text),
        flags=re.I,
    )
    dead = bool(DEAD_WORDS.search(rest)) and not ALIVE_WORDS.search(rest)
    if latest_struck and accounts[-1] == latest_struck:
        # the seat's latest account is struck out ("~~Alder~~ Vanilla Townie"): a dead seat
        dead = True
    return _ListedSeat(tuple(dict.fromkeys(accounts)), dead, line)


def _is_no_entry(plain: str) -> bool:
    """A line that is no seat's by its form: a label, a vote count's wagon, the game's staff."""
    if (
        not plain
        or len(plain) > 140
        or plain.endswith(":")
        or _LABEL.match(plain.lstrip(STRUCK_OPEN + "*(["))
    ):
        return True
    if _WAGON_LINE.match(plain.lstrip(STRUCK_OPEN + "*")):
        return True
    # "Back-Up Mod: Spare", "Normalcy Reviewers: A, B": the game's staff, not its players
    return ":" in plain and bool(_STAFF_LABEL.search(plain.split(":", 1)[0]))


def _bracketed_name(bare: str, moderators: set[str]) -> str | None:
    """ "[winger]": a line that is a name in brackets alone, brackets and all."""
    whole = re.fullmatch(r"\[[^\[\]]+\]", bare.strip(" *^"))
    if whole is None:
        return None
    name = whole.group(0)
    if not name_like(name) or _SEAT_NOTE.search(name) or _PHASE_WORDS.search(name):
        return None
    return None if name.casefold()[1:-1] in moderators else name


def _unstruck(bare: str) -> str:
    """The line with its struck runs set apart, and a replacement's bracket joined to its name."""
    text = re.sub(STRUCK_OPEN + r"[^" + STRUCK_CLOSE + r"]*" + STRUCK_CLOSE, " | ", bare)
    # "Birch (replacing Oldbirch)": the bracket belongs to the name, not to the role after it
    # ("(replacement)", "(sub)" are notes on the player: a chain names someone after its word)
    return re.sub(
        r"[(\[]\s*(?:who\s+(?:has\s+)?)?((?:replac(?:ed|ing|es)\b|repl\.|sub(?:bed|bing|s)?\b|"
        r"in\s+for\b)\s*[^)\]\s][^)\]]*)[)\]]",
        _chain,
        text,
        flags=re.IGNORECASE,
    )


def _first_accounts(
    pieces: list[str], struck: list[str], latest_struck: str | None, authors: Names | None
) -> tuple[list[str], str | None]:
    """The accounts the line's first piece names, earliest first, and the latest struck account (a
    struck name the chain names as the later account is taken out of ``struck``)."""
    first = pieces[0]
    parts = _split_replaced(first)
    if len(parts) < 3:
        name = _leading_name(first, authors)
        return (
            [name, *_accounts_after(first[len(name) :], authors)] if name else []
        ), latest_struck
    names = [_leading_name(clean_name(p), authors) or clean_name(p) for p in parts[0::2]]
    words = [w for w in parts[1::2] if w]
    # "~~Nocase~~ (who replaced Ankamius)": the struck name is the later
    if names[0] == "" and struck:
        names[0] = struck.pop()
        latest_struck = names[0]
    if names[-1] == "" and len(pieces) > 1:  # "X (replaced Y)": the other name is the next piece
        names[-1] = clean_name(_split_replaced(pieces[1])[0])
    names = [n for n in names if n and name_like(n)]
    # "New replaced Old" / "New replacing Old": the later account is written first.
    word = words[0] if words else ""
    later_first = re.match(r"replac(?:ed|ing|es)$|repl?\.$|in\s+for|sub|<|←", word, re.I)
    if later_first and not re.match(r"replaced\s+by|subbed\s+by", word, re.IGNORECASE):
        return list(reversed(names)), latest_struck
    return names, latest_struck


def _hydra_heads(unstruck_text: str, accounts: list[str]) -> list[str]:
    """ "Alder (hydra of Birch and Cedar)": the heads are the seat's accounts, posted or not."""
    heads = _HYDRA_OF.search(plain_text(unstruck_text)) if accounts else None
    found: list[str] = []
    for head in re.split(r"\s*(?:,|&|\+|\band\b)\s*", heads.group("heads") if heads else ""):
        known = {a.casefold() for a in accounts + found}
        if name_like(clean_name(head)) and clean_name(head).casefold() not in known:
            found.append(clean_name(head))
    return found


def _posted_pieces(
    pieces: list[str], accounts: list[str], struck: list[str], authors: Names | None
) -> list[str]:
    """Further pieces that are accounts of the thread ("Name - Replacement"): they join the seat."""
    found: list[str] = []
    if authors is None or not accounts:
        return found
    for piece in pieces[1:]:
        for candidate in _split_replaced(piece)[0::2]:
            candidate = clean_name(candidate)
            known = {a.casefold() for a in accounts + found + struck}
            if candidate and authors.seat(candidate) and candidate.casefold() not in known:
                found.append(candidate)
    return found


def _chain(bracket: re.Match[str]) -> str:
    """ "(repl. Middle, First)", "(who replaced Middle, who replaced First)": each name replaced the
    next."""
    inside = bracket.group(1)
    first = re.match(r"replac\w*|repl\.|\w+", inside)  # the bracket starts with its chain's word
    word = first.group(0) if first else ""
    return (
        " "
        + re.sub(r"\s*,\s*(?:who\s+(?:has\s+)?)?(?:(?:replac\w*|repl\.)\s+)?", f" {word} ", inside)
        + " "
    )


def _split_accounts(text: str, authors: Names | None) -> list[str]:
    """ "Old1 Old2" struck together: the thread's accounts it is made of, when it is nothing
    else."""
    if authors is None or authors.seat(text):
        return [text]
    found = authors.find(text)
    rest = text
    for start, end, _ in reversed(found):
        rest = rest[:start] + rest[end:]
    return (
        [text[start:end] for start, end, _ in found]
        if len(found) > 1 and not rest.strip()
        else [text]
    )


def _accounts_after(rest: str, authors: Names | None) -> list[str]:
    """The thread's accounts that make up the rest of a list name, when they are all of it: the
    seat's later accounts written one after another ("The Kool Da Koolzzy Scott Brosius")."""
    if authors is None or not rest.strip():
        return []
    found = authors.find(rest)
    leftover = rest
    for start, end, _ in reversed(found):
        leftover = leftover[:start] + leftover[end:]
    return (
        [rest[start:end] for start, end, _ in found] if found and not leftover.strip(" *^") else []
    )


def _split_replaced(text: str) -> list[str]:
    """Names and the replacement words between them: [name, word, name, ...]."""
    return [part for part in _REPLACE_WORDS.split(text) if part is not None]


def _leading_name(text: str, authors: Names | None) -> str | None:
    """The account a list line starts with: the longest thread account it starts with, else its
    first words."""
    if authors is not None:
        found = authors.find(text)
        if found and found[0][0] == 0:
            return text[: found[0][1]]
    words = text.split()
    if authors is not None and len(words) > 1:
        # "Dwlee Vanilla Towny lynched D3": the first words are an account as the moderator shortens
        # or slips it; the whole line first ("1Shot Vanilla Town" is the account "1 Shot Vanilla
        # Town", role words and all)
        whole = [len(words)] if len(words) <= 4 else []
        for n in (*whole, *range(min(3, len(words) - 1), 0, -1)):
            head = " ".join(words[:n])
            if authors.seat(authors.spelled(head)):
                return head
        # "randomidget Town 1-Shot Vigilante": a name that never posted ends where its role begins;
        # a lone role-like word ending a short line is part of the name ("I Am Innocent")
        role = ROLE_WORDS.search(text)
        lone = role is not None and len(words) <= 3 and len(text[role.start() :].split()) == 1
        if role and role.start() > 0 and not lone and name_like(text[: role.start()].strip()):
            return text[: role.start()].strip()
    if not words or len(words) > 4:
        return None
    return text if name_like(text) else None


def first_count_roster(
    posts: Sequence[PostLike], moderators: set[str], authors: Names
) -> tuple[list[_ListedSeat], int, bool] | None:
    """The players of day 1's first vote count ("Vote Count 1.0 ... Not voting: A, B, ... With 13
    alive"), as list entries, when it lists as many of the thread's posters as it says are alive
    (then ``True``: the posters vouch for it); or, before anyone voted, when its one "Not voting"
    line names as many players as it says there are (else as the moderators said the game has),
    posted or not (``False``). (entries, post, vouched)."""
    for n, post in enumerate(posts):
        if post.author.casefold() not in moderators:
            continue
        lines = [plain_text(line) for line in read_lines(post.body_html)]
        stated = stated_seats(posts, moderators, before=post.number + 1)
        size = stated[0] if stated else None
        # the opening post, often kept up to date after the game: only a count before any vote
        if n == 0:
            unvoted = unvoted_roster(lines, size)
            if unvoted:
                return (
                    [_ListedSeat((authors.spelled(name),), False, name) for name in unvoted],
                    post.number,
                    False,
                )
            continue
        day = next((d for d in map(vote_count_day, lines[:3]) if d is not None), None)
        unvoted = unvoted_roster(lines, size) if day in (None, 1) else None
        if day is None and unvoted is None:
            continue
        names = (
            counted_roster(lines, known=lambda name: authors.seat(authors.spelled(name)))
            if day == 1
            else None
        )
        roster = names or unvoted
        if roster is None:
            return None
        return (
            [_ListedSeat((authors.spelled(n),), False, n) for n in roster],
            post.number,
            names is not None,
        )
    return None


def numbering_gaps(entries: Sequence[_ListedSeat]) -> tuple[int, list[int]]:
    """A numbered list's highest number and the numbers below it no line of the list carries ("1.
    ... 3. ..." with no 2.: a seat's line the reader did not take, or the moderator lost); ``(0,
    [])`` for a list that is not numbered (three numbered lines or more)."""
    numbers = {n for n in (_number(e.line) for e in entries) if n is not None}
    if len(numbers) < 3:
        return 0, []
    return max(numbers), sorted(set(range(1, max(numbers) + 1)) - numbers)


def find_player_list(
    posts: Sequence[PostLike],
    moderators: set[str],
    authors: Names | None,
    dropped: list[str] | None = None,
) -> tuple[list[_ListedSeat], int | None]:
    """The player list: the opening post's, else the first moderator post with one. Returns entries
    and post; ``dropped`` receives the bare names on the list's lines that were not taken as
    seats."""
    for post in posts:
        if post.author.casefold() not in moderators:
            continue
        left: list[str] = []
        entries = _list_entries(
            read_lines(post.body_html, list_marks=True), moderators, authors, left
        )
        if entries:
            if dropped is not None:
                dropped.extend(left)
            return entries, post.number
    return [], None


_Run = tuple[bool, list[_ListedSeat]]  # (under a player-list header, its lines)


def _list_entries(
    lines: list[str], moderators: set[str], authors: Names | None, dropped: list[str] | None = None
) -> list[_ListedSeat]:
    """Runs of list-like lines; a run counts when it sits under a player-list header or names thread
    accounts."""
    runs, counted = _read_runs(lines, moderators, authors)
    post = _PostRuns(runs, counted, authors)
    chosen_runs = post.chosen_runs()
    chosen = [e for _, run in chosen_runs for e in run]
    if authors is not None:
        vouched = post.vouched(chosen_runs, authors)
        if len(vouched) >= 3:
            # a bare name among the list's lines, left out: said, never dropped silently
            if dropped is not None:
                kept = {id(e) for e in vouched}
                dropped.extend(
                    e.accounts[0]
                    for _, run in chosen_runs
                    for i, e in enumerate(run)
                    if id(e) not in kept and _bare(e) and _among_kept(run, i, kept)
                )
                dropped.extend(_new_in_repeating_lists(runs, chosen_runs, vouched))
            chosen = vouched
    # nobody has posted: a plain list's headings and sentences drop out
    if authors is None and post.plain_lists:
        chosen = [
            e
            for _, run in chosen_runs
            for e in (_plain_seats(run, None) if id(run) in post.plain_lists else run)
        ]
    if len(chosen) < 3:
        return []
    if authors is None:
        return _in_number_order(_merge_seats(chosen))
    chosen = [
        _ListedSeat(tuple(authors.spelled(a) for a in e.accounts), e.dead, e.line) for e in chosen
    ]
    return _in_number_order(_chain_replacements(_merge_seats(chosen), lines, authors))


def _read_runs(
    lines: list[str], moderators: set[str], authors: Names | None
) -> tuple[list[_Run], dict[int, int]]:
    """A post's runs of list-like lines, and the seats a run's header counts ("Alive (11/13)") by
    id(run)."""
    runs: list[_Run] = []
    counted: dict[int, int] = {}
    run: list[_ListedSeat] = []
    header = run_header = False
    stated: int | None = None
    paragraph = 0
    after_blank = True
    for line in lines:
        if line == BLANK:
            paragraph += 1
            after_blank = True
            continue
        # a header above a list, or after a blank line; inside a list ("Died" between the living and
        # the dead) the run reads on
        heads = (not run or after_blank) and _is_header(line, authors)
        after_blank = False
        entry = None if heads else _read_entry(line, authors, moderators)
        if entry is None:
            if run:
                runs.append((run_header, run))
                run = []
            header, stated, inline = _read_header(line, heads)
            if inline is not None:
                runs.append(inline)
            continue
        if not run:
            run_header = header
            if stated is not None:
                counted[id(run)] = stated
        run.append(replace(entry, paragraph=paragraph))
    if run:
        runs.append((run_header, run))
    return runs, counted


def _read_header(line: str, heads: bool) -> tuple[bool, int | None, _Run | None]:
    """A line that is no list entry: whether it heads a player list, the seats it counts, and the
    list it carries after a colon ("Living (8/12): Alder, Birch, Cedar")."""
    plain = plain_text(line)
    header = heads or bool(
        _LIST_HEADER.match(plain.strip("*~=_ "))
        or (len(plain.split()) <= 6 and _COUNT_HEADER.search(plain.strip("*~=_: ")))
    )
    said = _SEATS_COUNTED.search(plain) if header and len(plain.split()) <= 6 else None
    stated = int(said.group(1)) if said else None
    tail = plain.split(":", 1)[1].strip() if header and ":" in plain else ""
    names = (
        [n for n in (clean_name(x) for x in re.split(r",|\band\b", tail)) if name_like(n)]
        if tail
        else []
    )
    inline = (True, [_ListedSeat((n,), False, line) for n in names]) if len(names) >= 3 else None
    return header, stated, inline


@dataclass
class _PostRuns:
    """A post's runs of list lines, and what tells which of them make up the player list."""

    runs: list[_Run]
    counted: dict[int, int]  # id(run) -> the seats its header counts
    authors: Names | None

    def __post_init__(self) -> None:
        self.headed_total = sum(len(entries) for under_header, entries in self.runs if under_header)
        self.parts = _numbered_parts(self.runs, self.authors)
        self.plain_lists = _plain_lists(self.runs, self.authors)

    def chosen_runs(self) -> list[_Run]:
        return [
            (under_header, entries)
            for under_header, entries in self.runs
            if self._is_list(under_header, entries)
        ]

    def _is_list(self, under_header: bool, entries: list[_ListedSeat]) -> bool:
        authors = self.authors
        known = sum(
            1 for e in entries if authors is not None and any(authors.seat(a) for a in e.accounts)
        )
        vouched = authors is not None and known >= max(2, len(entries) // 2 + 1)
        # "Alive:" with one name left and "Dead:" with the rest are one list in two parts
        headed = (
            under_header
            and (len(entries) >= 3 or self.headed_total >= 3)
            and (authors is None or known >= 1)
        )
        # a numbered or bulleted list one of whose names has posted: at the game's start most have
        # not
        marked = any(_marked_stretches(entries))
        whole = self.counted.get(id(entries)) == len(entries) and (
            self.headed_total >= 3 or len(entries) >= 3
        )
        return (
            vouched
            or headed
            or whole
            or id(entries) in self.parts
            or id(entries) in self.plain_lists
            or (marked and (authors is None or known >= 1))
            or (len(entries) >= 5 and authors is None)
        )

    def vouched(self, chosen_runs: list[_Run], authors: Names) -> list[_ListedSeat]:
        """The lines of the chosen runs the thread's posters vouch for."""
        vouched: list[_ListedSeat] = []
        for n, (listed, run) in enumerate(chosen_runs):
            # as many lines as its header counts, or a part of a list numbered in parts: each line
            # is a seat
            if self.counted.get(id(run)) == len(run) or id(run) in self.parts:
                vouched.extend(run)
                continue
            # a list of bare names: each is a seat, headings among them aside
            if id(run) in self.plain_lists:
                vouched.extend(_plain_seats(run, authors))
                continue
            elsewhere = {
                a.casefold()
                for _, other in chosen_runs
                if other is not run
                for e in other
                for a in e.accounts
            }
            above = {
                a.casefold() for _, other in chosen_runs[:n] for e in other for a in e.accounts
            }
            vouched.extend(_vouched(run, authors, elsewhere, listed=listed, above=above))
        return vouched


def _merge_seats(chosen: list[_ListedSeat]) -> list[_ListedSeat]:
    """One seat per account: a later mention (the dead list repeating a name) merges into the first;
    a line that names accounts of two seats ("Cedar replaces Cypress; Elm replaces Elmo", "(Other
    roles: Alder - Cop, Birch - Doctor)") tells of several seats and is none of them, but one
    "Havingfitz replaces ConfidAnon" joins the seat a list line gives the one (numbered "8.
    havingfitz") to the seat an earlier replacement gives the other ("ConfidAnon replaces Echo")."""
    merged: list[_ListedSeat] = []
    for entry in chosen:
        # "Dunker doodles" above is "Dunkerdoodles" below
        keys = {squash(a) for a in entry.accounts}
        meets = [i for i, other in enumerate(merged) if keys & {squash(a) for a in other.accounts}]
        if len(meets) == 2 and _joins(entry, [merged[i] for i in meets]):
            merged[meets[0]] = _joined(entry, merged[meets[0]], merged.pop(meets[1]))
        if len(meets) > 1:
            continue
        if meets:
            other = merged[meets[0]]
            known = {squash(x) for x in other.accounts}
            accounts = other.accounts + tuple(a for a in entry.accounts if squash(a) not in known)
            merged[meets[0]] = _ListedSeat(accounts, other.dead or entry.dead, other.line)
        else:
            merged.append(entry)
    return merged


def _joins(entry: _ListedSeat, seats: list[_ListedSeat]) -> bool:
    """One replacement's line ("New replaces Old") naming two seats, at most one of them a marked
    list line (two numbered seats are two seats, whatever a line says)."""
    plain = plain_text(entry.line)
    return (
        len(entry.accounts) == 2
        and len(_REPLACE_WORDS.findall(plain)) == 1
        and sum(1 for seat in seats if _style(seat.line)) <= 1
    )


def _joined(entry: _ListedSeat, one: _ListedSeat, other: _ListedSeat) -> _ListedSeat:
    """The seat of the replaced account, then the seat of its replacement, as one: cited by the
    marked list line among them."""
    old = squash(entry.accounts[0])
    first, second = (one, other) if old in {squash(a) for a in one.accounts} else (other, one)
    known = {squash(a) for a in first.accounts}
    accounts = first.accounts + tuple(a for a in second.accounts if squash(a) not in known)
    line = first.line if _style(first.line) else second.line
    return _ListedSeat(accounts, first.dead or second.dead, line, first.paragraph)


def _in_number_order(entries: list[_ListedSeat]) -> list[_ListedSeat]:
    """A list whose every seat is numbered, each number once, in the numbers' order: the seats'
    order, however the list is laid out (the living apart from the dead, as an opening kept up to
    date shows them)."""
    numbers = _numbers(entries)
    if numbers is None or len(set(numbers)) < len(numbers):
        return entries
    return [e for _, e in sorted(zip(numbers, entries, strict=True), key=lambda pair: pair[0])]


def _new_in_repeating_lists(
    runs: list[tuple[bool, list[_ListedSeat]]],
    chosen_runs: list[tuple[bool, list[_ListedSeat]]],
    taken: list[_ListedSeat],
) -> list[str]:
    """The new names of another list of bare names in the post, five or more, that repeats seats of
    the list taken (a second list, or the fates beside the roster): a name there that no seat has,
    in a paragraph with names of seats (a heading stands apart: "Events"), is said, not taken."""
    keys = {a.casefold() for e in taken for a in e.accounts}
    chosen = {id(run) for _, run in chosen_runs}
    new: list[str] = []
    for _, run in runs:
        bare = [e for e in run if _style(e.line) == "" and _bare(e) and _starts_name(e.accounts[0])]
        if id(run) in chosen or len(bare) < 5 or len(bare) * 2 <= len(run):
            continue
        if not any(e.accounts[0].casefold() in keys for e in bare):
            continue
        paragraphs = {e.paragraph for e in bare if e.accounts[0].casefold() in keys}
        new.extend(
            e.accounts[0]
            for e in bare
            if e.accounts[0].casefold() not in keys
            and e.paragraph in paragraphs
            and not any(w.search(e.accounts[0]) for w in (_HEADING_WORDS, DEAD_WORDS, _PHASE_WORDS))
        )
    return list(dict.fromkeys(new))


def _among_kept(run: list[_ListedSeat], i: int, kept: set[int]) -> bool:
    """Whether a line the list left out stands among its lines: between two lines taken in its
    paragraph, or beside them with their mark; a heading (a word of the post's parts or of a fate:
    "Notable Events", "Died") or a line in a paragraph of its own ("Sleeping With the Fishes" above
    numbered names) is none."""
    e = run[i]
    if _HEADING_WORDS.search(e.accounts[0]) or DEAD_WORDS.search(e.accounts[0]):
        return False
    same = [
        j for j, other in enumerate(run) if id(other) in kept and other.paragraph == e.paragraph
    ]
    return bool(same) and (
        min(same) < i < max(same) or _style(e.line) in {_style(run[j].line) for j in same}
    )


def _chain_replacements(
    seats: list[_ListedSeat], lines: list[str], authors: Names
) -> list[_ListedSeat]:
    """The list post's own "Jazz replaces Drake" lines (a timeline kept under the list): the
    thread's account on one side joins the seat that holds the other, the earlier account first."""
    seats = list(seats)
    for _ in range(3):  # "B replaces A" above "C replaces B", the list naming only C
        changed = False
        for line in lines:
            plain = plain_text(line)
            for match in REPLACEMENT.finditer(plain):
                if NOT_REPLACEMENT.search(plain[: match.start()] + " " + plain[match.end() :][:20]):
                    continue
                new = authors.spelled(strip_lead(match.group("new") or match.group("new2")))
                old = authors.spelled(strip_lead(match.group("old") or match.group("old2")))
                holds = {
                    name: next(
                        (
                            i
                            for i, e in enumerate(seats)
                            if name.casefold() in {a.casefold() for a in e.accounts}
                        ),
                        None,
                    )
                    for name in (new, old)
                }
                at_old, at_new = holds[old], holds[new]
                if at_old is not None and at_new is None and authors.seat(new):
                    e = seats[at_old]
                    seats[at_old] = _ListedSeat((*e.accounts, new), e.dead, e.line)
                elif at_new is not None and at_old is None and authors.seat(old):
                    e = seats[at_new]
                    seats[at_new] = _ListedSeat((old, *e.accounts), e.dead, e.line)
                else:
                    continue
                changed = True
        if not changed:
            break
    return seats


def _is_header(line: str, authors: Names | None) -> bool:
    """A short unmarked line naming what the list below holds ("Players", "The Living"), no account
    of it."""
    plain = plain_text(line).strip("*~=_ ")
    if (
        _BULLET.match(line)
        or len(plain.split()) > 6
        or not (_LIST_HEADER.match(plain) or _COUNT_HEADER.search(plain))
    ):
        return False
    return authors is None or not authors.find(plain)


def _marked_stretches(run: list[_ListedSeat]) -> list[bool]:
    """Each entry: whether it is one of three or more lines in a row numbered or bulleted alike, or
    of two or more numbered from 1 up ("1. Alder", "2. Birch" under one header, the rest under
    another)."""
    marks = [_style(e.line) for e in run]
    numbers = [_number(e.line) for e in run]
    inside = [False] * len(run)
    start = 0
    for i in range(1, len(run) + 1):
        counting = (
            i < len(run) and numbers[i] is not None and numbers[i] == (numbers[i - 1] or -1) + 1
        )
        if i == len(run) or marks[i] != marks[start] or (numbers[start] == 1 and not counting):
            from_one = numbers[start] == 1 and all(
                numbers[j] == j - start + 1 for j in range(start, i)
            )
            if marks[start] and (i - start >= 3 or (from_one and i - start >= 2)):
                inside[start:i] = [True] * (i - start)
            start = i
    return inside


def _numbered_parts(runs: list[tuple[bool, list[_ListedSeat]]], authors: Names | None) -> set[int]:
    """The runs (by id) of one list numbered in parts under headers: the living 1, 3, 4 ... 13 and
    the dead 2, 6, each part's numbers filling the others' gaps from 1 up, one name among them
    posted."""
    numbered = [
        (entries, numbers)
        for under_header, entries in runs
        if under_header and (numbers := _numbers(entries))
    ]
    if len(numbered) < 2:
        return set()
    every = [n for _, numbers in numbered for n in numbers]
    posted = authors is not None and any(
        authors.seat(a) for entries, _ in numbered for e in entries for a in e.accounts
    )
    if (
        set(every) != set(range(1, max(every) + 1))
        or len(set(every)) < 5
        or not (posted or authors is None)
    ):
        return set()
    return {id(entries) for entries, _ in numbered}


def _plain_lists(runs: list[tuple[bool, list[_ListedSeat]]], authors: Names | None) -> set[int]:
    """The runs (by id) that are lists by their lines alone: most of their lines, five or more,
    unmarked and each a name and nothing else (a welcome line above them, a bulleted legend below
    aside), one of them a player who has posted, most of them named by no run above (a list of fates
    repeating the roster adds no seat); before anyone has posted (no ``authors``), the first two
    alone."""
    found: set[int] = set()
    above: set[str] = set()
    for _, entries in runs:
        keys = [{a.casefold() for a in e.accounts} for e in entries]
        plain = sum(1 for e in entries if _style(e.line) == "" and _bare(e))
        if authors is None:
            if plain >= 5 and plain * 2 > len(entries):
                found.add(id(entries))
            continue
        if (
            plain >= 5
            and plain * 2 > len(entries)
            and any(authors.seat(a) for e in entries for a in e.accounts)
            and sum(1 for k in keys if k & above) * 2 < len(entries)
        ):
            found.add(id(entries))
        above.update(a for k in keys for a in k)
    return found


def _plain_seats(run: list[_ListedSeat], authors: Names | None) -> list[_ListedSeat]:
    """A plain list's seats: each line that has posted, and each unmarked bare line that reads as no
    heading (no word of the post's parts or of a fate: "Links", "Silently modkilled"), stands in no
    paragraph of its own below the list's first ("Notable Events" between blank lines, above what
    follows) and heads no line of another shape ("Not So Lucky" above "Elm, Cop, killed Night
    1")."""

    def seat(i: int) -> bool:
        e = run[i]
        if authors is not None and any(authors.seat(a) for a in e.accounts):
            return True
        apart = (
            i > 0
            and run[i - 1].paragraph != e.paragraph
            and (i == len(run) - 1 or run[i + 1].paragraph != e.paragraph)
        )
        # "Not So Lucky" above "Elm, Cop, killed Night 1"
        # a legend below ("*= Being replaced") heads nothing
        heads = (
            i + 1 < len(run)
            and _starts_name(run[i + 1].accounts[0])
            and bool(_after_name(run[i + 1]).strip(" *^"))
        )
        return (
            _style(e.line) == ""
            and _bare(e)
            and _starts_name(e.accounts[0])
            and not apart
            and not heads
            and not (_HEADING_WORDS.search(e.accounts[0]) or DEAD_WORDS.search(e.accounts[0]))
        )

    return [e for i, e in enumerate(run) if seat(i)]


def _starts_name(text: str) -> bool:
    """A line's first name starts as an account does: a letter or digit, or an underscore or a
    bracket before one ("_over9000", "[winger]"); "* prod", "#12" and "+ = confirmed" do not."""
    return bool(re.match(r"[_\[]*[^\W_]", text))


def _bare(entry: _ListedSeat) -> bool:
    """A list line that is a name and nothing more (its bullet or number aside)."""
    text = plain_text(_NUMBER_AFTER_BULLET.sub("", _BULLET.sub("", entry.line, count=1), count=1))
    return text.strip(" *^") == entry.accounts[0] and len(entry.accounts) == 1


def _after_name(entry: _ListedSeat) -> str:
    """What a list line says after its first name."""
    text = plain_text(_NUMBER_AFTER_BULLET.sub("", _BULLET.sub("", entry.line, count=1), count=1))
    at = text.casefold().find(entry.accounts[0].casefold())
    return text[at + len(entry.accounts[0]) :] if at >= 0 else text


_LINE_NUMBER = re.compile(r"\s*(?:[•·◦▪►]\s*)?(?:#|no\.?\s*)?(\d{1,2})\s*[.):\]\-]", re.IGNORECASE)


def _numbers(entries: Sequence[_ListedSeat]) -> list[int] | None:
    """Each line's number, when every line has one."""
    numbers = [_number(e.line) for e in entries]
    known = [n for n in numbers if n is not None]
    return known if len(known) == len(numbers) else None


def _number(line: str) -> int | None:
    found = _LINE_NUMBER.match(line)
    return int(found.group(1)) if found else None


def _style(line: str) -> str:
    """A list line's mark: "1" for any number (an HTML list's bullet before it aside: "• 1. Alder"
    is numbered as "2. Birch" below it is), the bullet itself, or "" for none."""
    bullet = _BULLET.match(line)
    if (
        bullet
        and not any(c.isdigit() for c in bullet.group(0))
        and _NUMBER_AFTER_BULLET.match(line[bullet.end() :])
    ):
        return "1"
    return (
        ""
        if not bullet
        else ("1" if any(c.isdigit() for c in bullet.group(0)) else bullet.group(0).strip())
    )


# "Alive (11/13)": the seats the list below the header holds, of the game's
_SEATS_COUNTED = re.compile(r"\(\s*(\d{1,2})\s*/\s*\d{1,2}\s*\)")
# "On the Run (5/9)", "Still Frozen": a short line that counts the seats below it or says they still
# live
_COUNT_HEADER = re.compile(r"\(\s*\d{1,2}\s*/\s*\d{1,2}\s*\)|^still\s+\w+\W*$", re.IGNORECASE)
# A line among names that reads as a heading of the post's parts, not a player's name ("Links", but
# "Ryuu Link" is an account; "Bold = Confirmed", "*= Prod", but "Me=Weird" is an account)
_HEADING_WORDS = re.compile(
    r"\b(?:game|links|rules?|setup|flavou?r|history|start|over|intro|etc|denotes|indicates|"
    r"confirmed|replacements?|dead|alive|living|players?|pt|notes?|spoilers?|graveyard)\b|"
    r"(?:^|\s)=|=\s",
    re.IGNORECASE,
)
# What a list line may say of its player besides the name, when it is no role: "(alt)", "-
# confirmed", "(V/LA until Friday)", "(replacement)", "(hydra of Birch and Cedar)" (the heads' names
# taken out) the words that join a replacement chain's names ("Damson, who replaced Oldamson",
# "Oldamson replaced by Damson")
_CHAIN_WORDS = re.compile(
    r"\b(?:who|has|replac(?:ed|ing|es)|repl\.|by|sub(?:bed|bing|s)?|in\s+for|for)\b|<-|->|←|→",
    re.IGNORECASE,
)

_STATUS_NOTE = re.compile(
    r"^(?:(?:alt|confirmed|unconfirmed|in|signed\s+up|v\s*/\s*la|vla|l\s*/\s*a|on\s+vacation|away|"
    r"busy|replacement|sub|new|host'?s?\s+alt|backup)\b[\w\s/.'-]{0,30}|"
    r"(?:an?\s+)?hydra\b[\w\s/.'&+-]{0,30})$",
    re.IGNORECASE,
)


def _vouched(
    run: list[_ListedSeat],
    authors: Names,
    elsewhere: set[str],
    *,
    listed: bool = False,
    above: frozenset[str] | set[str] = frozenset(),
) -> list[_ListedSeat]:
    """The thread's posters vouch for a list: a name that never posted stays only between two that
    did (at the list's ends, beside two that did when another list names it too), in the same
    numbered or bulleted list, or on a line of its own (or with its role or fate) beside such lines
    (a player replaced or killed before posting); headers ("Not So Much" between the living and the
    dead, "Died" above "Alder - Vanilla Townie - lynched Day 1") and notes drop out.

    A name that has not posted is also a seat when the list is a list by its form and the line is
    shaped like its list's lines, with nothing after the name but a role or a note on the player
    ("(alt)", "- confirmed"): one of three or more lines in a row numbered or bulleted alike, or
    (``listed``, under a player-list header) a line with the mark and the kind of note of a posted
    line in its paragraph."""
    return _VouchedRun(run, authors, elsewhere, listed, above).kept()


def _line_note(entry: _ListedSeat) -> str | None:
    """What a list line says besides its names: "" (nothing), "noted" (a role, with or without its
    fate: "Alder (Cop — died Night 1)") or None (anything else)."""
    text = plain_text(_NUMBER_AFTER_BULLET.sub("", _BULLET.sub("", entry.line, count=1), count=1))
    for account in sorted(entry.accounts, key=len, reverse=True):
        text = text.replace(account, " ")
    # on a numbered or bulleted line the words of its chain are no note ("4. Damson (replacing
    # Oldamson)"); a timeline's unmarked "New replaces Old" lines still vouch for no line between
    # them
    if len(entry.accounts) > 1 and _style(entry.line):
        text = _CHAIN_WORDS.sub(" ", text)
    rest = re.sub(r"[\s*^()\[\]{}|,:.–—-]+", " ", text).strip()
    told = len(rest.split()) <= 8 and not re.search(r"[!?]", rest) and ROLE_WORDS.search(rest)
    return "" if not rest else ("noted" if told or _STATUS_NOTE.match(rest) else None)


def _separated(entry: _ListedSeat) -> bool:
    """A name alone, or a name and its note set apart ("Alder - Cop"; "The Cop has died" is a
    sentence)."""
    note = _line_note(entry)
    set_apart = re.match(r"\s*[-–—,:(\[|]", _after_name(entry))
    return note == "" or note is not None and bool(set_apart)


def _casefolded(entry: _ListedSeat) -> set[str]:
    return {a.casefold() for a in entry.accounts}


@dataclass
class _VouchedRun:
    """One run of list lines read against the thread's posters: which of its lines are seats."""

    run: list[_ListedSeat]
    authors: Names
    elsewhere: set[str]  # the accounts the other chosen lists name
    listed: bool  # the run sits under a player-list header
    above: frozenset[str] | set[str]  # the accounts the lists above it name

    def __post_init__(self) -> None:
        run = self.run
        self.posted = [any(self.authors.seat(a) for a in e.accounts) for e in run]
        posted_lines = [e for e, done in zip(run, self.posted, strict=True) if done]
        self.posted_shapes = {
            (_style(e.line), _style(e.line) or _line_note(e)) for e in posted_lines
        }
        self.marked = _marked_stretches(run)
        self.posted_paragraphs = {e.paragraph for e in posted_lines}
        self.repeating = self._repeating_paragraphs()
        self.other_list = self._other_list()

    def kept(self) -> list[_ListedSeat]:
        kept = []
        for i, entry in enumerate(self.run):
            if self.posted[i] or self._vouched(i) or self._shaped(i):
                kept.append(entry)
            elif (named := self._whole(i)) is not None:
                kept.append(named)
        return kept

    def _repeating_paragraphs(self) -> set[int]:
        """The paragraphs most of whose posted names a list above names already."""
        run, repeating = self.run, set()
        for paragraph in {e.paragraph for e in run}:
            posted_at = [
                j for j, done in enumerate(self.posted) if done and run[j].paragraph == paragraph
            ]
            said = [
                j
                for j in posted_at
                if _casefolded(run[j]) & self.above
                or any(_casefolded(run[j]) & _casefolded(e) for e in run[:j])
            ]
            if len(said) * 2 > len(posted_at):
                repeating.add(paragraph)
        return repeating

    def _other_list(self) -> set[int]:
        """The lines numbered from 1 again under a heading inside the run ("Replacements list" below
        the players 1 to 13; not "Dead"), none of whose names has posted: another list, no more
        seats."""
        run, other = self.run, set[int]()
        numbers = [_number(e.line) for e in run]
        for at in range(2, len(run)):
            heading = run[at - 1]
            if (
                numbers[at] != 1
                or 1 not in numbers[: at - 1]
                or _style(heading.line)
                or not _HEADING_WORDS.search(plain_text(heading.line))
                or _LIST_HEADER.match(plain_text(heading.line))  # "Dead": the list's other part
            ):
                continue
            end = next((j for j in range(at, len(run)) if numbers[j] is None), len(run))
            if not any(self.posted[at:end]):
                other.update(range(at - 1, end))
        return other

    def _repeated(self, j: int) -> bool:
        """Entry j names a seat another list, or this one above it, names too."""
        keys = _casefolded(self.run[j])
        return bool(keys & self.elsewhere) or any(keys & _casefolded(e) for e in self.run[:j])

    def _alone(self, entry: _ListedSeat, near: list[int]) -> bool:
        """A bare name beside bare names, or a name with its role ("Mafia Goon, lynched Day 1", a
        line's broken end, has none) beside lines of names no list names before (a list of fates
        repeating the list above vouches for no slip: "Aegot, Vanilla Townie" under a list with
        "Aegor"; a name the other list names too is no slip)."""
        own = _line_note(entry)
        named_twice = bool(_casefolded(entry) & self.elsewhere)
        return (
            own == ""
            and all(_line_note(self.run[j]) == "" for j in near)
            or own == "noted"
            and all(
                _line_note(self.run[j]) is not None and (named_twice or not self._repeated(j))
                for j in near
            )
        )

    def _shaped(self, i: int) -> bool:
        """A listed line shaped like a posted line of the list, in the same paragraph as one (a
        heading below the list, after a blank line, is none): the same mark, and after the name no
        more than a note; an unmarked line says as much as they do (a bare "Game timeline" under
        "Fir, Vanilla Townie" is no seat), and heads no lines of another shape below it ("Not So
        Much" above "Elm, Cop, killed Night 1"). A list repeating another's players (the fates under
        the roster) adds none: a slip there is no new seat."""
        run, e = self.run, self.run[i]
        if (
            i in self.other_list
            or _line_note(e) is None
            or not _starts_name(e.accounts[0])
            or _LIST_HEADER.match(plain_text(e.line))
            or (_HEADING_WORDS.search(e.accounts[0]))
            or e.paragraph in self.repeating
        ):
            return False
        if self.marked[i]:
            return _separated(e)
        style = _style(e.line)
        heads = (
            style == ""
            and i + 1 < len(run)
            and _style(run[i + 1].line) == ""
            and (_line_note(run[i + 1]) != _line_note(e))
        )
        return (
            self.listed
            and not heads
            and (style, style or _line_note(e)) in self.posted_shapes
            and (e.paragraph in self.posted_paragraphs)
        )

    def _between(self, i: int) -> list[int]:
        """The neighbours that vouch for entry i: the two around it; at the list's ends, for a name
        the list names again elsewhere ("Dead: Alder, Vanilla Townie, lynched Day 2"), the two after
        or before it."""
        run = self.run
        if 0 < i < len(run) - 1:
            return [i - 1, i + 1]
        if len(run) >= 3 and run[i].accounts[0].casefold() in self.elsewhere:
            return [1, 2] if i == 0 else [i - 2, i - 1]
        return []

    def _vouched(self, i: int) -> bool:
        e, near = self.run[i], self._between(i)
        style = _style(e.line)
        return (
            bool(near)
            and all(self.posted[j] for j in near)
            and all(_style(self.run[j].line) == style for j in near)
            and (style != "" and _separated(e) or self._alone(e, near))
            and not _LIST_HEADER.match(plain_text(e.line))
            and _starts_name(e.accounts[0])
        )

    def _whole(self, i: int) -> _ListedSeat | None:
        """A numbered or bulleted line whose name was cut where a role-like word begins, with
        nothing setting the two apart ("3. 1Shot Vanilla Town"), in a stretch whose other lines are
        bare names: the whole text is the name (a list of names carries no roles on one line
        only)."""
        run, e = self.run, self.run[i]
        text = plain_text(
            _NUMBER_AFTER_BULLET.sub("", _BULLET.sub("", e.line, count=1), count=1)
        ).strip(" *^")
        if (
            not self.marked[i]
            or self.posted[i]
            or len(e.accounts) != 1
            or _separated(e)
            or (not name_like(text))
            or not text.startswith(e.accounts[0])
        ):
            return None
        style = _style(e.line)
        stretch = [
            j for j in range(len(run)) if j != i and self.marked[j] and _style(run[j].line) == style
        ]
        if len(stretch) < 2 or not all(_bare(run[j]) for j in stretch):
            return None
        return _ListedSeat((text,), e.dead, e.line, e.paragraph)


def listed_after_posting(
    posts: Sequence[PostLike], moderators: Sequence[str], accounts: Sequence[str], seats: int
) -> tuple[list[tuple[_ListedSeat, str | None]], int | None]:
    """Seats of the moderators' player list that a game file lacks, now that their players have
    posted: the list read again with the thread's posters so far (a name nobody who posted vouched
    for at the game's start), each entry none of whose accounts is in ``accounts`` (of the file's
    ``seats``) and one of which has posted, while the list names as many seats as the file and they
    together. ([(entry, the account of the first seat the list has after it that the file holds, to
    go before)], list post)."""
    mods = {m.casefold() for m in moderators}
    authors = Names(
        {a: [a] for a in dict.fromkeys(p.author for p in posts) if a.casefold() not in mods}
    )
    if not authors.seat_of:
        return [], None
    entries, post = find_player_list(posts, mods, authors)
    # the file's accounts as the list reads them now ("Hazel" is the account "Hazel99" once it
    # posts)
    known = {a.casefold() for a in accounts} | {authors.spelled(a).casefold() for a in accounts}
    missing = [
        e
        for e in entries
        if not known & {a.casefold() for a in e.accounts}
        and any(authors.seat(a) for a in e.accounts)
    ]
    if seats + len(missing) > len(entries):
        # more seats than the list names: the file holds seats the list does not, leave it be
        return (
            [],
            post,
        )
    held = [next((a for a in e.accounts if a.casefold() in known), None) for e in entries]
    wanted = {id(e) for e in missing}
    return [
        (e, next((h for h in held[i + 1 :] if h is not None), None))
        for i, e in enumerate(entries)
        if id(e) in wanted
    ], post
