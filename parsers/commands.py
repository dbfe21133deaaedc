"""Reading vote commands from a post's bold text, ignoring quotes, spoilers, code and struck text.

The excluded parts are cut out of the post first (their own titles and headers are bold too), then
the bold is collected in every form the engines use, adjacent bold runs joined, and each line of
bold read for commands: ``VOTE: X``, ``Vote - X``, ``vote:X``, ``##vote X``, ``[vote]X[/vote]``,
``UNVOTE``, ``unvote X vote Y``, ``nominate X``, a vote after a short preamble ("cross fingers, vote
X"), and sheriff election votes (``vote X for sheriff``, ``sheriff vote: X``: action "sheriff",
never a lynch vote). Targets are kept as typed; :mod:`assistant.reading.names` decides what they
name, and the ruleset what no-elimination words count. Bold that is not a command is ignored.
"""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace

from parsers.reading import EXTRACTOR_VERSION, Command, ReadPost  # noqa: F401 (where they were first kept)

# --- what does not count: quotes, spoilers, code, struck text
# -------------------------------------------

_EXCLUDED_TAGS = frozenset(
    {"blockquote", "cite", "pre", "code", "s", "strike", "del", "details", "script", "style"}
)
_EXCLUDED_CLASSES = frozenset(
    {
        # quotes: Discourse aside.quote, XenForo, vBulletin, Invision, MyBB, ProBoards
        "quote",
        "bbCodeBlock--quote",
        "bbcode_container",
        "bbcode_quote",
        "ipsQuote",
        "mycode_quote",
        # spoilers and vote-count boxes: MafiaScum quotetitle/quotecontent, Discourse, XenForo,
        # Invision
        "quotetitle",
        "quotecontent",
        "spoiler",
        "bbCodeSpoiler",
        "bbCodeInlineSpoiler",
        "ipsSpoiler",
        "spoiler-content",
        "spoilertitle",
        # code
        "codebox",
        "bbCodeBlock--code",
        "bbCodeCode",
        "bbcode_code",
        # signatures, in case a parser leaves one in the body
        "signature",
    }
)
# Other engines' and skins' names for the same boxes: "bbc_standard_quote", "quote_container",
# "sp-body"...
_EXCLUDED_CLASS_PART = re.compile(
    r"quote|spoiler|^sp-(?:wrap|head|body)$|^code_?(?:body|block|content)$", re.IGNORECASE
)
_STRUCK_TAGS = frozenset({"s", "strike", "del"})
_BOLD_TAGS = frozenset({"b", "strong"})
_BOLD_CLASSES = frozenset({"noboldsig", "bbvote", "bbcode-b", "mycode_b", "text-strong"})
_LINE_TAGS = frozenset(
    {
        "br",
        "p",
        "li",
        "ul",
        "ol",
        "tr",
        "table",
        "hr",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "fieldset",
        "legend",
        "dd",
        "dt",
        "dl",
        "section",
        "article",
        "center",
        "td",
        "th",
    }
)
_BOLD_STYLE = re.compile(r"font-weight\s*:\s*(bold|bolder|[6-9]00)\b", re.IGNORECASE)
_NORMAL_STYLE = re.compile(r"font-weight\s*:\s*(normal|lighter|[1-5]00)\b", re.IGNORECASE)
_HIDDEN_STYLE = re.compile(r"line-through|display\s*:\s*none", re.IGNORECASE)

# Longest bold stretch read as commands, and longest line or target kept: an unclosed bold tag can
# make a whole post bold, and nothing after this many characters is a vote a moderator would count.
_MAX_RUN = 4000
_MAX_LINE = 200
_PROSE_RUN = 400
_MAX_TARGET = 60


_NO_CLASSES: frozenset[str] = frozenset()


def _is_excluded(el, classes: AbstractSet[str], style: str) -> bool:
    if el.tag in _EXCLUDED_TAGS:
        return True
    if el.tag == "aside" and "quote" in classes:
        return True
    if classes & _EXCLUDED_CLASSES:
        return True
    if classes and any(_EXCLUDED_CLASS_PART.search(c) for c in classes):
        return True
    title = el.get("title")
    if title and title.startswith("This text is hidden"):
        return True
    return bool(style) and (
        "line-through" in style or ("none" in style and _HIDDEN_STYLE.search(style) is not None)
    )


