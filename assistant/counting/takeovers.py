"""Seats the moderator's own vote counts show held by an account the game file does not list.

A player's account renamed mid-game ("GreyICE" posting for the listed "Greymarble"), or a
replacement the moderator never announced, leaves a seat that stops posting and an unlisted account
whose votes Votal refuses ("not a player"): every majority after it is one vote short. The
moderator's counts tell who holds the seat, in two ways:

* **by name**: a complete count (every living player listed once) names the unlisted account where
  one living seat is missing ("Soben 0" in the row of "splitfarvie");
* **by votes**: the counts place the silent seat, again and again, exactly where the unlisted
  account's last vote stands, and never elsewhere while it has one, and that is not where the seat's
  own last vote stands.

Each takeover found names the seat, the account, the post it holds the seat from (the account's
first post: the seat's listed accounts post nothing after it) and the counts that show it; `votal
update` writes it as a cited replacement for the moderator to review. The counts are read in order,
as a live game's updates read them: a takeover shown explains its account in every later count, and
the seat is the new account's too, so a later account may take it over in turn. An account that
looks like a listed one (a look-alike) is never taken: that is an impersonation to flag, not a seat
to give. Pure: posts and counts in, takeovers out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from assistant.counting.living import alive_seats
from assistant.counting.votecounts import posted_votes, read_vote_count
from assistant.gamefile.game import DayDecl, Game, Seat
from assistant.gamefile.rules import Ruleset
from assistant.reading.names import NO_ELIMINATION, Roster, fold_name, resolve_name
from assistant.reading.posted_count import PostedCount
from parsers.reading import ReadPost

# Counts that must place the seat where the account votes: one placement can be a slip of the
# moderator's.
MIN_VOTE_COUNTS = 2


class ShownBy(StrEnum):
    """What shows a seat held by an unlisted account."""

    NAME = "name"  # a complete count names the account where the seat was
    VOTES = "votes"  # the counts place the silent seat where the account votes
    SPELLED = "spelled"  # the account is the listed name spelled otherwise
    RETURNS = "returns"  # the seat's own account, listed again after a takeover


@dataclass(frozen=True)
class Takeover:
    seat: str
    account: str
    post: int  # the account holds the seat from here (its first post)
    counts: tuple[int, ...]  # the moderator's counts that show it
    by: ShownBy

    def words(self) -> str:
        """Why, in a line for the game file's comment."""
        at = _posts(self.counts)
        if self.by == ShownBy.SPELLED:
            return (
                f"{self.account} posts from post {self.post} as the listed {self.seat} spelled otherwise; "
                f"no account of {self.seat} has posted"
            )
        if self.by == ShownBy.RETURNS:
            verb = "lists" if len(self.counts) == 1 else "list"
            return f"{at} {verb} {self.account} in the seat again, posting from post {self.post}"
        if self.by == ShownBy.NAME:
            verb = "lists" if len(self.counts) == 1 else "list"
            return (
                f"{at} {verb} {self.account} where {self.seat} was; {self.account} posts from "
                f"post {self.post}"
            )
        return (
            f"{at} place {self.seat} where {self.account} votes; {self.seat} posts no more from post "
            f"{self.post}, when {self.account} starts"
        )


@dataclass
class _Posters:
    """Who posted: each unlisted account's first post, each seat's last post by a listed account,
    and the unlisted accounts that voted (within the posts asked for)."""

    first: dict[str, int] = field(
        default_factory=dict
    )  # unlisted account, as it posts -> its first post
    last_of_seat: dict[str, int] = field(default_factory=dict)
    voted: set[str] = field(default_factory=set)


def _posters(
    game: Game,
    posts: Sequence[ReadPost],
    *,
    voted_from: int | None = None,
    voted_to: int | None = None,
) -> _Posters:
    listed = {fold_name(a): seat.name for seat in game.players for a in seat.accounts}
    moderators = {fold_name(m) for m in game.moderators}
    found = _Posters()
    for post in posts:
        key = fold_name(post.author)
        if key in listed:
            found.last_of_seat[listed[key]] = post.number
        elif key and key not in moderators:
            found.first.setdefault(post.author, post.number)
            if (
                (voted_from is None or post.number >= voted_from)
                and (voted_to is None or post.number <= voted_to)
                and any(c.action == "vote" for c in post.commands or ())
            ):
                found.voted.add(post.author)
    return found


