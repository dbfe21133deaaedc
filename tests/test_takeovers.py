"""Seats the moderator's counts show held by an unlisted account (a renamed account, an unannounced
replacement): found by name or by votes, never for a look-alike, a seat that still posts, or a
slip."""

from types import SimpleNamespace

from assistant.counting.takeovers import find_takeovers
from assistant.gamefile.game import parse_game
from assistant.gamefile.rules import load_ruleset
from assistant.upkeep.update import plan_update
from parsers.commands import extract_commands
from parsers.reading import ReadPost

GAME = """title = "Fox Mafia"
thread = "https://forum.example.org/viewtopic.php?t=5"
ruleset = "mafiascum"
moderators = ["Host"]

[[players]]
name = "Ash"

[[players]]
name = "Bell"

[[players]]
name = "Cherry"

[[players]]
name = "Dogwood"

[[players]]
name = "Elder"

[[days]]
day = 1
start_post = 0
"""

PLACED = "Vote Count 1.{n}<br>Bell (2): Ash, Cherry<br>Ash (1): Bell<br>Not voting: Dogwood, Elder"


def thread(*posts: tuple[str, str]) -> list[SimpleNamespace]:
    return [
        SimpleNamespace(
            number=n,
            author=author,
            author_id=None,
            body_html=body,
            time=None,
            url="",
            commands=tuple(extract_commands(body)),
        )
        for n, (author, body) in enumerate(posts)
    ]


def takeovers(posts, game_text: str = GAME):
    game = parse_game(game_text)
    bodies = {p.number: p.body_html for p in posts if p.author == "Host"}
    return find_takeovers(game, load_ruleset("mafiascum"), posts, bodies)


def renamed_bell(newcomer: str = "Quietfox", *, bell_again: bool = False, slip: bool = False):
    return thread(
        ("Host", "Day 1 begins."),
        ("Ash", "<b>VOTE: Bell</b>"),
        ("Bell", "hello all"),
        ("Cherry", "<b>vote: bell</b>"),
        (newcomer, "<b>VOTE: Ash</b> I am back"),
        ("Host", PLACED.format(n=1)),
        ("Bell" if bell_again else "Dogwood", "still here"),
        (
            "Host",
            PLACED.format(n=2).replace("Ash (1): Bell", "Cherry (1): Bell")
            if slip
            else PLACED.format(n=2),
        ),
    )


def test_a_silent_seat_the_counts_place_where_an_unlisted_account_votes_is_that_accounts():
    found = takeovers(renamed_bell())
    assert [(t.seat, t.account, t.post, t.counts, t.by) for t in found] == [
        ("Bell", "Quietfox", 4, (5, 7), "votes")
    ]
    assert "place Bell where Quietfox votes" in found[0].words()


def test_one_count_is_not_enough_a_contradicting_count_refutes_and_a_seat_that_still_posts_is_its_own():
    assert takeovers(renamed_bell()[:6]) == []
    assert takeovers(renamed_bell(slip=True)) == []
    assert takeovers(renamed_bell(bell_again=True)) == []


def test_a_look_alike_account_never_takes_a_seat():
    assert (
        takeovers(renamed_bell("Bell\u200b")) == []
    )  # zero-width space: an impersonation, flagged elsewhere
    assert takeovers(renamed_bell("B\u0435ll")) == []  # Cyrillic e
    assert takeovers(renamed_bell("BeII")) == []  # capital i for l


def test_a_complete_count_naming_an_unlisted_poster_in_place_of_a_seat():
    posts = thread(
        ("Host", "Day 1 begins."),
        ("Bell", "hello"),
        ("Quietfox", "hi, I replaced in"),
        (
            "Host",
            "Vote Count 1.1<br>Ash (1): Cherry<br>Not voting: Ash, Quietfox, Dogwood, Elder<br>"
            "With 5 alive, 3 to lynch",
        ),
    )
    found = takeovers(posts)
    assert [(t.seat, t.account, t.post, t.by) for t in found] == [("Bell", "Quietfox", 2, "name")]
    assert (
        takeovers(
            posts[:2] + [SimpleNamespace(**{**vars(posts[2]), "author": "Stranger"})] + posts[3:]
        )
        == []
    )


