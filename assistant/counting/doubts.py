"""What may be wrong with a day's count: doubts worth the moderator's minute, and notes that are
not.

A doubt is at the post that causes it and says what it would change. It is read from what the replay
recorded (each command as judged, the standing votes after each change, the outcome, the moderator's
own counts held against Votal's reading), never by replaying again, so it is a pure function of one
votal and the game file.

The kinds:

- ``possible_hammer``: a vote Votal did not count (for any reason but the moderator's own post or a
  day already over) that, counted, would give its wagon a majority (or No Lynch its majority) at
  that post, together with the other uncounted votes still standing then. A moderator states it so:
  "if that vote counts, the day is over". Votes that could not be placed at all (an account the game
  file does not list, a name that could not be read) are wildcards: each could be for any wagon, so
  on a day no counted majority decided, when at some post enough of them stand to give the leading
  wagon (or No Lynch) its majority, that is one possible hammer at that post, and again at the day's
  end when the day closed without a decision.
- ``doubtful_decision``: the vote that decided the day was read through a weak step (a guess at a
  name, a spelling learnt from a count, a broken tag, an account the game file does not list under
  that spelling).
- ``moderator_disagrees``: the moderator's latest count before Votal's decision (or the day's end)
  puts a voter elsewhere than Votal on the wagon that decides, or states another number alive; or
  the game file records the day's end without the death of the seat Votal's count lynched (the
  moderator announced another ending).
- ``unexplained_ending``: the day ended (the game file's ``end_post``) with no decision by the
  game's rules; a death the game file records for the day settled it only by the moderator's ruling.

Everything else Votal could not count is a ``note``: kept in the JSON and the audit, never in "needs
you" or an alert.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from assistant.counting.living import alive_seats
from assistant.counting.votecounts import AliveDisagreement, Disagreement
from assistant.counting.votes import show_votes
from assistant.gamefile.choices import Decide, EarlyEnd, PhaseKind
from assistant.gamefile.outcome import Kind, Reason, WhyNot
from assistant.reading.names import NAME_NOT_READ, Step, fold_name

if TYPE_CHECKING:
    from assistant.counting.takeovers import Takeover
    from assistant.counting.votal import Action, Votal
    from assistant.gamefile.game import Game
    from assistant.gamefile.rules import Ruleset
    from assistant.reading.posted_count import PostedCount

# voter -> the targets of its standing counted votes, as the votal's changes give them
_State = Mapping[str, tuple[str | None, ...]]
# voter (seat, else "account NAME") -> (target, no elimination, the text) of its uncounted vote
_Shadow = Mapping[str, tuple[str | None, bool, str]]


class DoubtKind(StrEnum):
    """What a finding about a count is: a doubt of one of five kinds, or a note."""

    POSSIBLE_HAMMER = "possible_hammer"
    DOUBTFUL_DECISION = "doubtful_decision"
    MODERATOR_DISAGREES = "moderator_disagrees"
    UNEXPLAINED_ENDING = "unexplained_ending"
    DAY_BOUNDS = "day_bounds"  # the day's start or end the thread contradicts (counting.day_bounds)
    NOTE = "note"


POSSIBLE_HAMMER = DoubtKind.POSSIBLE_HAMMER
DOUBTFUL_DECISION = DoubtKind.DOUBTFUL_DECISION
MODERATOR_DISAGREES = DoubtKind.MODERATOR_DISAGREES
UNEXPLAINED_ENDING = DoubtKind.UNEXPLAINED_ENDING
DAY_BOUNDS = DoubtKind.DAY_BOUNDS
NOTE = DoubtKind.NOTE
KINDS = (POSSIBLE_HAMMER, DOUBTFUL_DECISION, MODERATOR_DISAGREES, UNEXPLAINED_ENDING, DAY_BOUNDS)

# Refusals that are no reading of the vote at all: the moderator's own post, a post after the day
# was over.
_NOT_A_VOTE = frozenset({WhyNot.MODERATOR_POST, WhyNot.DAY_OVER, WhyNot.AFTER_END})
# How a deciding vote's name was read: a guess a moderator checks before closing the day (a doubt),
# and the shorthands players use every day (a note: on the development games' half A none of the
# hammers read so was wrong, against 60 right ones).
GUESSES = {
    Step.FUZZY: "a spelling guessed by its likeness",
    Step.LEARNED: "a spelling learnt from a count",
}
# Players who vote after Votal's hammer, before the day's end, as if the day went on: the moderator
# did not count that hammer. Chosen on half A of the development games: there no day decided right
# had more than 2.
PLAY_WENT_ON = 3
SHORTHANDS = {
    Step.ACRONYM: "initials",
    Step.ABBREVIATION: "an abbreviation",
    Step.PREFIX: "a prefix",
    Step.SUBSTRING: "part of the name",
}


@dataclass(frozen=True)
class Doubt:
    """One doubt (or note) about a day's count, at the post that causes it."""

    post: int | None
    kind: DoubtKind
    target: str | None  # the seat it concerns, None for no lynch or when unknown
    why: str

    def to_json(self) -> dict[str, Any]:
        return {"post": self.post, "kind": str(self.kind), "target": self.target, "why": self.why}

    @property
    def note(self) -> bool:
        return self.kind == DoubtKind.NOTE

    def describe(self) -> str:
        where = f"post {self.post}: " if self.post is not None else ""
        return f"{where}{self.why}"


