"""Votal's performance benchmarks (issue 8): the real MafiaScum games served as phpBB pages on loopback.

A child process (``--serve``) renders every corpus game with the demo's phpBB renderer and serves it on
127.0.0.1 (ETag + 304, robots.txt), so the forum's own CPU never lands in a measured process. The figures
are medians of several repetitions; the CLI figures run ``votal`` as a real subprocess, Python start-up
included.

    python bench/run.py                 # every figure, Markdown table on stdout
    python bench/run.py --reps 5 --out results.md
    python bench/run.py --only parse count
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
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
sys.path.insert(0, str(REPO_ROOT / "tests"))  # the corpus loader and the phpBB renderer of the tests

from corpus import CORPUS_DIR, load_games, load_posts, render_game_file  # noqa: E402

FORUM_ID = "53"
PER_PAGE = 25
BIG_TOPIC = "10000"  # the 10,000-post thread built from repeated corpus posts
BIG_POSTS = 10_000
VOTAL = Path(sys.executable).with_name("votal")
SECTIONS = ("parse", "sync", "poll", "count", "memory", "all")


# --- the forum: corpus threads as phpBB pages, in a child process -------------------------------------------


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
    """``count`` posts made by repeating a corpus thread's posts, renumbered with fresh ids and rising times."""
    source = corpus_thread_posts(thread_id)
    start = source[0]["time"]
    return [
        {**source[n % len(source)], "number": n, "id": str(50_000_000 + n), "time": start + timedelta(minutes=n)}
        for n in range(count)
    ]


