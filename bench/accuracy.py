"""Vote-reading accuracy on the real MafiaScum games: a per-day table and every miss with the post
it misread.

No network and no database, but the users' path: each corpus post's body goes through
``extract_commands`` and becomes a ``ReadPost``, the moderators' posts their posted counts
(``read_vote_count``) and count headings, all held in one ``StoredGame`` (``StoredGame.of``, as a
command loads one from the store), and each scorable day is counted by ``count_stored``, the one
path `votal count` takes: seats the counts show held by unlisted accounts, spellings the counts
teach, doubts and the day-bounds doubt included.

Every development set is scored and their figures printed side by side:
``../shared/corpus/mafiascum`` (32 games), ``../shared/corpus/mafiascum-more`` (80 games) and
``../shared/corpus/mafiascum-calib`` (70 games, held out until issue 33). A change that raises one
and lowers another is fitted to the games, not to how players write. ``--set both`` is the first
two, as the README's older figures were measured.

    python bench/accuracy.py            # table, then each miss with the commands it may have misread
    python bench/accuracy.py --misses   # misses only (--brief: one line each)
    python bench/accuracy.py --misses --brief --vote-counts   # also the moderators' mid-day counts
    python bench/accuracy.py --set more --misses              # one set only
    python bench/accuracy.py --engines --games 6              # each engine's pages against phpBB's

``--engines`` renders each game through every engine's page markup (the test renderers in
``tests/forums``: phpBB, Discourse's JSON, XenForo, vBulletin, ProBoards), reads the pages back with
that engine's parser, and replays the days from the commands the parser read: each engine's decided
days are printed beside phpBB's, with every day an engine decides otherwise (the held-out measure
wants each within one day).
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO_ROOT), str(REPO_ROOT / "tests")]  # tests: the engines' page renderers

from assistant.counting.count import StoredGame, count_stored  # noqa: E402
from assistant.counting.day_bounds import count_headings  # noqa: E402
from assistant.counting.doubts import Doubt, doubts_only  # noqa: E402
from assistant.counting.votal import Votal  # noqa: E402
from assistant.counting.votecounts import our_votes, posted_votes, read_vote_count  # noqa: E402
from assistant.errors import GameFileError  # noqa: E402
from assistant.gamefile.game import Game, parse_game  # noqa: E402
from parsers.commands import ReadPost, extract_commands  # noqa: E402
from tests.corpus import (  # noqa: E402
    CALIB_CORPUS_DIR,
    CORPUS_DIR,
    MORE_CORPUS_DIR,
    CorpusGame,
    ExpectedDay,
    confirmed_accounts,
    expected_days,
    load_games,
    load_posts,
    post_time,
    render_game_file,
)

SETS = {"first": CORPUS_DIR, "more": MORE_CORPUS_DIR, "calib": CALIB_CORPUS_DIR}


@dataclass(frozen=True)
class DayScore:
    expected: ExpectedDay
    votal: Votal
    doubts: tuple[Doubt, ...] = ()

    @property
    def wrong(self) -> bool:
        """The lynch or the hammer post is wrong."""
        return not self.decided or self.hammer_right is False

    @property
    def doubted(self) -> bool:
        return bool(doubts_only(self.doubts))

    @property
    def got(self) -> str | None:
        outcome = self.votal.outcome
        return outcome.target if outcome and outcome.kind == "elimination" else None

    @property
    def decided(self) -> bool:
        outcome = self.votal.outcome
        if outcome is None or outcome.kind == "pending":
            return False
        return self.got == self.expected.eliminated

    @property
    def hammer(self) -> int | None:
        return self.votal.outcome.post if self.votal.outcome else None

    @property
    def hammer_right(self) -> bool | None:
        """None when the README says not to check the hammer of this day."""
        if not self.expected.check_hammer:
            return None
        return self.decided and self.expected.hammer_ok(self.hammer)


# Posts per page as each engine's renderer pages a thread (the contract test's sizes).
ENGINE_PAGE_SIZES = {"phpbb": 25, "discourse": 20, "xenforo": 20, "vbulletin": 10, "proboards": 20}


def read_posts(game: CorpusGame, engine: str | None = None) -> list[ReadPost]:
    """The game's posts and their commands: read from the archive's bodies, or, with ``engine``,
    from the thread rendered in that engine's markup and read back by its parser."""
    if engine is not None:
        return read_through(game, engine)
    return [
        ReadPost(
            number=p["number"],
            post_id=str(p["id"]),
            author=p["user"],
            time=None,
            url=p.get("page", ""),
            commands=tuple(extract_commands(p["content"])),
            author_id=p.get("user_id"),
        )
        for p in load_posts(game.thread_id, game.corpus_dir)
    ]


