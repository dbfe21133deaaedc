"""Test support: one way to build a test game file and a test post, in each form the code takes.

A game file's TOML comes from :func:`game_toml`. A post comes as the store takes it
(:func:`stored_post`, a ``parsers.page.Post``), as the tally replays it (:func:`read_post`, a
``ReadPost`` with the commands ``extract_commands`` reads from its body), or as the loopback and
engine forums serve it (:func:`forum_post`, the corpus-style dict). Every post built here has the
same id, time and address for the same number, so the forms agree. A game text a test reads
character by character (its layout, comments, edits) stays literal in that test.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

from parsers.commands import extract_commands
from parsers.page import Post
from parsers.reading import ReadPost

START = datetime(2026, 3, 1, 22, tzinfo=UTC)  # post 0's time; each later post a minute on
MINUTE = timedelta(minutes=1)
HOUR = timedelta(hours=1)
FIRST_ID = 1000  # post n's forum id is FIRST_ID + n
THREAD = "https://forum.example.org/viewtopic.php?t=1"

# A seat: its name, or its [[players]] table's keys ({"name": ..., "replacements": [...]}).
Seat = str | Mapping[str, object]
DaySpan = tuple[int, int] | tuple[int, int, int]  # (day, start_post) or (day, start_post, end_post)


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, Sequence):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"no TOML for {value!r}")


def _player_table(seat: Seat) -> str:
    keys = {"name": seat} if isinstance(seat, str) else seat
    return "[[players]]\n" + "".join(f"{k} = {_toml_value(v)}\n" for k, v in keys.items())


def _day_table(span: DaySpan) -> str:
    text = f"[[days]]\nday = {span[0]}\nstart_post = {span[1]}\n"
    return text + (f"end_post = {span[2]}\n" if len(span) == 3 else "")


def game_toml(
    players: Iterable[Seat],
    *,
    title: str = "Test Game",
    thread: str = THREAD,
    ruleset: str = "mafiascum",
    moderators: Sequence[str] = ("Mod",),
    days: Iterable[DaySpan] = (),
    extra: str = "",
    tables: str = "",
) -> str:
    """A game file: the header keys, ``extra`` top-level keys, the ``days``, ``tables`` (deaths,
    [private], ... as TOML) and the ``players`` last, each a name or a [[players]] table's keys."""
    head = (
        f"title = {_toml_value(title)}\nthread = {_toml_value(thread)}\n"
        f"ruleset = {_toml_value(ruleset)}\n"
    )
    if moderators:
        head += f"moderators = {_toml_value(list(moderators))}\n"
    if extra and not extra.endswith("\n"):
        extra += "\n"
    if tables and not tables.endswith("\n"):
        tables += "\n"
    spans = "".join(_day_table(span) for span in days)
    return head + extra + spans + tables + "".join(_player_table(seat) for seat in players)


def post_url(number: int, *, first_id: int = FIRST_ID) -> str:
    """Post ``number``'s permalink, phpBB style."""
    post_id = first_id + number
    return f"https://forum.example.org/viewtopic.php?p={post_id}#p{post_id}"


def stored_post(
    number: int,
    author: str,
    body: str,
    *,
    time: datetime | None = None,
    first_id: int = FIRST_ID,
    url: str | None = None,
    edited: bool = False,
    author_id: str | None = None,
) -> Post:
    """Post ``number`` as a parser hands it to the store (id, time and address from its number)."""
    return Post(
        post_id=str(first_id + number),
        number=number,
        author=author,
        time=START + number * MINUTE if time is None else time,
        body_html=body,
        url=post_url(number, first_id=first_id) if url is None else url,
        edited=edited,
        author_id=author_id,
    )


def read_post(
    number: int,
    author: str,
    body: str = "",
    *,
    time: datetime | None = None,
    url: str | None = None,
    author_id: str | None = None,
) -> ReadPost:
    """Post ``number`` as the tally replays it, with the commands read from ``body``'s bold text."""
    return ReadPost(
        number=number,
        post_id=str(FIRST_ID + number),
        author=author,
        time=START + number * MINUTE if time is None else time,
        url=post_url(number) if url is None else url,
        commands=tuple(extract_commands(body)),
        author_id=author_id,
    )


def forum_post(
    number: int,
    user: str,
    content: str,
    *,
    first_id: int = FIRST_ID,
    start: datetime = START,
    step: timedelta = MINUTE,
) -> dict:
    """Post ``number`` as a forum renderer (the loopback forum, ``tests/forums``) serves it."""
    return {
        "number": number,
        "id": str(first_id + number),
        "user": user,
        "content": content,
        "time": start + number * step,
    }


def forum_thread(
    posts: Iterable[tuple[str, str]],
    *,
    first: int = 0,
    first_id: int = FIRST_ID,
    start: datetime = START,
    step: timedelta = MINUTE,
) -> list[dict]:
    """(user, content) pairs as a served thread, numbered from ``first``; ids and times count from
    the thread's first post."""
    return [
        {
            **forum_post(n, user, content, first_id=first_id, start=start, step=step),
            "number": first + n,
        }
        for n, (user, content) in enumerate(posts)
    ]


def as_forum_posts(posts: Iterable[Post]) -> list[dict]:
    """Posts a test built (or a thread helper made) as a forum serves them."""
    return [
        {
            "number": p.number,
            "id": p.post_id,
            "user": p.author,
            "content": p.body_html,
            "time": p.time,
        }
        for p in posts
    ]


def thread_around(body: str) -> list[dict]:
    """Four posts with ``body`` second (post id 701), each with a forum user id: the posts around
    it show whether a hostile body cost them anything."""
    users = ["Moderator", "Mallory", "Ashe", "Dusk"]
    bodies = ["Day 1 begins.", body, "<b>VOTE: Birch</b>", "<b>VOTE: Cedar</b>"]
    start = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)
    return [
        {
            **forum_post(n, user, text, first_id=700, start=start),
            "number": n + 1,
            "user_id": str(40 + n),
        }
        for n, (user, text) in enumerate(zip(users, bodies, strict=True))
    ]


def demo_game_at(game_text: str, base_url: str) -> str:
    """The demo's game file with its thread moved to a loopback server at ``base_url``."""
    demo_url = next(
        line.split('"')[1] for line in game_text.splitlines() if line.startswith("thread =")
    )
    parts = urlsplit(demo_url)
    return game_text.replace(demo_url, f"{base_url}{parts.path}?{parts.query}")
