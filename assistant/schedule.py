"""`votal run`: keep every game's votal current on its own schedule, politely, until Ctrl-C or SIGTERM.

An APScheduler (3.x) BackgroundScheduler runs one self-rescheduling job per game. Each run calls the same
:func:`sync.sync_game` as `votal sync`, then raises alerts and, if anything changed, calls the
regenerate hooks (drafts, the players' page). All games share one :class:`HostLimiter` and one robots.txt
cache, so two games on one forum never double its load. The next run comes after ``[fetch] interval``
seconds, or ``fast_interval`` in the last hour before a deadline; a game is paused between a day's end
and the next day's known start when its ruleset has no night votes.
"""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.schedulers.background import BackgroundScheduler

from assistant import store
from assistant.alerts import deliver_alerts, detect_alerts
from assistant.errors import ForumError, VotalError
from assistant.fetch import HostLimiter, RobotsCache, Stopped, make_fetcher
from assistant.game import Game, load_game
from assistant.sync import SyncResult, check_ruleset, sync_game
from assistant.votal import Votal

if TYPE_CHECKING:
    from assistant.counting import StoredGame

log = logging.getLogger("votal.schedule")

FAST_WINDOW = timedelta(hours=1)
FAST_INTERVAL = 60.0  # seconds between syncs in the last hour before a deadline
RECHECK_EVERY = 3600.0  # seconds between re-reads of the current day's pages, for edits on earlier pages

CountHook = Callable[[Game, store.Store, datetime], "Votal | None"]
PauseHook = Callable[[Game, "Votal | None", datetime], "datetime | None"]
RegenerateHook = Callable[[Game, store.Store], None]
RecheckHook = Callable[[Game, store.Store, "Votal | None"], "int | None"]


def choose_interval(
    game: Game,
    *,
    now: datetime,
    deadline: datetime | None,
    fast_interval: float = FAST_INTERVAL,
    fast_window: timedelta = FAST_WINDOW,
) -> float:
    """Seconds until the game's next sync: its interval, shortened in the last hour before the deadline
    (and never sleeping past the deadline itself, so the final count is read soon after it)."""
    interval = game.fetch.interval
    if deadline is None or deadline <= now:
        return interval
    left = (deadline - now).total_seconds()
    if left <= fast_window.total_seconds():
        return min(interval, fast_interval)
    return min(interval, max(left - fast_window.total_seconds(), fast_interval))


def count_current_day(game: Game, db: store.Store, now: datetime, *, stored: StoredGame | None = None) -> Votal | None:
    """The current day's votal from stored posts (the default count hook); ``stored``: the thread already read."""
    from assistant.counting import count_game, current_day

    return count_game(game, db, days=[current_day(game, db, at_time=now, stored=stored)], at_time=now, stored=stored)[0]


def find_night_end(game: Game, votal: Votal | None, now: datetime) -> datetime | None:
    """When a night with nothing to count ends, if the game is in one now; else None (the default pause hook).

    Paused only when the ruleset has no night votes (``night_votes`` false), the day's outcome is decided
    or its deadline has passed, and the next day's start time is known: with no known start, the day-start
    post could be missed, so the game keeps being polled.
    """
    if votal is None:
        return None
    from assistant.clock import day_bounds
    from assistant.counting import ruleset_for

    ruleset = ruleset_for(game)
    if ruleset.night_votes:
        return None
    over = votal.outcome is not None or (votal.deadline is not None and now >= votal.deadline)
    if not over:
        return None
    start = day_bounds(game, ruleset, votal.day + 1).start
    return start if start is not None and start > now else None


def find_day_start(game: Game, db: store.Store, votal: Votal | None) -> int | None:
    """The current day's first post number (the default recheck start): declared, or the first stored post
    at or after the day's start time; None when neither is known."""
    if votal is None:
        return None
    from assistant.clock import day_bounds
    from assistant.counting import ruleset_for

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


