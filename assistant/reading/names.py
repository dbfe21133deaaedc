"""Resolving a typed name to a seat, the way a careful moderator reads it.

The steps, in order, each tried before the next and the first unique answer winning: exact, folded
(case, spaces, punctuation, diacritics, lookalike letters), alias, any account of the seat
(replacements), then partial names ranked the way people shorten names: whole word parts of a name
("Crayons", "Thor" for "Thor665"; word parts split at spaces, capitals, underscores and digits) and
initials ("SV", "ScoBro"; a leading "The" may be skipped), then the start of a name (three letters
or more; two only when no other name starts so), then scattered letters: a substring, an
abbreviation ("EPM", "acfan"), and edit distance with transpositions on the whole name, on each word
part and on its start or end, letters shuffled inside a name ("Hikrai"), a pet form of a name part
("Frosty" for "Tfrost22"), digits read as the letters they stand for ("Moonbe" for "M00nbeam"), word
parts in another order ("KettleCopper"), a syllable said over and over ("lalalalaland"), with a
clear margin over the runner-up. Pronouns never name anyone by a partial match; function words and
the game's own words only as a whole word part or the start of exactly one name ("town" for
"Very_Town"). "badger/Quill" names a seat when both are its names; two seats in one vote ("Ann or
Bob", "Ann / Bob") are no vote. The sure steps are tried on the whole text and then on its leading
words ("Thor because he lied") before any guess is made. Living seats come first for partial
matches, but a name that matches a dead seat or a non-player (a moderator) is reported as such,
never bent onto a living seat. Anything ambiguous or too far is unresolved, with the reason.

Which seat a post's author holds is :mod:`assistant.reading.identity`'s question; a roster carries
its answer.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from functools import lru_cache
from itertools import permutations
from typing import Protocol

from assistant.gamefile.game import Game
from assistant.gamefile.outcome import WhyNot
from assistant.gamefile.rules import Ruleset
from assistant.reading.identity import AuthorIndex

NO_ELIMINATION = "no elimination"  # the owner every no-elimination phrase stands for
DEFAULT_NO_ELIMINATION = (
    "no lynch",
    "no elimination",
    "no exile",
    "no execution",
    "sleep",
    "abstain",
    "pass",
)


class Step(StrEnum):
    """Which rule read a typed name, in the order they are tried (the value is what JSON shows)."""

    EXACT = "exact"
    FOLDED = "folded"
    ALIAS = "alias"
    ACCOUNT = "account"
    LEARNED = "learned"
    WORD = "word"
    ACRONYM = "acronym"
    PREFIX = "prefix"
    SUBSTRING = "substring"
    ABBREVIATION = "abbreviation"
    FUZZY = "fuzzy"
    # not a reading: a nomination the moderator recorded (clocktower's [[events]] nominate)
    DECLARED = "declared"


@dataclass(frozen=True)
class Resolution:
    """What a typed name means. ``seat`` is None when it does not count; ``reason`` then says
    why."""

    text: str
    seat: str | None  # the seat's first name
    step: Step | None  # which rule resolved it
    no_elimination: bool = False  # a sleep / no lynch / no elimination vote
    reason: str | None = (
        None  # "unknown name", "ambiguous: A or B", "target is dead", "not a player"
    )
    matched: str | None = (
        None  # the spelling it matched: an account, alias, moderator or no-elimination phrase
    )
    candidates: tuple[
        str, ...
    ] = ()  # the seats in question when ambiguous, or the dead seat / moderator named
    used: str | None = None  # the part of ``text`` that was read, when trailing words were dropped


# Letters that look alike across scripts, folded to the Latin letter a reader sees.
_LOOKALIKES = str.maketrans(
    {
        "а": "a",
        "в": "b",
        "е": "e",
        "ё": "e",
        "к": "k",
        "м": "m",
        "н": "h",
        "о": "o",
        "р": "p",
        "с": "c",
        "т": "t",
        "у": "y",
        "х": "x",
        "і": "i",
        "ј": "j",
        "ѕ": "s",
        "ԁ": "d",
        "ɡ": "g",
        "ս": "u",
        "α": "a",
        "β": "b",
        "ε": "e",
        "η": "n",
        "ι": "i",
        "κ": "k",
        "ν": "v",
        "ο": "o",
        "ρ": "p",
        "τ": "t",
        "υ": "u",
        "χ": "x",
        "ς": "c",
        "ı": "i",
        "ł": "l",
        "ø": "o",
        "đ": "d",
        "ð": "d",
        "þ": "th",
        "ß": "ss",
        "æ": "ae",
        "œ": "oe",
    }
)
_NOT_ALNUM = re.compile(r"[\W_]+")
_WORD_SPLIT = re.compile(r"[^\W_]+")
_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+|[^\W\d_]+")

# Words that point at a person from where the speaker stands: a name only when a seat is called
# exactly that ("VOTE: me" is a self-vote, never one for "Me=Weird" or "Mephistopheles").
_PERSONAL_WORDS = frozenset(
    {
        "i",
        "me",
        "my",
        "myself",
        "self",
        "you",
        "your",
        "yourself",
        "he",
        "him",
        "his",
        "she",
        "her",
        "it",
        "we",
        "us",
        "our",
        "they",
        "them",
        "their",
    }
)
# Function words and the game's own words: a name only when they are a whole word of one seat's name
# or the start of exactly one name ("town" for "Very_Town", "Kill" for "Killthestory", "not" for
# "NotScience"), never guessed at from inside a word or by likeness ("mafia" is not "Matias").
_COMMON_WORDS = frozenset(
    {
        "this",
        "that",
        "these",
        "those",
        "the",
        "a",
        "an",
        "all",
        "everyone",
        "everybody",
        "anyone",
        "anybody",
        "someone",
        "somebody",
        "nobody",
        "noone",
        "none",
        "no",
        "yes",
        "who",
        "whoever",
        "whom",
        "and",
        "or",
        "not",
    }
)
_GAME_WORDS = frozenset(
    {
        "mafia",
        "scum",
        "scummy",
        "town",
        "townie",
        "wolf",
        "wolves",
        "werewolf",
        "villager",
        "mod",
        "host",
        "lynch",
        "kill",
        "hammer",
        "vote",
        "player",
        "random",
    }
)

# Distances: how alike a typo must be, and how much closer than the runner-up.
_FUZZY_MIN = 0.72
_FUZZY_MARGIN = 0.1
_MIN_PREFIX = 3  # two letters alone name a seat only when no other name starts with them
_MIN_SUBSTRING = 3


def fold_name(text: str) -> str:
    """The letters and digits of a name, as a reader compares them: no case, accents, spaces or
    punctuation."""
    return _folded(text) if len(text) <= _REMEMBERED_NAME else _fold(text)


_REMEMBERED_NAME = (
    64  # names are folded again and again (every author, every typed target); long text is not kept
)


@lru_cache(maxsize=8192)
def _folded(text: str) -> str:
    return _fold(text)


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    return _NOT_ALNUM.sub("", text.casefold().translate(_LOOKALIKES))


def _words(name: str) -> list[str]:
    """A name's words, splitting at spaces, punctuation, CamelCase and digits: "ScottBrothers" ->
    Scott, Brothers."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(c for c in text if not unicodedata.combining(c)).translate(_LOOKALIKES)
    words: list[str] = []
    for chunk in _WORD_SPLIT.findall(text):
        words.extend(w.casefold() for w in _CAMEL.findall(chunk))
    return words


