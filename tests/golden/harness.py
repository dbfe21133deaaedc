"""Reads a golden case file and renders a votal as the text its ``=== expect`` section holds.

A case file has four sections::

    # one line naming the rule the case pins (the file is named after it too)
    === game          the game file (TOML); "players: A, B, C" expands to [[players]] tables,
                      title and thread are filled in when missing
    === posts         one post a line: NUMBER AUTHOR [@ISO-TIME] [edited(CMDS)] [deleted]: CMD; CMD; ...
                      CMD is "vote X", "unvote", "unvote X" or "nominate X"; a post with no commands
                      ends at ":"
    === query         day = N, optionally at_post = P and at_time = ISO, and notes = true (expect the
                      moderator-only notes too: "note (moderator only): ...")
    === expect        the votal as rendered by render_votal()
    === xfail         (optional) one line: why the tally does not do this yet, naming the issue item; the
                      case is then a strict expected failure, so the fix must remove this section

A CMD may also be "vote X for sheriff" / "sheriff vote: X" (a sheriff-election vote, read as the
thread's command reader reads it), "plain vote X" (a vote written without bold) or "inline vote X"
(a bold vote sharing its line with other text); any other bold text the thread's reader takes for a
command ("Second vote: X") is read as it would be.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from assistant.counting.votal import Votal
from assistant.gamefile.game import Game, parse_game
from parsers.commands import Command, ReadPost, extract_commands

POST_LINE = re.compile(
    r"^(?P<number>\d+)\s+(?P<author>\S+)(?:\s+@(?P<time>\S+))?(?:\s+edited\((?P<first>[^)]*)\))?"
    r"(?P<deleted>\s+deleted)?\s*:(?P<commands>.*)$"
)


@dataclass(frozen=True)
class Case:
    path: Path
    title: str
    game: Game
    posts: tuple[ReadPost, ...]
    day: int
    at_post: int | None
    at_time: datetime | None
    expect: str
    xfail: str | None = None
    notes: bool = (
        False  # query "notes = true": the expect section lists the moderator-only notes too
    )


def read_case(path: Path) -> Case:
    sections: dict[str, list[str]] = {}
    title = ""
    current = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if current is None and line.startswith("#") and not title:
            title = line.lstrip("# ").strip()
            continue
        header = re.match(r"^===\s*(\w+)\s*$", line)
        if header:
            current = header.group(1)
            sections[current] = []
        elif current is not None:
            sections[current].append(line)
    game = parse_game(_game_toml(sections["game"]), path=path)
    posts = tuple(
        read_post(line)
        for line in sections.get("posts", ())
        if line.strip() and not line.startswith("#")
    )
    query = dict(_pair(line) for line in sections["query"] if line.strip())
    return Case(
        path=path,
        title=title,
        game=game,
        posts=posts,
        day=int(query["day"]),
        at_post=int(query["at_post"]) if "at_post" in query else None,
        at_time=_time(query["at_time"]) if "at_time" in query else None,
        notes=query.get("notes") == "true",
        expect="\n".join(line.rstrip() for line in sections["expect"]).strip(),
        xfail=" ".join(line.strip() for line in sections.get("xfail", ()) if line.strip()) or None,
    )


def xfail_reason(path: Path) -> str | None:
    """The case's ``=== xfail`` reason, read without building the case (for pytest marks at
    collection)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    if "=== xfail" not in lines:
        return None
    rest = lines[lines.index("=== xfail") + 1 :]
    reason = []
    for line in rest:
        if line.startswith("==="):
            break
        reason.append(line.strip())
    return " ".join(r for r in reason if r) or "not yet"


def _pair(line: str) -> tuple[str, str]:
    key, _, value = line.partition("=")
    return key.strip(), value.strip().strip('"')


def _game_toml(lines: list[str]) -> str:
    head: list[str] = []
    tail: list[str] = []
    in_tables = False
    for line in lines:
        if line.startswith("players:"):
            for name in line.partition(":")[2].split(","):
                tail += ["[[players]]", f'name = "{name.strip()}"']
            continue
        if line.startswith("["):
            in_tables = True
        (tail if in_tables else head).append(line)
    text = "\n".join(head)
    if not re.search(r"^title\s*=", text, re.M):
        head.insert(0, 'title = "golden case"')
    if not re.search(r"^thread\s*=", text, re.M):
        head.insert(0, 'thread = "https://forum.example.org/viewtopic.php?t=1"')
    return "\n".join(head + tail) + "\n"


def _time(text: str) -> datetime:
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _commands(text: str) -> tuple[Command, ...]:
    found = []
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        if "sheriff" in part.casefold():
            found += extract_commands(f"<b>{part}</b>")
            continue
        bold, inline = True, False
        if part.casefold().startswith("plain "):
            bold, part = False, part[len("plain ") :].strip()
        elif part.casefold().startswith("inline "):  # a command sharing its line with other text
            inline, part = True, part[len("inline ") :].strip()
        verb, _, rest = part.partition(" ")
        verb = verb.lower().rstrip(":")
        if verb not in ("vote", "unvote", "nominate") and bold:
            read = extract_commands(
                f"<b>{part}</b>"
            )  # e.g. "Second vote: X", as the thread's reader reads it
            if not read:
                raise ValueError(f"unknown command {part!r}")
            found += read
            continue
        if verb not in ("vote", "unvote", "nominate"):
            raise ValueError(f"unknown command {part!r}")
        found.append(
            Command(verb, rest.strip() or None, part, inline=inline)
            if bold
            else Command(verb, rest.strip(), part, bold=False)
        )
    return tuple(found)


