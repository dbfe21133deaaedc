"""The vote state machine: vote, unvote, sleep and nominate under single and multi-voting, and
L-n."""

from assistant.counting.votes import Vote, VoteBook, count_voters, standing_steps, votes_needed


def test_a_new_vote_replaces_the_old_and_a_repeat_keeps_its_first_post():
    book = VoteBook()
    assert book.vote("A", "B", (1, 0)) is None
    assert book.vote("A", "B", (2, 0)) is None  # repeat: no change, the vote stands from post 1
    assert book.vote("C", None, (4, 0)) is None  # a sleep vote
    assert book.unvote("A", 5) == (None, [Vote("B", (1, 0))])
    assert book.vote("C", "A", (6, 0)) is None
    assert [(post, state) for post, state in standing_steps(book.changes)] == [
        (1, {"A": (("B", 1),)}),
        (4, {"A": (("B", 1),), "C": ((None, 4),)}),
        (5, {"C": ((None, 4),)}),
        (6, {"C": (("A", 6),)}),
    ]


def test_multi_voting_adds_up_and_a_sleep_vote_replaces_them_all():
    book = VoteBook(multi_vote=True)
    book.vote("A", "B", (1, 0))
    book.vote("A", "C", (2, 0))
    assert book.unvote("A", 3, named=True, target="B")[0] is None
    assert book.unvote("A", 3, named=True, target="Z") == ("was not voting for that target", [])
    book.vote("D", "C", (4, 0))
    assert count_voters(standing_steps(book.changes)[-1][1]) == {"C": 2}
    book.vote("D", None, (5, 0))
    book.vote("D", "B", (6, 0))  # a real vote ends the sleep vote
    book.vote("A", "B", (7, 0), single=True)  # one vote only (the dead): replaces the others
    assert standing_steps(book.changes)[-1][1] == {"A": (("B", 7),), "D": (("B", 6),)}


def test_require_unvote_refuses_a_second_vote_until_the_first_is_taken_back():
    book = VoteBook(require_unvote=True)
    book.vote("A", None, (1, 0))
    assert book.vote("A", "B", (2, 0)) == "already voting: unvote first"
    book.unvote(
        "A", 3, named=True, target="Q"
    )  # single vote: "UNVOTE: Q" while voting sleep still unvotes
    assert book.vote("A", "B", (4, 0)) is None
    assert book.vote("A", "C", (5, 0)) == "already voting B: unvote first"
    assert book.unvote("Z", 6) == ("no vote to remove", [])


def test_votes_needed_is_the_l_number_in_whole_votes():
    assert [votes_needed(v, 7) for v in (0, 5, 6, 7, 9, 6.5, 5.5)] == [7, 2, 1, 0, 0, 1, 2]
    assert votes_needed(3, None) is None


def test_a_split_doublevoter_places_votes_one_at_a_time_and_unvotes_one_or_all():
    book = VoteBook(split={"Vic": 2})
    book.vote("Vic", "Bob", (1, 0))
    book.vote("Vic", "Carol", (2, 0))
    assert [v.target for v in book.votes_of("Vic")] == ["Bob", "Carol"]
    book.vote("Vic", "Erin", (3, 0))  # both placed: the oldest moves
    assert [v.target for v in book.votes_of("Vic")] == ["Carol", "Erin"]
    assert book.unvote("Vic", 4, named=True, target="Bob")[0] == "was not voting for that target"
    book.unvote("Vic", 5, named=True, target="Carol")
    assert [v.target for v in book.votes_of("Vic")] == ["Erin"]
    book.vote("Vic", "Bob", (6, 0))
    book.unvote("Vic", 7)
    assert book.votes_of("Vic") == []
