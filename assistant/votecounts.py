"""A moderator's posted vote count, read, and held against Votal's reading as of that post.

A count is lines such as ``Name (3): A, B, C``, ``Name [3] - A, B, C``, ``Name - 3 - A, B, C - (L-2)``,
``Name: 3 (A, B, C)``, ``Name: (3) A, B, C``, ``Name {3/7} - A, B, C`` (of seven needed), the number first
(``(3) Name — A, B, C``, ``3 Name (A, B, C)``) or last (``Name – A, B, C (3)``), or ``Name (L-2): A, B, C``
(votes still needed instead of votes), with a "Not voting" line beside them; struck-out and quoted text is
left out. A line with a number of votes counts only when it is the number of voters it lists (a double voter
may make it more; voters parted by slashes, "A / B / C", when that gives the number), and a post is a count
only when no voter stands on two wagons: vote logs and histories are not counts.

Held against Votal's reading as of the post before it, a count shows each disagreement, and teaches an
alias: where the count puts a voter on a seat and Votal could not read that voter's last vote, the name as
the voter typed it is learned for that seat, from that post on. A name Votal read, even by a guess, is
never relearned: a moderator's slip would then misread it for the rest of the game.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import lru_cache
from typing import Any

from assistant.count_state import stated_alive
from assistant.names import NO_ELIMINATION, fold_name, resolve_name


@dataclass(frozen=True)
class PostedWagon:
    target: str  # as the moderator wrote it
    votes: float
    voters: tuple[str, ...]  # as the moderator wrote them


@dataclass(frozen=True)
class PostedCount:
    post: int
    wagons: tuple[PostedWagon, ...]
    not_voting: tuple[str, ...] = ()
    alive: int | None = None  # the number of living players the count states ("With 9 alive, ...")


@dataclass(frozen=True)
class Disagreement:
    """A voter the moderator's count places otherwise than Votal does (seats; NO_ELIMINATION for no lynch;
    None: not voting)."""

    post: int
    voter: str
    posted: str | None
    ours: str | None

    def to_json(self) -> dict[str, Any]:
        return {"post": self.post, "voter": self.voter, "posted": self.posted, "ours": self.ours}

    def describe(self, posts: Sequence[int] = ()) -> str:
        """In words; ``posts``: every count that says the same (default: this one's)."""
        posted = "not voting" if self.posted is None else self.posted
        ours = "not voting" if self.ours is None else self.ours
        has = _counts_at(posts or [self.post], "has", "have")
        return f"{has} {self.voter} on {posted}; Votal read {ours}: one of them is wrong"


@dataclass(frozen=True)
class AliveDisagreement:
    """A count stating another number of living players than the game file gives as of its post: a death
    (or a replacement, a return) one of them lacks, and so a majority one of them gets wrong."""

    post: int
    posted_alive: int
    alive: int

    def to_json(self) -> dict[str, Any]:
        return {"post": self.post, "posted_alive": self.posted_alive, "alive": self.alive}

    def describe(self, posts: Sequence[int] = ()) -> str:
        """In words; ``posts``: every count that says the same (default: this one's)."""
        says = _counts_at(posts or [self.post], "says", "say")
        return (f"{says} {self.posted_alive} alive; the game file gives {self.alive}: "
                "a death (or a return) is missing on one side, and with it the majority")


def _counts_at(posts: Sequence[int], one: str, many: str) -> str:
    """"the count at post 40 <one>" / "the counts at posts 40, 55 and 70 <many>"."""
    if len(posts) == 1:
        return f"the count at post {posts[0]} {one}"
    return f"the counts at posts {', '.join(map(str, posts[:-1]))} and {posts[-1]} {many}"


def describe_checks(checks: Sequence[Disagreement | AliveDisagreement]) -> list[str]:
    """Each disagreement in words, once: the same one repeated by later counts (a voter the moderator keeps
    placing otherwise, a death missing all day) is one line naming every count that says it."""
    said: dict[Disagreement | AliveDisagreement, list[int]] = {}
    for check in checks:
        said.setdefault(replace(check, post=0), []).append(check.post)
    return [check.describe(sorted(posts)) for check, posts in said.items()]


@dataclass(frozen=True)
class LearnedAlias:
    """``text``, as ``voter`` typed it at post ``cast``, names ``seat`` from the count at ``post`` on."""

    post: int
    voter: str
    text: str
    seat: str
    cast: int

    def to_json(self) -> dict[str, Any]:
        return {"post": self.post, "voter": self.voter, "text": self.text, "seat": self.seat, "cast": self.cast}


# --- reading a count ----------------------------------------------------------------------------------

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


def read_vote_count(body_html: str, *, post: int) -> PostedCount | None:
    """The count a moderator's post holds, or None when it holds none."""
    if len(body_html) <= _REMEMBERED_BODY:
        return _remembered_count(body_html, post)
    return _read_vote_count(body_html, post)


# A process counting as of many posts (status, run, the page) reads the same moderator posts each time; the
# answers for ordinary posts are kept (at most 512 of 64 KB).
_REMEMBERED_BODY = 65_536


@lru_cache(maxsize=512)
def _remembered_count(body_html: str, post: int) -> PostedCount | None:
    return _read_vote_count(body_html, post)


def _read_vote_count(body_html: str, post: int) -> PostedCount | None:
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


# --- holding a count against Votal's reading --------------------------------------------------------------


def posted_votes(count: PostedCount, roster: Any, living: Collection[str]) -> dict[str, str]:
    """Voter seat -> the seat (or NO_ELIMINATION) the count puts the voter on; names it cannot read are left out."""
    alive = frozenset(living)
    placed: dict[str, str] = {}
    for wagon in count.wagons:
        target = resolve_name(wagon.target, roster, alive=alive)
        owner = NO_ELIMINATION if target.no_elimination else target.seat
        if owner is None:
            continue
        for voter in wagon.voters:
            seat = resolve_name(voter, roster, alive=alive).seat
            if seat is not None:
                placed[seat] = owner
    return placed


def our_votes(votal: Any) -> dict[str, str]:
    """Voter seat -> the seat (or NO_ELIMINATION) Votal counts the voter on."""
    ours = {voter: wagon.target for wagon in votal.wagons for voter in wagon.voters}
    ours.update((voter, NO_ELIMINATION) for voter in votal.no_elimination.voters)
    return ours


def check_count(
    count: PostedCount, votal: Any, roster: Any, posts: Sequence[Any], *,
    typed: Mapping[tuple[int, str], str] | None = None,
) -> tuple[list[Disagreement | AliveDisagreement], list[LearnedAlias]]:
    """Every voter the count places otherwise than ``votal`` (Votal's reading as of the post before the
    count), a number alive it states otherwise, and the aliases the count teaches: a voter whose last vote
    Votal could not read, placed by the count on a seat, typed that name for that seat (``typed``: the
    targets as typed in ``posts``, when already gathered)."""
    placed = posted_votes(count, roster, votal.living)
    ours = our_votes(votal)
    posted_voters = {seat for seat in placed}
    disagreements: list[Disagreement | AliveDisagreement] = [
        Disagreement(count.post, voter, placed.get(voter), ours.get(voter))
        for voter in sorted(posted_voters | set(ours))
        if voter in posted_voters and placed.get(voter) != ours.get(voter)
    ]
    if count.alive is not None and count.alive != votal.alive:
        disagreements.append(AliveDisagreement(count.post, count.alive, votal.alive))
    learned = []
    typed = _typed_targets(posts) if typed is None else typed
    for d in disagreements:
        if not isinstance(d, Disagreement) or d.posted is None or d.posted == NO_ELIMINATION:
            continue
        last = _last_vote(votal.actions, d.voter, before=count.post)
        if last is None or not _misread(last):
            continue
        text = typed.get((last.post, last.text))
        if text:
            learned.append(LearnedAlias(count.post, d.voter, text, d.posted, last.post))
    # One spelling the count puts on two seats teaches nothing.
    seats: dict[str, set[str]] = {}
    for alias in learned:
        seats.setdefault(alias_key(alias.text), set()).add(alias.seat)
    return disagreements, [a for a in learned if len(seats[alias_key(a.text)]) == 1]


def alias_key(text: str) -> str:
    """How a learned spelling is matched: folded, as names are."""
    return fold_name(text)


def _misread(action: Any) -> bool:
    """Votal could not read the name. (A name Votal read, even by a guess, is never relearned from a count:
    moderators slip, and one slip would misread that name for the rest of the game.)"""
    return not action.counted and (action.why_not or "").startswith(_NAME_REASONS)


_NAME_REASONS = ("unknown name", "ambiguous", "several targets", "cut-off name")


def _last_vote(actions: Iterable[Any], voter: str, *, before: int) -> Any:
    last = None
    for action in actions:
        if action.voter == voter and action.post < before and action.action in ("vote", "unvote"):
            last = action
    return last if last is not None and last.action == "vote" else None


def _typed_targets(posts: Sequence[Any]) -> dict[tuple[int, str], str]:
    """(post, raw bold text) -> the target as typed."""
    return {
        (post.number, command.raw): command.target
        for post in posts
        for command in post.commands
        if command.action == "vote" and command.target
    }


def learn_from_counts(
    counts: Iterable[PostedCount], game: Any, ruleset: Any, posts: Sequence[Any], roster: Any, *, day: int,
    at_post: int | None = None, at_time: datetime | None = None, typed: Mapping[tuple[int, str], str] | None = None,
) -> Learning:
    """Each of ``day``'s counts in post order, held against Votal's reading as of the post before it (with
    what earlier counts taught); every spelling a count teaches is learned by ``roster`` from that post on.
    One replay of the day, as of ``at_post`` / ``at_time``, shows each count its moment (and is kept:
    ``Learning.days``)."""
    from assistant.tally import replay_day_watched

    by_post = {count.post: count for count in counts}
    learning = Learning({day: []}, [], {})
    typed = _typed_targets(posts) if typed is None else typed

    def hold(post: int, votal: Any) -> None:
        found, taught = check_count(by_post[post], votal, roster, posts, typed=typed)
        learning.disagreements[day].extend(found)
        for alias in taught:
            if alias_key(alias.text) not in roster.learned:
                roster.learn(alias.text, alias.seat, alias.post)
                learning.learned.append(alias)

    learning.days[day] = replay_day_watched(
        game, ruleset, posts, roster, day=day, watch=sorted(by_post), seen=hold, at_post=at_post, at_time=at_time
    )
    return learning


@dataclass
class Learning:
    """What the moderator's counts gave: each day's disagreements, the spellings they taught (in order), and
    each day's replay that held them (a ``tally.DayResult`` as of the point asked for)."""

    disagreements: dict[int, list[Disagreement | AliveDisagreement]]
    learned: list[LearnedAlias]
    days: dict[int, Any]


def learn_game(
    game: Any, ruleset: Any, posts: Sequence[Any], roster: Any, bodies: Mapping[int, str], days: Iterable[int],
    *, at_post: int | None = None, at_time: datetime | None = None,
) -> Learning:
    """What the moderator's counts during ``days`` teach ``roster`` (``bodies``: their posts, by number), and
    every disagreement by day, each count held against the reading as of the post before it: one replay of
    each day that has counts, as of ``at_post`` / ``at_time`` (kept in ``Learning.days``)."""
    from assistant.clock import day_bounds

    learning = Learning({}, [], {})
    typed = _typed_targets(posts)  # the targets as typed, gathered once for every day
    for day in days:
        bounds = day_bounds(game, ruleset, day)
        if bounds.start_post is None:
            continue  # a day timed by the clock: its posts are not known by number here
        end = bounds.end_post
        counts = [
            count
            for number, body in sorted(bodies.items())
            if number > bounds.start_post and (end is None or number <= end)
            and (count := read_vote_count(body, post=number)) is not None
        ]
        if not counts:
            continue
        found = learn_from_counts(counts, game, ruleset, posts, roster, day=day, at_post=at_post, at_time=at_time,
                                  typed=typed)
        learning.disagreements.update(found.disagreements)
        learning.learned.extend(found.learned)
        learning.days.update(found.days)
    return learning
