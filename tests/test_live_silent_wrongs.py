"""The last silent wrongs (issue 33), each through the real CLI (`votal sync`, then `votal count`)
on a loopback thread that grows as a live game's does: each count is what a moderator sees then."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner
from loopback_forum import Forum, game_text, switchboard_running

from assistant.cli.main import main

START = datetime(2026, 3, 2, 18, tzinfo=UTC)

switchboard = pytest.fixture(scope="module")(switchboard_running)


class LiveThread:
    """A loopback thread with its game file and store: posts are added, synced and counted."""

    def __init__(self, board, tmp_path: Path, game: str):
        self.forum = Forum([])
        board.plug(self.forum.respond)
        self.path, self.db = tmp_path / "game.toml", str(tmp_path / "votal.db")
        self.path.write_text(game.replace("{base}", board.base_url))

    def post(self, user: str, body: str, *, user_id: str | None = None,
             at: datetime | None = None) -> int:
        number = len(self.forum.posts)
        post = {"number": number, "id": str(5000 + number), "user": user, "content": body,
                "time": at or START + timedelta(minutes=10 * number)}
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


def test_a_case_look_alike_under_another_user_id_never_votes_for_the_seat(switchboard, tmp_path):
    """house-style.md: "Identity is exact (forum user ids where the page has them and they win
    ...)": 'ALDER' under another user id than Alder's own posts is not Alder, and Alder's own votes
    still count."""
    live = LiveThread(switchboard, tmp_path, game_text("{base}", extra='moderators = ["Host"]'))
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
