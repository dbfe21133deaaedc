"""Drafts: every kind in both flavours against golden files, escaping, template overrides,
privacy."""

from __future__ import annotations

import os
import re
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from golden.harness import count_day
from support import game_toml

from assistant.counting.clock import day_bounds
from assistant.counting.count import ruleset_for
from assistant.counting.votal import Action, Flag, NoEliminationCount, Runoff, Votal, Wagon
from assistant.counting.votes import VoteBook
from assistant.gamefile.game import Death, parse_game
from assistant.gamefile.outcome import Outcome, words_of
from assistant.gamefile.rules import bundled_rulesets, load_ruleset, parse_ruleset
from assistant.output.drafts import (
    FLAVORS,
    KINDS,
    DraftError,
    build_context,
    default_flavor,
    escape_bbcode,
    escape_markdown,
    night_deaths,
    render_draft,
    render_votal_draft,
    safe_url,
)
from assistant.reading.names import Roster
from parsers.commands import Command, ReadPost

GOLDEN = Path(__file__).resolve().parent / "golden_drafts"
# Set VOTAL_UPDATE_GOLDEN=1 to rewrite the golden files after a deliberate change; review the diff.
UPDATE = os.environ.get("VOTAL_UPDATE_GOLDEN") == "1"

THREAD = "https://forum.example.org/viewtopic.php?f=5&t=900"

GAME = game_toml(
    [
        "Ariadne",
        "Theseus",
        "[b]x[/b]",
        {"name": "**y**", "replacements": ["Icarus"]},
        "Helen",
        "Paris",
        "Medea",
    ],
    title="Witch Hunt Test",
    thread=THREAD,
    ruleset="witch-hunt-test",
    moderators=["Cobalt"],
    extra='forum = "phpbb"\ntimezone = "America/New_York"\nstart = 2024-10-29T22:00:00\n',
    tables=(
        '[[deaths]]\nplayer = "Medea"\nphase = "night 1"\n'
        '[[deaths]]\nplayer = "Helen"\nphase = "night 1"\n'
    ),
)

PRIVATE = """
[private]
judge = "Ariadne"
sheriff = "Theseus"
lovers = [["Paris", "Ariadne"]]
roles = { Theseus = "Priest", Paris = "Gravedigger" }

[[private.decisions]]
day = 2
judge = "Paris"
"""

# Witch Hunt 2023's numbers and words, written here so the golden files do not move with the bundled
# file.
MAJORITY_RULES = """
[ruleset]
name = "witch-hunt-test"
title = "Witch Hunt (test)"
elimination_word = "elimination"
no_elimination_label = "Sleep"
[early_end]
on = ["unanimous_minus_one"]
[deadline]
decide = "majority"
no_majority = "judge"
sleep_majority = "judge"
[phases]
day_hours = 48
night_hours = 24
sod = "22:00"
timezone = "America/New_York"
[posts]
daily_minimum = 10
daily_cap = 200
cap_lifted_hours_before_eod = 2
"""

# Millers Hollow's: plurality at the deadline, a tie opens a two-hour runoff.
PLURALITY_RULES = """
[ruleset]
name = "plurality-test"
title = "Plurality (test)"
elimination_word = "lynch"
no_elimination_label = "Abstain"
[early_end]
on = []
[deadline]
decide = "plurality"
tie = "runoff"
[runoff]
hours = 2
[phases]
day_hours = 48
night_hours = 24
sod = "22:00"
timezone = "America/New_York"
"""

NOW = datetime(2024, 11, 3, 15, 30, tzinfo=UTC)  # 11 h 30 min before day 2's deadline


def url(post: int) -> str:
    return f"https://forum.example.org/viewtopic.php?p={5000 + post}#p{5000 + post}"


def vote(post: int, voter: str, target: str | None, *, no_elimination: bool = False) -> Action:
    return Action(
        post=post,
        voter=voter,
        author=voter,
        text=f"vote {target or 'sleep'}",
        action="vote",
        target=target,
        no_elimination=no_elimination,
        step="exact",
        counted=True,
        why_not=None,
        url=url(post),
    )


def recorded(votal: Votal) -> Votal:
    """The votal with the vote changes its (counted, single) vote actions make, as the tally records
    them."""
    book = VoteBook()
    for a in votal.actions:
        book.vote(a.voter, None if a.no_elimination else a.target, (a.post, 0))
    return replace(votal, changes=tuple(book.changes))


def game(private: bool = True):
    return parse_game(GAME + (PRIVATE if private else ""), path="game.toml")


def majority_rules():
    return parse_ruleset(MAJORITY_RULES)


def plurality_rules():
    return parse_ruleset(PLURALITY_RULES)


LIVING = ("Ariadne", "Theseus", "[b]x[/b]", "**y**", "Paris")


