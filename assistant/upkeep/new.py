"""A first game file from what a thread says (`votal new`): the text to write and a report of what was found.

Pure: facts in (from :func:`assistant.reading.announcements.read_thread_facts`), TOML text and a report out. Every
entry read from the thread carries a comment citing the post and the moderator's words, so the moderator
reviews the file against the thread instead of writing it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, tzinfo

from assistant.reading.announcements import Cite, ThreadFacts

DEFAULT_RULESET = "mafiascum"


@dataclass(frozen=True)
class NewGame:
    text: str  # the game file (empty when nothing usable was found)
    found: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    summary: dict = field(default_factory=dict)

    @property
    def usable(self) -> bool:
        return bool(self.text)


def plan_game_file(
    facts: ThreadFacts,
    *,
    thread: str,
    forum: str,
    ruleset: str = DEFAULT_RULESET,
    timezone: str | None = None,
    zone: tzinfo = UTC,
    last_post: int | None = None,
    min_interval: float | None = None,
    posts_per_page: int | None = None,
) -> NewGame:
    """The game file ``facts`` support, what was found and what the moderator still has to add."""
    found: list[str] = []
    missing: list[str] = []
    title = facts.title or thread
    seats = facts.seat_accounts()
    # one account, one seat: a name the list repeats under another seat is left to the moderator
    owner: dict[str, str] = {}
    clean: dict[str, list[str]] = {}
    for seat, accounts in seats.items():
        kept = [a for a in accounts if owner.setdefault(a.casefold(), seat) == seat]
        if kept and kept[0] == seat:
            clean[seat] = kept
    if not facts.title:
        missing.append("no thread title found: set `title`")
    if not clean:
        missing.append("no player list found in the moderators' posts: add [[players]]")
        return NewGame("", found, missing, {"title": title, "thread": thread, "forum": forum, "written": False})
    cites = {p.name: p.cite for p in facts.players}
    replaced = {r.player: r for r in facts.replacements}
    lines = [
        f"title = {_s(title)}",
        f"thread = {_s(thread)}",
        f"forum = {_s(forum)}",
        f"ruleset = {_s(ruleset)}",
        f"moderators = [{', '.join(_s(m) for m in facts.moderators)}]" + _cite(facts.moderators_cite),
    ]
    if timezone:
        lines.append(f"timezone = {_s(timezone)}")
    fetch = [f"min_interval = {min_interval:g}"] if min_interval is not None else []
    if posts_per_page is not None:
        fetch.append(f"posts_per_page = {posts_per_page}  # as the thread's first page shows")
        found.append(f"posts per page: {posts_per_page}")
    if fetch:
        lines += ["", "[fetch]", *fetch]
    found.append(f"title: {title}")
    found.append(f"forum: {forum}")
    found.append(f"moderators: {', '.join(facts.moderators)}")
    for seat, accounts in clean.items():
        lines += ["", "[[players]]" + _cite(cites.get(seat)), f"name = {_s(seat)}"]
        if len(accounts) > 1:
            lines.append(f"replacements = [{', '.join(_s(a) for a in accounts[1:])}]" + _cite(
                replaced[seat].cite if seat in replaced else None))
    n_repl = sum(len(a) - 1 for a in clean.values())
    found.append(f"players: {len(clean)} seats" + (f", {n_repl} replacements" if n_repl else ""))
    days = _days(facts)
    for day in days:
        lines += ["", "[[days]]" + _cite(day["cite"]), f"day = {day['day']}", f"start_post = {day['start_post']}"]
        if day["end_post"] is not None:
            lines.append(f"end_post = {day['end_post']}" + _cite(day["end_cite"]))
        if day["end"] is not None:
            lines.append(f"end = {day['end'].astimezone(zone).replace(tzinfo=None).isoformat()}"
                         + _cite(day["end_cite_deadline"]))
    deaths = []
    for e in facts.eliminations:
        if e.player in clean:
            deaths.append((e.player, f"day {e.day}", None, e.cite))
    for d in facts.deaths:
        if d.player in clean and d.player not in {x[0] for x in deaths}:
            deaths.append((d.player, d.phase, d.post, d.cite))
    last_day = days[-1]["day"] if days else 0
    for player, phase, _, _ in [d for d in deaths if int(d[1].split()[1]) > last_day]:
        missing.append(f"{player} died in {phase}, after the last day read (day {last_day}): left out, check")
    deaths = [d for d in deaths if int(d[1].split()[1]) <= last_day]
    for player, phase, post, cite in deaths:
        lines += ["", "[[deaths]]" + _cite(cite), f"player = {_s(player)}", f"phase = {_s(phase)}"]
        if post is not None:
            lines.append(f"post = {post}")
    if days:
        ended = sum(1 for d in days if d["end_post"] is not None)
        found.append(f"days: {len(days)} ({ended} ended)")
        current = days[-1]
        if current["end_post"] is None and current["end"] is None:
            missing.append(f"no deadline found: add `end` to day {current['day']}")
    else:
        missing.append("no day start found: add [[days]] with day = 1 and its start_post")
    if deaths:
        found.append(f"deaths: {len(deaths)} ({', '.join(f'{p} {ph}' for p, ph, _, _ in deaths)})")
    for day in days:
        if day["end_post"] is not None and not any(e.day == day["day"] for e in facts.eliminations):
            missing.append(f"day {day['day']} ended at post {day['end_post']} with no lynch or no-lynch read: check")
    for problem in facts.problems:
        missing.append(problem)
    summary = {
        "title": title,
        "thread": thread,
        "forum": forum,
        "ruleset": ruleset,
        "moderators": list(facts.moderators),
        "players": [{"name": s, "replacements": a[1:]} for s, a in clean.items()],
        "days": [{k: (v.isoformat() if hasattr(v, "isoformat") else v) for k, v in d.items()
                  if k in ("day", "start_post", "end_post", "end")} for d in days],
        "deaths": [{"player": p, "phase": ph, "post": po} for p, ph, po, _ in deaths],
        "last_post": last_post,
    }
    return NewGame("\n".join(lines) + "\n", found, missing, summary)


def _days(facts: ThreadFacts) -> list[dict]:
    starts = {s.day: s for s in facts.day_starts}
    ends = {e.day: e for e in facts.day_ends}
    deadlines: dict[int, object] = {}
    for d in facts.deadlines:
        deadlines[d.day] = d  # the last announced (an extension moves it)
    if not starts:
        return []
    days = []
    previous_end = None
    # days follow one another: a start or end out of order is left for the moderator; a day may start in the
    # post that ended the one before ("Day 2 is over. Day 3 starts now.")
    floor_start, floor_end = -1, -1
    for number in range(1, max([*starts, *ends]) + 1):
        start = starts.get(number)
        start_post = start.post if start else previous_end
        if start_post is None or start_post <= floor_start or start_post < floor_end:
            previous_end = None
            continue
        end = ends.get(number)
        if end is not None and end.post < start_post:
            end = None
        floor_start, floor_end = start_post, (end.post if end else start_post)
        deadline = deadlines.get(number)
        days.append({
            "day": number,
            "start_post": start_post,
            "cite": start.cite if start else None,
            "end_post": end.post if end else None,
            "end_cite": end.cite if end else None,
            "end": deadline.time if deadline and not end else None,
            "end_cite_deadline": deadline.cite if deadline else None,
        })
        previous_end = end.post if end else None
    return days


def _s(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def _cite(cite: Cite | None) -> str:
    if cite is None:
        return ""
    words = "".join(c if c.isprintable() else " " for c in cite.words)  # a TOML comment holds no control chars
    return f"  # post {cite.post}: {words}" if words else f"  # post {cite.post}"


def create_game_file(url: str, out: str, *, db, ruleset: str | None, timezone: str | None, now, progress=None,
                     fetcher=None, min_interval: float | None = None) -> NewGame:
    """Sync the thread at ``url`` into ``db``, read it, and write the game file to ``out`` when usable (I/O edge
    of :func:`plan_game_file`)."""
    from pathlib import Path

    from assistant.errors import VotalError
    from assistant.forum import store
    from assistant.forum.fetch import make_fetcher
    from assistant.forum.sync import sync_game
    from assistant.gamefile.game import FetchSettings, Game, parse_game
    from assistant.gamefile.weburl import url_problem
    from assistant.gamefile.zones import UnknownZone, zone_named
    from assistant.reading.announcements import read_thread_facts
    from parsers.detect import detect_engine, get_parser
    from parsers.markup import read_title

    if (problem := url_problem(url)) is not None:  # refused before any request: a retry cannot mend it
        raise VotalError(problem)
    try:  # the forms the game file accepts (UTC-5, GMT+10:30, IANA names), refused with them listed
        zone = zone_named(timezone) if timezone else UTC
    except UnknownZone as exc:
        raise VotalError(f"--timezone: {exc}") from None
    settings = FetchSettings() if min_interval is None else FetchSettings(min_interval=min_interval)
    game = Game(path=Path(out), title=url, thread=url, ruleset=ruleset or DEFAULT_RULESET, players=(),
                timezone=timezone, fetch=settings)
    fetcher = fetcher or make_fetcher(game)
    try:
        engine = detect_engine(url)
    except VotalError:
        engine = detect_engine(url, fetcher.get(url))
    parser = get_parser(engine)
    first_url = parser.page_url(url)
    first = fetcher.get(first_url)  # the first page, for the thread's title and page size
    game = Game(path=Path(out), title=url, thread=url, ruleset=game.ruleset, players=(), forum=engine,
                timezone=timezone, fetch=game.fetch)
    sync_game(game, db, fetcher, now=now, on_page=(lambda r: progress(r.pages)) if progress else None)
    posts = store.load_posts(db, game.key)
    facts = read_thread_facts(posts, title=read_title(first), timezone=zone)
    result = plan_game_file(facts, thread=url, forum=engine, ruleset=ruleset or DEFAULT_RULESET,
                            timezone=timezone, zone=zone, last_post=posts[-1].number if posts else None,
                            min_interval=min_interval,
                            posts_per_page=page_size(parser, url, parser.parse_page(first, url=first_url)))
    if result.usable:
        parse_game(result.text, path=out)  # what we write must load: a failure here is our bug, not the thread's
        Path(out).write_text(result.text, encoding="utf-8")
    return result


def page_size(parser, thread: str, first_page) -> int | None:
    """The posts a page holds, when the thread's first page shows it and the engine's default would ask for
    other pages (a stock phpBB set to 25 a page): written to the game file, every sync asks for the forum's own
    pages. None when the thread fits one page or the default is right."""
    size = len(first_page.posts)
    if not first_page.next_url or size < 2:
        return None
    probe = 7 * size + 3  # a post well into the thread, off any page boundary both sizes share
    if parser.page_url(thread, after_post=probe) == parser.page_url(thread, after_post=probe, per_page=size):
        return None
    return size
