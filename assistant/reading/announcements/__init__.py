"""What a game thread says about the game's public state: moderators, players, days, deaths,
replacements.

A pure reader: posts in (anything with ``number``, ``author``, ``body_html`` and ``time``, such as
``parsers.page.Post``), facts out. Each fact cites the post and the moderator's own words
(:class:`Cite`), so whoever writes it into a game file can show where it came from. Nothing here is
keyed to a forum, a thread or a name: the reader looks for the shapes moderators write (player
lists, "It is now Night 2", "X was lynched", "X, Vanilla Townie, killed Night 1", "Y replaces X",
"Deadline is Friday 10pm EST").

    facts = read_thread_facts(posts, timezone=ZoneInfo("America/New_York")) facts.moderators,
    facts.players, facts.day_starts, facts.day_ends, facts.deaths, facts.replacements

Its modules, in the order a thread is read: ``text`` (a body as lines), ``accounts`` (names →
seats), ``moderators``, ``player_list``, ``state`` (where the reading stands), ``replacements``,
``phase_words`` (the words that name a phase, a table of rules), ``phases`` (day starts and ends,
deadlines), ``deaths`` (lynches, kills, mod-kills, flips, deaths a count witnesses), ``reader`` (the
loop over the posts); ``facts`` holds what they give, typed.
"""

from assistant.reading.announcements.facts import (
    Cite,
    DayEnd,
    DayStart,
    DeadlineFact,
    DeadlineKind,
    DeathCause,
    DeathFact,
    Elimination,
    PlayerFact,
    PostLike,
    ReplacementFact,
    ThreadFacts,
)
from assistant.reading.announcements.reader import read_thread_facts
from assistant.reading.announcements.text import read_lines, read_links

__all__ = [
    "Cite",
    "DayEnd",
    "DayStart",
    "DeadlineFact",
    "DeadlineKind",
    "DeathCause",
    "DeathFact",
    "Elimination",
    "PlayerFact",
    "PostLike",
    "ReplacementFact",
    "ThreadFacts",
    "read_lines",
    "read_links",
    "read_thread_facts",
]
