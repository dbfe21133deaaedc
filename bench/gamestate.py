"""Game state from the thread (issue 16): real MafiaScum games served as phpBB pages, no
hand-written game file.

For each game of both corpus sets: ``votal new URL -o game.toml --ruleset mafiascum``, then ``votal
update game.toml`` where that command exists, then ``votal count game.toml --day N --format json``
for each scorable day (the corpus README's rules). Prints, per set: seats found (each archive slot
held by a seat whose accounts include one of its accounts) and their precision (each seat matching
exactly one slot), games whose moderator was found, day outcomes and hammer posts right, and
commands failing.

    python bench/gamestate.py               # both sets, a table at the end
    python bench/gamestate.py --misses      # also each game's misses
    python bench/gamestate.py --sets mafiascum --limit 5
    python bench/gamestate.py --in-process  # the same library calls in this process: minutes, not an hour

``--in-process`` calls what each command calls (``create_game_file``; ``sync_game`` +
``update_from_store``; ``count_game``), on the same loopback pages, with the same scoring, without a
Python start-up per command. It is for iterating; the official figure is the subprocess run. It also
runs ``update`` a second time and counts the games where that second run would write something
(update must be idempotent).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO_ROOT), str(REPO_ROOT / "tests"), str(REPO_ROOT / "bench")]

import corpus  # noqa: E402
from run import FORUM_ID, Forum  # noqa: E402

from assistant.forum.pageserver import LoopbackServer  # noqa: E402

# `votal` as this checkout's code (python -m assistant), whichever votal is installed
VOTAL = [sys.executable, "-m", "assistant"]
ENV = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
SETS = {
    "mafiascum": corpus.CORPUS_DIR,
    "mafiascum-more": corpus.MORE_CORPUS_DIR,
    "mafiascum-calib": corpus.CALIB_CORPUS_DIR,
}


def thread_posts(game: corpus.CorpusGame) -> list[dict]:
    """A corpus game's posts as the phpBB renderer wants them (times as aware UTC datetimes)."""
    return [
        {
            "number": p["number"],
            "id": p["id"],
            "user": p["user"],
            "user_id": p.get("user_id") or None,
            "content": p["content"],
            "time": corpus.post_time(p),
        }
        for p in corpus.load_posts(game.thread_id, game.corpus_dir)
    ]


@dataclass
class Score:
    games: int = 0
    slots: int = 0
    slots_found: int = 0
    seats: int = 0
    seats_exact: int = 0
    moderator_found: int = 0
    days: int = 0
    days_right: int = 0
    hammers: int = 0
    hammers_right: int = 0
    commands: int = 0
    failures: list[str] = field(default_factory=list)
    not_idempotent: list[str] = field(default_factory=list)
    miss_kinds: dict[str, int] = field(default_factory=dict)
    misses: list[str] = field(default_factory=list)
    # (game number, wrong, doubted) per scored day: the doubts' calibration (bench/accuracy.py
    # prints it)
    doubted: list[tuple[int, bool, bool]] = field(default_factory=list)
    doubt_lines: list[str] = field(default_factory=list)
    # half ("A": even game numbers, "B": odd, as bench/accuracy.py splits them; every `mafiascum`
    # thread id is odd) -> [days, days right, hammers, hammers right]: a rule chosen on one half is
    # reported on the other
    halves: dict[str, list[int]] = field(
        default_factory=lambda: {"A": [0, 0, 0, 0], "B": [0, 0, 0, 0]}
    )

    def row(self) -> dict[str, str]:
        def pct(a: int, b: int) -> str:
            return f"{a}/{b} ({100 * a / b:.1f}%)" if b else "-"

        return {
            "seats found": pct(self.slots_found, self.slots),
            "seat precision": pct(self.seats_exact, self.seats),
            "moderator found": pct(self.moderator_found, self.games),
            "day outcomes right": pct(self.days_right, self.days),
            "hammer posts right": pct(self.hammers_right, self.hammers),
            "commands failing": f"{len(self.failures)} of {self.commands}",
        }


def votal(score: Score, *args: str) -> subprocess.CompletedProcess:
    score.commands += 1
    done = subprocess.run([*VOTAL, *args], capture_output=True, text=True, timeout=600, env=ENV)
    if done.returncode != 0:
        score.failures.append(
            f"votal {' '.join(args[:2])}: exit {done.returncode}: {done.stderr.strip()[-200:]}"
        )
    return done


