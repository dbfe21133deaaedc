"""The wheel carries the templates, rulesets and demo game, so a plain `pip install .` works anywhere."""

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_wheel_ships_templates_rulesets_and_demo_but_no_tests(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
        cwd=tmp_path,
    )
    [wheel] = tmp_path.glob("votal-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "assistant/cli.py" in names and "parsers/phpbb.py" in names
    assert "assistant/data/demo/game.toml" in names and "assistant/data/demo/thread.toml" in names
    assert {f"assistant/data/rulesets/{n}.toml" for n in ("mafiascum", "witchhunt-online-2.0.1")} <= names
    assert "assistant/templates/demo/phpbb_page.html.j2" in names
    assert any(n.startswith("assistant/templates/drafts/") for n in names)
    assert not any(n.startswith(("tests/", "bench/")) or "corpus" in n for n in names)
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "votal = assistant.cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()


def test_a_checkout_finds_its_templates_and_data_without_an_installed_copy():
    # `python -m pytest` imports the package from the checkout, where templates/ and data/ sit beside it;
    # -S keeps any installed copy (and an editable install's finder) out of the way.
    probe = (
        "from importlib.resources import files; import assistant; "
        "print(assistant.__file__); "
        "print((files('assistant.data') / 'rulesets' / 'mafiascum.toml').is_file(), "
        "(files('assistant.templates') / 'drafts').is_dir())"
    )
    done = subprocess.run([sys.executable, "-S", "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    where, found = done.stdout.splitlines()
    assert Path(where).resolve() == ROOT / "assistant" / "__init__.py"
    assert found == "True True"
