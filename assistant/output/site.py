"""The players' page: a static site (HTML + JSON) of the current votal, earlier days and the vote
log.

Everything the page shows passes through :func:`public_day`, which copies only whitelisted public
fields of a tally's ``Votal.to_json()`` dict: a field the tally adds later stays off the page until
it is listed here. Building is pure (``build_site`` returns file names and contents, the clock is an
argument); only :func:`gather_days`, :func:`write_site`, :func:`gather_index`, :func:`write_index`
and the server of :func:`make_server` touch the store, the disk and the network.

One layout for `votal site` and `votal run --site`: a site folder holds each game's page in a folder
named after its game file, and an index page listing every game there (:func:`publish_game`), which
`votal serve` answers at ``/``.
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import cache, partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from jinja2 import Environment, select_autoescape
from markupsafe import Markup

from assistant import bundled
from assistant.counting.clock import iso_utc
from assistant.counting.count import StoredGame, count_stored, current_day, load_stored_game
from assistant.counting.votal import Votal
from assistant.counting.votes import standing_steps, votes_needed
from assistant.forum.store import Store
from assistant.gamefile.game import Game, Private
from assistant.gamefile.outcome import Kind, Reason, WhyNot, reason_words
from assistant.output.terminal import json_safe, terminal_safe

STATIC_FILES = ("style.css", "countdown.js")
SUMMARY_FILE = "summary.json"  # in a game's folder: what the site's index of games shows of it
PAGE_FILES = ("index.html", "votal.json", SUMMARY_FILE, *STATIC_FILES)  # a game's, from build_site
INDEX_FILES = ("index.html", "style.css")  # the site's index of games, at its top
IDLE_TIMEOUT = 10.0  # `votal serve`: seconds a connection may idle before it is dropped

# Outcome reasons that come from a private decision (the Judge's pick, a Loose Cannon's shot): the
# page says the day waits on the moderator, never what was decided, until the moderator posts it.
PRIVATE_REASONS = frozenset({Reason.JUDGE, Reason.LOOSE_CANNON})


@dataclass(frozen=True)
class PublicGame:
    """What any player may know about a game: built from the game file without its private table."""

    title: str
    thread: str
    seats: tuple[str, ...]
    timezone: str | None = None
    shown: tuple[tuple[str, str], ...] = ()  # (seat, "New (replaced Old)") for each replaced seat


@dataclass(frozen=True)
class PostRef:
    """Where a post is: the forum's id, its permalink and its time (UTC)."""

    number: int
    post_id: str
    url: str
    time: datetime | None


def describe_game(game: Game) -> PublicGame:
    """The public part of a loaded :class:`assistant.gamefile.game.Game`."""
    replaced = tuple((seat.name, seat.shown) for seat in game.players if seat.shown != seat.name)
    return PublicGame(
        game.title, game.thread, tuple(seat.name for seat in game.players), game.timezone, replaced
    )


# The keys of a public day whose values name seats (one name, or a list of them).
SEAT_KEYS = frozenset(
    {"target", "voter", "voters", "not_voting", "living", "candidates", "nominee", "nominator"}
)


