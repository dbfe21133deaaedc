"""Resolving a typed name to a seat, the way a careful moderator reads it.

The steps, in order, each tried before the next and the first unique answer winning: exact, folded
(case, spaces, punctuation, diacritics, lookalike letters), alias, any account of the seat (replacements),
unique prefix, unique substring, acronym (initials, CamelCase or word-prefix pieces such as "SV" or
"ScoBro"), abbreviation (the first letter and later letters in order: "EPM", "acfan"), and edit distance
(typos, a swapped pair of letters) with a clear margin over the runner-up. The sure steps (exact to
prefix, and acronyms) are tried on the whole text and then on its leading words ("Thor because he lied")
before any guess is made. Living seats come first for partial matches, but a name that matches a dead
seat or a non-player (a moderator) is reported as such, never bent onto a living seat. Anything
ambiguous or too far is unresolved, with the reason.

Which seat a post's author holds is :mod:`assistant.identity`'s question; a roster carries its answer.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Any

from assistant.game import Game
from assistant.identity import AuthorIndex

NO_ELIMINATION = "no elimination"  # the owner every no-elimination phrase stands for
DEFAULT_NO_ELIMINATION = ("no lynch", "no elimination", "no exile", "no execution", "sleep", "abstain")
STEPS = ("exact", "folded", "alias", "account", "prefix", "substring", "acronym", "abbreviation", "fuzzy")


@dataclass(frozen=True)
class Resolution:
    """What a typed name means. ``seat`` is None when it does not count; ``reason`` then says why."""

    text: str
    seat: str | None  # the seat's first name
    step: str | None  # which rule resolved it: one of STEPS
    no_elimination: bool = False  # a sleep / no lynch / no elimination vote
    reason: str | None = None  # "unknown name", "ambiguous: A or B", "target is dead", "not a player"
    matched: str | None = None  # the spelling it matched: an account, alias, moderator or no-elimination phrase
    candidates: tuple[str, ...] = ()  # the seats in question when ambiguous, or the dead seat / moderator named
    used: str | None = None  # the part of ``text`` that was read, when trailing words were dropped


# Letters that look alike across scripts, folded to the Latin letter a reader sees.
_LOOKALIKES = str.maketrans(
    {
        "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
        "т": "t", "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s", "ԁ": "d", "ɡ": "g", "ս": "u",
        "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
        "υ": "u", "χ": "x", "ς": "c", "ı": "i", "ł": "l", "ø": "o", "đ": "d", "ð": "d", "þ": "th", "ß": "ss",
        "æ": "ae", "œ": "oe",
    }
)
_NOT_ALNUM = re.compile(r"[\W_]+")
_WORD_SPLIT = re.compile(r"[^\W_]+")
_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+|[^\W\d_]+")

# Pronouns and function words: a name only when a seat is called exactly that, never by a partial match
# ("VOTE: me" is not a vote for "Mephistopheles", "the scum" not one for "TheLonging").
_COMMON_WORDS = frozenset(
    {
        "i", "me", "my", "myself", "self", "you", "your", "yourself", "he", "him", "his", "she", "her", "it", "we",
        "us", "our", "they", "them", "their", "this", "that", "these", "those", "the", "a", "an", "all", "everyone",
        "everybody", "anyone", "anybody", "someone", "somebody", "nobody", "noone", "none", "no", "yes", "who",
        "whoever", "whom", "and", "or", "not",
    }
)
# The game's own words: a name's start ("Kill" for "Killthestory"), but never guessed at from inside a name
# or by likeness ("mafia" is not "WhyMafia" nor "Matias").
_GAME_WORDS = frozenset(
    {
        "mafia", "scum", "scummy", "town", "townie", "wolf", "wolves", "werewolf", "villager", "mod", "host",
        "lynch", "kill", "hammer", "vote", "player", "random",
    }
)

# Distances: how alike a typo must be, and how much closer than the runner-up.
_FUZZY_MIN = 0.72
_FUZZY_MARGIN = 0.1
_MIN_PREFIX = 2
_MIN_SUBSTRING = 3


def fold_name(text: str) -> str:
    """The letters and digits of a name, as a reader compares them: no case, accents, spaces or punctuation."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    return _NOT_ALNUM.sub("", text.casefold().translate(_LOOKALIKES))


def _words(name: str) -> list[str]:
    """A name's words, splitting at spaces, punctuation, CamelCase and digits: "ScottBrothers" -> Scott, Brothers."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(c for c in text if not unicodedata.combining(c)).translate(_LOOKALIKES)
    words: list[str] = []
    for chunk in _WORD_SPLIT.findall(text):
        words.extend(w.casefold() for w in _CAMEL.findall(chunk))
    return words


def _is_acronym(typed: str, words: list[str]) -> bool:
    """``typed`` spells non-empty prefixes of at least two of the name's words, in order from the first."""
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


