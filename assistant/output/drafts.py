"""The moderator's routine posts (day start, votal, Judge, day end, early end, runoff, reminder) as
drafts.

Two steps, both pure: :func:`build_context` gathers the public facts of one day from the game file,
the ruleset and the replayed votals into a :class:`DraftContext`; :func:`render_draft` renders one
kind of post from it with a Jinja2 template in BBCode (phpBB, vBulletin, XenForo, ProBoards) or
Markdown (Discourse).

Private facts of the game file never reach a template: the context holds only what the rules publish
(the Judge's decision is announced, never who made it).

Escaping happens once, before any template runs: every text value of the context (names, title,
labels) is escaped for the flavour, and links are checked and percent-encoded, so a template
(bundled or the moderator's own) prints values as they are and a player called ``[b]x[/b]`` or
``**x**`` cannot break a draft.

- BBCode: each ``[`` that could start a tag is followed by an empty ``[i][/i]`` (any other ``[``,
  and every
  ordinary name, is left as typed). A tag needs ``[`` directly before its name, so
  ``[b]`` becomes ``[[i][/i]b]``, which phpBB, vBulletin, XenForo and ProBoards all show as ``[b]``
  (the
  empty italic renders as nothing). Unlike entities (``&#91;``), which some engines show literally,
  or
  lookalike brackets, the page shows the real characters, so a name copied from a votal still votes.
- Markdown: CommonMark backslash escapes for the characters that start markup anywhere in a line
  (``\\ ` * _ [ ] < > | ~ & #``) and for a leading ``+ - = .`` or ``1.`` that would start a list or
  heading.
"""

from __future__ import annotations

import random
import re
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass, replace
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

from jinja2 import (
    BaseLoader,
    ChoiceLoader,
    Environment,
    FunctionLoader,
    StrictUndefined,
    TemplateError,
    TemplateNotFound,
)

from assistant import bundled
from assistant.counting.clock import DayBounds, day_bounds
from assistant.counting.living import alive_seats
from assistant.counting.votal import Votal
from assistant.counting.votes import show_votes, standing_steps, votes_needed
from assistant.errors import VotalError
from assistant.gamefile.choices import DeathOrder, PhaseKind
from assistant.gamefile.game import Game, Seat
from assistant.gamefile.outcome import Kind, Reason, Words, announce, judge_declined, words_of
from assistant.gamefile.rules import Ruleset, find_ruleset
from assistant.gamefile.zones import zone_label
from assistant.output.sandbox import DraftSandbox, FolderLoader, render_bounded
from assistant.output.terminal import terminal_safe
from assistant.reading.identity import AuthorIndex
from parsers.reading import ReadPost


class DraftKind(StrEnum):
    """A kind of draft, as `votal draft KIND` names it (its template is the value with "_" for
    "-")."""

    DAY_START = "day-start"
    VOTAL = "votal"
    JUDGE = "judge"
    DAY_END = "day-end"
    EARLY_END = "early-end"
    RUNOFF = "runoff"
    REMINDER = "reminder"


KINDS = tuple(k.value for k in DraftKind)
FLAVORS = ("bbcode", "markdown")
# The forum engines that take Markdown; every other engine takes BBCode.
MARKDOWN_ENGINES = frozenset({"discourse"})


class DraftError(VotalError):
    """A draft that cannot be made: unknown kind or flavour, or a broken template."""

    exit_code = 2  # the command's input is wrong


# --- the context: public facts only
# ----------------------------------------------------------------------


@dataclass(frozen=True)
class Died:
    name: str
    role: str | None  # announced with the death ("flip") where the ruleset reveals roles, else None


@dataclass(frozen=True)
class Player:
    name: str  # the seat's name (its first account)
    # who plays it at the draft's post (a replacement), the same as name when never replaced
    account: str
    shown: str  # how the draft names the seat: "New (replaced Old)", else the name


@dataclass(frozen=True)
class Vote:
    """One standing vote: who cast it, in which post, and a link to that post when known."""

    voter: str
    post: int | None
    url: str | None