def _is_acronym(typed: str, words: list[str] | tuple[str, ...]) -> bool:
    """``typed`` spells non-empty prefixes of at least two of the name's words, in order from the
    first ("SV", "ScoBro"); a leading "The" may be skipped ("WIE" for "TheWayItEnds")."""
    if len(words) > 2 and words[0] == "the" and _spells_word_prefixes(typed, words[1:]):
        return True
    return _spells_word_prefixes(typed, words)


def _spells_word_prefixes(typed: str, words: list[str] | tuple[str, ...]) -> bool:
    if len(words) < 2 or not typed:
        return False
    reachable = {0}  # positions in ``typed`` reached after using words[0..i]
    for i, word in enumerate(words):
        nxt = set()
        for pos in reachable:
            for length in range(1, len(word) + 1):
                if typed.startswith(word[:length], pos):
                    nxt.add(pos + length)
                else:
                    break
        if i >= 1 and len(typed) in nxt:
            return True
        if not nxt:
            return False
        reachable = nxt
    return False


def _word_run_rank(folded: str, words: tuple[str, ...]) -> int | None:
    """Where ``folded`` is whole consecutive words of a name: 0 at its start (after a leading
    "The"), 1 further in ("Bulge" of "The Bulge" is 0, "Crayons" of "Green Crayons" 1), None when it
    is not."""
    for i in range(len(words)):
        joined = ""
        for word in words[i:]:
            joined += word
            if joined == folded:
                return 0 if i == 0 or (i == 1 and words[0] == "the") else 1
            if len(joined) >= len(folded):
                break
    return None


def _is_abbreviation(typed: str, name: str) -> bool:
    """``typed`` is the name's first letter followed by some of its later letters, in order ("EPM",
    "acfan")."""
    if len(typed) < 2 or len(typed) >= len(name) or typed[0] != name[0]:
        return False
    position = 1
    for char in typed[1:]:
        position = name.find(char, position) + 1
        if position == 0:
            return False
    return True


