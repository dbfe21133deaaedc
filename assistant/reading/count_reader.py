"""Reading a moderator's posted vote count from a post's HTML (the line shapes are listed in
:mod:`assistant.counting.votecounts`). Run when a moderator's post is stored or edited, and again only when
``posted_count.COUNT_READER_VERSION`` changes: a count reads what was stored (``assistant.forum.stored_counts``)."""

from __future__ import annotations

import re

from assistant.reading.count_state import stated_alive
from assistant.reading.posted_count import PostedCount, PostedWagon

_DROPPED_TAGS = frozenset({"blockquote", "cite", "s", "strike", "del", "script", "style"})
_LINE_TAGS = frozenset(
    {"br", "p", "div", "li", "ul", "ol", "tr", "td", "th", "table", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "dd",
     "dt", "dl", "fieldset", "legend", "center", "section", "article"}
)
_NUMBER = r"(?P<n>\d{1,2}(?:\.\d)?)"
_OF_NEEDED = r"(?:\s*/\s*\d{1,2})?"  # "(3/7)": three of the seven needed
# "Name (3): A, B" / "Name [3] - A, B" / "Name (3) A, B" / "Name: (3) A, B" / "Name {3/7} - A, B"
# A name written in brackets ("[Redacted] (2): A, B") is a name, not a note.
_BRACKETED = re.compile(
    rf"^(?P<target>\[[^\[\]]{{1,30}}\]|[^()\[\]{{}}:,\u2013\u2014]{{1,50}}?)\s*:?\s*[(\[{{]\s*{_NUMBER}{_OF_NEEDED}\s*[)\]}}]"
    r"\s*[:\-\u2013\u2014=>]*\s*(?P<voters>.*)$"
)
# In columns: "Name      2   A, B" (a number set apart by two spaces or more); "Name 2 votes: A, B"
_COLUMNS = re.compile(rf"^(?P<target>[^()\[\]{{}}:]{{1,50}}?)\s{{2,}}{_NUMBER}(?:\s+(?P<voters>.*))?$")
_COUNTED = re.compile(
    rf"^(?P<target>[^()\[\]{{}}:]{{1,50}}?)\s+{_NUMBER}\s*votes?\s*[:\-\u2013\u2014=]+\s*(?P<voters>.*)$", re.IGNORECASE
)
# The number last: "Name \u2013 A, B (2)"
_NUMBER_LAST = re.compile(
    r"^(?P<target>[^()\[\]{}:\u2013\u2014]{1,50}?)\s*(?:[:\u2013\u2014]+|\s-+\s)\s*(?P<voters>[^()\[\]]+?)"
    rf"\s*[(\[]\s*{_NUMBER}\s*[)\]]$"
)
# The number first: "(3) Name \u2014 A, B" / "3 Name: A, B" / "3 Name (A, B)" / "(2) (NOT VOTING) \u2014 A, B"
_LEADING_NUMBER = (
    rf"^\+?[(\[{{]?\s*{_NUMBER}{_OF_NEEDED}\s*[)\]}}]?\s+"
    r"(?P<target>\([^()]{1,30}\)|[^()\[\]{}:=\u2013\u2014]{1,50}?)"
)
_NUMBER_FIRST = re.compile(rf"{_LEADING_NUMBER}\s*(?:[:=\u2013\u2014]+|\s-+>?\s)\s*(?P<voters>.*)$")
_NUMBER_FIRST_LISTED = re.compile(
    rf"{_LEADING_NUMBER}\s*\((?P<voters>[^()]+)\)(?:\s*L\s*-\s*\d{{1,2}})?$", re.IGNORECASE
)
# "Name - 3 - A, B - (L-2)" / "Name: 3 (A, B)" / "Name: 3 votes - A, B"
_DASHED = re.compile(
    rf"^(?P<target>[^()\[\]:]{{1,50}}?)\s*[:\-\u2013\u2014]\s*{_NUMBER}\s*(?:votes?\s*)?[:\-\u2013\u2014(]\s*(?P<voters>.*?)\)?$",
    re.IGNORECASE,
)
# "(L-2)" / "[L - 2]": the votes still needed. Taken out before a line is read; a line that has one and no
# number of votes, "Name (L-2): A, B", is a wagon of the voters it lists.
_NEEDED_MARK = re.compile(r"[(\[]\s*L\s*-\s*\d{1,2}\s*[)\]]", re.IGNORECASE)
_LISTED = re.compile(r"^(?P<target>[^()\[\]:]{1,50}?)\s*[:\-\u2013\u2014=>]+\s*(?P<voters>.+)$")
_NOT_VOTING = re.compile(
    r"^(?:not\s*(?:yet\s*)?voting|no\s*votes?|non[\s-]*voters?|players\s+not\s+voting|abstaining|yet\s+to\s+vote)\b",
    re.IGNORECASE,
)
_TO_LYNCH = re.compile(r"\(?\s*L\s*-\s*\d+\s*\)?|\bhammer(?:ed)?\b", re.IGNORECASE)
_VOTER_NOTE = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
_ARROW = re.compile(r"\s*<[-\u2013\u2014=]+.*$")  # "A, B <-- LYNCH": the moderator's note after the list
_BULLET = re.compile(r"^[\s*\-\u2022>#~]+")


