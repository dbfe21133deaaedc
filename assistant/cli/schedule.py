"""`votal run`: keep every game's votal current on its own schedule, politely, until Ctrl-C or
SIGTERM.

An APScheduler (3.x) BackgroundScheduler runs one self-rescheduling job per game. Each run calls the
same :func:`sync.sync_game` as `votal sync`, then raises alerts and, if anything changed, calls the
regenerate hooks (drafts, the players' page). All games share one :class:`HostLimiter` and one
robots.txt cache, so two games on one forum never double its load. The next run comes after
``[fetch] interval`` seconds, or ``fast_interval`` in the last hour before a deadline; a game is
paused between a day's end and the next day's known start when its ruleset has no night votes.

A game whose sync stored nothing new, whose game file is the same and whose clock phase (the day,
the deadline near or past) stands still is not counted again: its alerts, page and draft would come
out the same, so the run costs one conditional request and a few store reads
(:meth:`Runner.run_game`).

Every run, the first of a process included, leaves the game's page and draft (each a
:class:`GameOutput`) present and current: one is written again when a file of it is missing or when
the fingerprint it was written from (the game's state with the output's templates and the code's
version, kept in the store) differs, and only then.
"""

from __future__ import annotations

import hashlib
import logging
import os
import signal
import threading
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor as RoundPool
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.schedulers.background import BackgroundScheduler

from assistant import __version__, bundled
from assistant.counting.votal import Votal
from assistant.errors import ForumError, VotalError
from assistant.forum import store
from assistant.forum.fetch import HostLimiter, RobotsCache, Stopped, make_fetcher
from assistant.forum.sync import SyncResult, check_ruleset, sync_game
from assistant.gamefile.game import Game, load_game
from assistant.output.alerts import DEADLINE_NEAR, deliver_alerts, detect_alerts

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

    from assistant.counting.count import StoredGame

log = logging.getLogger("votal.schedule")

FAST_WINDOW = timedelta(hours=1)
FAST_INTERVAL = 60.0  # seconds between syncs in the last hour before a deadline
# seconds between re-reads of the current day's pages, for edits on earlier pages
RECHECK_EVERY = 3600.0
HISTORY_KEPT = 1000  # runs a Runner remembers

CountHook = Callable[[Game, store.Store, datetime], "Votal | None"]
PauseHook = Callable[[Game, "Votal | None", datetime], "datetime | None"]
# (game, db), or (game, db, Counted) when marked with reuses_count
RegenerateHook = Callable[..., None]
RecheckHook = Callable[[Game, store.Store, "Votal | None"], "int | None"]
# what signal.signal returns: the handler it replaced
_SignalHandler = Callable[[int, FrameType | None], object] | int | signal.Handlers | None


def choose_interval(
    game: Game,
    *,
    now: datetime,
    deadline: datetime | None,
    fast_interval: float = FAST_INTERVAL,
    fast_window: timedelta = FAST_WINDOW,
) -> float:
    """Seconds until the game's next sync: its interval, shortened in the last hour before the
    deadline (and never sleeping past the deadline itself, so the final count is read soon after
    it)."""
    interval = game.fetch.interval
    if deadline is None or deadline <= now:
        return interval
    left = (deadline - now).total_seconds()
    if left <= fast_window.total_seconds():
        return min(interval, fast_interval)
    return min(interval, max(left - fast_window.total_seconds(), fast_interval))


def find_night_end(game: Game, votal: Votal | None, now: datetime) -> datetime | None:
    """When a night with nothing to count ends, if the game is in one now; else None (the default
    pause hook).

    Paused only when the ruleset has no night votes (``night_votes`` false), the day's outcome is
    decided or its deadline has passed, and the next day's start time is known: with no known start,
    the day-start post could be missed, so the game keeps being polled.
    """
    if votal is None:
        return None
    from assistant.counting.clock import day_bounds
    from assistant.counting.count import ruleset_for

    ruleset = ruleset_for(game)
    if ruleset.night_votes:
        return None
    over = votal.outcome is not None or (votal.deadline is not None and now >= votal.deadline)
    if not over:
        return None
    start = day_bounds(game, ruleset, votal.day + 1).start
    return start if start is not None and start > now else None