def day2(ruleset, **changes) -> Votal:
    """Day 2 as of post 45: Theseus 2, [b]x[/b] 1, Sleep 1, [b]x[/b] not voting."""
    base = Votal(
        day=2,
        alive=5,
        majority=3,
        as_of_post=45,
        wagons=(Wagon("Theseus", 2, ("Ariadne", "**y**")), Wagon("[b]x[/b]", 1, ("Paris",))),
        no_elimination=NoEliminationCount(1, ("Theseus",)),
        not_voting=("[b]x[/b]",),
        outcome=None,
        problems=(),
        deadline=day_bounds(game(), ruleset, 2).end,
        living=LIVING,
        ruleset=ruleset.name,
        actions=(
            vote(40, "Ariadne", "Paris"),
            vote(41, "Ariadne", "Theseus"),
            vote(43, "Theseus", None, no_elimination=True),
            vote(44, "Paris", "[b]x[/b]"),
            vote(45, "**y**", "Theseus"),
        ),
    )
    return recorded(replace(base, **changes))


def day2_posts() -> list[ReadPost]:
    """Day 2's posts for the post minimum: Ariadne 10, Theseus 3, [b]x[/b] 0, Icarus 12, Paris 9."""
    authors = ["Ariadne"] * 10 + ["Theseus"] * 3 + ["Icarus"] * 12 + ["Paris"] * 9 + ["Cobalt"] * 4
    start = datetime(2024, 11, 2, 3, 0, tzinfo=UTC)
    return [
        ReadPost(1 + i, str(5001 + i), author, start.replace(hour=3 + i % 20), url(1 + i), ())
        for i, author in enumerate(authors)
    ]


def scenario(kind: str, *, private: bool = True):
    """The game, ruleset and votal each kind of draft is shown with."""
    g = game(private)
    majority = majority_rules()
    if kind == "day-end":
        return (
            g,
            majority,
            day2(majority, outcome=Outcome("elimination", "Theseus", 47, "majority")),
        )
    if kind == "judge":
        return g, majority, day2(majority, outcome=Outcome("elimination", "Paris", 45, "judge"))
    if kind == "early-end":
        return (
            g,
            majority,
            day2(
                majority,
                wagons=(Wagon("Theseus", 4, ("Ariadne", "**y**", "Paris", "[b]x[/b]")),),
                no_elimination=NoEliminationCount(),
                not_voting=("Theseus",),
                outcome=Outcome("elimination", "Theseus", 46, "unanimous_minus_one"),
                actions=(
                    vote(41, "Ariadne", "Theseus"),
                    vote(44, "Paris", "Theseus"),
                    vote(45, "**y**", "Theseus"),
                    vote(46, "[b]x[/b]", "Theseus"),
                ),
            ),
        )
    if kind == "runoff":
        plurality = plurality_rules()
        deadline = day_bounds(g, plurality, 2).end
        return (
            g,
            plurality,
            day2(
                plurality,
                majority=None,
                wagons=(
                    Wagon("Theseus", 2, ("Ariadne", "**y**")),
                    Wagon("[b]x[/b]", 2, ("Paris", "Theseus")),
                ),
                no_elimination=NoEliminationCount(),
                not_voting=("[b]x[/b]",),
                outcome=Outcome("pending", None, 45, "runoff"),
                runoff=Runoff(
                    ("Theseus", "[b]x[/b]"), deadline.replace(hour=deadline.hour + 2), 45
                ),
                actions=(
                    vote(41, "Ariadne", "Theseus"),
                    vote(43, "Theseus", "[b]x[/b]"),
                    *day2(plurality).actions[3:],
                ),
            ),
        )
    if kind == "reminder":
        return (
            g,
            majority,
            day2(
                majority, flags=(Flag("Paris", "missed two days of voting: flagged for removal"),)
            ),
        )
    return g, majority, day2(majority)


def render(
    kind: str, flavor: str, *, private: bool = True, template_dir: Path | None = None
) -> str:
    g, ruleset, votal = scenario(kind, private=private)
    context = build_context(g, ruleset, [votal], day=2, now=NOW, posts=day2_posts())
    return render_draft(kind, context, flavor=flavor, template_dir=template_dir)


# --- every kind, both flavours, whole output
# ---------------------------------------------------------------


@pytest.mark.parametrize("flavor", FLAVORS)
@pytest.mark.parametrize("kind", KINDS)
def test_every_draft_matches_its_golden_file(kind, flavor):
    path = GOLDEN / f"{kind}.{flavor}.txt"
    text = render(kind, flavor)
    if UPDATE:
        path.parent.mkdir(exist_ok=True)
        path.write_text(text + "\n", encoding="utf-8")
    assert text == path.read_text(encoding="utf-8").rstrip("\n")


def test_day_start_announces_the_night_in_order_with_majority_and_deadline_across_dst():
    g, ruleset, votal = scenario("day-start")
    context = build_context(g, ruleset, [votal], day=2, now=NOW)
    assert context.deaths == ("Medea", "Helen")  # game-file order
    assert [p.name for p in context.living] == list(LIVING)
    assert (context.alive, context.majority) == (5, 3)
    # Day 2 ends 48 h of wall clock after 10 pm EDT on 1 November: 10 pm EST, after the DST change.
    assert context.deadline == datetime(2024, 11, 4, 3, 0, tzinfo=UTC)
    assert context.deadline_local == "Sunday 3 November 2024, 22:00 EST"
    assert context.deadline_utc == "Monday 4 November 2024, 03:00 UTC"
    assert context.time_left == "11 hours and 30 minutes"