class Subprocesses:
    """The three steps as `votal` commands (the official figure)."""

    def new(self, score: Score, url: str, path: str, db: str) -> bool:
        done = votal(
            score,
            "new",
            url,
            "-o",
            path,
            "--ruleset",
            "mafiascum",
            "--db",
            db,
            "--format",
            "json",
            "--min-interval",
            "0",
        )
        return done.returncode == 0

    def update(self, score: Score, path: str, db: str) -> None:
        votal(score, "update", path, "--db", db)

    def count(self, score: Score, path: str, db: str, day: int) -> dict | None:
        done = votal(score, "count", path, "--db", db, "--day", str(day), "--format", "json")
        return json.loads(done.stdout) if done.returncode == 0 else None


class InProcess:
    """The three steps as the library calls each command makes, in this process (for iterating)."""

    def __init__(self) -> None:
        from datetime import UTC, datetime

        self.now = lambda: datetime.now(UTC)

    def _run(self, score: Score, what: str, step):
        score.commands += 1
        try:
            return step()
        except Exception as error:  # noqa: BLE001 - a failing command is a figure, not a crash of the bench
            score.failures.append(f"votal {what}: {type(error).__name__}: {str(error)[-200:]}")
            return None

    def new(self, score: Score, url: str, path: str, db: str) -> bool:
        from assistant.forum.store import open_db
        from assistant.upkeep.new import create_game_file

        def step():
            result = create_game_file(
                url,
                path,
                db=open_db(db),
                ruleset="mafiascum",
                timezone=None,
                now=self.now,
                min_interval=0,
            )
            if not result.usable:
                raise RuntimeError("nothing usable found")
            return True

        return bool(self._run(score, "new", step))

    def update(self, score: Score, path: str, db: str) -> None:
        from assistant.forum.fetch import make_fetcher
        from assistant.forum.store import open_db
        from assistant.forum.sync import sync_game
        from assistant.gamefile.game import load_game
        from assistant.upkeep.edits import write_game_file
        from assistant.upkeep.update import update_from_store

        def step():
            game = load_game(path, players_required=False)
            store = open_db(db)
            sync_game(game, store, make_fetcher(game), now=self.now)
            report = update_from_store(path, store, now=self.now())
            if report.changed:
                write_game_file(path, report.text)
            again = update_from_store(path, store, now=self.now())
            if again.changed:
                score.not_idempotent.append(
                    f"{path}: a second update writes {list(again.written)[:3]}"
                )
            return True

        self._run(score, "update", step)

    def count(self, score: Score, path: str, db: str, day: int) -> dict | None:
        from assistant.cli.main import load_snapshot
        from assistant.counting.count import count_stored

        def step():
            # as `votal count --day N` reads it: a day the file lacks, the moderators' posts give
            game, _, stored, moment = load_snapshot(path, db, None, self.now(), day)
            votal_ = count_stored(game, stored, days=[day], at_time=moment)[0]
            return votal_.to_json(private=True)

        return self._run(score, "count", step)


def has_update() -> bool:
    return (
        subprocess.run([*VOTAL, "update", "--help"], capture_output=True, env=ENV).returncode == 0
    )


def score_game(
    game: corpus.CorpusGame, url: str, work: Path, score: Score, *, runner, update: bool
) -> None:
    score.games += 1
    db, path = str(work / "votal.db"), str(work / "game.toml")
    created = runner.new(score, url, path, db)
    if not created or not Path(path).exists():
        score.slots += len(game.seats)
        score.misses.append(f"game {game.number}: votal new wrote nothing")
        return
    if update:
        runner.update(score, path, db)
    score_file(game, path, db, score, runner=runner)


def file_seats(written: dict) -> dict[str, list[str]]:
    """A game file's seats (as TOML data): seat name -> its accounts, the first name first."""
    return {
        p["name"]: [
            p["name"],
            *(r if isinstance(r, str) else r["name"] for r in p.get("replacements", [])),
        ]
        for p in written.get("players", [])
    }


def slots_of(game: corpus.CorpusGame, accounts: list[str]) -> list[corpus.CorpusSeat]:
    """The archive's slots holding any of ``accounts`` (one, when the file's seat is the archive's
    slot)."""
    keys = {a.casefold() for a in accounts}
    return [s for s in game.seats if keys & {a.casefold() for a in s.accounts}]


