"""`votal update`: what the moderator's posts announce, written into the game file as cited edits.

:func:`plan_update` is pure: the file's text, the stored posts and a way to count a day in; the new
text, what was written, where the file says otherwise, and each announced lynch the count disagrees
with out. The moderator's posts are read after the last post the file already names, so a file kept
up to date is read from where it stopped; the edits are idempotent, so reading a post twice changes
nothing.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from assistant.errors import GameFileError
from assistant.gamefile.choices import PhaseKind
from assistant.gamefile.game import EventKind, Game, parse_game
from assistant.gamefile.outcome import Kind, Reason
from assistant.reading.announcements import (
    DeadlineKind,
    DeathCause,
    Elimination,
    ThreadFacts,
    read_thread_facts,
)
from assistant.upkeep.edits import (
    AddDeath,
    AddEvent,
    AddModerator,
    AddPlayer,
    AddReplacement,
    Edit,
    EditRefused,
    Note,
    SetDay,
    SetDeadline,
    SetModerators,
    SetPageSize,
    TakeBackDeath,
    apply_edits,
    check_edits,
)
from assistant.upkeep.respell import respell_file

if TYPE_CHECKING:
    from datetime import datetime

    from assistant.counting.takeovers import Takeover
    from assistant.counting.votal import Votal
    from assistant.forum.store import Store
    from assistant.reading.announcements import PostLike

    CountDay = Callable[[Game, int], Votal]


@dataclass(frozen=True)
class UpdateReport:
    path: str
    old_text: str
    text: str
    read_after: int | None  # announcements were read from the posts after this one
    written: tuple[str, ...]
    disagreements: tuple[
        str, ...
    ]  # the file says otherwise, or the edit contradicts it: nothing written
    alarms: tuple[str, ...]  # an announced lynch the count disagrees with: one of the two is wrong
    notes: tuple[str, ...]  # what the reader could not tell, and what a clocked game does not take

    @property
    def changed(self) -> bool:
        return self.text != self.old_text

    def diff(self) -> str:
        return "".join(
            difflib.unified_diff(
                self.old_text.splitlines(keepends=True),
                self.text.splitlines(keepends=True),
                fromfile=self.path,
                tofile=f"{self.path} (updated)",
            )
        )

    def to_json(self) -> dict:
        return {
            "path": self.path,
            "changed": self.changed,
            "read_after_post": self.read_after,
            "written": list(self.written),
            "disagreements": list(self.disagreements),
            "alarms": list(self.alarms),
            "notes": list(self.notes),
        }


def plan_update(
    text: str,
    posts: Sequence[PostLike],
    *,
    path: str | Path = "<game>",
    count_day: CountDay | None = None,
    clocked: bool = False,
    takeovers: Callable[[Game], Sequence[Takeover]] | None = None,
    posts_per_page: int | None = None,
) -> UpdateReport:
    """The game file ``text`` with what the moderators' ``posts`` announce after the last post it
    names.

    ``count_day(game, day)`` counts a day with the project's counting (the store's posts); each
    announced lynch or no-lynch is compared with it. ``takeovers(game)``: the seats the moderator's
    counts show held by an account the file does not list (:mod:`assistant.counting.takeovers`),
    written as replacements. ``clocked``: the days follow the ruleset's clock from the file's
    ``start``, so the day starts and ends the thread announces are not written (the rest is).

    ``posts_per_page``: the posts the thread's first page holds, once the thread has grown past it
    (:func:`page_size`), written to ``[fetch]`` where the file gives none, as `votal new` writes it.

    The reading is repeated from the new last known post until it writes nothing more (at most a few
    rounds), so running update again right after changes nothing.
    """
    path = str(path)
    first_after = parse_game(text, path=path, players_required=False).last_named_post()
    # a co-moderator added: the thread is read again from that moderator's first post of the
    # moderator's business
    new_text, written, disagreements, reread = _later_moderators(
        text, posts, path=path, after=first_after
    )
    found = _Findings(written, disagreements)
    if posts_per_page is not None:
        new_text = _write_page_size(new_text, posts, posts_per_page, found, path=path)
    reread = min(reread, first_after) if reread is not None and first_after is not None else None
    new_text = _read_until_settled(new_text, posts, found, path=path, clocked=clocked, after=reread)
    # a name Votal wrote before its account posted, now that the account posts under its own
    # spelling
    new_text, respelled, kept = respell_file(new_text, posts, path=path)
    found.written.extend(respelled)
    found.disagree(kept)
    if takeovers is not None:
        new_text = _write_takeovers(new_text, posts, takeovers, found, path=path, clocked=clocked)
    alarms: list[str] = []
    if count_day is not None:
        new_text, dated, refused = _lynches_counted_out(
            new_text, posts, path=path, count_day=count_day
        )
        found.written.extend(dated)
        found.disagree(refused)
        alarms = _alarms(new_text, found, path=path, count_day=count_day)
    return found.report(path, text, new_text, read_after=first_after, alarms=alarms)


@dataclass
class _Findings:
    """What the steps of an update have found so far, each said once where a later round can find
    it again."""

    written: list[str]
    disagreements: list[str]
    notes: list[str] = field(default_factory=list)
    eliminations: list[Elimination] = field(default_factory=list)

    def disagree(self, lines: Sequence[str]) -> None:
        self.disagreements.extend(d for d in lines if d not in self.disagreements)

    def add_round(self, round_: _Round) -> None:
        self.written.extend(round_.written)
        self.disagree(round_.disagreements)
        self.notes.extend(n for n in round_.notes if n not in self.notes)
        self.eliminations.extend(e for e in round_.eliminations if e not in self.eliminations)

    def report(
        self, path: str, old_text: str, text: str, *, read_after: int | None, alarms: list[str]
    ) -> UpdateReport:
        return UpdateReport(
            path,
            old_text,
            text,
            read_after,
            tuple(self.written),
            tuple(self.disagreements),
            tuple(alarms),
            tuple(self.notes),
        )


def _write_page_size(
    text: str, posts: Sequence[PostLike], posts_per_page: int, found: _Findings, *, path: str
) -> str:
    """The posts the thread's first page holds, written to ``[fetch]`` as `votal new` writes it."""
    text, sized, refused = write_edits(
        text, [SetPageSize(posts_per_page, FIRST_PAGE)], posts, path=path
    )
    found.written.extend(sized)
    found.disagreements.extend(refused)
    return text


