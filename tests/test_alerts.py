"""Alerts: what is detected from a votal and a sync, and that each is logged and sent once."""

from __future__ import annotations

import json
import logging
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
import requests
import responses
from loopback_forum import make_game

from assistant.counting.votal import NoEliminationCount, Problem, Votal, Wagon
from assistant.forum import store
from assistant.forum.fetch import post_json
from assistant.gamefile.outcome import Outcome
from assistant.output.alerts import Alert, AlertKind, deliver_alerts, detect_alerts

NOW = datetime(2026, 3, 3, 21, 20, tzinfo=UTC)
DEADLINE = datetime(2026, 3, 3, 22, 0, tzinfo=UTC)
WEBHOOK = "https://discord.example/api/webhooks/123/t0ken-that-is-secret"
GAME = replace(make_game("http://forum.example"), webhook=WEBHOOK, timezone="America/New_York")


def votal(**changes) -> Votal:
    base = Votal(
        day=2,
        alive=5,
        majority=3,
        as_of_post=120,
        wagons=(Wagon("Birch", 2, ("Alder", "Cedar")), Wagon("Elm", 1, ("Damson",))),
        no_elimination=NoEliminationCount(),
        not_voting=("Birch",),
        outcome=None,
        problems=(),
        deadline=DEADLINE + timedelta(hours=5),
    )
    return replace(base, **changes)


def kinds(alerts: list[Alert]) -> list[str]:
    return [a.kind for a in alerts]


def test_a_quiet_day_raises_nothing() -> None:
    assert detect_alerts(GAME, votal(), now=NOW) == []


def test_hammer() -> None:
    hammered = votal(
        wagons=(Wagon("Birch", 3, ("Alder", "Cedar", "Elm")),),
        outcome=Outcome("elimination", "Birch", 121, "majority"),
    )
    assert detect_alerts(GAME, hammered, now=NOW) == [
        Alert(
            AlertKind.HAMMER,
            "outcome:2:elimination:Birch:majority",
            "Day 2: hammer — Birch reached a majority at post 121; the day ends.",
        )
    ]


def test_unanimous_minus_one() -> None:
    u1 = votal(outcome=Outcome("elimination", "Elm", 130, "unanimous_minus_one"))
    assert detect_alerts(GAME, u1, now=NOW) == [
        Alert(
            AlertKind.UNANIMOUS_MINUS_ONE,
            "outcome:2:elimination:Elm:unanimous_minus_one",
            "Day 2: unanimous minus one on Elm at post 130; the day ends.",
        )
    ]


@pytest.mark.parametrize(
    ("reason", "kind", "said"),
    [
        (
            "majority",
            "hammer",
            "Day 2: hammer — Birch reached a majority at post 121; the day ends. The hammer was",
        ),
        (
            "unanimous_minus_one",
            "unanimous_minus_one",
            "Day 2: unanimous minus one on Birch at post 121; the day ends. The deciding vote was",
        ),
    ],
)
def test_a_day_decided_by_a_vote_read_with_doubt_sends_the_moderator_to_that_post(
    reason, kind, said
) -> None:
    doubtful = votal(
        wagons=(Wagon("Birch", 3, ("Alder", "Cedar", "Elm")),),
        outcome=Outcome("elimination", "Birch", 121, reason, doubt="learned alias"),
    )
    (alert,) = detect_alerts(GAME, doubtful, now=NOW)
    assert alert.kind == kind
    assert (
        alert.message
        == f"{said} read with doubt (learned alias): check that post before closing the day."
    )


def test_a_majority_that_does_not_end_the_day() -> None:
    held = votal(wagons=(Wagon("Birch", 3, ("Alder", "Cedar", "Elm")),))
    assert detect_alerts(GAME, held, now=NOW) == [
        Alert(
            AlertKind.MAJORITY, "majority:2:Birch", "Day 2: Birch has a majority (3 of 3 needed)."
        )
    ]


def test_deadline_near_only_in_the_last_hour_of_an_undecided_day() -> None:
    near = votal(deadline=DEADLINE)
    assert detect_alerts(GAME, near, now=NOW) == [
        Alert(
            AlertKind.DEADLINE_NEAR,
            "deadline:2:2026-03-03T22:00:00+00:00",
            "Day 2 ends in 40 min (Tue 03 Mar 17:00 EST).",
        )
    ]
    assert detect_alerts(GAME, near, now=DEADLINE - timedelta(hours=2)) == []
    assert detect_alerts(GAME, near, now=DEADLINE + timedelta(minutes=1)) == []


