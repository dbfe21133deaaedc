"""Reading forum HTML with lxml: one fast parse, element text and classes, a body's inner HTML and commands."""

from __future__ import annotations

import lxml.etree

from parsers.commands import Command, extract_commands


def parse_html(text: str):
    """The page as plain lxml.etree elements (lxml.html's element classes cost more than a parser's scan)."""
    parser = lxml.etree.HTMLParser(collect_ids=False)  # ids are read as attributes; the id index only costs
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
    # One serialisation of the whole element, then its own tags cut off: far cheaper than child by child.
    whole = lxml.etree.tostring(element, method="html", encoding="unicode", with_tail=False)
    return whole[whole.index(">") + 1 : whole.rindex("</")].strip()


def read_body(element) -> tuple[str, tuple[Command, ...]]:
    """A post body element's inner HTML and its commands, both from the page's own parse (no second one)."""
    body_html = inner_html(element)
    return body_html, tuple(extract_commands(body_html, element))


def read_title(text: str) -> str | None:
    """A thread page's title: the topic heading where the page has one, else the document's <title>."""
    if text.lstrip().startswith("{"):  # Discourse's JSON
        import json

        try:
            value = json.loads(text).get("title")
        except (ValueError, AttributeError):
            return None
        return " ".join(value.split()) if isinstance(value, str) and value.strip() else None
    doc = parse_html(text)
    for path in ("//h2[contains(@class,'topic-title')]", "//h1[contains(@class,'title')]", "//h1", "//h2", "//title"):
        for element in doc.xpath(path):
            title = " ".join(text_of(element).split())
            if title.lower().startswith(("thread:", "topic:")):  # vBulletin's "Thread: Name" heading
                title = title.split(":", 1)[1].strip()
            if title:
                return title
    return None
