"""The editing commands through the real CLI, against a thread synced from a loopback forum."""

import json
from datetime import timedelta
from types import SimpleNamespace

import pytest
from click.testing import CliRunner
from loopback_forum import Forum, game_text
from support import START, forum_post

from assistant.cli.main import main
from assistant.gamefile.game import load_game

NO_SKIPS = SimpleNamespace(skipped=[])  # a stand-in for run_games' result: no game file left out


OPENING = (
    "<b>Loopback Mafia</b><br><br>Players:<br>1. Alder<br>2. Birch<br>3. Cedar<br>4. Damson<br>5. Elm<br><br>"
    "Day 1 begins now."
)
THREAD = [
    forum_post(0, "Host", OPENING),
    forum_post(1, "Alder", "<b>vote: Birch</b>"),
    forum_post(2, "Birch", "<b>vote: Alder</b>"),
    forum_post(3, "Cedar", "<b>vote: birch</b>"),
    forum_post(4, "Damson", "<b>VOTE: Birch</b> sorry"),
    forum_post(5, "Host", "Birch was lynched! Birch was a Vanilla Townie.<br>It is now Night 1."),
    forum_post(6, "Host", "Alder was found dead. Alder was a Mafia Goon.<br>Day 2 begins now."),
    forum_post(7, "Elm", "hello"),
    forum_post(8, "Host", "Fir replaces Elm."),
    forum_post(9, "Fir", "hi all"),
]


@pytest.fixture
def synced(board, tmp_path):
    """A game file (players, day 1 from post 0) and a store holding the thread."""
    board.plug(Forum([dict(p) for p in THREAD]).respond)
    path = tmp_path / "game.toml"
    text = game_text(
        board.base_url,
        extra='moderators = ["Host"]  # the host\n',
        tables="[[days]]\nday = 1\nstart_post = 0\n\n# more days as they come\n",
    )
    path.write_text(text, encoding="utf-8")
    db = tmp_path / "votal.db"
    run("sync", path, "--db", db, "--quiet")
    return path, db


def run(*args) -> str:
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def refused(*args) -> str:
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    assert result.exit_code == 2, result.output  # the moderator's input is wrong
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1
    return result.output.strip()


def test_day_end_writes_the_post_with_the_moderators_words_and_keeps_the_file(synced):
    path, db = synced
    before = path.read_text()
    out = run("day", "end", path, 1, "--post", 5, "--db", db)
    assert out.splitlines()[0] == f"{path}: days[1] (day 1).end_post = 5 (post 5)"
    after = path.read_text()
    assert after == before.replace(
        "start_post = 0\n",
        'start_post = 0\nend_post = 5  # post 5: "Birch was lynched! Birch was a Vanilla Townie."\n',
    )
    assert (
        run("day", "end", path, 1, "--post", 5, "--db", db)
        == f"{path}: already says so; nothing changed\n"
    )
    assert path.read_text() == after


