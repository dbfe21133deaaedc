"""Replacements as moderators announce them: "Yew replaces Alder", "Alder has been replaced by Yew", and
with the verb in quotes for a hydra or an alt taking the seat ('Yew "replaces" Alder')."""

from __future__ import annotations

import re

from assistant.announcements.accounts import Names
from assistant.announcements.facts import Cite, PostLike, ReplacementFact
from assistant.announcements.state import State
from assistant.announcements.text import name_like, strip_lead

REPLACEMENT = re.compile(
    r"(?P<new>[^\s,.!:;()][^,.!:;()]{0,40}?)\s+(?:is\s+|has\s+|will\s+be\s+|will\s+)?(?:now\s+)?[\"“”]?"
    r"(?:replacing|replaces|replaced|subbing\s+(?:in\s+)?for|subs\s+(?:in\s+)?for|is\s+in\s+for|in\s+for|"
    r"taking\s+over\s+for|takes\s+over\s+for|has\s+taken\s+over\s+for|(?:has\s+)?stepped\s+in\s+for)[\"“”]?\s+"
    r"(?P<old>[^\s,.!:;()][^,.!:;()]{0,40}?)(?=\s*(?:[,.!:;()]|$|\s+(?:as|in|who|and|effective|from)\b))"
    r"|(?P<old2>[^\s,.!:;()][^,.!:;()]{0,40}?)\s+(?:is\s+being|has\s+been|is|was|will\s+be|got)\s+(?:now\s+)?"
    r"replaced\s+by\s+(?P<new2>[^\s,.!:;()][^,.!:;()]{0,40}?)(?=\s*(?:[,.!:;()]|$|\s+(?:as|in|who|and)\b))",
    re.IGNORECASE,
)
NOT_REPLACEMENT = re.compile(r"\b(need|needs|needed|seek|seeking|looking|request|requested|will\s+be\s+replaced\s*$|"
                              r"prod|if)\b", re.IGNORECASE)


def read_replacements(plain: str, post: PostLike, cite: Cite, state: State, names: Names,
                      seats: dict[str, list[str]]) -> None:
    """Each replacement a sentence announces: the new account joins its seat (in ``seats`` and ``names``, so
    that later sentences may name it)."""
    for match in REPLACEMENT.finditer(plain):
        new = match.group("new") or match.group("new2")
        old = match.group("old") or match.group("old2")
        if NOT_REPLACEMENT.search(plain[: match.start()] + " " + plain[match.end():][:20]):
            continue
        new, old = strip_lead(new), strip_lead(old)
        seat = names.seat(old)
        if seat is None or not name_like(new) or names.seat(names.spelled(new)) == seat:
            continue
        seats.setdefault(seat, [seat]).append(new)
        names.__init__(seats)
        state.add("repl", ReplacementFact(seat, new, post.number, cite))
