"""The players' page: content from a replayed fixture game, escaping, privacy, and the read-only
server."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from datetime import UTC, datetime, timedelta
from threading import Thread

import pytest
from bs4 import BeautifulSoup
from golden.harness import count_day
from support import game_toml

from assistant.gamefile.game import parse_game
from assistant.gamefile.rules import load_ruleset
from assistant.output.export import render_export
from assistant.output.site import (
    PublicGame,
    build_site,
    count_public_days,
    describe_game,
    index_posts,
    make_server,
    mask_private_outcomes,
    public_day,
    write_site,
)
from assistant.reading.names import Roster
from parsers.commands import Command, ReadPost

# A small game whose names are hostile on purpose: markup, an ampersand, a spreadsheet formula, an
# @.
GAME = game_toml(
    ["Alice", "Bob & Co", "<i>Carol</i>", "=Dave", {"name": "Erin", "replacements": ["@erin2"]}],
    title="Mini <Normal> & Co",
    thread="https://forum.example.org/viewtopic.php?t=77",
    days=[(1, 0, 9)],
    tables=(
        "[[days]]\nday = 2\nstart_post = 10\nend = 2099-01-01T22:00:00Z\n"
        '[[deaths]]\nplayer = "Bob & Co"\nphase = "day 1"\n'
    ),
)

# Every private fact the game file can hold, with role names no public output may contain.
PRIVATE = """
[private]
judge = "Alice"
sheriff = "Erin"
loose_cannon = "=Dave"
deacon = "Alice"
holy = ["Erin"]
lovers = [["Erin", "Alice"]]
[private.roles]
Alice = "Judge-ROLE-XYZZY"
Erin = "Sheriff-ROLE-PLUGH"
"=Dave" = "Loose-Cannon-ROLE-FROB"
[[private.decisions]]
day = 1
judge = "Erin"
[[private.sequestered]]
day = 2
player = "Erin"
"""
PRIVATE_WORDS = (
    "XYZZY",
    "PLUGH",
    "FROB",
    "-ROLE-",
    "judge",
    "sheriff",
    "cannon",
    "deacon",
    "holy",
    "lover",
    "sequester",
    "private",
    '"step"',
    "fuzzy",
    "substring",
)

T0 = datetime(2026, 11, 1, 18, 0, tzinfo=UTC)
GENERATED = datetime(2026, 11, 2, 9, 30, tzinfo=UTC)
POSTS = [
    (0, "Mod", [("vote", "Name", "VOTE: Name")]),  # the moderator showing how to vote
    (1, "Alice", [("vote", "Bob & Co", "VOTE: Bob & Co")]),
    (2, "Bob & Co", [("vote", "=Dave", "vote =Dave")]),
    (3, "<i>Carol</i>", [("vote", "bob & co", "vote bob & co")]),
    (4, "=Dave", [("vote", "zzz", "vote zzz")]),
    (5, "Erin", [("vote", "Alice", "Vote: Alice")]),
    (6, "Erin", [("unvote", None, "unvote"), ("vote", "Bob & Co", "VOTE: Bob & Co")]),
    (10, "Mod", []),
    (11, "Alice", [("vote", "<i>Carol</i>", "VOTE: <i>Carol</i>")]),
    (12, "=Dave", [("vote", "No Lynch", "VOTE: No Lynch")]),
    (13, "@erin2", [("vote", "carol", "vote carol")]),
    (14, "Bob & Co", [("vote", "Erin", "vote Erin")]),
    (15, "Stranger", [("vote", "Alice", "vote Alice")]),
    (16, "<i>Carol</i>", [("vote", "=Dave", "vote =Dave")]),
]


def url_of(number: int) -> str:
    return f"https://forum.example.org/viewtopic.php?p={900 + number}#p{900 + number}"


def read_posts() -> list[ReadPost]:
    return [
        ReadPost(
            n,
            f"p{900 + n}",
            author,
            T0 + timedelta(hours=n),
            url_of(n),
            tuple(Command(*c) for c in commands),
        )
        for n, author, commands in POSTS
    ]


def replay_fixture(text: str = GAME):
    """(public game, post index, each day's public Votal JSON) for the fixture game, replayed by the
    real tally the way `votal site` does it."""
    game = parse_game(text)
    ruleset = load_ruleset(game.ruleset)
    posts = read_posts()

    def count(g):
        roster = Roster.from_game(g, ruleset)
        return [count_day(g, posts, ruleset=ruleset, roster=roster, day=d) for d in (1, 2)]

    return describe_game(game), index_posts(posts), count_public_days(game, count)


def build_fixture_site(text: str = GAME) -> dict[str, str]:
    game, posts, days = replay_fixture(text)
    return build_site(game, days, generated_at=GENERATED, posts=posts)


def every_output(text: str) -> dict[str, str]:
    """The site's files and every export, for one game file."""
    game, posts, days = replay_fixture(text)
    outputs = dict(build_site(game, days, generated_at=GENERATED, posts=posts))
    for fmt in ("csv", "json", "html"):
        outputs[f"export.{fmt}"] = render_export(
            fmt, game, days, generated_at=GENERATED, posts=posts
        )
    outputs["days.csv"] = render_export(
        "csv", game, days, generated_at=GENERATED, posts=posts, table="days"
    )
    return outputs


@pytest.fixture(scope="module")
def page() -> BeautifulSoup:
    return BeautifulSoup(build_fixture_site()["index.html"], "html.parser")


def wagon_rows(section) -> list[tuple[str, str, list[tuple[str, str | None]]]]:
    rows = []
    for li in section.select("ol.wagons > li.wagon"):
        voters = [(a.get_text(), a.get("href")) for a in li.select(".voters a")]
        rows.append(
            (
                li.select_one(".who").get_text(),
                " ".join(li.select_one(".count").get_text().split()),
                voters,
            )
        )
    return rows


def test_current_day_shows_wagons_with_bars_voters_in_order_and_votes_needed(page):
    current = page.select_one("section.day.current")
    assert current["id"] == "day-2"
    assert wagon_rows(current) == [
        ("<i>Carol</i>", "2 L-1", [("Alice", url_of(11)), ("@erin2 (replaced Erin)", url_of(13))]),
        ("=Dave", "1 L-2", [("<i>Carol</i>", url_of(16))]),
        ("No elimination", "1 L-2", [("=Dave", url_of(12))]),
    ]
    bars = [span["style"] for span in current.select("ol.wagons .bar span")]
    assert bars == ["width: 66.7%", "width: 33.3%", "width: 33.3%"]
    facts = {div.dt.get_text(): div.dd.get_text() for div in current.select("dl.facts > div")}
    assert facts == {"Alive": "4", "Majority": "3", "As of post": "#16"}
    assert " ".join(current.select_one(".notvoting").get_text().split()) == "Not voting (0): nobody"


def test_deadline_is_an_iso_time_the_browser_counts_down_to(page):
    countdown = page.select_one(".countdown")
    assert countdown["data-deadline"] == "2099-01-01T22:00:00Z"
    assert countdown.get_text() == "2099-01-01 22:00 UTC"  # shown as is when scripts do not run
    assert page.select_one("script")["src"] == "countdown.js"
    assert not page.select("script:not([src])"), "no inline script: the server's CSP forbids it"


def test_every_command_of_the_day_is_listed_in_order_linking_to_its_post(page):
    log = page.select_one("section.day.current ol.actions")
    items = [
        (li["class"], li.select_one("a.post")["href"], " ".join(li.get_text(" ").split()))
        for li in log.select("li")
    ]
    assert items == [
        (["vote"], url_of(11), "#11 Alice votes <i>Carol</i> 2026-11-02 05:00 UTC"),
        (["sleep"], url_of(12), "#12 =Dave votes No elimination 2026-11-02 06:00 UTC"),
        (
            ["vote"],
            url_of(13),
            "#13 @erin2 (replaced Erin) votes <i>Carol</i> 2026-11-02 07:00 UTC",
        ),
        (
            ["vote", "void"],
            url_of(14),
            "#14 Bob & Co vote Erin not counted: voter is dead 2026-11-02 08:00 UTC",
        ),
        (
            ["vote", "void"],
            url_of(15),
            "#15 Stranger vote Alice not counted: not a player 2026-11-02 09:00 UTC",
        ),
        (["vote"], url_of(16), "#16 <i>Carol</i> votes =Dave 2026-11-02 10:00 UTC"),
    ]


def test_earlier_days_show_their_final_votal_and_outcome(page):
    earlier = page.select("section.day.earlier")
    assert [s["id"] for s in earlier] == ["day-1"]
    day1 = earlier[0]
    assert day1.select_one("summary .tag").get_text() == "Bob & Co eliminated"
    assert (
        " ".join(day1.select_one(".outcome").get_text().split())
        == "Bob & Co is eliminated (majority, post #6)."
    )
    assert day1.select_one(".outcome a")["href"] == url_of(6)
    assert wagon_rows(day1) == [
        (
            "Bob & Co",
            "3 majority",
            [
                ("Alice", url_of(1)),
                ("<i>Carol</i>", url_of(3)),
                ("@erin2 (replaced Erin)", url_of(6)),
            ],
        ),
        ("=Dave", "1 L-2", [("Bob & Co", url_of(2))]),
    ]
    assert [a.get_text() for a in day1.select("ol.actions a.post")] == [
        "#1",
        "#2",
        "#3",
        "#4",
        "#5",
        "#6",
        "#6",
    ]


def test_names_and_post_text_are_escaped_never_markup():
    html = build_fixture_site()["index.html"]
    soup = BeautifulSoup(html, "html.parser")
    assert soup.find("i") is None
    assert "&lt;i&gt;Carol&lt;/i&gt;" in html
    assert "<i>" not in html
    assert soup.title.get_text() == "Mini <Normal> & Co — Day 2 votal"


def test_a_name_with_bidi_or_control_characters_shows_them_as_visible_escapes():
    """A right-to-left override in a name would show it as another name (and reorder what follows)
    in a browser, even written as a character reference; the page shows the escape instead, the JSON
    keeps the exact name as JSON escapes."""
    spoof = "Alice\u202eecilA"
    files = build_fixture_site(
        GAME.replace('name = "Alice"', f'name = "{spoof}"').replace(
            'judge = "Alice"', f'judge = "{spoof}"'
        )
    )
    html = files["index.html"]
    for raw in ("\u202e", "&#x202e;", "&#8238;"):
        assert raw not in html.casefold() and raw not in files["votal.json"]
    assert "Alice\\u202eecilA" in html
    assert json.loads(files["votal.json"])["game"]["players"][0] == spoof


def test_votal_json_holds_the_public_days():
    files = build_fixture_site()
    data = json.loads(files["votal.json"])
    assert data["game"] == {
        "title": "Mini <Normal> & Co",
        "thread": "https://forum.example.org/viewtopic.php?t=77",
        "players": [
            "Alice",
            "Bob & Co",
            "<i>Carol</i>",
            "=Dave",
            "@erin2 (replaced Erin)",
        ],  # by current account
    }
    assert data["generated_at"] == "2026-11-02T09:30:00Z"
    assert data["current_day"] == 2
    assert [d["post_urls"] for d in data["days"]] == [{"6": url_of(6)}, {"16": url_of(16)}]
    day2 = data["days"][1]
    assert day2["actions"][2] == {
        "post": 13,
        "post_id": "p913",
        "url": url_of(13),
        "time": "2026-11-02T07:00:00Z",
        "voter": "@erin2 (replaced Erin)",
        "author": "@erin2",
        "text": "vote carol",
        "action": "vote",
        "target": "<i>Carol</i>",
        "no_elimination": False,
        "counted": True,
        "why_not": None,
    }
    assert day2["problems"] == [
        {
            "post": 14,
            "voter": "Bob & Co",
            "text": "vote Erin",
            "reason": "voter is dead",
            "post_id": "p914",
            "url": url_of(14),
            "time": "2026-11-02T08:00:00Z",
        },
        {
            "post": 15,
            "voter": "Stranger",
            "text": "vote Alice",
            "reason": "not a player",
            "post_id": "p915",
            "url": url_of(15),
            "time": "2026-11-02T09:00:00Z",
        },
    ]
    assert set(files) == {"index.html", "votal.json", "summary.json", "style.css", "countdown.js"}


def test_public_day_copies_only_whitelisted_fields():
    votal = {
        "day": 3,
        "alive": 3,
        "majority": 2,
        "as_of_post": 40,
        "deadline": None,
        "wagons": [{"target": "Bob", "votes": 1, "voters": ["Ann"], "secret": "x"}],
        "no_elimination": {"votes": 0, "voters": []},
        "not_voting": ["Bob", "Cy"],
        "living": ["Ann", "Bob", "Cy"],
        "outcome": {"kind": "elimination", "target": "Cy", "post": 40, "reason": "judge"},
        "problems": [],
        "actions": [
            {
                "post": 40,
                "voter": "Ann",
                "author": "ann",
                "text": "vote bbo",
                "action": "vote",
                "target": "Bob",
                "no_elimination": False,
                "step": "fuzzy",
                "counted": True,
                "why_not": None,
                "corrected": False,
            },
            {
                "post": 41,
                "voter": "Cy",
                "author": "cy",
                "text": "vote an",
                "action": "vote",
                "target": "Ann",
                "no_elimination": False,
                "step": "fuzzy",
                "counted": False,
                "why_not": "unsure",
                "corrected": False,
            },
        ],
        "private_notes": ["Judge Bob picked Cy"],
        "roles": {"Ann": "Mafia"},
    }
    links = index_posts([ReadPost(40, "p40", "ann", None, "javascript:alert(1)", ())])
    assert public_day(votal, links) == {
        "day": 3,
        "alive": 3,
        "majority": 2,
        "no_elimination_majority": 2,
        "as_of_post": 40,
        "deadline": None,
        "wagons": [{"target": "Bob", "votes": 1, "voters": ["Ann"]}],
        "no_elimination": {"votes": 0, "voters": []},
        "not_voting": ["Bob", "Cy"],
        "living": ["Ann", "Bob", "Cy"],
        "changes": [],
        # a Judge's pick is a private decision: the page waits for the moderator to announce it
        "outcome": {"kind": "pending", "target": None, "post": 40, "reason": "judge"},
        "lynches": [],
        "post_urls": {},  # post 40's address is no web address
        "nominations": [],
        "runoff": None,
        "problems": [],
        "actions": [
            {
                "post": 40,
                "post_id": "p40",
                "url": None,
                "time": None,
                "voter": "Ann",
                "author": "ann",
                "text": "vote bbo",
                "action": "vote",
                "target": "Bob",
                "no_elimination": False,
                "counted": True,
                "why_not": None,
            },
            # an uncounted guess at a name is not shown as a vote on anyone
            {
                "post": 41,
                "post_id": None,
                "url": None,
                "time": None,
                "voter": "Cy",
                "author": "cy",
                "text": "vote an",
                "action": "vote",
                "target": None,
                "no_elimination": False,
                "counted": False,
                "why_not": "unsure",
            },
        ],
    }


def test_no_private_fact_reaches_the_page_the_json_or_the_exports():
    with_private = every_output(GAME + PRIVATE)
    without = every_output(GAME)
    assert with_private == without
    for name, text in with_private.items():
        if name in ("style.css", "countdown.js"):
            continue
        for word in PRIVATE_WORDS:
            assert word.casefold() not in text.casefold(), (name, word)


# Witch Hunt: without a majority at the deadline the Judge decides; the game file records whom the
# Judge picked.
JUDGED = (
    GAME.replace('ruleset = "mafiascum"', 'ruleset = "witchhunt-online-2.0.1"').replace(
        "end_post = 9", "end_post = 5"
    )
    + """
[private]
judge = "Alice"
[[private.decisions]]
day = 1
judge = "Erin"
"""
)


def test_a_private_decision_never_shows_as_the_outcome():
    game = parse_game(JUDGED)
    ruleset = load_ruleset(game.ruleset)
    roster = Roster.from_game(game, ruleset)
    full = count_day(game, read_posts(), ruleset=ruleset, roster=roster, day=1).to_json()
    assert full["outcome"] == {
        "kind": "elimination",
        "target": "Erin",
        "post": 5,
        "reason": "judge",
        "doubt": "moderator disagrees at post 5",
    }

    _, _, days = replay_fixture(JUDGED)
    # the players' view doubts its own ending (it does not know the judge's decision)
    assert days[0]["outcome"] == {
        "kind": "pending",
        "target": None,
        "post": 5,
        "reason": "no_majority",
        "doubt": "unexplained ending at post 5",
    }
    assert days[0]["wagons"] == full["wagons"]
    outputs = every_output(JUDGED)
    for name in (
        "index.html",
        "votal.json",
        "export.json",
        "export.csv",
        "days.csv",
        "export.html",
    ):
        for erin in (
            "Erin",
            "@erin2 (replaced Erin)",
        ):  # the page names the seat by its current account
            assert (
                f"{erin} eliminated" not in outputs[name]
                and f'"target": "{erin}"' not in outputs[name]
            ), name
    soup = BeautifulSoup(outputs["index.html"], "html.parser")
    assert soup.select_one("#day-1 summary .tag").get_text() == "awaiting the moderator"


def test_outcomes_changed_by_private_facts_wait_for_the_moderator():
    day = {
        "day": 4,
        "outcome": {
            "kind": "no_elimination",
            "target": None,
            "post": 80,
            "reason": "majority",
            "survived": "Bob",
        },
    }
    blind = {
        "day": 4,
        "outcome": {"kind": "elimination", "target": "Bob", "post": 80, "reason": "majority"},
    }
    same = {
        "day": 5,
        "outcome": {"kind": "elimination", "target": "Cy", "post": 99, "reason": "majority"},
    }
    assert mask_private_outcomes([day, same], [blind, same]) == [
        {
            "day": 4,
            "outcome": {"kind": "pending", "target": None, "post": 80, "reason": "moderator"},
        },
        same,
    ]


def test_nominations_and_a_runoff_are_shown_with_their_countdown():
    day = {
        "day": 1,
        "alive": 5,
        "majority": 3,
        "as_of_post": 12,
        "deadline": "2099-01-01T00:00:00Z",
        "wagons": [{"target": "Bob", "votes": 2, "voters": ["Ann", "Cy"]}],
        "no_elimination": {"votes": 0, "voters": []},
        "not_voting": ["Bob", "Dee", "Eve"],
        "outcome": None,
        "problems": [],
        "actions": [],
        "nominations": [
            {"nominator": "Ann", "nominee": "Bob", "post": 3, "votes": 2, "voters": ["Ann", "Cy"]}
        ],
        "runoff": {"candidates": ["Bob", "Dee"], "deadline": "2099-01-01T02:00:00Z", "post": 12},
    }
    game = PublicGame("Clock", "https://forum.example.org/t/9", ("Ann", "Bob", "Cy", "Dee", "Eve"))
    html = build_site(game, [day], generated_at=GENERATED, posts=index_posts(read_posts()))[
        "index.html"
    ]
    soup = BeautifulSoup(html, "html.parser")
    assert " ".join(soup.select_one(".nominations li").get_text().split()) == (
        "Bob, nominated by Ann in #3: 2 votes (Ann, Cy)"
    )
    assert soup.select_one(".nominations a")["href"] == url_of(3)
    assert " ".join(soup.select_one(".runoff").get_text().split()).startswith(
        "Runoff between Bob and Dee until"
    )
    # the day's own deadline has passed once a runoff runs: only the runoff counts down
    assert [c["data-deadline"] for c in soup.select(".countdown")] == ["2099-01-01T02:00:00Z"]


def test_a_game_with_no_day_yet_still_builds():
    game, _, _ = replay_fixture()
    html = build_site(game, [], generated_at=GENERATED)["index.html"]
    assert "No day has started yet." in html


def test_write_site_writes_every_file(tmp_path):
    files = build_fixture_site()
    written = write_site(files, tmp_path / "out")
    assert sorted(p.name for p in written) == sorted(files)
    assert {p.name: p.read_text(encoding="utf-8") for p in written} == files
    assert not list((tmp_path / "out").glob("*.tmp"))


def test_server_serves_the_site_read_only_on_loopback(tmp_path):
    write_site(build_fixture_site(), tmp_path / "site")
    (tmp_path / "secret.txt").write_text("outside the site")
    server = make_server(tmp_path / "site", port=0)
    thread = Thread(target=server.serve_forever, daemon=True)
    thread.start()
    host, port = server.server_address[:2]
    base = f"http://{host}:{port}"

    def fetch(path: str, method: str = "GET"):
        request = urllib.request.Request(
            base + path, method=method, data=b"x" if method in ("POST", "PUT") else None
        )
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return response.status, response.read(), response.headers
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read(), exc.headers

    try:
        assert host == "127.0.0.1"
        status, body, headers = fetch("/")
        assert status == 200 and b"Mini &lt;Normal&gt; &amp; Co" in body
        assert "default-src 'self'" in headers["Content-Security-Policy"]
        assert headers["Content-Type"] == "text/html; charset=utf-8"
        assert fetch("/votal.json")[2]["Content-Type"] == "application/json; charset=utf-8"
        assert fetch("/style.css")[2]["Content-Type"] == "text/css; charset=utf-8"
        (tmp_path / "site" / ".env").write_text("TOKEN=x")
        (tmp_path / "site" / "votal.db").write_text("a store left here by mistake")
        assert fetch("/.env")[0] == 404
        assert fetch("/votal.db")[0] == 404
        assert fetch("/", "HEAD")[0] == 200
        assert fetch("/index.html", "POST")[0] == 405
        assert fetch("/index.html", "PUT")[0] == 405
        assert fetch("/index.html", "DELETE")[0] == 405
        assert fetch("/../secret.txt")[0] == 404
        assert fetch("/%2e%2e/secret.txt")[0] == 404
        (tmp_path / "site" / "sub").mkdir()
        assert fetch("/sub/")[0] == 404  # no directory listings
    finally:
        server.shutdown()
        server.server_close()


def test_every_link_is_a_web_address():
    html = build_fixture_site()["index.html"]
    hrefs = re.findall(r'href="([^"]*)"', html)
    assert hrefs and all(h.startswith(("https://", "style.css", "votal.json")) for h in hrefs), (
        hrefs
    )


# Millers Hollow lovers may not vote for each other; a post the moderator ignores does not count
# either.
LOVERS = (
    GAME.replace('ruleset = "mafiascum"', 'ruleset = "millers-hollow"')
    + '[[corrections]]\npost = 3\nignore = true\n[private]\nlovers = [["Erin", "Alice"]]\n'
)


def test_a_vote_a_private_fact_voids_reads_like_a_moderators_ruling_on_the_page():
    """Issue 15 item 8: the page must not let players infer that two players are lovers."""
    game = parse_game(LOVERS)
    ruleset = load_ruleset(game.ruleset)
    posts = [
        ReadPost(1, "p1", "Erin", None, "", (Command("vote", "Alice", "vote Alice"),)),
        ReadPost(3, "p3", "Bob & Co", None, "", (Command("vote", "Erin", "vote Erin"),)),
    ]
    votal = count_day(game, posts, ruleset=ruleset, roster=Roster.from_game(game, ruleset), day=1)
    shown = {a["post"]: a["why_not"] for a in public_day(votal.to_json())["actions"]}
    assert shown == {1: "ruled out by the moderator", 3: "ruled out by the moderator"}
    moderator = {a["post"]: a.get("private_why") for a in votal.to_json(private=True)["actions"]}
    assert moderator[1] == "Erin and Alice are lovers and may not vote for each other"


def test_a_days_first_lynch_shows_before_its_last_and_while_the_day_goes_on():
    lynch = {"kind": "elimination", "target": "Bob", "post": 3, "reason": "majority"}
    day = {
        "day": 1,
        "alive": 4,
        "majority": 3,
        "as_of_post": 4,
        "deadline": "2099-01-01T00:00:00Z",
        "wagons": [{"target": "Dee", "votes": 1, "voters": ["Ann"]}],
        "no_elimination": {"votes": 0, "voters": []},
        "not_voting": ["Cy", "Dee", "Eve"],
        "outcome": None,
        "problems": [],
        "actions": [],
        "lynches": [lynch],
    }
    game = PublicGame("Two", "https://forum.example.org/t/9", ("Ann", "Bob", "Cy", "Dee", "Eve"))
    going_on = BeautifulSoup(
        build_site(game, [day], generated_at=GENERATED, posts=index_posts(read_posts()))[
            "index.html"
        ],
        "html.parser",
    )
    assert [" ".join(p.get_text().split()) for p in going_on.select(".outcome")] == [
        "Bob is eliminated (majority, post #3); the day goes on to its next elimination."
    ]
    ended = {
        **day,
        "outcome": {"kind": "elimination", "target": "Dee", "post": 9, "reason": "majority"},
    }
    earlier = {**ended, "day": 0}
    html = build_site(
        game, [earlier, ended], generated_at=GENERATED, posts=index_posts(read_posts())
    )["index.html"]
    soup = BeautifulSoup(html, "html.parser")
    assert [
        " ".join(p.get_text().split())
        for p in soup.select("#day-1 .outcome, section.current .outcome")
    ][:2] == [
        "Bob is eliminated (majority, post #3).",
        "Dee is eliminated (majority, post #9).",
    ]
    assert [t.get_text() for t in soup.select("section.day.earlier summary .tag")] == [
        "Bob eliminated",
        "Dee eliminated",
    ]
