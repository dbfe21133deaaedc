"""Reading a whole thread: the moderators, the player list, then each moderator post in order."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, tzinfo

from assistant.reading.announcements.accounts import Names
from assistant.reading.announcements.days import day_notes, fold_days
from assistant.reading.announcements.deaths import (
    confirm_counted_out,
    end_day_with_game,
    read_count_lynch,
    read_counted_living,
    read_death,
    read_death_taken_back,
    read_game_goes_on,
    read_game_won,
    read_hammered_flip,
    read_listed_fates,
    read_lynch,
    read_lynch_flip,
    read_majority_death,
    read_wagons,
)
from assistant.reading.announcements.facts import Cite, FactLog, PlayerFact, PostLike, ThreadFacts
from assistant.reading.announcements.kills import (
    date_dawn_deaths,
    read_death_in_dawn,
)
from assistant.reading.announcements.moderators import read_helpers, read_moderators
from assistant.reading.announcements.phases import (
    read_dawn,
    read_day_goes_on,
    read_day_one_start,
    read_deadline_line,
    read_missed_day,
    read_next_day_in_end_post,
    read_night_zero,
    read_opening,
    read_phase,
    read_vote_count_day,
)
from assistant.reading.announcements.player_list import (
    _ListedSeat,
    find_player_list,
    first_count_roster,
    numbering_gaps,
)
from assistant.reading.announcements.replacements import read_replacements
from assistant.reading.announcements.seat_count import seat_count_problem, stated_seats
from assistant.reading.announcements.state import State
from assistant.reading.announcements.text import plain_text, read_lines, sentences, squash, trim
from assistant.reading.count_state import vote_count_day


@dataclass
class _Cast:
    """Who the thread's reading takes part: its moderators (and helpers) and its seats."""

    moderators: tuple[str, ...]
    moderators_cite: Cite | None
    keys: set[str]  # the moderators' accounts casefolded
    authors: Names  # the thread's posters but the moderators (helpers aside), each its own seat
    seats: dict[str, list[str]]
    players: list[PlayerFact]
    helpers: list[str]
    named_cite: Cite | None  # where the opening names the moderators
    helpers_cite: Cite | None


def read_thread_facts(
    posts: Sequence[PostLike],
    *,
    title: str | None = None,
    moderators: Sequence[str] | None = None,
    players: dict[str, Sequence[str]] | None = None,
    after_post: int | None = None,
    timezone: tzinfo = UTC,
    listed: Sequence[tuple[str, str]] = (),
) -> ThreadFacts:
    """Everything the thread's moderators announce, read from ``posts`` (in thread order).

    ``moderators`` and ``players`` (seat name → accounts) are what the caller already knows, such as
    a game file's; without them the reader takes them from the thread. ``listed``: (seat, account)
    of ``players`` known only from the moderators' player list, which an announcement naming them
    dates. Announcements are read from posts after ``after_post`` only (the phase is still followed
    from the start, so day numbers stay right).
    """
    posts = list(posts)
    if not posts:
        return ThreadFacts(
            title, tuple(moderators or ()), None, (), (), (), (), (), (), (), ("no posts",)
        )
    problems: list[str] = []
    cast = _read_cast(posts, moderators, players, problems)
    names = Names(cast.seats)
    state = _opening_state(cast, listed, _posts_by_seat(posts, names))
    state = _read_posts(posts, cast, state, names, after_post, timezone)
    if not players and cast.seats:
        problem = _listed_size_problem(posts, cast, state)
        if problem:
            problems.append(problem)
    state.read_aloud()
    read_listed_fates(cast.players, state)
    player_facts = _with_earlier_accounts(cast.players, state)
    mods = cast.moderators
    # a poster taken for a co-moderator who turns out to replace into a seat is a player
    if not moderators:
        kept = _moderators_kept(cast, posts[0].author)
        if kept != mods and cast.helpers:
            # their posts were read as the moderator's (a player's guesses told as deaths): read
            # the thread again with the moderators it has
            again = read_thread_facts(
                posts,
                title=title,
                moderators=kept,
                players=players,
                after_post=after_post,
                timezone=timezone,
            )
            helped = any(h in kept for h in cast.helpers)
            cite = cast.named_cite or (cast.helpers_cite if helped else None)
            return dataclasses.replace(again, moderators_cite=cite)
        mods = kept
    problems.extend(_day_problems(state))
    told = state.told_facts()
    return _thread_facts(title, mods, cast.moderators_cite, player_facts, told, problems)