def find_doubts(
    votal: Votal,
    game: Game,
    ruleset: Ruleset,
    holders: Sequence[Takeover] = (),
    counts: Mapping[int, PostedCount] | None = None,
) -> tuple[Doubt, ...]:
    """Every doubt and note of ``votal`` (a replayed day), doubts first, each in post order.
    ``holders``: the seats counted as held by an account the game file does not list
    (``takeovers.Takeover``); ``counts``: the moderator's posted counts, by post."""
    hammers = _possible_hammers(votal, game, ruleset)
    found = [
        *hammers,
        *_wildcard_hammers(votal, game, ruleset, hammers),
        *_seats_learned(votal, holders),
        *_doubtful_decision(votal, game, counts or {}),
        *_moderator_disagrees(votal, game, ruleset),
        *_lynch_not_recorded(votal, game),
        *_unexplained_ending(votal, game, ruleset),
        *_votes_on_the_dead(votal, game, ruleset),
    ]
    one_short = _one_short(votal, ruleset)
    if one_short is not None and not doubts_only(found):  # said once: another doubt already asks
        found.append(one_short)
    doubts = sorted((d for d in found if not d.note), key=lambda d: (d.post is None, d.post or 0))
    notes = sorted((d for d in found if d.note), key=lambda d: (d.post is None, d.post or 0))
    return (*doubts, *notes)


def doubts_only(found: Iterable[Doubt]) -> list[Doubt]:
    """The doubts among ``found``: what may change the outcome (notes left out)."""
    return [d for d in found if not d.note]


def notes_only(found: Iterable[Doubt]) -> list[Doubt]:
    """The notes among ``found``: kept for the record, never asking the moderator for anything."""
    return [d for d in found if d.note]


# -- possible hammers
# ----------------------------------------------------------------------------------------


def _possible_hammers(votal: Votal, game: Game, ruleset: Ruleset) -> list[Doubt]:
    """Each uncounted vote that, counted with the other uncounted votes standing, would decide the
    day (a majority, No Lynch's majority, unanimous minus one), and at a plurality deadline the
    uncounted votes standing that would change who leads."""
    weights = {s.name: float(s.vote_weight) for s in game.players}
    decided = (
        votal.outcome.post if votal.outcome is not None and votal.outcome.post is not None else None
    )
    changes = sorted(votal.changes, key=lambda c: c.post)
    state: dict[str, tuple[str | None, ...]] = {}
    # voter (seat, else account) -> (target, no lynch, the text) of its uncounted vote
    shadow: dict[str, tuple[str | None, bool, str]] = {}
    strangers: dict[
        str, None
    ] = {}  # accounts that voted without a seat (an unlisted replacement?), in order
    found: list[Doubt] = []
    index = 0
    last = None
    for action in votal.actions:
        if decided is not None and action.post > decided:
            break
        while index < len(changes) and changes[index].post <= action.post:
            change = changes[index]
            state[change.voter] = tuple(t for t, _ in change.votes)
            index += 1
        key = action.voter or f"account {action.author}"
        if action.counted:
            shadow.pop(key, None)  # the voter's own later vote replaces the uncounted one
            if (
                shadow
                and action.action == "vote"
                and action.target is not None
                and ruleset.threshold
            ):
                found += _closed_by_counted(
                    action, state, shadow, weights, votal, game, ruleset, found
                )
            continue
        if action.why_not == WhyNot.NOT_A_PLAYER and action.voter is None:
            strangers[action.author] = None
        if action.action != "vote" or action.why_not in _NOT_A_VOTE:
            continue
        shadow[key] = (action.target, action.no_elimination, action.text)
        last = action
        found.append(
            _would_decide(action, key, state, shadow, weights, votal, game, ruleset, strangers)
        )
    if last is not None and not ruleset.threshold:
        found += _would_lead(last, state, shadow, weights, votal, game, ruleset)
    return found


def _closed_by_counted(
    action: Action,
    state: _State,
    shadow: _Shadow,
    weights: Mapping[str, float],
    votal: Votal,
    game: Game,
    ruleset: Ruleset,
    found: Sequence[Doubt],
) -> list[Doubt]:
    """A counted vote that brings its wagon, with the seats' uncounted votes on it still standing,
    to a majority Votal's own count does not reach: those votes close the gap whenever they were
    cast (chosen on half B of the game-state bench, where a seat the game file had dead kept voting
    and its last vote would have completed the day's wagon). Unlisted accounts' votes are left out:
    such an account may have left the game since (replaced out), and their stale votes sat on 3
    right days of the development games."""
    target = action.target
    if not ruleset.ends_at_majority or any(
        d.kind == POSSIBLE_HAMMER and d.target == target for d in found
    ):
        return []
    living = alive_seats(game, votal.day, at_post=action.post)
    if target not in living:
        return []
    majority = ruleset.majority_for(len(living))
    # a seat's refused vote stands until the seat votes again; an unlisted account may have left the
    # game since
    seats = {voter: vote for voter, vote in shadow.items() if not voter.startswith("account ")}
    counts, _ = _standing_with(state, {}, living, weights)
    with_them, _ = _standing_with(state, seats, living, weights)
    if counts.get(target, 0.0) >= majority or with_them.get(target, 0.0) < majority:
        return []
    names = [voter for voter, (t, no_elim, _) in seats.items() if t == target and not no_elim]
    return [
        Doubt(
            action.post,
            POSSIBLE_HAMMER,
            target,
            f"{action.voter}'s {action.text!r} brings {target} to {show_votes(with_them[target])} of {majority} "
            f"with the votes not counted still standing ({', '.join(names)}): counted, it is a majority",
        )
    ]


