"""The `votal` command line: a few calls into the core per command, errors as one clear line."""

from __future__ import annotations

import contextlib
import gc
import signal
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import click

from assistant import __version__
from assistant.cli.options import (
    GameFirst,
    InputError,
    PageProgress,
    beside_game,
    counted,
    day_options,
    db_option,
    format_option,
    game_argument,
    load,
    load_stored,
    now_utc,
    open_store,
    print_json,
    print_text,
    quiet_option,
    read_store,
    store_path,
    warn,
    warn_doubts,
)
from assistant.errors import VotalError
from assistant.output.terminal import terminal_safe
from parsers.detect import ENGINES

if TYPE_CHECKING:
    from assistant.counting.votal import Votal
    from assistant.gamefile.game import Game
    from assistant.upkeep.new import NewGame

# The commands that write the game file live in assistant.cli.edits, loaded only when one of them is
# asked for or the command list is shown: `votal count` and the other commands never pay for
# building them.
EDIT_COMMANDS = ("update", "day", "kill", "replace", "player", "undo")
# The example game files shipped in data/examples/, printed by `votal new --example [NAME]`.
EXAMPLES = ("game", "every-field")


class _Group(click.Group):
    """Turns the core's errors into one line on stderr, never a traceback, with the exit status
    every command shares: 0 done, 1 a problem found (the forum failing, a game locked), 2 a usage
    or input error (the game file, the store, a refused edit; click's own usage errors are 2 too);
    loads the edit commands when needed."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *EDIT_COMMANDS})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in EDIT_COMMANDS and name not in self.commands:
            from assistant.cli import edits as cli_edits

            cli_edits.register(self)
        return super().get_command(ctx, name)

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except VotalError as exc:
            error = click.ClickException(terminal_safe(str(exc)))
            error.exit_code = getattr(exc, "exit_code", 1)  # 2: wrong input; 1: a problem found
            raise error from None
        except KeyboardInterrupt:
            click.echo("Interrupted.", err=True)
            sys.exit(130)
        except Exception as exc:
            # A store damaged in a way no store function foresaw (a table missing a column, a page
            # corrupted mid-file) is still one line naming what SQLite said, not a traceback.
            sqlite3 = sys.modules.get("sqlite3")
            if sqlite3 is None or not isinstance(exc, sqlite3.Error):
                raise
            from assistant.forum.store import store_error

            where = ctx.params.get("db_file") or "the game's store"
            raise InputError(terminal_safe(str(store_error(where, exc)))) from None


_start_up_frozen = False
LOG_TIME = "%Y-%m-%d %H:%M:%S"  # a log line's time (local, as logging's asctime): run and logging


# Help wraps at 100 columns on a wide terminal (click's default is 80), never wider.
@click.group(cls=_Group, context_settings={"max_content_width": 100})
@click.version_option(__version__, prog_name="votal")
def main() -> None:
    """Votal: reads the votes in a forum game thread, keeps the votal, drafts the moderator's posts.

    \b
    A real game, at its start:
      votal new URL -o game.toml    write the game file from the thread; check it
      votal run game.toml --site public --drafts drafts
                                    keep the votal, the page and drafts current
    Try it first:   votal demo            (a sample game, offline)
    No thread yet:  votal new --example   (a game file to fill in by hand)
    """
    global _start_up_frozen
    if not _start_up_frozen:
        # What start-up built (modules, classes, the command table) lives as long as the process:
        # frozen, the collector no longer walks it at each full collection (2% of a `votal count`).
        # Once a process, so an embedding program's later garbage is never frozen with it.
        gc.freeze()
        _start_up_frozen = True
    # SIGTERM (systemd, kill) stops a command as Ctrl-C does: at once, even in the middle of a
    # request, with what was stored before kept (each page is its own transaction). `votal run`
    # installs its own handler.
    with contextlib.suppress(
        ValueError
    ):  # ValueError: not the main thread (an embedding program's choice)
        signal.signal(signal.SIGTERM, _interrupt)


def _interrupt(signum, frame) -> None:  # noqa: ANN001 (signal's signature)
    raise KeyboardInterrupt


class RulesetOption(click.Option):
    """--ruleset, whose help lists the bundled rulesets (data/rulesets, read when help is shown)."""

    def get_help_record(self, ctx: click.Context):
        from assistant.gamefile.rules import bundled_rulesets

        names = ", ".join(bundled_rulesets())
        self.help = f"A bundled ruleset ({names}) or a ruleset file. Default: mafiascum."
        return super().get_help_record(ctx)


class DraftChoice(click.Choice):
    """A choice among ``assistant.output.drafts.<name>``, read only when needed: importing drafts
    (Jinja2, the tally) when the CLI starts would slow every command, `votal sync` polls
    included."""

    def __init__(self, name: str) -> None:
        self.name_in_drafts = name
        self.case_sensitive = True

    # click keeps a list here; this one is read when first needed
    @property
    def choices(self) -> tuple[str, ...]:  # type: ignore[override]
        from assistant.output import drafts

        return tuple(getattr(drafts, self.name_in_drafts))


def as_of_moment(
    game, db, at_post: int | None, at_time: datetime | None, *, stored=None
) -> datetime:
    """What a count is as of: --at-time (a time without an offset is the game's local time, as the
    moderator writes deadlines), else the time of --at-post's post, else now."""
    from assistant.counting.count import as_of

    if at_time is not None:
        at_time = (
            at_time.replace(tzinfo=game.tz) if at_time.tzinfo is None else at_time
        ).astimezone(UTC)
    return as_of(game, db, at_post=at_post, at_time=at_time, now=now_utc(), stored=stored)