def _bold_state(el, classes: AbstractSet[str], style: str, bold: bool) -> bool:
    if el.tag in _BOLD_TAGS or classes & _BOLD_CLASSES:
        return True
    if "font-weight" in style:
        if _BOLD_STYLE.search(style):
            return True
        if _NORMAL_STYLE.search(style):
            return False
    return bold


def _collect(root, *, brackets: bool) -> list[tuple[str, bool]]:
    """The countable text of the post as (text, is_bold) pieces, in reading order; "\\n" marks line
    breaks.

    ``root`` is only the body's container: its own tag and classes do not count (vBulletin's body is
    a blockquote, which inside a post would be a quote). ``brackets``: whether the post has a "[" at
    all, without which there is no unrendered BBCode to look for.
    """
    pieces: list[tuple[str, bool]] = []
    append = pieces.append

    def inside(el, bold: bool) -> None:
        if text := el.text:
            append((text, bold))
        for child in el:
            tag = child.tag
            if tag == "br":
                append(_BREAK)
            elif isinstance(tag, str):  # not a comment or a processing instruction
                attribute, style = child.get("class"), child.get("style") or ""
                if (
                    attribute
                    or style
                    or tag in _EXCLUDED_TAGS
                    or tag == "aside"
                    or child.get("title")
                ):
                    classes = set(attribute.split()) if attribute else _NO_CLASSES
                    style = style.lower()
                    if _is_excluded(child, classes, style):
                        if tag not in _STRUCK_TAGS and "line-through" not in style:
                            append(
                                (_CUT, False)
                            )  # struck text is read through: "VOTE: <s>Ann</s> Bob"
                        if tail := child.tail:
                            append((tail, bold))
                        continue
                    inner = _bold_state(child, classes, style, bold)
                else:
                    inner = bold or tag in _BOLD_TAGS
                if tag in _LINE_TAGS or (tag == "div" and "inline" not in style):
                    append(_BREAK)
                    inside(child, inner)
                    append(_BREAK)
                else:
                    inside(child, inner)
            if tail := child.tail:
                append((tail, bold))

    inside(root, False)
    if not brackets:
        return pieces
    pieces = _drop_unrendered_quotes(pieces)
    return [
        part for text, bold in pieces for part in (((text, True),) if bold else _literal_bold(text))
    ]


_BREAK = ("\n", False)
_BROKEN = "\x01"  # marks bold read from BBCode the forum did not render: a broken tag
_CUT = "\x00"  # where an excluded part (a quote, a spoiler...) was cut out
# Quote BBCode the forum left unrendered: "[quote="X"]" opens a quote, "[/quote]" closes one.
# Literal "[quote" text without its closing bracket is a player writing about quotes, not a quote.
_QUOTE_TAG = re.compile(r"\[quote\b[^\]\n]{0,80}\]|\[/quote\]", re.IGNORECASE)


