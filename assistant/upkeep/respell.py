"""`votal update`'s rename step: a name Votal wrote before its account posted, renamed to the
account once it posts.

Which account a name is (:mod:`assistant.reading.respelling`) is the finished thread's matching;
this module finds the names in the game file and writes the rename everywhere the file names them
(the seat's name, its replacements, deaths, events), each cited. Only names Votal wrote are renamed:
an entry whose comment cites a post whose words hold the name. A name the moderator typed (no such
comment) is kept, and the match said.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import tomlkit
import tomlkit.items

from assistant.errors import GameFileError
from assistant.gamefile.game import parse_game
from assistant.reading.announcements.facts import PostLike
from assistant.reading.identity import account_key
from assistant.reading.names import fold_name
from assistant.reading.respelling import Respelling, respellings
from assistant.upkeep.edits import Note, cite_comment

_CITES_POST = re.compile(r"\bpost\s+\d+\s*:")
_NAMING = ("deaths", "survivals", "events")  # tables whose ``player`` names a seat


def respell_file(
    text: str, posts: Sequence[PostLike], *, path: str = "<game>"
) -> tuple[str, list[str], list[str]]:
    """The game file ``text`` with each name Votal wrote that has never posted renamed to the
    account that now posts and matches it: (the new text, what was written, each match not written
    and why: the file kept)."""
    if not posts:
        return text, [], []
    doc = tomlkit.parse(text)
    players = doc.get("players")
    if not isinstance(players, tomlkit.items.AoT) or not players:
        return text, [], []
    votal, typed, held = _names_held(players)
    found, unmatched = respellings(
        [*votal, *typed], posts, moderators=[str(m) for m in doc.get("moderators", ())], held=held
    )
    notes = [
        f"names: {u.written!r} has never posted; {u.account!r} posts and is that close, but "
        f"{u.why}: not renamed"
        for u in unmatched
    ]
    notes += [_kept_note(f) for f in found if f.written in typed]
    renames = [f for f in found if f.written not in typed]
    if not renames:
        return text, [], notes
    written: list[str] = []
    for rename in renames:
        written.extend(_rename(doc, rename))
    new_text = tomlkit.dumps(doc)
    try:
        parse_game(new_text, path=path, players_required=False)
    except GameFileError as broken:  # a file Votal could not read is never written
        names = ", ".join(repr(r.written) for r in renames)
        return (
            text,
            [],
            [*notes, f"names: renaming {names} would break the file ({broken}): not written"],
        )
    return new_text, written, notes


def _names_held(players: tomlkit.items.AoT) -> tuple[list[str], list[str], list[str]]:
    """The seats' names and accounts: those Votal wrote, those the moderator typed, and all."""
    votal: list[str] = []
    typed: list[str] = []
    held: list[str] = []
    for table in players:
        name = str(table.get("name", ""))
        held.append(name)
        (votal if _votal_wrote(name, table.trivia.comment) else typed).append(name)
        for entry in table.get("replacements", ()):
            account = _entry_name(entry)
            held.append(account)
            comment = f"{table['replacements'].trivia.comment} {table.trivia.comment}"
            (votal if _votal_wrote(account, comment) else typed).append(account)
    return votal, typed, held


def _kept_note(found: Respelling) -> str:
    """A match of a name the moderator typed: said, never renamed."""
    return (
        f"names: {found.written!r} has never posted; {found.account!r} posts from post "
        f"{found.first_post} and is that close, but the moderator wrote {found.written!r} "
        "(no cite of Votal's): kept; rename it if it is that account"
    )


def _votal_wrote(name: str, comment: str) -> bool:
    """Whether ``name`` stands as Votal wrote it: the entry's comment cites a post, and its words
    hold the name."""
    folded = fold_name(name)
    return bool(folded) and bool(_CITES_POST.search(comment or "")) and folded in fold_name(comment)


def _entry_name(entry) -> str:
    return str(entry["name"]) if isinstance(entry, dict) else str(entry)


def _rename(doc, rename: Respelling) -> list[str]:
    old, new, key = rename.written, rename.account, account_key(rename.written)
    cite = cite_comment(
        Note(f"{new} posts: the account Votal wrote as {old} before it posted", rename.first_post)
    )
    why = (
        f"post {rename.first_post}: the account posts under that spelling; Votal wrote {old!r} "
        "before it posted"
    )
    written = []
    for index, table in enumerate(doc["players"]):
        seat = str(table["name"])
        if seat == old:
            table["name"] = new
            _add_comment(table, cite)
            written.append(f"players[{index + 1}].name: {old!r} -> {new!r} ({why})")
        replacements = table.get("replacements")
        for position, entry in enumerate(replacements or ()):
            if _entry_name(entry) != old:
                continue
            if isinstance(entry, dict):
                entry["name"] = new
            else:
                replacements[position] = new
            _add_comment(replacements, cite)
            written.append(
                f"players[{index + 1}] ({table['name']}).replacements: {old!r} -> {new!r} ({why})"
            )
    private = doc.get("private")
    sequestered = private.get("sequestered", ()) if isinstance(private, dict) else ()
    for kind, tables in (
        *((k, doc.get(k, ())) for k in _NAMING),
        ("private.sequestered", sequestered),
    ):
        for index, table in enumerate(tables):
            if account_key(str(table.get("player", ""))) == key:
                table["player"] = new
                written.append(f"{kind}[{index + 1}].player: {old!r} -> {new!r} ({why})")
    return written


def _add_comment(item, cite: str) -> None:
    held = item.trivia.comment.lstrip("#").strip()
    if cite not in held:
        item.comment(f"{held}; {cite}" if held else cite)
        item.trivia.comment_ws = "  "