def load_snapshot(
    game_file: str,
    db_file: str,
    at_post: int | None,
    at_time: datetime | None,
    day: int | None = None,
):
    """The game, its store, the stored thread read once (``counting.StoredGame``) and the moment a
    count is as of: what count, draft and audit start from. A ``day`` the file does not declare but
    the moderators' posts start is counted from their post, with a warning (``announced_days``):
    written, not refused."""
    from dataclasses import replace

    from assistant.counting.count import load_stored_game, undeclared

    game, db = load_stored(game_file, db_file)
    stored = load_stored_game(game, db)
    if day is not None and stored.timeline is not None and undeclared(game, stored.timeline, day):
        from assistant.counting.announced_days import with_announced_days
        from assistant.forum.store import load_posts

        posts = [p for p in load_posts(db, game.key) if at_post is None or p.number <= at_post]
        announced, warnings = with_announced_days(game, posts, day)
        if warnings:
            game, stored = announced, replace(stored.fresh(announced), announced=tuple(warnings))
    return game, db, stored, as_of_moment(game, db, at_post, at_time, stored=stored)


def _on_terminal() -> bool:
    return bool(getattr(sys.stdout, "isatty", None) and sys.stdout.isatty())


@main.command()
@game_argument
@db_option
@quiet_option
@format_option("text", "json")
def sync(game_file: str, db_file: str, quiet: bool, fmt: str) -> None:
    """Fetch the game thread's new posts into the store.

    Resumes from the last stored post (that page is read again, since it grows), waiting
    [fetch] min_interval seconds between requests.

    \b
    Example:
      votal sync games/wh17.toml --db wh17.db
    """
    from assistant.forum.fetch import make_fetcher
    from assistant.forum.sync import check_ruleset, sync_game

    game = load(game_file)
    fetcher = make_fetcher(
        game
    )  # the game's [fetch] settings, cookies for a private thread included
    check_ruleset(game)  # every error in the game's files before the store is touched
    db = open_store(store_path(game, db_file))

    progress = None if quiet else PageProgress(f"sync {game.title}")
    result = sync_game(game, db, fetcher, now=now_utc, on_page=progress)
    if progress is not None:
        progress.done()
    summary = {
        "game": game.title,
        "engine": result.engine,
        "requests": result.requests,
        "pages": result.pages,
        "new_posts": result.new_posts,
        "changed_posts": result.changed_posts,
        "problems": result.problems,
    }
    if fmt == "json":
        print_json(summary)
    else:
        print_text(
            f"{game.title}: {result.new_posts} new, {counted(result.changed_posts, 'edited post')} "
            f"({counted(result.pages, 'page')}, {counted(result.requests, 'request')}, {result.engine})"
        )
        for problem in result.problems:
            print_text(f"  problem: {problem}")
    if result.problems:
        sys.exit(1)  # what was read is stored; a page it could not read is a problem found


