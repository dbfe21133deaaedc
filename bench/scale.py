"""100 live games in one `votal run` (issue 23): requests, CPU and memory of each round, old code
beside new.

A loopback forum in a child process (``--serve``) shows 100 real MafiaScum games (both corpora) as
phpBB threads, each cut part-way through a day, so every one is in progress. A `votal run` process
(``--drive``, one per code version) runs every game once per round when told to, as `votal run
--once` does, with ``--site`` and ``--drafts``; the forum's CPU never lands in it. The rounds:

1. first: everything is new;
2. nothing new: the forum answers every page with 304;
3. a tenth changed: every tenth game gets a few new posts (the thread's real next posts) before it;
4. nothing new, a new process: a fresh `votal run` over the same store, pages and drafts (as a cron
   job's `votal run --once` each time), its start-up not counted in the round;
5. a tenth changed, a new process: another tenth of the games (not round 3's) gets its new posts,
   and a fresh `votal run --once` runs the round (what each cron run does when something was
   posted).

Per round: requests the forum answered (total and per game), CPU seconds of the `votal run` process
(all its threads, ``time.process_time``), its peak memory (``ru_maxrss``), and how many site pages,
drafts and alerts it wrote. The old code (``--baseline``, default c10b99b, extracted with ``git
archive``) runs the same rounds against the same forum in the same run, its driver beside the new
one. Both write each game's page to ``site/GAME/`` (the new code also an index of the games,
``site/index.html``: no page).

    python bench/scale.py                      # 100 games, old and new; a Markdown table on stdout
    python bench/scale.py --games 10           # a quick run
    python bench/scale.py --no-baseline        # the current code only
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlencode

REPO_ROOT = Path(__file__).resolve().parents[1]
BASELINE = "c10b99b"  # before issue 34's run loop work (963c250: before issue 23's scale work)
FIRST_TOPIC = 200_001  # topics are numbered afresh: the two corpora never share a thread id
CHANGED_EVERY = 10  # in round 3, every tenth game has new posts
NEW_POSTS = 4  # ... this many
ROUNDS = (
    "first",
    "nothing new",
    "a tenth changed",
    "nothing new, a new process",
    "a tenth changed, a new process",
)


# --- the games: real threads cut part-way through a day
# -----------------------------------------------------


def bench_games(count: int) -> list[tuple[str, object, int]]:
    """(topic, corpus game, last post shown) of ``count`` games: the smaller corpus first, then the
    larger one, each cut between 35% and 75% of the way through one of its days (which day and where
    vary by game)."""
    sys.path.insert(0, str(REPO_ROOT / "tests"))
    from corpus import MORE_CORPUS_DIR, load_games

    games = [*load_games(), *sorted(load_games(MORE_CORPUS_DIR), key=lambda g: int(g.thread_id))][
        :count
    ]
    if len(games) < count:
        raise SystemExit(f"the corpora hold {len(games)} games; ask for at most that many")
    chosen = []
    for k, game in enumerate(games):
        day = k % len(game.day_ends)  # 0-based: day ``day + 1`` is in progress
        start = game.day_ends[day - 1] if day else 0
        end = game.day_ends[day]
        cut = start + (end - start) * (35 + 10 * (k % 5)) // 100
        chosen.append((str(FIRST_TOPIC + k), game, max(start + 1, min(cut, end - NEW_POSTS - 1))))
    return chosen


def in_progress(game, last_shown: int):
    """The corpus game as its moderator's file stands at post ``last_shown``: the days begun so far
    (the last one open) and only the deaths already announced."""
    ended = tuple(end for end in game.day_ends if end <= last_shown)
    day = len(ended) + 1  # the day in progress

    def known(seat) -> bool:
        return seat.fate_number is not None and seat.fate_number < day

    seats = tuple(
        seat
        if known(seat)
        else replace(seat, fate="survived", fate_phase=None, fate_number=None, killed_on_post=None)
        for seat in game.seats
    )
    return replace(game, day_ends=ended, seats=seats)


def write_game_files(folder: Path, base_url: str, games) -> list[Path]:
    from corpus import render_game_file
    from run import FORUM_ID, PER_PAGE  # the forum's

    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for topic, game, last_shown in games:
        text = render_game_file(
            in_progress(game, last_shown),
            thread_url=f"{base_url}/viewtopic.php?f={FORUM_ID}&t={topic}",
            posts_per_page=PER_PAGE,
        )
        path = folder / f"game-{topic}.toml"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


# --- the forum: a child process
# ------------------------------------------------------------------------------


def thread_posts(game) -> list[dict]:
    """A corpus game's posts as the phpBB renderer wants them (times as aware UTC datetimes), from
    either corpus."""
    from corpus import load_posts, post_time

    return [
        {**p, "user_id": p.get("user_id") or None, "time": post_time(p)}
        for p in load_posts(game.thread_id, game.corpus_dir)
    ]


def serve_forever(count: int) -> None:
    """The ``--serve`` child: serve ``count`` games, each shown up to its cut, print the base URL,
    run until stdin closes. The forum is bench/run.py's (corpus threads as phpBB pages, ETag + 304,
    requests counted); each thread holds the posts of round 3 and shows those up to the cut until
    the bench asks for more."""
    from run import Forum

    from assistant.forum.pageserver import LoopbackServer

    games = bench_games(count)
    forum = Forum(
        {topic: thread_posts(game)[: last + 1 + NEW_POSTS] for topic, game, last in games}
    )
    forum.shown.update({topic: last + 1 for topic, _, last in games})
    with LoopbackServer(forum.respond) as server:
        print(server.base_url, flush=True)
        sys.stdin.read()


# --- a `votal run` process
# -----------------------------------------------------------------------------------


def drive(folder: Path, workers: int, once: bool) -> None:
    """The ``--drive`` child: one `votal run` over the game files in ``folder/games``, with
    ``--site`` and ``--drafts`` (and ``--once``: as `votal run --once` runs its round); on each line
    ``round`` from stdin it runs every game once and prints what that cost."""
    import logging
    import resource
    import time

    started = time.process_time()
    from assistant.cli import schedule
    from assistant.forum import store
    from assistant.forum.sync import check_ruleset
    from assistant.gamefile.game import load_game

    logging.basicConfig(
        level=logging.WARNING, format="%(asctime)s %(message)s"
    )  # as `votal run` logs
    paths = sorted((folder / "games").glob("*.toml"))
    db_path = folder / "votal.db"

    def now() -> datetime:
        return datetime.now(UTC)

    hooks = schedule.regenerate_hooks(
        site_dir=folder / "site", drafts_dir=folder / "drafts", now=now
    )
    runner = schedule.Runner(db_path=db_path, regenerate=hooks, now=now)
    if once and hasattr(runner, "trust_stored_state"):
        runner.trust_stored_state = True  # as run_games(once=True) sets it
    if hasattr(runner, "run_round"):

        def run_round() -> list:
            return runner.run_round(paths, max_workers=workers)
    else:
        # SHIM for the baseline, which has no round option: what its run_games does before
        # scheduling (check each game file, create the store), then each game's job on a pool of the
        # same size.
        from concurrent.futures import ThreadPoolExecutor

        for path in paths:
            check_ruleset(load_game(path))
        store.open_db(db_path).close()

        def run_round() -> list:
            with ThreadPoolExecutor(max_workers=max(1, min(workers, len(paths)))) as pool:
                return list(pool.map(runner.run_game, paths))

    def report(**figures) -> None:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(json.dumps({**figures, "peak_mb": peak}), flush=True)

    report(startup_cpu=time.process_time() - started)
    for line in sys.stdin:
        if line.strip() != "round":
            continue
        before = time.process_time()
        runs = run_round()
        cpu = time.process_time() - before
        report(
            cpu=cpu,
            games=len(runs),
            errors=[run.error for run in runs if run.error],
            alerts=sum(run.alerts for run in runs),
            synced_requests=sum(run.result.requests for run in runs if run.result),
            new_posts=sum(run.result.new_posts for run in runs if run.result),
        )


# --- the bench
# -----------------------------------------------------------------------------------------------


def baseline_tree(commit: str) -> Path:
    """The package as it was at ``commit``, extracted once (``git archive``) beside the temp
    files."""
    sha = subprocess.run(
        ["git", "-C", str(REPO_ROOT), "rev-parse", commit],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    tree = Path(tempfile.gettempdir()) / f"votal-bench-tree-{sha[:12]}"
    if not (tree / "assistant").is_dir():
        tree.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(
            ["git", "-C", str(REPO_ROOT), "archive", sha], capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
    return tree


class Driver:
    """One `votal run` process over its own copy of the game files, store, site and drafts."""

    def __init__(
        self, label: str, folder: Path, base_url: str, games, *, tree: Path | None, workers: int
    ):
        self.label, self.folder, self.tree, self.workers = label, folder, tree, workers
        write_game_files(folder / "games", base_url, games)
        self.log = open(folder / "log.txt", "w", encoding="utf-8")  # noqa: SIM115 (closed in close())
        self.start()

    def start(self, *, once: bool = False) -> None:
        env = dict(os.environ)
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # a bytecode cache, as an installed package has
        env["PYTHONPYCACHEPREFIX"] = str(
            Path(tempfile.gettempdir()) / f"votal-bench-pycache-{self.label}"
        )
        if (
            self.tree is not None
        ):  # the old package first on the path, ahead of the editable install
            env["PYTHONPATH"] = os.pathsep.join([str(self.tree), env.get("PYTHONPATH", "")]).rstrip(
                os.pathsep
            )
        self.proc = subprocess.Popen(
            [
                sys.executable,
                __file__,
                "--drive",
                str(self.folder),
                "--workers",
                str(self.workers),
                *(["--once"] if once else []),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
            env=env,
        )
        self.ready = self.read()

    def restart(self) -> None:
        """A new `votal run --once` process over the same store, pages and drafts (a cron job's)."""
        self.stop()
        self.start(once=True)

    def read(self) -> dict:
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the {self.label} driver failed: see {self.folder / 'log.txt'}")
        return json.loads(line)

    def run_round(self) -> dict:
        outputs = self.outputs()
        self.proc.stdin.write("round\n")
        self.proc.stdin.flush()
        figures = self.read()
        after = self.outputs()
        changed = [path for path, stamp in after.items() if outputs.get(path) != stamp]
        figures["site_pages"] = sum(1 for p in changed if p.name == "index.html")
        figures["drafts"] = sum(1 for p in changed if p.name.endswith("-votal.txt"))
        return figures

    def outputs(self) -> dict[Path, tuple[int, int]]:
        """Every site page and draft written so far, by inode and modification time: both versions
        write a new file and rename it over the old one, so a rewrite shows as a new inode even
        within one clock tick."""
        found = {}
        for pattern in ("site/*/index.html", "drafts/*-votal.txt"):
            for path in self.folder.glob(pattern):
                info = path.stat()
                found[path] = (info.st_ino, info.st_mtime_ns)
        return found

    def stop(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=60)

    def close(self) -> None:
        self.stop()
        self.log.close()


class ForumProcess:
    def __init__(self, count: int) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--serve", "--games", str(count)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.base_url = self.proc.stdout.readline().strip()
        if not self.base_url.startswith("http://127.0.0.1:"):
            raise RuntimeError("the loopback forum did not start")

    def ask(self, path: str, **query) -> str:
        from urllib.request import urlopen

        with urlopen(f"{self.base_url}{path}?{urlencode(query)}") as answer:  # noqa: S310 (loopback only)
            return answer.read().decode()

    def requests(self) -> dict[str, int]:
        return json.loads(self.ask("/bench/counts"))

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def run_bench(count: int, baseline: str | None, workers: int, workdir: Path) -> str:
    games = bench_games(count)
    posts_shown = sum(last + 1 for _, _, last in games)
    print(
        f"{count} games, {posts_shown:,} posts shown; starting the forum",
        file=sys.stderr,
        flush=True,
    )
    forum = ForumProcess(count)
    drivers = []
    try:
        if baseline:
            drivers.append(
                Driver(
                    f"old ({baseline})",
                    workdir / "old",
                    forum.base_url,
                    games,
                    tree=baseline_tree(baseline),
                    workers=workers,
                )
            )
        drivers.append(
            Driver("new", workdir / "new", forum.base_url, games, tree=None, workers=workers)
        )
        rows = {d.label: [] for d in drivers}
        for number, name in enumerate(ROUNDS, start=1):
            if name.startswith("a tenth changed"):  # round 5's tenth is another than round 3's
                first = 0 if number == 3 else CHANGED_EVERY // 2
                changed = games[first::CHANGED_EVERY]
                for topic, _, last in changed:
                    forum.ask("/bench/show", t=topic, n=last + 1 + NEW_POSTS)
            # the drivers take turns within a round (never at once), each seeing the forum as the
            # other did
            for driver in drivers:
                if name.endswith("a new process"):
                    driver.restart()
                before = forum.requests()
                figures = driver.run_round()
                after = forum.requests()
                figures["requests"] = sum(
                    after[k] - before[k] for k in ("pages", "robots")
                )  # 304s are pages
                figures["not_modified"] = after["not_modified"] - before["not_modified"]
                rows[driver.label].append(figures)
                print(
                    f"  round {number} ({name}), {driver.label}: {describe(figures, count)}",
                    file=sys.stderr,
                    flush=True,
                )
        return table(drivers, rows, count)
    finally:
        for driver in drivers:
            driver.close()
        forum.close()


def breakdown(count: int, workdir: Path) -> str:
    """Where an idle game's CPU goes when every step of the old `run_game` is done (this code's
    functions, one thread, each step timed alone with ``time.process_time``): what a run that counts
    a standing game pays."""
    import time
    from contextlib import contextmanager

    from assistant import bundled
    from assistant.cli.schedule import Runner
    from assistant.counting.count import (
        count_current_day,
        current_day,
        game_warnings,
        load_stored_game,
    )
    from assistant.forum import store
    from assistant.forum.fetch import HostLimiter, RobotsCache, make_fetcher
    from assistant.forum.sync import sync_game
    from assistant.gamefile.game import load_game
    from assistant.gamefile.rules import parse_ruleset
    from assistant.output.alerts import deliver_alerts, detect_alerts

    games = bench_games(count)
    forum = ForumProcess(count)
    try:
        paths = write_game_files(workdir / "games", forum.base_url, games)
        db_path = workdir / "votal.db"
        store.open_db(db_path).close()
        Runner(db_path=db_path, count=lambda game, db, now: None).run_round(
            paths
        )  # everything stored
        now = datetime.now(UTC)
        robots, limiter = RobotsCache(), HostLimiter()
        ruleset_text = (bundled.data() / "rulesets" / "mafiascum.toml").read_text(encoding="utf-8")
        spent: dict[str, float] = {}

        @contextmanager
        def step(name: str):
            started = time.process_time()
            yield
            spent[name] = spent.get(name, 0.0) + time.process_time() - started

        for path in paths:
            with step("open the store"):
                db = store.open_db(db_path)
            with step("load the game file"):
                game = load_game(path)
            with step("parse its ruleset 4 times (as each ruleset_for did)"):
                for _ in range(4):
                    parse_ruleset(ruleset_text)
            with step("read the stored thread"):
                stored = load_stored_game(game, db)
            with step("count the current day"):
                votal = count_current_day(game, db, now, stored=stored)
            with step("warnings"):
                warnings = game_warnings(
                    game, db, days=[current_day(game, db, at_time=now)], stored=stored, now=now
                )
            with step("sync: one conditional request"):
                sync_game(
                    game, db, make_fetcher(game, limiter=limiter, robots=robots), now=lambda: now
                )
            with step("alerts: detect and deliver"):
                deliver_alerts(
                    db, game, detect_alerts(game, votal, now=now, warnings=warnings), now=now
                )
            with step("close the store"):
                db.close()
    finally:
        forum.close()
    lines = [
        f"An idle game's steps as the old `run_game` took them, {count} games, one thread:",
        "",
        "| step | ms a game |",
        "|---|---|",
    ]
    lines += [f"| {name} | {seconds / count * 1000:.1f} |" for name, seconds in spent.items()]
    lines.append(f"| all | {sum(spent.values()) / count * 1000:.1f} |")
    return "\n".join(lines) + "\n"


def describe(f: dict, count: int) -> str:
    errors = f"; {len(f['errors'])} errors: {f['errors'][0]}" if f["errors"] else ""
    return (
        f"{f['requests']} requests ({f['requests'] / count:.2f} a game, {f['not_modified']} answered 304), "
        f"{f['cpu']:.2f} s CPU ({f['cpu'] / count * 1000:.0f} ms a game), peak {f['peak_mb']:.0f} MB, "
        f"{f['site_pages']} site pages, {f['drafts']} drafts, {f['alerts']} alerts{errors}"
    )


def table(drivers, rows, count: int) -> str:
    lines = [
        f"{count} games in one `votal run --site --drafts`, `python bench/scale.py --games {count}`; "
        f"{platform.machine()}, Python {platform.python_version()}, {datetime.now(UTC):%Y-%m-%d}",
        "",
        "| round | code | requests (a game) | CPU s (ms a game) | peak MB | site pages | drafts | alerts |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for number, name in enumerate(ROUNDS):
        for driver in drivers:
            f = rows[driver.label][number]
            lines.append(
                f"| {number + 1}. {name} | {driver.label} | {f['requests']} ({f['requests'] / count:.2f}) | "
                f"{f['cpu']:.2f} ({f['cpu'] / count * 1000:.0f}) | {f['peak_mb']:.0f} | {f['site_pages']} | "
                f"{f['drafts']} | {f['alerts']} |"
            )
    starts = ", ".join(f"{d.label} {d.ready['startup_cpu']:.2f} s" for d in drivers)
    lines += [
        "",
        f"Start-up of a `votal run` process (imports, game files checked), CPU: {starts}.",
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=100, help="how many live games (default 100)")
    parser.add_argument(
        "--baseline", default=BASELINE, help=f"the old code's commit (default {BASELINE})"
    )
    parser.add_argument("--no-baseline", action="store_true", help="run the current code only")
    parser.add_argument(
        "--workers", type=int, default=4, help="`votal run`'s worker threads (default 4)"
    )
    parser.add_argument("--out", type=Path, help="also write the table here")
    parser.add_argument(
        "--breakdown",
        action="store_true",
        help="instead: where an idle game's CPU goes, step by step, when it is counted anyway",
    )
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--drive", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--once", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve_forever(args.games)
        return
    if args.drive:
        drive(args.drive, args.workers, args.once)
        return
    with tempfile.TemporaryDirectory(prefix="votal-scale-") as workdir:
        if args.breakdown:
            text = breakdown(args.games, Path(workdir))
        else:
            text = run_bench(
                args.games, None if args.no_baseline else args.baseline, args.workers, Path(workdir)
            )
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