def read_count(body_html: str, post: int) -> PostedCount | None:
    if not body_html or not re.search(r"\d", body_html):
        return None
    wagons: list[PostedWagon] = []
    not_voting: tuple[str, ...] = ()
    seen: set[str] = set()
    lines = _lines(body_html)
    beside = False  # the line before was a wagon line
    numbered = 0  # wagon lines with a number of votes or votes needed
    empty = 0  # empty lines in a row: a line break makes one or two ("<br>" and a newline), a blank line more
    for line in lines:
        line = _BULLET.sub("", line).strip()
        if not line:
            empty += 1
            beside = beside and empty < 3
            continue
        after, beside, empty = beside, False, 0
        read = _read_line(line)
        if read is None:
            continue
        target, listed, number, needed = read
        unnumbered = number is None and not needed
        if unnumbered and not after and not _NOT_VOTING.match(line):
            continue  # a line without a number of votes is a wagon beside its "(L-2)" or another wagon line
        voters = _voters(listed)
        votes = float(number) if number is not None else float(len(voters))
        if len(voters) < votes:
            # "A / B / C" for three votes: the slash parts the voters ("Old / New" of one vote is one seat)
            parts = tuple(p for voter in voters for p in (" ".join(x.split()) for x in voter.split("/")) if p)
            voters = parts if len(parts) == votes else voters
        if _NOT_VOTING.match(target):
            not_voting = voters
            continue
        if not target or not voters or not (len(voters) <= votes <= 2 * len(voters)):
            continue  # the number is not the voters listed: not a wagon line
        folded = {v.casefold() for v in voters}
        if unnumbered and (folded & seen or len(target) > _MAX_NAME or any(_not_a_name(v) for v in voters)):
            continue  # "Rb: Ann" after a wagon line is one; a note or a list of something else is not
        if folded & seen or len(folded) < len(voters):
            return None  # a voter on two wagons: a log or history, not a count
        seen |= folded
        wagons.append(PostedWagon(target, votes, voters))
        beside = True
        numbered += not unnumbered
    if not numbered or (numbered < 2 and not not_voting):
        return None  # one wagon line is no count; lines without numbers only go with a count
    return PostedCount(post, tuple(wagons), not_voting, stated_alive(" ".join(lines)))


_VOTES_WORD = re.compile(rf"[\s:\-=>|\u2013\u2014]*{_NUMBER}\s*votes?\b[\s:\-=>|\u2013\u2014]*", re.IGNORECASE)


def _read_line(line: str) -> tuple[str, str, str | None, bool] | None:
    """A count line as (target, voters as written, number of votes or None, whether it says the votes needed)."""
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
        _BRACKETED.match(line) or _DASHED.match(line) or _NUMBER_FIRST.match(line)
        or _NUMBER_FIRST_LISTED.match(line) or _NUMBER_LAST.match(line) or _COUNTED.match(line)
        or _COLUMNS.match(line) or _LISTED.match(line)
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

    def walk(el) -> None:
        if el.text:
            pieces.append(el.text)
        for child in el:
            if not isinstance(child.tag, str):
                pass
            elif child.tag in _DROPPED_TAGS or "line-through" in (child.get("style") or ""):
                pass  # struck-out votes are gone; a quoted count is someone else's
            else:
                # phpBB's older bold and colours are divs styled "display:inline": no line of their own
                block = child.tag in _LINE_TAGS and not (
                    child.tag == "div" and "display:inline" in (child.get("style") or "").replace(" ", "")
                )
                if block:
                    pieces.append("\n")
                walk(child)
                if block:
                    pieces.append("\n")
                elif child.tag == "a" and not (child.tail or "").strip() and _next_is_link(child):
                    pieces.append(",")  # voters written as links to their votes, side by side: one name each
            if child.tail:
                pieces.append(child.tail)

    walk(root)
    return " ".join("".join(pieces).replace("\xa0", " ").split(" ")).split("\n")


def _next_is_link(el) -> bool:
    following = el.getnext()
    return following is not None and following.tag == "a"


def _voters(text: str) -> tuple[str, ...]:
    text = _ARROW.sub("", _TO_LYNCH.sub(" ", text))
    names = []
    for part in re.split(r",|;|\s+&\s+", text):
        # a note in brackets after a name is dropped; a name written in brackets ("[Redacted]") is kept
        name = " ".join(_VOTER_NOTE.sub(" ", part).split()).strip(" -:*.") or " ".join(part.split()).strip(" -:*.")
        if name and name.casefold() not in ("none", "nobody", "-"):
            names.append(name)
    return tuple(names)
