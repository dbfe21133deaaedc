"""Live replay (issue 24): a corpus game served on loopback growing post by post, kept from its
first page to its end.

For each game: the thread is served as phpBB pages showing only its first page, the moderators'
posts there with the end-of-game marks taken out (the archived opening was edited after the game;
``tests/gamestart.py``), and ``votal new`` writes a game file; then the thread grows by ``--step``
posts at a time and ``votal update`` keeps the file (a sync, then the moderators' new posts read),
as ``votal run --follow`` does. After the last post the file is scored against the archive (seats,
replacements, deaths, days and hammers, as ``bench/gamestate.py`` scores) and compared with the file
``new`` + ``update`` write on the same finished thread at once: the seats, days and deaths must be
the same, and so should every value the file holds (comments aside). The finished thread's file is
scored too (the same opening as at the start), beside the live one: what the live game loses is the
difference, what both lose is the start-state opening's.

    python bench/live.py --in-process --games 5       # the first 5 games of each set
    python bench/live.py --in-process --step 25 --sets mafiascum
    python bench/live.py                               # the commands as subprocesses (slow)
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO_ROOT), str(REPO_ROOT / "tests"), str(REPO_ROOT / "bench")]

import corpus  # noqa: E402
import gamestart  # noqa: E402
from gamestate import SETS, InProcess, Score, Subprocesses, score_file, thread_posts  # noqa: E402
from run import FORUM_ID, PER_PAGE, Forum  # noqa: E402

from assistant.forum.pageserver import LoopbackServer  # noqa: E402


@dataclass
class LiveScore:
    archive: Score = field(
        default_factory=Score
    )  # the live file after the last post, against the archive
    finished: Score = field(
        default_factory=Score
    )  # the finished thread's file (the same opening), against it
    games: int = 0
    same_as_finished: int = 0  # seats, days and deaths
    whole_file_same: int = 0  # every value of the file (comments aside)
    halves: dict = field(
        default_factory=lambda: {h: [0, 0, 0] for h in "AB"}
    )  # games, same state, same values
    updates: int = 0
    invalid: list[str] = field(default_factory=list)  # a step after which the file did not load
    differences: list[str] = field(default_factory=list)
    deaths: int = 0
    deaths_right: int = 0
    replaced: int = 0
    replaced_right: int = 0
    replaced_missed: list[str] = field(
        default_factory=list
    )  # a seat whose later accounts the live file lacks


def opening_posts(game: corpus.CorpusGame) -> list[dict]:
    """The game's posts as served, the moderators' posts on the first page as they stood at the
    start."""
    posts = thread_posts(game)
    seats = [s.accounts for s in game.seats]
    mods = {m.casefold() for m in game.moderators} | {posts[0]["user"].casefold()}
    for post in posts[:PER_PAGE]:
        if post["user"].casefold() in mods:
            post["content"] = gamestart.opening_at_start(post["content"], seats)
    return posts


def file_state(path: Path) -> dict:
    """What a live file and a finished-thread file must agree on: seats (accounts), days, deaths."""
    written = tomllib.loads(path.read_text(encoding="utf-8"))
    seats = sorted(
        tuple(
            a.casefold()
            for a in [
                p["name"],
                *(r if isinstance(r, str) else r["name"] for r in p.get("replacements", [])),
            ]
        )
        for p in written.get("players", [])
    )
    days = [(d["day"], d["start_post"], d.get("end_post")) for d in written.get("days", [])]
    deaths = sorted((d["player"].casefold(), d["phase"]) for d in written.get("deaths", []))
    return {"seats": seats, "days": days, "deaths": deaths}


def file_values(path: Path) -> dict:
    """Every value a game file holds, its comments (the cites' wording) aside."""
    return tomllib.loads(path.read_text(encoding="utf-8"))


def score_deaths_and_replacements(game: corpus.CorpusGame, path: Path, live: LiveScore) -> None:
    written = tomllib.loads(path.read_text(encoding="utf-8"))
    seats = {
        p["name"]: {
            a.casefold()
            for a in [
                p["name"],
                *(r if isinstance(r, str) else r["name"] for r in p.get("replacements", [])),
            ]
        }
        for p in written.get("players", [])
    }
    deaths = {(d["player"], d["phase"]) for d in written.get("deaths", [])}
    for slot in game.seats:
        keys = {a.casefold() for a in slot.accounts}
        holder = next((name for name, accounts in seats.items() if keys & accounts), None)
        if len(slot.accounts) > 1:
            live.replaced += 1
            right = holder is not None and keys <= seats[holder]
            live.replaced_right += right
            if not right:
                live.replaced_missed.append(
                    f"game {game.number}: seat {' > '.join(slot.accounts)} held as "
                    + (" > ".join(sorted(seats[holder])) if holder else "no seat")
                )
        if (
            slot.fate_phase
            and slot.fate_number is not None
            and slot.fate in ("lynched", "killed", "modkilled")
        ):
            live.deaths += 1
            live.deaths_right += (holder, f"{slot.fate_phase} {slot.fate_number}") in deaths


def replay_game(
    game: corpus.CorpusGame,
    forum: Forum,
    base_url: str,
    work: Path,
    live: LiveScore,
    *,
    runner,
    step: int,
    keep: Path | None = None,
) -> None:
    from assistant.gamefile.game import load_game

    topic, total = game.thread_id, len(forum.threads[game.thread_id])
    url = f"{base_url}/viewtopic.php?f={FORUM_ID}&t={topic}"
    live.games += 1
    path, db = work / "live.toml", work / "live.db"
    forum.shown[topic] = min(PER_PAGE, total)
    if not runner.new(live.archive, url, str(path), str(db)) or not path.exists():
        live.invalid.append(f"game {game.number}: votal new at the first page wrote nothing")
        live.archive.games += 1
        live.archive.slots += len(game.seats)
        return
    shown = forum.shown[topic]
    while shown < total:
        shown = min(shown + step, total)
        forum.shown[topic] = shown
        runner.update(live.archive, str(path), str(db))
        live.updates += 1
        try:
            load_game(path, players_required=False)
        except Exception as error:  # noqa: BLE001 - an invalid file is a figure of the replay
            live.invalid.append(f"game {game.number} at post {shown}: {error}")
            return
    live.archive.games += 1
    score_file(game, str(path), str(db), live.archive, runner=runner)
    score_deaths_and_replacements(game, path, live)
    finished, finished_db = work / "finished.toml", work / "finished.db"
    if runner.new(live.finished, url, str(finished), str(finished_db)) and finished.exists():
        runner.update(live.finished, str(finished), str(finished_db))
        live.finished.games += 1
        score_file(game, str(finished), str(finished_db), live.finished, runner=runner)
        if keep is not None:
            keep.mkdir(parents=True, exist_ok=True)
            for kept in (path, finished):
                (keep / f"{game.number}-{kept.name}").write_text(
                    kept.read_text(encoding="utf-8"), encoding="utf-8"
                )
        whole_a, whole_b = file_values(path), file_values(finished)
        half = live.halves["A" if game.number % 2 == 0 else "B"]  # game number even: half A, odd: B
        half[0] += 1
        half[1] += file_state(path) == file_state(finished)
        half[2] += whole_a == whole_b
        if whole_a == whole_b:
            live.whole_file_same += 1
        else:
            keys = [k for k in sorted({*whole_a, *whole_b}) if whole_a.get(k) != whole_b.get(k)]
            live.differences.append(
                f"game {game.number}: the whole files differ in {', '.join(keys)}"
            )
        a, b = file_state(path), file_state(finished)
        if a == b:
            live.same_as_finished += 1
        else:
            parts = [k for k in a if a[k] != b[k]]
            live.differences.append(
                f"game {game.number}: live and finished differ in {', '.join(parts)}: "
                + "; ".join(
                    f"{k} live {_diff(a[k], b[k])} finished {_diff(b[k], a[k])}" for k in parts
                )
            )
    else:
        live.differences.append(f"game {game.number}: new on the finished thread wrote nothing")


def _diff(mine: list, other: list) -> list:
    return [x for x in mine if x not in other][:4]


def replay_set(
    name: str,
    *,
    games_wanted: int | None,
    runner,
    step: int,
    only: set[str],
    keep: Path | None = None,
) -> LiveScore:
    games = list(corpus.load_games(SETS[name]))
    if only:
        games = [g for g in games if str(g.number) in only or g.thread_id in only]
    games = games[:games_wanted]
    forum = Forum({g.thread_id: opening_posts(g) for g in games})
    live = LiveScore()
    with LoopbackServer(forum.respond) as server, tempfile.TemporaryDirectory() as tmp:
        for game in games:
            work = Path(tmp) / game.thread_id
            work.mkdir()
            replay_game(
                game, forum, server.base_url, work, live, runner=runner, step=step, keep=keep
            )
    return live


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=list(SETS))
    parser.add_argument("--games", type=int, help="only the first N games of each set")
    parser.add_argument(
        "--only", nargs="+", default=(), help="only these games (number or thread id)"
    )
    parser.add_argument(
        "--step", type=int, default=40, help="posts added between updates (default 40)"
    )
    parser.add_argument(
        "--in-process", action="store_true", help="the commands' library calls in this process"
    )
    parser.add_argument("--misses", action="store_true", help="print each miss and difference")
    parser.add_argument(
        "--keep",
        type=Path,
        help="keep each game's live and finished-thread files in this folder "
        "(<game>-live.toml, <game>-finished.toml)",
    )
    args = parser.parse_args(argv)
    runner = InProcess() if args.in_process else Subprocesses()
    started = time.process_time()
    lives = {
        name: replay_set(
            name,
            games_wanted=args.games,
            runner=runner,
            step=args.step,
            only=set(args.only),
            keep=args.keep,
        )
        for name in args.sets
    }
    for name, live in lives.items():
        print(f"\n{name}:")
        for line in [
            *live.invalid,
            *live.archive.failures,
            *(live.differences if args.misses else ()),
            *(live.archive.misses if args.misses else ()),
            *(live.replaced_missed if args.misses else ()),
            *(f"finished thread: {m}" for m in (live.finished.misses if args.misses else ())),
        ]:
            print(f"  {line}")
    print(
        f"\nlive replay, step {args.step} posts, {time.process_time() - started:.0f} s CPU in this process\n"
    )
    print(
        "| figure | "
        + " | ".join(f"{n} ({lives[n].games} games): live, finished" for n in lives)
        + " |"
    )
    print("|---|" + "---|" * len(lives))

    def pct(a: int, b: int) -> str:
        return f"{a}/{b} ({100 * a / b:.1f}%)" if b else "-"

    rows = {
        n: {
            **{k: f"{v}, {live.finished.row()[k]}" for k, v in live.archive.row().items()},
            "replacements found": pct(live.replaced_right, live.replaced),
            "deaths right": pct(live.deaths_right, live.deaths),
            "updates run": str(live.updates),
            "file invalid after a step": str(len(live.invalid)),
            "live file = finished-thread file: seats, days, deaths": pct(
                live.same_as_finished, live.games
            ),
            "live file = finished-thread file: every value": pct(live.whole_file_same, live.games),
            **{
                f"same, half {h} (game number {'even' if h == 'A' else 'odd'}): state / every value": (
                    f"{n[1]}/{n[0]} / {n[2]}/{n[0]}"
                )
                for h, n in live.halves.items()
            },
        }
        for n, live in lives.items()
    }
    for figure in next(iter(rows.values())):
        print(f"| {figure} | " + " | ".join(rows[n][figure] for n in lives) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