def _read_until_settled(
    text: str,
    posts: Sequence[PostLike],
    found: _Findings,
    *,
    path: str,
    clocked: bool,
    after: int | None,
) -> str:
    """The moderators' posts read and written again from the new last known post until a round
    writes nothing (at most :data:`MAX_ROUNDS`); the first round reads after ``after`` when
    given."""
    for _ in range(MAX_ROUNDS):
        round_ = _read_and_write(text, posts, path=path, clocked=clocked, after=after)
        after = None
        text = round_.text
        found.add_round(round_)
        if not round_.written:
            break
    return text


def _write_takeovers(
    text: str,
    posts: Sequence[PostLike],
    takeovers: Callable[[Game], Sequence[Takeover]],
    found: _Findings,
    *,
    path: str,
    clocked: bool,
) -> str:
    """Seats the counts show held by an account the file does not list, one a round, the earliest
    first; after each, the moderators' posts since the new account's first are read again knowing
    its seat (a replacement they announce for it, its death), and the counts again with it, as a
    live game's updates meet them in turn."""
    for _ in range(MAX_TAKEOVERS):
        updated = parse_game(text, path=path, players_required=False)
        if not updated.players:
            break
        text, earliest = _write_earliest_takeover(text, posts, takeovers(updated), found, path=path)
        if earliest is None:
            break
        round_ = _read_and_write(text, posts, path=path, clocked=clocked, after=earliest - 1)
        text = round_.text
        found.add_round(round_)
    return text