def print_example(ctx: click.Context, _param: click.Parameter, name: str | None) -> None:
    """Print a bundled example game file and stop, before the URL is asked for (an eager option)."""
    if name is None or ctx.resilient_parsing:
        return
    from assistant import bundled

    click.echo((bundled.data() / "examples" / f"{name}.toml").read_text(encoding="utf-8"), nl=False)
    ctx.exit()


@main.command()
@click.argument("url")
@click.option(
    "--example",
    type=click.Choice(EXAMPLES),
    is_flag=False,
    flag_value=EXAMPLES[0],
    is_eager=True,
    expose_value=False,
    callback=print_example,
    help="Print an example game file instead (`game`, to fill in by hand; `every-field`: "
    "each field explained), e.g. votal new --example > game.toml",
)
@click.option(
    "-o",
    "--output",
    "out",
    default="game.toml",
    show_default=True,
    type=click.Path(dir_okay=False),
    help="The game file to write.",
)
@click.option("--ruleset", default=None, cls=RulesetOption, help="Ruleset name or file.")
@click.option(
    "--forum",
    type=click.Choice(ENGINES),
    help="The forum's engine, for a board Votal cannot tell from its address or page.",
)
@click.option(
    "--timezone",
    "zone",
    default=None,
    help="The zone of the moderator's times, e.g. America/New_York.",
)
@click.option("--force", is_flag=True, help="Overwrite an existing file.")
@click.option(
    "--min-interval", type=float, help="Seconds between requests, written to [fetch] (default 1.5)."
)
@db_option
@quiet_option
@format_option("text", "json")
def new(
    url: str,
    out: str,
    ruleset: str | None,
    forum: str | None,
    zone: str | None,
    force: bool,
    min_interval: float | None,
    db_file: str,
    quiet: bool,
    fmt: str,
) -> None:
    """Write a first game file from what the thread says: players, moderators, days and deaths so far.

    Syncs the thread into the store, reads the opening post and the moderators' posts, and writes a
    file to review: each entry cites the post it comes from. Prints what it could not find.

    \b
    Example:
      votal new "https://forum.mafiascum.net/viewtopic.php?t=15787" \\
        -o mini1094.toml --timezone America/New_York
      votal new --example > game.toml     # a file to fill in by hand
    """
    from pathlib import Path

    from assistant.upkeep.new import create_game_file

    if Path(out).exists() and not force:
        raise InputError(f"{out} exists: pass --force to overwrite it")
    progress = None if quiet else PageProgress(f"reading {url}")
    db = open_store(db_file or str(beside_game(out)))
    result = create_game_file(
        url,
        out,
        db=db,
        ruleset=ruleset,
        timezone=zone,
        now=now_utc,
        min_interval=min_interval,
        progress=progress,
        forum=forum,
    )
    if progress is not None:
        progress.done()
    _print_new_game(result, out, fmt)
    if not result.usable:
        sys.exit(1)


def _print_new_game(result: NewGame, out: str, fmt: str) -> None:
    """What `votal new` wrote to ``out``, found and could not find, as text or JSON."""
    if fmt == "json":
        print_json(
            {
                **result.summary,
                "file": out,
                "written": result.usable,
                "found": result.found,
                "missing": result.missing,
            }
        )
        return
    print_text(f"Wrote {out}" if result.usable else f"Nothing written to {out}")
    for line in result.found:
        print_text(f"  found: {line}")
    for line in result.missing:
        print_text(f"  missing: {line}")


