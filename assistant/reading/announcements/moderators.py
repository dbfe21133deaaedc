"""The game's moderators: the opening post's author, co-moderators it names, and posters who do the
moderator's business (phase changes, vote counts) without being named."""

from __future__ import annotations

import re
from collections.abc import Sequence

from assistant.reading.announcements.accounts import Names
from assistant.reading.announcements.facts import Cite, PostLike
from assistant.reading.announcements.phase_words import BARE, NOW, Wording, first_phase_word
from assistant.reading.announcements.text import (
    clean_name,
    name_like,
    plain_text,
    read_lines,
    squash,
    trim,
)

# "Mod: Alder", "Co-Mods - Birch and Cedar", "Hosted by Alder"; a title without a separator ("Mod
# thread", "Moderator Information") names nobody
_MOD_LINE = re.compile(
    r"^\W*(?:(?:co-?\s*mod(?:erator)?s?|mod(?:erator)?s?|(?:co-?)?hosts?)\b\s*(?:\([^)]*\))?\s*"
    r"(?::|-|–|—|\bby\b|\bis\b|\bare\b)|(?:hosted|run|modded|moderated)\s+by\b)\s*(?P<names>.+)$",
    re.IGNORECASE,
)
_NOT_MOD_LINE = re.compile(
    r"\b(backup|reviewer|review|setup|design|thanks|special|flavou?r|art)\b", re.IGNORECASE
)
# "Moderated by Alder and reviewed by Birch, Cedar": the names after such words are not moderators
_NOT_MOD_NAME = re.compile(
    r"\b(?:review|back-?\s?up|setup|design|thank|special|flavou?r|art)\w*\b", re.IGNORECASE
)


def read_moderators(opening: PostLike) -> tuple[tuple[str, ...], Cite | None]:
    mods = [opening.author]
    cite = None
    for line in read_lines(opening.body_html):
        plain = plain_text(line)
        match = _MOD_LINE.match(plain)
        if not match or _NOT_MOD_LINE.search(plain.split(":")[0] if ":" in plain else plain):
            continue
        names = [
            n
            for n in (clean_name(x) for x in re.split(r",|&|\band\b|/|\+", match.group("names")))
            if n
        ]
        names = names[
            : next((i for i, n in enumerate(names) if _NOT_MOD_NAME.search(n)), len(names))
        ]
        names = [n for n in names if name_like(n) and len(n.split()) <= 3]
        if not names or len(names) > 4:
            continue
        for name in names:
            if name.casefold() not in (m.casefold() for m in mods):
                mods.append(name)
        cite = cite or Cite(opening.number, trim(line))
    return tuple(mods), cite


def read_helpers(
    posts: Sequence[PostLike], mod_keys: set[str], seats: dict[str, list[str]]
) -> tuple[list[str], Cite | None]:
    """Accounts outside the player list that post the moderator's business (phase changes, vote
    counts) more than once: a co-moderator or vote counter the opening post does not name. An
    account that votes for a listed player is playing, not moderating (a replacement the list does
    not name yet, keeping its own tally), whatever else it posts."""
    found = helpers_cited(posts, mod_keys, seats)
    helpers = list(found)
    return helpers, (found[helpers[0]][0] if helpers else None)


def helpers_cited(
    posts: Sequence[PostLike], mod_keys: set[str], seats: dict[str, list[str]]
) -> dict[str, list[Cite]]:
    """:func:`read_helpers`, each helper with the posts that show it doing the moderator's business
    (its first two, at least), in the order the thread shows them."""
    players = {squash(a) for accounts in seats.values() for a in accounts}
    seen: dict[str, list[Cite]] = {}
    for post in posts:
        if post.author.casefold() in mod_keys or squash(post.author) in players:
            continue
        for line in read_lines(post.body_html):
            plain = plain_text(line)
            phase_talk = first_phase_word(plain, (*NOW, Wording.SHORT, *BARE))
            if phase_talk or re.match(r"\W*(?:official\s+)?vote\s*count\b", plain, re.IGNORECASE):
                seen.setdefault(post.author, []).append(Cite(post.number, trim(line)))
                break
    helpers = [author for author, cites in seen.items() if len(cites) >= 2]
    if helpers:
        voting = _voting_for_players(posts, set(helpers), seats)
        helpers = [h for h in helpers if h not in voting]
    return {h: seen[h] for h in helpers}


def _voting_for_players(
    posts: Sequence[PostLike], authors: set[str], seats: dict[str, list[str]]
) -> set[str]:
    """Those of ``authors`` who cast a bold vote naming a listed seat."""
    from parsers.commands import extract_commands

    names = Names(seats)
    voting: set[str] = set()
    for post in posts:
        if post.author not in authors or post.author in voting:
            continue
        if any(
            c.action == "vote"
            and c.bold
            and c.target
            and (names.seat(c.target) or names.nickname(c.target))
            for c in extract_commands(post.body_html)
        ):
            voting.add(post.author)
    return voting
