"""Game state from the thread (issue 16): real MafiaScum games served as phpBB pages, no hand-written game file.

For each game of both corpus sets: ``votal new URL -o game.toml --ruleset mafiascum``, then ``votal update
game.toml`` where that command exists, then ``votal count game.toml --day N --format json`` for each scorable
day (the corpus README's rules). Prints, per set: seats found (each archive slot held by a seat whose accounts
include one of its accounts) and their precision (each seat matching exactly one slot), games whose moderator
was found, day outcomes and hammer posts right, and commands failing.

    python bench/gamestate.py               # both sets, a table at the end
    python bench/gamestate.py --misses      # also each game's misses
    python bench/gamestate.py --sets mafiascum --limit 5
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

from assistant.pageserver import LoopbackServer  # noqa: E402

# `votal` as this checkout's code (python -m assistant), whichever votal is installed
VOTAL = [sys.executable, "-m", "assistant"]
ENV = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
SETS = {"mafiascum": corpus.CORPUS_DIR, "mafiascum-more": corpus.MORE_CORPUS_DIR}


def thread_posts(game: corpus.CorpusGame) -> list[dict]:
    """A corpus game's posts as the phpBB renderer wants them (times as aware UTC datetimes)."""
    return [
        {"number": p["number"], "id": p["id"], "user": p["user"], "user_id": p.get("user_id") or None,
         "content": p["content"], "time": corpus.post_time(p)}
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
    misses: list[str] = field(default_factory=list)

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
        score.failures.append(f"votal {' '.join(args[:2])}: exit {done.returncode}: {done.stderr.strip()[-200:]}")
    return done


def has_update() -> bool:
    return subprocess.run([*VOTAL, "update", "--help"], capture_output=True, env=ENV).returncode == 0


def score_game(game: corpus.CorpusGame, url: str, work: Path, score: Score, *, update: bool) -> None:
    score.games += 1
    db, path = str(work / "votal.db"), str(work / "game.toml")
    created = votal(score, "new", url, "-o", path, "--ruleset", "mafiascum", "--db", db, "--format", "json",
                    "--min-interval", "0")
    if created.returncode != 0 or not Path(path).exists():
        score.slots += len(game.seats)
        score.misses.append(f"game {game.number}: votal new wrote nothing")
        return
    if update:
        votal(score, "update", path, "--db", db)
    written = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    seats = {p["name"]: [p["name"], *p.get("replacements", [])] for p in written.get("players", [])}

    def slot_of(accounts: list[str]) -> list[corpus.CorpusSeat]:
        keys = {a.casefold() for a in accounts}
        return [s for s in game.seats if keys & {a.casefold() for a in s.accounts}]

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
            score.misses.append(f"game {game.number}: seat {'/'.join(accounts)} matches {len(slot_of(accounts))} slots")
    mods = {m.casefold() for m in written.get("moderators", [])}
    if all(m.casefold() in mods for m in game.moderators[:1]):
        score.moderator_found += 1
    else:
        score.misses.append(f"game {game.number}: moderator {game.moderators} not in {sorted(mods)}")
    for day in corpus.expected_days(game):
        score.days += 1
        if day.check_hammer:
            score.hammers += 1
        counted = votal(score, "count", path, "--db", db, "--day", str(day.day), "--format", "json")
        if counted.returncode != 0:
            score.misses.append(f"game {game.number} day {day.day}: count failed")
            continue
        outcome = json.loads(counted.stdout).get("outcome") or {}
        got = outcome.get("target") if outcome.get("kind") == "elimination" else None
        got_slot = slot_of(seats.get(got, [got])) if got else []
        decided = outcome.get("kind") in ("elimination", "no_elimination") and (
            (got is None and day.eliminated is None)
            or (len(got_slot) == 1 and day.eliminated is not None and got_slot[0].name == day.eliminated)
        )
        if decided:
            score.days_right += 1
        if day.check_hammer and decided and day.hammer_ok(outcome.get("post")):
            score.hammers_right += 1
        elif day.check_hammer or not decided:
            score.misses.append(
                f"game {game.number} day {day.day}: expected {day.eliminated or 'no lynch'} before post "
                f"{day.twilight_post}; got {outcome.get('kind')} {got or ''} at post {outcome.get('post')}"
            )


def score_set(name: str, *, limit: int | None, update: bool) -> Score:
    games = corpus.load_games(SETS[name])[:limit]
    forum = Forum({g.thread_id: thread_posts(g) for g in games})
    score = Score()
    with LoopbackServer(forum.respond) as server, tempfile.TemporaryDirectory() as tmp:
        for game in games:
            work = Path(tmp) / game.thread_id
            work.mkdir()
            url = f"{server.base_url}/viewtopic.php?f={FORUM_ID}&t={game.thread_id}"
            score_game(game, url, work, score, update=update)
    return score


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=list(SETS))
    parser.add_argument("--limit", type=int, help="only the first N games of each set")
    parser.add_argument("--misses", action="store_true", help="print each miss")
    args = parser.parse_args(argv)
    update = has_update()
    started = time.perf_counter()
    scores = {name: score_set(name, limit=args.limit, update=update) for name in args.sets}
    for name, score in scores.items():
        if args.misses:
            print(f"\n{name}: misses")
            print("\n".join(f"  {m}" for m in score.misses))
        for failure in score.failures:
            print(f"  FAILED {failure}")
    steps = "new + update + count" if update else "new + count (no `votal update` yet)"
    print(f"\n{steps}, {time.perf_counter() - started:.0f} s\n")
    print("| figure | " + " | ".join(f"{name} ({scores[name].games} games)" for name in scores) + " | target |")
    print("|---|" + "---|" * len(scores) + "---|")
    targets = {"seats found": "≥ 97%", "seat precision": "≥ 97%", "moderator found": "every game",
               "day outcomes right": "≥ 93%", "hammer posts right": "≥ 90%", "commands failing": "0"}
    rows = {name: score.row() for name, score in scores.items()}
    for figure, target in targets.items():
        print(f"| {figure} | " + " | ".join(rows[name][figure] for name in scores) + f" | {target} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