def _standing_with(
    state: _State, shadow: _Shadow, living: Collection[str], weights: Mapping[str, float]
) -> tuple[dict[str | None, float], dict[str | None, int]]:
    """(votes, voters) per target of the standing votes, the uncounted ones in their voters' place
    (an unlisted account adds a voter)."""
    held = {voter: targets for voter, targets in state.items() if voter in living}
    held.update(
        (voter, (None if no_elim else target,))
        for voter, (target, no_elim, _) in shadow.items()
        if target is not None or no_elim
    )
    votes: dict[str | None, float] = {}
    voters: dict[str | None, int] = {}
    for voter, targets in held.items():
        for target in targets:
            if target is None or target in living:
                votes[target] = votes.get(target, 0.0) + weights.get(voter, 1.0)
                voters[target] = voters.get(target, 0) + 1
    return votes, voters


def _would_decide(
    action: Action,
    key: str,
    state: _State,
    shadow: _Shadow,
    weights: Mapping[str, float],
    votal: Votal,
    game: Game,
    ruleset: Ruleset,
    strangers: Iterable[str] = (),
) -> Doubt:
    """The doubt (or note) for one uncounted vote: what counting it (with the other uncounted votes
    still standing) would do at its post."""
    said = f"{action.voter or action.author}'s {action.text!r} not counted ({action.why_not})"
    if not ruleset.threshold:
        return Doubt(
            action.post, NOTE, action.target, said
        )  # a plurality day: weighed at its deadline
    living = alive_seats(game, votal.day, at_post=action.post)
    counts, voters = _standing_with(state, shadow, living, weights)
    standing = _StandingAt(
        said, frozenset(living), ruleset.majority_for(len(living)), counts, voters
    )
    if action.target is None and not action.no_elimination:
        return _unread_would_decide(action, standing, shadow, weights, game, strangers)
    return _read_would_decide(action, standing, ruleset)


@dataclass(frozen=True)
class _StandingAt:
    """An uncounted vote's post: the doubt's opening words, the living, the majority then, and the
    votes and voters per target with the uncounted votes standing."""

    said: str
    living: frozenset[str]
    majority: int
    counts: dict[str | None, float]
    voters: dict[str | None, int]


def _unread_would_decide(
    action: Action,
    at: _StandingAt,
    shadow: _Shadow,
    weights: Mapping[str, float],
    game: Game,
    strangers: Iterable[str],
) -> Doubt:
    """A name Votal could not read decides the day if it names a wagon one vote short and looks
    like its name, or if it names an account without a seat whose votes would be a majority."""
    weight = weights.get(action.voter or "", 1.0)
    near = [
        t
        for t, v in at.counts.items()
        if t is not None
        and v < at.majority <= v + weight
        and _looks_like(action.text, (*game.seat(t).accounts, *game.seat(t).aliases))
    ]
    if len(near) == 1:
        return Doubt(
            action.post,
            POSSIBLE_HAMMER,
            near[0],
            f"{at.said}; if it names {near[0]}, it is a majority "
            f"({show_votes(at.counts[near[0]] + weight)} of {at.majority})",
        )
    account, votes = _on_a_stranger(shadow, strangers, at.living, weights)
    if account is not None and votes >= at.majority:
        return Doubt(
            action.post,
            POSSIBLE_HAMMER,
            None,
            f"{at.said}; the votes naming {account}, an account that votes without a seat, are a "
            f"majority if it holds one ({show_votes(votes)} of {at.majority})",
        )
    return Doubt(action.post, NOTE, None, at.said)


def _read_would_decide(action: Action, at: _StandingAt, ruleset: Ruleset) -> Doubt:
    """A vote Votal read decides the day if, counted, it makes a majority or, where the rules end
    the day so, unanimity minus one."""
    target = None if action.no_elimination else action.target
    if target is not None and target not in at.living:
        return Doubt(action.post, NOTE, target, at.said)
    votes = at.counts.get(target, 0.0)
    needed = ruleset.no_elimination_needed(at.majority) if target is None else at.majority
    wagon = "No Lynch" if target is None else target
    if ruleset.ends_at_majority and votes >= needed:
        return Doubt(
            action.post,
            POSSIBLE_HAMMER,
            target,
            f"{at.said}; counted, it is a majority on {wagon} ({show_votes(votes)} of {needed})",
        )
    living = len(at.living)
    if (
        EarlyEnd.UNANIMOUS_MINUS_ONE in ruleset.early_end
        and living >= 2
        and at.voters.get(target, 0) >= living - 1
    ):
        return Doubt(
            action.post,
            POSSIBLE_HAMMER,
            target,
            f"{at.said}; counted, it is unanimous minus one on {wagon} "
            f"({at.voters[target]} of {living})",
        )
    return Doubt(action.post, NOTE, target, at.said)


