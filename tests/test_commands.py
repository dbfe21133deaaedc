"""Reading commands from post bodies: bold in every engine's markup, minus quotes, spoilers, code,
struck text."""

from __future__ import annotations

import pytest

from parsers.commands import Command, extract_commands


def vote(target: str, raw: str | None = None) -> Command:
    return Command("vote", target, raw if raw is not None else f"VOTE: {target}")


def read(body: str) -> list[tuple[str, str | None]]:
    return [(c.action, c.target) for c in extract_commands(body)]


# --- grammar
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bold", "expected"),
    [
        ("VOTE: Hiraki", [("vote", "Hiraki")]),
        ("Vote - Hiraki", [("vote", "Hiraki")]),
        ("vote:Hiraki", [("vote", "Hiraki")]),
        ("vote Hiraki", [("vote", "Hiraki")]),
        ("##vote Hiraki", [("vote", "Hiraki")]),
        ("Vote: Green Crayons.", [("vote", "Green Crayons")]),
        ("UNVOTE: Hiraki", [("unvote", "Hiraki")]),
        ("unvote", [("unvote", None)]),
        ("Unvote, Vote: mb", [("unvote", None), ("vote", "mb")]),
        ("unvote Hiraki vote Beefster", [("unvote", "Hiraki"), ("vote", "Beefster")]),
        ("Unvote: Mafiafixed Vote: 2birds", [("unvote", "Mafiafixed"), ("vote", "2birds")]),
        ("vote no lynch", [("vote", "no lynch")]),
        ("VOTE: No Elimination", [("vote", "No Elimination")]),
        ("vote: sleep", [("vote", "sleep")]),
        ("cross fingers, vote Hiraki", [("vote", "Hiraki")]),
        ("Confirm vote: Guderian", [("vote", "Guderian")]),
        ("nominate Hiraki", [("nominate", "Hiraki")]),
        ("[vote]Hiraki[/vote]", [("vote", "Hiraki")]),
        ("VOTE: WOMC[/unvote]", [("vote", "WOMC")]),
    ],
)
def test_command_forms_seen_in_real_threads(bold, expected):
    assert read(f"<strong>{bold}</strong>") == expected


@pytest.mark.parametrize(
    "bold",
    [
        "No lolwagons",
        "VigVote Hiraki",
        "Votes so far",
        "Intent to vote Saru.",
        "I don't want to vote Hiraki",
        "Didn't Vote SOS:",
        "Day 1 thoughts",
        "vote",
        "Vote Count 2",
        "MOD: Vote Count",
    ],
)
def test_bold_that_is_not_a_command_is_ignored(bold):
    assert read(f"<b>{bold}</b>") == []


def test_the_raw_text_is_the_line_the_command_was_read_from():
    assert extract_commands("<b>Unvote<br>\n<br>\nVote: King</b>") == [
        Command("unvote", None, "Unvote"),
        Command("vote", "King", "Vote: King"),
    ]


def test_several_commands_in_one_post_come_in_order():
    body = "<b>VOTE: Ann</b> text <b>UNVOTE</b> more text <b>VOTE: Bob</b>"
    assert read(body) == [("vote", "Ann"), ("unvote", None), ("vote", "Bob")]


# --- bold in every engine's markup
# -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        "<strong>VOTE: Ann</strong>",
        '<strong class="text-strong">VOTE: Ann</strong>',
        "<b>VOTE: Ann</b>",
        '<div style="display:inline;font-weight:bold">VOTE: Ann</div>',
        '<span style="font-weight: bold">VOTE: Ann</span>',
        '<span style="font-weight:700">VOTE: Ann</span>',
        '<span class="noboldsig">VOTE: Ann</span>',
        '<span class="bbvote" title="This is an official vote.">VOTE: Ann</span>',
        '<span class="bbcode-b">VOTE: Ann</span>',
    ],
)
def test_every_kind_of_bold_is_read(body):
    assert read(f"<p>Hello.</p>{body}<p>Bye.</p>") == [("vote", "Ann")]


def test_adjacent_bold_runs_join():
    assert read("<b>VOTE:</b> <strong>Ann</strong>") == [("vote", "Ann")]
    assert read("<b>VOTE</b><b>: Ann</b>") == [("vote", "Ann")]


