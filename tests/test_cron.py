"""The cron/ examples: each runs a real `votal` command with options that exist, on a sane
schedule."""

from __future__ import annotations

import configparser
import shlex
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from assistant.cli.main import main

CRON = Path(__file__).resolve().parents[1] / "cron"


def check_votal_command(words: list[str]) -> None:
    """``.../votal CMD ARGS...``: the command exists and click accepts the options (parsed, not
    run)."""
    assert Path(words[0]).name == "votal"
    name, args = words[1], words[2:]
    assert name in main.list_commands(click.Context(main)), name
    command = main.get_command(click.Context(main), name)
    context = command.make_context(name, list(args), resilient_parsing=True)
    known = {opt for param in command.params for opt in getattr(param, "opts", [])}
    assert all(a in known for a in args if a.startswith("-")), args
    assert context.params


def unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str
    parser.read_string((CRON / name).read_text(encoding="utf-8"))
    return parser


def test_crontab_line_syncs_every_five_minutes() -> None:
    lines = [
        line
        for line in (CRON / "votal.crontab").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    [line] = lines
    fields = line.split(None, 5)
    assert fields[:5] == ["*/5", "*", "*", "*", "*"]
    command = shlex.split(fields[5])
    votal = command[command.index("&&") + 1 :]
    check_votal_command(votal[: votal.index(">>")] if ">>" in votal else votal)


@pytest.mark.parametrize(
    ("service", "command"), [("votal-sync.service", "sync"), ("votal-run.service", "run")]
)
def test_systemd_services_run_votal(service: str, command: str) -> None:
    words = shlex.split(unit(service)["Service"]["ExecStart"])
    assert words[1] == command
    check_votal_command(words)


def test_the_timer_starts_the_sync_service_every_five_minutes() -> None:
    timer = unit("votal-sync.timer")
    assert timer["Timer"]["OnUnitActiveSec"] == "5min"
    assert timer["Install"]["WantedBy"] == "timers.target"
    assert unit("votal-sync.service")["Service"]["Type"] == "oneshot"


def test_readme_points_to_cron() -> None:
    readme = (CRON.parent / "README.md").read_text(encoding="utf-8")
    assert "cron/" in readme
    assert CliRunner().invoke(main, ["run", "--help"]).exit_code == 0
