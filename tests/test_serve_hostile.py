"""`votal serve` against hostile requests: no dotfiles or dot folders, no symlink leading out of the
site, and idle or half-sent connections dropped."""

from __future__ import annotations

import os
import socket
import urllib.error
import urllib.request
from threading import Thread

import pytest

from assistant.output.site import make_server

SECRET = "outside-the-site-0xF00D"


# The idle test's own short wait for a connection that sends nothing; every other test's server
# keeps the default (10 s), so a client thread held up by a loaded machine between connecting and
# sending is never dropped mid-test.
SHORT_IDLE = 0.5


@pytest.fixture
def idle_timeout():
    return None  # the server's default


@pytest.fixture
def site(tmp_path, idle_timeout):
    root = tmp_path / "site"
    root.mkdir()
    (root / "index.html").write_text("<html>votal</html>")
    (root / "votal.json").write_text("{}")
    (tmp_path / "secret.json").write_text(SECRET)
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "index.html").write_text(SECRET)
    server = make_server(
        root, port=0, **({} if idle_timeout is None else {"idle_timeout": idle_timeout})
    )
    Thread(target=server.serve_forever, daemon=True).start()
    host, port = server.server_address[:2]
    yield root, tmp_path, host, port
    server.shutdown()
    server.server_close()


def get(host, port, path):
    try:
        with urllib.request.urlopen(f"http://{host}:{port}{path}", timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_dotfiles_and_dot_folders_are_refused(site):
    root, _, host, port = site
    (root / ".git").mkdir()
    (root / ".git" / "index.html").write_text(SECRET)
    (root / ".hidden.json").write_text(SECRET)
    for path in ("/.git/index.html", "/.git/", "/.hidden.json", "/%2egit/index.html"):
        status, body = get(host, port, path)
        assert status == 404 and SECRET not in body, path
    assert get(host, port, "/votal.json") == (200, "{}")


def test_symlinks_leading_out_of_the_site_are_refused(site):
    root, outside, host, port = site
    os.symlink(outside / "secret.json", root / "leak.json")
    os.symlink(outside / "outside", root / "dir")
    os.symlink(root / "votal.json", root / "alias.json")  # a link within the site is fine
    for path in ("/leak.json", "/dir/index.html", "/dir/"):
        status, body = get(host, port, path)
        assert status == 404 and SECRET not in body, path
    assert get(host, port, "/alias.json") == (200, "{}")


def test_an_index_html_linked_out_of_the_site_is_refused(site):
    root, outside, host, port = site
    (root / "index.html").unlink()
    os.symlink(outside / "outside" / "index.html", root / "index.html")
    status, body = get(host, port, "/")
    assert status == 404 and SECRET not in body


@pytest.mark.parametrize("idle_timeout", [SHORT_IDLE])
@pytest.mark.parametrize("sent", [b"", b"GET /index.html HTTP/1.1\r\nHost: x\r\n"])
def test_idle_and_half_sent_connections_are_dropped(site, sent):
    _, _, host, port = site
    with socket.create_connection((host, port), timeout=30) as conn:
        conn.sendall(sent)
        assert conn.recv(1024) == b""  # the server hung up (well before this socket's own 30 s)