def test_a_reveals_extension_moves_the_deadline_and_says_so():
    g = parse_game(GAME + '[[events]]\nday = 2\nkind = "extend"\nhours = 24\n', path="game.toml")
    context = build_context(g, majority_rules(), [], day=2, now=NOW)
    assert (context.deadline, context.extended_hours) == (
        datetime(2024, 11, 5, 3, 0, tzinfo=UTC),
        24,
    )
    assert (
        "Deadline (extended by 24 hours): [b]Monday 4 November 2024, 22:00 EST[/b]"
        in render_draft("day-start", context)
    )


def test_a_day_with_no_votal_yet_takes_the_living_and_majority_from_the_game_file():
    g, ruleset = game(), majority_rules()
    context = build_context(g, ruleset, [], day=2, now=None)
    assert (context.alive, context.majority, context.as_of_post, context.wagons) == (5, 3, None, ())
    assert context.deaths == ("Medea", "Helen")
    assert context.not_voting == (
        "Ariadne",
        "Theseus",
        "[b]x[/b]",
        "Icarus (replaced **y**)",
        "Paris",
    )
    assert [p.shown for p in context.living] == list(
        context.not_voting
    )  # a replaced seat by its current account
    assert [(p.name, p.account) for p in context.living if p.name != p.account] == [
        ("**y**", "Icarus")
    ]


def test_plurality_rules_post_no_majority_number():
    g, ruleset, votal = scenario("runoff")
    context = build_context(g, ruleset, [votal], day=2, now=NOW)
    assert context.majority is None
    assert all(w.to_majority is None for w in context.wagons)
    assert "no majority is needed" in render_draft("votal", context)


def test_reminder_lists_who_has_not_voted_and_who_is_under_the_post_minimum():
    g, ruleset, votal = scenario("reminder")
    context = build_context(g, ruleset, [votal], day=2, now=NOW, posts=day2_posts())
    assert context.not_voting == ("[b]x[/b]",)
    assert [(c.name, c.posts) for c in context.under_minimum] == [
        ("Theseus", 3),
        ("[b]x[/b]", 0),
        ("Paris", 9),
    ]
    assert context.cap_lifted_local == "Sunday 3 November 2024, 20:00 EST"


# --- the end-to-end path from posts
# -------------------------------------------------------------------------

TINY = game_toml(
    ["Alice", "Bob", "Carol"],
    title="Tiny",
    thread="https://forum.example.org/viewtopic.php?t=7",
    days=[(1, 0)],
)


def read_post(number: int, author: str, *commands: tuple[str, str | None]) -> ReadPost:
    return ReadPost(
        number,
        str(100 + number),
        author,
        datetime(2024, 5, 1, 12, number, tzinfo=UTC),
        f"https://forum.example.org/viewtopic.php?p={100 + number}#p{100 + number}",
        tuple(Command(action, target, f"{action} {target}") for action, target in commands),
    )


def test_votal_draft_from_replayed_posts_links_each_standing_vote():
    g = parse_game(TINY)
    ruleset = load_ruleset("mafiascum")
    posts = [
        read_post(1, "Alice", ("vote", "Carol")),
        read_post(2, "Bob", ("vote", "Alice")),
        read_post(3, "Mod"),
    ]
    votal = count_day(g, posts, ruleset=ruleset, roster=Roster.from_game(g, ruleset), day=1)
    assert render_votal_draft(g, votal, ruleset=ruleset, posts=posts) == "\n".join(
        [
            "[b]Tiny: Votal, Day 1[/b] (as of post #3)",
            "",
            "[b]Carol[/b] (1, L-1): [url=https://forum.example.org/viewtopic.php?p=101#p101]Alice[/url]",
            "[b]Alice[/b] (1, L-1): [url=https://forum.example.org/viewtopic.php?p=102#p102]Bob[/url]",
            "[b]Not voting[/b] (1): Carol",
            "",
            "With 3 alive, it takes [b]2[/b] votes to lynch.",
        ]
    )


def test_without_permalinks_a_phpbb_vote_links_to_the_thread_page_starting_at_its_post():
    g = parse_game(TINY)
    ruleset = load_ruleset("mafiascum")
    votal = Votal(
        day=1,
        alive=3,
        majority=2,
        as_of_post=4,
        wagons=(Wagon("Carol", 1, ("Alice",)),),
        no_elimination=NoEliminationCount(),
        not_voting=("Bob", "Carol"),
        outcome=None,
        problems=(),
        living=("Alice", "Bob", "Carol"),
        actions=(replace(vote(4, "Alice", "Carol"), url=None),),
    )
    votal = recorded(votal)
    text = render_votal_draft(g, votal, ruleset=ruleset)
    assert "[url=https://forum.example.org/viewtopic.php?t=7&start=4]Alice[/url]" in text


# --- escaping
# -------------------------------------------------------------------------------------------------

NASTY = [
    "[b]x[/b]",
    "[url=http://evil.example]a[/url]",
    "[/quote]",
    "[[b]]",
    "[*]",
    "[i][/i]",
    "a\n[b]b",
    "[NK] Bo",
    "[ b]x",
    "[b [i]]",
]
_LIVE_TAG = re.compile(r"\[(/?[A-Za-z*][^\]\[]*)\]")


