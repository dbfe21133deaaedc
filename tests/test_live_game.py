"""A live game kept from its first page (issue 24): phases read without a cascade, a day the
moderator started counted before the file declares it, and `votal run --follow` on a thread that
grows."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from click.testing import CliRunner
from gamestart import PLAYERS, START, STYLES, styled_thread
from loopback_forum import Forum, serve
from support import HOUR, as_forum_posts, forum_post, stored_post

from assistant.cli.main import main
from assistant.gamefile.game import load_game
from assistant.reading.announcements import read_thread_facts
from parsers.page import Post

LYNCH_BIRCH = [
    ("Alder", "<b>vote: Birch</b>"),
    ("Cedar", "<b>vote: Birch</b>"),
    ("Damson", "<b>vote: Birch</b>"),
    ("Elm", "<b>vote: Birch</b>"),
    ("Fir", "<b>vote: Birch</b>"),
    ("Gorse", "<b>vote: Birch</b>"),
    ("Host", "Birch was lynched! Birch was a Vanilla Townie.<br>Night 1 begins."),
]
DAY_TWO_AND_THREE = [
    ("Damson", "hi"),
    ("Elm", "<b>vote: Fir</b>"),
    ("Alder", "<b>vote: Fir</b>"),
    ("Damson", "<b>vote: Fir</b>"),
    ("Gorse", "<b>vote: Fir</b>"),
    ("Hazel", "<b>vote: Fir</b>"),
    ("Host", "Fir was lynched! Fir was a Mafia Goon.<br>Night 2 begins."),
    ("Host", "Gorse was found dead. Gorse was a Doctor.<br>Day 3 begins now."),
    ("Alder", "<b>vote: Hazel</b>"),
    ("Damson", "<b>vote: Hazel</b>"),
    ("Elm", "<b>vote: Hazel</b>"),
    ("Ivy", "<b>vote: Hazel</b>"),
]
# day 2 opened in flavour only (no "Day 2", no death told): the reader cannot see it start there
FLAVOUR_DAWN = ("Host", "The rooster crows and the villagers gather again in the square.")
# a night reminder that states tomorrow's numbers: read as day 2's start, a post before the real one
EARLY_DAWN = [
    (
        "Host",
        "Reminder: night actions are due in 24 hours. Tomorrow, with 8 alive, it takes 5 to lynch.",
    ),
    ("Host", "Cedar was found dead. Cedar was a Cop.<br>Day 2 begins now."),
]


def thread(*more: tuple[str, str]) -> list[Post]:
    posts = list(styled_thread("numbered lines", posted=0))
    for author, body in more:
        n = len(posts)
        posts.append(stored_post(n, author, body, time=START + n * HOUR, url=""))
    return posts


@pytest.mark.parametrize(
    "dawn", [[FLAVOUR_DAWN], EARLY_DAWN], ids=["day 2 told in flavour", "day 2 read early"]
)
def test_a_misread_day_two_start_moves_no_later_day(dawn):
    posts = thread(*LYNCH_BIRCH, *dawn, *DAY_TWO_AND_THREE)
    facts = read_thread_facts(posts)
    day_three = next(p.number for p in posts if "Day 3 begins" in p.body_html)
    night_two = next(p.number for p in posts if "Night 2 begins" in p.body_html)
    assert [(s.day, s.post) for s in facts.day_starts][2] == (3, day_three)
    assert [(e.day, e.post) for e in facts.day_ends][1] == (2, night_two)
    assert [(e.player, e.day) for e in facts.eliminations] == [("Birch", 1), ("Fir", 2)]
    assert ("Gorse", "night 2") in [(d.player, d.phase) for d in facts.deaths]


def test_a_night_named_past_the_running_night_opens_the_day_between_at_the_moderators_dawn():
    """ "Night 2 begins" during night 1: day 2 started with the moderator's first post after night 1
    began (the flavour dawn), and the lynch the post tells is day 2's, not a night-1 death."""
    posts = thread(*LYNCH_BIRCH, FLAVOUR_DAWN, *DAY_TWO_AND_THREE)
    facts = read_thread_facts(posts)
    dawn = next(p.number for p in posts if "rooster" in p.body_html)
    assert [(s.day, s.post) for s in facts.day_starts][:2] == [(1, 0), (2, dawn)]
    assert "Fir" not in [d.player for d in facts.deaths]


