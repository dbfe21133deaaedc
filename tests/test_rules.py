"""Golden rule cases (tests/golden/*.txt) and ruleset loading."""

from __future__ import annotations

from pathlib import Path

import pytest
from golden.harness import (
    ExactRoster,
    count_day,
    read_case,
    render_votal,
    resolve_exact,
    xfail_reason,
)

from assistant import bundled
from assistant.errors import RulesetError
from assistant.gamefile.choices import EarlyEnd, MajorityKind, TiePolicy
from assistant.gamefile.rules import bundled_rulesets, load_ruleset, parse_ruleset

GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = sorted(GOLDEN.glob("*.txt"))


def _case(path: Path):
    reason = xfail_reason(path)
    marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
    return pytest.param(path, marks=marks, id=path.stem)


@pytest.mark.parametrize("path", [_case(p) for p in CASES])
def test_golden_case(path: Path) -> None:
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
    assert render_votal(votal, notes=case.notes) == case.expect, case.title


def test_every_bundled_ruleset_loads_and_cites_its_source_for_every_table():
    import tomllib

    names = bundled_rulesets()
    assert names == [
        "clocktower-forum",
        "mafiascum",
        "millers-hollow",
        "witch-hunt-2023",
        "witchhunt-9.0",
        "witchhunt-online-2.0.1",
    ]
    for name in names:
        ruleset = load_ruleset(name)
        raw = tomllib.loads(
            (bundled.data() / "rulesets" / f"{name}.toml").read_text(encoding="utf-8")
        )
        assert ruleset.name == name
        assert sorted(ruleset.cites) == sorted(raw), name


def test_a_ruleset_file_error_names_the_file_line_and_key(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text(
        '[ruleset]\nname = "house"\n\n[deadline]\ncite = "x"\ntie = "coin"\n', encoding="utf-8"
    )
    with pytest.raises(RulesetError) as error:
        load_ruleset(path)
    assert (error.value.path, error.value.line, error.value.field) == (str(path), 6, "deadline.tie")
    assert "one of: no_elimination, random, runoff" in str(error.value)


@pytest.mark.parametrize(
    ("text", "line", "field", "message"),
    [
        ('[ruleset]\nname = "x"\n[votes]\nsilly = 1\n', 4, "votes.silly", "unknown key"),
        ('[ruleset]\nname = "x"\n[phases]\nsod = "25:00"\n', 4, "phases.sod", "time of day"),
        (
            '[ruleset]\nname = "x"\n[phases]\ntimezone = "Mars/Olympus"\n',
            4,
            "phases.timezone",
            "unknown time zone",
        ),
        (
            '[ruleset]\nname = "x"\n[deadline]\ntie = "runoff"\n',
            4,
            "deadline.tie",
            "needs [runoff] hours",
        ),
        ('[ruleset]\ntitle = "x"\n', 1, "ruleset", "missing required key 'name'"),
        ('[rulez]\nname = "x"\n', 1, "rulez", "unknown table"),
        (
            '[ruleset]\nname = "x"\n[hooks]\nuse = ["teleport"]\n',
            4,
            "hooks.use",
            "unknown value 'teleport'",
        ),
    ],
)
def test_bad_ruleset_values_are_precise_errors(text, line, field, message):
    with pytest.raises(RulesetError) as error:
        parse_ruleset(text, path="house.toml")
    assert (error.value.line, error.value.field) == (line, field)
    assert message in error.value.message


def test_an_unknown_bundled_name_lists_the_bundled_ones():
    with pytest.raises(RulesetError, match="bundled: clocktower-forum, mafiascum"):
        load_ruleset("werewolf-deluxe")


def test_clocktower_tie_policy_is_an_option_defaulting_to_no_execution():
    assert load_ruleset("clocktower-forum").tie == "no_elimination"
    assert load_ruleset("clocktower-forum").with_options(tie="random").tie == "random"


def test_golden_cases_cover_every_bundled_ruleset():
    prefixes = {p.stem.split("-")[0] for p in CASES}
    stems = " ".join(p.stem for p in CASES)
    for name in bundled_rulesets():
        assert name.split("-")[0] in prefixes
    for rule in (
        "hammer",
        "unanimous-minus-one",
        "u-1",
        "judge",
        "deacon",
        "loose-cannon",
        "runoff",
        "sheriff",
        "lovers",
        "sequestered",
        "missed-days",
        "token",
        "nominat",
        "dst",
        "extends",
        "post-minimum",
    ):
        assert rule in stems, rule


@pytest.mark.parametrize("path", [p for p in CASES if not xfail_reason(p)], ids=lambda p: p.stem)
def test_golden_case_with_the_real_name_reader(path: Path) -> None:
    """The cases pin rules with exact names; the real roster and resolver must reach the same
    votal."""
    from assistant.reading.names import Roster

    case = read_case(path)
    name = case.game.ruleset
    ruleset = load_ruleset(GOLDEN / name if name.endswith(".toml") else name)
    votal = count_day(
        case.game,
        case.posts,
        ruleset=ruleset,
        roster=Roster.from_game(case.game, ruleset),
        day=case.day,
        at_post=case.at_post,
        at_time=case.at_time,
    )
    assert render_votal(votal, notes=case.notes) == case.expect, case.title


def test_the_majority_kind_is_read_as_its_member_and_a_bad_one_refused_as_before() -> None:
    head = '[ruleset]\nname = "x"\n[majority]\n'
    assert (
        parse_ruleset(head + 'kind = "half_plus_one"\n').majority_kind is MajorityKind.HALF_PLUS_ONE
    )
    with pytest.raises(RulesetError) as refused:
        parse_ruleset(head + 'kind = "two_thirds"\n')
    assert str(refused.value) == (
        "<ruleset>:4: majority.kind: unknown value 'two_thirds' (one of: half_plus_one)"
    )


def test_the_rules_words_are_read_as_members_and_a_bad_one_refused_as_before() -> None:
    text = '[ruleset]\nname = "x"\n[deadline]\ntie = "random"\n[early_end]\non = ["majority"]\n'
    ruleset = parse_ruleset(text)
    assert ruleset.tie is TiePolicy.RANDOM and ruleset.early_end == (EarlyEnd.MAJORITY,)
    assert type(ruleset.early_end[0]) is EarlyEnd
    with pytest.raises(RulesetError) as refused:
        parse_ruleset(text.replace('"majority"]', '"hammer"]'))
    assert str(refused.value) == (
        "<ruleset>:6: early_end.on: unknown value 'hammer' (one of: majority,"
        " no_elimination_majority, unanimous_minus_one, no_possible_tie)"
    )