@pytest.mark.parametrize("name", NASTY)
def test_bbcode_escaping_leaves_no_tag_but_empty_italics_and_shows_the_name(name):
    escaped = escape_bbcode(name)
    tags = _LIVE_TAG.findall(escaped)
    # The only tags left are the inserted empty [i][/i] pairs; removing them gives the name back.
    assert set(tags) <= {"i", "/i"} and tags.count("i") == tags.count("/i")
    assert escaped.replace("[i][/i]", "") == " ".join(name.split())


def test_markdown_escaping():
    assert escape_markdown("**y**") == r"\*\*y\*\*"
    assert escape_markdown("[a](http://e.example)") == r"\[a\](http://e.example)"
    assert (
        escape_markdown("_x_ `c` <b> a|b ~s~ &amp; #tag")
        == r"\_x\_ \`c\` \<b\> a\|b \~s\~ \&amp; \#tag"
    )
    assert escape_markdown("1. first") == r"1\. first"
    assert escape_markdown("- dash") == r"\- dash"
    assert escape_markdown("back\\slash") == "back\\\\slash"
    assert escape_markdown("Mr. Smith-Jones") == "Mr. Smith-Jones"


def test_links_are_only_http_and_cannot_close_the_markup():
    assert safe_url("javascript:alert(1)", "bbcode") is None
    assert safe_url("https://e.example/a b]c[d", "bbcode") == "https://e.example/a%20b%5Dc%5Bd"
    assert safe_url("https://e.example/a(b)", "markdown") == "https://e.example/a%28b%29"


@pytest.mark.parametrize("flavor", FLAVORS)
def test_a_player_named_like_markup_cannot_break_any_draft(flavor):
    for kind in KINDS:
        text = render(kind, flavor)
        if flavor == "bbcode":
            assert "[b]x[/b]" not in text
            opened = [t for t in _LIVE_TAG.findall(text) if not t.startswith("/")]
            closed = [t[1:] for t in _LIVE_TAG.findall(text) if t.startswith("/")]
            assert sorted(t.split("=")[0] for t in opened if t != "*") == sorted(closed), kind
        else:
            assert "**y**" not in text.replace(r"\*\*y\*\*", "")


# --- privacy
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("flavor", FLAVORS)
@pytest.mark.parametrize("kind", KINDS)
def test_private_facts_change_no_draft(kind, flavor):
    assert render(kind, flavor, private=True) == render(kind, flavor, private=False)


@pytest.mark.parametrize("flavor", FLAVORS)
def test_the_judge_draft_announces_the_decision_without_naming_the_judge(flavor):
    g = game()
    assert g.private.judge == "Ariadne"
    text = render("judge", flavor)
    assert "Paris" in text and "Ariadne" not in text
    for role in g.private.roles.values():
        assert all(role not in render(kind, flavor) for kind in KINDS)


@pytest.mark.parametrize(
    "outcome, expected",
    [
        (
            Outcome("elimination", "Paris", 45, "judge"),
            "The Judge has decided: Paris is eliminated.",
        ),
        (
            Outcome("no_elimination", None, 45, "judge"),
            "The decision passed to the Judge: no one is eliminated.",
        ),
        (Outcome("pending", None, 45, "no_majority"), "The decision passes to the Judge."),
    ],
)
def test_judge_decisions_read_the_same_whoever_the_judge_is(outcome, expected):
    """Whoever holds the role, and whether or not the game file names one, the announcement is the
    same."""
    ruleset = majority_rules()
    for judge in ("Ariadne", "Theseus", None):
        g = replace(game(), private=replace(game().private, judge=judge))
        context = build_context(g, ruleset, [day2(ruleset, outcome=outcome)], day=2, now=NOW)
        assert context.judgment.text.startswith(expected)


# --- templates
# ----------------------------------------------------------------------------------------------


def test_a_moderators_template_overrides_the_bundled_one_and_still_gets_escaped_values(tmp_path):
    (tmp_path / "votal.j2").write_text(
        '{% import "_macros.j2" as m %}Day {{ day }} for {{ title }}; not voting: {{ m.names(not_voting) }}\n'
    )
    (tmp_path / "markdown").mkdir()
    (tmp_path / "markdown" / "votal.j2").write_text("Markdown: {{ not_voting[0] }}\n")
    assert render("votal", "bbcode", template_dir=tmp_path) == (
        "Day 2 for Witch Hunt Test; not voting: [[i][/i]b]x[[i][/i]/b]"
    )
    assert render("votal", "markdown", template_dir=tmp_path) == r"Markdown: \[b\]x\[/b\]"
    # Kinds the folder does not override come from the bundled templates.
    assert render("judge", "bbcode", template_dir=tmp_path) == render("judge", "bbcode")


def test_the_game_files_templates_key_is_used_for_the_votal_draft(tmp_path):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "votal.j2").write_text("{{ alive }} alive\n")
    text = TINY.replace('moderators = ["Mod"]', 'moderators = ["Mod"]\ntemplates = "mine"')
    g = parse_game(text, path=tmp_path / "game.toml")
    votal = day2(
        majority_rules(), living=("Alice", "Bob", "Carol"), alive=3, majority=2, actions=()
    )
    assert render_votal_draft(g, votal, ruleset=load_ruleset("mafiascum")) == "3 alive"


