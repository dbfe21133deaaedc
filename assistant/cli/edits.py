"""The commands that write the game file: `votal day start` / `day end`, `kill`, `replace`,
`player add` / `player remove`, and `votal undo`, which takes back the last of them.

Each checks the edit against the stored thread and the rest of the file
(:func:`game_edits.check_edits`), then writes it the way `votal update` does: comments and layout
kept, the entry commented with its post.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import click

from assistant.cli.options import (
    GameFirst,
    PageProgress,
    counted,
    db_option,
    format_option,
    load,
    now_utc,
    open_store,
    print_json,
    print_text,
    quiet_option,
    read_store,
    store_path,
)

# assistant.upkeep.edits (and tomlkit) are imported inside the commands. This module is loaded by
# cli's group when one of its commands (cli.EDIT_COMMANDS) is asked for.


def register(main: click.Group) -> None:
    for command in (update, day, kill, replace, player, undo):
        main.add_command(command)


def game_file_argument(func):
    return click.argument("game_file", type=click.Path(dir_okay=False, exists=True))(func)


@click.command()
@game_file_argument
@db_option
@click.option(
    "--dry-run", is_flag=True, help="Print the change as a unified diff and write nothing."
)
@quiet_option
@format_option("text", "json")
def update(game_file: str, db_file: str, dry_run: bool, quiet: bool, fmt: str) -> None:
    """Sync the thread and write into the game file what the moderator's posts announce.

    Reads the moderator's posts after the last post the file names: day ends and starts, lynches and
    no-lynches, night, day and mod kills, replacements (from their post), the player list when the
    file has none, deadlines and extensions. Each entry is commented with its post and the
    moderator's words; the file's comments and layout are kept; where the file says otherwise it
    wins and the difference is reported, except a day's start or end post Votal wrote itself (still
    commented with that post), which a later post that places it elsewhere revises, cited. Running
    it twice changes nothing. A lynch announced differently from the count is reported loudly: one
    of the two is wrong.

    \b
    Example:
      votal update game.toml --dry-run
      votal update game.toml
    """
    from assistant.forum.fetch import make_fetcher
    from assistant.forum.sync import sync_game
    from assistant.gamefile.game import load_game
    from assistant.upkeep.edits import one_line, write_game_file
    from assistant.upkeep.update import update_from_store

    game = load_game(game_file, players_required=False)
    db = open_store(store_path(game, db_file))
    progress = None if quiet else PageProgress(f"sync {game.title}")
    synced = sync_game(game, db, make_fetcher(game), now=now_utc, on_page=progress)
    if progress is not None:
        progress.done()
    report = update_from_store(game_file, db, now=now_utc())
    if report.changed and not dry_run:
        write_game_file(game_file, report.text, why="votal update")
    for alarm in report.alarms:
        click.secho(f"!!! {one_line(alarm)}", err=True, fg="red", bold=True)
    if fmt == "json":
        print_json(
            {
                **report.to_json(),
                "dry_run": dry_run,
                "new_posts": synced.new_posts,
                "diff": report.diff() if dry_run else None,
            }
        )
        return
    if dry_run:
        print_text(report.diff(), nl=False)  # the file's new lines hold names from the thread
    elif not quiet:
        after = f" after post {report.read_after}" if report.read_after is not None else ""
        verb = "wrote" if report.changed else "nothing new to write"
        news = counted(synced.new_posts, "new post")
        click.echo(f"{game_file}: {verb} (read the moderators' posts{after}; {news} synced)")
        for line in report.written:
            click.echo(f"  + {one_line(line)}")
    if not quiet:  # names and words from the thread: one line each, nothing a terminal would act on
        for line in report.disagreements:
            click.echo(f"  ! {one_line(line)}")
        for line in report.notes:
            click.echo(f"  note: {one_line(line)}")
    if report.changed and not dry_run and not quiet and fmt == "text":
        click.echo(f"(undo with: votal undo {game_file})")


@click.group()
def day() -> None:
    """Record a day's start or end in the game file.

    \b
    Example:
      votal day start game.toml 3 --post 402
      votal day end game.toml 2 --post 351
    """


@day.command("end", cls=GameFirst)
@game_file_argument
@click.argument("number", type=click.IntRange(min=1), metavar="N")
@click.option("--post", type=int, required=True, help="The post that ends the day (a stored post).")
@db_option
def day_end(number: int, game_file: str, post: int, db_file: str) -> None:
    """Set day N's end_post: the post that ends the day.

    Refused when the post is not stored, is before the day's start, or is not before the next day's
    start.

    \b
    Example:
      votal day end game.toml 2 --post 351
    """
    from assistant.upkeep.edits import SetDay

    edit_game_file(
        game_file,
        db_file,
        lambda cite: [SetDay(number, cite, end_post=post)],
        post=post,
        command="votal day end",
    )


@day.command("start", cls=GameFirst)
@game_file_argument
@click.argument("number", type=click.IntRange(min=1), metavar="N")
@click.option("--post", type=int, required=True, help="The post that starts the day (stored).")
@db_option
def day_start(number: int, game_file: str, post: int, db_file: str) -> None:
    """Set day N's start_post: the post that starts the day.

    Refused when the post is not stored, is before the day before's end or after the day's end, or
    when day N would skip ahead of the game (a day 9 in a game on day 2).

    \b
    Example:
      votal day start game.toml 3 --post 402
    """
    from assistant.upkeep.edits import SetDay

    edit_game_file(
        game_file,
        db_file,
        lambda cite: [SetDay(number, cite, start_post=post)],
        post=post,
        command="votal day start",
    )


@click.command()
@game_file_argument
@click.option("--force", is_flag=True, help="Undo even though the file changed since that edit.")
def undo(game_file: str, force: bool) -> None:
    """Take back the last edit Votal made to the game file (a command's, `votal update`'s or
    `votal run --follow`'s), and show the diff. Run it again to take back the one before.

    Votal keeps each earlier version in .votal-history/ beside the game file (the last 50).

    \b
    Example:
      votal undo game.toml
    """
    from assistant.upkeep.edits import write_game_file
    from assistant.upkeep.history import undo_last

    undone = undo_last(game_file, force=force, write=write_game_file)
    click.echo(f"{game_file}: undid `{undone.why}`")
    print_text(undone.diff, nl=False)


@click.command(cls=GameFirst)
@game_file_argument
@click.argument("name")
@click.option(
    "--phase",
    required=True,
    help='When the seat died: "night 2", "day 3" (dead from that phase\'s end).',
)
@click.option("--post", type=int, help="A kill during the day: dead from this post on.")
@db_option
def kill(name: str, game_file: str, phase: str, post: int | None, db_file: str) -> None:
    """Record a death ([[deaths]]): a night kill, a day kill, a lynch or a mod-kill.

    Refused when NAME is no seat, is already dead in another phase, or the post is not on that day.

    \b
    Example:
      votal kill game.toml Hiraki --phase "night 2"
      votal kill game.toml Hiraki --phase "day 3" --post 812
    """
    from assistant.upkeep.edits import AddDeath

    edit_game_file(
        game_file,
        db_file,
        lambda cite: [AddDeath(name, phase, cite, post)],
        post=post,
        command="votal kill",
    )


@click.command(cls=GameFirst)
@game_file_argument
@click.argument("old")
@click.argument("new")
@click.option(
    "--post", type=int, required=True, help="From this post on NEW holds the seat (a stored post)."
)
@db_option
def replace(old: str, new: str, game_file: str, post: int, db_file: str) -> None:
    """Record that NEW replaces OLD in OLD's seat from a post on.

    Written as {name = "NEW", post = P} in the seat's replacements: votes by OLD after that post, or
    by NEW before it, are flagged. Refused when OLD is no seat, NEW already has one, or the seat was
    replaced later.

    \b
    Example:
      votal replace game.toml Hiraki werewolf555 --post 512
    """
    from assistant.upkeep.edits import AddReplacement

    edit_game_file(
        game_file,
        db_file,
        lambda cite: [AddReplacement(old, new, post, cite)],
        post=post,
        command="votal replace",
    )


@click.group()
def player() -> None:
    """Add a seat to the game file, or remove one.

    \b
    Example:
      votal player add game.toml Hiraki
      votal player remove game.toml Hiraki
    """


@player.command("add", cls=GameFirst)
@game_file_argument
@click.argument("name")
def player_add(name: str, game_file: str) -> None:
    """Add a seat ([[players]]) named NAME.

    \b
    Example:
      votal player add game.toml Hiraki
    """
    from assistant.upkeep.edits import AddPlayer

    edit_game_file(
        game_file,
        None,
        lambda cite: [AddPlayer(name, cite)],
        post=None,
        command="votal player add",
        with_store=False,
    )


@player.command("remove", cls=GameFirst)
@game_file_argument
@click.argument("name")
def player_remove(name: str, game_file: str) -> None:
    """Remove the seat named NAME (its first account). Refused while a death, event, correction or
    private fact names it.

    \b
    Example:
      votal player remove game.toml Hiraki
    """
    from assistant.upkeep.edits import RemovePlayer

    edit_game_file(
        game_file,
        None,
        lambda cite: [RemovePlayer(name)],
        post=None,
        command="votal player remove",
        with_store=False,
    )


def edit_game_file(
    game_file: str,
    db_file: str | None,
    make_edits,
    *,
    post: int | None,
    command: str,
    with_store: bool = True,
) -> None:
    """Check the edits against the stored thread and the file, write them (the file before them
    kept for `votal undo`), and say what changed, as a diff."""
    from assistant.upkeep.edits import Note, apply_edits, check_edits, one_line, write_game_file
    from assistant.upkeep.history import unified_diff

    game = load(game_file)
    thread = read_thread(game, store_path(game, db_file) if with_store else None, post)
    words = thread.first_words or f"set with {command}"
    edits = make_edits(Note(words, post))
    check_edits(game, edits, posts=thread.numbers, playing_day=thread.playing_day)
    text = Path(game_file).read_text(encoding="utf-8")
    result = apply_edits(text, edits, path=game_file, replace=True)
    if not result.changed:
        click.echo(f"{game_file}: already says so; nothing changed")
        return
    write_game_file(game_file, result.text, why=command)
    for line in result.written:
        click.echo(f"{game_file}: {one_line(line)}")
    print_text(unified_diff(text, result.text, game_file), nl=False)
    click.echo(f"(undo with: votal undo {game_file})")


@dataclass(frozen=True)
class ThreadFacts:
    """What an edit is checked against: stored post numbers, the game's day, the post's words."""

    numbers: list[int]
    playing_day: int
    first_words: str = ""


def read_thread(game, db_file: str | None, post: int | None) -> ThreadFacts:
    """The stored thread (when the edit names a post, or a store is there) and the day the game is
    on as of the post (else now), by the thread's posts and the clock."""
    from assistant.counting.count import current_day, ruleset_for
    from assistant.forum import store

    if db_file is None or (post is None and not Path(db_file).is_file()):
        from assistant.counting.clock import phase_at

        phase = phase_at(game, ruleset_for(game), now_utc()) if game.start is not None else None
        return ThreadFacts([], phase.number if phase else 1)
    db = read_store(db_file)
    posts = store.load_posts(db, game.key)
    found = next((p for p in posts if p.number == post), None) if post is not None else None
    moment = found.time if found is not None and found.time is not None else now_utc()
    day = current_day(game, db, at_time=moment, at_post=post if found is not None else None)
    words = first_words(found.body_html) if found else ""
    return ThreadFacts([p.number for p in posts], day, words)


def first_words(body_html: str) -> str:
    """The post's first line of text, for the comment that cites it."""
    from parsers.markup import parse_html

    root = parse_html(f"<div>{body_html}</div>")
    for element in list(root.iter("blockquote")):  # quoted words are someone else's
        element.getparent().remove(element)
    for element in root.iter("br", "p", "div", "li", "tr"):
        element.tail = "\n" + (element.tail or "")
    lines = (" ".join(line.split()) for line in "".join(root.itertext()).splitlines())
    return next((line for line in lines if line), "")