def _write_earliest_takeover(
    text: str,
    posts: Sequence[PostLike],
    found_takeovers: Sequence[Takeover],
    found: _Findings,
    *,
    path: str,
) -> tuple[str, int | None]:
    """The earliest of ``found_takeovers`` the file takes, written as a replacement: (the new text,
    the takeover's first post, None when none was written)."""
    for t in sorted(found_takeovers, key=lambda t: t.post):
        edit = AddReplacement(
            t.seat, t.account, t.post, Note(t.words(), t.counts[0] if t.counts else t.post)
        )
        text, taken, refused = write_edits(text, [edit], posts, path=path)
        found.disagree(refused)
        if taken:
            found.written.extend(taken)
            return text, t.post
    return text, None


def _alarms(text: str, found: _Findings, *, path: str, count_day: CountDay) -> list[str]:
    """Each announced lynch the count disagrees with; the days the count has not decided go to
    the notes."""
    if not found.eliminations:
        return []
    updated = parse_game(text, path=path, players_required=False)
    if not updated.players:
        return []
    alarms, undecided = check_eliminations(updated, found.eliminations, count_day)
    found.notes.extend(undecided)
    return alarms


MAX_ROUNDS = 4
FIRST_PAGE = Note(
    "as the thread's first page shows"
)  # the cite of a page size read from the first page
MAX_TAKEOVERS = 30  # seats taken over, one a round


def _later_moderators(
    text: str, posts: Sequence[PostLike], *, path: str, after: int | None
) -> tuple[str, list[str], list[str], int | None]:
    """A co-moderator the thread shows after the file's last known post (an account off the player
    list that posts the moderator's business twice, as `votal new` reads one), added to the file's
    moderators when they are Votal's own reading of the thread (each the opener, named in the
    opening, or such a helper); a list the moderator changed is kept and the name said. (the new
    text, what was written, the difference said, and the post to read the thread again after when
    one was added)"""
    from assistant.reading.announcements.moderators import helpers_cited, read_moderators

    game = parse_game(text, path=path, players_required=False)
    if not posts or not game.players or not game.moderators:
        return text, [], [], None
    named, _ = read_moderators(posts[0])
    seats = {s.name: list(s.accounts) for s in game.players}
    helpers = helpers_cited(posts, {m.casefold() for m in named}, seats)
    held = {m.casefold() for m in game.moderators}
    later = {
        h: cites
        for h, cites in helpers.items()
        if h.casefold() not in held and (after is None or cites[1].post > after)
    }
    if not later:
        return text, [], [], None
    votal = {m.casefold() for m in (*named, *helpers)}
    if not held <= votal:
        return (
            text,
            [],
            [
                f"moderators: {h} posts the moderator's business (posts {cites[0].post}, {cites[1].post}) "
                "but the file's moderators are not Votal's reading of the thread (file kept)"
                for h, cites in later.items()
            ],
            None,
        )
    edits = [AddModerator(h, cites[0]) for h, cites in later.items()]
    text, written, refused = write_edits(text, edits, posts, path=path)
    return text, written, refused, (min(c[0].post for c in later.values()) - 1 if written else None)


@dataclass(frozen=True)
class _Round:
    text: str
    written: list[str]
    disagreements: list[str]
    notes: list[str]
    eliminations: tuple