def test_forum_trouble_and_a_vote_not_counted_alert_only_when_it_could_change_the_outcome() -> None:
    from assistant.counting.doubts import NOTE, POSSIBLE_HAMMER, Doubt

    note = Doubt(117, NOTE, None, "Fir's 'VOTE: Brch' not counted (unknown name)")
    hammer = Doubt(
        118,
        POSSIBLE_HAMMER,
        "Birch",
        "Cedar's 'VOTE: Brch' not counted (unknown name); if it names "
        "Birch, it is a majority (3 of 3)",
    )
    troubled = votal(
        problems=(
            Problem(117, "Fir", "VOTE: Brch", "unknown name"),
            Problem(118, "Cedar", "VOTE: Brch", "unknown name"),
        ),
        doubts=(hammer, note),
    )
    alerts = detect_alerts(
        GAME,
        troubled,
        now=NOW,
        sync_error="http://forum.example/viewtopic.php?t=42: the page has no posts that Votal can read",
        page_problems=["post p1077: no author"],
    )
    assert kinds(alerts) == ["forum_error", "page_problem", "doubt"]
    assert alerts[0].message == (
        "Votal could not read the thread: http://forum.example/viewtopic.php?t=42: the page has no posts that "
        "Votal can read"
    )
    assert alerts[2].message == (
        "Day 2, post 118: Cedar's 'VOTE: Brch' not counted (unknown name); if it names Birch, it is a majority "
        "(3 of 3)."
    )
    assert alerts[2].key == "doubt:2:possible_hammer:118:Birch"


def test_the_same_situation_always_gives_the_same_keys() -> None:
    troubled = votal(
        problems=(Problem(118, "Cedar", "VOTE: Brch", "unknown name"),), deadline=DEADLINE
    )
    first = detect_alerts(GAME, troubled, now=NOW, sync_error="HTTP 500")
    later = detect_alerts(GAME, troubled, now=NOW + timedelta(minutes=10), sync_error="HTTP 500")
    assert [a.key for a in first] == [a.key for a in later]


def test_each_alert_is_logged_and_sent_once(caplog) -> None:
    caplog.set_level(logging.INFO, logger="votal.alerts")
    db = store.open_db(":memory:")
    sent: list[tuple[str, dict]] = []
    alerts = detect_alerts(
        GAME, votal(deadline=DEADLINE), now=NOW, sync_error="HTTP 500 fetching x"
    )
    new = deliver_alerts(
        db, GAME, alerts, now=NOW, post=lambda url, payload: sent.append((url, payload))
    )
    again = deliver_alerts(
        db, GAME, alerts, now=NOW, post=lambda url, payload: sent.append((url, payload))
    )
    assert (kinds(new), again) == (["forum_error", "deadline_near"], [])
    assert sent == [  # one message for both, and no mention can ping
        (
            WEBHOOK,
            {
                "content": "**Loopback Game**\n- Votal could not read the thread: HTTP 500 fetching x\n"
                "- Day 2 ends in 40 min (Tue 03 Mar 17:00 EST).",
                "allowed_mentions": {"parse": []},
            },
        ),
    ]
    assert caplog.text.count("HTTP 500 fetching x") == 1
    assert [r["sent"] for r in store.load_alerts(db, GAME.key)] == [NOW.isoformat()] * 2


def test_a_failed_webhook_is_retried_later_and_its_url_never_shown(caplog) -> None:
    db = store.open_db(":memory:")
    alerts = detect_alerts(GAME, votal(deadline=DEADLINE), now=NOW)

    def down(url, payload):
        response = requests.Response()
        response.status_code, response.url = 503, url
        raise requests.HTTPError(f"503 Server Error for url: {url}", response=response)

    deliver_alerts(db, GAME, alerts, now=NOW, post=down)
    [row] = store.load_alerts(db, GAME.key)
    assert (row["sent"], row["send_error"]) == (None, "HTTPError (HTTP 503)")
    sent = []
    deliver_alerts(db, GAME, alerts, now=NOW, post=lambda url, payload: sent.append(payload))
    assert len(sent) == 1
    assert "t0ken-that-is-secret" not in caplog.text


