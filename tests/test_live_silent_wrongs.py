"""The last silent wrongs (issue 33), each through the real CLI (`votal sync`, then `votal count`)
on a loopback thread that grows as a live game's does: each count is what a moderator sees then."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from click.testing import CliRunner
from loopback_forum import PLAYERS, TOPIC, Forum, game_text
from support import game_toml

from assistant.cli.main import main

START = datetime(2026, 3, 2, 18, tzinfo=UTC)


class LiveThread:
    """A loopback thread with its game file and store: posts are added, synced and counted."""

    def __init__(self, board, tmp_path: Path, game: str):
        self.forum = Forum([])
        board.plug(self.forum.respond)
        self.path, self.db = tmp_path / "game.toml", str(tmp_path / "votal.db")
        self.path.write_text(game.replace("{base}", board.base_url))

    def post(
        self, user: str, body: str, *, user_id: str | None = None, at: datetime | None = None
    ) -> int:
        number = len(self.forum.posts)
        post = {
            "number": number,
            "id": str(5000 + number),
            "user": user,
            "content": body,
            "time": at or START + timedelta(minutes=10 * number),
        }
        if user_id is not None:
            post["user_id"] = user_id
        self.forum.posts.append(post)
        return number

    def count(self, *more: str) -> dict:
        synced = CliRunner().invoke(main, ["sync", str(self.path), "--db", self.db])
        assert synced.exit_code == 0, synced.output
        asked = ["count", str(self.path), "--db", self.db, "--format", "json", *more]
        counted = CliRunner().invoke(main, asked)
        assert counted.exit_code == 0, counted.output
        return json.loads(counted.stdout)


def wagons(count: dict) -> dict[str, list[str]]:
    return {w["target"]: w["voters"] for w in count["wagons"]}


def test_a_case_look_alike_under_another_user_id_never_votes_for_the_seat(board, tmp_path):
    """house-style.md: "Identity is exact (forum user ids where the page has them and they win
    ...)": 'ALDER' under another user id than Alder's own posts is not Alder, and Alder's own votes
    still count."""
    live = LiveThread(board, tmp_path, game_text("{base}", extra='moderators = ["Host"]'))
    live.post("Host", "Welcome! Day 1 begins now.", user_id="1")
    live.post("Alder", "<b>vote: Birch</b>", user_id="11")
    assert wagons(live.count()) == {"Birch": ["Alder"]}
    impostor = live.post("ALDER", "<b>vote: Cedar</b>", user_id="99")
    count = live.count()
    assert wagons(count) == {"Birch": ["Alder"]}  # before: no wagon (the name "counted for none")
    [problem] = [p for p in count["problems"] if p["post"] == impostor]
    assert problem["reason"].startswith("look-alike account 'ALDER' (user id 99) is not seat Alder")
    live.post("ALDER", "I am Alder, honest", user_id="99")
    live.post("Alder", "<b>vote: Damson</b>", user_id="11")
    assert wagons(live.count()) == {"Damson": ["Alder"]}


def millers_hollow(*, days: str = "", start: str = "") -> str:
    """A Millers Hollow game file for the loopback thread (its players are the loopback's five)."""
    return game_toml(
        PLAYERS,
        title="Loopback Game",
        thread=f"{{base}}/viewtopic.php?f=7&t={TOPIC}",
        ruleset="millers-hollow",
        moderators=["Host"],
        extra=f'forum = "phpbb"\n{start}\n'
        '[fetch]\nmin_interval = 0\nposts_per_page = 25\ncontact = "mod@example.org"\n',
        tables=days,
    )


def test_a_plain_vote_ending_a_sentence_is_flagged_with_what_it_names(board, tmp_path):
    """millers-hollow-master-rules.txt: "To vote for someone you simply state in any post ... "vote
    [insert name]" ... Please bold all votes": a plain 'vote Birch' ending a sentence is shown to
    the moderator, naming Birch; chat about voting and a quoted vote are not."""
    day_one = "[[days]]\nday = 1\nstart_post = 0\n"
    live = LiveThread(board, tmp_path, millers_hollow(days=day_one))
    live.post("Host", "Day 1 begins. Vote for someone to lynch.")
    live.post("Alder", "<b>vote Cedar</b>")
    count = live.count()
    assert wagons(count) == {"Cedar": ["Alder"]} and count["problems"] == []
    live.post("Elm", "I would vote Birch if he claimed.<br>We should all vote Birch.")
    live.post("Damson", "<blockquote>Birch is odd. vote Birch</blockquote>Quoted for the record.")
    assert live.count()["problems"] == []  # chat and a quote: no vote to look at
    stated = live.post("Damson", "Birch dodged my question twice. vote Birch")
    count = live.count()
    assert wagons(count) == {"Cedar": ["Alder"]}  # the book asks for bold: the moderator decides
    [problem] = count["problems"]
    assert (problem["post"], problem["voter"], problem["text"]) == (stated, "Damson", "vote Birch")
    assert problem["reason"].startswith("not in bold")
    # a doubt or a note (issue 33 moves notes out of "doubts"): either way it names Birch
    found = [*count["doubts"], *count.get("notes", [])]
    assert [(d["post"], d["target"]) for d in found if d["post"] == stated] == [(stated, "Birch")]


def at(text: str) -> datetime:
    return datetime.fromisoformat(text)


def test_a_vote_cast_at_night_counts_for_no_day_as_the_thread_grows(board, tmp_path):
    """millers-hollow-master-rules.txt: "Once day is over, night starts ... flavor text announcing
    the next day and who was eaten by the werewolves will occur once all the night time activities
    are finished": the moderator's post telling the lynch and the night does not open day 2, so
    Cedar's vote cast after it counts for no day; day 2 opens with the morning's post."""
    start = "start = 2026-03-02T11:00:00-08:00"  # 11 am Pacific: day 1 ends 19:00 UTC next day
    live = LiveThread(board, tmp_path, millers_hollow(start=start))
    live.post("Host", "Welcome to Millers Hollow. Day 1 begins.", at=at("2026-03-02T19:00+00:00"))
    live.post("Alder", "<b>vote Birch</b>", at=at("2026-03-02T20:00+00:00"))
    live.post("Cedar", "<b>vote Birch</b>", at=at("2026-03-02T21:00+00:00"))
    live.post("Damson", "<b>vote Elm</b>", at=at("2026-03-02T22:00+00:00"))
    live.post(
        "Host",
        "The village has spoken: Birch was lynched. He was a Villager.<br>"
        "Night falls on Millers Hollow.",
        at=at("2026-03-03T19:05+00:00"),
    )
    night = live.post("Cedar", "<b>vote Elm</b>", at=at("2026-03-03T19:30+00:00"))
    day_one = live.count("--day", "1", "--at-post", str(night))
    assert day_one["outcome"]["target"] == "Birch"
    assert wagons(day_one)["Birch"] == ["Alder", "Cedar"]
    before_dawn = live.count("--day", "2", "--at-post", str(night))
    assert wagons(before_dawn) == {}  # day 2 has not opened: the night's vote is no day's
    live.post(
        "Host",
        "The sun rises. Damson was found eaten by the werewolves.<br>Day 2 begins.",
        at=at("2026-03-03T23:00+00:00"),
    )
    last = live.post("Alder", "<b>vote Cedar</b>", at=at("2026-03-03T23:30+00:00"))
    day_two = live.count("--day", "2", "--at-post", str(last))
    assert wagons(day_two) == {"Cedar": ["Alder"]}
    # said, naming what it was for: a note (or a doubt, had it decided the day)
    found = [*day_two["doubts"], *day_two.get("notes", [])]
    assert [(d["post"], d["target"]) for d in found if d["post"] == night] == [(night, "Elm")]
