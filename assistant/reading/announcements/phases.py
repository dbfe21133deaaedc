"""Day starts and ends: the phase words moderators write (not those of a condition: "when Day 3
begins"), a Night 0 that opens the game, the dawn that starts a day unnamed, a count headed for the
next day, and the deadlines they announce."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, tzinfo

from assistant.reading.announcements.facts import (
    Cite,
    DayStart,
    DeadlineFact,
    DeadlineKind,
    PostLike,
)
from assistant.reading.announcements.phase_words import (
    BARE,
    NOW,
    Phase,
    PhaseWord,
    Wording,
    first_phase_word,
    names_phase,
)
from assistant.reading.announcements.state import State
from assistant.reading.announcements.text import (
    NUM,
    PHASE_IN,
    plain_text,
    read_lines,
    read_links,
    read_number,
    sentences,
    trim,
)
from assistant.reading.count_state import (
    count_number,
    majority_needed,
    stated_alive,
    vote_count_day,
)
from assistant.reading.deadlines import read_deadline

_ALIVE_COUNT = re.compile(
    r"\bwith\s+" + NUM + r"\s+(?:players?\s+)?(?:alive|living|remaining|left)\b.{0,30}"
    r"\b(?:to\s+)?(?:lynch|eliminate|execute)",
    re.IGNORECASE,
)


PhaseReading = tuple[Phase, int] | None


def phase_of(text: str, state: State, post: int) -> PhaseReading:
    """The phase a sentence says the game is in now, as (phase, number).

    "With 9 alive, 5 to lynch" after a night starts the next day, but not in the post that ended the
    day nor in the ended day's final count ("Vote Count 1.13 ... With 13 alive"): they state the
    day's own numbers."""
    for read in (_said_now, _said_by_cue, _said_short, _said_bare):
        decided, phase = read(text, state)
        if decided:
            return phase
    if (
        state.phase.night
        and state.phase.day
        and state.phase.night_post != post
        and _ALIVE_COUNT.search(text)
        and state.count_day != state.phase.day
    ):
        return Phase.DAY, state.phase.day + 1
    return None


def _said_now(text: str, state: State) -> tuple[bool, PhaseReading]:
    """ "It is now Night 2", "Day 3 has begun", "Day 2:" (not as a condition: "when Day 3
    begins")."""
    said = first_phase_word(text, NOW)
    if said is None or said.number is None or _conditional(text, said.start):
        return False, None
    return True, (said.phase, said.number)


def _said_by_cue(text: str, state: State) -> tuple[bool, PhaseReading]:
    """A phase named with its business ("Day 2 deadline"), or told over ("Day 4 is over": the
    night)."""
    cue = first_phase_word(text, (Wording.CUE,))
    if cue is None or cue.number is None:
        return False, None
    if _conditional(text, cue.start):
        # "(3 days) remain until Day 4 is over": the phase is running
        if _COUNTDOWN.search(text, 0, cue.start):
            return True, (cue.phase, cue.number)
        return False, None
    if cue.over:
        after = (Phase.NIGHT, cue.number) if cue.phase is Phase.DAY else (Phase.DAY, cue.number + 1)
        return True, after
    if (
        cue.phase is Phase.DAY
        and state.phase.day
        and not state.phase.night
        and cue.number > state.phase.day
    ):
        return True, None  # "Day 2 will end at ..." while day 1 is open: a plan, not day 2 starting
    return True, (cue.phase, cue.number)


def _said_short(text: str, state: State) -> tuple[bool, PhaseReading]:
    said = first_phase_word(text, (Wording.SHORT,))
    if said is None or said.number is None or _conditional(text, said.start):
        return False, None
    return True, (said.phase, said.number)


def _said_bare(text: str, state: State) -> tuple[bool, PhaseReading]:
    """ "It is now night", "Day has begun": the phase after the one running."""
    said = first_phase_word(text, BARE)
    if said is None or _GENERAL_RULE.search(text) or not state.phase.day:
        # "send a PM if you have a night action": the rules, not the night starting
        return False, None
    if said.phase is Phase.DAY:
        return True, ((Phase.DAY, state.phase.day + 1) if state.phase.night else None)
    return True, (Phase.NIGHT, state.phase.day)


