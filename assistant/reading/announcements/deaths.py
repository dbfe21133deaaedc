"""Deaths: the day's lynch or no-lynch, night and day kills, mod-kills and flips as moderators word
them, and deaths a day's complete vote count witnesses (a seat it leaves out)."""

from __future__ import annotations

import re

from assistant.reading.announcements.accounts import Names
from assistant.reading.announcements.facts import (
    Cite,
    DeathCause,
    DeathFact,
    Elimination,
    PlayerFact,
    PostLike,
)
from assistant.reading.announcements.phases import stated_night
from assistant.reading.announcements.state import CountedOut, State, Wagons
from assistant.reading.announcements.text import (
    NUM,
    PHASE_IN,
    STRUCK_CLOSE,
    STRUCK_OPEN,
    clean_name,
    plain_text,
    read_lines,
    read_number,
    sentences,
    trim,
)
from assistant.reading.count_state import (
    counted_living,
    majority_needed,
    stated_alive,
    vote_count_day,
    wagon_of,
)

DEAD_WORDS = re.compile(
    r"\b(lynched|killed|dead|died|shot|stabbed|murdered|modkilled|mod-killed|eliminated|executed|hanged|hung|"
    r"poisoned|slain|night\s*\d|n\d|day\s*\d|d\d|flipped|deceased|burn(?:ed|t)|strangled)\b",
    re.IGNORECASE,
)
ALIVE_WORDS = re.compile(r"\b(survived|won|alive|living|endgamed)\b", re.IGNORECASE)
LYNCH_VERB = re.compile(
    r"\b(?:has\s+been|have\s+been|was|were|is\s+being|is|got|gets|will\s+be)\s+(?:\w+\s+)?(?:lynched|hanged|hung|"
    r"executed|eliminated|voted\s+out|strung\s+up|hammered)\b|\b(?:lynched|hanged|hung|executed|eliminated)\s+(?:on\s+)?(?:day|d)\s*"
    + NUM
    + r"\b|,\s*(?:was\s+)?lynched\b|\(lynched\)|\b(?:was|is)\s+the\s+lynchee\b",
    re.IGNORECASE,
)
LYNCH_REACHED = re.compile(
    r"\b(?:lynch|majority|hammer)\s+(?:has\s+been\s+|is\s+|was\s+)?(?:reached|achieved|attained)\b|"
    r"\bmajority\s+(?:vote\s+)?(?:on|for)\b|\b(?:has\s+been|was|is)\s+hammered\b|"
    r"\bthat'?s\s+(?:a\s+)?(?:lynch|hammer)\b",
    re.IGNORECASE,
)
NO_LYNCH = re.compile(
    r"\bno[\s-]*lynch\s+(?:has\s+been\s+|is\s+|was\s+)?(?:reached|achieved|wins|it\s+is)\b|"
    r"\b(?:no\s*one|nobody)\s+(?:has\s+been|was|is|got)\s+(?:lynched|eliminated|executed)\b|"
    r"\btown\s+(?:has\s+)?(?:chose|chosen|decided|voted)\s+(?:not\s+to\s+lynch|to\s+no\s+lynch|no\s+lynch)\b|"
    r"\b(?:there\s+(?:is|was|will\s+be)\s+(?:a|no)\s+)no[\s-]lynch\b|\bresult(?:s|ed)?\s+in\s+a\s+no[\s-]lynch\b|"
    r"\bno\s+lynch\s+today\b|\bno\s+majority\s+(?:was\s+)?reached\b|\bno[\s-]lynch\s+(?:on\s+)?(?:day|d)\s*\d|"
    r"\bno[\s-]lynch\s+has\s+(?:occurred|happened|been\s+(?:reached|achieved))\b",
    re.IGNORECASE,
)
KILL_VERB = re.compile(
    r"\b(?:was|has\s+(?:also\s+)?been|have\s+(?:also\s+)?been|is|were|are|got|had\s+been)\s+(?:found\s+)?(?:\w+\s+)?(?:killed|dead|murdered|shot|stabbed|"
    r"slain|poisoned|strangled|mauled|eaten|burn(?:ed|t)|crushed|eviscerated|executed|assassinated|slaughtered|"
    r"vanquished|taken\s+out|offed|whacked)\b|\b(?:died|dies|perished|is\s+no\s+more)\b|"
    r",\s*(?:was\s+)?(?:killed|shot|stabbed|murdered|died|slain|dead)\b",
    re.IGNORECASE,
)
# "Juls (Vanilla Townie) killed night one": a death verb with the night it happened in right after
# it, as "lynched day 1" tells a lynch
KILLED_IN_NIGHT = re.compile(
    r"""\b (?: killed | died | murdered | shot | stabbed | slain | poisoned | strangled | mauled | eaten
           | nightkilled | night-killed )
        \s+ (?: on\s+ | in\s+ | during\s+ )? (?: the\s+ )? (?: night | n ) \s* """
    + NUM
    + r"\b",
    re.IGNORECASE | re.VERBOSE,
)
# "AGar (Town Mason) killed day 1": a kill verb with the day it happened in right after it, a kill
# while the day goes on (a lynch has its own verbs)
KILLED_IN_DAY = re.compile(
    r"""\b (?: killed | died | murdered | shot | stabbed | slain | poisoned | strangled | mauled
           | daykilled | day-killed | vigged )
        \s+ (?: on\s+ | in\s+ | during\s+ )? (?: the\s+ )? (?: day | d ) \s* """
    + NUM
    + r"\b",
    re.IGNORECASE | re.VERBOSE,
)
CONDITION = re.compile(
    r"\b(?:when|whenever|if|once|until|unless|will|would|can|before|after)\b", re.IGNORECASE
)
IF_BEFORE = re.compile(
    r"\b(?:if|unless|when|whenever|once|until|should|in\s+case|in\s+the\s+event|otherwise)\b",
    re.IGNORECASE,
)
MODKILL = re.compile(r"\bmod[\s-]?kill(?:ed|s)?\b", re.IGNORECASE)
FLIP = re.compile(
    r"^\W*(?P<name>[^,\n]{1,40}?)\s*(?:,|\s-\s|\s–\s|\swas\s(?:a|an|the)\s)\s*(?P<rest>.{2,160})$",
    re.IGNORECASE,
)
NEGATION = re.compile(
    r"\b(not|no\s*one|nobody|nothing|n't|never|survived|saved|protected|would\s+have|if)\b",
    re.IGNORECASE,
)
WAS_ROLE = re.compile(r"\b(?:was|is)\s+(?:a|an|the)\s+\w", re.IGNORECASE)
# Words of a role reveal ("Name - Vanilla Townie", "Name, Mafia Goon"): a flip, in a post that ends
# a day or a night.
_ROLES = (
    r"(town|townie|villager|vanilla|mafia|goon|scum|cop|doctor|medic|mason|vigilante|vig|godfather|roleblocker|"
    r"serial\s+killer|sk|werewolf|wolf|cult|cultist|survivor|jester|tracker|watcher|neutral|seer|bodyguard|"
    r"jailkeeper|gunsmith|neighbou?r|rolecop|innocent|guilty|killer|hider|bus\s+driver|lover|traitor|"
    r"third\s+party|independent|alien|vampire|witch|hunter|ninja|janitor|framer|strongman|voyeur)s?\b"
)
ROLE_WORDS = re.compile(r"\b" + _ROLES, re.IGNORECASE)
# a phase that is part of a role's name ("a town N2 Watcher", "Night 2 Doctor") is no time of death
_IN_ROLE = re.compile(r"[\s-]+" + _ROLES, re.IGNORECASE)