_SOUNDS = (
    ("ph", "f"),
    ("ck", "k"),
    ("gh", "g"),
    ("kh", "k"),
    ("th", "t"),
    ("wh", "w"),
    ("y", "i"),
    ("z", "s"),
)
_DOUBLE = re.compile(r"(.)\1+")


def _sound(folded: str) -> str:
    """A rough spoken form of a folded name: common spellings of one sound made one, doubled letters
    single."""
    for spelling, sound in _SOUNDS:
        folded = folded.replace(spelling, sound)
    return _DOUBLE.sub(r"\1", folded)


def _swapped_pair(typed: str, start: str) -> bool:
    """``typed`` is ``start`` with one pair of neighbouring letters swapped."""
    if len(typed) != len(start) or typed == start:
        return False
    diff = [i for i, (a, b) in enumerate(zip(typed, start, strict=True)) if a != b]
    if len(diff) != 2 or diff[1] != diff[0] + 1:
        return False
    return typed[diff[0]] == start[diff[1]] and typed[diff[1]] == start[diff[0]]


def _extends_first_word(typed: str, entry: _Spelling) -> bool:
    first = entry.words[0] if entry.words else ""
    return len(first) >= 4 and len(typed) > len(first) and typed.startswith(first)


class SpellingOf(Enum):
    """What a spelling on the roster stands for."""

    SEAT = "seat"
    MODERATOR = "moderator"
    NO_ELIMINATION = "no_elimination"


class SpellingSource(Enum):
    """Where a seat's spelling comes from: the steps that read a whole name tell them apart."""

    NAME = "name"
    ALIAS = "alias"
    ACCOUNT = "account"


@dataclass(frozen=True)
class _Spelling:
    """One name a target may be typed as, and what it stands for."""

    spelling: str
    folded: str
    owner: str  # the seat's name, the moderator's name, or the no-elimination phrase
    kind: SpellingOf
    source: SpellingSource
    words: tuple[str, ...] = ()


@dataclass
class Roster:
    """The names of one game, folded once: seats with their accounts and aliases, moderators,
    no-elimination words."""

    seats: tuple[str, ...]
    entries: tuple[_Spelling, ...]
    authors: AuthorIndex = field(repr=False)  # who a post's author is: assistant.reading.identity
    # Spellings a moderator's posted count taught (assistant.counting.votecounts): folded text ->
    # (seat, from post).
    learned: dict[str, tuple[str, int]] = field(default_factory=dict)
    _cache: dict[tuple[str, frozenset[str]], Resolution] = field(default_factory=dict, repr=False)

    @classmethod
    def from_game(
        cls,
        game: Game,
        no_elimination: Iterable[str] | Ruleset = (),
        *,
        authors: Iterable[str | tuple[str, str | None]] | Mapping[tuple[str, str | None], int] = (),
    ) -> Roster:
        """The roster of ``game``; ``no_elimination`` is the ruleset's no-elimination phrases, or
        the ruleset.

        ``authors``: who wrote each stored post, in thread order, as names or (name, user id) pairs,
        or those pairs counted (a mapping to posts): the forum's user ids follow a renamed account
        (:class:`assistant.reading.identity.AuthorIndex`).
        """
        phrases = _no_elimination_phrases(no_elimination)
        entries: list[_Spelling] = []
        for seat in game.players:
            entries.append(_entry(seat.name, seat.name, SpellingOf.SEAT, SpellingSource.NAME))
            for account in seat.replacements:
                entries.append(_entry(account, seat.name, SpellingOf.SEAT, SpellingSource.ACCOUNT))
            for alias in seat.aliases:
                entries.append(_entry(alias, seat.name, SpellingOf.SEAT, SpellingSource.ALIAS))
        seat_folds = {e.folded for e in entries}
        for moderator in game.moderators:
            if fold_name(moderator) not in seat_folds:
                entries.append(
                    _entry(moderator, moderator, SpellingOf.MODERATOR, SpellingSource.NAME)
                )
        for phrase in phrases:
            entries.append(
                _entry(phrase, NO_ELIMINATION, SpellingOf.NO_ELIMINATION, SpellingSource.NAME)
            )
        return cls(
            tuple(s.name for s in game.players),
            tuple(e for e in entries if e.folded),
            AuthorIndex(game, authors),
        )

    def author_match(
        self, author: str, author_id: str | None = None, number: int | None = None
    ) -> tuple[str | None, str | None]:
        """(seat, how) for a post's author (see
        :meth:`assistant.reading.identity.AuthorIndex.match`)."""
        return self.authors.match(author, author_id, number)

    def resolve(
        self, text: str, alive: Collection[str], *, at_post: int | None = None
    ) -> Resolution:
        """What ``text`` names; ``at_post``: the post it is read at, from which learned spellings
        count."""
        key = (text, alive if isinstance(alive, frozenset) else frozenset(alive))
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = _resolve(text, self, key[1])
        if self.learned and found.step not in _SURE_STEPS:
            taught = self.learned.get(fold_name(text))
            if taught is not None and at_post is not None and at_post >= taught[1]:
                seat = taught[0]
                if seat not in key[1]:
                    return Resolution(
                        text,
                        None,
                        Step.LEARNED,
                        reason=WhyNot.TARGET_DEAD,
                        matched=text,
                        candidates=(seat,),
                    )
                return Resolution(text, seat, Step.LEARNED, matched=text)
        return found

    def learn(self, text: str, seat: str, from_post: int) -> None:
        """Read ``text`` as ``seat`` from ``from_post`` on, where no whole name says otherwise; the
        first count to teach a spelling keeps it."""
        self.learned.setdefault(fold_name(text), (seat, from_post))