@dataclass(frozen=True)
class Wagon:
    target: str  # a seat, or the ruleset's no-elimination label
    votes: int | float
    voters: tuple[Vote, ...]
    # votes still needed for a majority ("L-2", votes.votes_needed); None without one
    to_majority: int | None
    no_elimination: bool = False
    nominated_by: str | None = None  # clocktower: who nominated the target, in which post
    nomination_post: int | None = None
    nomination_url: str | None = None


@dataclass(frozen=True)
class Outcome:
    kind: str  # elimination | no_elimination | pending
    target: str | None
    reason: str
    post: int | None
    url: str | None
    text: str  # one plain sentence saying what happened and why


@dataclass(frozen=True)
class Judgment:
    """The Judge's decision as the rules publish it: what was decided, never by whom."""

    state: str  # decided | none | awaited
    target: str | None
    text: str


@dataclass(frozen=True)
class Runoff:
    candidates: tuple[str, ...]
    hours: float | None
    deadline: datetime | None
    deadline_local: str | None
    deadline_utc: str | None


@dataclass(frozen=True)
class PostCount:
    name: str
    posts: int


@dataclass(frozen=True)
class Flagged:
    """A public warning from the tally's flags (e.g. two missed days of voting flag a player for
    removal)."""

    name: str
    reason: str


@dataclass(frozen=True)
class DraftContext:
    """Everything a draft may say about one day. Built by :func:`build_context`; every field is
    public."""

    title: str
    thread: str
    day: int
    ruleset: str  # the ruleset's title
    words: Words
    # died in the night before this day, in the order the rules announce them
    deaths: tuple[str, ...]
    living: tuple[Player, ...]
    alive: int
    majority: int | None  # None when the rules decide by plurality with no threshold
    deadline: datetime | None  # UTC
    deadline_local: str | None  # "Saturday 5 October 2024, 22:00 EDT"
    deadline_utc: str | None  # "Sunday 6 October 2024, 02:00 UTC"
    timezone: str
    # the deadline's extensions (a Reveal's 24 h), already included in it
    extended_hours: int | float
    time_left: str | None  # "1 day, 3 hours and 20 minutes" from ``now`` to the deadline
    as_of_post: int | None
    wagons: tuple[Wagon, ...]
    no_elimination: Wagon | None
    not_voting: tuple[str, ...]
    outcome: Outcome | None
    judgment: Judgment | None
    runoff: Runoff | None
    post_minimum: int | None
    under_minimum: tuple[PostCount, ...]
    post_cap: int | None
    cap_lifted_local: str | None
    warnings: tuple[Flagged, ...] = ()
    notes: tuple[str, ...] = ()
    # survived a kill in the night before this day (announced with the deaths)
    survivals: tuple[str, ...] = ()
    how_to_vote: str = "Vote in bold. You may change your vote at any time before the deadline."
    count_number: int | None = (
        None  # 2 in "Vote Count 3.2": the day's second count, as moderators number them
    )
    # ``deaths`` with their flips (roles) where the ruleset reveals roles
    died: tuple[Died, ...] = ()
    flip: Died | None = (
        None  # the day's eliminated player and role, where the ruleset reveals roles
    )
    no_elimination_needed: int | None = (
        None  # votes that end the day with no elimination, when not the majority
    )
    # the day's earlier lynches (game file lynches_per_day > 1), in order, before ``outcome``; their
    # flips
    lynches: tuple[Outcome, ...] = ()
    lynch_flips: tuple[Died, ...] = ()
    lynches_per_day: int = 1


# --- building the context
# ------------------------------------------------------------------------------


def build_context(
    game: Game,
    ruleset: Ruleset,
    votals: Sequence[Votal] | Mapping[int, Votal],
    *,
    day: int,
    now: datetime | None,
    posts: Sequence[ReadPost] = (),
    count_number: int | None = None,
) -> DraftContext:
    """The public facts of ``day`` for a draft.

    ``votals`` are counted votals (:func:`assistant.counting.count.count_stored`); the one of
    ``day`` is used when present (a day that has not started has none: the living and the majority
    come from the game file). ``posts`` give the links to the posts votes were cast in and the day's
    post counts for the post minimum; without them links fall back to the thread's URL and post
    counts to the votal's flags. ``now`` (aware) is for the time left before the deadline.
    ``count_number`` numbers a vote count within its day
    (:func:`assistant.forum.store.number_vote_count`).
    """
    votal = _votal_of(votals, day)
    draft = _DayDraft(game, ruleset, votal, day, words_of(ruleset), _post_urls(votal, posts))
    return draft.context(now, posts, count_number)


