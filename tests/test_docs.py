"""The README is the contract: its commands exist, are documented, and its quick start runs."""

import os
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from assistant.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


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
def test_every_command_has_help_with_an_example_and_a_readme_section(name):
    result = CliRunner().invoke(main, [name, "--help"])
    assert result.exit_code == 0
    assert "Example" in result.output, f"votal {name} --help has no example"
    documented = README + "".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "docs").glob("*.md")))
    assert f"votal {name}" in documented, f"votal {name} is not in the README or docs/"


@pytest.mark.parametrize("name", COMMANDS)
def test_commands_that_print_data_offer_json(name):
    command = command_named(name)
    formats = next((p for p in command.params if p.name == "fmt"), None)
    if formats is not None:
        assert isinstance(formats.type, click.Choice)
        assert "json" in formats.type.choices or "csv" in formats.type.choices


def test_quick_start_demo_runs_from_another_directory(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "assistant", "demo"], cwd=tmp_path, capture_output=True, text=True, timeout=120
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
    # ...and with that set, a machine without chromium fails the browser tests instead of skipping them
    env = {**os.environ, "PATH": str(ROOT / "no-such-dir"), "VOTAL_REQUIRE_BROWSER": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_site_browser.py"],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )
    assert done.returncode != 0 and "VOTAL_REQUIRE_BROWSER is set but chromium is not installed" in done.stdout


def test_readme_says_what_end_post_means_and_whether_votes_before_day_1_count():
    game_file = README.split("## The game file", 1)[1].split("\n## ", 1)[0]
    assert "**`end_post` is included**" in game_file
    assert "**Votes before day 1 count only when day 1 has no start.**" in game_file
    assert "**Days by post or by time.**" in game_file
