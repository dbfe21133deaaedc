"""What a moderator's own vote count says about the game's state: the day it is for, and who is
alive.

Moderators head their counts with the day ("Vote Count 3.01", "Day 2 Votecount", "VC 1.00") and list
every living player once, as a voter on a wagon or under "Not voting", often with "With 9 alive, 5
to lynch". A count is a better witness of the phase and of the living than flavour text: a day
announced only in a story still gets its "Vote Count 3.00", and a night kill told only as "the town
found a body" still drops a name from the next count. Pure: text in, numbers and names out.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
}
_NUM = r"(\d{1,2}|" + "|".join(_NUMBER_WORDS) + r")"
_VOTE_COUNT = r"(?:official\s+|final\s+|current\s+)?(?:vote\s*-?\s*count|votecount|vc)"
_VOTE_COUNT_DAY = re.compile(
    r"^\W*"
    + _VOTE_COUNT
    + r"\s*#?\s*(\d{1,2})\s*[.,]\s*\d{1,3}(?!\d)"  # Vote Count 3.01 (day 3, count 1)
    r"|^\W*(?:final\s+|official\s+)?(?:day|d)\s*"  # Final Day 1 Vote Count
     + _NUM + r"\s*,?\s*" + _VOTE_COUNT + r"\b"  # Day 3 Vote Count, D2 FINAL VOTE COUNT
    r"|^\W*"
    + _VOTE_COUNT
    + r"\s*(?:#\s*\d+\s*)?(?:of|for|,|-|:)?\s*(?:day|d)\s*"
    + _NUM
    + r"\b"  # VC #1 of Day 3
    # vote count / votecount / VC - v. 3.00
    r"|^\W*" + _VOTE_COUNT + r"\b[^\d\n]{0,60}?\bv(?:ersion)?\.?\s*(\d{1,2})\.\d{1,3}(?![\d.])",
    re.IGNORECASE,
)
# "With 9 alive, it takes 5 to lynch", "9 players alive", "There are 9 living players"
_ALIVE = re.compile(
    r"\bwith\s+(\d{1,2})\s+(?:players?\s+)?(?:alive|living|remaining|left)\b|"
    r"\b(\d{1,2})\s+(?:players?\s+)?(?:alive|living|remaining)\b|\b(\d{1,2})\s+living\s+players?\b",
    re.IGNORECASE,
)
_NOBODY = {"no one", "noone", "nobody", "none", "n/a", "-", "no-one"}


def vote_count_day(line: str) -> int | None:
    """The day a vote count's heading line names, or None when the line is no vote count heading."""
    match = _VOTE_COUNT_DAY.search(line)
    if not match:
        return None
    word = next(g for g in match.groups() if g).lower()
    return int(word) if word.isdigit() else _NUMBER_WORDS[word]


_COUNT_NUMBER = re.compile(
    r"\b"
    + _VOTE_COUNT
    + r"\s*#?\s*(?:\d{1,2}\s*[.,]\s*(\d{1,3})(?!\d)|"
    + _NUM
    + r"\b(?!\s*[.,]\s*\d))",
    re.IGNORECASE,
)


def count_number(line: str) -> int | None:
    """Which of its day's counts a heading says it is: "Vote Count 3.02" and "Day One: Vote Count
    Two" -> 2."""
    match = _COUNT_NUMBER.search(line)
    if not match:
        return None
    found = match.group(1) or match.group(2)
    return int(found) if found.isdigit() else _NUMBER_WORDS[found.lower()]


def stated_alive(text: str) -> int | None:
    """The number of living players a post states ("With 9 alive ..."), when it states one."""
    match = _ALIVE.search(text)
    return int(next(g for g in match.groups() if g)) if match else None


