"""Trust (issue 33): does Votal say when it may be wrong, and stay quiet when it is right?

Every scorable day of the real MafiaScum games (the corpus README's rules), counted through the
path users run: what `votal count GAME --day N --format json` computes (the CLI's
``load_snapshot`` and ``count_game``, its warnings for the day) and what `votal status` lists
under "needs you" (``collect_status`` with that day's count as the current day, then
``needs_moderator``). Each game is served as phpBB pages on one loopback forum and scored with
two kinds of game file:

- ``moderator``: the file a moderator keeps (the archive's, with the accounts Votal reports
  confirmed, as bench/accuracy.py builds it), its thread synced into a fresh store;
- ``votal``: the file Votal writes itself, `votal new` on the finished thread then
  `votal update`, as bench/gamestate.py runs them in-process.

Per set, file kind and half (A: even game numbers, B: odd): days decided right (the lynch, and
the hammer post where it is checked), wrong days doubted (a real doubt in the count JSON's
``doubts``, kind "note" excluded, or on its outcome), right days doubted, right days whose
"needs you" asks the moderator to look (a problem, a warning, a doubt or a deadline; "day N is
decided", the day to announce, is not counted), and what those items are. Also the moderators'
mid-day counts matched exactly (bench/accuracy.py --vote-counts) per set.

    python bench/trust.py                          # all three sets, both kinds of file
    python bench/trust.py --jobs 2                 # the same in two processes
    python bench/trust.py --sets mafiascum-calib --files votal --limit 5
    python bench/trust.py --games 1791 --misses    # each wrong day: silent or doubted, its doubts
    python bench/trust.py --half A --format json > trust.json
    python bench/trust.py --misses --save trust.json > trust.txt   # text and JSON from one run
"""

from __future__ import annotations

import argparse
import enum
import json
import re
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
# this checkout's code first, whatever is installed: the lead re-runs it on the merged tree
sys.path[:0] = [str(REPO_ROOT), str(REPO_ROOT / "tests"), str(REPO_ROOT / "bench")]

import corpus  # noqa: E402
from accuracy import compare_vote_counts, half_of, moderator_file_text  # noqa: E402
from gamestate import InProcess, Score, file_seats, judge_day, miss_kind, thread_posts  # noqa: E402
from run import FORUM_ID, Forum  # noqa: E402

from assistant.forum.pageserver import LoopbackServer  # noqa: E402

SETS = {
    "mafiascum": corpus.CORPUS_DIR,
    "mafiascum-more": corpus.MORE_CORPUS_DIR,
    "mafiascum-calib": corpus.CALIB_CORPUS_DIR,
}
HALVES = ("A", "B", "both")


class FileKind(enum.StrEnum):
    MODERATOR = "moderator"  # the archive's file, accounts confirmed, as a moderator keeps it
    VOTAL = "votal"  # written by `votal new` + `votal update` from the thread


class Need(enum.StrEnum):
    """What one "needs you" line of `votal status` is."""

    ANNOUNCE = "announce"  # "day N is decided": the day to close, not a request to look
    DEADLINE = "deadline"
    DOUBT = "doubt"
    PROBLEM = "problem"
    WARNING = "warning"


@dataclass(frozen=True)
class NeedsItem:
    need: Need
    text: str
    kind: str | None = None  # a doubt's kind (possible_hammer, moderator_disagrees...)

    @property
    def shape(self) -> str:
        """What groups the noise: a doubt's kind, else the line with its numbers and quoted names
        folded, cut to its first words."""
        if self.kind:
            return f"{self.need}: {self.kind}"
        text = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", self.text.removeprefix("warning: "))
        text = re.sub(r"\d+", "N", text)
        text = re.sub(r"N(?:(?:, |-)N)+", "N…", text)  # "posts 3, 5, 9" and "posts 3-9" alike
        return f"{self.need}: {' '.join(text.split()[:9])}"