def _is_abbreviation(typed: str, name: str) -> bool:
    """``typed`` is the name's first letter followed by some of its later letters, in order ("EPM", "acfan")."""
    if len(typed) < 2 or len(typed) >= len(name) or typed[0] != name[0]:
        return False
    position = 1
    for char in typed[1:]:
        position = name.find(char, position) + 1
        if position == 0:
            return False
    return True


_SOUNDS = (("ph", "f"), ("ck", "k"), ("gh", "g"), ("kh", "k"), ("th", "t"), ("wh", "w"), ("y", "i"), ("z", "s"))
_DOUBLE = re.compile(r"(.)\1+")


def _sound(folded: str) -> str:
    """A rough spoken form of a folded name: common spellings of one sound made one, doubled letters single."""
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


def _extends_first_word(typed: str, entry: _Entry) -> bool:
    first = entry.words[0] if entry.words else ""
    return len(first) >= 4 and len(typed) > len(first) and typed.startswith(first)


@dataclass(frozen=True)
class _Entry:
    """One name a target may be typed as, and what it stands for."""

    spelling: str
    folded: str
    owner: str  # the seat's name, the moderator's name, or the no-elimination phrase
    kind: str  # "seat", "moderator", "no_elimination"
    source: str  # "name", "alias", "account"
    words: tuple[str, ...] = ()


@dataclass
class Roster:
    """The names of one game, folded once: seats with their accounts and aliases, moderators, no-elimination words."""

    seats: tuple[str, ...]
    entries: tuple[_Entry, ...]
    authors: AuthorIndex = field(repr=False)  # who a post's author is: assistant.identity
    _cache: dict[tuple[str, frozenset[str]], Resolution] = field(default_factory=dict, repr=False)

    @classmethod
    def from_game(
        cls,
        game: Game,
        no_elimination: Iterable[str] | Any = (),
        *,
        authors: Iterable[str | tuple[str, str | None]] = (),
    ) -> Roster:
        """The roster of ``game``; ``no_elimination`` is the ruleset's no-elimination phrases, or the ruleset.

        ``authors``: who wrote each stored post, in thread order, as names or (name, user id) pairs: the forum's
        user ids follow a renamed account (:class:`assistant.identity.AuthorIndex`).
        """
        phrases = _no_elimination_phrases(no_elimination)
        entries: list[_Entry] = []
        for seat in game.players:
            entries.append(_entry(seat.name, seat.name, "seat", "name"))
            for account in seat.replacements:
                entries.append(_entry(account, seat.name, "seat", "account"))
            for alias in seat.aliases:
                entries.append(_entry(alias, seat.name, "seat", "alias"))
        seat_folds = {e.folded for e in entries}
        for moderator in game.moderators:
            if fold_name(moderator) not in seat_folds:
                entries.append(_entry(moderator, moderator, "moderator", "name"))
        for phrase in phrases:
            entries.append(_entry(phrase, NO_ELIMINATION, "no_elimination", "name"))
        return cls(
            tuple(s.name for s in game.players),
            tuple(e for e in entries if e.folded),
            AuthorIndex(game, authors),
        )

    def seat_of_author(self, author: str) -> str | None:
        """The seat an account posts for, or None (see :mod:`assistant.identity`)."""
        return self.authors.seat_of(author)

    def author_match(
        self, author: str, author_id: str | None = None, number: int | None = None
    ) -> tuple[str | None, str | None]:
        """(seat, how) for a post's author (see :meth:`assistant.identity.AuthorIndex.match`)."""
        return self.authors.match(author, author_id, number)

    def resolve(self, text: str, alive: Collection[str]) -> Resolution:
        key = (text, alive if isinstance(alive, frozenset) else frozenset(alive))
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = _resolve(text, self, key[1])
        return found


def _no_elimination_phrases(source: Iterable[str] | Any) -> tuple[str, ...]:
    """Phrases from a tuple of words, or from a ruleset (its words, else its label plus the usual ones)."""
    if isinstance(source, str):
        return (source,)
    if hasattr(source, "name") and not isinstance(source, Iterable):
        if not getattr(source, "no_elimination_vote", True):
            return ()
        words = getattr(source, "no_elimination_words", None)
        if words:
            return tuple(words)
        label = getattr(source, "no_elimination_label", None)
        return tuple(dict.fromkeys(([label] if label else []) + list(DEFAULT_NO_ELIMINATION)))
    return tuple(source)


