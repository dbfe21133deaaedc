"""One voice across the commands (issue 34): through the real CLI on a loopback thread."""

import pytest
from click.testing import CliRunner
from loopback_forum import Forum, game_text, make_posts

from assistant.cli.main import main
from assistant.gamefile.game import load_game

DAY_ONE = "[[days]]\nday = 1\nstart_post = 0\n"


@pytest.fixture
def game(board, tmp_path, monkeypatch):
    board.plug(Forum(make_posts(30)).respond)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("VOTAL_DB", raising=False)
    path = tmp_path / "game.toml"
    path.write_text(game_text(board.base_url, tables=DAY_ONE), encoding="utf-8")
    return path


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_one_bad_game_file_in_run_is_said_and_skipped_while_the_others_run(game, tmp_path):
    broken = tmp_path / "broken.toml"
    broken.write_text('title = "Broken"\nthread = \n', encoding="utf-8")
    result = invoke("run", broken, game, "--once")
    assert result.exit_code == 1, result.output
    skipped = [line for line in result.output.splitlines() if "skipped" in line]
    said = f" skipped {broken}:2: not valid TOML: Invalid value (at line 2, column 10)"
    assert len(skipped) == 1 and skipped[0].endswith(said)
    assert (tmp_path / "game.db").is_file()
    assert invoke("count", game).exit_code == 0


def test_run_with_no_usable_game_file_stops_saying_why(tmp_path):
    broken, empty = tmp_path / "broken.toml", tmp_path / "empty.toml"
    broken.write_text("not toml at all [", encoding="utf-8")
    empty.write_text("", encoding="utf-8")
    alone = invoke("run", broken, "--once", "--quiet")
    assert alone.exit_code == 2 and alone.output.startswith(f"Error: {broken}:1: not valid TOML")
    assert len(alone.output.splitlines()) == 1
    both = invoke("run", broken, empty, "--once")
    assert both.exit_code == 2
    lines = both.output.splitlines()
    named = [line.split(" skipped ")[1].split(":")[0] for line in lines[:2]]
    assert named == [str(broken), str(empty)]
    assert lines[2:] == ["Error: no game file could be used (each is said above)"]


def test_run_once_announces_no_next_run_and_counts_agree_with_their_nouns(game, board):
    result = invoke("run", game, "--once")
    assert result.exit_code == 0, result.output
    line = result.output.strip().splitlines()[-1]
    assert line.endswith("Loopback Game: 30 new (3 requests)") and "next in" not in result.output
    board.plug(Forum(make_posts(31)).respond)
    synced = invoke("sync", game)
    summary = "1 new, 0 edited posts (1 page, 1 request, phpbb)"
    assert synced.output.strip().endswith(summary), synced.output


def test_the_game_file_comes_first_and_the_old_order_still_works_saying_the_new_one(game):
    assert invoke("sync", game, "--quiet").exit_code == 0
    new_order = invoke("player", "add", game, "Fir")
    assert new_order.exit_code == 0 and "note:" not in new_order.output
    old_order = invoke("kill", "Fir", game, "--phase", "day 1")
    assert old_order.exit_code == 0, old_order.output
    assert old_order.output.splitlines()[0] == (
        f"note: the game file comes first now; write: main kill {game} Fir --phase 'day 1'"
    )
    assert [d.player for d in load_game(game).deaths] == ["Fir"]
    drafted = invoke("draft", "votal", game, "--day", "1")
    assert drafted.exit_code == 0
    assert drafted.output.startswith("note: the game file comes first now; write: ")
    assert invoke("draft", game, "votal", "--day", "1").output == drafted.output.split("\n", 1)[1]


def test_the_count_says_the_rulesets_own_words(board, tmp_path, monkeypatch):
    votes = {1: "Birch", 2: "no lynch", 3: "Birch", 4: "Birch"}
    posts = [
        {**post, "content": f"<b>vote: {votes[n]}</b>"} if n in votes else post
        for n, post in enumerate(make_posts(6))
    ]
    board.plug(Forum(posts).respond)
    monkeypatch.chdir(tmp_path)
    game = tmp_path / "game.toml"
    game.write_text(game_text(board.base_url, tables=DAY_ONE), encoding="utf-8")
    assert invoke("sync", game, "--quiet").exit_code == 0
    text = invoke("count", game).output
    assert "Outcome: Birch lynched (majority, post 4)" in text
    assert "  No Lynch" in text and "eliminat" not in text.lower()


def every_page(monkeypatch, *, terminal: bool = False) -> list:
    """PageProgress saying a line at every page (a clock moving a second a call); the bars made."""
    import assistant.cli.options as options

    init, bars, ticks = options.PageProgress.__init__, [], iter(range(10**6))

    def at_every_page(self, label, **_):
        init(self, label, terminal=terminal, every=0, clock=lambda: float(next(ticks)))
        bars.append(self)

    monkeypatch.setattr(options.PageProgress, "__init__", at_every_page)
    return bars


def test_sync_and_update_off_a_terminal_say_pages_done_of_the_total_and_time_left(
    game, board, monkeypatch
):
    every_page(monkeypatch)
    board.plug(Forum(make_posts(60)).respond)
    synced = invoke("sync", game)
    assert synced.exit_code == 0, synced.output
    lines = [line for line in synced.stderr.splitlines() if line.startswith("sync Loopback Game: ")]
    assert [line.split(": ", 1)[1] for line in lines] == [
        "page 1 of 3, 25 new posts, about 6 s left",  # 3 s (three clock calls) a page
        "page 2 of 3, 50 new posts, about 3 s left",
        "page 3 of 3, 60 new posts, about 0 s left",
    ]
    board.plug(Forum(make_posts(80)).respond)
    updated = invoke("update", game)
    assert [
        line.split(": ", 1)[1].split(",")[0]
        for line in updated.stderr.splitlines()
        if line.startswith("sync ")
    ] == ["page 1 of 2", "page 2 of 2"]
    assert invoke("sync", game, "--quiet").stderr == ""


def test_on_a_terminal_the_bar_counts_pages_of_the_total(game, board, monkeypatch):
    bars = every_page(monkeypatch, terminal=True)
    board.plug(Forum(make_posts(60)).respond)
    assert invoke("sync", game).exit_code == 0
    bar = bars[0].bar
    assert (bar.pos, bar.length) == (3, 3)
