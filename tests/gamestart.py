"""Test support: real games' threads as they stood at the game's start, and hand-made openings in
each list style.

An archived opening post was edited after the game: it shows the final fates, the struck accounts of
replaced players and the dead. :func:`opening_at_start` takes that back out of a moderator's post,
line by line, keeping the moderator's own layout (headers, numbering, bullets, spoilers,
paragraphs): a line that names one seat becomes its mark and the seat's first account; strike-outs
go. :func:`start_thread` is the opening post(s) and the real thread's first posts until a share of
the players has posted. Nothing here is shipped.
"""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta

import corpus

from parsers.page import Post

_BREAK = re.compile(r"(<br\s*/?>|</?li[^>]*>)", re.IGNORECASE)
_TOKEN = re.compile(r"(<[^>]*>)")
_STRIKE_TAG = re.compile(r"</?(?:s|strike|del)\s*>", re.IGNORECASE)
_LINE_THROUGH = re.compile(r"text-decoration\s*:\s*line-through\s*;?", re.IGNORECASE)
_MARK = re.compile(r"^\s*(?:\d{1,2}\s*[.):\]-]|[-*•·>+]+)\s*")


def _plain(fragment: str) -> str:
    return " ".join(html.unescape(_TOKEN.sub(" ", fragment)).split())


def _names_in(text: str, seats: list[tuple[str, ...]]) -> set[int]:
    """The seats the text names; a name inside a longer one of another seat ("onion" in "Onion
    Bubs") is none."""
    spans = [
        (m.start(), m.end(), i)
        for i, accounts in enumerate(seats)
        for account in accounts
        for m in re.finditer(r"(?<!\w)" + re.escape(account) + r"(?!\w)", text, re.IGNORECASE)
    ]
    return {
        i
        for start, end, i in spans
        if not any(s <= start and end <= e and (e - s) > (end - start) for s, e, _ in spans)
    }


def opening_at_start(body: str, seats: list[tuple[str, ...]]) -> str:
    """A moderator's post with the end-of-game marks taken out: each line naming one seat (any of
    its accounts) keeps its tags and its list mark, and says the seat's first account alone; struck
    text is no longer struck."""
    body = _LINE_THROUGH.sub("", _STRIKE_TAG.sub("", body))
    out = []
    for piece in _BREAK.split(body):
        if _BREAK.fullmatch(piece) or not piece.strip():
            out.append(piece)
            continue
        met = _names_in(_plain(piece), seats)
        if len(met) != 1:
            out.append(piece)
            continue
        seat = met.pop()
        tokens = _TOKEN.split(piece)
        # the line starts after the last block that opens before its names: a spoiler's title and
        # opening tags on the same piece as its first line ("Spoiler: Show ... 1. Christine
        # ~~teamsleep~~") stay as they are
        start = max(
            (
                i + 1
                for i, t in enumerate(tokens)
                if _BLOCK_OPEN.match(t)
                and seat in _names_in(_plain("".join(tokens[i + 1 :])), seats)
            ),
            default=0,
        )
        first = seats[seat][0]
        mark = _MARK.match(_plain("".join(tokens[start:])))
        said = (mark.group(0) if mark else "") + html.escape(first)
        rebuilt = tokens[:start]
        for token in tokens[start:]:
            if token.startswith("<"):
                rebuilt.append(token)
            elif token.strip() and said:
                rebuilt.append(said)
                said = ""
        out.append("".join(rebuilt))
    return "".join(out)


# a tag that opens a block of its own (an inline div, as a strike-out is drawn, does not)
_BLOCK_OPEN = re.compile(
    r"<(?:p|blockquote|td|th|h[1-6]|center|dd|dt|div(?![^>]*display\s*:\s*inline))\b[^>]*>",
    re.IGNORECASE,
)


