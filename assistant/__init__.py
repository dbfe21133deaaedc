"""Votal: a moderator's assistant for forum Mafia-style games."""

from pathlib import Path as _Path

__version__ = "0.1.0"

# templates/ and data/ sit at the top of a checkout (house layout) and ship inside the wheel as
# assistant.templates and assistant.data (pyproject's package-dir). When this package is imported from a
# checkout rather than from an installed copy (`python -m pytest` puts the checkout first on sys.path), find
# those two subpackages beside it, so `files("assistant.data")` works the same either way.
_here = _Path(__file__).resolve().parent
if not (_here / "templates").is_dir() and (_here.parent / "templates" / "__init__.py").is_file():
    __path__.append(str(_here.parent))  # noqa: F821 (a package's __path__ is set by the import system)