def find_day_start(game: Game, db: store.Store, votal: Votal | None) -> int | None:
    """The current day's first post number (the default recheck start): declared, or the first
    stored post at or after the day's start time; None when neither is known."""
    if votal is None:
        return None
    from assistant.counting.clock import day_bounds
    from assistant.counting.count import ruleset_for

    bounds = day_bounds(game, ruleset_for(game), votal.day)
    if bounds.start_post is not None:
        return bounds.start_post
    return store.first_post_at(db, game.key, bounds.start) if bounds.start is not None else None


@dataclass
class GameRun:
    """What one scheduled run of one game did."""

    game: str
    synced: bool = False
    result: SyncResult | None = None
    error: str | None = None
    paused_until: datetime | None = None
    alerts: int = 0
    regenerated: bool = False
    next_in: float = 0.0
    rechecked_from: int | None = None  # the post number a recheck of earlier pages started at
    # counted afresh (False: nothing changed since the last count, which stood)
    counted: bool = False


@dataclass(frozen=True)
class Counted:
    """A run's count, handed to the regenerate hooks that take it (see :func:`reuses_count`) so they
    neither read the thread nor count the current day again: the moment it is as of, the current
    day's votal (None when a count hook of the caller's made it), and the thread as it was read."""

    at: datetime
    votal: Votal | None = None
    stored: StoredGame | None = None


def reuses_count(hook: Callable) -> Callable:
    """Mark a regenerate hook that takes the run's :class:`Counted` as a third argument."""
    # a function takes attributes; Callable's type has none
    setattr(hook, "reuses_count", True)  # noqa: B010
    return hook


@dataclass(frozen=True)
class _Known:
    """What a runner knows of a game between runs: a digest of the state its last count stood on
    (see :meth:`Runner._state`), the times that count's clock phase turns on, and the count itself;
    or, read back from the store by a new process (``from_store``), the digest and times only."""

    state: str
    deadline: datetime | None = None
    closes: datetime | None = None  # when a running election closes
    votal: Votal | None = None
    warnings: tuple = ()
    from_store: bool = False


@dataclass
class _RunWork:
    """What one run of a game has worked out so far."""

    key: str  # the game file's resolved path
    file_stamp: bytes | None  # None: the file could not be read
    known: _Known | None = None  # what the last run knew
    votal: Votal | None = None
    stored: StoredGame | None = None
    counted_at: datetime | None = None  # when this run counted (None: it reuses the last count)
    counted_state: str | None = None  # the state this run's count stood on
    state: str = ""  # the state after the sync


def _clock_marks(votal: Votal | None) -> tuple[datetime | None, datetime | None]:
    """The times a count's clock phase turns on: its deadline and a running election's close."""
    election = getattr(votal, "election", None)
    return (votal.deadline if votal is not None else None), getattr(election, "open_until", None)


class NoUsableGame(VotalError):
    """Every game file given to `votal run` is unusable."""

    exit_code = 2  # the command's input is wrong


