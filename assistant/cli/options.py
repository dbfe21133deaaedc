"""What the `votal` commands share: their common options (one decorator each), and how a command
opens the store, loads the game file, reads the clock and prints. Apart from the commands so that
the game file's edit commands (:mod:`assistant.cli.edits`) use them without importing the command
line that loads them."""

from __future__ import annotations

import contextlib
import json
import shlex
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

import click

from assistant.errors import VotalError
from assistant.output.terminal import json_safe, terminal_safe

if TYPE_CHECKING:
    from click._termui_impl import ProgressBar


def game_argument(func: Callable) -> Callable:
    return click.argument("game_file", type=click.Path(dir_okay=False))(func)


class InputError(click.ClickException):
    """A usage or input error in one line (exit 2, as click's usage errors), without the usage."""

    exit_code = 2


class GameFirst(click.Command):
    """A command whose game file comes first (``votal kill GAME NAME``), as in every other command.
    The old order, the game file last (``votal kill NAME GAME``), still works, saying the new."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, self._game_first(ctx, args))

    def _game_first(self, ctx: click.Context, args: list[str]) -> list[str]:
        places = self._positional_places(args)
        wanted = sum(1 for p in self.params if isinstance(p, click.Argument))
        if len(places) != wanted or wanted < 2:
            return args
        first, last = args[places[0]], args[places[-1]]
        if not _looks_like_game_file(last) or _looks_like_game_file(first):
            return args
        rest = (a for i, a in enumerate(args) if i >= places[0] and i != places[-1])
        moved = [*args[: places[0]], last, *rest]
        shown = " ".join(shlex.quote(a) for a in moved)
        click.echo(
            f"note: the game file comes first now; write: {ctx.command_path} {shown}", err=True
        )
        return moved

    def _positional_places(self, args: list[str]) -> list[int]:
        """Where the arguments (not options or their values) are in ``args``."""
        options = (p for p in self.params if isinstance(p, click.Option))
        takes_value = {name for p in options if not p.is_flag and not p.count for name in p.opts}
        places: list[int] = []
        skip = False
        for index, token in enumerate(args):
            if skip:
                skip = False
            elif token == "--":
                return places + list(range(index + 1, len(args)))
            elif token.startswith("-") and len(token) > 1 and not token.lstrip("-").isdigit():
                skip = token in takes_value  # "--post 5"; "--post=5" holds its value
            else:
                places.append(index)
        return places


def _looks_like_game_file(token: str) -> bool:
    return token.endswith(".toml") or Path(token).is_file()


def db_option(func: Callable) -> Callable:
    return click.option(
        "--db",
        "db_file",
        envvar="VOTAL_DB",
        default=None,
        help="SQLite store (else $VOTAL_DB, else the game file's name with .db, beside it).",
    )(func)


LEGACY_STORE = "votal.db"  # the default store before it followed the game file, in the working dir


class StoreElsewhere(VotalError):
    """The game's posts are in the old default store (working directory), not beside its file."""

    exit_code = 2


def beside_game(game_file: str | Path) -> Path:
    """The store a game file uses by default: ``games/wh17.toml`` -> ``games/wh17.db`` (two games in
    one folder never share it, and counting from another directory finds the same store)."""
    path = Path(game_file)
    return path.with_name(path.name.removesuffix(".toml") + ".db")


def store_path(game, db_file: str | None) -> str:
    """--db or $VOTAL_DB, else the store beside the game file. A game whose posts are only in
    ./votal.db (where earlier versions kept them) is told how to move that store, never silently
    given an empty one."""
    if db_file:
        return db_file
    beside = beside_game(game.path)
    legacy = Path(LEGACY_STORE)
    if not beside.exists() and legacy.is_file() and legacy.resolve() != beside.resolve():
        games = _games_stored(legacy)
        if game.key in games:
            move = "mv" if games == {game.key} else "cp"  # a store other games still use is copied
            raise StoreElsewhere(
                f"{game.path.name}'s posts are in ./{LEGACY_STORE}, the old default; the store now "
                f"sits beside the game file: `{move} {LEGACY_STORE} {beside}` "
                f"(or pass --db {LEGACY_STORE})"
            )
    return str(beside)


def _games_stored(path: Path) -> set[str]:
    import sqlite3

    try:
        # read-write though it only reads: a read-only one would leave -wal and -shm files behind
        with contextlib.closing(sqlite3.connect(path)) as db:
            return {row[0] for row in db.execute("select distinct game from posts")}
    except sqlite3.Error:
        return set()  # not a store of ours: nothing to say about it


def format_option(*choices: str) -> Callable:
    def decorate(func: Callable) -> Callable:
        return click.option(
            "--format",
            "fmt",
            type=click.Choice(choices),
            default=choices[0],
            show_default=True,
            help="Output format.",
        )(func)

    return decorate


