"""Alerts for the moderator: what needs them now (a hammer, a near deadline, a vote Votal could not
read, a forum that stopped parsing), each logged once and sent once to the game's webhook.

:func:`detect_alerts` is pure: it reads a votal and a sync's outcome and returns alerts with stable
keys (the same situation always gives the same key). :func:`deliver_alerts` stores the new ones (the
store's ``alerts`` table is what makes "once" hold across restarts), logs them, and POSTs them to
the webhook.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from assistant.counting.checks import GameWarning
from assistant.counting.votal import Votal
from assistant.forum import store
from assistant.gamefile.game import Game
from assistant.gamefile.outcome import Kind, Reason

log = logging.getLogger("votal.alerts")

DEADLINE_NEAR = timedelta(hours=1)
DISCORD_LIMIT = 2000  # characters in one message's content
MAX_ATTEMPTS = 5  # webhook tries per alert, one per sync, before it is left for `votal status` only
# Discord-compatible: no @everyone, @here, user or role mention pings anyone
NO_MENTIONS: dict[str, list[str]] = {"parse": []}


class AlertKind(StrEnum):
    """What an alert is about. The values are stored in the ``alerts`` table and printed by
    ``--format json``: never reword one."""

    HAMMER = "hammer"
    UNANIMOUS_MINUS_ONE = "unanimous_minus_one"
    MAJORITY = "majority"
    DAY_DECIDED = "day_decided"
    DEADLINE_NEAR = "deadline_near"
    # a post of many votes at once, void until the moderator decides (other votes: DOUBT)
    UNRESOLVED_VOTE = "unresolved_vote"
    DOUBT = "doubt"  # what may be wrong with the count (assistant.counting.doubts), each once
    FORUM_ERROR = "forum_error"
    PAGE_PROBLEM = "page_problem"
    WARNING = "warning"
    # votal run --follow: an announced lynch the count disagrees with
    OUTCOME_DISAGREES = "outcome_disagrees"
    # votal run --follow: the thread says something the game file says otherwise
    GAME_FILE_DISAGREES = "game_file_disagrees"


@dataclass(frozen=True)
class Alert:
    kind: AlertKind
    key: str  # stable for one situation: a second detection of it is not a new alert
    message: str

    def to_json(self) -> dict[str, str]:
        return {"kind": str(self.kind), "key": self.key, "message": self.message}


def detect_alerts(
    game: Game,
    votal: Votal | None,
    *,
    now: datetime,
    sync_error: str | None = None,
    page_problems: Iterable[str] = (),
    warnings: Iterable[GameWarning] = (),
    complete: bool = True,
    deadline_near: timedelta = DEADLINE_NEAR,
) -> list[Alert]:
    """Everything in this votal and sync that the moderator should hear about; ``warnings`` are
    doubts about the game file against the thread (see :mod:`assistant.counting.checks`).
    ``complete`` false (the last sync failed part-way, so the store may lack posts) holds back every
    announcement of how the day stands: a count of half a thread can name a hammer or a deadline
    outcome that the whole thread contradicts."""
    alerts = _warning_alerts(warnings)
    if sync_error:
        message = f"Votal could not read the thread: {sync_error}"
        alerts.append(Alert(AlertKind.FORUM_ERROR, f"forum:{_digest(sync_error)}", message))
    for problem in page_problems:
        message = f"A post could not be read: {problem}"
        alerts.append(Alert(AlertKind.PAGE_PROBLEM, f"page:{_digest(problem)}", message))
    if votal is None:
        return alerts
    if complete:
        alerts.extend(_standing_alerts(votal, now))
    if (deadline := _deadline_alert(game, votal, now, deadline_near)) is not None:
        alerts.append(deadline)
    alerts.extend(_doubt_alerts(votal))
    alerts.extend(_void_alerts(votal))
    return alerts


def _warning_alerts(warnings: Iterable[GameWarning]) -> list[Alert]:
    """The game file's warnings; a note changes nothing and is never an alert."""
    # keyed by what it is about, not its words: "beyond the last stored post (33)" must not alert
    # anew at 34
    return [
        Alert(
            AlertKind.WARNING,
            f"warning:{w.kind}:{w.day}:{w.post}",
            f"Check the game file: {w.message}",
        )
        for w in warnings
        if not w.note
    ]


