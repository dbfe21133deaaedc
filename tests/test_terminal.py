"""Terminal escapes and bidi controls in names and post text never reach a terminal raw from
`count`, `status`, `audit`, `draft` or `export` (nor `sync`'s problems or error lines); JSON output
stays exact (as JSON escapes), HTML exact as character references, CSV exact in a file or pipe and
escaped on a terminal."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner
from loopback_forum import Forum, game_text, make_posts, serve

from assistant.cli.main import main
from assistant.output.terminal import terminal_safe

RAW = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)
EVIL_NAME = "Mall\u202eory\x1b]0;pwned\x07"
EVIL_TEXT = "vote Birch\x1b[2J\x1b[31m\u2067x\u2069 \x9b1;1H"


@pytest.fixture(scope="module")
def synced(tmp_path_factory):
    folder = tmp_path_factory.mktemp("terminal")
    posts = make_posts(12)
    posts[3] = {
        **posts[3],
        "user": EVIL_NAME,
        "content": f"<b>{EVIL_TEXT}</b>",
    }  # an outsider posts a vote
    posts[4] = {
        **posts[4],
        "content": f"<b>vote {EVIL_NAME}</b>",
    }  # a player votes for a hostile name
    posts[5] = {**posts[5], "content": f"<b>{EVIL_TEXT}</b>"}  # a player's vote with escapes in it
    forum = Forum(posts)
    with serve(forum) as server:
        game = folder / "game.toml"
        game.write_text(game_text(server.base_url))
        db = folder / "votal.db"
        result = CliRunner().invoke(main, ["sync", str(game), "--db", str(db), "-q"])
        assert result.exit_code == 0, result.output
        assert not RAW.search(result.output)
    return game, db


@pytest.mark.parametrize(
    "args", [("count", "--day", "1"), ("audit", "--day", "1"), ("status",), ("count", "--all-days")]
)
def test_text_output_has_no_raw_control_or_bidi_characters(synced, args):
    game, db = synced
    result = CliRunner().invoke(main, [args[0], str(game), "--db", str(db), *args[1:]])
    assert result.exit_code == 0, result.output
    assert not RAW.search(result.output)
    if args[0] == "audit":
        assert (
            "\\u202e" in result.output or "\\u001b" in result.output
        )  # shown, escaped, not dropped


@pytest.fixture(scope="module")
def evil_player(tmp_path_factory):
    """A game where a listed player's account carries escapes and bidi controls, voted for and
    voting."""
    folder = tmp_path_factory.mktemp("terminal-player")
    posts = [{**p, "user": EVIL_NAME} if p["user"] == "Alder" else p for p in make_posts(12)]
    posts[1] = {**posts[1], "content": f"<b>vote {EVIL_NAME}</b>"}
    posts[0] = {**posts[0], "content": f"<b>vote Birch</b> {EVIL_TEXT}"}
    with serve(Forum(posts)) as server:
        game = folder / "game.toml"
        name = json.dumps(EVIL_NAME)  # a TOML basic string: JSON's escapes read the same
        game.write_text(
            game_text(server.base_url, tables="[[days]]\nday = 1\nstart_post = 0\n").replace(
                '"Alder"', name
            )
        )
        db = folder / "votal.db"
        result = CliRunner().invoke(main, ["sync", str(game), "--db", str(db), "-q"])
        assert result.exit_code == 0, result.output
    return game, db


@pytest.mark.parametrize(
    "args",
    [("audit", "--day", "1"), ("count", "--day", "1"), ("status",), ("export",)],
)
def test_json_output_stays_exact_and_prints_no_raw_characters(synced, args):
    game, db = synced
    result = CliRunner().invoke(
        main, [args[0], str(game), "--db", str(db), *args[1:], "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    assert not RAW.search(result.output)
    raw = json.dumps(json.loads(result.output), ensure_ascii=False)
    if args[0] != "status":  # status names no voter
        assert EVIL_NAME in raw or "\u2067" in raw  # the JSON keeps what the post said


@pytest.mark.parametrize(
    ("words", "options"),
    [
        (["draft", "votal"], ["--day", "1"]),
        (["draft", "votal"], ["--day", "1", "--flavor", "markdown"]),
        (["draft", "day-start"], ["--day", "1"]),
        (["count"], ["--day", "1", "--format", "bbcode"]),
        (["export"], ["--format", "html"]),
    ],
)
def test_drafts_and_exports_for_people_carry_no_raw_characters_anywhere(
    evil_player, words, options
):
    game, db = evil_player
    result = CliRunner().invoke(main, [words[0], str(game), *words[1:], "--db", str(db), *options])
    assert result.exit_code == 0, result.output
    assert not RAW.search(result.output)  # stdout and stderr (warnings) both
    assert "\\u202e" in result.output or "&#x202e;" in result.output  # shown, not dropped


def test_csv_export_is_exact_in_a_file_or_pipe_and_escaped_on_a_terminal(evil_player, tmp_path):
    import os
    import pty
    import subprocess
    import sys

    game, db = evil_player
    args = [
        sys.executable,
        "-m",
        "assistant",
        "export",
        str(game),
        "--db",
        str(db),
        "--format",
        "csv",
    ]
    piped = subprocess.run(
        args, capture_output=True, text=True, encoding="utf-8", check=True, timeout=60
    )
    assert EVIL_NAME in piped.stdout  # data for a spreadsheet or script: exact
    out = tmp_path / "votes.csv"
    subprocess.run([*args, "-o", str(out)], check=True, timeout=60)
    assert out.read_text(encoding="utf-8") == piped.stdout

    leader, follower = pty.openpty()
    with subprocess.Popen(args, stdout=follower, stderr=subprocess.DEVNULL) as process:
        os.close(follower)
        shown = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal closed with the process
                break
            if not chunk:
                break
            shown += chunk
        assert process.wait(timeout=60) == 0
    os.close(leader)
    text = shown.decode("utf-8")
    assert not RAW.search(text.replace("\r\n", "\n"))
    assert "Mall\\u202eory" in text


def test_terminal_safe_escapes_exactly_the_dangerous_characters():
    assert terminal_safe("a\tb\nc") == "a\tb\nc"
    assert terminal_safe("Zoë Ünal 李") == "Zoë Ünal 李"
    assert terminal_safe("\x1b[2J\u202e\x9b\r") == "\\u001b[2J\\u202e\\u009b\\u000d"


def test_update_prints_names_from_the_thread_escaped(tmp_path):
    from loopback_forum import Switchboard
    from test_cli_edits import THREAD, fresh_game

    evil = "F\u202eir\x9b2J"
    thread = [dict(p, user=evil) if p["user"] == "Fir" else dict(p) for p in THREAD]
    thread[8] = {**thread[8], "content": f"{evil} replaces Elm."}
    board = Switchboard()
    with board.server:
        path, db = fresh_game(board, tmp_path, thread)
        shown = {}
        for args in (["--dry-run"], []):
            result = CliRunner().invoke(main, ["update", str(path), "--db", str(db), *args])
            assert result.exit_code == 0, result.output
            assert not RAW.search(result.output), result.output
            shown[bool(args)] = result.output
    assert "F\\u202eir\\u009b2J" in shown[True]  # the diff shows the name, escaped
    assert "F ir 2J" in shown[False]  # the summary's one-line form