# A count's wagon marked lynched: "Alder - Birch, Cedar, Damson (LYNCHED)", "Alder [Lynched] :
# Birch, ...": the head, not its last voter
_LIST_NUMBER = r"^\W*(?:\d{1,2}\s*[.)\]]\s*)?"  # "9. ", "[09] "
_LYNCHED_WAGON = re.compile(
    _LIST_NUMBER + r"(?P<head>[^:\-–—(\[]{1,40}?)\s*(?:[\[(][^\])]{0,12}[\])]\s*)?[:\-–—]\s*[^.!?]*"
    r"[\[(]\s*lynched\s*!?\s*[\])]"
    # Alder [Lynched] : Birch, ...; Alder ( LYNCH ) : Birch, ...
    r"|"
    + _LIST_NUMBER
    + r"(?P<head2>[^:\-–—(\[]{1,40}?)\s*[\[(]\s*lynch(?:ed)?\s*!?\s*[\])]\s*[:\-–—]"
    # 9. Alder - LYNCHED (Birch, Cedar, ...)
    r"|" + _LIST_NUMBER + r"(?P<head3>[^:\-–—(\[]{1,40}?)\s*[\-–—:]\s*lynched\s*!?\s*(?:[(\[]|$)",
    re.IGNORECASE,
)


_GAME_WON = re.compile(
    r"^\W*(?:the\s+)?[\w' -]{1,40}?\s+(?:has|have)\s+won(?:\s+the\s+game)?\s*!*\.?\s*$|"
    r"^\W*(?:the\s+)?(?:town|mafia|scum|village|wolves|werewolves|cult|serial\s+killer)\s+wins?(?:\s+the\s+game)?\s*!*\.?\s*$|"
    r"\bthe\s+game\s+is\s+over\b|^\W*game\s+over\b|"
    r"\b(?:fulfil+s|fulfil+ed|meets|met|achieves|achieved)\s+(?:its|their|the)\s+win\s+condition\b",
    re.IGNORECASE,
)


def read_game_won(plain: str, post: PostLike, cite: Cite, state: State) -> None:
    """ "Chuck has won!", "Town wins.", "The game is over" after a day or night ended: the game is
    over, and what the moderator writes next (a word to each player: "Alder, day 2, never forget")
    tells no deaths. Told while a day is open ("Formerfish was the last mafia goon and the town
    fulfills its win condition"), the game's end ends that day in this post
    (:func:`end_day_with_game`)."""
    if not _GAME_WON.search(plain) or CONDITION.search(plain):
        return
    if state.phase.night or state.phase.ended:
        state.declare_game_over()
    elif state.phase.day and state.phase.won_in_day is None:
        state.tell_won_in_day(post.number, cite)