def _cap_lifted(ruleset: Ruleset, deadline: datetime | None) -> datetime | None:
    """When the daily post cap lifts: the rules' hours before the deadline."""
    cap_hours = ruleset.cap_lifted_hours
    return deadline - timedelta(hours=cap_hours) if deadline and cap_hours else None


@dataclass(frozen=True)
class _DayDraft:
    """A day as a draft tells it: the game, its rules and the day's votal (None before the day
    starts)."""

    game: Game
    ruleset: Ruleset
    votal: Votal | None
    day: int
    words: Words
    urls: dict[int, str]  # post number -> its address, for the links

    @property
    def as_of(self) -> int | None:
        return self.votal.as_of_post if self.votal is not None else None

    def shown(self, name: str) -> str:
        """A replaced seat by the account playing it then: "New (replaced Old)"."""
        return self.game.shown(name, self.as_of)

    def context(
        self, now: datetime | None, posts: Sequence[ReadPost], count_number: int | None
    ) -> DraftContext:
        game, ruleset, votal, day = self.game, self.ruleset, self.votal, self.day
        words, zone, shown = self.words, game.tz, self.shown
        living_names = self.living_names()
        living = self.living(living_names)
        majority = self.majority(len(living))
        bounds = day_bounds(game, ruleset, day)
        deadline = votal.deadline if votal is not None and votal.deadline else bounds.end
        # the same threshold the tally decides a no-elimination vote by
        no_elim_majority = ruleset.no_elimination_needed(majority) if majority is not None else None
        wagons, no_elim = self.wagons(majority, no_elim_majority)
        return DraftContext(
            title=game.title,
            thread=game.thread,
            day=day,
            ruleset=ruleset.title or ruleset.name,
            words=words,
            deaths=tuple(shown(n) for n in night_deaths(game, ruleset, day)),
            survivals=night_survivals(game, ruleset, day),
            how_to_vote=ruleset.how_to_vote or DraftContext.how_to_vote,
            living=living,
            alive=len(living),
            majority=majority,
            deadline=deadline,
            deadline_local=_local(deadline, zone),
            deadline_utc=_utc(deadline),
            timezone=zone_label(zone),
            extended_hours=show_votes(bounds.extended_hours),
            time_left=_time_left(deadline, now),
            as_of_post=self.as_of,
            wagons=wagons,
            no_elimination=no_elim,
            not_voting=tuple(
                shown(n) for n in (votal.not_voting if votal is not None else living_names)
            ),
            outcome=_outcome(votal, words, game, self.urls, ruleset, shown)
            if votal is not None
            else None,
            judgment=_judgment(votal, game, words, ruleset, shown),
            runoff=self.runoff(deadline),
            post_minimum=ruleset.daily_minimum,
            under_minimum=self.under_minimum(posts, living_names),
            post_cap=ruleset.daily_cap,
            cap_lifted_local=_local(_cap_lifted(ruleset, deadline), zone),
            warnings=self.warnings(),
            notes=_notes(votal, ruleset, words),
            count_number=count_number,
            died=self.died(),
            flip=_flip(game, ruleset, votal),
            lynches=self.lynches(),
            lynch_flips=self.lynch_flips(),
            lynches_per_day=game.lynches_per_day,
            no_elimination_needed=no_elim_majority if ruleset.no_elimination_below else None,
        )

    def living_names(self) -> Sequence[str]:
        votal = self.votal
        if votal is not None and votal.living:
            return votal.living
        return alive_seats(self.game, self.day)

    def under_minimum(
        self, posts: Sequence[ReadPost], living_names: Sequence[str]
    ) -> tuple[PostCount, ...]:
        """The living who posted less than the rules' daily minimum, when the rules have one."""
        minimum = self.ruleset.daily_minimum
        if not minimum:
            return ()
        game, ruleset, votal, day = self.game, self.ruleset, self.votal, self.day
        under = _under_minimum(game, ruleset, votal, day, posts, living_names, minimum)
        return tuple(PostCount(self.shown(c.name), c.posts) for c in under)

    def living(self, names: Sequence[str]) -> tuple[Player, ...]:
        seats = {seat.name: seat for seat in self.game.players}
        return tuple(Player(n, self._account(seats.get(n), n), self.shown(n)) for n in names)

    def _account(self, seat: Seat | None, name: str) -> str:
        """The account playing a seat as of the votal; anything that is no seat's name as it is."""
        if seat is None:
            return name
        return seat.current if self.as_of is None else seat.account_at(self.as_of)

    def majority(self, alive: int) -> int | None:
        if not self.ruleset.threshold:
            return None
        return self.votal.majority if self.votal is not None else self.ruleset.majority_for(alive)

    def wagons(
        self, majority: int | None, no_elim_majority: int | None
    ) -> tuple[tuple[Wagon, ...], Wagon | None]:
        if self.votal is None:
            return (), None
        majorities = (majority, no_elim_majority)
        return _wagons(self.votal, self.words, majorities, self.urls, self.game, self.shown)

    def runoff(self, deadline: datetime | None) -> Runoff | None:
        runoff = _runoff(self.votal, self.ruleset, deadline, self.game.tz)
        if runoff is None:
            return None
        return replace(runoff, candidates=tuple(self.shown(n) for n in runoff.candidates))

    def warnings(self) -> tuple[Flagged, ...]:
        flags = self.votal.flags if self.votal is not None else ()
        return tuple(
            Flagged(self.shown(f.seat), f.reason) for f in flags if "minimum" not in f.reason
        )

    def died(self) -> tuple[Died, ...]:
        game, ruleset, day = self.game, self.ruleset, self.day
        return tuple(
            Died(name, _role(game, ruleset, name, "night", day - 1))
            for name in night_deaths(game, ruleset, day)
        )

    def lynches(self) -> tuple[Outcome, ...]:
        """The day's earlier lynches, worded."""
        votal = self.votal
        if votal is None:
            return ()
        return tuple(
            _worded(o, votal, self.words, self.game, self.urls, self.ruleset, self.shown)
            for o in votal.lynches
        )

    def lynch_flips(self) -> tuple[Died, ...]:
        earlier = self.votal.lynches if self.votal is not None else ()
        return tuple(
            Died(self.shown(o.target), role)
            for o in earlier
            if o.target and (role := _role(self.game, self.ruleset, o.target, "day", self.day))
        )