def _standing_alerts(votal: Votal, now: datetime) -> list[Alert]:
    """How the day stands: decided (a hammer, unanimous minus one, otherwise), or a wagon at a
    majority."""
    day, outcome = votal.day, votal.outcome
    if outcome is not None and outcome.kind != Kind.PENDING:
        at = f" at post {outcome.post}" if outcome.post is not None else ""
        who = outcome.target or "no elimination"
        key = f"outcome:{day}:{outcome.kind}:{outcome.target}:{outcome.reason}"
        hammer = outcome.reason == Reason.MAJORITY and not _past(votal.deadline, now)
        # however the day was decided, a deciding vote read with doubt sends the moderator to that
        # post
        check = (
            f" The {'hammer' if hammer else 'deciding vote'} was read with doubt ({outcome.doubt}):"
            " check that post before closing the day."
            if outcome.doubt
            else ""
        )
        if hammer:
            message = f"Day {day}: hammer — {who} reached a majority{at}; the day ends."
            return [Alert(AlertKind.HAMMER, key, message + check)]
        if outcome.reason == Reason.UNANIMOUS_MINUS_ONE:
            message = f"Day {day}: unanimous minus one on {who}{at}; the day ends."
            return [Alert(AlertKind.UNANIMOUS_MINUS_ONE, key, message + check)]
        message = f"Day {day} is decided: {who} ({outcome.reason}){at}."
        return [Alert(AlertKind.DAY_DECIDED, key, message + check)]
    if votal.majority is not None and votal.wagons and votal.wagons[0].votes >= votal.majority:
        top = votal.wagons[0]
        votes = _votes(top.votes)
        message = f"Day {day}: {top.target} has a majority ({votes} of {votal.majority} needed)."
        return [Alert(AlertKind.MAJORITY, f"majority:{day}:{top.target}", message)]
    return []


def _deadline_alert(
    game: Game, votal: Votal, now: datetime, deadline_near: timedelta
) -> Alert | None:
    """An undecided day whose deadline is within ``deadline_near``."""
    deadline = votal.deadline
    if (
        votal.outcome is not None
        or deadline is None
        or not timedelta(0) < deadline - now <= deadline_near
    ):
        return None
    when = f"{deadline.astimezone(game.tz):%a %d %b %H:%M %Z}"
    message = f"Day {votal.day} ends in {_duration(deadline - now)} ({when})."
    return Alert(AlertKind.DEADLINE_NEAR, f"deadline:{votal.day}:{deadline.isoformat()}", message)


def _doubt_alerts(votal: Votal) -> list[Alert]:
    """A vote not counted alerts only when it could change the outcome (a doubt); the rest are
    notes."""
    alerts = []
    for doubt in votal.doubts:
        if doubt.note:
            continue
        where = f", post {doubt.post}" if doubt.post is not None else ""
        key = f"doubt:{votal.day}:{doubt.kind}:{doubt.post}:{doubt.target}"
        alerts.append(Alert(AlertKind.DOUBT, key, f"Day {votal.day}{where}: {doubt.why}."))
    return alerts


def _void_alerts(votal: Votal) -> list[Alert]:
    """A post of many votes at once (a joke, a slip, a flood of bold votes) counts for none until
    the moderator decides, whatever the wagons: said once for the post, never once per vote in
    it."""
    alerts = []
    for action in votal.actions:
        # the command reader's verdict on the post, not a reason's wording
        if action.action == "void":
            voter = action.voter or action.author
            key = f"vote:{votal.day}:{action.post}:{_digest(action.text)}"
            message = (
                f"Day {votal.day}, post {action.post}: {voter}'s {action.text!r} was not counted:"
                f" {action.why_not}."
            )
            alerts.append(Alert(AlertKind.UNRESOLVED_VOTE, key, message))
    return alerts