def read_through(game: CorpusGame, engine: str) -> list[ReadPost]:
    """The thread rendered as ``engine``'s pages, walked page by page like a sync, read by its
    parser.

    ProBoards prints no post numbers and counts from 1: its numbers are shifted back to the
    archive's.
    """
    from forums import page_key

    from parsers.detect import get_parser

    base = "http://127.0.0.1:8765"
    raw = load_posts(game.thread_id, game.corpus_dir)
    renderer = importlib.import_module(f"forums.{engine}")
    per_page = ENGINE_PAGE_SIZES[engine]
    pages = renderer.render_thread(
        [{**p, "time": post_time(p)} for p in raw],
        base_url=base,
        per_page=per_page,
        topic_id=game.thread_id,
    )
    table = {page_key(k): v for k, v in pages.items()}
    parser = get_parser(engine)
    shift = 1 if engine == "proboards" else 0
    url, read, seen = (
        parser.page_url(renderer.thread_url(base, topic_id=game.thread_id), per_page=per_page),
        {},
        0,
    )
    while url and seen <= len(table):
        page = parser.parse_page(table[page_key(url[len(base) :])], url=url, per_page=per_page)
        for post in page.posts:
            read.setdefault(post.post_id, post)
        url, seen = page.next_url, seen + 1
    return [
        ReadPost(
            number=p.number - shift,
            post_id=p.post_id,
            author=p.author,
            time=None,
            url=p.url,
            commands=tuple(p.commands if p.commands is not None else extract_commands(p.body_html)),
            author_id=p.author_id,
        )
        for p in read.values()
    ]


def game_file(game: CorpusGame, posts: list[ReadPost], *, confirm: bool = True) -> Game:
    """The game file from the archive, with the accounts Votal reports as a seat's added, as the
    moderator confirms them (the archive names some accounts otherwise than the forum shows them);
    ``confirm=False``: straight from the archive, as a held-out game's file may come."""
    text = moderator_file_text(game, [(p.author, p.author_id) for p in posts], confirm=confirm)
    return parse_game(text, path=f"corpus-{game.number}.toml")


def moderator_file_text(
    game: CorpusGame,
    authors: list[tuple[str, str | None]],
    *,
    confirm: bool = True,
    thread_url: str | None = None,
) -> str:
    """The text of the game file a moderator keeps: the archive's, with the accounts Votal reports
    as a seat's added (``authors``: (name, user id) per post); ``thread_url``: where the thread is
    served."""
    confirmed = confirmed_accounts(render_game_file(game), authors) if confirm else {}
    return render_game_file(game, thread_url=thread_url, confirmed=confirmed)


def score_game(
    game: CorpusGame, engine: str | None = None, *, confirm: bool = True
) -> list[DayScore]:
    days = expected_days(game)
    if not days:
        return []
    posts = read_posts(game, engine)
    parsed = game_file(game, posts, confirm=confirm)
    # each day's closing moderator posts keep no count, as the held-out measure withholds them:
    # the hammer must be found without them
    closing = {n for day in days for n in range(day.twilight_post, day.end_post + 1)}
    stored = stored_game(game, parsed, posts, withheld=closing)
    votals = count_stored(parsed, stored, days=[day.day for day in days])
    return [DayScore(day, votal, votal.doubts) for day, votal in zip(days, votals, strict=True)]