def test_bad_requests_are_one_line_errors(tmp_path):
    g, ruleset, votal = scenario("votal")
    context = build_context(g, ruleset, [votal], day=2, now=NOW)
    with pytest.raises(DraftError, match="unknown draft kind 'day_start'"):
        render_draft("day_start", context)
    with pytest.raises(DraftError, match="unknown flavor 'html'"):
        render_draft("votal", context, flavor="html")
    with pytest.raises(DraftError, match="does not exist"):
        render_draft("votal", context, template_dir=tmp_path / "missing")
    (tmp_path / "votal.j2").write_text("{{ no_such_value }}")
    with pytest.raises(DraftError, match="votal.j2 \\(bbcode\\): 'no_such_value' is undefined"):
        render_draft("votal", context, template_dir=tmp_path)


# --- words and small rules
# -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "word, verb, past, noun",
    [
        ("lynch", "lynch", "lynched", "lynch"),
        ("elimination", "eliminate", "eliminated", "elimination"),
        ("execution", "execute", "executed", "execution"),
        ("eliminate", "eliminate", "eliminated", "elimination"),
        ("eliminated", "eliminate", "eliminated", "elimination"),
        ("hang", "hang", "hanged", "hanging"),
    ],
)
def test_the_rulesets_word_gives_verb_past_and_noun(word, verb, past, noun):
    words = words_of(replace(majority_rules(), elimination_word=word))
    assert (words.verb, words.past, words.noun) == (verb, past, noun)


@pytest.mark.parametrize(
    "name, past",
    [("mafiascum", "lynched"), ("witch-hunt-2023", "eliminated"), ("clocktower-forum", "executed")],
)
def test_bundled_rulesets_speak_their_documents_words(name, past):
    assert name in bundled_rulesets()
    assert words_of(load_ruleset(name)).past == past


def test_default_flavor_follows_the_forum_engine():
    g = game()
    assert default_flavor(g) == "bbcode"
    assert default_flavor(replace(g, forum=None)) == "bbcode"
    assert default_flavor(replace(g, forum="discourse")) == "markdown"
    assert default_flavor(replace(g, forum="xenforo")) == "bbcode"


def test_night_deaths_follow_the_rulesets_order():
    g, ruleset = game(), majority_rules()
    assert night_deaths(g, ruleset, 2) == ("Medea", "Helen")
    assert night_deaths(g, replace(ruleset, death_order="alphabetical"), 2) == ("Helen", "Medea")
    shuffled = night_deaths(g, replace(ruleset, death_order="random"), 2)
    assert sorted(shuffled) == ["Helen", "Medea"]
    assert shuffled == night_deaths(
        g, replace(ruleset, death_order="random"), 2
    )  # the same every run
    assert night_deaths(g, ruleset, 3) == ()
    assert (
        load_ruleset("witchhunt-9.0").death_order == "random"
    )  # "announced ... in a random order"


# --- the command
# --------------------------------------------------------------------------------------------


def test_votal_draft_command_reads_the_store_and_the_game_file(tmp_path):
    from click.testing import CliRunner

    from assistant.cli.main import main
    from assistant.forum import store
    from parsers.page import Post

    game_file = tmp_path / "game.toml"
    game_file.write_text(
        TINY.replace('ruleset = "mafiascum"', 'ruleset = "mafiascum"\nforum = "discourse"')
    )
    db = store.open_db(tmp_path / "v.db")
    key = parse_game(game_file.read_text()).key
    moment = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
    posts = [
        Post(
            "101",
            1,
            "Alice",
            moment,
            "<p><b>vote Carol</b></p>",
            "https://forum.example.org/t/tiny/7/1",
        ),
        Post(
            "102",
            2,
            "Bob",
            moment,
            "<p><b>vote **Alice**</b></p>",
            "https://forum.example.org/t/tiny/7/2",
        ),
    ]
    store.save_posts(db, key, posts, seen_at=moment)
    args = [
        "draft",
        str(game_file),
        "votal",
        "--db",
        str(tmp_path / "v.db"),
        "--at-time",
        "2024-05-01T13:00:00",
    ]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert result.output == "\n".join(
        [
            "## Tiny: Vote Count 1.1",
            "",
            "As of post #2.",
            "",
            "- **Carol** (1, L-1): [Alice](https://forum.example.org/t/tiny/7/1)",
            "- **Alice** (1, L-1): [Bob](https://forum.example.org/t/tiny/7/2)",
            "",
            "**Not voting** (1): Carol",
            "",
            "With 3 alive, it takes **2** votes to lynch.",
            "",
        ]
    )
    bad = CliRunner().invoke(main, [*args, "--templates", str(tmp_path / "missing")])
    assert (bad.exit_code, bad.output.splitlines()[-1]) == (
        2,
        f"Error: template folder '{tmp_path / 'missing'}' does not exist",
    )


# --- every rules golden case drafts cleanly
# ---------------------------------------------------------------

RULE_CASES = sorted((Path(__file__).resolve().parent / "golden").glob("*.txt"))