def test_kill_replace_and_player_commands_write_a_game_file_that_counts(synced):
    path, db = synced
    run("kill", path, "Birch", "--phase", "day 1", "--db", db)
    run("kill", path, "alder", "--phase", "Night 1", "--db", db)
    run("replace", path, "Elm", "Fir", "--post", 8, "--db", db)
    run("player", "add", path, "Gum")
    run("player", "remove", path, "Gum")
    game = load_game(path)
    assert [(d.player, d.phase, d.phase_number) for d in game.deaths] == [
        ("Birch", "day", 1),
        ("Alder", "night", 1),
    ]
    assert game.seat("Elm").replacements == ("Fir",) and game.seat("Elm").replacement_posts == (8,)
    assert [s.name for s in game.players] == ["Alder", "Birch", "Cedar", "Damson", "Elm"]
    text = path.read_text()
    assert 'replacements = [{name = "Fir", post = 8}]  # post 8: "Fir replaces Elm."' in text
    assert "[[deaths]]  # set with votal kill" in text
    assert "# the host" in text and "# more days as they come" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("day", "end", "{path}", 1, "--post", 99),
            "Error: day 1 end: post 99 is not in the stored thread (posts up to 9",
        ),
        (
            ("kill", "{path}", "Oak", "--phase", "night 1"),
            "Error: kill: 'Oak' is not a player of game.toml",
        ),
        (
            ("kill", "{path}", "Elm", "--phase", "noon 1"),
            "Error: phase must look like 'night 2' or 'day 3'",
        ),
        (
            ("replace", "{path}", "Elm", "Cedar", "--post", 6),
            "Error: replace: 'Cedar' is already a name of the seat Cedar",
        ),
        (
            ("replace", "{path}", "Elm", "Host", "--post", 6),
            "Error: replace: 'Host' is a moderator of this game",
        ),
        (
            ("player", "remove", "{path}", "Oak"),
            "Error: player remove: 'Oak' is not a player of game.toml",
        ),
        (
            ("player", "add", "{path}", "host"),
            "Error: player add: 'host' is a moderator of this game",
        ),
    ],
)
def test_contradictions_are_refused_in_one_line_and_the_file_is_untouched(synced, args, message):
    path, db = synced
    before = path.read_text()
    args = [str(a).replace("{path}", str(path)) for a in args]
    db_args = ["--db", db] if args[0] in ("day", "kill", "replace") else []
    assert refused(*args, *db_args).startswith(message)
    assert path.read_text() == before


def test_a_kill_on_a_day_that_ended_before_the_post_is_refused(synced):
    path, db = synced
    run("day", "end", path, 1, "--post", 5, "--db", db)
    assert refused("kill", path, "Cedar", "--phase", "day 1", "--post", 7, "--db", db) == (
        "Error: kill: post 7 is not on day 1 (posts 0-5)"
    )


def test_a_second_kill_in_another_phase_is_refused(synced):
    path, db = synced
    run("kill", path, "Birch", "--phase", "day 1", "--db", db)
    assert refused("kill", path, "Birch", "--phase", "night 1", "--db", db) == (
        "Error: kill: Birch is already dead (day 1)"
    )


def test_an_edit_that_needs_the_thread_without_a_store_says_to_sync(synced, tmp_path):
    path, _ = synced
    args = ["day", "end", str(path), "1", "--post", "5", "--db", str(tmp_path / "none.db")]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1
    message = result.output.strip()
    assert message.startswith("Error: no posts stored for this game; run `votal sync` first")


# --- votal update
# ---------------------------------------------------------------------------------------------


def fresh_game(board, tmp_path, thread, *, players: bool = True):
    board.plug(Forum([dict(p) for p in thread]).respond)
    path = tmp_path / "game.toml"
    text = game_text(
        board.base_url,
        extra='moderators = ["Host"]  # the host\n',
        tables="[[days]]\nday = 1\nstart_post = 0\n\n# more days as they come\n",
    )
    if not players:
        text = text[: text.index("[[players]]")].rstrip() + "\n"
    path.write_text(text, encoding="utf-8")
    return path, tmp_path / "votal.db"


def invoke(*args):
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