def _opening_state(
    cast: _Cast, listed: Sequence[tuple[str, str]], posts_by_seat: dict[str, list[int]]
) -> State:
    """The reading's state before the first post: the cast's authors, and the (seat, account) pairs
    known only from the moderators' player list, casefolded."""
    return State(
        authors=cast.authors,
        posts_by_seat=posts_by_seat,
        listed=frozenset(
            [(p.name, a.casefold()) for p in cast.players for a in p.replacements]
            + [(seat, account.casefold()) for seat, account in listed]
        ),
    )


def _listed_size_problem(posts: Sequence[PostLike], cast: _Cast, state: State) -> str | None:
    """The player list read against the size the moderator states before day 1 ends."""
    day_one_end = next((e.post for e in state.facts.ends if e.day == 1), None)
    stated = stated_seats(posts, cast.keys, before=day_one_end, largest=True)
    return seat_count_problem(len(cast.seats), stated)


def _with_earlier_accounts(players: Sequence[PlayerFact], state: State) -> list[PlayerFact]:
    """The listed players with the accounts that held a seat before the one its list names."""
    return [
        PlayerFact(p.name, (*p.replacements, *state.earlier[p.name]), p.dead, p.cite)
        if p.name in state.earlier
        else p
        for p in players
    ]


def _day_problems(state: State) -> list[str]:
    """The days whose evidence does not fit, among all read; each told by the reading that meets it
    (one of its facts is from a post read aloud), so a file kept live hears of it once."""
    notes = day_notes(fold_days(state.facts.starts, state.facts.ends))
    return [str(note) for note in notes if any(f not in state.quiet_facts for f in note.evidence)]


def _thread_facts(
    title: str | None,
    moderators: tuple[str, ...],
    moderators_cite: Cite | None,
    players: list[PlayerFact],
    told: FactLog,
    problems: list[str],
) -> ThreadFacts:
    return ThreadFacts(
        title=title,
        moderators=moderators,
        moderators_cite=moderators_cite,
        players=tuple(players),
        day_starts=tuple(told.starts),
        day_ends=tuple(told.ends),
        eliminations=tuple(told.elims),
        deaths=tuple(told.deaths),
        replacements=tuple(told.replacements),
        deadlines=tuple(told.deadlines),
        problems=tuple(problems),
        deaths_taken_back=tuple(told.taken_back),
    )


def _moderators_kept(cast: _Cast, opener: str) -> tuple[str, ...]:
    """The moderators without those who hold a seat (the opening post's author always stays)."""
    players_keys = {a.casefold() for accounts in cast.seats.values() for a in accounts}
    return tuple(m for m in cast.moderators if m == opener or m.casefold() not in players_keys)


def _authors(posts: Sequence[PostLike], moderator_keys: set[str]) -> Names:
    """The thread's posters other than the moderators, each its own seat."""
    posters = dict.fromkeys(p.author for p in posts)
    return Names({a: [a] for a in posters if a.casefold() not in moderator_keys})


def _read_cast(
    posts: list[PostLike],
    moderators: Sequence[str] | None,
    players: dict[str, Sequence[str]] | None,
    problems: list[str],
) -> _Cast:
    """The moderators and seats: the caller's where it knows them, else read from the thread."""
    opening = posts[0]
    if moderators:
        mods, mods_cite = tuple(moderators), None
    else:
        mods, mods_cite = read_moderators(opening)
    mod_keys = {m.casefold() for m in mods}
    authors = _authors(posts, mod_keys)
    player_facts: list[PlayerFact] = []
    if players:
        seats = {name: list(accounts) for name, accounts in players.items()}
    else:
        player_facts = _read_players(posts, mod_keys, authors, problems)
        seats = {p.name: [p.name, *p.replacements] for p in player_facts}
    cast = _Cast(mods, mods_cite, mod_keys, authors, seats, player_facts, [], mods_cite, None)
    if not moderators and seats:
        cast.helpers, cast.helpers_cite = read_helpers(posts, mod_keys, seats)
        if cast.helpers:
            cast.moderators = (*mods, *cast.helpers)
            cast.moderators_cite = mods_cite or cast.helpers_cite
            cast.keys |= {h.casefold() for h in cast.helpers}
    return cast


