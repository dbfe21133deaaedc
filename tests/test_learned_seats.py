"""Seats learned from the moderator's own counts, through the real CLI on a loopback thread that
grows: an unannounced replacement voting to hammer is a doubt at that post; once the moderator's
count lists the newcomer in the silent seat, Votal counts it there (a note, and a doubt on the vote
that decided the day), and `votal update` writes the replacement, cited."""

from __future__ import annotations

import json

from click.testing import CliRunner
from gamestart import START, styled_thread
from loopback_forum import Forum, serve
from support import HOUR, as_forum_posts, forum_post

from assistant.cli.main import main
from assistant.gamefile.game import load_game

# 10 seats: 6 is a majority. Juniper never posts; Quietfox plays the seat, never announced.
ON_HAZEL = [(name, "<b>vote: Hazel</b>") for name in ("Alder", "Birch", "Cedar", "Damson", "Elm")]
HAMMER = ("Quietfox", "<b>vote: Hazel</b> sorry I am late")
COUNT = (
    "Vote Count 1.1<br>Hazel (6): Alder, Birch, Cedar, Damson, Elm, Quietfox<br>"
    "Not voting (4): Fir, Gorse, Hazel, Ivy"
)


def _grow(forum: Forum, posts: list[tuple[str, str]]) -> None:
    for author, body in posts:
        n = len(forum.posts)
        forum.posts.append(forum_post(n, author, body, first_id=5000, start=START, step=HOUR))


def _run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def _count(path, db) -> dict:
    return json.loads(_run("count", str(path), "--db", db, "--day", "1", "--format", "json"))


def _said(count: dict) -> list[dict]:
    """The count's doubts and notes (notes under ``doubts`` or, once split off, ``notes``)."""
    return [*count["doubts"], *count.get("notes", ())]


def test_an_unannounced_replacement_hammers_then_the_moderators_count_seats_it(tmp_path):
    opening = as_forum_posts(styled_thread("numbered lines"))
    forum = Forum(opening)
    path, db = tmp_path / "game.toml", str(tmp_path / "v.db")
    with serve(forum) as server:
        url = f"{server.base_url}/viewtopic.php?f=7&t=42"
        _run("new", url, "-o", str(path), "--db", db, "--min-interval", "0")
        assert "Juniper" in [s.name for s in load_game(path).players]
        _grow(forum, [*ON_HAZEL, HAMMER])
        hammer = len(forum.posts) - 1
        _run("sync", str(path), "--db", db, "--quiet")
        before = _count(path, db)
        assert before["outcome"] is None  # five of six: no majority
        doubts = [d for d in before["doubts"] if d["kind"] != "note"]
        assert [(d["kind"], d["post"], d["target"]) for d in doubts] == [
            ("possible_hammer", hammer, "Hazel")
        ]
        assert "Quietfox's '" in doubts[0]["why"]

        _grow(forum, [("Host", COUNT)])
        _run("sync", str(path), "--db", db, "--quiet")
        seated = _count(path, db)
        assert (seated["outcome"]["kind"], seated["outcome"]["target"]) == ("elimination", "Hazel")
        assert seated["outcome"]["post"] == hammer
        assert "Juniper" in next(w for w in seated["wagons"] if w["target"] == "Hazel")["voters"]
        said = {(d["kind"], d["post"]): d["why"] for d in _said(seated)}
        assert said[("note", hammer)].startswith(
            f"Quietfox is counted in Juniper's seat from post {hammer}: the count at post {hammer + 1} "
            "lists Quietfox where Juniper was"
        )
        assert (
            "counts for Juniper's seat only as the moderator's counts show it"
            in said[("doubtful_decision", hammer)]
        )
        assert seated["outcome"]["doubt"] == f"doubtful decision at post {hammer}"
        assert path.read_text().count("Quietfox") == 0  # counting writes nothing

        _run("update", str(path), "--db", db)
        juniper = load_game(path).seat("Juniper")
        assert (juniper.accounts, juniper.replacement_posts) == (("Juniper", "Quietfox"), (hammer,))
        assert f"# post {hammer + 1}:" in path.read_text()  # cited with the count that shows it
        after = _count(path, db)
        assert (after["outcome"]["target"], after["outcome"]["post"]) == ("Hazel", hammer)
        assert not [w for w in after["warnings"] if w["kind"] == "takeover"]
        assert not [d for d in _said(after) if "is counted in" in d["why"]]