def read_game_goes_on(post: PostLike, state: State) -> None:
    """A day that starts after the game was told over ("Hiplop is gone. GAME OVER MAN.") shows the
    words were flavour: the game goes on, and its deaths are news again."""
    if state.phase.over and any(s.post == post.number for s in state.facts.starts):
        state.resume_game()


def end_day_with_game(post: PostLike, state: State) -> None:
    """The post told the game won while its day was open, and no sentence of it ended the day: the
    game's end is the day's end (the day's last vote, or the flip the post tells, gives its lynch).
    The game is over."""
    if state.phase.won_in_day is None or state.phase.won_in_day[0] != post.number:
        return
    state.end_day_by_lynch(post, state.phase.won_in_day[1])


# "Alder will be lynched at deadline if votes don't change": what the count would give, not news
_FORECAST = re.compile(
    r"\bwill\s+be\s+(?:\w+\s+)?(?:lynched|hanged|hung|executed|eliminated|voted\s+out)\b"
    r".*\b(?:if|unless|should|at\s+(?:the\s+)?deadline)\b",
    re.IGNORECASE,
)


def read_lynch(plain: str, post: PostLike, cite: Cite, state: State, names: Names) -> bool:
    """A sentence that tells the day's lynch or no-lynch ("Alder was lynched", "No lynch has been
    reached", "Majority has been reached"); True when it told a death or a no-lynch. A lynch
    foretold on a condition ("Alder will be lynched at deadline if votes don't change") tells
    none."""
    if (
        state.phase.over
        or state.has_elimination(state.phase.day)
        or (state.phase.night and not state.phase.ended)
    ):
        return False
    if _FORECAST.search(plain):
        return False
    no_lynch = NO_LYNCH.search(plain)
    if no_lynch and not IF_BEFORE.search(
        plain[: no_lynch.start()]
    ):  # "If no lynch is reached, ..."
        state.add(Elimination(state.phase.day, None, post.number, cite))
        state.end_day_by_lynch(post, cite)
        return True
    wagon = _LYNCHED_WAGON.match(plain)
    head = (wagon.group("head") or wagon.group("head2") or wagon.group("head3")) if wagon else None
    lynched = (
        (names.seat(head) if head else None)
        or named_before(plain, LYNCH_VERB, names)
        or _lynched_at_majority(plain, state)
    )
    night = stated_night(plain)
    if (
        lynched and lynched not in state.dead and night is not None
    ):  # "X was hung upside down Night 3"
        state.add(DeathFact(lynched, f"night {night}", None, DeathCause.NIGHT_KILL, cite))
        return True
    if lynched and lynched not in state.dead:
        state.add(Elimination(state.phase.day, lynched, post.number, cite))
        state.end_day_by_lynch(post, cite)
        return True
    if LYNCH_REACHED.search(plain) and not CONDITION.search(plain):
        state.end_day_by_lynch(post, cite)
    return False


def _seat_at_majority(state: State) -> str | None:
    """The one living seat the open day's last count shows at majority, if one."""
    if state.wagons is None or state.wagons[0] != state.phase.day:
        return None
    _, wagons, majority = state.wagons
    at_majority = [
        seat for seat, votes in wagons.items() if votes >= majority and seat not in state.dead
    ]
    return at_majority[0] if len(at_majority) == 1 else None


def _lynched_at_majority(plain: str, state: State) -> str | None:
    """A lynch told of a name the reader does not know ("Lalaladucks, Vanilla Townie, was lynched")
    while the day's last count shows one seat at majority: that seat's lynch."""
    verb = LYNCH_VERB.search(plain)
    if verb is None or CONDITION.search(plain) or NEGATION.search(plain[: verb.end()]):
        return None
    return _seat_at_majority(state)


def read_hammered_flip(plain: str, post: PostLike, cite: Cite, state: State, names: Names) -> bool:
    """A role told of the one seat the day's last count shows at majority, while the day is open
    ("Alder was a Vanilla Townie, formatting later"), is that day's lynch: the day ends here. So is
    a role told of a living player in a sentence that speaks of the lynch ("Quil is a VT, official
    lynch scene here later")."""
    if state.phase.night or state.phase.ended or state.has_elimination(state.phase.day):
        return False
    if read_lynch_scene_flip(plain, post, cite, state, names):
        return True
    seat = _seat_at_majority(state)
    match = _flip_match(plain)
    if seat is None or not match or flipped_seat(match.group("name"), names) != seat:
        return False
    rest = match.group("rest")
    if not (WAS_ROLE.search(plain) or _is_reveal(rest)) or not ROLE_WORDS.search(rest[:40]):
        return False
    if NEGATION.search(rest) or re.search(r"\breplac|\?", rest, re.IGNORECASE):
        return False
    state.add(Elimination(state.phase.day, seat, post.number, cite))
    state.end_day_by_lynch(post, cite)
    return True


# "Alder was Mafia Goon", "Alder was Town Doctor": a role told with no article
_BARE_FLIP = re.compile(
    r"""^ \W* (?P<name> [^,.;:!?\n]{2,40}? ) \s+ was \s+ (?P<rest> [^,;:!?\n]{2,60}? ) [.!]? \s* $""",
    re.IGNORECASE | re.VERBOSE,
)


