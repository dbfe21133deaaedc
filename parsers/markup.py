"""Reading forum HTML with lxml: one fast parse, element text and classes, a body's inner HTML and
commands."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import lxml.etree

from parsers.commands import Command, extract_commands


def parse_html(text: str):
    """The page as plain lxml.etree elements (lxml.html's element classes cost more than a parser's
    scan)."""
    # ids are read as attributes (the id index only costs); huge_tree lifts libxml2's limits on
    # depth and text size, which otherwise end the parse silently at a post nested 256 deep or
    # holding 10 MB of text.
    parser = lxml.etree.HTMLParser(collect_ids=False, huge_tree=True)
    try:
        doc = lxml.etree.fromstring(text, parser)
    except ValueError:  # a str that declares its own encoding
        doc = lxml.etree.fromstring(text.encode("utf-8"), parser)
    return doc if doc is not None else lxml.etree.fromstring("<html></html>", parser)


def classes_of(element) -> list[str]:
    value = element.get("class")
    return value.split() if value else []


def text_of(element) -> str:
    if not len(element):  # most names, numbers and dates: one text node, no child elements
        return element.text or ""
    return "".join(element.itertext())


def inner_html(element) -> str:
    """The element's content as HTML, without its own tags."""
    # One serialisation of the whole element, then its own tags cut off: far cheaper than child by
    # child.
    whole = lxml.etree.tostring(element, method="html", encoding="unicode", with_tail=False)
    return whole[whole.index(">") + 1 : whole.rindex("</")].strip()


def read_body(element) -> tuple[str, tuple[Command, ...]]:
    """A post body element's inner HTML and its commands, both from the page's own parse (no second
    one)."""
    body_html = inner_html(element)
    return body_html, tuple(extract_commands(body_html, element))


def read_title(text: str) -> str | None:
    """A thread page's title: the topic heading where the page has one, else the document's
    <title>."""
    if text.lstrip().startswith("{"):  # Discourse's JSON
        import json

        try:
            value = json.loads(text).get("title")
        except (ValueError, AttributeError):
            return None
        return " ".join(value.split()) if isinstance(value, str) and value.strip() else None
    doc = parse_html(text)
    for path in (
        "//h2[contains(@class,'topic-title')]",
        "//h1[contains(@class,'title')]",
        "//h1",
        "//h2",
        "//title",
    ):
        for element in doc.xpath(path):
            title = " ".join(text_of(element).split())
            # vBulletin's "Thread: Name" heading
            if title.lower().startswith(("thread:", "topic:")):
                title = title.split(":", 1)[1].strip()
            if title:
                return title
    return None


# --- each post in its own frame
# ----------------------------------------------------------------------------  One parse of the
# whole page is fast, and right as long as each post's markup stays inside its post. The containers
# it found are checked against the container start tags in the page's text. When they disagree, a
# post's markup reached past its post: an unclosed <table> swallowing the posts after it (they sit
# in its table), a body forging a post block on a board that allows HTML, a body nested so deep that
# the parse gave up (the posts after it are missing). Then each container is placed: one inside
# another post's body, while the text still has that body open and a post of the page's own follows
# it, is part of that body (forged), never a post; so is one in the page's last post unless the body
# left markup open and the text then closed the whole post frame before it (what a post swallowed by
# unclosed markup looks like; it is read, with a problem saying so); any other is a post of its own
# and is cut out of the post that swallowed it (markup left open swallows every post after it);
# posts the parse never reached are parsed alone, from their own start tag.

_DIV = re.compile(r"<(/?)div\b[^>]*>", re.IGNORECASE)