def _read_and_write(
    text: str, posts: Sequence[PostLike], *, path: str, clocked: bool, after: int | None = None
) -> _Round:
    """One reading of the moderators' posts after the file's last known post (or ``after``), and the
    edits it calls for."""
    game = parse_game(text, path=path, players_required=False)
    players = {s.name: s.accounts for s in game.players}
    after = game.last_named_post() if after is None else after
    added: list[AddPlayer] = []
    if (
        game.players and game.moderators
    ):  # a listed seat left out at the game's start, now that its player posts
        from assistant.reading.announcements.player_list import listed_after_posting
        from assistant.reading.announcements.text import plain_text, trim

        missing, list_post = listed_after_posting(
            posts, game.moderators, [a for s in game.players for a in s.accounts], len(game.players)
        )
        added = [
            AddPlayer(
                e.accounts[0],
                Note(f"{trim(plain_text(e.line))} (on the player list, now posting)", list_post),
                tuple(e.accounts[1:]),
                before=before,
            )
            for e, before in missing
        ]
        if (
            missing
        ):  # the thread is read again knowing the seat: the replacement its list line tells, dated
            players |= {e.accounts[0]: e.accounts for e, _ in missing}
            after = min(after, list_post) if after is not None and list_post is not None else after
    facts = _thread_facts(
        game,
        posts,
        after=after,
        players=players,
        listed=[(p.name, a) for p in added for a in p.replacements],
    )
    # a seat the file records dead, left out of a later count: the same death, witnessed again
    recorded = {_seat_of(game, d.player) for d in game.deaths}
    facts = replace(
        facts,
        deaths=tuple(
            d for d in facts.deaths if d.cause != DeathCause.COUNTED_OUT or d.player not in recorded
        ),
    )
    edits, notes = edits_from_facts(
        facts,
        has_players=bool(game.players),
        clocked=clocked,
        has_moderators=bool(game.moderators),
        opening=posts[0].number if posts else None,
    )
    edits[:0] = list(added)
    text, written, disagreements = write_edits(text, edits, posts, path=path)
    notes.extend(f"reader: {p}" for p in facts.problems)
    return _Round(text, written, disagreements, notes, facts.eliminations)


def write_edits(
    text: str, edits: Sequence[Edit], posts: Sequence[PostLike], *, path: str
) -> tuple[str, list[str], list[str]]:
    """``edits`` written one by one, each checked against the file as it stands and the thread's
    posts: (the new text, what was written, what was refused or where the file says otherwise)."""
    numbers = [p.number for p in posts]
    written: list[str] = []
    disagreements: list[str] = []
    for edit in edits:
        current = parse_game(text, path=path, players_required=False)
        try:
            check_edits(current, [edit], posts=numbers, revise=True)
            result = apply_edits(text, [edit], path=path, revise=True)
        except (
            EditRefused,
            GameFileError,
        ) as refused:  # a file Votal could not read is never written
            disagreements.append(f"{refused} ({_cited(edit)}; not written)")
            continue
        text = result.text
        written.extend(result.written)
        disagreements.extend(result.disagreements)
    return text, written, disagreements


def edits_from_facts(
    facts: ThreadFacts,
    *,
    has_players: bool,
    clocked: bool,
    has_moderators: bool = True,
    opening: int | None = None,
) -> tuple[list[Edit], list[str]]:
    """The edits the facts call for, in the order they must be written (players, then the seats'
    changes, then days with their deadlines, then deaths), and notes on what was left out. `votal
    new` (no players, no moderators) and `votal update` both write a thread's facts through here, so
    a file kept live and one written on the finished thread say the same things the same way.

    Deaths are written in thread order, which apply_edits places in the game's order (a day, then
    its night); each day's deadlines in thread order: the first the day's ``end``, each later
    different one a declared change (see :class:`SetDeadline`), whichever reading of the thread
    meets them."""
    edits: list[Edit] = []
    notes: list[str] = []
    # the moderators read from the thread: its opener, and any co-moderator named
    if not has_moderators and facts.moderators:
        cite = facts.moderators_cite or Note("the author of the thread's opening post", opening)
        edits.append(SetModerators(tuple(facts.moderators), cite))
    if not has_players:
        players, notes = _player_edits(facts)
        edits.extend(players)
    edits.extend(AddReplacement(r.player, r.new, r.post, r.cite) for r in facts.replacements)
    if clocked and (facts.day_starts or facts.day_ends):
        notes.append(
            "days follow the ruleset's clock from the game's start: announced day starts and ends "
            "not written"
        )
    if not clocked:
        edits.extend(
            SetDay(start.day, start.cite, start_post=start.post) for start in facts.day_starts
        )
    edits.extend(_deadline_edits(facts, clocked=clocked))
    # after the deadlines, as a day kept live meets them: its keys read start, end, end_post
    if not clocked:
        edits.extend(SetDay(end.day, end.cite, end_post=end.post) for end in facts.day_ends)
    edits.extend(_death_edits(facts))
    return edits, notes