@dataclass
class Runner:
    """Runs games one sync at a time each; shared by every job of one `votal run` process."""

    db_path: Path | None  # None: each game's own store, beside its game file (options.store_path)
    now: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))
    stop: threading.Event = field(default_factory=threading.Event)
    # default: one that sleeps on ``stop``, so a stop ends every wait
    limiter: HostLimiter | None = None
    robots: RobotsCache = field(default_factory=RobotsCache)
    # default: count_current_day, sharing its read of the store with the warnings
    count: CountHook | None = None
    pause: PauseHook = find_night_end
    regenerate: Sequence[RegenerateHook] = ()
    post_webhook: Callable[[str, dict], None] | None = None
    fast_interval: float = FAST_INTERVAL
    recheck_every: float = RECHECK_EVERY
    recheck_start: RecheckHook = find_day_start
    fetch_options: dict = field(default_factory=dict)
    echo: Callable[[str], None] | None = None
    # the latest runs only: a long `votal run` of many games must not grow with them
    history: deque[GameRun] = field(default_factory=lambda: deque(maxlen=HISTORY_KEPT))
    _rechecked: dict[str, datetime] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _known: dict[str, _Known] = field(default_factory=dict, repr=False)  # by game file (resolved)
    # game file -> (stamp, game)
    _games: dict[str, tuple[bytes | None, Game]] = field(default_factory=dict, repr=False)
    # a new process's first run of a game trusts the state the store says it was last counted on
    # (for `votal run --once`: a long-running process counts each game once at start, to pace it by
    # its deadline)
    trust_stored_state: bool = False
    once: bool = False  # `votal run --once`: one round, no next run
    skipped: list[str] = field(default_factory=list)  # game files run_games left out: unusable
    _idle_dbs: dict[str, list[store.Store]] = field(default_factory=dict, repr=False)  # by path
    _all_dbs: list[store.Store] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        if self.limiter is None:
            self.limiter = HostLimiter(sleep=self.stop.wait)

    def run_game(self, path: Path) -> GameRun:
        """One scheduled run: sync (unless paused), count, alert, regenerate. Never raises for a bad
        forum.

        Counting, alerts and the regenerate hooks are skipped while the game's state stands still
        (see :meth:`_state`): the count they would start from is the one the last run made."""
        path = Path(path)
        try:
            # each time: the moderator edits the game file while it runs
            game, file_stamp = self._load(path)
        except VotalError as exc:
            run = GameRun(str(path), error=str(exc), next_in=300.0)
            self._say(f"{path}: {exc}")
            return self._record(run)
        run = GameRun(game.title)
        db_path = self.store_of(game)
        db = self._take_db(db_path)
        try:
            self._run_loaded(game, db, _RunWork(str(path.resolve()), file_stamp), run)
        finally:
            self._give_db(db, db_path)
        self._say(_describe(run, once=self.once))
        return self._record(run)

    def _run_loaded(self, game: Game, db: store.Store, work: _RunWork, run: GameRun) -> None:
        """A run once its game file is loaded and its store open."""
        now = self.now()
        work.known = self._known.get(work.key) or self._stored_known(game, db, work.key)
        self._count_before_sync(game, db, work, run, now)
        run.paused_until = self.pause(game, work.votal, now)
        if run.paused_until is None:
            self._sync(game, db, run, self._recheck_from(game, db, work.votal, now))
            now = self.now()
        done = self._count_after_sync(game, db, work, run, now)
        fresh = None
        if work.counted_at is not None:
            fresh = Counted(work.counted_at, self._own(work.votal), work.stored)
        done += self._keep_outputs(game, db, run, work.state, fresh, now)
        run.regenerated = bool(done) and all(done)
        votal = work.votal
        deadline = votal.deadline if votal is not None and votal.outcome is None else None
        if run.paused_until is not None:
            run.next_in = max(1.0, (run.paused_until - now).total_seconds())
        else:
            run.next_in = choose_interval(
                game, now=now, deadline=deadline, fast_interval=self.fast_interval
            )

    def _count_before_sync(
        self, game: Game, db: store.Store, work: _RunWork, run: GameRun, now: datetime
    ) -> None:
        """The count the pause and the recheck go by: the last run's while the state stands
        still."""
        known = work.known
        needs_count = known is None or (known.from_store and self._pause_needs_votal(game))
        if (
            not needs_count
            and known is not None
            and known.state
            == self._state(game, db, work.file_stamp, known.deadline, known.closes, now)
        ):
            work.votal = known.votal
            return
        work.votal, work.stored = self._count(game, db, now)
        work.counted_at, run.counted = now, True
        work.counted_state = self._state(game, db, work.file_stamp, *_clock_marks(work.votal), now)

    def _count_after_sync(
        self, game: Game, db: store.Store, work: _RunWork, run: GameRun, now: datetime
    ) -> list[bool]:
        """Count again if the sync or the clock moved the state, alert, and call the regenerate
        hooks; returns whether each hook called succeeded."""
        known = work.known
        marks = (
            _clock_marks(work.votal)
            if run.counted or known is None
            else (known.deadline, known.closes)
        )
        work.state = self._state(game, db, work.file_stamp, *marks, now)
        if known is not None and work.state == known.state:
            # Nothing changed since the last count: its alerts are stored, its page and draft
            # written. A failed sync is still said, and unsent alerts are tried again.
            if run.counted:  # counted only to pace a game read back from the store: keep that count
                self._known[work.key] = _Known(work.state, *marks, work.votal, known.warnings)
            warned = list(known.warnings)
            run.alerts = self._alert(game, db, run, work.votal, warned, now, fresh=False)
            return []
        counted_at = work.counted_at
        # the sync stored something, or the clock moved on: count again (a state counted on was
        # counted at)
        if work.state != work.counted_state or counted_at is None:
            work.votal, work.stored = self._count(game, db, now)
            counted_at = work.counted_at = now
            run.counted = True
            marks = _clock_marks(work.votal)
            work.state = self._state(game, db, work.file_stamp, *marks, now)
        warnings = self._warnings(game, db, work.stored, counted_at)
        run.alerts = self._alert(game, db, run, work.votal, warnings, now, fresh=True)
        self._known[work.key] = _Known(work.state, *marks, work.votal, tuple(warnings))
        store.save_run_state(
            db, game.key, work.key, state=work.state, deadline=marks[0], closes=marks[1]
        )
        synced_news = run.result is not None and run.result.changed
        if synced_news or known is not None:  # a first run, nothing new: followed at start
            counted = Counted(counted_at, self._own(work.votal), work.stored)
            return self._regenerate(game, db, counted)
        return []

    def run_round(self, game_paths: Iterable[str | Path], *, max_workers: int = 4) -> list[GameRun]:
        """Run every game once now, ``max_workers`` at a time, and return their runs in order
        (`votal run --once`; a benchmark drives rounds with it). A game stopped part-way has no
        run."""
        paths = [Path(p) for p in game_paths]
        with RoundPool(max_workers=max(1, min(max_workers, len(paths)))) as pool:
            runs = list(pool.map(self.run_scheduled, paths))
        return [run for run in runs if run is not None]

    def run_scheduled(self, path: Path) -> GameRun | None:
        """:meth:`run_game` as the scheduler calls it: None when stopped, a failed run for any other
        error."""
        if self.stop.is_set():
            return None
        try:
            return self.run_game(path)
        except Stopped:
            return None
        except Exception:  # noqa: BLE001 (keep the game scheduled whatever went wrong)
            log.exception("%s: run failed", path)
            return GameRun(str(path), error="run failed", next_in=300.0)

    def close(self) -> None:
        """Close the store connections the runs kept open."""
        with self._lock:
            for db in self._all_dbs:
                db.close()
            self._all_dbs.clear()
            self._idle_dbs.clear()

    def store_of(self, game: Game) -> str:
        """The game's store: the runner's one store, else the game's own (beside its file)."""
        from assistant.cli.options import store_path

        return store_path(game, str(self.db_path) if self.db_path is not None else None)

    def _load(self, path: Path) -> tuple[Game, bytes | None]:
        """The game file, parsed again only when its text changed (compared whole: an edit within
        one tick of the file system's clock keeps the modification time)."""
        try:
            stamp = hashlib.sha1(path.read_bytes()).digest()
        except OSError:
            stamp = None  # load_game says what is wrong with it
        cached = self._games.get(str(path))
        if cached is not None and stamp is not None and cached[0] == stamp:
            return cached[1], stamp
        game = load_game(path)
        self._games[str(path)] = (stamp, game)
        return game, stamp

    def _state(
        self,
        game: Game,
        db: store.Store,
        file_stamp: bytes | None,
        deadline: datetime | None,
        closes: datetime | None,
        now: datetime,
    ) -> str:
        """A digest of what the game's count depends on besides its code: the stored posts and last
        sync (the store's stamp), the game file and a ruleset file, and the clock's phase (the
        current day, the deadline's last hour begun or the deadline passed, an election closed).
        Runs in one state give the same count, alerts, page and draft."""
        from assistant.counting.count import current_day

        ruleset = game.ruleset
        ruleset_file = (
            game.path.parent / ruleset if ruleset.endswith(".toml") or "/" in ruleset else None
        )
        ruleset_stamp = (
            ruleset_file.stat().st_mtime_ns
            if ruleset_file is not None and ruleset_file.exists()
            else None
        )
        try:
            day = current_day(game, db, at_time=now)
        except VotalError:
            day = None
        deadline_phase = (
            None if deadline is None else (now >= deadline - DEADLINE_NEAR, now >= deadline)
        )
        state = (
            store.game_stamp(db, game.key),
            file_stamp,
            ruleset_stamp,
            day,
            deadline_phase,
            closes is not None and now >= closes,
        )
        return hashlib.sha1(repr(state).encode()).hexdigest()

    def _stored_known(self, game: Game, db: store.Store, key: str) -> _Known | None:
        """What the store says the game was last counted on, when this runner trusts it (see
        ``trust_stored_state``)."""
        if not self.trust_stored_state:
            return None
        found = store.load_run_state(db, game.key, key)
        return _Known(found[0], found[1], found[2], from_store=True) if found is not None else None

    def _pause_needs_votal(self, game: Game) -> bool:
        """Whether the pause hook must see a count: the default one looks only where nights have no
        votes."""
        if self.pause is not find_night_end:
            return True
        from assistant.counting.count import ruleset_for

        try:
            return not ruleset_for(game).night_votes
        except VotalError:
            return True

    def _alert(
        self,
        game: Game,
        db: store.Store,
        run: GameRun,
        votal: Votal | None,
        warnings: list,
        now: datetime,
        *,
        fresh: bool,
    ) -> int:
        """Detect and deliver the run's alerts; with nothing ``fresh`` (the count is the last run's)
        only a sync's failure or unread posts can be new, and a webhook's unsent alerts are tried
        again."""
        problems = run.result.problems if run.result else ()
        if not fresh and not run.error and not problems:
            if not game.webhook:
                return 0
            return len(deliver_alerts(db, game, [], now=now, post=self.post_webhook))
        alerts = detect_alerts(
            game,
            votal,
            now=now,
            sync_error=run.error,
            page_problems=problems,
            warnings=warnings,
            complete=_last_sync_complete(db, game),
        )
        return len(deliver_alerts(db, game, alerts, now=now, post=self.post_webhook))

    def _take_db(self, path: str) -> store.Store:
        """A store connection for one run: kept open between runs (opening one costs the schema
        check and, on closing the last, a WAL checkpoint), never used by two runs at once."""
        with self._lock:
            if self._idle_dbs.get(path):
                return self._idle_dbs[path].pop()
        db = store.open_db(path)
        with self._lock:
            self._all_dbs.append(db)
        return db

    def _give_db(self, db: store.Store, path: str) -> None:
        # a run stopped inside a write: never hand a half transaction to the next
        if db.in_transaction:
            db.execute("ROLLBACK")
        with self._lock:
            self._idle_dbs.setdefault(path, []).append(db)

    def _recheck_from(
        self, game: Game, db: store.Store, votal: Votal | None, now: datetime
    ) -> int | None:
        """Every ``recheck_every`` seconds, re-read the current day's pages (edits on pages read
        before)."""
        last = self._rechecked.get(game.key)
        if last is not None and (now - last).total_seconds() < self.recheck_every:
            return None
        self._rechecked[game.key] = now
        if last is None:
            return None  # the first run of this process: a plain sync
        try:
            return self.recheck_start(game, db, votal)
        except VotalError as exc:
            self._say(f"{game.title}: no recheck: {exc}")
            return None

    def _sync(
        self, game: Game, db: store.Store, run: GameRun, recheck_from: int | None = None
    ) -> None:
        try:
            fetcher = make_fetcher(
                game, limiter=self.limiter, robots=self.robots, stop=self.stop, **self.fetch_options
            )
            run.result = sync_game(game, db, fetcher, now=self.now, recheck_from=recheck_from)
            run.synced = True
            run.rechecked_from = recheck_from
        except store.GameLocked as exc:
            run.error = None
            self._say(f"{game.title}: skipped: {exc}")
        except Stopped:
            raise
        except (ForumError, VotalError) as exc:
            run.error = str(exc)

    def _count(
        self, game: Game, db: store.Store, now: datetime
    ) -> tuple[Votal | None, StoredGame | None]:
        """The votal, and the thread as the count read it (for the warnings; None when a count hook
        read it)."""
        try:
            if self.count is not None:
                return self.count(game, db, now), None
            from assistant.counting.count import count_current_day, load_stored_game

            stored = load_stored_game(
                game, db
            )  # read once: the count and the warnings replay the same posts
            return count_current_day(game, db, now, stored=stored), stored
        except VotalError as exc:
            self._say(f"{game.title}: cannot count: {exc}")
        except Exception:  # noqa: BLE001 (a counting bug must not stop the other games' syncs)
            log.exception("%s: counting failed", game.title)
        return None, None

    def _warnings(
        self, game: Game, db: store.Store, stored: StoredGame | None, now: datetime
    ) -> list:
        """The warnings as of the count's moment (sharing its replay)."""
        from assistant.counting.count import current_day, game_warnings

        if store.last_post_number(db, game.key) is None:
            return []
        try:
            day = current_day(game, db, at_time=now, stored=stored)
            return game_warnings(game, db, days=[day], stored=stored, now=now)
        except VotalError as exc:  # a day Votal will not guess is said by the count already
            self._say(f"{game.title}: {exc}")
            return []

    def _regenerate(self, game: Game, db: store.Store, counted: Counted) -> list[bool]:
        """Call the hooks that run after a change (:meth:`_keep_outputs` keeps the outputs)."""
        hooks = [hook for hook in self.regenerate if not isinstance(hook, GameOutput)]
        return [self._call(hook, game, db, counted) for hook in hooks]

    def _keep_outputs(
        self,
        game: Game,
        db: store.Store,
        run: GameRun,
        state: str,
        counted: Counted | None,
        now: datetime,
    ) -> list[bool]:
        """Write each output of the game that misses a file or was written from another state or
        other templates, from the run's count (else one made now); returns whether each write
        succeeded."""
        stale = []
        for output in (hook for hook in self.regenerate if isinstance(hook, GameOutput)):
            try:
                output.keep_shared()
            except OSError as exc:  # a folder that cannot be written must not stop the game's sync
                self._say(f"{game.title}: {exc}")
            fingerprint = hashlib.sha1(repr((state, output.inputs(game))).encode()).hexdigest()
            target = os.path.abspath(output.target(game))  # no symlinks resolved: no system call
            written = store.load_output_fingerprint(db, game.key, target)
            if written != fingerprint or not all(path.exists() for path in output.files(game)):
                stale.append((output, target, fingerprint))
        if not stale:
            return []
        if counted is None:
            votal, stored = self._count(game, db, now)
            counted, run.counted = Counted(now, self._own(votal), stored), True
        done = []
        for output, target, fingerprint in stale:
            done.append(self._call(output, game, db, counted))
            if done[-1]:
                store.save_output_fingerprint(db, game.key, target, fingerprint)
        return done

    def _own(self, votal: Votal | None) -> Votal | None:
        """The count handed to the outputs: None when a count hook of the caller's made it."""
        return votal if self.count is None else None

    def _call(self, hook: RegenerateHook, game: Game, db: store.Store, counted: Counted) -> bool:
        try:
            if getattr(hook, "reuses_count", False):
                hook(game, db, counted)
            else:
                hook(game, db)
        except Exception:  # noqa: BLE001 (one failing output must not stop the others or the syncs)
            name = getattr(hook, "__name__", hook)
            log.exception("%s: regenerating with %s failed", game.title, name)
            return False
        return True

    def _record(self, run: GameRun) -> GameRun:
        with self._lock:
            self.history.append(run)
        return run

    def _say(self, line: str) -> None:
        if self.echo:
            self.echo(line)
        else:
            log.info("%s", line)


