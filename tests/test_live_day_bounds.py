"""A live thread through the real CLI: a moderator's post in day 1 that names a later day's end
("Day 2 will end at ...") ends no day, as `votal new` and `votal update` read the thread growing."""

from __future__ import annotations

import json

from click.testing import CliRunner
from test_live_game import LYNCH_BIRCH, _new_and_update, thread

from assistant.cli.main import main
from assistant.gamefile.game import load_game

SCHEDULE = ("Host", "Schedule note: Day 2 will end at 18:00 UTC on Friday, 13 March.")


def test_a_later_days_deadline_told_in_day_one_does_not_end_day_one(tmp_path):
    posts = thread(LYNCH_BIRCH[0], SCHEDULE, *LYNCH_BIRCH[1:])
    schedule = next(p.number for p in posts if "Schedule note" in p.body_html)
    lynch = next(p.number for p in posts if "Birch was lynched" in p.body_html)
    path, db = _new_and_update(tmp_path, posts, cut=schedule + 2)  # `new` sees the schedule post
    game = load_game(path)
    assert game.day(1).end_post == lynch
    assert game.day(2) is None or game.day(2).start_post != schedule
    count = ["count", str(path), "--db", db, "--day", "1", "--format", "json"]
    result = CliRunner().invoke(main, count)
    assert result.exit_code == 0, result.output
    day1 = json.loads(result.stdout)
    assert (day1["outcome"]["kind"], day1["outcome"]["target"]) == ("elimination", "Birch")
    assert day1["outcome"]["post"] == lynch - 1  # the sixth vote, the post before the moderator's
    assert [d["kind"] for d in day1["doubts"]] == []