@dataclass(frozen=True)
class DayCheck:
    """One scorable day counted with one kind of game file, against the archive."""

    set: str
    game: int
    thread: str
    day: int
    files: FileKind
    expected: str  # the seat lynched, or "no lynch"
    twilight_post: int
    got: str  # the count's outcome: "elimination X", "no_elimination", "pending", "count failed"...
    post: int | None
    decided: bool
    hammer_right: bool | None  # None: the README does not check this day's hammer
    doubts: tuple[str, ...]  # the count's real doubts (and its outcome's), "kind post N: why"
    notes: int  # entries of kind "note" (in `doubts` today, or a separate `notes` list)
    needs: tuple[NeedsItem, ...]  # what `votal status` lists under "needs you" for this day
    failed: str | None = None  # the count refused (an error the moderator sees), why
    # a wrong day's likeliest cause, first cause first (gamestate.miss_kind): the file's day bounds
    # ("end early"...), who is alive, else "votes"
    cause: str | None = None

    @property
    def half(self) -> str:
        return half_of(self.game)

    @property
    def wrong(self) -> bool:
        return not self.decided or self.hammer_right is False

    @property
    def doubted(self) -> bool:
        return bool(self.doubts)

    @property
    def asks_to_look(self) -> tuple[NeedsItem, ...]:
        return tuple(n for n in self.needs if n.need is not Need.ANNOUNCE)


@dataclass
class Figures:
    """One set, kind of file and half, summed over its days."""

    days: int = 0
    decided: int = 0
    hammers: int = 0  # days whose hammer post is checked
    hammers_right: int = 0
    wrong: int = 0
    wrong_doubted: int = 0
    wrong_failed: int = 0  # the count refused: an error, neither silent nor a doubt
    right: int = 0
    right_doubted: int = 0
    right_noted: int = 0  # right days with a note (what `doubts` holds today beside the doubts)
    right_needs: int = 0  # right days whose "needs you" asks the moderator to look
    right_needs_by: dict[str, int] = field(default_factory=dict)  # Need -> right days with one

    def add(self, check: DayCheck) -> None:
        self.days += 1
        self.decided += check.decided
        if check.hammer_right is not None:
            self.hammers += 1
            self.hammers_right += check.hammer_right
        if check.wrong:
            self.wrong += 1
            self.wrong_doubted += check.doubted
            self.wrong_failed += check.failed is not None
            return
        self.right += 1
        self.right_doubted += check.doubted
        self.right_noted += check.notes > 0
        looks = check.asks_to_look
        self.right_needs += bool(looks)
        for need in sorted({n.need for n in looks}):
            self.right_needs_by[need] = self.right_needs_by.get(need, 0) + 1

    @property
    def wrong_silent(self) -> int:
        return self.wrong - self.wrong_doubted - self.wrong_failed


@dataclass
class VoteCounts:
    """The moderators' mid-day counts against Votal's reading as of the post before each
    (bench/accuracy.py's ``compare_vote_counts``)."""

    counts: int = 0
    exact: int = 0
    pairs: int = 0
    agreed: int = 0

    def add(self, numbers: Iterable[int]) -> None:
        counts, exact, pairs, agreed = numbers
        self.counts += counts
        self.exact += exact
        self.pairs += pairs
        self.agreed += agreed


# -- the path users run ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Counted:
    """What `votal count --day N --format json` prints; `votal status`'s "needs you" that day."""

    data: dict
    needs: tuple[NeedsItem, ...]
    votal: object  # the Votal, for --misses


def count_day(path: str, db: str, day: int) -> Counted:
    """The CLI's count of ``day`` (cli/main.py's ``count``, its JSON built the same way), and the
    status of the game with that day as the current one (cli/main.py's ``status``:
    ``collect_status``, then what ``needs_moderator`` lists)."""
    from assistant.cli.main import load_snapshot
    from assistant.counting.checks import for_day
    from assistant.counting.count import count_game, game_warnings
    from assistant.gamefile.game import load_game
    from assistant.output.status import collect_status

    game, store, stored, moment = load_snapshot(path, db, None, None, day)
    try:
        votal = count_game(game, store, days=[day], at_time=moment, stored=stored)[0]
        warnings = game_warnings(game, store, days=[day], stored=stored, now=moment)
        shown = [w.to_json() for w in for_day(warnings, day)]
        data = {**votal.to_json(private=True), "warnings": shown}
        status = collect_status(load_game(path), store, now=moment, count=lambda *_: votal)
    finally:
        store.close()
    return Counted(data, needs_items(status), votal)