class GameOutput:
    """What `votal run` keeps current for each game (the players' page, the votal draft), callable
    as a regenerate hook. A run writes it again only when its fingerprint changed (the game's state,
    see :meth:`Runner._state`, with the output's own inputs: the code's version and its templates)
    or a file of it is missing; the fingerprint it was written from is kept in the store."""

    reuses_count = True

    def target(self, game: Game) -> Path:
        """The file or folder written, which names the output in the store."""
        raise NotImplementedError

    def files(self, game: Game) -> tuple[Path, ...]:
        """Every file the output writes: one missing is written again."""
        return (self.target(game),)

    def inputs(self, game: Game) -> tuple:
        """What the output's text depends on besides the game's state."""
        return (__version__,)

    def keep_shared(self) -> None:
        """Write what the outputs of several games share, when it is missing (default: nothing)."""

    def __call__(self, game: Game, db: store.Store, counted: Counted | None = None) -> None:
        raise NotImplementedError


@dataclass(frozen=True)
class SitePages(GameOutput):
    """The players' pages: each game's in a folder named after its game file; an index of games."""

    site_dir: Path
    now: Callable[[], datetime]

    def target(self, game: Game) -> Path:
        from assistant.output.site import page_folder

        return page_folder(self.site_dir, game)

    def files(self, game: Game) -> tuple[Path, ...]:
        from assistant.output.site import PAGE_FILES

        folder = self.target(game)
        return tuple(folder / name for name in PAGE_FILES)

    def inputs(self, game: Game) -> tuple:
        return (__version__, _folder_stamp(bundled.templates() / "site"))

    def keep_shared(self) -> None:
        from assistant.output.site import INDEX_FILES, write_index

        if not all((Path(self.site_dir) / name).exists() for name in INDEX_FILES):
            write_index(self.site_dir)

    def __call__(self, game: Game, db: store.Store, counted: Counted | None = None) -> None:
        from assistant.output.site import publish_game

        moment = counted.at if counted is not None else self.now()
        stored = counted.stored if counted is not None else None
        publish_game(game, db, self.site_dir, generated_at=moment, stored=stored)


