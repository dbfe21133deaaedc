"""Quiet on a clean game (issue 33): what a file Votal wrote itself makes it ask the moderator.

Each finished corpus game is served on loopback; ``votal new`` + ``votal update`` write its file
(the library calls of bench/gamestate.py's ``--in-process``), then ``votal count --day N --format
json`` runs through the real CLI (click, in this process) for each scorable day. A day decided right
"asks the moderator to look" when its count carries a doubt or a warning (notes do not ask), as
"needs you" would show it while that day is the current one; each is tallied by kind. Halves as
bench/accuracy.py splits them (A: even game numbers, B: odd).

    python bench/needs_you.py --sets mafiascum-more --half A --limit 20
    python bench/needs_you.py --sets mafiascum-calib --half B --examples 3
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import tomllib
from collections import Counter
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO_ROOT), str(REPO_ROOT / "tests"), str(REPO_ROOT / "bench")]

import corpus  # noqa: E402
from accuracy import half_of  # noqa: E402
from gamestate import InProcess, Score, thread_posts  # noqa: E402
from run import FORUM_ID, Forum  # noqa: E402

from assistant.forum.pageserver import LoopbackServer  # noqa: E402

SETS = {"mafiascum": corpus.CORPUS_DIR, "mafiascum-more": corpus.MORE_CORPUS_DIR,
        "mafiascum-calib": corpus.REPO_ROOT.parent / "shared" / "corpus" / "mafiascum-calib"}


def count_json(path: str, db: str, day: int) -> dict | None:
    """``votal count PATH --db DB --day N --format json`` through the real CLI, in this process."""
    from click.testing import CliRunner

    from assistant.cli.main import main

    args = ["count", path, "--db", db, "--day", str(day), "--format", "json"]
    done = CliRunner().invoke(main, args)
    return json.loads(done.stdout) if done.exit_code == 0 else None


def decided_right(day: corpus.ExpectedDay, counted: dict, seats: dict[str, list[str]],
                  game: corpus.CorpusGame) -> bool:
    """The day's outcome is the archive's (gamestate.score_file's rule)."""
    outcome = counted.get("outcome") or {}
    got = outcome.get("target") if outcome.get("kind") == "elimination" else None
    keys = {a.casefold() for a in seats.get(got, [got])} if got else set()
    slots = [s for s in game.seats if keys & {a.casefold() for a in s.accounts}]
    return outcome.get("kind") in ("elimination", "no_elimination") and (
        (got is None and day.eliminated is None)
        or (len(slots) == 1 and day.eliminated is not None and slots[0].name == day.eliminated))


def asks(counted: dict) -> list[tuple[str, str]]:
    """(kind, words) of each finding that asks the moderator to look: doubts and warnings."""
    # before issue 33 the doubts held the notes too
    doubts = [d for d in counted.get("doubts", []) if d["kind"] != "note"]
    found = [(f"doubt:{d['kind']}", d["why"]) for d in doubts]
    found += [(f"warning:{w['kind']}", w["message"]) for w in counted.get("warnings", [])]
    return found


def readable_games(name: str) -> list[corpus.CorpusGame]:
    """The set's games whose posts load (one calib thread has a broken line); the calib archive's
    one "shot day 1" (a day kill) read as killed, which the test loader does not know."""
    fates = corpus._FATE.pattern.replace("survived", "survived|shot")
    corpus._FATE = re.compile(fates, re.IGNORECASE)
    games = []
    for game in corpus.load_games(SETS[name]):
        try:
            corpus.load_posts(game.thread_id, game.corpus_dir)
        except ValueError:
            print(f"  skipped game {game.number}: its posts do not load")
            continue
        games.append(game)
    return games


def measure(name: str, half: str | None, limit: int | None, games_wanted: set[str]) -> dict:
    games = [g for g in readable_games(name) if half is None or half_of(g.number) == half]
    if games_wanted:
        games = [g for g in games if str(g.number) in games_wanted or g.thread_id in games_wanted]
    games = games[:limit]
    forum = Forum({g.thread_id: thread_posts(g) for g in games})
    runner, score = InProcess(), Score()
    right = asked = wrong = wrong_asked = 0
    silent: list[str] = []  # wrong days that ask nothing
    kinds: Counter[str] = Counter()
    examples: dict[str, list[str]] = {}
    with LoopbackServer(forum.respond) as server, tempfile.TemporaryDirectory() as tmp:
        for game in games:
            work = Path(tmp) / game.thread_id
            work.mkdir()
            db, path = str(work / "votal.db"), str(work / "game.toml")
            url = f"{server.base_url}/viewtopic.php?f={FORUM_ID}&t={game.thread_id}"
            if not runner.new(score, url, path, db):
                continue
            runner.update(score, path, db)
            written = tomllib.loads(Path(path).read_text(encoding="utf-8"))
            seats = {p["name"]: [p["name"], *(r if isinstance(r, str) else r["name"]
                                              for r in p.get("replacements", []))]
                     for p in written.get("players", [])}
            for day in corpus.expected_days(game):
                counted = count_json(path, db, day.day)
                if counted is None:
                    continue
                found = asks(counted)
                if not decided_right(day, counted, seats, game):
                    wrong += 1
                    wrong_asked += bool(found)  # a wrong day should ask
                    if not found:
                        got = counted.get("outcome") or {}
                        silent.append(f"game {game.number} day {day.day}: got {got.get('kind')} "
                                      f"{got.get('target') or ''} at post {got.get('post')}, "
                                      f"expected {day.eliminated or 'no lynch'}")
                    continue
                right += 1
                asked += bool(found)
                for kind, words in dict(found).items():
                    kinds[kind] += 1
                    said = f"game {game.number} day {day.day}: {words}"
                    examples.setdefault(kind, []).append(said)
    return {"right": right, "asked": asked, "wrong": wrong, "wrong_asked": wrong_asked,
            "kinds": kinds, "examples": examples, "silent": silent,
            "failures": score.failures}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="+", default=["mafiascum-more"], choices=list(SETS))
    parser.add_argument("--half", choices=("A", "B"),
                        help="only games of this half (A: even numbers)")
    parser.add_argument("--limit", type=int,
                        help="only the first N games (of the half) of each set")
    parser.add_argument("--games", nargs="+", default=(),
                        help="only these games (number or thread id)")
    parser.add_argument("--examples", type=int, default=0,
                        help="print up to N examples of each kind")
    args = parser.parse_args(argv)
    for name in args.sets:
        result = measure(name, args.half, args.limit, set(args.games))
        share = f"{100 * result['asked'] / result['right']:.1f}%" if result["right"] else "-"
        print(f"{name} (half {args.half or 'A+B'}): right days asking the moderator to look: "
              f"{result['asked']}/{result['right']} ({share}); wrong days asking: "
              f"{result['wrong_asked']}/{result['wrong']}")
        for kind, n in result["kinds"].most_common():
            print(f"  {kind}: {n}")
            for line in result["examples"][kind][:args.examples]:
                print(f"      {line[:300]}")
        for line in result["silent"][:args.examples]:
            print(f"  WRONG, SILENT {line}")
        for failure in result["failures"]:
            print(f"  FAILED {failure}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