@main.command()
@click.argument("game_files", nargs=-1, required=True, type=click.Path(dir_okay=False, exists=True))
@db_option
@click.option(
    "--site",
    "site_dir",
    type=click.Path(file_okay=False),
    help="Keep the players' pages here: a folder per game file, an index of the games.",
)
@click.option(
    "--drafts",
    "drafts_dir",
    type=click.Path(file_okay=False),
    help="Keep each game's votal draft here (GAME-votal.txt).",
)
@click.option(
    "--follow",
    is_flag=True,
    help="After each change, write what the moderator announced into the "
    "game file, as `votal update` does, and log it.",
)
@click.option(
    "--once",
    is_flag=True,
    help="Run every game once now (sync, count, alerts, page, draft), then exit: for cron.",
)
@quiet_option
def run(
    game_files: tuple[str, ...],
    db_file: str,
    site_dir: str | None,
    drafts_dir: str | None,
    follow: bool,
    once: bool,
    quiet: bool,
) -> None:
    """Keep every game's votal current until Ctrl-C or SIGTERM (with --once: one round, then exit).

    Syncs each game every [fetch] interval seconds (default 300; every minute in the last hour
    before a deadline), one request at a time per forum, and after each change rewrites the
    players' page and the votal draft. Alerts (hammer, deadline near, a vote that cannot be read,
    a page that stops parsing) are logged once and sent once to the game's [alerts] webhook.
    With --follow it also writes what the moderator announces into the game file (as `votal update`);
    without it nothing edits the file. A game with nothing new since its last run (no new or edited
    post, the same game file, the same day and deadline phase) costs one conditional request: it is
    not counted again and its page, draft and alerts stay as they are. Every round, --once included,
    leaves each game's page and draft present and current: one that is missing, or was written from
    an older state, game file or template, is written again.

    \b
    Example:
      votal run games/wh17.toml games/mafia42.toml --site public/ --drafts drafts/
      votal run games/wh17.toml --follow
      votal run games/*.toml --site public/ --once     # from cron
    """
    from assistant.cli.schedule import regenerate_hooks, run_games

    _log_to_stderr()
    hooks = regenerate_hooks(site_dir=site_dir, drafts_dir=drafts_dir, now=now_utc)
    echo = None if quiet else _echo_logged
    if follow:  # first, so the page and the draft are written after the game file is
        hooks.insert(0, _follow_stored(game_files, db_file, echo))
    runner = run_games(
        game_files, db_path=db_file, regenerate=hooks, echo=echo, now=now_utc, once=once
    )
    if runner.skipped:
        sys.exit(1)  # the other games ran; a game file that could not be used is a problem found


def _log_to_stderr() -> None:
    """run's lines are a log: on stderr, each as the logging module writes it (the time, the
    line), with players' names and posts made safe for a terminal (alerts and problems quote
    them)."""
    import logging

    from assistant.output.terminal import safe_log_formatter

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(message)s")
    for handler in logging.getLogger().handlers:
        handler.setFormatter(safe_log_formatter("%(asctime)s %(message)s", datefmt=LOG_TIME))


def _echo_logged(line: str) -> None:
    """A line of `votal run`'s log on stderr, after the local time."""
    print_text(f"{now_utc().astimezone():{LOG_TIME}} {line}", err=True)


def _follow_stored(
    game_files: tuple[str, ...], db_file: str, echo: Callable[[str], None] | None
) -> Callable:
    """The hook of `votal run --follow`, already run over what each game has stored, before the
    first sync brings anything new."""
    import logging

    from assistant.upkeep.update import follow_hook

    follow = follow_hook(now=now_utc, say=echo or logging.getLogger("votal.follow").warning)
    for path in game_files:
        with contextlib.suppress(VotalError):  # run_games says a bad game file, and skips it
            game = load(path)
            db = open_store(store_path(game, db_file))
            follow(game, db)
            db.close()
    return follow


