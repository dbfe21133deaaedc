"""How many seats the moderator says the game has ("13 players", "10/13 confirmed", "with 12 alive
it takes 7"), held against the player list read, so a seat the list reading missed or added is said,
never silent."""

from __future__ import annotations

import re
from collections.abc import Sequence

from assistant.reading.announcements.facts import Cite, PostLike
from assistant.reading.announcements.text import NUM, plain_text, read_lines, read_number, trim

# The game's size as moderators state it before the first day ends. "12 alive" is only the size on
# day 1 with nobody dead yet, so it is read only in the posts before the first lynch or kill could
# be told.
_STATED = (
    re.compile(r"\b" + NUM + r"\s+(?:players|player\s+game|seats|slots)\b", re.IGNORECASE),
    re.compile(r"\b\d{1,2}\s*/\s*(\d{1,2})\s+(?:confirm(?:ed|s|ations)?|players)\b", re.IGNORECASE),
    re.compile(
        r"\bconfirm\w*(?:\s+status)?\s*[:\-]?\s*\[?\d{1,2}\s*/\s*(\d{1,2})\b", re.IGNORECASE
    ),
    re.compile(
        r"\bwith\s+" + NUM + r"\s+(?:alive|living|players\s+alive|players)\b", re.IGNORECASE
    ),
)
# "3 players to lynch", "7 players cannot edit", "once 10 players have confirmed", "if 7 players are
# alive": numbers of something else, or a rule's condition
_NOT_SIZE = re.compile(
    r"^\s*(?:to|per|needed|required|minimum|max|maximum|left|more|each|who|that|will|may|can|cannot|can't|must|"
    r"should|are|is|get|need)\b",
    re.IGNORECASE,
)
_CONDITION = re.compile(
    r"\b(?:once|when|if|until|after|least|first|top|than|that|less|fewer|any)\s*$", re.IGNORECASE
)


def stated_seats(
    posts: Sequence[PostLike],
    moderators: set[str],
    *,
    before: int | None = None,
    largest: bool = False,
) -> tuple[int, Cite] | None:
    """The number of seats the moderators first state, in their posts before post ``before`` (day
    1's end); ``largest``: the most they state there (the living only shrink, so a count kept up to
    date above day 1's first one, "With 11 alive" over "With 13 alive", understates the game)."""
    found: tuple[int, Cite] | None = None
    for post in posts:
        if before is not None and post.number >= before:
            break
        if post.author.casefold() not in moderators:
            continue
        for line in read_lines(post.body_html):
            text = plain_text(line)
            for pattern in _STATED:
                for match in pattern.finditer(text):
                    # "9/10 confirmed" names the size whatever the condition; "once 10 players" does
                    # not
                    bare = "/" not in match.group(0)
                    if (
                        _NOT_SIZE.match(text[match.end() :])
                        or bare
                        and _CONDITION.search(text[: match.start()])
                    ):
                        continue
                    number = read_number(match.group(1))
                    if 5 <= number <= 30 and (found is None or number > found[0]):
                        found = number, Cite(post.number, trim(line))
                        if not largest:
                            return found
    return found


def seat_count_problem(listed: int, stated: tuple[int, Cite] | None) -> str | None:
    """What to tell the moderator when the list and the stated size differ."""
    if stated is None or stated[0] == listed:
        return None
    number, cite = stated
    return (
        f"the player list gives {listed} seats, but post {cite.post} says {number} ({cite.words!r}): "
        f"check [[players]]"
    )