def test_plain_text_is_not_a_command():
    assert read("I will VOTE: Ann later") == []
    assert [c.bold for c in extract_commands("VOTE: Ann")] == [
        False
    ]  # read only to be flagged, never counted


def test_unrendered_bbcode_bold_is_read():
    assert read("te<br>\n<br>\nVote: mb[/b]<br>\nI'm away Thursday.") == [("vote", "mb")]
    assert read("so [b]vote: Ann[/b] then") == [("vote", "Ann")]


# --- what never counts
# -----------------------------------------------------------------------------------

EXCLUDED = {
    "phpBB quote": "<blockquote><div><cite>Bob wrote:</cite><b>VOTE: Ann</b></div></blockquote>",
    "nested quote": (
        "<blockquote><div><cite>A wrote:</cite><blockquote><div><cite>B wrote:</cite>"
        "<b>VOTE: Ann</b></div></blockquote><b>VOTE: Cy</b></div></blockquote>"
    ),
    "uncited quote": '<blockquote class="uncited"><div><b>VOTE: Ann</b></div></blockquote>',
    "MafiaScum spoiler": (
        '<div style="margin:20px"><div class="quotetitle"><b>Spoiler: VOTE: Ann</b> <input type="button"></div>'
        '<div class="quotecontent"><div style="display:none"><b>VOTE: Ann</b></div></div></div>'
    ),
    "vote count box": (
        '<div style="margin:20px"><div class="quotetitle"><b>Votecount: </b></div>'
        '<div class="quotecontent"><div><b>Ann</b> (2): Bob, Cy</div></div></div>'
    ),
    "hidden text": (
        '<div style="display: inline; color:#000000" title="This text is hidden to prevent spoilers; to reveal, '
        'highlight it with your cursor."><b>VOTE: Ann</b></div>'
    ),
    "Discourse quote": (
        '<aside class="quote no-group" data-username="bob"><div class="title">bob:</div>'
        "<blockquote><p><strong>VOTE: Ann</strong></p></blockquote></aside>"
    ),
    "Markdown quote": "<blockquote><p><strong>VOTE: Ann</strong></p></blockquote>",
    "Discourse spoiler": '<div class="spoiler"><strong>VOTE: Ann</strong></div>',
    "details": "<details><summary><b>VOTE: Ann</b></summary><b>VOTE: Ann</b></details>",
    "XenForo quote": (
        '<blockquote class="bbCodeBlock bbCodeBlock--expandable bbCodeBlock--quote" data-quote="bob">'
        '<div class="bbCodeBlock-title">bob said:</div><div class="bbCodeBlock-content"><b>VOTE: Ann</b></div>'
        "</blockquote>"
    ),
    "XenForo spoiler": '<div class="bbCodeSpoiler"><b>VOTE: Ann</b></div>',
    "XenForo inline spoiler": '<span class="bbCodeInlineSpoiler"><b>VOTE: Ann</b></span>',
    "vBulletin quote": (
        '<div class="bbcode_container"><div class="bbcode_quote"><div class="quote_container">'
        '<div class="bbcode_postedby">Originally Posted by <strong>Vote</strong></div>'
        '<div class="message"><b>VOTE: Ann</b></div></div></div></div>'
    ),
    "code": '<div class="codebox"><p>Code:</p><pre><code>[b]VOTE: Ann[/b]</code></pre></div>',
    "inline code": "<code><b>VOTE: Ann</b></code>",
    "struck": "<s><b>VOTE: Ann</b></s>",
    "strike": "<strike><b>VOTE: Ann</b></strike>",
    "del": "<del><b>VOTE: Ann</b></del>",
    "line-through": '<div style="display:inline-flex;text-decoration:line-through"><b>VOTE: Ann</b></div>',
    "struck inside bold": '<b>VOTE: <span style="text-decoration: line-through">Ann</span></b>',
}


@pytest.mark.parametrize("body", EXCLUDED.values(), ids=EXCLUDED.keys())
def test_excluded_parts_never_count(body):
    assert read(f"{body}<b>VOTE: Zed</b>") == [("vote", "Zed")]


def test_struck_name_is_replaced_by_the_rest_of_the_bold():
    body = "<b>VOTE: <s>Ann</s> Bob</b>"
    assert read(body) == [("vote", "Bob")]