def needs_items(status: dict) -> tuple[NeedsItem, ...]:
    """`votal status`'s "needs you" lines (``needs_moderator``), each labelled by its source."""
    from assistant.output.status import needs_moderator

    doubts = {
        f"post {d['post']}: {d['why']}" if d["post"] is not None else d["why"]: d["kind"]
        for d in status["doubts"]
    }
    problems = set(status["problems"])
    items = []
    for line in needs_moderator(status):
        if line.startswith("warning: "):
            need = Need.WARNING
        elif line in doubts:
            items.append(NeedsItem(Need.DOUBT, line, doubts[line]))
            continue
        elif line.startswith("the hammer was read with doubt"):
            need = Need.DOUBT
        elif line in problems:
            need = Need.PROBLEM
        elif re.match(r"day \d+ is decided", line):
            need = Need.ANNOUNCE
        else:
            need = Need.DEADLINE
        items.append(NeedsItem(need, line))
    return tuple(items)


def doubts_and_notes(data: dict) -> tuple[list[dict], list[dict]]:
    """The count JSON's doubts and notes: notes are entries of kind "note" in ``doubts``
    (c10b99b) or in a list of their own (``notes``, issue 33)."""
    entries = data.get("doubts") or []
    notes = [d for d in entries if d.get("kind") == "note"] + list(data.get("notes") or [])
    return [d for d in entries if d.get("kind") != "note"], notes


def refused(
    set_name: str, game: corpus.CorpusGame, day: corpus.ExpectedDay, files: FileKind, why: str
) -> DayCheck:
    """A day the count refused (or whose game file could not be written): wrong, and loud."""
    return DayCheck(
        set_name,
        game.number,
        game.thread_id,
        day.day,
        files,
        day.eliminated or "no lynch",
        day.twilight_post,
        "count failed",
        None,
        False,
        False if day.check_hammer else None,
        (),
        0,
        (),
        why[:200],
    )


def check_day(
    set_name: str,
    game: corpus.CorpusGame,
    day: corpus.ExpectedDay,
    files: FileKind,
    path: str,
    db: str,
    keep_votal: dict | None = None,
) -> DayCheck:
    """One day counted through the CLI's path with one game file, judged against the archive."""
    from assistant.errors import VotalError

    written = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    seats = file_seats(written)
    try:
        counted = count_day(path, db, day.day)
    except VotalError as error:
        return refused(set_name, game, day, files, str(error))
    outcome = counted.data.get("outcome") or {}
    verdict = judge_day(game, day, outcome, seats)
    doubts, notes = doubts_and_notes(counted.data)
    said = [f"{d['kind']} post {d['post']}: {d['why']}" for d in doubts]
    if outcome.get("doubt") and not said:
        said.append(f"outcome: {outcome['doubt']}")
    if keep_votal is not None:
        keep_votal[(files, day.day)] = counted.votal
    got = " ".join(str(x) for x in (outcome.get("kind"), outcome.get("target")) if x) or "none"
    return DayCheck(
        set_name,
        game.number,
        game.thread_id,
        day.day,
        files,
        day.eliminated or "no lynch",
        day.twilight_post,
        got,
        outcome.get("post"),
        verdict.decided,
        verdict.hammer_right,
        tuple(said),
        len(notes),
        counted.needs,
        cause=miss_kind(day, written, counted.data, seats) if verdict.wrong else None,
    )


# -- the two kinds of game file --------------------------------------------------------------------


def moderator_file(game: corpus.CorpusGame, url: str, work: Path) -> tuple[str, str] | str:
    """The moderator's game file for ``game`` served at ``url``, its thread synced anew."""
    from assistant.errors import VotalError
    from assistant.forum.fetch import make_fetcher
    from assistant.forum.store import open_db
    from assistant.forum.sync import sync_game
    from assistant.gamefile.game import load_game

    path, db = work / "moderator.toml", work / "moderator.db"
    posts = corpus.load_posts(game.thread_id, game.corpus_dir)
    authors = [(p["user"], p.get("user_id")) for p in posts]
    try:
        path.write_text(moderator_file_text(game, authors, thread_url=url), encoding="utf-8")
        parsed = load_game(str(path))
    except VotalError as error:  # a file the archive cannot give: its days refused, the run goes on
        return f"the moderator's game file: {error}"
    store = open_db(str(db))
    try:
        sync_game(parsed, store, make_fetcher(parsed), now=InProcess().now)
    finally:
        store.close()
    return str(path), str(db)