def could_take_over(
    game: Game,
    posts: Sequence[ReadPost],
    *,
    voted_from: int | None = None,
    voted_to: int | None = None,
) -> bool:
    """Whether a takeover is possible at all (cheap: most games have none, and then there is nothing
    to look for): an account that is neither listed nor a moderator voted (between posts
    ``voted_from`` and ``voted_to``, when given), and some seat's listed accounts posted nothing
    from that account's first post on."""
    found = _posters(game, posts, voted_from=voted_from, voted_to=voted_to)
    silent_since = min(
        (found.last_of_seat.get(seat.name, -1) for seat in game.players), default=None
    )
    return silent_since is not None and any(found.first[a] > silent_since for a in found.voted)


def find_takeovers(
    game: Game,
    ruleset: Ruleset,
    posts: Sequence[ReadPost],
    bodies: Mapping[int, str],
    *,
    roster: Roster | None = None,
    counts: Mapping[int, PostedCount] | None = None,
) -> list[Takeover]:
    """The takeovers the counts in ``bodies`` (the moderators' posts, by number) show, over
    ``posts`` (the thread's posts with their commands, in order); ``roster``: the game's, when the
    caller has it already; ``counts``: the counts those posts hold, when already read (then
    ``bodies`` is not read)."""
    if roster is None:
        roster = Roster.from_game(
            game, ruleset, authors=[(p.author, getattr(p, "author_id", None)) for p in posts]
        )
    candidates = {
        account: number
        for account, number in _posters(game, posts).first.items()
        if not roster.authors.lookalike(account)
    }
    if not candidates or not game.players:
        return []
    if counts is None:
        counts = {
            n: count
            for n, body in bodies.items()
            if (count := read_vote_count(body, post=n)) is not None
        }
    held = _held_counts(game, counts)
    standing = _standings(
        posts, [(count.post, start, living) for count, start, living in held], roster
    )
    evidence = _Evidence(game, candidates, _SeatPosts.of(game, posts, candidates))
    by_fold = {fold_name(a): a for a in candidates}
    for count, _, living in held:
        # the counts in order: a takeover shown explains its account in every later count
        for seat, account in _named(count, roster, living, by_fold, evidence.seat_of_taken()):
            evidence.found.setdefault((seat, account), (ShownBy.NAME, []))[1].append(count.post)
        evidence.weigh_votes(
            count, living, standing[count.post], posted_votes(count, roster, living)
        )
        evidence.settle(count.post)
    return [
        Takeover(seat, account, candidates[account], counts_, by)
        for account, (seat, by, counts_) in evidence.taken.items()
    ]


def _held_counts(
    game: Game, counts: Mapping[int, PostedCount]
) -> list[tuple[PostedCount, int, frozenset[str]]]:
    """Each count in post order with its day's first post and the seats living then."""
    return [
        (count, start, frozenset(alive_seats(game, day.day, at_post=count.post)))
        for n, count in sorted(counts.items())
        if (day := _day_of(game, n)) is not None and (start := day.start_post) is not None
    ]


@dataclass
class _SeatPosts:
    """Each seat's posts by its first account and each candidate's (``posted``), and the last post
    of a later account the file names for a seat (``later``)."""

    posted: dict[str, list[int]]
    later: dict[str, int]

    @classmethod
    def of(cls, game: Game, posts: Sequence[ReadPost], candidates: Mapping[str, int]) -> _SeatPosts:
        # a seat still posting when a count is made is its own; what that account posts after a
        # count that showed the takeover undoes nothing (a live game's update read that count
        # before those posts were made). A later account the file names for the seat holds it
        # whenever it posts: no stranger takes that seat over before it.
        first = {fold_name(seat.name): seat.name for seat in game.players}
        later = {fold_name(a): seat.name for seat in game.players for a in seat.accounts[1:]}
        found = cls({}, {})
        for post in posts:
            key = fold_name(post.author)
            if key in first:
                found.posted.setdefault(first[key], []).append(post.number)
            elif key in later:
                found.later[later[key]] = post.number
            elif post.author in candidates:
                found.posted.setdefault(post.author, []).append(post.number)
        return found

    def last(self, seat: str, at: int, holders: Sequence[str]) -> int:
        """The seat's last post up to ``at`` by its first account or ``holders`` (those counts
        showed taking it over), or the last post of a later account the file names for it."""
        return max(
            self.later.get(seat, -1),
            *(_last_before(self.posted.get(h, ()), at) for h in (seat, *holders)),
        )


