"""A name Votal wrote before its account posted, met again once the account posts under its own
spelling.

A live game's file is written as the thread grows: the moderator announces "Brokenscraps replaces
Monk" before the account ``brokenscraps`` has posted, so Votal can only write the moderator's
spelling. The finished thread's reading spells every name the moderator wrote as the account that
posts (:meth:`assistant.reading.announcements.accounts.Names.spelled`: letter case, spacing and
punctuation, a trailing number dropped, one letter off or two swapped in a long name when one poster
alone is that close). :func:`respellings` applies that same matching later, to the names that have
still never posted: a name no post was written under, exactly as written, whose one close poster
holds no other place in the game file, is that poster's account.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from assistant.reading.announcements.accounts import Names
from assistant.reading.announcements.facts import PostLike
from assistant.reading.identity import account_key, normal_name


@dataclass(frozen=True)
class Respelling:
    """``written`` (a name in the game file that has never posted) is the account ``account``, which
    posts from post ``first_post``."""

    written: str
    account: str
    first_post: int


@dataclass(frozen=True)
class Unmatched:
    """``written`` has never posted, and ``account`` posts and is that close, but another name of
    the file is the account already: nothing is renamed (``why`` says so)."""

    written: str
    account: str
    why: str


def respellings(
    names: Iterable[str],
    posts: Sequence[PostLike],
    *,
    moderators: Iterable[str] = (),
    held: Iterable[str] = (),
) -> tuple[list[Respelling], list[Unmatched]]:
    """For each of ``names`` that no post of ``posts`` was written under (exactly as spelled), the
    account that posts and matches it as the finished thread's reading matches a name the moderator
    wrote.

    ``held``: every name the game file holds (seats, replacements), so that a match already placed
    in the file (another player's account, or this seat's under that spelling) is never taken: it is
    returned unmatched. Moderators' accounts are never a match.
    """
    mods = {account_key(m) for m in moderators}
    first: dict[str, int] = {}
    for post in posts:
        first.setdefault(normal_name(post.author), post.number)
    authors = Names({a: [a] for a in first if account_key(a) not in mods})
    held = [normal_name(h) for h in held]
    found: list[Respelling] = []
    unmatched: list[Unmatched] = []
    for name in dict.fromkeys(normal_name(n) for n in names):
        if not name or name in first:
            continue
        account = authors.spelled(name)
        if account == name or account not in first:
            continue  # no poster is that close, or it posts under this very spelling
        others = [h for h in held if h != name and account_key(h) == account_key(account)]
        if others:
            unmatched.append(Unmatched(name, account, f"{others[0]!r} is in the file already"))
            continue
        found.append(Respelling(name, account, first[account]))
    # two names never posted that meet one account: neither is renamed, the moderator decides
    taken = [r.account for r in found]
    twice = {a for a in taken if taken.count(a) > 1}
    unmatched.extend(
        Unmatched(r.written, r.account, "another name of the file is that close to it too")
        for r in found
        if r.account in twice
    )
    return [r for r in found if r.account not in twice], unmatched