def votal_file(game: corpus.CorpusGame, url: str, work: Path) -> tuple[str, str] | str:
    """`votal new` + `votal update` on the finished thread, in-process (gamestate.py's steps)."""
    path, db = str(work / "votal.toml"), str(work / "votal.db")
    runner, score = InProcess(), Score()
    if runner.new(score, url, path, db) and Path(path).exists():
        runner.update(score, path, db)
    if score.failures or not Path(path).exists():
        return "; ".join(score.failures) or "votal new wrote nothing"
    return path, db


MAKERS = {FileKind.MODERATOR: moderator_file, FileKind.VOTAL: votal_file}


class ThreadForum(Forum):
    """bench/run.py's phpBB forum, holding one game's thread at a time (all at once: some GB)."""

    def __init__(self) -> None:
        super().__init__({})

    def serve(self, topic: str, posts: list[dict]) -> None:
        with self.lock:
            self.threads, self.shown, self.pages = {topic: posts}, {topic: len(posts)}, {}


def check_game(
    set_name: str,
    game: corpus.CorpusGame,
    forum: ThreadForum,
    base_url: str,
    kinds: list[FileKind],
    misses: list[str] | None,
) -> list[DayCheck]:
    """Every scorable day of ``game`` with each kind of file (``misses``: add each wrong day)."""
    days = corpus.expected_days(game)
    if not days:
        return []
    forum.serve(game.thread_id, thread_posts(game))
    url = f"{base_url}/viewtopic.php?f={FORUM_ID}&t={game.thread_id}"
    checks: list[DayCheck] = []
    votals: dict | None = {} if misses is not None else None
    with tempfile.TemporaryDirectory() as tmp:
        for kind in kinds:
            made = MAKERS[kind](game, url, Path(tmp))
            for day in days:
                if isinstance(made, str):  # the file could not be written: every day fails, loudly
                    checks.append(refused(set_name, game, day, kind, made))
                else:
                    checks.append(check_day(set_name, game, day, kind, *made, keep_votal=votals))
    if misses is not None:
        misses += describe_misses(checks, votals or {})
    return checks


# -- reporting -------------------------------------------------------------------------------------


def describe_misses(checks: list[DayCheck], votals: dict) -> list[str]:
    """Each wrong day: silent, doubted or refused, its doubts, and the commands not read cleanly."""
    from accuracy import DayScore, describe_miss

    lines = []
    expected = {}
    for check in checks:
        if not check.wrong:
            continue
        state = "DOUBTED" if check.doubted else "REFUSED" if check.failed else "SILENT"
        lines.append(
            f"{state} {check.set} game {check.game} day {check.day} [{check.files} file, half "
            f"{check.half}]: expected {check.expected} before post {check.twilight_post}; got "
            f"{check.got} at post {check.post}"
            + (f" ({check.failed})" if check.failed else "")
            + (f" [{check.cause}]" if check.cause else "")
        )
        lines += [f"    doubt: {d}" for d in check.doubts]
        votal = votals.get((check.files, check.day))
        if votal is not None:
            if check.game not in expected:
                game = next(g for g in corpus.load_games(SETS[check.set]) if g.number == check.game)
                expected[check.game] = {d.day: d for d in corpus.expected_days(game)}
            missed = describe_miss(DayScore(expected[check.game][check.day], votal))
            lines += fold_after_end(missed[1:])
    return lines


def fold_after_end(lines: list[str]) -> list[str]:
    """The votes refused as after the day's end, as one line: a day ended early refuses hundreds."""
    after = [line for line in lines if line.endswith("NOT counted (after the day's end)")]
    kept = [line for line in lines if line not in after]
    said = [f"    ... {len(after)} commands not counted: after the day's end"] if after else []
    return kept + said


def tally(checks: list[DayCheck]) -> dict[str, dict[str, dict[str, Figures]]]:
    """set -> file kind -> half ("A", "B", "both") -> figures."""
    table: dict[str, dict[str, dict[str, Figures]]] = {}
    for check in checks:
        kinds = table.setdefault(check.set, {})
        halves = kinds.setdefault(check.files, {h: Figures() for h in HALVES})
        halves[check.half].add(check)
        halves["both"].add(check)
    return table


