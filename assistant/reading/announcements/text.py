"""A post's body as lines of text (struck text marked), and the small words of names and numbers in
them."""

from __future__ import annotations

import contextlib
import html
import re
import unicodedata
from typing import TYPE_CHECKING

from parsers.markup import parse_html

if TYPE_CHECKING:
    from lxml.etree import _Element as Element

STRUCK_OPEN, STRUCK_CLOSE = "\x01", "\x02"  # marks struck-out text inside a line
BLANK = "\x03"  # a blank line, where the caller asks for paragraphs
_DOUBLE_BREAK = re.compile(r"<br\s*/?>\s*<br\s*/?>", re.IGNORECASE)


_BLOCK_TAGS = {
    "p",
    "div",
    "li",
    "ul",
    "ol",
    "tr",
    "table",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "dd",
    "dt",
    "fieldset",
    "legend",
    "center",
    "pre",
    "hr",
    "section",
    "article",
    "aside",
    "caption",
    "summary",
}
_STRIKE_TAGS = {"s", "strike", "del"}
_SKIP_TAGS = {"script", "style", "input", "button", "img"}


def read_lines(body_html: str, *, list_marks: bool = False) -> list[str]:
    """The body's text, one entry per visual line, quotes of other posts left out, struck text
    marked.

    ``list_marks``: an HTML list's items keep the mark a reader sees ("1. " in an ``<ol>``, "• " in
    a ``<ul>``), so a player list written as ``[list=1]`` reads as the numbered list it shows."""
    if not body_html or not body_html.strip():
        return []
    if list_marks:  # a blank line ("<br><br>") ends a paragraph: kept as a line of its own, BLANK
        body_html = _DOUBLE_BREAK.sub(f"<br>{BLANK}<br>", body_html)
    root = parse_html(f"<div>{body_html}</div>")
    if list_marks:
        _mark_list_items(root)
    out: list[str] = []
    current: list[str] = []

    def newline() -> None:
        out.append("".join(current))
        current.clear()

    def walk(element: Element, struck: bool) -> None:
        tag = element.tag if isinstance(element.tag, str) else ""
        tag = tag.lower()
        if tag in _SKIP_TAGS or tag == "blockquote" or "quotetitle" in (element.get("class") or ""):
            return
        style = (element.get("style") or "").replace(" ", "").lower()
        # superscript beside a listed name is its earlier account ("New<sup>Old</sup>"), read like
        # struck text
        is_struck = tag in _STRIKE_TAGS or "line-through" in style or tag == "sup"
        block = tag in _BLOCK_TAGS and "display:inline" not in style
        if tag == "br" or block:
            newline()
        opened = is_struck and not struck
        if opened:
            current.append(STRUCK_OPEN)
        if element.text:
            current.append(element.text)
        for child in element:
            walk(child, struck or is_struck)
            if child.tail:
                current.append(child.tail)
        if opened:
            current.append(STRUCK_CLOSE)
        if block:
            newline()

    walk(root, False)
    newline()
    lines = []
    for line in out:
        text = _STRAY_BBCODE.sub(" ", line)
        text = " ".join(text.replace("\xa0", " ").split())
        text = text.replace(f"{STRUCK_OPEN} ", f" {STRUCK_OPEN}").replace(
            f" {STRUCK_CLOSE}", f"{STRUCK_CLOSE} "
        )
        text = text.replace(STRUCK_OPEN + STRUCK_CLOSE, "").strip()
        if plain_text(text):
            lines.append(text)
    return lines


# A BBCode tag the forum did not render, left in the text by a slip ("unsub[/strike] Dierfire",
# "Vanilla Townie[/b]"): markup, never part of a name
_STRAY_BBCODE = re.compile(
    r"\[/?(?:b|i|u|s|strike|color|size|font|url|center|spoiler|quote|area|sup|sub)(?:=[^\]]*)?\]",
    re.IGNORECASE,
)


# What a list item shows where its player has no picture: "no avatar", "[no image]"
_PICTURE_PLACEHOLDER = re.compile(
    r"^\W*(?:no|missing)\s+(?:avatar|image|picture|pic|photo)\W*$", re.IGNORECASE
)


def _mark_list_items(root: Element) -> None:
    for listing in root.iter("ol", "ul"):
        items = [
            child for child in listing if isinstance(child.tag, str) and child.tag.lower() == "li"
        ]
        for number, item in enumerate(items, 1):
            _drop_placeholders(item)
            _prefix_text(item, f"{number}. " if listing.tag.lower() == "ol" else "• ")