def test_no_webhook_means_log_only() -> None:
    db = store.open_db(":memory:")
    game = replace(GAME, webhook=None)

    def never(url, payload):
        raise AssertionError("no webhook configured")

    assert kinds(
        deliver_alerts(
            db, game, detect_alerts(game, votal(deadline=DEADLINE), now=NOW), now=NOW, post=never
        )
    ) == ["deadline_near"]


@responses.activate
def test_post_json_sends_discord_shaped_json() -> None:
    responses.post(WEBHOOK, status=204)
    post_json(WEBHOOK, {"content": "Day 2: hammer"})
    assert len(responses.calls) == 1
    assert json.loads(responses.calls[0].request.body) == {"content": "Day 2: hammer"}
    assert responses.calls[0].request.headers["Content-Type"] == "application/json"
    assert responses.calls[0].request.headers["User-Agent"].startswith("Votal/")


@responses.activate
def test_post_json_raises_on_failure() -> None:
    responses.post(WEBHOOK, status=404)
    with pytest.raises(requests.HTTPError):
        post_json(WEBHOOK, {"content": "x"})


def test_a_flood_of_alerts_is_one_message_and_pings_no_one() -> None:
    db = store.open_db(":memory:")
    sent: list[dict] = []
    hostile = [
        Alert(
            AlertKind.UNRESOLVED_VOTE,
            f"vote:1:{n}",
            f"Day 1, post 9: Mallory's 'vote @everyone <@&{n}> <!here>' ...",
        )
        for n in range(257)
    ]
    deliver_alerts(db, GAME, hostile, now=NOW, post=lambda url, payload: sent.append(payload))
    deliver_alerts(
        db,
        GAME,
        hostile,
        now=NOW + timedelta(hours=1),
        post=lambda url, payload: sent.append(payload),
    )
    assert len(sent) == 1
    [payload] = sent
    assert payload["allowed_mentions"] == {"parse": []}
    content = payload["content"]
    assert len(content) <= 2000 and "more (votal status shows them)" in content
    assert "@everyone" not in content and "<@&" not in content and "<!here" not in content
    assert "@\u200beveryone" in content  # shown, inert
    assert [r["sent"] for r in store.load_alerts(db, GAME.key, limit=300)] == [
        NOW.isoformat()
    ] * 257


def test_alerts_waiting_after_a_failed_send_go_together_with_new_ones() -> None:
    db = store.open_db(":memory:")
    sent: list[str] = []

    def down(url, payload):
        raise requests.ConnectionError("webhook down")

    deliver_alerts(
        db, GAME, [Alert(AlertKind.UNRESOLVED_VOTE, "vote:1:1", "problem 1")], now=NOW, post=down
    )
    deliver_alerts(
        db,
        GAME,
        [Alert(AlertKind.UNRESOLVED_VOTE, "vote:1:2", "problem 2")],
        now=NOW,
        post=lambda u, p: sent.append(p["content"]),
    )
    assert sent == ["**Loopback Game**\n- problem 1\n- problem 2"]


def test_no_pings_breaks_every_kind_of_mention() -> None:
    from assistant.output.alerts import no_pings

    assert no_pings("@here @everyone <@123> <@!123> <@&9> <!channel>") == (
        "@\u200bhere @\u200beveryone <@\u200b123> <@\u200b!123> <@\u200b&9> <\u200b!channel>"
    )


def test_alert_kinds_keep_the_spellings_the_store_and_json_hold() -> None:
    # stored in the alerts table and printed by --format json: a renamed value would orphan both
    assert [str(k) for k in AlertKind] == [
        "hammer",
        "unanimous_minus_one",
        "majority",
        "day_decided",
        "deadline_near",
        "unresolved_vote",
        "doubt",
        "forum_error",
        "page_problem",
        "warning",
        "outcome_disagrees",
        "game_file_disagrees",
    ]
    alert = Alert(AlertKind.HAMMER, "k", "m")
    assert json.dumps(alert.to_json()) == '{"kind": "hammer", "key": "k", "message": "m"}'