@dataclass(frozen=True)
class VotalDrafts(GameOutput):
    """Each game's votal draft, GAME-votal.txt, in the flavour and templates of its game file."""

    drafts_dir: Path
    now: Callable[[], datetime]

    def target(self, game: Game) -> Path:
        return Path(self.drafts_dir) / f"{Path(game.path).stem}-votal.txt"

    def inputs(self, game: Game) -> tuple:
        from assistant.output.drafts import default_flavor

        flavor = default_flavor(game)
        own = [] if game.templates is None else [Path(game.templates)]
        folders = [bundled.templates() / "drafts" / flavor, *own, *(f / flavor for f in own)]
        return (__version__, *(_folder_stamp(folder) for folder in folders))

    def __call__(self, game: Game, db: store.Store, counted: Counted | None = None) -> None:
        from assistant.counting.count import count_game, current_day, ruleset_for
        from assistant.output.drafts import build_context, default_flavor, render_draft

        if counted is not None and counted.votal is not None and counted.stored is not None:
            # the run's own count: the current day as of its moment, from the thread it read
            moment, votals, posts = counted.at, [counted.votal], counted.stored.posts
            day = counted.votal.day
        else:
            moment = self.now()
            day = current_day(game, db, at_time=moment)
            votals = count_game(game, db, days=[day], at_time=moment)
            posts = store.load_read_posts(db, game.key)
        as_of = votals[0].as_of_post
        # the number the moderator's next count will get; only `votal draft votal` keeps one
        number = (
            None
            if as_of is None
            else store.number_vote_count(db, game.key, day, as_of, now=moment, keep=False)
        )
        context = build_context(
            game, ruleset_for(game), votals, day=day, now=moment, posts=posts, count_number=number
        )
        flavor = default_flavor(game)
        text = render_draft("votal", context, flavor=flavor, template_dir=game.templates)
        target = self.target(game)
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(".tmp")
        partial.write_text(text, encoding="utf-8")
        partial.replace(target)  # readers never see half a draft


