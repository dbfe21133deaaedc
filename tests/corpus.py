"""Test support: the real MafiaScum games in ../shared/corpus/mafiascum as game files and expected
results.

Reads the corpus (archive.txt, transitions.tsv, posts/*.jsonl.gz) and builds, for each game, the
text of a Votal game file (players with replacements, days, deaths, moderators) and the expected
result of every scorable day, following the scoring rules in the corpus README. Nothing here is
shipped in the package.
"""

from __future__ import annotations

import gzip
import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
CORPUS_DIR = REPO_ROOT.parent / "shared" / "corpus" / "mafiascum"
# A second, larger development set in the same layout: a reading rule must help on both.
MORE_CORPUS_DIR = REPO_ROOT.parent / "shared" / "corpus" / "mafiascum-more"
# A third set, held out until issue 33: for calibrating doubts (its first score is the honest
# "before").
CALIB_CORPUS_DIR = REPO_ROOT.parent / "shared" / "corpus" / "mafiascum-calib"

_FATE = re.compile(
    r"^(lynched|killed|shot|modkilled|endgamed|survived)(?:\s+(day|night)\s+(\d+))?", re.IGNORECASE
)
_DAY_NOTE = re.compile(r"^D(\d+)\s+(.*)$", re.IGNORECASE)
_KILLED_ON_POST = re.compile(r"^(.+?) killed on post (\d+)$", re.IGNORECASE)
_RESET_ON_POST = re.compile(r"^votecount reset on post (\d+)$", re.IGNORECASE)
_DOUBLE_VOTER = re.compile(r"double[\s-]?voter", re.IGNORECASE)  # "Double Voter", "Doublevoter"


@dataclass(frozen=True)
class CorpusSeat:
    accounts: tuple[str, ...]  # first account first (the archive lists the latest first)
    role: str
    fate: str  # lynched, killed, modkilled, endgamed, survived
    fate_phase: str | None  # "day" or "night"
    fate_number: int | None
    killed_on_post: int | None = None

    @property
    def name(self) -> str:
        return self.accounts[0]

    @property
    def vote_weight(self) -> int:
        return 2 if _DOUBLE_VOTER.search(self.role) else 1

    def alive_on_day(self, day: int) -> bool:
        """Alive at the start of ``day`` (README: fate later than the day's start)."""
        if self.fate in ("survived", "endgamed") or self.fate_number is None:
            return True
        if self.fate_phase == "night":
            return self.fate_number >= day
        return self.fate_number >= day


@dataclass(frozen=True)
class CorpusGame:
    number: int
    thread_id: str
    url: str
    title: str
    moderators: tuple[str, ...]
    notes: tuple[str, ...]
    seats: tuple[CorpusSeat, ...]
    day_ends: tuple[int, ...]  # post that ended day 1, day 2, ...
    no_lynch_days: frozenset[int] = frozenset()
    long_twilight_days: frozenset[int] = frozenset()
    no_majority_days: frozenset[int] = frozenset()
    late_hammer_days: frozenset[int] = frozenset()
    special_days: frozenset[int] = frozenset()  # "D4;": a day with a rule beyond plain majority
    resets: tuple[int, ...] = ()
    one_less_for_no_lynch: bool = False
    corpus_dir: Path = CORPUS_DIR

    @property
    def needs_other_rules(self) -> bool:
        """README: "one less for no lynch" and "votecount reset" games need rules beyond plain
        majority."""
        return self.one_less_for_no_lynch or bool(self.resets)

    def seat_of_account(self, account: str) -> CorpusSeat | None:
        folded = account.casefold()
        return next((s for s in self.seats if folded in (a.casefold() for a in s.accounts)), None)


@dataclass(frozen=True)
class ExpectedDay:
    game: int
    thread_id: str
    day: int
    start_post: int
    end_post: int
    alive: tuple[str, ...]  # seat names
    majority: int
    eliminated: str | None  # seat name, None for no lynch
    check_hammer: bool
    twilight_post: int  # first post of the moderator-only run that ends the day
    mod_posts: tuple[int, ...] = field(
        default=()
    )  # moderator posts within the day, before the twilight

    def hammer_ok(self, post: int | None) -> bool:
        """The hammer lies before the moderator's closing run, with no moderator post in between."""
        if post is None or not (self.start_post <= post < self.twilight_post):
            return False
        return not any(post < m < self.twilight_post for m in self.mod_posts)


def parse_archive(text: str) -> list[tuple[str, list[str]]]:
    blocks: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        line = line.rstrip()
        if line.startswith("http"):
            blocks.append((line, []))
        elif line and blocks:
            blocks[-1][1].append(line)
    return blocks


def _parse_seat(line: str) -> CorpusSeat:
    parts = [p.strip() for p in line.split(",")]
    accounts = tuple(reversed([a.strip() for a in parts[0].split(" replaced ")]))
    fate = _FATE.match(parts[-1])
    if not fate:
        raise ValueError(f"unreadable fate in {line!r}")
    kind, phase, number = fate.group(1).lower(), fate.group(2), fate.group(3)
    kind = "killed" if kind == "shot" else kind  # "shot day 1": a day kill (mafiascum-calib)
    return CorpusSeat(
        accounts,
        ", ".join(parts[1:-1]),
        kind,
        phase.lower() if phase else None,
        int(number) if number else None,
    )


