"""Seats from real openings (issue 24): each corpus game's thread as it stood at its start, its
seats missed and why.

Each game's thread is ``tests/gamestart.start_thread``: the moderators' posts with the end-of-game
marks taken out and the real posts up to the one where a third of the seats have posted (what
``tests/test_gamestart.py::test_real_openings_at_the_games_start_keep_their_seats`` reads). The
reader (``read_thread_facts``, moderators and players from the thread) gives the seats; each archive
seat it misses is put in one class:

- ``lost``: none of the seat's accounts is in a moderator post of that thread (any spelling: case,
  spaces and punctuation aside), so no reader can find it at the game's start (``lost-later`` when a
  moderator post after the window but before day 1 ends names it: ``votal update`` may still find
  it);
- ``not taken``: an account of the seat is in a moderator post's text there, but no seat read has it
  (a reader miss);
- ``spelled otherwise``: a seat read is the archive's account spelled otherwise (squashed, or close
  enough that a moderator slip is likely), which the scoring does not match.

The ceiling is the seats a reader could find (all but ``lost``); the reader's share is of that
ceiling. ``invented`` counts seats read that are no archive seat (precision). Halves: A is the games
with even thread ids, B the odd ones (choose on one, report the other).

"Never silently": a game ``says`` something when the reader's problems carry a word on the players
("check [[players]]", "no player list found"), which ``votal new`` prints. A game has a ``miss``
when a seat is lost or not taken, or a seat read is no archive seat and no spelling of one;
``silent`` counts the games with a miss that say nothing, ``false word`` the games with every seat
read right (no miss, no spelling) that say something.

    python bench/openings.py                          # both sets: a table per set, then each game's misses
    python bench/openings.py --half A --sets mafiascum
    python bench/openings.py --format json
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import unicodedata
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO_ROOT), str(REPO_ROOT / "tests")]

import corpus  # noqa: E402
import gamestart  # noqa: E402

from assistant.reading.announcements import read_thread_facts  # noqa: E402
from assistant.reading.announcements.text import plain_text, read_lines  # noqa: E402

SETS = {"mafiascum": corpus.CORPUS_DIR, "mafiascum-more": corpus.MORE_CORPUS_DIR}
CLASSES = ("lost", "lost-later", "not taken", "spelled otherwise")


@dataclass
class GameReport:
    number: int
    thread_id: str
    seats: int
    found: int
    invented: list[str] = field(default_factory=list)
    misses: list[tuple[str, str, str]] = field(
        default_factory=list
    )  # (class, seat, where / what was read)
    problems: list[str] = field(default_factory=list)

    @property
    def says(self) -> bool:
        """A word on the players that ``votal new`` prints."""
        return any("check [[players]]" in p or "no player list found" in p for p in self.problems)

    @property
    def spelled(self) -> list[str]:
        return [what.split("'")[1] for kind, _, what in self.misses if kind == "spelled otherwise"]

    @property
    def missed(self) -> bool:
        """A seat lost or not taken, or a seat read that is no archive seat and no spelling of
        one."""
        return any(kind != "spelled otherwise" for kind, _, _ in self.misses) or bool(
            set(self.invented) - set(self.spelled)
        )


def _unaccented(text: str) -> str:
    return "".join(
        c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)
    ).casefold()


def _squash(text: str) -> str:
    return re.sub(r"[\W_]+", "", _unaccented(text))


def _words(text: str) -> str:
    """The text as squashed words, spaced: "Mr. Sprinkles_2" -> " mr sprinkles 2 ", "Söze" -> " soze
    "."""
    return " " + " ".join(re.sub(r"[\W_]+", " ", _unaccented(text)).split()) + " "


def _in_text(account: str, text: str) -> bool:
    spaced = _words(account).strip()
    return bool(spaced) and (f" {spaced} " in text or f" {_squash(account)} " in text)


def _close(a: str, b: str) -> bool:
    """Two names a moderator's slip or the forum's spelling keeps apart: the same squashed, one the
    other's stem (digits or a few letters added), or one edit apart."""
    from rapidfuzz.distance import OSA

    x, y = _squash(a), _squash(b)
    if not x or not y:
        return False
    short, long_ = sorted((x, y), key=len)
    return (
        x == y
        or (len(short) >= 4 and long_.startswith(short))
        or (min(len(x), len(y)) >= 5 and OSA.distance(x, y) <= 1)
    )


def _day_one_end(game: corpus.CorpusGame) -> int:
    return game.day_ends[0] if game.day_ends else 10**9


