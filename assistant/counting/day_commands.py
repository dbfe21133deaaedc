"""Reading a day's posts: what the game file says happens at a post, who wrote it, and each command
it holds judged (may this seat vote now? whom does the name mean?) and moved into the vote book.

:class:`DayCommands` is the day replay's command reader: it moves the vote book for each command
(the decider only sets votes aside, a hook may move one), says so in the state's ``changed``, and
adds the state's actions and problems; it keeps the votes whose name could not be read until a
moderator's count teaches it. It asks the count whether a self-vote would hammer, the decider for
the runoff's candidates and, under ``check = "command"``, whether a vote ends the day.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Protocol, TypedDict

from assistant.counting.day_checks import DayChecks
from assistant.counting.day_end import DayDecider
from assistant.counting.day_state import DayCount, DayState
from assistant.counting.hooks import DayPhase, Hooked, Verdict
from assistant.counting.votal import Action
from assistant.gamefile.choices import CheckAt, EditedVotes, Unbolded
from assistant.gamefile.game import Correction, Game
from assistant.gamefile.outcome import WhyNot
from assistant.gamefile.rules import Ruleset
from assistant.reading.names import GUESSED_STEPS, Resolution, Resolver, Roster, Step
from parsers.reading import Command, ReadPost


class _Replay(Protocol):
    """What the command reader reads of :class:`assistant.counting.day_replay.GameReplay` (which
    imports this module): the game, its roster and how a name is resolved."""

    game: Game
    ruleset: Ruleset
    roster: Roster
    resolve: Resolver


class _Base(TypedDict):
    """What every action of a command carries, whatever its verdict: :class:`Action`'s first
    fields."""

    post: int
    voter: str | None
    author: str
    text: str
    action: str
    corrected: bool
    url: str | None


class DayCommands:
    """The commands of the day's posts, read into the vote book. ``replay``: the
    :class:`assistant.counting.day_replay.GameReplay` (the roster, how a name is resolved)."""

    def __init__(
        self,
        replay: _Replay,
        state: DayState,
        count: DayCount,
        end: DayDecider,
        checks: DayChecks,
        moderators: set[str],
        hooked: Hooked,
    ):
        self.r, self.game, self.ruleset, self.house = (
            replay,
            replay.game,
            replay.ruleset,
            replay.game.house,
        )
        self.state, self.book, self.count, self.end, self.checks = (
            state,
            state.book,
            count,
            end,
            checks,
        )
        self.moderators, self.hooked = moderators, hooked
        game = self.game
        self.corrections = {c.post: c for c in game.corrections}
        self.resets = frozenset(r.post for r in game.resets)
        # [house] replacement_starts_unvoted: post -> seats a new account takes over at that post
        self.replaced_at: dict[int, list[str]] = {}
        if self.house.replacement_starts_unvoted:
            for seat in game.players:
                for since in seat.replacement_posts:
                    if since is not None:
                        self.replaced_at.setdefault(since, []).append(seat.name)
        # Each voter's last vote whose name could not be read: a moderator's count may teach it
        # later.
        self.unread: dict[str, tuple[Command, _Base]] = {}
        # Each voter's standing vote read by a guess, and the seat guessed: a count may differ.
        self.guessed: dict[str, tuple[Command, _Base, str]] = {}
        self.relearn()

    def relearn(self) -> None:
        """The posts from which the roster knows a spelling a moderator's count taught it (asked
        again after a count is read: it may teach one)."""
        self.teaching_posts = frozenset(
            post for _, post in getattr(self.r.roster, "learned", {}).values()
        )

    def declared_at(self, post: int, living: tuple[str, ...]) -> None:
        """What the game file says happens at ``post``, before its votes are read: the moderator
        reset the count ([[resets]]), a replacement starts with no vote ([house]), a moderator's
        count taught a name."""
        book, state = self.book, self.state
        if post in self.resets:
            book.keep_only((), post)
            self.unread.clear()
            self.guessed.clear()
            state.changed = True
        for seat in self.replaced_at.get(post, ()):
            if book.votes_of(seat):
                book.set(seat, [], post)
                state.changed = True
        if post in self.teaching_posts:
            self.reread_learned(post, living)

    def reread_learned(self, post: int, living: tuple[str, ...]) -> None:
        """A moderator's count at ``post`` taught a spelling: a standing vote typed so counts from
        here on."""
        state, book = self.state, self.book
        for seat, (command, base) in list(self.unread.items()):
            found = self.resolve(command.target or "", living, post)
            if found.step != Step.LEARNED or found.seat is None or seat not in living:
                continue
            del self.unread[seat]
            changes = len(book.changes)
            if book.vote(seat, found.seat, (post, -1), single=False) is not None:
                continue
            state.changed = state.changed or len(book.changes) > changes
            state.actions.append(_learned(base, post, found.seat))
        self.reread_guessed(post, living)

    def reread_guessed(self, post: int, living: tuple[str, ...]) -> None:
        """A count at ``post`` read a guessed name as another player it fits: the vote moves."""
        for seat, (command, base, guess) in list(self.guessed.items()):
            found = self.resolve(command.target or "", living, post)
            if found.step != Step.LEARNED or found.seat in (None, guess) or seat not in living:
                continue
            del self.guessed[seat]
            mine = self.book.votes_of(seat)
            if all(vote.target != guess for vote in mine):
                continue
            moved = [
                vote._replace(target=found.seat, order=(post, -1)) if vote.target == guess else vote
                for vote in mine
            ]
            self.book.set(seat, moved, post)
            self.state.changed = True
            self.state.actions.append(_learned(base, post, found.seat))

    def read_post(self, post: ReadPost, living: tuple[str, ...]) -> None:
        commands, corrected, why_ignored = _commands_of(
            post, self.corrections.get(post.number), self.ruleset
        )
        moderator = post.author.casefold() in self.moderators
        seat = (
            None
            if moderator
            else self.r.roster.author_match(post.author, post.author_id, post.number)[0]
        )
        stranger = self.stranger(post) if seat is None and not moderator and commands else None
        if seat is not None and _edited_commands(post):
            self.checks.edited(seat, post)
        state, actions = self.state, self.state.actions
        for index, command in enumerate(commands):
            if not command.bold and self.ruleset.unbolded != Unbolded.COUNT:
                flagged = self.ruleset.unbolded == Unbolded.FLAG
                if (
                    flagged
                    and seat is not None
                    and self.check_voter(seat, moderator, why_ignored, living).counted
                ):
                    self.flag_unbolded(post, seat, command, living)
                continue
            base = _Base(
                post=post.number,
                voter=seat,
                author=post.author,
                text=command.raw,
                action=command.action,
                corrected=corrected,
                url=post.url or None,
            )
            verdict = stranger or self.check_voter(seat, moderator, why_ignored, living)
            if not verdict.counted:
                if verdict.problem:
                    assert verdict.why is not None  # a problem always says why
                    state.add_problem(post.number, seat or post.author, command.raw, verdict.why)
                named = self.named(command, verdict, living, post.number)
                actions.append(
                    self.judged(
                        base,
                        named.seat,
                        named.step,
                        verdict,
                        order=(post.number, index),
                        no_elimination=named.no_elimination,
                    )
                )
                continue
            actions.append(self.apply(command, base, (post.number, index), living))
            if self.ruleset.check == CheckAt.COMMAND and state.outcome is None and state.changed:
                self.end.decide_early(post.number)
                state.changed = False  # decided on this count already

    def flag_unbolded(
        self, post: ReadPost, seat: str, command: Command, living: tuple[str, ...]
    ) -> None:
        """ "Please bold all votes", though the rules ask only for "vote [name]": the moderator
        decides. The name is read, so that the doubts can say what counting the vote would do."""
        self.state.add_problem(post.number, seat, command.raw, _UNBOLDED)
        self.list_uncounted(post, seat, command, living, _UNBOLDED)

    def read_night_post(self, post: ReadPost, living: tuple[str, ...]) -> None:
        """A seat's votes cast at night ("Once day is over, night starts"): no day's, each listed
        with the name it gives, so that the doubts can say what counting it would do."""
        seat = self.r.roster.author_match(post.author, post.author_id, post.number)[0]
        if seat is None or seat not in living:
            return
        for command in post.commands:
            if command.action != "vote" or not command.target:
                continue
            if not command.bold and self.ruleset.unbolded != Unbolded.COUNT:
                continue
            self.list_uncounted(post, seat, command, living, WhyNot.AT_NIGHT)

    def list_uncounted(
        self, post: ReadPost, seat: str, command: Command, living: tuple[str, ...], why: str
    ) -> None:
        """A seat's vote listed as not counted (``why``), with the name it gives read, so that the
        doubts can say what counting it would do."""
        named = _NAMES_NOBODY
        if command.target:
            named = self.resolve(command.target, living, post.number)
        self.state.actions.append(
            Action(
                post=post.number,
                voter=seat,
                author=post.author,
                text=command.raw,
                action=command.action,
                target=named.seat,
                no_elimination=named.no_elimination,
                step=named.step,
                counted=False,
                why_not=why,
                url=post.url or None,
            )
        )

    def named(
        self, command: Command, verdict: Verdict, living: tuple[str, ...], post: int
    ) -> Resolution:
        """Whom a refused voter's vote names (had it counted): the doubts ask whether it would have
        decided the day. Not read for the moderator's posts and votes after the day's end, which are
        no votes at all."""
        if command.action != "vote" or not command.target or verdict.why in _NO_VOTE_AT_ALL:
            return _NAMES_NOBODY
        return self.resolve(command.target, living, post)

    def stranger(self, post: ReadPost) -> Verdict:
        """Why a post's author holds no seat: a look-alike of a listed account, an account outside
        its replacement window, or simply not a player (:mod:`assistant.reading.identity` words
        it)."""
        authors = getattr(self.r.roster, "authors", None)
        if authors is None:
            return _NOT_A_PLAYER
        return Verdict(
            False, authors.why_not(post.author, post.author_id, post.number), problem=True
        )

    def check_voter(
        self, seat: str | None, moderator: bool, why_ignored: str | None, living: Collection[str]
    ) -> Verdict:
        if moderator:
            return _MODERATOR_POST
        if seat is None:
            return _NOT_A_PLAYER
        if why_ignored:
            return Verdict(False, why_ignored)
        if self.state.phase is DayPhase.LATE:
            return _AFTER_END
        if self.state.outcome is not None:
            return _DAY_OVER
        alive = seat in living
        verdict = _COUNTED if alive else _VOTER_DEAD
        for hook in self.hooked.check_voter:
            verdict = hook(seat, alive, verdict)
        return verdict

    def judged(
        self,
        base: _Base,
        target: str | None,
        step: Step | None,
        verdict: Verdict,
        *,
        order: tuple[int, int],
        no_elimination: bool = False,
    ) -> Action:
        """The action for a command a verdict refused or marked (a private reason stays private)."""
        why, private_why = verdict.why, None
        if verdict.private:
            private_why, why = verdict.why, WhyNot.RULED_OUT
            self.state.note(f"post {order[0]}: {base['voter']} {base['text']!r}: {verdict.why}")
        return Action(
            **base,
            target=target,
            no_elimination=no_elimination,
            step=step,
            counted=verdict.counted,
            why_not=why,
            nomination=verdict.nomination,
            private_why=private_why,
        )

    def done(
        self,
        command: Command,
        base: _Base,
        target: str | None,
        step: Step | None,
        why: str | None = None,
        *,
        no_elim: bool = False,
        problem: bool = False,
        nomination: bool = False,
        found: Resolution | None = None,
        doubt: str | None = None,
    ) -> Action:
        """The action for a command of a voter who may vote: counted when ``why`` is None.
        ``found``: the resolution of a name that could not be read (a moderator's count may teach it
        later); ``doubt``: why a refusal deserves the moderator's look."""
        seat = _seat_of(base)
        if problem:
            assert why is not None  # a problem always says why
            self.state.add_problem(base["post"], seat, command.raw, why)
        if command.action in ("vote", "unvote"):  # a later vote or unvote replaces one read weakly
            self.unread.pop(seat, None)
            self.guessed.pop(seat, None)
            if command.action == "vote" and found is not None and command.target:
                if found.reason is not None:
                    self.unread[seat] = (command, base)
                elif why is None and target is not None and found.step in GUESSED_STEPS:
                    self.guessed[seat] = (command, base, target)
        return Action(
            **base,
            target=target,
            no_elimination=no_elim,
            step=step,
            counted=why is None,
            why_not=why,
            nomination=nomination,
            doubt=(_doubt(command, found) if why is None else None) or doubt,
        )

    def apply(
        self, command: Command, base: _Base, order: tuple[int, int], living: tuple[str, ...]
    ) -> Action:
        """Move the vote book by one command of a voter who may vote now."""
        if command.action == "unvote":
            return self.unvote(command, base, order, living)
        refused = self.not_a_vote(command, base)
        if refused is not None:
            return refused
        seat, found = _seat_of(base), self.resolve(command.target or "", living, order[0])
        target, why = self.target_of(command, found, order[0], living)
        if why is not None:
            unread = found if found.seat is None and not found.no_elimination else None
            return self.done(command, base, target, found.step, why, problem=True, found=unread)
        nomination = False
        for hook in self.hooked.check_vote:
            verdict = hook(seat, target, command.action, order[0])
            if verdict is not None and not verdict.counted:
                if verdict.problem:
                    assert verdict.why is not None  # a problem always says why
                    self.state.add_problem(order[0], seat, command.raw, verdict.why)
                return self.judged(
                    base, target, found.step, verdict, order=order, no_elimination=target is None
                )
            nomination = nomination or (verdict is not None and verdict.nomination)
        why = self.cast_vote(command, seat, target, order, living)
        if why is not None:
            return self.done(
                command, base, target, found.step, why, no_elim=target is None, problem=True
            )
        return self.done(
            command,
            base,
            target,
            found.step,
            no_elim=target is None,
            nomination=nomination,
            found=found,
        )

    def not_a_vote(self, command: Command, base: _Base) -> Action | None:
        """The action of a command that is no vote, or a vote the house rules void by its form;
        None for a vote to read."""
        if command.action == "void":
            # a post of many votes (hundreds, or a joke) is one problem, so one alert: never none,
            # never hundreds
            why: str | None = f"{command.note or 'not a vote'}: {_VOID_ADVICE}"
            return self.done(command, base, None, None, why, problem=True)
        if command.action not in ("vote", "nominate"):
            why = (
                _SHERIFF_VOTE
                if command.action == "sheriff"
                else f"not a command ({command.action})"
            )
            return self.done(command, base, None, None, why)
        if command.note == "broken tag" and self.house.broken_tags_void:
            return self.done(command, base, None, None, _BROKEN_TAG_VOID, problem=True)
        if command.inline and self.house.votes_on_own_line:
            # where a line ends is read from the page's markup: the moderator should look at the
            # post
            return self.done(
                command, base, None, None, _OFF_LINE_VOID, problem=True, doubt=OFF_LINE
            )
        return None

    def cast_vote(
        self,
        command: Command,
        seat: str,
        target: str | None,
        order: tuple[int, int],
        living: tuple[str, ...],
    ) -> str | None:
        """Put the vote in the book; why it does not count (a runoff outside its candidates, a
        self-hammer the house ignores, or the book's refusal), else None."""
        if (
            self.state.phase is DayPhase.RUNOFF
            and target is not None
            and target not in self.end.candidates
        ):
            return "not in the runoff"
        if (
            target == seat
            and self.house.self_hammer_ignored
            and self.count.would_hammer(seat, order[0])
        ):
            return "a self-hammer does not count (house rule)"
        state, changes = self.state, len(self.book.changes)
        why = self.book.vote(
            seat, target, order, single=seat not in living, text=command.target or ""
        )
        state.changed = state.changed or len(self.book.changes) > changes
        return why

    def target_of(
        self, command: Command, found: Resolution, post: int, living: Collection[str]
    ) -> tuple[str | None, str | None]:
        """The seat a vote names (None: no elimination) and why it cannot count, from its resolved
        name."""
        if found.no_elimination:
            return (
                None,
                None
                if self.ruleset.no_elimination_vote
                else "no-elimination votes are not allowed",
            )
        if found.seat is None:
            if found.reason == WhyNot.TARGET_DEAD and len(found.candidates) == 1:
                return found.candidates[0], WhyNot.TARGET_DEAD  # the dead seat it names
            return None, found.reason or WhyNot.UNKNOWN_NAME
        refused = self.house.old_account_names_refused
        if refused and (old := _old_account(self.game, found.seat, command.target or "", post)):
            return found.seat, f"names {old}, an account the seat no longer plays (house rule)"
        if found.seat not in living:
            return found.seat, WhyNot.TARGET_DEAD
        return found.seat, None

    def unvote(
        self, command: Command, base: _Base, order: tuple[int, int], living: Collection[str]
    ) -> Action:
        """Take back the vote named (a no-elimination word names that vote), else every vote."""
        named, target, step, no_elim = False, None, None, False
        if command.target:
            found = self.resolve(command.target, living, order[0])
            step, no_elim = found.step, found.no_elimination
            target = None if no_elim else found.seat
            named = no_elim or target is not None  # an unknown name takes back every vote
        why, removed = self.book.unvote(_seat_of(base), order[0], named=named, target=target)
        if why is not None:
            return self.done(command, base, target, step, why, no_elim=no_elim)
        self.state.changed = True
        taken = removed[0].target if len(removed) == 1 else None
        return self.done(command, base, taken, step, no_elim=len(removed) == 1 and taken is None)

    def resolve(self, text: str, living: Collection[str], post: int | None = None) -> Resolution:
        return self.r.resolve(text, self.r.roster, alive=frozenset(living), at_post=post)