def _role(game: Game, ruleset: Ruleset, name: str, phase: str, number: int) -> str | None:
    """The role announced with a death ("flip"): the [[deaths]] entry's public ``role``, where the
    rules reveal it."""
    if not ruleset.reveal_roles:
        return None
    return next(
        (
            d.role
            for d in game.deaths
            if d.player == name and d.phase == phase and d.phase_number == number
        ),
        None,
    )


def _flip(game: Game, ruleset: Ruleset, votal: Votal | None) -> Died | None:
    outcome = votal.outcome if votal is not None else None
    if (
        votal is None
        or outcome is None
        or str(outcome.kind) != "elimination"
        or outcome.target is None
    ):
        return None
    role = _role(game, ruleset, outcome.target, "day", votal.day)
    return Died(outcome.target, role) if role else None


def _runoff(
    votal: Votal | None, ruleset: Ruleset, deadline: datetime | None, zone
) -> Runoff | None:
    """The runoff the tally opened; else, for a tie the rules settle by runoff, the tied leaders."""
    if votal is None:
        return None
    if votal.runoff is not None:
        r = votal.runoff
        return Runoff(
            r.candidates,
            ruleset.runoff_hours,
            r.deadline,
            _local(r.deadline, zone),
            _utc(r.deadline),
        )
    o = votal.outcome
    if o is None or o.kind != Kind.PENDING or o.reason != Reason.RUNOFF or not votal.wagons:
        return None
    best = votal.wagons[0].votes
    tied = tuple(w.target for w in votal.wagons if w.votes == best)
    hours = ruleset.runoff_hours
    end = deadline + timedelta(hours=hours) if deadline is not None and hours else None
    return Runoff(tied, hours, end, _local(end, zone), _utc(end))