def _flip_match(sentence: str) -> re.Match[str] | None:
    """A flip ("Alder, Vanilla Townie", "Alder was a Mafia Goon"), or a role told with no article
    ("Alder was Mafia Goon"): its ``name`` and ``rest``."""
    match = FLIP.match(sentence)
    if match:
        return match
    bare = _BARE_FLIP.match(sentence)
    if bare is None or not _is_reveal(bare.group("rest")):
        return None
    rest = bare.group("rest")
    return bare if ROLE_WORDS.match(rest) or re.match(r"[\w-]+\s+" + _ROLES, rest, re.I) else None


# "Alder is a VT, lynch scene later", "Alder was a Mafia Goon. Lynch writeup to follow": a role told
# of a player
_IS_ROLE = re.compile(
    r"^\W*(?P<name>[^,.;:!?\n]{2,40}?)\s+(?:is|was)\s+(?:a|an|the)\s+(?P<rest>.{2,160})$",
    re.IGNORECASE,
)
_ROLE_SHORT = re.compile(
    r"\b(?:vt|vts)\b", re.IGNORECASE
)  # the vanilla townie's everyday shorthand


def read_lynch_scene_flip(
    plain: str, post: PostLike, cite: Cite, state: State, names: Names
) -> bool:
    """While a day is open, a sentence that tells a living player's role and speaks of the lynch
    ("Quil is a VT, official lynch scene here later") tells that day's lynch; the player may be
    named by an account or by the first letters of one account alone (four at least)."""
    match = _IS_ROLE.match(plain)
    if not match or not re.search(r"\blynch", match.group("rest"), re.IGNORECASE):
        return False
    rest = match.group("rest")
    if not (
        ROLE_WORDS.match(rest)
        or _ROLE_SHORT.match(rest)
        or re.match(r"\w+\s+" + _ROLES, rest, re.I)
    ):
        return False
    if (
        NEGATION.search(plain)
        or CONDITION.search(plain)
        or re.search(r"\breplac|\?", plain, re.IGNORECASE)
    ):
        return False
    seat = flipped_seat(match.group("name"), names) or names.nickname(match.group("name"))
    if seat is None or seat in state.dead or any(other != seat for _, _, other in names.find(rest)):
        return False
    state.add(Elimination(state.phase.day, seat, post.number, cite))
    state.end_day_by_lynch(post, cite)
    return True


_IN_THE_NIGHT = re.compile(
    r"\b(?:in|during)\s+the\s+night\b|\blast\s+night\b|\bovernight\b", re.IGNORECASE
)


def read_death(plain: str, post: PostLike, cite: Cite, state: State, names: Names) -> bool:
    """A sentence that tells a death other than by the lynch ("Birch was killed Night 2", "Cedar has
    been modkilled", "Damson, Vanilla Townie, died"); a day's death told after the day ended is its
    lynch."""
    if state.phase.over:
        return False
    modkilled = named_before(plain, MODKILL, names)
    if modkilled and modkilled not in state.dead:
        phase_text = f"{'night' if state.phase.night else 'day'} {state.phase.day}"
        during = None if state.phase.night else post.number
        state.add(DeathFact(modkilled, phase_text, during, DeathCause.MODKILL, cite))
        return True
    f = state.facts
    # the post that starts a day, or any before a player posts in a day started only by its stated
    # numbers
    started_here = not state.phase.night and (
        state.phase.inferred_start is not None
        or any(d.post == post.number and d.day == state.phase.day for d in f.starts)
    )
    together = [seat for seat in named_together(plain, KILL_VERB, names) if seat not in state.dead]
    killed = (
        named_before(plain, KILL_VERB, names)
        or named_before(plain, KILLED_IN_NIGHT, names)
        or named_before(plain, KILLED_IN_DAY, names)
        or role_in_brackets_killed(plain, names)
        or flip_name(plain, names, state, started_here)
        or body_of(plain, names)
    )
    if len(together) > 1:
        killed = together[0]
    if not killed or killed in state.dead:
        return False
    lynch_line = bool(re.search(r"\blynch", plain, re.IGNORECASE))
    kind, number = _phase_of_death(plain, post, state, started_here)
    if kind == "day" and (lynch_line or state.phase.ended) and not state.has_elimination(number):
        state.add(Elimination(number, killed, post.number, cite))
        if number == state.phase.day and not state.phase.night:
            state.end_day(post, cite)
        return True
    if kind == "night" and number == state.phase.day and not state.phase.night and not started_here:
        # a kill of the night after the open day: that day ended in a post the reader did not
        # understand, and this report is the dawn of the next
        state.end_day(post, cite)
        state.open_day(state.phase.day + 1, post.number, None, cite)
    day_kill = (
        kind == "day"
        and number == state.phase.day
        and not state.phase.night
        and not state.phase.ended
    )
    for seat in together if len(together) > 1 else [killed]:
        cause = DeathCause.DAY_KILL if kind == "day" else DeathCause.NIGHT_KILL
        during = post.number if day_kill else None
        state.add(DeathFact(seat, f"{kind} {number}", during, cause, cite))
    return True


# "DietyKabuto (Doctor) - killed during Night 4": the name, its role in brackets, then the death
_BRACKETED_ROLE = re.compile(
    r"""^ \W* (?P<name> [^()\[\],\n]{2,40}? ) \s* [(\[] (?P<role> [^)\]]{2,40} ) [)\]]
        \s* [-–—:,]? \s* (?P<rest> .{2,80} ) $""",
    re.VERBOSE,
)