def test_quote_header_in_bold_is_not_a_vote():
    body = (
        '<div class="bbcode_container"><div class="bbcode_quote">Originally Posted by <b>Vote Ann</b>'
        "<div>hi</div></div></div>"
    )
    assert read(body) == []


# --- robustness
# ------------------------------------------------------------------------------------------


def test_unclosed_bold_does_not_turn_a_paragraph_into_a_vote():
    prose = "I think we should all vote Ann because she has been quiet. " * 30
    assert read(f"<b>Thoughts:<br>{prose}") == []


def test_unclosed_bold_still_reads_a_command_line():
    assert read("<b>VOTE: Ann<br>" + "and so on and so forth " * 200) == [("vote", "Ann")]


def test_long_targets_are_capped():
    (command,) = extract_commands("<b>VOTE: " + "x" * 500 + "</b>")
    assert command.action == "vote" and len(command.target) <= 60


def test_pathological_input_is_fast_enough_to_finish():
    body = "<b>" + ("vote " * 2000) + "</b>" + "<b>" * 500 + "a" * 10000
    assert isinstance(extract_commands(body), list)


@pytest.mark.parametrize("body", ["", "plain", "<", "<b></b>", "<b>   </b>", "<!-- c -->"])
def test_empty_or_odd_bodies_give_no_commands(body):
    assert extract_commands(body) == []


def test_entities_and_invisible_characters_are_normalised():
    assert read("<b>VOTE:&nbsp;Ann\u200b</b>") == [("vote", "Ann")]


def test_broken_quote_markup_still_quotes():
    stray_close = (
        "<blockquote><div><cite>A wrote:</cite>hi</div></blockquote>\n"
        "<b>VOTE: Ann</b> obv wagon riding is obv.[/quote]<br>\nMy own words. <b>VOTE: Bob</b>"
    )
    assert read(stray_close) == [("vote", "Bob")]
    unclosed_open = '<b>VOTE: Bob</b> [quote="Pie"]<br>\nquoted <b>VOTE: Ann</b>'
    assert read(unclosed_open) == [("vote", "Bob")]
    closed = '[quote="Pie"]<b>VOTE: Ann</b>[/quote] mine: <b>VOTE: Bob</b>'
    assert read(closed) == [("vote", "Bob")]
    # the opening tag broken apart by a link: the quote starts at its "[quote", not at the top of
    # the post
    split_open = '<b>VOTE: Bob</b><br>[quote="In [url=<a href="x">post 9</a>]<b>VOTE: Ann</b> said Pie[/quote] yes'
    assert read(split_open) == [("vote", "Bob")]


def test_a_cut_out_quote_ends_a_bold_run():
    assert read("<b>VOTE:</b><blockquote>x</blockquote><b>Bob</b>") == []


def test_in_a_long_bold_stretch_only_a_line_opening_with_a_command_counts():
    prose = "<br>".join(["This is my analysis of the day so far and what I make of it."] * 8)
    assert read(f"<b>{prose}<br>Well, vote Ann if you like.<br>VOTE: Bob</b>") == [("vote", "Bob")]


@pytest.mark.parametrize(
    "body",
    [
        '<blockquote class="bbc_standard_quote"><cite>Quote from: Bob</cite><b>VOTE: Ann</b></blockquote>',
        '<div class="quote_container"><b>VOTE: Ann</b></div>',
        '<div class="sp-wrap"><div class="sp-head">Spoiler</div><div class="sp-body"><b>VOTE: Ann</b></div></div>',
        '<span class="inline-spoiler"><b>VOTE: Ann</b></span>',
    ],
)
def test_other_engines_quote_and_spoiler_boxes_are_excluded(body):
    assert read(f"{body}<b>VOTE: Zed</b>") == [("vote", "Zed")]


def test_a_command_word_split_by_colour_tags_is_read():
    letters = "".join(f'<span style="color:#{i}{i}0000">{c}</span>' for i, c in enumerate("vote:"))
    assert read(f"<b>{letters} Ann</b>") == [("vote", "Ann")]


def test_a_name_on_the_line_after_vote_colon_is_its_target():
    assert read("<b>VOTE:</b><br>\n<b>Ann</b>") == [("vote", "Ann")]
    assert read("<b>Unvote, vote:<br>Ann</b>") == [("unvote", None), ("vote", "Ann")]
    assert read("<b>VOTE:<br>VOTE: Bob</b>") == [("vote", "Bob")]