def name_seats(value: Any, shown: Mapping[str, str]) -> Any:
    """``value`` (a public day, or part of one) with each replaced seat named by its current
    account."""
    if not shown:
        return value
    if isinstance(value, dict):
        return {
            k: _rename(v, shown) if k in SEAT_KEYS else name_seats(v, shown)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [name_seats(v, shown) for v in value]
    return value


def _rename(value: Any, shown: Mapping[str, str]) -> Any:
    if isinstance(value, str):
        return shown.get(value, value)
    if isinstance(value, list):
        return [_rename(v, shown) for v in value]
    return value


def index_posts(posts: Iterable[Any]) -> dict[int, PostRef]:
    """Post number -> where it is, from ReadPost/Post-like objects (``number``, ``post_id``,
    ``url``, ``time``)."""
    return {p.number: PostRef(p.number, p.post_id, p.url, p.time) for p in posts}


def public_outcome(outcome: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The outcome's public fields; one a private pick decided is shown as still waiting for it."""
    return None if outcome is None else _public_outcome(outcome)


def _public_outcome(outcome: Mapping[str, Any]) -> dict[str, Any]:
    reason = outcome.get("reason")
    if reason in PRIVATE_REASONS:
        return {
            "kind": Kind.PENDING,
            "target": None,
            "post": outcome.get("post"),
            "reason": Reason.JUDGE if reason == Reason.JUDGE else Reason.MODERATOR,
        }
    return {
        "kind": outcome.get("kind"),
        "target": outcome.get("target"),
        "post": outcome.get("post"),
        "reason": reason,
    }


def public_day(
    votal: Mapping[str, Any], posts: Mapping[int, PostRef] | None = None
) -> dict[str, Any]:
    """The public facts of one day's votal, with each command's post link and time when ``posts``
    has them."""
    where = _PostPlaces(posts or {})
    no_elim = votal.get("no_elimination") or {}
    outcome = public_outcome(votal.get("outcome"))
    # earlier lynches (lynches_per_day > 1)
    lynches = [_public_outcome(o) for o in votal.get("lynches") or ()]
    landmarks = {
        votal.get("as_of_post"),
        outcome and outcome.get("post"),
        *(o["post"] for o in lynches),
    }
    return {
        "day": votal["day"],
        "alive": votal.get("alive"),
        "majority": votal.get("majority"),
        "no_elimination_majority": votal.get("no_elimination_majority", votal.get("majority")),
        "as_of_post": votal.get("as_of_post"),
        "deadline": votal.get("deadline"),
        "wagons": [
            {"target": w["target"], "votes": w["votes"], "voters": list(w["voters"])}
            for w in votal.get("wagons", ())
        ],
        "no_elimination": {
            "votes": no_elim.get("votes", 0),
            "voters": list(no_elim.get("voters", ())),
        },
        "not_voting": list(votal.get("not_voting", ())),
        "living": list(votal.get("living", ())),
        "outcome": outcome,
        "lynches": lynches,
        "post_urls": where.urls(landmarks - {None}),
        "nominations": [_public_nomination(n, where) for n in votal.get("nominations") or ()],
        "runoff": _public_runoff(votal.get("runoff")),
        "problems": [_public_problem(p, where) for p in votal.get("problems", ())],
        "changes": [_public_change(c) for c in votal.get("changes", ())],
        "actions": [_public_action(a, where) for a in votal.get("actions", ())],
    }


def _public_nomination(nomination: Mapping[str, Any], where: _PostPlaces) -> dict[str, Any]:
    return {
        "nominee": nomination["nominee"],
        "nominator": nomination["nominator"],
        "post": nomination["post"],
        "votes": nomination["votes"],
        "voters": list(nomination["voters"]),
        **where(nomination["post"]),
    }


def _public_runoff(runoff: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if not runoff:
        return None
    return {
        "candidates": list(runoff["candidates"]),
        "deadline": runoff.get("deadline"),
        "post": runoff.get("post"),
    }


def _public_problem(problem: Mapping[str, Any], where: _PostPlaces) -> dict[str, Any]:
    """A vote not counted, and why."""
    return {
        "post": problem["post"],
        "voter": problem["voter"],
        "text": problem["text"],
        "reason": problem["reason"],
        **where(problem["post"]),
    }


def _public_change(change: Mapping[str, Any]) -> dict[str, Any]:
    """A voter's standing votes after one of their posts."""
    votes = [{"target": v["target"], "post": v["post"]} for v in change["votes"]]
    return {"post": change["post"], "voter": change["voter"], "votes": votes}


@dataclass(frozen=True)
class _PostPlaces:
    """Where a post is on the forum: its id, its address and its time, from the posts known."""

    posts: Mapping[int, PostRef]

    def __call__(self, number: int | None) -> dict[str, Any]:
        ref = self.posts.get(number) if number is not None else None
        return {
            "post_id": ref.post_id if ref else None,
            "url": web_url(ref.url) if ref else None,
            "time": iso_utc(ref.time) if ref else None,
        }

    def urls(self, numbers: set[int]) -> dict[str, str]:
        """The addresses of the posts the page links to, by number."""
        return {str(n): url for n in sorted(numbers) if (url := self(n)["url"])}


def _public_action(action: Mapping[str, Any], where: _PostPlaces) -> dict[str, Any]:
    """One command as the page shows it."""
    counted = action.get("counted")
    # a name that did not resolve is never shown as if it were a vote on someone
    shows_target = counted or action.get("why_not") == "target is dead"
    return {
        "post": action["post"],
        **where(action["post"]),
        "voter": action.get("voter"),
        "author": action.get("author"),
        "text": action.get("text"),
        "action": name_action(action),
        "target": action.get("target") if shows_target else None,
        "no_elimination": bool(action.get("no_elimination")) and bool(counted),
        "counted": bool(counted),
        "why_not": action.get("why_not"),
    }


def web_url(url: str | None) -> str | None:
    """``url`` when it is an http(s) address, else None: a link on the page never runs script."""
    if url and url.lower().startswith(("https://", "http://")):
        return url
    return None


def name_action(action: Mapping[str, Any]) -> str:
    """vote, unvote, sleep (a vote for no elimination) or nominate."""
    if action.get("action") == "vote" and action.get("no_elimination"):
        return "sleep"
    return str(action.get("action"))


def parse_iso(text: str | None) -> datetime | None:
    if not text:
        return None
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def format_utc(moment: datetime | str | None) -> str:
    if isinstance(moment, str):
        moment = parse_iso(moment)
    if moment is None:
        return ""
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def make_environment() -> Environment:
    """Jinja2 with autoescaping for every HTML and SVG template: names and post text are never
    markup; and every value shown with its control and bidi characters as visible escapes
    (``\u202e``): a name holding a right-to-left override would otherwise show in a browser as
    another name, or reorder the text after it."""
    env = Environment(
        loader=bundled.template_loader("site"),
        autoescape=select_autoescape(enabled_extensions=("html", "svg", "j2"), default=True),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        finalize=_visible,
    )
    env.filters["utc"] = format_utc
    env.filters["reason_words"] = reason_words
    env.filters["web_url"] = web_url
    env.globals["votes_needed"] = votes_needed
    return env


@cache
def _page_environment() -> Environment:
    # One per process: building an environment compiles the page's templates again (most of a page's
    # cost when `votal run` rewrites the pages of many games).
    return make_environment()


def _visible(value: Any) -> Any:
    """A value as the page shows it (see :func:`make_environment`); markup a macro built stays
    markup."""
    if isinstance(value, Markup):
        return Markup(terminal_safe(str(value)))
    return terminal_safe(value) if isinstance(value, str) else value


def _read_static(name: str) -> str:
    return (bundled.templates() / "site" / name).read_text(encoding="utf-8")


def describe_wagon(
    wagon: Mapping[str, Any], majority: int | None, vote_posts: Mapping[tuple[str, str | None], int]
) -> dict[str, Any]:
    needed = votes_needed(wagon["votes"], majority)
    share = min(100.0, 100.0 * wagon["votes"] / majority) if majority else 0.0
    return {
        "target": wagon["target"],
        "votes": wagon["votes"],
        "needed": needed,
        "share": round(share, 1),
        "voters": [
            {"name": v, "post": vote_posts.get((v, wagon["target"]))} for v in wagon["voters"]
        ],
    }


def describe_day(day: Mapping[str, Any]) -> dict[str, Any]:
    """A public day arranged for the page: wagons with bars, L-n, and the post each standing vote is
    in."""
    steps = standing_steps(day["changes"])
    final = steps[-1][1] if steps else {}
    vote_posts = {(voter, target): post for voter, votes in final.items() for target, post in votes}
    urls = {int(n): url for n, url in day.get("post_urls", {}).items()}
    urls.update({a["post"]: a["url"] for a in day["actions"] if a.get("url")})
    # the moderator's own posts (rule examples, quoted votals) are no one's vote: the export keeps
    # them
    shown = [a for a in day["actions"] if a["why_not"] != WhyNot.MODERATOR_POST]
    wagons = [describe_wagon(w, day["majority"], vote_posts) for w in day["wagons"]]
    no_elim = day["no_elimination"]
    needs = day.get("no_elimination_majority", day["majority"])
    sleep = (
        describe_wagon({"target": None, **no_elim}, needs, vote_posts) if no_elim["votes"] else None
    )
    return {**day, "rows": wagons, "sleep": sleep, "urls": urls, "log": shown}


def build_site(
    game: PublicGame,
    days: Sequence[Mapping[str, Any]],
    *,
    generated_at: datetime,
    posts: Mapping[int, PostRef] | None = None,
    no_elimination_label: str = "No elimination",
) -> dict[str, str]:
    """The site's files (relative path -> text) from each day's ``Votal.to_json()`` dict, oldest day
    first."""
    shown = dict(game.shown)
    public = [name_seats(public_day(d, posts), shown) for d in sorted(days, key=lambda d: d["day"])]
    data = {
        "game": {
            "title": game.title,
            "thread": game.thread,
            "players": [shown.get(s, s) for s in game.seats],
        },
        "generated_at": iso_utc(generated_at),
        "current_day": public[-1]["day"] if public else None,
        "days": public,
    }
    described = [describe_day(d) for d in public]
    page = (
        _page_environment()
        .get_template("index.html.j2")
        .render(
            game=game,
            generated_at=iso_utc(generated_at),
            current=described[-1] if described else None,
            earlier=list(reversed(described[:-1])),
            no_elimination_label=no_elimination_label,
        )
    )
    files = {
        "index.html": page,
        "votal.json": json_safe(json.dumps(data, indent=2, ensure_ascii=False)) + "\n",
    }
    files[SUMMARY_FILE] = _summary_json(game.title, public[-1] if public else None)
    for name in STATIC_FILES:
        files[name] = _read_static(name)
    return files


def _summary_json(title: str, current: Mapping[str, Any] | None) -> str:
    """What the site's index shows of a game: its title, its current day and whether that day is
    decided (no time: the index is written again only when one of these changes)."""
    summary = {
        "title": title,
        "current_day": current["day"] if current else None,
        "decided": bool(current and current["outcome"]),
    }
    return json_safe(json.dumps(summary, ensure_ascii=False)) + "\n"


def build_index(games: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """The site's index page (relative path -> text) from each game's summary (with its
    ``folder``), by title."""
    listed = sorted(games, key=lambda g: (str(g.get("title", "")).casefold(), g["folder"]))
    page = _page_environment().get_template("games.html.j2").render(games=listed)
    return {"index.html": page, "style.css": _read_static("style.css")}


def gather_index(site_dir: str | Path) -> list[dict[str, Any]]:
    """The summary of every game whose page the site folder holds (a folder with its summary)."""
    games = []
    for summary in sorted(Path(site_dir).glob(f"*/{SUMMARY_FILE}")):
        try:
            found = json.loads(summary.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue  # half a folder: a page being written for the first time, or copied in
        if isinstance(found, dict):
            games.append({**found, "folder": summary.parent.name})
    return games


_index_lock = threading.Lock()  # worker threads of one `votal run` finish pages at once


def write_index(site_dir: str | Path) -> Path:
    """Write the site's index of the games its folder holds; returns its path. Each file is
    replaced whole, through a temporary file of its own: two processes (`votal run`, `votal site`)
    may write it at once."""
    out = Path(site_dir)
    out.mkdir(parents=True, exist_ok=True)
    with _index_lock:
        for name, text in build_index(gather_index(out)).items():
            handle, temporary = tempfile.mkstemp(prefix=f".{name}.", dir=out)
            try:
                with os.fdopen(handle, "w", encoding="utf-8") as partial:
                    partial.write(text)
                os.chmod(temporary, 0o644)  # mkstemp's 0600 would hide it from a web server's user
                os.replace(temporary, out / name)
            except BaseException:
                Path(temporary).unlink(missing_ok=True)
                raise
    return out / "index.html"


def page_folder(site_dir: str | Path, game: Game) -> Path:
    """Where a game's page lives in a site: the folder named after its game file."""
    return Path(site_dir) / Path(game.path).stem


def write_site(files: Mapping[str, str], out_dir: str | Path) -> list[Path]:
    """Write the built files under ``out_dir`` (created if needed); each file is replaced whole."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in files.items():
        path = out / name
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_text(text, encoding="utf-8")
        # replace, not rewrite: a player loading the page mid-write never sees half a file
        temporary.replace(path)
        written.append(path)
    return written


class ReadOnlyHandler(SimpleHTTPRequestHandler):
    """Serves the files a built site holds: GET and HEAD only, no directory listings, no hidden or
    other files."""

    extensions_map = {
        ".html": "text/html; charset=utf-8",
        ".json": "application/json; charset=utf-8",
        ".css": "text/css; charset=utf-8",
        ".js": "text/javascript; charset=utf-8",
        ".csv": "text/csv; charset=utf-8",
        ".png": "image/png",
        ".svg": "image/svg+xml",
    }

    # seconds a connection may sit without sending a whole request: then it is dropped
    timeout = IDLE_TIMEOUT

    def send_head(self):  # noqa: ANN201 (http.server's signature)
        path = unquote(self.path.split("?", 1)[0].split("#", 1)[0])
        name = path.rstrip("/").rsplit("/", 1)[-1]
        suffix = "." + name.rsplit(".", 1)[-1]
        # .git/, .env, ../ and the like
        hidden = any(part.startswith(".") for part in path.split("/"))
        if (
            hidden
            or (not path.endswith("/") and suffix not in self.extensions_map)
            or not self._inside(path)
        ):
            self.send_error(404, "not part of the site")
            return None
        return super().send_head()

    def _inside(self, path: str) -> bool:
        """Whether the file served for ``path`` (after symlinks; a folder's index.html) lies in the
        site."""
        target = Path(self.translate_path(path))
        if target.is_dir():
            target = target / "index.html"
        root = Path(self.directory).resolve()
        return target.resolve().is_relative_to(root)

    def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
        self.send_error(405, "read-only")

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_POST  # noqa: N815

    def list_directory(self, path):  # noqa: ANN001 (http.server's signature)
        self.send_error(404, "no listing")
        return None

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        # scripts only from the site itself; inline style attributes draw the wagon bars
        self.send_header(
            "Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'"
        )
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass


def make_server(
    directory: str | Path,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    idle_timeout: float = IDLE_TIMEOUT,
) -> ThreadingHTTPServer:
    """A read-only HTTP server for a built site (port 0 picks a free port); a connection idle for
    ``idle_timeout`` seconds (no request, or half a request) is dropped."""
    handler = type("SiteHandler", (ReadOnlyHandler,), {"timeout": idle_timeout})
    server = ThreadingHTTPServer((host, port), partial(handler, directory=str(directory)))
    server.daemon_threads = True
    return server


def mask_private_outcomes(
    days: Sequence[Mapping[str, Any]], without_private: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """Each day's votal with the outcome players can know.

    ``without_private`` is the same days replayed with the game file's private table emptied. Where
    the two outcomes differ, a private fact decided the day (a Judge's or Loose Cannon's pick, a
    Deacon's save, a dead Judge): the page shows the public outcome when it waits on someone, else
    that the moderator will announce it.
    """
    public = {d["day"]: d.get("outcome") for d in without_private}
    masked = []
    for day in days:
        outcome, known = day.get("outcome"), public.get(day["day"])
        if outcome != known:
            if known is not None and known.get("kind") == "pending":
                outcome = dict(known)
            else:
                post = (outcome or known or {}).get("post")
                outcome = {
                    "kind": Kind.PENDING,
                    "target": None,
                    "post": post,
                    "reason": Reason.MODERATOR,
                }
        masked.append({**day, "outcome": outcome})
    return masked


def count_public_days(
    game: Game,
    count: Callable[[Game], Sequence[Votal]],
    blind_count: Callable[[Game], Sequence[Votal]] | None = None,
) -> list[dict[str, Any]]:
    """Each day's Votal JSON fit for players. ``count(game)`` replays the days (returns Votals); it
    is called for the game and for the game with its private table emptied (see
    :func:`mask_private_outcomes`), by ``blind_count`` when given. A game with no private facts is
    counted once: blind, it is the same game."""
    full = [votal.to_json() for votal in count(game)]
    blind_game = replace(game, private=Private())
    if blind_game == game:
        return mask_private_outcomes(full, full)
    blind = [votal.to_json() for votal in (blind_count or count)(blind_game)]
    return mask_private_outcomes(full, blind)


def gather_days(
    game: Game, db: Store, *, now: datetime, stored: StoredGame | None = None
) -> tuple[PublicGame, dict[int, PostRef], list[dict[str, Any]], str]:
    """Replay every day of a stored game: (public game, post index, each day's public votal JSON,
    no-elimination label). Counted as of ``now``, so a day whose deadline has passed shows how it
    ended. ``stored``: the thread as `votal run` already read it (a ``counting.StoredGame`` of
    ``game``), replays shared.

    The only part of this module that reads the store; everything it returns is then rendered by
    pure code.
    """
    stored = stored or load_stored_game(game, db)  # read once for both views and the post index
    days = range(1, current_day(game, db, at_time=now, stored=stored) + 1)
    public = count_public_days(
        game,
        lambda g: count_stored(g, stored, days=days, at_time=now),
        # the stored thread's replays are of ``game`` itself: the blind game gets its own roster and
        # replays
        lambda g: count_stored(g, stored.fresh(g), days=days, at_time=now),
    )
    return (
        describe_game(game),
        index_posts(stored.posts),
        public,
        stored.ruleset.no_elimination_label,
    )


def publish_site(
    game: Game,
    db: Store,
    out_dir: str | Path,
    *,
    generated_at: datetime,
    stored: StoredGame | None = None,
) -> list[Path]:
    """Build the players' site of a stored game and write it under ``out_dir`` (what ``votal site``
    and ``votal run`` call after a sync; ``stored``: see :func:`gather_days`)."""
    public, posts, days, label = gather_days(game, db, now=generated_at, stored=stored)
    files = build_site(
        public, days, generated_at=generated_at, posts=posts, no_elimination_label=label
    )
    return write_site(files, out_dir)


def publish_game(
    game: Game,
    db: Store,
    site_dir: str | Path,
    *,
    generated_at: datetime,
    stored: StoredGame | None = None,
) -> Path:
    """Write a game's page into its folder of the site (:func:`page_folder`), and the site's index
    when what it shows of the game changed or it is missing; returns the page's folder."""
    folder = page_folder(site_dir, game)
    summary = folder / SUMMARY_FILE
    before = summary.read_bytes() if summary.exists() else None
    publish_site(game, db, folder, generated_at=generated_at, stored=stored)
    index_there = all((Path(site_dir) / name).exists() for name in INDEX_FILES)
    if summary.read_bytes() != before or not index_there:
        write_index(site_dir)
    return folder
