"""`votal --help` leads a new user to `votal new URL`; every help text fits 100 columns; the example
game files ship with the package and `votal new --example` prints them."""

import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from assistant import bundled
from assistant.cli.main import EXAMPLES, main
from assistant.gamefile.game import load_game


def every_command_path(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Each command's words (`("day", "end")`), subcommands of a group included."""
    found = []
    for name in group.list_commands(click.Context(group)):
        command = group.get_command(click.Context(group), name)
        found.append((*prefix, name))
        if isinstance(command, click.Group):
            found.extend(every_command_path(command, (*prefix, name)))
    return found


def help_text(*words: str) -> str:
    """What `votal WORDS --help` prints, rendered in-process: CliRunner would force 80 columns."""
    ctx = click.Context(main, info_name="votal", **main.context_settings)
    for word in words:
        command = ctx.command.get_command(ctx, word)
        ctx = click.Context(command, info_name=word, parent=ctx)
    return ctx.command.get_help(ctx)


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch):
    # a terminal far wider than 100 columns: the wrapping must come from Votal's own limit
    monkeypatch.setenv("COLUMNS", "240")


def test_votal_help_names_votal_new_url_as_the_first_command_of_a_real_game():
    usage = help_text().split("Options:", 1)[0]
    assert "votal new URL" in usage
    assert usage.index("votal new URL") < usage.index("votal run") < usage.index("votal demo")


ALL_HELP = [(), *every_command_path(main)]


@pytest.mark.parametrize("words", ALL_HELP, ids=lambda w: " ".join(w) or "votal")
def test_help_lines_fit_100_columns_on_a_wide_terminal(words):
    long_lines = [line for line in help_text(*words).splitlines() if len(line) > 100]
    assert not long_lines, f"votal {' '.join(words)} --help: {long_lines}"


@pytest.mark.parametrize("words", ALL_HELP, ids=lambda w: " ".join(w) or "votal")
def test_help_lines_fit_an_80_column_terminal_too(words, monkeypatch):
    # click wraps prose to the terminal; examples (\b blocks) and option metavars it cannot wrap
    monkeypatch.setenv("COLUMNS", "80")
    long_lines = [line for line in help_text(*words).splitlines() if len(line) > 80]
    assert not long_lines, f"votal {' '.join(words)} --help: {long_lines}"


def test_the_real_command_wraps_its_help_at_100_columns_not_at_click_s_80():
    done = subprocess.run(
        [sys.executable, "-m", "assistant", "run", "--help"],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "240"},
        check=True,
    )
    widest = max(len(line) for line in done.stdout.splitlines())
    assert 80 < widest <= 100


@pytest.mark.parametrize("name", EXAMPLES)
def test_each_example_game_file_is_a_valid_game_file(name):
    game = load_game(Path(str(bundled.data() / "examples" / f"{name}.toml")))
    assert game.players and game.days


@pytest.mark.parametrize("name", EXAMPLES)
def test_votal_new_example_prints_the_bundled_file_and_writes_nothing(name, tmp_path, monkeypatch):
    shipped = (bundled.data() / "examples" / f"{name}.toml").read_text(encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["new", "--example", name])
    assert result.exit_code == 0, result.output
    assert result.output == shipped
    assert not list(tmp_path.iterdir())


def test_votal_new_example_without_a_name_prints_the_game_to_fill_in(tmp_path):
    result = CliRunner().invoke(main, ["new", "--example"])
    assert result.exit_code == 0
    assert result.output == (bundled.data() / "examples" / "game.toml").read_text(encoding="utf-8")
    written = tmp_path / "game.toml"
    written.write_text(result.output, encoding="utf-8")
    assert load_game(written).title == "Mini Normal 42"


def test_an_unknown_example_is_a_usage_error():
    result = CliRunner().invoke(main, ["new", "--example", "nonsense"])
    assert result.exit_code == 2 and "every-field" in result.output