def report_game(game: corpus.CorpusGame, share: float = 1 / 3) -> GameReport:
    thread = gamestart.start_thread(game, share)
    facts = read_thread_facts(thread)
    read = [(p.name, *p.replacements) for p in facts.players]
    got = {a.casefold() for accounts in read for a in accounts}
    accounts = {a.casefold() for s in game.seats for a in s.accounts}
    mods = {m.casefold() for m in game.moderators} | {thread[0].author.casefold()}
    window = {p.number for p in thread}
    texts = [
        _words(" ".join(plain_text(line) for line in read_lines(p.body_html)))
        for p in thread
        if p.author.casefold() in mods
    ]
    seats = [s.accounts for s in game.seats]
    later = [
        _words(
            " ".join(
                plain_text(line)
                for line in read_lines(gamestart.opening_at_start(p["content"], seats))
            )
        )
        for p in corpus.load_posts(game.thread_id, game.corpus_dir)
        if p["user"].casefold() in mods
        and p["number"] not in window
        and p["number"] < _day_one_end(game)
    ]
    report = GameReport(
        game.number, game.thread_id, len(game.seats), 0, problems=list(facts.problems)
    )
    report.invented = [accs[0] for accs in read if not {a.casefold() for a in accs} & accounts]
    for seat in game.seats:
        if got & {a.casefold() for a in seat.accounts}:
            report.found += 1
            continue
        other = next(
            (
                a
                for accs in read
                for a in accs
                if a.casefold() not in accounts and any(_close(a, b) for b in seat.accounts)
            ),
            None,
        )
        if other is not None:
            report.misses.append(("spelled otherwise", seat.name, f"read as {other!r}"))
        elif any(_in_text(a, t) for a in seat.accounts for t in texts):
            report.misses.append(("not taken", seat.name, "in a moderator post at the start"))
        elif any(_in_text(a, t) for a in seat.accounts for t in later):
            report.misses.append(
                (
                    "lost-later",
                    seat.name,
                    "named by a moderator after the window, before day 1 ends",
                )
            )
        else:
            report.misses.append(("lost", seat.name, "in no moderator post before day 1 ends"))
    return report


def in_half(game: corpus.CorpusGame, half: str) -> bool:
    return half == "all" or (int(game.thread_id) % 2 == 0) == (half == "A")


def summary(reports: list[GameReport]) -> dict:
    seats = sum(r.seats for r in reports)
    found = sum(r.found for r in reports)
    kinds = {k: sum(1 for r in reports for m in r.misses if m[0] == k) for k in CLASSES}
    ceiling = seats - kinds["lost"] - kinds["lost-later"]
    missed = [r for r in reports if r.missed]
    right = [r for r in reports if not r.missed and not r.spelled]
    return {
        "games": len(reports),
        "seats": seats,
        "found": found,
        "ceiling": ceiling,
        "invented": sum(len(r.invented) for r in reports),
        "misses": kinds,
        "found_share": round(found / seats, 4) if seats else None,
        "of_ceiling": round(found / ceiling, 4) if ceiling else None,
        "games_missed": len(missed),
        "silent": sorted(r.number for r in missed if not r.says),
        "games_right": len(right),
        "false_word": sorted(r.number for r in right if r.says),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="example: python bench/openings.py --half A --sets mafiascum",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=list(SETS))
    parser.add_argument(
        "--half",
        default="all",
        choices=["A", "B", "all"],
        help="A: even thread ids, B: odd ones (default: all)",
    )
    parser.add_argument(
        "--share", type=float, default=1 / 3, help="share of the seats posted (default 1/3)"
    )
    parser.add_argument("--format", default="text", choices=["text", "json"])
    args = parser.parse_args(argv)
    out: dict[str, dict] = {}
    for name in args.sets:
        if not SETS[name].is_dir():
            print(f"{SETS[name]} not found", file=sys.stderr)
            return 2
        reports = [
            report_game(g, args.share)
            for g in corpus.load_games(SETS[name])
            if in_half(g, args.half)
        ]
        out[name] = {
            "summary": summary(reports),
            "games": [{**asdict(r), "says": r.says, "missed": r.missed} for r in reports],
        }
    if args.format == "json":
        print(json.dumps(out, indent=1))
        return 0
    if (
        len(out) > 1
    ):  # the sets together (mafiascum's thread ids are all odd: its games are all in half B)
        keys = {f.name for f in fields(GameReport)}
        every = [
            GameReport(**{k: v for k, v in g.items() if k in keys})
            for data in out.values()
            for g in data["games"]
        ]
        out_all = {"summary": summary(every), "games": []}
    for name, data in [*out.items(), *((("both sets", out_all),) if len(out) > 1 else ())]:
        s = data["summary"]
        print(f"## {name} (half {args.half}): {s['games']} games")
        if not s["seats"]:
            print()
            continue
        print(
            f"seats found {s['found']}/{s['seats']} ({100 * s['found'] / s['seats']:.1f}%); ceiling "
            f"{s['ceiling']}; of the ceiling {s['found']}/{s['ceiling']} ({100 * s['found'] / s['ceiling']:.1f}%); "
            f"invented {s['invented']}"
        )
        print("misses: " + ", ".join(f"{k} {v}" for k, v in s["misses"].items()))
        print(
            f"games with a miss that say nothing: {len(s['silent'])}/{s['games_missed']} {s['silent']}; "
            f"games read right that say something: {len(s['false_word'])}/{s['games_right']} {s['false_word']}"
        )
        for r in data["games"]:
            words = [
                p for p in r["problems"] if "check [[players]]" in p or "no player list found" in p
            ]
            if not r["misses"] and not r["invented"] and not words:
                continue
            print(
                f"- game {r['number']} (t={r['thread_id']}): {r['found']}/{r['seats']}"
                + (f"; invented {', '.join(r['invented'])}" if r["invented"] else "")
            )
            for kind, seat, what in r["misses"]:
                print(f"    {kind}: {seat} ({what})")
            for word in words:
                print(f"    says: {word[:200]}")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