def test_update_dry_run_prints_the_diff_then_update_writes_it_and_a_second_run_changes_nothing(
    board, tmp_path
):
    path, db = fresh_game(board, tmp_path, THREAD)
    before = path.read_text()
    diff = invoke("update", path, "--db", db, "--dry-run").stdout
    assert path.read_text() == before
    assert diff.startswith(f"--- {path}\n+++ {path} (updated)\n")
    assert '+end_post = 5  # post 5: "Birch was lynched! Birch was a Vanilla Townie."\n' in diff

    out = invoke("update", path, "--db", db).stdout
    assert out.splitlines() == [
        f"{path}: wrote (read the moderators' posts after post 0; 0 new posts synced)",
        "  + players[5] (Elm).replacements: Fir replaces Elm from post 8 (post 8)",
        "  + days: day 2 with start_post = 6 (post 6)",
        "  + days[1] (day 1).end_post = 5 (post 5)",
        "  + deaths: Birch, day 1 (post 5)",
        "  + deaths: Alder, night 1 (post 6)",
        f"(undo with: votal undo {path})",
    ]
    after = path.read_text()
    assert "# the host" in after and "# more days as they come" in after
    game = load_game(path)
    assert [(d.day, d.start_post, d.end_post) for d in game.days] == [(1, 0, 5), (2, 6, None)]
    assert [(d.player, f"{d.phase} {d.phase_number}") for d in game.deaths] == [
        ("Birch", "day 1"),
        ("Alder", "night 1"),
    ]
    assert game.seat("Elm").replacement_posts == (8,)

    again = invoke("update", path, "--db", db).stdout
    assert again.startswith(
        f"{path}: nothing new to write (read the moderators' posts after post 8;"
    )
    assert path.read_text() == after


def test_update_reports_the_moderators_own_value_and_keeps_it(board, tmp_path):
    path, db = fresh_game(board, tmp_path, THREAD)
    path.write_text(
        path.read_text().replace("start_post = 0\n", "start_post = 0\nend_post = 4  # my call\n")
    )
    before = path.read_text()
    report = json.loads(invoke("update", path, "--db", db, "--format", "json").stdout)
    assert (
        "days[1] (day 1).end_post: the file says 4; post 5 says 5 (file kept)"
        in report["disagreements"]
    )
    assert "end_post = 4  # my call\n" in path.read_text()
    assert path.read_text() != before  # the rest was written


def test_an_announced_lynch_the_count_disagrees_with_is_said_loudly(board, tmp_path):
    thread = [dict(p) for p in THREAD]
    thread[5] = forum_post(
        5, "Host", "Cedar was lynched! Cedar was a Vanilla Townie.<br>It is now Night 1."
    )
    path, db = fresh_game(board, tmp_path, thread)
    result = invoke("update", path, "--db", db)
    assert (
        '!!! DAY 1 OUTCOME DISAGREES: the moderator announced Cedar lynched (post 5: "Cedar was lynched! Cedar was a '
        'Vanilla Townie.") but the count gives Birch lynched (majority, post 4): one of the two is wrong'
    ) in result.stderr
    assert (
        load_game(path).deaths[0].player == "Cedar"
    )  # the moderator's word is written; the alarm says check it


def test_update_writes_the_player_list_into_a_file_without_one(board, tmp_path):
    path, db = fresh_game(board, tmp_path, THREAD, players=False)
    invoke("update", path, "--db", db)
    game = load_game(path)
    assert [s.accounts for s in game.players] == [
        ("Alder",),
        ("Birch",),
        ("Cedar",),
        ("Damson",),
        ("Elm", "Fir"),
    ]
    assert '[[players]]  # post 0: "1. Alder"' in path.read_text()


def test_run_follow_writes_the_game_file_after_a_sync_and_says_what_it_wrote(board, tmp_path):
    from assistant.cli.schedule import HostLimiter, Runner
    from assistant.upkeep.update import follow_hook

    path, db = fresh_game(board, tmp_path, THREAD)
    said: list[str] = []
    now = START + timedelta(days=1)
    runner = Runner(
        db_path=db,
        now=lambda: now,
        limiter=HostLimiter(sleep=lambda s: None),
        regenerate=[follow_hook(now=lambda: now, say=said.append)],
        echo=said.append,
    )
    runner.run_game(path)
    assert "Loopback Game: game.toml: wrote deaths: Alder, night 1 (post 6)" in said
    assert [d.player for d in load_game(path).deaths] == ["Birch", "Alder"]
    written = path.read_text()
    runner.run_game(path)  # nothing new in the thread: the hook does not run, the file stays
    assert path.read_text() == written


