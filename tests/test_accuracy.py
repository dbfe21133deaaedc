"""Vote-reading accuracy on real MafiaScum games, end to end: the threads are served as phpBB pages
on loopback, read with `votal sync`, and every scorable day is counted with `votal count --format
json`.

Issue 3's bar: at least 98% of days decided correctly (the right player eliminated, or no one) and
the hammer post found on at least 96% of the days where the corpus says which post it was.

The archive names some accounts otherwise than the forum shows them (a typo, a case, a space). Votal
never counts a post by an account the game file does not list; it reports the unlisted account that
resembles a seat, and the moderator adds it to the seat's replacements. The game files here do the
same: after the sync, the accounts Votal reports (:func:`corpus.confirmed_accounts`) are added, then
the days are counted.
"""

from __future__ import annotations

import json
from functools import cache

import pytest
from click.testing import CliRunner
from corpus import (
    CORPUS_DIR,
    ExpectedDay,
    confirmed_accounts,
    expected_days,
    load_games,
    load_posts,
    post_time,
    render_game_file,
)
from loopback_forum import render_page

from assistant.cli.demo import PhpbbThread
from assistant.cli.main import main
from assistant.forum import store
from assistant.forum.pageserver import LoopbackServer, Response
from assistant.gamefile.game import parse_game

pytestmark = pytest.mark.skipif(
    not CORPUS_DIR.is_dir(), reason="the corpus (../shared/corpus) is not beside the checkout"
)

FORUM_ID = "53"
PER_PAGE = 200  # MafiaScum serves up to 200 posts a page (&ppp=)
DAYS_BAR = 0.98
HAMMER_BAR = 0.96
AFTER_ALL_GAMES = "2020-01-01T00:00:00+0000"  # counted as of a fixed time, never the wall clock


@cache
def _thread(thread_id: str) -> PhpbbThread:
    posts = [
        {
            "number": p["number"],
            "id": str(p["id"]),
            "user": p["user"],
            "content": p["content"],
            "time": post_time(p),
        }
        for p in load_posts(thread_id)
    ]
    return PhpbbThread(posts, f"Game thread {thread_id}", FORUM_ID, thread_id, PER_PAGE)


def _respond(path: str, query: dict[str, str], headers: dict[str, str]) -> Response:
    if path == "/robots.txt":
        return Response(200, "User-agent: *\nDisallow:\n", {"Content-Type": "text/plain"})
    thread = _thread(query["t"])
    html = render_page(thread, int(query.get("start", "0") or 0))
    return Response(200, html, {"Content-Type": "text/html; charset=utf-8"})


def _run(*args) -> str:
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout  # stderr holds the progress a slow sync shows


@pytest.fixture(scope="module")
def counted(tmp_path_factory) -> list[tuple[ExpectedDay, dict]]:
    """Each scorable day with the JSON `votal count` printed for it."""
    folder = tmp_path_factory.mktemp("accuracy")
    results = []
    with LoopbackServer(_respond) as server:
        for game in load_games():
            days = expected_days(game)
            if not days:
                continue
            url = f"{server.base_url}/viewtopic.php?f={FORUM_ID}&t={game.thread_id}"
            path = folder / f"{game.number}.toml"
            path.write_text(
                render_game_file(game, thread_url=url, posts_per_page=PER_PAGE), encoding="utf-8"
            )
            db = folder / f"{game.number}.db"
            summary = json.loads(_run("sync", path, "--db", db, "--format", "json"))
            assert summary["new_posts"] == len(load_posts(game.thread_id)), summary
            connection = store.open_reader(db)
            try:
                authors = store.post_authors(
                    connection, parse_game(path.read_text(encoding="utf-8")).key
                )
            finally:
                connection.close()
            confirmed = confirmed_accounts(path.read_text(encoding="utf-8"), authors)
            text = render_game_file(
                game, thread_url=url, posts_per_page=PER_PAGE, confirmed=confirmed
            )
            path.write_text(text, encoding="utf-8")
            printed = _run(
                "count",
                path,
                "--db",
                db,
                "--all-days",
                "--at-time",
                AFTER_ALL_GAMES,
                "--format",
                "json",
            )
            votals = {votal["day"]: votal for votal in json.loads(printed)}
            results.extend((day, votals[day.day]) for day in days)
    return results


def _decided(day: ExpectedDay, votal: dict) -> bool:
    outcome = votal["outcome"]
    if outcome is None or outcome["kind"] == "pending":
        return False
    got = outcome["target"] if outcome["kind"] == "elimination" else None
    return got == day.eliminated


def _describe(day: ExpectedDay, votal: dict) -> str:
    return (
        f"game {day.game} day {day.day}: expected {day.eliminated or 'no lynch'} before post {day.twilight_post}, "
        f"got {votal['outcome']}"
    )


def test_the_corpus_has_the_scorable_days_of_its_readme(counted):
    assert len(counted) == 122


def test_days_are_decided_correctly(counted):
    misses = [_describe(day, votal) for day, votal in counted if not _decided(day, votal)]
    share = 1 - len(misses) / len(counted)
    assert share >= DAYS_BAR, f"{share:.1%} of days decided correctly; misses:\n" + "\n".join(
        misses
    )


def test_hammer_posts_are_found(counted):
    checked = [(day, votal) for day, votal in counted if day.check_hammer]
    misses = [
        _describe(day, votal)
        for day, votal in checked
        if not (_decided(day, votal) and day.hammer_ok(votal["outcome"]["post"]))
    ]
    share = 1 - len(misses) / len(checked)
    assert share >= HAMMER_BAR, f"{share:.1%} of hammer posts found; misses:\n" + "\n".join(misses)