def role_in_brackets_killed(text: str, names: Names) -> str | None:
    """ "Name (Role) - killed Night 4": the seat of the name before the bracketed role, as the
    moderator spells it (one letter off, two swapped), when the words after tell a death."""
    match = _BRACKETED_ROLE.match(text)
    if not match or not ROLE_WORDS.search(match.group("role")):
        return None
    rest = match.group("rest")
    if NEGATION.search(rest) or not (
        KILL_VERB.search(rest) or KILLED_IN_NIGHT.search(rest) or KILLED_IN_DAY.search(rest)
    ):
        return None
    return flipped_seat(match.group("name"), names)


def _phase_of_death(
    plain: str, post: PostLike, state: State, started_here: bool
) -> tuple[str, int]:
    """("day" or "night", its number) of the death the sentence tells: the phase it states, else
    the one the post's place in the thread implies."""
    stated = next((m for m in PHASE_IN.finditer(plain) if not _IN_ROLE.match(plain, m.end())), None)
    if stated and not _day_not_begun(stated, state):
        kind = "night" if stated.group(1).lower().startswith("n") else "day"
        return kind, read_number(stated.group(2))
    if started_here:  # the post that starts a day reports the night before it
        return "night", state.phase.day - 1
    if _IN_THE_NIGHT.search(plain):
        # "killed in the night" told while the day is open: this is its dawn
        return "night", state.phase.day
    if state.phase.night and state.phase.lynched and state.phase.night_post == post.number:
        # "Majority has been reached." then "Alder - town - vanilla": the post that ended the day by
        # a lynch it did not name tells that lynch's flip
        return "day", state.phase.day
    return ("night", state.phase.day) if state.phase.night else ("day", state.phase.day)


def _day_not_begun(stated: re.Match[str], state: State) -> bool:
    """The sentence, told in the night, names a day after it ("was all set to play on D2 and was
    shot" in night 1): no one dies in a day still to come, so the day named is not the death's."""
    return (
        state.phase.night
        and stated.group(1).lower().startswith("d")
        and read_number(stated.group(2)) > state.phase.day
    )


def read_majority_death(post: PostLike, lines: list[str], state: State, names: Names) -> None:
    """A death the post tells of a seat its own vote count shows at majority ("Alder (5): ..." with
    "it takes 5 to lynch") is that day's lynch, however it is worded ("Alder, a Vanilla Townie, died
    D3"): the day ends here."""
    f = state.facts
    if not state.phase.day or state.has_elimination(state.phase.day):
        return
    told = [
        d for d in f.deaths if d.cite.post == post.number and d.phase == f"day {state.phase.day}"
    ]
    if len(told) != 1:
        return
    majority = majority_needed(" ".join(plain_text(line) for line in lines))
    wagons = {
        names.seat(head): votes for head, votes in map(wagon_of, map(plain_text, lines)) if head
    }
    death = told[0]
    if majority is None or wagons.get(death.player, 0) < majority:
        return
    state.drop(death)
    state.add(Elimination(state.phase.day, death.player, post.number, death.cite))
    if not state.phase.night:
        state.end_day_by_lynch(post, death.cite)


def read_wagons(lines: list[str], state: State, names: Names) -> None:
    """Keep the wagons of a day's vote count that states what a lynch takes ("Alder (5): ...", "(5)
    Alder —
    ...", "With 9 alive, it takes 5 to lynch"): a day that ends with no name read was the lynch of the seat at
    majority (:func:`read_count_lynch`)."""
    if state.phase.night or not state.phase.day or state.count_day not in (None, state.phase.day):
        return
    majority = majority_needed(" ".join(plain_text(line) for line in lines))
    wagons = {
        names.seat(names.spelled(head)): votes
        for head, votes in map(wagon_of, map(plain_text, lines))
        if head
    }
    wagons.pop(None, None)
    if majority and not wagons:
        wagons = _listed_wagons(lines, names)
    marked = _marked_seats(lines, names)
    if len(marked) == 1 and not (majority and wagons):
        # the moderator's mark says the wagon is at majority, whatever the numbers
        majority = majority or 1
        wagons = {marked[0]: majority}
    if majority and wagons:
        state.keep_wagons(Wagons(state.phase.day, wagons, majority))


# "Alder - Birch, Cedar, Damson", "Alder: Birch, Cedar (L-1)": a wagon and the voters on it
_VOTERS_LINE = re.compile(
    r"""^ \W* (?P<head> [^:\-–—(\[]{1,40}? ) \s* [:\-–—] \s* (?P<voters> [^()\[\]]{1,300}? ) \s*
        (?: [\[(] [^\])]{0,20} [\])] \s* )* $""",
    re.VERBOSE,
)
_VOTER_SPLIT = re.compile(r"\s*(?:,|;|/|&|\band\b)\s*", re.IGNORECASE)


