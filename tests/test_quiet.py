"""Quiet on a clean game (issue 33): what Votal writes itself (`votal new`, then `votal run --follow` as the
thread grows) never makes Votal ask the moderator to look; play going on after a hammer still does."""

from __future__ import annotations

import json
from datetime import timedelta

from click.testing import CliRunner
from gamestart import START, styled_thread
from loopback_forum import Forum, serve

from assistant.cli.main import main
from assistant.output.status import needs_moderator

FIR = "<b>vote: Fir</b>"
HELLOS = [("Alder", "hello"), ("Birch", "hi"), ("Cedar", "hey")]
DAY_ONE = [*((name, "<b>vote: Birch</b>") for name in ("Alder", "Cedar", "Damson", "Elm", "Fir", "Gorse")),
           ("Hazel", "wait, is that a hammer?"), ("Ivy", "it is"),  # players post until the moderator sees it
           ("Host", "Birch was lynched! Birch was a Vanilla Townie.<br>Night 1 begins."),
           ("Host", "Cedar was found dead. Cedar was a Cop.<br>Day 2 begins now.")]
DAY_TWO_OPEN = [("Alder", FIR), ("Damson", "hmm, Fir has been quiet")]
# Hazel hammers Fir (5 of 8); Juniper, who had not seen it, votes after: one late vote changes nothing
DAY_TWO_HAMMER = [*((name, FIR) for name in ("Damson", "Elm", "Gorse", "Hazel")), ("Juniper", "<b>vote: Alder</b>")]
DAY_TWO_CLOSE = [("Host", "Fir was lynched! Fir was a Mafia Goon.<br>Night 2 begins.")]
DAY_THREE = [("Host", "Gorse was found dead. Gorse was a Doctor.<br>Day 3 begins now."), ("Alder", "gg so far")]
# the moderator's count after Hazel's vote still has Fir short of the majority, and players vote on
PLAY_GOES_ON = [("Host", "Vote Count 2.3<br>Fir (4): Alder, Damson, Elm, Gorse<br>Not voting: Fir, Hazel, Ivy, Juniper"),
                ("Ivy", "<b>vote: Alder</b>"), ("Juniper", "<b>vote: Alder</b>")]


class LiveGame:
    """A thread on loopback that grows step by step, its game file written by `votal new` and kept by `votal run
    --follow` (Votal's own writing only), read back through the real CLI."""

    def __init__(self, tmp_path, server, forum: Forum) -> None:
        from assistant.cli.schedule import HostLimiter, Runner
        from assistant.upkeep.update import follow_hook

        self.forum, self.path, self.db = forum, tmp_path / "game.toml", tmp_path / "v.db"
        self.now = START + timedelta(hours=1)
        self.said: list[str] = []
        self.add(HELLOS)
        url = f"{server.base_url}/viewtopic.php?f=7&t=42"
        result = CliRunner().invoke(main, ["new", url, "-o", str(self.path), "--db", str(self.db),
                                           "--min-interval", "0"])
        assert result.exit_code == 0, result.output
        self.runner = Runner(db_path=self.db, now=lambda: self.now, limiter=HostLimiter(sleep=lambda s: None),
                             regenerate=[follow_hook(now=lambda: self.now, say=self.said.append)],
                             echo=self.said.append)

    def add(self, posts: list[tuple[str, str]]) -> None:
        for author, body in posts:
            n = len(self.forum.posts)
            self.forum.posts.append({"number": n, "id": str(4000 + n), "user": author, "content": body,
                                     "time": START + timedelta(hours=n)})
            self.now = START + timedelta(hours=n, minutes=30)

    def grow(self, posts: list[tuple[str, str]]) -> None:
        """The thread grows by ``posts``, then one round of `votal run --follow`."""
        self.add(posts)
        run = self.runner.run_game(self.path)
        assert run.error is None, run.error

    def cli(self, *args: str) -> str:
        result = CliRunner().invoke(main, [*args, str(self.path), "--db", str(self.db)])
        assert result.exit_code == 0, result.output
        return result.stdout

    def count(self, day: int) -> dict:
        return json.loads(self.cli("count", "--day", str(day), "--format", "json"))

    def needs_you(self) -> list[str]:
        (status,) = json.loads(self.cli("status", "--format", "json"))
        return needs_moderator(status)

    def alerts(self) -> list[dict]:
        from assistant.forum import store
        from assistant.gamefile.game import load_game

        return store.load_alerts(store.open_db(self.db), load_game(self.path).key, limit=100)


def opening() -> Forum:
    first = {"number": 0, "id": "4000", "user": "Host", "time": START,
             "content": "Welcome to Mini 999!<br><br>" + styled_thread("numbered lines")[0].body_html}
    return Forum([first], per_page=10)  # phpBB's own page size: what a file without posts_per_page assumes


def test_a_clean_game_kept_by_votal_asks_the_moderator_for_nothing_but_its_decisions(tmp_path):
    forum = opening()
    with serve(forum) as server:
        game = LiveGame(tmp_path, server, forum)
        for step in (DAY_ONE, DAY_TWO_OPEN):
            game.grow(step)
            assert game.needs_you() == []  # day 2 runs: nothing to look at
        game.grow(DAY_TWO_HAMMER)
        assert [item.split(":")[0] for item in game.needs_you()] == ["day 2 is decided"]  # to announce
        for step in (DAY_TWO_CLOSE, DAY_THREE):
            game.grow(step)
        assert game.needs_you() == []
        for day in (1, 2):
            counted = game.count(day)
            assert (counted["warnings"], counted["doubts"]) == ([], []), counted["warnings"]
            assert counted["outcome"]["target"] == ("Birch" if day == 1 else "Fir")
        # what the day's count keeps for the record, and only that day's
        assert [n["kind"] for n in game.count(1)["notes"]] == ["end_post_after_hammer"]
        assert {n["kind"] for n in game.count(2)["notes"]} == {"end_post_after_hammer", "vote_between_days"}
        assert "Juniper" in game.cli("count", "--day", "2")  # shown in the text as a note...
        assert "warning" not in game.cli("count", "--day", "2")
    kinds = {a["kind"] for a in game.alerts()}
    assert kinds <= {"hammer", "day_decided", "deadline_near"}, [a["message"] for a in game.alerts()]


def test_play_going_on_after_a_hammer_warns_and_says_what_to_do(tmp_path):
    forum = opening()
    with serve(forum) as server:
        game = LiveGame(tmp_path, server, forum)
        for step in (DAY_ONE, DAY_TWO_OPEN, DAY_TWO_HAMMER[:-1], PLAY_GOES_ON, DAY_TWO_CLOSE):
            game.grow(step)
        (warning,) = game.count(2)["warnings"]
        assert warning["kind"] == "end_post_disagrees"
        assert "the moderator's count at post" in warning["message"] and "has Fir at 4 of 5" in warning["message"]
        assert "[[corrections]]" in warning["message"]  # what to do about it
        assert any(item.startswith("warning: day 2: end_post") for item in game.needs_you())
        game.grow([])  # the next poll counts with the end_post the last one wrote
        assert [a["kind"] for a in game.alerts() if "end_post" in a["message"]] == ["warning"]
        assert game.count(1)["warnings"] == []  # day 1's count keeps to day 1