_COUNTDOWN = re.compile(r"\b(?:until|till)\s+(?:the\s+end\s+of\s+)?$", re.IGNORECASE)
# A sentence on how phases go in general: nights in the plural, what to do if one has an action
_GENERAL_RULE = re.compile(r"\bnights\b|\bif\s+you\s+(?:have|want|wish|are|do)\b", re.IGNORECASE)
_CONDITIONAL = re.compile(
    r"\b(?:when|whenever|once|until|till|if|unless|before|after)\b", re.IGNORECASE
)


def _conditional(text: str, at: int) -> bool:
    """The phase named at ``at`` is a condition of its clause, not news: "I will prod everyone when
    D3 has begun", "until Day 2 starts"."""
    clause = text[max(text.rfind(c, 0, at) for c in ".,;:!?") + 1 : at]
    return bool(_CONDITIONAL.search(clause))


def stated_night(text: str) -> int | None:
    """The night a sentence names ("... killed Night 3", "N2"), if it names one."""
    stated = PHASE_IN.search(text)
    return (
        read_number(stated.group(2)) if stated and stated.group(1).lower().startswith("n") else None
    )


def read_opening(post: PostLike, state: State, timezone: tzinfo) -> None:
    """Day 1 runs from the opening post unless a later post starts it; the opening post says little
    else that can be trusted in order, because moderators keep it up to date with the game (its dead
    list)."""
    lines = read_lines(post.body_html)
    deadline = None
    for line in lines:
        match = re.search(
            r"\b(?:day\s*(?:1|one)|eod\s*1)\b.*\b(?:deadline|ends?|end)\b|\bdeadline\b",
            plain_text(line),
            re.IGNORECASE,
        )
        if match:
            deadline = read_deadline(plain_text(line), post, timezone)
            if deadline:
                cite = Cite(post.number, trim(line))
                break
    state.take_day_one_from_opening()
    start_cite = Cite(post.number, trim(lines[0] if lines else ""))
    state.add(DayStart(1, post.number, deadline, start_cite))
    if deadline:
        state.add(DeadlineFact(1, deadline, post.number, DeadlineKind.DEADLINE, cite))


def read_day_one_start(post: PostLike, state: State, timezone: tzinfo) -> None:
    """Day 1 started in one of the moderator's posts right after the opening post ("Day One: Vote
    Count One", "Day 1 has begun" once the confirmations are in): those posts are reserved and kept
    up to date, so only a start of day 1 is read from them, and only while day 1 is still taken to
    start with the opening post."""
    if not state.phase.implicit:
        return
    lines = read_lines(post.body_html)
    for line in lines:
        for plain in sentences(plain_text(line)):
            if phase_of(plain, state, post.number) == ("day", 1):
                read_phase(plain, lines, post, Cite(post.number, trim(line)), state, timezone)
                return


_NIGHT_ZERO = re.compile(
    r"\b(?:beginning|start)\s+of\s+(?:the\s+)?night\s*(?:0|zero)\b|\bit\s+is\s+now\s+night\s*(?:0|zero)\b|"
    r"\bnight\s*(?:0|zero)\s+(?:has\s+)?(?:now\s+)?(?:begun|begins|began|starts|started|is\s+(?:now\s+)?(?:open|underway))",
    re.IGNORECASE,
)


def read_night_zero(post: PostLike, state: State) -> bool:
    """A moderator's post before any player's that starts Night 0 ("Roles are out. Night 0 begins
    now."): the game opens with a night, day 1 starts with the post that ends it, and deaths told
    before it are night 0's. True when it did."""
    if not (state.phase.implicit and state.phase.day == 1 and not state.phase.ended):
        return False
    text = " ".join(plain_text(line) for line in read_lines(post.body_html))
    match = _NIGHT_ZERO.search(text)
    if not match or _conditional(text, match.start()):
        return False
    state.begin_night_zero()
    return True