@pytest.mark.parametrize("path", RULE_CASES, ids=[p.stem for p in RULE_CASES])
def test_every_rules_case_drafts_in_both_flavours_without_naming_the_judge(path):
    from golden.harness import read_case

    from assistant.counting.count import ruleset_for

    case = read_case(path)
    ruleset = ruleset_for(case.game)
    roster = Roster.from_game(case.game, ruleset)
    votal = count_day(
        case.game,
        case.posts,
        ruleset=ruleset,
        roster=roster,
        day=case.day,
        at_post=case.at_post,
        at_time=case.at_time,
    )
    context = build_context(
        case.game, ruleset, [votal], day=case.day, now=case.at_time, posts=case.posts
    )
    for flavor in FLAVORS:
        drafts = {kind: render_draft(kind, context, flavor=flavor) for kind in KINDS}
        assert all(text.strip() for text in drafts.values())
        if case.game.private.judge:
            assert case.game.private.judge not in drafts["judge"]
        if votal.runoff is not None and votal.outcome and votal.outcome.kind == "no_elimination":
            assert ruleset.runoff_still_tied_note in drafts["day-end"]
            assert ruleset.runoff_still_tied_note in drafts["runoff"]
        for nomination in votal.nominations:
            assert f"nominated by {nomination.nominator}" in drafts["votal"]


@pytest.mark.parametrize("flavor", FLAVORS)
def test_a_dead_judge_reads_exactly_like_a_declining_one(flavor):
    """The rules announce only the result; a different text would tell the players the Judge is
    dead."""
    ruleset = majority_rules()
    dead = day2(ruleset, outcome=Outcome("no_elimination", None, 45, "no_majority"))
    declined = day2(ruleset, outcome=Outcome("no_elimination", None, 45, "judge"))
    for kind in ("judge", "day-end", "votal"):
        texts = [
            render_draft(kind, build_context(game(), ruleset, [v], day=2, now=NOW), flavor=flavor)
            for v in (dead, declined)
        ]
        assert texts[0] == texts[1]
    judge_text = render_draft(
        "judge", build_context(game(), ruleset, [dead], day=2, now=NOW), flavor=flavor
    )
    assert "The decision passed to the Judge: no one is eliminated." in judge_text


def test_a_lynch_survived_is_announced_without_naming_who_protected():
    ruleset = majority_rules()
    votal = day2(
        ruleset, outcome=Outcome("no_elimination", None, 45, "majority", survived="Theseus")
    )
    context = build_context(game(), ruleset, [votal], day=2, now=NOW)
    assert (
        context.outcome.text
        == "A majority voted to eliminate Theseus, but Theseus survived: no one is eliminated."
    )


def _words(text: str, flavor: str) -> set[str]:
    """The words a reader sees, whatever the markup: for comparing the two flavours of one draft."""
    if flavor == "bbcode":
        text = text.replace("[[i][/i]", "\x01")  # an escaped bracket, shown as "["
        text = re.sub(r"\[url=[^\]]*\]|\[/?(b|i|list|url|\*)\]", " ", text)
    else:
        text = re.sub(
            r"\\(.)", lambda m: "\x01" if m.group(1) == "[" else f"\x02{ord(m.group(1))}\x03", text
        )
        text = (
            re.sub(r"\]\([^)]*\)", " ", text)
            .replace("[", " ")
            .replace("**", " ")
            .replace("## ", " ")
        )
        text = re.sub(r"\x02(\d+)\x03", lambda m: chr(int(m.group(1))), text)
    text = text.replace("\x01", "[")
    return {w.strip(".,:;()#-").casefold() for w in text.split()} - {""}


@pytest.mark.parametrize("kind", KINDS)
def test_both_flavours_of_a_draft_say_the_same_words(kind):
    assert _words(render(kind, "bbcode"), "bbcode") == _words(render(kind, "markdown"), "markdown")


# --- drafts that tell the rules' story (issue 14, items 5 and 6)
# ------------------------------------------

RULES_GOLDEN = Path(__file__).resolve().parent / "golden"


def drafts_of_case(stem: str, *, game_text: str = "", flavor: str = "bbcode") -> dict[str, str]:
    """Every draft kind for a rules golden case (``game_text`` is added to its game file)."""
    from golden.harness import ExactRoster, read_case, resolve_exact

    from assistant.counting.count import ruleset_for

    case = read_case(RULES_GOLDEN / f"{stem}.txt")
    game = case.game
    if game_text:
        text = (RULES_GOLDEN / f"{stem}.txt").read_text(encoding="utf-8")
        head, _, rest = text.partition("=== posts")
        game = read_case_text(head + game_text + "\n=== posts" + rest).game
    ruleset = ruleset_for(game)
    votal = count_day(
        game,
        case.posts,
        ruleset=ruleset,
        roster=ExactRoster(game),
        day=case.day,
        at_post=case.at_post,
        at_time=case.at_time,
        resolve=resolve_exact,
    )
    context = build_context(
        game, ruleset, [votal], day=case.day, now=case.at_time, posts=case.posts
    )
    return {kind: render_draft(kind, context, flavor=flavor) for kind in KINDS}


def read_case_text(text: str):
    import tempfile

    from golden.harness import read_case

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "case.txt"
        path.write_text(text, encoding="utf-8")
        return read_case(path)


