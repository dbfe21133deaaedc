"""Who is alive when: deaths, returns (the Witchhunt 9.0 Magician) and mod-kills."""

from support import game_toml

from assistant.counting.living import alive_seats, change_posts
from assistant.gamefile.game import parse_game

HEAD = game_toml(["Ann", "Bob", "Cat"], title="t", ruleset="witchhunt-9.0", moderators=())


def test_a_return_brings_a_seat_back_from_its_day_without_rewriting_the_days_before():
    # witchhunt-rules-9.0.txt, Magician: "If you die before Halftime, your death is fake. The
    # morning after Halftime, reveal that you are alive."
    g = parse_game(
        HEAD
        + '[[deaths]]\nplayer = "Bob"\nphase = "night 1"\n[[events]]\nday = 4\nkind = "return"\nplayer = "Bob"\n'
    )
    assert [alive_seats(g, d) for d in (1, 2, 3, 4, 5)] == [
        ("Ann", "Bob", "Cat"),
        ("Ann", "Cat"),
        ("Ann", "Cat"),
        ("Ann", "Bob", "Cat"),
        ("Ann", "Bob", "Cat"),
    ]


def test_a_seat_that_returned_can_die_again():
    g = parse_game(
        HEAD
        + '[[deaths]]\nplayer = "Bob"\nphase = "night 1"\n'
        + '[[events]]\nday = 4\nkind = "return"\nplayer = "Bob"\npost = 40\n'
        + '[[deaths]]\nplayer = "Bob"\nphase = "day 5"\npost = 55\n'
    )
    assert alive_seats(g, 4, at_post=39) == ("Ann", "Cat")
    assert alive_seats(g, 4, at_post=40) == ("Ann", "Bob", "Cat")
    assert alive_seats(g, 5, at_post=54) == ("Ann", "Bob", "Cat")
    assert alive_seats(g, 5, at_post=55) == ("Ann", "Cat")
    assert change_posts(g) == [40, 55]


def test_a_mod_kill_kills_at_its_post():
    g = parse_game(HEAD + '[[events]]\nday = 2\nkind = "modkill"\nplayer = "Cat"\npost = 20\n')
    assert alive_seats(g, 2, at_post=19) == ("Ann", "Bob", "Cat")
    assert alive_seats(g, 2, at_post=20) == ("Ann", "Bob")
    assert alive_seats(g, 3) == ("Ann", "Bob")
