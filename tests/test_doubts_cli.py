"""Doubts end to end: each kind found in a loopback thread through the real command line, shown by
`count` (text and JSON), `status`, `audit`, the moderator's drafts (on stderr only) and `votal
run`'s alerts (once)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from click.testing import CliRunner
from loopback_forum import Forum, game_text, make_posts, serve

from assistant.cli.main import main
from assistant.cli.schedule import Runner
from assistant.forum import store
from assistant.forum.fetch import HostLimiter
from assistant.gamefile.game import load_game

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
VOTE = "<b>vote {}</b>"
OPEN_DAY = "[[days]]\nday = 1\nstart_post = 0\n"  # open: no deadline, so no test reads the clock


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def thread(votes: dict[int, tuple[str, str]], count: int = 12) -> list[dict]:
    """``count`` posts by the five players in turn; ``votes``: post -> (author, body)."""
    posts = make_posts(count)
    for number, (author, body) in votes.items():
        posts[number] = {**posts[number], "user": author, "content": body}
    return posts


@pytest.fixture
def synced(tmp_path):
    """Sync a thread into a fresh store and hand back (game file, db, the loopback server's base
    URL)."""

    def make(posts: list[dict], tables: str = OPEN_DAY, extra: str = ""):
        server = serve(Forum(posts))
        server.__enter__()
        made.append(server)
        game = tmp_path / "game.toml"
        game.write_text(game_text(server.base_url, tables=tables, extra=extra), encoding="utf-8")
        db = tmp_path / "votal.db"
        assert invoke("sync", game, "--db", db, "-q").exit_code == 0
        return game, db

    made: list = []
    yield make
    for server in made:
        server.__exit__(None, None, None)


def doubts_of(game, db, *more) -> list[dict]:
    result = invoke("count", game, "--db", db, "--day", "1", "--format", "json", *more)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)["doubts"]


def test_an_unlisted_account_voting_the_hammer_is_a_possible_hammer_everywhere_the_moderator_looks(
    synced, tmp_path
):
    # Birch and Cedar vote Elm (2 of 3); "Alder2", a replacement the game file does not list, votes
    # Elm too
    game, db = synced(
        thread(
            {
                1: ("Birch", VOTE.format("Elm")),
                2: ("Cedar", VOTE.format("Elm")),
                3: ("Alder2", VOTE.format("Elm")),
            }
        )
    )
    (doubt,) = doubts_of(game, db)
    assert doubt["kind"] == "possible_hammer" and (doubt["post"], doubt["target"]) == (3, "Elm")
    assert "Alder2's 'vote Elm' not counted (not a player" in doubt["why"]
    assert doubt["why"].endswith("counted, it is a majority on Elm (3 of 3)")
    data = json.loads(invoke("count", game, "--db", db, "--day", "1", "--format", "json").output)
    assert data["outcome"] is None  # Votal still counts L-1: the doubt says why that may be wrong
    text = invoke("count", game, "--db", db, "--day", "1").output
    assert "DOUBT (possible hammer) post 3: Alder2's 'vote Elm' not counted" in text
    status = invoke("status", game, "--db", db).output
    assert "post 3: Alder2's 'vote Elm' not counted" in status.split("needs you")[1]
    assert (
        "DOUBT (possible hammer) post 3" in invoke("audit", game, "--db", db, "--day", "1").output
    )
    draft = CliRunner().invoke(main, ["draft", str(game), "votal", "--db", str(db), "--day", "1"])
    assert draft.exit_code == 0
    assert "doubt (day 1, possible hammer): post 3: Alder2" in draft.stderr
    assert (
        "Alder2" not in draft.stdout and "doubt" not in draft.stdout.casefold()
    )  # never in the players' text
    # votal run alerts each doubt once, however often it runs
    runner = Runner(db_path=db, limiter=HostLimiter(sleep=lambda s: None), now=lambda: NOW)
    runner.run_game(game)
    runner.run_game(game)
    alerts = store.load_alerts(store.open_db(db), load_game(game).key, limit=50)
    assert [a["kind"] for a in alerts].count("doubt") == 1


def test_a_vote_that_could_not_change_the_outcome_is_a_note_not_a_doubt(synced):
    # a vote on a name nobody holds, with every wagon far from a majority
    game, db = synced(
        thread({1: ("Birch", VOTE.format("Elm")), 2: ("Cedar", VOTE.format("Zanzibar"))})
    )
    assert doubts_of(game, db) == []
    data = json.loads(invoke("count", game, "--db", db, "--day", "1", "--format", "json").output)
    assert data["doubts"] == []  # a note is never listed as a doubt...
    assert [n["kind"] for n in data["notes"]] == ["note"]  # ...but under notes
    assert "Zanzibar" not in invoke("status", game, "--db", db).output
    assert (
        "note post 2: Cedar's 'vote Zanzibar' not counted"
        in invoke("audit", game, "--db", db, "--day", "1").output
    )


def test_a_hammer_read_by_a_guessed_spelling_is_a_doubtful_decision(synced):
    game, db = synced(
        thread(
            {
                1: ("Birch", VOTE.format("Elm")),
                2: ("Cedar", VOTE.format("Elm")),
                3: ("Damson", VOTE.format("Elmm")),
            }
        )
    )
    (doubt,) = doubts_of(game, db)
    assert (doubt["kind"], doubt["post"], doubt["target"]) == ("doubtful_decision", 3, "Elm")
    assert "a spelling guessed by its likeness" in doubt["why"]
    data = json.loads(invoke("count", game, "--db", db, "--day", "1", "--format", "json").output)
    assert data["outcome"]["doubt"] == "doubtful decision at post 3"
    assert (
        "doubtful (doubtful decision at post 3)"
        in invoke("count", game, "--db", db, "--day", "1").output
    )


def test_a_hammer_the_players_keep_voting_past_is_a_doubtful_decision(synced):
    game, db = synced(
        thread(
            {
                1: ("Birch", VOTE.format("Elm")),
                2: ("Cedar", VOTE.format("Elm")),
                3: ("Damson", VOTE.format("Elm")),
                5: ("Alder", VOTE.format("Cedar")),
                6: ("Birch", VOTE.format("Cedar")),
                7: ("Elm", VOTE.format("Cedar")),
            }
        )
    )
    (doubt,) = doubts_of(game, db)
    assert (doubt["kind"], doubt["post"]) == ("doubtful_decision", 3)
    assert "3 players voted after it as if the day went on (Alder, Birch, Elm)" in doubt["why"]


def test_the_moderators_count_placing_a_voter_otherwise_on_the_leading_wagon(synced):
    count = "Vote count<br>Elm (2): Birch, Damson<br>Not voting (3): Alder, Cedar, Elm"
    game, db = synced(
        thread(
            {1: ("Birch", VOTE.format("Elm")), 2: ("Cedar", VOTE.format("Elm")), 4: ("Mod", count)}
        ),
        extra='moderators = ["Mod"]',
    )
    found = doubts_of(game, db)
    assert {(d["kind"], d["post"]) for d in found} == {("moderator_disagrees", 4)}
    assert [d["why"] for d in found] == [
        "the moderator's count has Damson on Elm, Votal read not voting"
    ]
    assert [d["target"] for d in found] == ["Elm"]


def test_a_day_that_ended_without_a_majority_and_a_recorded_lynch_is_an_unexplained_ending(synced):
    tables = (
        "[[days]]\nday = 1\nstart_post = 0\nend_post = 10\n\n"
        '[[deaths]]\nplayer = "Elm"\nphase = "day 1"\n'
    )
    game, db = synced(
        thread({1: ("Birch", VOTE.format("Elm")), 2: ("Cedar", VOTE.format("Elm"))}), tables=tables
    )
    (doubt,) = doubts_of(game, db)
    assert (doubt["kind"], doubt["post"], doubt["target"]) == ("unexplained_ending", 10, "Elm")
    assert "without a majority (Elm 2; 3 needed)" in doubt["why"]
    assert "taken as the moderator's ruling" in doubt["why"]
    # a game whose house rules lynch the most voted seat at the deadline has nothing to explain
    house = tables.replace("[[days]]", "[house]\ndeadline_plurality = true\n\n[[days]]", 1)
    game.write_text(game.read_text(encoding="utf-8").replace(tables, house), encoding="utf-8")
    assert doubts_of(game, db) == []


# a name nobody holds, typed by Elm: it names someone else than Elm, far from any majority, so a
# note wherever it stands
NOTE_VOTE = VOTE.format("Zanzibar")
MOD_COUNT = "Vote count<br>Elm (2): Birch, Damson<br>Not voting (3): Alder, Cedar, Elm"
ENDED = '[[days]]\nday = 1\nstart_post = 0\nend_post = 10\n\n[[deaths]]\nplayer = "Elm"\nphase = "day 1"\n'
KIND_THREADS = {  # kind -> (posts, game file tables, extra), each with a note beside the doubt
    "possible_hammer": (
        {
            1: ("Elm", NOTE_VOTE),
            2: ("Birch", VOTE.format("Elm")),
            3: ("Cedar", VOTE.format("Elm")),
            4: ("Alder2", VOTE.format("Elm")),
        },
        OPEN_DAY,
        "",
    ),
    "doubtful_decision": (
        {
            1: ("Elm", NOTE_VOTE),
            2: ("Birch", VOTE.format("Elm")),
            3: ("Cedar", VOTE.format("Elm")),
            4: ("Damson", VOTE.format("Elmm")),
        },
        OPEN_DAY,
        "",
    ),
    "moderator_disagrees": (
        {
            1: ("Birch", VOTE.format("Elm")),
            2: ("Cedar", VOTE.format("Elm")),
            4: ("Mod", MOD_COUNT),
            6: ("Elm", NOTE_VOTE),
        },
        OPEN_DAY,
        'moderators = ["Mod"]',
    ),
    "unexplained_ending": (
        {1: ("Birch", VOTE.format("Elm")), 2: ("Cedar", VOTE.format("Elm")), 3: ("Elm", NOTE_VOTE)},
        ENDED,
        "",
    ),
}


@pytest.mark.parametrize("kind", sorted(KIND_THREADS))
def test_each_kind_reaches_status_and_one_alert_and_its_notes_reach_neither(synced, kind):
    posts, tables, extra = KIND_THREADS[kind]
    game, db = synced(thread(posts), tables=tables, extra=extra)
    data = json.loads(invoke("count", game, "--db", db, "--day", "1", "--format", "json").output)
    doubts, notes = data["doubts"], data["notes"]
    assert [d["kind"] for d in doubts] == [kind]
    assert {n["kind"] for n in notes} == {"note"}
    assert any("Zanzibar" in n["why"] for n in notes)  # the note is kept in the JSON...
    assert "Zanzibar" in invoke("audit", game, "--db", db, "--day", "1").output  # ...and the audit
    status = invoke("status", game, "--db", db)
    assert status.exit_code == 0, status.output
    needs = status.output.split("needs you")[1]
    assert doubts[0]["why"] in needs
    assert "Zanzibar" not in status.output  # ...never in "needs you"
    runner = Runner(db_path=db, limiter=HostLimiter(sleep=lambda s: None), now=lambda: NOW)
    runner.run_game(game)
    runner.run_game(game)
    alerts = store.load_alerts(store.open_db(db), load_game(game).key, limit=50)
    assert [a["message"] for a in alerts if a["kind"] == "doubt"] == [
        f"Day 1, post {doubts[0]['post']}: {doubts[0]['why']}."
    ]
    assert not any("Zanzibar" in a["message"] for a in alerts)  # ...nor in an alert


def test_a_lynch_the_game_file_moved_past_without_recording_is_the_moderator_disagreeing(synced):
    # Elm reaches 3 of 3 at post 4; the game file ends day 1 at post 6 and starts day 2 without
    # Elm's death
    tables = (
        "[[days]]\nday = 1\nstart_post = 0\nend_post = 6\n\n[[days]]\nday = 2\nstart_post = 6\n"
    )
    game, db = synced(
        thread(
            {
                2: ("Birch", VOTE.format("Elm")),
                3: ("Cedar", VOTE.format("Elm")),
                4: ("Damson", VOTE.format("Elm")),
            }
        ),
        tables=tables,
    )
    (doubt,) = doubts_of(game, db)
    assert (doubt["kind"], doubt["post"], doubt["target"]) == ("moderator_disagrees", 4, "Elm")
    assert doubt["why"].startswith(
        "the game file records day 1's end at post 6 with no death of Elm, but Votal's "
        "count lynches Elm at post 4"
    )
    assert (
        "DOUBT (moderator disagrees) post 4"
        in invoke("count", game, "--db", db, "--day", "1").output
    )
    assert (
        "DOUBT (moderator disagrees) post 4"
        in invoke("audit", game, "--db", db, "--day", "1").output
    )
    # status counts day 2; the file's missing lynch is named there, with both ways it may be wrong
    status = invoke("status", game, "--db", db).output.split("needs you")[1]
    assert (
        "day 1: Votal counts Elm eliminated at post 4, but [[deaths]] has no entry for it" in status
    )
    # recorded, it is one reading again
    game.write_text(
        game.read_text(encoding="utf-8") + '\n[[deaths]]\nplayer = "Elm"\nphase = "day 1"\n',
        encoding="utf-8",
    )
    assert doubts_of(game, db) == []


def test_votes_naming_an_account_that_votes_without_a_seat_reach_status_as_a_possible_hammer(
    synced,
):
    # "Rowan" posts and votes but the game file gives it no seat; Birch and Cedar vote it by name (3
    # of 3 with its own vote): if Rowan holds a seat (an unannounced replacement), the day is over
    game, db = synced(
        thread(
            {
                1: ("Rowan", VOTE.format("Birch")),
                2: ("Birch", VOTE.format("rowan")),
                3: ("Cedar", VOTE.format("Rowan")),
                4: ("Rowan", VOTE.format("Rowan")),
            }
        )
    )
    (doubt,) = doubts_of(game, db)
    assert (doubt["kind"], doubt["post"], doubt["target"]) == ("possible_hammer", 4, None)
    assert doubt["why"].endswith(
        "the votes naming Rowan, an account that votes without a seat, are a majority if "
        "it holds one (3 of 3)"
    )
    assert doubt["why"] in invoke("status", game, "--db", db).output.split("needs you")[1]


def test_votes_that_could_not_be_placed_are_one_wildcard_doubt_as_the_thread_grows(synced):
    # Birch and Cedar vote Elm (2 of 3); Damson's vote names nobody; "Alder2", unlisted, votes too
    posts = thread(
        {
            1: ("Birch", VOTE.format("Elm")),
            2: ("Cedar", VOTE.format("Elm")),
            3: ("Damson", VOTE.format("the quiet one")),
            5: ("Alder2", VOTE.format("whoever")),
        }
    )
    game, db = synced(posts)
    (doubt,) = doubts_of(game, db)
    assert (doubt["kind"], doubt["post"], doubt["target"]) == ("possible_hammer", 3, "Elm")
    assert doubt["why"] == (
        "1 vote not counted could be for any wagon: Damson's 'vote the "
        "quiet one' (post 3: unknown name); counted for Elm (2 of 3), it makes "
        "a majority (3): check who cast it and whom it names"
    )
    assert doubt["why"] in invoke("status", game, "--db", db).output.split("needs you")[1]
    assert doubts_of(game, db, "--at-post", 2) == []  # as of post 2 nothing could be placed yet
    # the day closed without a decision: said again at its end, with every wildcard then standing
    ended = OPEN_DAY + "end_post = 10\n"
    game.write_text(game.read_text(encoding="utf-8").replace(OPEN_DAY, ended), encoding="utf-8")
    found = doubts_of(game, db)
    wild = [(d["kind"], d["post"]) for d in found]
    assert wild == [("possible_hammer", 3), ("possible_hammer", 10)]
    assert found[1]["why"].startswith(
        "the day ended at post 10 without a majority in Votal's "
        "count; 2 votes not counted could each be for any wagon: "
        "Damson's"
    )
    assert "Alder2's 'vote whoever' (post 5: not a player" in found[1]["why"]


def test_a_moderators_count_after_the_hammer_with_the_wagon_short_doubts_the_decision(synced):
    """The moderator's own count after Votal's hammer still has the wagon below its majority (here
    Damson's vote was not counted, say under a house rule): the moderator did not see that hammer,
    so the decision is in doubt. A final count at the majority asks nothing."""
    ended = '[[days]]\nday = 1\nstart_post = 0\nend_post = 10\n\n[[deaths]]\nplayer = "Elm"\nphase = "day 1"\n'
    votes = {1: ("Birch", VOTE.format("Elm")), 2: ("Cedar", VOTE.format("Elm"))}
    votes[3] = ("Damson", "I will go along with it then. " + VOTE.format("Elm"))
    short = "Vote count<br>Elm (2): Birch, Cedar<br>Not voting (3): Alder, Damson, Elm"
    game, db = synced(
        thread({**votes, 5: ("Mod", short)}), tables=ended, extra='moderators = ["Mod"]'
    )
    (doubt,) = doubts_of(game, db)
    assert (doubt["kind"], doubt["post"], doubt["target"]) == ("doubtful_decision", 3, "Elm")
    assert "the moderator's count at post 5 has Elm at 2 of 3" in doubt["why"]

    final = "Vote count<br>Elm (3): Birch, Cedar, Damson<br>Not voting (2): Alder, Elm"
    game, db = synced(
        thread({**votes, 5: ("Mod", final)}), tables=ended, extra='moderators = ["Mod"]'
    )
    assert doubts_of(game, db) == []