@pytest.mark.parametrize(
    ("bold", "expected"),
    [
        ("vote Theseus for sheriff", [("sheriff", "Theseus")]),
        ("Vote: Theseus as sheriff", [("sheriff", "Theseus")]),
        ("vote for sheriff: Theseus", [("sheriff", "Theseus")]),
        ("Sheriff vote: Theseus", [("sheriff", "Theseus")]),
        ("sheriff vote Theseus", [("sheriff", "Theseus")]),
        ("vote SheriffWoody", [("vote", "SheriffWoody")]),
        ("vote for Theseus", [("vote", "Theseus")]),
    ],
)
def test_a_sheriff_election_vote_is_read_apart_from_lynch_votes(bold, expected):
    # millers-hollow-master-rules.txt, Sheriff: "The sheriff vote occurs just like the lynch vote"
    # (same thread, same words): a vote naming the sheriff election must never count as a lynch
    # vote.
    assert read(f"<strong>{bold}</strong>") == expected


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("vote Jason", [("vote", "Jason", False)]),
        ("<p>Vote: Green Crayons</p>", [("vote", "Green Crayons", False)]),
        ("hello<br>vote Jason<br>bye", [("vote", "Jason", False)]),
        ("<b>vote Medea</b><br>vote Jason", [("vote", "Medea", True), ("vote", "Jason", False)]),
        ("I will vote Jason later", []),
        ("vote count is up", []),
        ("vote for the wolf. it is obvious", []),
        ("<blockquote>vote Jason</blockquote>", []),
        ("vote Jason <b>and</b> more", []),
    ],
)
def test_a_plain_line_that_is_only_vote_x_is_read_as_an_unbolded_vote(body, expected):
    # millers-hollow-master-rules.txt, Day Time Lynching: "you simply state in any post ... "vote
    # [insert name]" ... Please bold all votes": such a vote is read (bold=False) so a ruleset can
    # flag it; it never counts by itself.
    assert [(c.action, c.target, c.bold) for c in extract_commands(body)] == expected


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("Birch dodged my question twice. vote Birch", [("vote", "Birch", "vote Birch")]),
        ("Birch lies! Vote Birch.<br>More later.", [("vote", "Birch", "Vote Birch.")]),
        ("Vote Birch. He is a wolf.", [("vote", "Birch", "Vote Birch.")]),
        ("So. I vote for Birch", [("vote", "Birch", "I vote for Birch")]),
        ("I would vote Birch if he claimed.", []),  # a condition, not a vote
        ("We should all vote Birch.", []),  # chat about voting
        ("lol. vote Birch or Medea", []),
        ("fine. vote Birch if he stays quiet", []),
        ("Vote Birch?", []),  # a question
        ("ok. Vote stands.", []),  # words where a name would be, naming nobody
        ("ok. Vote someone.", []),
        ('To vote, type "vote: X"', []),  # the form of a vote, quoted
        ("<blockquote>He is odd. vote Birch</blockquote>Quoted.", []),
    ],
)
def test_a_plain_sentence_stating_a_vote_is_read_as_an_unbolded_vote(body, expected):
    # millers-hollow-master-rules.txt, Day Time Lynching: "To vote for someone you simply state in
    # any post ... "vote [insert name]" ... Please bold all votes": a sentence that is only that
    # statement, after others on its line, is a stated vote too (bold=False: the ruleset flags it).
    read = extract_commands(body)
    assert [(c.action, c.target, c.raw) for c in read] == expected
    assert all(not c.bold and c.inline for c in read)


