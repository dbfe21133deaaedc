"""`votal new`: a first game file from a thread, on every engine, in several moderator styles."""

from __future__ import annotations

import importlib
import json
from datetime import UTC, datetime, timedelta

import pytest
from click.testing import CliRunner
from forums import serve_pages
from support import HOUR, forum_thread

from assistant.cli.main import main
from assistant.forum.pageserver import LoopbackServer
from assistant.gamefile.game import load_game

START = datetime(2026, 3, 2, 15, 0, tzinfo=UTC)
NAMES = ("Alder", "Birch", "Cedar", "Damson", "Elm", "Fir", "Gorse")

# One opening-post style per engine; each names the same seven seats, Birch's first account being
# Oldbirch.
STYLES = {
    "phpbb": (
        "Welcome!<br>Mod: Host<br>Co-mod: Helper<br><br><b>Players</b><br>1. Alder<br>"
        '2. <span style="text-decoration:line-through">Oldbirch</span> Birch<br>3. Cedar<br>4. Damson<br>5. Elm<br>'
        "6. Fir<br>7. Gorse<br><br>Day 1 deadline: Friday 10pm EST"
    ),
    "discourse": (
        "<p>Welcome! Host: Host</p><h2>Players</h2><ol><li>Alder</li><li><s>Oldbirch</s> Birch</li><li>Cedar</li>"
        "<li>Damson</li><li>Elm</li><li>Fir</li><li>Gorse</li></ol>"
    ),
    "xenforo": (
        "Welcome!<br>Living:<ul><li>Alder</li><li>Oldbirch replaced by Birch</li><li>Cedar</li><li>Damson</li>"
        "<li>Elm</li><li>Fir</li><li>Gorse</li></ul>"
    ),
    "vbulletin": "Signups<br>"
    + "<br>".join(
        f'<a href="member.php?u={n}">{"Birch (replacing Oldbirch)" if name == "Birch" else name}</a>'
        for n, name in enumerate(NAMES)
    ),
    "proboards": "The players:<br>"
    + "<br>".join(
        "- Birch replaced Oldbirch" if name == "Birch" else f"- {name}" for name in NAMES
    ),
}


def thread_posts(opening: str, *, first: int) -> list[dict]:
    bodies = [("Host", opening)] + [(name, f"hello, I am {name}") for name in NAMES]
    bodies += [
        ("Host", "Elm has been lynched! Elm was a Mafia Goon.<br>It is now Night 1."),
        (
            "Host",
            "Fir, Vanilla Townie, was killed Night 1.<br>It is now Day 2. With 5 alive, it takes 3 to lynch.",
        ),
        ("Alder", "vote: Gorse"),
    ]
    return forum_thread(bodies, first=first, first_id=500, start=START, step=HOUR)


def run_new(engine: str, tmp_path, posts: list[dict], *extra: str, page: str = "", **render):
    renderer = importlib.import_module(f"forums.{engine}")
    handler = {}
    with LoopbackServer(
        lambda path, query, headers: handler["serve"](path, query, headers)
    ) as server:
        handler["serve"] = serve_pages(
            renderer.render_thread(posts, base_url=server.base_url, title="Mini 42", **render)
        )
        url = renderer.thread_url(server.base_url)
        args = [
            "new",
            url + page,
            "-o",
            str(tmp_path / "game.toml"),
            "--db",
            str(tmp_path / "v.db"),
            "--min-interval",
            "0",
            *extra,
        ]
        return url, CliRunner().invoke(main, args, catch_exceptions=False)


@pytest.mark.parametrize("engine", sorted(STYLES))
def test_new_reads_players_days_and_deaths_on_every_engine(engine, tmp_path):
    first = 1 if engine in ("proboards", "discourse") else 0
    url, result = run_new(
        engine,
        tmp_path,
        thread_posts(STYLES[engine], first=first),
        "--timezone",
        "America/New_York",
    )
    assert result.exit_code == 0, result.output
    game = load_game(tmp_path / "game.toml")
    assert (game.title, game.thread, game.forum, game.ruleset) == (
        "Mini 42",
        url,
        engine,
        "mafiascum",
    )
    assert game.moderators[0] == "Host"
    assert [(s.name, s.replacements) for s in game.players] == [
        ("Oldbirch", ("Birch",)) if n == "Birch" else (n, ()) for n in NAMES
    ]
    assert [(d.day, d.start_post, d.end_post) for d in game.days] == [
        (1, first, first + 8),
        (2, first + 9, None),
    ]
    assert [(d.player, d.phase, d.phase_number) for d in game.deaths] == [
        ("Elm", "day", 1),
        ("Fir", "night", 1),
    ]
    text = (tmp_path / "game.toml").read_text()
    assert f'# post {first + 8}: "Elm has been lynched! Elm was a Mafia Goon."' in text
    assert "missing: no deadline found: add `end` to day 2" in result.output