def _listed_wagons(lines: list[str], names: Names) -> dict[str | None, int]:
    """A count that lists each wagon's voters with no number: each wagon's votes are its voters,
    when the head and every voter are players."""
    wagons: dict[str | None, int] = {}
    for line in lines:
        match = _VOTERS_LINE.match(plain_text(line))
        if not match:
            continue
        head = names.seat(names.spelled(match.group("head")))
        voters = [v for v in _VOTER_SPLIT.split(match.group("voters")) if v]
        if head and voters and all(names.seat(names.spelled(v)) for v in voters):
            wagons[head] = len(voters)
    return wagons


# "Alder - Birch, Cedar, Damson (L-0)", "Alder: Birch, Cedar (Hammered!)": a wagon the moderator
# marks as having reached majority
_AT_MAJORITY_MARK = re.compile(
    r"""^ \W* (?P<head> [^:\-–—(\[]{1,40}? ) \s* [:\-–—] .* [\[(] \s* (?: L \s* - \s* 0 | hammered ) \s* !? \s*
        [\])]""",
    re.IGNORECASE | re.VERBOSE,
)


def _marked_seats(lines: list[str], names: Names) -> list[str]:
    """The seats whose wagon the count marks at majority (L-0, hammered)."""
    heads = (_AT_MAJORITY_MARK.match(plain_text(line)) for line in lines)
    seats = (names.seat(names.spelled(m.group("head"))) for m in heads if m)
    return list(dict.fromkeys(seat for seat in seats if seat))


def read_count_lynch(post: PostLike, state: State) -> None:
    """The post ended the day ("A lynch has been achieved!", "Night 2 begins") and no lynch or
    no-lynch was read: the one seat the day's last count shows at majority was lynched."""
    if (
        state.phase.night_post != post.number
        or not state.phase.night
        or state.has_elimination(state.phase.day)
    ):
        return
    seat = _seat_at_majority(state)
    if seat is not None:
        ended = next((e for e in state.facts.ends if e.post == post.number), None)
        cite = ended.cite if ended else Cite(post.number, "")
        state.add(Elimination(state.phase.day, seat, post.number, cite))


def read_lynch_flip(post: PostLike, lines: list[str], state: State, names: Names) -> None:
    """A day that ended without a lynch read: the flip in the post that ended it, or in a later post
    of the same night that starts no day ("Steven Hacking was a Mafia Goon. Night 1 begins
    now.")."""
    f = state.facts
    ended = [e for e in f.ends if e.day == state.phase.day]
    started_here = any(s.post == post.number for s in f.starts)
    if not ended or state.has_elimination(state.phase.day) or started_here:
        return
    dead = {d.player for d in f.deaths if d.cite.post != post.number} | {
        e.player for e in f.elims if e.player
    }
    for line in lines:
        for sentence in sentences(plain_text(line)):
            seat = _day_flip(sentence, names, dead)
            if seat is None:
                continue
            for death in [d for d in f.deaths if d.player == seat and d.cite.post == post.number]:
                state.drop(death)
            state.add(
                Elimination(state.phase.day, seat, post.number, Cite(post.number, trim(line)))
            )
            return


_OF_A_NIGHT = re.compile(r"\b(?:night|nk|night\s*kill|killed\s+(?:on\s+)?(?:night|n)\s*\d)", re.I)


def _day_flip(sentence: str, names: Names, dead: set[str]) -> str | None:
    """The living seat whose role a sentence tells, not of a night ("Alder was a Mafia Goon")."""
    if _OF_A_NIGHT.search(sentence):
        return None
    match = _flip_match(sentence)
    seat = flipped_seat(match.group("name"), names) if match else None
    if match is None or seat is None or seat in dead:
        return None
    rest = match.group("rest")
    if not (
        WAS_ROLE.search(sentence)
        or DEAD_WORDS.search(sentence)
        or _is_reveal(rest)
        or _role_on_a_day(rest)
    ):
        return None
    if NEGATION.search(rest) or re.search(r"\breplac", sentence, re.I):
        return None
    if any(other != seat for _, _, other in names.find(rest)) or _ADDRESSED.match(rest):
        return None  # "Alder, Birch and Cedar have achieved fifty posts on day 1": a list, no flip
    return seat


_ON_A_DAY = re.compile(r"\b(?:day|d)\s*" + NUM + r"\b", re.IGNORECASE)


def _role_on_a_day(rest: str) -> bool:
    """ "Town Neighbor, stoked the fireplace day two": a role, then what befell the player on a
    day (the number in words too)."""
    return bool(ROLE_WORDS.search(rest[:40]) and _ON_A_DAY.search(rest))


def named_before(text: str, verb: re.Pattern[str], names: Names) -> str | None:
    """The seat named closest before ``verb`` in the same clause, unless the clause is negated."""
    for match in verb.finditer(text):
        clause_start = max(text.rfind(c, 0, match.start()) for c in ".!?;") + 1
        before = [n for n in names.find(text[clause_start : match.start()])]
        if not before:
            continue
        between = text[clause_start + before[-1][1] : match.start()]
        if NEGATION.search(between) or NEGATION.search(match.group(0)) or len(between) > 80:
            continue
        return before[-1][2]
    return None


_BODY_OF = re.compile(
    r"\b(?:found|discovered|discover|find|finds|discovers)\s+(?:the\s+)?(?:\w+\s+)?(?:body|corpse|remains)\s+of\s+",
    re.IGNORECASE,
)


