"""assistant.counting.powers: who holds a role's power as of a post, asked by every hook through one
module.

The books' sentences each question pins: Witch Hunt 2023 "Apprentice - ... take over their duties if
they die", Witchhunt Online 2.0.1 "Peeping Tom - ... If that role is dead, you may make decisions in
their place" and "Loose Cannon - Once per game", Millers Hollow "The badge is passed on to his
successor at the time of his death". The rule cases themselves are golden cases
(tests/golden/*judge*, *loose-cannon*, *sheriff*, *badge*).
"""

from __future__ import annotations

import pytest
from golden.harness import ExactRoster, _game_toml, read_post, resolve_exact

from assistant.counting.day_replay import DayReplay, GameReplay
from assistant.counting.powers import (
    Holder,
    alive,
    decision,
    judge_holder,
    loose_cannon_lost,
    passed_on,
)
from assistant.gamefile.game import parse_game
from assistant.gamefile.rules import load_ruleset

GAME = """ruleset = "witch-hunt-2023"
moderators = ["Mod"]
players: Ariadne, Bob, Chloe, Dion, Eris
[[days]]
day = 1
start_post = 0
end_post = 9
[[days]]
day = 2
start_post = 10
end_post = 19
[[deaths]]
player = "Ariadne"
phase = "day 2"
post = 15
[private]
judge = "Ariadne"
apprentice = "Dion"
loose_cannon = "Bob"
[[private.decisions]]
day = 2
judge = "Eris"
post = 16
"""
POSTS = ["1 Bob: vote Chloe", "11 Bob: vote Chloe", "15 Mod:", "16 Chloe:"]


def day_as_of(number: int, at_post: int | None, game_text: str = GAME) -> DayReplay:
    game = parse_game(_game_toml(game_text.splitlines()), path="powers.toml")
    replay = GameReplay.of(
        game,
        load_ruleset(game.ruleset),
        [read_post(p) for p in POSTS],
        ExactRoster(game),
        at_post=at_post,
        resolve=resolve_exact,
    )
    return DayReplay(replay, number)


@pytest.mark.parametrize(
    ("at_post", "asked", "holder"),
    [
        (
            12,
            None,
            Holder("Ariadne"),
        ),  # as of post 12 the Judge lives, whatever the day brings later
        (None, 12, Holder("Ariadne")),
        (
            None,
            15,
            Holder("Dion", instead_of="Ariadne"),
        ),  # killed at post 15: the Apprentice takes over
        (16, None, Holder("Dion", instead_of="Ariadne")),
        (None, None, Holder("Dion", instead_of="Ariadne")),  # the day's end
    ],
)
def test_the_judges_power_passes_to_the_apprentice_only_from_the_judges_death(
    at_post, asked, holder
) -> None:
    assert judge_holder(day_as_of(2, at_post), asked) == holder


def test_no_one_holds_a_dead_judges_power_without_a_living_stand_in() -> None:
    no_apprentice = GAME.replace('apprentice = "Dion"\n', "")
    assert judge_holder(day_as_of(2, None, no_apprentice)) is None
    assert judge_holder(day_as_of(2, 12, no_apprentice)) == Holder("Ariadne")


def test_a_replay_as_of_a_post_sees_no_decision_or_death_recorded_after_it() -> None:
    assert decision(day_as_of(2, 15), "judge") is None
    assert decision(day_as_of(2, 16), "judge") == ("Eris", 16)
    assert alive(
        day_as_of(2, 14), "Ariadne", 18
    )  # asked about a later post, answered as of the replay's own
    assert not alive(day_as_of(2, None), "Ariadne", 15)


def test_the_loose_cannons_power_is_lost_at_his_death_or_his_one_shot() -> None:
    assert loose_cannon_lost(day_as_of(2, None)) is None
    bob_killed = '[[deaths]]\nplayer = "Bob"\nphase = "day 2"\npost = 12\n'
    dead = GAME.replace(
        '[[deaths]]\nplayer = "Ariadne"', bob_killed + '[[deaths]]\nplayer = "Ariadne"'
    )
    assert loose_cannon_lost(day_as_of(2, None, dead), 11) is None
    assert (
        loose_cannon_lost(day_as_of(2, None, dead), 12) == "the Loose Cannon (Bob) was already dead"
    )
    shot = GAME + '[[private.decisions]]\nday = 1\nloose_cannon = "Chloe"\npost = 1\n'
    assert (
        loose_cannon_lost(day_as_of(2, None, shot))
        == "the Loose Cannon (Bob) already acted on day 1"
    )


def test_the_badge_passes_down_the_line_of_named_successors_among_the_living() -> None:
    game = parse_game(
        _game_toml(
            (
                GAME + '[[private.successors]]\nsheriff = "Bob"\nsuccessor = "Chloe"\n'
                '[[private.successors]]\nsheriff = "Chloe"\nsuccessor = "Eris"\n'
            ).splitlines()
        ),
        path="powers.toml",
    )
    assert passed_on(game, "Bob", {"Bob", "Chloe", "Eris"}) == "Bob"
    assert passed_on(game, "Bob", {"Chloe", "Eris"}) == "Chloe"
    assert passed_on(game, "Bob", {"Eris"}) == "Eris"
    assert passed_on(game, "Bob", {"Dion"}) is None