def noise(checks: list[DayCheck]) -> dict[str, dict[str, dict[str, int]]]:
    """set -> file kind -> item shape -> right days showing it in "needs you" (most first)."""
    found: dict[str, dict[str, Counter]] = {}
    for check in checks:
        if check.wrong:
            continue
        shapes = {n.shape for n in check.asks_to_look}
        found.setdefault(check.set, {}).setdefault(check.files, Counter()).update(shapes)
    return {s: {k: dict(c.most_common()) for k, c in kinds.items()} for s, kinds in found.items()}


def pct(a: int, b: int) -> str:
    return f"{a}/{b} ({100 * a / b:.1f}%)" if b else "-"


def table_lines(table: dict, counts: dict[str, dict[str, VoteCounts]]) -> list[str]:
    head = (
        "| set | files | half | days decided right | hammer posts right | wrong days doubted "
        "| wrong, silent | wrong, refused | right days doubted | right days noted "
        "| right days: needs you |"
    )
    lines = [head, "|" + "---|" * head.count(" | ") + "---|"]
    for set_name, kinds in table.items():
        for kind, halves in kinds.items():
            lines += [figures_row(set_name, kind, half, f) for half, f in halves.items()]
    lines += ["", "right days whose needs-you shows each kind of item (a day may show several):"]
    for set_name, kinds in table.items():
        for kind, halves in kinds.items():
            by = halves["both"].right_needs_by
            shown = ", ".join(f"{k} {v}" for k, v in sorted(by.items())) or "none"
            lines.append(f"  {set_name} {kind}: {shown}")
    if counts:
        lines += [
            "",
            "moderators' mid-day counts matched exactly (moderator files, "
            "bench/accuracy.py's replay):",
        ]
        for set_name, halves in counts.items():
            lines.append(
                f"  {set_name}: "
                + "; ".join(
                    f"{h} {pct(c.exact, c.counts)}, pairs {pct(c.agreed, c.pairs)}"
                    for h, c in halves.items()
                )
            )
    return lines


def figures_row(set_name: str, kind: str, half: str, f: Figures) -> str:
    return (
        f"| {set_name} | {kind} | {half} | {pct(f.decided, f.days)} "
        f"| {pct(f.hammers_right, f.hammers)} | {pct(f.wrong_doubted, f.wrong)} "
        f"| {f.wrong_silent} | {f.wrong_failed} | {pct(f.right_doubted, f.right)} "
        f"| {pct(f.right_noted, f.right)} | {pct(f.right_needs, f.right)} |"
    )


def commit() -> str:
    """The last commit that changed the code measured (assistant/, parsers/); edited since?"""

    def git(*args: str) -> str:
        done = subprocess.run(["git", "-C", str(REPO_ROOT), *args], capture_output=True, text=True)
        return done.stdout.strip()

    code = git("log", "-1", "--format=%h", "--", "assistant", "parsers")
    dirty = git("status", "--porcelain", "--", "assistant", "parsers")
    return code + (" (with uncommitted changes)" if dirty else "")


def chosen_games(set_name: str, args: argparse.Namespace) -> list[corpus.CorpusGame]:
    games = list(corpus.load_games(SETS[set_name]))[: args.limit]
    if args.games:
        games = [g for g in games if str(g.number) in args.games or g.thread_id in args.games]
    if args.half:
        games = [g for g in games if half_of(g.number) == args.half]
    return games


@dataclass
class GameScore:
    """One game scored: its days, its moderators' counts (counts, exact, pairs, agreed), misses."""

    set: str
    game: int
    checks: list[DayCheck]
    counts: tuple[int, int, int, int] | None
    misses: list[str] | None


_FORUM: tuple[ThreadForum, LoopbackServer] | None = None  # this process's loopback forum


def open_forum() -> None:
    """One loopback forum for all the games this process scores (each worker has its own)."""
    global _FORUM
    forum = ThreadForum()
    _FORUM = (forum, LoopbackServer(forum.respond).__enter__())  # served until the process ends


def score_game(task: tuple[str, int, list[FileKind], bool, bool]) -> GameScore:
    set_name, number, kinds, want_misses, want_counts = task
    game = next(g for g in corpus.load_games(SETS[set_name]) if g.number == number)
    forum, server = _FORUM
    misses: list[str] | None = [] if want_misses else None
    checks = check_game(set_name, game, forum, server.base_url, kinds, misses)
    counts = compare_vote_counts(game)[:4] if want_counts else None
    corpus.load_posts.cache_clear()  # one game's posts at a time
    return GameScore(set_name, number, checks, counts, misses)


