"""The offline demo: a bundled sample game served as phpBB pages on loopback, synced and counted."""

from __future__ import annotations

import tempfile
import tomllib
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from urllib.parse import urlsplit

from jinja2 import Environment

from assistant import bundled
from assistant.forum.pageserver import LoopbackServer, Response

PAGE_TEMPLATE = "phpbb_page.html.j2"


def pagination(total_pages: int, on_page: int) -> list[int]:
    """The page numbers phpBB's bar lists, 0 for an ellipsis: the first and last pages, and three
    either side of the current one (at least five in all), e.g. 1 … 15 16 17 [18] 19 20 21 … 110."""
    if total_pages <= 5:
        return list(range(1, total_pages + 1))
    low = min(max(1, on_page - 3), total_pages - 4)
    high = max(min(total_pages, on_page + 3), 5)
    middle = range(max(low, 2), min(high, total_pages - 1) + 1)
    return [
        1,
        *([0] if low > 2 else []),
        *middle,
        *([0] if high < total_pages - 1 else []),
        total_pages,
    ]


@dataclass(frozen=True)
class PhpbbThread:
    """A thread rendered as MafiaScum-style phpBB pages (``#N`` post numbers from 0, ``?start=``
    pages).

    ``posts`` are dicts with ``number``, ``id``, ``user``, ``content`` (the rendered body HTML) and
    ``time`` (an aware datetime); ``user_id`` is optional. Like phpBB, a ``start`` past the end
    shows the last page.
    """

    posts: Sequence[dict]
    title: str
    forum_id: str = "1"
    topic_id: str = "1"
    per_page: int = 25

    def page_starts(self) -> list[int]:
        return list(range(0, max(len(self.posts), 1), self.per_page))

    def render(self, start: int) -> str:
        starts = self.page_starts()
        start = max(s for s in starts if s <= max(start, 0)) if start > 0 else 0
        index = starts.index(start)
        page_posts = [
            {
                **post,
                "user_id": post.get("user_id") or str(zlib.crc32(post["user"].encode()) % 100000),
                "time_iso": post["time"].isoformat(),
                "time_text": post["time"].strftime("%a %b %d, %Y %I:%M %p"),
            }
            for post in self.posts[start : start + self.per_page]
        ]
        return (
            _environment()
            .get_template(PAGE_TEMPLATE)
            .render(
                title=self.title,
                forum_id=self.forum_id,
                topic_id=self.topic_id,
                total=len(self.posts),
                start=start,
                page_number=index + 1,
                pages=[
                    (n, starts[n - 1] if n else None) for n in pagination(len(starts), index + 1)
                ],
                prev_start=starts[index - 1] if index > 0 else None,
                next_start=starts[index + 1] if index + 1 < len(starts) else None,
                posts=page_posts,
            )
        )

    def respond(self, path: str, query: dict[str, str], headers: dict[str, str]) -> Response:
        """Answer a request the way phpBB's viewtopic.php would."""
        if path.rstrip("/").split("/")[-1] != "viewtopic.php" or query.get("t") != self.topic_id:
            return Response(
                404, "<html><body><p>The requested topic does not exist.</p></body></html>"
            )
        try:
            start = int(query.get("start", "0") or 0)
        except ValueError:
            start = 0
        return Response(200, self.render(start))


def _environment() -> Environment:
    return Environment(loader=bundled.template_loader("demo"), autoescape=True)


def load_demo_thread() -> tuple[PhpbbThread, str]:
    """The bundled demo thread, and the bundled game file's text."""
    demo = bundled.data() / "demo"
    data = tomllib.loads((demo / "thread.toml").read_text(encoding="utf-8"))
    first_id = int(data.get("first_post_id", 1))
    posts = [
        {
            "number": n,
            "id": str(first_id + n),
            "user": p["user"],
            "content": p["content"],
            "time": p["time"],
        }
        for n, p in enumerate(data["posts"])
    ]
    game_text = (demo / "game.toml").read_text(encoding="utf-8")
    topic = dict(q.split("=") for q in urlsplit(_thread_url(game_text)).query.split("&"))
    return PhpbbThread(posts, data["title"], topic.get("f", "1"), topic["t"]), game_text


def _thread_url(game_text: str) -> str:
    return tomllib.loads(game_text)["thread"]


def run_demo(
    *, echo: Callable[[str], None], now: Callable[[], datetime], db_file: str | None = None
) -> None:
    """Serve the demo thread, sync it into a store, and print the votal and a draft."""
    from assistant.counting.count import count_game, current_day, format_votal_text
    from assistant.forum.fetch import Fetcher
    from assistant.forum.store import open_db
    from assistant.forum.sync import sync_game
    from assistant.gamefile.game import parse_game
    from assistant.output.drafts import render_votal_draft

    thread, game_text = load_demo_thread()
    with LoopbackServer(thread.respond) as server, tempfile.TemporaryDirectory() as tmp:
        demo_url = _thread_url(game_text)
        local_url = server.base_url + urlsplit(demo_url).path + "?" + urlsplit(demo_url).query
        game_path = Path(tmp) / "game.toml"
        game_path.write_text(game_text.replace(demo_url, local_url), encoding="utf-8")
        game = parse_game(game_path.read_text(encoding="utf-8"), path=game_path)
        db = open_db(db_file or Path(tmp) / "demo.db")
        result = sync_game(game, db, Fetcher(min_interval=0), now=now)
        echo(
            f"Synced {result.new_posts} posts from {result.pages} pages of {server.base_url} "
            f"({result.engine})."
        )
        echo("")
        # The demo game was played in the past: count it as of its last post, not as of today.
        as_of = thread.posts[-1]["time"]
        votals = count_game(
            game, db, days=list(range(1, current_day(game, db, at_time=as_of) + 1)), at_time=as_of
        )
        for votal in votals:
            echo(format_votal_text(game, votal))
            echo("")
        current = votals[-1]
        echo("Draft votal for the thread (BBCode):")
        echo("")
        echo(render_votal_draft(replace(game, thread=demo_url), current))