@dataclass
class _Evidence:
    """What the counts read so far show: the (seat, account) pairs found by name or by votes with
    the counts that show them, the pairs a count refuted, and the takeovers settled."""

    game: Game
    candidates: Mapping[str, int]  # unlisted account -> its first post
    seat_posts: _SeatPosts
    found: dict[tuple[str, str], tuple[ShownBy, list[int]]] = field(default_factory=dict)
    refuted: set[tuple[str, str]] = field(default_factory=set)
    # account -> (seat, by, counts), as the counts showed
    taken: dict[str, tuple[str, ShownBy, tuple[int, ...]]] = field(default_factory=dict)

    def seat_of_taken(self) -> dict[str, str]:
        return {a: t[0] for a, t in self.taken.items()}

    def holders(self, seat: str) -> list[str]:
        """The accounts the counts showed taking ``seat`` over."""
        return [a for a, t in self.taken.items() if t[0] == seat]

    def last_of_seat(self, seat: str, at: int) -> int:
        return self.seat_posts.last(seat, at, self.holders(seat))

    def weigh_votes(
        self,
        count: PostedCount,
        living: frozenset[str],
        votes: Mapping[str, str | None],
        placed: Mapping[str, str | None],
    ) -> None:
        """Record where ``count`` places each silent seat against each candidate's last vote."""
        for account, since in self.candidates.items():
            theirs = votes.get(fold_name(account))
            if theirs is None or since > count.post or account in self.taken:
                continue
            for seat in living:
                if self.last_of_seat(seat, count.post) >= since:
                    continue  # the seat's own account still posts: not taken over
                where = placed.get(seat)
                if where is None:
                    continue
                if where != theirs:
                    self.refuted.add((seat, account))
                elif _own_vote(votes, self.game, seat, self.holders(seat)) != where:
                    self.found.setdefault((seat, account), (ShownBy.VOTES, []))[1].append(
                        count.post
                    )

    def settle(self, at: int) -> None:
        """Take the pairs shown enough by the count at ``at``: one account, one seat; one seat,
        one account."""
        shown = [
            (seat, account)
            for (seat, account), (by, counts_) in self.found.items()
            if account not in self.taken
            if (seat, account) not in self.refuted or by == ShownBy.NAME
            if by == ShownBy.NAME or len(counts_) >= MIN_VOTE_COUNTS
            if self.last_of_seat(seat, at) < self.candidates[account]
        ]
        for seat, account in shown:
            if sum(a == account for _, a in shown) == 1 and sum(s == seat for s, _ in shown) == 1:
                by, counts_ = self.found[(seat, account)]
                self.taken[account] = (
                    seat,
                    by,
                    tuple(counts_),
                )  # the seat's from its first post on


def find_spelled(
    game: Game, ruleset: Ruleset, posts: Sequence[ReadPost], *, roster: Roster | None = None
) -> list[Takeover]:
    """The seats listed before their players posted that an unlisted account holds because it is the
    listed name as the forum spells it (case, spaces, accents, trailing digits, one letter slipped
    or two swapped, as the list reader meets the moderator's names with the accounts), while no
    account of the seat has posted. A look-alike of a listed account (same TR39 skeleton) is
    refused, as everywhere."""
    from assistant.reading.announcements.accounts import Names

    if roster is None:
        roster = Roster.from_game(
            game, ruleset, authors=[(p.author, getattr(p, "author_id", None)) for p in posts]
        )
    posters = _posters(game, posts)
    candidates = {a: n for a, n in posters.first.items() if not roster.authors.lookalike(a)}
    if not candidates:
        return []
    unlisted = Names({account: [account] for account in candidates})
    found: dict[str, list[Takeover]] = {}
    for seat in game.players:
        if seat.name in posters.last_of_seat:
            continue
        account = unlisted.spelled(seat.name)
        if account in candidates and account != seat.name:
            found.setdefault(account, []).append(
                Takeover(seat.name, account, candidates[account], (), ShownBy.SPELLED)
            )
    return [
        takeovers[0] for takeovers in found.values() if len(takeovers) == 1
    ]  # one account, one seat