def _no_elimination_phrases(source: Iterable[str] | Ruleset) -> tuple[str, ...]:
    """Phrases from a tuple of words, or from a ruleset (its words, else its label plus the usual
    ones). A ruleset without a no-elimination vote keeps its words too: "vote no lynch" is then
    refused, never read as a name."""
    if isinstance(source, str):
        return (source,)
    if isinstance(source, Ruleset):
        words = source.no_elimination_words
        if words:
            return tuple(words)
        label = source.no_elimination_label
        return tuple(dict.fromkeys(([label] if label else []) + list(DEFAULT_NO_ELIMINATION)))
    return tuple(source)


def _entry(spelling: str, owner: str, kind: SpellingOf, source: SpellingSource) -> _Spelling:
    return _Spelling(spelling, fold_name(spelling), owner, kind, source, tuple(_words(spelling)))


class Resolver(Protocol):
    """How a typed name is read: :func:`resolve_name`, or an exact reading the golden tests pin."""

    def __call__(
        self, text: str, roster: Roster, *, alive: Collection[str], at_post: int | None = None
    ) -> Resolution: ...


def resolve_name(
    text: str, roster: Roster, *, alive: Collection[str], at_post: int | None = None
) -> Resolution:
    """What the typed ``text`` names, among the seats of ``roster`` (``alive``: the seats alive now;
    ``at_post``: the post it is read at, for spellings learned from a moderator's count)."""
    return roster.resolve(text, alive, at_post=at_post)


def fits_seat(text: str, seat: str, roster: Roster) -> bool:
    """Whether ``text`` names ``seat`` when read against that seat's own names alone, by any step (a
    guess too): a short name may fit two players, and the moderator's count then says which."""
    own = tuple(e for e in roster.entries if e.kind is SpellingOf.SEAT and e.owner == seat)
    alone = Roster((seat,), own, roster.authors)
    return _resolve(text, alone, frozenset({seat})).seat == seat


# How a reason begins when the name itself could not be read: it may mean any seat.
NAME_NOT_READ = (
    WhyNot.UNKNOWN_NAME,
    WhyNot.AMBIGUOUS,
    WhyNot.SEVERAL_TARGETS,
    WhyNot.CUT_OFF_NAME,
)

# The steps that read part of a name, or a name like it: guesses a moderator's count may settle.
GUESSED_STEPS = frozenset(
    {Step.WORD, Step.ACRONYM, Step.PREFIX, Step.SUBSTRING, Step.ABBREVIATION, Step.FUZZY}
)

_STRIP = " \t\n@:;,.!?\"'`()[]{}<>*~|=-\u2013\u2014\u201c\u201d\u2018\u2019"
# Left-over BBCode ("[/vote]", "[/]") and asides in brackets ("Me=Weird (L-1)", "m[afia]td").
_LEFTOVER_TAG = re.compile(r"\[/?[a-z]*\]?$|\[/?[a-z]*\]", re.IGNORECASE)
_ASIDE = re.compile(r"\([^()]*\)|\[[^\[\]]*\]|\{[^{}]*\}")
# "VOTE: lynch Bob", "vote for Bob", "vote to eliminate Bob": words before the name, not part of it.
_LEAD_IN = re.compile(
    r"^(?:(?:to|for|on|at)\s+)?(?:lynch|eliminate|elim|execute|kill|exile|hang|hammer)(?:\s*[:\-]\s*|\s+)(?=\S)",
    re.IGNORECASE,
)
_CUT_MARK = "\u2026"  # the command reader's mark for a name broken off on purpose ("Mi--")
_SURE_STEPS = frozenset({Step.EXACT, Step.FOLDED, Step.ALIAS, Step.ACCOUNT})  # a whole name
_POSSESSIVE = re.compile(r"['\u2019]s$", re.IGNORECASE)
# "X's slot", "X's replacement": the seat X plays or played.
_SEAT_WORD = re.compile(r"(?:['\u2019]s)?\s+(?:slot|seat|replacement)$", re.IGNORECASE)
# "badger/Quill" (two accounts of one seat), "Ann or Bob" (two seats: no vote).
_ALTERNATIVES = re.compile(r"\s*[/\\]\s*|\s+or\s+", re.IGNORECASE)