def test_after_a_deacon_save_of_the_judges_pick_both_drafts_tell_the_same_story():
    # witchhunt-rules-9.0.txt, Keyword Reference "Kill": "It is possible to survive a kill. Either
    # way, all kills are publicly announced": the Judge's lynch was attempted and failed; neither
    # draft may say the Judge declined.
    drafts = drafts_of_case("witchhunt-9.0-the-deacon-saves-a-holy-villager-the-judge-picks")
    story = "The Judge decided to lynch Gus, but Gus survived: no one is lynched."
    assert story in drafts["day-end"]
    assert story in drafts["judge"]
    assert "passed to the Judge" not in drafts["day-end"] + drafts["judge"]


def test_after_a_deacon_save_of_a_majority_the_judge_draft_has_no_decision_and_the_same_story():
    drafts = drafts_of_case("witchhunt-9.0-the-deacon-makes-holy-villagers-survive-a-lynch")
    story = "A majority voted to lynch Gus, but Gus survived: no one is lynched."
    assert story in drafts["day-end"]
    assert "The Judge has no decision to make today. " + story in drafts["judge"]


def test_a_mod_kill_that_takes_the_days_hanging_is_announced_as_such():
    # witchhunt-online-2.0.1.txt, Behavior Rules: "make it use the daily hanging for the town".
    drafts = drafts_of_case("witchhunt-online-a-mod-kill-takes-the-days-hanging")
    assert "Dion was mod-killed: this is the day's lynch." in drafts["day-end"]


def test_millers_hollow_day_start_reveals_the_role_of_the_dead():
    # millers-hollow-master-rules.txt, Night Time Events: "If you are eaten, then you are out of the
    # game. Your role is revealed upon your death."
    flip = '[[deaths]]\nplayer = "Theseus"\nphase = "night 1"\nrole = "Seer"\n'
    drafts = drafts_of_case("millers-hollow-dead-players-cannot-vote", game_text=flip)
    assert "[b]Theseus[/b] died in the night. Theseus was the Seer." in drafts["day-start"]
    assert "[b]Jason[/b] died in the night." in drafts["day-start"]


def test_millers_hollow_day_start_says_how_to_vote_change_a_vote_and_abstain():
    # millers-hollow-master-rules.txt, Day Time Lynching: "vote [insert name]" ... "unvote [insert
    # original name] vote [insert new name]" ... "vote abstain". Please bold all votes.
    start = drafts_of_case("millers-hollow-dead-players-cannot-vote")["day-start"]
    assert "unvote [[i][/i]original name] vote [[i][/i]new name]" in start
    assert "vote abstain" in start
    assert "You may change your vote at any time" not in start


def test_clocktower_day_start_explains_nominations():
    # clocktower-style-forum-rules.txt, Nominations and Voting: "Players must be nominated before
    # they may be voted on that day. Each player may only be nominated once per day, and each player
    # may only nominate once per day."
    start = drafts_of_case("clocktower-first-living-vote-nominates")["day-start"]
    assert "nominate" in start.casefold()
    assert "once per day" in start


def test_night_survivals_are_announced_with_the_deaths():
    # witchhunt-rules-9.0.txt, Keyword Reference "Kill": "Deaths (and survivals) from each night are
    # announced first thing the following morning, in a random order."
    start = drafts_of_case("witchhunt-9.0-a-survived-kill-spends-the-extra-life")["day-start"]
    assert "[b]Gus[/b] survived a kill in the night." in start


@pytest.mark.parametrize(
    "name", ["Dorian Gray", "x[y", "[1] Ann", "Bob :[", "a [ b", "[ ]", "mr_[3]", "Zoë-Ann"]
)
def test_bbcode_escaping_leaves_names_that_cannot_open_a_tag_as_typed(name):
    assert escape_bbcode(name) == name


def test_flips_and_the_no_lynch_line_follow_the_ruleset(tmp_path):
    # a house ruleset: roles revealed, and no lynch takes one vote fewer than the majority
    rules = tmp_path / "house.toml"
    rules.write_text(
        (Path(__file__).resolve().parents[1] / "data" / "rulesets" / "mafiascum.toml")
        .read_text()
        .replace(
            'no_elimination_label = "No Lynch"',
            'no_elimination_label = "No Lynch"\nreveal_roles = true',
        )
        .replace('kind = "half_plus_one"', 'kind = "half_plus_one"\nno_elimination_below = 1')
    )
    text = TINY.replace('ruleset = "mafiascum"', f'ruleset = "{rules}"') + (
        '\n[[players]]\nname = "Dee"\n\n[[deaths]]\nplayer = "Dee"\nphase = "night 0"\nrole = "Vanilla Townie"\n'
    )
    g = parse_game(text, path=tmp_path / "g.toml")
    ruleset = ruleset_for(g)
    posts = [read_post(1, "Alice", ("vote", "Carol")), read_post(2, "Bob", ("vote", "Carol"))]
    votal = count_day(g, posts, ruleset=ruleset, roster=Roster.from_game(g, ruleset), day=1)
    context = build_context(g, ruleset, [votal], day=1, now=None, posts=posts)
    start = render_draft("day-start", context)
    assert (
        "With 3 alive, it takes [b]2[/b] votes to lynch.\nIt takes [b]1[/b] vote for No Lynch."
        in start
    )
    flipped = replace(g, deaths=(*g.deaths, Death("Carol", "day", 1, role="Cop")))
    end = render_draft(
        "day-end", build_context(flipped, ruleset, [votal], day=1, now=None, posts=posts)
    )
    assert "Carol was the Cop." in end
    plain = render_draft(
        "day-end",
        build_context(flipped, load_ruleset("mafiascum"), [votal], day=1, now=None, posts=posts),
    )
    assert "Cop" not in plain  # a ruleset that does not reveal roles never flips
    # ...and the rules follow the same threshold: one No Lynch vote of three alive ends this day
    sleepy = count_day(
        g,
        [read_post(1, "Alice", ("vote", "No Lynch"))],
        ruleset=ruleset,
        roster=Roster.from_game(g, ruleset),
        day=1,
    )
    assert (str(sleepy.outcome.kind), sleepy.outcome.post) == ("no_elimination", 1)


