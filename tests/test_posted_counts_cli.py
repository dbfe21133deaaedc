"""Moderators' counts in the shapes they write, read through the real command line on a loopback
thread that grows: what a count holds teaches a spelling from its post on, and a voter it places
otherwise than Votal is the moderator disagreeing."""

from __future__ import annotations

import json

from click.testing import CliRunner
from loopback_forum import Forum, game_text, make_posts, serve

from assistant.cli.main import main

OPEN_DAY = '[[days]]\nday = 1\nstart_post = 0\n'


def _run(*args) -> str:
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.stdout


def _count(game, db) -> dict:
    return json.loads(_run("count", game, "--db", db, "--day", "1", "--format", "json"))


def _grow(forum: Forum, posts: list[tuple[str, str]]) -> int:
    """Add ``posts`` (author, body) to the thread; the number of the last one."""
    for author, body in posts:
        (post,) = make_posts(1, start=len(forum.posts))
        forum.posts.append({**post, "user": author, "content": body})
    return len(forum.posts) - 1


def test_a_count_with_its_votes_needed_beside_the_number_teaches_a_spelling_as_the_thread_grows(
    tmp_path,
):
    forum = Forum(make_posts(1))
    game, db = tmp_path / "game.toml", tmp_path / "votal.db"
    with serve(forum) as server:
        game.write_text(game_text(server.base_url, tables=OPEN_DAY, extra='moderators = ["Mod"]'),
                        encoding="utf-8")
        _grow(forum, [("Birch", "<b>vote Elm</b>"), ("Cedar", "<b>vote Elm</b>"),
                      ("Damson", "<b>vote the quiet one</b>")])
        _run("sync", game, "--db", db, "-q")
        before = _count(game, db)
        wagons = [(w["target"], w["voters"]) for w in before["wagons"]]
        assert wagons == [("Elm", ["Birch", "Cedar"])]

        # "Elm (2, L-1)" and "(1)Alder" were lines the count reader dropped, and with them the count
        count = _grow(forum, [("Mod", "Vote Count 1.1<br>Elm (2, L-1): Birch, Cedar<br>"
                                      "(1)Alder: Damson<br>Not voting: Alder, Elm")])
        _run("sync", game, "--db", db, "-q")
        after = _count(game, db)
        assert [(w["target"], w["voters"]) for w in after["wagons"]] == [
            ("Elm", ["Birch", "Cedar"]), ("Alder", ["Damson"])]
        learned = [a for a in after["actions"] if a["step"] == "learned"]
        assert [(a["post"], a["voter"], a["target"]) for a in learned] == [
            (count, "Damson", "Alder")]
        assert not [d for d in after["doubts"] if d["kind"] == "moderator_disagrees"]


def test_a_count_line_whose_number_is_one_off_its_names_is_read_and_held_against_votal(tmp_path):
    forum = Forum(make_posts(1))
    game, db = tmp_path / "game.toml", tmp_path / "votal.db"
    with serve(forum) as server:
        game.write_text(game_text(server.base_url, tables=OPEN_DAY, extra='moderators = ["Mod"]'),
                        encoding="utf-8")
        _grow(forum, [("Birch", "<b>vote Elm</b>"), ("Cedar", "<b>vote Elm</b>"),
                      ("Damson", "<b>vote Birch</b>")])
        # three names for two votes: the moderator added Damson and kept the number
        count = _grow(forum, [("Mod", "Vote Count 1.2<br>Elm (2): Birch, Cedar, Damson<br>"
                                      "Birch (1): Alder<br>Not voting: Elm")])
        _run("sync", game, "--db", db, "-q")
        disagreeing = [d for d in _count(game, db)["doubts"] if d["kind"] == "moderator_disagrees"]
        assert [(d["post"], d["target"], d["why"]) for d in disagreeing] == [
            (count, "Elm", "the moderator's count has Damson on Elm, Votal read Birch")]
