"""What the `votal` commands share: their common options (one decorator each), and how a command opens the
store, loads the game file, reads the clock and prints. Apart from the commands so that the game file's edit
commands (:mod:`assistant.cli.edits`) use them without importing the command line that loads them."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime

import click

from assistant.output.terminal import json_safe, terminal_safe


def game_argument(func: Callable) -> Callable:
    return click.argument("game_file", type=click.Path(dir_okay=False))(func)


def db_option(func: Callable) -> Callable:
    return click.option(
        "--db",
        "db_file",
        envvar="VOTAL_DB",
        default="votal.db",
        show_default=True,
        help="SQLite store (else $VOTAL_DB, else ./votal.db).",
    )(func)


def format_option(*choices: str) -> Callable:
    def decorate(func: Callable) -> Callable:
        return click.option(
            "--format", "fmt", type=click.Choice(choices), default=choices[0], show_default=True, help="Output format."
        )(func)

    return decorate


def day_options(func: Callable) -> Callable:
    func = click.option(
        "--at-time",
        type=click.DateTime(
            ["%Y-%m-%dT%H:%M:%S%z", "%Y-%m-%dT%H:%M%z", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"]
        ),
        help="Count as of this time (ISO 8601; without an offset, in the game's time zone). "
        "Default: the time of the --at-post post, else now.",
    )(func)
    func = click.option("--at-post", type=click.IntRange(min=0), help="Count as of this post number.")(func)
    return click.option("--day", type=click.IntRange(min=1), help="Day to count (default: the current day).")(func)


def quiet_option(func: Callable) -> Callable:
    return click.option("--quiet", "-q", is_flag=True, help="No progress output.")(func)


def now_utc() -> datetime:
    return datetime.now(UTC)


def open_store(db_file: str):
    from assistant.forum.store import open_db

    return open_db(db_file)


def read_store(db_file: str):
    """The store for a command that only reads it: no schema work."""
    from assistant.forum.store import open_reader

    return open_reader(db_file)


def load(game_file: str):
    from assistant.gamefile.game import load_game

    return load_game(game_file)


def load_stored(game_file: str, db_file: str):
    """The game and a read-only store that holds its posts: a missing store or a game never synced is an
    error, never an empty count (and no empty database is left behind)."""
    from assistant.counting.count import require_posts

    game = load(game_file)
    db = read_store(db_file)
    require_posts(game, db)
    return game, db


def warn(warnings) -> None:
    """Warnings for the moderator on stderr, beside output meant to be pasted (BBCode, drafts, exports)."""
    for warning in warnings:
        if not warning.note:  # a note asks for nothing: in the count's JSON only
            print_text(f"warning: {warning.message}", err=True)


def warn_doubts(votals) -> None:
    """Each count's doubts for the moderator on stderr, beside text meant for players (never in it)."""
    for votal in votals:
        for doubt in votal.doubts:
            if not doubt.note:
                print_text(f"doubt (day {votal.day}, {doubt.kind.replace('_', ' ')}): {doubt.describe()}", err=True)


def print_json(data) -> None:
    """Data for scripts: exact, with control and bidi characters as JSON escapes (safe on a terminal too)."""
    click.echo(json_safe(json.dumps(data, indent=2, ensure_ascii=False)))


def print_text(text: str, **options) -> None:
    """Text for people: names and post text can hold terminal escapes and bidi controls; shown escaped."""
    click.echo(terminal_safe(text), **options)