def frame_posts(
    text: str,
    doc,
    elements: list,
    *,
    quick,
    marker: re.Pattern,
    tag: str,
    body_start: re.Pattern,
    body,
    ident,
    find,
):
    """The page's post containers, the document to read the page's own parts from, and problems
    found.

    ``elements``: the containers the fast reading of ``doc`` found, in page order; ``marker``
    matches each container's start tag in the raw text (group 1: what ``ident(element)`` gives), and
    ``quick(text)`` counts them cheaply (literal searches, for the pages where all is well);
    ``tag``: the containers' tag name; ``body_start`` matches a body's start tag (a div) in the text
    and ``body(container)`` finds it in a tree; ``find(doc)``: every container of a document, nested
    ones too, in document order.
    """
    if len(elements) == quick(text) and _siblings(elements):
        return elements, doc, []
    frames = _Frames(text, tag, body_start, body, ident, find)
    found = find(doc)
    marks = list(marker.finditer(text))
    where = _start_offsets(found, marks, ident)
    posts, problems = frames.outer_posts([e for e in found if id(e) in where], where)
    read_to = max(where.values(), default=-1)
    unread = [m for m in marks if m.start() > read_to]
    if not unread:
        return posts, doc, problems
    # the parse stopped early: the posts after it, each alone, and the page's parts after them
    if posts:
        problems.append(
            f"post {ident(posts[-1])}: its markup is too deep to read whole; read up to there"
        )
    posts += frames.read_alone(unread, problems)
    tail = _end_of(text, unread[-1].start(), tag)
    chrome = parse_html(text[: marks[0].start()] + (text[tail:] if tail else ""))
    return posts, chrome, problems


def _start_offsets(found: list, marks: list[re.Match], ident) -> dict[int, int]:
    """id(container) -> its start tag's offset in the text, for the containers the text's marks
    name."""
    where: dict[int, int] = {}
    j = 0
    for element in found:
        while j < len(marks) and marks[j].group(1) != ident(element):
            j += 1
        if j == len(marks):
            break
        where[id(element)] = marks[j].start()
        j += 1
    return where


@dataclass(frozen=True)
class _Frames:
    """How a page frames its posts: its text, the containers' tag, and how a body and an id are
    found."""

    text: str
    tag: str
    body_start: re.Pattern
    body: Callable
    ident: Callable
    find: Callable

    def outer_posts(self, placed: list, where: dict[int, int]) -> tuple[list, list[str]]:
        """The containers that are posts, and problems: a container nested in another is a forged
        block (dropped from the tree) unless the outer post's body was left open around it."""
        ident, problems = self.ident, []
        containers = {id(e): e for e in placed}
        posts, nested = [], []
        outers = [
            next((a for a in e.iterancestors(self.tag) if id(a) in containers), None)
            for e in placed
        ]
        for i, (element, outer) in enumerate(zip(placed, outers, strict=True)):
            if outer is None:
                posts.append(element)
                continue
            nested.append(element)
            # Markup left open swallows every post after it; a forged block sits in a body the next
            # post follows, or in the page's last post: then the body was not left open before it
            # (the text never closed the post's frame around the body before the block began).
            swallowed = all(o is not None for o in outers[i:])
            outer_body = self.body(outer)
            inside = _inside_body(
                self.text,
                where[id(outer)],
                where[id(element)],
                self.body_start,
                outer_body,
                element,
            )
            if inside is not None and (not swallowed or not _left_open(inside, outer_body, outer)):
                problems.append(
                    f"post {ident(outer)}: its body holds a block shaped like post "
                    f"{ident(element)}; "
                    "read as neither a post nor a vote"
                )
                continue
            if inside is not None:
                problems.append(
                    f"post {ident(outer)}: its body left markup open; post {ident(element)} was "
                    "read from inside it: check that post"
                )
            posts.append(element)
        for element in nested:
            if element.getparent() is not None:
                _drop(element)
        return posts, problems

    def read_alone(self, unread: list[re.Match], problems: list[str]) -> list:
        """The posts the parse did not reach, each parsed alone from its own stretch of the text."""
        posts = []
        for i, mark in enumerate(unread):
            if i + 1 < len(unread):
                end = unread[i + 1].start()
            else:
                end = _end_of(self.text, mark.start(), self.tag) or len(self.text)
            alone = self.find(parse_html(self.text[mark.start() : end]))
            if alone:
                posts.append(alone[0])
            else:
                problems.append(f"post {mark.group(1)}: no readable post in its markup")
        return posts


