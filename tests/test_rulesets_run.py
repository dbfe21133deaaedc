"""`votal run` and `votal status` on every bundled ruleset, majority and plurality alike, from a
loopback forum."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from loopback_forum import Forum, game_text, make_posts

from assistant.cli.schedule import Runner
from assistant.forum import store
from assistant.forum.fetch import HostLimiter
from assistant.gamefile.game import load_game
from assistant.gamefile.rules import bundled_rulesets
from assistant.output.status import collect_status, format_status_text

NOW = datetime(
    2026, 3, 2, 12, 0, tzinfo=UTC
)  # day 1 runs from 2026-03-01 22:00 to 2026-03-03 22:00 UTC
VOTE = '<strong class="text-strong">VOTE: {}</strong>'
DAY = "[[days]]\nday = 1\nstart_post = 0\nend = 2026-03-03T22:00:00Z\n"


@pytest.mark.parametrize("ruleset", bundled_rulesets())
def test_run_polls_and_status_reads_every_bundled_ruleset(ruleset, board, tmp_path) -> None:
    forum = Forum(make_posts(12))
    forum.edit(1, VOTE.format("Alder"))  # Birch
    forum.edit(2, VOTE.format("Alder"))  # Cedar
    forum.edit(3, VOTE.format("Birch"))  # Damson
    board.plug(forum.respond)
    path = tmp_path / "game.toml"
    path.write_text(
        game_text(board.base_url, tables=DAY).replace(
            'ruleset = "mafiascum"', f'ruleset = "{ruleset}"'
        ),
        encoding="utf-8",
    )
    runner = Runner(
        db_path=tmp_path / "votal.db", limiter=HostLimiter(sleep=lambda s: None), now=lambda: NOW
    )
    first = runner.run_game(path)  # the real count hook, alerts included
    idle = runner.run_game(path)
    assert (first.error, first.result.new_posts, idle.error, idle.result.new_posts) == (
        None,
        12,
        None,
        0,
    )

    status = collect_status(load_game(path), store.open_db(tmp_path / "votal.db"), now=NOW)
    assert (status["day"], status["leader"], status["problems"]) == (
        1,
        {"target": "Alder", "votes": 2},
        [],
    )
    text = format_status_text(status)
    assert "None" not in text
    majority = status["majority"]
    assert (
        f"  day 1: Alder 2{f'/{majority}' if majority is not None else ' (most votes)'}"
        in text.splitlines()
    )


def test_a_warning_alerts_once_though_its_words_change_with_the_thread() -> None:
    from assistant.counting.checks import GameWarning
    from assistant.gamefile.game import parse_game
    from assistant.output.alerts import detect_alerts

    game = parse_game(game_text("http://forum.example"), path="g.toml")

    def beyond(last: int) -> GameWarning:
        message = f"day 3 starts at post 80, beyond the last stored post ({last}): run `votal sync`"
        return GameWarning("day_beyond_thread", message, post=80)

    first, later = (detect_alerts(game, None, now=NOW, warnings=[beyond(n)]) for n in (33, 34))
    assert [a.key for a in first] == [a.key for a in later] == ["warning:day_beyond_thread:None:80"]
    assert first[0].message != later[0].message
