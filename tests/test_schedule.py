"""The scheduler: intervals near a deadline, pauses, regenerate hooks, alerts, a shared limiter,
clean stops."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from loopback_forum import (
    FakeTime,
    Forum,
    StallAwareSession,
    game_text,
    make_game,
    make_posts,
    stored_posts,
)

from assistant.cli.schedule import Runner, choose_interval, run_games
from assistant.forum import store
from assistant.forum.fetch import HostLimiter

REPO_ROOT = Path(__file__).resolve().parents[1]
NOW = datetime(2026, 3, 5, 12, 0, tzinfo=UTC)
GAME = make_game("http://forum.example")  # [fetch] interval: the default 300 s


@pytest.fixture
def forum(board) -> Forum:
    forum = Forum(make_posts(60))
    board.plug(forum.respond)
    return forum


@pytest.mark.parametrize(
    ("before_deadline", "expected"),
    [
        (None, 300.0),  # no deadline known
        (timedelta(hours=5), 300.0),
        (timedelta(hours=1, minutes=2), 120.0),  # wake when the last hour starts
        (timedelta(minutes=59), 60.0),  # the last hour: every minute
        (timedelta(seconds=-10), 300.0),  # past: back to normal
    ],
)
def test_next_interval_speeds_up_in_the_last_hour(before_deadline, expected) -> None:
    deadline = None if before_deadline is None else NOW + before_deadline
    assert choose_interval(GAME, now=NOW, deadline=deadline) == expected


def write_game(tmp_path: Path, base_url: str, name: str = "game.toml", **parts) -> Path:
    path = tmp_path / name
    path.write_text(game_text(base_url, **parts), encoding="utf-8")
    return path


def runner(tmp_path: Path, **options) -> Runner:
    options.setdefault("now", lambda: NOW)
    options.setdefault("count", lambda game, db, now: None)
    return Runner(
        db_path=tmp_path / "votal.db", limiter=HostLimiter(sleep=lambda s: None), **options
    )


def test_a_run_reads_the_stored_thread_once_per_count_for_the_count_and_the_warnings(
    forum, board, tmp_path, monkeypatch
) -> None:
    path = write_game(tmp_path, board.base_url)
    r = runner(tmp_path, count=None)  # the default count
    r.run_game(path)
    reads = []
    read_posts = store.load_read_posts
    monkeypatch.setattr(
        store, "load_read_posts", lambda *a, **k: reads.append(a) or read_posts(*a, **k)
    )
    idle = r.run_game(path)
    forum.edit(55, "edited")
    edited = r.run_game(path)
    assert (idle.result.changed, edited.result.changed) == (False, True)
    assert (idle.counted, edited.counted) == (False, True)
    # idle: the last count stands, nothing is read; edited: counted once, after the sync, count and
    # warnings alike
    assert len(reads) == 0 + 1


def test_regenerate_runs_only_after_a_sync_that_changed_something(forum, board, tmp_path) -> None:
    path = write_game(tmp_path, board.base_url)
    regenerated: list[int] = []
    r = runner(
        tmp_path, regenerate=[lambda game, db: regenerated.append(store.count_posts(db, game.key))]
    )
    first = r.run_game(path)
    idle = r.run_game(path)
    forum.edit(55, "edited")
    edited = r.run_game(path)
    assert [
        (run.result.new_posts, run.result.changed_posts, run.regenerated)
        for run in (first, idle, edited)
    ] == [
        (60, 0, True),
        (0, 0, False),
        (0, 1, True),
    ]
    assert idle.result.requests == 1
    assert regenerated == [60, 60]


def test_a_failing_hook_does_not_stop_the_others(forum, board, tmp_path) -> None:
    called = []

    def broken(game, db):
        raise RuntimeError("template missing")

    r = runner(tmp_path, regenerate=[broken, lambda game, db: called.append(game.title)])
    run = r.run_game(write_game(tmp_path, board.base_url))
    assert (run.regenerated, called) == (False, ["Loopback Game"])


def test_a_markup_change_alerts_once_and_the_game_stays_scheduled(forum, board, tmp_path) -> None:
    day = "[[days]]\nday = 1\nstart_post = 0\n"  # declared: an undeclared day 1 is a warning of its own
    path = write_game(
        tmp_path, board.base_url, tables=f'[alerts]\nwebhook = "https://hooks.example/abc"\n{day}'
    )
    sent = []
    r = runner(tmp_path, post_webhook=lambda url, payload: sent.append(payload["content"]))
    r.run_game(path)
    forum.add(1)
    forum.restyle()
    forum.restyle()
    broken = [r.run_game(path) for _ in range(2)]
    assert [run.error is not None for run in broken] == [True, True]
    assert [run.next_in for run in broken] == [300.0, 300.0]
    assert len(sent) == 1 and "markup may have changed" in sent[0]
    assert r.run_game(path).result.new_posts == 1  # the forum is back


def test_a_paused_game_makes_no_request(forum, board, tmp_path) -> None:
    dawn = NOW + timedelta(hours=8)
    r = runner(tmp_path, pause=lambda game, votal, now: dawn)
    run = r.run_game(write_game(tmp_path, board.base_url))
    assert (run.synced, run.next_in) == (False, 8 * 3600.0)
    assert forum.seen == []


def test_the_interval_comes_from_the_game_and_the_count_hook_gives_the_deadline(
    forum, board, tmp_path
) -> None:
    from assistant.counting.votal import NoEliminationCount, Votal

    def count(game, db, now):
        return Votal(
            2,
            5,
            3,
            None,
            (),
            NoEliminationCount(),
            (),
            None,
            (),
            deadline=NOW + timedelta(minutes=30),
        )

    slow = runner(tmp_path)
    assert (
        slow.run_game(write_game(tmp_path, board.base_url, fetch_extra="interval = 900")).next_in
        == 900.0
    )
    near = runner(tmp_path, count=count, fast_interval=45)
    assert (
        near.run_game(write_game(tmp_path, board.base_url, fetch_extra="interval = 900")).next_in
        == 45.0
    )


def test_run_games_shares_one_limiter_and_robots_txt_and_stops_cleanly(
    forum, board, tmp_path
) -> None:
    from assistant.counting.votal import NoEliminationCount, Votal

    def count(
        game, db, now
    ):  # a deadline close enough for the last hour's pace, made fast for the test
        return Votal(
            2,
            5,
            3,
            None,
            (),
            NoEliminationCount(),
            (),
            None,
            (),
            deadline=NOW + timedelta(minutes=30),
        )

    one = write_game(tmp_path, board.base_url, "one.toml")
    two = tmp_path / "two.toml"
    two.write_text(one.read_text().replace("&t=42", "&t=42&copy=2"), encoding="utf-8")
    r = runner(tmp_path, count=count, fast_interval=0.02)
    thread = threading.Thread(
        target=run_games,
        args=([one, two],),
        kwargs={"db_path": r.db_path, "runner": r, "install_signals": False},
    )
    thread.start()
    # a bound on a hang, not a timing under test: six syncs took more than the old 20 s on a loaded
    # machine
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and len([h for h in r.history if h.synced]) < 6:
        time.sleep(0.01)
    r.stop.set()
    thread.join(timeout=60)
    assert not thread.is_alive()
    assert {h.game for h in r.history} == {"Loopback Game"}
    assert len(r.history) >= 6
    assert [p for p, _, _ in forum.seen].count("/robots.txt") == 1
    db = store.open_db(r.db_path)
    assert tuple(db.execute("select count(distinct game), count(*) from posts").fetchone()) == (
        2,
        120,
    )


def test_sigterm_stops_a_running_scheduler_between_requests(forum, board, tmp_path) -> None:
    path = write_game(tmp_path, board.base_url)
    script = tmp_path / "run.py"
    script.write_text(
        "import sys\n"
        "from assistant.cli.schedule import run_games\n"
        "run_games([sys.argv[1]], db_path=sys.argv[2], echo=lambda line: print(line, flush=True),"
        " count=lambda game, db, now: None)\n"
        "print('exited', flush=True)\n"
    )
    child = subprocess.Popen(
        [sys.executable, str(script), str(path), str(tmp_path / "votal.db")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
    )
    first = child.stdout.readline()
    child.send_signal(signal.SIGTERM)
    out, err = child.communicate(timeout=30)
    assert child.returncode == 0, err[-2000:]
    assert first.startswith("Loopback Game: 60 new")
    assert out.rstrip().endswith("stopped\nexited")
    db = store.open_db(tmp_path / "votal.db")
    assert db.execute("pragma integrity_check").fetchone()[0] == "ok"
    assert store.count_posts(db, make_game(board.base_url).key) == 60


VOTE = '<strong class="text-strong">VOTE: {}</strong>'
# How long the stalled answer in play() holds: far past the read timeout its request is sent with
# (see StallAwareSession: only that request has a short one; 0.3 s, then 2 s, for every request was
# a bet on the load).
STALL = 30.0


def play(
    forum: Forum, tmp_path: Path, base_url: str, name: str, faults: dict, clock: FakeTime
) -> tuple[Runner, list[str]]:
    """Play one day on the forum in six polls; ``faults[poll](forum)`` misbehaves before that
    poll."""
    path = write_game(
        tmp_path, base_url, f"{name}.toml", tables='[alerts]\nwebhook = "https://hooks.example/w"\n'
    )
    sent: list[str] = []
    r = Runner(
        db_path=tmp_path / f"{name}.db",
        now=lambda: NOW,
        limiter=HostLimiter(clock=clock.clock, sleep=clock.sleep),
        post_webhook=lambda url, payload: sent.append(payload["content"]),
        fetch_options={"session": StallAwareSession(forum.stalls_next), "rng": random.Random(3)},
    )
    moves = [
        lambda f: f.add(20),
        lambda f: (f.add(3), f.edit(21, VOTE.format("Elm")), f.edit(22, VOTE.format("Birch"))),
        lambda f: (f.add(10), f.edit(27, VOTE.format("Elm"))),
        lambda f: (f.add(4), f.edit(35, VOTE.format("Damson"))),
        lambda f: (
            f.edit(35, VOTE.format("Elm") + " edited"),
            f.delete(36),
            f.edit(34, VOTE.format("Birch")),
            f.delete(22),  # Cedar's vote for Birch, on the first page: found by reading back to it
        ),
        lambda f: f.add(2),
    ]
    for poll, move in enumerate(moves):
        move(forum)
        if poll in faults:
            faults[poll](forum)
        r.run_game(path)
    return r, sent


def test_a_day_played_through_every_fault_ends_with_the_clean_votal(board, tmp_path) -> None:
    from assistant.counting.count import count_current_day

    clean_forum = Forum([])
    board.plug(clean_forum.respond)
    clean, clean_sent = play(clean_forum, tmp_path, board.base_url, "clean", {}, FakeTime())

    faulty_forum = Forum([])
    board.plug(faulty_forum.respond)
    faults = {
        0: lambda f: f.fail(500, 503),
        1: lambda f: f.stall(STALL),  # the client gives up first (the server thread is a daemon)
        2: lambda f: f.restyle(),  # this poll fails whole; the next one catches up
        3: lambda f: f.truncate(),
        4: lambda f: f.fail(429, headers={"Retry-After": "20"}),
    }
    waits = FakeTime()
    faulty, faulty_sent = play(faulty_forum, tmp_path, board.base_url, "faulty", faults, waits)

    def final(r: Runner):
        db = store.open_db(r.db_path)
        game = make_game(board.base_url)
        return count_current_day(game, db, NOW).to_json(), stored_posts(db, game.key)

    assert final(faulty) == final(clean)
    votal, posts = final(clean)
    # Birch and Cedar on Elm; Alder's vote counts as first posted (Damson; mafiascum counts edited
    # votes as first posted), and Elm's vote edited into an old post does not count
    assert [(w["target"], w["votes"]) for w in votal["wagons"]] == [("Elm", 2), ("Damson", 1)]
    assert [p["post_id"] for p in posts if p["deleted"]] == ["1022", "1036"]
    # every fault is on record: retried ones in the run's faults, the failed poll as an alert
    faults_seen = [
        f.split(" fetching ")[0] for h in faulty.history if h.result for f in h.result.faults
    ]
    assert faults_seen == ["HTTP 500", "HTTP 503", "ReadTimeout", "truncated page", "HTTP 429"]
    from assistant.output.status import collect_status

    status = collect_status(
        make_game(board.base_url),
        store.open_db(faulty.db_path),
        now=NOW,
        count=lambda g, d, n: None,
    )
    assert (status["syncs_24h"], status["faults_24h"]) == (6, 5)
    assert "forum_error" in {alert["kind"] for alert in status["alerts"]}
    assert [h.error is not None for h in faulty.history] == [
        False,
        False,
        True,
        False,
        False,
        False,
    ]
    extra = Counter(faulty_sent) - Counter(clean_sent)
    assert len(list(extra.elements())) == 1 and "markup may have changed" in next(iter(extra))

    # politeness: one request per page needed, plus one per fault (the syncs table records failed
    # polls too)
    def requests(r: Runner) -> list[int]:
        return [
            row["requests"]
            for row in store.open_db(r.db_path).execute("select requests from syncs order by id")
        ]

    # robots.txt + page 1; the last page; a new page too; the last page; back to page 1 for the
    # deletion; idle
    assert requests(clean) == [2, 1, 2, 1, 2, 1]
    # 500 + 503 retried; a timeout retried; the restyled page; catching up two pages + a truncated
    # page read again; a 429 waited out (20 s, on the limiter's clock) before the same two pages;
    # idle
    assert requests(faulty) == [4, 2, 1, 3, 3, 1]
    assert (
        20.0 in waits.sleeps and len(waits.sleeps) == 4
    )  # Retry-After, and backoff after 500, 503, timeout


def test_night_pause_lasts_until_the_next_day_starts_for_rulesets_without_night_votes(
    monkeypatch,
) -> None:
    from dataclasses import replace

    import assistant.counting.count
    from assistant.cli.schedule import find_night_end
    from assistant.counting.votal import NoEliminationCount, Votal
    from assistant.gamefile.outcome import Outcome
    from assistant.gamefile.rules import Ruleset, load_ruleset

    assert load_ruleset("witchhunt-online-2.0.1").night_votes is False
    assert load_ruleset("mafiascum").night_votes is True
    rules = Ruleset(name="nightless", day_hours=48, night_hours=24, night_votes=False)
    monkeypatch.setattr(assistant.counting.count, "ruleset_for", lambda game: rules)
    game = replace(GAME, start=datetime(2026, 3, 1, 22, tzinfo=UTC))
    day_end = datetime(2026, 3, 3, 22, tzinfo=UTC)
    undecided = Votal(1, 5, 3, 40, (), NoEliminationCount(), (), None, (), deadline=day_end)
    hammered = replace(undecided, outcome=Outcome("elimination", "Birch", 41, "majority"))

    assert find_night_end(game, undecided, day_end - timedelta(hours=1)) is None  # day 1 still open
    assert find_night_end(game, hammered, day_end - timedelta(hours=1)) == datetime(
        2026, 3, 4, 22, tzinfo=UTC
    )
    assert find_night_end(game, undecided, day_end + timedelta(hours=1)) == datetime(
        2026, 3, 4, 22, tzinfo=UTC
    )
    assert (
        find_night_end(game, undecided, datetime(2026, 3, 4, 22, 1, tzinfo=UTC)) is None
    )  # day 2 began
    monkeypatch.setattr(
        assistant.counting.count, "ruleset_for", lambda game: replace(rules, night_votes=True)
    )
    assert find_night_end(game, hammered, day_end) is None
    monkeypatch.setattr(assistant.counting.count, "ruleset_for", lambda game: rules)
    assert (
        find_night_end(replace(game, start=None), hammered, day_end) is None
    )  # no known start: keep polling


def test_regenerate_hooks_write_the_players_page_and_the_votal_draft(
    forum, board, tmp_path
) -> None:
    from assistant.cli.schedule import regenerate_hooks

    forum.edit(3, VOTE.format("Birch"))
    hooks = regenerate_hooks(
        site_dir=tmp_path / "public", drafts_dir=tmp_path / "drafts", now=lambda: NOW
    )
    r = runner(tmp_path, regenerate=hooks)
    run = r.run_game(write_game(tmp_path, board.base_url, "wh17.toml"))
    assert run.regenerated
    assert (tmp_path / "public" / "wh17" / "index.html").is_file()
    draft = (tmp_path / "drafts" / "wh17-votal.txt").read_text(encoding="utf-8")
    assert "Birch" in draft and "[b]" in draft.lower()
    assert not list((tmp_path / "drafts").glob("*.tmp"))


def test_the_current_days_pages_are_reread_every_hour_for_edits(forum, board, tmp_path) -> None:
    clock = [NOW]
    r = runner(tmp_path, now=lambda: clock[0], recheck_start=lambda game, db, votal: 26)
    path = write_game(tmp_path, board.base_url)
    r.run_game(path)
    forum.edit(30, "an edit on an earlier page")
    clock[0] = NOW + timedelta(minutes=5)
    plain = r.run_game(path)
    clock[0] = NOW + timedelta(minutes=61)
    recheck = r.run_game(path)
    clock[0] = NOW + timedelta(minutes=66)
    after = r.run_game(path)
    assert [(run.rechecked_from, run.result.changed_posts) for run in (plain, recheck, after)] == [
        (None, 0),
        (26, 1),
        (None, 0),
    ]


def test_day_start_post_from_the_game_file_or_the_first_post_after_the_start_time(
    forum, board, tmp_path
) -> None:
    from assistant.cli.schedule import find_day_start
    from assistant.counting.votal import NoEliminationCount, Votal

    votal = Votal(2, 5, 3, None, (), NoEliminationCount(), (), None, ())
    declared = "[[days]]\nday = 1\nstart_post = 0\n\n[[days]]\nday = 2\nstart_post = 31\n"
    timed = "[[days]]\nday = 1\nstart_post = 0\n\n[[days]]\nday = 2\nstart = 2026-03-01T22:40:00Z\n"
    db = store.open_db(tmp_path / "votal.db")
    r = runner(tmp_path)
    r.run_game(write_game(tmp_path, board.base_url))
    assert find_day_start(make_game(board.base_url, tables=declared), db, votal) == 31
    assert (
        find_day_start(make_game(board.base_url, tables=timed), db, votal) == 40
    )  # posts are a minute apart
    assert find_day_start(make_game(board.base_url), db, None) is None


def outputs(folder: Path) -> dict[str, int]:
    """Each page and draft written under ``folder``, by its inode: every write replaces the file
    whole (a new inode), so a page rewritten with the same text still shows, and no clock is needed
    to see it."""
    return {
        str(p.relative_to(folder)): p.stat().st_ino
        for p in [*folder.glob("site/*/index.html"), *folder.glob("drafts/*-votal.txt")]
    }


def test_a_round_with_nothing_new_rewrites_nothing_and_only_a_changed_game_is_redone(
    board, tmp_path
) -> None:
    from assistant.cli.schedule import regenerate_hooks

    quiet, busy = Forum(make_posts(20)), Forum(make_posts(20))  # one page each: no next-page links
    board.plug(
        lambda path, query, headers: (busy if query.get("copy") else quiet).respond(
            path, query, headers
        )
    )
    one = write_game(
        tmp_path, board.base_url, "one.toml", tables="[[days]]\nday = 1\nstart_post = 0\n"
    )
    two = tmp_path / "two.toml"
    two.write_text(one.read_text().replace("&t=42", "&t=42&copy=2"), encoding="utf-8")
    hooks = regenerate_hooks(
        site_dir=tmp_path / "site", drafts_dir=tmp_path / "drafts", now=lambda: NOW
    )
    r = runner(tmp_path, count=None, regenerate=hooks)

    first = r.run_round([one, two])
    written = outputs(tmp_path)
    idle = r.run_round([one, two])
    assert [(run.counted, run.regenerated) for run in first] == [(True, True), (True, True)]
    assert len(written) == 4
    assert [(run.result.requests, run.counted, run.regenerated, run.alerts) for run in idle] == [
        (1, False, False, 0),
        (1, False, False, 0),
    ]
    assert outputs(tmp_path) == written

    busy.add(2)
    busy.edit(21, VOTE.format("Birch"))
    changed = r.run_round([one, two])
    assert [(run.counted, run.regenerated) for run in changed] == [(False, False), (True, True)]
    rewritten = {name for name, inode in outputs(tmp_path).items() if written[name] != inode}
    assert rewritten == {"site/two/index.html", "drafts/two-votal.txt"}
    assert "Birch" in (tmp_path / "drafts" / "two-votal.txt").read_text(encoding="utf-8")
    assert [run.counted for run in r.run_round([one, two])] == [
        False,
        False,
    ]  # and it stands still again


def test_a_game_is_counted_again_when_its_clock_phase_or_its_file_changes(
    forum, board, tmp_path
) -> None:
    from assistant.cli.schedule import regenerate_hooks

    deadline = NOW + timedelta(hours=6)
    day = f"[[days]]\nday = 1\nstart_post = 0\nend = {deadline:%Y-%m-%dT%H:%M:%SZ}\n"
    path = write_game(tmp_path, board.base_url, tables=day)
    clock = [NOW]
    hooks = regenerate_hooks(site_dir=tmp_path / "site", drafts_dir=None, now=lambda: clock[0])
    r = runner(tmp_path, count=None, regenerate=hooks, now=lambda: clock[0])
    runs = []
    for moment in (
        NOW,
        NOW + timedelta(hours=1),
        deadline - timedelta(minutes=30),
        deadline - timedelta(minutes=20),
        deadline + timedelta(minutes=1),
        deadline + timedelta(minutes=6),
    ):
        clock[0] = moment
        runs.append(r.run_game(path))
    # counted: the first run; the deadline's last hour (its alert is sent); the deadline passed;
    # never between
    assert [(run.counted, run.regenerated) for run in runs] == [
        (True, True),
        (False, False),
        (True, True),
        (False, False),
        (True, True),
        (False, False),
    ]
    assert runs[2].alerts == 1
    path.write_text(
        path.read_text(encoding="utf-8").replace("Loopback Game", "Loopback Game II"),
        encoding="utf-8",
    )
    edited = r.run_game(path)
    assert (edited.game, edited.counted, edited.regenerated) == ("Loopback Game II", True, True)


def test_pages_and_drafts_made_from_the_runs_count_are_those_made_afresh(
    forum, board, tmp_path
) -> None:
    from assistant.cli.schedule import regenerate_hooks

    forum.edit(3, VOTE.format("Birch"))
    forum.edit(7, VOTE.format("Birch"))
    forum.edit(9, VOTE.format("Cedar"))
    path = write_game(
        tmp_path, board.base_url, "wh17.toml", tables="[[days]]\nday = 1\nstart_post = 0\n"
    )
    shared = tmp_path / "shared"
    r = runner(
        tmp_path,
        count=None,
        regenerate=regenerate_hooks(site_dir=shared, drafts_dir=shared, now=lambda: NOW),
    )
    assert r.run_game(path).regenerated
    afresh = tmp_path / "afresh"
    db = store.open_db(r.db_path)
    for hook in regenerate_hooks(site_dir=afresh, drafts_dir=afresh, now=lambda: NOW):
        hook(
            make_game(board.base_url, path=str(path), tables="[[days]]\nday = 1\nstart_post = 0\n"),
            db,
        )
    for name in ("wh17/index.html", "wh17/votal.json", "wh17-votal.txt"):
        assert (shared / name).read_text(encoding="utf-8") == (afresh / name).read_text(
            encoding="utf-8"
        ), name
    assert "Birch" in (shared / "wh17-votal.txt").read_text(encoding="utf-8")


def test_run_once_runs_every_game_one_time_and_exits(forum, board, tmp_path) -> None:
    from click.testing import CliRunner

    from assistant.cli.main import main

    path = write_game(tmp_path, board.base_url, "wh17.toml")
    args = [
        "run",
        str(path),
        "--db",
        str(tmp_path / "votal.db"),
        "--site",
        str(tmp_path / "public"),
        "--once",
    ]
    first = CliRunner().invoke(main, args)
    assert first.exit_code == 0, first.output
    assert "Loopback Game: 60 new" in first.output
    assert (tmp_path / "public" / "wh17" / "index.html").is_file()
    again = CliRunner().invoke(main, args)
    assert again.exit_code == 0, again.output
    assert "Loopback Game: nothing new (1 request)" in again.output
    assert "stopped" not in again.output  # it was not stopped: it ran its round and exited


def test_a_game_standing_still_retries_unsent_alerts_and_says_a_failed_sync(
    forum, board, tmp_path
) -> None:
    path = write_game(
        tmp_path, board.base_url, tables='[alerts]\nwebhook = "https://hooks.example/w"\n'
    )
    sent, failing = [], [True]

    def post(url, payload):
        if failing[0]:
            raise ConnectionError("webhook down")
        sent.append(payload["content"])

    r = runner(tmp_path, count=None, post_webhook=post)
    first = r.run_game(path)  # day 1 is not declared: a warning, whose sending fails
    failing[0] = False
    idle = r.run_game(path)
    assert (first.alerts, sent) == (1, [sent[0]]) and "day 1 is not declared" in sent[0]
    assert (idle.counted, idle.result.requests) == (False, 1)
    forum.restyle()
    broken = r.run_game(path)
    assert broken.error is not None and len(sent) == 2 and "markup may have changed" in sent[1]


def test_a_new_once_process_does_not_count_a_game_that_stood_still_since_the_last(
    forum, board, tmp_path, monkeypatch
) -> None:
    from assistant.cli.schedule import regenerate_hooks

    path = write_game(
        tmp_path, board.base_url, "wh17.toml", tables="[[days]]\nday = 1\nstart_post = 0\n"
    )
    reads = []
    read_posts = store.load_read_posts
    monkeypatch.setattr(
        store, "load_read_posts", lambda *a, **k: reads.append(a) or read_posts(*a, **k)
    )

    def once() -> tuple:  # a cron job: a new Runner (a new process) each time
        hooks = regenerate_hooks(
            site_dir=tmp_path / "site", drafts_dir=tmp_path / "drafts", now=lambda: NOW
        )
        r = runner(tmp_path, count=None, regenerate=hooks)
        reads.clear()
        run_games([path], db_path=r.db_path, runner=r, install_signals=False, once=True)
        (run,) = r.history
        return run.result.requests, run.counted, run.regenerated, len(reads), outputs(tmp_path)

    first = once()
    assert first[:3] == (4, True, True)  # robots.txt and the three pages
    assert once()[:4] == (1, False, False, 0)
    assert once()[4] == first[4]  # nothing rewritten
    forum.edit(55, VOTE.format("Birch"))  # on the last page, which each sync reads
    edited = once()
    assert edited[1:3] == (True, True)
    assert edited[4] != first[4]
    assert once()[1:4] == (False, False, 0)
