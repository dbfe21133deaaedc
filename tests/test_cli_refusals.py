"""Clear errors and warnings instead of confident nonsense: a store without the game, impossible
days, a busy port, progress off a terminal, and game-file doubts shown beside the count."""

import json
import socket

import pytest
from click.testing import CliRunner
from support import demo_game_at

from assistant.cli.demo import load_demo_thread
from assistant.cli.main import main
from assistant.forum.pageserver import LoopbackServer

NO_POSTS = "no posts stored for this game; run `votal sync` first"
DAY2_EVENING = "2026-03-05T20:00:00+0000"


@pytest.fixture(scope="module")
def demo():
    thread, game_text = load_demo_thread()
    with LoopbackServer(thread.respond) as server:
        yield server, game_text


def write_game(demo, folder, *, change=("", ""), name="game.toml"):
    server, game_text = demo
    path = folder / name
    path.write_text(demo_game_at(game_text, server.base_url).replace(*change))
    return path


@pytest.fixture(scope="module")
def synced(demo, tmp_path_factory):
    folder = tmp_path_factory.mktemp("synced")
    game = write_game(demo, folder)
    db = folder / "votal.db"
    assert invoke("sync", game, "--db", db, "--quiet").exit_code == 0
    return folder, game, db


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.mark.parametrize(
    "command",
    [
        ["count"],
        ["draft", "votal"],
        ["audit"],
        ["export"],
        ["site", "--out", "{folder}/site"],
        ["status"],
    ],
)
def test_a_store_without_the_game_stops_with_sync_first(command, synced, demo, tmp_path):
    _, _, db = synced
    other = write_game(
        demo, tmp_path, change=("t=4242", "t=9999")
    )  # a thread this store never synced
    args = [part.format(folder=tmp_path) for part in command]
    result = invoke(args[0], other, *args[1:], "--db", db)
    assert result.exit_code == 2, result.output
    assert NO_POSTS in result.output
    assert not (tmp_path / "site").exists()


@pytest.mark.parametrize(
    "command", [["count"], ["draft", "votal"], ["export"], ["status"], ["site"]]
)
def test_a_missing_store_is_not_created(command, demo, tmp_path):
    game = write_game(demo, tmp_path)
    missing = tmp_path / "never.db"
    result = invoke(command[0], game, *command[1:], "--db", missing)
    assert result.exit_code == 2 and NO_POSTS in result.output
    assert not missing.exists()


@pytest.mark.parametrize("day", ["0", "-1"])
@pytest.mark.parametrize("command", [["count"], ["draft", "votal"], ["audit"]])
def test_day_zero_or_negative_is_refused(command, day, synced):
    _, game, db = synced
    result = invoke(command[0], game, *command[1:], "--db", db, "--day", day)
    assert result.exit_code == 2 and "--day" in result.output