def read_vote_count_day(
    post: PostLike, run: list[PostLike], state: State, timezone: tzinfo
) -> None:
    """A moderator's vote count for the next day, posted at night: that day has started, even when
    the moderator announced it only in flavour text. It starts with the first post of the
    moderator's run of posts before the count (no player posted in between) that reads as a dawn,
    else with the count itself."""
    if not state.phase.night or state.phase.night_post == post.number:  # night 0 too
        return  # the post that ended the day holds its final count, whatever day that count names
    lines = read_lines(post.body_html)
    day = next(
        (d for d in (vote_count_day(plain_text(line)) for line in lines[:3]) if d is not None), None
    )
    if day != state.phase.day + 1:
        return
    after_night = [
        p for p in run if state.phase.night_post is None or p.number > state.phase.night_post
    ]
    start = next(
        (
            p
            for p in after_night[:-1]
            if _is_dawn(" ".join(map(plain_text, read_lines(p.body_html))))
        ),
        post,
    )
    start_lines = lines if start is post else read_lines(start.body_html)
    cite = Cite(start.number, trim(start_lines[0] if start_lines else ""))
    deadline = deadline_in(lines, post, timezone)
    state.open_day(day, start.number, deadline, cite, told_at=post.number)


_MORNING = re.compile(
    r"\b(?:woke|wake|wakes|awoke|awaken|awakens|morning|dawn|dawns|sunrise|sun\s+rises|daybreak|day\s+breaks)\b",
    re.IGNORECASE,
)
# the report of a night nobody died in: a dawn by itself, like a report of its deaths
_NO_DEATH = re.compile(
    r"\b(?:no\s*one|nobody)\s+(?:has\s+|had\s+|was\s+)?(?:died|been\s+killed|killed)\b|\bno\s+(?:night\s*)?kills?\b|"
    r"\bno\s+deaths?\b|\bno\s*one\s+(?:is\s+)?dead\b",
    re.IGNORECASE,
)
_DAY_BUSINESS = re.compile(
    r"\bdeadline\b|\bto\s+(?:lynch|eliminate)\b|\bvote\s*count\b|\balive\b", re.IGNORECASE
)


def _is_dawn(text: str) -> bool:
    return bool(_MORNING.search(text) or _NO_DEATH.search(text))


def read_dawn(post: PostLike, lines: list[str], state: State, timezone: tzinfo) -> None:
    """A night ends without "It is now Day N" when the moderator reports its deaths or that nobody
    died, or tells of the morning and the day's business: the next day starts with that post."""
    f = state.facts
    if not state.phase.night or state.phase.night_post == post.number:  # night 0 too
        return
    text = " ".join(plain_text(line) for line in lines)
    if names_phase(text, Wording.NIGHT_FALLS) or any(e.post == post.number for e in f.elims):
        return  # the lynch's story that begins the night ("see you in the morning!") is no dawn
    reported = f"night {state.phase.day}" in state.told.get(post.number, ())
    if not (
        reported or _NO_DEATH.search(text) or (_MORNING.search(text) and _DAY_BUSINESS.search(text))
    ):
        return
    cite = Cite(post.number, trim(lines[0] if lines else ""))
    deadline = deadline_in(lines, post, timezone)
    state.open_day(state.phase.day + 1, post.number, deadline, cite)


def deadline_in(lines: list[str], post: PostLike, timezone: tzinfo) -> datetime | None:
    for line in lines:
        plain = plain_text(line)
        if re.search(r"\b(deadline|eod|end\s+of\s+day|ends?|due)\b", plain, re.IGNORECASE):
            when = read_deadline(plain, post, timezone)
            if when:
                return when
    for link in read_links(post.body_html):
        when = read_deadline(link, post, timezone)
        if when:
            return when
    return None


_DAY_GOES_ON = re.compile(
    r"\bday'?s?\s+(?:is\s+)?(?:still\s+(?:on|open|going)|continues|goes\s+on|(?:is\s+)?not\s+over|isn'?t\s+over)\b",
    re.IGNORECASE,
)


def read_day_goes_on(text: str, state: State) -> None:
    """ "My mistake, the day's still on": the day the moderator ended by mistake is open again (its
    end, and a lynch read with it, are taken back). Read from the whole post, before its
    sentences."""
    if not (
        state.phase.night
        and state.phase.ended
        and state.phase.night_post is not None
        and _DAY_GOES_ON.search(text)
    ):
        return
    state.reopen_day()


