"""Reading a moderator's posted vote count from a post's HTML (the line shapes are listed in
:mod:`assistant.counting.votecounts`). Run when a moderator's post is stored or edited, and again
only when ``posted_count.COUNT_READER_VERSION`` changes: a count reads what was stored
(``assistant.forum.stored_counts``)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from assistant.reading.count_state import stated_alive
from assistant.reading.posted_count import PostedCount, PostedWagon

if TYPE_CHECKING:
    from lxml.etree import _Element as Element

_DROPPED_TAGS = frozenset({"blockquote", "cite", "s", "strike", "del", "script", "style"})
_LINE_TAGS = frozenset(
    {
        "br",
        "p",
        "div",
        "li",
        "ul",
        "ol",
        "tr",
        "td",
        "th",
        "table",
        "hr",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "dd",
        "dt",
        "dl",
        "fieldset",
        "legend",
        "center",
        "section",
        "article",
    }
)
_NUMBER = r"(?P<n>\d{1,2}(?:\.\d)?)"
# "(3/7)": three of the seven needed; "(3, L-4)": three, four more needed
_OF_NEEDED = r"(?:\s*/\s*\d{1,2}|\s*[,;]\s*L\s*-\s*\d{1,2})?"
# "Name (3): A, B" / "Name [3] - A, B" / "Name (3) A, B" / "Name: (3) A, B" / "Name {3/7} - A, B"
# A name written in brackets ("[Redacted] (2): A, B") is a name, not a note.
_BRACKETED = re.compile(
    rf"^(?P<target>\[[^\[\]]{{1,30}}\]|[^()\[\]{{}}:,\u2013\u2014]{{1,50}}?)\s*:?\s*[(\[{{]\s*{_NUMBER}{_OF_NEEDED}\s*[)\]}}]"
    r"\s*[:\-\u2013\u2014=>]*\s*(?P<voters>.*)$"
)
# In columns: "Name      2   A, B" (a number set apart by two spaces or more); "Name 2 votes: A, B"
_COLUMNS = re.compile(
    rf"^(?P<target>[^()\[\]{{}}:]{{1,50}}?)\s{{2,}}{_NUMBER}(?:\s+(?P<voters>.*))?$"
)
_COUNTED = re.compile(
    rf"^(?P<target>[^()\[\]{{}}:]{{1,50}}?)\s+{_NUMBER}\s*votes?\s*[:\-\u2013\u2014=]+\s*(?P<voters>.*)$",
    re.IGNORECASE,
)
# The number last: "Name \u2013 A, B (2)"
_NUMBER_LAST = re.compile(
    r"^(?P<target>[^()\[\]{}:\u2013\u2014]{1,50}?)\s*(?:[:\u2013\u2014]+|\s-+\s)\s*(?P<voters>[^()\[\]]+?)"
    rf"\s*[(\[]\s*{_NUMBER}\s*[)\]]$"
)
# The number first: "(3) Name \u2014 A, B" / "3 Name: A, B" / "3 Name (A, B)" / "(2) (NOT VOTING)
# \u2014 A, B"
_LEADING_NUMBER = (
    rf"^\+?(?P<open>[(\[{{]\s*)?{_NUMBER}{_OF_NEEDED}(?(open)\s*[)\]}}]\s*|\s+)"  # "(1)Name" too
    r"(?P<target>\([^()]{1,30}\)|[^()\[\]{}:=\u2013\u2014]{1,50}?)"
)
_NUMBER_FIRST = re.compile(rf"{_LEADING_NUMBER}\s*(?:[:=\u2013\u2014]+|\s-+>?\s)\s*(?P<voters>.*)$")
_NUMBER_FIRST_LISTED = re.compile(
    rf"{_LEADING_NUMBER}\s*\((?P<voters>[^()]+)\)(?:\s*L\s*-\s*\d{{1,2}})?$", re.IGNORECASE
)
# "Name - 3 - A, B - (L-2)" / "Name: 3 (A, B)" / "Name: 3 votes - A, B"
# (not "... at L-2 (A)": the votes needed)
_DASHED = re.compile(
    rf"^(?P<target>[^()\[\]:]{{1,50}}?)(?<!\bL)\s*[:\-\u2013\u2014]\s*{_NUMBER}\s*(?:votes?\s*)?"
    r"[:\-\u2013\u2014(]\s*(?P<voters>.*?)\)?$",
    re.IGNORECASE,
)
# "(L-2)" / "[L - 2]": the votes still needed. Taken out before a line is read; a line that has one
# and no number of votes, "Name (L-2): A, B", is a wagon of the voters it lists.
_NEEDED_MARK = re.compile(r"[(\[]\s*L\s*-\s*\d{1,2}\s*[)\]]", re.IGNORECASE)
_LEADING_NEEDED = re.compile(r"^L\s*-\s*\d{1,2}\s+(?=[(\[{]?\d)", re.IGNORECASE)
# "Name: A, B" / "Name - A, B" / "Name => A"; a hyphen between letters ("Ann-Marie") is in the name
_LISTED = re.compile(
    r"^(?P<target>[^()\[\]:]{1,50}?)\s*(?:[:\u2013\u2014=>]|(?<=\s)-|-(?=[\s>]))"
    r"[:\-\u2013\u2014=>]*\s*"
    r"(?P<voters>.+)$"
)
_NOT_VOTING = re.compile(
    r"^(?:not\s*(?:yet\s*)?voting|no\s*votes?|non[\s-]*voters?|players\s+not\s+voting|abstaining|yet\s+to\s+vote)\b",
    re.IGNORECASE,
)
_TO_LYNCH = re.compile(r"\(?\s*L\s*-\s*\d+\s*\)?|\bhammer(?:ed)?\b", re.IGNORECASE)
_VOTER_NOTE = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
_ARROW = re.compile(
    r"\s*<[-\u2013\u2014=]+.*$"
)  # "A, B <-- LYNCH": the moderator's note after the list
_BULLET = re.compile(r"^[\s*\-\u2022>#~]+")
_PARTS = re.compile(r"/|\.\s")
_ENCLOSED_LIST = re.compile(r"\s*[\[(](?P<names>[^\[\]()]*[,;&][^\[\]()]*)[\])]\s*")


def read_count(body_html: str, post: int) -> PostedCount | None:
    if not body_html or not re.search(r"\d", body_html):
        return None
    lines = _lines(body_html)
    block = _CountBlock()
    for line in lines:
        if not block.add(_BULLET.sub("", line).strip()):
            return None  # a voter on two wagons: a log or history, not a count
    if not block.numbered or (block.numbered < 2 and not block.not_voting):
        return None  # one wagon line is no count; lines without numbers only go with a count
    return PostedCount(post, block.with_slips(), block.not_voting, stated_alive(" ".join(lines)))


@dataclass
class _CountBlock:
    """The wagon lines of a post read so far, line by line."""

    wagons: list[PostedWagon] = field(default_factory=list)
    not_voting: tuple[str, ...] = ()
    seen: set[str] = field(default_factory=set)  # voters placed, folded
    beside: bool = False  # the line before was a wagon line (or the non-voters opening the count)
    numbered: int = 0  # wagon lines whose number of votes (or votes needed) fits the voters listed
    # empty lines in a row: a line break makes one or two ("<br>" and a newline), a blank line more
    empty: int = 0
    # lines whose number is one off the names listed
    slips: list[PostedWagon] = field(default_factory=list)

    def add(self, line: str) -> bool:
        """Read one line; False when it places a voter already placed (the post is no count)."""
        if not line:
            self.empty += 1
            self.beside = self.beside and self.empty < 3
            return True
        after, self.beside, self.empty = self.beside, False, 0
        read = _read_line(line)
        if read is None:
            return True
        target, listed, number, needed = read
        unnumbered = number is None and not needed
        if unnumbered and not after and not _NOT_VOTING.match(line):
            # a line without a number of votes is a wagon beside its "(L-2)" or another wagon line
            return True
        voters = _voters(listed)
        votes = float(number) if number is not None else float(len(voters))
        if len(voters) < votes:
            # "A / B / C" (or "A. B") for as many votes: the mark parts the voters ("Old / New" of
            # one vote is one seat)
            parts = tuple(" ".join(x.split()) for v in voters for x in _PARTS.split(v) if x.strip())
            voters = parts if len(parts) == votes else voters
        if _NOT_VOTING.match(target):
            # a count may open with its non-voters
            self.not_voting, self.beside = voters, not self.wagons
            return True
        fits = len(voters) <= votes <= 2 * len(voters)
        # a number one off the names listed in a count: the moderator's slip; the names are the
        # votes
        slip = not fits and number is not None and abs(len(voters) - votes) == 1
        if not target or not voters or not (fits or slip):
            return True  # the number is not the voters listed: not a wagon line
        folded = {v.casefold() for v in voters}
        loose = unnumbered or slip
        # "Rb: Ann" after a wagon line is one; a note or a list of something else is not
        if loose and (folded & self.seen or _not_a_name(target) or any(map(_not_a_name, voters))):
            return True
        if folded & self.seen or (len(folded) < len(voters) and (loose or votes != len(voters))):
            return False
        voters = tuple(dict.fromkeys(voters))  # a double voter listed twice, as the number counts
        self.beside = True
        if slip:  # taken at the end, if no line whose number fits places one of its voters
            self.slips.append(PostedWagon(target, float(len(voters)), voters))
            return True
        self.seen |= folded
        self.wagons.append(PostedWagon(target, votes, voters))
        self.numbered += not loose
        return True

    def with_slips(self) -> tuple[PostedWagon, ...]:
        """The wagons, and each slipped line none of whose voters another line places."""
        wagons = list(self.wagons)
        for wagon in self.slips:
            folded = {v.casefold() for v in wagon.voters}
            if not folded & self.seen:
                self.seen |= folded
                wagons.append(wagon)
        return tuple(wagons)


_VOTES_WORD = re.compile(
    rf"[\s:\-=>|\u2013\u2014]*{_NUMBER}\s*votes?\b[\s:\-=>|\u2013\u2014]*", re.IGNORECASE
)


def _read_line(line: str) -> tuple[str, str, str | None, bool] | None:
    """A count line as (target, voters as written, number of votes or None, whether it says the
    votes needed)."""
    line = _LEADING_NEEDED.sub("", line)  # "L-2 (5) Name - A, B": the votes needed come first
    mark = _NEEDED_MARK.search(line)
    if mark is not None:
        # "Name (L-2): A, B" / "Name (L-2) A, B": the mark parts the name from its voters
        before, rest = line[: mark.start()].strip(" :-*"), line[mark.end() :]
        number = _VOTES_WORD.match(rest)  # "Name (L-4) | 1 vote: A"
        rest = rest[number.end() :] if number else rest.strip(" :-=>|\u2013\u2014")
        column = _COLUMNS.match(before)  # "Name      3 (L-4) A, B, C"
        if column and not column.group("voters"):
            before, number = column.group("target"), column
        if before and rest and not re.search(r"[()\[\]{}]", before):
            return before, rest, number.group("n") if number else None, True
        line = " ".join(_NEEDED_MARK.sub(" ", line).split())
    match = (
        _BRACKETED.match(line)
        or _DASHED.match(line)
        or _NUMBER_FIRST.match(line)
        or _NUMBER_FIRST_LISTED.match(line)
        or _NUMBER_LAST.match(line)
        or _COUNTED.match(line)
        or _COLUMNS.match(line)
        or _LISTED.match(line)
    )
    if match is None:
        return None
    target = match.group("target").strip(" :-*")
    if target.startswith("(") and target.endswith(")"):
        target = target[1:-1].strip()  # "(NOT VOTING)", "(NO LYNCH)"
    return target, match.group("voters") or "", match.groupdict().get("n"), mark is not None


_MAX_NAME = 30


def _not_a_name(text: str) -> bool:
    return len(text) > _MAX_NAME or len(text.split()) > 4


def _lines(body_html: str) -> list[str]:
    from lxml import etree
    from lxml import html as lxml_html

    try:
        root = lxml_html.fragment_fromstring(body_html, create_parent="div")
    except (etree.ParserError, ValueError):
        return []
    pieces: list[str] = []

    def walk(el: Element) -> None:
        if el.text:
            pieces.append(el.text)
        for child in el:
            if not isinstance(child.tag, str):
                pass
            elif child.tag in _DROPPED_TAGS or "line-through" in (child.get("style") or ""):
                pass  # struck-out votes are gone; a quoted count is someone else's
            else:
                # phpBB's older bold and colours are divs styled "display:inline": no line of their
                # own
                block = child.tag in _LINE_TAGS and not (
                    child.tag == "div"
                    and "display:inline" in (child.get("style") or "").replace(" ", "")
                )
                if block:
                    pieces.append("\n")
                walk(child)
                if block:
                    pieces.append("\n")
                elif child.tag == "a" and not (child.tail or "").strip() and _next_is_link(child):
                    pieces.append(
                        ","
                    )  # voters written as links to their votes, side by side: one name each
            if child.tail:
                pieces.append(child.tail)

    walk(root)
    return " ".join("".join(pieces).replace("\xa0", " ").split(" ")).split("\n")


def _next_is_link(el: Element) -> bool:
    following = el.getnext()
    return following is not None and following.tag == "a"


def _voters(text: str) -> tuple[str, ...]:
    text = _ARROW.sub("", _TO_LYNCH.sub(" ", text))
    enclosed = _ENCLOSED_LIST.fullmatch(text)
    text = enclosed.group("names") if enclosed else text  # "[A, B, C]": the list in one bracket
    names = []
    for part in re.split(r",|;|\s+&\s+", text):
        # a note in brackets after a name is dropped; a name written in brackets ("[Redacted]") is
        # kept
        name = " ".join(_VOTER_NOTE.sub(" ", part).split()).strip(" -:*.") or " ".join(
            part.split()
        ).strip(" -:*.")
        if name and name.casefold() not in ("none", "nobody", "-"):
            names.append(name)
    return tuple(names)