# A count's line: "Alder (3): Birch, Cedar", "Alder [L-2] - Birch", "Not Voting (2): Elm, Fir", "No
# Lynch - Gorse", "(3) Alder — Birch, ...", "(1) (NOT VOTING) — Elm"
_COUNT_LINE = re.compile(
    r"^\W*?(?:[\[(]\s*\d{1,2}\s*[\])]\s*(?:\[[^\]]{0,24}\]\s*)*)?\W*(?P<head>[^:\[(\-–—]{1,60}?)\s*(?:[\[(][^\])]{0,24}[\])]\s*)*[:\-–—]+\s*"
    r"(?:[\[(][^\])]{0,24}[\])]\s*)?(?P<names>.*)$"  # "Alder: (2) Birch, Cedar" too
)
_NOT_VOTING = re.compile(
    r"^(?:not\s*voting|no\s*votes?|non[\s-]*voters?|players\s+not\s+voting|abstain\w*)$", re.I
)
_NO_LYNCH = re.compile(r"^(?:no\s*lynch|no\s*elimination|no\s*exile|sleep)$", re.IGNORECASE)


def _count_names(lines: list[str], known: Callable[[str], object]) -> tuple[list[str], bool]:
    """The names a count lists (voters on wagons headed by a ``known`` name or "No lynch", and "Not
    voting"), and whether it has a "Not voting" line."""
    not_voting = False
    names: list[str] = []
    for line in lines:
        line = line.strip()
        heading = _VOTE_COUNT_DAY.match(line)
        if heading:  # "Vote Count 2.4Alder (2): Birch, Cedar": the first wagon glued to the heading
            line = line[heading.end() :]
        match = _COUNT_LINE.match(line)
        if not match:
            continue
        head = match.group("head").strip(" *()[]")
        if _NOT_VOTING.match(head):
            not_voting = True
        elif not (known(head) or _NO_LYNCH.match(head)):
            continue
        # "Alder - 2 - Birch, Cedar -": the wagon's number between dashes, a dash closing the line
        listed = re.sub(r"^\d{1,2}\s*[-–—:]\s*|\s*[-–—]\s*$", "", match.group("names").strip())
        parts = [n.strip(" .!*") for n in re.split(r",|;|\s+&\s+", listed)]
        names.extend(n for n in parts if n and n.casefold() not in _NOBODY)
    return names, not_voting


def counted_roster(lines: list[str], *, known: Callable[[str], object]) -> list[str] | None:
    """The players a day's first count lists, in its order, when it states how many are alive and
    lists exactly that many distinct names, nearly all ``known`` (the thread's posters): a roster
    for a game whose player list is missing or cut short (a summary kept up to date after the
    game)."""
    names, _ = _count_names(lines, known)
    folded = {n.casefold() for n in names}
    unknown = [n for n in names if not known(n)]  # a player replaced before posting a word
    if not names or len(folded) != len(names) or len(unknown) * 4 > len(names):
        return None
    return names if stated_alive(" ".join(lines)) == len(names) else None


# "Not voting (13): A, B", "Not Voting - 12 (A, B, ...)", "Not Voting [13]: A, B", "Not voting: (13)
# – A, B": nobody has voted yet
_UNVOTED_LINE = re.compile(
    r"^\W*(?:not\s*voting|no\s*votes?|non[\s-]*voters?|players\s+not\s+voting)\s*"
    r"(?:[\[(]\s*(?P<said>\d{1,2})\s*[\])])?\s*[:\-–—]+\s*"
    r"(?:[\[(]\s*(?P<said3>\d{1,2})\s*[\])]\s*[:\-–—]*\s*|(?P<said2>\d{1,2})\s*(?=[(\[]))?"
    r"[(\[]?(?P<names>.*?)[)\]]?\s*(?:[(\[]\s*(?P<said4>\d{1,2})\s*[)\]]\s*)?$",  # "A, B, C (12)" too
    re.IGNORECASE,
)


_NUMBER_WORDS_TO_20 = {
    **_NUMBER_WORDS,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
}
_ALIVE_WORDED = re.compile(
    r"\bwith\s+(" + "|".join(_NUMBER_WORDS_TO_20) + r")\s+(?:players?\s+)?(?:alive|living)\b",
    re.IGNORECASE,
)