def _player_edits(facts: ThreadFacts) -> tuple[list[AddPlayer], list[str]]:
    """A seat for each player the thread lists, and notes on the seats left out.

    One account, one seat: an account is the first seat's that the list or an announcement gives it
    to, so a later seat named by an earlier seat's account (a replacement misspelled on the list)
    is left out, said."""
    owner: dict[str, str] = {}
    for seat, accounts in facts.seat_accounts().items():
        for account in accounts:
            owner.setdefault(account.casefold(), seat)
    edits: list[AddPlayer] = []
    notes: list[str] = []
    for p in facts.players:
        seat = owner[p.name.casefold()]
        if seat != p.name:
            notes.append(
                f"players: {p.name} (post {p.cite.post}) is an account of {seat}'s seat: left out, "
                "check"
            )
            continue
        replacements = tuple(a for a in p.replacements if owner[a.casefold()] == p.name)
        edits.append(AddPlayer(p.name, p.cite, replacements))
    return edits, notes


def _deadline_edits(facts: ThreadFacts, *, clocked: bool) -> list[Edit]:
    """Every deadline the thread states, in thread order, whether or not its day has ended since:
    the first is the day's ``end``, a later different one a declared change; so the file says the
    same whether its update met them one by one or at once (a declared end_post decides the day
    whatever the deadline says). Under the clock, only a declared extension is written."""
    deadlines = [
        (s.post, s.day, s.deadline, s.cite, DeadlineKind.DEADLINE)
        for s in facts.day_starts
        if s.deadline is not None
    ]
    deadlines += [(d.post, d.day, d.time, d.cite, d.kind) for d in facts.deadlines]
    edits: list[Edit] = []
    for post, day, time, cite, kind in sorted(deadlines, key=lambda d: d[0]):
        if not clocked:
            edits.append(SetDeadline(day, time, cite))
        elif kind == DeadlineKind.EXTENSION:
            edits.append(AddEvent(day, EventKind.DEADLINE, cite, post=post, time=time))
    return edits


def _death_edits(facts: ThreadFacts) -> list[Edit]:
    """The deaths the thread tells, lynches included, in thread order, then the deaths it takes
    back."""
    deaths = [
        (e.post, AddDeath(e.player, f"day {e.day}", e.cite))
        for e in facts.eliminations
        if e.player is not None
    ]
    deaths += [(d.cite.post, AddDeath(d.player, d.phase, d.cite, d.post)) for d in facts.deaths]
    edits: list[Edit] = [death for _, death in sorted(deaths, key=lambda d: d[0])]
    edits.extend(
        TakeBackDeath(t.player, t.phase, t.told_at, t.cite) for t in facts.deaths_taken_back
    )
    return edits


def check_eliminations(
    game: Game, eliminations: Sequence[Elimination], count_day: CountDay
) -> tuple[list[str], list[str]]:
    """Each announced lynch or no-lynch against the counted outcome: (alarms, notes on undecided
    days)."""
    alarms: list[str] = []
    undecided: list[str] = []
    for elimination in eliminations:
        votal = count_day(game, elimination.day)
        outcome = votal.outcome
        announced = f"{elimination.player} lynched" if elimination.player else "no lynch"
        said = f'post {elimination.post}: "{elimination.cite.words}"'
        if outcome is None or outcome.kind == Kind.PENDING:
            undecided.append(
                f"day {elimination.day}: the moderator announced {announced} ({said}); "
                "the count has not decided the day"
            )
            continue
        counted_seat = outcome.target if outcome.kind == Kind.ELIMINATION else None
        if _seat_of(game, elimination.player) == counted_seat:
            continue
        counted = f"{counted_seat} lynched" if counted_seat else "no lynch"
        at = f", post {outcome.post}" if outcome.post is not None else ""
        alarms.append(
            f"DAY {elimination.day} OUTCOME DISAGREES: the moderator announced {announced} ({said}) but the count "
            f"gives {counted} ({outcome.reason.replace('_', ' ')}{at}): one of the two is wrong"
        )
    return alarms, undecided


