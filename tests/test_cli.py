"""End to end over real HTTP on loopback: `votal sync` then `votal count`, `audit`, and error
lines."""

import json

import pytest
from click.testing import CliRunner
from support import demo_game_at

from assistant.cli.demo import load_demo_thread
from assistant.cli.main import main
from assistant.forum.pageserver import LoopbackServer


@pytest.fixture
def forum():
    thread, game_text = load_demo_thread()
    with LoopbackServer(thread.respond) as server:
        yield server, thread, game_text


@pytest.fixture
def game_file(forum, tmp_path):
    server, _, game_text = forum
    path = tmp_path / "game.toml"
    path.write_text(demo_game_at(game_text, server.base_url))
    return path


DAY2_EVENING = "2026-03-05T20:00:00+0000"  # before day 2's deadline: no test reads the wall clock


def run(*args: str) -> str:
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_sync_then_count_over_loopback(forum, game_file, tmp_path):
    server, thread, _ = forum
    db = tmp_path / "votal.db"
    summary = json.loads(run("sync", game_file, "--db", db, "--format", "json"))
    assert summary["new_posts"] == len(thread.posts) == 34
    assert summary["pages"] == 2
    assert summary["engine"] == "phpbb"

    day1 = json.loads(run("count", game_file, "--db", db, "--day", "1", "--format", "json"))
    assert day1["alive"] == 9 and day1["majority"] == 5
    assert day1["wagons"][0] == {
        "target": "Dorian Gray",
        "votes": 5,
        "voters": ["Bramblethorn", "Fennimore", "Isolde", "Ariadne", "Hollis"],
    }
    assert day1["outcome"]["kind"] == "elimination"
    assert day1["outcome"]["target"] == "Dorian Gray"

    day2 = json.loads(
        run(
            "count",
            game_file,
            "--db",
            db,
            "--day",
            "2",
            "--at-time",
            DAY2_EVENING,
            "--format",
            "json",
        )
    )
    assert day2["alive"] == 7 and day2["majority"] == 4
    assert day2["wagons"][0] == {
        "target": "Elspeth",
        "votes": 3,
        "voters": ["Isolde", "Bramblethorn", "Hollis"],
    }
    assert day2["no_elimination"] == {"votes": 2, "voters": ["Fennimore", "Ariadne"]}
    assert {"post": 29, "voter": "Elspeth", "text": "vote: gideon"}.items() <= day2["problems"][
        0
    ].items()
    assert "dead" in day2["problems"][0]["reason"]
    assert {"target": "Fennimore", "votes": 1, "voters": ["Elspeth"]} in day2[
        "wagons"
    ]  # unvote+vote in adjacent bold
    assert day2["outcome"] is None


def test_a_passed_deadline_decides_the_day(forum, game_file, tmp_path):
    db = tmp_path / "votal.db"
    run("sync", game_file, "--db", db, "--quiet")
    after = json.loads(
        run(
            "count",
            game_file,
            "--db",
            db,
            "--day",
            "2",
            "--at-time",
            "2026-03-07T04:00:00+0000",
            "--format",
            "json",
        )
    )
    # Witch Hunt Online: no majority at the deadline defers to the Judge (none is set in the demo
    # game file).
    assert after["outcome"]["kind"] in ("pending", "no_elimination")
    assert after["outcome"]["reason"] in ("no_majority", "judge")


def test_a_second_sync_fetches_only_the_last_page_and_adds_nothing(forum, game_file, tmp_path):
    server, _, _ = forum
    db = tmp_path / "votal.db"
    run("sync", game_file, "--db", db)
    server.requests.clear()
    summary = json.loads(run("sync", game_file, "--db", db, "--format", "json"))
    assert (summary["new_posts"], summary["changed_posts"]) == (0, 0)
    pages = [r for r in server.requests if r != "/robots.txt"]
    assert len(pages) == 1
    assert "start=25" in pages[0]


def test_count_as_of_an_earlier_post(forum, game_file, tmp_path):
    db = tmp_path / "votal.db"
    run("sync", game_file, "--db", db, "--quiet")
    early = json.loads(
        run("count", game_file, "--db", db, "--day", "1", "--at-post", "6", "--format", "json")
    )
    assert early["as_of_post"] == 6
    assert early["wagons"][0]["target"] == "Dorian Gray"
    assert early["wagons"][0]["voters"] == ["Bramblethorn", "Cobweb", "Fennimore"]
    assert early["outcome"] is None


def test_audit_lists_every_command_with_its_resolution(forum, game_file, tmp_path):
    db = tmp_path / "votal.db"
    run("sync", game_file, "--db", db, "--quiet")
    actions = json.loads(run("audit", game_file, "--db", db, "--day", "1", "--format", "json"))
    typo = next(a for a in actions if a["post"] == 6)
    assert (typo["text"], typo["target"], typo["counted"]) == ("Vote: Dorain", "Dorian Gray", True)
    assert typo["step"] not in ("exact", "folded")
    assert all(a["post"] != 15 for a in actions)  # the vote inside a spoiler is not a command
    text = run("audit", game_file, "--db", db, "--day", "1")
    assert "Dorain" in text and "Dorian Gray" in text


def test_errors_are_one_line_without_traceback(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(
        'title = "x"\nthread = "https://f.example/viewtopic.php?t=1"\nruleset = "mafiascum"\nplayrs = []\n'
    )
    result = CliRunner().invoke(main, ["count", str(bad), "--db", str(tmp_path / "v.db")])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"Error: {bad}:4: playrs: unknown key (known keys: alerts, checks, corrections, days, deaths, "
        "events, fetch, forum, house, lynches_per_day, moderators, players, private, resets, ruleset, "
        "start, survivals, templates, thread, timezone, title)"
    ]