def test_nights_numbered_ahead_of_their_day_open_no_missing_day():
    """A game whose night precedes its day's number ("Night 2" follows day 1) never had a day in
    between."""
    posts = thread(
        *LYNCH_BIRCH[:-1],
        ("Host", "Birch was lynched! Birch was a Vanilla Townie."),
        ("Host", "Flavour for Birch's death follows soon."),
        ("Host", "Night 2 starts now. Send actions."),
        ("Host", "Cedar was found dead.<br>Day 2 begins now."),
    )
    facts = read_thread_facts(posts)
    assert [s.day for s in facts.day_starts] == [1, 2]
    assert facts.day_starts[1].post == len(posts) - 1


def _new_and_update(tmp_path, posts: list[Post], *, cut: int):
    """`votal new` on the thread's first ``cut`` posts, then `votal update` on the whole thread."""
    forum = Forum(as_forum_posts(posts[:cut]))
    path, db = tmp_path / "game.toml", str(tmp_path / "v.db")
    with serve(forum) as server:
        url = f"{server.base_url}/viewtopic.php?f=7&t=42"
        result = CliRunner().invoke(
            main, ["new", url, "-o", str(path), "--db", db, "--min-interval", "0"]
        )
        assert result.exit_code == 0, result.output
        forum.posts.extend(as_forum_posts(posts[cut:]))
        result = CliRunner().invoke(main, ["update", str(path), "--db", db])
        assert result.exit_code == 0, result.output
    return path, db