@dataclass(frozen=True)
class DayVerdict:
    """A counted day against the archive: the lynch (or no lynch) right, and the hammer post right
    (None when the corpus README says not to check it)."""

    got: str | None  # the seat Votal eliminates, None for no lynch or no decision
    decided: bool
    hammer_right: bool | None

    @property
    def wrong(self) -> bool:
        return not self.decided or self.hammer_right is False


def judge_day(
    game: corpus.CorpusGame, day: corpus.ExpectedDay, outcome: dict, seats: dict[str, list[str]]
) -> DayVerdict:
    """``outcome`` (the count JSON's) against the archive's day, the file's seats matched to its
    slots."""
    got = outcome.get("target") if outcome.get("kind") == "elimination" else None
    got_slot = slots_of(game, seats.get(got, [got])) if got else []
    decided = outcome.get("kind") in ("elimination", "no_elimination") and (
        (got is None and day.eliminated is None)
        or (
            len(got_slot) == 1 and day.eliminated is not None and got_slot[0].name == day.eliminated
        )
    )
    hammer = decided and day.hammer_ok(outcome.get("post")) if day.check_hammer else None
    return DayVerdict(got, decided, hammer)


def score_file(game: corpus.CorpusGame, path: str, db: str, score: Score, *, runner) -> None:
    """A game file written from the thread, against the archive: seats, the moderator, each day
    counted."""
    written = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    seats = file_seats(written)

    def slot_of(accounts: list[str]) -> list[corpus.CorpusSeat]:
        return slots_of(game, accounts)

    for slot in game.seats:
        score.slots += 1
        keys = {a.casefold() for a in slot.accounts}
        if any(keys & {a.casefold() for a in accounts} for accounts in seats.values()):
            score.slots_found += 1
        else:
            score.misses.append(f"game {game.number}: slot {'/'.join(slot.accounts)} not found")
    for accounts in seats.values():
        score.seats += 1
        if len(slot_of(accounts)) == 1:
            score.seats_exact += 1
        else:
            score.misses.append(
                f"game {game.number}: seat {'/'.join(accounts)} matches {len(slot_of(accounts))} slots"
            )
    mods = {m.casefold() for m in written.get("moderators", [])}
    if all(m.casefold() in mods for m in game.moderators[:1]):
        score.moderator_found += 1
    else:
        score.misses.append(
            f"game {game.number}: moderator {game.moderators} not in {sorted(mods)}"
        )
    from accuracy import half_of

    half = score.halves[half_of(game.number)]
    for day in corpus.expected_days(game):
        score.days += 1
        half[0] += 1
        if day.check_hammer:
            score.hammers += 1
            half[2] += 1
        counted = runner.count(score, path, db, day.day)
        if counted is None:
            score.misses.append(f"game {game.number} day {day.day}: count failed")
            continue
        outcome = counted.get("outcome") or {}
        verdict = judge_day(game, day, outcome, seats)
        got, decided, wrong = verdict.got, verdict.decided, verdict.wrong
        if decided:
            score.days_right += 1
            half[1] += 1
        doubts = [d for d in counted.get("doubts", []) if d["kind"] != "note"]
        score.doubted.append((game.number, wrong, bool(doubts)))
        if wrong != bool(doubts):
            what = "WRONG, SILENT" if wrong else "RIGHT, DOUBTED"
            score.doubt_lines.append(
                f"{what} game {game.number} day {day.day}: got {outcome.get('kind')} {got or ''} "
                f"at post {outcome.get('post')}; expected {day.eliminated or 'no lynch'} before "
                f"{day.twilight_post}"
                + "".join(f"\n      {d['kind']} post {d['post']}: {d['why']}" for d in doubts)
            )
        if day.check_hammer and decided and day.hammer_ok(outcome.get("post")):
            score.hammers_right += 1
            half[3] += 1
        elif day.check_hammer or not decided:
            kind = miss_kind(day, written, counted, seats)
            score.miss_kinds[kind] = score.miss_kinds.get(kind, 0) + 1
            declared = next((d for d in written.get("days", []) if d.get("day") == day.day), {})
            score.misses.append(
                f"game {game.number} day {day.day}: expected {day.eliminated or 'no lynch'} before post "
                f"{day.twilight_post}; got {outcome.get('kind')} {got or ''} at post {outcome.get('post')} "
                f"[{kind}: file {declared.get('start_post')}-{declared.get('end_post')}, truth "
                f"{day.start_post}..{day.twilight_post}/{day.end_post}, alive {counted.get('alive')}/{len(day.alive)}]"
            )