def _resolve(text: str, roster: Roster, alive: frozenset[str]) -> Resolution:
    if text.endswith(_CUT_MARK):
        # "VOTE: Mi--" teases a name without typing it; "Vote Back......" trails off after enough of
        # it
        stem = text[: -len(_CUT_MARK)]
        found = _resolve_whole(
            text, stem.strip(_STRIP), roster, alive, loose=False, min_prefix=_MIN_PREFIX
        )
        if found.reason == WhyNot.UNKNOWN_NAME or (
            found.step not in _SURE_STEPS and len(fold_name(stem)) < _MIN_PREFIX
        ):
            return Resolution(text, None, None, reason=WhyNot.CUT_OFF_NAME)
        return found
    cleaned = _ASIDE.sub(" ", _LEFTOVER_TAG.sub(" ", text))
    cleaned = _POSSESSIVE.sub("", " ".join(cleaned.split()).strip(_STRIP)).strip(_STRIP)
    if not fold_name(cleaned):
        cleaned = " ".join(text.split()).strip(
            _STRIP
        )  # "[Q]": the brackets are the name's punctuation
        if not fold_name(cleaned):
            return Resolution(text, None, None, reason=WhyNot.NO_NAME_GIVEN)
    cleaned = _POSSESSIVE.sub("", _SEAT_WORD.sub("", cleaned)).strip(_STRIP) or cleaned
    # "VOTE: Thor because he lied": the whole text, then its leading words, longest first, are read
    # by the sure steps before any guess is made about the whole.
    lead_in = _LEAD_IN.match(cleaned)
    if lead_in and not _resolve_whole(text, cleaned, roster, alive, loose=False).no_elimination:
        cleaned = cleaned[lead_in.end() :]
    found = _resolve_whole(text, cleaned, roster, alive, loose=False)
    if found.reason != WhyNot.UNKNOWN_NAME:
        return found
    alternatives = _resolve_alternatives(text, cleaned, roster, alive)
    if alternatives is not None:
        return alternatives
    words = cleaned.split()
    parts = []
    for n in range(min(len(words) - 1, 4), 0, -1):
        part = _POSSESSIVE.sub("", " ".join(words[:n]).strip(_STRIP)).strip(_STRIP)
        if len(fold_name(part)) >= 2 and fold_name(part) not in _COMMON_WORDS and part not in parts:
            parts.append(part)
    for part in parts:
        found = _resolve_whole(text, part, roster, alive, loose=False, min_prefix=3)
        if found.reason != WhyNot.UNKNOWN_NAME:
            return _replace_used(found, part)
    found = _resolve_whole(text, cleaned, roster, alive, loose=True)
    if found.reason == WhyNot.UNKNOWN_NAME and parts:
        first = _resolve_whole(text, parts[-1], roster, alive, loose=True)
        if first.reason != WhyNot.UNKNOWN_NAME:
            return _replace_used(first, parts[-1])
    return found


def _resolve_alternatives(
    text: str, cleaned: str, roster: Roster, alive: frozenset[str]
) -> Resolution | None:
    """ "badger/Quill": names that all mean one seat name it; two or more seats ("Ann or Bob", "Ann
    / Bob") are no vote. None when the text is not such a list, or a slash joins one known name to
    unknown ones is read as that name."""
    pieces = [p.strip(_STRIP) for p in _ALTERNATIVES.split(cleaned)]
    if len(pieces) < 2 or not all(fold_name(p) for p in pieces):
        return None
    readings = [(piece, _resolve(piece, roster, alive)) for piece in pieces]
    named: dict[str, tuple[str, Resolution]] = {}
    for piece, reading in readings:
        if (seat := _named(reading)) is not None:
            named[seat] = (piece, reading)
    if len(named) > 1:
        names = tuple(sorted(NO_ELIMINATION if n == _NO_ELIMINATION_KEY else n for n in named))
        return Resolution(
            text,
            None,
            None,
            reason=f"{WhyNot.SEVERAL_TARGETS}: " + " or ".join(names),
            candidates=names,
        )
    slash = "/" in cleaned or "\\" in cleaned
    if len(named) == 1 and (slash or len(readings) == 1):
        piece, found = next(iter(named.values()))
        return _replace_used(found, piece) if found.used is None else found
    return None


