"""Replacements as moderators announce them: "Yew replaces Alder", "Alder has been replaced by Yew",
and with the verb in quotes for a hydra or an alt taking the seat ('Yew "replaces" Alder')."""

from __future__ import annotations

import re

from assistant.reading.announcements.accounts import Names
from assistant.reading.announcements.facts import Cite, PostLike, ReplacementFact
from assistant.reading.announcements.state import State
from assistant.reading.announcements.text import name_like, strip_lead

REPLACEMENT = re.compile(
    r"(?P<new>[^\s,.!:;()][^,.!:;()]{0,40}?)\s+(?:is\s+|has\s+|will\s+be\s+|will\s+)?(?:now\s+)?[\"“”]?"
    r"(?:(?:replacing|replaces|replaced)\s+in\s+for|replacing|replaces|replaced|(?<=will\s)replace|agreed\s+to\s+replace|subbing\s+(?:in\s+)?for|subs\s+(?:in\s+)?for|is\s+in\s+for|in\s+for|"
    r"taking\s+over\s+for|takes\s+over\s+for|has\s+taken\s+over\s+for|(?:has\s+)?stepped\s+in\s+for)[\"“”]?"
    r"(?!\s+by\s)\s+(?P<old>[^\s,.!:;()][^,.!:;()]{0,40}?)(?=\s*(?:[,.!:;()]|$|\s+(?:as|in|who|and|effective|from)\b))"
    r"|(?P<old2>[^\s,.!:;()][^,.!:;()]{0,40}?)\s+(?:is\s+being|has\s+been|is|was|will\s+be|got)\s+(?:now\s+)?"
    r"replaced\s+by\s+(?P<new2>[^\s,.!:;()][^,.!:;()]{0,40}?)(?=\s*(?:[,.!:;()]|$|\s+(?:as|in|who|and)\b))",
    re.IGNORECASE,
)
_NAME = r"[^\s,.!:;()][^,.!:;()]{0,40}?"
# "Alder has been replaced." ... "Yew takes his spot!": the new account named in the next sentence
REPLACED_ALONE = re.compile(
    rf"^(?P<old>{_NAME})\s+(?:has\s+been|was|is\s+being|got)\s+replaced\s*[.!]*$", re.IGNORECASE
)
TAKES_SPOT = re.compile(
    rf"^(?P<new>{_NAME})\s+(?:takes|has\s+taken|is\s+taking|will\s+take|will\s+be\s+taking)\s+(?:over\s+)?"
    rf"(?:(?P<old>{_NAME})'s|his|her|their|the)\s+(?:spot|slot|place|seat)\b",
    re.IGNORECASE,
)
# "I'm replacing MusicNinja" in the moderator's own news: a pronoun names nobody (unless an account
# of that name posts)
PRONOUN = re.compile(
    r"^(?:i|i['’]m|i\s+am|i\s+will|we|we['’]re|you|you['’]re|he|he['’]s|she|she['’]s|they|"
    r"they['’]re|someone|somebody|nobody|no\s*one|it)$",
    re.IGNORECASE,
)
# the passive future without "by": the name before it is the player to be replaced ("... will be
# replaced soon")
WILL_BE_REPLACED = re.compile(r"\bwill\s+be\s+(?:now\s+)?[\"“”]?replaced\b", re.IGNORECASE)
NOT_REPLACEMENT = re.compile(
    r"\b(need|needs|needed|seek|seeking|looking|request|requested|will\s+be\s+replaced\s*$|"
    r"prod|if)\b",
    re.IGNORECASE,
)


# "Yew (a hydra of two) replaces Alder", "Yew, a hydra of two, replaces Alder": a note in brackets
# that tells no replacement, or a description between commas, is no part of the sentence
_ASIDE = re.compile(
    r"\s*\((?![^()]*\b(?:replac|sub|in\s+for|tak|step))[^()]{1,80}\)"
    r"|,\s+an?\s+[^,()]{1,60},(?=\s*(?:is\s+|has\s+|will\s+)?(?:now\s+)?replac)",
    re.IGNORECASE,
)
# "Hawkie (Prohawk) replaces Alder": the name in brackets is the account when that account posts
_BRACKETED_ACCOUNT = re.compile(
    r"(?P<nick>[^\s,.!:;()]+)\s*\((?P<account>[^()]{1,40})\)(?=\s+(?:is\s+|has\s+|will\s+)?"
    r"(?:now\s+)?replac)",
    re.IGNORECASE,
)