def _read_players(
    posts: list[PostLike], mod_keys: set[str], authors: Names, problems: list[str]
) -> list[PlayerFact]:
    """The seats of the moderators' player list (or of day 1's first count, when the list is cut
    short)."""
    dropped: list[str] = []
    posters = authors if authors.seat_of else None
    entries, list_post = find_player_list(posts, mod_keys, posters, dropped)
    counted = first_count_roster(posts, mod_keys, authors)
    # the list is cut short: the count has all
    if counted is not None and len(counted[0]) > len(entries):
        # (a count the posters do not vouch for yet stands only when each seat of the list it leaves
        # out is a name nobody has posted under: a heading read as a name, a player replaced before
        # posting)
        merged, left_out = _with_list_entries(counted[0], entries)
        if counted[2] or not any(authors.seat(a) for e in left_out for a in e.accounts):
            if left_out:
                names = ", ".join(e.accounts[0] for e in left_out)
                problems.append(
                    f"post {counted[1]}: {names} on the player list of post "
                    f"{list_post} but not in this first vote count: check [[players]]"
                )
            entries, list_post = merged, counted[1]
    if not entries or list_post is None:
        problems.append("no player list found in the moderators' posts")
        return []
    _list_problems(entries, list_post, dropped, problems)
    return [
        PlayerFact(e.accounts[0], e.accounts[1:], e.dead, Cite(list_post, trim(e.line)))
        for e in entries
    ]


def _list_problems(
    entries: list[_ListedSeat], list_post: int, dropped: list[str], problems: list[str]
) -> None:
    """A list numbered past its lines, and names on its lines not taken as seats."""
    top, gaps = numbering_gaps(entries)
    if gaps and top > len(entries):  # "1. ... 3. ... 13.": a list numbered to 13 names 13 seats
        problems.append(
            f"post {list_post}: the player list is numbered to {top} but gives "
            f"{len(entries)} seats (no line numbered {', '.join(map(str, gaps))}): "
            "check [[players]]"
        )
    # a name taken on another line, its mark aside ("+ Alder" under "+ = confirmed"), is no seat
    # left out
    taken = {squash(a) for e in entries for a in e.accounts}
    left = list(dict.fromkeys(name for name in dropped if squash(name) not in taken))
    if left:
        problems.append(
            f"post {list_post}: {', '.join(left)} on the player list's lines not taken "
            "as seats (no player who posted vouches for them): check [[players]]"
        )


def _read_posts(
    posts: list[PostLike],
    cast: _Cast,
    state: State,
    names: Names,
    after_post: int | None,
    timezone: tzinfo,
) -> State:
    """Each moderator post in order; the state the reading ends in."""
    opening = posts[0]
    # the opening post and the moderators' posts right after it (reserved, kept up to date)
    opening_block = True
    run: list[PostLike] = []  # the moderators' posts since the last player's post
    for post in posts:
        if post.author.casefold() not in cast.keys:
            opening_block = False
            run = []
            state.confirm_inferred_start()
            continue
        run.append(post)
        state.read_post(post.number, after_post)
        if post is opening:
            read_opening(post, state, timezone)
        elif read_night_zero(post, state):
            continue
        # after a Night 0 began, the moderator's posts are news
        elif opening_block and state.phase.day != 0:
            read_day_one_start(post, state, timezone)
        else:
            state = _read_news(post, run, state, names, cast.seats, timezone)
    state.keep_day_one_unseen()  # a Night 0 whose end the reader did not see
    confirm_counted_out(state, posts[-1].number)
    return state


def _read_news(
    post: PostLike,
    run: list[PostLike],
    state: State,
    names: Names,
    seats: dict[str, list[str]],
    timezone: tzinfo,
) -> State:
    """One moderator post after the opening: what it announces, unless it runs through several
    days."""
    if (
        state.phase.night
        and state.phase.night_post is not None
        and post.number > state.phase.night_post
        and (state.phase.dawn is None or state.phase.dawn[0] <= state.phase.night_post)
    ):
        first = read_lines(post.body_html)
        state.note_dawn(post.number, trim(first[0] if first else ""))
    before = state.snapshot(), {seat: list(accounts) for seat, accounts in seats.items()}
    read_announcement(post, state, names, seats, timezone)
    read_vote_count_day(post, run, state, timezone)
    read_counted_living(post, state, names, seats)
    read_death_taken_back(post, state, names)
    starts = len(state.facts.starts) - len(before[0].facts.starts)
    ends = len(state.facts.ends) - len(before[0].facts.ends)
    misread = _starts_and_ends(post, state, before[0].phase.day) and not _won_here(post, state)
    if starts > 1 or ends > 1 or misread:
        # a post that runs through several days is a summary the moderator keeps up to date
        # (often the reserved second post, edited after the fact): it announces nothing new. One
        # that starts a single day starts it, whatever its number: a day skipped is a note
        seats.clear()
        seats.update(before[1])
        names.rebuild(seats)
        return before[0]
    return state