@main.command()
@click.argument("game_files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@db_option
@format_option("text", "json")
def status(game_files: tuple[str, ...], db_file: str, fmt: str) -> None:
    """Show each game: last sync, posts stored, current day and leader, deadline, open problems (no network).

    \b
    Example:
      votal status games/wh17.toml games/mafia42.toml --format json
    """
    from pathlib import Path

    from assistant.counting.count import NO_POSTS
    from assistant.forum.store import StoreError
    from assistant.output.status import collect_status, format_status_text

    games = [load(path) for path in game_files]
    stores = [store_path(game, db_file) for game in games]
    for path in stores:
        if not Path(path).is_file():  # never create an empty store just to report that it is empty
            raise StoreError(f"{NO_POSTS} (there is no store at {path})")
    statuses = [
        collect_status(game, read_store(path), now=now_utc())
        for game, path in zip(games, stores, strict=True)
    ]
    if fmt == "json":
        print_json(statuses)
    else:
        print_text("\n\n".join(format_status_text(s) for s in statuses))
    empty = [s["file"] for s in statuses if not s["posts"] and not s["deleted_posts"]]
    if empty:
        raise InputError(f"{', '.join(empty)}: {NO_POSTS}")


@main.command()
@game_argument
@db_option
@day_options
@click.option("--all-days", is_flag=True, help="Every day so far, as a list.")
@format_option("text", "json", "bbcode")
def count(
    game_file: str,
    db_file: str,
    day: int | None,
    at_post: int | None,
    at_time: datetime | None,
    all_days: bool,
    fmt: str,
) -> None:
    """Print the votal from stored posts (no network).

    \b
    Example:
      votal count games/wh17.toml --day 2 --at-post 512 --format json
    """
    from assistant.counting.checks import for_day
    from assistant.counting.count import count_stored, current_day, game_warnings

    game, db, stored, moment = load_snapshot(game_file, db_file, at_post, at_time, day)
    days = (
        None
        if all_days
        else [day or current_day(game, db, at_time=moment, at_post=at_post, stored=stored)]
    )
    votals = count_stored(game, stored, days=days, at_post=at_post, at_time=moment)
    now = (
        moment if at_post is None and at_time is None else None
    )  # a count of now shares its replay
    warnings = game_warnings(game, db, days=[v.day for v in votals], stored=stored, now=now)
    if fmt == "json":
        data = [count_json(v, for_day(warnings, v.day)) for v in votals]
        print_json(data if all_days else data[0])
    elif fmt == "bbcode":
        from assistant.output.drafts import render_votal_draft

        for votal in votals:
            warn(for_day(warnings, votal.day))
            warn_doubts([votal])
            print_text(render_votal_draft(game, votal))
    else:
        from assistant.counting.count import format_votal_text

        print_text(
            "\n\n".join(format_votal_text(game, v, for_day(warnings, v.day)) for v in votals)
        )


def count_json(votal, warnings) -> dict:
    """One day's count as `votal count --format json` gives it: the moderator's own view (real
    reasons and private notes), its warnings, the game file's notes among its notes (docs/json)."""
    from assistant.counting.checks import notes_only, warnings_only

    data = votal.to_json(private=True)
    data["notes"] = [*data["notes"], *(w.to_note_json() for w in notes_only(warnings))]
    data["warnings"] = [w.to_json() for w in warnings_only(warnings)]
    return data


@main.command(cls=GameFirst)
@game_argument
@click.argument("kind", type=DraftChoice("KINDS"), metavar="KIND")
@db_option
@day_options
@click.option(
    "--flavor",
    type=DraftChoice("FLAVORS"),
    help="Markup (default: Markdown on Discourse, else BBCode).",
)
@click.option(
    "--templates",
    "templates_dir",
    type=click.Path(file_okay=False),
    help="Your templates folder (default: the game file's 'templates'); its files override the bundled ones.",
)
@click.option(
    "--force",
    is_flag=True,
    help="Draft day-end or judge for a day not yet decided, early-end for a day that did not end early, "
    "runoff when there is none (the draft then says so).",
)
def draft(
    kind: str,
    game_file: str,
    db_file: str,
    day: int | None,
    at_post: int | None,
    at_time: datetime | None,
    flavor: str | None,
    templates_dir: str | None,
    force: bool,
) -> None:
    """Draft a routine moderator post from stored posts (no network).

    KIND is one of day-start, votal, judge, day-end, early-end, runoff, reminder. A template
    folder's votal.j2, day_start.j2 ... (or bbcode/votal.j2, markdown/votal.j2) replace the
    bundled templates of the same name. A draft announcing what did not happen (day-end or
    judge of a day not decided, early-end of a day that did not end early, runoff when there is
    none) is refused (exit 1) unless --force.

    \b
    Example:
      votal draft games/wh17.toml day-start --day 3
    """
    from assistant.counting.checks import for_day
    from assistant.counting.count import count_stored, current_day, game_warnings
    from assistant.output.drafts import (
        DraftKind,
        build_context,
        default_flavor,
        nothing_to_announce,
        render_draft,
    )

    game, db, stored, moment = load_snapshot(game_file, db_file, at_post, at_time, day)
    if kind == DraftKind.JUDGE and not stored.ruleset.has_judge:
        raise InputError(
            f"the {game.ruleset} ruleset has no Judge: there is no judge post to "
            "draft (`votal draft day-end` announces the day's end)"
        )
    number = day or current_day(game, db, at_time=moment, at_post=at_post, stored=stored)
    votals = count_stored(game, stored, days=[number], at_post=at_post, at_time=moment)
    # a draft of now shares its replay
    now = moment if at_post is None and at_time is None else None
    warn(for_day(game_warnings(game, db, days=[number], stored=stored, now=now), number))
    warn_doubts(votals)
    posts = stored.posts
    count_number = (
        _count_number(game, db_file, number, votals[0]) if kind == DraftKind.VOTAL else None
    )
    context = build_context(
        game, stored.ruleset, votals, day=number, now=moment, posts=posts, count_number=count_number
    )
    missing = nothing_to_announce(kind, context)
    if missing and not force:
        raise _nothing_happened(game, kind, f"day {number} {missing}", moment, at_post)
    folder = templates_dir or game.templates
    print_text(
        render_draft(kind, context, flavor=flavor or default_flavor(game), template_dir=folder)
    )


def _count_number(game: Game, db_file: str, day: int, votal: Votal) -> int | None:
    """The number of the day's votal as of its last post, kept in the store: drafting the same
    count again gives the same number. None for a count of no post."""
    if votal.as_of_post is None:
        return None
    from assistant.forum.store import number_vote_count

    writer = open_store(store_path(game, db_file))
    return number_vote_count(writer, game.key, day, votal.as_of_post, now=now_utc())


def _nothing_happened(
    game: Game, kind: str, what: str, moment: datetime, at_post: int | None
) -> InputError:
    """The refusal of a ``kind`` draft that would announce ``what`` did not happen as of the
    count's moment."""
    local = moment.astimezone(game.tz)  # the game's zone, named, as the count's deadline
    where = f"post {at_post}" if at_post is not None else f"{local:%Y-%m-%d %H:%M %Z}"
    return InputError(
        f"{what} as of {where}: a {kind} post would announce what did not happen "
        "(count it with `votal count`; --force drafts it saying so)"
    )


@main.command()
@game_argument
@db_option
@day_options
@format_option("text", "json")
def audit(
    game_file: str,
    db_file: str,
    day: int | None,
    at_post: int | None,
    at_time: datetime | None,
    fmt: str,
) -> None:
    """List every command read on a day: post, author, text, what it resolved to and how, and why not counted.

    Fix a misread post in the game file with [[corrections]] (post = 484, vote = "Name" or ignore = true);
    corrected posts are marked here.

    \b
    Example:
      votal audit games/wh17.toml --day 1
    """
    from assistant.counting.count import count_stored, current_day, format_audit_text

    game, db, stored, moment = load_snapshot(game_file, db_file, at_post, at_time, day)
    number = day or current_day(game, db, at_time=moment, at_post=at_post, stored=stored)
    votal = count_stored(game, stored, days=[number], at_post=at_post, at_time=moment)[0]
    if fmt == "json":
        print_json(votal.to_json(private=True)["actions"])
    else:
        print_text(format_audit_text(votal))


@main.command()
@game_argument
@db_option
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    default="site-out",
    show_default=True,
    help="Directory to write the site into.",
)
def site(game_file: str, db_file: str, out_dir: str) -> None:
    """Write the players' page: a static site (HTML + JSON) of the current votal, earlier days and every vote.

    Reads only the store and the game file; private facts of the game file never reach the page. The
    page goes in a folder named after the game file (as `votal run --site` writes it), beside the
    site's index of every game the folder holds.

    \b
    Example:
      votal site games/wh17.toml --out public/   # public/wh17/, public/index.html
      votal serve public/
    """
    from pathlib import Path

    from assistant.output.site import page_folder, publish_site, write_index

    game, db = load_stored(game_file, db_file)
    folder, moment = page_folder(out_dir, game), now_utc()
    publish_site(game, db, folder, generated_at=moment)
    write_index(out_dir)
    click.echo(f"Wrote {folder}/ and the index of games, {Path(out_dir) / 'index.html'}")