def _lynches_counted_out(
    text: str, posts: Sequence[PostLike], *, path: str, count_day: CountDay
) -> tuple[str, list[str], list[str]]:
    """A seat Votal wrote dead in the night after a day only because a later count no longer listed
    it, when the moderator's posts name no outcome for that day and Votal's count of it lynches that
    seat by the votes before the day's end: the lynch was told in words Votal could not read, so the
    death is written as that day's, citing the hammer. (the new text, what was written, what was
    refused)"""
    game = parse_game(text, path=path, players_required=False)
    lynched_days = {
        d.phase_number for d in game.deaths if d.phase == PhaseKind.DAY and d.post is None
    }
    candidates = [
        (seat, night, cited)
        for seat, night, cited in _votal_night_deaths(text)
        if night not in lynched_days and _day_over(game, night)
    ]
    if not game.players or not candidates:
        return text, [], []
    facts = _thread_facts(game, posts)
    counted_out = {
        (d.player, d.phase, d.cite.post) for d in facts.deaths if d.cause == DeathCause.COUNTED_OUT
    }
    told = {e.day for e in facts.eliminations}
    edits: list[Edit] = []
    for seat, night, cited in candidates:
        if night in told or (seat, f"night {night}", cited) not in counted_out:
            continue
        outcome = count_day(game, night).outcome
        end_post = game.day(night).end_post  # type: ignore[union-attr]
        if (
            outcome is None
            or outcome.kind != Kind.ELIMINATION
            or outcome.target != seat
            or outcome.reason not in VOTES_DECIDE
            or outcome.post is None
            or end_post is None
            or not outcome.post <= end_post < cited
        ):
            continue
        why = (
            f"Votal's count lynches {seat} ({outcome.reason.replace('_', ' ')}); the count at post "
            f"{cited} lists {seat} no more"
        )
        edits.append(AddDeath(seat, f"day {night}", Note(why, outcome.post)))
    return write_edits(text, edits, posts, path=path)


def _day_over(game: Game, day: int) -> bool:
    """The file records the day's end and the next day's start."""
    declared = game.day(day)
    return declared is not None and declared.end_post is not None and game.day(day + 1) is not None


def _thread_facts(
    game: Game,
    posts: Sequence[PostLike],
    *,
    after: int | None = None,
    players: Mapping[str, Sequence[str]] | None = None,
    listed: Sequence[tuple[str, str]] = (),
) -> ThreadFacts:
    """The moderators' posts after ``after`` (the whole thread when None) read as facts, knowing the
    file's moderators and ``players`` (else the file's seats)."""
    seats: dict[str, Sequence[str]] = (
        dict(players) if players is not None else {s.name: s.accounts for s in game.players}
    )
    return read_thread_facts(
        posts,
        title=game.title,
        moderators=game.moderators or None,
        players=seats or None,
        after_post=after,
        timezone=game.tz,
        listed=listed,
    )


# The day's votes decided it (a majority Votal counted), not a ruling or a deadline.
VOTES_DECIDE = (Reason.MAJORITY, Reason.UNANIMOUS_MINUS_ONE, Reason.NO_POSSIBLE_TIE)


def _votal_night_deaths(text: str) -> list[tuple[str, int, int]]:
    """The night deaths Votal wrote with no post of their own: (the seat, the night, the post
    cited)."""
    import tomlkit

    from assistant.upkeep.edits import cited_post

    found = []
    for table in tomlkit.parse(text).get("deaths", []):
        phase, cited = str(table.get("phase", "")).split(), cited_post(table)
        if (
            len(phase) == 2
            and phase[0] == "night"
            and phase[1].isdigit()
            and "post" not in table
            and cited
        ):
            found.append((str(table["player"]), int(phase[1]), cited))
    return found


def _seat_of(game: Game, account: str | None) -> str | None:
    if account is None:
        return None
    folded = account.casefold()
    return next(
        (s.name for s in game.players if folded in (a.casefold() for a in s.accounts)), account
    )


def _cited(edit: Edit) -> str:
    cite = getattr(edit, "cite", None)
    return f"post {cite.post}" if cite is not None and cite.post is not None else "from the thread"