def day_options(func: Callable) -> Callable:
    func = click.option(
        "--at-time",
        type=click.DateTime(
            [
                "%Y-%m-%dT%H:%M:%S%z",
                "%Y-%m-%dT%H:%M%z",
                "%Y-%m-%dT%H:%M:%S",
                "%Y-%m-%dT%H:%M",
                "%Y-%m-%d %H:%M",
            ]
        ),
        metavar="TIME",  # the formats' list would be a 98-column line; the help names the format
        help="Count as of this time (ISO 8601; without an offset, in the game's time zone). "
        "Default: the time of the --at-post post, else now.",
    )(func)
    func = click.option(
        "--at-post", type=click.IntRange(min=0), help="Count as of this post number."
    )(func)
    return click.option(
        "--day", type=click.IntRange(min=1), help="Day to count (default: the current day)."
    )(func)


def quiet_option(func: Callable) -> Callable:
    return click.option("--quiet", "-q", is_flag=True, help="No progress output.")(func)


def now_utc() -> datetime:
    return datetime.now(UTC)


def open_store(db_file: str):
    from assistant.forum.store import open_db

    return _closed_at_exit(open_db(db_file))


def read_store(db_file: str):
    """The store for a command that only reads it: no schema work."""
    from assistant.forum.store import open_reader

    return _closed_at_exit(open_reader(db_file))


def _closed_at_exit(db):
    """Closed when the command ends: the last connection's close folds the WAL into the store and
    removes the -wal and -shm files, so a store is one file to move or back up."""
    context = click.get_current_context(silent=True)
    if context is not None:
        context.find_root().call_on_close(db.close)
    return db


def load(game_file: str):
    from assistant.gamefile.game import load_game

    return load_game(game_file)


def load_stored(game_file: str, db_file: str | None):
    """The game and a read-only store that holds its posts (:func:`store_path`): a missing store or
    a game never synced is an error, never an empty count (and no empty database is left behind)."""
    from assistant.counting.count import require_posts

    game = load(game_file)
    db = read_store(store_path(game, db_file))
    require_posts(game, db)
    return game, db


def warn(warnings) -> None:
    """Warnings for the moderator on stderr, beside output meant to be pasted (BBCode, drafts,
    exports)."""
    for warning in warnings:
        if not warning.note:  # a note asks for nothing: in the count's JSON only
            print_text(f"warning: {warning.message}", err=True)


def warn_doubts(votals) -> None:
    """Each count's doubts for the moderator on stderr, beside text meant for players (never in
    it)."""
    for votal in votals:
        for doubt in votal.doubts:
            if not doubt.note:
                print_text(
                    f"doubt (day {votal.day}, {doubt.kind.replace('_', ' ')}): {doubt.describe()}",
                    err=True,
                )


class PageProgress:
    """Pages read of the thread, for a long `new`, `sync` or `update`: on a terminal click's
    progress bar (pages done of the total, time left); elsewhere (cron, a pipe, a log) a whole line
    on stderr every ``every`` seconds, never a carriage return. Called with each sync result; then
    ``done()``."""

    def __init__(
        self,
        label: str,
        *,
        terminal: bool | None = None,
        every: float = 5.0,
        clock: Callable[[], float] | None = None,
    ) -> None:
        import sys
        import time

        self.label, self.every = label, every
        self.clock = clock or time.monotonic
        self.terminal = sys.stderr.isatty() if terminal is None else terminal
        self.started = self.last_said = self.clock()
        self.bar: ProgressBar[int] | None = None

    def __call__(self, result) -> None:
        total = result.pages + result.pages_left if result.pages_left is not None else None
        if self.terminal:
            self._draw(result.pages, total)
        elif self.clock() - self.last_said >= self.every:
            self.last_said = self.clock()
            click.echo(f"{self.label}: {self._line(result, total)}", err=True)

    def done(self) -> None:
        if self.bar is not None:
            self.bar.render_finish()

    def _draw(self, pages: int, total: int | None) -> None:
        if self.bar is None:
            self.bar = click.progressbar(
                length=total or 0, label=self.label, file=sys.stderr, show_pos=True, show_eta=True
            )
        self.bar.length = total  # learned from the first page, and again as the thread grows
        self.bar.update(pages - self.bar.pos)

    def _line(self, result, total: int | None) -> str:
        of = f" of {total}" if total is not None else ""
        line = f"page {result.pages}{of}, {counted(result.new_posts, 'new post')}"
        if total and result.pages:
            left = (self.clock() - self.started) / result.pages * (total - result.pages)
            line += f", about {_duration(left)} left"
        return line


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min"


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """``1 page``, ``2 pages``: a number and its noun, agreeing."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


def print_json(data) -> None:
    """Data for scripts: exact, with control and bidi characters as JSON escapes (safe on a terminal
    too)."""
    click.echo(json_safe(json.dumps(data, indent=2, ensure_ascii=False)))


def print_text(text: str, **options) -> None:
    """Text for people: names and post text can hold terminal escapes and bidi controls; shown
    escaped."""
    click.echo(terminal_safe(text), **options)
