"""Every rule's test cites its book, and cites it right: the words in double quotes in a golden
case's title (its first line) and in a bundled ruleset's ``cite`` are the book's own, found in the
book the ruleset names (``../shared/rulesets/<file>.txt``, the ``cite`` fields' first file). A case
under a ruleset with a book quotes at least one sentence of it. A quote may leave words out with
"..."; case, spacing and curly quotes do not matter. Other quoted text in a title (a command as
typed, a draft's wording) is written in backticks.

Skipped without the shared books beside the checkout (they are test material, never shipped).
"""

from __future__ import annotations

import re
import tomllib
from functools import cache
from pathlib import Path

import pytest
from golden.harness import read_case

from assistant import bundled

ROOT = Path(__file__).resolve().parents[1]
BOOKS = ROOT.parent / "shared" / "rulesets"
GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = sorted(GOLDEN.glob("*.txt"))
RULESETS = sorted(
    p.name for p in bundled.data().joinpath("rulesets").iterdir() if p.name.endswith(".toml")
)

needs_books = pytest.mark.skipif(
    not BOOKS.is_dir(), reason="the rule books (../shared/rulesets) are not present"
)


def plain(text: str) -> str:
    """Text as compared: curly quotes and dashes made straight, spacing collapsed, case folded."""
    for curly, straight in (
        ("\u2018", "'"),
        ("\u2019", "'"),
        ("\u201c", '"'),
        ("\u201d", '"'),
        ("\u2013", "-"),
        ("\u2014", "-"),
    ):
        text = text.replace(curly, straight)
    return " ".join(text.split()).casefold()


@cache
def book(name: str) -> str:
    return plain((BOOKS / name).read_text(encoding="utf-8"))


@cache
def ruleset_cites(name: str) -> tuple[str, ...]:
    """Every ``cite`` string of a ruleset file (bundled name or a golden ``.toml``), in file
    order."""
    path = GOLDEN / name if name.endswith(".toml") else None
    text = (
        path.read_text(encoding="utf-8")
        if path
        else bundled.data().joinpath("rulesets", f"{name}.toml").read_text(encoding="utf-8")
    )
    found: list[str] = []

    def walk(node) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "cite" and isinstance(value, str):
                    found.append(value)
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(tomllib.loads(text))
    return tuple(found)


def book_of(ruleset: str) -> str | None:
    """The book a ruleset is read from: the first ``*.txt`` its cites name (None: no book, as
    mafiascum's)."""
    if ruleset.endswith(
        ".toml"
    ):  # a golden variant names its base ruleset's book in its header comment
        match = re.search(
            r"shared/rulesets/([\w.-]+\.txt)", (GOLDEN / ruleset).read_text(encoding="utf-8")
        )
        return match.group(1) if match else None
    for cite in ruleset_cites(ruleset):
        match = re.match(r"([\w.-]+\.txt)", cite)
        if match:
            return match.group(1)
    return None


def quotes(text: str) -> list[str]:
    """The double-quoted passages of ``text``, each split at its "..." elisions."""
    return [
        piece.strip()
        for passage in re.findall(r'"([^"]+)"', text)
        for piece in re.split(r"\.\.\.|\u2026", passage)
        if piece.strip()
    ]


def test_quotes_are_read_with_their_elisions() -> None:
    title = 'x: "Apprentice - ... take over their duties if they die" and `vote X` and "Once day is over"'
    assert quotes(title) == [
        "Apprentice -",
        "take over their duties if they die",
        "Once day is over",
    ]
    assert plain("Witchhunt \u2013 \u201cNone\u201d  IS") == 'witchhunt - "none" is'


def ruleset_of(path: Path) -> str:
    """A case's ruleset name, read from its game section without building the case (for
    collection)."""
    found = re.search(r'^ruleset\s*=\s*"([^"]+)"', path.read_text(encoding="utf-8"), re.M)
    assert found, f"{path.name} names no ruleset"
    return found.group(1)


# the cases under a ruleset with a book (mafiascum's rules are the corpus README's, not a book of
# its own)
BOOK_CASES = [p for p in CASES if book_of(ruleset_of(p)) is not None]


def test_the_books_cases_are_most_cases() -> None:
    assert len(BOOK_CASES) > len(CASES) // 2, "a ruleset lost the book its cites name"


@needs_books
@pytest.mark.parametrize("path", BOOK_CASES, ids=[p.stem for p in BOOK_CASES])
def test_a_golden_case_quotes_its_book_word_for_word(path: Path) -> None:
    case = read_case(path)
    name = book_of(case.game.ruleset)
    assert name is not None
    said = quotes(case.title)
    assert said, f"{path.name}: the title quotes no sentence of {name}"
    missing = [q for q in said if plain(q) not in book(name)]
    assert not missing, f"{path.name}: not in {name}: {missing}"


@needs_books
@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_rulesets_cites_name_its_book_and_quote_it_word_for_word(ruleset: str) -> None:
    name = ruleset.removesuffix(".toml")
    cites = ruleset_cites(name)
    assert cites, f"{ruleset} cites nothing"
    books = {m.group(1) for c in cites if (m := re.match(r"([\w.-]+\.txt)", c))}
    for book_name in books:
        assert (BOOKS / book_name).is_file(), (
            f"{ruleset} cites {book_name}, which is not in ../shared/rulesets"
        )
    for cite in cites:
        cited = re.match(r"([\w.-]+\.txt)", cite)
        if cited is None:
            continue
        quoted = quotes(cite) + quotes(
            re.sub(r"(?<!\w)'([^']+)'(?!\w)", r'"\1"', cite.replace('"', ""))
        )
        missing = [q for q in quoted if plain(q) not in book(cited.group(1))]
        assert not missing, f"{ruleset}: not in {cited.group(1)}: {missing}"