def _votal_of(votals: Sequence[Votal] | Mapping[int, Votal], day: int) -> Votal | None:
    if isinstance(votals, Mapping):
        return votals.get(day)
    return next((v for v in votals if v.day == day), None)


def night_survivals(game: Game, ruleset: Ruleset, day: int) -> tuple[str, ...]:
    """Who survived a kill in the night before ``day``, in the order deaths are announced ("Deaths
    (and survivals) from each night are announced first thing the following morning")."""
    survived = [
        s.player for s in game.survivals if s.phase == PhaseKind.NIGHT and s.phase_number == day - 1
    ]
    return _announce_order(survived, game, ruleset, day)


def night_deaths(game: Game, ruleset: Ruleset, day: int) -> tuple[str, ...]:
    """Who died in the night before ``day``, in the order the rules announce them.

    Game-file order unless the ruleset's ``death_order`` is ``"random"`` (Witch Hunt 9.0: "announced
    ... in a random order") or ``"alphabetical"``. The random order is a shuffle seeded by the
    thread and the day: it tells nothing about roles or the order the moderator wrote, and is the
    same every run.
    """
    died = [
        d.player for d in game.deaths if d.phase == PhaseKind.NIGHT and d.phase_number == day - 1
    ]
    return _announce_order(died, game, ruleset, day)


def _announce_order(names: list[str], game: Game, ruleset: Ruleset, day: int) -> tuple[str, ...]:
    order = ruleset.death_order
    if order == DeathOrder.ALPHABETICAL:
        return tuple(sorted(names, key=str.casefold))
    if order == DeathOrder.RANDOM:
        shuffled = sorted(names, key=str.casefold)
        random.Random(zlib.crc32(f"{game.thread}#{day}".encode())).shuffle(shuffled)
        return tuple(shuffled)
    return tuple(names)


def _post_urls(votal: Votal | None, posts: Sequence[ReadPost]) -> dict[int, str]:
    """Permalinks by post number: from the posts, else from the votal's actions (which carry
    them)."""
    urls = {a.post: a.url for a in (votal.actions if votal is not None else ()) if a.url}
    urls.update((p.number, p.url) for p in posts if p.url)
    return urls


def post_link(game: Game, number: int | None, urls: Mapping[int, str]) -> str | None:
    """The link to post ``number``: its permalink when known, else one built from the thread's URL.

    The fallback for phpBB is the thread page starting at that post (``start=N``, MafiaScum's
    0-based numbering); for Discourse ``/t/slug/id/N``; other engines get no link.
    """
    if number is None:
        return None
    if number in urls:
        return urls[number]
    engine = game.forum or ("phpbb" if "viewtopic.php" in game.thread else None)
    parts = urlsplit(game.thread)
    if engine == "phpbb":
        query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "start"]
        query.append(("start", str(number)))
        return urlunsplit(parts._replace(query=urlencode(query), fragment=""))
    if engine == "discourse":
        return urlunsplit(
            parts._replace(path=parts.path.rstrip("/") + f"/{number}", query="", fragment="")
        )
    return None


def _vote_posts(votal: Votal) -> dict[tuple[str, str | None], int]:
    """(voter, target: None for no elimination) -> the post of that voter's standing vote."""
    steps = standing_steps(votal.changes)
    final = steps[-1][1] if steps else {}
    return {(voter, target): post for voter, votes in final.items() for target, post in votes}


def _wagons(
    votal: Votal, words: Words, majorities: tuple[int | None, int | None], urls, game: Game, shown
):
    """The wagons and the no-elimination row, each with its L-n (``majorities``: a wagon's, no
    elimination's)."""
    where = _vote_posts(votal)
    majority, no_elim_majority = majorities

    def votes_of(voters, target) -> tuple[Vote, ...]:
        out = []
        for voter in voters:
            post = where.get((voter, target))
            out.append(Vote(shown(voter), post, post_link(game, post, urls)))
        return tuple(out)

    nominations = {n.nominee: n for n in votal.nominations}
    wagons: list[Wagon] = []
    for w in votal.wagons:
        n = nominations.get(w.target)
        wagons.append(
            Wagon(
                shown(w.target),
                show_votes(w.votes),
                votes_of(w.voters, w.target),
                votes_needed(w.votes, majority),
                nominated_by=shown(n.nominator) if n else None,
                nomination_post=n.post if n else None,
                nomination_url=post_link(game, n.post, urls) if n else None,
            )
        )
    ne = votal.no_elimination
    no_elim = None
    if ne.votes or ne.voters:
        needs = votes_needed(ne.votes, no_elim_majority)
        no_elim = Wagon(
            words.no_elimination, show_votes(ne.votes), votes_of(ne.voters, None), needs, True
        )
    return tuple(wagons), no_elim