def _on_a_stranger(
    shadow: _Shadow, strangers: Iterable[str], living: Collection[str], weights: Mapping[str, float]
) -> tuple[str | None, float]:
    """The account without a seat that most uncounted votes Votal could not read name (its own among
    them), and their votes: a seat held by an account the game file does not list (an unannounced
    replacement)."""
    on: dict[str, float] = {}
    for voter, (target, no_elim, text) in shadow.items():
        if target is not None or no_elim or not (voter in living or voter.startswith("account ")):
            continue
        typed = re.split(r"(?i)\bvote\b", text)[
            -1
        ]  # "unvote Javert, vote shattered": what the last vote names
        named = [a for a in strangers if _looks_like(typed, (a,))]
        if len(named) == 1:
            on[named[0]] = on.get(named[0], 0.0) + weights.get(voter, 1.0)
    best = max(on, key=on.__getitem__, default=None)
    return best, on.get(best, 0.0) if best is not None else 0.0


def _would_lead(
    last: Action,
    state: _State,
    shadow: _Shadow,
    weights: Mapping[str, float],
    votal: Votal,
    game: Game,
    ruleset: Ruleset,
) -> list[Doubt]:
    """At a plurality deadline: whether the uncounted votes still standing would change who
    leads."""
    outcome = votal.outcome
    if outcome is None or outcome.reason not in (
        Reason.PLURALITY,
        Reason.TIE,
        Reason.DEADLINE,
        Reason.RUNOFF,
    ):
        return []
    living = alive_seats(game, votal.day, at_post=last.post)
    counts, _ = _standing_with(state, shadow, living, weights)
    if not ruleset.no_elimination_competes:
        counts.pop(None, None)
    best = max(counts.values(), default=0)
    leaders = sorted(
        (t for t, v in counts.items() if v == best and best > 0), key=lambda t: (t is None, t or "")
    )
    decided = outcome.target if outcome.kind == Kind.ELIMINATION else None
    changed = (len(leaders) == 1 and leaders[0] != decided) or (
        decided is not None and leaders != [decided]
    )
    if not changed:
        return []
    shown = " and ".join("No Lynch" if t is None else t for t in leaders) or "nobody"
    return [
        Doubt(
            last.post,
            POSSIBLE_HAMMER,
            leaders[0] if len(leaders) == 1 else None,
            f"the votes not counted, counted, would make {shown} lead at the deadline "
            f"({show_votes(best)} votes), not what Votal decided",
        )
    ]


def _looks_like(typed: str, names: Sequence[str]) -> bool:
    """Whether a name Votal could not read looks like one of ``names``: most of it is found in one
    of them."""
    from rapidfuzz import (
        fuzz,
    )  # imported when first needed: most days have no unreadable vote near a majority

    text = typed.split(":", 1)[-1].casefold()
    text = "".join(c for c in text.removeprefix("vote") if c.isalnum())
    return len(text) >= _LOOKS_LIKE_MIN and any(
        fuzz.partial_ratio(text, "".join(c for c in n.casefold() if c.isalnum()))
        >= _LOOKS_LIKE_SCORE
        for n in names
    )


_LOOKS_LIKE_MIN = 2
_LOOKS_LIKE_SCORE = 80


# -- wildcards: votes that could not be placed ------------------------------------------------


@dataclass(frozen=True)
class _Wildcard:
    """An uncounted vote by a voter who is, or may be, a seat: for ``named`` when the name was read
    (a living seat; None with ``no_elimination``), else for any wagon (``free``)."""

    action: Action
    weight: float
    free: bool
    named: str | None

    def could_be_for(self, target: str | None) -> bool:
        # players spell their own name so that it reads: a name that did not read names someone else
        return self.named == target if not self.free else target != self.action.voter

    def said(self) -> str:
        who = self.action.voter or self.action.author
        return f"{who}'s {self.action.text!r} (post {self.action.post}: {self.action.why_not})"


def _wildcard_of(
    action: Action, living: Collection[str], weights: Mapping[str, float]
) -> _Wildcard | None:
    """The wildcard an uncounted vote is, or None: an account the game file does not list (not a
    player, a look-alike, an account outside its turn) may hold a seat; a living seat's vote whose
    name could not be read may name anyone."""
    if action.counted or action.action != "vote" or action.why_not in _NOT_A_VOTE:
        return None
    if action.voter is None:
        named = action.target if action.target in living else None
        free = named is None and not action.no_elimination
        return _Wildcard(action, 1.0, free, named)
    if (
        action.voter in living
        and action.target is None
        and not action.no_elimination
        and (action.why_not or "").startswith(NAME_NOT_READ)
    ):
        return _Wildcard(action, weights.get(action.voter, 1.0), True, None)
    return None