def test_new_reads_a_stated_deadline_and_the_co_moderator(tmp_path):
    posts = thread_posts(STYLES["phpbb"], first=0)[:8]  # day 1 still running
    _, result = run_new("phpbb", tmp_path, posts, "--timezone", "America/New_York")
    game = load_game(tmp_path / "game.toml")
    assert game.moderators == ("Host", "Helper")
    friday_10pm_est = datetime(2026, 3, 7, 3, 0, tzinfo=UTC)
    assert [(d.day, d.start_post, d.end) for d in game.days] == [(1, 0, friday_10pm_est)]
    assert "no deadline found" not in result.output


@pytest.mark.parametrize(
    ("engine", "per_page", "written"),
    [("phpbb", 25, 25), ("phpbb", 10, None), ("xenforo", 7, 7), ("xenforo", 20, None)],
)
def test_new_writes_the_page_size_the_forum_shows_when_the_default_would_miss_it(
    engine, per_page, written, tmp_path
):
    """A board set to another page size than the engine's default: every later sync must ask for its
    own pages."""
    posts = thread_posts(STYLES[engine], first=0)
    posts += [
        {**posts[-1], "number": posts[-1]["number"] + n, "id": str(900 + n)} for n in range(1, 30)
    ]
    _, result = run_new(engine, tmp_path, posts, per_page=per_page)
    assert result.exit_code == 0, result.output
    assert load_game(tmp_path / "game.toml").fetch.posts_per_page == written


@pytest.mark.parametrize(
    ("engine", "page"), [("phpbb", "&start=25"), ("phpbb", "#p510"), ("xenforo", "page-2")]
)
def test_new_stores_the_threads_address_whichever_page_was_copied(engine, page, tmp_path):
    posts = longer(thread_posts(STYLES[engine], first=0), 29)
    url, result = run_new(engine, tmp_path, posts, page=page)
    assert result.exit_code == 0, result.output
    assert load_game(tmp_path / "game.toml").thread == url
    assert [s.name for s in load_game(tmp_path / "game.toml").players][:2] == ["Alder", "Oldbirch"]


def test_new_never_overwrites_without_force(tmp_path):
    (tmp_path / "game.toml").write_text("# mine\n")
    _, refused = run_new("phpbb", tmp_path, thread_posts(STYLES["phpbb"], first=0))
    assert refused.exit_code == 2
    assert "game.toml exists: pass --force to overwrite it" in refused.output
    assert (tmp_path / "game.toml").read_text() == "# mine\n"
    _, forced = run_new("phpbb", tmp_path, thread_posts(STYLES["phpbb"], first=0), "--force")
    assert forced.exit_code == 0
    assert "[[players]]" in (tmp_path / "game.toml").read_text()


def test_new_without_a_player_list_writes_nothing_and_fails(tmp_path):
    posts = [
        {
            "number": n,
            "id": str(n + 1),
            "user": "Host" if n == 0 else "Alder",
            "content": "Signups soon.",
            "time": START + timedelta(hours=n),
        }
        for n in range(3)
    ]
    _, result = run_new("phpbb", tmp_path, posts, "--format", "json")
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert report["written"] is False
    assert report["missing"] == [  # what to do next: there is no file to edit
        "no player list found in the moderators' posts (a list of the players, one a line): "
        "run `votal new` again once the moderator has posted it"
    ]
    assert not (tmp_path / "game.toml").exists()


def test_a_day_may_start_in_the_post_that_ended_the_one_before():
    import tomllib

    from assistant.reading.announcements import read_thread_facts
    from assistant.upkeep.new import plan_game_file
    from parsers.page import Post

    bodies = (
        [("Host", "Players<br>" + "<br>".join(NAMES))]
        + [(name, "hi") for name in NAMES]
        + [
            ("Host", "Day 2 Starts now. With 6 alive, it takes 4 to lynch."),
            ("Alder", "vote: Gorse"),
            ("Host", "Day 3 Starts now and ends on Friday."),
        ]
    )
    posts = [
        Post(str(n), n, user, START + timedelta(hours=n), body, "")
        for n, (user, body) in enumerate(bodies)
    ]
    planned = plan_game_file(
        read_thread_facts(posts), thread="https://forum.example.org/t/1", forum="phpbb", posts=posts
    )
    days = [
        (d["day"], d.get("start_post"), d.get("end_post"))
        for d in tomllib.loads(planned.text)["days"]
    ]
    assert days == [(1, 0, 8), (2, 8, 10), (3, 10, None)]