def deliver_alerts(
    db: store.Store,
    game: Game,
    alerts: Iterable[Alert],
    *,
    now: datetime,
    post: Callable[[str, dict[str, Any]], None] | None = None,
) -> list[Alert]:
    """Store and log the alerts not seen before, then send the unsent ones to the game's webhook.

    Every unsent alert goes in ONE message per call (one per sync, and syncs are at least a minute
    apart: see ``game.MIN_SYNC_INTERVAL``), so a hostile post that raises hundreds of alerts costs
    one POST; what does not fit in a message is counted ("and 250 more") and left to `votal status`.
    The payload disables every mention (``allowed_mentions``) and the text has its ``@`` and ``<!``
    broken by a zero-width space, so no alert can ping anyone even where the first is ignored.
    ``post(url, payload)`` sends one JSON POST and raises on failure (default:
    :func:`fetch.post_json`). A failed send is tried again on the next call, up to MAX_ATTEMPTS
    times. Returns the new alerts.
    """
    alerts = list(alerts)
    new_keys = {
        a["key"] for a in store.add_alerts(db, game.key, [a.to_json() for a in alerts], now=now)
    }
    new = [a for a in alerts if a.key in new_keys]
    for alert in new:
        log.warning("%s: %s", game.title, alert.message)
    if not game.webhook:
        return new
    if post is None:
        from assistant.forum.fetch import post_json

        post = post_json
    rows = store.load_unsent_alerts(db, game.key, max_attempts=MAX_ATTEMPTS)
    if not rows:
        return new
    keys = [row["key"] for row in rows]
    try:
        post(
            game.webhook,
            {
                "content": webhook_text(game.title, [row["message"] for row in rows]),
                "allowed_mentions": NO_MENTIONS,
            },
        )
    except Exception as exc:  # noqa: BLE001 (a failed webhook must never stop the sync loop)
        # the webhook URL holds a token: the error names the failure, never the URL
        error = type(exc).__name__ + _status(exc)
        store.mark_alerts_sent(db, game.key, keys, sent_at=None, error=error)
        log.warning("%s: webhook failed (%s); will try again", game.title, error)
    else:
        store.mark_alerts_sent(db, game.key, keys, sent_at=now)
    return new


def webhook_text(title: str, messages: list[str], *, limit: int = DISCORD_LIMIT) -> str:
    """One message for every alert: as many as fit in ``limit`` characters, then how many more there
    are."""
    if len(messages) == 1:
        return no_pings(f"**{title}** — {messages[0]}")[:limit]
    text = f"**{title}**"
    for shown, message in enumerate(messages):
        line = "\n- " + no_pings(message)
        more = f"\n… and {len(messages) - shown} more (votal status shows them)"
        if len(text) + len(line) + len(more) + 40 > limit:  # room for the count of what is left
            return text + more
        text += line
    return text


def no_pings(text: str) -> str:
    """``@everyone``, ``@here``, ``<@id>``, ``<@&role>`` and Slack's ``<!channel>`` shown but
    inert."""
    return text.replace("@", "@\u200b").replace("<!", "<\u200b!")


def _status(exc: Exception) -> str:
    response = getattr(exc, "response", None)
    return f" (HTTP {response.status_code})" if response is not None else ""


def _past(deadline: datetime | None, now: datetime) -> bool:
    return deadline is not None and now >= deadline


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def _votes(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _duration(delta: timedelta) -> str:
    minutes = max(1, round(delta.total_seconds() / 60))
    return f"{minutes} min" if minutes < 60 else f"{minutes // 60} h {minutes % 60:02d} min"