# --- two lynches in a day (game file lynches_per_day = 2)
# --------------------------------------------------

TWO_LYNCHES = (
    Path(__file__).resolve().parent
    / "golden"
    / "mafiascum-two-lynches-per-day-the-second-majority-ends-the-day.txt"
)


def _two_lynch_context(at_post):
    from golden.harness import read_case

    from assistant.counting.count import ruleset_for

    case = read_case(TWO_LYNCHES)
    ruleset = ruleset_for(case.game)
    votal = count_day(
        case.game,
        case.posts,
        ruleset=ruleset,
        roster=Roster.from_game(case.game, ruleset),
        day=1,
        at_post=at_post,
    )
    return build_context(case.game, ruleset, [votal], day=1, now=None, posts=case.posts)


@pytest.mark.parametrize("flavor", FLAVORS)
def test_a_days_first_lynch_is_worded_before_its_last_and_while_the_day_goes_on(flavor):
    first = "Bob is lynched: a majority of the living voted for Bob."
    between = _two_lynch_context(6)
    votal, day_end = (render_draft(kind, between, flavor=flavor) for kind in ("votal", "day-end"))
    assert first in votal and "The day goes on until its second lynch" in votal
    assert first in day_end and "The day's second lynch has not been decided yet." in day_end
    assert "The day has not been decided yet." not in day_end
    ended = render_draft("day-end", _two_lynch_context(None), flavor=flavor)
    last = "Erin is lynched: a majority of the living voted for Erin."
    assert ended.index(first) < ended.index(last)
    assert "The day goes on" not in render_draft("votal", _two_lynch_context(None), flavor=flavor)


@pytest.mark.parametrize("flavor", FLAVORS)
def test_a_game_in_a_fixed_utc_offset_drafts_its_deadline_in_that_offset(flavor):
    # The game file accepts "UTC-5" (assistant.gamefile.zones); the drafts name such a zone by its
    # offset instead of failing.
    text = re.sub(r"^timezone = .*$", 'timezone = "UTC-5"', GAME, flags=re.M)
    fixed = parse_game(text, path="game.toml")
    context = build_context(fixed, majority_rules(), [day2(majority_rules())], day=2, now=NOW)
    assert context.timezone == "UTC-05:00"
    assert "UTC-05:00" in (context.deadline_local or "")
    assert render_draft("reminder", context, flavor=flavor)


def test_a_declared_clocktower_early_end_is_drafted_as_an_early_end_not_a_deadline():
    # clocktower-style-forum-rules.txt: "The Storyteller may only declare an early end to voting if
    # it is no longer possible to tie or exceed the highest nomination": the day ended before its
    # deadline.
    drafts = drafts_of_case("clocktower-a-declared-early-end-ends-voting-at-its-post")
    assert (
        "No remaining votes can tie or pass [b]Ben[/b], so voting ends early" in drafts["early-end"]
    )
    assert "Ben is executed: no remaining votes could tie or pass Ben." in drafts["day-end"]
    assert "deadline" not in drafts["day-end"] and "has not ended early" not in drafts["early-end"]


def test_a_loose_cannons_shot_is_drafted_as_an_early_end():
    # witchhunt-online-2.0.1.txt, Loose Cannon: "Sacrifice yourself to end the day and personally
    # decide who to hang".
    drafts = drafts_of_case("witchhunt-online-the-loose-cannon-decides-the-lynch")
    assert "The Loose Cannon has ended the day early with post" in drafts["early-end"]
    assert "has not ended early" not in drafts["early-end"]
    assert "The Loose Cannon has ended the day: Chloe is lynched." in drafts["day-end"]


def test_a_mod_kill_that_takes_the_hanging_is_drafted_as_an_early_end():
    # witchhunt-online-2.0.1.txt, Behavior Rules: "make it use the daily hanging for the town".
    early = drafts_of_case("witchhunt-online-a-mod-kill-takes-the-days-hanging")["early-end"]
    assert "The moderator's kill takes the day's lynch, so the day ends early" in early
    assert (
        "Dion was mod-killed: this is the day's lynch." in early and "Dion is lynched" not in early
    )


def test_a_loose_cannon_who_decides_no_one_ends_the_day_in_the_same_words():
    # witch-hunt-2023-game-rules.txt, Loose Cannon: "Sacrifice yourself to end the day and
    # personally decide who to eliminate" (the 2023 game has a Sleep vote, so deciding no one is a
    # decision too).
    drafts = drafts_of_case("witch-hunt-2023-the-loose-cannon-ends-the-day-at-his-reveal")
    assert "The Loose Cannon has ended the day: no one is eliminated." in drafts["day-end"]
