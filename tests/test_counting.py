"""Counting a stored game: which day is current, by stored posts or by the clock."""

from datetime import UTC, datetime, timedelta
from pathlib import Path

from assistant.counting.count import current_day
from assistant.forum import store
from assistant.gamefile.game import parse_game
from parsers.page import Post

BASE = """\
title = "t"
thread = "https://forum.example.org/viewtopic.php?t=1"
ruleset = "witchhunt-online-2.0.1"
timezone = "America/New_York"
[[players]]
name = "A"
[[players]]
name = "B"
"""


def test_days_declared_by_post_start_when_their_first_post_is_stored(tmp_path):
    game = parse_game(BASE + "[[days]]\nday = 1\nstart_post = 0\nend_post = 9\n[[days]]\nday = 2\nstart_post = 12\n")
    db = store.open_db(tmp_path / "v.db")
    assert current_day(game, db) == 1
    post = Post("p11", 11, "A", None, "x", "u")
    store.save_posts(db, game.key, [post], seen_at=datetime(2024, 1, 1, tzinfo=UTC))
    assert current_day(game, db) == 1
    store.save_posts(db, game.key, [Post("p12", 12, "A", None, "x", "u")], seen_at=datetime(2024, 1, 1, tzinfo=UTC))
    assert current_day(game, db) == 2


def test_a_game_timed_by_phase_lengths_is_on_the_day_the_clock_says(tmp_path):
    # Witch Hunt Online: 48-hour days and 24-hour nights from the game's start.
    game = parse_game("start = 2024-03-01T22:00:00\n" + BASE)
    db = store.open_db(tmp_path / "v.db")
    start = datetime(2024, 3, 2, 3, 0, tzinfo=UTC)
    assert current_day(game, db, at_time=start + timedelta(hours=1)) == 1
    assert current_day(game, db, at_time=start + timedelta(hours=60)) == 1  # night 1
    assert current_day(game, db, at_time=start + timedelta(hours=80)) == 2
    assert current_day(game, db) == 1


def test_the_count_text_shows_a_sheriff_election_apart_from_the_lynch():
    # millers-hollow-master-rules.txt, Sheriff: "In the case of a tie, the vote is extended two hours."
    from golden.harness import ExactRoster, read_case, resolve_exact

    from assistant.counting.count import format_votal_text
    from assistant.counting.tally import replay_day
    from assistant.gamefile.rules import load_ruleset

    golden = Path(__file__).resolve().parent / "golden"
    case = read_case(golden / "millers-hollow-a-tied-sheriff-election-stays-open-two-hours.txt")
    votal = replay_day(case.game, load_ruleset("millers-hollow"), case.posts, ExactRoster(case.game), day=1,
                       at_time=case.at_time, resolve=resolve_exact)
    text = format_votal_text(case.game, votal)
    assert "  Sheriff election: Paris 1 (Helen); Jason 1 (Icarus); open until Tue 02 Jul 13:00 PDT" in text
