"""Engine detection: from the thread URL, from the first page, and errors that say what to set."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.errors import ForumError
from parsers import discourse, phpbb, proboards, vbulletin, xenforo
from parsers.detect import ENGINES, check_engine, detect_engine, get_parser

FIXTURES = Path(__file__).parent / "fixtures"
PAGES = {
    "phpbb": "phpbb/prosilver33_t7_start0.html",
    "xenforo": "xenforo/contract_threads_game-thread.1_.html",
    "vbulletin": "vbulletin/contract_showthread.php_t-1.html",
    "proboards": "proboards/contract_thread_1_game-thread.html",
    "discourse": "discourse/contract_t_1.json",
}


def page(engine: str) -> str:
    return (FIXTURES / PAGES[engine]).read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("url", "engine"),
    [
        ("https://forum.mafiascum.net/viewtopic.php?f=53&t=15787", "phpbb"),
        ("https://games.example.org/forum/viewtopic.php?t=7&start=20", "phpbb"),
        ("https://meta.discourse.org/t/a-werewolf-game/123", "discourse"),
        ("https://meta.discourse.org/t/123/45", "discourse"),
        ("https://forums.example.com/threads/mafia-xii-the-heist.4521/", "xenforo"),
        ("https://forums.example.com/threads/4521/page-3", "xenforo"),
        ("https://forums.example.com/index.php?threads/mafia-xii.4521/", "xenforo"),
        ("https://www.mafiauniverse.com/forums/showthread.php?t=12345", "vbulletin"),
        ("https://www.mafiauniverse.com/forums/showthread.php?12345-Mini-Mafia", "vbulletin"),
        ("https://www.mafiauniverse.com/forums/showthread.php/12345-Mini-Mafia/page2", "vbulletin"),
        ("https://werewolf.proboards.com/thread/812/village-game", "proboards"),
    ],
)
def test_detect_from_url(url, engine):
    assert detect_engine(url) == engine


@pytest.mark.parametrize("engine", ENGINES)
def test_detect_from_first_page_when_the_url_says_nothing(engine):
    assert detect_engine("https://games.example.org/play/game-42", page(engine)) == engine


@pytest.mark.parametrize("engine", ENGINES)
def test_the_page_outranks_a_misleading_url(engine):
    # a forum behind a rewriting proxy: the path looks like another engine's
    misleading = (
        "https://x.example/viewtopic.php?t=1" if engine != "phpbb" else "https://x.example/t/slug/1"
    )
    assert detect_engine(misleading, page(engine)) == engine


def test_unknown_url_without_a_page_asks_for_the_forum_setting():
    with pytest.raises(ForumError) as caught:
        detect_engine("https://games.example.org/play/game-42")
    assert str(caught.value) == (
        "cannot tell which forum engine serves https://games.example.org/play/game-42 from its address alone: "
        'set forum = "phpbb" (or discourse, xenforo, vbulletin, proboards) in the game file'
    )


def test_page_no_parser_recognises_is_an_error_with_a_hint():
    with pytest.raises(ForumError, match='set forum = "phpbb"'):
        detect_engine(
            "https://games.example.org/play/game-42", "<html><body>Welcome!</body></html>"
        )


def test_wrong_forum_setting_names_the_right_one():
    with pytest.raises(ForumError) as caught:
        check_engine("xenforo", "https://games.example.org/viewtopic.php?t=7", page("phpbb"))
    assert str(caught.value) == (
        "https://games.example.org/viewtopic.php?t=7 looks like phpbb, not xenforo: "
        'set forum = "phpbb" in the game file'
    )


def test_right_forum_setting_passes():
    check_engine("vbulletin", "https://x.example/showthread.php?t=1", page("vbulletin"))


def test_get_parser():
    assert [get_parser(name) for name in ENGINES] == [
        phpbb,
        discourse,
        xenforo,
        vbulletin,
        proboards,
    ]
    assert get_parser(" XenForo ") is xenforo
    with pytest.raises(ForumError, match="unknown forum engine 'smf': use one of phpbb, discourse"):
        get_parser("smf")


@pytest.mark.parametrize("engine", ENGINES)
def test_every_parser_offers_the_same_interface(engine):
    parser = get_parser(engine)
    assert engine == parser.NAME
    assert callable(parser.parse_page) and callable(parser.page_url) and callable(parser.looks_like)