def _wildcard_hammers(
    votal: Votal, game: Game, ruleset: Ruleset, hammers: Sequence[Doubt]
) -> list[Doubt]:
    """On a day no counted majority decided (still open, or closed without one): one doubt at the
    first post where the wildcards standing (the uncounted votes of distinct voters who are, or may
    be, seats) could give a wagon, or No Lynch, its majority, unless a possible hammer already
    stands by then; and one at the day's end when the day closed without a decision and they still
    could."""
    if not ruleset.ends_at_majority:
        return []
    weights = {s.name: float(s.vote_weight) for s in game.players}
    outcome = votal.outcome
    if outcome is not None and outcome.reason in (*_DECIDED_BY_VOTES, *_DECIDED_OTHERWISE):
        # chosen on half A: on days a counted majority decided, every wildcard doubt sat on a day
        # decided right (the wildcard could only have hammered the same wagon a few posts earlier)
        return []
    changes = sorted(votal.changes, key=lambda c: c.post)
    state: dict[str, tuple[str | None, ...]] = {}
    wild: dict[str, _Wildcard] = {}
    found: list[Doubt] = []
    index = 0
    living: Collection[str] = ()
    for action in votal.actions:
        while index < len(changes) and changes[index].post <= action.post:
            state[changes[index].voter] = tuple(t for t, _ in changes[index].votes)
            index += 1
        living = alive_seats(game, votal.day, at_post=action.post)
        _track(wild, action, living, weights)
        if found or not wild:
            continue
        if any(d.kind == POSSIBLE_HAMMER and (d.post or 0) <= action.post for d in hammers):
            return []  # the moderator is already asked to look at this day's uncounted votes
        reach = _reach(state, wild, living, weights, ruleset)
        if reach is not None:
            found.append(_wildcard_doubt(action.post, reach, wild, ""))
    end = _closed_undecided(votal, game)
    if end is not None and wild:
        living = alive_seats(game, votal.day, at_post=end)
        reach = _reach(state, wild, living, weights, ruleset)
        if reach is not None:
            lead = f"the day ended at post {end} without a majority in Votal's count; "
            found.append(_wildcard_doubt(end, reach, wild, lead))
    return found


def _track(
    wild: dict[str, _Wildcard],
    action: Action,
    living: Collection[str],
    weights: Mapping[str, float],
) -> None:
    """The wildcards after ``action``: a voter's later vote or unvote replaces its uncounted one."""
    if action.action not in ("vote", "unvote") or action.why_not in _NOT_A_VOTE:
        return
    key = action.voter or f"account {action.author}"
    # an account the file lists from some post on votes as its seat from there
    wild.pop(f"account {action.author}", None)
    wild.pop(key, None)
    card = _wildcard_of(action, living, weights)
    if card is not None:
        wild[key] = card


@dataclass(frozen=True)
class _Reach:
    target: str | None  # None: No Lynch
    votes: float  # counted
    needed: int
    added: tuple[str, ...]  # the wildcards' keys that would go to it


def _reach(
    state: _State,
    wild: Mapping[str, _Wildcard],
    living: Collection[str],
    weights: Mapping[str, float],
    ruleset: Ruleset,
) -> _Reach | None:
    """The wagon the wildcards could bring to its majority, closest first (None: none can); none
    when a counted wagon already has one (the day is decided in Votal's count)."""
    counts, _ = _standing_with(state, {}, living, weights)
    majority = ruleset.majority_for(len(living))
    targets: list[str | None] = sorted(living) + ([None] if ruleset.no_elimination_vote else [])
    best: _Reach | None = None
    for target in targets:
        needed = majority if target is not None else ruleset.no_elimination_needed(majority)
        votes = counts.get(target, 0.0)
        if votes >= needed:
            return None
        added = tuple(
            key
            for key, card in wild.items()
            if card.could_be_for(target)
            and target not in state.get(key, ())
            and (card.action.voter is None or card.action.voter in living)
        )
        gain = sum(wild[key].weight for key in added)
        closer = best is None or needed - votes < best.needed - best.votes
        if added and votes + gain >= needed and closer:
            best = _Reach(target, votes, needed, added)
    return best


def _wildcard_doubt(post: int, reach: _Reach, wild: Mapping[str, _Wildcard], lead: str) -> Doubt:
    wagon = "No Lynch" if reach.target is None else reach.target
    cards = [wild[key] for key in reach.added]
    gain = sum(card.weight for card in cards)
    many = len(cards) > 1
    votes, each, they, it = (
        ("votes", " each", "they make", "them") if many else ("vote", "", "it makes", "it")
    )
    names = "whom they name" if many else "whom it names"
    return Doubt(
        post,
        POSSIBLE_HAMMER,
        reach.target,
        f"{lead}{len(cards)} {votes} not counted could{each} be for any wagon: "
        f"{'; '.join(card.said() for card in cards)}; counted for {wagon} "
        f"({show_votes(reach.votes)} of {reach.needed}), {they} a majority "
        f"({show_votes(reach.votes + gain)}): check who cast {it} and {names}",
    )


def _closed_undecided(votal: Votal, game: Game) -> int | None:
    """The day's end post, when the game file records it (as of this count) and no count of votes
    decided the day."""
    declared = game.day(votal.day)
    if declared is None or declared.end_post is None:
        return None
    if votal.as_of_post is not None and votal.as_of_post < declared.end_post:
        return None
    outcome = votal.outcome
    if outcome is not None and outcome.reason in _DECIDED_BY_VOTES:
        return None
    return declared.end_post


# Outcomes a count of votes reached at a post, and those a rule or a ruling gave (no wildcard
# changes them).
_DECIDED_BY_VOTES = frozenset({Reason.MAJORITY, Reason.UNANIMOUS_MINUS_ONE, Reason.SLEEP_MAJORITY})
_DECIDED_OTHERWISE = frozenset(
    {Reason.JUDGE, Reason.LOOSE_CANNON, Reason.MODKILL, Reason.MODERATOR}
)


# -- seats learned from the moderator's counts ------------------------------------------------


