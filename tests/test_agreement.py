"""The tally, the players' page, the drafts and the terminal tell one count (issue 14, "which votes
stand" and L-n in one place): on every golden rules case, each output's wagons, voters, vote totals
and L-n are the tally's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from golden.harness import ExactRoster, count_day, read_case, resolve_exact

from assistant.counting.count import format_votal_text
from assistant.counting.votes import show_votes, votes_needed
from assistant.gamefile.rules import load_ruleset
from assistant.output.drafts import build_context
from assistant.output.site import describe_day, public_day

GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = sorted(GOLDEN.glob("*.txt"))


def counted(path: Path):
    case = read_case(path)
    name = case.game.ruleset
    ruleset = load_ruleset(GOLDEN / name if name.endswith(".toml") else name)
    votal = count_day(
        case.game,
        case.posts,
        ruleset=ruleset,
        roster=ExactRoster(case.game),
        day=case.day,
        at_post=case.at_post,
        at_time=case.at_time,
        resolve=resolve_exact,
    )
    return case, ruleset, votal


def tally_rows(votal) -> list[tuple]:
    rows = [
        (w.target, show_votes(w.votes), tuple(w.voters), votes_needed(w.votes, votal.majority))
        for w in votal.wagons
    ]
    ne = votal.no_elimination
    if ne.votes:
        needs = votes_needed(ne.votes, votal.no_elimination_majority)
        rows.append((None, show_votes(ne.votes), tuple(ne.voters), needs))
    return rows


def page_rows(votal) -> list[tuple]:
    day = describe_day(public_day(votal.to_json()))
    rows = [*day["rows"], *([day["sleep"]] if day["sleep"] else [])]
    return [
        (r["target"], show_votes(r["votes"]), tuple(v["name"] for v in r["voters"]), r["needed"])
        for r in rows
    ]


def draft_rows(case, ruleset, votal) -> list[tuple]:
    context = build_context(
        case.game, ruleset, [votal], day=case.day, now=case.at_time, posts=case.posts
    )
    seat = {case.game.shown(s.name, votal.as_of_post): s.name for s in case.game.players}
    rows = [
        (seat[w.target], w.votes, tuple(seat[v.voter] for v in w.voters), w.to_majority)
        for w in context.wagons
    ]
    if context.no_elimination is not None and votal.no_elimination.votes:
        ne = context.no_elimination
        rows.append((None, ne.votes, tuple(seat[v.voter] for v in ne.voters), ne.to_majority))
    return rows


def terminal_rows(case, votal) -> list[tuple]:
    """(target, votes, L-n) from `votal count`'s text: the terminal shows L-n beside each wagon."""
    found = []
    for w in votal.wagons:
        line = next(
            x
            for x in format_votal_text(case.game, votal).splitlines()
            if re.match(rf"\s+{re.escape(w.target)}\s+\d", x)
        )
        need = re.search(r"\(L-(\d+)\)$", line)
        found.append((w.target, show_votes(w.votes), int(need.group(1)) if need else 0))
    return found


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_the_page_the_drafts_and_the_terminal_show_the_tallys_count(path):
    case, ruleset, votal = counted(path)
    expected = tally_rows(votal)
    assert page_rows(votal) == expected
    assert draft_rows(case, ruleset, votal) == expected
    shown = [(t, v, n or 0) for t, v, _, n in expected if t is not None]
    assert terminal_rows(case, votal) == shown


def test_a_lowered_no_lynch_threshold_gives_one_l_n_on_the_page_and_in_the_drafts():
    """[majority] no_elimination_below = 1: with 5 alive a majority is 3 but No Lynch needs 2, so
    the first No Lynch vote is L-1 wherever the count is shown (the tally decides by the same
    number)."""
    path = GOLDEN / "mafiascum-no-lynch-majority-ends-the-day.txt"
    case = read_case(path)
    ruleset = load_ruleset("mafiascum").with_options(no_elimination_below=1)
    votal = count_day(
        case.game,
        case.posts,
        ruleset=ruleset,
        roster=ExactRoster(case.game),
        day=case.day,
        at_post=1,
        resolve=resolve_exact,
    )
    assert (votal.majority, votal.no_elimination_majority) == (3, 2)
    row = (None, 1, ("Alice",), 1)
    assert [r for r in tally_rows(votal) if r[0] is None] == [row]
    assert [r for r in page_rows(votal) if r[0] is None] == [row]
    assert [r for r in draft_rows(case, ruleset, votal) if r[0] is None] == [row]