# --- issue 17: votes the way players write them
# --------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("<b>vtoe: Marigold</b>", [("vote", "Marigold")]),  # misspelled command words
        ("<b>voet Marigold</b>", [("vote", "Marigold")]),
        ("<b>unvtoe, vote: Marigold</b>", [("unvote", None), ("vote", "Marigold")]),
        ("<b>hammer vote Marigold</b>", [("vote", "Marigold")]),  # words saying which vote this is
        ("<b>Final vote Marigold</b>", [("vote", "Marigold")]),
        (
            "<b>Vote to Hammer: Marigold</b>",
            [("vote", "to Hammer: Marigold")],
        ),  # names reads past "to hammer"
        ("<b>Vig-vote: Marigold</b>", []),  # a word fused to "vote": another kind of vote
        ("<b>x-vote Marigold</b>", []),
        (
            '<span class="bbvote" title="This is an official vote.">VOTE: </span>Marigold',
            [("vote", "Marigold")],
        ),
        (
            "<b>VOTE:</b>Marigold and more",
            [("vote", "Marigold and more")],
        ),  # names reads the leading words
        ("<b>VOTE: Mi--</b>", [("vote", "Mi\u2026")]),  # a teasing cut-off: names decides
        ("<b>VOTE: Mi\u2026</b>", [("vote", "Mi\u2026")]),
        (
            "I'd [quote this if I could <b>VOTE: Marigold</b>",
            [("vote", "Marigold")],
        ),  # literal "[quote" text
    ],
)
def test_votes_as_players_write_them(body, expected):
    assert read(body) == expected


def test_three_different_targets_in_one_post_are_no_vote():
    commands = extract_commands("<b>VOTE: Ann</b> or <b>VOTE: Bob</b> or maybe <b>VOTE: Cid</b>")
    assert [(c.action, c.note) for c in commands] == [("void", "several targets")]
    # the same target three times, or two targets in turn, are votes read in order
    assert read("<b>VOTE: Ann</b> <b>VOTE: ann</b> <b>VOTE: ANN</b>") == [
        ("vote", "Ann"),
        ("vote", "ann"),
        ("vote", "ANN"),
    ]
    assert read("<b>VOTE: Ann</b> no wait <b>VOTE: Bob</b>") == [("vote", "Ann"), ("vote", "Bob")]


def test_a_vote_typed_inside_another_votes_tag_is_no_vote():
    body = '<span class="bbvote" title="This is an official vote.">VOTE: Ann VOTE: Bob</span>'
    assert [(c.action, c.note) for c in extract_commands(body)] == [
        ("void", "two votes in one tag")
    ]
    assert read("<b>VOTE: Ann. VOTE: Bob</b>") == [("vote", "Ann"), ("vote", "Bob")]


@pytest.mark.parametrize(
    "body",
    [
        "[b]VOTE: Marigold[/b]",  # the forum left the tag unrendered
        "VOTE: Marigold[/b]",  # a closing tag without its opening
        "<b>VOTE: Marigold[b/]</b>",  # a mistyped closing tag inside bold
        '<span class="bbvote">VOTE: Marigold[/vot]</span>',  # a closing tag cut short
    ],
)
def test_a_vote_read_from_a_broken_tag_is_marked(body):
    assert [(c.action, c.target, c.note) for c in extract_commands(body)] == [
        ("vote", "Marigold", "broken tag")
    ]


def test_a_vote_from_whole_tags_is_not_marked():
    assert [c.note for c in extract_commands("<b>VOTE: Marigold</b>")] == [None]


# --- a command's line: [house] votes_on_own_line refuses a vote that shares its line with other
# text ---------


@pytest.mark.parametrize(
    ("body", "inline"),
    [
        ("<b>VOTE: Wendeline</b>", False),
        ("Some thoughts.<br><b>VOTE: Wendeline</b><br>More thoughts.", False),
        ("<b>Final vote: Wendeline</b>", False),  # words that say which vote this is
        ("<b>unvote Osric vote Wendeline</b>", False),  # a line of commands only
        (
            "<blockquote>VOTE: Osric</blockquote><b>VOTE: Wendeline</b>",
            False,
        ),  # a quote ends its line
        ("I think so. <b>VOTE: Wendeline</b>", True),
        ("<b>VOTE: Wendeline</b> because of her last post", True),
        ("<b>so after all that, vote Wendeline</b>", True),  # a preamble in the bold
        ("and so [vote]Wendeline[/vote]", True),  # unrendered BBCode after text
        ("first line<br>then <b>VOTE: Wendeline</b>", True),
    ],
)
def test_a_command_sharing_its_line_with_other_text_is_marked(body, inline):
    command = extract_commands(body)[-1]
    assert (command.action, command.target, command.inline) == ("vote", "Wendeline", inline)


def test_a_name_typed_after_an_empty_vote_tag_is_on_the_votes_line():
    (command,) = extract_commands("<b>VOTE:</b> Wendeline")
    assert (command.target, command.inline) == ("Wendeline", False)