_NO_ELIMINATION_KEY = "\x00no elimination"


def _named(found: Resolution) -> str | None:
    """The seat a reading names, living or dead, or a key for no elimination; None for nothing
    known."""
    if found.no_elimination:
        return _NO_ELIMINATION_KEY
    if found.seat is not None:
        return found.seat
    if found.reason == WhyNot.TARGET_DEAD and found.candidates:
        return found.candidates[0]
    return None


def _replace_used(found: Resolution, part: str) -> Resolution:
    return Resolution(
        found.text,
        found.seat,
        found.step,
        found.no_elimination,
        found.reason,
        found.matched,
        found.candidates,
        part,
    )


def _answer(
    text: str, step: Step, entries: list[_Spelling], alive: frozenset[str]
) -> Resolution | None:
    """The answer of one step from the entries it matched, or None to go on to the next step."""
    owners = {(e.kind, e.owner): e for e in entries}
    if not owners:
        return None
    living = {k: e for k, e in owners.items() if k[0] is SpellingOf.SEAT and k[1] in alive}
    others = {k: e for k, e in owners.items() if k not in living}
    strong = step in _SURE_STEPS
    if len(owners) == 1 or (not strong and len(living) == 1):
        (kind, owner), entry = next(iter(living.items())) if living else next(iter(owners.items()))
        return _meaning(text, step, kind, owner, entry, alive)
    if strong and len(living) == 1 and all(k[0] is SpellingOf.SEAT for k in others):
        (kind, owner), entry = next(iter(living.items()))
        return _meaning(text, step, kind, owner, entry, alive)
    pool = living if len(living) > 1 else owners
    names = sorted(owner for _, owner in pool)
    return Resolution(
        text,
        None,
        step,
        reason=f"{WhyNot.AMBIGUOUS}: " + " or ".join(names),
        candidates=tuple(names),
    )


def _meaning(
    text: str, step: Step, kind: SpellingOf, owner: str, entry: _Spelling, alive: frozenset[str]
) -> Resolution:
    if kind is SpellingOf.NO_ELIMINATION:
        return Resolution(text, None, step, no_elimination=True, matched=entry.spelling)
    if kind is SpellingOf.MODERATOR:
        return Resolution(
            text,
            None,
            step,
            reason=WhyNot.NOT_A_PLAYER,
            matched=entry.spelling,
            candidates=(owner,),
        )
    if owner not in alive:
        return Resolution(
            text, None, step, reason=WhyNot.TARGET_DEAD, matched=entry.spelling, candidates=(owner,)
        )
    return Resolution(text, owner, step, matched=entry.spelling)


def _resolve_whole(
    text: str,
    typed: str,
    roster: Roster,
    alive: frozenset[str],
    *,
    loose: bool,
    min_prefix: int = 2,
) -> Resolution:
    """One reading of ``typed``; ``loose`` allows the guessing steps (short prefixes, substring,
    abbreviation, fuzzy).

    Partial names rank the way people shorten names: whole words of a name and initials first
    ("Bulge", "SV"), then the start of a name ("Thor" for "Thor665"), then scattered letters
    ("EPM"); two letters alone name a seat only when no other name of the game starts with them.
    """
    entries = roster.entries
    folded = fold_name(typed)
    found = _spelled_answer(text, typed, folded, entries, alive)
    if found is not None:
        return found
    unknown = Resolution(text, None, None, reason=WhyNot.UNKNOWN_NAME)
    if folded in _PERSONAL_WORDS:
        return unknown  # "VOTE: me": no guessing at a pronoun
    names = [e for e in entries if e.kind is not SpellingOf.NO_ELIMINATION]
    found = _ranked_answer(
        text, Step.WORD, [(_word_run_rank(folded, e.words), e) for e in names], alive
    )
    if found is not None:
        return found
    if folded in _COMMON_WORDS or folded in _GAME_WORDS:
        return _only_start(text, folded, names, alive) or unknown
    found = _shortened_answer(text, folded, entries, names, alive, min_prefix)
    if found is not None or not loose:
        return found or unknown
    return _guessed_answer(text, folded, entries, names, alive) or unknown