def score_all(tasks: list, jobs: int) -> Iterable[GameScore]:
    """Each game scored, in order; ``jobs`` > 1: in that many processes, forked before any forum."""
    if jobs <= 1:
        open_forum()
        yield from map(score_game, tasks)
        return
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(jobs, initializer=open_forum) as pool:
        yield from pool.imap(score_game, tasks)


def run(args: argparse.Namespace) -> dict:
    kinds = list(FileKind) if args.files == "both" else [FileKind(args.files)]
    checks: list[DayCheck] = []
    counts: dict[str, dict[str, VoteCounts]] = {}
    misses: list[str] | None = [] if args.misses else None
    started = time.perf_counter()
    tasks = [
        (set_name, game.number, kinds, args.misses, not args.no_vote_counts)
        for set_name in args.sets
        for game in chosen_games(set_name, args)
    ]
    for scored in score_all(tasks, args.jobs):
        checks += scored.checks
        if misses is not None:
            misses += scored.misses
        if scored.counts is not None:
            halves = counts.setdefault(scored.set, {h: VoteCounts() for h in HALVES})
            halves[half_of(scored.game)].add(scored.counts)
            halves["both"].add(scored.counts)
        took = time.perf_counter() - started
        print(f"  {scored.set} game {scored.game}: {took:.0f} s", file=sys.stderr)
    table = tally(checks)
    return {
        "commit": commit(),
        "seconds": round(time.perf_counter() - started),
        "figures": {
            s: {
                k: {h: {**asdict(f), "wrong_silent": f.wrong_silent} for h, f in halves.items()}
                for k, halves in kinds.items()
            }
            for s, kinds in table.items()
        },
        "noise": noise(checks),
        "vote_counts": {
            s: {h: asdict(c) for h, c in halves.items()} for s, halves in counts.items()
        },
        "days": [day_json(c) for c in checks],
        "_table": table,
        "_counts": counts,
        "_misses": misses,
    }


def day_json(check: DayCheck) -> dict:
    needs = [{"need": n.need, "kind": n.kind, "text": n.text} for n in check.needs]
    return {**asdict(check), "half": check.half, "wrong": check.wrong, "needs": needs}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog="examples:\n" + __doc__.rstrip().split("\n\n")[-1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--sets", nargs="+", choices=list(SETS), default=list(SETS))
    parser.add_argument(
        "--files",
        choices=[*(k.value for k in FileKind), "both"],
        default="both",
        help="the moderator's game file, Votal's own, or both (default)",
    )
    parser.add_argument("--limit", type=int, help="only the first N games of each set")
    parser.add_argument("--games", nargs="+", help="only these games (number or thread id)")
    parser.add_argument(
        "--half", choices=["A", "B"], help="only the games of one half (A: even numbers)"
    )
    parser.add_argument(
        "--misses",
        action="store_true",
        help="each wrong day: silent, doubted or refused; its doubts, odd votes",
    )
    parser.add_argument(
        "--no-vote-counts",
        action="store_true",
        help="skip the moderators' mid-day counts (bench/accuracy.py's replay)",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="score the games in this many processes (the machine's cores at most)",
    )
    parser.add_argument("--format", choices=["text", "json"], default="text")
    parser.add_argument(
        "--save", metavar="FILE", help="also write the JSON to FILE (one run, both forms)"
    )
    args = parser.parse_args(argv)
    result = run(args)
    table, counts, misses = result.pop("_table"), result.pop("_counts"), result.pop("_misses")
    if args.save:
        text = json.dumps(result, indent=1, ensure_ascii=False) + "\n"
        Path(args.save).write_text(text, encoding="utf-8")
    if args.format == "json":
        print(json.dumps(result, indent=1, ensure_ascii=False))
        return 0
    if misses is not None:
        print("\n".join(misses) or "no wrong days", end="\n\n")
    print(f"code at {result['commit']}, {result['seconds']} s; half A: even game numbers, B: odd")
    print("\n".join(table_lines(table, counts)))
    print("\nwhat the needs-you items on right days are (right days showing each):")
    for set_name, kinds in result["noise"].items():
        for kind, shapes in kinds.items():
            print(f"  {set_name} {kind}:")
            print("\n".join(f"    {n:>4}  {shape}" for shape, n in list(shapes.items())[:12]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