def _seats_learned(votal: Votal, holders: Sequence[Takeover]) -> list[Doubt]:
    """A note where an account the game file does not list first votes as the seat the moderator's
    counts show it holding; a doubt when its vote decided the day (the file may say otherwise)."""
    by_account = {h.account: h for h in holders}
    deciding = deciding_action(votal)
    found: list[Doubt] = []
    for action in votal.actions:
        holder = by_account.pop(action.author, None)
        if holder is None:
            continue
        said = (
            f"{action.author} is counted in {holder.seat}'s seat from post {holder.post}: "
            f"{holder.words()}; `votal update` writes it into the game file"
        )
        found.append(Doubt(action.post, NOTE, holder.seat, said))
    for holder in holders:
        if deciding is None or deciding.author != holder.account:
            continue
        wagon = deciding.target or "No Lynch"
        why = (
            f"the vote that decided the day, {holder.account}'s {deciding.text!r} for {wagon}, "
            f"counts for {holder.seat}'s seat only as the moderator's counts show it (the game "
            "file does not list it): check it before closing the day"
        )
        found.append(Doubt(deciding.post, DOUBTFUL_DECISION, deciding.target, why))
    return found


# -- the deciding vote
# ---------------------------------------------------------------------------------------


def deciding_action(votal: Votal) -> Action | None:
    """The counted vote that decided the day (the last one at the outcome's post on its target), or
    None."""
    outcome = votal.outcome
    if (
        outcome is None
        or outcome.post is None
        or outcome.kind not in (Kind.ELIMINATION, Kind.NO_ELIMINATION)
    ):
        return None
    for action in reversed(votal.actions):
        if (
            action.post == outcome.post
            and action.counted
            and action.action in ("vote", "nominate")
            and action.target == outcome.target
        ):
            return action
    return None


def _doubtful_decision(votal: Votal, game: Game, counts: Mapping[int, PostedCount]) -> list[Doubt]:
    """The vote that decided the day, when it was read through a guess: a doubt for a guess a
    moderator would check (an edit-distance match, a spelling learnt from a count, an account the
    game file does not list, an edited post), a note for a shorthand players use every day
    (initials, a short prefix, a broken tag)."""
    action = deciding_action(votal)
    outcome = votal.outcome
    if (
        action is None
        or outcome is None
        or outcome.reason not in (Reason.MAJORITY, Reason.UNANIMOUS_MINUS_ONE)
    ):
        return []
    weak, shorthand = [], []
    if action.step in GUESSES:
        weak.append(GUESSES[action.step])
    elif action.step in SHORTHANDS:
        shorthand.append(SHORTHANDS[action.step])
    if action.doubt:
        (weak if action.doubt == "learned alias" else shorthand).append(action.doubt)
    if any(f.seat == action.voter and "account renamed" in f.reason for f in votal.flags):
        weak.append(f"an account the game file does not list ({action.author})")
    if any(f.reason.startswith(f"edited post {action.post}:") for f in votal.flags):
        weak.append("an edited post")
    late = sorted(
        {
            a.voter or a.author
            for a in votal.actions
            if a.action == "vote" and a.why_not == WhyNot.DAY_OVER and a.post > action.post
        }
    )
    short = count_after_hammer(votal, game, counts)
    if short is not None:
        weak.append(short)
    if len(late) >= PLAY_WENT_ON:
        weak.append(
            f"{len(late)} players voted after it as if the day went on ({', '.join(late[:4])}"
            f"{', ...' if len(late) > 4 else ''})"
        )
    if not weak and not shorthand:
        return []
    wagon = action.target or "No Lynch"
    reading = "; ".join(dict.fromkeys(weak or shorthand))
    return [
        Doubt(
            action.post,
            DOUBTFUL_DECISION if weak else NOTE,
            action.target,
            f"the vote that decided the day, {action.voter}'s {action.text!r} for {wagon}, was read "
            f"through {reading}" + (": check it before closing the day" if weak else ""),
        )
    ]


def count_after_hammer(
    votal: Votal, game: Game, counts: Mapping[int, PostedCount], end_post: int | None = None
) -> str | None:
    """The moderator's own count posted after the hammer Votal counts (before ``end_post``, else
    the day's declared end) with the hammered wagon short of a majority, in words: the moderator
    did not see that hammer. None when no such count stands."""
    outcome = votal.outcome
    if outcome is None or outcome.post is None or outcome.target is None or votal.majority is None:
        return None
    declared = game.day(votal.day)
    end = end_post if end_post is not None else declared.end_post if declared is not None else None
    seat = next((s for s in game.players if s.name == outcome.target), None)
    names = {fold_name(n) for n in (*seat.accounts, *seat.aliases)} if seat is not None else set()
    for post in sorted(n for n in counts if outcome.post < n and (end is None or n < end)):
        # a final count shows the wagon at the majority; a count whose wagon was not read says nothing
        on = [w.votes for w in counts[post].wagons if fold_name(w.target) in names]
        if on and max(on) < votal.majority:
            return (
                f"the moderator's count at post {post} has {outcome.target} at "
                f"{show_votes(max(on))} of {votal.majority}"
            )
    return None


# -- the moderator's own word
# --------------------------------------------------------------------------------