def _entry(spelling: str, owner: str, kind: str, source: str) -> _Entry:
    return _Entry(spelling, fold_name(spelling), owner, kind, source, tuple(_words(spelling)))


def resolve_name(text: str, roster: Roster, *, alive: Collection[str]) -> Resolution:
    """What the typed ``text`` names, among the seats of ``roster`` (``alive``: the seats alive now)."""
    return roster.resolve(text, alive)


_STRIP = " \t\n@:;,.!?\"'`()[]{}<>*~|=-\u2013\u2014\u201c\u201d\u2018\u2019"
# Left-over BBCode ("[/vote]", "[/]") and asides in brackets ("Me=Weird (L-1)", "m[afia]td").
_LEFTOVER_TAG = re.compile(r"\[/?[a-z]*\]?$|\[/?[a-z]*\]", re.IGNORECASE)
_ASIDE = re.compile(r"\([^()]*\)|\[[^\[\]]*\]|\{[^{}]*\}")
# "VOTE: lynch Bob", "vote for Bob", "vote to eliminate Bob": words before the name, not part of it.
_LEAD_IN = re.compile(
    r"^(?:(?:to|for|on|at)\s+)?(?:lynch|eliminate|elim|execute|kill|exile|hang)\s+(?=\S)", re.IGNORECASE
)
_POSSESSIVE = re.compile(r"['\u2019]s$", re.IGNORECASE)


def _resolve(text: str, roster: Roster, alive: frozenset[str]) -> Resolution:
    cleaned = _ASIDE.sub(" ", _LEFTOVER_TAG.sub(" ", text))
    cleaned = _POSSESSIVE.sub("", " ".join(cleaned.split()).strip(_STRIP)).strip(_STRIP)
    if not fold_name(cleaned):
        return Resolution(text, None, None, reason="no name given")
    # "VOTE: Thor because he lied": the whole text, then its leading words, longest first, are read by
    # the sure steps before any guess is made about the whole.
    lead_in = _LEAD_IN.match(cleaned)
    if lead_in and not _resolve_whole(text, cleaned, roster, alive, loose=False).no_elimination:
        cleaned = cleaned[lead_in.end() :]
    words = cleaned.split()
    parts = [cleaned]
    for n in range(min(len(words) - 1, 4), 0, -1):
        part = _POSSESSIVE.sub("", " ".join(words[:n]).strip(_STRIP)).strip(_STRIP)
        if len(fold_name(part)) >= 2 and fold_name(part) not in _COMMON_WORDS and part not in parts:
            parts.append(part)
    for i, part in enumerate(parts):
        found = _resolve_whole(text, part, roster, alive, loose=False, min_prefix=_MIN_PREFIX if i == 0 else 3)
        if found.reason != "unknown name":
            return found if i == 0 else _replace_used(found, part)
    found = _resolve_whole(text, cleaned, roster, alive, loose=True)
    if found.reason == "unknown name" and len(parts) > 1:
        first = _resolve_whole(text, parts[-1], roster, alive, loose=True)
        if first.reason != "unknown name":
            return _replace_used(first, parts[-1])
    return found


def _replace_used(found: Resolution, part: str) -> Resolution:
    return Resolution(found.text, found.seat, found.step, found.no_elimination, found.reason, found.matched,
                      found.candidates, part)


def _answer(text: str, step: str, entries: list[_Entry], alive: frozenset[str]) -> Resolution | None:
    """The answer of one step from the entries it matched, or None to go on to the next step."""
    owners = {(e.kind, e.owner): e for e in entries}
    if not owners:
        return None
    living = {k: e for k, e in owners.items() if k[0] == "seat" and k[1] in alive}
    others = {k: e for k, e in owners.items() if k not in living}
    strong = step in ("exact", "folded", "alias", "account")
    if len(owners) == 1 or (not strong and len(living) == 1):
        (kind, owner), entry = next(iter(living.items())) if living else next(iter(owners.items()))
        return _meaning(text, step, kind, owner, entry, alive)
    if strong and len(living) == 1 and all(k[0] == "seat" for k in others):
        (kind, owner), entry = next(iter(living.items()))
        return _meaning(text, step, kind, owner, entry, alive)
    pool = living if len(living) > 1 else owners
    names = sorted(owner for _, owner in pool)
    return Resolution(text, None, step, reason="ambiguous: " + " or ".join(names), candidates=tuple(names))


