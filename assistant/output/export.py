"""Vote history exports: every command read, one row each (CSV / JSON), and an HTML report with a
wagon timeline (SVG) per day.

Built from the same public view of each day as the players' page
(:func:`assistant.output.site.public_day`), so an export never holds more than the page shows. Pure:
the caller passes the days, the posts and the time.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar

from assistant.counting.clock import iso_utc
from assistant.counting.votes import count_voters, standing_steps
from assistant.gamefile.outcome import WhyNot
from assistant.output.site import (
    PostRef,
    PublicGame,
    describe_day,
    format_utc,
    make_environment,
    public_day,
)
from assistant.output.terminal import html_safe, json_safe

FORMATS = ("csv", "json", "html")
COLUMNS = (
    "game",
    "day",
    "post",
    "post_id",
    "post_url",
    "time_utc",
    "voter",
    "account",
    "text",
    "action",
    "target",
    "counted",
    "why_not",
)
SUMMARY_COLUMNS = (
    "game",
    "day",
    "alive",
    "majority",
    "outcome",
    "eliminated",
    "reason",
    "decided_at_post",
    "wagons",
    "no_elimination",
    "never_voted",
)
# A spreadsheet runs a cell that starts with one of these as a formula (OWASP "CSV injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
PALETTE = ("#3b6fb6", "#c2452d", "#2e8b57", "#8e44ad", "#d4881c", "#16a2b8", "#b5477d", "#6b8e23")
OTHER_COLOR = "#9aa6b2"
SLEEP_COLOR = "#6d7f8e"


def public_days(
    days: Sequence[Mapping[str, Any]], posts: Mapping[int, PostRef] | None
) -> list[dict[str, Any]]:
    return [public_day(d, posts) for d in sorted(days, key=lambda d: d["day"])]


def list_vote_rows(game: PublicGame, days: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One row per command read, in thread order, from public days (see :func:`public_days`)."""
    rows = []
    for day in days:
        for a in day["actions"]:
            rows.append(
                {
                    "game": game.title,
                    "day": day["day"],
                    "post": a["post"],
                    "post_id": a["post_id"],
                    "post_url": a["url"],
                    "time_utc": a["time"],
                    "voter": a["voter"],
                    "account": a["author"],
                    "text": a["text"],
                    "action": a["action"],
                    "target": a["target"],
                    "counted": a["counted"],
                    "why_not": a["why_not"],
                }
            )
    return rows


def living_of(day: Mapping[str, Any]) -> list[str]:
    """The day's living seats: the tally lists them; older dicts only split them into voting and
    not."""
    if day.get("living"):
        return list(day["living"])
    seats = [v for w in day["wagons"] for v in w["voters"]]
    return seats + list(day["no_elimination"]["voters"]) + list(day["not_voting"])


def summarize_day(game: PublicGame, day: Mapping[str, Any]) -> dict[str, Any]:
    """A day's final wagons, outcome, and the living seats that never cast a vote that counted."""
    voted = {
        a["voter"] for a in day["actions"] if a["counted"] and a["action"] in ("vote", "sleep")
    }
    order = {seat: i for i, seat in enumerate(game.seats)}
    outcome = day["outcome"]
    return {
        "day": day["day"],
        "alive": day["alive"],
        "majority": day["majority"],
        "as_of_post": day["as_of_post"],
        "wagons": day["wagons"],
        "no_elimination": day["no_elimination"],
        "outcome": outcome,
        "never_voted": sorted(
            (s for s in living_of(day) if s not in voted), key=lambda s: order.get(s, len(order))
        ),
    }