def test_a_seat_named_by_an_earlier_seats_account_is_left_out_and_said():
    """One account, one seat: the list's "Keyenpeydee" is the account an announcement gave Alder's
    seat (the moderator's misspelling on a later line), so it is no seat of its own; `new` says
    so."""
    from assistant.gamefile.game import parse_game
    from assistant.reading.announcements import Cite, PlayerFact, ReplacementFact, ThreadFacts
    from assistant.upkeep.new import plan_game_file
    from parsers.page import Post

    posts = [
        Post(
            str(n), n, "Host" if n in (0, 5) else NAMES[n % 7], START + timedelta(hours=n), "hi", ""
        )
        for n in range(8)
    ]
    listed = [PlayerFact(name, (), False, Cite(0, name)) for name in (*NAMES, "Keyenpeydee")]
    facts = ThreadFacts(
        "Mini 42",
        ("Host",),
        None,
        tuple(listed),
        (),
        (),
        (),
        (),
        (ReplacementFact("Alder", "Keyenpeydee", 5, Cite(5, "Keyenpeydee replaces Alder.")),),
        (),
    )
    planned = plan_game_file(
        facts, thread="https://forum.example.org/t/1", forum="phpbb", posts=posts
    )
    game = parse_game(planned.text)
    assert [s.name for s in game.players] == list(NAMES)
    assert game.seat("Alder").accounts == ("Alder", "Keyenpeydee")
    assert (
        "players: Keyenpeydee (post 0) is an account of Alder's seat: left out, check"
        in planned.missing
    )


def test_new_on_a_board_it_cannot_tell_says_to_name_it_and_forum_does(tmp_path):
    renderer = importlib.import_module("forums.phpbb")
    handler = {}
    with LoopbackServer(lambda *request: handler["serve"](*request)) as server:
        posts = thread_posts(STYLES["phpbb"], first=0)
        pages = renderer.render_thread(posts, base_url=server.base_url)
        hidden = [key.replace("viewtopic.php", "game") for key in pages]
        url = renderer.thread_url(server.base_url).replace("viewtopic.php", "game")  # no engine's
        args = ["new", url, "-o", str(tmp_path / "game.toml"), "--min-interval", "0", "--quiet"]
        welcome = "<html><body>Welcome!</body></html>"
        handler["serve"] = serve_pages({key: welcome for key in hidden})
        refused = CliRunner().invoke(main, args)
        assert refused.exit_code == 1 and not (tmp_path / "game.toml").exists()
        assert refused.output.strip().endswith(
            ": name it with --forum (one of phpbb, discourse, xenforo, vbulletin, proboards)"
        )
        assert "game file" not in refused.output
        by_query = serve_pages(pages)  # the board's pages whatever its script is called
        handler["serve"] = lambda path, query, headers: by_query("/viewtopic.php", query, headers)
        named = CliRunner().invoke(main, [*args, "--forum", "phpbb"])
    assert named.exit_code == 0, named.output
    assert load_game(tmp_path / "game.toml").forum == "phpbb"


def test_new_off_a_terminal_says_its_progress_in_whole_lines(tmp_path, monkeypatch):
    import assistant.cli.options as options

    every_page = _every_page(options.PageProgress.__init__)
    monkeypatch.setattr(options.PageProgress, "__init__", every_page)
    posts = longer(thread_posts(STYLES["phpbb"], first=0), 59)
    _, result = run_new("phpbb", tmp_path, posts)
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stderr.splitlines() if line.startswith("reading ")]
    pages = [line.split(": ", 1)[1].split(",")[0] for line in lines]
    assert pages == ["page 1 of 3", "page 2 of 3", "page 3 of 3"]
    assert lines[0].endswith(" left") and "\r" not in result.stderr
    assert (tmp_path / "game.db").exists() is False  # --db given: the store is where it says


def longer(posts: list[dict], more: int) -> list[dict]:
    """The thread with ``more`` posts after its last (copies of it, their own numbers and ids)."""
    last = posts[-1]
    added = range(1, more + 1)
    return posts + [{**last, "number": last["number"] + n, "id": str(900 + n)} for n in added]


def _every_page(init):
    """PageProgress saying a line at every page, on a clock that moves a second a call."""
    ticks = iter(range(10**6))

    def every_page(self, label, **options):
        init(self, label, terminal=False, every=0, clock=lambda: float(next(ticks)))

    return every_page