def test_update_writes_the_takeover_as_a_cited_replacement_once():
    posts = renamed_bell()
    found = lambda game: takeovers(posts, GAME)  # noqa: E731 - the store's reading, here the test thread's
    report = plan_update(GAME, posts, path="fox.toml", takeovers=found)
    bell = parse_game(report.text).players[1]
    assert (bell.replacements, bell.replacement_posts) == (("Quietfox",), (4,))
    assert "post 5:" in report.text and "place Bell where Quietfox votes" in report.text
    again = plan_update(
        report.text,
        posts,
        path="fox.toml",
        takeovers=lambda game: find_takeovers(
            game,
            load_ruleset("mafiascum"),
            posts,
            {p.number: p.body_html for p in posts if p.author == "Host"},
        ),
    )
    assert not again.changed


def test_count_warns_and_update_writes_on_a_real_store(tmp_path):
    """End to end on a SQLite store: `votal count` says who seems to hold the seat and counts its
    votes for the seat, with a note; `votal update` writes it; then the warning is gone and the
    votes count."""
    import json
    from datetime import UTC, datetime, timedelta

    from click.testing import CliRunner

    from assistant.cli.main import main
    from assistant.forum import store
    from assistant.gamefile.game import load_game
    from assistant.upkeep.update import update_from_store
    from parsers.page import Post

    path = tmp_path / "fox.toml"
    path.write_text(GAME)
    db = tmp_path / "votal.db"
    start = datetime(2026, 3, 1, tzinfo=UTC)
    posts = [
        Post(
            str(100 + p.number),
            p.number,
            p.author,
            start + timedelta(hours=p.number),
            p.body_html,
            f"https://forum.example.org/p{p.number}",
        )
        for p in renamed_bell()
    ]
    with store.open_db(db) as opened:
        store.save_posts(opened, load_game(path).key, posts, seen_at=start + timedelta(days=1))

    def count() -> dict:
        result = CliRunner().invoke(
            main, ["count", str(path), "--db", str(db), "--day", "1", "--format", "json"]
        )
        assert result.exit_code == 0, result.output
        return json.loads(result.output)

    before = count()
    warned = [w for w in before["warnings"] if w["kind"] == "takeover"]
    assert len(warned) == 1 and warned[0]["post"] == 4
    assert warned[0]["message"].startswith(
        "Quietfox seems to hold Bell's seat (the counts at posts 5, 7 place Bell"
    )
    assert "Votal counts its votes for the seat from post 4" in warned[0]["message"]
    assert "Bell" in next(w for w in before["wagons"] if w["target"] == "Ash")["voters"]
    (note,) = [
        d for d in [*before["doubts"], *before.get("notes", ())] if "is counted in" in d["why"]
    ]
    assert (note["kind"], note["post"], note["target"]) == ("note", 4, "Bell")
    assert note["why"].startswith(
        "Quietfox is counted in Bell's seat from post 4: the counts at posts 5, 7"
    )
    with store.open_db(
        db
    ) as opened:  # `votal update` after its sync (the thread here is already stored)
        report = update_from_store(path, opened, now=start + timedelta(days=1))
    assert any("Quietfox replaces Bell from post 4" in line for line in report.written)
    path.write_text(report.text)
    after = count()
    assert not [w for w in after["warnings"] if w["kind"] == "takeover"]
    ash = next(w for w in after["wagons"] if w["target"] == "Ash")
    assert "Bell" in ash["voters"]


def test_a_takeover_is_looked_for_only_when_a_seat_fell_silent_before_a_strangers_vote():
    from assistant.counting.takeovers import could_take_over

    game = parse_game(GAME)
    assert could_take_over(game, renamed_bell())
    later = thread(
        *[("Host", "")] * 8, *[(name, "here") for name in ("Ash", "Cherry", "Dogwood", "Elder")]
    )[8:]
    everyone_posts = renamed_bell(bell_again=True) + later
    assert not could_take_over(game, everyone_posts)  # every seat still posts after Quietfox's vote
    assert not could_take_over(
        game, renamed_bell(), voted_from=5
    )  # no stranger's vote in the posts shown


