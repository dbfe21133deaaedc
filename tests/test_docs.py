"""The README and docs/ are the contract: the README stays a short walkthrough whose commands exist
and whose quick start runs; every command has a section in docs/commands.md; every link resolves."""

import glob
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from assistant.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = ROOT / "docs"
COMMANDS_DOC = (DOCS / "commands.md").read_text(encoding="utf-8")
GAME_FILE_DOC = (DOCS / "game-file.md").read_text(encoding="utf-8")


def quick_start_commands() -> list[str]:
    section = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", section)


def test_readme_has_the_two_commands_and_ci_runs_the_test_one():
    demo, tests = quick_start_commands()
    assert demo == "pip install . && votal demo"
    assert tests == "pip install '.[test]' && pytest"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"python3? -m venv", ci)
    assert ci.rstrip().splitlines()[-1] == tests


COMMANDS = main.list_commands(click.Context(main))


def command_named(name: str) -> click.Command:
    return main.get_command(click.Context(main), name)


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_has_help_with_an_example_and_a_section_in_the_commands_page(name):
    result = CliRunner().invoke(main, [name, "--help"])
    assert result.exit_code == 0
    assert "Example" in result.output, f"votal {name} --help has no example"
    headings = [line for line in COMMANDS_DOC.splitlines() if line.startswith("## ")]
    assert any(f"votal {name}" in line for line in headings), (
        f"votal {name} has no section in docs/commands.md"
    )


@pytest.mark.parametrize("name", COMMANDS)
def test_commands_that_print_data_offer_json(name):
    command = command_named(name)
    formats = next((p for p in command.params if p.name == "fmt"), None)
    if formats is not None:
        assert isinstance(formats.type, click.Choice)
        assert "json" in formats.type.choices or "csv" in formats.type.choices


def test_quick_start_demo_runs_from_another_directory(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "assistant", "demo"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Synced 34 posts" in out
    assert "Day 1" in out and "Day 2" in out
    assert "Dorian Gray" in out and "Elspeth" in out
    assert "[b]" in out.lower() or "[url" in out.lower()  # the BBCode draft
    assert not list(tmp_path.iterdir()), "the demo must not leave files behind"


def test_ci_installs_chromium_and_then_requires_the_browser_tests():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"apt-get install [^\n]*\bchromium\b", ci)
    assert "export VOTAL_REQUIRE_BROWSER=1" in ci
    # ...and with that set, a machine without chromium fails the browser tests instead of skipping
    # them
    env = {**os.environ, "PATH": str(ROOT / "no-such-dir"), "VOTAL_REQUIRE_BROWSER": "1"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "tests/test_site_browser.py",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert (
        done.returncode != 0
        and "VOTAL_REQUIRE_BROWSER is set but chromium is not installed" in done.stdout
    )


def test_the_game_file_page_says_what_end_post_means_and_whether_votes_before_day_1_count():
    game_file = GAME_FILE_DOC
    assert "**`end_post` is included**" in game_file
    assert "**Votes before day 1 count only when day 1 has no start.**" in game_file
    assert "**Days by post or by time.**" in game_file


def test_readme_is_a_short_walkthrough_of_a_real_game_in_order():
    assert len(README.splitlines()) < 250
    walkthrough = README.split("## Run your game", 1)[1].split("\n## ", 1)[0]
    steps = [
        "votal new ",
        "votal count ",
        "votal run ",
        "--once",
        "votal serve ",
        "votal update ",
        "votal draft mini1829.toml day-end",
        "votal export ",
    ]
    places = [walkthrough.find(step) for step in steps]
    assert -1 not in places, [s for s, p in zip(steps, places, strict=True) if p == -1]
    assert places == sorted(places), "the walkthrough's steps are out of order"


def readme_commands() -> set[str]:
    """The command words of every `votal ...` line in the README's sh blocks (what a reader will
    type)."""
    blocks = re.findall(r"```sh\n(.+?)```", README, flags=re.S)
    return {
        m for block in blocks for m in re.findall(r"(?:^|&& |/)votal (\w[\w-]*)", block, flags=re.M)
    }


def test_every_command_the_readme_types_exists():
    assert {"new", "count", "run", "draft", "update", "export"} <= readme_commands()
    assert readme_commands() <= set(COMMANDS)


def readme_command_lines() -> list[list[str]]:
    """Each `votal ...` line of the README's sh blocks, and its crontab line, as words from `votal`
    on."""
    blocks = re.findall(r"```sh\n(.+?)```", README, flags=re.S)
    lines = [line for block in blocks for line in block.splitlines() if line.startswith("votal ")]
    lines += [line.split("&&", 1)[1] for line in README.splitlines() if line.startswith("*/5 ")]
    return [shlex.split(line, comments=True) for line in lines]


@pytest.mark.parametrize("words", readme_command_lines(), ids=lambda w: " ".join(w[:2]))
def test_the_readme_s_command_lines_use_options_that_exist(words, tmp_path, monkeypatch):
    assert Path(words[0]).name == "votal"
    command = command_named(words[1])
    monkeypatch.chdir(
        tmp_path
    )  # the game files the lines name exist here, as they would for the reader
    for game_file in ("mini1829.toml", "games/mini1829.toml"):
        (tmp_path / game_file).parent.mkdir(exist_ok=True)
        (tmp_path / game_file).touch()
    args = [found for a in words[2:] for found in (sorted(glob.glob(a)) if "*" in a else [a])]
    known = {opt for param in command.params for opt in getattr(param, "opts", [])}
    assert all(a.split("=")[0] in known for a in args if a.startswith("-")), args
    command.make_context(words[1], list(args))  # click's own check: arguments and option values


def markdown_links(path: Path) -> list[str]:
    text = re.sub(
        r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S
    )  # code is not a link
    return [t for t in re.findall(r"\]\(([^)\s]+)\)", text) if not re.match(r"[a-z]+:", t)]


@pytest.mark.parametrize("page", ["README.md", *sorted(p.name for p in DOCS.glob("*.md"))])
def test_every_relative_link_resolves_to_a_file_or_a_heading(page):
    path = ROOT / page if page == "README.md" else DOCS / page
    for link in markdown_links(path):
        target, _, anchor = link.partition("#")
        where = (path.parent / target).resolve() if target else path
        assert where.exists(), f"{page}: {link} leads nowhere"
        if anchor and where.suffix == ".md":
            headings = re.findall(r"^#+ (.+)$", where.read_text(encoding="utf-8"), flags=re.M)
            slugs = {re.sub(r"[^\w\- ]", "", h).strip().lower().replace(" ", "-") for h in headings}
            assert anchor in slugs, f"{page}: #{anchor} is no heading of {target or page}"


def test_the_readme_links_every_docs_page():
    for page in DOCS.glob("*.md"):
        assert f"](docs/{page.name})" in README, f"docs/{page.name} is not linked from the README"


def test_the_game_file_page_shows_the_shipped_every_field_example_word_for_word():
    shipped = (ROOT / "data" / "examples" / "every-field.toml").read_text(encoding="utf-8")
    assert f"```toml\n{shipped}```" in GAME_FILE_DOC