@pytest.mark.parametrize("engine", ["phpbb", "discourse", "xenforo", "vbulletin", "proboards"])
def test_update_reads_the_same_game_on_every_engine(engine, tmp_path):
    """The thread from 1 (ProBoards prints no numbers and counts from 1), rendered by each engine's
    pages."""
    from forums import discourse, phpbb, proboards, serve_pages, vbulletin, xenforo

    from assistant.forum.pageserver import LoopbackServer

    module = {
        "phpbb": phpbb,
        "discourse": discourse,
        "xenforo": xenforo,
        "vbulletin": vbulletin,
        "proboards": proboards,
    }[engine]
    posts = [{**p, "number": p["number"] + 1} for p in THREAD]
    with LoopbackServer(serve_pages({})) as server:
        server.handler = serve_pages(module.render_thread(posts, base_url=server.base_url))
        path = tmp_path / "game.toml"
        players = "".join(
            f'\n[[players]]\nname = "{n}"\n' for n in ("Alder", "Birch", "Cedar", "Damson", "Elm")
        )
        path.write_text(
            f'title = "Loopback Game"\nthread = "{module.thread_url(server.base_url)}"\nforum = "{engine}"\n'
            f'ruleset = "mafiascum"\nmoderators = ["Host"]\n\n[fetch]\nmin_interval = 0\n{players}',
            encoding="utf-8",
        )
        invoke("update", path, "--db", tmp_path / "votal.db", "--quiet")
    game = load_game(path)
    assert [(d.day, d.start_post, d.end_post) for d in game.days] == [(1, 1, 6), (2, 7, None)]
    assert [(d.player, f"{d.phase} {d.phase_number}") for d in game.deaths] == [
        ("Birch", "day 1"),
        ("Alder", "night 1"),
    ]
    assert game.seat("Elm").replacement_posts == (9,)


def test_after_a_replacement_from_a_post_votes_out_of_turn_do_not_count_and_are_reported(
    board, tmp_path
):
    thread = [dict(p) for p in THREAD]
    thread[7] = forum_post(7, "Fir", "<b>vote: Cedar</b>")  # before Fir holds the seat
    thread += [
        forum_post(10, "Fir", "<b>vote: Damson</b>"),
        forum_post(11, "Elm", "<b>vote: Cedar</b>"),
    ]  # Elm: replaced
    path, db = fresh_game(board, tmp_path, thread)
    invoke("update", path, "--db", db, "--quiet")
    assert load_game(path).seat("Elm").replacement_posts == (8,)
    day2 = json.loads(
        invoke(
            "count",
            path,
            "--db",
            db,
            "--day",
            2,
            "--at-time",
            "2026-03-10T00:00:00+0000",
            "--format",
            "json",
        ).stdout
    )
    assert {"target": "Damson", "votes": 1, "voters": ["Elm"]} in day2["wagons"]
    assert not any(w["target"] == "Cedar" for w in day2["wagons"])
    reported = {p["post"]: p["reason"] for p in day2["problems"]}
    assert "before replacing into the seat at post 8" in reported[7]
    assert "after being replaced by Fir at post 8" in reported[11]


def test_run_follow_first_writes_what_is_already_stored(board, tmp_path, monkeypatch):
    import assistant.cli.schedule

    path, db = fresh_game(board, tmp_path, THREAD)
    invoke("sync", path, "--db", db, "--quiet")
    started = []
    monkeypatch.setattr(
        assistant.cli.schedule,
        "run_games",
        lambda paths, **options: started.append(paths) or NO_SKIPS,
    )
    invoke("run", path, "--db", db, "--follow", "--quiet")
    assert started == [(str(path),)]
    assert [d.player for d in load_game(path).deaths] == ["Birch", "Alder"]


def test_run_without_follow_never_edits_the_game_file(board, tmp_path, monkeypatch):
    import assistant.cli.schedule

    path, db = fresh_game(board, tmp_path, THREAD)
    invoke("sync", path, "--db", db, "--quiet")
    before = path.read_text()
    monkeypatch.setattr(assistant.cli.schedule, "run_games", lambda paths, **options: NO_SKIPS)
    invoke("run", path, "--db", db, "--quiet")
    assert path.read_text() == before