def _siblings(elements: list) -> bool:
    if not elements:
        return True
    parent = elements[0].getparent()
    return all(e.getparent() is parent for e in elements)


def _inside_body(
    text: str, outer_at: int, inner_at: int, body_start: re.Pattern, outer_body, inner
) -> str | None:
    """The text from a post's body start to a container the tree puts inside that body, while the
    text still has the body open there (else None: the text closed the body first, so unclosed
    markup swallowed it)."""
    if outer_body is None or not any(a is outer_body for a in inner.iterancestors()):
        return None
    opened = body_start.search(text, outer_at, inner_at)
    if opened is None:
        return None
    depth = 0
    for found in _DIV.finditer(text, opened.start(), inner_at):
        depth += -1 if found.group(1) else 1
        if depth == 0:
            return None
    return text[opened.start() : inner_at]


_TAG = re.compile(r"<(/?)([a-zA-Z][\w-]*)[^>]*?(/?)>|<!--.*?-->", re.DOTALL)
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
)


def _left_open(between: str, outer_body, outer) -> bool:
    """Whether a body left markup open before the container after it: the text right before the
    container closes the whole post frame (body to container; the forum's own elements in between
    may sit inside it). A block forged in a body (balanced or not) follows the body's own text or
    tags, not the frame's end."""
    levels = 1
    for ancestor in outer_body.iterancestors():
        levels += 1
        if ancestor is outer:
            break
    pending = most = (
        0  # closes seen from the end not yet matched by their start tags; the most at once
    )
    end = len(between)
    for found in reversed(list(_TAG.finditer(between))):
        if not pending and between[found.end() : end].strip():
            break  # the body's own text, outside any element closed after it
        end = found.start()
        if found.group(0).startswith("<!--") or found.group(3) or found.group(2).lower() in _VOID:
            continue
        if not found.group(1):
            if not pending:
                break  # an element the body opened and never closed before the container
            pending -= 1
        else:
            pending += 1
            most = max(most, pending)
    return most >= levels


def _end_of(text: str, start: int, tag: str) -> int | None:
    """Where the element whose start tag is at ``start`` is closed in the text, by counting its tag
    name."""
    depth = 0
    for found in re.compile(rf"<(/?){tag}\b[^>]*>", re.IGNORECASE).finditer(text, start):
        depth += -1 if found.group(1) else 1
        if depth == 0:
            return found.end()
    return None


def _drop(element) -> None:
    """Remove an element from its tree but keep the text after it."""
    parent = element.getparent()
    if element.tail:
        before = element.getprevious()
        if before is not None:
            before.tail = (before.tail or "") + element.tail
        else:
            parent.text = (parent.text or "") + element.tail
        element.tail = None
    parent.remove(element)


def count_problems(read: int, expected: int | None, numbers: list[int] | None = None) -> list[str]:
    """What is wrong when a page holds fewer posts than it says: by its own count, or gaps in its
    numbers."""
    problems = []
    if expected is not None and read < expected:
        problems.append(
            f"the page shows {expected} posts but {read} were read: posts may be missing"
        )
    elif expected is not None and read > expected:
        problems.append(
            f"the page shows {expected} posts but {read} were read: a body may forge a post"
        )
    if numbers:
        gaps = [(a, b) for a, b in zip(numbers, numbers[1:], strict=False) if b != a + 1]
        if gaps:
            shown = ", ".join(f"{a} to {b}" for a, b in gaps[:3])
            problems.append(f"the page's post numbers jump ({shown}): posts may be missing")
    return problems
