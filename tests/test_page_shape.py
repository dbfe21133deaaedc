"""A forum page that changed shape (some or all of its posts in markup Votal does not know) is
reported by `sync`, and afterwards by `count` and `status` warnings; it is never read as no posts or
as deletions."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from loopback_forum import Forum, game_text, make_posts, serve

from assistant.cli.main import main
from assistant.forum import store
from assistant.forum.pageserver import Response

DAYS = "[[days]]\nday = 1\nstart_post = 0\n"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def synced(tmp_path):
    posts = make_posts(40)
    posts[31] = {**posts[31], "content": "<b>vote Birch</b>"}
    forum = Forum(posts)
    with serve(forum) as server:
        game = tmp_path / "game.toml"
        game.write_text(game_text(server.base_url, tables=DAYS))
        db = tmp_path / "votal.db"
        assert run("sync", str(game), "--db", str(db), "-q").exit_code == 0
        yield forum, game, db


def restyle(forum: Forum, ids: tuple[str, ...]):
    def answer(path, query):
        html = forum.render(int(query.get("start", "0") or 0))
        for post_id in ids:
            html = html.replace(
                f'<div id="p{post_id}" class="post ', f'<div id="p{post_id}" class="message '
            )
        return Response(200, html)

    return answer


def deleted(db) -> int:
    with store.open_db(db) as conn:
        return conn.execute("select coalesce(sum(deleted), 0) from posts").fetchone()[0]


def test_posts_in_a_changed_shape_are_reported_everywhere_and_never_deleted(synced):
    forum, game, db = synced
    forum.add(3)
    new = [p["id"] for p in forum.posts[-3:]]
    forum.faults.append(restyle(forum, ("1030", "1031", new[1])))
    result = run("sync", str(game), "--db", str(db))
    assert "posts may be missing" in result.output
    assert result.exit_code == 1  # a problem found; what could be read is stored
    assert deleted(db) == 0

    count = run("count", str(game), "--db", str(db), "--day", "1", "--format", "json")
    warnings = json.loads(count.output)["warnings"]
    assert [w["kind"] for w in warnings if w["kind"] == "sync_problems"] == ["sync_problems"]
    assert (
        json.loads(count.output)["wagons"][0]["target"] == "Birch"
    )  # the vote stored before is kept
    status = run("status", str(game), "--db", str(db))
    assert "could not read every post" in status.output

    # the next sync reads the page whole again: the warning goes, the post it missed is stored
    again = run("sync", str(game), "--db", str(db))
    assert again.exit_code == 0 and "problem" not in again.output
    assert "could not read every post" not in run("status", str(game), "--db", str(db)).output
    with store.open_db(db) as conn:
        assert (
            conn.execute("select count(*) from posts where post_id = ?", [new[1]]).fetchone()[0]
            == 1
        )


def test_a_page_of_an_unknown_shape_is_an_error_and_deletes_nothing(synced):
    forum, game, db = synced
    forum.faults.append(restyle(forum, tuple(p["id"] for p in forum.posts)))
    result = run("sync", str(game), "--db", str(db))
    assert result.exit_code == 1
    assert "markup may have changed" in result.output
    assert deleted(db) == 0
    assert "last sync failed" in run("status", str(game), "--db", str(db)).output


def test_an_older_store_without_the_problems_column_still_reads(synced):
    forum, game, db = synced
    with store.open_db(db) as conn:
        conn.execute("alter table syncs drop column problems")
    assert run("count", str(game), "--db", str(db), "--day", "1").exit_code == 0
    assert run("sync", str(game), "--db", str(db), "-q").exit_code == 0  # the column comes back
    with store.open_db(db) as conn:
        assert "problems" in {row[1] for row in conn.execute("pragma table_info(syncs)")}