def find_seat_holders(
    game: Game,
    ruleset: Ruleset,
    posts: Sequence[ReadPost],
    *,
    roster: Roster | None = None,
    counts: Mapping[int, PostedCount] | None = None,
    bodies: Mapping[int, str] | None = None,
) -> list[Takeover]:
    """Every seat an unlisted account holds, as the count and `votal update` both take them: a
    listed name's own account first (:func:`find_spelled`: a seat it holds is no other account's
    takeover), then the takeovers the moderator's counts show (``counts``, else read from
    ``bodies``), then the listed accounts those counts show back in their seats
    (:func:`find_returns`)."""
    if counts is None:
        counts = {
            n: count
            for n, body in (bodies or {}).items()
            if (count := read_vote_count(body, post=n)) is not None
        }
    spelled = find_spelled(game, ruleset, posts, roster=roster)
    held = {t.seat for t in spelled} | {t.account for t in spelled}
    shown = find_takeovers(game, ruleset, posts, {}, roster=roster, counts=counts)
    holders = spelled + [t for t in shown if t.seat not in held and t.account not in held]
    return holders + find_returns(with_holders(game, holders), posts, counts)


def find_returns(
    game: Game, posts: Sequence[ReadPost], counts: Mapping[int, PostedCount]
) -> list[Takeover]:
    """The seats whose listed account first posts only after its replacements: an opening edited
    after the game names each seat's last holder, so when a moderator's count made after that
    account's first post names it and not the seat's latest replacement, it took the seat back
    from that post."""
    posted = _posts_by_account(posts)
    returns = []
    for seat in game.players:
        back = _return_post(seat, posted)
        if back is None:
            continue
        holder = fold_name(seat.accounts[-1])
        shown = [
            n
            for n, count in sorted(counts.items())
            if n > back
            and fold_name(seat.name) in (names := _players_named(count))
            and holder not in names
        ]
        if shown:
            returns.append(Takeover(seat.name, seat.name, back, (shown[0],), ShownBy.RETURNS))
    return returns


def _return_post(seat: Seat, posted: Mapping[str, list[int]]) -> int | None:
    """The first post of the seat's listed account when it posts only after every replacement the
    file dates, and is not listed again among them; else None."""
    dated = [p for p in seat.replacement_posts if p is not None]
    if not dated or fold_name(seat.name) in {fold_name(a) for a in seat.replacements}:
        return None
    own = posted.get(fold_name(seat.name), [])
    return own[0] if own and own[0] > max(dated) else None


def could_return(game: Game, posts: Sequence[ReadPost]) -> bool:
    """Whether some seat's listed account posts only after its dated replacements (cheap: most
    games have none)."""
    posted = _posts_by_account(posts)
    return any(_return_post(seat, posted) is not None for seat in game.players)


def _posts_by_account(posts: Sequence[ReadPost]) -> dict[str, list[int]]:
    posted: dict[str, list[int]] = {}
    for post in posts:
        posted.setdefault(fold_name(post.author), []).append(post.number)
    return posted


def _players_named(count: PostedCount) -> set[str]:
    """The players a count shows acting, folded: each voter and each not voting (a wagon's name
    may be the seat's name kept from the list)."""
    names = [v for w in count.wagons for v in w.voters]
    return {fold_name(name) for name in (*names, *count.not_voting) if name}


def with_holders(game: Game, holders: Sequence[Takeover]) -> Game:
    """``game`` with each holder's account as its seat's replacement from the holder's first post,
    as `votal update` would write it (an account the seat already lists is left as the file has
    it, but for a listed account back in its seat)."""
    from dataclasses import replace

    new: dict[str, list[Takeover]] = {}
    for holder in sorted(holders, key=lambda t: t.post):
        new.setdefault(holder.seat, []).append(holder)
    seats = []
    for seat in game.players:
        for holder in new.get(seat.name, []):
            listed = {fold_name(a) for a in seat.replacements}
            if holder.by != ShownBy.RETURNS:
                listed.add(fold_name(seat.name))
            if fold_name(holder.account) in listed:
                continue
            posts = seat.replacement_posts or (None,) * len(seat.replacements)
            seat = replace(
                seat,
                replacements=(*seat.replacements, holder.account),
                replacement_posts=(*posts, holder.post),
            )
        seats.append(seat)
    return replace(game, players=tuple(seats))


