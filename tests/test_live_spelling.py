"""A live game's names as the finished thread reads them (issue 24): a name Votal wrote before its
account posted is renamed to that account once it posts under its own spelling, everywhere the file
names it; a name the moderator typed is kept and the match said."""

from __future__ import annotations

from click.testing import CliRunner
from gamestart import PLAYERS, START
from loopback_forum import Forum, serve
from support import HOUR, as_forum_posts, stored_post

from assistant.cli.main import main
from assistant.gamefile.game import load_game
from assistant.reading.respelling import respellings
from parsers.page import Post

LIST = "Welcome to Mini 999!<br><br><b>Player List</b><br>{}<br><br>Day 1 begins now."


def _thread(players: tuple[str, ...], *more: tuple[str, str]) -> list[Post]:
    opening = LIST.format("<br>".join(f"{n}. {p}" for n, p in enumerate(players, 1)))
    return [
        stored_post(n, author, body, time=START + n * HOUR, url="")
        for n, (author, body) in enumerate([("Host", opening), *more])
    ]


def _live(tmp_path, posts: list[Post], cuts: list[int], *, edit=None) -> tuple[object, list[str]]:
    """`votal new` at the thread's first ``cuts[0]`` posts, then `votal update` as it grows to each
    later cut and to its end (``edit(text)``: the moderator's own change of the file after `new`):
    the file, each update's output."""
    forum = Forum(as_forum_posts(posts[: cuts[0]]))
    path, db = tmp_path / "game.toml", str(tmp_path / "v.db")
    said = []
    with serve(forum) as server:
        url = f"{server.base_url}/viewtopic.php?f=7&t=42"
        result = CliRunner().invoke(
            main, ["new", url, "-o", str(path), "--db", db, "--min-interval", "0"]
        )
        assert result.exit_code == 0, result.output
        if edit is not None:
            path.write_text(edit(path.read_text()))
        for cut in [*cuts[1:], len(posts)]:
            forum.posts.extend(as_forum_posts(posts[len(forum.posts) : cut]))
            result = CliRunner().invoke(main, ["update", str(path), "--db", db])
            assert result.exit_code == 0, result.output
            said.append(result.output)
    return path, said


ANNOUNCED = [
    ("Alder", "hi"),
    ("Host", "Brokenscraps replaces Elm. Thanks Brokenscraps!"),
    ("Birch", "hey"),
    ("Cedar", "<b>vote: Birch</b>"),
    ("brokenscraps", "hello all, reading up"),
    ("Damson", "hm"),
]


def test_a_replacement_written_before_its_account_posts_takes_the_accounts_spelling_once_it_does(
    tmp_path,
):
    """ "Brokenscraps replaces Elm" before the account posts: only the moderator's spelling is
    known, and it is written; once ``brokenscraps`` posts, the next update renames it, cited, as the
    finished thread reads it."""
    posts = _thread(PLAYERS, *ANNOUNCED)
    announced = next(p.number for p in posts if "replaces" in p.body_html)
    path, said = _live(tmp_path, posts, [2, announced + 2])
    assert "'Brokenscraps' -> 'brokenscraps'" not in said[0]  # the account has not posted yet
    elm = load_game(path).seat("Elm")
    assert elm.accounts == ("Elm", "brokenscraps") and elm.replacement_posts == (announced,)
    first = next(p.number for p in posts if p.author == "brokenscraps")
    assert (
        f'post {first}: "brokenscraps posts: the account Votal wrote as Brokenscraps'
        in path.read_text()
    )
    assert "replacements: 'Brokenscraps' -> 'brokenscraps'" in said[1]
    (tmp_path / "whole").mkdir()
    whole, _ = _live(tmp_path / "whole", posts, [len(posts)])
    assert (
        load_game(whole).seat("Elm").accounts == elm.accounts
    )  # as one reading of the finished thread


def test_a_listed_name_spelled_one_letter_off_is_renamed_with_its_death_once_the_account_posts(
    tmp_path,
):
    """The list's "Junipper" is killed before the account posts; the dead player's "gg" from
    ``Juniper`` (one letter off, no other account that close) renames the seat and its death."""
    listed = (*PLAYERS[:-1], "Junipper")
    votes = [
        (name, "<b>vote: Birch</b>") for name in ("Alder", "Cedar", "Damson", "Elm", "Fir", "Gorse")
    ]
    posts = _thread(
        listed,
        ("Alder", "hi"),
        *votes,
        ("Host", "Birch was lynched! Birch was a Vanilla Townie.<br>Night 1 begins."),
        ("Host", "Junipper was found dead. Junipper was a Cop.<br>Day 2 begins now."),
        ("Hazel", "rip"),
        ("Juniper", "gg, I was the cop"),
    )
    path, said = _live(tmp_path, posts, [2, len(posts) - 1])
    game = load_game(path)
    assert [s.name for s in game.players] == list(PLAYERS)
    assert ("Juniper", "night 1") in [
        (d.player, f"{d.phase} {d.phase_number}") for d in game.deaths
    ]
    assert "Junipper" not in path.read_text().split("# post")[0]
    assert "players[10].name: 'Junipper' -> 'Juniper'" in said[1]
    assert "player: 'Junipper' -> 'Juniper'" in said[1]


