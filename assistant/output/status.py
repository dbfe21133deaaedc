"""What `votal status` shows for each game: last sync, posts stored, current day and leader,
deadline, problems."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from assistant.counting.votal import Votal
from assistant.counting.votes import show_votes
from assistant.errors import VotalError
from assistant.forum import store
from assistant.gamefile.game import Game
from assistant.gamefile.zones import zone_named

if TYPE_CHECKING:
    from assistant.counting.count import StoredGame

CountHook = Callable[[Game, store.Store, datetime], "Votal | None"]


def collect_status(
    game: Game, db: store.Store, *, now: datetime, count: CountHook | None = None
) -> dict[str, Any]:
    """One game's status as plain data (the JSON of `votal status --format json`).

    ``count``: how to count the current day (default: from the stored thread, read once for the
    count and the warnings both)."""
    last = store.last_sync(db, game.key)
    totals = store.post_totals(db, game.key)
    problems: list[str] = []
    if last and last["error"]:
        problems.append(f"last sync failed: {last['error']}")
    votal = stored = None
    try:
        if totals["stored"] and count is not None:
            votal = count(game, db, now)
        elif totals["stored"]:
            from assistant.counting.count import count_current_day, load_stored_game

            stored = load_stored_game(game, db)
            votal = count_current_day(game, db, now, stored=stored)
    except VotalError as exc:
        problems.append(f"cannot count: {exc}")
    warnings, noted = _game_warnings(game, db, votal, stored, now) if totals["stored"] else ([], [])
    if last and last["error"] and votal is not None:
        # the same rule as `votal run`'s alerts: a failed sync may have stored only part of the
        # thread
        warnings.append(
            "the last sync failed part-way: the day below is counted from the posts stored so far"
        )
    # votes not counted: each one that could change the outcome is a doubt; the rest are notes
    # (JSON)
    doubts = [d for d in votal.doubts if not d.note] if votal is not None else []
    notes = (
        [f"post {p.post}: {p.voter}'s {p.text!r} not counted: {p.reason}" for p in votal.problems]
        if votal
        else []
    )
    alerts = store.load_alerts(db, game.key, limit=50)
    unsent = [a for a in alerts if a["sent"] is None and a["send_error"]]
    if unsent:
        error = unsent[0]["send_error"]
        problems.append(f"{len(unsent)} alert(s) could not be sent to the webhook ({error})")
    return {
        **_sync_status(game, db, now, last, totals),
        **_day_status(game, db, votal, now),
        "problems": problems,
        "doubts": [d.to_json() for d in doubts],
        "notes": notes + noted,
        "warnings": warnings,
        "alerts": [
            {"kind": a["kind"], "message": a["message"], "created": a["created"], "sent": a["sent"]}
            for a in store.load_alerts(db, game.key, limit=5)
        ],
    }


def _game_warnings(
    game: Game, db: store.Store, votal: Votal | None, stored: StoredGame | None, now: datetime
) -> tuple[list[str], list[str]]:
    """The game file's warnings about the day counted: those to act on, and the notes."""
    from assistant.counting.count import game_warnings

    days = [votal.day] if votal is not None else []
    found = game_warnings(game, db, days=days, stored=stored, now=now)
    return [w.message for w in found if not w.note], [w.message for w in found if w.note]


def _sync_status(
    game: Game, db: store.Store, now: datetime, last: sqlite3.Row | None, totals: sqlite3.Row
) -> dict[str, Any]:
    """The game and its syncs: the last, the last good one, the last day's requests and faults."""
    last_ok = store.last_good_sync(db, game.key)
    faults_24h = store.sync_totals(db, game.key, since=now - timedelta(hours=24))
    return {
        "game": game.title,
        "file": str(game.path),
        "thread": game.thread,
        # the game's zone, as the file names it: text shows times in it
        "timezone": game.timezone or "UTC",
        "last_sync": last["finished"] if last else None,
        "last_sync_ok": last_ok["finished"] if last_ok else None,
        "last_sync_requests": last["requests"] if last else None,
        # failed answers retried (or the error)
        "last_sync_faults": last["faults"] if last else None,
        "syncs_24h": faults_24h["syncs"],
        "requests_24h": faults_24h["requests"],
        "faults_24h": faults_24h["n"],
        "posts": totals["stored"] - totals["deleted"],
        "deleted_posts": totals["deleted"],
    }


def _day_status(game: Game, db: store.Store, votal: Votal | None, now: datetime) -> dict[str, Any]:
    """The day counted: its leader, majority, outcome and deadline."""
    leader = votal.wagons[0] if votal is not None and votal.wagons else None
    deadline = votal.deadline if votal is not None else None
    last_post = store.last_post_number(db, game.key)
    return {
        "day": votal.day if votal is not None else None,
        "leader": {"target": leader.target, "votes": show_votes(leader.votes)} if leader else None,
        "majority": votal.majority if votal is not None else None,
        "outcome": votal.outcome.to_json() if votal is not None and votal.outcome else None,
        "day_closed": votal is not None and _closed(game, votal.day, last_post),
        "deadline": deadline.isoformat() if deadline else None,
        "deadline_in_seconds": round((deadline - now).total_seconds()) if deadline else None,
    }


