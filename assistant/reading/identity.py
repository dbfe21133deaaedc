"""Who wrote a post: the seat a forum account holds, matched exactly, with look-alike accounts
reported.

A post counts for a seat only when its author is one of that seat's accounts: the same forum user id
where the page gives one, else the same account name after Unicode NFC normalisation, which joins
only different encodings of one text and never two accounts ("alice", "A_lice", "Alice2", "Сarol"
with a Cyrillic С, or a name holding a zero-width or bidirectional character are all other
accounts). An account whose Unicode TR39 skeleton equals a listed account's (a look-alike) is never
counted and is reported as a problem; an unlisted account that merely resembles one ("Alice2") is
reported too, so the moderator can add it to the game file.

User ids are learnt from the thread: an account of the game file that posts under its exact name
binds its user id to the seat, so the same user id under a new name (a renamed account) keeps the
seat and is reported. A listed name that two user ids post under is counted for neither until the
moderator decides, unless only one of them posts under the name exactly as listed: that id is the
seat's, and another one posting under the name in another letter case is a look-alike, reported,
never counted. Fuzzy matching belongs to the names players type (:mod:`assistant.reading.names`),
never to who wrote a post.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache

from assistant.gamefile.game import Game

_RESEMBLES_MIN = (
    0.8  # how alike an unlisted account's name must be to a listed one to be worth a report
)
_MIN_RESEMBLING = 4
_RENAMED_MIN_POSTS = 5
_NOT_ALNUM = re.compile(r"[\W_]+")


def normal_name(name: str) -> str:
    """An account name as shown: NFC, with the spaces a page puts around it dropped."""
    return unicodedata.normalize("NFC", name).strip()


def account_key(name: str) -> str:
    """An account name as compared: NFC and caseless. The forum engines we read (phpBB, XenForo,
    vBulletin, Discourse, ProBoards) refuse a second account that differs only in letter case, so
    "cloudocean" is the account "Cloudocean"; any other difference (a look-alike character, an
    invisible one) is another account."""
    return normal_name(name).casefold()


# TR39's prototypes for the ASCII characters that have one (as the library folds them): an ASCII
# name's skeleton without loading the library, which costs a `votal count` more than the rest of
# identity.
_ASCII_PROTOTYPES = str.maketrans({"0": "o", "1": "l", "I": "l", "|": "l", '"': "''", "`": "'"})


@cache
def skeleton(name: str) -> str:
    """The name's Unicode TR39 skeleton (confusable prototypes, caseless, invisible characters
    dropped)."""
    if name.isascii() and name.isprintable():
        return " ".join(name.translate(_ASCII_PROTOTYPES).lower().split())
    from disarm import skeleton_key  # imported when first needed: most names are ASCII

    return skeleton_key(name, digit_policy="tr39")


def _loose(name: str) -> str:
    """Letters and digits only, caseless: for reporting a resemblance, never for counting."""
    text = unicodedata.normalize("NFKD", name)
    return _NOT_ALNUM.sub("", "".join(c for c in text if not unicodedata.combining(c)).casefold())


@dataclass(frozen=True)
class Account:
    """One account of a seat; ``from_post`` is where a replacement takes the seat over (None: from
    the start)."""

    name: str
    seat: str
    from_post: int | None = None
    until_post: int | None = None  # the post where the next account takes over (exclusive)


def seat_accounts(game: Game) -> list[Account]:
    """Every account of every seat, in the game file's order, with the posts each holds the seat
    for."""
    found: list[Account] = []
    for seat in game.players:
        posts = seat.replacement_posts or (None,) * len(seat.replacements)
        spans = [(seat.name, None), *zip(seat.replacements, posts, strict=True)]
        for i, (name, start) in enumerate(spans):
            until = next((later for _, later in spans[i + 1 :] if later is not None), None)
            found.append(Account(normal_name(name), seat.name, start, until))
    return found


class AuthorIndex:
    """The seat each author posts for, from the game file's accounts and who posted in the thread.

    ``authors``: who wrote each stored post, in thread order, as names or (name, user id) pairs; or
    those pairs already counted, a mapping (name, user id) -> posts in the order each first posted.
    """

    def __init__(self, game: Game, authors: Iterable[str | tuple[str, str | None]] = ()):
        self.seats = tuple(s.name for s in game.players)
        self._seats = {s.name: s for s in game.players}
        self.accounts = seat_accounts(game)
        self._by_name: dict[str, list[Account]] = {}
        for account in self.accounts:
            self._by_name.setdefault(account_key(account.name), []).append(account)
        self._moderators = {account_key(m): m for m in game.moderators}
        # skeleton -> (listed name, whose: seat or "moderator X")
        self._known: dict[str, tuple[str, str]] = {}
        for account in self.accounts:
            self._known.setdefault(skeleton(account.name), (account.name, f"seat {account.seat}"))
        for shown in self._moderators.values():
            self._known.setdefault(skeleton(shown), (shown, f"moderator {shown}"))
        # names below are account keys (caseless), but ``_counts``: posts by each name as the thread
        # shows it
        self._seat_of_id: dict[str, str] = {}  # user id -> the listed account it posts as
        # listed account -> the user ids posting under it
        self._conflicts: dict[str, tuple[str, ...]] = {}
        # account a bound user id posts under -> its listed account
        self._renamed: dict[str, str] = {}
        # listed account -> {user id: (name as shown, posts)}: other accounts posting under it in
        # another letter case
        self._case_impostors: dict[str, dict[str, tuple[str, int]]] = {}
        self._counts: Counter[str] = Counter()
        self._display: dict[str, str] = {}  # account key -> the name as the thread first shows it
        # counted by the caller: a count's snapshot holds every post already
        if isinstance(authors, Mapping):
            self._learn(authors)
        else:
            self._learn(Counter((a, None) if isinstance(a, str) else a for a in authors))
        self._bound = frozenset(self._seat_of_id.values())  # listed names a user id posts as
        self._verdicts: dict[str, tuple[str | None, str | None]] = {}
        # Each post's author is matched by every replay that reads it (a count as of each of 100
        # posts replays the day 100 times): the answers, by (author, user id, post).
        self._matches: dict[tuple[str, str | None, int | None], tuple[str | None, str | None]] = {}

    def _learn(self, authors: Mapping[tuple[str, str | None], int]) -> None:
        ids: dict[str, set[str]] = {}
        exact: dict[str, set[str]] = {}  # listed account -> ids posting under its listed spelling
        posts_of: Counter[str] = Counter()  # user id -> posts
        shown_as: dict[str, str] = {}  # user id -> the name it first posts under
        spelled = {a.name for a in self.accounts}
        for (name, user_id), posts in authors.items():  # (author, user id) -> posts: few distinct
            self._counts[normal_name(name)] += posts
            self._display.setdefault(account_key(name), normal_name(name))
            if user_id:
                ids.setdefault(account_key(name), set()).add(user_id)
                posts_of[user_id] += posts
                shown_as.setdefault(user_id, normal_name(name))
                if normal_name(name) in spelled:
                    exact.setdefault(account_key(name), set()).add(user_id)
        for name in self._by_name:
            found = ids.get(name, set())
            own = exact.get(name, set())
            if len(found) > 1 and len(own) == 1:
                # The id posting under the name as listed is the seat's; another id under the name
                # in another letter case is another account (a forum let it register), never it.
                others = sorted(found - own)
                self._case_impostors[name] = {i: (shown_as[i], posts_of[i]) for i in others}
                found = own
            if len(found) == 1:
                self._seat_of_id[next(iter(found))] = name
            elif len(found) > 1:
                self._conflicts[name] = tuple(sorted(found))
        for name, found in ids.items():
            if name in self._by_name or len(found) != 1:
                continue
            listed = self._seat_of_id.get(next(iter(found)))
            if listed is not None:
                self._renamed[name] = listed

    # -- answers
    # -------------------------------------------------------------------------------------------

    def match(
        self, author: str, author_id: str | None = None, number: int | None = None
    ) -> tuple[str | None, str | None]:
        """(seat, how) for a post's author: how is "account" or "renamed"; (None, None) when no
        seat.

        With ``author_id`` the forum's user id decides; with ``number`` an account counts only for
        the posts it holds the seat for (a replacement "from post N").
        """
        key = (author, author_id, number)
        found = self._matches.get(key)
        if found is None:
            found = self._matches[key] = self._match(author, author_id, number)
        return found

    def _match(
        self, author: str, author_id: str | None, number: int | None
    ) -> tuple[str | None, str | None]:
        name = account_key(author)
        if author_id:
            listed = self._seat_of_id.get(author_id)
            if listed is None:
                if name in self._conflicts or name in self._renamed:
                    return None, None  # that name is another user id's, or a disputed one
                if name in self._by_name and self._bound_elsewhere(name):
                    return None, None
                return self._by_listed(name, number, "account")
            return self._by_listed(listed, number, "account" if listed == name else "renamed")
        if name in self._conflicts:
            return None, None
        if name in self._renamed:
            return self._by_listed(self._renamed[name], number, "renamed")
        return self._by_listed(name, number, "account")

    def _bound_elsewhere(self, name: str) -> bool:
        return name in self._bound

    def _by_listed(self, name: str, number: int | None, how: str) -> tuple[str | None, str | None]:
        accounts = self._by_name.get(name)
        if not accounts:
            return None, None
        if len(accounts) == 1:  # most names: one account, asked once a post
            return (
                (accounts[0].seat, how)
                if number is None or _holds(accounts[0], number)
                else (None, None)
            )
        holding = [a for a in accounts if number is None or _holds(a, number)]
        if not holding:
            return None, None
        # An account that took a second seat (after its first died) posts for the seat it joined
        # last.
        return max(holding, key=lambda a: -1 if a.from_post is None else a.from_post).seat, how

    def why_not(self, author: str, author_id: str | None = None, number: int | None = None) -> str:
        """Why a post by ``author`` counts for no seat, in words for the moderator."""
        shown, name = normal_name(author), account_key(author)
        if name in self._conflicts:
            ids = ", ".join(self._conflicts[name])
            return (
                f"two or more forum accounts post as {shown!r} (user ids {ids}): counted for none"
            )
        if name in self._by_name:
            found = self._case_lookalike(name, author_id)
            if found:
                return found
            if (
                author_id
                and self._seat_of_id.get(author_id) is None
                and self._bound_elsewhere(name)
            ):
                return (
                    f"another forum account (user id {author_id}) than the seat's posts as "
                    f"{shown!r}"
                )
            account = self._by_name[name][0]
            if number is not None and not any(_holds(a, number) for a in self._by_name[name]):
                turn = self._seats[account.seat].out_of_turn(account.name, number)
                return (
                    turn or f"account {shown!r} does not hold seat {account.seat} at post {number}"
                )
        if name in self._moderators:
            return "moderator's post"
        found = self.lookalike(shown)
        if found:
            return found
        found = self.resemblance(shown)
        return f"not a player ({found})" if found else "not a player"

    def lookalike(self, author: str, author_id: str | None = None) -> str | None:
        """A report when ``author`` is not a listed account but looks like one (same TR39
        skeleton), or is another forum account (``author_id``) posting under a listed name in
        another letter case."""
        name = normal_name(author)
        if account_key(name) in self._by_name:
            return self._case_lookalike(account_key(name), author_id)
        if account_key(name) in self._moderators:
            return None
        known = self._known.get(skeleton(name))
        if known is None:
            return None
        listed, whose = known
        return (
            f"look-alike account {_shown(name)} is not {whose}'s account {listed!r}: never counted"
        )

    def _case_lookalike(self, name: str, author_id: str | None) -> str | None:
        """The report on a user id posting under listed account ``name`` in another letter case
        while the seat's own id posts under it as listed (None for any other id)."""
        impostors = self._case_impostors.get(name, {})
        if author_id not in impostors:
            return None
        shown = impostors[author_id][0]
        own = next(i for i, listed in self._seat_of_id.items() if listed == name)
        account = self._by_name[name][0]
        return (
            f"look-alike account {_shown(shown)} (user id {author_id}) is not seat "
            f"{account.seat}'s account {account.name!r} (user id {own}): another forum "
            "account, never counted"
        )

    def resemblance(self, author: str) -> str | None:
        """A note when an unlisted author's name resembles a listed account (a typo or a second
        account)."""
        close = self._resembled(author)
        if not close:
            return None
        seats = " or ".join(close)
        return (
            f"{_shown(normal_name(author))} resembles seat {seats} but is not listed in the game "
            "file"
        )

    def _resembled(self, author: str) -> list[str]:
        name = normal_name(author)
        loose = _loose(name)
        if account_key(name) in self._by_name or len(loose) < _MIN_RESEMBLING:
            return []
        from rapidfuzz.distance import OSA  # imported when first needed

        return sorted(
            {
                a.seat
                for a in self.accounts
                if len(_loose(a.name)) >= _MIN_RESEMBLING
                and (
                    _loose(a.name) in loose
                    or loose in _loose(a.name)
                    or OSA.normalized_similarity(loose, _loose(a.name)) >= _RESEMBLES_MIN
                )
            }
        )

    def suggestions(self) -> list[tuple[str, str]]:
        """(account, seat) for each unlisted account of the thread that looks like or resembles one
        seat only: what the moderator is asked to confirm by adding it to that seat's
        replacements."""
        found = []
        for name in self._counts:
            if self._known_account(name):
                continue
            known = self._known.get(skeleton(name))
            seats = (
                [known[1].removeprefix("seat ")] if known and known[1].startswith("seat ") else []
            )
            seats = seats or self._resembled(name)
            if len(seats) == 1:
                found.append((name, seats[0]))
        renamed = self._renamed_guess(dict(found))
        return found + ([renamed] if renamed else [])

    def _renamed_guess(self, suggested: dict[str, str]) -> tuple[str, str] | None:
        """(account, seat) when one seat never posts and one unlisted account posts far more than
        any other: perhaps that seat's account renamed. Only ever a suggestion: an outsider could
        post just as much."""
        # the thread's first post is the host's, whatever its name
        opener = next(iter(self._counts), None)
        unlisted = [
            (count, name)
            for name, count in self._counts.items()
            if not self._known_account(name) and name != opener and name not in suggested
        ]
        silent = [
            seat for seat in self.seats if seat not in self._posted() | set(suggested.values())
        ]
        if len(silent) != 1 or not unlisted:
            return None
        unlisted.sort(reverse=True)
        count, name = unlisted[0]
        runner_up = unlisted[1][0] if len(unlisted) > 1 else 0
        return (name, silent[0]) if count >= _RENAMED_MIN_POSTS and count >= 2 * runner_up else None

    def _known_account(self, name: str) -> bool:
        """Whether a name as the thread shows it is a listed account, a renamed one, or a
        moderator's."""
        key = account_key(name)
        return key in self._by_name or key in self._renamed or key in self._moderators

    def _posted(self) -> set[str]:
        posted = {
            self._by_name[account_key(n)][0].seat
            for n in self._counts
            if account_key(n) in self._by_name
        }
        return posted | {self._by_name[listed][0].seat for listed in self._renamed.values()}

    def findings(self) -> list[tuple[str, str]]:
        """(seat or account, report) for every account of the thread the moderator should hear
        about."""
        found: list[tuple[str, str]] = []
        for name, listed in self._renamed.items():
            seat, listed = self._by_name[listed][0].seat, self._by_name[listed][0].name
            now = _shown(self._display.get(name, name))
            found.append(
                (seat, f"account {listed!r} now posts as {now} (same user id): counted for it")
            )
        for name in self._conflicts:
            found.append((self._by_name[name][0].seat, self.why_not(name)))
        for name, impostors in self._case_impostors.items():
            for user_id, (shown, posts) in impostors.items():
                report = self._case_lookalike(name, user_id)
                found.append((shown, f"{report} ({posts} post{'s' if posts != 1 else ''})"))
        posted = self._posted()
        for name, count in self._counts.items():
            if self._known_account(name):
                continue
            report = self.lookalike(name)
            if report:
                found.append((name, f"{report} ({count} post{'s' if count != 1 else ''})"))
                continue
            report = self.resemblance(name)
            if report:
                found.append(
                    (
                        name,
                        f"{report} ({count} post{'s' if count != 1 else ''}): not counted; "
                        "add it to the seat's replacements if it is the same player",
                    )
                )
        unlisted = [
            f"{_shown(n)} ({c})"
            for n, c in self._counts.most_common()
            if not self._known_account(n)
        ]
        if unlisted:
            shown = ", ".join(unlisted[:5])
            for seat in self.seats:
                if seat not in posted:
                    found.append(
                        (
                            seat,
                            "has not posted under an account the game file lists; unlisted "
                            f"accounts posted: {shown} (a renamed account is added to "
                            "replacements)",
                        )
                    )
        return found


def _holds(account: Account, number: int) -> bool:
    if account.from_post is not None and number < account.from_post:
        return False
    return account.until_post is None or number < account.until_post


def _shown(name: str) -> str:
    """A name for a report, with its invisible and look-alike characters made visible."""
    visible = "".join(
        c
        if c.isascii() and c.isprintable()
        else f"\\u{ord(c):04x}"
        if ord(c) <= 0xFFFF
        else f"\\U{ord(c):08x}"
        for c in name
    )
    return f"'{visible}'"