def test_a_takeover_a_count_showed_explains_its_account_in_later_counts():
    """Read count by count, as a live game's updates read them: Quietfox, shown holding Bell's seat,
    is Bell in the next count, which then shows the one stranger left (Slyhare) where the one seat
    missing (Dogwood) was."""
    alive = "<br>With 5 alive, 3 to lynch"
    posts = thread(
        ("Host", "Day 1 begins."),
        ("Bell", "hello"),
        ("Quietfox", "hi, I replaced in"),
        (
            "Host",
            "Vote Count 1.1<br>Ash (1): Cherry<br>Not voting: Ash, Quietfox, Dogwood, Elder"
            + alive,
        ),
        ("Slyhare", "replacing in too"),
        (
            "Host",
            "Vote Count 1.2<br>Ash (1): Cherry<br>Not voting: Ash, Quietfox, Slyhare, Elder"
            + alive,
        ),
    )
    found = [(t.seat, t.account, t.post, t.counts) for t in takeovers(posts)]
    assert found == [("Bell", "Quietfox", 2, (3,)), ("Dogwood", "Slyhare", 4, (5,))]
    assert [(t.seat, t.account) for t in takeovers(posts[:4])] == [
        ("Bell", "Quietfox")
    ]  # the same, read early


def test_update_reads_again_the_moderators_posts_that_name_a_takeovers_account():
    """The moderator's post naming the account, read before the takeover was known, is read again
    once it is: one update writes the replacement and the death it tells."""
    posts = (
        renamed_bell()
        + thread(*[("Host", "")] * 8, ("Host", "Quietfox has been modkilled for inactivity."))[8:]
    )
    report = plan_update(
        GAME, posts, path="fox.toml", takeovers=lambda game: takeovers(posts, GAME)
    )
    game = parse_game(report.text)
    assert game.seat("Bell").accounts == ("Bell", "Quietfox")
    assert [(d.player, d.phase, d.phase_number, d.post) for d in game.deaths] == [
        ("Bell", "day", 1, 8)
    ]


def test_a_seat_taken_over_twice_in_turn():
    """Quietfox, shown holding Bell's seat, falls silent in turn; the next complete count lists
    Slyhare where Quietfox was: Slyhare holds the seat from its first post (a chain of unannounced
    replacements)."""
    alive = "<br>With 5 alive, 3 to lynch"
    posts = thread(
        ("Host", "Day 1 begins."),
        ("Bell", "hello"),
        ("Quietfox", "hi, I replaced in"),
        (
            "Host",
            "Vote Count 1.1<br>Ash (1): Cherry<br>Not voting: Ash, Quietfox, Dogwood, Elder"
            + alive,
        ),
        ("Slyhare", "replacing Quietfox"),
        (
            "Host",
            "Vote Count 1.2<br>Ash (1): Cherry<br>Not voting: Ash, Slyhare, Dogwood, Elder" + alive,
        ),
    )
    found = [(t.seat, t.account, t.post, t.counts) for t in takeovers(posts)]
    assert found == [("Bell", "Quietfox", 2, (3,)), ("Bell", "Slyhare", 4, (5,))]
    report = plan_update(
        GAME, posts, path="fox.toml", takeovers=lambda game: takeovers(posts, GAME)
    )
    assert parse_game(report.text).seat("Bell").accounts == ("Bell", "Quietfox", "Slyhare")


def test_a_takeover_a_count_showed_stands_when_the_seats_old_account_posts_later():
    """The counts are read as a live game's updates meet them: Bell's account posting once after the
    counts that showed Quietfox in the seat (an alt's slip, a word after the game) undoes nothing;
    before them it does."""
    late = renamed_bell() + thread(*[("Host", "")] * 8, ("Bell", "oops, wrong account"))[8:]
    assert [(t.seat, t.account, t.counts) for t in takeovers(late)] == [
        ("Bell", "Quietfox", (5, 7))
    ]
    assert takeovers(renamed_bell(bell_again=True)) == []


ALIVE = "<br>With 5 alive, 3 to lynch"
ANNOUNCED_AFTER_A_TAKEOVER = [
    ("Host", "Day 1 begins."),
    ("Bell", "hello"),
    ("Quietfox", "hi, I replaced in"),
    (
        "Host",
        "Vote Count 1.1<br>Ash (1): Cherry<br>Not voting: Ash, Quietfox, Dogwood, Elder" + ALIVE,
    ),
    ("Host", "Slyhare replaces Quietfox. Day 1 ends in 48 hours."),
    ("Slyhare", "hi all"),
    (
        "Host",
        "Vote Count 1.2<br>Ash (1): Cherry<br>Not voting: Ash, Slyhare, Dogwood, Elder" + ALIVE,
    ),
]


