"""Votal's performance benchmarks (issue 8): the real MafiaScum games served as phpBB pages on
loopback.

A child process (``--serve``) renders every corpus game with the demo's phpBB renderer and serves it
on 127.0.0.1 (ETag + 304, robots.txt), so the forum's own CPU never lands in a measured process. The
figures are medians of several repetitions; the CLI figures run ``votal`` as a real subprocess,
Python start-up included.

    python bench/run.py                 # every figure, Markdown table on stdout
    python bench/run.py --reps 5 --out results.md
    python bench/run.py --only parse count
    python bench/run.py --baseline 6d0f635 --only parse count   # both columns from one run (the default baseline)
    python bench/run.py --baseline none                          # this checkout only
    python bench/run.py --callgrind --only parse count           # also instruction counts (valgrind)
    python bench/run.py --editable                               # this checkout from the running venv
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlencode

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(
    0, str(REPO_ROOT / "tests")
)  # the corpus loader and the phpBB renderer of the tests

from corpus import CORPUS_DIR, load_games, load_posts, render_game_file  # noqa: E402

FORUM_ID = "53"
PER_PAGE = 25
BIG_TOPIC = "10000"  # the 10,000-post thread built from repeated corpus posts
BIG_POSTS = 10_000
SECTIONS = ("parse", "sync", "poll", "new", "count", "memory", "all")
V1 = "6d0f635"  # the commit the first targets were met with: the default baseline
CACHE_DIR = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "votal-bench"
CALLGRIND_PAGES = 60  # corpus pages (spread over every game) whose parsing valgrind counts


# --- the forum: corpus threads as phpBB pages, in a child process
# -------------------------------------------


def corpus_thread_posts(thread_id: str) -> list[dict]:
    """A corpus game's posts as the phpBB renderer wants them (times as aware UTC datetimes)."""
    return [
        {
            "number": p["number"],
            "id": p["id"],
            "user": p["user"],
            "user_id": p.get("user_id") or None,
            "content": p["content"],
            "time": datetime.strptime(p["time"], "%a %b %d, %Y %I:%M %p").replace(tzinfo=UTC),
        }
        for p in load_posts(thread_id)
    ]


def largest_game():
    return max(load_games(), key=lambda g: len(load_posts(g.thread_id)))


def repeated_posts(thread_id: str, count: int) -> list[dict]:
    """``count`` posts made by repeating a corpus thread's posts, renumbered with fresh ids and
    rising times."""
    source = corpus_thread_posts(thread_id)
    start = source[0]["time"]
    return [
        {
            **source[n % len(source)],
            "number": n,
            "id": str(50_000_000 + n),
            "time": start + timedelta(minutes=n),
        }
        for n in range(count)
    ]


class Forum:
    """Every thread by topic id; ``shown[topic]`` posts are visible (so a poll can find new
    ones)."""

    def __init__(self, threads: dict[str, list[dict]]):
        from loopback_forum import render_page

        from assistant.cli.demo import PhpbbThread

        self._render_page, self._thread_class = render_page, PhpbbThread
        self.threads = threads
        self.shown = {topic: len(posts) for topic, posts in threads.items()}
        self.pages: dict[tuple[str, int, int], tuple[str, str]] = {}
        self.counts = {"robots": 0, "pages": 0, "not_modified": 0}
        self.lock = threading.Lock()
        for topic in threads:
            self.render_all(topic)

    def render_all(self, topic: str) -> None:
        for start in range(0, max(self.shown[topic], 1), PER_PAGE):
            self.page(topic, start)

    def page(self, topic: str, start: int) -> tuple[str, str]:
        shown = self.shown[topic]
        start = (
            min(max(start, 0), (max(shown, 1) - 1) // PER_PAGE * PER_PAGE) // PER_PAGE * PER_PAGE
        )
        key = (topic, shown, start)
        if key not in self.pages:
            thread = self._thread_class(
                self.threads[topic][:shown], f"Thread {topic}", FORUM_ID, topic, PER_PAGE
            )
            html = self._render_page(thread, start)
            self.pages[key] = (html, '"' + hashlib.sha1(html.encode()).hexdigest()[:16] + '"')
        return self.pages[key]

    def respond(self, path: str, query: dict[str, str], headers: dict[str, str]):
        from assistant.forum.pageserver import Response

        text = {"Content-Type": "text/plain; charset=utf-8"}
        with self.lock:
            if path == "/bench/show":  # control: make only the first n posts visible
                self.shown[query["t"]] = int(query["n"])
                self.render_all(query["t"])
                return Response(200, "ok", text)
            if path == "/bench/counts":
                return Response(200, json.dumps(self.counts), text)
            if path == "/robots.txt":
                self.counts["robots"] += 1
                return Response(200, "User-agent: *\nDisallow: /ucp.php\n", text)
            topic = query.get("t", "")
            if not path.endswith("/viewtopic.php") or topic not in self.threads:
                return Response(
                    404, "<html><body><p>The requested topic does not exist.</p></body></html>"
                )
            self.counts["pages"] += 1
            html, etag = self.page(topic, int(query.get("start", "0") or 0))
            if headers.get("If-None-Match") == etag:
                self.counts["not_modified"] += 1
                return Response(304, "", {"ETag": etag})
            return Response(200, html, {"Content-Type": "text/html; charset=utf-8", "ETag": etag})


def serve_forever() -> None:
    """The ``--serve`` child: render, serve, print the base URL, and run until stdin closes."""
    from assistant.forum.pageserver import LoopbackServer

    threads = {g.thread_id: corpus_thread_posts(g.thread_id) for g in load_games()}
    threads[BIG_TOPIC] = repeated_posts(largest_game().thread_id, BIG_POSTS)
    forum = Forum(threads)
    with LoopbackServer(forum.respond) as server:
        print(server.base_url, flush=True)
        sys.stdin.read()


class ForumProcess:
    def __enter__(self) -> ForumProcess:
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.base_url = self.proc.stdout.readline().strip()
        if not self.base_url.startswith("http://127.0.0.1:"):
            raise RuntimeError("the loopback forum did not start")
        import requests

        self.session = requests.Session()
        return self

    def __exit__(self, *exc) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)

    def thread_url(self, topic: str) -> str:
        return f"{self.base_url}/viewtopic.php?f={FORUM_ID}&t={topic}"

    def show(self, topic: str, count: int) -> None:
        self.session.get(
            f"{self.base_url}/bench/show?" + urlencode({"t": topic, "n": count})
        ).raise_for_status()

    def counts(self) -> dict[str, int]:
        return self.session.get(f"{self.base_url}/bench/counts").json()

    def page_texts(self, topic: str, posts: int) -> list[str]:
        return [
            self.session.get(self.thread_url(topic) + (f"&start={s}" if s else "")).text
            for s in range(0, posts, PER_PAGE)
        ]