def _meaning(text: str, step: str, kind: str, owner: str, entry: _Entry, alive: frozenset[str]) -> Resolution:
    if kind == "no_elimination":
        return Resolution(text, None, step, no_elimination=True, matched=entry.spelling)
    if kind == "moderator":
        return Resolution(text, None, step, reason="not a player", matched=entry.spelling, candidates=(owner,))
    if owner not in alive:
        return Resolution(text, None, step, reason="target is dead", matched=entry.spelling, candidates=(owner,))
    return Resolution(text, owner, step, matched=entry.spelling)


def _resolve_whole(
    text: str, typed: str, roster: Roster, alive: frozenset[str], *, loose: bool, min_prefix: int = _MIN_PREFIX
) -> Resolution:
    """One reading of ``typed``; ``loose`` allows the guessing steps (substring, abbreviation, fuzzy)."""
    entries = roster.entries
    folded = fold_name(typed)
    casefolded = typed.casefold()
    steps: list[tuple[str, list[_Entry]]] = [
        ("exact", [e for e in entries if e.spelling == typed or e.spelling.casefold() == casefolded]),
        ("folded", [e for e in entries if e.folded == folded and e.source == "name"]),
        ("alias", [e for e in entries if e.folded == folded and e.source == "alias"]),
        ("account", [e for e in entries if e.folded == folded and e.source == "account"]),
    ]
    for step, matched in steps:
        found = _answer(text, step, matched, alive)
        if found is not None:
            return found
    if folded in _COMMON_WORDS:
        return Resolution(text, None, None, reason="unknown name")  # "VOTE: me": no guessing at a pronoun
    names = [e for e in entries if e.kind != "no_elimination"]
    if len(folded) >= min_prefix:
        found = _answer(text, "prefix", [e for e in names if e.folded.startswith(folded)], alive)
        if found is not None:
            return found
    elif len(folded) == 1 and loose:
        # One letter names someone only when no other name of the game, living or dead, starts with it.
        starting = [e for e in names if e.folded.startswith(folded)]
        if len({(e.kind, e.owner) for e in starting}) == 1:
            return _answer(text, "prefix", starting, alive)
    if not loose:
        if len(folded) >= _MIN_PREFIX:
            found = _answer(text, "acronym", [e for e in entries if _is_acronym(folded, list(e.words))], alive)
            if found is not None:
                return found
        return Resolution(text, None, None, reason="unknown name")
    if folded in _GAME_WORDS:
        found = _answer(text, "acronym", [e for e in entries if _is_acronym(folded, list(e.words))], alive)
        return found or Resolution(text, None, None, reason="unknown name")
    if len(folded) >= _MIN_SUBSTRING:
        found = _answer(text, "substring", [e for e in names if folded in e.folded], alive)
        if found is not None:
            return found
    if len(folded) >= _MIN_PREFIX:
        found = _answer(text, "acronym", [e for e in entries if _is_acronym(folded, list(e.words))], alive)
        if found is not None:
            return found
        found = _answer(text, "abbreviation", [e for e in names if _is_abbreviation(folded, e.folded)], alive)
        if found is not None:
            return found
        # "Wandererererer": the typed word starts with a whole first word of a name.
        found = _answer(text, "prefix", [e for e in names if _extends_first_word(folded, e)], alive)
        if found is not None:
            return found
    if len(folded) >= 3:
        found = _fuzzy(text, folded, entries, alive)
        if found is not None:
            return found
    return Resolution(text, None, None, reason="unknown name")


def _fuzzy(text: str, folded: str, entries: tuple[_Entry, ...], alive: frozenset[str]) -> Resolution | None:
    from rapidfuzz import fuzz  # imported when first needed: most counts never reach a guess
    from rapidfuzz.distance import OSA

    best: dict[tuple[str, str], tuple[float, _Entry]] = {}
    for entry in entries:
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
        if len(folded) >= 3 and _swapped_pair(folded, entry.folded[: len(folded)]):
            score = max(score, _FUZZY_MIN + _FUZZY_MARGIN)  # "Zed" for "Zdenek": two letters swapped
        key = (entry.kind, entry.owner)
        if key not in best or score > best[key][0]:
            best[key] = (score, entry)
    ranked = sorted(best.items(), key=lambda item: item[1][0], reverse=True)
    if not ranked or ranked[0][1][0] < _FUZZY_MIN:
        return None
    (kind, owner), (score, entry) = ranked[0]
    if len(ranked) > 1 and score - ranked[1][1][0] < _FUZZY_MARGIN:
        names = sorted(o for (_, o), (s, _) in ranked if score - s < _FUZZY_MARGIN)
        return Resolution(text, None, "fuzzy", reason="ambiguous: " + " or ".join(names), candidates=tuple(names))
    return _meaning(text, "fuzzy", kind, owner, entry, alive)