@dataclass(frozen=True)
class _Sentence:
    """A sentence of a moderator's post, read for the phase it names."""

    plain: str
    lines: list[str]  # the post's
    post: PostLike
    cite: Cite
    timezone: tzinfo

    def deadline(self) -> datetime | None:
        """The deadline the sentence states, else the first its post states."""
        return read_deadline(self.plain, self.post, self.timezone) or deadline_in(
            self.lines, self.post, self.timezone
        )


def read_phase(
    plain: str, lines: list[str], post: PostLike, cite: Cite, state: State, timezone: tzinfo
) -> bool:
    """A sentence that starts a day or ends one ("It is now Night 2", "Day 3 has begun", "Night
    falls"); True when it did, and the rest of the sentence is read no further."""
    said = first_phase_word(plain, NOW)
    phase = phase_of(plain, state, post.number)
    if (
        phase
        and said
        and said.wording is not Wording.HEADING
        and phase[1] < state.phase.day
        and (phase[0] == "day") == state.phase.night
    ):
        # "Night 1 starts now" on day 4, "Day 1 begins now" after night 2: a slip of the number; the
        # phase that follows the current one is meant (not a bare heading "Night 1": a summary of
        # the game so far)
        phase = (
            (Phase.DAY, state.phase.day + 1)
            if state.phase.night
            else (Phase.NIGHT, state.phase.day)
        )
    sentence = _Sentence(plain, lines, post, cite, timezone)
    if phase is not None:
        told = _phase_told(phase, said, sentence, state)
        if told is not None:
            return told
    falls = first_phase_word(plain, (Wording.NIGHT_FALLS,))
    if falls and not _conditional(plain, falls.start) and not state.phase.night and state.phase.day:
        state.fall_night(post, cite)
        return True
    return False


def _phase_told(
    phase: tuple[Phase, int], said: PhaseWord | None, sentence: _Sentence, state: State
) -> bool | None:
    """What a phase named does: True when it started or ended a day, False when the sentence is to
    be read no further for it, None when it changed nothing."""
    kind, number = phase
    if (
        kind is Phase.DAY
        and number == 1
        and state.phase.implicit
        and state.phase.day == 1
        and not state.phase.ended
    ):
        return _day_one_told(said, sentence, state)
    # the same day again only after a night word may have ended it too early, never after its lynch
    # ("on the beginning of Day 2, everybody turns to Zodiark" in the lynch's story)
    restated = kind is Phase.DAY and number == state.phase.day and not state.phase.night
    if restated and state.phase.inferred_start is not None and said is not None:
        # "Tomorrow, with 8 alive, it takes 5" read at night started the day; the moderator's own
        # "Day 2 begins now" before any player posted is its start, and its deaths are the night's
        state.restart_inferred_day(sentence.post.number, sentence.deadline(), sentence.cite)
        return True
    next_day = number > state.phase.day or (
        number == state.phase.day and state.phase.night and not state.phase.lynched
    )
    if kind is Phase.DAY and next_day:
        quiet_start = said is None and bool(_ALIVE_COUNT.search(sentence.plain))
        deadline = sentence.deadline()
        state.move_to_named_day(number, sentence.post, deadline, sentence.cite, quiet_start)
        return True
    at_night_post = state.phase.night_post == sentence.post.number
    if (
        kind is Phase.NIGHT
        and number == state.phase.day
        and (not state.phase.night or at_night_post)
    ):
        state.note_nights_numbered_by_day()
    if kind is Phase.NIGHT and number >= state.phase.day and not state.phase.night:
        state.fall_night(sentence.post, sentence.cite)
        return True
    return None