def parse_worker(pages_file: Path, reps: int, stored: bool, work: str | None = None) -> None:
    """The ``--parse-worker`` child: median CPU seconds of the floor and the parser, interleaved
    (floor, parser; floor, parser; ...) so that a change in the machine's other load falls on both
    alike; or, with ``stored``, of reading every post's commands again from its stored body, as
    after an extractor upgrade. It holds nothing else: a fuller heap slows lxml's own parsing (by
    some 70% with the corpus loaded).

    It runs under whichever Python it is started with, so the baseline's venv measures the
    baseline's parser. ``work`` (for valgrind): do only that once (``none``: load the pages;
    ``floor``; ``parser``) and print nothing.
    """
    import lxml.html

    from parsers.commands import extract_commands
    from parsers.phpbb import parse_page

    pages = json.loads(pages_file.read_text(encoding="utf-8"))

    def floor() -> None:
        for _, text in pages:
            lxml.html.fromstring(text)

    def parser() -> None:  # the parser reads each post's commands from its own parse of the page
        for url, text in pages:
            parse_page(text, url=url)

    if (
        work is not None
    ):  # imports done above and the pages loaded: what valgrind counts beyond "none"
        {"none": lambda: None, "floor": floor, "parser": parser}[work]()
        return
    posts = sum(len(parse_page(text, url=url).posts) for url, text in pages)
    works = {"floor": floor, "parser": parser}
    if stored:
        bodies = [post.body_html for url, text in pages for post in parse_page(text, url=url).posts]
        del pages

        def reread() -> None:
            for body in bodies:
                extract_commands(body)

        works = {"stored": reread}
    times: dict[str, list[float]] = {name: [] for name in works}
    for _ in range(reps):
        for name, work_once in works.items():
            started = time.process_time()
            work_once()
            times[name].append(time.process_time() - started)
    print(
        json.dumps(
            {"posts": posts, "cpu": {name: median(values) for name, values in times.items()}}
        )
    )


# --- the two sides: this checkout and a baseline commit in its own venv
# ------------------------------------


@dataclass(frozen=True)
class Side:
    """Code to measure: a Python with it installed, and its ``votal`` script."""

    label: str
    python: str

    @property
    def votal(self) -> str:
        return str(Path(self.python).with_name("votal"))


NOW = Side("Now", sys.executable)


def _install(root: Path, python: Path, fill_src, what: str) -> None:
    """Fill ``root/src`` (``fill_src(src)``) and install it into its own venv at ``root/venv``,
    unless done."""
    if (root / "ready").exists():
        return
    print(f"{what}: exporting and installing into {root} ...", file=sys.stderr, flush=True)
    shutil.rmtree(root, ignore_errors=True)
    (root / "src").mkdir(parents=True)
    fill_src(root / "src")
    subprocess.run([sys.executable, "-m", "venv", str(root / "venv")], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(root / "src")], check=True)
    (root / "ready").write_text(what + "\n", encoding="utf-8")


