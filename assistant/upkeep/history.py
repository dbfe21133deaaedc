"""The game file's earlier versions, so that one command (`votal undo`) takes back any edit Votal
made.

Before Votal rewrites a game file (an edit command, `votal update`, `votal run --follow`,
`votal new --force`) the text it replaces is kept beside it in ``.votal-history/<file name>/``:
``000001.toml`` holds the previous text, ``000001.json`` what wrote over it and a digest of what it
wrote. Undo restores the newest kept version and drops it, so undoing twice takes back the last two
edits. Only the last :data:`KEEP` are kept.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from assistant.errors import VotalError

HISTORY_DIR = ".votal-history"
KEEP = 50  # versions kept per game file: enough to undo a week of edits, small on disk


class NothingToUndo(VotalError):
    """No kept version to go back to, or one that would lose a change made since."""

    exit_code = 2


@dataclass(frozen=True)
class Kept:
    """One kept version: the text before an edit, what made it, and a digest of what it wrote."""

    number: int
    text_path: Path
    why: str
    wrote_sha256: str


@dataclass(frozen=True)
class Undone:
    why: str  # what made the edit undone
    diff: str  # from the file as it was to the file as restored


def history_folder(game_file: str | Path) -> Path:
    path = Path(game_file)
    return path.parent / HISTORY_DIR / path.name


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def keep_previous(game_file: str | Path, previous: str, written: str, why: str) -> None:
    """Keep ``previous`` (the file's text before ``why`` wrote ``written`` over it)."""
    folder = history_folder(game_file)
    folder.mkdir(parents=True, exist_ok=True)
    versions = kept_versions(game_file)
    number = versions[-1].number + 1 if versions else 1
    (folder / f"{number:06d}.toml").write_text(previous, encoding="utf-8", newline="")
    record = {"why": why, "wrote_sha256": digest(written)}
    (folder / f"{number:06d}.json").write_text(json.dumps(record) + "\n", encoding="utf-8")
    for old in versions[: max(0, len(versions) + 1 - KEEP)]:
        _drop(old)


def kept_versions(game_file: str | Path) -> list[Kept]:
    """The kept versions, oldest first (one whose record is missing or unreadable is skipped)."""
    folder = history_folder(game_file)
    versions = []
    for text_path in sorted(folder.glob("[0-9]*.toml")) if folder.is_dir() else ():
        try:
            record = json.loads(text_path.with_suffix(".json").read_text(encoding="utf-8"))
            why, wrote = str(record["why"]), str(record["wrote_sha256"])
            versions.append(Kept(int(text_path.stem), text_path, why, wrote))
        except (OSError, ValueError, KeyError):
            continue
    return versions


def undo_last(
    game_file: str | Path,
    *,
    force: bool = False,
    write: Callable[[Path, str], None] | None = None,
) -> Undone:
    """Restore the newest kept version of ``game_file`` with ``write(path, text)`` and drop it.

    Refused when nothing is kept, or when the file changed since that edit wrote it (a hand edit
    would be lost) unless ``force``."""
    path = Path(game_file)
    versions = kept_versions(path)
    if not versions:
        kept_in = history_folder(path)
        raise NothingToUndo(f"{path}: nothing to undo (no earlier version kept in {kept_in})")
    last = versions[-1]
    current = path.read_text(encoding="utf-8") if path.exists() else ""
    if digest(current) != last.wrote_sha256 and not force:
        raise NothingToUndo(
            f"{path} changed after `{last.why}` wrote it; undoing would lose that change "
            "(--force undoes it anyway)"
        )
    restored = last.text_path.read_text(encoding="utf-8")
    (write or _write_text)(path, restored)
    _drop(last)
    return Undone(last.why, unified_diff(current, restored, path))


def unified_diff(before: str, after: str, path: str | Path) -> str:
    name = str(path)
    lines = difflib.unified_diff(
        before.splitlines(keepends=True),
        after.splitlines(keepends=True),
        fromfile=f"{name} (before)",
        tofile=f"{name} (after)",
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def _drop(version: Kept) -> None:
    version.text_path.unlink(missing_ok=True)
    version.text_path.with_suffix(".json").unlink(missing_ok=True)


def _write_text(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8", newline="")