def _outcome(
    votal: Votal, words: Words, game: Game, urls, ruleset: Ruleset, shown
) -> Outcome | None:
    return (
        _worded(votal.outcome, votal, words, game, urls, ruleset, shown) if votal.outcome else None
    )


def _worded(o, votal: Votal, words: Words, game: Game, urls, ruleset: Ruleset, shown) -> Outcome:
    """A tally outcome as the drafts word it, with the link to its post."""
    o = _shown_outcome(o, shown)
    text = announce(o, words, ruleset, after_runoff=votal.runoff is not None)
    return Outcome(o.kind, o.target, o.reason, o.post, post_link(game, o.post, urls), text)


def _shown_outcome(o, shown):
    """The outcome with its seats named as the drafts name them ("New (replaced Old)")."""
    return replace(
        o,
        target=shown(o.target) if o.target else None,
        survived=shown(o.survived) if o.survived else None,
    )


def _judgment(
    votal: Votal | None, game: Game, words: Words, ruleset: Ruleset, shown
) -> Judgment | None:
    """The Judge's decision as public text. Who the Judge is never enters: only the decision does.

    The tally makes a recorded decision final (reason ``judge``); a dead or declining Judge reads
    the same ("no one is eliminated"), as the rules announce only the result.
    """
    if votal is None or votal.outcome is None:
        return None
    o = _shown_outcome(votal.outcome, shown)
    if o.reason == Reason.JUDGE and (o.target or o.survived):
        return Judgment("decided", o.target or o.survived, announce(o, words, ruleset))
    if judge_declined(o, ruleset):
        return Judgment("none", None, announce(o, words, ruleset))
    if o.kind == Kind.PENDING and o.reason in (Reason.NO_MAJORITY, Reason.SLEEP_MAJORITY):
        return Judgment(
            "awaited", None, "The decision passes to the Judge. The result will be announced."
        )
    return None


def _notes(votal: Votal | None, ruleset: Ruleset, words: Words) -> tuple[str, ...]:
    """Extra public lines the rules require, from the ruleset's data (e.g. a runoff still tied)."""
    if votal is None or votal.outcome is None:
        return ()
    o = votal.outcome
    notes = []
    if o.kind == Kind.NO_ELIMINATION and (
        o.reason == Reason.RUNOFF or (votal.runoff is not None and o.reason == Reason.TIE)
    ):
        note = ruleset.runoff_still_tied_note
        if note:
            notes.append(note)
    return tuple(notes)


def _under_minimum(game, ruleset, votal, day, posts, living, minimum) -> tuple[PostCount, ...]:
    """Living seats with fewer than ``minimum`` posts on ``day`` (from the posts, else the votal's
    flags)."""
    if posts:
        bounds = day_bounds(game, ruleset, day)
        # the tally's identity rules
        authors = AuthorIndex(game, [(p.author, p.author_id) for p in posts])
        upto = votal.as_of_post if votal is not None else None
        counts = {name: 0 for name in living}
        for post in posts:
            if (
                post.deleted
                or not _in_bounds(post, bounds)
                or (upto is not None and post.number > upto)
            ):
                continue
            seat = authors.match(post.author, post.author_id, post.number)[0]
            if seat in counts:
                counts[seat] += 1
        return tuple(PostCount(n, c) for n, c in counts.items() if c < minimum)
    if votal is None:
        return ()
    flagged = []
    for flag in votal.flags:
        found = re.search(r"(\d+)\s*posts?", flag.reason)
        if "minimum" in flag.reason and flag.seat in living:
            flagged.append(PostCount(flag.seat, int(found.group(1)) if found else 0))
    return tuple(flagged)