def installed_side() -> Side:
    """This checkout (its working tree, uncommitted edits included) installed as the baseline is:
    ``pip install`` of a copy into its own venv, cached by the files' contents. A development venv's
    editable install runs an import hook of its own at every start-up (``python -c pass``: 88 M
    instructions there against 38 M in a plain venv), which the baseline's plain install does not:
    like is compared with like."""
    listed = (
        subprocess.run(
            [
                "git",
                "-C",
                str(REPO_ROOT),
                "ls-files",
                "-z",
                "--cached",
                "--others",
                "--exclude-standard",
            ],
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .split("\0")
    )
    files = sorted(name for name in listed if name and (REPO_ROOT / name).is_file())
    digest = hashlib.sha1()
    for name in files:
        digest.update(name.encode() + b"\0" + (REPO_ROOT / name).read_bytes() + b"\0")
    root = CACHE_DIR / f"now-{digest.hexdigest()[:16]}"
    python = root / "venv" / "bin" / "python"

    def copy(src: Path) -> None:
        for stale in CACHE_DIR.glob("now-*"):  # an earlier state of the working tree
            if stale != root:
                shutil.rmtree(stale, ignore_errors=True)
        for name in files:
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO_ROOT / name, src / name)

    _install(root, python, copy, "this checkout")
    return Side("Now", str(python))


def baseline_side(rev: str) -> Side:
    """``rev`` exported with ``git archive`` and installed into its own venv, cached by commit under
    CACHE_DIR (the first run takes a minute or two; later ones reuse it). The venv installs from the
    same package index as this one, so both sides run the same lxml unless the baseline pins
    another."""
    commit = subprocess.run(
        ["git", "-C", str(REPO_ROOT), "rev-parse", "--verify", f"{rev}^{{commit}}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    root = CACHE_DIR / commit

    def export(src: Path) -> None:
        import io
        import tarfile

        archive = subprocess.run(
            ["git", "-C", str(REPO_ROOT), "archive", commit], capture_output=True, check=True
        )
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(src, filter="data")

    python = root / "venv" / "bin" / "python"
    _install(root, python, export, f"baseline {rev}")
    return Side(f"{rev} (baseline)", str(python))


def callgrind_total(*argv: str) -> int:
    """Instructions executed by a program, start-up included (repeatable whatever the machine's
    load). It runs once without valgrind first, so that the bytecode cache is written and no side
    pays for compiling."""
    subprocess.run(argv, capture_output=True, env=votal_env(), check=True)
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv],
        capture_output=True,
        text=True,
        env=votal_env(),
    )
    found = re.search(r"Collected\s*:\s*(\d+)", done.stderr)
    if done.returncode or not found:
        raise RuntimeError(f"valgrind {' '.join(argv)} failed: {done.stderr[-2000:]}")
    return int(found.group(1))


# --- measuring
# ----------------------------------------------------------------------------------------------


@dataclass
class Run:
    wall: float
    cpu: float
    max_rss_mb: float
    stdout: str


# Runs in a small launcher process: a child forked from this (large) process would start with its
# memory high-water mark (ru_maxrss survives exec on Linux), and forking a large process costs wall
# time too.
_LAUNCHER = """
import json, os, sys, time
started = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - started
with open(sys.argv[1], "w") as out:
    json.dump({"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss_kb": usage.ru_maxrss,
               "code": os.waitstatus_to_exitcode(status)}, out)
"""


def votal_env() -> dict[str, str]:
    """The environment of a CLI run: with a bytecode cache (as after ``pip install``), kept out of
    the repo."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("PYTHONPATH", None)  # each side runs its own venv's package, no checkout ahead of it
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "votal-bench-pycache")
    return env


def run_votal(side: Side, *args: str) -> Run:
    """Run ``votal`` as a real subprocess: wall time, CPU time and peak memory (ru_maxrss) of that
    process."""
    return run_program(side.votal, *args)


def run_program(*argv: str) -> Run:
    with tempfile.NamedTemporaryFile("r", suffix=".json") as report:
        done = subprocess.run(
            [sys.executable, "-c", _LAUNCHER, report.name, *argv],
            capture_output=True,
            text=True,
            env=votal_env(),
        )
        figures = json.loads(report.read() or "{}")
    if done.returncode or figures.get("code"):
        raise RuntimeError(f"{' '.join(argv)} failed: {done.stderr[-2000:]}")
    return Run(figures["wall"], figures["cpu"], figures["rss_kb"] / 1024, done.stdout)


def requests_text(count: int) -> str:
    return f"{count} request" + ("" if count == 1 else "s")


def median(values) -> float:
    return statistics.median(values)


def write_game_file(directory: Path, game, thread_url: str) -> Path:
    text = render_game_file(game, thread_url=thread_url).replace(
        "min_interval = 0\n", f"min_interval = 0\nposts_per_page = {PER_PAGE}\n", 1
    )
    path = directory / f"game-{game.thread_id}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def longest_day(game) -> tuple[int, int, int]:
    """(day, first post, last post) of the game's longest declared day."""
    bounds, start = [], 0
    for day, end in enumerate(game.day_ends, start=1):
        bounds.append((end - start, day, start, end))
        start = end
    _, day, first, last = max(bounds)
    return day, first, last