def update_from_store(path: str | Path, db: Store, *, now: datetime) -> UpdateReport:
    """:func:`plan_update` for a game file and the posts stored for it; days are counted as of
    ``now``."""
    from assistant.counting.count import count_game, ruleset_for
    from assistant.forum import store
    from assistant.gamefile.game import load_game

    game = load_game(path, players_required=False)
    text = Path(path).read_text(encoding="utf-8")
    clocked = game.start is not None and bool(ruleset_for(game).day_hours)
    posts = store.load_posts(db, game.key)
    per_page = (
        stored_page_size(db, game, posts)
        if game.fetch.posts_per_page is None and game.forum
        else None
    )

    def count_day(counted: Game, day: int) -> Votal:
        return count_game(counted, db, days=[day], at_time=now)[0]

    def takeovers(updated: Game) -> list[Takeover]:
        from assistant.counting.takeovers import find_seat_holders

        bodies = store.moderator_bodies(db, updated.key, updated.moderators)
        posts = store.load_read_posts(db, updated.key)
        return find_seat_holders(updated, ruleset_for(updated), posts, bodies=bodies)

    return plan_update(
        text,
        posts,
        path=path,
        count_day=count_day,
        clocked=clocked,
        takeovers=takeovers,
        posts_per_page=per_page,
    )


def stored_page_size(db: Store, game: Game, posts: Sequence[PostLike]) -> int | None:
    """The posts a page of the thread holds, from a page the syncs stored that links a next one (so
    it is full, as the first page `votal new` reads is once the thread has grown past it), the
    latest first; by :func:`page_size`. The store keeps a page's post ids and next link with its
    validators: a forum that sends no ETag or Last-Modified leaves the page size to the
    moderator."""
    from assistant.forum import store
    from parsers.detect import get_parser

    if game.forum is None:
        return None
    parser = get_parser(game.forum)
    urls = [
        parser.page_url(game.thread),
        *(parser.page_url(game.thread, after_post=p.number) for p in posts[::-1]),
    ]
    for url in dict.fromkeys(urls):
        page = store.load_validators(db, game.key, url)
        if page.next_url and len(page.post_ids) >= 2:
            return page_size(parser, game.thread, len(page.post_ids), True)
    return None


def page_size(parser, thread: str, size: int, more_pages: bool) -> int | None:
    """The posts a page holds (``size``: the thread's first page, ``more_pages``: it links a next
    one), when the engine's default would ask for other pages (a stock phpBB set to 25 a page):
    written to the game file, every sync asks for the forum's own pages. None when the thread fits
    one page (its first page cannot tell) or the default is right."""
    if not more_pages or size < 2:
        return None
    probe = 7 * size + 3  # a post well into the thread, off any page boundary both sizes share
    if parser.page_url(thread, after_post=probe) == parser.page_url(
        thread, after_post=probe, per_page=size
    ):
        return None
    return size


def follow_hook(*, now: Callable[[], datetime], say: Callable[[str], None]):
    """For `votal run --follow`: after a sync that changed something, update the game file as `votal
    update` does, say each change written, and raise an alert (once) for each lynch the count
    disagrees with and each place the file says otherwise."""
    import hashlib

    from assistant.output.alerts import Alert, AlertKind, deliver_alerts
    from assistant.upkeep.edits import one_line, write_game_file

    def follow_game_file(game: Game, db: Store) -> None:
        moment = now()
        report = update_from_store(game.path, db, now=moment)
        if report.changed:
            write_game_file(game.path, report.text, why="votal run --follow")
        for line in report.written:
            say(f"{game.title}: {game.path.name}: wrote {one_line(line)}")
        alerts = [
            Alert(kind, f"{kind}:{hashlib.sha1(text.encode()).hexdigest()[:16]}", text)
            for kind, lines in (
                (AlertKind.OUTCOME_DISAGREES, report.alarms),
                (AlertKind.GAME_FILE_DISAGREES, report.disagreements),
            )
            for text in lines
        ]
        for alert in deliver_alerts(db, game, alerts, now=moment):
            loud = "!!! " if alert.kind == AlertKind.OUTCOME_DISAGREES else ""
            say(f"{game.title}: {loud}{one_line(alert.message)}")

    return follow_game_file