def start_thread(game: corpus.CorpusGame, share: float = 1 / 3) -> list[Post]:
    """The game's thread at its start: the moderators' posts (ended-game marks taken out) and the
    real posts up to the one where ``share`` of the seats have posted."""
    posts = corpus.load_posts(game.thread_id, game.corpus_dir)
    seats = [s.accounts for s in game.seats]
    mods = {m.casefold() for m in game.moderators} | {posts[0]["user"].casefold()}
    seat_of = {a.casefold(): i for i, accounts in enumerate(seats) for a in accounts}
    wanted = max(1, round(share * len(seats)))
    posted: set[int] = set()
    thread = []
    for p in posts:
        author = p["user"]
        if author.casefold() in mods:
            body = opening_at_start(p["content"], seats)
        else:
            seat = seat_of.get(author.casefold())
            if seat is not None and len(posted | {seat}) > wanted:
                break
            if seat is not None:
                posted.add(seat)
            body = p["content"]
        thread.append(
            Post(p["id"], p["number"], author, corpus.post_time(p), body, p.get("page") or "")
        )
    return thread


# Hand-made openings: the list styles moderators write, each with notes, links, chains and spoilers
PLAYERS = ("Alder", "Birch", "Cedar", "Damson", "Elm", "Fir", "Gorse", "Hazel", "Ivy", "Juniper")
START = datetime(2026, 3, 2, 15, 0, tzinfo=UTC)
_NOTES = (
    "",
    " (alt)",
    " - confirmed",
    " (V/LA until Friday)",
    "",
    " - confirmed",
    "",
    "",
    " (replacement)",
    "",
)


_OWN_MARKS = (*PLAYERS[:6], "[Gorse]", "_Hazel", "Ivy_", "__Juniper__")  # the account's own marks


# replaced before the game started, the later account written first, neither posted yet
_CHAINED = {"Damson": "Damson (replacing Oldamson)", "Gorse": "Gorse replaced Gorsey"}


def _profile(name: str, n: int) -> str:
    return f'<a href="https://forum.example/memberlist.php?mode=viewprofile&amp;u={100 + n}">{name}</a>'


STYLES: dict[str, str] = {
    "ol": "<b>Players</b><ol>" + "".join(f"<li>{p}</li>" for p in PLAYERS) + "</ol>",
    "ul": "Players:<ul>" + "".join(f"<li>{p}</li>" for p in PLAYERS) + "</ul>",
    "numbered lines": "<b>Player List</b><br>"
    + "<br>".join(f"{n}. {p}" for n, p in enumerate(PLAYERS, 1)),
    "bulleted lines": "Players:<br>" + "<br>".join(f"• {p}" for p in PLAYERS),
    "dashed lines": "The players:<br>" + "<br>".join(f"- {p}" for p in PLAYERS),
    "one per line under a header": "<b><u>Players</u></b><br>" + "<br>".join(PLAYERS),
    "profile links": "Players<br>"
    + "<br>".join(f"{n}. {_profile(p, n)}" for n, p in enumerate(PLAYERS, 1)),
    "names with notes": "Players<br>"
    + "<br>".join(
        f"{n}. {p}{note}" for n, (p, note) in enumerate(zip(PLAYERS, _NOTES, strict=True), 1)
    ),
    "struck replacement chain": "Players<br>1. <s>Oak</s> <s>Ash</s> Alder<br>"
    + "<br>".join(f"{n}. {p}" for n, p in enumerate(PLAYERS[1:], 2)),
    "struck chain in del tags": "Players:<ol><li><del>Oak</del> <del>Ash</del> Alder</li>"
    + "".join(f"<li>{p}</li>" for p in PLAYERS[1:])
    + "</ol>",
    "struck chain in line-through spans": "Players<br>1. "
    + '<span style="text-decoration: line-through">Oak</span> '
    + '<span style="text-decoration:line-through">Ash</span> Alder<br>'
    + "<br>".join(f"{n}. {p}" for n, p in enumerate(PLAYERS[1:], 2)),
    "chain in words": "Players:<br>1. Alder (replacing Ash, who replaced Oak)<br>"
    + "<br>".join(f"{n}. {p}" for n, p in enumerate(PLAYERS[1:], 2)),
    "chains in words inside a numbered list": "Players<br>"
    + "<br>".join(f"{n}. {_CHAINED.get(p, p)}" for n, p in enumerate(PLAYERS, 1)),
    "ol of profile links with notes": "<b>Players</b><ol>"
    + "".join(
        f"<li>{_profile(p, n)}{note}</li>"
        for n, (p, note) in enumerate(zip(PLAYERS, _NOTES, strict=True), 1)
    )
    + "</ol>",
    "living and dead apart": "<b>Alive (8/10):</b><br>"
    + "<br>".join(PLAYERS[2:])
    + "<br><br><b>Dead (2/10):</b><br>"
    + "<br>".join(
        f"<s>{p}</s> - Vanilla Townie, lynched Day {n}" for n, p in enumerate(PLAYERS[:2], 1)
    ),
    "names that end in a role-like word": "Players:<br>"
    + "<br>".join(f"{n}. {p}" for n, p in enumerate((*PLAYERS[:-1], "I Am Innocent"), 1)),
    "plain names in paragraphs, no header": "<br>".join(PLAYERS[:6])
    + "<br><br>"
    + "<br>".join(PLAYERS[6:])
    + "<br><br>Links<br>Rules and setup - post #1",
    "a numbered name ending in a role": "Player list<br>"
    + "<br>".join(
        f"{n}. {p}" for n, p in enumerate((*PLAYERS[:2], "1Shot Vanilla Town", *PLAYERS[3:]), 1)
    ),
    "numbered lines in one bullet": "Playerlist:<ul><li>"
    + "<br>".join(f"{n}. {p}" for n, p in enumerate(PLAYERS, 1))
    + "</li></ul>",
    "one per line above a legend": "Still standing:<br>"
    + "<br>".join(PLAYERS)
    + "<br>*= Being replaced<br>**= V/LA",
    "accounts with underscores and brackets": "<b>Players</b><br>" + "<br>".join(_OWN_MARKS),
    "numbered accounts with underscores and brackets": "Players<br>"
    + "<br>".join(f"{n}. {p}" for n, p in enumerate(_OWN_MARKS, 1)),
    "first vote count before any vote": "Vote Count 1.0<br><br>Not Voting (10): "
    + ", ".join(PLAYERS)
    + "<br><br>With 10 alive, it takes 6 to lynch.",
    "spread over spoilers": (
        "Players:<br>"
        + "".join(
            '<div style="margin:20px"><div class="quotetitle"><b>Spoiler: seats</b> <input type="button" '
            'value="Show"></div><div class="quotecontent"><div style="display:none">'
            + "<br>".join(part)
            + "</div></div></div>"
            for part in (PLAYERS[:5], PLAYERS[5:])
        )
    ),
}


