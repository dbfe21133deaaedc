"""Game files refused before anything is written: [fetch] numbers that are not numbers (nan, inf),
negative, or that would hammer the forum; binary and non-UTF-8 files. One line each, naming the file
and key."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from loopback_forum import game_text

from assistant.cli.main import main
from assistant.errors import GameFileError
from assistant.gamefile.game import load_game


def write(tmp_path, fetch_extra: str):
    text = (
        game_text("http://127.0.0.1:9")
        .replace("min_interval = 0\n", "")
        .replace("posts_per_page = 25\n", "")
    )
    path = tmp_path / "game.toml"
    path.write_text(text.replace("[fetch]\n", "[fetch]\n" + fetch_extra + "\n"))
    return path


@pytest.mark.parametrize(
    ("line", "key"),
    [
        ("min_interval = nan", "min_interval"),
        ("min_interval = -nan", "min_interval"),
        ("min_interval = inf", "min_interval"),
        ("min_interval = -0.5", "min_interval"),
        ("min_interval = 1e9", "min_interval"),
        ("interval = 0.01", "interval"),
        ("interval = 5", "interval"),
        ("interval = nan", "interval"),
        ("interval = inf", "interval"),
        ("interval = -300", "interval"),
        ("posts_per_page = 0", "posts_per_page"),
    ],
)
def test_bad_fetch_numbers_are_refused_before_anything_is_written(tmp_path, line, key):
    path = write(tmp_path, line)
    with pytest.raises(GameFileError) as caught:
        load_game(path)
    assert f"fetch.{key}" in str(caught.value)
    result = CliRunner().invoke(main, ["sync", str(path), "--db", str(tmp_path / "votal.db")])
    assert result.exit_code == 2 and result.output.startswith(f"Error: {path}:")
    assert len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "votal.db").exists()


def test_the_interval_floor_is_accepted(tmp_path):
    assert load_game(write(tmp_path, "interval = 60\nmin_interval = 0")).fetch.interval == 60


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + bytes(range(256)), "binary data"),
        ('title = "Caf\u00e9"\n'.encode("latin-1") + b'thread = "x"\n', "1: not UTF-8 text"),
        (b'title = "ok"\n\n\xff\xfe broken', "3: not UTF-8 text"),
    ],
)
def test_binary_and_non_utf8_files_are_one_clear_line(tmp_path, data, expected):
    path = tmp_path / "game.toml"
    path.write_bytes(data)
    for command in (["sync", str(path)], ["count", str(path)], ["run", str(path)]):
        result = CliRunner().invoke(main, [*command, "--db", str(tmp_path / "votal.db")])
        assert result.exit_code == 2, result.output
        assert expected in result.output and "Traceback" not in result.output
        assert len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "votal.db").exists()


@pytest.mark.parametrize(
    ("ruleset", "expected"),
    [
        ('"no-such-ruleset"', "no bundled ruleset of that name"),
        ('"rules/missing.toml"', "cannot read"),
        ('"broken.toml"', "broken.toml"),
    ],
)
def test_a_ruleset_error_is_found_before_the_sync_writes_the_store(tmp_path, ruleset, expected):
    (tmp_path / "broken.toml").write_text(
        '[ruleset]\nname = "b"\n[votes]\nmulti_vote = "perhaps"\n'
    )
    path = tmp_path / "game.toml"
    path.write_text(
        game_text("http://127.0.0.1:9").replace('ruleset = "mafiascum"', f"ruleset = {ruleset}")
    )
    result = CliRunner().invoke(main, ["sync", str(path), "--db", str(tmp_path / "votal.db")])
    assert result.exit_code == 2 and expected in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "votal.db").exists()