def _folder_stamp(folder: Path | Traversable) -> tuple:
    """The files directly in ``folder`` by name, size and modification time (nothing when it is not
    a folder on disk: templates read from a wheel change only with the version)."""
    try:
        with os.scandir(str(folder)) as entries:
            found = [(e.name, e.stat()) for e in entries if e.is_file()]
    except OSError:
        return ()
    return tuple(sorted((name, info.st_size, info.st_mtime_ns) for name, info in found))


def regenerate_hooks(
    *, site_dir: str | Path | None, drafts_dir: str | Path | None, now: Callable[[], datetime]
) -> list[RegenerateHook]:
    """What `votal run` keeps current for each game: the players' pages (:class:`SitePages`) and the
    votal draft (:class:`VotalDrafts`). Both start from the run's count (:class:`Counted`) when it
    hands them one."""
    hooks: list[RegenerateHook] = []
    if site_dir is not None:
        hooks.append(SitePages(Path(site_dir), now))
    if drafts_dir is not None:
        hooks.append(VotalDrafts(Path(drafts_dir), now))
    return hooks


def run_games(
    game_paths: Iterable[str | Path],
    *,
    db_path: str | Path | None,
    runner: Runner | None = None,
    install_signals: bool = True,
    max_workers: int = 4,
    first_delay: float = 0.0,
    once: bool = False,
    **runner_options,
) -> Runner:
    """Sync every game on its own schedule until Ctrl-C, SIGTERM or ``runner.stop`` is set; returns
    the runner (its ``history`` holds the latest runs). A stop ends waits at once and lets a running
    sync finish its page. ``once``: run every game once now, then return (`votal run --once`, for
    cron)."""
    runner = runner or Runner(db_path=Path(db_path) if db_path else None, **runner_options)
    paths = _usable_games([Path(p) for p in game_paths], runner)
    previous = _install_signal_handlers(runner.stop) if install_signals else {}
    if once:
        runner.once = True
        # a game that stood still since the last run is not counted
        runner.trust_stored_state = True
        try:
            runner.run_round(paths, max_workers=max_workers)
        finally:
            runner.close()
            _restore_signal_handlers(previous)
        return runner
    schedule = _Schedule(runner, max(1, min(max_workers, len(paths))))
    try:
        schedule.start(paths, first_delay)
        runner.stop.wait()
    finally:
        runner.stop.set()
        # the running syncs see the stop before their next request
        schedule.scheduler.shutdown(wait=True)
        runner.close()
        _restore_signal_handlers(previous)
    runner._say("stopped")
    return runner