def stored_game(
    game: CorpusGame, parsed: Game, posts: list[ReadPost], *, withheld: set[int] = frozenset()
) -> StoredGame:
    """The thread as a command reads it from the store: the posts, the counts in the moderators'
    posts (but those ``withheld``) and the day each moderator's post heads a count for."""
    moderators = {m.casefold() for m in parsed.moderators}
    bodies = {
        p["number"]: p["content"]
        for p in load_posts(game.thread_id, game.corpus_dir)
        if p["user"].casefold() in moderators
    }
    counts = {
        n: count
        for n, body in bodies.items()
        if n not in withheld and (count := read_vote_count(body, post=n)) is not None
    }
    return StoredGame.of(parsed, posts, counts=counts, headings=count_headings(bodies))


def score_corpus(
    corpus_dir: Path = CORPUS_DIR,
    *,
    games: int | None = None,
    engine: str | None = None,
    confirm: bool = True,
) -> list[DayScore]:
    scores = []
    for game in load_games(corpus_dir)[:games]:
        try:
            scores += score_game(game, engine, confirm=confirm)
        except (
            GameFileError
        ) as error:  # an archive no game file can say (one account in two seats at once)
            print(f"game {game.number} not scored: {error}")
    return scores


def half_of(game: int) -> str:
    """The split-half rule: a game's half by the parity of its number (fixed before looking at any
    day)."""
    return "A" if game % 2 == 0 else "B"


def calibration(scores: list[DayScore]) -> dict[str, tuple[int, int, int, int]]:
    """Per half (and both): (wrong and doubted, wrong and silent, right and doubted, right and
    silent)."""
    return calibration_of([(s.expected.game, s.wrong, s.doubted) for s in scores])


def calibration_of(days: list[tuple[int, bool, bool]]) -> dict[str, tuple[int, int, int, int]]:
    """:func:`calibration` from (game number, wrong, doubted) per day (the game state bench's days
    too)."""
    table = {}
    for half in ("A", "B", "both"):
        chosen = [
            (wrong, doubted)
            for game, wrong, doubted in days
            if half == "both" or half_of(game) == half
        ]
        table[half] = (
            sum(w and d for w, d in chosen),
            sum(w and not d for w, d in chosen),
            sum(not w and d for w, d in chosen),
            sum(not w and not d for w, d in chosen),
        )
    return table


def show_calibration(table: dict[str, tuple[int, int, int, int]]) -> list[str]:
    lines = []
    for half, (wd, ws, rd, rs) in table.items():
        caught = f"{100 * wd / (wd + ws):.0f}%" if wd + ws else "-"
        noisy = f"{100 * rd / (rd + rs):.1f}%" if rd + rs else "-"
        lines.append(
            f"  half {half:<4} wrong&doubted {wd:>3}  wrong&silent {ws:>3}  right&doubted {rd:>3}  "
            f"right&silent {rs:>4}   (wrong days doubted {caught}, right days doubted {noisy})"
        )
    return lines


def compare_engines(corpus_dir: Path, games: int | None) -> list[str]:
    """Each engine's days against the archive's reading (what phpBB must match): one line per
    engine, then every day an engine decides otherwise."""
    from parsers.detect import ENGINES

    def key(s: DayScore):
        o = s.votal.outcome
        return (o.kind, o.target, o.post) if o else None

    base = score_corpus(corpus_dir, games=games)
    lines = [f"{'archive':<10} {sum(s.decided for s in base)}/{len(base)} days decided right"]
    for engine in ENGINES:
        scores = score_corpus(corpus_dir, games=games, engine=engine)
        differ = [(b, s) for b, s in zip(base, scores, strict=True) if key(b) != key(s)]
        lines.append(
            f"{engine:<10} {sum(s.decided for s in scores)}/{len(scores)} days decided right; "
            f"{len(differ)} day(s) read otherwise than from the archive"
        )
        lines += [
            f"    game {b.expected.game} day {b.expected.day}: archive {key(b)}, {engine} {key(s)}"
            for b, s in differ
        ]
    return lines