def _drop_unrendered_quotes(pieces: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """Leave out what broken quote markup still quotes, as a reader would.

    Text after a literal "[quote...]" up to its "[/quote]" (or the end of the post) is quoted; a
    stray "[/quote]" closes a quote whose opening was lost, so the text since the last cut-out part
    is quoted too.
    """
    if not any("[" in text and _QUOTE_TAG.search(text) for text, _ in pieces):
        return pieces
    out: list[tuple[str, bool]] = []
    since_cut = 0  # index in ``out`` after the last cut-out part
    quoting = False
    for text, bold in pieces:
        if text == _CUT:
            out.append((text, bold))  # kept: a cut-out part ends a bold run
            since_cut = len(out)
            continue
        position = 0
        for tag in _QUOTE_TAG.finditer(text):
            closing = tag.group(0).startswith("[/")
            if quoting:
                if closing:
                    quoting = False
            elif closing:
                del out[_quote_opened(out, since_cut) :]
            else:
                out.append((text[position : tag.start()], bold))
                quoting = True
            position = tag.end()
            if closing:
                since_cut = len(out)
        if not quoting:
            out.append((text[position:], bold))
    return [p for p in out if p[0]]


def _quote_opened(out: list[tuple[str, bool]], since_cut: int) -> int:
    """Where the quote a stray "[/quote]" closes began: at a "[quote" whose tag markup broke apart
    ('[quote="In [url=' before a link), else at the last cut-out part. The text before that "[quote"
    is the post's own."""
    for k in range(len(out) - 1, since_cut - 1, -1):
        text, bold = out[k]
        at = text.lower().rfind("[quote")
        if at != -1:
            out[k] = (text[:at], bold)
            return k + 1
    return since_cut


# BBCode the forum left unrendered, as a reader still sees it: "[b]Vote: X[/b]", "[vote]X[/vote]",
# or a command line closed by "[/b]" whose opening tag went missing.
_LITERAL_BOLD = re.compile(
    r"\[b\]([^\[\n]{1,100}?)\[/b\]|(\[(?:un)?vote\][^\[\n]{0,80}?\[/(?:un)?vote\])"
    r"|(?:^|(?<=\n))([ \t]*(?:un)?vote\b[^\[\n]{0,80}?)\[/b\]",
    re.IGNORECASE,
)


def _literal_bold(text: str) -> tuple[tuple[str, bool], ...]:
    if "[" not in text:
        return ((text, False),)
    parts: list[tuple[str, bool]] = []
    last = 0
    for match in _LITERAL_BOLD.finditer(text):
        parts.append((text[last : match.start()], False))
        parts.append((_BROKEN + next(g for g in match.groups() if g is not None), True))
        last = match.end()
    if not parts:
        return ((text, False),)
    parts.append((text[last:], False))
    return tuple(p for p in parts if p[0])


# The command words, with the misspellings players leave in ("vtoe", "voet", "unvtoe").
_VOTE_WORD = r"(?:vote|vtoe|voet)"
_COMMAND_START = re.compile(
    rf"\s*(?:##|/)?(?:un[-\s]?{_VOTE_WORD}|{_VOTE_WORD}|nominate)\b", re.IGNORECASE
)


@dataclass(frozen=True)
class _Run:
    """A bold stretch, and whether other text stands on its first line before it or on its last line
    after it."""

    text: str
    text_before: bool = False
    text_after: bool = False


def _bold_runs(pieces: list[tuple[str, bool]]) -> list[_Run]:
    """Bold stretches; bold pieces separated only by whitespace or line breaks join into one run."""
    runs: list[_Run] = []
    current: list[str] = []
    gap: list[str] = []
    line_used = False  # the current line already holds text (a quote cut out ends a line)
    before = False
    for text, bold in pieces:
        if bold:
            if current and gap:
                current.append("\n" if any("\n" in g for g in gap) else " ")
            elif current and _COMMAND_START.match(text):
                current.append(" ")  # <b>unvote</b><b>vote: X</b> is two commands, not "unvotevote"
            elif not current:
                before = line_used
            gap = []
            current.append(text)
            line_used = (
                bool(text.rsplit("\n", 1)[-1].strip())
                if "\n" in text
                else line_used or bool(text.strip())
            )
        elif current:
            if text.strip():
                same_line = not any("\n" in g for g in gap)
                after = same_line and text != _CUT and bool(text.split("\n", 1)[0].strip())
                if not gap and text != _CUT and _DANGLING_VOTE.search(current[-1]):
                    # "[vote][/vote]Name": an empty vote tag, the name typed right after it
                    current.append(" " + text.split("\n", 1)[0])
                    after = False
                runs.append(_Run("".join(current), before, after))
                current, gap = [], []
                line_used = _line_used(text, line_used and same_line)
            else:
                gap.append(text)
        elif (
            text == _CUT
        ):  # _line_used spelled out: most of a post's pieces come here, before any bold
            line_used = False
        elif "\n" in text:
            last = text[text.rfind("\n") + 1 :]
            line_used = bool(last) and not last.isspace()
        elif not line_used:
            line_used = bool(text) and not text.isspace()
    if current:
        runs.append(_Run("".join(current), before, False))
    return runs


def _line_used(text: str, used: bool) -> bool:
    """Whether the line is holding text after ``text`` (``used``: whether it held text before)."""
    if text == _CUT:
        return False
    if "\n" in text:
        return bool(text.rsplit("\n", 1)[-1].strip())
    return used or bool(text.strip())


# --- the command grammar
# ------------------------------------------------------------------------------

_SPACES = re.compile(r"[ \t\r\f\v\u00a0\u2000-\u200a\u202f\u205f\u3000]+")
_INVISIBLE = re.compile(r"[\u200b-\u200d\u2060\ufeff\u00ad]")
_STRAY_TAG = re.compile(r"\[/?(?:un)?vote\]|\[/(?:un)?vote\b|\[/?[bius]\]|\[/\]", re.IGNORECASE)
_BBCODE_VOTE = re.compile(r"\[(un)?vote\](.{0,80}?)\[/(?:un)?vote\]", re.IGNORECASE)
# A command word: VOTE, UNVOTE (also UN-VOTE, UN VOTE), NOMINATE, optionally after "##" or "/";
# never a word fused to it ("vig-vote", "x-vote": another kind of vote).
_KEYWORD = re.compile(
    rf"(?<![\w])(?<!\w-)(?:##\s*|/)?(un[-\s]?{_VOTE_WORD}|{_VOTE_WORD}|nominate)(?![\w])"
    r"(?!\s*(?:count|tall(?:y|ies)|totals?)\b)",
    re.IGNORECASE,
)
# Between the command word and its target.
_SEPARATOR = re.compile(r"\s*(?:[:=\-\u2013\u2014>~|]+\s*)?(?:for\s+(?=\S))?", re.IGNORECASE)
# What may stand before the first command of a line: nothing, or a preamble that ends in punctuation
# ("cross fingers, vote X"), so that "I don't want to vote X" is not read as a vote.
_PREAMBLE_END = re.compile(r"(?:^|[,;:.!?\-\u2013\u2014()\[\]{}*~>|]|\.\.\.)\s*$")
# ...or a few words ending right before a colon-marked command ("Confirm vote: X", "Final vote: X").
_SHORT_PREAMBLE = re.compile(r"^\s*(?:[^\W\d_][\w'!]*\s+){1,3}$")
# ...or words that say which vote this is ("hammer vote X", "final vote X").
_VOTE_PREAMBLE = re.compile(
    r"^\s*(?:(?:and|so|then|hammer|final|official|formal)\s+){1,2}$", re.IGNORECASE
)
_NEGATION = re.compile(
    r"\b(?:not|no|never|didn't|don't|won't|wouldn't|can't|shouldn't|dont|didnt|wont|intent|intend)\b",
    re.IGNORECASE,
)
_COLON_NEXT = re.compile(r"\s*:")
_TRIM = " \t\n:;,.!?\"'`()[]{}<>*~|=-\u2013\u2014\u201c\u201d\u2018\u2019\u2026"


def _normalise(text: str) -> str:
    text = _INVISIBLE.sub("", text)
    return _SPACES.sub(" ", text)


def _read_line(line: str, raw: str, *, strict: bool = False, inline: bool = False) -> list[Command]:
    """The commands of one line of bold; ``inline``: other text shares the line outside the bold."""
    found = list(_KEYWORD.finditer(line))
    if not found:
        return []
    first = found[0]
    preamble = line[: first.start()]
    sheriff_line = bool(_SHERIFF_PREAMBLE.match(preamble))  # "Sheriff vote: X"
    if strict and preamble.strip(" -*>([{#~:") and not sheriff_line:
        return []
    if (
        not sheriff_line
        and not _PREAMBLE_END.search(preamble)
        and not _VOTE_PREAMBLE.match(preamble)
        and not (
            _SHORT_PREAMBLE.match(preamble)
            and not _NEGATION.search(preamble)
            and _COLON_NEXT.match(line, first.end())
        )
    ):
        return []
    # a preamble other than the words that say which vote this is ("Final vote: X") is other text on
    # the line
    inline = inline or bool(
        preamble.strip(_TRIM)
        and not sheriff_line
        and not _VOTE_PREAMBLE.match(preamble)
        and not (
            _SHORT_PREAMBLE.match(preamble)
            and not _NEGATION.search(preamble)
            and _COLON_NEXT.match(line, first.end())
        )
    )
    commands: list[Command] = []
    for i, match in enumerate(found):
        word = match.group(1).lower()
        action = "unvote" if word.startswith("un") else "nominate" if word == "nominate" else "vote"
        end = found[i + 1].start() if i + 1 < len(found) else len(line)
        rest = line[match.end() : end]
        sep = _SEPARATOR.match(rest)
        typed = rest[sep.end() :] if sep else rest
        cut_off = _CUT_OFF.search(typed)
        target = typed.strip(_TRIM)[:_MAX_TARGET].strip(_TRIM) or None
        if target is not None and cut_off:
            target += (
                _CUT_MARK  # "Mi--": a teasing cut-off name; names decides whether it names anyone
            )
        if action == "unvote":
            commands.append(Command("unvote", target, raw, inline=inline))
        elif target is not None:
            if action == "vote":
                target, sheriff = _sheriff_target(target)
                if sheriff or (sheriff_line and i == 0):
                    action = "sheriff"
            if target:
                commands.append(Command(action, target, raw, inline=inline))
    return _nested_votes(commands, found, line, raw)


# Millers Hollow's sheriff election is voted in the lynch thread: "vote X for sheriff", "vote for
# sheriff: X", "sheriff vote: X". Read apart so that no election vote is ever counted as a lynch
# vote.
_SHERIFF_PREAMBLE = re.compile(r"^\s*(?:[-*>#~(\[]\s*)?sheriff\s*(?:election\s*)?$", re.IGNORECASE)
_SHERIFF_AFTER = re.compile(r"\s+(?:for|as)\s+(?:the\s+)?sheriff$", re.IGNORECASE)
_SHERIFF_BEFORE = re.compile(r"^(?:for\s+)?sheriff(?:\s*[:=\-\u2013\u2014]\s*|\s+)", re.IGNORECASE)


def _sheriff_target(target: str) -> tuple[str | None, bool]:
    """A vote's target without its sheriff marker, and whether it had one."""
    after = _SHERIFF_AFTER.search(target)
    if after:
        return target[: after.start()].strip(_TRIM) or None, True
    before = _SHERIFF_BEFORE.match(target)
    if before and before.end() < len(target):
        return target[before.end() :].strip(_TRIM) or None, True
    return target, False


# A name broken off on purpose: "Mi--", "Mi\u2026", "Mi...".
_CUT_OFF = re.compile(r"\w(?:-{2,}|\u2014|\u2026|\.{3,})\s*$")
_CUT_MARK = "\u2026"
# What may stand between two votes of one line for both to be read in order ("vote A, then vote B").
_BETWEEN_VOTES = re.compile(r"[,;.!?|]|\b(?:and|then|or)\b", re.IGNORECASE)


def _nested_votes(commands: list[Command], found: list, line: str, raw: str) -> list[Command]:
    """ "VOTE: Ann VOTE: Bob" (a vote typed inside another's tag) names two targets at once: no
    vote.

    Votes on one line separated by punctuation or "and"/"then" stay two commands, read in order.
    """
    votes = [m for m in found if not m.group(1).lower().startswith("un")]
    if len(votes) < 2:
        return commands
    targets = {_fold(c.target) for c in commands if c.action == "vote" and c.target}
    if len(targets) < 2:
        return commands
    for before, after in zip(votes, votes[1:], strict=False):
        between = line[before.end() : after.start()]
        if not _BETWEEN_VOTES.search(between) and len(between.split()) <= 3:  # a name, not prose
            return [Command("void", None, raw, note="two votes in one tag")]
    return commands


def _fold(text: str) -> str:
    return "".join(c for c in text.casefold() if c.isalnum())


# Bold markup left in the text: the player's tag was broken ("[b]Vote: X[/b" or "Vote: X[b/]").
# A closing tag cut short or misspelt ("VOTE: X[/vot]") is a broken tag too.
_BROKEN_TAG = re.compile(
    r"\[/?[bius]\]|\[/\]|\[[bius]/\]|\[/[bius]\b|\[/[a-z]{1,12}\]", re.IGNORECASE
)


def _read_run(bold: _Run) -> list[Command]:
    run = _normalise(bold.text[:_MAX_RUN])
    bracket = "[" in run  # every broken tag starts with one: most runs skip both scans for them
    broken = _BROKEN in run or (bracket and _BROKEN_TAG.search(run) is not None)
    run = run.replace(_BROKEN, "")
    if bracket:  # so do BBCode votes and stray tags
        run = _BBCODE_VOTE.sub(lambda m: f"\n{'un' if m.group(1) else ''}vote: {m.group(2)}\n", run)
        run = _STRAY_TAG.sub(" ", _BROKEN_TAG.sub(" ", run))
    # A long bold stretch is prose (often an unclosed tag): there only a line that opens with a
    # command counts.
    strict = len(run) > _PROSE_RUN
    commands: list[Command] = []
    lines = [line.strip() for line in run.split("\n")]
    lines = [line for line in lines if line]
    shared = [False] * len(lines)  # other text outside the bold stands on the line
    if lines:
        shared[0] = bold.text_before
        shared[-1] = shared[-1] or bold.text_after
    for i, line in enumerate(lines):
        inline = shared[i]
        if len(line) > _MAX_LINE:
            # A long bold line is prose (often an unclosed tag): only a command that opens it
            # counts.
            line = line[:_MAX_LINE]
            head = _KEYWORD.match(line)
            if not head:
                continue
            inline = True
        # A dangling vote ends in its colon or dash: tested first, as the pattern is searched, not
        # matched.
        dangling = line.rstrip()[-1:] in _DANGLING_END and _DANGLING_VOTE.search(line)
        if dangling and i + 1 < len(lines) and _is_bare_name(lines[i + 1]):
            # "VOTE:" on one line and the name on the next
            line = f"{line} {lines[i + 1]}"
            lines[i + 1] = ""
            inline = inline or shared[i + 1]
        commands.extend(_read_line(line, line, strict=strict, inline=inline))
    if broken:
        # the moderator may not count it (a house rule) and should look at it: doubtful
        return [
            replace(c, note="broken tag") if c.action == "vote" and c.note is None else c
            for c in commands
        ]
    return commands


_DANGLING_VOTE = re.compile(
    rf"(?:^|[\n.,;!])\s*(?:(?:un[-\s]?{_VOTE_WORD}|##)\s*[:,;.]?\s*)?(?:##\s*)?(?:{_VOTE_WORD}|nominate)"
    r"\s*[:=\-\u2013\u2014]\s*$",
    re.IGNORECASE,
)


_DANGLING_END = ":=-\u2013\u2014"


def _is_bare_name(line: str) -> bool:
    return 0 < len(line) <= _MAX_TARGET and not _KEYWORD.search(line)


def _may_be_bold(lowered: str) -> bool:
    """Whether the lowered body has markup without which a post has no bold: bold tags; bold styles
    and classes, which stand in attributes (so after an "="); BBCode the forum left unrendered.

    Spelled out, not looped over: every post is tested, and a loop costs more than the tests
    themselves.
    """
    return (
        "<b>" in lowered
        or "<b " in lowered
        or "<strong" in lowered
        or (
            "=" in lowered
            and (
                "font-weight" in lowered
                or "bbvote" in lowered
                or "noboldsig" in lowered
                or "bbcode-b" in lowered
                or "mycode_b" in lowered
            )
        )
        or (
            "[" in lowered
            and (
                "[b]" in lowered
                or "[/b]" in lowered
                or "[vote]" in lowered
                or "[unvote]" in lowered
            )
        )
    )


_TAG = re.compile(r"<[^>]*>")


def _has_command_word(text: str) -> bool:
    return "vote" in text or "nominate" in text or "vtoe" in text or "voet" in text


def _parse(body_html: str):
    # lxml is imported when a post is first read: `votal count` replays stored commands and never
    # needs it.
    from lxml import etree
    from lxml import html as lxml_html

    try:  # huge_tree: a body nested hundreds deep or holding megabytes is read whole, not cut short
        parser = lxml_html.HTMLParser(huge_tree=True)
        return lxml_html.fragment_fromstring(body_html, create_parent="div", parser=parser)
    except (etree.ParserError, ValueError):
        return None


def extract_commands(body_html: str, body=None) -> list[Command]:
    """Every command in the post's countable bold text, in order.

    ``body``: the element ``body_html`` is the inner HTML of, when the caller has parsed the page
    already.
    """
    lowered = body_html.lower() if body_html else ""
    plain = _may_have_plain_vote(lowered)
    bold = _may_be_bold(lowered) and (
        _has_command_word(lowered) or _has_command_word(_TAG.sub("", lowered))
    )
    if not bold and not plain:
        return []  # most posts: no bold command (even with tags inside it, "<i>v</i>ote") and no plain "vote" line
    root = body if body is not None else _parse(body_html)
    if root is None:
        return []
    pieces = _collect(root, brackets="[" in body_html)
    commands: list[Command] = []
    if bold:
        for run in _bold_runs(pieces):
            commands.extend(_read_run(run))
        commands = _several_targets(commands)
    if plain:
        commands.extend(_plain_votes(pieces))
    return commands


def _several_targets(commands: list[Command]) -> list[Command]:
    """Three or more different targets in one post are no vote: the player is joking or
    undecided."""
    targets = list(
        dict.fromkeys(_fold(c.target) for c in commands if c.action == "vote" and c.target)
    )
    if len(targets) < 3:
        return commands
    shown = ", ".join(dict.fromkeys(c.target for c in commands if c.action == "vote" and c.target))
    raw = " / ".join(dict.fromkeys(c.raw for c in commands if c.action == "vote"))
    return [Command("void", shown[:_MAX_LINE], raw[:_MAX_LINE], note="several targets")]


# A sentence of plain text that states a vote, "vote X" or "I vote X", on a line of its own or after
# other sentences (Millers Hollow: "you simply state in any post ... "vote [insert name]" ... Please
# bold all votes"). Read with bold=False: a ruleset may flag it; it never counts by itself.
_LINE_TAGS_BEFORE = ("<br>", "<br/>", "<br />", "<p>", "<div>", "<li>", "<td>")
_SENTENCE_END = ".!?"


def _may_have_plain_vote(lowered: str) -> bool:
    """Whether some "vote" opens a line or a sentence outside bold, or follows "i ": the cheap test
    before a post is read for plain votes.

    A find loop looking one character back, not a regex: "vote" is in one post in three, mostly
    inside sentences, and a regex scan costs more than the rest of the post's reading.
    """
    at = lowered.find("vote")
    while at != -1:
        if _opens_sentence(lowered, at):
            return True
        at = lowered.find("vote", at + 4)
    return False


def _opens_sentence(lowered: str, at: int) -> bool:
    """Whether the "vote" at ``at`` (or an "i " before it) opens a line or follows a sentence."""
    start = at - 1 if at and lowered[at - 1] == " " else at
    if start == at - 1 and start and lowered[start - 1] == "i":  # "i vote"
        start -= 1
        start = start - 1 if start and lowered[start - 1] == " " else start
    if not start:
        return True
    before = lowered[start - 1]
    return (
        before == "\n"
        or before in _SENTENCE_END
        or (before == ">" and lowered[max(0, start - 7) : start].endswith(_LINE_TAGS_BEFORE))
    )


_PLAIN_VOTE = re.compile(
    r"^(?:i\s+)?vote\b\s*[:\-]?\s*(?:for\s+)?([^\s.,;!?:()]+(?:\s+[^\s.,;!?:()]+){0,2})\s*[.!]?$",
    re.IGNORECASE,
)
_NOT_A_TARGET = re.compile(
    r"(?:counts?|tall(?:y|ies)|totals?|the|a|is|was|will|would|now|here|soon|later"
    # words that stand where a name would but name nobody: "vote stands", "vote someone",
    # "vote him", "vote on X", "vote with us"
    r"|stands?|stays?|locked|some(?:one|body)|any(?:one|body)|every(?:one|body)|one|it|him|her"
    r"|me|them|you|us|this|that|there|yes|no|not|already|on|with)\b",
    re.IGNORECASE,
)
# A word after the name that makes the sentence a condition or a choice, not a vote: "vote Bob if he
# lies", "vote Bob or Ann", "vote Bob later".
_CLAUSE_WORD = re.compile(
    r"\s(?:if|unless|when|because|but|or|then|maybe|later|tomorrow|instead)\b", re.IGNORECASE
)
_QUOTE_MARKS = ('"', "\u201d", "'", "\u2019")
# Where one sentence of a line ends and the next begins.
_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+")


def _plain_votes(pieces: list[tuple[str, bool]]) -> list[Command]:
    votes: list[Command] = []
    line: list[str] = []
    for text, bold in [*pieces, _BREAK]:
        if bold or text == _CUT:
            line = [
                _CUT
            ]  # a line with bold in it (read as bold) or a cut-out part is no plain vote
            continue
        parts = text.split("\n")
        line.append(parts[0])
        for part in parts[1:]:
            whole = "".join(line)
            if _CUT not in whole:
                votes.extend(_stated_votes(_normalise(whole).strip()))
            line = [part]
    return votes


def _stated_votes(line: str) -> list[Command]:
    """The plain votes of one line: each sentence that is only "vote X" or "I vote X"."""
    sentences = _SENTENCE_BREAK.split(line) if "vote" in line.lower() else ()
    found: list[Command] = []
    for sentence in sentences:
        match = _PLAIN_VOTE.match(sentence)
        if not match or _KEYWORD.search(match.group(1)) or _NOT_A_TARGET.match(match.group(1)):
            continue
        if _CLAUSE_WORD.search(match.group(1)) or sentence.endswith(_QUOTE_MARKS):
            continue  # a condition, or the form of a vote quoted ("type 'vote: X'")
        inline = len(sentences) > 1  # other sentences share its line
        target = match.group(1).strip(_TRIM)
        found.append(Command("vote", target, sentence, bold=False, inline=inline))
    return found
