"""The templates and data shipped with Votal: inside the installed package, or at the top of a
checkout.

pyproject.toml ships ``templates/`` and ``data/`` inside the wheel as the subpackages
``assistant.templates`` and ``assistant.data`` (its package-dir); in a checkout they sit beside
``assistant/`` (the house layout), where ``python -m pytest`` imports the package from. Everything
that reads a bundled file asks here.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable


def templates() -> Traversable:
    """The bundled Jinja2 templates (demo/, drafts/, site/)."""
    return _folder("templates")


def data() -> Traversable:
    """The bundled rulesets/ and demo/ game."""
    return _folder("data")


@cache
def _folder(name: str) -> Traversable:
    # Folders on disk are read as files, without importlib.resources: its imports (tempfile, shutil,
    # zipfile) cost every `votal count` some 15 ms. The installed package holds the folder; a
    # checkout (or an editable install of one) has it beside the package.
    here = Path(__file__).resolve().parent
    for folder in (here / name, here.parent / name):
        if folder.is_dir():
            return folder
    from importlib.resources import files

    return files(f"assistant.{name}")  # a zipped install


def template_loader(*folder: str):
    """A Jinja2 loader for one folder of the bundled templates (read through importlib.resources, so
    it works from a wheel or a zip as well); a name with ``..`` is refused: nothing outside the
    folder."""
    from jinja2 import (
        FunctionLoader,
    )  # imported here: the commands that read no template never load Jinja2
    from jinja2.loaders import split_template_path

    root = templates().joinpath(*folder)
    shown = "/".join(folder)

    def load(name: str):
        resource = root
        for part in split_template_path(name):
            resource = resource / part
        if not resource.is_file():
            return None
        return resource.read_text(encoding="utf-8"), f"<bundled {shown}/{name}>", lambda: True

    return FunctionLoader(load)
