"""The wheel carries the templates, rulesets, demo game and example game files, so a plain `pip
install .` works anywhere."""

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel built from a clean copy of the checkout: a checkout's own build/ folder keeps files
    of earlier builds, which setuptools ships again (a package missing from pyproject.toml would go
    unnoticed here)."""
    folder = tmp_path_factory.mktemp("wheel")
    source = folder / "source"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            "build",
            "*.egg-info",
            "__pycache__",
            ".git",
            ".venv",
            "venv",
            "tests",
            "bench",
            ".*_cache",
            ".hypothesis",
        ),
    )
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(folder), str(source)],
        check=True,
        cwd=folder,
    )
    [built] = folder.glob("votal-*.whl")
    return built


def test_wheel_ships_templates_rulesets_and_demo_but_no_tests(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "assistant/cli/main.py" in names and "parsers/phpbb.py" in names
    assert "assistant/data/demo/game.toml" in names and "assistant/data/demo/thread.toml" in names
    assert {f"assistant/data/examples/{n}.toml" for n in ("game", "every-field")} <= names
    assert {
        f"assistant/data/rulesets/{n}.toml" for n in ("mafiascum", "witchhunt-online-2.0.1")
    } <= names
    assert "assistant/templates/demo/phpbb_page.html.j2" in names
    assert any(n.startswith("assistant/templates/drafts/") for n in names)
    assert not any(n.startswith(("tests/", "bench/")) or "corpus" in n for n in names)
    # every module of the code is shipped (a new subpackage must be listed in pyproject.toml)
    code = {
        p.relative_to(ROOT).as_posix()
        for top in ("assistant", "parsers")
        for p in (ROOT / top).rglob("*.py")
    }
    assert code <= names, f"not in the wheel: {sorted(code - names)}"
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "votal = assistant.cli.main:main" in zipfile.ZipFile(wheel).read(entry_points).decode()


# Where the bundled files are, asked the one way the code asks (assistant.bundled); -S keeps
# site-packages (an installed copy, an editable install's finder) out of the way.
_PROBE = (
    "import assistant, assistant.bundled as b; print(assistant.__file__); "
    "print(b.data() / 'rulesets' / 'mafiascum.toml'); print(b.templates() / 'drafts' / 'bbcode' / 'votal.j2'); "
    "print((b.data() / 'rulesets' / 'mafiascum.toml').is_file(), (b.templates() / 'drafts').is_dir()); "
    "from assistant.gamefile.rules import load_ruleset; print(load_ruleset('mafiascum').name)"
)


def test_a_checkout_finds_its_templates_and_data_beside_the_package():
    # `python -m pytest` imports the package from the checkout, where templates/ and data/ sit
    # beside it.
    done = subprocess.run(
        [sys.executable, "-S", "-c", _PROBE], cwd=ROOT, capture_output=True, text=True, check=True
    )
    where, ruleset, template, found, name = done.stdout.splitlines()
    assert Path(where).resolve() == ROOT / "assistant" / "__init__.py"
    assert Path(ruleset) == ROOT / "data" / "rulesets" / "mafiascum.toml"
    assert Path(template) == ROOT / "templates" / "drafts" / "bbcode" / "votal.j2"
    assert (found, name) == ("True True", "mafiascum")


def test_an_installed_copy_finds_the_templates_and_data_it_ships(wheel, tmp_path):
    # The wheel installed alone into a folder (no dependencies: the probe imports none), imported
    # from there.
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "-q",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
        cwd=tmp_path,
    )
    done = subprocess.run(
        [sys.executable, "-S", "-c", _PROBE],
        cwd=tmp_path,
        env={"PYTHONPATH": str(target)},
        capture_output=True,
        text=True,
        check=True,
    )
    where, ruleset, template, found, name = done.stdout.splitlines()
    assert Path(where) == target / "assistant" / "__init__.py"
    assert Path(ruleset) == target / "assistant" / "data" / "rulesets" / "mafiascum.toml"
    assert Path(template) == target / "assistant" / "templates" / "drafts" / "bbcode" / "votal.j2"
    assert (found, name) == ("True True", "mafiascum")