def miss_kind(
    day: corpus.ExpectedDay, written: dict, counted: dict, seats: dict[str, list[str]]
) -> str:
    """What a missed day most likely lost it, first cause first: the day's bounds, then who is
    alive."""
    declared = next((d for d in written.get("days", []) if d.get("day") == day.day), {})
    start, end = declared.get("start_post"), declared.get("end_post")
    if start is None:
        return "start missing"
    if start < day.start_post:
        return "start early"  # the previous day's votes carry over
    if end is not None and end < day.twilight_post:
        return "end early"
    if start >= day.twilight_post:
        return "start late"
    if counted.get("alive") != len(day.alive):
        return "alive wrong"
    if end is None or end > day.end_post:
        return "end late/missing"
    return "votes"


def score_set(
    name: str,
    *,
    limit: int | None,
    update: bool,
    runner,
    games_wanted: set[str] | None = None,
    keep: str | None = None,
) -> Score:
    games = corpus.load_games(SETS[name])[:limit]
    if games_wanted:
        games = [g for g in games if str(g.number) in games_wanted or g.thread_id in games_wanted]
    forum = Forum({g.thread_id: thread_posts(g) for g in games})
    score = Score()
    with LoopbackServer(forum.respond) as server, tempfile.TemporaryDirectory() as tmp:
        for game in games:
            work = Path(keep or tmp) / game.thread_id
            work.mkdir(parents=True, exist_ok=True)
            for old in work.glob("*"):
                old.unlink()
            url = f"{server.base_url}/viewtopic.php?f={FORUM_ID}&t={game.thread_id}"
            score_game(game, url, work, score, runner=runner, update=update)
    return score


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=list(SETS))
    parser.add_argument("--limit", type=int, help="only the first N games of each set")
    parser.add_argument("--misses", action="store_true", help="print each miss")
    parser.add_argument(
        "--in-process",
        action="store_true",
        help="call the commands' library functions in this process (fast; for iterating)",
    )
    parser.add_argument("--games", nargs="+", help="only these games (number or thread id)")
    parser.add_argument("--keep", metavar="DIR", help="keep each game's files in DIR/THREAD_ID")
    args = parser.parse_args(argv)
    runner = InProcess() if args.in_process else Subprocesses()
    update = args.in_process or has_update()
    started = time.perf_counter()
    scores = {
        name: score_set(
            name,
            limit=args.limit,
            update=update,
            runner=runner,
            games_wanted=set(args.games or ()),
            keep=args.keep,
        )
        for name in args.sets
    }
    for name, score in scores.items():
        if args.misses:
            print(f"\n{name}: misses")
            print("\n".join(f"  {m}" for m in score.misses))
        for failure in score.failures:
            print(f"  FAILED {failure}")
        if args.misses:
            print(f"  miss kinds: {dict(sorted(score.miss_kinds.items(), key=lambda kv: -kv[1]))}")
        for line in score.not_idempotent:
            print(f"  NOT IDEMPOTENT {line}")
    from accuracy import calibration_of, show_calibration

    print(
        "\ndoubts (a day is wrong when its lynch or its hammer post is; half A: even game numbers, B: odd)"
    )
    for name, score in scores.items():
        if args.misses:
            print("\n".join(f"  {line}" for line in score.doubt_lines))
        print(name)
        print("\n".join(show_calibration(calibration_of(score.doubted))))
    steps = "new + update + count" if update else "new + count (no `votal update` yet)"
    print(f"\n{steps}, {time.perf_counter() - started:.0f} s\n")
    print(
        "| figure | "
        + " | ".join(f"{name} ({scores[name].games} games)" for name in scores)
        + " | target |"
    )
    print("|---|" + "---|" * len(scores) + "---|")
    targets = {
        "seats found": "≥ 97%",
        "seat precision": "≥ 97%",
        "moderator found": "every game",
        "day outcomes right": "≥ 93%",
        "hammer posts right": "≥ 90%",
        "commands failing": "0",
    }
    rows = {name: score.row() for name, score in scores.items()}
    for figure, target in targets.items():
        print(
            f"| {figure} | " + " | ".join(rows[name][figure] for name in scores) + f" | {target} |"
        )
    print("\nby half (A: even game numbers, B: odd): days right, hammer posts right")
    for name, score in scores.items():
        print(
            f"  {name}: "
            + "; ".join(
                f"{h} days {d[1]}/{d[0]}, hammers {d[3]}/{d[2]}" for h, d in score.halves.items()
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