def _moderator_disagrees(votal: Votal, game: Game, ruleset: Ruleset) -> list[Doubt]:
    """The moderator's latest count before Votal's decision (or now), where it places a voter
    otherwise on the wagon that decides (or leads) and that voter has not voted since: one of the
    two readings is wrong about that wagon. A number alive the count states otherwise is a doubt
    when that number's majority would decide the day otherwise, else a note (a count's number is
    often its own slip)."""
    checks: Sequence[Disagreement | AliveDisagreement] = votal.count_checks
    if not checks:
        return []
    decided = (
        votal.outcome.post if votal.outcome is not None and votal.outcome.post is not None else None
    )
    before = [c for c in checks if decided is None or c.post <= decided]
    if not before:
        return []
    latest = max(c.post for c in before)
    outcome = votal.outcome
    at_stake = (
        {outcome.target}
        if outcome is not None and outcome.target
        else ({votal.wagons[0].target} if votal.wagons else set())
    )
    acted = {
        a.voter
        for a in votal.actions
        if a.counted and a.post >= latest and (decided is None or a.post <= decided)
    }
    found = []
    for check in before:
        if check.post != latest:
            continue
        if isinstance(check, AliveDisagreement):
            found.append(_alive_differs(check, votal, game, ruleset, decided))
            continue
        posted = "not voting" if check.posted is None else check.posted
        ours = "not voting" if check.ours is None else check.ours
        why = f"the moderator's count has {check.voter} on {posted}, Votal read {ours}"
        matters = (check.posted in at_stake or check.ours in at_stake) and check.voter not in acted
        found.append(Doubt(check.post, MODERATOR_DISAGREES if matters else NOTE, check.posted, why))
    return found


def _lynch_not_recorded(votal: Votal, game: Game) -> list[Doubt]:
    """The game file has moved past the day (its end and the next day recorded) without recording
    the death of the seat Votal's count lynched: the moderator's announcements and Votal's count
    disagree about the lynch (a hammer the moderator did not count, posted after the deadline or
    refused, or a vote misread; else the file lacks the death). Only once the next day is recorded:
    between ``votal day end`` and ``votal kill`` the file is merely behind."""
    declared = game.day(votal.day)
    if declared is None or declared.end_post is None or game.day(votal.day + 1) is None:
        return []
    if votal.as_of_post is None or votal.as_of_post < declared.end_post:
        return []  # the day has not ended as of this count
    dead = {
        d.player for d in game.deaths if d.phase == PhaseKind.DAY and d.phase_number == votal.day
    }
    return [
        Doubt(
            o.post,
            MODERATOR_DISAGREES,
            o.target,
            f"the game file records day {votal.day}'s end at post {declared.end_post} with no death of {o.target}, "
            f"but Votal's count lynches {o.target}"
            + (f" at post {o.post}" if o.post is not None else "")
            + ": check whether the moderator counted that hammer (a deadline, a refused vote, a misread one)",
        )
        for o in (*votal.lynches, votal.outcome)
        if o is not None
        and o.kind == Kind.ELIMINATION
        and o.target is not None
        and o.target not in dead
    ]


def _alive_differs(
    check: AliveDisagreement, votal: Votal, game: Game, ruleset: Ruleset, decided: int | None
) -> Doubt:
    """A count stating fewer alive than the game file (a death the file may lack): a doubt when,
    with that number's majority, a wagon standing from the count's post on would have a majority
    Votal's does not reach. Chosen on half A: a count stating more alive than the file (an old
    number, a slip) sat on 4 days decided right there and on no day decided wrong, so it stays a
    note."""
    said = (
        f"the moderator's count says {check.posted_alive} alive, the game file gives {check.alive}"
    )
    note = Doubt(check.post, NOTE, None, said)
    if not ruleset.ends_at_majority or check.posted_alive < 1:
        return note
    theirs, ours = ruleset.majority_for(check.posted_alive), ruleset.majority_for(check.alive)
    if theirs >= ours:
        return note
    weights = {s.name: float(s.vote_weight) for s in game.players}
    state: dict[str, tuple[str | None, ...]] = {}
    changes = sorted(votal.changes, key=lambda c: c.post)
    points = sorted({check.post, *(c.post for c in changes if c.post >= check.post)})
    index = 0
    for post in points:
        if decided is not None and post > decided:
            break
        while index < len(changes) and changes[index].post <= post:
            state[changes[index].voter] = tuple(t for t, _ in changes[index].votes)
            index += 1
        living = alive_seats(game, votal.day, at_post=post)
        votes: dict[str, float] = {}
        for voter, targets in state.items():
            for target in targets:
                if voter in living and target is not None and target in living:
                    votes[target] = votes.get(target, 0.0) + weights.get(voter, 1.0)
        over = sorted((t for t, v in votes.items() if theirs <= v < ours), key=lambda t: -votes[t])
        if over:
            return Doubt(
                post,
                MODERATOR_DISAGREES,
                over[0],
                f"{said} (count at post {check.post}): with {check.posted_alive} alive, {over[0]} has "
                f"a majority at post {post} ({show_votes(votes[over[0]])} of {theirs}): a death may be "
                "missing from the game file",
            )
    return note