def _spelled_answer(
    text: str, typed: str, folded: str, entries: tuple[_Spelling, ...], alive: frozenset[str]
) -> Resolution | None:
    """The answer when ``typed`` spells a name, alias or account whole (case and marks aside)."""
    casefolded = typed.casefold()
    steps: list[tuple[Step, list[_Spelling]]] = [
        (
            Step.EXACT,
            [e for e in entries if e.spelling == typed or e.spelling.casefold() == casefolded],
        ),
        (
            Step.FOLDED,
            [e for e in entries if e.folded == folded and e.source is SpellingSource.NAME],
        ),
        (
            Step.ALIAS,
            [e for e in entries if e.folded == folded and e.source is SpellingSource.ALIAS],
        ),
        (
            Step.ACCOUNT,
            [e for e in entries if e.folded == folded and e.source is SpellingSource.ACCOUNT],
        ),
    ]
    for step, matched in steps:
        found = _answer(text, step, matched, alive)
        if found is not None:
            return found
    return None


def _shortened_answer(
    text: str,
    folded: str,
    entries: tuple[_Spelling, ...],
    names: list[_Spelling],
    alive: frozenset[str],
    min_prefix: int,
) -> Resolution | None:
    """The answer when ``folded`` is a name's initials or its start."""
    if len(folded) >= 2:
        found = _answer(
            text, Step.ACRONYM, [e for e in entries if _is_acronym(folded, e.words)], alive
        )
        if found is not None:
            return found
    if len(folded) >= max(min_prefix, _MIN_PREFIX):
        return _answer(text, Step.PREFIX, [e for e in names if e.folded.startswith(folded)], alive)
    if len(folded) == 2 and min_prefix <= 2:
        return _only_start(text, folded, names, alive)
    return None


def _guessed_answer(
    text: str,
    folded: str,
    entries: tuple[_Spelling, ...],
    names: list[_Spelling],
    alive: frozenset[str],
) -> Resolution | None:
    """The answer of the guessing steps: one letter, a piece of a name, scattered letters, a name
    drawn out, a typo."""
    if len(folded) == 1:
        return _only_start(text, folded, names, alive)
    if len(folded) >= _MIN_SUBSTRING:
        found = _answer(text, Step.SUBSTRING, [e for e in names if folded in e.folded], alive)
        if found is not None:
            return found
    # Scattered letters ("EPM", "TS"); two letters that merely start a name were weighed above.
    scattered = [
        e
        for e in names
        if _is_abbreviation(folded, e.folded)
        and not (len(folded) == 2 and e.folded.startswith(folded))
    ]
    found = _answer(text, Step.ABBREVIATION, scattered, alive)
    if found is not None:
        return found
    # "Wandererererer": the typed word starts with a whole first word of a name.
    found = _answer(text, Step.PREFIX, [e for e in names if _extends_first_word(folded, e)], alive)
    if found is not None:
        return found
    if len(folded) >= 3:
        return _fuzzy(text, folded, entries, alive)
    return None


def _ranked_answer(
    text: str, step: Step, ranked: list[tuple[int | None, _Spelling]], alive: frozenset[str]
) -> Resolution | None:
    """The answer from the best-ranked matches only (rank None: no match)."""
    ranks = [rank for rank, _ in ranked if rank is not None]
    if not ranks:
        return None
    best = min(ranks)
    return _answer(text, step, [e for rank, e in ranked if rank == best], alive)


def _only_start(
    text: str, folded: str, names: list[_Spelling], alive: frozenset[str]
) -> Resolution | None:
    """The one seat whose name starts with ``folded``, when no other name of the game, living or
    dead, does."""
    starting = [e for e in names if e.folded.startswith(folded)]
    if len({(e.kind, e.owner) for e in starting}) != 1:
        return None
    return _answer(text, Step.PREFIX, starting, alive)