def body_of(text: str, names: Names) -> str | None:
    """ "The town found the body of Alder": the seat named right after the words, unless negated."""
    for match in _BODY_OF.finditer(text):
        clause_start = max(text.rfind(c, 0, match.start()) for c in ".!?;") + 1
        if NEGATION.search(text[clause_start : match.start()]) or CONDITION.search(
            text[clause_start : match.start()]
        ):
            continue
        found = names.find(text[match.end() : match.end() + 40])
        if found and found[0][0] == 0:
            return found[0][2]
    return None


_PLURAL = re.compile(r"^(?:have|were|are)\b", re.IGNORECASE)
_PLURAL_BEFORE = re.compile(r"\b(?:have|were)\s+(?:both\s+|all\s+)?$", re.IGNORECASE)  # "have died"


def named_together(text: str, verb: re.Pattern[str], names: Names) -> list[str]:
    """The seats a plural ``verb`` tells of: "Alder and Birch have been shot", "Alder, Cop, and
    Birch, Mason, have died" (every seat named in the clause before it), else none."""
    for match in verb.finditer(text):
        if not (_PLURAL.search(match.group(0)) or _PLURAL_BEFORE.search(text[: match.start()])):
            continue
        clause_start = max(text.rfind(c, 0, match.start()) for c in ".!?;") + 1
        clause = text[clause_start : match.start()]
        if NEGATION.search(clause) or not re.search(r"\band\b|&", clause, re.IGNORECASE):
            continue
        return list(dict.fromkeys(seat for _, _, seat in names.find(clause)))
    return []


def flip_name(text: str, names: Names, state: State, started_here: bool = False) -> str | None:
    """ "Name, Vanilla Townie, killed Night 1" or "Name was a Mafia Goon" in a post after a
    night."""
    match = FLIP.match(text)
    if not match:
        return None
    seat = flipped_seat(match.group("name"), names)
    if seat is None:
        return None
    rest = match.group("rest")
    if (
        NEGATION.search(rest)
        or ALIVE_WORDS.search(rest)
        or _WINS.search(rest)
        or re.search(r"\breplac", rest, re.IGNORECASE)
    ):
        return None
    if any(other != seat for _, _, other in names.find(rest)) or _ADDRESSED.match(rest):
        return None  # "Alder, Birch and Cedar have achieved fifty posts on day 1", "Alder, you called it day 2"
    after_phase = state.phase.night or state.phase.ended or started_here
    if DEAD_WORDS.search(rest) or ((WAS_ROLE.search(text) or _is_reveal(rest)) and after_phase):
        return seat
    return None


# "Cedar, Mafia Goon, wins!": the game's winner told with a role, no flip of the dead
_WINS = re.compile(r"\bwins?\b", re.IGNORECASE)


# the words after "Alder," speak to the player or for the moderator: "Alder, you called it", "Alder,
# thanks"
_ADDRESSED = re.compile(
    r"(?:you|your|you're|i|i'm|we|thanks|thank|sorry|please|congrat\w*|well\s+played|gg)\b",
    re.IGNORECASE,
)


def flipped_seat(name: str, names: Names) -> str | None:
    """The seat a flip names: its account, as the moderator spells it (one letter off: "The
    Ruffling" for the account "The Rufflig"), else the first words of one account alone ("Elmo,
    Neighborizer, has been killed" for the account "Elmo TeH AzN")."""
    seat = names.seat(name) or names.seat(names.spelled(clean_name(name)))
    words = clean_name(name).casefold().split()
    if seat is not None or not words or len("".join(words)) < 4:
        return seat
    seats = {
        seat
        for account, seat in names.seat_of.items()
        if len(account.split()) > len(words) and account.split()[: len(words)] == words
    }
    return seats.pop() if len(seats) == 1 else None


def _is_reveal(rest: str) -> bool:
    """The part after a name is a role and nothing more: "Vanilla Townie", "Town-aligned One Shot
    Vigilante"."""
    return (
        bool(ROLE_WORDS.search(rest)) and len(rest.split()) <= 6 and not re.search(r"\d|[?]", rest)
    )


MAX_DEATHS_IN_A_NIGHT = 3


_UNNUMBERED_COUNT = re.compile(
    r"^\W*(?:official\s+|current\s+)?(?:vote\s*-?\s*count|votecount)\s*:?\s*$", re.IGNORECASE
)


def _open_days_count(
    post: PostLike, state: State, names: Names
) -> tuple[list[str], list[str], set[str]] | None:
    """A vote count of the open day that lists the living (the post's lines, the lines with struck
    text taken out, the seats it lists living), or None: "Official Vote Count" with no number,
    posted in the open day, is that day's count."""
    lines = read_lines(post.body_html)
    day = next(
        (d for d in (vote_count_day(plain_text(line)) for line in lines[:3]) if d is not None), None
    )
    if day is None and any(_UNNUMBERED_COUNT.match(plain_text(line)) for line in lines[:2]):
        day = state.phase.day
    if day != state.phase.day:
        return None
    unstruck = [
        re.sub(STRUCK_OPEN + "[^" + STRUCK_CLOSE + "]*" + STRUCK_CLOSE, "", line) for line in lines
    ]
    living = counted_living(
        [plain_text(line) for line in unstruck], seat_of=lambda n: names.seat(names.spelled(n))
    )
    return None if living is None else (lines, unstruck, living)


