"""Terminal escapes and bidi controls in names and post text never reach a terminal raw from `count`, `status`
or `audit` text output (nor `sync`'s problems or error lines); JSON output stays exact."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner
from loopback_forum import Forum, game_text, make_posts, serve

from assistant.cli import main
from assistant.terminal import terminal_safe

RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
EVIL_NAME = "Mall\u202eory\x1b]0;pwned\x07"
EVIL_TEXT = "vote Birch\x1b[2J\x1b[31m\u2067x\u2069 \x9b1;1H"


@pytest.fixture(scope="module")
def synced(tmp_path_factory):
    folder = tmp_path_factory.mktemp("terminal")
    posts = make_posts(12)
    posts[3] = {**posts[3], "user": EVIL_NAME, "content": f"<b>{EVIL_TEXT}</b>"}  # an outsider posts a vote
    posts[4] = {**posts[4], "content": f"<b>vote {EVIL_NAME}</b>"}  # a player votes for a hostile name
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
        assert "\\u202e" in result.output or "\\u001b" in result.output  # shown, escaped, not dropped


def test_json_output_stays_exact(synced):
    game, db = synced
    result = CliRunner().invoke(main, ["audit", str(game), "--db", str(db), "--day", "1", "--format", "json"])
    assert result.exit_code == 0
    raw = json.dumps(json.loads(result.output), ensure_ascii=False)
    assert "\u202e" in raw or "\u2067" in raw  # the JSON keeps what the post said


def test_terminal_safe_escapes_exactly_the_dangerous_characters():
    assert terminal_safe("a\tb\nc") == "a\tb\nc"
    assert terminal_safe("Zoë Ünal 李") == "Zoë Ünal 李"
    assert terminal_safe("\x1b[2J\u202e\x9b\r") == "\\u001b[2J\\u202e\\u009b\\u000d"