class Forum:
    """Every thread by topic id; ``shown[topic]`` posts are visible (so a poll can find new ones)."""

    def __init__(self, threads: dict[str, list[dict]]):
        from loopback_forum import render_page

        from assistant.demo import PhpbbThread

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
        start = min(max(start, 0), (max(shown, 1) - 1) // PER_PAGE * PER_PAGE) // PER_PAGE * PER_PAGE
        key = (topic, shown, start)
        if key not in self.pages:
            thread = self._thread_class(self.threads[topic][:shown], f"Thread {topic}", FORUM_ID, topic, PER_PAGE)
            html = self._render_page(thread, start)
            self.pages[key] = (html, '"' + hashlib.sha1(html.encode()).hexdigest()[:16] + '"')
        return self.pages[key]

    def respond(self, path: str, query: dict[str, str], headers: dict[str, str]):
        from assistant.pageserver import Response

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
                return Response(404, "<html><body><p>The requested topic does not exist.</p></body></html>")
            self.counts["pages"] += 1
            html, etag = self.page(topic, int(query.get("start", "0") or 0))
            if headers.get("If-None-Match") == etag:
                self.counts["not_modified"] += 1
                return Response(304, "", {"ETag": etag})
            return Response(200, html, {"Content-Type": "text/html; charset=utf-8", "ETag": etag})


def serve_forever() -> None:
    """The ``--serve`` child: render, serve, print the base URL, and run until stdin closes."""
    from assistant.pageserver import LoopbackServer

    threads = {g.thread_id: corpus_thread_posts(g.thread_id) for g in load_games()}
    threads[BIG_TOPIC] = repeated_posts(largest_game().thread_id, BIG_POSTS)
    forum = Forum(threads)
    with LoopbackServer(forum.respond) as server:
        print(server.base_url, flush=True)
        sys.stdin.read()


class ForumProcess:
    def __enter__(self) -> ForumProcess:
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
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
        self.session.get(f"{self.base_url}/bench/show?" + urlencode({"t": topic, "n": count})).raise_for_status()

    def counts(self) -> dict[str, int]:
        return self.session.get(f"{self.base_url}/bench/counts").json()

    def page_texts(self, topic: str, posts: int) -> list[str]:
        return [
            self.session.get(self.thread_url(topic) + (f"&start={s}" if s else "")).text
            for s in range(0, posts, PER_PAGE)
        ]


def parse_worker(pages_file: Path, reps: int, stored: bool) -> None:
    """The ``--parse-worker`` child: median CPU seconds of the floor and the parser, interleaved (floor, parser;
    floor, parser; ...) so that a change in the machine's other load falls on both alike; or, with ``stored``,
    of reading every post's commands again from its stored body, as after an extractor upgrade. It holds
    nothing else: a fuller heap slows lxml's own parsing (by some 70% with the corpus loaded)."""
    import lxml.html

    from parsers.commands import extract_commands
    from parsers.phpbb import parse_page

    pages = json.loads(pages_file.read_text(encoding="utf-8"))
    posts = sum(len(parse_page(text, url=url).posts) for url, text in pages)

    def floor() -> None:
        for _, text in pages:
            lxml.html.fromstring(text)

    def parser() -> None:  # the parser reads each post's commands from its own parse of the page
        for url, text in pages:
            parse_page(text, url=url)

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
        for name, work in works.items():
            started = time.process_time()
            work()
            times[name].append(time.process_time() - started)
    print(json.dumps({"posts": posts, "cpu": {name: median(values) for name, values in times.items()}}))


# --- measuring ----------------------------------------------------------------------------------------------


@dataclass
class Run:
    wall: float
    cpu: float
    max_rss_mb: float
    stdout: str


# Runs in a small launcher process: a child forked from this (large) process would start with its memory
# high-water mark (ru_maxrss survives exec on Linux), and forking a large process costs wall time too.
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
    """The environment of a CLI run: with a bytecode cache (as after ``pip install``), kept out of the repo."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "votal-bench-pycache")
    return env


def run_votal(*args: str) -> Run:
    """Run ``votal`` as a real subprocess: wall time, CPU time and peak memory (ru_maxrss) of that process."""
    return run_program(str(VOTAL), *args)


def run_program(*argv: str) -> Run:
    with tempfile.NamedTemporaryFile("r", suffix=".json") as report:
        done = subprocess.run(
            [sys.executable, "-c", _LAUNCHER, report.name, *argv],
            capture_output=True, text=True, env=votal_env(),
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
    def __init__(self, forum: ForumProcess, workdir: Path, reps: int):
        self.forum, self.workdir, self.reps = forum, workdir, reps
        self.big = largest_game()
        self.big_posts = len(load_posts(self.big.thread_id))
        self.rows: list[tuple[str, str, str]] = []  # figure, value, target

    def add(self, figure: str, value: str, target: str = "") -> None:
        self.rows.append((figure, value, target))
        print(f"  {figure}: {value}" + (f"   [target {target}]" if target else ""), file=sys.stderr, flush=True)

    # 1
    def parse(self) -> None:
        pages = []
        for game in load_games():
            url = self.forum.thread_url(game.thread_id)
            texts = self.forum.page_texts(game.thread_id, len(load_posts(game.thread_id)))
            pages += [(url + (f"&start={i * PER_PAGE}" if i else ""), t) for i, t in enumerate(texts)]
        # Timed in fresh processes holding only the pages (as `votal sync` would), not in this one: with the
        # corpus loaded, this heap makes lxml itself parse some 70% slower, which would flatter the ratio.
        pages_file = self.workdir / "pages.json"
        pages_file.write_text(json.dumps(pages), encoding="utf-8")
        rate = {}
        for extra in ([], ["--stored"]):
            done = subprocess.run(
                [sys.executable, __file__, "--parse-worker", str(pages_file), "--reps", str(self.reps), *extra],
                capture_output=True, text=True, check=True,
            )
            figures = json.loads(done.stdout)
            rate |= {name: figures["posts"] / seconds for name, seconds in figures["cpu"].items()}
        self.add(f"Parse: lxml.html.fromstring floor ({len(pages)} pages, {figures['posts']} posts)",
                 f"{rate['floor']:,.0f} posts/s")
        self.add("Parse: parsers.phpbb.parse_page, commands read from every post",
                 f"{rate['parser']:,.0f} posts/s ({rate['parser'] / rate['floor']:.2f} of floor)", "≥ 0.5 of floor")
        self.add("Parse: commands re-read from stored bodies (after an extractor upgrade)",
                 f"{rate['stored']:,.0f} posts/s")

    def big_game_file(self) -> Path:
        return write_game_file(self.workdir, self.big, self.forum.thread_url(self.big.thread_id))

    # 2
    def sync(self) -> None:
        game_file = self.big_game_file()
        runs, requests = [], []
        for rep in range(self.reps):
            db = self.workdir / f"full-{rep}.db"
            before = self.forum.counts()
            runs.append(run_votal("sync", str(game_file), "--db", str(db), "--quiet", "--format", "json"))
            after = self.forum.counts()
            requests.append((after["robots"] - before["robots"], after["pages"] - before["pages"]))
        robots, pages = requests[0]
        self.add(f"Full sync of the largest game ({self.big_posts} posts), `votal sync`, min_interval 0",
                 f"{median(r.wall for r in runs):.2f} s wall, {median(r.cpu for r in runs):.2f} s CPU, "
                 f"{pages + robots} requests ({pages} pages + {robots} robots.txt)")

    # 3
    def poll(self) -> None:
        from assistant.fetch import Fetcher, RobotsCache
        from assistant.game import load_game
        from assistant.store import open_db
        from assistant.sync import sync_game

        game_file = self.big_game_file()
        db = self.workdir / "poll.db"
        topic = self.big.thread_id
        self.forum.show(topic, self.big_posts)
        run_votal("sync", str(game_file), "--db", str(db), "--quiet")
        idle, idle_requests = [], []
        for _ in range(self.reps):
            before = self.forum.counts()
            idle.append(run_votal("sync", str(game_file), "--db", str(db), "--quiet"))
            after = self.forum.counts()
            idle_requests.append({k: after[k] - before[k] for k in after})
        robots, pages = idle_requests[0]["robots"], idle_requests[0]["pages"]
        self.add("Idle poll, `votal sync` subprocess: requests",
                 f"{robots + pages} ({pages} page, answered 304; {robots} robots.txt)", "1")
        self.add("Idle poll, `votal sync` subprocess: CPU (incl. Python start-up)",
                 f"{median(r.cpu for r in idle) * 1000:.0f} ms CPU, {median(r.wall for r in idle) * 1000:.0f} ms wall")

        # The same poll inside a long-running process (the scheduler's case): robots.txt already read.
        game = load_game(game_file)
        store_db = open_db(db)
        robots_cache = RobotsCache()
        fetcher = Fetcher(min_interval=0, robots=robots_cache)
        sync_game(game, store_db, fetcher, now=lambda: datetime.now(UTC))
        cpu, made = [], []
        for _ in range(self.reps):
            fetcher = Fetcher(min_interval=0, robots=robots_cache)
            started = time.thread_time()
            sync_game(game, store_db, fetcher, now=lambda: datetime.now(UTC))
            cpu.append(time.thread_time() - started)
            made.append(fetcher.requests_made)
        self.add("Idle poll in a running process (sync_game, robots.txt cached): requests, CPU",
                 f"{requests_text(made[0])}, {median(cpu) * 1000:.1f} ms CPU", "1 request")

        # A store that holds all but the last 5 posts, copied afresh for each repetition.
        self.forum.show(topic, self.big_posts - 5)
        base = self.workdir / "poll-base.db"
        run_votal("sync", str(game_file), "--db", str(base), "--quiet")
        self.forum.show(topic, self.big_posts)
        new_runs, new_cpu, new_requests = [], [], []
        for rep in range(self.reps):
            copy = self.workdir / f"poll-new-{rep}.db"
            shutil.copyfile(base, copy)
            before = self.forum.counts()
            new_runs.append(run_votal("sync", str(game_file), "--db", str(copy), "--quiet", "--format", "json"))
            after = self.forum.counts()
            new_requests.append(after["pages"] - before["pages"] + after["robots"] - before["robots"])
            assert json.loads(new_runs[-1].stdout)["new_posts"] == 5, new_runs[-1].stdout
        for rep in range(self.reps):  # in-process, robots.txt cached
            copy = self.workdir / f"poll-new-in-{rep}.db"
            shutil.copyfile(base, copy)
            copy_db = open_db(copy)
            started = time.thread_time()
            result = sync_game(game, copy_db, Fetcher(min_interval=0, robots=robots_cache),
                               now=lambda: datetime.now(UTC))
            new_cpu.append(time.thread_time() - started)
            assert result.new_posts == 5, result
        self.add("Poll with 5 new posts, `votal sync` subprocess",
                 f"{requests_text(new_requests[0])}, {median(r.cpu for r in new_runs) * 1000:.0f} ms CPU, "
                 f"{median(r.wall for r in new_runs) * 1000:.0f} ms wall")
        self.add("Poll with 5 new posts in a running process (sync_game)",
                 f"{requests_text(result.requests)}, {median(new_cpu) * 1000:.1f} ms CPU")

    # 4
    def count(self) -> None:
        from assistant.counting import count_game, ruleset_for
        from assistant.game import load_game
        from assistant.names import Roster
        from assistant.store import load_read_posts, open_db
        from assistant.tally import replay_day

        game_file = self.big_game_file()
        db = self.workdir / "count.db"
        self.forum.show(self.big.thread_id, self.big_posts)
        run_votal("sync", str(game_file), "--db", str(db), "--quiet")
        day, first, last = longest_day(self.big)
        run_votal("count", str(game_file), "--db", str(db), "--day", str(day))  # warm the page cache
        runs = [run_votal("count", str(game_file), "--db", str(db), "--day", str(day))
                for _ in range(max(self.reps, 7))]
        bare = [run_votal("--version") for _ in range(max(self.reps, 7))]
        python = [run_program(sys.executable, "-c", "pass") for _ in range(max(self.reps, 7))]
        self.add(f"`votal count` of day {day} of the largest game (posts {first}-{last} of {self.big_posts}), "
                 "one subprocess", f"{median(r.wall for r in runs) * 1000:.0f} ms wall, "
                 f"{median(r.cpu for r in runs) * 1000:.0f} ms CPU", "< 300 ms")
        self.add("  for scale: `votal --version` / bare `python -c pass`",
                 f"{median(r.wall for r in bare) * 1000:.0f} ms / {median(r.wall for r in python) * 1000:.0f} ms wall, "
                 f"{median(r.cpu for r in bare) * 1000:.0f} ms / {median(r.cpu for r in python) * 1000:.0f} ms CPU")

        game = load_game(game_file)
        store_db = open_db(db)
        points = [first + (last - first) * i // 99 for i in range(100)]
        count_game(game, store_db, days=[day], at_post=points[0])  # imports and ruleset loading, once

        def replays() -> None:  # the pure core: posts read from the store once, the day replayed 100 times
            posts = load_read_posts(store_db, game.key)
            ruleset = ruleset_for(game)
            roster = Roster.from_game(game, ruleset)
            for point in points:
                replay_day(game, ruleset, posts, roster, day=day, at_post=point)

        def counts() -> None:  # count_game reads the store again each time
            for point in points:
                count_game(game, store_db, days=[day], at_post=point)

        for label, work in (("load once + replay_day", replays), ("count_game, store read each time", counts)):
            wall, cpu = [], []
            for _ in range(self.reps):
                started, started_cpu = time.perf_counter(), time.process_time()
                work()
                wall.append(time.perf_counter() - started)
                cpu.append(time.process_time() - started_cpu)
            self.add(f"Count day {day} as of each of 100 posts, one process ({label})",
                     f"{median(wall):.2f} s wall, {median(cpu):.2f} s CPU ({median(cpu) * 10:.1f} ms CPU per count)",
                     "< 2 s")

    # 5
    def memory(self) -> None:
        from dataclasses import replace

        game_file = write_game_file(self.workdir, replace(self.big, thread_id=BIG_TOPIC),
                                    self.forum.thread_url(BIG_TOPIC))
        syncs, counts = [], []
        for rep in range(self.reps):
            db = self.workdir / f"big-{rep}.db"
            syncs.append(run_votal("sync", str(game_file), "--db", str(db), "--quiet"))
            counts.append(run_votal("count", str(game_file), "--db", str(db), "--all-days"))
        self.add(f"Peak memory, `votal sync` of a {BIG_POSTS:,}-post thread (ru_maxrss)",
                 f"{median(r.max_rss_mb for r in syncs):.0f} MB ({median(r.wall for r in syncs):.1f} s wall)",
                 "< 150 MB")
        self.add(f"Peak memory, `votal count --all-days` of the {BIG_POSTS:,}-post thread",
                 f"{median(r.max_rss_mb for r in counts):.0f} MB ({median(r.wall for r in counts) * 1000:.0f} ms wall)",
                 "< 150 MB")

    # 6
    def all_games(self) -> None:
        from assistant.counting import count_game
        from assistant.fetch import Fetcher, RobotsCache
        from assistant.game import load_game
        from assistant.store import open_db
        from assistant.sync import sync_game

        games = load_games()
        files = [write_game_file(self.workdir, g, self.forum.thread_url(g.thread_id)) for g in games]
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
                sync_game(game, db, Fetcher(min_interval=0, robots=robots), now=lambda: datetime.now(UTC))
                synced += time.perf_counter() - t0
                count_game(game, db)
            times.append(time.perf_counter() - started)
            cpu_times.append(time.process_time() - started_cpu)
            sync_times.append(synced)
        self.add(f"All {len(games)} corpus games ({posts:,} posts) synced and every day counted, one process",
                 f"{median(times):.1f} s wall ({median(sync_times):.1f} s of it syncing), "
                 f"{median(cpu_times):.1f} s CPU")


def machine() -> str:
    model = next(
        (line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
         if line.startswith("model name")),
        platform.processor() or "unknown CPU",
    )
    import sqlite3

    import lxml.etree

    return (
        f"{os.cpu_count()} × {model} (nproc {len(os.sched_getaffinity(0))}), Linux {platform.release()}, "
        f"Python {platform.python_version()}, lxml {'.'.join(map(str, lxml.etree.LXML_VERSION[:3]))}, "
        f"SQLite {sqlite3.sqlite_version}"
    )


def render_table(rows, reps: int, load: tuple[float, float]) -> str:
    lines = [
        "## Performance",
        "",
        f"Measured with `python bench/run.py` (median of {reps} runs) on {machine()}, "
        f"{datetime.now(UTC):%Y-%m-%d} (load average {load[0]:.1f} at the start, {load[1]:.1f} at the end: "
        "wall times on a shared machine vary, CPU times less). The forum is the 32 real MafiaScum games of the "
        "test corpus, rendered as phpBB pages and served from a separate process on 127.0.0.1.",
        "",
        "| What | Figure | Target |",
        "|---|---|---|",
    ]
    lines += [f"| {figure} | {value} | {target} |" for figure, value, target in rows]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3, help="repetitions per figure (the median is reported)")
    parser.add_argument("--only", nargs="*", choices=SECTIONS, help="run only these sections")
    parser.add_argument("--out", type=Path, help="also write the Markdown table to this file")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--parse-worker", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--stored", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve_forever()
        return
    if args.parse_worker:
        parse_worker(args.parse_worker, args.reps, args.stored)
        return
    if not CORPUS_DIR.is_dir():
        sys.exit(f"the corpus is not at {CORPUS_DIR}")
    sections = args.only or SECTIONS
    load_before = os.getloadavg()[0]
    with ForumProcess() as forum, tempfile.TemporaryDirectory() as tmp:
        bench = Bench(forum, Path(tmp), args.reps)
        for name in SECTIONS:
            if name in sections:
                print(f"{name} ...", file=sys.stderr, flush=True)
                {"parse": bench.parse, "sync": bench.sync, "poll": bench.poll, "count": bench.count,
                 "memory": bench.memory, "all": bench.all_games}[name]()
    table = render_table(bench.rows, args.reps, (load_before, os.getloadavg()[0]))
    print(table)
    if args.out:
        args.out.write_text(table, encoding="utf-8")


if __name__ == "__main__":
    main()