def _named(
    count: PostedCount,
    roster: Roster,
    living: frozenset[str],
    by_fold: Mapping[str, str],
    taken: Mapping[str, str],
) -> list[tuple[str, str]]:
    """(seat, account) when a complete count lists one unlisted account (``by_fold``: the candidates
    by their folded name) and leaves out one living seat; ``taken``: the accounts earlier counts
    showed holding a seat (account -> seat), each read as its seat."""
    names = (
        [w.target for w in count.wagons if w.votes or not w.voters]
        + [v for w in count.wagons for v in w.voters]
        + list(count.not_voting)
    )
    seats: set[str] = set()
    strangers: set[str] = set()
    for name in names:
        seat = resolve_name(name, roster, alive=living).seat
        if seat is not None and seat != NO_ELIMINATION:
            seats.add(seat)
        elif fold_name(name) in by_fold:
            account = by_fold[fold_name(name)]
            if account in taken:
                seats.add(taken[account])
            else:
                strangers.add(account)
    missing = living - seats
    if (
        len(strangers) != 1
        or len(missing) != 1
        or (count.alive is not None and count.alive != len(seats) + 1)
    ):
        return []
    return [(next(iter(missing)), next(iter(strangers)))]


def _standings(
    posts: Sequence[ReadPost], moments: Sequence[tuple[int, int, frozenset[str]]], roster: Roster
) -> dict[int, dict[str, str | None]]:
    """For each (count's post, its day's first post, the living then): each author's (folded) last
    vote on that day before the count (a seat, NO_ELIMINATION, or None). One pass over the
    thread."""
    standing: dict[int, dict[str, str | None]] = {}
    votes: dict[str, str | None] = {}
    day_start: int | None = None
    pending = list(moments)
    for post in [*posts, None]:
        while pending and (post is None or post.number >= pending[0][0]):
            at, start, _ = pending.pop(0)
            standing[at] = dict(votes) if start == day_start else {}
        if post is None or not pending:
            break
        at, start, living = pending[0]
        if start != day_start:
            votes, day_start = {}, start
        if post.number < start:
            continue
        for command in post.commands or ():
            if command.action == "unvote":
                votes[fold_name(post.author)] = None
            elif command.action == "vote" and command.target:
                found = resolve_name(command.target, roster, alive=living)
                votes[fold_name(post.author)] = (
                    NO_ELIMINATION if found.no_elimination else found.seat
                )
    return standing


def _last_before(numbers: Sequence[int], at: int) -> int:
    """The last of ``numbers`` (ascending) up to ``at``, else -1."""
    from bisect import bisect_right

    index = bisect_right(numbers, at)
    return numbers[index - 1] if index else -1


def _own_vote(
    votes: Mapping[str, str | None], game: Game, seat: str, taken: Sequence[str] = ()
) -> str | None:
    """Where the seat's own accounts last voted (the latest listed account that voted, then the
    accounts earlier counts showed taking it over, ``taken``)."""
    holder = next(s for s in game.players if s.name == seat)
    own = [votes[fold_name(a)] for a in (*holder.accounts, *taken) if fold_name(a) in votes]
    return own[-1] if own else None


def _day_of(game: Game, post: int) -> DayDecl | None:
    """The declared day whose posts hold ``post`` (a count after a day's end belongs to that
    day)."""
    for day in sorted(game.days, key=lambda d: d.day, reverse=True):
        if day.start_post is not None and day.start_post < post:
            return day
    return None


def _posts(numbers: Sequence[int]) -> str:
    if len(numbers) == 1:
        return f"the count at post {numbers[0]}"
    shown = [str(n) for n in numbers[:4]] + (["…"] if len(numbers) > 4 else [])
    return f"the counts at posts {', '.join(shown)}"