# The verdicts on a voter that need no hook: made once (a long day reads thousands of commands).
_COUNTED = Verdict()
_SHERIFF_VOTE = "a vote in the sheriff election, not a lynch vote"
_BROKEN_TAG_VOID = "a vote in a broken tag does not count (house rule)"
_OFF_LINE_VOID = "not on a line of its own: does not count (house rule)"
_VOID_ADVICE = "no vote counts until the moderator decides ([[corrections]])"
_UNBOLDED = "not in bold: the rules ask for bold votes (count it with [[corrections]] if it is one)"
_MODERATOR_POST = Verdict(False, WhyNot.MODERATOR_POST)
_NOT_A_PLAYER = Verdict(False, WhyNot.NOT_A_PLAYER, problem=True)
_NO_VOTE_AT_ALL = frozenset({WhyNot.MODERATOR_POST, WhyNot.DAY_OVER, WhyNot.AFTER_END})
_NAMES_NOBODY = Resolution("", None, None)
_AFTER_END = Verdict(False, WhyNot.AFTER_END)
_DAY_OVER = Verdict(False, WhyNot.DAY_OVER)
_VOTER_DEAD = Verdict(False, WhyNot.VOTER_DEAD, problem=True)


OFF_LINE = "off its own line"  # a vote refused under [house] votes_on_own_line: where a line ends is read from markup
_SHORT = 3  # letters: a partial name this short is a guess worth a look