def defuse_cell(value: Any) -> Any:
    """A CSV cell a spreadsheet shows as text: one starting like a formula gets a leading quote."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def _csv(columns: Sequence[str], rows: Sequence[Mapping[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(columns)
    for row in rows:
        cells = []
        for column in columns:
            value = row.get(column)
            if isinstance(value, bool):
                value = "yes" if value else "no"
            cells.append("" if value is None else defuse_cell(value))
        writer.writerow(cells)
    return out.getvalue()


def _summary_cells(game: PublicGame, summary: Mapping[str, Any]) -> dict[str, Any]:
    outcome = summary["outcome"] or {}
    no_elim = summary["no_elimination"]
    return {
        "game": game.title,
        "day": summary["day"],
        "alive": summary["alive"],
        "majority": summary["majority"],
        "outcome": outcome.get("kind", "undecided"),
        "eliminated": outcome.get("target"),
        "reason": outcome.get("reason"),
        "decided_at_post": outcome.get("post"),
        "wagons": "; ".join(
            f"{w['target']} {w['votes']} ({', '.join(w['voters'])})" for w in summary["wagons"]
        ),
        "no_elimination": f"{no_elim['votes']} ({', '.join(no_elim['voters'])})",
        "never_voted": ", ".join(summary["never_voted"]),
    }


def render_csv(
    game: PublicGame,
    days: Sequence[Mapping[str, Any]],
    *,
    posts: Mapping[int, PostRef] | None = None,
    table: str = "votes",
) -> str:
    """``table="votes"``: one row per command read; ``table="days"``: one row per day's summary."""
    public = public_days(days, posts)
    if table == "votes":
        return _csv(COLUMNS, list_vote_rows(game, public))
    if table == "days":
        return _csv(SUMMARY_COLUMNS, [_summary_cells(game, summarize_day(game, d)) for d in public])
    raise ValueError(f"unknown table {table!r} (votes or days)")


def render_json(
    game: PublicGame,
    days: Sequence[Mapping[str, Any]],
    *,
    generated_at: datetime,
    posts: Mapping[int, PostRef] | None = None,
) -> str:
    public = public_days(days, posts)
    data = {
        "game": {"title": game.title, "thread": game.thread, "players": list(game.seats)},
        "generated_at": iso_utc(generated_at),
        "columns": list(COLUMNS),
        "votes": list_vote_rows(game, public),
        "days": [summarize_day(game, d) for d in public],
    }
    return json_safe(json.dumps(data, indent=2, ensure_ascii=False)) + "\n"