def read_counted_living(
    post: PostLike, state: State, names: Names, seats: dict[str, list[str]]
) -> None:
    """A day's vote count that lists every living player leaves out the seats that died since: a
    death the moderator told only in flavour text ("the town found a body") is still read. A seat
    missing from the day's count died in the night before it, when no more seats are missing than a
    night takes and its player posts no more that day (:func:`confirm_counted_out`)."""
    if state.phase.night or state.phase.day < 2:
        return
    count = _open_days_count(post, state, names)
    if count is None:
        return
    lines, unstruck, living = count
    day = state.phase.day
    f = state.facts
    dead = state.dead | {d.player for d in f.deaths} | {e.player for e in f.elims if e.player}
    cite = Cite(post.number, trim(plain_text(lines[0])))
    pending = {death.player for death, *_ in state.counted_out}
    # a seat an earlier count of the day listed living was left out by a line this one missed: no
    # night killed it since, and a day's kill is announced in words
    counted_before = state.list_living(day, living)
    missing = [seat for seat in seats if seat not in living | dead | pending | counted_before]
    if len(missing) > MAX_DEATHS_IN_A_NIGHT:
        return  # more than a night takes: the count is not what it seems
    # a count that states the number alive and lists that many is complete by the moderator's own
    # number
    complete = stated_alive(" ".join(plain_text(line) for line in unstruck)) is not None
    for (
        seat
    ) in missing:  # kept also when quiet, so that a later count does not read the same death again
        death = DeathFact(seat, f"night {state.phase.day - 1}", None, DeathCause.COUNTED_OUT, cite)
        state.leave_out_of_count(CountedOut(death, day, state.quiet, complete))


def read_death_taken_back(post: PostLike, state: State, names: Names) -> None:
    """A seat told dead during the open day whose player goes on posting, and whom the moderator's
    next complete count of that day still lists (voting or not voting), was not killed: the death (a
    joke, a mistake) is taken back."""
    if state.phase.night or not state.phase.day:
        return
    f = state.facts
    told = [
        d
        for d in f.deaths
        if d.post is not None and d.phase == f"day {state.phase.day}" and d.cite.post < post.number
    ]
    if not told:
        return
    count = _open_days_count(post, state, names)
    if count is None:
        return
    lines, _, living = count
    for death in told:
        posted_since = any(
            death.cite.post < n < post.number for n in state.posts_by_seat.get(death.player, ())
        )
        if death.player in living and posted_since:
            state.take_back_death(death, Cite(post.number, trim(plain_text(lines[0]))))


def confirm_counted_out(state: State, last_post: int) -> None:
    """A seat a day's count left out is dead when its player posts no more until that day ends (a
    count can miss a line the reader cannot read; a living player's next post shows it). Posts after
    the day's end are not held against it: the dead talk once the game is over. A count that states
    the number alive and lists exactly that many is complete by the moderator's own number: its
    player's parting word does not undo it."""
    ends = {e.day: e.post for e in state.facts.ends}
    for death, day, quiet, complete in state.counted_out:
        until = ends.get(day, last_post)
        if quiet or death.player in state.dead:
            continue  # read before the caller's after_post, or told in words too
        if complete or not any(
            death.cite.post < n <= until for n in state.posts_by_seat.get(death.player, ())
        ):
            state.confirm_death(death)


# A fate on a player-list line: "Alder, Vanilla Townie, lynched Day 1", "Birch - Cop - killed Night
# 2", "Cedar, Mason, died during Night 1", "Damson was the first lynch of Day 2"
_LISTED_FATE = re.compile(
    r"\b(?P<how>lynched|lynch|hanged|hung|executed|eliminated|voted\s+out|killed|died|murdered|shot|slain|"
    r"stabbed|strangled|poisoned|mauled|eaten|burn(?:ed|t)|crushed|assassinated|slaughtered|"
    r"night\s*-?\s*killed|nightkilled|modkilled|mod-killed)\b[^.;|]{0,30}?\b(?P<phase>day|night|d|n)\s*"
    + NUM
    + r"\b",
    re.IGNORECASE,
)


def read_listed_fates(players: list[PlayerFact], state: State) -> None:
    """The player list kept up to date gives each dead seat's fate with its phase: a lynch or a
    night's death the announcements did not tell (told in flavour only, or in words the reader
    missed) is read from it."""
    for player in players:
        if not player.dead or player.name in state.dead:
            continue
        match = _LISTED_FATE.search(plain_text(player.cite.words))
        if not match:
            continue
        number = read_number(match.group(3))
        lynch = re.match(
            r"lynch|hang|hung|execut|eliminat|voted", match.group("how"), re.IGNORECASE
        )
        night = match.group("phase").lower().startswith("n")
        if lynch and not night and not state.has_elimination(number):
            state.add(Elimination(number, player.name, player.cite.post, player.cite))
        elif not lynch and night and number > 0:
            modkill = "mod" in match.group("how").lower()
            cause = DeathCause.MODKILL if modkill else DeathCause.NIGHT_KILL
            state.add(DeathFact(player.name, f"night {number}", None, cause, player.cite))