_COUNT_HEADING = re.compile(
    r"^\W*(?:official\s+|final\s+)*(?:vote\s*count|votecount)\b", re.IGNORECASE
)


def _starts_and_ends(post: PostLike, state: State, day_before: int) -> bool:
    """The post starts a new day and ends that same day: no moderator opens and closes a day at
    once, so it is a summary or a rule misread, and announces nothing."""
    started = {s.day for s in state.facts.starts if s.post == post.number and s.day > day_before}
    return any(e.day in started for e in state.facts.ends if e.post == post.number)


def _won_here(post: PostLike, state: State) -> bool:
    """The post told the game won while the day it opened was open: the game's end closes that day
    as it opens (the last night's deaths, then "Game over"), no summary."""
    return state.phase.won_in_day is not None and state.phase.won_in_day[0] == post.number


def _with_list_entries(
    counted: list[_ListedSeat], listed: list[_ListedSeat]
) -> tuple[list[_ListedSeat], list[_ListedSeat]]:
    """The count's players, each as the list's entry for it where the list has one (its spelling,
    its struck earlier accounts), else as the count names it; and the list's entries the count
    leaves out."""
    names = Names({e.accounts[0]: e.accounts for e in listed})
    by_seat = {e.accounts[0]: e for e in listed}
    out, used = [], set()
    for entry in counted:
        seat = names.seat(entry.accounts[0]) or names.seat(names.spelled(entry.accounts[0]))
        if seat is not None and seat not in used:
            used.add(seat)
            out.append(by_seat[seat])
        else:
            out.append(entry)
    return out, [e for seat, e in by_seat.items() if seat not in used]


def _posts_by_seat(posts: Sequence[PostLike], names: Names) -> dict[str, list[int]]:
    """Each seat's posts in the thread (by any of its accounts known when the reading starts)."""
    written: dict[str, list[int]] = {}
    for post in posts:
        seat = names.seat_of.get(post.author.casefold())
        if seat is not None:
            written.setdefault(seat, []).append(post.number)
    return written


def read_announcement(
    post: PostLike, state: State, names: Names, seats: dict[str, list[str]], timezone: tzinfo
) -> None:
    """What one moderator post announces, sentence by sentence, then what the whole post tells."""
    lines = read_lines(post.body_html)
    read_missed_day(lines, post, state)
    count_day = next(
        (d for d in (vote_count_day(plain_text(line)) for line in lines[:3]) if d is not None), None
    )
    if (
        count_day is None
        and state.phase.night
        and any(_COUNT_HEADING.match(plain_text(line)) for line in lines[:2])
    ):
        count_day = state.phase.day  # a count at night naming no day: the ended day's final count
    state.note_count_day(count_day)
    read_wagons(lines, state, names)
    read_day_goes_on(" ".join(plain_text(line) for line in lines), state)
    for line, plain in (
        (whole, sentence) for whole in lines for sentence in sentences(plain_text(whole))
    ):
        cite = Cite(post.number, trim(line))
        read_replacements(
            plain, post, cite, state, names, seats
        )  # first: later sentences may name the new account
        if plain.rstrip().endswith("?"):
            continue  # a question ("Has the moderator declared the game is over?") tells nothing
        if read_phase(plain, lines, post, cite, state, timezone):
            read_death_in_dawn(plain, post, cite, state, names)
            continue
        read_game_won(plain, post, cite, state)
        if (
            read_lynch(plain, post, cite, state, names)
            or read_hammered_flip(plain, post, cite, state, names)
            or read_death(plain, post, cite, state, names)
        ):
            continue
        read_deadline_line(plain, post, cite, state, timezone)
    end_day_with_game(post, state)
    read_game_goes_on(post, state)
    read_majority_death(post, lines, state, names)
    read_lynch_flip(post, lines, state, names)
    read_count_lynch(post, state)
    if state.phase.won_in_day is not None and state.phase.won_in_day[0] == post.number:
        state.declare_game_over()
    read_next_day_in_end_post(
        post, lines, state, sum(1 for seat in seats if seat not in state.dead), timezone
    )
    read_dawn(post, lines, state, timezone)
    date_dawn_deaths(post, state)
    read_game_goes_on(post, state)  # again: a day the post's last lines open
