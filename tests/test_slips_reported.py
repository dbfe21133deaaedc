"""The slips that used to pass without a word, each said once, by the real CLI on loopback threads:
an address that is not a forum's, a forum that refuses the connection, a correction for a post the
thread lacks, an end_post after the hammer, and one post holding hundreds of unreadable votes (one
alert, not none or hundreds)."""

from __future__ import annotations

import json
import socket
import threading
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from click.testing import CliRunner
from loopback_forum import Forum, game_text, make_game, make_posts

from assistant.cli.main import main
from assistant.cli.schedule import Runner
from assistant.counting.checks import check_corrections
from assistant.forum import store
from assistant.forum.fetch import HostLimiter
from assistant.gamefile.weburl import url_problem

NOW = datetime(2026, 3, 5, 12, 0, tzinfo=UTC)
VOTE = '<strong class="text-strong">VOTE: {}</strong>'


@pytest.fixture
def refusing_url():
    """A loopback port that refuses every connection: bound, never listening (held for the test, so
    no other process can take it meanwhile)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/viewtopic.php?f=7&t=42"


def invoke(*args) -> tuple[int, list[str]]:
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result.exit_code, [line for line in result.output.splitlines() if line.strip()]


BAD_ADDRESSES = [
    ("", "no URL given"),
    (
        "forum.example.org/viewtopic.php?t=5",
        "has no scheme: write it as https://forum.example.org/viewtopic.php?t=5",
    ),
    ("ftp://forum.example.org/viewtopic.php?t=5", "is not an http(s) URL"),
    ("https:///viewtopic.php?t=5", "names no host"),
    ("http://forum.example.org:port/viewtopic.php?t=5", "is not a valid URL"),
]


@pytest.mark.parametrize(("url", "said"), BAD_ADDRESSES)
def test_votal_new_refuses_what_is_not_an_http_url_with_a_host_in_one_line(
    url, said, tmp_path
) -> None:
    # before: "InvalidSchema fetching ://:///robots.txt; retrying" for 20 s and more
    code, lines = invoke("new", url, "-o", tmp_path / "game.toml", "--db", tmp_path / "votal.db")
    assert code == 2
    assert len(lines) == 1 and lines[0].startswith("Error: ") and said in lines[0], lines
    assert not (tmp_path / "game.toml").exists()


@pytest.mark.parametrize(("url", "said"), BAD_ADDRESSES[1:])
def test_a_game_file_whose_thread_is_not_an_http_url_is_refused_by_sync_and_run(
    url, said, tmp_path
) -> None:
    path = tmp_path / "game.toml"
    path.write_text(
        game_text("X").replace('thread = "X/viewtopic.php?f=7&t=42"', f'thread = "{url}"')
    )
    code, lines = invoke("sync", path, "--db", tmp_path / "votal.db")
    assert code == 2 and len(lines) == 1 and "thread" in lines[0] and said in lines[0], lines
    said_by_run: list[str] = []
    run = Runner(db_path=tmp_path / "votal.db", echo=said_by_run.append).run_game(
        path
    )  # what `votal run` calls
    assert run.error is not None and said in run.error and not run.synced
    assert len(said_by_run) == 1


def test_a_forum_that_refuses_the_connection_is_said_once_in_words(refusing_url, tmp_path) -> None:
    code, lines = invoke(
        "new", refusing_url, "-o", tmp_path / "game.toml", "--db", tmp_path / "votal.db"
    )
    assert code == 1
    assert len(lines) == 1 and "refused the connection" in lines[0], (
        lines
    )  # not once per try, nor for robots.txt
    assert "ConnectionError" not in lines[0] and "retrying" not in lines[0]

    path = tmp_path / "game.toml"
    path.write_text(game_text(refusing_url.split("/viewtopic")[0]))
    code, lines = invoke("sync", path, "--db", tmp_path / "votal.db")
    assert code == 1 and len(lines) == 1 and lines[0].count("refused the connection") == 1, lines

    run = Runner(
        db_path=tmp_path / "votal.db", limiter=HostLimiter(sleep=lambda s: None), now=lambda: NOW
    )
    result = run.run_game(path)
    assert result.error is not None and result.error.count("refused the connection") == 1
    alerts = store.load_alerts(
        store.open_db(tmp_path / "votal.db"), make_game(refusing_url.split("/viewtopic")[0]).key
    )
    assert [a["kind"] for a in alerts].count("forum_error") == 1


def synced_game(
    board, tmp_path: Path, posts: list[dict], *, extra: str = "", tables: str = ""
) -> tuple[Path, Path]:
    board.plug(Forum(posts).respond)
    path = tmp_path / "game.toml"
    path.write_text(game_text(board.base_url, extra=extra, tables=tables))
    db = tmp_path / "votal.db"
    code, lines = invoke("sync", path, "--db", db)
    assert code == 0, lines
    return path, db


def test_a_post_of_hundreds_of_unreadable_votes_raises_exactly_one_alert_under_run(
    board, tmp_path
) -> None:
    posts = make_posts(10)
    posts[5]["content"] = "<br>".join(VOTE.format(f"nobody{i}") for i in range(300))
    path, db = synced_game(board, tmp_path, posts, tables="[[days]]\nday = 1\nstart_post = 0\n")
    sent: list[str] = []
    runner = Runner(
        db_path=db,
        now=lambda: NOW,
        limiter=HostLimiter(sleep=lambda s: None),
        post_webhook=lambda url, payload: sent.append(payload["content"]),
    )
    path.write_text(
        path.read_text().replace(
            "[fetch]", '[alerts]\nwebhook = "https://hooks.example/w"\n\n[fetch]'
        )
    )
    runner.run_game(path)
    runner.run_game(path)  # a second poll says nothing new
    alerts = store.load_alerts(store.open_db(db), make_game(board.base_url).key, limit=1000)
    votes = [a for a in alerts if a["kind"] == "unresolved_vote"]
    assert len(votes) == 1, [a["message"] for a in alerts]
    assert "post 5" in votes[0]["message"] and "several targets" in votes[0]["message"]
    assert len(sent) == 1 and sent[0].count("post 5") == 1


def test_a_correction_for_a_post_the_thread_lacks_is_a_warning(board, tmp_path) -> None:
    tables = (
        "[[days]]\nday = 1\nstart_post = 0\n"
        '[[corrections]]\npost = 4\nvote = "Elm"\n'
        '[[corrections]]\npost = 999\nvote = "Elm"\n'
    )
    path, db = synced_game(board, tmp_path, make_posts(10), tables=tables)
    code, lines = invoke(
        "count", path, "--db", db, "--format", "json", "--at-time", "2026-03-02T00:00:00Z"
    )
    assert code == 0, lines
    warnings = json.loads("\n".join(lines))["warnings"]
    found = [w for w in warnings if w["kind"] == "correction_without_post"]
    assert [w["post"] for w in found] == [999]  # post 4 exists: its correction applies
    assert "the last stored post is 9" in found[0]["message"]


def test_a_correction_for_a_post_number_the_thread_skips_corrects_nothing_and_says_so() -> None:
    game = make_game("http://forum.example", tables="[[corrections]]\npost = 7\nignore = true\n")
    (warning,) = check_corrections(game, present={1, 2, 3, 8}, last_post=8)
    assert warning.post == 7 and "no such post" in warning.message


def count_hammered_day(board, tmp_path: Path, closing_post: int) -> dict:
    """Day 1's count as JSON: Alder, Birch and Cedar hammer Elm at post 12, the moderator closes the
    day at ``closing_post`` (its end_post) and players chat in between."""
    posts = make_posts(closing_post + 1)
    for number, voter in ((10, "Alder"), (11, "Birch"), (12, "Cedar")):
        posts[number] = {**posts[number], "user": voter, "content": VOTE.format("Elm")}
    posts[closing_post] = {**posts[closing_post], "user": "Mod", "content": "Day 1 is over."}
    tables = f"[[days]]\nday = 1\nstart_post = 0\nend_post = {closing_post}\n"
    path, db = synced_game(board, tmp_path, posts, extra='moderators = ["Mod"]', tables=tables)
    code, lines = invoke("count", path, "--db", db, "--day", "1", "--format", "json")
    assert code == 0, lines
    return json.loads("\n".join(lines))


def test_an_end_post_after_the_hammer_is_noted(board, tmp_path) -> None:
    # players chat until the moderator sees the hammer: how days end, so a note (play going on is
    # a warning: tests/test_quiet.py)
    votal = count_hammered_day(board, tmp_path, 20)
    assert (votal["outcome"]["target"], votal["outcome"]["post"]) == ("Elm", 12)
    assert not [w for w in votal["warnings"] if w["kind"].startswith("end_post")]
    (said,) = [n for n in votal["notes"] if n["kind"] == "end_post_after_hammer"]
    assert said["post"] == 20
    assert "end_post = 20 lies after the hammer Votal computes at post 12" in said["why"]
    assert "7 player posts between" in said["why"]


def test_a_moderator_closing_the_day_right_after_the_hammer_is_no_slip(board, tmp_path) -> None:
    votal = count_hammered_day(board, tmp_path, 13)
    assert votal["outcome"]["post"] == 12
    assert not [w for w in votal["warnings"] if w["kind"] == "end_post_disagrees"]


@pytest.mark.parametrize(
    "url", ["https://forum.example.org/viewtopic.php?t=5", "http://127.0.0.1:8080/t/x/5"]
)
def test_an_http_url_with_a_host_is_accepted(url) -> None:
    assert url_problem(url) is None


class WebhookReceiver:
    """A loopback webhook (Discord-style: a JSON POST answered 204) that keeps what each POST
    carried."""

    def __init__(self) -> None:
        received = self.received = []

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                received.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/api/webhooks/1/token"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> WebhookReceiver:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


def test_votal_run_says_a_flood_post_in_one_alert_and_one_webhook_message(board, tmp_path) -> None:
    # the words: one post holding hundreds of unresolvable bold votes raises one alert, not
    # zero, not hundreds
    posts = make_posts(10)
    posts[5]["content"] = "<br>".join(VOTE.format(f"nobody{i}") for i in range(300))
    board.plug(Forum(posts).respond)
    with WebhookReceiver() as hook:
        path = tmp_path / "game.toml"
        path.write_text(
            game_text(
                board.base_url,
                tables=f'[alerts]\nwebhook = "{hook.url}"\n\n[[days]]\nday = 1\nstart_post = 0\n',
            )
        )
        db = tmp_path / "votal.db"
        for _ in range(2):  # the second round finds nothing new and says nothing again
            code, lines = invoke("run", path, "--db", db, "--once")
            assert code == 0, lines
    alerts = store.load_alerts(store.open_db(db), make_game(board.base_url).key, limit=1000)
    votes = [a for a in alerts if a["kind"] == "unresolved_vote"]
    assert len(votes) == 1 and "post 5" in votes[0]["message"], [a["message"] for a in alerts]
    assert len(hook.received) == 1 and hook.received[0]["content"].count("post 5") == 1, (
        hook.received
    )


def test_a_plain_vote_under_millers_hollow_is_shown_to_the_moderator_never_counted_silently(
    board, tmp_path
) -> None:
    # millers-hollow-master-rules.txt: 'To vote for someone you simply state in any post (not in the
    # header) "vote [insert name]"' ... "Please bold all votes": bold is asked for, so a plain vote
    # is flagged, not dropped
    posts = make_posts(6)
    posts[2] = {
        **posts[2],
        "user": "Cedar",
        "content": "I've made up my mind.<br>vote Elm<br>Sorry Elm.",
    }
    posts[3] = {**posts[3], "user": "Damson", "content": VOTE.format("Elm")}
    path, db = synced_game(
        board,
        tmp_path,
        posts,
        extra='moderators = ["Mod"]',
        tables="[[days]]\nday = 1\nstart_post = 0\n",
    )
    path.write_text(path.read_text().replace('ruleset = "mafiascum"', 'ruleset = "millers-hollow"'))
    code, lines = invoke("count", path, "--db", db, "--day", "1", "--format", "json")
    assert code == 0, lines
    votal = json.loads("\n".join(lines))
    assert {w["target"]: w["voters"] for w in votal["wagons"]} == {"Elm": ["Damson"]}
    (plain,) = [p for p in votal["problems"] if p["voter"] == "Cedar"]
    assert plain["post"] == 2 and "not in bold" in plain["reason"], votal["problems"]