@main.command()
@click.argument("directory", type=click.Path(file_okay=False, exists=True), default="site-out")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on (loopback: only this machine).",
)
@click.option(
    "--port",
    default=8000,
    show_default=True,
    type=int,
    help="Port to listen on (0: any free port).",
)
def serve(directory: str, host: str, port: int) -> None:
    """Serve a site written by `votal site` or `votal run --site`, read-only (GET and HEAD only, no
    directory listings): the index of games at /, each game's page at /GAME/.

    \b
    Example:
      votal serve site-out --port 8080
    """
    import errno

    from assistant.output.site import make_server

    try:
        server = make_server(directory, host=host, port=port)
    except OSError as exc:
        if exc.errno != errno.EADDRINUSE:
            raise InputError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
        raise InputError(
            f"port {port} on {host} is busy (another program is listening there): choose another with --port, "
            "or --port 0 for any free port"
        ) from None
    bound_host, bound_port = server.socket.getsockname()[:2]  # server_address, as str
    click.echo(
        f"Serving {directory}/ read-only at http://{bound_host}:{bound_port}/ (Ctrl+C stops)"
    )
    try:
        server.serve_forever()
    finally:
        server.server_close()


@main.command()
@game_argument
@db_option
@format_option("csv", "json", "html")
@click.option(
    "--table",
    type=click.Choice(["votes", "days"]),
    default="votes",
    show_default=True,
    help="CSV only: one row per command read (votes) or one row per day's summary (days).",
)
@click.option(
    "--output", "-o", type=click.Path(dir_okay=False), help="Write to this file instead of stdout."
)
def export(game_file: str, db_file: str, fmt: str, table: str, output: str | None) -> None:
    """Export the vote history: every command read (post, time, voter, text, target, counted or why not).

    JSON adds each day's summary (final wagons, outcome, who never voted); HTML adds a wagon timeline per day.

    \b
    Example:
      votal export games/wh17.toml --format csv -o wh17-votes.csv
    """
    from assistant.output.export import render_export
    from assistant.output.site import gather_days

    now = now_utc()
    game, posts, days, label = gather_days(*load_stored(game_file, db_file), now=now)
    text = render_export(
        fmt, game, days, generated_at=now, posts=posts, table=table, no_elimination_label=label
    )
    # JSON and HTML are exact and safe as rendered (escapes, character references); CSV is exact for
    # a file or a pipe (a spreadsheet's data) and escaped on a terminal.
    if output:
        with open(output, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
    elif fmt == "csv" and not _on_terminal():
        click.echo(text, nl=False)
    else:
        print_text(text, nl=False)


@main.command()
@click.option(
    "--keep-db", type=click.Path(dir_okay=False), help="Keep the demo's store at this path."
)
def demo(keep_db: str | None) -> None:
    """Run the whole pipeline offline on a bundled sample game.

    Serves a sample Witch Hunt thread from a loopback HTTP server, syncs it into a temporary
    store, and prints the votal and the moderator's BBCode draft.

    \b
    Example:
      votal demo
    """
    from assistant.cli.demo import run_demo

    run_demo(echo=click.echo, db_file=keep_db, now=now_utc)