@pytest.mark.parametrize(
    "dawn", [[FLAVOUR_DAWN], EARLY_DAWN], ids=["day 2 told in flavour", "day 2 read early"]
)
def test_new_and_update_count_day_three_right_after_a_misread_day_two(dawn, tmp_path):
    posts = thread(*LYNCH_BIRCH, *dawn, *DAY_TWO_AND_THREE)
    path, db = _new_and_update(tmp_path, posts, cut=4)
    game = load_game(path)
    day_three = next(p.number for p in posts if "Day 3 begins" in p.body_html)
    assert (game.day(3).start_post, game.day(3).end_post) == (day_three, None)
    result = CliRunner().invoke(
        main, ["count", str(path), "--db", db, "--day", "3", "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    day3 = json.loads(result.stdout)
    assert day3["alive"] == (
        6 if dawn is EARLY_DAWN else 7
    )  # Birch, Fir lynched; Gorse (and Cedar) killed
    assert day3["outcome"]["kind"] == "elimination" and day3["outcome"]["target"] == "Hazel"
    assert day3["outcome"]["post"] == len(posts) - 1


def test_count_of_a_day_the_moderator_started_but_the_file_lacks_is_counted_from_the_moderators_post(
    tmp_path,
):
    posts = thread(*LYNCH_BIRCH, *EARLY_DAWN[1:], *DAY_TWO_AND_THREE)
    path, db = _new_and_update(tmp_path, posts, cut=len(posts))
    text = path.read_text()
    day_three = next(p.number for p in posts if "Day 3 begins" in p.body_html)
    # the moderator's file as it stood before day 3: its [[days]] entry is not there yet
    cut = re.sub(r"\[\[days\]\][^\[]*day = 3\n[^\[]*", "", text)
    assert "day = 3" not in cut
    path.write_text(cut)
    for fmt in ("json", "text"):
        result = CliRunner().invoke(
            main, ["count", str(path), "--db", db, "--day", "3", "--format", fmt]
        )
        assert result.exit_code == 0, result.output
    day3 = json.loads(
        CliRunner()
        .invoke(main, ["count", str(path), "--db", db, "--day", "3", "--format", "json"])
        .stdout
    )
    assert day3["outcome"]["target"] == "Hazel" and day3["alive"] == 6
    [warning] = [w for w in day3["warnings"] if w["kind"] == "announced_day"]
    assert warning["post"] == day_three and "Day 3 begins now." in warning["message"]
    assert path.read_text() == cut  # the count writes nothing; `votal update` does
    for command in (["draft", "votal"], ["audit"]):
        result = CliRunner().invoke(
            main, [command[0], str(path), *command[1:], "--db", db, "--day", "3"]
        )
        assert result.exit_code == 0, result.output
    refused = CliRunner().invoke(main, ["count", str(path), "--db", db, "--day", "4"])
    assert (
        refused.exit_code == 1 and "day 4 is not declared" in refused.output
    )  # nobody started it: no guess


def test_a_day_no_post_read_starts_is_counted_from_the_moderators_first_post_after_the_last_end(
    tmp_path,
):
    """Day 2 opened in flavour only: the file Votal wrote ends day 1 and declares no day 2, and the
    thread goes on. The count takes day 2 from the moderator's first post after day 1's end and
    doubts its bounds; a day two past the file's last, or one after a day the file leaves open, is
    still refused (a day number typed wrong makes no day)."""
    votes = [("Elm", "<b>vote: Fir</b>"), ("Alder", "<b>vote: Fir</b>")]
    posts = thread(*LYNCH_BIRCH, FLAVOUR_DAWN, *votes)
    path, db = _new_and_update(tmp_path, posts, cut=len(posts))
    assert "day = 2" not in path.read_text()
    dawn = next(p.number for p in posts if "rooster" in p.body_html)
    result = CliRunner().invoke(
        main, ["count", str(path), "--db", db, "--day", "2", "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    day2 = json.loads(result.stdout)
    [warning] = [w for w in day2["warnings"] if w["kind"] == "inferred_day"]
    assert warning["post"] == dawn and "no moderator's post read starts it" in warning["message"]
    [doubt] = [d for d in day2["doubts"] if d["kind"] == "day_bounds"]
    assert doubt["post"] == dawn and "as Votal guessed" in doubt["why"]
    assert day2["wagons"][0]["voters"] == ["Elm", "Alder"]
    refused = CliRunner().invoke(main, ["count", str(path), "--db", db, "--day", "3"])
    assert refused.exit_code == 1 and "day 3 is not declared" in refused.output
    # the thread stops at day 1's end: nothing goes on, nothing is guessed
    ended = thread(*LYNCH_BIRCH)
    (tmp_path / "ended").mkdir()
    path, db = _new_and_update(tmp_path / "ended", ended, cut=len(ended))
    refused = CliRunner().invoke(main, ["count", str(path), "--db", db, "--day", "2"])
    assert refused.exit_code == 1 and "day 2 is not declared" in refused.output


# A live game: the thread grows, `votal run --follow` keeps the file
COUNT_2 = "Vote Count 2.{n}<br>Alder (1): Juniper<br>Not voting: Alder, Damson, Quill, Fir, Gorse, Hazel, Ivy"


def _steps() -> list[list[tuple[str, str]]]:
    return [
        [("Alder", "hello"), ("Birch", "hi"), ("Cedar", "hey")],
        [
            *LYNCH_BIRCH,
            (
                "Host",
                "Cedar was found dead. Cedar was a Cop.<br>Day 2 begins now. Day 2 ends in "
                "72 hours.",
            ),
        ],
        # an announced replacement, and Juniper's seat taken over unannounced: the moderator's
        # counts show it
        [
            ("Host", "Quill replaces Elm."),
            ("Quill", "hi all"),
            ("Quietfox", "<b>vote: Alder</b> I am back"),
            ("Host", COUNT_2.format(n=1)),
            ("Damson", "hmm"),
            ("Host", COUNT_2.format(n=2)),
        ],
        # the votes hammer Damson; the moderator announces Ivy: a disagreement
        [
            ("Alder", "<b>vote: Damson</b>"),
            ("Quill", "<b>vote: Damson</b>"),
            ("Fir", "<b>vote: Damson</b>"),
            ("Gorse", "<b>vote: Damson</b>"),
            ("Hazel", "<b>vote: Damson</b>"),
            ("Host", "Ivy was lynched! Ivy was a Mafia Goon.<br>Night 2 begins."),
        ],
        [("Host", "Gorse was found dead. Gorse was a Doctor.<br>Day 3 begins now.")],
        [("Alder", "gg so far")],
    ]


def test_run_follow_keeps_a_live_game_from_its_first_page(tmp_path):
    from assistant.cli.schedule import HostLimiter, Runner
    from assistant.upkeep.update import follow_hook

    steps = _steps()
    opening = as_forum_posts(thread(("Host", "Welcome! Day 1 begins now.")))[:1]
    opening[0]["content"] = (
        "Welcome to Mini 999!<br><br>" + styled_thread("numbered lines")[0].body_html
    )
    forum = Forum(opening)
    path, db = tmp_path / "game.toml", tmp_path / "v.db"

    def grow(step: list[tuple[str, str]]) -> None:
        for author, body in step:
            n = len(forum.posts)
            forum.posts.append(forum_post(n, author, body, first_id=4000, start=START, step=HOUR))

    said: list[str] = []
    now = START + timedelta(days=30)
    with serve(forum) as server:
        url = f"{server.base_url}/viewtopic.php?f=7&t=42"
        grow(steps[0])
        result = CliRunner().invoke(
            main, ["new", url, "-o", str(path), "--db", str(db), "--min-interval", "0"]
        )
        assert result.exit_code == 0, result.output
        assert [s.name for s in load_game(path).players] == list(PLAYERS)
        runner = Runner(
            db_path=db,
            now=lambda: now,
            limiter=HostLimiter(sleep=lambda s: None),
            regenerate=[follow_hook(now=lambda: now, say=said.append)],
            echo=said.append,
        )
        for step in steps[1:]:
            grow(step)
            run = runner.run_game(path)
            assert run.error is None, run.error
            game = load_game(path)  # valid after every step
            assert [s.name for s in game.players] == list(PLAYERS)  # no seat lost or added
            tables = re.findall(r"^\[\[(?:days|deaths)\]\].*$", path.read_text(), re.MULTILINE)
            assert all("# post " in line for line in tables), tables  # each change cited
    game = load_game(path)
    assert [(d.day, d.start_post) for d in game.days] == [(1, 0), (2, 11), (3, 24)]
    assert (game.day(1).end_post, game.day(2).end_post) == (10, 23)
    assert game.day(2).end == START + timedelta(hours=11 + 72)  # the announced deadline
    assert [(d.player, f"{d.phase} {d.phase_number}") for d in game.deaths] == [
        ("Birch", "day 1"),
        ("Cedar", "night 1"),
        ("Ivy", "day 2"),
        ("Gorse", "night 2"),
    ]
    assert game.seat("Elm").accounts == ("Elm", "Quill") and game.seat("Elm").replacement_posts == (
        12,
    )
    assert game.seat("Juniper").accounts == ("Juniper", "Quietfox")
    assert game.seat("Juniper").replacement_posts == (14,)
    text = path.read_text()
    assert '# post 12: "Quill replaces Elm."' in text
    assert "place Juniper where Quietfox votes" in text
    disagreements = [line for line in said if "DAY 2 OUTCOME DISAGREES" in line]
    assert len(disagreements) == 1, said  # an alert, once, though later runs read the thread again
    assert (
        "announced Ivy lynched" in disagreements[0]
        and "count gives Damson lynched" in disagreements[0]
    )


def test_a_day_started_by_its_numbers_at_night_gives_way_to_the_moderators_day_start():
    """ "Tomorrow, with 8 alive, it takes 5" at night reads as day 2's start; the moderator's "Day 2
    begins now" before any player posts is the start, and the death it tells is the night's, not a
    day kill."""
    posts = thread(*LYNCH_BIRCH, *EARLY_DAWN, *DAY_TWO_AND_THREE)
    facts = read_thread_facts(posts)
    day_two = next(p.number for p in posts if "Day 2 begins" in p.body_html)
    assert [(s.day, s.post) for s in facts.day_starts][1] == (2, day_two)
    assert ("Cedar", "night 1", None) in [(d.player, d.phase, d.post) for d in facts.deaths]
    said_late = thread(*LYNCH_BIRCH, EARLY_DAWN[0], ("Damson", "so day 2 then?"), EARLY_DAWN[1])
    starts = [(s.day, s.post) for s in read_thread_facts(said_late).day_starts]
    assert starts[1] == (2, len(LYNCH_BIRCH) + 1)  # a player posted in the day: its start stands


DAY_TO_DAY = [
    ("Host", "Birch, Vanilla Townie, has been lynched.<br>With 9 alive it takes 5 to lynch.")
]


@pytest.mark.parametrize(
    "dawn",
    [[FLAVOUR_DAWN], EARLY_DAWN, DAY_TO_DAY],
    ids=["day 2 told in flavour", "day 2 read early", "from day to day"],
)
def test_a_reading_from_a_later_post_tells_what_the_whole_reading_tells_after_it(dawn):
    """`votal update` reads the posts up to the file's last known post quietly: it follows them as a
    reading of the whole thread does (a day's lynch told, its start read), so what it tells after
    them is the same."""
    lynch = LYNCH_BIRCH[:-1] if dawn is DAY_TO_DAY else LYNCH_BIRCH
    posts = thread(*lynch, *dawn, *DAY_TWO_AND_THREE)
    players = {p: [p] for p in PLAYERS}

    def told(facts, after: int) -> list:
        kinds = (
            facts.day_starts,
            facts.day_ends,
            facts.eliminations,
            facts.deaths,
            facts.deadlines,
        )
        return [[f for f in kind if f.cite.post > after] for kind in kinds]

    whole = read_thread_facts(posts, moderators=["Host"], players=players)
    for after in range(len(posts)):
        later = read_thread_facts(posts, moderators=["Host"], players=players, after_post=after)
        assert told(later, after) == told(whole, after), after


def test_a_listed_name_left_out_at_the_start_is_a_seat_once_its_player_posts(tmp_path):
    """An unmarked list with no header: at the first page "Damson" (not posted, beside no one who
    did) is said, not taken; once Damson posts, `votal update` adds the seat from the list, cited,
    in its place on the list (where a file written on the finished thread has it)."""
    opening = (
        "Welcome to the game!<br><br>Damson<br>Alder<br>Birch<br>Cedar<br><br>Day 1 begins now."
    )
    posts = thread(
        ("Alder", "hi"), ("Birch", "hi"), ("Cedar", "hi"), ("Damson", "hello, sorry I am late")
    )
    posts[0] = Post(posts[0].post_id, 0, "Host", posts[0].time, opening, "")
    forum = Forum(as_forum_posts(posts[:4]))
    path, db = tmp_path / "game.toml", str(tmp_path / "v.db")
    with serve(forum) as server:
        url = f"{server.base_url}/viewtopic.php?f=7&t=42"
        result = CliRunner().invoke(
            main, ["new", url, "-o", str(path), "--db", db, "--min-interval", "0"]
        )
        assert result.exit_code == 0, result.output
        assert "Damson on the player list's lines not taken as seats" in result.output
        assert [s.name for s in load_game(path).players] == ["Alder", "Birch", "Cedar"]
        forum.posts.extend(as_forum_posts(posts[4:]))
        result = CliRunner().invoke(main, ["update", str(path), "--db", db])
        assert result.exit_code == 0, result.output
    assert [s.name for s in load_game(path).players] == ["Damson", "Alder", "Birch", "Cedar"]
    assert '[[players]]  # post 0: "Damson (on the player list, now posting)"' in path.read_text()


# day 1 started by the moderator after the confirmations, on the thread's second page: the first
# page shows none
CONFIRMING = [
    ("Host", "Welcome to Mini 999!<br><br>" + STYLES["numbered lines"] + "<br><br>Please confirm."),
    *((name, "confirm") for name in PLAYERS[:5]),
    ("Host", "All confirmed. Day 1 begins now. With 10 alive it takes 6 to lynch."),
]


def confirming_thread(*more: tuple[str, str]) -> list[Post]:
    return [
        stored_post(n, author, body, time=START + n * HOUR, url="")
        for n, (author, body) in enumerate([*CONFIRMING, *more])
    ]


def test_a_day_start_votal_read_early_gives_way_to_the_moderators_own_cited(tmp_path):
    """`votal new` at the first page takes day 1 to start with the opening post; the moderator's
    "Day 1 begins now" on a later page moves it, cited, as one reading of the whole thread places
    it."""
    posts = confirming_thread(("Alder", "<b>vote: Birch</b>"))
    day_one = len(CONFIRMING) - 1
    path, db = _new_and_update(tmp_path, posts, cut=3)
    assert load_game(path).day(1).start_post == day_one
    assert '[[days]]  # post 6: "All confirmed. Day 1 begins now.' in path.read_text()
    whole = read_thread_facts(posts)
    assert [(s.day, s.post) for s in whole.day_starts] == [(1, day_one)]
    from assistant.forum.store import open_db
    from assistant.upkeep.update import update_from_store

    assert not update_from_store(
        path, open_db(db), now=START + timedelta(days=1)
    ).changed  # read once, revised once


def _moderator_edits_then_update(tmp_path, posts: list, old: str, new: str):
    """`votal new` at the first page (3 posts), the moderator's own edit of the file (``old`` ->
    ``new``), the thread grown to ``posts``, then `votal update`: the file's path and the update's
    result."""
    forum = Forum(as_forum_posts(posts[:3]))
    path, db = tmp_path / "game.toml", str(tmp_path / "v.db")
    with serve(forum) as server:
        url = f"{server.base_url}/viewtopic.php?f=7&t=42"
        result = CliRunner().invoke(
            main, ["new", url, "-o", str(path), "--db", db, "--min-interval", "0"]
        )
        assert result.exit_code == 0, result.output
        path.write_text(path.read_text().replace(old, new))
        forum.posts.extend(as_forum_posts(posts[3:]))
        result = CliRunner().invoke(main, ["update", str(path), "--db", db])
        assert result.exit_code == 0, result.output
    return path, result


def test_a_day_start_the_moderator_typed_is_kept_and_the_difference_said(tmp_path):
    """The file's start the moderator changed (the comment still cites another post) is theirs:
    kept."""
    path, result = _moderator_edits_then_update(
        tmp_path, confirming_thread(), "start_post = 0", "start_post = 2"
    )
    assert load_game(path).day(1).start_post == 2
    assert "start_post: the file says 2; post 6 says 6 (file kept)" in result.output


@pytest.mark.parametrize("votes", [True, False], ids=["votes for a player", "never votes"])
def test_an_unlisted_poster_of_vote_counts_who_votes_for_a_player_is_no_moderator(votes):
    """An account the list does not name that posts vote counts is taken for a vote counter, unless
    it also votes for a listed player: then it is a player (a replacement not announced yet, keeping
    its own tally), and its posts are no announcements ("Birch wagon dies" is no death)."""
    counter = [
        ("Quill", "Vote Count 1.1<br>Birch (2): Alder, Cedar<br>Birch wagon dies if Cedar unvotes"),
        ("Quill", "Vote Count 1.2<br>Birch (1): Alder"),
    ]
    if votes:
        counter.insert(1, ("Quill", "<b>vote: Damson</b>"))
    facts = read_thread_facts(thread(("Alder", "<b>vote: Birch</b>"), *counter))
    assert ("Quill" in facts.moderators) is not votes
    assert "Birch" not in [d.player for d in facts.deaths] or not votes


# a co-moderator the opening does not name takes over the thread's business after the first page
COMODERATED = [
    *LYNCH_BIRCH[:-1],
    ("Warden", "Vote Count 1.4<br>Birch (6): Alder, Cedar, Damson, Elm, Fir, Gorse"),
    ("Warden", "Birch was lynched! Birch was a Vanilla Townie.<br>Night 1 begins."),
    ("Warden", "Cedar was found dead. Cedar was a Cop.<br>Day 2 begins now."),
]


def test_a_co_moderator_the_thread_shows_later_is_added_and_its_posts_read(tmp_path):
    """`votal new` at the first page knows only the opener; once another account posts the
    moderator's business twice, `votal update` adds it to the moderators Votal wrote (cited) and
    reads its posts from its first: the file is the one `new` + `update` write on the whole
    thread."""
    posts = thread(*COMODERATED)
    path, _ = _new_and_update(tmp_path, posts, cut=3)
    (tmp_path / "whole").mkdir()
    whole, _ = _new_and_update(tmp_path / "whole", posts, cut=len(posts))
    live, finished = load_game(path), load_game(whole)
    assert live.moderators == finished.moderators == ("Host", "Warden")
    warden = next(p.number for p in posts if p.author == "Warden")
    assert f'post {warden}: "Vote Count 1.4"' in path.read_text()
    assert (
        [(d.day, d.start_post, d.end_post) for d in live.days]
        == [(d.day, d.start_post, d.end_post) for d in finished.days]
        == [(1, 0, warden + 1), (2, warden + 2, None)]
    )
    assert (
        [(d.player, d.phase, d.phase_number) for d in live.deaths]
        == [(d.player, d.phase, d.phase_number) for d in finished.deaths]
        == [("Birch", "day", 1), ("Cedar", "night", 1)]
    )


def test_a_co_moderator_is_only_said_where_the_moderator_wrote_the_moderators(tmp_path):
    """A moderators line the moderator changed (a name Votal does not read from the thread) is
    theirs: kept, and the co-moderator the thread shows said."""
    path, result = _moderator_edits_then_update(
        tmp_path, thread(*COMODERATED), 'moderators = ["Host"]', 'moderators = ["Host", "Backup"]'
    )
    assert load_game(path).moderators == ("Host", "Backup")
    assert "moderators: Warden posts the moderator's business" in result.output


@pytest.mark.parametrize("cut", [1, 8, 16])
def test_new_at_the_start_and_updates_write_the_file_new_writes_on_the_finished_thread(
    cut, tmp_path
):
    """Issue 24's target in small: one writer for the thread's facts, so the file kept from an early
    page equals the one `new` writes at once, every value (replacements with their post, deaths in
    thread order, each day's deadline even once it has ended)."""
    import tomllib

    posts = thread(
        ("Host", "Day 1 begins now. Deadline is March 9, 2026 at 22:00 UTC."),
        *LYNCH_BIRCH,
        (
            "Host",
            "Cedar was found dead. Cedar was a Cop.<br>Day 2 begins now. Deadline is March 12, 2026 "
            "at 22:00 UTC.",
        ),
        ("Host", "Quill replaces Elm."),
        ("Quill", "hi all"),
        *DAY_TWO_AND_THREE,
    )
    (tmp_path / "live").mkdir()
    (tmp_path / "finished").mkdir()
    live, _ = _new_and_update(tmp_path / "live", posts, cut=cut)
    finished, _ = _new_and_update(tmp_path / "finished", posts, cut=len(posts))
    written = tomllib.loads(finished.read_text())
    assert [p.get("replacements") for p in written["players"] if p["name"] == "Elm"] == [
        [
            {
                "name": "Quill",
                "post": next(p.number for p in posts if p.body_html == "Quill replaces Elm."),
            }
        ]
    ]
    assert [(d["player"], d["phase"]) for d in written["deaths"]] == [
        ("Birch", "day 1"),
        ("Cedar", "night 1"),
        ("Fir", "day 2"),
        ("Gorse", "night 2"),
    ]
    assert all("end" in d for d in written["days"][:2])
    assert {
        **tomllib.loads(live.read_text()),
        "thread": written["thread"],
    } == written  # served on another port

    def uncommented(path) -> list[str]:  # the cites aside: the same lines in the same order
        return [
            re.sub(r"\s+#.*", "", line)
            for line in path.read_text().splitlines()
            if not line.startswith("thread")
        ]

    assert uncommented(live) == uncommented(finished)


def test_update_learns_the_page_size_once_the_thread_grows_past_its_first_page(tmp_path):
    """`new` at a first page that is the whole thread cannot tell the forum's page size; `update`
    writes it once the thread has a second page, as `new` on the grown thread writes it."""
    from assistant.forum.store import open_db
    from assistant.upkeep.update import update_from_store

    posts = thread(*LYNCH_BIRCH, *EARLY_DAWN[1:], *DAY_TWO_AND_THREE)
    posts += [
        Post(str(3000 + n), n, "Alder", START + timedelta(hours=n), "still here", "")
        for n in range(len(posts), 40)
    ]
    path, db = _new_and_update(tmp_path, posts, cut=10)
    (tmp_path / "grown").mkdir()
    grown, _ = _new_and_update(tmp_path / "grown", posts, cut=len(posts))
    assert load_game(grown).fetch.posts_per_page == 25
    assert load_game(path).fetch.posts_per_page == 25
    assert "posts_per_page = 25  # as the thread's first page shows" in path.read_text()
    assert (
        update_from_store(path, open_db(db), now=START + timedelta(days=9)).changed is False
    )  # written once


def test_a_listed_seat_added_once_its_newcomer_posts_dates_the_replacement_announced_before(
    tmp_path,
):
    """The list line "Damson (replaced by Yew)" is left out at the first page (nobody who posted
    vouches for it); the moderator announces "Yew replaces Damson." in one update, Yew posts in the
    next: the seat is added then, and the thread read again knowing it dates Yew from the
    announcement, as the finished thread's file has it."""
    opening = (
        "Welcome to the game!<br><br>Damson (replaced by Yew)<br>Alder<br>Birch<br>Cedar<br><br>"
        "Day 1 begins now."
    )
    posts = thread(
        ("Alder", "hi"),
        ("Birch", "hi"),
        ("Cedar", "hi"),
        ("Host", "Yew replaces Damson."),
        ("Yew", "hello, replacing in"),
    )
    posts[0] = Post(posts[0].post_id, 0, "Host", posts[0].time, opening, "")
    forum = Forum(as_forum_posts(posts[:4]))
    path, db = tmp_path / "game.toml", str(tmp_path / "v.db")
    with serve(forum) as server:
        url = f"{server.base_url}/viewtopic.php?f=7&t=42"
        assert (
            CliRunner()
            .invoke(main, ["new", url, "-o", str(path), "--db", db, "--min-interval", "0"])
            .exit_code
            == 0
        )
        assert [s.name for s in load_game(path).players] == ["Alder", "Birch", "Cedar"]
        for shown in (5, 6):
            forum.posts[:] = as_forum_posts(posts[:shown])
            result = CliRunner().invoke(main, ["update", str(path), "--db", db])
            assert result.exit_code == 0, result.output
        finished = tmp_path / "finished.toml"
        result = CliRunner().invoke(
            main,
            [
                "new",
                url,
                "-o",
                str(finished),
                "--db",
                str(tmp_path / "f.db"),
                "--min-interval",
                "0",
            ],
        )
        assert result.exit_code == 0, result.output
    damson = load_game(path).seat("Damson")
    assert (damson.accounts, damson.replacement_posts) == (("Damson", "Yew"), (4,))
    assert [s.name for s in load_game(path).players] == ["Damson", "Alder", "Birch", "Cedar"]
    assert load_game(finished).seat("Damson").replacement_posts == (4,)


def test_a_joke_modkill_written_live_is_taken_back_once_the_days_count_lists_the_player(tmp_path):
    """ "Elm has been modkilled" as a joke: an update that meets only that post writes the death,
    cited; Elm posts on and the moderator's next count of the day lists Elm, so the next update
    takes it back, as the finished thread's reading never writes it. A death the moderator typed
    stays, and the count is said."""
    posts = thread(
        ("Host", "Day 1 begins now."),
        ("Alder", "hi"),
        ("Host", "Elm has been modkilled for bringing in a game that was not mine."),
        ("Elm", "YOU CANNOT MODKILL ME"),
        (
            "Host",
            "Vote Count 1.02<br>Not Voting (10): "
            + ", ".join(PLAYERS)
            + "<br>With 10 alive, it takes 6 to lynch.",
        ),
    )
    joke = next(p.number for p in posts if "modkilled" in p.body_html)
    (tmp_path / "finished").mkdir()
    finished, _ = _new_and_update(tmp_path / "finished", posts, cut=len(posts))
    assert load_game(finished).deaths == ()
    for typed in (False, True):
        path, db = tmp_path / f"game-{typed}.toml", str(tmp_path / f"v-{typed}.db")
        forum = Forum(as_forum_posts(posts[:joke]))
        with serve(forum) as server:
            url = f"{server.base_url}/viewtopic.php?f=7&t=42"
            result = CliRunner().invoke(
                main, ["new", url, "-o", str(path), "--db", db, "--min-interval", "0"]
            )
            assert result.exit_code == 0, result.output
            forum.posts.append(as_forum_posts(posts)[joke])
            assert CliRunner().invoke(main, ["update", str(path), "--db", db]).exit_code == 0
            assert [d.player for d in load_game(path).deaths] == ["Elm"]
            if typed:  # the moderator's own entry: no cite of the post
                path.write_text(
                    re.sub(r"\[\[deaths\]\]  # post \d+: .*", "[[deaths]]", path.read_text())
                )
            forum.posts.extend(as_forum_posts(posts)[joke + 1 :])
            result = CliRunner().invoke(main, ["update", str(path), "--db", db])
        assert result.exit_code == 0, result.output
        assert [d.player for d in load_game(path).deaths] == (["Elm"] if typed else [])
        assert ("lists Elm alive after the death told at post" in result.output) == typed, (
            result.output
        )