def _day_one_told(said: PhaseWord | None, sentence: _Sentence, state: State) -> bool:
    """Day 1 named while it is taken to start with the opening post."""
    if (count_number(sentence.plain) or 1) > 1:
        return False  # "Day One: Vote Count Two": day 1 started before its first count
    post = sentence.post
    # "Day 1 ends Tuesday": day 1 is running, its start is not here; its deadline is
    if said is None:
        deadline = read_deadline(sentence.plain, post, sentence.timezone)
        known = [d for d in state.facts.deadlines if d.day == 1]
        if deadline and (not known or known[-1].time != deadline):
            state.add(DeadlineFact(1, deadline, post.number, DeadlineKind.DEADLINE, sentence.cite))
        return True
    # "Day 1 has begun" after the opening post: day 1 starts here
    state.start_day_one_here(post.number, sentence.deadline(), sentence.cite)
    return True


def read_missed_day(lines: list[str], post: PostLike, state: State) -> None:
    """A night named one past the night still running ("Night 2 begins" during night 1, in a game
    whose nights take their day's number): the day between was started in a post the reader did not
    understand, so it started with the moderators' first post after the last day ended (a dawn told
    in flavour only), and what this post tells (the lynch, then the night) is that day's, not the
    night's before it."""
    if not (
        state.phase.night
        and state.phase.day
        and state.phase.nights_numbered_by_day
        and state.phase.dawn is not None
        and state.phase.night_post is not None
        and state.phase.night_post < state.phase.dawn[0] < post.number
    ):
        return
    for plain in (sentence for line in lines for sentence in sentences(plain_text(line))):
        said = first_phase_word(plain, NOW)
        if said is None or _conditional(plain, said.start):
            continue
        if phase_of(plain, state, post.number) == ("night", state.phase.day + 1):
            number, words = state.phase.dawn
            state.open_day(state.phase.day + 1, number, None, Cite(number, words))
        return  # the first phase the post names decides


_DEADLINE_WORDS = re.compile(
    r"\b(deadline|eod|end\s+of\s+day|extend|extension|ends?\s+(?:at|on|in))\b", re.IGNORECASE
)


def read_deadline_line(
    plain: str, post: PostLike, cite: Cite, state: State, timezone: tzinfo
) -> None:
    """A deadline or an extension a sentence states during a day."""
    if state.phase.night or not _DEADLINE_WORDS.search(plain):
        return
    when = read_deadline(plain, post, timezone)
    if when:
        extended = re.search(r"\bextend|extension\b", plain, re.IGNORECASE)
        kind = DeadlineKind.EXTENSION if extended else DeadlineKind.DEADLINE
        known = [d for d in state.facts.deadlines if d.day == state.phase.day]
        if not known or known[-1].time != when:
            told = kind if known else DeadlineKind.DEADLINE
            state.add(DeadlineFact(state.phase.day, when, post.number, told, cite))


def read_next_day_in_end_post(
    post: PostLike, lines: list[str], state: State, living: int, timezone: tzinfo
) -> None:
    """A post that ends the day and, with no word of a night, states what a lynch takes for the
    seats still alive ("Alder, townie, has been lynched. 6 to lynch. Deadline May 11th." with 10
    left) after the sentence that ended the day starts the next day too: a game that goes from day
    to day. (The day's own final count comes before that sentence.)"""
    if not (state.phase.night and state.phase.night_post == post.number and state.phase.day):
        return
    text = " ".join(plain_text(line) for line in lines)
    ended_at = next((e for e in state.facts.ends if e.post == post.number), None)
    after = text.split(ended_at.cite.words[:40], 1)[-1] if ended_at and ended_at.cite.words else ""
    if (
        not after
        or names_phase(text, Wording.NIGHT_FALLS)
        or re.search(r"\bnight\b", text, re.IGNORECASE)
    ):
        return
    if re.search(
        r"\bvote\s*-?\s*count|\bvotecount|\(\s*\d{1,2}\s*\)\s*[:\-–—]|\bnot\s+voting\b",
        after,
        re.IGNORECASE,
    ):
        return  # the day's final count, after the words that ended it, states the day's own numbers
    if stated_alive(after) not in (None, living):
        return  # "With 13 alive" when 12 are left: the ended day's numbers
    needed = majority_needed(after)
    if needed is None or needed != living // 2 + 1 or re.search(r"\btook\b", after, re.IGNORECASE):
        return
    cite = Cite(post.number, trim(after))
    deadline = deadline_in([after], post, timezone)
    state.open_day(state.phase.day + 1, post.number, deadline, cite)
