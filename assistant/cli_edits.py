"""The commands that write the game file: `votal day end`, `kill`, `replace`, `player add` / `player remove`.

Each checks the edit against the stored thread and the rest of the file (:func:`game_edits.check_edits`),
then writes it the way `votal update` does: comments and layout kept, the entry commented with its post.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import click

from assistant.cli import db_option, load, read_store

# assistant.game_edits (and tomlkit) are imported inside the commands: every `votal` command loads this module.


def register(main: click.Group) -> None:
    for command in (day, kill, replace, player):
        main.add_command(command)


def game_file_argument(func):
    return click.argument("game_file", type=click.Path(dir_okay=False, exists=True))(func)


@click.group()
def day() -> None:
    """Record a day's end in the game file.

    \b
    Example:
      votal day end 2 game.toml --post 351
    """


@day.command("end")
@click.argument("number", type=click.IntRange(min=1), metavar="N")
@game_file_argument
@click.option("--post", type=int, required=True, help="The post that ends the day (a stored post).")
@db_option
def day_end(number: int, game_file: str, post: int, db_file: str) -> None:
    """Set day N's end_post: the post that ends the day.

    Refused when the post is not stored, is before the day's start, or is not before the next day's start.

    \b
    Example:
      votal day end 2 game.toml --post 351
    """
    from assistant.game_edits import SetDay

    edit_game_file(game_file, db_file, lambda cite: [SetDay(number, cite, end_post=post)], post=post,
                   command="votal day end")


@click.command()
@click.argument("name")
@game_file_argument
@click.option("--phase", required=True, help='When the seat died: "night 2", "day 3" (dead from that phase\'s end).')
@click.option("--post", type=int, help="A kill during the day: dead from this post on.")
@db_option
def kill(name: str, game_file: str, phase: str, post: int | None, db_file: str) -> None:
    """Record a death ([[deaths]]): a night kill, a day kill, a lynch or a mod-kill.

    Refused when NAME is no seat, is already dead in another phase, or the post is not on that day.

    \b
    Example:
      votal kill Hiraki game.toml --phase "night 2"
      votal kill Hiraki game.toml --phase "day 3" --post 812
    """
    from assistant.game_edits import AddDeath

    edit_game_file(game_file, db_file, lambda cite: [AddDeath(name, phase, cite, post)], post=post,
                   command="votal kill")


@click.command()
@click.argument("old")
@click.argument("new")
@game_file_argument
@click.option("--post", type=int, required=True, help="From this post on NEW holds the seat (a stored post).")
@db_option
def replace(old: str, new: str, game_file: str, post: int, db_file: str) -> None:
    """Record that NEW replaces OLD in OLD's seat from a post on.

    Written as {name = "NEW", post = P} in the seat's replacements: votes by OLD after that post, or by NEW
    before it, are flagged. Refused when OLD is no seat, NEW already has one, or the seat was replaced later.

    \b
    Example:
      votal replace Hiraki werewolf555 game.toml --post 512
    """
    from assistant.game_edits import AddReplacement

    edit_game_file(game_file, db_file, lambda cite: [AddReplacement(old, new, post, cite)], post=post,
                   command="votal replace")


@click.group()
def player() -> None:
    """Add a seat to the game file, or remove one.

    \b
    Example:
      votal player add Hiraki game.toml
      votal player remove Hiraki game.toml
    """


@player.command("add")
@click.argument("name")
@game_file_argument
def player_add(name: str, game_file: str) -> None:
    """Add a seat ([[players]]) named NAME.

    \b
    Example:
      votal player add Hiraki game.toml
    """
    from assistant.game_edits import AddPlayer

    edit_game_file(game_file, None, lambda cite: [AddPlayer(name, cite)], post=None, command="votal player add")


@player.command("remove")
@click.argument("name")
@game_file_argument
def player_remove(name: str, game_file: str) -> None:
    """Remove the seat named NAME (its first account). Refused while a death, event, correction or private
    fact names it.

    \b
    Example:
      votal player remove Hiraki game.toml
    """
    from assistant.game_edits import RemovePlayer

    edit_game_file(game_file, None, lambda cite: [RemovePlayer(name)], post=None, command="votal player remove")


def edit_game_file(game_file: str, db_file: str | None, make_edits, *, post: int | None, command: str) -> None:
    """Check the edits against the stored thread and the file, write them, and say what changed."""
    from assistant.game_edits import Note, apply_edits, check_edits

    game = load(game_file)
    numbers: list[int] = []
    words = f"set with {command}"
    if post is not None:
        from assistant import store

        db = read_store(db_file)
        posts = store.load_posts(db, game.key)
        numbers = [p.number for p in posts]
        found = next((p for p in posts if p.number == post), None)
        if found is not None:
            words = first_words(found.body_html) or words
    edits = make_edits(Note(words, post))
    check_edits(game, edits, posts=numbers)
    text = Path(game_file).read_text(encoding="utf-8")
    result = apply_edits(text, edits, path=game_file, replace=True)
    if not result.changed:
        click.echo(f"{game_file}: already says so; nothing changed")
        return
    write_atomically(Path(game_file), result.text)
    for line in result.written:
        click.echo(f"{game_file}: {line}")


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


def write_atomically(path: Path, text: str) -> None:
    """Write the whole file or nothing: a crash mid-write must not leave the moderator half a game file."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
