"""The table of phase words: each row reads the wording it gives as its example, and rows combine as
one pattern would (the leftmost wording wins; at one place, the row listed first)."""

import pytest

from assistant.reading.announcements.phase_words import (
    NOW,
    PHASE_RULES,
    Phase,
    Wording,
    first_phase_word,
    phase_words,
)


@pytest.mark.parametrize("rule", PHASE_RULES, ids=lambda rule: rule.wording.value)
def test_each_row_reads_its_example(rule):
    word = first_phase_word(rule.example, (rule.wording,))
    assert word is not None, rule.example
    assert (word.phase, word.number) == rule.reads


def test_every_wording_has_a_row():
    assert {rule.wording for rule in PHASE_RULES} == set(Wording)


def test_the_leftmost_wording_wins_and_words_do_not_overlap():
    text = "Day 2: it is now Night 2. Welcome to Day 3"
    words = list(phase_words(text, NOW))
    assert [(w.wording, w.phase, w.number) for w in words] == [
        (Wording.HEADING, Phase.DAY, 2),
        (Wording.NOW_IN, Phase.NIGHT, 2),
        (Wording.NOW_IN, Phase.DAY, 3),
    ]
    assert all(a.end <= b.start for a, b in zip(words, words[1:], strict=False))


def test_a_countdown_or_a_plan_is_no_phase_word():
    assert first_phase_word("Night falls in 3 hours.", (Wording.NIGHT_FALLS,)) is None
    assert first_phase_word("Day 3 will be the last", NOW) is None


def test_a_phase_told_over_is_marked_over():
    word = first_phase_word("Day 4 is over, the votes are locked.", (Wording.CUE,))
    assert word is not None and word.over and (word.phase, word.number) == (Phase.DAY, 4)


def test_the_word_phase_may_stand_between_a_phase_and_its_number():
    cue = first_phase_word("The deadline for Night Phase 1 actions is Friday.", (Wording.CUE,))
    assert cue is not None and (cue.phase, cue.number) == (Phase.NIGHT, 1)
    begun = first_phase_word("Day phase two has begun!", NOW)
    assert begun is not None and (begun.phase, begun.number) == (Phase.DAY, 2)
    assert first_phase_word("Phase 2 actions are due.", (Wording.CUE,)) is None