# --- edits that cannot hurt: ahead of the game refused, day start, undo ---------------------------


def days_declared(path) -> list[tuple[int, int | None, int | None]]:
    return [(d.day, d.start_post, d.end_post) for d in load_game(path).days]


def test_a_day_end_for_a_day_that_has_not_started_is_refused_naming_the_day_the_game_is_on(synced):
    path, db = synced
    before = path.read_text()
    assert refused("day", "end", path, 9, "--post", 7, "--db", db) == (
        "Error: day 9 has not started: the game is on day 1 (did you mean `day end 1`?)"
    )
    assert refused("kill", path, "Cedar", "--phase", "night 4", "--db", db) == (
        "Error: kill: night 4 has not begun: the game is on day 1"
    )
    assert path.read_text() == before


def test_day_start_records_the_post_and_the_day_after_it_then_can_end(synced):
    path, db = synced
    run("day", "end", path, 1, "--post", 5, "--db", db)
    assert refused("day", "start", path, 4, "--post", 6, "--db", db) == (
        "Error: day 4 cannot start yet: the game is on day 2, so the next day to start is day 3"
    )
    out = run("day", "start", path, 2, "--post", 6, "--db", db)
    assert out.splitlines()[0] == f"{path}: days: day 2 with start_post = 6 (post 6)"
    assert days_declared(path) == [(1, 0, 5), (2, 6, None)]
    cited = '[[days]]  # post 6: "Alder was found dead. Alder was a Mafia Goon."\nday = 2\n'
    assert cited in path.read_text()
    assert refused("day", "start", path, 2, "--post", 4, "--db", db) == (
        "Error: day 2: post 4 is before day 1's end (post 5)"
    )


def test_every_edit_shows_its_diff_and_undo_takes_them_back_one_at_a_time(synced):
    path, db = synced
    original = path.read_text()
    out = run("day", "end", path, 1, "--post", 5, "--db", db)
    added = '+end_post = 5  # post 5: "Birch was lynched! Birch was a Vanilla Townie."'
    assert added in out.splitlines()
    assert out.splitlines()[-1] == f"(undo with: votal undo {path})"
    after_day_end = path.read_text()
    run("kill", path, "Birch", "--phase", "day 1", "--db", db)
    assert "Birch" in str(load_game(path).deaths)

    undone = run("undo", path)
    assert undone.splitlines()[0] == f"{path}: undid `votal kill`"
    assert "-[[deaths]]  # set with votal kill" in undone.splitlines()
    assert path.read_text() == after_day_end
    assert run("undo", path).splitlines()[0] == f"{path}: undid `votal day end`"
    assert path.read_text() == original
    assert refused("undo", path).startswith(f"Error: {path}: nothing to undo")


def test_undo_takes_back_what_votal_update_wrote(board, tmp_path):
    path, db = fresh_game(board, tmp_path, THREAD)
    before = path.read_text()
    invoke("update", path, "--db", db)
    assert days_declared(path) == [(1, 0, 5), (2, 6, None)]
    assert invoke("undo", path).stdout.splitlines()[0] == f"{path}: undid `votal update`"
    assert path.read_text() == before


def test_undo_keeps_a_hand_edit_made_since_unless_forced(synced):
    path, db = synced
    original = path.read_text()
    run("day", "end", path, 1, "--post", 5, "--db", db)
    path.write_text(path.read_text() + "\n# my own note\n", encoding="utf-8")
    assert refused("undo", path) == (
        f"Error: {path} changed after `votal day end` wrote it; undoing would lose that change "
        "(--force undoes it anyway)"
    )
    assert run("undo", path, "--force").splitlines()[0] == f"{path}: undid `votal day end`"
    assert path.read_text() == original
