"""Counting a stored game: which day is current, by stored posts or by the clock."""

from datetime import UTC, datetime, timedelta
from pathlib import Path

from support import game_toml

from assistant.counting.count import current_day
from assistant.forum import store
from assistant.gamefile.game import parse_game
from parsers.page import Post

BASE = game_toml(
    ["A", "B"],
    title="t",
    ruleset="witchhunt-online-2.0.1",
    moderators=(),
    extra='timezone = "America/New_York"',
)


def test_days_declared_by_post_start_when_their_first_post_is_stored(tmp_path):
    game = parse_game(
        BASE
        + "[[days]]\nday = 1\nstart_post = 0\nend_post = 9\n[[days]]\nday = 2\nstart_post = 12\n"
    )
    db = store.open_db(tmp_path / "v.db")
    assert current_day(game, db) == 1
    post = Post("p11", 11, "A", None, "x", "u")
    store.save_posts(db, game.key, [post], seen_at=datetime(2024, 1, 1, tzinfo=UTC))
    assert current_day(game, db) == 1
    store.save_posts(
        db,
        game.key,
        [Post("p12", 12, "A", None, "x", "u")],
        seen_at=datetime(2024, 1, 1, tzinfo=UTC),
    )
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
    # millers-hollow-master-rules.txt, Sheriff: "In the case of a tie, the vote is extended two
    # hours."
    from golden.harness import ExactRoster, count_day, read_case, resolve_exact

    from assistant.counting.count import format_votal_text
    from assistant.gamefile.rules import load_ruleset

    golden = Path(__file__).resolve().parent / "golden"
    case = read_case(golden / "millers-hollow-a-tied-sheriff-election-stays-open-two-hours.txt")
    votal = count_day(
        case.game,
        case.posts,
        ruleset=load_ruleset("millers-hollow"),
        roster=ExactRoster(case.game),
        day=1,
        at_time=case.at_time,
        resolve=resolve_exact,
    )
    text = format_votal_text(case.game, votal)
    assert (
        "  Sheriff election: Paris 1 (Helen); Jason 1 (Icarus); open until Tue 02 Jul 13:00 PDT"
        in text
    )


def test_a_thread_in_hand_counts_as_votal_count_counts_the_stored_thread_while_it_grows(tmp_path):
    """The benches and the golden tests count posts in hand (``StoredGame.of``) through the one
    path; `votal count` loads the store. The same thread gives the same votal, doubts and what the
    moderator's count taught included, at each stage of a growing thread."""
    import json

    from click.testing import CliRunner
    from loopback_forum import Forum, game_text, make_posts, serve

    from assistant.cli.main import main
    from assistant.counting.count import StoredGame, count_stored
    from assistant.counting.day_bounds import count_headings
    from assistant.counting.votecounts import read_vote_count
    from assistant.gamefile.game import load_game

    posts = make_posts(12)
    votes = {
        1: ("Birch", "<b>vote Cedric</b>"),
        2: ("Cedar", "<b>vote Elm</b>"),
        4: (
            "Mod",
            "Vote Count 1.01<br>Cedar (1): Birch<br>Elm (1): Cedar<br>"
            "Not voting (3): Alder, Damson, Elm",
        ),
        9: ("Damson", "<b>vote Cedric</b>"),
    }
    for number, (author, body) in votes.items():
        posts[number] = {**posts[number], "user": author, "content": body}
    forum = Forum(posts[:7])
    with serve(forum) as server:
        game_file = tmp_path / "game.toml"
        tables = "[[days]]\nday = 1\nstart_post = 0\n"
        text = game_text(server.base_url, tables=tables, extra='moderators = ["Mod"]')
        game_file.write_text(text, "utf-8")
        db = tmp_path / "votal.db"
        game = load_game(game_file)
        for shown in (7, 12):
            forum.posts = posts[:shown]
            synced = CliRunner().invoke(main, ["sync", str(game_file), "--db", str(db), "-q"])
            assert synced.exit_code == 0, synced.output
            last = shown - 1
            result = CliRunner().invoke(
                main,
                [
                    "count",
                    str(game_file),
                    "--db",
                    str(db),
                    "--day",
                    "1",
                    "--at-post",
                    str(last),
                    "--format",
                    "json",
                ],
            )
            assert result.exit_code == 0, result.output
            printed = json.loads(result.output)
            read = [read_post_of(post, server.base_url) for post in posts[:shown]]
            bodies = {p["number"]: p["content"] for p in posts[:shown] if p["user"] == "Mod"}
            counts = {
                n: count for n, body in bodies.items() if (count := read_vote_count(body, post=n))
            }
            in_hand = StoredGame.of(game, read, counts=counts, headings=count_headings(bodies))
            (votal,) = count_stored(
                game, in_hand, days=[1], at_post=last, at_time=posts[last]["time"]
            )
            ours = votal.to_json(private=True)
            assert {key: printed[key] for key in ours} == ours
    # the moderator's count taught "Cedric" from its post on: Damson's later vote counts by it
    wagons = [(w["target"], w["voters"]) for w in printed["wagons"]]
    assert wagons == [("Cedar", ["Birch", "Damson"]), ("Elm", ["Cedar"])]


def read_post_of(post: dict, base_url: str):
    """A served post as the store gives it back (its commands read from its body)."""
    from parsers.commands import ReadPost, extract_commands

    url = f"{base_url}/viewtopic.php?p={post['id']}#p{post['id']}"
    return ReadPost(
        post["number"],
        post["id"],
        post["user"],
        post["time"],
        url,
        tuple(extract_commands(post["content"])),
    )


def test_nothing_outside_counting_reaches_a_votal_but_through_the_one_path():
    """The replay and the watched pass are counting's own: a command, page, draft or bench that
    replayed a day itself would skip the seats, spellings and doubts the count adds."""
    import ast

    root = Path(__file__).resolve().parents[1]
    private = {"assistant.counting.day_replay"}
    found = []
    for path in [*(root / "assistant").rglob("*.py"), *(root / "bench").glob("*.py")]:
        if (root / "assistant" / "counting") in path.parents:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [node.module] if isinstance(node, ast.ImportFrom) else []
            names += [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            found += [f"{path.relative_to(root)}: {name}" for name in names if name in private]
    assert found == []