def test_serve_on_a_busy_port_says_so(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = invoke("serve", tmp_path, "--port", port)
    assert result.exit_code == 2
    assert result.output.strip() == (
        f"Error: port {port} on 127.0.0.1 is busy (another program is listening there): choose another with "
        "--port, or --port 0 for any free port"
    )


def test_sync_off_a_terminal_writes_whole_lines(demo, tmp_path):
    game = write_game(demo, tmp_path)
    result = CliRunner().invoke(main, ["sync", str(game), "--db", str(tmp_path / "v.db")])
    assert result.exit_code == 0
    assert "\r" not in result.stdout + result.stderr
    assert result.stdout.endswith("new, 0 edited posts (2 pages, 3 requests, phpbb)\n")


def test_game_file_doubts_are_warnings_beside_the_count(demo, tmp_path):
    # day 2 starts at post 30, leaving posts 25-29 to no day; and day 3 starts beyond the 34 stored
    # posts
    game = write_game(demo, tmp_path, change=("start_post = 25", "start_post = 30"))
    game.write_text(
        game.read_text().replace(
            "[[deaths]]", "[[days]]\nday = 3\nstart_post = 80\n\n[[deaths]]", 1
        )
    )
    db = tmp_path / "v.db"
    assert invoke("sync", game, "--db", db, "--quiet").exit_code == 0
    data = json.loads(
        invoke(
            "count", game, "--db", db, "--day", "2", "--at-time", DAY2_EVENING, "--format", "json"
        ).output
    )
    kinds = [(w["kind"], w["post"]) for w in data["warnings"]]
    # four players voting in the gap, as if day 2 had begun: a warning; the gap (a night) is a note
    assert kinds == [("day_beyond_thread", 80), ("vote_between_days", 26)]
    assert "4 players voted so" in data["warnings"][1]["message"]
    (gap,) = [n for n in data["notes"] if n["kind"] == "day_gap"]
    assert "posts 25-29 lie between day 1 (ends at post 24) and day 2" in gap["why"]
    assert "problems" in data
    text = invoke("count", game, "--db", db, "--day", "2", "--at-time", DAY2_EVENING).output
    assert "  warning: day 3 starts at post 80, beyond the last stored post (33)" in text
    # said on the day it ends, the one being played: day 1's count is not about it
    day_one = json.loads(invoke("count", game, "--db", db, "--day", "1", "--format", "json").output)
    assert "day_beyond_thread" not in [w["kind"] for w in day_one["warnings"]]
    status = json.loads(invoke("status", game, "--db", db, "--format", "json").output)[0]
    shown = [w[:22] for w in status["warnings"]]
    assert shown == ["day 3 starts at post 8", "posts 26, 27, 28, 29: "]
    assert any(n.startswith("posts 25-29 lie between") for n in status["notes"])
    bbcode = CliRunner().invoke(
        main,
        [
            "count",
            str(game),
            "--db",
            str(db),
            "--day",
            "2",
            "--at-time",
            DAY2_EVENING,
            "--format",
            "bbcode",
        ],
    )
    assert "warning: posts 26, 27" in bbcode.stderr and "warning" not in bbcode.stdout
    assert "posts 25-29" not in bbcode.stderr  # a note asks for nothing


@pytest.mark.parametrize("kind", ["day-end", "judge"])
def test_a_day_end_or_judge_draft_of_an_undecided_day_needs_force(kind, synced):
    _, game, db = synced
    refused = invoke("draft", game, kind, "--db", db, "--day", "2", "--at-time", DAY2_EVENING)
    assert refused.exit_code == 2
    assert "day 2 is not decided as of 2026-03-05 15:00 EST" in refused.output  # the game's zone
    forced = invoke(
        "draft", game, kind, "--db", db, "--day", "2", "--at-time", DAY2_EVENING, "--force"
    )
    assert forced.exit_code == 0
    assert "has not been decided yet" in forced.output or "has not ended yet" in forced.output
    decided = invoke("draft", game, kind, "--db", db, "--day", "1", "--at-time", DAY2_EVENING)
    assert decided.exit_code == 0, decided.output


def test_a_day_the_game_file_does_not_declare_is_an_error_naming_what_to_add(
    synced, demo, tmp_path
):
    _, game, db = synced
    # the ruleset's phase lengths time day 3: counted, marked as assumed
    data = json.loads(invoke("count", game, "--db", db, "--day", "3", "--format", "json").output)
    [inferred] = [w for w in data["warnings"] if w["kind"] == "inferred_day"]
    assert (
        inferred["day"] == 3
        and "its start is assumed from the ruleset's phase lengths" in inferred["message"]
    )
    # a ruleset without phase lengths: day 3 is an error naming what to add
    mafiascum = write_game(
        demo,
        tmp_path,
        change=('ruleset = "witchhunt-online-2.0.1"', 'ruleset = "mafiascum"'),
        name="ms.toml",
    )
    result = invoke("count", mafiascum, "--db", db, "--day", "3")
    assert result.exit_code == 1
    assert (
        "day 3 is not declared: add a [[days]] entry with day = 3 and start_post" in result.output
    )
    # with only day 1 declared, day 2 is never guessed from post 0 (it would replay day 1's lynch):
    # the moderator's post that starts it is where it is counted from, and the count says so (issue
    # 24)
    day_2 = "[[days]]\nday = 2\nstart_post = 25\nstart = 2026-03-04T22:00:00\nend = 2026-03-06T22:00:00\n"
    only_day_1 = write_game(demo, tmp_path, change=(day_2, ""))
    only_day_1.write_text(
        only_day_1.read_text().replace(
            'ruleset = "witchhunt-online-2.0.1"', 'ruleset = "mafiascum"'
        )
    )
    assert "day = 2" not in only_day_1.read_text()
    result = invoke("count", only_day_1, "--db", db, "--day", "2", "--format", "json")
    assert result.exit_code == 0, result.output
    [announced] = [w for w in json.loads(result.output)["warnings"] if w["kind"] == "announced_day"]
    assert (
        announced["day"] == 2
        and announced["post"] == 25
        and "`votal update` writes it" in announced["message"]
    )
    result = invoke(
        "count", only_day_1, "--db", db, "--day", "3"
    )  # nobody started day 3: still no guess
    assert result.exit_code == 1
    assert (
        "day 3 is not declared" in result.output and "(day 1 ends at post 24)" not in result.output
    )


def test_day_1_of_a_game_declaring_no_days_is_counted_with_its_assumed_start(
    synced, demo, tmp_path
):
    _, _, db = synced
    game = write_game(demo, tmp_path)
    text = game.read_text()
    text = text[: text.index("[[days]]")] + text[text.index("[[deaths]]") :]
    game.write_text(
        text.replace('phase = "night 1"', 'phase = "night 0"').replace(
            'phase = "day 1"', 'phase = "night 0"'
        )
    )
    data = json.loads(
        invoke(
            "count", game, "--db", db, "--day", "1", "--at-time", DAY2_EVENING, "--format", "json"
        ).output
    )
    [inferred] = [w for w in data["warnings"] if w["kind"] == "inferred_day"]
    assert inferred["day"] == 1 and inferred["post"] == 0
    assert "assumed to run from the thread's first post (0)" in inferred["message"]


@pytest.mark.parametrize(("day", "post"), [(1, 10), (2, 30)])
def test_as_of_a_post_is_as_of_that_posts_time_not_the_wall_clock(synced, day, post):
    _, game, db = synced  # both deadlines (March 2026) are long past by the wall clock
    data = json.loads(
        invoke(
            "count", game, "--db", db, "--day", day, "--at-post", post, "--format", "json"
        ).output
    )
    assert (data["as_of_post"], data["outcome"]) == (post, None)
    text = invoke("draft", game, "votal", "--db", db, "--day", day, "--at-post", post).output
    assert f"as of post #{post}" in text
    refused = invoke("draft", game, "day-end", "--db", db, "--day", day, "--at-post", post)
    assert (
        refused.exit_code == 2 and f"day {day} is not decided as of post {post}" in refused.output
    )


def test_vote_counts_are_numbered_per_day_and_keep_their_number(demo, tmp_path):
    game = write_game(demo, tmp_path)
    db = tmp_path / "v.db"
    assert invoke("sync", game, "--db", db, "--quiet").exit_code == 0

    def heading(day, post):
        return invoke(
            "draft", game, "votal", "--db", db, "--day", day, "--at-post", post
        ).stdout.splitlines()[0]

    assert (
        heading(2, 28) == "[b]Witch Hunt Demo: The Hollow Oak: Vote Count 2.1[/b] (as of post #28)"
    )
    assert (
        heading(2, 31) == "[b]Witch Hunt Demo: The Hollow Oak: Vote Count 2.2[/b] (as of post #31)"
    )
    assert heading(2, 28).startswith(
        "[b]Witch Hunt Demo: The Hollow Oak: Vote Count 2.1[/b]"
    )  # drafted again
    assert heading(1, 10).startswith("[b]Witch Hunt Demo: The Hollow Oak: Vote Count 1.1[/b]")


def warnings_of(game, db, day, *extra):
    result = invoke(
        "count",
        game,
        "--db",
        db,
        "--day",
        day,
        "--at-time",
        DAY2_EVENING,
        "--format",
        "json",
        *extra,
    )
    assert result.exit_code == 0, result.output
    return {w["kind"]: w for w in json.loads(result.output)["warnings"]}


def test_a_computed_lynch_without_its_death_entry_is_a_warning_naming_the_entry(
    synced, demo, tmp_path
):
    _, _, db = synced
    game = write_game(
        demo, tmp_path, change=('[[deaths]]\nplayer = "Dorian Gray"\nphase = "day 1"\n', "")
    )
    missing = warnings_of(game, db, 2)["missing_death"]
    assert missing["message"] == (
        "day 1: Votal counts Dorian Gray eliminated at post 24, but [[deaths]] has no entry for it, so day 2 still "
        'counts Dorian Gray alive (and its majority may be wrong): add [[deaths]] player = "Dorian Gray", '
        'phase = "day 1"; or, if the moderator did not count that lynch (a hammer after the deadline, a vote '
        "refused), correct the votes (`votal audit --day 1`); or, if it is right as it is, "
        "accept it: "
        # its id names the lynch's day, whichever day shows it
        '[checks] accepted = ["missing_death:day1:post24"]'
    )
    assert "missing_death" not in warnings_of(*synced[1:], 2)  # the demo records the death


def test_an_end_post_that_is_not_the_hammer_and_votes_after_the_end_are_warnings(
    synced, demo, tmp_path
):
    _, _, db = synced
    game = write_game(
        demo, tmp_path, change=('ruleset = "witchhunt-online-2.0.1"', 'ruleset = "mafiascum"')
    )
    game.write_text(
        game.read_text().replace("end_post = 24", "end_post = 23")
    )  # Ariadne's post, not the hammer
    found = warnings_of(game, db, 1)
    hammer = json.loads(invoke("count", game, "--db", db, "--day", "1", "--format", "json").output)[
        "outcome"
    ]["post"]
    assert hammer < 23
    assert found["end_post_disagrees"]["message"].startswith(
        f"day 1: end_post = 23, but the votes ended the day at post {hammer} (majority)"
    )
    between = found["vote_between_days"]
    assert (
        f"votes after day 1 ended (post {hammer}) and before day 2 began count for neither day"
        in between["message"]
    )
    # the moderator's own closing post, eleven player posts after the hammer: the day ran on past it
    # (issue 26: the hammer missed, or a vote misread); closing right after the hammer is no slip
    # (test_slips_reported)
    mod_closes = write_game(
        demo,
        tmp_path,
        change=('ruleset = "witchhunt-online-2.0.1"', 'ruleset = "mafiascum"'),
        name="m.toml",
    )
    assert warnings_of(mod_closes, db, 1)["end_post_disagrees"]["message"].startswith(
        f"day 1: end_post = 24 lies after the hammer Votal computes at post {hammer} "
        "(majority; 11 player posts between)"
    )


def test_a_judge_draft_under_a_ruleset_with_no_judge_is_refused(synced, demo, tmp_path):
    _, _, db = synced
    change = ('ruleset = "witchhunt-online-2.0.1"', 'ruleset = "mafiascum"')
    mafiascum = write_game(demo, tmp_path, change=change)
    for extra in ([], ["--force"]):
        result = invoke("draft", mafiascum, "judge", "--db", db, "--day", "1", *extra)
        assert result.exit_code == 2, result.output
        assert result.output.strip() == (
            "Error: the mafiascum ruleset has no Judge: there is no judge post to draft "
            "(`votal draft day-end` announces the day's end)"
        )
    assert invoke("draft", mafiascum, "day-end", "--db", db, "--day", "1").exit_code == 0