def _game_number(title: str) -> int:
    found = re.search(r"(?:Game|Mini(?: Normal)?)\s+(\d+)", title) or re.search(
        r"\b(\d{2,5})\b", title
    )
    if not found:
        raise ValueError(f"no game number in {title!r}")
    return int(found.group(1))


def _read_transitions(corpus_dir: Path) -> dict[int, tuple[int, ...]]:
    ends: dict[int, tuple[int, ...]] = {}
    for line in (corpus_dir / "transitions.tsv").read_text(encoding="utf-8").splitlines()[2:]:
        cells = [c.strip() for c in line.split("\t")]
        if not cells or not cells[0].isdigit():
            continue
        posts = []
        for cell in cells[1:]:
            if not cell.isdigit():
                break
            posts.append(int(cell))
        ends[int(cells[0])] = tuple(posts)
    return ends


@cache
def load_games(corpus_dir: Path = CORPUS_DIR) -> tuple[CorpusGame, ...]:
    transitions = _read_transitions(corpus_dir)
    games = []
    for url, lines in parse_archive((corpus_dir / "archive.txt").read_text(encoding="utf-8")):
        title = lines[0]
        number = _game_number(title)
        moderators: tuple[str, ...] = ()
        notes: list[str] = []
        seats: list[CorpusSeat] = []
        in_players = False
        for line in lines[1:]:
            if line.startswith("Moderator:"):
                moderators = tuple(m.strip() for m in line.split(":", 1)[1].split(",") if m.strip())
            elif line.startswith("Notes:"):
                notes = [n.strip() for n in line.split(":", 1)[1].split(";") if n.strip()]
            elif line.strip() == "Players":
                in_players = True
            elif in_players:
                seats.append(_parse_seat(line))
        kinds: dict[str, set[int]] = {
            "no lynch": set(),
            "long twilight": set(),
            "no majority": set(),
            "hammer after deadline": set(),
            "": set(),
        }
        resets = []
        one_less = False
        bare_day = None  # a bare "D4" note introduces the note after it
        for note in notes:
            if re.fullmatch(r"D\d+", note):
                bare_day = int(note[1:])
                continue
            about, bare_day = bare_day, None
            killed = _KILLED_ON_POST.match(note)
            reset = _RESET_ON_POST.match(note)
            day_note = _DAY_NOTE.match(note + " ")
            if killed:
                name, post = killed.group(1), int(killed.group(2))
                seats = [
                    CorpusSeat(s.accounts, s.role, s.fate, s.fate_phase, s.fate_number, post)
                    if name.casefold() in (a.casefold() for a in s.accounts)
                    else s
                    for s in seats
                ]
            elif reset:
                resets.append(int(reset.group(1)))
            elif note.lower() == "one less for no lynch":
                one_less = True
            elif day_note:
                what = day_note.group(2).strip().lower()
                for kind in kinds:
                    if kind and what.startswith(kind):
                        kinds[kind].add(int(day_note.group(1)))
                        break
                else:
                    kinds[""].add(int(day_note.group(1)))
            elif about is not None and "rule" in note.lower():
                kinds[""].add(about)  # e.g. "D4; (6 + 0) / 2 = 3 rule for hammers"
        thread_id = re.search(r"[?&]t=(\d+)", url).group(1)
        games.append(
            CorpusGame(
                number,
                thread_id,
                url,
                title,
                moderators,
                tuple(notes),
                tuple(seats),
                transitions.get(number, ()),
                frozenset(kinds["no lynch"]),
                frozenset(kinds["long twilight"]),
                frozenset(kinds["no majority"]),
                frozenset(kinds["hammer after deadline"]),
                frozenset(kinds[""]),
                tuple(resets),
                one_less,
                corpus_dir,
            )
        )
    return tuple(games)


@cache
def load_posts(thread_id: str, corpus_dir: Path = CORPUS_DIR) -> tuple[dict, ...]:
    path = corpus_dir / "posts" / f"{thread_id}.jsonl.gz"
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    if lines and not lines[-1].endswith("}"):
        lines.pop()  # the scrape cut the last post short (one mafiascum-calib thread): it was never stored
    return tuple(json.loads(line) for line in lines)


def post_time(post: dict) -> datetime:
    """The post's time as MafiaScum showed it ("Mon Dec 06, 2010 4:04 pm"), taken as UTC."""
    return datetime.strptime(post["time"], "%a %b %d, %Y %I:%M %p").replace(tzinfo=UTC)


