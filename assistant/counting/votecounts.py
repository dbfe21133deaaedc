"""A moderator's posted vote count, read, and held against Votal's reading as of that post.

A count is lines such as ``Name (3): A, B, C``, ``Name [3] - A, B, C``, ``Name - 3 - A, B, C -
(L-2)``, ``Name: 3 (A, B, C)``, ``Name: (3) A, B, C``, ``Name {3/7} - A, B, C`` (of seven needed),
the number first (``(3) Name — A, B, C``, ``3 Name (A, B, C)``) or last (``Name – A, B, C (3)``), or
``Name (L-2): A, B, C`` (votes still needed instead of votes), ``Name (3, L-4) [A, B, C]`` (the
voters in one bracket), with a "Not voting" line beside them (or opening the count); struck-out and
quoted text is left out. A line with a number of votes counts only when it is the number of voters
it lists (a double voter may make it more; voters parted by slashes, "A / B / C", when that gives
the number); a number one off the names listed is the moderator's slip, and the names count unless a
line whose number fits places one of them. A post is a count only when no voter stands on two
wagons: vote logs and histories are not counts.

Held against Votal's reading as of the post before it, a count shows each disagreement, and teaches
an alias: where the count puts a voter on a seat and Votal could not read that voter's last vote,
the name as the voter typed it is learned for that seat, from that post on. A name Votal read is
relearned only when it read it by a guess and the count puts it on another player the name fits too
("CD" for Cedar rather than ChannelDart): a moderator's slip onto any seat would misread that name
for the rest of the game.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from assistant.reading.names import (
    GUESSED_STEPS,
    NAME_NOT_READ,
    NO_ELIMINATION,
    Roster,
    fits_seat,
    fold_name,
    resolve_name,
)

# PostedWagon: the reading's shape, read from here too
from assistant.reading.posted_count import PostedCount
from assistant.reading.posted_count import PostedWagon as PostedWagon

if TYPE_CHECKING:
    from assistant.counting.clock import Timeline
    from assistant.counting.votal import Action, DayResult, Votal
    from assistant.gamefile.game import Game
    from assistant.gamefile.rules import Ruleset
    from parsers.reading import ReadPost


@dataclass(frozen=True)
class Disagreement:
    """A voter the moderator's count places otherwise than Votal does (seats; NO_ELIMINATION for no
    lynch; None: not voting)."""

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
    """A count stating another number of living players than the game file gives as of its post: a
    death (or a replacement, a return) one of them lacks, and so a majority one of them gets
    wrong."""

    post: int
    posted_alive: int
    alive: int

    def to_json(self) -> dict[str, Any]:
        return {"post": self.post, "posted_alive": self.posted_alive, "alive": self.alive}

    def describe(self, posts: Sequence[int] = ()) -> str:
        """In words; ``posts``: every count that says the same (default: this one's)."""
        says = _counts_at(posts or [self.post], "says", "say")
        return (
            f"{says} {self.posted_alive} alive; the game file gives {self.alive}: "
            "a death (or a return) is missing on one side, and with it the majority"
        )


def _counts_at(posts: Sequence[int], one: str, many: str) -> str:
    """ "the count at post 40 <one>" / "the counts at posts 40, 55 and 70 <many>"."""
    if len(posts) == 1:
        return f"the count at post {posts[0]} {one}"
    return f"the counts at posts {', '.join(map(str, posts[:-1]))} and {posts[-1]} {many}"


def describe_checks(checks: Sequence[Disagreement | AliveDisagreement]) -> list[str]:
    """Each disagreement in words, once: the same one repeated by later counts (a voter the
    moderator keeps placing otherwise, a death missing all day) is one line naming every count that
    says it."""
    said: dict[Disagreement | AliveDisagreement, list[int]] = {}
    for check in checks:
        said.setdefault(replace(check, post=0), []).append(check.post)
    return [check.describe(sorted(posts)) for check, posts in said.items()]


@dataclass(frozen=True)
class LearnedAlias:
    """``text``, as ``voter`` typed it at post ``cast``, names ``seat`` from the count at ``post``
    on."""

    post: int
    voter: str
    text: str
    seat: str
    cast: int

    def to_json(self) -> dict[str, Any]:
        return {
            "post": self.post,
            "voter": self.voter,
            "text": self.text,
            "seat": self.seat,
            "cast": self.cast,
        }


# --- reading a count
# ----------------------------------------------------------------------------------


def read_vote_count(body_html: str, *, post: int) -> PostedCount | None:
    """The count a moderator's post holds, or None when it holds none."""
    if len(body_html) <= _REMEMBERED_BODY:
        return _remembered_count(body_html, post)
    from assistant.reading.count_reader import read_count

    return read_count(body_html, post)


# A process counting as of many posts (status, run, the page) reads the same moderator posts each
# time; the answers for ordinary posts are kept (at most 512 of 64 KB).
_REMEMBERED_BODY = 65_536


@lru_cache(maxsize=512)
def _remembered_count(body_html: str, post: int) -> PostedCount | None:
    from assistant.reading.count_reader import read_count

    return read_count(body_html, post)


# --- holding a count against Votal's reading
# --------------------------------------------------------------


def posted_votes(count: PostedCount, roster: Roster, living: Collection[str]) -> dict[str, str]:
    """Voter seat -> the seat (or NO_ELIMINATION) the count puts the voter on; names it cannot read
    are left out."""
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


def our_votes(votal: Votal) -> dict[str, str]:
    """Voter seat -> the seat (or NO_ELIMINATION) Votal counts the voter on."""
    ours = {voter: wagon.target for wagon in votal.wagons for voter in wagon.voters}
    ours.update((voter, NO_ELIMINATION) for voter in votal.no_elimination.voters)
    return ours


def check_count(
    count: PostedCount,
    votal: Votal,
    roster: Roster,
    posts: Sequence[ReadPost],
    *,
    typed: Mapping[tuple[int, str], str] | None = None,
) -> tuple[list[Disagreement | AliveDisagreement], list[LearnedAlias]]:
    """Every voter the count places otherwise than ``votal`` (Votal's reading as of the post before
    the count), a number alive it states otherwise, and the aliases the count teaches: a voter whose
    last vote Votal could not read, placed by the count on a seat, typed that name for that seat
    (``typed``: the targets as typed in ``posts``, when already gathered)."""
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
        if last is None:
            continue
        text = typed.get((last.post, last.text))
        if text and (
            _misread(last) or _read_otherwise(last, text, d.posted, votal.actions, roster)
        ):
            learned.append(LearnedAlias(count.post, d.voter, text, d.posted, last.post))
    # One spelling the count puts on two seats teaches nothing.
    seats: dict[str, set[str]] = {}
    for alias in learned:
        seats.setdefault(alias_key(alias.text), set()).add(alias.seat)
    return disagreements, [a for a in learned if len(seats[alias_key(a.text)]) == 1]


def alias_key(text: str) -> str:
    """How a learned spelling is matched: folded, as names are."""
    return fold_name(text)


def _misread(action: Action) -> bool:
    """Votal could not read the name. (A name Votal read, even by a guess, is never relearned from a
    count: moderators slip, and one slip would misread that name for the rest of the game.)"""
    return not action.counted and (action.why_not or "").startswith(NAME_NOT_READ)


def _read_otherwise(
    action: Action, text: str, seat: str, actions: Iterable[Action], roster: Roster
) -> bool:
    """Votal read the name by a guess, and the count reads it as another player the name fits too:
    where a short name fits two players, the moderator's count says which. (Not when the count puts
    the voter where the voter's vote stood before: that is a count behind the thread.)"""
    if not action.counted or action.step not in GUESSED_STEPS:
        return False
    before = {
        a.target
        for a in actions
        if a.voter == action.voter and a.action == "vote" and a.counted and a.post < action.post
    }
    return seat not in before and fits_seat(text, seat, roster)


def _last_vote(actions: Iterable[Action], voter: str, *, before: int) -> Action | None:
    last = None
    for action in actions:
        if action.voter == voter and action.post < before and action.action in ("vote", "unvote"):
            last = action
    return last if last is not None and last.action == "vote" else None


def _typed_targets(posts: Sequence[ReadPost]) -> dict[tuple[int, str], str]:
    """(post, raw bold text) -> the target as typed."""
    return {
        (post.number, command.raw): command.target
        for post in posts
        for command in post.commands
        if command.action == "vote" and command.target
    }


def learn_from_counts(
    counts: Iterable[PostedCount],
    game: Game,
    ruleset: Ruleset,
    posts: Sequence[ReadPost],
    roster: Roster,
    *,
    day: int,
    at_post: int | None = None,
    at_time: datetime | None = None,
    typed: Mapping[tuple[int, str], str] | None = None,
    timeline: Timeline | None = None,
) -> Learning:
    """Each of ``day``'s counts in post order, held against Votal's reading as of the post before it
    (with what earlier counts taught); every spelling a count teaches is learned by ``roster`` from
    that post on. One replay of the day, as of ``at_post`` / ``at_time``, shows each count its
    moment (and is kept: ``Learning.days``)."""
    from assistant.counting.day_replay import replay_day_watched

    by_post = {count.post: count for count in counts}
    learning = Learning({day: []}, [], {})
    typed = _typed_targets(posts) if typed is None else typed

    def hold(post: int, votal: Votal) -> None:
        found, taught = check_count(by_post[post], votal, roster, posts, typed=typed)
        learning.disagreements[day].extend(found)
        for alias in taught:
            if alias_key(alias.text) not in roster.learned:
                roster.learn(alias.text, alias.seat, alias.post)
                learning.learned.append(alias)

    learning.days[day] = replay_day_watched(
        game,
        ruleset,
        posts,
        roster,
        day=day,
        watch=sorted(by_post),
        seen=hold,
        at_post=at_post,
        at_time=at_time,
        timeline=timeline,
    )
    return learning


@dataclass
class Learning:
    """What the moderator's counts gave: each day's disagreements, the spellings they taught (in
    order), and each day's replay that held them (a ``tally.DayResult`` as of the point asked
    for)."""

    disagreements: dict[int, list[Disagreement | AliveDisagreement]]
    learned: list[LearnedAlias]
    days: dict[int, DayResult]


def learn_game(
    game: Game,
    ruleset: Ruleset,
    posts: Sequence[ReadPost],
    roster: Roster,
    bodies: Mapping[int, str],
    days: Iterable[int],
    *,
    at_post: int | None = None,
    at_time: datetime | None = None,
) -> Learning:
    """:func:`learn_counts` of the counts the moderators' posts ``bodies`` (by number) hold, read
    here."""
    counts = {
        n: count
        for n, body in bodies.items()
        if (count := read_vote_count(body, post=n)) is not None
    }
    return learn_counts(
        game, ruleset, posts, roster, counts, days, at_post=at_post, at_time=at_time
    )


def learn_counts(
    game: Game,
    ruleset: Ruleset,
    posts: Sequence[ReadPost],
    roster: Roster,
    counts: Mapping[int, PostedCount],
    days: Iterable[int],
    *,
    at_post: int | None = None,
    at_time: datetime | None = None,
    timeline: Timeline | None = None,
) -> Learning:
    """What the moderator's counts during ``days`` teach ``roster`` (``counts``: their posted
    counts, by post number), and every disagreement by day, each count held against the reading as
    of the post before it: one replay of each day that has counts, as of ``at_post`` / ``at_time``
    (kept in ``Learning.days``). ``timeline``: the game's ``clock.Timeline``, when the caller has
    one (else each day's bounds are worked out here)."""
    from assistant.counting.clock import day_bounds

    learning = Learning({}, [], {})
    typed = _typed_targets(posts)  # the targets as typed, gathered once for every day
    ordered = sorted(counts.items())
    for day in days:
        span = timeline.day(day) if timeline is not None else day_bounds(game, ruleset, day)
        if span.start_post is None:
            continue  # a day timed by the clock: its posts are not known by number here
        end = span.end_post
        held = [
            count
            for number, count in ordered
            if number > span.start_post and (end is None or number <= end)
        ]
        if not held:
            continue
        found = learn_from_counts(
            held,
            game,
            ruleset,
            posts,
            roster,
            day=day,
            at_post=at_post,
            at_time=at_time,
            typed=typed,
            timeline=timeline,
        )
        learning.disagreements.update(found.disagreements)
        learning.learned.extend(found.learned)
        learning.days.update(found.days)
    return learning