def _posting_account(match: re.Match[str], state: State) -> str:
    account = match.group("account").strip()
    if state.authors is not None and state.authors.seat(account) is not None:
        return state.authors.spelled(account)
    return match.group(0)


# "Yew (who replaced Alder)", "Yew, who replaced Alder", "Yew who is replacing Alder": the account
# before the relative clause replaces Alder
_WHO_REPLACED = re.compile(
    r"(?:\s*[(,]\s*|\s+)who\s+(?:is\s+|has\s+|had\s+)?(replac(?:ed|ing)\s+[^()]*?)\s*"
    r"(?:\)|(?=[,.!;]|$))",
    re.IGNORECASE,
)
# "Yew and Quince replace Alder and Birch, respectively": the accounts paired in order
_RESPECTIVELY = re.compile(
    r"^(?P<new>.+?)\s+replace\s+(?P<old>.+?),?\s+respectively\b", re.IGNORECASE
)


def read_replacements(
    plain: str, post: PostLike, cite: Cite, state: State, names: Names, seats: dict[str, list[str]]
) -> None:
    """Each replacement a sentence announces: the new account joins its seat (in ``seats`` and
    ``names``, so that later sentences may name it). The old player may be named by a nickname that
    starts one seat's account alone ("Sleepy" for SleepyKrew); the new account is spelled as it
    posts when one poster alone is that close ("Scorpius" for Scorpious). A note in brackets between
    the names is read past, and "Yew (who replaced Alder)" is Yew replacing Alder."""
    plain = _ASIDE.sub(
        "",
        _WHO_REPLACED.sub(
            lambda m: " " + m.group(1),
            _BRACKETED_ACCOUNT.sub(lambda m: _posting_account(m, state), plain),
        ),
    )
    alone = REPLACED_ALONE.match(plain)
    if alone and not NOT_REPLACEMENT.search(plain):
        # its successor named in a sentence that follows
        state.note_replaced(post.number, alone.group("old"))
        return
    for new, old, match in _named_pairs(plain, post, state):
        if match is not None and NOT_REPLACEMENT.search(
            plain[: match.start()] + " " + plain[match.end() :][:20]
        ):
            continue
        if match is not None and match.group("new") and WILL_BE_REPLACED.search(match.group(0)):
            continue  # "Alder will be replaced soon": Alder is leaving, and no newcomer is named
        _read_pair(new, old, post, cite, state, names, seats)


def _named_pairs(
    plain: str, post: PostLike, state: State
) -> list[tuple[str, str, re.Match[str] | None]]:
    """Each (new, old) pair of names the sentence gives, with the match of the plain replacement
    pattern (None for "respectively" lists and "takes the spot of")."""
    found: list[tuple[str, str, re.Match[str] | None]] = [
        (m.group("new") or m.group("new2"), m.group("old") or m.group("old2"), m)
        for m in REPLACEMENT.finditer(plain)
    ]
    paired = _RESPECTIVELY.match(plain)
    if paired:
        news, olds = (
            re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", paired.group(k)) for k in ("new", "old")
        )
        if len(news) == len(olds) > 1:
            found.extend((new, old, None) for new, old in zip(news, olds, strict=True))
    spot = TAKES_SPOT.match(plain)
    if spot:
        old = spot.group("old") or (
            state.replaced[1] if state.replaced and state.replaced[0] == post.number else None
        )
        if old:
            found.append((spot.group("new"), old, None))
    return found