def read_post(line: str) -> ReadPost:
    found = POST_LINE.match(line.strip())
    if not found:
        raise ValueError(f"cannot read post line {line!r}")
    number = int(found["number"])
    first = found["first"]
    return ReadPost(
        number=number,
        post_id=str(1000 + number),
        author=found["author"],
        time=_time(found["time"]) if found["time"] else None,
        url=f"https://forum.example.org/viewtopic.php?p={1000 + number}#p{1000 + number}",
        commands=_commands(found["commands"]),
        edited=first is not None,
        deleted=bool(found["deleted"]),
        first_commands=_commands(first) if first is not None else None,
    )


def _votes(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def render_votal(votal: Votal, *, notes: bool = False) -> str:
    """The votal as the few lines a golden case expects: every public field that decides
    anything."""
    head = f"day {votal.day}: alive {votal.alive}, majority {votal.majority}, as of post {votal.as_of_post}"
    if votal.deadline:
        head += f", deadline {votal.deadline.isoformat().replace('+00:00', 'Z')}"
    lines = [head]
    lines += [f"{w.target} {_votes(w.votes)}: {', '.join(w.voters)}" for w in votal.wagons]
    if votal.no_elimination.votes:
        ne = votal.no_elimination
        lines.append(f"no elimination {_votes(ne.votes)}: {', '.join(ne.voters)}")
    lines.append(f"not voting: {', '.join(votal.not_voting) or '-'}")
    for n in votal.nominations:
        lines.append(
            f"nomination {n.nominator} -> {n.nominee} at {n.post}: {_votes(n.votes)} ({', '.join(n.voters)})"
        )
    election = getattr(votal, "election", None)
    if election:
        lines += [
            f"sheriff {w.target} {_votes(w.votes)}: {', '.join(w.voters)}" for w in election.wagons
        ]
        if election.elected:
            lines.append(f"sheriff elected: {election.elected}")
        elif election.open_until:
            lines.append(
                f"sheriff election open until {election.open_until.isoformat().replace('+00:00', 'Z')}"
            )
    if votal.runoff:
        r = votal.runoff
        until = r.deadline.isoformat().replace("+00:00", "Z") if r.deadline else "?"
        lines.append(f"runoff: {', '.join(r.candidates)} until {until}")
    lines += [f"lynch: {o.kind} {o.target}, post {o.post}, {o.reason}" for o in votal.lynches]
    o = votal.outcome
    if o:
        survived = f", {o.survived} survived" if o.survived else ""
        lines.append(f"outcome: {o.kind} {o.target or '-'}, post {o.post}, {o.reason}{survived}")
    else:
        lines.append("outcome: none")
    lines += [f'problem {p.post} {p.voter} "{p.text}": {p.reason}' for p in votal.problems]
    lines += [f"flag {f.seat}: {f.reason}" for f in votal.flags]
    if notes:
        lines += [f"note (moderator only): {n}" for n in votal.private_notes]
    return "\n".join(lines)


NO_ELIMINATION_WORDS = {
    "no lynch",
    "nolynch",
    "no elimination",
    "sleep",
    "abstain",
    "no execution",
    "no hang",
}


class ExactRoster:
    """A roster that resolves only exact (case-folded) names: golden cases pin rules, not name
    reading."""

    def __init__(self, game: Game):
        self.owner = {}
        for seat in game.players:
            for name in (*seat.accounts, *seat.aliases):
                self.owner[name.casefold()] = seat.name
        self.accounts = {a.casefold(): s.name for s in game.players for a in s.accounts}
        self.learned: dict[str, tuple[str, int]] = {}  # an exact roster learns no spellings
        # who may hold a silent seat, as the count asks: the real index refuses a look-alike
        from assistant.reading.identity import AuthorIndex

        self.authors = AuthorIndex(game)

    def author_match(
        self, author: str, author_id=None, number=None
    ) -> tuple[str | None, str | None]:
        seat = self.accounts.get(author.casefold())
        return seat, "account" if seat else None


def resolve_exact(text: str, roster: ExactRoster, *, alive, at_post=None):
    from assistant.reading.names import Resolution

    folded = " ".join(text.casefold().split())
    if folded in NO_ELIMINATION_WORDS:
        return Resolution(text, None, "exact", no_elimination=True)
    seat = roster.owner.get(folded)
    if seat is None:
        return Resolution(text, None, None, reason="unknown name")
    if seat not in alive:
        return Resolution(text, None, "exact", reason="target is dead")
    return Resolution(text, seat, "exact")


def count_day(
    game: Game,
    posts,
    *,
    day: int,
    ruleset=None,
    roster=None,
    resolve=None,
    counts=None,
    at_post: int | None = None,
    at_time: datetime | None = None,
    night: frozenset[int] = frozenset(),
) -> Votal:
    """Day ``day`` of ``game`` counted from ``posts`` in hand through the one path every command
    takes (``StoredGame.of`` then ``count_stored``): with doubts, and learning from ``counts``
    when given."""
    from assistant.counting.count import StoredGame, count_stored
    from assistant.reading.names import resolve_name

    stored = StoredGame.of(
        game,
        posts,
        counts=counts,
        ruleset=ruleset,
        roster=roster,
        resolve=resolve or resolve_name,
        night=night,
    )
    return count_stored(game, stored, days=[day], at_post=at_post, at_time=at_time)[0]