def _votes_on_the_dead(votal: Votal, game: Game, ruleset: Ruleset) -> list[Doubt]:
    """Players whose votes stand on a seat the game file has dead: the file's death of that seat may
    be wrong (a death misread, or dated too early). A doubt when those votes would be that seat's
    majority were it alive, or when the day ended in no lynch with two players' last votes on it."""
    if not ruleset.ends_at_majority:
        return []
    outcome = votal.outcome
    decided = outcome.post if outcome is not None else None
    weights = {s.name: float(s.vote_weight) for s in game.players}
    on_dead: dict[str, str] = {}  # a seat -> the dead seat its last vote names
    for action in votal.actions:
        if decided is not None and action.post > decided:
            break
        if action.voter is None:
            continue
        if action.counted or action.action == "unvote":
            on_dead.pop(action.voter, None)
            continue
        if action.action != "vote" or action.why_not != WhyNot.TARGET_DEAD or not action.target:
            continue
        on_dead[action.voter] = dead = action.target
        living = {*alive_seats(game, votal.day, at_post=action.post), dead}
        voters = [v for v, t in on_dead.items() if t == dead and v in living]
        votes, majority = (
            sum(weights.get(v, 1.0) for v in voters),
            ruleset.majority_for(len(living)),
        )
        if votes >= majority:
            said = f"{show_votes(votes)} of {majority} at post {action.post}"
            return [_dead_voted(action.post, POSSIBLE_HAMMER, dead, voters, f"alive, {said}")]
    if outcome is None or outcome.kind != Kind.NO_ELIMINATION:
        return []
    standing: dict[str, list[str]] = {}
    for voter, dead in on_dead.items():
        standing.setdefault(dead, []).append(voter)
    dead, voters = max(standing.items(), key=lambda item: len(item[1]), default=("", []))
    if len(voters) < 2:
        return []
    return [
        _dead_voted(outcome.post, UNEXPLAINED_ENDING, dead, voters, "the day ended in no lynch")
    ]


def _dead_voted(
    post: int | None, kind: DoubtKind, dead: str, voters: Sequence[str], then: str
) -> Doubt:
    return Doubt(
        post,
        kind,
        dead,
        f"{', '.join(voters)} vote for {dead}, whom the game file has dead ({then}): check the "
        f"file's death of {dead}",
    )


# -- the day's end
# -------------------------------------------------------------------------------------------


def _one_short(votal: Votal, ruleset: Ruleset) -> Doubt | None:
    """A day ended in no lynch while a wagon stood one vote short of its majority: one death missing
    from the game file (one fewer alive lowers the majority) or one vote Votal missed would have
    made it a lynch, and a moderator checks both before announcing no lynch."""
    outcome = votal.outcome
    if outcome is None or outcome.kind != Kind.NO_ELIMINATION or not ruleset.threshold:
        return None
    if votal.majority is None or not votal.wagons:
        return None
    leader = votal.wagons[0]
    if votal.majority - leader.votes > 1:
        return None
    return Doubt(
        outcome.post,
        UNEXPLAINED_ENDING,
        leader.target,
        f"the day ended in no lynch with {leader.target} one vote short ({show_votes(leader.votes)} "
        f"of {votal.majority}): check the living (a death missing from the game file lowers the "
        f"majority) and the votes Votal did not count",
    )


def _unexplained_ending(votal: Votal, game: Game, ruleset: Ruleset) -> list[Doubt]:
    """The day ended in the game file with no decision under the rules (a ruling is not a rule), or
    the game file records a lynch the count does not give."""
    declared = game.day(votal.day)
    outcome = votal.outcome
    lynched = {o.target for o in votal.lynches} | (
        {outcome.target} if outcome is not None and outcome.kind == Kind.ELIMINATION else set()
    )
    recorded = [
        d.player
        for d in game.deaths
        if d.phase == PhaseKind.DAY
        and d.phase_number == votal.day
        and d.post is None
        and d.player not in lynched
    ]
    lead = ", ".join(f"{w.target} {show_votes(w.votes)}" for w in votal.wagons[:2]) or "no votes"
    if recorded and outcome is not None and outcome.kind == Kind.NO_ELIMINATION:
        # (beside a lynch, a death at no post may be a day kill: only a day with no lynch is held
        # against it)
        return [
            Doubt(
                outcome.post,
                UNEXPLAINED_ENDING,
                recorded[0],
                f"the game file records {' and '.join(recorded)} dead on day {votal.day} at no post (a lynch?); "
                f"Votal's count gives no lynch ({lead}): check for a vote Votal missed or misread",
            )
        ]
    end_post = declared.end_post if declared is not None else None
    if end_post is None or votal.as_of_post is None or votal.as_of_post < end_post:
        return []  # the day has not ended as of this count
    ruled_by_rules = ruleset.decide == Decide.PLURALITY or game.house.deadline_plurality
    if (
        outcome is not None
        and outcome.kind != Kind.PENDING
        and (outcome.reason != Reason.PLURALITY or ruled_by_rules)
    ):
        return []
    if (
        outcome is not None
        and outcome.kind == Kind.PENDING
        and outcome.reason not in (Reason.TIE, Reason.NO_MAJORITY)
    ):
        return []  # a decision the rules give someone (the Judge, a runoff): not unexplained
    if outcome is not None and outcome.reason == Reason.PLURALITY:
        why = (
            f"the day ended at post {end_post} without a majority ({lead}; {votal.majority} needed); "
            f"{outcome.target}'s recorded death is taken as the moderator's ruling: check for a vote Votal missed"
        )
    else:
        why = (
            f"the day ended at post {end_post} with no decision in Votal's count ({lead}; "
            f"{votal.majority} needed): check for a vote Votal missed"
        )
    return [Doubt(end_post, UNEXPLAINED_ENDING, outcome.target if outcome else None, why)]