def test_a_name_the_moderator_typed_is_never_renamed_and_the_match_is_said(tmp_path):
    """The moderator wrote the replacement's line (no cite of Votal's): kept as typed, the account
    said."""
    posts = _thread(PLAYERS, *ANNOUNCED)

    def typed(text: str) -> str:
        assert text.count('name = "Elm"\n') == 1  # the edit below must find its line
        return text.replace(
            'name = "Elm"\n', 'name = "Elm"\nreplacements = [{name = "Brokenscraps", post = 2}]\n'
        )

    path, said = _live(tmp_path, posts, [2], edit=typed)
    assert load_game(path).seat("Elm").accounts == ("Elm", "Brokenscraps")
    assert "the moderator wrote 'Brokenscraps' (no cite of Votal's): kept" in said[0]


def _posts(*authors: str) -> list[Post]:
    return [Post(str(n), n, a, START, "hi", "") for n, a in enumerate(("Host", *authors))]


def test_a_name_is_renamed_only_to_one_close_account_placed_nowhere_else():
    """The finished reading's matching: letter case, spacing, one letter off in a long name when one
    poster alone is that close; never a name that posts as written, a moderator, an account the file
    holds, nor one account for two names."""
    found, kept = respellings(
        ["Elmo Teh Azn", "Soulmil07", "Kdub", "Alder"],
        _posts("Alder", "Elmo TeH AzN", "kdub", "Soumil07"),
        moderators=["Host"],
    )
    assert [(r.written, r.account, r.first_post) for r in found] == [
        ("Elmo Teh Azn", "Elmo TeH AzN", 2),
        ("Soulmil07", "Soumil07", 4),
        ("Kdub", "kdub", 3),
    ]
    assert not kept
    assert (
        respellings(["Elk"], _posts("Elm"))[0] == []
    )  # a short name one letter off is another name
    assert respellings(["host"], _posts(), moderators=["Host"])[0] == []
    found, kept = respellings(
        ["Prolasped Brain"], _posts("Prolapsed Brain"), held=["Prolasped Brain", "Prolapsed Brain"]
    )
    assert found == [] and [k.account for k in kept] == ["Prolapsed Brain"]
    found, kept = respellings(["Brokenscraps", "BrokenScraps"], _posts("brokenscraps"))
    assert found == [] and len(kept) == 2


def test_an_epithet_before_the_newcomer_read_again_by_update_adds_no_second_account():
    """ "Elm is replaced by the wonderful Quince!": `votal new` on the finished thread writes
    Quince; `votal update` reading the post again, with Quince in Elm's seat already, writes nothing
    more (not "the wonderful Quince")."""
    from assistant.reading.announcements import read_thread_facts

    posts = _thread(
        PLAYERS,
        ("Alder", "hi"),
        ("Host", "Elm is now replaced by the wonderful Quince!"),
        ("Quince", "hi all, reading in"),
    )
    whole = read_thread_facts(posts)
    assert [(r.player, r.new) for r in whole.replacements] == [("Elm", "Quince")]
    players = {p: [p] for p in PLAYERS} | {"Elm": ["Elm", "Quince"]}
    again = read_thread_facts(posts, moderators=["Host"], players=players, after_post=1)
    assert [(r.player, r.new) for r in again.replacements] == []
    held = {
        **players,
        "Damson": ["Damson"],
    }  # "Big Elm" beside the player Elm is still no account of Elm's
    big = _thread(PLAYERS, ("Elm", "hi"), ("Host", "Damson is replaced by Big Elm."))
    assert [
        (r.player, r.new)
        for r in read_thread_facts(
            big, moderators=["Host"], players=held, after_post=0
        ).replacements
    ] == [("Damson", "Big Elm")]


def test_a_player_who_will_be_replaced_soon_is_no_replacement_by_an_account_named_soon():
    """ "Keybladewielder will be replaced soon." names the player leaving and nobody coming: no
    account "soon" (1433's finished reading made it an earlier account of the seat)."""
    from assistant.reading.announcements import read_thread_facts

    listed = (*PLAYERS[:-1], "Keybladewielder")
    posts = _thread(
        listed,
        ("Alder", "hi"),
        ("Host", "Keybladewielder will be replaced soon."),
        ("Host", "AngryPidgeon replaces Keybladewielder effective immediately"),
        ("AngryPidgeon", "hi"),
    )
    facts = read_thread_facts(posts)
    assert [(p.name, p.replacements) for p in facts.players][-1] == ("Keybladewielder", ())
    assert [(r.player, r.new) for r in facts.replacements] == [("Keybladewielder", "AngryPidgeon")]


def test_who_replaced_names_no_account():
    """ "Quince replaces Elm who replaced Fir": "who" points back at Elm, already read; it is no
    account (1892's finished reading made "who" an account of the seat)."""
    from assistant.reading.announcements import read_thread_facts

    listed = (*PLAYERS[:4], "Fir", *PLAYERS[6:])
    posts = _thread(
        listed,
        ("Alder", "hi"),
        ("Host", "Elm replaces Fir."),
        ("Elm", "hi"),
        ("Host", "Quince replaces Elm who replaced Fir"),
        ("Quince", "hello"),
    )
    facts = read_thread_facts(posts)
    accounts = {a for p in facts.players for a in (p.name, *p.replacements)} | {
        r.new for r in facts.replacements
    }
    assert "who" not in accounts
    assert [(r.player, r.new) for r in facts.replacements] == [("Fir", "Elm"), ("Fir", "Quince")]
