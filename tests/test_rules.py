"""Golden rule cases (tests/golden/*.txt) and ruleset loading."""

from __future__ import annotations

from pathlib import Path

import pytest
from golden.harness import ExactRoster, read_case, render_votal, resolve_exact

from assistant.rules import load_ruleset
from assistant.tally import replay_day

GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = sorted(GOLDEN.glob("*.txt"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_golden_case(path: Path) -> None:
    case = read_case(path)
    name = case.game.ruleset
    ruleset = load_ruleset(GOLDEN / name if name.endswith(".toml") else name)
    votal = replay_day(
        case.game,
        ruleset,
        case.posts,
        ExactRoster(case.game),
        day=case.day,
        at_post=case.at_post,
        at_time=case.at_time,
        resolve=resolve_exact,
    )
    assert render_votal(votal) == case.expect, case.title
