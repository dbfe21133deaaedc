"""Who wrote a post: the seat a forum account holds.

(Moved out of :mod:`assistant.names`, which keeps resolving the names players type.)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable

from assistant.game import Game

_AUTHOR_FUZZY_MIN = 0.8
_FUZZY_MARGIN = 0.1
_RENAMED_MIN_POSTS = 5


class AuthorIndex:
    """The seat each account posts for, from the game file's accounts and the thread's authors."""

    def __init__(
        self,
        game: Game,
        authors: Iterable[str] = (),
        *,
        fold: Callable[[str], str],
        words: Callable[[str], list[str]],
    ):
        self._fold, self._words = fold, words
        self.seats = tuple(s.name for s in game.players)
        self._author_seat: dict[str, str] = {}
        self._names: list[tuple[str, str, str, tuple[str, ...]]] = []  # (folded, kind, owner, words)
        for seat in game.players:
            for account in seat.accounts:
                self._author_seat.setdefault(fold(account), seat.name)
                self._author_seat.setdefault(account.casefold(), seat.name)
                self._names.append((fold(account), "seat", seat.name, tuple(words(account))))
        seat_folds = {n[0] for n in self._names}
        for moderator in game.moderators:
            if fold(moderator) not in seat_folds:
                self._names.append((fold(moderator), "moderator", moderator, tuple(words(moderator))))
        self._guessed: dict[str, tuple[str | None, str | None]] = {}
        self._guess_renamed(list(authors), {m.casefold() for m in game.moderators})

    def seat_of(self, author: str) -> str | None:
        return self.match(author)[0]

    def match(self, author: str) -> tuple[str | None, str | None]:
        """(seat, how): how is "account", "similar" or "renamed"; (None, None) for no seat."""
        known = self._author_seat.get(author.casefold()) or self._author_seat.get(self._fold(author))
        if known:
            return known, "account"
        if author not in self._guessed:
            self._guessed[author] = self._similar(author)
        return self._guessed[author]

    def _guess_renamed(self, authors: list[str], moderators: set[str]) -> None:
        if not authors:
            return
        posted: set[str] = set()
        unknown: dict[str, int] = {}
        opener = authors[0]  # the thread's first post is the host's, whatever the account is called now
        for author, count in Counter(authors).items():  # each account once, however often it posted
            if author.casefold() in moderators:
                continue
            seat = self.seat_of(author)
            if seat is not None:
                posted.add(seat)
            elif author != opener:
                unknown[author] = count
        silent = [s for s in self.seats if s not in posted]
        ranked = sorted(unknown.items(), key=lambda item: item[1], reverse=True)
        if len(silent) != 1 or not ranked:
            return
        author, count = ranked[0]
        runner_up = ranked[1][1] if len(ranked) > 1 else 0
        if count >= _RENAMED_MIN_POSTS and count >= 2 * runner_up:
            self._guessed[author] = (silent[0], "renamed")

    def _similar(self, author: str) -> tuple[str | None, str | None]:
        """The seat whose account an unknown author's name plainly is: contained in it, or one or two typos away."""
        folded = self._fold(author)
        if len(folded) < 4:
            return None, None
        names = [n for n in self._names if len(n[0]) >= 4]
        author_words = tuple(self._words(author))
        contained = {
            (kind, owner)
            for name, kind, owner, words in names
            if _is_word_run(folded, words) or _is_word_run(name, author_words)
        }
        if len(contained) == 1:
            kind, owner = next(iter(contained))
            return (owner, "similar") if kind == "seat" else (None, None)
        if contained:
            return None, None
        from rapidfuzz.distance import OSA  # imported when first needed: most counts never reach a guess

        scored: dict[tuple[str, str], float] = {}
        for name, kind, owner, _ in names:
            key = (kind, owner)
            scored[key] = max(scored.get(key, 0.0), OSA.normalized_similarity(folded, name))
        ranked = sorted(scored.items(), key=lambda item: item[1], reverse=True)
        if not ranked or ranked[0][1] < _AUTHOR_FUZZY_MIN:
            return None, None
        if len(ranked) > 1 and ranked[0][1] - ranked[1][1] < _FUZZY_MARGIN:
            return None, None
        (kind, owner), _ = ranked[0]
        return (owner, "similar") if kind == "seat" else (None, None)


def _is_word_run(folded: str, words: tuple[str, ...]) -> bool:
    """``folded`` is whole consecutive words of a name: "haoala" of "Captain Haoala", not "other" of "ScottBrothers"."""
    for i in range(len(words)):
        joined = ""
        for word in words[i:]:
            joined += word
            if joined == folded:
                return True
            if len(joined) >= len(folded):
                break
    return False
