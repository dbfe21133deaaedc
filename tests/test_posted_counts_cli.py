"""Moderators' counts in the shapes they write, read through the real command line on a loopback
thread that grows: what a count holds teaches a spelling from its post on, and a voter it places
otherwise than Votal is the moderator disagreeing."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from loopback_forum import Forum, game_text, make_posts, serve

from assistant.cli.main import main

OPEN_DAY = "[[days]]\nday = 1\nstart_post = 0\n"


def _run(*args) -> str:
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.stdout


@dataclass
class Live:
    """A loopback thread with its game file and store: grow it, sync it, count it."""

    forum: Forum
    game: Path
    db: Path

    def grow(self, posts: list[tuple[str, str]]) -> int:
        """Add ``posts`` (author, body) to the thread and sync; the number of the last one."""
        for author, body in posts:
            (post,) = make_posts(1, start=len(self.forum.posts))
            self.forum.posts.append({**post, "user": author, "content": body})
        _run("sync", self.game, "--db", self.db, "-q")
        return len(self.forum.posts) - 1

    def count(self) -> dict:
        printed = _run("count", self.game, "--db", self.db, "--day", "1", "--format", "json")
        return json.loads(printed)


@pytest.fixture
def live(tmp_path):
    """Open a thread of one post, moderated by "Mod": the loopback game's seats, and ``more``."""
    made = []

    def start(more: str = "") -> Live:
        forum = Forum(make_posts(1))
        server = serve(forum).__enter__()
        made.append(server)
        game = tmp_path / "game.toml"
        text = game_text(server.base_url, tables=OPEN_DAY + more, extra='moderators = ["Mod"]')
        game.write_text(text, encoding="utf-8")
        return Live(forum, game, tmp_path / "votal.db")

    yield start
    for server in made:
        server.__exit__(None, None, None)


def test_a_count_with_its_votes_needed_beside_the_number_teaches_a_spelling_as_the_thread_grows(
    live,
):
    thread = live()
    thread.grow(
        [
            ("Birch", "<b>vote Elm</b>"),
            ("Cedar", "<b>vote Elm</b>"),
            ("Damson", "<b>vote the quiet one</b>"),
        ]
    )
    wagons = [(w["target"], w["voters"]) for w in thread.count()["wagons"]]
    assert wagons == [("Elm", ["Birch", "Cedar"])]

    # "Elm (2, L-1)" and "(1)Alder" were lines the count reader dropped, and with them the count
    count = thread.grow(
        [
            (
                "Mod",
                "Vote Count 1.1<br>Elm (2, L-1): Birch, Cedar<br>"
                "(1)Alder: Damson<br>Not voting: Alder, Elm",
            )
        ]
    )
    after = thread.count()
    assert [(w["target"], w["voters"]) for w in after["wagons"]] == [
        ("Elm", ["Birch", "Cedar"]),
        ("Alder", ["Damson"]),
    ]
    learned = [a for a in after["actions"] if a["step"] == "learned"]
    assert [(a["post"], a["voter"], a["target"]) for a in learned] == [(count, "Damson", "Alder")]
    assert not [d for d in after["doubts"] if d["kind"] == "moderator_disagrees"]


def test_a_count_line_whose_number_is_one_off_its_names_is_read_and_held_against_votal(live):
    thread = live()
    thread.grow(
        [
            ("Birch", "<b>vote Elm</b>"),
            ("Cedar", "<b>vote Elm</b>"),
            ("Damson", "<b>vote Birch</b>"),
        ]
    )
    # three names for two votes: the moderator added Damson and kept the number
    count = thread.grow(
        [
            (
                "Mod",
                "Vote Count 1.2<br>Elm (2): Birch, Cedar, Damson<br>"
                "Birch (1): Alder<br>Not voting: Elm",
            )
        ]
    )
    disagreeing = [d for d in thread.count()["doubts"] if d["kind"] == "moderator_disagrees"]
    assert [(d["post"], d["target"], d["why"]) for d in disagreeing] == [
        (count, "Elm", "the moderator's count has Damson on Elm, Votal read Birch")
    ]


def test_a_short_name_the_count_reads_as_another_player_it_fits_moves_the_vote_as_the_thread_grows(
    live,
):
    # "CD": ChannelDart's initials, Cedar's letters; Votal guesses ChannelDart, the count says Cedar
    thread = live('[[players]]\nname = "ChannelDart"\n')  # six seats: four is a majority
    thread.grow(
        [("Birch", "<b>vote Cedar</b>"), ("Damson", "<b>vote Cedar</b>"), ("Elm", "<b>vote CD</b>")]
    )
    wagons = [(w["target"], w["voters"]) for w in thread.count()["wagons"]]
    assert wagons == [("Cedar", ["Birch", "Damson"]), ("ChannelDart", ["Elm"])]

    count = thread.grow(
        [
            (
                "Mod",
                "Vote Count 1.1<br>Cedar (3): Birch, Damson, Elm<br>"
                "Not voting (3): Alder, Cedar, ChannelDart",
            )
        ]
    )
    hammer = thread.grow([("Alder", "<b>vote CD</b>")])
    after = thread.count()
    assert (after["outcome"]["kind"], after["outcome"]["target"]) == ("elimination", "Cedar")
    assert after["outcome"]["post"] == hammer
    learned = [(a["post"], a["voter"]) for a in after["actions"] if a["step"] == "learned"]
    assert learned == [(count, "Elm"), (hammer, "Alder")]