def test_update_writes_the_earliest_takeover_first_then_reads_what_the_moderator_announces_for_it():
    """Two takeovers in one update: Quietfox's is written, the moderator's "Slyhare replaces
    Quietfox" is then read (cited, from its post), and no takeover is made of Slyhare, as a live
    game's updates would write them."""
    posts = thread(*ANNOUNCED_AFTER_A_TAKEOVER)
    report = plan_update(
        GAME, posts, path="fox.toml", takeovers=lambda game: takeovers(posts, game_text(game))
    )
    bell = parse_game(report.text).seat("Bell")
    assert (bell.accounts, bell.replacement_posts) == (("Bell", "Quietfox", "Slyhare"), (2, 4))
    assert '"Slyhare replaces Quietfox.' in report.text and not report.disagreements


def game_text(game) -> str:
    """The game file text a test's takeovers are looked for in: the game as update holds it."""
    players = "".join(
        f'\n[[players]]\nname = "{s.name}"\nreplacements = {list(s.replacements)!r}\n'.replace(
            "'", '"'
        )
        for s in game.players
    )
    return GAME.split("\n[[players]]")[0] + players + "\n[[days]]\nday = 1\nstart_post = 0\n"


def test_a_death_votal_read_from_a_later_post_gives_way_to_the_one_the_thread_tells_earlier():
    """A seat dies once: Votal's entry from a count that left Bell out (post 10) gives way, cited,
    to the lynch the moderator told of Quietfox (post 8) once Quietfox is known to hold the seat;
    the moderator's own entry stays."""
    posts = (
        renamed_bell()
        + thread(
            *[("Host", "")] * 8,
            ("Host", "Quietfox was lynched."),
            ("Ash", "gg"),
            ("Host", "Vote Count 2.1<br>Not voting: Ash, Cherry, Dogwood, Elder"),
        )[8:]
    )
    votal = GAME + '\n[[deaths]]  # post 10: "Vote Count 2.1"\nplayer = "Bell"\nphase = "night 1"\n'
    report = plan_update(
        votal, posts, path="fox.toml", takeovers=lambda game: takeovers(posts, GAME)
    )
    game = parse_game(report.text)
    assert [(d.player, d.phase, d.phase_number) for d in game.deaths] == [("Bell", "day", 1)]
    assert any("revises Votal's reading of post 10" in line for line in report.written)
    assert '# post 8: "Quietfox was lynched."' in report.text
    theirs = votal.replace('[[deaths]]  # post 10: "Vote Count 2.1"', "[[deaths]]")
    report = plan_update(
        theirs, posts, path="fox.toml", takeovers=lambda game: takeovers(posts, GAME)
    )
    assert [(d.player, d.phase) for d in parse_game(report.text).deaths] == [("Bell", "night")]
    assert any("is already dead" in line or "file kept" in line for line in report.disagreements)


def test_reading_again_after_a_takeover_gives_an_ended_day_the_deadline_a_running_day_gets():
    """A day's deadline is written whether or not the day has ended since (its declared end_post
    decides the day), so a file kept live, which met the deadline while the day ran, and one written
    on the finished thread agree: the posts read again after a takeover give day 1, ended, the same
    `end` as the running day gets."""
    from datetime import UTC, datetime, timedelta

    def timed(*posts):
        return [
            SimpleNamespace(
                **{**vars(p), "time": datetime(2026, 3, 1, tzinfo=UTC) + timedelta(hours=p.number)}
            )
            for p in thread(*posts)
        ]

    posts = timed(*ANNOUNCED_AFTER_A_TAKEOVER, ("Host", "Cherry was lynched. Night 1 begins."))
    text = GAME.replace("start_post = 0\n", f"start_post = 0\nend_post = {len(posts) - 1}\n")
    report = plan_update(
        text, posts, path="fox.toml", takeovers=lambda game: takeovers(posts, game_text(game))
    )
    assert parse_game(report.text).seat("Bell").accounts == ("Bell", "Quietfox", "Slyhare")
    ended = parse_game(report.text).day(1)
    running = timed(*ANNOUNCED_AFTER_A_TAKEOVER)
    report = plan_update(
        GAME, running, path="fox.toml", takeovers=lambda game: takeovers(running, game_text(game))
    )
    assert parse_game(report.text).day(1).end is not None
    assert (ended.end_post, ended.end) == (len(posts) - 1, parse_game(report.text).day(1).end)


