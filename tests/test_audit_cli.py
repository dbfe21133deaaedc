"""Refusals a moderator relies on, through the installed command line: `votal run` off a terminal
writes whole lines, drafts that would announce something that did not happen need --force,
impossible post numbers and empty names in the game file are one clear line."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from loopback_forum import Forum, game_text, make_posts, serve

from assistant.cli.main import main

DAYS = "[[days]]\nday = 1\nstart_post = 0\n"


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def forum_game(tmp_path_factory):
    folder = tmp_path_factory.mktemp("audit-cli")
    posts = make_posts(20)
    for i in (1, 2):
        posts[i] = {**posts[i], "content": "<b>vote Elm</b>"}
    with serve(Forum(posts)) as server:
        game = folder / "game.toml"
        game.write_text(game_text(server.base_url, tables=DAYS))
        db = folder / "votal.db"
        assert invoke("sync", game, "--db", db, "-q").exit_code == 0
        yield server, game, db


def test_run_off_a_terminal_writes_whole_lines_and_stops_on_sigterm(forum_game, tmp_path):
    _, game, _ = forum_game
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "assistant", "run", str(game), "--db", str(tmp_path / "run.db")],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
        cwd=tmp_path,
    )
    seen = b""
    try:
        stop_at = time.monotonic() + 120  # a bound on a hang, not a timing under test
        while b"new" not in seen and time.monotonic() < stop_at:
            ready, _, _ = select.select([process.stdout], [], [], 1)
            if ready:
                chunk = os.read(process.stdout.fileno(), 65536)
                if not chunk:
                    break
                seen += chunk
        process.send_signal(signal.SIGTERM)
        rest, _ = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    output = (seen + rest).decode()
    assert "new" in output, output
    assert "\r" not in output
    assert output.endswith("\n") and all(line.strip() for line in output.splitlines())


@pytest.mark.parametrize(
    ("kind", "why"),
    [
        ("early-end", "did not end early"),
        ("runoff", "has no runoff"),
        ("day-end", "is not decided"),
    ],
)  # a judge draft of an undecided day: test_cli_refusals (this game's ruleset has no Judge at all)
def test_a_draft_announcing_what_did_not_happen_needs_force(forum_game, kind, why):
    _, game, db = forum_game
    refused = invoke("draft", game, kind, "--db", db, "--day", "1", "--at-post", "2")
    assert refused.exit_code == 2
    assert why in refused.output and "--force" in refused.output
    assert len(refused.output.strip().splitlines()) == 1
    assert (
        invoke("draft", game, kind, "--db", db, "--day", "1", "--at-post", "2", "--force").exit_code
        == 0
    )


@pytest.mark.parametrize("command", [["count"], ["audit"], ["draft", "votal"]])
def test_a_negative_post_number_is_refused(forum_game, command):
    _, game, db = forum_game
    result = invoke(command[0], game, *command[1:], "--db", db, "--at-post", "-3")
    assert result.exit_code == 2
    assert "--at-post" in result.output


@pytest.mark.parametrize(
    ("change", "line", "field", "message"),
    [
        (
            ("day = 1\nstart_post = 0", "day = 1\nstart_post = -5"),
            "start_post",
            "days[1].start_post",
            "0 or more",
        ),
        (('name = "Birch"', 'name = ""'), 'name = ""', "players[2].name", "must not be empty"),
        (('name = "Birch"', 'name = "  "'), 'name = "  "', "players[2].name", "must not be empty"),
    ],
)
def test_impossible_numbers_and_empty_names_in_the_game_file_are_one_line(
    forum_game, tmp_path, change, line, field, message
):
    _, game, db = forum_game
    bad = tmp_path / "bad.toml"
    text = Path(game).read_text().replace(*change)
    bad.write_text(text)
    number = next(
        i
        for i, row in enumerate(text.splitlines(), 1)
        if line in row and change[1].split("\n")[-1] in row
    )
    result = invoke("count", bad, "--db", db)
    assert result.exit_code == 2
    assert (
        result.output.strip()
        == f"Error: {bad}:{number}: {field}: {result.output.split(field + ': ', 1)[1].strip()}"
    )
    assert message in result.output


@pytest.mark.parametrize("written", ["UTC-5", "GMT+10:30", "+10:30", "America/New_York"])
def test_new_takes_the_zones_the_game_file_takes(forum_game, tmp_path, written):
    server, _, _ = forum_game
    out = tmp_path / "new.toml"
    result = invoke(
        "new",
        f"{server.base_url}/viewtopic.php?f=7&t=42",
        "-o",
        out,
        "--timezone",
        written,
        "--db",
        tmp_path / "new.db",
        "-q",
    )
    assert "time zone" not in result.output and "--timezone" not in result.output, result.output
    if out.exists():
        assert f'timezone = "{written}"' in out.read_text()


@pytest.mark.parametrize("written", ["EST", "Mars/Olympus", "UTC+15"])
def test_new_refuses_other_zones_listing_what_it_takes(tmp_path, written):
    result = invoke(
        "new",
        "http://127.0.0.1:9/viewtopic.php?f=7&t=42",
        "-o",
        tmp_path / "new.toml",
        "--timezone",
        written,
        "--db",
        tmp_path / "new.db",
    )
    assert result.exit_code == 2
    assert (
        result.output.startswith("Error: --timezone: ")
        and len(result.output.strip().splitlines()) == 1
    )
    assert not (tmp_path / "new.toml").exists()
    if written != "UTC+15":
        assert "UTC-5" in result.output or "America/New_York" in result.output