def test_a_page_that_changed_shape_is_an_error_not_an_empty_sync(tmp_path):
    from assistant.forum.pageserver import Response

    maintenance = Response(200, "<html><body><p>Maintenance</p></body></html>")
    with LoopbackServer(lambda path, query, headers: maintenance) as s:
        game = tmp_path / "g.toml"
        game.write_text(
            f'title = "x"\nthread = "{s.base_url}/viewtopic.php?f=1&t=9"\nforum = "phpbb"\nruleset = "mafiascum"\n'
            '[fetch]\nmin_interval = 0\n[[players]]\nname = "A"\n'
        )
        result = CliRunner().invoke(main, ["sync", str(game), "--db", str(tmp_path / "v.db")])
    assert result.exit_code == 1
    assert "no posts" in result.output
    assert "Traceback" not in result.output


def test_sync_of_a_private_thread_sends_the_session_cookie_and_never_shows_it(
    forum, tmp_path, monkeypatch
):
    from assistant.forum.pageserver import Response

    thread = forum[1]
    seen_cookies = []

    def members_only(path, query, headers):
        seen_cookies.append(headers.get("Cookie", ""))
        if path == "/robots.txt":
            return Response(404, "")
        if "phpbb3_sid=s3cr3t-session" not in headers.get("Cookie", ""):
            return Response(
                403, "<html><body>You are not authorised to read this forum.</body></html>"
            )
        return thread.respond(path, query, headers)

    with LoopbackServer(members_only) as server:
        game = tmp_path / "private.toml"
        game.write_text(
            f'title = "Private"\nthread = "{server.base_url}/viewtopic.php?f=7&t=4242"\nforum = "phpbb"\n'
            'ruleset = "mafiascum"\n[fetch]\nmin_interval = 0\nposts_per_page = 25\ncookies_env = "VOTAL_COOKIES"\n'
            '[[players]]\nname = "Ariadne"\n'
        )
        db = tmp_path / "votal.db"
        monkeypatch.setenv("VOTAL_COOKIES", "phpbb3_sid=s3cr3t-session; phpbb3_u=42")
        output = run("sync", game, "--db", db)
        assert "34 new" in output
        monkeypatch.setenv("VOTAL_COOKIES", "phpbb3_sid=expired")
        refused = CliRunner().invoke(main, ["sync", str(game), "--db", str(db)])
    assert refused.exit_code == 1 and "403" in refused.output
    assert any("s3cr3t-session" in c for c in seen_cookies)
    assert "s3cr3t" not in output + refused.output
    assert b"s3cr3t" not in db.read_bytes()


def test_count_without_a_store_says_to_sync_first_and_creates_nothing(game_file, tmp_path):
    missing = tmp_path / "none.db"
    result = CliRunner().invoke(main, ["count", str(game_file), "--db", str(missing)])
    assert result.exit_code == 2
    assert result.output.strip() == (
        f"Error: no posts stored for this game; run `votal sync` first (there is no store at {missing})"
    )
    assert not missing.exists()


def test_count_loads_no_module_it_does_not_need(forum, game_file, tmp_path):
    # `votal count` is run often (by hand and by scripts): the edit commands, the TOML editor, the
    # date reader, the look-alike tables, sqlite-utils (the store's write path) and Jinja2 (drafts)
    # stay unloaded; so do lxml and the count reader (the moderator's counts were read when the sync
    # stored them), the page parsers' Post and the command reader with its patterns (the commands
    # were read when the posts were stored), and hashlib (OpenSSL: the store hashes bodies only when
    # it saves them).
    import subprocess
    import sys

    db = tmp_path / "votal.db"
    run("sync", game_file, "--db", db, "--quiet")
    probe = (
        "import sys\n"
        "from assistant.cli.main import main\n"
        "try:\n"
        f'    main(["count", {str(game_file)!r}, "--db", {str(db)!r}, "--day", "1", "--format", "json"])\n'
        "except SystemExit as exc:\n"
        "    assert not exc.code, exc.code\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('tomlkit', 'dateutil', 'disarm', 'sqlite_utils', 'jinja2', 'lxml', 'hashlib') "
        "or m in ('assistant.cli.edits', 'assistant.reading.count_reader', 'parsers.page', 'parsers.commands')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=tmp_path
    )
    assert done.stdout.splitlines()[-1] == "[]"


def test_the_edit_commands_are_the_ones_cli_edits_registers():
    import click

    from assistant.cli import edits as cli_edits
    from assistant.cli import main as cli

    group = click.Group()
    cli_edits.register(group)
    assert sorted(group.commands) == sorted(cli.EDIT_COMMANDS)
    assert set(cli.EDIT_COMMANDS) <= set(main.list_commands(click.Context(main)))


def test_an_at_time_without_an_offset_is_the_games_local_time(forum, game_file, tmp_path):
    """The demo's day 2 ends at 22:00 New York time (03:00 UTC the next morning), as the moderator
    wrote it."""
    db = tmp_path / "votal.db"
    run("sync", game_file, "--db", db, "--quiet")

    def outcome(at_time: str):
        return json.loads(
            run(
                "count",
                game_file,
                "--db",
                db,
                "--day",
                "2",
                "--at-time",
                at_time,
                "--format",
                "json",
            )
        )["outcome"]

    assert outcome("2026-03-06T22:30") is not None  # half an hour after the local deadline: decided
    assert outcome("2026-03-06T22:30:00+0000") is None  # 17:30 in New York: still open
    assert outcome("2026-03-06T21:30") is None