# Digits that stand for letters in a name ("M00nbeam" is "Moonbeam"), and syllables said over and
# over.
_LEET = str.maketrans(
    {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g"}
)
_REPEATED = re.compile(r"(.{1,3}?)\1+")


def _squeeze(folded: str) -> str:
    return _REPEATED.sub(r"\1", folded)


# "-y", "-ie", "-ey" added to a part of a name make a pet form of it ("Frosty", "Chilly").
_PET_FORM = re.compile(r"(?:ie|ey|y)$")


def _scrambled(typed: str, part: str) -> bool:
    """``typed`` holds the letters of ``part`` in another order, first letter kept: what a quick
    reader still takes for the name ("Hikrai" for "Hiraki")."""
    return (
        len(typed) == len(part)
        and typed[0] == part[0]
        and typed != part
        and sorted(typed) == sorted(part)
    )


def _fuzzy(
    text: str, folded: str, entries: tuple[_Spelling, ...], alive: frozenset[str]
) -> Resolution | None:
    best: dict[tuple[SpellingOf, str], tuple[float, _Spelling]] = {}
    for entry in entries:
        score = _typo_similarity(folded, entry)
        if _is_variant(folded, entry):
            score = max(score, _FUZZY_MIN + _FUZZY_MARGIN)
        key = (entry.kind, entry.owner)
        if key not in best or score > best[key][0]:
            best[key] = (score, entry)
    ranked = sorted(best.items(), key=lambda item: item[1][0], reverse=True)
    if not ranked or ranked[0][1][0] < _FUZZY_MIN:
        return None
    (kind, owner), (score, entry) = ranked[0]
    if len(ranked) > 1 and score - ranked[1][1][0] < _FUZZY_MARGIN:
        names = sorted(o for (_, o), (s, _) in ranked if score - s < _FUZZY_MARGIN)
        return Resolution(
            text,
            None,
            Step.FUZZY,
            reason=f"{WhyNot.AMBIGUOUS}: " + " or ".join(names),
            candidates=tuple(names),
        )
    return _meaning(text, Step.FUZZY, kind, owner, entry, alive)


def _typo_similarity(folded: str, entry: _Spelling) -> float:
    """How near ``folded`` comes to the name, taken whole or by the part people mistype (its start,
    a word, its end, its sound), each part's nearness lessened by how much guessing it takes."""
    from rapidfuzz import fuzz  # imported when first needed: most counts never reach a guess
    from rapidfuzz.distance import OSA

    score = OSA.normalized_similarity(folded, entry.folded)
    if len(folded) >= 4 and len(entry.folded) > len(folded):
        # a typo in a short form: compare with the name's start ("Thro" for "Thor665")
        start = OSA.normalized_similarity(folded, entry.folded[: len(folded)])
        score = max(score, start - 0.05)
    if len(folded) >= 6 and len(entry.folded) > len(folded):
        # a typo in a part of the name ("Gorilla" for "Evilgorrilaz")
        score = max(score, fuzz.partial_ratio(folded, entry.folded) / 100 - 0.12)
    if len(folded) >= 4:
        # spelt as it sounds: "Stephan" for "StefanB", "Jonny" for "Johnny"
        sound = _sound(folded)
        score = max(score, OSA.normalized_similarity(sound, _sound(entry.folded)) - 0.05)
    if len(folded) >= 4:
        # a typo in one word of the name ("Cerebus" for "Cerberus48", "Crayon" for "Green
        # Crayons")
        for word in entry.words:
            if len(word) >= 4 and abs(len(word) - len(folded)) <= 2:
                score = max(score, OSA.normalized_similarity(folded, word))
    if len(folded) >= 5 and len(entry.folded) > len(folded) and folded[-1] == entry.folded[-1]:
        # the name's end, which people shorten to as often as its start, with a letter more or
        # less ("Frittz" for "Lucafritz"); a letter changed would make another word ("Ethos" is
        # not "Method")
        ends = (entry.folded[-n:] for n in (len(folded) - 1, len(folded) + 1))
        score = max(score, max(OSA.normalized_similarity(folded, end) for end in ends) - 0.05)
    squeezed = _squeeze(folded)
    if squeezed != folded or _squeeze(entry.folded) != entry.folded:
        # a syllable said over and over: "lalalalaladucks" for "Lalaladucks"
        score = max(score, OSA.normalized_similarity(squeezed, _squeeze(entry.folded)) - 0.05)
    return score


def _is_variant(folded: str, entry: _Spelling) -> bool:
    """``folded`` is the name changed in a way people change names on purpose or by a slip of the
    fingers, which counts as a sure enough fuzzy match."""
    if len(folded) >= 3 and _swapped_pair(folded, entry.folded[: len(folded)]):
        return True  # "Zed" for "Zdenek": two letters swapped
    if len(folded) >= 5 and folded[::-1] in entry.folded:
        return True  # spelt backwards: "Nomis" for "Simon4"
    if len(folded) >= 5 and any(_scrambled(folded, part) for part in (entry.folded, *entry.words)):
        return True  # letters shuffled inside: "Hikrai" for "Hiraki"
    stem = _PET_FORM.sub("", folded)
    if (
        len(stem) >= 4
        and stem != folded
        and stem in entry.folded
        and 2 * len(stem) >= len(entry.folded)
    ):
        # most of the name, made a pet form ("Kitty" is no pet form of "Malakittens")
        return True  # "Frosty" for "Tfrost22"
    leet = entry.folded.translate(_LEET)
    if leet != entry.folded and len(folded) >= 4 and (leet.startswith(folded) or leet == folded):
        return True  # digits read as letters: "Moonbe" for "M00nbeam"
    # its word parts in another order: "KettleCopper"
    return 2 <= len(entry.words) <= 3 and any(
        "".join(order) == folded
        for order in permutations(entry.words)
        if list(order) != list(entry.words)
    )