def _closed(game: Game, day: int, last_post: int | None) -> bool:
    """Whether the game file records the day's end at a stored post: the moderator has closed it."""
    declared = game.day(day)
    ended = declared.end_post if declared is not None else None
    return ended is not None and last_post is not None and ended <= last_post


SHOWN = 5  # things needing the moderator listed in full; the rest are counted (all of them are in the JSON)


def needs_moderator(status: dict[str, Any]) -> list[str]:
    """What needs the moderator, most urgent first: a broken sync, a decided day to announce, a
    deadline that passed or is near, doubts that could change the count (a vote not counted that
    would decide the day...), doubts about the game file, alerts that were not sent. Votes not
    counted that change nothing are notes: in the JSON only."""
    items = [p for p in status["problems"] if p.startswith(("last sync failed", "cannot count"))]
    outcome = status["outcome"]
    if outcome and not status.get("day_closed"):  # a day the file records as ended was announced
        who = outcome["target"] or outcome["kind"].replace("_", " ")
        at = f", post {outcome['post']}" if outcome["post"] is not None else ""
        items.append(
            f"day {status['day']} is decided: {who} ({outcome['reason'].replace('_', ' ')}{at})"
        )
        if outcome.get("doubt") and not status.get("doubts"):
            items.append(
                f"the hammer was read with doubt ({outcome['doubt']}): check post {outcome['post']} before"
                " closing the day"
            )
    left = status["deadline_in_seconds"]
    if not outcome and left is not None and left <= 3600:
        items.append(
            f"day {status['day']}'s deadline "
            + ("has passed" if left <= 0 else f"is {_left(left)}")
        )
    items += [
        f"post {d['post']}: {d['why']}" if d["post"] is not None else d["why"]
        for d in status.get("doubts", [])
    ]
    items += [p for p in status["problems"] if p not in items]
    items += [f"warning: {w}" for w in status["warnings"]]
    return items


def format_status_text(status: dict[str, Any]) -> str:
    """One game's status for a terminal: what needs the moderator first, then the state, the rest
    folded."""
    lines = [status["game"]]
    needs = needs_moderator(status)
    if needs:
        lines.append(f"  needs you ({len(needs)}):")
        lines += [f"    {item}" for item in needs[:SHOWN]]
        if len(needs) > SHOWN:
            lines.append(f"    ... and {len(needs) - SHOWN} more (votal status --format json)")
    if status["day"] is not None:
        leader = status["leader"]
        # plurality rulesets have no threshold: the leader is simply ahead
        of = f"/{status['majority']}" if status["majority"] is not None else " (most votes)"
        lead = f"{leader['target']} {leader['votes']}{of}" if leader else "no votes"
        lines.append(f"  day {status['day']}: {lead}")
    zone = status.get("timezone") or "UTC"
    if status["deadline"]:
        deadline = _local(status["deadline"], zone)
        lines.append(f"  deadline: {deadline} ({_left(status['deadline_in_seconds'])})")
    if status["last_sync"] is None:
        lines.append("  never synced (run: votal sync GAME_FILE)")
    else:
        good = status["last_sync_ok"]
        ok = "" if status["last_sync"] == good else f" (failed; last good: {_local(good, zone)})"
        lines.append(f"  last sync: {_local(status['last_sync'], zone)}{ok}")
    if status["syncs_24h"]:
        count = status["faults_24h"]
        faults = f"; {count} failed answer{'s' if count != 1 else ''} retried" if count else ""
        syncs, requests = (
            _counted(status["syncs_24h"], "sync"),
            _counted(status["requests_24h"], "request"),
        )
        lines.append(f"  last 24 h: {syncs}, {requests}{faults}")
    deleted = f" (+{status['deleted_posts']} deleted)" if status["deleted_posts"] else ""
    lines.append(f"  posts: {status['posts']}{deleted}")
    if status["notes"]:  # kept for the record: nothing to do
        noted = len(status["notes"])
        lines.append(f"  notes: {noted}, nothing to do (votal status --format json lists them)")
    if status["alerts"]:
        latest = status["alerts"][0]
        earlier = f" (+{len(status['alerts']) - 1} earlier)" if len(status["alerts"]) > 1 else ""
        lines.append(
            f"  last alert ({_local(latest['created'], zone)}): {latest['message']}{earlier}"
        )
    return "\n".join(lines)


def _local(iso: str | None, zone: str) -> str:
    """A stored UTC time as the moderator reads it: in the game's zone, the zone named (JSON keeps
    UTC)."""
    if not iso:
        return "never"
    moment = datetime.fromisoformat(iso)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return f"{moment.astimezone(zone_named(zone)):%Y-%m-%d %H:%M %Z}"


def _counted(number: int, noun: str) -> str:
    return f"{number} {noun if number == 1 else noun + 's'}"


def _left(seconds: int) -> str:
    if seconds <= 0:
        return "passed"
    hours, rest = divmod(seconds, 3600)
    return f"in {hours} h {rest // 60:02d} min" if hours else f"in {rest // 60} min"