def plot_timeline(
    day: Mapping[str, Any], *, no_elimination_label: str = "No elimination"
) -> dict[str, Any]:
    """The wagon timeline of a public day as SVG geometry: one step line per target, votes over post
    numbers.

    Heights count voters (a seat's vote weight is not shown); the dashed line is the majority.
    """
    steps = standing_steps(day["changes"])
    votes = [a for a in day["actions"] if a["why_not"] != WhyNot.MODERATOR_POST]
    first = min((a["post"] for a in votes), default=day["as_of_post"] or 0)
    last = max([day["as_of_post"] or first, *(post for post, _ in steps)])
    series = _wagon_series(steps, first)
    final = {t: pts[-1][1] for t, pts in series.items()}
    peak = {t: max(v for _, v in pts) for t, pts in series.items()}
    ordered = sorted(
        series, key=lambda t: (-final[t], -peak[t], series[t][1][0] if len(series[t]) > 1 else 0)
    )
    majority = day["majority"] or 1
    top = max([majority, *peak.values()])
    plot = _Plot(first, max(1, last - first), top)
    lines = []
    for i, target in enumerate(ordered):
        color = SLEEP_COLOR if target is None else PALETTE[i] if i < len(PALETTE) else OTHER_COLOR
        lines.append(
            {
                "label": no_elimination_label if target is None else target,
                "color": color,
                "dashed": target is None,
                "path": plot.path(series[target], last),
                "final": final[target],
                "peak": peak[target],
            }
        )
    height, left = _Plot.height, _Plot.left
    return {
        "width": _Plot.width,
        "height": height + 6 + len(lines) * 18,
        "plot_height": height,
        "left": left,
        "right": _Plot.width - _Plot.right,
        "bottom": plot.y(0),
        "majority_y": plot.y(majority),
        "majority": majority,
        "ticks": [{"y": plot.y(v), "label": v} for v in range(0, top + 1, max(1, (top + 4) // 5))],
        "first": first,
        "last": last,
        "lines": lines,
        "legend": [{**line, "x": left, "y": height + 6 + i * 18} for i, line in enumerate(lines)],
    }


def _wagon_series(
    steps: Sequence[tuple[int, Any]], first: int
) -> dict[str | None, list[tuple[int, int]]]:
    """Each target's (post, voters) points, from ``first`` on: a point where its voters change."""
    series: dict[str | None, list[tuple[int, int]]] = {}
    for post, state in steps:
        counts = count_voters(state)
        for target in set(series) | set(counts):
            points = series.setdefault(target, [(first, 0)])
            if points[-1][1] != counts.get(target, 0):
                points.append((post, counts.get(target, 0)))
    return series


@dataclass(frozen=True)
class _Plot:
    """The timeline's frame: posts from ``first`` over ``span`` across, voters up to ``top`` up."""

    first: int
    span: int
    top: int
    width: ClassVar[int] = 420
    height: ClassVar[int] = 176
    left: ClassVar[int] = 28
    right: ClassVar[int] = 10
    upper: ClassVar[int] = 18
    lower: ClassVar[int] = 24

    def x(self, post: int) -> float:
        return round(
            self.left + (post - self.first) * (self.width - self.left - self.right) / self.span, 1
        )

    def y(self, votes: float) -> float:
        return round(
            self.upper + (self.top - votes) * (self.height - self.upper - self.lower) / self.top, 1
        )

    def path(self, points: list[tuple[int, int]], last: int) -> str:
        """A target's step line, held level to the last post."""
        path = [f"M{self.x(points[0][0])},{self.y(points[0][1])}"]
        for post, votes in points[1:]:
            path.append(f"H{self.x(post)}V{self.y(votes)}")
        path.append(f"H{self.x(last)}")
        return "".join(path)


def render_html(
    game: PublicGame,
    days: Sequence[Mapping[str, Any]],
    *,
    generated_at: datetime,
    posts: Mapping[int, PostRef] | None = None,
    no_elimination_label: str = "No elimination",
) -> str:
    """One self-contained HTML file: per day the summary, the wagon timeline (SVG) and every command
    read."""
    public = public_days(days, posts)
    sections = [
        {
            "day": describe_day(d),
            "summary": summarize_day(game, d),
            "timeline": plot_timeline(d, no_elimination_label=no_elimination_label),
        }
        for d in public
    ]
    env = make_environment()
    assert env.loader is not None  # make_environment always gives one
    css = env.loader.get_source(env, "style.css")[0]
    page = env.get_template("export.html.j2").render(
        game=game,
        generated_at=iso_utc(generated_at),
        generated_text=format_utc(generated_at),
        sections=sections,
        css=css,
        no_elimination_label=no_elimination_label,
    )
    # the same page in a browser; no raw control or bidi characters in the file
    return html_safe(page)


def render_export(
    fmt: str,
    game: PublicGame,
    days: Sequence[Mapping[str, Any]],
    *,
    generated_at: datetime,
    posts: Mapping[int, PostRef] | None = None,
    table: str = "votes",
    no_elimination_label: str = "No elimination",
) -> str:
    """The export in ``fmt`` (csv, json or html)."""
    if fmt == "csv":
        return render_csv(game, days, posts=posts, table=table)
    if fmt == "json":
        return render_json(game, days, generated_at=generated_at, posts=posts)
    if fmt == "html":
        return render_html(
            game,
            days,
            generated_at=generated_at,
            posts=posts,
            no_elimination_label=no_elimination_label,
        )
    raise ValueError(f"unknown export format {fmt!r} (one of: {', '.join(FORMATS)})")