def unvoted_roster(lines: list[str], size: int | None = None) -> list[str] | None:
    """The players of a count made before anyone voted: its one "Not voting" line names every
    player, and it states how many (in that line's "(13)", in "With 13 alive" or "with thirteen
    alive"); the names when they are exactly that many distinct ones (the line's number and the
    number alive agreeing; a count that states none, the game's ``size`` as the moderator said it
    before), else None. Nobody need have posted (a count at the game's start)."""
    rows = [m for m in map(_UNVOTED_LINE.match, (line.strip() for line in lines)) if m]
    if len(rows) != 1:
        return None
    row = rows[0]
    names = [n.strip(" .!*") for n in re.split(r",|;|\s+&\s+|\s+and\s+", row.group("names"))]
    names = [n for n in names if n and n.casefold() not in _NOBODY]
    said = row.group("said") or row.group("said2") or row.group("said3") or row.group("said4")
    text = " ".join(lines)
    worded = _ALIVE_WORDED.search(text)  # "with twelve alive"
    stated = {
        int(said) if said else None,
        stated_alive(text),
        _NUMBER_WORDS_TO_20.get(worded.group(1).lower()) if worded else None,
    } - {None} or {size}
    if not names or len({n.casefold() for n in names}) != len(names) or stated != {len(names)}:
        return None  # a sample count ("Not Voting (3) - Player 11, ..." with 13 alive) is no roster
    if any(
        len(n) > 32 or len(n.split()) > 6 for n in names
    ):  # "stay away I have a gf" is an account
        return None
    return names


def counted_living(lines: list[str], *, seat_of: Callable[[str], str | None]) -> set[str] | None:
    """The seats a moderator's vote count lists as living (every voter and every "Not voting" name),
    or None when the post is no complete count: it has no "Not voting" line and states no number
    alive, the number it states is not the number of names it lists (a line the reader missed), a
    listed name is no known account (a replacement not yet read), or a seat is listed twice.
    ``lines`` are the post's lines without struck-out text. A count may still miss a line no pattern
    reads: the caller checks the seats it leaves out against the thread (a dead player posts no
    more)."""
    names, not_voting = _count_names(lines, seat_of)
    listed = [seat_of(name) for name in names]
    if not listed or None in listed or len(set(listed)) != len(listed):
        return None
    alive = stated_alive(" ".join(lines))
    if (alive is None and not not_voting) or (alive is not None and alive != len(listed)):
        return None
    return {seat for seat in listed if seat is not None}


_MAJORITY = re.compile(
    r"\b(?:takes?|took)\s+(\d{1,2})\s+(?:votes?\s+)?to\s+(?:lynch|eliminate|execute)\b|"
    r"\b(\d{1,2})\s+(?:votes?\s+)?(?:are\s+|is\s+)?(?:needed|required)\s+(?:to\s+(?:lynch|eliminate)|for\s+a\s+lynch)\b|"
    r"\b(?:majority|lynch\s+threshold)(?:\s+is\s+|\s*:\s*|\s+)(\d{1,2})\b|\b(\d{1,2})\s+(?:votes?\s+)?(?:is|are)\s+majority\b|"
    r"(?<![-\w])(\d{1,2})\s+(?:votes?\s+)?to\s+(?:lynch|eliminate|execute)\b",  # "6 to lynch", not "L-2 to lynch"
    re.IGNORECASE,
)
_WAGON = re.compile(
    # Alder (5): ..., Alder (5/7) - ...
    r"^\W*(?P<head>[^:\[(]{1,60}?)\s*[\[(]\s*(?P<votes>\d{1,2})\s*(?:/\s*\d{1,2}\s*)?[\])]"
    r"|^\W*?[\[(]\s*(?P<votes2>\d{1,2})\s*[\])]\s*(?:\[[^\]]{0,24}\]\s*)*"  # (5) [LYNCH!] Alder — ...
    r"(?P<head2>[^:\[(\-–—]{1,60}?)\s*(?:[\[(:\-–—]|$)"
)


def majority_needed(text: str) -> int | None:
    """The votes a lynch takes, as a count states it ("With 9 alive, it takes 5 to lynch", "majority
    is 5")."""
    match = _MAJORITY.search(text)
    return int(next(g for g in match.groups() if g)) if match else None


def wagon_of(line: str) -> tuple[str | None, int]:
    """A count's wagon line as (the name it heads with, its votes): "Alder (5): Birch, ..." ->
    ("Alder", 5)."""
    heading = _VOTE_COUNT_DAY.match(line)
    match = _WAGON.match(line[heading.end() :] if heading else line)
    if not match:
        return None, 0
    return (match.group("head") or match.group("head2")).strip(" *"), int(
        match.group("votes") or match.group("votes2")
    )