def _drop_placeholders(item: Element) -> None:
    """A picture's placeholder in an item ("<li><span>no avatar</span><br>Alder") stands where the
    avatar would: it is no name, and the item's mark goes before the words after it."""
    for element in item.iter():
        if (
            element is not item
            and isinstance(element.tag, str)
            and len(element) == 0
            and _PICTURE_PLACEHOLDER.match(element.text or "")
        ):
            element.text = ""


def _prefix_text(item: Element, mark: str) -> None:
    """The mark before the item's first words (after an avatar and its line break,
    "<li><img><br>Alder")."""
    slots: list[tuple[object, str, bool]] = []

    # document order: an element's text, its children, then its tail
    def walk(element: Element, struck: bool) -> None:
        tag = element.tag.lower() if isinstance(element.tag, str) else ""
        if tag and tag not in _SKIP_TAGS:
            inside = (
                struck
                or tag in _STRIKE_TAGS
                or tag == "sup"
                or "line-through" in (element.get("style") or "")
            )
            slots.append((element, "text", inside))
            for child in element:
                walk(child, inside)
        if element is not item:
            slots.append((element, "tail", struck))

    walk(item, False)
    holder, where, struck = next(
        ((e, w, s) for e, w, s in slots if (getattr(e, w) or "").strip()), (item, "text", False)
    )
    if struck:  # "<li><s>Oldbirch</s> Birch": the mark stays outside the struck name
        holder, where = item, "text"
    with contextlib.suppress(
        ValueError
    ):  # text lxml will not take back (a control character): left unmarked
        setattr(holder, where, mark + (getattr(holder, where) or ""))


def read_links(body_html: str) -> list[str]:
    """Every link target in the body (countdown links carry a deadline)."""
    return [
        html.unescape(h) for h in re.findall(r"""href\s*=\s*["']([^"']+)["']""", body_html or "")
    ]


def plain_text(text: str) -> str:
    return text.replace(STRUCK_OPEN, "").replace(STRUCK_CLOSE, "").strip()


def trim(text: str, limit: int = 160) -> str:
    text = " ".join(plain_text(text).split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def sentences(text: str) -> list[str]:
    # not after an initial: "Albert B. Rampage, Townie, has been killed." is one sentence
    return [s for s in re.split(r"(?<=[.!?])(?<!\b[A-Z]\.)\s+(?=[A-Z\W])", text) if s.strip()]


_NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
}
NUM = r"(\d{1,2}|" + "|".join(_NUMBER_WORDS) + r")"
# a phase's number as a named group
NUMBER = r"(?P<number>\d{1,2}|" + "|".join(_NUMBER_WORDS) + r")"
PHASE_IN = re.compile(r"\b(day|night|d|n)\s*" + NUM + r"\b", re.IGNORECASE)


def read_number(word: str) -> int:
    word = word.lower()
    return int(word) if word.isdigit() else _NUMBER_WORDS[word]


def squash(name: str) -> str:
    """A typed name without case, accents, spaces or punctuation: how the moderator's list meets the
    accounts ("Keyser Soze" is "Keyser Söze", "winger" in a list is the account "[winger]"). A name
    of punctuation only keeps it."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return re.sub(r"[\W_]+", "", bare).casefold() or bare.casefold()


def clean_name(text: str) -> str:
    """A name as typed, marks around it aside; an underscore touching it is the account's own
    ("_over9000"), a run of them set apart by a space is a blank to fill ("____ Alder")."""
    text = re.sub(r"^_+\s+|\s+_+$", "", plain_text(text))
    if not re.search(r"[^\W_]", text):
        return ""
    return text.strip(" .,:;!?*()[]{}\"'`~-–—|•·><†‡✝☠")


def name_like(text: str) -> bool:
    if not text or len(text) > 32 or len(text.split()) > 4:
        return False
    if re.search(r"\w{3,}[.!?]\s|https?:|www\.", text):  # a sentence, not "Albert B. Rampage"
        return False
    return bool(re.search(r"\w", text))


def strip_lead(text: str) -> str:
    text = re.sub(
        r"^(?:and|also|player|user|(?:please\s+)?(?:give\s+an?\s+(?:warm\s+|big\s+)?)?welcome(?:\s+to)?)\s+",
        "",
        text.strip(),
        flags=re.IGNORECASE,
    )
    return clean_name(text)