def styled_thread(style: str, *, posted: int = 3, later: bool = False) -> list[Post]:
    """An opening in ``style`` (or, ``later``, a welcome first and the list in the moderator's next
    post), then hellos from the first ``posted`` players."""
    opening = (
        [
            ("Host", "Welcome to Mini 999! Signups are closed; the list follows."),
            ("Host", STYLES[style]),
        ]
        if later
        else [
            ("Host", "Welcome to Mini 999!<br><br>" + STYLES[style] + "<br><br>Day 1 begins now.")
        ]
    )
    posts = [*opening, *((name, f"hello from {name}") for name in PLAYERS[:posted])]
    return [
        Post(
            str(1000 + n),
            n,
            author,
            START + timedelta(hours=n),
            body,
            f"https://forum.example/p{n}",
        )
        for n, (author, body) in enumerate(posts)
    ]


def listed_seats(style: str) -> list[str]:
    """The seats the style's list names (the chain's seat by its first account)."""
    if style in (
        "struck replacement chain",
        "struck chain in del tags",
        "struck chain in line-through spans",
        "chain in words",
    ):
        return ["Oak", *PLAYERS[1:]]
    if style == "chains in words inside a numbered list":
        return [{"Damson": "Oldamson", "Gorse": "Gorsey"}.get(p, p) for p in PLAYERS]
    if style == "living and dead apart":
        return [*PLAYERS[2:], *PLAYERS[:2]]
    if style == "names that end in a role-like word":
        return [*PLAYERS[:-1], "I Am Innocent"]
    if style in (
        "accounts with underscores and brackets",
        "numbered accounts with underscores and brackets",
    ):
        return list(_OWN_MARKS)
    if style == "a numbered name ending in a role":
        return [*PLAYERS[:2], "1Shot Vanilla Town", *PLAYERS[3:]]
    return list(PLAYERS)