def _usable_games(paths: list[Path], runner: Runner) -> list[Path]:
    """The game files that load, their stores created; a bad game file or ruleset is said now and
    left out, and the other games go on (the one game file given: its error is the command's)."""
    usable, stores, unusable = [], set(), []
    for path in paths:
        try:
            game = load_game(path)
            check_ruleset(game)
            stores.add(runner.store_of(game))
            usable.append(path)
        except VotalError as exc:
            unusable.append((path, exc))
    if not usable and len(unusable) == 1:
        raise unusable[0][1]
    for path, error in unusable:
        runner.skipped.append(str(path))
        said = str(error) if str(error).startswith(str(path)) else f"{path}: {error}"
        (runner.echo or log.warning)(f"skipped {said}")  # said even with --quiet
    if not usable:
        raise NoUsableGame("no game file could be used (each is said above)")
    # each created (and switched to WAL) once, before threads open it
    for store_path in sorted(stores):
        store.open_db(store_path).close()
    return usable


class _Schedule:
    """`votal run`'s scheduler: each game's next run is booked when its run ends."""

    def __init__(self, runner: Runner, workers: int) -> None:
        self.runner = runner
        self.scheduler = BackgroundScheduler(
            timezone=UTC,
            executors={"default": ThreadPoolExecutor(max_workers=workers)},
            job_defaults={"coalesce": True, "max_instances": 1, "misfire_grace_time": None},
        )

    def start(self, paths: list[Path], first_delay: float) -> None:
        self.scheduler.start()
        start = datetime.now(UTC) + timedelta(seconds=first_delay)
        for path in paths:
            self.book(path, start)

    def book(self, path: Path, when: datetime) -> None:
        self.scheduler.add_job(
            self.job, "date", run_date=when, args=[path], id=str(path), replace_existing=True
        )

    def job(self, path: Path) -> None:
        run = self.runner.run_scheduled(path)
        if run is not None and not self.runner.stop.is_set():
            self.book(path, datetime.now(UTC) + timedelta(seconds=run.next_in))


