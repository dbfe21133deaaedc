"""Vote history exports on the replayed fixture game: CSV rows, day summaries, JSON, and the HTML
timeline."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from test_site import GENERATED, replay_fixture, url_of

from assistant.output.export import (
    COLUMNS,
    defuse_cell,
    plot_timeline,
    public_days,
    render_export,
    summarize_day,
)


@pytest.fixture(scope="module")
def fixture():
    return replay_fixture()


def export(fixture, fmt: str, **kw) -> str:
    game, posts, days = fixture
    return render_export(fmt, game, days, generated_at=GENERATED, posts=posts, **kw)


def test_csv_has_one_row_per_command_read_with_formulas_defused(fixture):
    rows = list(csv.reader(io.StringIO(export(fixture, "csv"))))
    assert tuple(rows[0]) == COLUMNS
    assert len(rows) == 1 + 8 + 6
    game = "Mini <Normal> & Co"
    assert rows[1:9] == [
        [
            game,
            "1",
            "0",
            "p900",
            url_of(0),
            "2026-11-01T18:00:00Z",
            "",
            "Mod",
            "VOTE: Name",
            "vote",
            "",
            "no",
            "moderator's post",
        ],
        [
            game,
            "1",
            "1",
            "p901",
            url_of(1),
            "2026-11-01T19:00:00Z",
            "Alice",
            "Alice",
            "VOTE: Bob & Co",
            "vote",
            "Bob & Co",
            "yes",
            "",
        ],
        [
            game,
            "1",
            "2",
            "p902",
            url_of(2),
            "2026-11-01T20:00:00Z",
            "Bob & Co",
            "Bob & Co",
            "vote =Dave",
            "vote",
            "'=Dave",
            "yes",
            "",
        ],
        [
            game,
            "1",
            "3",
            "p903",
            url_of(3),
            "2026-11-01T21:00:00Z",
            "<i>Carol</i>",
            "<i>Carol</i>",
            "vote bob & co",
            "vote",
            "Bob & Co",
            "yes",
            "",
        ],
        [
            game,
            "1",
            "4",
            "p904",
            url_of(4),
            "2026-11-01T22:00:00Z",
            "'=Dave",
            "'=Dave",
            "vote zzz",
            "vote",
            "",
            "no",
            "unknown name",
        ],
        [
            game,
            "1",
            "5",
            "p905",
            url_of(5),
            "2026-11-01T23:00:00Z",
            "Erin",
            "Erin",
            "Vote: Alice",
            "vote",
            "Alice",
            "yes",
            "",
        ],
        [
            game,
            "1",
            "6",
            "p906",
            url_of(6),
            "2026-11-02T00:00:00Z",
            "Erin",
            "Erin",
            "unvote",
            "unvote",
            "Alice",
            "yes",
            "",
        ],
        [
            game,
            "1",
            "6",
            "p906",
            url_of(6),
            "2026-11-02T00:00:00Z",
            "Erin",
            "Erin",
            "VOTE: Bob & Co",
            "vote",
            "Bob & Co",
            "yes",
            "",
        ],
    ]
    assert rows[10] == [
        game,
        "2",
        "12",
        "p912",
        url_of(12),
        "2026-11-02T06:00:00Z",
        "'=Dave",
        "'=Dave",
        "VOTE: No Lynch",
        "sleep",
        "",
        "yes",
        "",
    ]
    assert rows[11][6:8] == ["Erin", "'@erin2"]
    assert rows[13][6:] == ["", "Stranger", "vote Alice", "vote", "", "no", "not a player"]


@pytest.mark.parametrize(
    ("cell", "shown"),
    [
        ('=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'),
        ("+1", "'+1"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("Bob", "Bob"),
        ("a=b", "a=b"),
        (3, 3),
        (None, None),
    ],
)
def test_defuse_cell_quotes_what_a_spreadsheet_would_run(cell, shown):
    assert defuse_cell(cell) == shown


def test_day_summary_csv_has_final_wagons_outcome_and_who_never_voted(fixture):
    rows = list(csv.DictReader(io.StringIO(export(fixture, "csv", table="days"))))
    assert rows == [
        {
            "game": "Mini <Normal> & Co",
            "day": "1",
            "alive": "5",
            "majority": "3",
            "outcome": "elimination",
            "eliminated": "Bob & Co",
            "reason": "majority",
            "decided_at_post": "6",
            "wagons": "Bob & Co 3 (Alice, <i>Carol</i>, Erin); =Dave 1 (Bob & Co)",
            "no_elimination": "0 ()",
            "never_voted": "'=Dave",
        },
        {
            "game": "Mini <Normal> & Co",
            "day": "2",
            "alive": "4",
            "majority": "3",
            "outcome": "undecided",
            "eliminated": "",
            "reason": "",
            "decided_at_post": "",
            "wagons": "<i>Carol</i> 2 (Alice, Erin); =Dave 1 (<i>Carol</i>)",
            "no_elimination": "1 (=Dave)",
            "never_voted": "",
        },
    ]


def test_json_export_holds_rows_and_day_summaries(fixture):
    data = json.loads(export(fixture, "json"))
    assert data["columns"] == list(COLUMNS)
    assert data["generated_at"] == "2026-11-02T09:30:00Z"
    assert len(data["votes"]) == 14
    assert data["votes"][4] == {
        "game": "Mini <Normal> & Co",
        "day": 1,
        "post": 4,
        "post_id": "p904",
        "post_url": url_of(4),
        "time_utc": "2026-11-01T22:00:00Z",
        "voter": "=Dave",
        "account": "=Dave",
        "text": "vote zzz",
        "action": "vote",
        "target": None,
        "counted": False,
        "why_not": "unknown name",
    }
    assert data["days"][0] == {
        "day": 1,
        "alive": 5,
        "majority": 3,
        "as_of_post": 6,
        "wagons": [
            {"target": "Bob & Co", "votes": 3, "voters": ["Alice", "<i>Carol</i>", "Erin"]},
            {"target": "=Dave", "votes": 1, "voters": ["Bob & Co"]},
        ],
        "no_elimination": {"votes": 0, "voters": []},
        "outcome": {"kind": "elimination", "target": "Bob & Co", "post": 6, "reason": "majority"},
        "never_voted": ["=Dave"],
    }


def test_summary_never_voted_counts_only_votes_that_counted(fixture):
    game, posts, days = fixture
    day1 = public_days(days, posts)[0]
    assert summarize_day(game, day1)["never_voted"] == ["=Dave"]  # "vote zzz" named nobody


def test_timeline_steps_follow_the_votes_and_end_at_the_final_wagons(fixture):
    game, posts, days = fixture
    for day in public_days(days, posts):
        timeline = plot_timeline(day)
        final = {line["label"]: line["final"] for line in timeline["lines"]}
        expected = {w["target"]: len(w["voters"]) for w in day["wagons"]}
        if day["no_elimination"]["voters"]:
            expected["No elimination"] = len(day["no_elimination"]["voters"])
        assert {k: v for k, v in final.items() if v} == expected
    day1 = plot_timeline(public_days(days, posts)[0])
    assert [(line["label"], line["final"], line["peak"]) for line in day1["lines"]] == [
        ("Bob & Co", 3, 3),
        ("=Dave", 1, 1),
        ("Alice", 0, 1),
    ]
    assert (day1["first"], day1["last"], day1["majority"]) == (1, 6, 3)
    # Bob & Co: 0 until post 1, 1 until post 3, 2 until post 6, then 3 (x from post 1 to 6, y 0..3)
    bob = day1["lines"][0]["path"]
    assert bob == "M28.0,152.0H28.0V107.3H180.8V62.7H410.0V18.0H410.0"


def test_html_export_has_a_timeline_per_day_with_escaped_names(fixture):
    html = export(fixture, "html")
    soup = BeautifulSoup(html, "html.parser")
    svgs = soup.select("svg.timeline")
    assert len(svgs) == 2
    assert [t.get_text() for t in svgs[0].select("text") if "(" in t.get_text()] == [
        "Bob & Co (3)",
        "=Dave (1)",
        "Alice (0)",
    ]
    assert "<i>" not in html and "&lt;i&gt;Carol&lt;/i&gt; (2)" in html
    assert soup.find("i") is None
    assert not soup.select("script"), "the export is a document, not a program"
    assert not soup.select("link[rel=stylesheet]"), "styles are inline so the file stands alone"
    rows = soup.select("#day-2 table tbody tr")
    assert [r.select_one("td a")["href"] for r in rows] == [
        url_of(n) for n in (11, 12, 13, 14, 15, 16)
    ]


def test_unknown_format_or_table_is_an_error(fixture):
    with pytest.raises(ValueError, match="unknown export format 'xml'"):
        export(fixture, "xml")
    with pytest.raises(ValueError, match="unknown table 'posts'"):
        export(fixture, "csv", table="posts")


def test_cli_site_and_export_agree_with_count_end_to_end(tmp_path, monkeypatch):
    """Sync the demo thread over loopback, then `votal site` and `votal export` from the store: each
    day's counted votes in the CSV, replayed, leave exactly the voters `votal count` reports."""
    from click.testing import CliRunner
    from support import demo_game_at

    from assistant.cli.demo import load_demo_thread
    from assistant.cli.main import main
    from assistant.forum.pageserver import LoopbackServer

    def run(*args) -> str:
        result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result.output

    # the site and the export count as of "now": pin it after the demo game's last post
    monkeypatch.setattr("assistant.cli.main.now_utc", lambda: datetime(2026, 4, 1, tzinfo=UTC))
    thread, game_text = load_demo_thread()
    with LoopbackServer(thread.respond) as server:
        game_file = tmp_path / "game.toml"
        game_file.write_text(demo_game_at(game_text, server.base_url))
        db = tmp_path / "votal.db"
        run("sync", game_file, "--db", db, "--quiet")
    counts = json.loads(run("count", game_file, "--db", db, "--all-days", "--format", "json"))

    said = run("site", game_file, "--db", db, "--out", tmp_path / "public")
    assert "public/game/ and the index of games" in said
    folder = tmp_path / "public" / "game"
    page = BeautifulSoup((folder / "index.html").read_text(encoding="utf-8"), "html.parser")
    site_days = json.loads((folder / "votal.json").read_text(encoding="utf-8"))["days"]
    assert [d["day"] for d in site_days] == [c["day"] for c in counts] == [1, 2]
    assert page.select_one("section.current")["id"] == f"day-{counts[-1]['day']}"

    run("export", game_file, "--db", db, "--format", "csv", "-o", tmp_path / "votes.csv")
    with open(tmp_path / "votes.csv", encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    for count in counts:
        standing: dict[str, str] = {}
        for row in (r for r in rows if r["day"] == str(count["day"]) and r["counted"] == "yes"):
            if row["action"] == "unvote":
                standing.pop(row["voter"], None)
            else:
                standing[row["voter"]] = (
                    row["target"] if row["action"] == "vote" else "(no elimination)"
                )
        wagons = {w["target"]: sorted(w["voters"]) for w in count["wagons"]}
        if count["no_elimination"]["voters"]:
            wagons["(no elimination)"] = sorted(count["no_elimination"]["voters"])
        replayed: dict[str, list[str]] = {}
        for voter, target in standing.items():
            replayed.setdefault(target, []).append(voter)
        assert {t: sorted(v) for t, v in replayed.items()} == wagons, f"day {count['day']}"

    history = run("export", game_file, "--db", db, "--format", "html")
    assert BeautifulSoup(history, "html.parser").select("svg.timeline")


GOLDEN = Path(__file__).resolve().parent / "golden"
GOLDEN_CASES = sorted(GOLDEN.glob("*.txt"))


@pytest.mark.parametrize("path", GOLDEN_CASES, ids=lambda p: p.stem)
def test_replaying_the_vote_log_ends_at_the_tallys_wagons(path):
    """The page's voter links and the timeline read the tally's recorded vote changes; on every
    golden rules case their last state must hold each standing vote the tally reports, and no other
    vote of a living voter."""
    from golden.harness import ExactRoster, count_day, read_case, resolve_exact

    from assistant.counting.votes import standing_steps
    from assistant.gamefile.rules import load_ruleset
    from assistant.output.site import public_day

    case = read_case(path)
    name = case.game.ruleset
    ruleset = load_ruleset(GOLDEN / name if name.endswith(".toml") else name)
    votal = count_day(
        case.game,
        case.posts,
        ruleset=ruleset,
        roster=ExactRoster(case.game),
        day=case.day,
        at_post=case.at_post,
        at_time=case.at_time,
        resolve=resolve_exact,
    ).to_json()
    day = public_day(votal)
    steps = standing_steps(day["changes"])
    final = {
        voter: {target for target, _ in votes}
        for voter, votes in (steps[-1][1] if steps else {}).items()
    }
    tally = {}
    for wagon in day["wagons"]:
        for voter in wagon["voters"]:
            tally.setdefault(voter, set()).add(wagon["target"])
    for voter in day["no_elimination"]["voters"]:
        tally.setdefault(voter, set()).add(None)
    for voter, targets in tally.items():
        assert targets <= final.get(voter, set()), voter
    living = set(day["living"])
    replayed = {
        voter: targets & (living | {None}) for voter, targets in final.items() if voter in living
    }
    assert {v: t for v, t in replayed.items() if t} == {
        v: t for v, t in tally.items() if v in living
    }
