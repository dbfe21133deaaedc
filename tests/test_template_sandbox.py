"""A moderator's templates (`templates =` / `--templates`) are data, not code: they render in
Jinja2's sandbox, with no Python internals, no environment variables and no files outside the
template folder. Driven through `votal draft` on the demo thread, synced over loopback once."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner
from support import demo_game_at

from assistant.cli.demo import load_demo_thread
from assistant.cli.main import main
from assistant.forum.pageserver import LoopbackServer

SECRET = "cookie-s3cr3t-0xBEEF"


@pytest.fixture(scope="module")
def synced(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sandbox")
    thread, game_text = load_demo_thread()
    with LoopbackServer(thread.respond) as server:
        game = folder / "game.toml"
        game.write_text(demo_game_at(game_text, server.base_url))
        db = folder / "votal.db"
        assert CliRunner().invoke(main, ["sync", str(game), "--db", str(db), "-q"]).exit_code == 0
    return game, db


def draft(synced, templates, *extra: str):
    game, db = synced
    args = [
        "draft",
        str(game),
        "votal",
        "--db",
        str(db),
        "--day",
        "1",
        "--templates",
        str(templates),
        *extra,
    ]
    return CliRunner().invoke(main, args)


def with_template(tmp_path, text: str):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "votal.j2").write_text(text)
    return folder


ATTACKS = [
    "{{ cycler.__init__.__globals__.os.popen('id').read() }}",
    "{{ lipsum.__globals__['os'].environ['VOTAL_TEST_COOKIES'] }}",
    "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "{{ self._TemplateReference__context }}",
    "{{ namespace.__init__.__globals__ }}",
    "{{ joiner.__init__.__globals__.__builtins__.open('/etc/hostname').read() }}",
    "{% for w in wagons %}{{ w.__class__.__base__.__subclasses__() }}{% endfor %}",
    "{{ 'x' * 100000000000 }}",
    "{{ ('x' * 1000000) * 1000000 }}",
    "{{ 9 ** 999999999 }}",
    "{{ 1 / 0 }}",
    "{{ cycler('a')() }}",
]

# Work and memory a render may not take: each is refused in one line, before it is allocated or
# looped.
HOGS = [
    "{% for i in range(10**9) %}x{% endfor %}",
    "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
    "{% for i in range(1000) %}{% for j in range(1000) %}{% for k in range(1000) %}x{% endfor %}{% endfor %}"
    "{% endfor %}",
    "{% for i in range(100) %}{{ 'x' * 1000000 }}{% endfor %}",
    "{{ 'x'.ljust(10**9) }}",
    "{{ 'x'|center(10**9) }}",
    "{{ 'x'|indent(10**9, true) }}",
    "{{ '%0999999999d' % 1 }}",
    "{{ '%0999999999d'|format(1) }}",
    "{{ '{:>999999999}'.format(1) }}",
    "{{ lipsum(n=10**7) }}",
    "{% set ns = namespace(s='x') %}{% for i in range(60) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
    "{{ ('x' * 1000000)|replace('', 'x' * 1000000) }}",
    "{{ ('x' * 1000000)|list|join('') }}{{ ('x' * 1000000)|list|join('') }}",
    # doubling with no call, filter or lookup: each join is checked before it is made
    "{% set s = 'x' %}" + "{% set s = s ~ s %}" * 48 + "{{ s|length }}",
    "{% set s = 'x' %}" + "{% set s = s + s %}" * 48 + "{{ s|length }}",
    "{% set s = [1] %}" + "{% set s = s + s %}" * 48 + "{{ s|length }}",
    "{% set s = 'x' %}" + "{% set s = s ~ s ~ s ~ s %}" * 24 + "{{ s|length }}",
]
ATTACKS += HOGS


@pytest.mark.parametrize("attack", ATTACKS)
def test_a_template_cannot_reach_python_the_environment_or_run_commands(
    synced, tmp_path, monkeypatch, attack
):
    monkeypatch.setenv("VOTAL_TEST_COOKIES", SECRET)
    result = draft(synced, with_template(tmp_path, attack))
    assert result.exit_code == 2, result.output
    assert result.output.startswith("Error: template votal.j2 (bbcode): ")
    assert len(result.output.strip().splitlines()) == 1
    assert SECRET not in result.output and "uid=" not in result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize(
    "name", ["../secret.txt", "../../secret.txt", "/secret.txt", "sub/../../secret.txt"]
)
def test_a_template_cannot_include_files_outside_its_folder(synced, tmp_path, name):
    (tmp_path / "secret.txt").write_text(SECRET)
    result = draft(synced, with_template(tmp_path, f'{{% include "{name}" %}}'))
    assert result.exit_code == 2
    assert SECRET not in result.output
    assert "Error: no template" in result.output or "Error: template votal.j2" in result.output


def test_a_symlink_out_of_the_folder_is_not_followed(synced, tmp_path):
    (tmp_path / "secret.txt").write_text(SECRET)
    folder = with_template(tmp_path, '{% include "link.j2" %}')
    os.symlink(tmp_path / "secret.txt", folder / "link.j2")
    result = draft(synced, folder)
    assert result.exit_code == 2 and SECRET not in result.output


def test_a_bundled_template_name_cannot_climb_out_of_the_package(synced, tmp_path):
    result = draft(synced, with_template(tmp_path, '{% include "../../../__init__.py" %}'))
    assert result.exit_code == 2
    assert "__version__" not in result.output


def test_an_ordinary_template_still_works_with_loops_macros_and_bundled_imports(synced, tmp_path):
    text = (
        "{% macro line(w) %}{{ w.target }}: {{ w.votes }}{% endmacro %}"
        "{% set ns = namespace(n=0) %}"
        "{% for w in wagons %}{{ line(w) }}{{ cycler('', '').next() }}{% set ns.n = ns.n + 1 %}\n{% endfor %}"
        "{{ ns.n }} wagons, {{ '=' * 3 }}, {{ 2 ** 3 }}, {{ title | upper }}"
    )
    result = draft(synced, with_template(tmp_path, text))
    assert result.exit_code == 0, result.output
    assert "Dorian Gray: 5" in result.output and "wagons, ===, 8, " in result.output
    plain = CliRunner().invoke(
        main, ["draft", str(synced[0]), "votal", "--db", str(synced[1]), "--day", "1"]
    )
    assert plain.exit_code == 0 and "[b]" in plain.output  # the bundled templates render as before


@pytest.mark.parametrize("hog", HOGS)
def test_a_template_cannot_hog_time_or_memory_and_says_which_limit(synced, tmp_path, hog):
    result = draft(synced, with_template(tmp_path, hog))
    assert result.exit_code == 2, result.output
    assert result.output.startswith("Error: template votal.j2 (bbcode): the template "), (
        result.output
    )
    assert len(result.output.strip().splitlines()) == 1


def test_a_template_looping_over_data_is_stopped_by_the_time_limit(synced, tmp_path, monkeypatch):
    import assistant.output.sandbox

    monkeypatch.setattr(
        assistant.output.sandbox, "MAX_SECONDS", 0.2
    )  # the loop below would take hours
    hog = "{% set s = 'x' * 100000 %}{% for a in s %}{% for b in s %}{% endfor %}{% endfor %}"
    result = draft(synced, with_template(tmp_path, hog))
    assert result.exit_code == 2
    assert (
        result.output.strip()
        == "Error: template votal.j2 (bbcode): the template ran longer than 0.2 seconds"
    )


def test_a_huge_or_special_file_in_the_folder_is_not_read(synced, tmp_path):
    folder = with_template(tmp_path, '{% include "big.j2" %}')
    (folder / "big.j2").write_text("x" * (2**20 + 1))
    result = draft(synced, folder)
    assert result.exit_code == 2
    assert result.output.strip() == (
        "Error: template votal.j2 (bbcode): template file big.j2 is larger than 1,048,576 bytes"
    )
    os.mkfifo(folder / "pipe.j2")  # reading it would wait forever for a writer
    (folder / "votal.j2").write_text('{% include "pipe.j2" %}')
    result = draft(synced, folder)
    assert result.exit_code == 2 and "pipe.j2" in result.output
