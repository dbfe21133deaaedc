"""The editing commands through the real CLI, against a thread synced from a loopback forum."""

from datetime import UTC, datetime, timedelta

import pytest
from click.testing import CliRunner

from assistant.cli import main
from assistant.game import load_game
from loopback_forum import Forum, Switchboard, game_text

START = datetime(2026, 3, 1, 22, tzinfo=UTC)


def post(number: int, user: str, content: str) -> dict:
    return {"number": number, "id": str(5000 + number), "user": user, "content": content,
            "time": START + timedelta(minutes=10 * number)}


THREAD = [
    post(0, "Host", "Welcome to Loopback Mafia!<br>Day 1 begins now."),
    post(1, "Alder", "<b>vote: Birch</b>"),
    post(2, "Cedar", "<b>vote: birch</b>"),
    post(3, "Damson", "<b>VOTE: Birch</b> sorry"),
    post(4, "Host", "Birch was lynched! Birch was a Vanilla Townie.<br>It is now Night 1."),
    post(5, "Host", "Alder was found dead. Alder was a Mafia Goon.<br>Day 2 begins now."),
    post(6, "Host", "Fir replaces Elm."),
    post(7, "Fir", "hi all"),
]


@pytest.fixture(scope="module")
def board():
    switchboard = Switchboard()
    with switchboard.server:
        yield switchboard


@pytest.fixture
def synced(board, tmp_path):
    """A game file (players, day 1 from post 0) and a store holding the thread."""
    board.plug(Forum([dict(p) for p in THREAD]).respond)
    path = tmp_path / "game.toml"
    text = game_text(board.base_url, extra='moderators = ["Host"]  # the host\n',
                     tables="[[days]]\nday = 1\nstart_post = 0\n\n# more days as they come\n")
    path.write_text(text, encoding="utf-8")
    db = tmp_path / "votal.db"
    run("sync", path, "--db", db, "--quiet")
    return path, db


def run(*args) -> str:
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def refused(*args) -> str:
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1
    return result.output.strip()


def test_day_end_writes_the_post_with_the_moderators_words_and_keeps_the_file(synced):
    path, db = synced
    before = path.read_text()
    out = run("day", "end", 1, path, "--post", 4, "--db", db)
    assert out == f"{path}: days[1] (day 1).end_post = 4 (post 4)\n"
    after = path.read_text()
    assert after == before.replace(
        "start_post = 0\n", "start_post = 0\nend_post = 4  # post 4: \"Birch was lynched! Birch was a Vanilla Townie.\"\n"
    )
    assert run("day", "end", 1, path, "--post", 4, "--db", db) == f"{path}: already says so; nothing changed\n"
    assert path.read_text() == after


def test_kill_replace_and_player_commands_write_a_game_file_that_counts(synced):
    path, db = synced
    run("kill", "Birch", path, "--phase", "day 1", "--db", db)
    run("kill", "alder", path, "--phase", "Night 1", "--db", db)
    run("replace", "Elm", "Fir", path, "--post", 6, "--db", db)
    run("player", "add", "Gum", path)
    run("player", "remove", "Gum", path)
    game = load_game(path)
    assert [(d.player, d.phase, d.phase_number) for d in game.deaths] == [("Birch", "day", 1), ("Alder", "night", 1)]
    assert game.seat("Elm").replacements == ("Fir",) and game.seat("Elm").replacement_posts == (6,)
    assert [s.name for s in game.players] == ["Alder", "Birch", "Cedar", "Damson", "Elm"]
    text = path.read_text()
    assert 'replacements = [{name = "Fir", post = 6}]  # post 6: "Fir replaces Elm."' in text
    assert "[[deaths]]  # set with votal kill" in text
    assert "# the host" in text and "# more days as they come" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("day", "end", 1, "{path}", "--post", 99), "Error: day 1 end: post 99 is not in the stored thread (posts up to 7"),
        (("kill", "Oak", "{path}", "--phase", "night 1"), "Error: kill: 'Oak' is not a player of game.toml"),
        (("kill", "Elm", "{path}", "--phase", "noon 1"), "Error: phase must look like 'night 2' or 'day 3'"),
        (("replace", "Elm", "Cedar", "{path}", "--post", 6), "Error: replace: 'Cedar' is already a name of the seat Cedar"),
        (("replace", "Elm", "Host", "{path}", "--post", 6), "Error: replace: 'Host' is a moderator of this game"),
        (("player", "remove", "Oak", "{path}"), "Error: player remove: 'Oak' is not a player of game.toml"),
        (("player", "add", "host", "{path}"), "Error: player add: 'host' is a moderator of this game"),
    ],
)
def test_contradictions_are_refused_in_one_line_and_the_file_is_untouched(synced, args, message):
    path, db = synced
    before = path.read_text()
    args = [str(a).replace("{path}", str(path)) for a in args]
    db_args = ["--db", db] if args[0] in ("day", "kill", "replace") else []
    assert refused(*args, *db_args).startswith(message)
    assert path.read_text() == before


def test_a_kill_on_a_day_that_ended_before_the_post_is_refused(synced):
    path, db = synced
    run("day", "end", 1, path, "--post", 4, "--db", db)
    assert refused("kill", "Cedar", path, "--phase", "day 1", "--post", 6, "--db", db) == (
        "Error: kill: post 6 is not on day 1 (posts 0-4)"
    )


def test_a_second_kill_in_another_phase_is_refused(synced):
    path, db = synced
    run("kill", "Birch", path, "--phase", "day 1", "--db", db)
    assert refused("kill", "Birch", path, "--phase", "night 1", "--db", db) == (
        "Error: kill: Birch is already dead (day 1)"
    )


def test_an_edit_that_needs_the_thread_without_a_store_says_to_sync(synced, tmp_path):
    path, _ = synced
    message = refused("day", "end", 1, path, "--post", 4, "--db", tmp_path / "none.db")
    assert message.startswith("Error: no store at") and "votal sync" in message