class Bench:
    """The figures. With a baseline, each figure run as a subprocess is measured for every side, the
    sides alternating within each repetition (A B, A B, ...), so both columns come from the same run
    on the same machine; figures measured inside this process (the core called directly) are this
    checkout's only."""

    def __init__(
        self, forum: ForumProcess, workdir: Path, reps: int, sides: list[Side], callgrind: bool
    ):
        self.forum, self.workdir, self.reps, self.sides, self.callgrind = (
            forum,
            workdir,
            reps,
            sides,
            callgrind,
        )
        self.big = largest_game()
        self.big_posts = len(load_posts(self.big.thread_id))
        self.rows: list[
            tuple[str, list[str], str, str]
        ] = []  # figure, a value per side, now / baseline, target

    def add(
        self, figure: str, values: list[str] | str, target: str = "", ratio: float | None = None
    ) -> None:
        """``values``: one per side; a single string is this checkout's only (measured in this
        process)."""
        if isinstance(values, str):
            values = [values] + ["not measured (in this process: this checkout only)"] * (
                len(self.sides) - 1
            )
        shown = f"{ratio:.2f}" if ratio is not None else ""
        self.rows.append((figure, values, shown, target))
        line = " | ".join(values) + (f" | ratio {shown}" if shown else "")
        print(
            f"  {figure}: {line}" + (f"   [target {target}]" if target else ""),
            file=sys.stderr,
            flush=True,
        )

    def ratio(self, figures: list[float]) -> float | None:
        """This checkout's figure over the first baseline's."""
        return figures[0] / figures[1] if len(figures) > 1 and figures[1] else None

    def each(self, work) -> list[list]:
        """``work(side)`` for every side in turn, ``reps`` times: each side's results."""
        results: list[list] = [[] for _ in self.sides]
        for _ in range(self.reps):
            for i, side in enumerate(self.sides):
                results[i].append(work(side))
        return results

    # 1
    def parse(self) -> None:
        pages = []
        for game in load_games():
            url = self.forum.thread_url(game.thread_id)
            texts = self.forum.page_texts(game.thread_id, len(load_posts(game.thread_id)))
            pages += [
                (url + (f"&start={i * PER_PAGE}" if i else ""), t) for i, t in enumerate(texts)
            ]
        # Timed in fresh processes holding only the pages (as `votal sync` would), not in this one:
        # with the corpus loaded, this heap makes lxml itself parse some 70% slower, which would
        # flatter the ratio.
        pages_file = self.workdir / "pages.json"
        pages_file.write_text(json.dumps(pages), encoding="utf-8")
        counted = {}

        def measure(side: Side) -> dict[str, float]:
            cpu = {}
            for extra in ([], ["--stored"]):
                done = subprocess.run(
                    [
                        side.python,
                        __file__,
                        "--parse-worker",
                        str(pages_file),
                        "--reps",
                        "1",
                        *extra,
                    ],
                    capture_output=True,
                    text=True,
                    check=True,
                )
                figures = json.loads(done.stdout)
                counted[side] = figures["posts"]
                cpu |= figures["cpu"]
            return cpu

        results = self.each(measure)
        posts = counted[self.sides[0]]
        rates = [
            {name: counted[side] / median(r[name] for r in runs) for name in runs[0]}
            for side, runs in zip(self.sides, results, strict=True)
        ]
        self.add(
            f"Parse: lxml.html.fromstring floor ({len(pages)} pages, {posts} posts)",
            [f"{r['floor']:,.0f} posts/s" for r in rates],
            ratio=self.ratio([r["floor"] for r in rates]),
        )
        self.add(
            "Parse: parsers.phpbb.parse_page, commands read from every post",
            [
                f"{r['parser']:,.0f} posts/s ({r['parser'] / r['floor']:.2f} of floor)"
                for r in rates
            ],
            "≥ 0.6 of floor",
            ratio=self.ratio([r["parser"] for r in rates]),
        )
        self.add(
            "Parse: commands re-read from stored bodies (after an extractor upgrade)",
            [f"{r['stored']:,.0f} posts/s" for r in rates],
            ratio=self.ratio([r["stored"] for r in rates]),
        )
        if self.callgrind:
            sample = pages[:: max(len(pages) // CALLGRIND_PAGES, 1)][:CALLGRIND_PAGES]
            sample_file = self.workdir / "pages-callgrind.json"
            sample_file.write_text(json.dumps(sample), encoding="utf-8")
            counts = []
            for side in self.sides:
                total = {
                    work: callgrind_total(
                        side.python, __file__, "--parse-worker", str(sample_file), "--work", work
                    )
                    for work in ("none", "floor", "parser")
                }
                counts.append({work: total[work] - total["none"] for work in ("floor", "parser")})
            self.add(
                f"Parse: instructions for {len(sample)} corpus pages beyond start-up, parse_page / lxml floor "
                "(callgrind)",
                [
                    f"{c['parser'] / 1e6:,.0f} M / {c['floor'] / 1e6:,.0f} M "
                    f"({c['floor'] / c['parser']:.2f})"
                    for c in counts
                ],
                ratio=self.ratio([c["parser"] for c in counts]),
            )

    def big_game_file(self) -> Path:
        return write_game_file(self.workdir, self.big, self.forum.thread_url(self.big.thread_id))

    def db(self, name: str, side: Side) -> Path:
        """A store of this name for one side (the sides' schemas may differ)."""
        return self.workdir / f"{name}-{self.sides.index(side)}.db"

    # 2
    def sync(self) -> None:
        game_file = self.big_game_file()
        serial = iter(range(1_000_000))

        def full(side: Side) -> tuple[Run, int, int]:
            db = self.db(f"full-{next(serial)}", side)
            before = self.forum.counts()
            run = run_votal(
                side, "sync", str(game_file), "--db", str(db), "--quiet", "--format", "json"
            )
            after = self.forum.counts()
            return run, after["robots"] - before["robots"], after["pages"] - before["pages"]

        results = self.each(full)
        cpu = [median(r[0].cpu for r in runs) for runs in results]
        self.add(
            f"Full sync of the largest game ({self.big_posts} posts), `votal sync`, min_interval 0",
            [
                f"{c:.2f} s CPU ({median(r[0].wall for r in runs):.2f} s wall), "
                f"{runs[0][1] + runs[0][2]} requests ({runs[0][2]} pages + {runs[0][1]} robots.txt)"
                for c, runs in zip(cpu, results, strict=True)
            ],
            ratio=self.ratio(cpu),
        )

    # 3
    def poll(self) -> None:
        from assistant.forum.fetch import Fetcher, RobotsCache
        from assistant.forum.store import open_db
        from assistant.forum.sync import sync_game
        from assistant.gamefile.game import load_game

        game_file = self.big_game_file()
        topic = self.big.thread_id
        self.forum.show(topic, self.big_posts)
        for side in self.sides:
            run_votal(side, "sync", str(game_file), "--db", str(self.db("poll", side)), "--quiet")

        def idle_poll(side: Side) -> tuple[Run, dict[str, int]]:
            before = self.forum.counts()
            run = run_votal(
                side, "sync", str(game_file), "--db", str(self.db("poll", side)), "--quiet"
            )
            after = self.forum.counts()
            return run, {k: after[k] - before[k] for k in after}

        results = self.each(idle_poll)
        self.add(
            "Idle poll, `votal sync` subprocess: requests",
            [
                f"{runs[0][1]['robots'] + runs[0][1]['pages']} ({runs[0][1]['pages']} page, answered 304; "
                f"{runs[0][1]['robots']} robots.txt)"
                for runs in results
            ],
            "1",
        )
        cpu = [median(r[0].cpu for r in runs) for runs in results]
        self.add(
            "Idle poll, `votal sync` subprocess: CPU (incl. Python start-up)",
            [
                f"{c * 1000:.0f} ms CPU, {median(r[0].wall for r in runs) * 1000:.0f} ms wall"
                for c, runs in zip(cpu, results, strict=True)
            ],
            ratio=self.ratio(cpu),
        )

        # The same poll inside a long-running process (the scheduler's case): robots.txt already
        # read.
        db = self.db("poll", self.sides[0])
        game = load_game(game_file)
        store_db = open_db(db)
        robots_cache = RobotsCache()
        fetcher = Fetcher(min_interval=0, robots=robots_cache)
        sync_game(game, store_db, fetcher, now=lambda: datetime.now(UTC))
        cpu_in, made = [], []
        for _ in range(self.reps):
            fetcher = Fetcher(min_interval=0, robots=robots_cache)
            started = time.thread_time()
            sync_game(game, store_db, fetcher, now=lambda: datetime.now(UTC))
            cpu_in.append(time.thread_time() - started)
            made.append(fetcher.requests_made)
        self.add(
            "Idle poll in a running process (sync_game, robots.txt cached): requests, CPU",
            f"{requests_text(made[0])}, {median(cpu_in) * 1000:.1f} ms CPU",
            "1 request",
        )

        # A store that holds all but the last 5 posts, copied afresh for each repetition.
        self.forum.show(topic, self.big_posts - 5)
        for side in self.sides:
            run_votal(
                side, "sync", str(game_file), "--db", str(self.db("poll-base", side)), "--quiet"
            )
        self.forum.show(topic, self.big_posts)
        serial = iter(range(1_000_000))

        def new_poll(side: Side) -> tuple[Run, int]:
            copy = self.db(f"poll-new-{next(serial)}", side)
            shutil.copyfile(self.db("poll-base", side), copy)
            before = self.forum.counts()
            run = run_votal(
                side, "sync", str(game_file), "--db", str(copy), "--quiet", "--format", "json"
            )
            after = self.forum.counts()
            assert json.loads(run.stdout)["new_posts"] == 5, run.stdout
            return run, after["pages"] - before["pages"] + after["robots"] - before["robots"]

        results = self.each(new_poll)
        new_cpu = []
        for rep in range(self.reps):  # in-process, robots.txt cached
            copy = self.workdir / f"poll-new-in-{rep}.db"
            shutil.copyfile(self.db("poll-base", self.sides[0]), copy)
            copy_db = open_db(copy)
            started = time.thread_time()
            result = sync_game(
                game,
                copy_db,
                Fetcher(min_interval=0, robots=robots_cache),
                now=lambda: datetime.now(UTC),
            )
            new_cpu.append(time.thread_time() - started)
            assert result.new_posts == 5, result
        cpu = [median(r[0].cpu for r in runs) for runs in results]
        self.add(
            "Poll with 5 new posts, `votal sync` subprocess",
            [
                f"{requests_text(runs[0][1])}, {c * 1000:.0f} ms CPU, "
                f"{median(r[0].wall for r in runs) * 1000:.0f} ms wall"
                for c, runs in zip(cpu, results, strict=True)
            ],
            ratio=self.ratio(cpu),
        )
        self.add(
            "Poll with 5 new posts in a running process (sync_game)",
            f"{requests_text(result.requests)}, {median(new_cpu) * 1000:.1f} ms CPU",
        )

    # 3b
    def new(self) -> None:
        """`votal new` of the largest thread (issue 34): a game file from an empty store."""
        self.forum.show(self.big.thread_id, self.big_posts)
        url = self.forum.thread_url(self.big.thread_id)
        serial = iter(range(1_000_000))
        texts: dict[str, str] = {}

        def new(side: Side) -> tuple[Run, int]:
            n = next(serial)
            out = self.workdir / f"new-{n}.toml"
            before = self.forum.counts()
            db = str(self.db(f"new-{n}", side))
            run = run_votal(
                side,
                "new",
                url,
                "-o",
                str(out),
                "--db",
                db,
                "--ruleset",
                "mafiascum",
                "--min-interval",
                "0",
                "--format",
                "json",
            )
            after = self.forum.counts()
            texts.setdefault(side.label, out.read_text(encoding="utf-8"))
            return run, after["pages"] + after["robots"] - before["pages"] - before["robots"]

        results = self.each(new)
        cpu = [median(r[0].cpu for r in runs) for runs in results]
        same = len(set(texts.values())) == 1
        files = "" if len(self.sides) == 1 else f" (game files {'the same' if same else 'DIFFER'})"
        figures = [
            f"{c:.2f} s CPU ({median(r[0].wall for r in runs):.2f} s wall), "
            f"{requests_text(runs[0][1])}"
            for c, runs in zip(cpu, results, strict=True)
        ]
        self.add(
            f"`votal new` of the largest game ({self.big_posts} posts), min_interval 0, one "
            f"subprocess{files}",
            figures,
            ratio=self.ratio(cpu),
        )

    # 4
    def count(self) -> None:
        from assistant.counting.count import count_game, count_stored, load_stored_game
        from assistant.forum.store import open_db
        from assistant.gamefile.game import load_game

        game_file = self.big_game_file()
        self.forum.show(self.big.thread_id, self.big_posts)
        day, first, last = longest_day(self.big)
        command = ["count", str(game_file), "--day", str(day)]
        for side in self.sides:
            run_votal(side, "sync", str(game_file), "--db", str(self.db("count", side)), "--quiet")
            run_votal(
                side, *command, "--db", str(self.db("count", side))
            )  # warm the page cache and bytecode
        reps = self.reps
        self.reps = max(reps, 7)
        counts = self.each(
            lambda side: run_votal(side, *command, "--db", str(self.db("count", side)))
        )
        bare = self.each(lambda side: run_votal(side, "--version"))
        python = self.each(lambda side: run_program(side.python, "-c", "pass"))
        self.reps = reps
        cpu = [median(r.cpu for r in runs) for runs in counts]
        self.add(
            f"`votal count` of day {day} of the largest game (posts {first}-{last} of {self.big_posts}), "
            "one subprocess",
            [
                f"{c * 1000:.0f} ms CPU ({median(r.wall for r in runs) * 1000:.0f} ms wall)"
                for c, runs in zip(cpu, counts, strict=True)
            ],
            "≤ 0.6 of v1 (issue 23)",
            ratio=self.ratio(cpu),
        )
        self.add(
            "  for scale: `votal --version` / bare `python -c pass`",
            [
                f"{median(r.cpu for r in b) * 1000:.0f} ms / {median(r.cpu for r in p) * 1000:.0f} ms CPU"
                for b, p in zip(bare, python, strict=True)
            ],
            ratio=self.ratio([median(r.cpu for r in b) for b in bare]),
        )
        if self.callgrind:
            totals = [
                callgrind_total(
                    side.python, side.votal, *command, "--db", str(self.db("count", side))
                )
                for side in self.sides
            ]
            imports = [
                callgrind_total(side.python, "-c", "import assistant.cli.main")
                for side in self.sides
            ]
            self.add(
                f"`votal count` of day {day}: instructions, start-up included (callgrind)",
                [f"{t / 1e6:,.0f} M" for t in totals],
                ratio=self.ratio(totals),
            )
            self.add(
                "  for scale: `import assistant.cli.main` (callgrind)",
                [f"{t / 1e6:,.0f} M" for t in imports],
                ratio=self.ratio(imports),
            )

        game = load_game(game_file)
        store_db = open_db(self.db("count", self.sides[0]))
        points = [first + (last - first) * i // 99 for i in range(100)]
        count_game(
            game, store_db, days=[day], at_post=points[0]
        )  # imports and ruleset loading, once

        def replays() -> None:  # the one path: the thread read once, the day counted 100 times
            stored = load_stored_game(game, store_db)
            for point in points:
                count_stored(game, stored, days=[day], at_post=point)

        def counts_in() -> None:  # count_game reads the store again each time
            for point in points:
                count_game(game, store_db, days=[day], at_post=point)

        for label, work in (
            ("load once + count_stored", replays),
            ("count_game, store read each time", counts_in),
        ):
            cpu_in = []
            for _ in range(self.reps):
                started_cpu = time.process_time()
                work()
                cpu_in.append(time.process_time() - started_cpu)
            self.add(
                f"Count day {day} as of each of 100 posts, one process ({label})",
                f"{median(cpu_in):.2f} s CPU ({median(cpu_in) * 10:.1f} ms CPU per count)",
                "< 2 s",
            )

    # 5
    def memory(self) -> None:
        from dataclasses import replace

        game_file = write_game_file(
            self.workdir, replace(self.big, thread_id=BIG_TOPIC), self.forum.thread_url(BIG_TOPIC)
        )
        serial = iter(range(1_000_000))

        def both(side: Side) -> tuple[Run, Run]:
            db = self.db(f"big-{next(serial)}", side)
            return (
                run_votal(side, "sync", str(game_file), "--db", str(db), "--quiet"),
                run_votal(side, "count", str(game_file), "--db", str(db), "--all-days"),
            )

        results = self.each(both)
        for k, figure in (
            (0, f"Peak memory, `votal sync` of a {BIG_POSTS:,}-post thread (ru_maxrss)"),
            (1, f"Peak memory, `votal count --all-days` of the {BIG_POSTS:,}-post thread"),
        ):
            rss = [median(r[k].max_rss_mb for r in runs) for runs in results]
            self.add(
                figure,
                [
                    f"{m:.0f} MB ({median(r[k].cpu for r in runs):.2f} s CPU)"
                    for m, runs in zip(rss, results, strict=True)
                ],
                "< 150 MB",
                ratio=self.ratio(rss),
            )

    # 6
    def all_games(self) -> None:
        from assistant.counting.count import count_game
        from assistant.forum.fetch import Fetcher, RobotsCache
        from assistant.forum.store import open_db
        from assistant.forum.sync import sync_game
        from assistant.gamefile.game import load_game

        games = load_games()
        files = [
            write_game_file(self.workdir, g, self.forum.thread_url(g.thread_id)) for g in games
        ]
        posts = sum(len(load_posts(g.thread_id)) for g in games)
        times, cpu_times, sync_times = [], [], []
        for rep in range(self.reps):
            db = open_db(self.workdir / f"all-{rep}.db")
            robots = RobotsCache()
            started, started_cpu = time.perf_counter(), time.process_time()
            synced = 0.0
            for path in files:
                game = load_game(path)
                t0 = time.perf_counter()
                sync_game(
                    game, db, Fetcher(min_interval=0, robots=robots), now=lambda: datetime.now(UTC)
                )
                synced += time.perf_counter() - t0
                count_game(game, db)
            times.append(time.perf_counter() - started)
            cpu_times.append(time.process_time() - started_cpu)
            sync_times.append(synced)
        self.add(
            f"All {len(games)} corpus games ({posts:,} posts) synced and every day counted, one process",
            f"{median(cpu_times):.1f} s CPU ({median(times):.1f} s wall, {median(sync_times):.1f} s of it "
            "syncing)",
        )


def machine() -> str:
    model = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor() or "unknown CPU",
    )
    import sqlite3

    import lxml.etree

    return (
        f"{os.cpu_count()} × {model} (nproc {len(os.sched_getaffinity(0))}), Linux {platform.release()}, "
        f"Python {platform.python_version()}, lxml {'.'.join(map(str, lxml.etree.LXML_VERSION[:3]))}, "
        f"SQLite {sqlite3.sqlite_version}"
    )


def render_table(rows, reps: int, load: tuple[float, float], sides: list[Side]) -> str:
    lines = [
        "## Performance",
        "",
        f"Measured with `python bench/run.py` (median of {reps} runs) on {machine()}, "
        f"{datetime.now(UTC):%Y-%m-%d} (load average {load[0]:.1f} at the start, {load[1]:.1f} at the end: "
        "wall times on a shared machine vary, CPU times less). The forum is the 32 real MafiaScum games of the "
        "test corpus, rendered as phpBB pages and served from a separate process on 127.0.0.1."
        + (
            " Both columns come from this one run, the sides taking turns within each repetition."
            if len(sides) > 1
            else ""
        ),
        "",
    ]
    if len(sides) > 1:
        versions = [
            subprocess.run(
                [s.python, "-c", "import lxml.etree as e; print(*e.LXML_VERSION[:3], sep='.')"],
                capture_output=True,
                text=True,
            ).stdout.strip()
            for s in sides
        ]
        lines[2] += (
            " lxml: "
            + ", ".join(f"{v} ({s.label})" for s, v in zip(sides, versions, strict=True))
            + "."
        )
        lines += [
            f"| What | {' | '.join(s.label for s in sides)} | Now / baseline | Target |",
            "|---" * (len(sides) + 3) + "|",
        ]
        lines += [
            f"| {figure} | {' | '.join(values)} | {ratio} | {target} |"
            for figure, values, ratio, target in rows
        ]
    else:
        lines += ["| What | Figure | Target |", "|---|---|---|"]
        lines += [f"| {figure} | {values[0]} | {target} |" for figure, values, _, target in rows]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--reps", type=int, default=3, help="repetitions per figure (the median is reported)"
    )
    parser.add_argument("--only", nargs="*", choices=SECTIONS, help="run only these sections")
    parser.add_argument("--out", type=Path, help="also write the Markdown table to this file")
    parser.add_argument(
        "--baseline",
        default=V1,
        metavar="REV",
        help=f"also measure this commit, side by side (default {V1}, v1; 'none': this checkout only)",
    )
    parser.add_argument(
        "--callgrind",
        action="store_true",
        help="also count instructions (valgrind) for the parse and count figures",
    )
    parser.add_argument(
        "--editable",
        action="store_true",
        help="measure this checkout in the running venv (an editable install adds its own import "
        "hook to every start-up) instead of installed into its own venv as the baseline is",
    )
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--parse-worker", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--stored", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--work", choices=("none", "floor", "parser"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve_forever()
        return
    if args.parse_worker:
        parse_worker(args.parse_worker, args.reps, args.stored, args.work)
        return
    if not CORPUS_DIR.is_dir():
        sys.exit(f"the corpus is not at {CORPUS_DIR}")
    callgrind = args.callgrind
    if callgrind and shutil.which("valgrind") is None:
        print(
            "valgrind is not installed (apt-get install -y valgrind): the instruction counts are skipped",
            file=sys.stderr,
        )
        callgrind = False
    sides = [NOW if args.editable else installed_side()]
    if args.baseline.lower() != "none":
        sides.append(baseline_side(args.baseline))
    sections = args.only or SECTIONS
    load_before = os.getloadavg()[0]
    with ForumProcess() as forum, tempfile.TemporaryDirectory() as tmp:
        bench = Bench(forum, Path(tmp), args.reps, sides, callgrind)
        for name in SECTIONS:
            if name in sections:
                print(f"{name} ...", file=sys.stderr, flush=True)
                {
                    "parse": bench.parse,
                    "sync": bench.sync,
                    "poll": bench.poll,
                    "new": bench.new,
                    "count": bench.count,
                    "memory": bench.memory,
                    "all": bench.all_games,
                }[name]()
    table = render_table(bench.rows, args.reps, (load_before, os.getloadavg()[0]), sides)
    print(table)
    if args.out:
        args.out.write_text(table, encoding="utf-8")


if __name__ == "__main__":
    main()