def _install_signal_handlers(stop: threading.Event) -> dict[int, _SignalHandler]:
    previous: dict[int, _SignalHandler] = {}
    for signum in (signal.SIGINT, signal.SIGTERM):
        previous[signum] = signal.signal(signum, lambda *_: stop.set())
    return previous


def _restore_signal_handlers(previous: dict[int, _SignalHandler]) -> None:
    for signum, handler in previous.items():
        signal.signal(signum, handler)


def _last_sync_complete(db: store.Store, game: Game) -> bool:
    """Whether the store holds the whole thread as of its last sync (a failed sync may have stored
    part of it)."""
    last = store.last_sync(db, game.key)
    return last is not None and not last["error"]


def _describe(run: GameRun, *, once: bool = False) -> str:
    """The run's log line; ``once`` (`votal run --once`): no next run to announce."""
    if run.paused_until is not None:
        return f"{run.game}: night, paused until {run.paused_until:%Y-%m-%d %H:%M} UTC"
    if run.error:
        return f"{run.game}: error: {run.error}"
    if run.result is None:
        return f"{run.game}: not synced"
    r = run.result
    requests = f"{r.requests} request{'s' if r.requests != 1 else ''}"
    if r.faults:
        requests += f"; {len(r.faults)} failed and retried: {', '.join(sorted(set(_fault_kind(f) for f in r.faults)))}"
    if not r.changed:
        written = "; page and draft brought up to date" if run.regenerated else ""
        return f"{run.game}: nothing new ({requests}){written}"
    parts = [f"{r.new_posts} new"]
    if r.changed_posts:
        parts.append(f"{r.changed_posts} edited")
    if r.deleted_posts:
        parts.append(f"{r.deleted_posts} deleted")
    upcoming = "" if once else f"; next in {run.next_in:.0f} s"
    return f"{run.game}: {', '.join(parts)} ({requests}){upcoming}"


def _fault_kind(fault: str) -> str:
    return fault.split(" fetching ", 1)[0]