def _toml_str(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def render_game_file(
    game: CorpusGame,
    *,
    thread_url: str | None = None,
    ruleset: str = "mafiascum",
    posts_per_page: int | None = None,
    confirmed: dict[str, list[str]] | None = None,
) -> str:
    """The game file a moderator would write for this game; ``confirmed``: accounts the moderator
    added to a seat (by its first name) after Votal reported them."""
    lines = [
        f"title = {_toml_str(game.title)}",
        f"thread = {_toml_str(thread_url or game.url)}",
        'forum = "phpbb"',
        f"ruleset = {_toml_str(ruleset)}",
        f"moderators = [{', '.join(_toml_str(m) for m in game.moderators)}]",
        "",
        "[fetch]",
        "min_interval = 0",
    ]
    if posts_per_page:
        lines.append(f"posts_per_page = {posts_per_page}")
    seen: set[str] = set()  # accounts of the seats written so far
    for seat in game.seats:
        lines += ["", "[[players]]", f"name = {_toml_str(seat.name)}"]
        later = [*seat.accounts[1:], *(confirmed or {}).get(seat.name, [])]
        if later:
            entries = [
                _replacement(game, seat, a) if a.casefold() in seen else _toml_str(a) for a in later
            ]
            lines.append(f"replacements = [{', '.join(entries)}]")
        seen.update(a.casefold() for a in seat.accounts)
        if seat.vote_weight != 1:
            lines.append(f"vote_weight = {seat.vote_weight}")
    start = 0
    for day, end in enumerate(game.day_ends, start=1):
        lines += ["", "[[days]]", f"day = {day}", f"start_post = {start}", f"end_post = {end}"]
        start = end
    lines += ["", "[[days]]", f"day = {len(game.day_ends) + 1}", f"start_post = {start}"]
    for seat in game.seats:
        if (
            seat.fate in ("lynched", "killed", "modkilled")
            and seat.fate_phase
            and seat.fate_number is not None
        ):
            lines += [
                "",
                "[[deaths]]",
                f"player = {_toml_str(seat.name)}",
                f'phase = "{seat.fate_phase} {seat.fate_number}"',
            ]
            if seat.killed_on_post is not None:
                lines.append(f"post = {seat.killed_on_post}")
    return "\n".join(lines) + "\n"


def _replacement(game: CorpusGame, seat: CorpusSeat, account: str) -> str:
    """A replacement by an account whose earlier seat died (mafiascum-calib 1426: Mr. Flay): the
    game file takes it only with the post it holds this seat from, its first post after the seat's
    earlier accounts' last one."""
    upto = seat.accounts.index(account) if account in seat.accounts else len(seat.accounts)
    before = {a.casefold() for a in seat.accounts[:upto]}
    posts = load_posts(game.thread_id, game.corpus_dir)
    last = max((p["number"] for p in posts if p["user"].casefold() in before), default=0)
    since = next(
        (p["number"] for p in posts if p["number"] > last and p["user"] == account), last + 1
    )
    return f"{{name = {_toml_str(account)}, post = {since}}}"


def confirmed_accounts(game_file_text: str, authors) -> dict[str, list[str]]:
    """The unlisted accounts Votal reports as one seat's (a typo or a case in the archive, an
    account renamed), by seat, as the moderator confirms them in the game file. ``authors``: (name,
    user id) per post."""
    from assistant.gamefile.game import parse_game
    from assistant.reading.identity import AuthorIndex

    confirmed: dict[str, list[str]] = {}
    for account, seat in AuthorIndex(parse_game(game_file_text), authors).suggestions():
        confirmed.setdefault(seat, []).append(account)
    return confirmed


def expected_days(game: CorpusGame, *, include_other_rules: bool = False) -> list[ExpectedDay]:
    """Every scorable day of the game with its expected result (README rules)."""
    if game.needs_other_rules and not include_other_rules:
        return []
    posts = load_posts(game.thread_id, game.corpus_dir)
    last_post = posts[-1]["number"] if posts else -1
    mods = {m.casefold() for m in game.moderators}
    days = []
    start = 0
    for day, end in enumerate(game.day_ends, start=1):
        day_start, start = start, end
        if end > last_post or day in game.late_hammer_days or day in game.special_days:
            continue
        alive = [s for s in game.seats if s.alive_on_day(day)]
        lynched = [
            s.name
            for s in game.seats
            if s.fate == "lynched" and s.fate_phase == "day" and s.fate_number == day
        ]
        if day in game.no_lynch_days:
            eliminated = None
        elif len(lynched) == 1:
            eliminated = lynched[0]
        elif not lynched and day in game.no_majority_days:
            eliminated = None  # the deadline came without a majority: nobody was lynched
        else:
            continue  # nobody (or several) lynched without a note: not scorable
        twilight = end
        while twilight - 1 > day_start and posts[twilight - 1]["user"].casefold() in mods:
            twilight -= 1
        mod_posts = tuple(
            p["number"] for p in posts[day_start + 1 : twilight] if p["user"].casefold() in mods
        )
        days.append(
            ExpectedDay(
                game.number,
                game.thread_id,
                day,
                day_start,
                end,
                tuple(s.name for s in alive),
                len(alive) // 2 + 1,
                eliminated,
                check_hammer=day not in game.long_twilight_days
                and day not in game.no_majority_days,
                twilight_post=twilight,
                mod_posts=mod_posts,
            )
        )
    return days