def _seat_of(base: _Base) -> str:
    """The voter of a command that reached the vote book: check_voter lets only a seat's through."""
    seat = base["voter"]
    assert seat is not None
    return seat


def _learned(base: _Base, post: int, seat: str) -> Action:
    """A vote counted for ``seat`` from ``post`` on, by a spelling a moderator's count taught."""
    moved = base.copy()
    moved["post"] = post
    return Action(
        **moved,
        target=seat,
        no_elimination=False,
        step=Step.LEARNED,
        counted=True,
        why_not=None,
        doubt="learned alias",
    )


def _doubt(command: Command, found: Resolution | None) -> str | None:
    """Why a counted vote deserves the moderator's look, or None."""
    if command.note == "broken tag":
        return "broken tag"
    if found is None:
        return None
    if found.step == Step.LEARNED:
        return "learned alias"
    if found.step in (Step.PREFIX, Step.ABBREVIATION, Step.SUBSTRING, Step.ACRONYM):
        typed = found.used or command.target or ""
        if len("".join(c for c in typed if c.isalnum())) <= _SHORT and found.step != Step.ACRONYM:
            return "short prefix"
    return None


def _old_account(game: Game, seat: str, typed: str, post: int) -> str | None:
    """The account ``typed`` names when it is one ``seat`` was played by before ``post`` (else
    None)."""
    accounts = game.seat(seat).accounts
    current = accounts.index(game.seat(seat).account_at(post))
    folded = typed.strip().casefold()
    return next((a for a in accounts[:current] if a.casefold() == folded), None)


def _commands_of(
    post: ReadPost, correction: Correction | None, ruleset: Ruleset
) -> tuple[tuple[Command, ...], bool, str | None]:
    """The commands a post counts for: a moderator's correction wins, then the revision the rules
    read."""
    commands = post.commands
    edited = _edited_commands(post)
    if edited and ruleset.edited == EditedVotes.FIRST_REVISION and post.first_commands is not None:
        commands = post.first_commands
    if correction is not None:
        if correction.ignore:
            return commands, True, WhyNot.RULED_OUT
        return (Command("vote", correction.vote, correction.vote or ""),), True, None
    if post.deleted:
        return commands, False, "post deleted"
    if edited and ruleset.edited == EditedVotes.FLAG:
        return (
            commands,
            False,
            "edited after posting: the moderator decides ([[corrections]] in the game file)",
        )
    return commands, False, None


def _edited_commands(post: ReadPost) -> bool:
    """Whether an edit changed what the post commands (not just its other text)."""
    if not post.edited or post.first_commands is None:
        return False
    return [(c.action, c.target) for c in post.first_commands] != [
        (c.action, c.target) for c in post.commands
    ]