def _read_pair(
    new: str,
    old: str,
    post: PostLike,
    cite: Cite,
    state: State,
    names: Names,
    seats: dict[str, list[str]],
) -> None:
    """Seat the account ``new`` in the seat ``old`` names, when both name what they must."""
    written, old = strip_lead(new), strip_lead(old)
    seat = names.seat(old) or names.nickname(old) or _named_first(old, names)
    if _NOBODY_NAMED.match(strip_lead(new)):
        # "I will replace Cedar", "Whoever replaces Cedar", "... Yew who replaced Cedar": no
        # account named
        return
    new = state.authors.spelled(written) if state.authors is not None else written
    if state.authors is not None and state.authors.seat(new) is None:
        new = _poster_named_last(written, state.authors, names, seat) or new
    if seat is None and name_like(new) and name_like(old):
        _earlier_account(new, old, state, names, seats)
        return
    if seat is None or not name_like(new):
        return
    if PRONOUN.match(written) and (state.authors is None or state.authors.seat(written) is None):
        return
    accounts = seats.setdefault(seat, [seat])
    held = names.seat(new)
    listed = (
        _listed_successor(seat, accounts, old, new if held else None, state)
        if held in (None, seat)
        else None
    )
    if listed is not None:  # the list gave the seat's newcomer already: this announcement dates it
        state.add(ReplacementFact(seat, listed, post.number, cite))
        return
    if new != written and names.seat(written) is None:
        # the moderator's spelling, to read later posts by (never written to the file)
        accounts.append(written)
    if names.seat(new) != seat:
        accounts.append(new)
        state.add(ReplacementFact(seat, new, post.number, cite))
    names.rebuild(seats)


def _listed_successor(
    seat: str, accounts: list[str], old: str, named: str | None, state: State
) -> str | None:
    """The account the seat's list gives right after the player replaced, posting and not yet dated
    by an announcement: the newcomer holds the seat from the announcement's post, whether the
    moderator names that account as it posts (``named``, "Yew replaces Alder" with this reading's
    list saying "Alder replaced by Yew", as an opening edited during the game shows it; a game
    file's accounts are the moderator's to date) or otherwise ("DGB replaces Alder", the list giving
    Alder's seat to DrippingGoofball: that account, never a second one)."""
    if state.authors is None:
        return None
    folded = [a.casefold() for a in accounts]
    if old.casefold() not in folded or folded.index(old.casefold()) + 1 >= len(accounts):
        return None
    successor = accounts[folded.index(old.casefold()) + 1]
    if named is not None and (
        named.casefold() != successor.casefold() or (seat, named.casefold()) not in state.listed
    ):
        return None
    if state.authors.seat(successor) is None or any(
        f.new.casefold() == successor.casefold() for f in state.facts.replacements
    ):
        return None
    return successor


def _poster_named_last(
    written: str, authors: Names, seats: Names, seat: str | None = None
) -> str | None:
    """The poster's account that ends the words the moderator wrote ("the wonderful Empking"): the
    words before it are an epithet, no part of the account. An account that holds another seat
    already ("Big Elm" beside the player Elm) is another player, never the newcomer; one that holds
    the very seat replaced (the file's reading of this same post, read again by `votal update`) is
    this newcomer."""
    words = written.split()
    for k in range(1, len(words)):
        tail = " ".join(words[k:])
        if authors.seat(tail) is not None and seats.seat(tail) in (None, seat):
            return authors.spelled(tail)
    return None


def _named_first(words: str, names: Names) -> str | None:
    """The seat named at the very start of the words after the verb, when the sentence runs on
    without a stop ("Yew replaces Alder Since it's late, the count comes tomorrow")."""
    found = names.find(words)
    if not found or found[0][0] != 0 or NOT_REPLACEMENT.search(words[found[0][1] :]):
        return None  # "Alder if he does not post today": a condition
    return found[0][2]


_NOBODY_NAMED = re.compile(
    r"^(?:i|we|he|she|they|who|himself|herself|themselves|someone|somebody|anyone|anybody|"
    r"whoever|nobody|no\s*one)$",
    re.IGNORECASE,
)


def _earlier_account(
    new: str, old: str, state: State, names: Names, seats: dict[str, list[str]]
) -> None:
    """A replacement of an account no seat holds: when the new account is the name the player list
    gives a seat, the list was kept up to date with the game, and the old account held that seat
    before it (and so did, in turn, the accounts it replaced: "Cedar replaces Alder", later "Yew
    replaces Cedar" with Yew listed). Otherwise the two are kept until one of them turns up in a
    seat."""
    old = state.authors.spelled(old) if state.authors is not None else old
    seat = names.seat(new)
    if seat is None or seat not in seats or seats[seat][0].casefold() != new.casefold():
        state.keep_unplaced(new, old)
        return
    found = [old]
    while found:
        account = found.pop()
        if names.seat(account) is not None:
            continue
        seats[seat].append(account)
        state.add_earlier_account(seat, account)
        names.rebuild(seats)
        found.extend(o for n, o in state.unplaced if n.casefold() == account.casefold())