def test_a_seat_whose_later_account_posts_later_is_taken_over_by_no_stranger():
    """The file names a later account for Bell's seat (a list kept up to date): that account holds
    the seat whenever it posts, so a stranger the counts place there is no takeover of it; Bell's
    own later post is no such account and undoes nothing."""
    listed = GAME.replace('name = "Bell"\n', 'name = "Bell"\nreplacements = ["Bellamy"]\n')
    posts = renamed_bell() + thread(*[("Host", "")] * 8, ("Bellamy", "here now"))[8:]
    assert takeovers(posts, listed) == []
    assert [
        t.account
        for t in takeovers(renamed_bell() + thread(*[("Host", "")] * 8, ("Bell", "hi"))[8:])
    ] == ["Quietfox"]


# An archived thread's opening lists each seat's last holder: "Bell" stands where "Quietfox"
# played first, and Bell posts only after the count that showed Quietfox.
EDITED_OPENING = [
    ("Host", "Day 1 begins."),
    ("Quietfox", "hi, I am in"),
    (
        "Host",
        "Vote Count 1.1<br>Ash (1): Cherry<br>Not voting: Ash, Quietfox, Dogwood, Elder" + ALIVE,
    ),
    ("Bell", "replacing in, catching up"),
    ("Bell", "<b>VOTE: Ash</b>"),
    ("Host", "Vote Count 1.2<br>Ash (2): Cherry, Bell<br>Not voting: Ash, Dogwood, Elder" + ALIVE),
]


def seat_holders(posts, game=None):
    from assistant.counting.takeovers import find_seat_holders

    bodies = {p.number: p.body_html for p in posts if p.author == "Host"}
    game = parse_game(GAME) if game is None else game
    return find_seat_holders(game, load_ruleset("mafiascum"), posts, bodies=bodies)


def test_a_listed_account_that_posts_only_after_its_seats_takeover_holds_it_again():
    found = seat_holders(thread(*EDITED_OPENING))
    assert [(t.seat, t.account, t.post, t.counts, t.by) for t in found] == [
        ("Bell", "Quietfox", 1, (2,), "name"),
        ("Bell", "Bell", 3, (5,), "returns"),
    ]
    assert "lists Bell in the seat again, posting from post 3" in found[1].words()


def test_the_listed_account_is_not_back_unless_a_later_count_shows_it_playing():
    # a word from the listed account, and a count still showing Quietfox: nothing comes back
    posts = EDITED_OPENING[:4] + [
        ("Quietfox", "<b>VOTE: Ash</b>"),
        (
            "Host",
            "Vote Count 1.2<br>Ash (2): Cherry, Quietfox<br>Not voting: Ash, Dogwood, Elder"
            + ALIVE,
        ),
    ]
    assert [t.by for t in seat_holders(thread(*posts))] == ["name"]
    # the listed account posted before the takeover: an ordinary replacement, no return
    early = [EDITED_OPENING[0], ("Bell", "hello"), *EDITED_OPENING[1:]]
    assert all(t.by != "returns" for t in seat_holders(thread(*early)))


def test_update_writes_the_return_after_the_takeover_and_counts_the_listed_accounts_vote():
    posts = thread(*EDITED_OPENING)
    found = lambda game: seat_holders(posts, game)  # noqa: E731 - the store's reading
    report = plan_update(GAME, posts, path="fox.toml", takeovers=found)
    bell = parse_game(report.text).players[1]
    assert (bell.replacements, bell.replacement_posts) == (("Quietfox", "Bell"), (1, 3))
    assert any("Bell holds the seat again from post 3" in line for line in report.written)
    assert not plan_update(report.text, posts, path="fox.toml", takeovers=found).changed


def test_the_count_gives_the_seat_back_to_its_listed_account_the_file_replaced():
    from assistant.counting.count import StoredGame, count_stored
    from assistant.counting.votecounts import read_vote_count

    game = parse_game(
        GAME.replace(
            'name = "Bell"', 'name = "Bell"\nreplacements = [{name = "Quietfox", post = 1}]'
        )
    )
    posts = [
        ReadPost(p.number, str(p.number), p.author, None, "", p.commands)
        for p in thread(*EDITED_OPENING)
    ]
    counts = {
        p.number: c
        for p in posts
        if p.author == "Host"
        if (c := read_vote_count(EDITED_OPENING[p.number][1], post=p.number))
    }
    (votal,) = count_stored(game, StoredGame.of(game, posts, counts=counts), days=[1])
    assert [(w.target, list(w.voters)) for w in votal.wagons] == [("Ash", ["Bell"])]