def describe_miss(score: DayScore) -> list[str]:
    """The outcome, the expected result, and the commands of the day that did not read cleanly."""
    e, v = score.expected, score.votal
    outcome = v.outcome
    got = (
        f"{outcome.kind} {outcome.target or ''} at post {outcome.post} ({outcome.reason})"
        if outcome
        else "none"
    )
    lines = [
        f"MISS game {e.game} (t={e.thread_id}) day {e.day}: expected {e.eliminated or 'no lynch'}"
        f" before post {e.twilight_post}; got {got}"
    ]
    final = ", ".join(f"{w.target} {w.votes:g} ({', '.join(w.voters)})" for w in v.wagons[:3])
    lines.append(f"    wagons at the end: {final or 'none'}; majority {v.majority} of {v.alive}")
    for action in v.actions:
        if action.why_not in ("moderator's post", "the day had already ended"):
            continue
        if not action.counted or action.step not in (None, "exact", "folded", "account"):
            status = "counted" if action.counted else f"NOT counted ({action.why_not})"
            target = action.target or ("no elimination" if action.no_elimination else "-")
            lines.append(
                f"    post {action.post:>5} {action.author:<20} {action.text!r:<40} -> {target} "
                f"[{action.step}] {status}"
            )
    return lines


def compare_vote_counts(game: CorpusGame) -> tuple[int, int, int, int, list[str]]:
    """Each vote count the moderator posted during a scorable day, against Votal's count as of the
    post before it (moderators lag and slip too), with what the counts before it taught: (counts,
    counts matched exactly, voter->target pairs, pairs matched, disagreements)."""
    days = expected_days(game)
    if not days:
        return 0, 0, 0, 0, []
    posts = read_posts(game)
    parsed = game_file(game, posts)
    stored = stored_game(game, parsed, posts)
    counts = exact = pairs = agreed = 0
    disagreements: list[str] = []
    for day in days:
        for number, count in sorted(stored.counts.items()):
            if not day.start_post < number < day.twilight_post:
                continue
            (votal,) = count_stored(parsed, stored, days=[day.day], at_post=number - 1)
            # the roster the count read with
            roster = stored.holding(parsed, at_post=number - 1)[1].roster
            placed = posted_votes(count, roster, votal.living)
            if not placed:
                continue
            ours = our_votes(votal)
            wrong = {v: (t, ours.get(v)) for v, t in placed.items() if ours.get(v) != t}
            extra = {v for v in ours if v not in placed and v not in count.not_voting}
            counts += 1
            exact += not wrong and not extra
            pairs += len(placed)
            agreed += len(placed) - len(wrong)
            disagreements.extend(
                f"game {game.number} day {day.day} post {number}: {voter} moderator {posted}, "
                f"ours {mine}"
                for voter, (posted, mine) in sorted(wrong.items())
            )
    return counts, exact, pairs, agreed, disagreements


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="print only the misses")
    parser.add_argument(
        "--brief", action="store_true", help="one line per miss, without its doubtful commands"
    )
    parser.add_argument(
        "--vote-counts",
        action="store_true",
        help="also hold the moderators' own mid-day vote counts against ours",
    )
    parser.add_argument(
        "--set",
        choices=[*SETS, "both", "all"],
        default="all",
        help="which development set(s); both: first and more",
    )
    parser.add_argument(
        "--engines",
        action="store_true",
        help="render the games through every engine's pages and compare the days",
    )
    parser.add_argument(
        "--games", type=int, default=None, help="only the first N games of each set"
    )
    parser.add_argument(
        "--raw",
        action="store_true",
        help="game files straight from the archive, without the accounts a moderator would confirm",
    )
    parser.add_argument(
        "--doubts",
        action="store_true",
        help="each day's doubts: wrong days without one, right days with one (calibration is always printed)",
    )
    args = parser.parse_args(argv)
    names = {"all": list(SETS), "both": ["first", "more"]}.get(args.set, [args.set])
    if args.engines:
        for name in names:
            print(f"== {name}: {SETS[name]} (engines)")
            print("\n".join(compare_engines(SETS[name], args.games)), end="\n\n")
        return 0
    summary: list[tuple[str, str, str, str]] = []
    calibrated: list[tuple[str, dict]] = []
    for name in names:
        started = time.perf_counter()
        scores = score_corpus(SETS[name], games=args.games, confirm=not args.raw)
        elapsed = time.perf_counter() - started
        print(f"== {name}: {SETS[name]}")
        if not args.misses:
            print(
                f"{'game':>5} {'day':>3} {'expected':<22} {'got':<22} {'post':>6} {'twilight':>8}  result"
            )
            for s in scores:
                e = s.expected
                mark = "ok" if s.decided else "WRONG"
                if s.hammer_right is False and s.decided:
                    mark = "hammer?"
                print(
                    f"{e.game:>5} {e.day:>3} {(e.eliminated or 'no lynch')[:22]:<22} {(s.got or '-')[:22]:<22} "
                    f"{s.hammer if s.hammer is not None else '-':>6} {e.twilight_post:>8}  {mark}"
                )
        print()
        for s in scores:
            if not s.decided or s.hammer_right is False:
                lines = describe_miss(s)
                print("\n".join(lines[:1] if args.brief else lines))
                print(
                    "\n".join(f"    doubt: {d.kind} {d.describe()}" for d in doubts_only(s.doubts))
                    or "    SILENT: no doubt"
                )
        if args.doubts:
            for s in scores:
                if not s.wrong and s.doubted:
                    e = s.expected
                    print(f"RIGHT BUT DOUBTED game {e.game} day {e.day} (half {half_of(e.game)}):")
                    print(
                        "\n".join(
                            f"    doubt: {d.kind} {d.describe()}" for d in doubts_only(s.doubts)
                        )
                    )
        calibrated.append((name, calibration(scores)))
        decided = sum(s.decided for s in scores)
        # days no vote decided: the deadline passed without a majority and the game file's recorded
        # death, the seat with the most votes, settled it (the game's own deadline rule, as the
        # moderator ruled it)
        ruled = sum(s.decided and s.votal.outcome.reason == "plurality" for s in scores)
        checked = [s for s in scores if s.hammer_right is not None]
        hammers = sum(bool(s.hammer_right) for s in checked)
        counts = ""
        if args.vote_counts:
            totals = [0, 0, 0, 0]
            for game in load_games(SETS[name])[: args.games]:
                *numbers, found = compare_vote_counts(game)
                totals = [a + b for a, b in zip(totals, numbers, strict=True)]
                if not args.brief:
                    print("\n".join(found))
            n, exact, pairs, agreed = totals
            counts = (
                f"{exact}/{n} ({100 * exact / max(n, 1):.1f}%) exactly; "
                f"pairs {agreed}/{pairs} ({100 * agreed / max(pairs, 1):.1f}%)"
            )
        summary.append(
            (
                name,
                f"{decided}/{len(scores)} ({100 * decided / max(len(scores), 1):.1f}%), {ruled} ruled",
                f"{hammers}/{len(checked)} ({100 * hammers / max(len(checked), 1):.1f}%)",
                counts,
            )
        )
        print(f"({elapsed:.1f} s)\n")
    print(
        f"{'set':<6} {'days decided correctly':<32} {'hammer post correct':<22} moderators' mid-day counts matched"
    )
    for name, days, hammers, counts in summary:
        print(f"{name:<6} {days:<32} {hammers:<22} {counts or '-'}")
    print(
        "(ruled: no majority at the deadline; the game file's recorded death, the most voted seat, decided it)"
    )
    print(
        "\ndoubts (a day is wrong when its lynch or its hammer post is; half A: even game numbers, B: odd)"
    )
    for name, table in calibrated:
        print(f"{name}{' (archive game files, unconfirmed accounts)' if args.raw else ''}")
        print("\n".join(show_calibration(table)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