@dataclass
class Runner:
    """Runs games one sync at a time each; shared by every job of one `votal run` process."""

    db_path: Path
    now: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))
    stop: threading.Event = field(default_factory=threading.Event)
    limiter: HostLimiter | None = None  # default: one that sleeps on ``stop``, so a stop ends every wait
    robots: RobotsCache = field(default_factory=RobotsCache)
    count: CountHook | None = None  # default: count_current_day, sharing its read of the store with the warnings
    pause: PauseHook = find_night_end
    regenerate: Sequence[RegenerateHook] = ()
    post_webhook: Callable[[str, dict], None] | None = None
    fast_interval: float = FAST_INTERVAL
    recheck_every: float = RECHECK_EVERY
    recheck_start: RecheckHook = find_day_start
    fetch_options: dict = field(default_factory=dict)
    echo: Callable[[str], None] | None = None
    history: list[GameRun] = field(default_factory=list)
    _rechecked: dict[str, datetime] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        if self.limiter is None:
            self.limiter = HostLimiter(sleep=self.stop.wait)

    def run_game(self, path: Path) -> GameRun:
        """One scheduled run: sync (unless paused), count, alert, regenerate. Never raises for a bad forum."""
        try:
            game = load_game(path)  # read each time: the moderator edits the game file while it runs
        except VotalError as exc:
            run = GameRun(str(path), error=str(exc), next_in=300.0)
            self._say(f"{path}: {exc}")
            return self._record(run)
        run = GameRun(game.title)
        db = store.open_db(self.db_path)  # one connection per run: jobs run in worker threads
        try:
            now = self.now()
            votal, stored = self._count(game, db, now)
            counted_at = now
            run.paused_until = self.pause(game, votal, now)
            if run.paused_until is None:
                self._sync(game, db, run, self._recheck_from(game, db, votal, now))
                now = self.now()
                if run.synced and run.result.changed:
                    votal, stored = self._count(game, db, now)
                    counted_at = now
            alerts = detect_alerts(
                game,
                votal,
                now=now,
                sync_error=run.error,
                page_problems=run.result.problems if run.result else (),
                warnings=self._warnings(game, db, stored, counted_at),
                complete=_last_sync_complete(db, game),
            )
            run.alerts = len(deliver_alerts(db, game, alerts, now=now, post=self.post_webhook))
            if run.result is not None and run.result.changed:
                run.regenerated = self._regenerate(game, db)
            deadline = votal.deadline if votal is not None and votal.outcome is None else None
            if run.paused_until is not None:
                run.next_in = max(1.0, (run.paused_until - now).total_seconds())
            else:
                run.next_in = choose_interval(game, now=now, deadline=deadline, fast_interval=self.fast_interval)
        finally:
            db.close()
        self._say(_describe(run))
        return self._record(run)

    def _recheck_from(self, game: Game, db: store.Store, votal: Votal | None, now: datetime) -> int | None:
        """Every ``recheck_every`` seconds, re-read the current day's pages (edits on pages read before)."""
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

    def _sync(self, game: Game, db: store.Store, run: GameRun, recheck_from: int | None = None) -> None:
        try:
            fetcher = make_fetcher(game, limiter=self.limiter, robots=self.robots, stop=self.stop, **self.fetch_options)
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

    def _count(self, game: Game, db: store.Store, now: datetime) -> tuple[Votal | None, StoredGame | None]:
        """The votal, and the thread as the count read it (for the warnings; None when a count hook read it)."""
        try:
            if self.count is not None:
                return self.count(game, db, now), None
            from assistant.counting import load_stored_game

            stored = load_stored_game(game, db)  # read once: the count and the warnings replay the same posts
            return count_current_day(game, db, now, stored=stored), stored
        except VotalError as exc:
            self._say(f"{game.title}: cannot count: {exc}")
        except Exception:  # noqa: BLE001 (a counting bug must not stop the other games' syncs)
            log.exception("%s: counting failed", game.title)
        return None, None

    def _warnings(self, game: Game, db: store.Store, stored: StoredGame | None, now: datetime) -> list:
        """The warnings as of the count's moment (sharing its replay)."""
        from assistant.counting import current_day, game_warnings

        if store.last_post_number(db, game.key) is None:
            return []
        try:
            day = current_day(game, db, at_time=now, stored=stored)
            return game_warnings(game, db, days=[day], stored=stored, now=now)
        except VotalError as exc:  # a day Votal will not guess is said by the count already
            self._say(f"{game.title}: {exc}")
            return []

    def _regenerate(self, game: Game, db: store.Store) -> bool:
        done = True
        for hook in self.regenerate:
            try:
                hook(game, db)
            except Exception:  # noqa: BLE001 (one failing output must not stop the others or the syncs)
                log.exception("%s: regenerating with %s failed", game.title, getattr(hook, "__name__", hook))
                done = False
        return done

    def _record(self, run: GameRun) -> GameRun:
        with self._lock:
            self.history.append(run)
        return run

    def _say(self, line: str) -> None:
        if self.echo:
            self.echo(line)
        else:
            log.info("%s", line)