def _in_bounds(post: ReadPost, bounds: DayBounds) -> bool:
    if bounds.start_post is not None and post.number < bounds.start_post:
        return False
    if bounds.end_post is not None and post.number > bounds.end_post:
        return False
    if post.time is not None:
        if bounds.start_post is None and bounds.start is not None and post.time < bounds.start:
            return False
        if bounds.end_post is None and bounds.end is not None and post.time > bounds.end:
            return False
    return True


def _local(moment: datetime | None, zone) -> str | None:
    if moment is None:
        return None
    local = moment.astimezone(zone)
    return f"{local:%A} {local.day} {local:%B %Y}, {local:%H:%M} {local.tzname()}"


def _utc(moment: datetime | None) -> str | None:
    return _local(moment, UTC)


def _time_left(deadline: datetime | None, now: datetime | None) -> str | None:
    if deadline is None or now is None:
        return None
    minutes = int((deadline - now).total_seconds() // 60)
    if minutes <= 0:
        return "none (the deadline has passed)"
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    units = ((days, "day"), (hours, "hour"), (mins, "minute"))
    parts = [f"{n} {unit}{'' if n == 1 else 's'}" for n, unit in units if n]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def default_flavor(game: Game) -> str:
    """Markdown for a Discourse game, BBCode for every other engine (and when the engine is
    unknown)."""
    return "markdown" if (game.forum or "") in MARKDOWN_ENGINES else "bbcode"


# --- escaping
# --------------------------------------------------------------------------------------------

_SPACE = re.compile(r"\s+")
# A "[" that could open or close a tag: a letter or "*" (after an optional "/"), then no bracket up
# to a "]". Only these are broken up, so "[1]", "x[y" or "Bob :[" stay as typed and ordinary names
# carry no marks.
_BB_TAG_OPEN = re.compile(r"\[(?=/?[A-Za-z*][^\[\]]*\])")
_MD_INLINE = re.compile(r"([\\`*_\[\]<>|~&#])")
_MD_LEADING = re.compile(r"^(\d+)([.)])|^([+\-=.!])")


def escape_bbcode(text: str) -> str:
    """``text`` shown literally in a BBCode post (see the module docstring)."""
    return _BB_TAG_OPEN.sub("[[i][/i]", terminal_safe(_SPACE.sub(" ", text).strip()))


def escape_markdown(text: str) -> str:
    """``text`` shown literally in a Markdown (CommonMark / Discourse) post."""
    text = _MD_INLINE.sub(r"\\\1", terminal_safe(_SPACE.sub(" ", text).strip()))
    return _MD_LEADING.sub(
        lambda m: f"{m.group(1)}\\{m.group(2)}" if m.group(1) else f"\\{m.group(3)}", text
    )


ESCAPES = {"bbcode": escape_bbcode, "markdown": escape_markdown}


def safe_url(url: str | None, flavor: str) -> str | None:
    """A link target that cannot end the markup around it; None for anything but http(s)."""
    if not url or not re.match(r"^https?://", url, re.IGNORECASE):
        return None
    return quote(url, safe="/:?&=#%@+,;!$*'-._~" + ("()" if flavor == "bbcode" else ""))


_URL_KEYS = frozenset({"url", "thread", "nomination_url"})
# Machine words templates compare against ("unanimous_minus_one"), never player text: passed as they
# are.
_IDENTIFIER_KEYS = frozenset({"kind", "reason", "state"})


def _view(value: Any, flavor: str, key: str | None = None) -> Any:
    """The context as template variables: text escaped for ``flavor``, links made safe, numbers as
    they are."""
    if isinstance(value, str):
        if key in _IDENTIFIER_KEYS:
            return value
        return safe_url(value, flavor) if key in _URL_KEYS else ESCAPES[flavor](value)
    if is_dataclass(value) and not isinstance(value, type):
        return _Namespace(
            {f.name: _view(getattr(value, f.name), flavor, f.name) for f in fields(value)}
        )
    if isinstance(value, Mapping):
        return _Namespace({str(k): _view(v, flavor, str(k)) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(_view(v, flavor) for v in value)
    return value


class _Namespace(dict):
    """A dict whose keys read as attributes too, so templates write ``w.target`` or
    ``w['target']``."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


# --- rendering
# --------------------------------------------------------------------------------------------


_EARLY_ENDS = frozenset({Reason.MAJORITY, Reason.UNANIMOUS_MINUS_ONE, Reason.NO_POSSIBLE_TIE})


def nothing_to_announce(kind: str, context: DraftContext) -> str | None:
    """Why a draft of ``kind`` would announce something that did not happen (None: it would not): a
    day-end or judge post for a day not decided, an early-end post for a day that did not end early,
    a runoff post with no runoff."""
    outcome = context.outcome
    if kind in (DraftKind.DAY_END, DraftKind.JUDGE) and outcome is None:
        return "is not decided"
    if kind == DraftKind.EARLY_END and (outcome is None or outcome.reason not in _EARLY_ENDS):
        return "did not end early"
    if kind == DraftKind.RUNOFF and context.runoff is None:
        return "has no runoff"
    return None


def template_name(kind: str) -> str:
    """The template file a kind of draft is rendered from: ``day-start`` -> ``day_start.j2``."""
    if kind not in KINDS:
        raise DraftError(f"unknown draft kind {kind!r} (one of: {', '.join(KINDS)})")
    return kind.replace("-", "_") + ".j2"


def _bundled(flavor: str) -> FunctionLoader:
    """The templates shipped with Votal for one flavour."""
    return bundled.template_loader("drafts", flavor)


@lru_cache(maxsize=32)
def _environment(flavor: str, template_dir: Path | None) -> Environment:
    """One environment per (flavour, folder): Jinja caches compiled templates and reloads changed
    files.

    Templates are data, not code: every draft renders in a sandbox
    (:class:`assistant.output.sandbox.DraftSandbox`), so a moderator's template (or one handed to
    them) cannot reach Python internals, the environment or files outside its folder."""
    loaders: list[BaseLoader] = []
    if template_dir is not None:
        # A moderator's folder may hold per-flavour subfolders (bbcode/votal.j2) or plain files
        # (votal.j2).
        loaders += [FolderLoader(str(Path(template_dir) / flavor)), FolderLoader(str(template_dir))]
    loaders.append(_bundled(flavor))
    return DraftSandbox(
        loader=ChoiceLoader(loaders),
        autoescape=False,  # values are escaped for the flavour before rendering (see _view)
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
        undefined=StrictUndefined,
    )


def render_draft(
    kind: str,
    context: DraftContext,
    *,
    flavor: str = "bbcode",
    template_dir: Path | str | None = None,
) -> str:
    """Render one kind of draft. ``template_dir`` (the game file's ``templates``) overrides bundled
    templates of the same name."""
    if flavor not in FLAVORS:
        raise DraftError(f"unknown flavor {flavor!r} (one of: {', '.join(FLAVORS)})")
    if template_dir is not None and not Path(template_dir).is_dir():
        raise DraftError(f"template folder {str(template_dir)!r} does not exist")
    name = template_name(kind)
    env = _environment(flavor, Path(template_dir) if template_dir is not None else None)
    try:
        template = env.get_template(name)
        variables = dict(_view(context, flavor))
        text = render_bounded(template, {**variables, "kind": str(kind), "flavor": flavor})
    except TemplateNotFound as exc:
        raise DraftError(f"no template {exc.name!r} for {flavor}") from None
    except TemplateError as exc:  # a moderator's template: report it in one line, not a traceback
        raise DraftError(f"template {name} ({flavor}): {exc}") from None
    return _tidy(text)


def _tidy(text: str) -> str:
    """No trailing spaces, at most one blank line in a row, no blank lines at either end."""
    lines = [line.rstrip() for line in text.splitlines()]
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out).strip("\n")


def render_votal_draft(
    game: Game,
    votal: Votal,
    *,
    ruleset: Ruleset | None = None,
    posts: Sequence[ReadPost] = (),
    now: datetime | None = None,
    flavor: str = "bbcode",
) -> str:
    """The votal post for ``votal``'s day: BBCode unless ``flavor`` says otherwise (``votal count
    --format bbcode``)."""
    if ruleset is None:
        ruleset = find_ruleset(game.ruleset, game.path.parent)
    context = build_context(game, ruleset, [votal], day=votal.day, now=now, posts=posts)
    return render_draft(DraftKind.VOTAL, context, flavor=flavor, template_dir=game.templates)