def regenerate_hooks(
    *, site_dir: str | Path | None, drafts_dir: str | Path | None, now: Callable[[], datetime]
) -> list[RegenerateHook]:
    """The hooks `votal run` calls after a sync that changed something: the players' page and the votal draft,
    each game in a folder (or file) named after its game file."""
    hooks: list[RegenerateHook] = []
    if site_dir is not None:

        def write_site(game: Game, db: store.Store) -> None:
            from assistant.site import publish_site

            publish_site(game, db, Path(site_dir) / Path(game.path).stem, generated_at=now())

        hooks.append(write_site)
    if drafts_dir is not None:

        def write_votal_draft(game: Game, db: store.Store) -> None:
            from assistant.counting import count_game, current_day, ruleset_for
            from assistant.drafts import build_context, default_flavor, render_draft

            moment = now()
            day = current_day(game, db, at_time=moment)
            votals = count_game(game, db, days=[day], at_time=moment)
            posts = store.load_read_posts(db, game.key)
            as_of = votals[0].as_of_post
            # the number the moderator's next count will get; only `votal draft votal` keeps one
            number = (
                None if as_of is None else store.number_vote_count(db, game.key, day, as_of, now=moment, keep=False)
            )
            context = build_context(game, ruleset_for(game), votals, day=day, now=moment, posts=posts,
                                    count_number=number)
            text = render_draft("votal", context, flavor=default_flavor(game), template_dir=game.templates)
            folder = Path(drafts_dir)
            folder.mkdir(parents=True, exist_ok=True)
            target = folder / f"{Path(game.path).stem}-votal.txt"
            partial = target.with_suffix(".tmp")
            partial.write_text(text, encoding="utf-8")
            partial.replace(target)  # readers never see half a draft

        hooks.append(write_votal_draft)
    return hooks


def run_games(
    game_paths: Iterable[str | Path],
    *,
    db_path: str | Path,
    runner: Runner | None = None,
    install_signals: bool = True,
    max_workers: int = 4,
    first_delay: float = 0.0,
    **runner_options,
) -> Runner:
    """Sync every game on its own schedule until Ctrl-C, SIGTERM or ``runner.stop`` is set; returns the runner
    (its ``history`` lists every run). A stop ends waits at once and lets a running sync finish its page."""
    runner = runner or Runner(db_path=Path(db_path), **runner_options)
    paths = [Path(p) for p in game_paths]
    for path in paths:
        check_ruleset(load_game(path))  # a bad game file or ruleset fails now, not in a worker thread later
    # Create the store (and switch it to WAL) once, before worker threads open it side by side.
    store.open_db(runner.db_path).close()
    scheduler = BackgroundScheduler(
        timezone=UTC,
        executors={"default": ThreadPoolExecutor(max_workers=max(1, min(max_workers, len(paths))))},
        job_defaults={"coalesce": True, "max_instances": 1, "misfire_grace_time": None},
    )

    def job(path: Path) -> None:
        if runner.stop.is_set():
            return
        try:
            run = runner.run_game(path)
        except Stopped:
            return
        except Exception:  # noqa: BLE001 (keep the game scheduled whatever went wrong)
            log.exception("%s: run failed", path)
            run = GameRun(str(path), error="run failed", next_in=300.0)
        if not runner.stop.is_set():
            when = datetime.now(UTC) + timedelta(seconds=run.next_in)
            scheduler.add_job(job, "date", run_date=when, args=[path], id=str(path), replace_existing=True)

    previous = _install_signal_handlers(runner.stop) if install_signals else {}
    try:
        scheduler.start()
        start = datetime.now(UTC) + timedelta(seconds=first_delay)
        for path in paths:
            scheduler.add_job(job, "date", run_date=start, args=[path], id=str(path), replace_existing=True)
        runner.stop.wait()
    finally:
        runner.stop.set()
        scheduler.shutdown(wait=True)  # the running syncs see the stop before their next request
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    runner._say("stopped")
    return runner


def _install_signal_handlers(stop: threading.Event) -> dict:
    previous = {}
    for signum in (signal.SIGINT, signal.SIGTERM):
        previous[signum] = signal.signal(signum, lambda *_: stop.set())
    return previous


def _last_sync_complete(db: store.Store, game: Game) -> bool:
    """Whether the store holds the whole thread as of its last sync (a failed sync may have stored part of it)."""
    last = store.last_sync(db, game.key)
    return last is not None and not last["error"]


def _describe(run: GameRun) -> str:
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
        return f"{run.game}: nothing new ({requests})"
    parts = [f"{r.new_posts} new"]
    if r.changed_posts:
        parts.append(f"{r.changed_posts} edited")
    if r.deleted_posts:
        parts.append(f"{r.deleted_posts} deleted")
    return f"{run.game}: {', '.join(parts)} ({requests}); next in {run.next_in:.0f} s"


def _fault_kind(fault: str) -> str:
    return fault.split(" fetching ", 1)[0]
