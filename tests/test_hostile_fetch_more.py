"""More hostile forums on loopback: bombs in every compression the client accepts, a trickle on a
kept-alive connection, Retry-After values no forum should send. Each is one readable error, never a
hang or a crash."""

from __future__ import annotations

import gzip
import socket
import threading
import time
import zlib

import pytest
from hostile_server import HostileServer, gzip_bomb, head, robots_or

from assistant.errors import ForumError
from assistant.forum.fetch import MAX_HOLD, Fetcher, retry_after

MB = 2**20
PAGE = b"<html><body><p>a page</p></body></html>"


def one_line(exc: BaseException) -> str:
    text = str(exc)
    assert "\n" not in text and text
    return text


def deflate_bomb(inflated: int) -> bytes:
    packer = zlib.compressobj(9)
    block = b"\0" * MB
    return b"".join(packer.compress(block) for _ in range(inflated // MB)) + packer.flush()


@pytest.mark.parametrize(
    ("encoding", "body"),
    [
        ("deflate", lambda: deflate_bomb(80 * MB)),
        ("gzip, gzip", lambda: gzip.compress(gzip_bomb(80 * MB))),
        ("GZIP", lambda: gzip_bomb(80 * MB)),
    ],
)
def test_bombs_in_every_accepted_compression_stop_at_the_cap(encoding, body):
    payload = body()

    def answer(path, headers, out):
        out.write(
            head(
                200,
                Content_Type="text/html",
                Content_Encoding=encoding,
                Content_Length=str(len(payload)),
            )
            + payload
        )

    with HostileServer(robots_or(answer)) as server, pytest.raises(ForumError) as caught:
        Fetcher(min_interval=0, retries=0, max_page_bytes=4 * MB).get(
            server.base_url + "/viewtopic.php?t=1"
        )
    assert "larger than 4 MB (after decompression)" in one_line(caught.value)


class KeepAliveTrickler:
    """Answers the first request on a connection at once and keeps it open; trickles the next
    answer."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.accepted = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.serve, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.listener.getsockname()[1]}/viewtopic.php?t=1"

    def serve(self) -> None:
        self.listener.settimeout(0.2)
        while not self.stop.is_set():
            try:
                conn, _ = self.listener.accept()
            except TimeoutError:
                continue
            except OSError:  # the listener was closed: the test is over
                return
            self.accepted += 1
            threading.Thread(target=self.answer, args=(conn,), daemon=True).start()

    def answer(self, conn: socket.socket) -> None:
        with conn:
            conn.settimeout(30)
            data, served = b"", 0
            try:
                while not self.stop.is_set():
                    while b"\r\n\r\n" not in data:
                        chunk = conn.recv(4096)
                        if not chunk:
                            return
                        data += chunk
                    data = data.split(b"\r\n\r\n", 1)[1]
                    whole = (
                        f"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {len(PAGE)}\r\n\r\n".encode()
                        + PAGE
                    )
                    if served == 0:
                        conn.sendall(whole)
                    else:
                        for i in range(len(whole)):
                            if self.stop.is_set():
                                return
                            conn.sendall(whole[i : i + 1])
                            time.sleep(0.05)
                    served += 1
            except OSError:
                return

    def __enter__(self) -> KeepAliveTrickler:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.listener.close()


def test_a_trickle_on_a_kept_alive_connection_is_cut_off_too():
    with KeepAliveTrickler() as server:
        # the whole first answer has all the time it needs (a loaded machine may take a while): only
        # the trickled second one is held to the 1 s deadline, which it overruns by seconds whatever
        # the load
        fetcher = Fetcher(min_interval=0, retries=0, deadline=60.0, timeout=(5, 5), robots=None)
        assert fetcher.get(server.url) == PAGE.decode()
        fetcher.deadline = 1.0
        with pytest.raises(ForumError) as caught:
            fetcher.get(server.url)
        assert server.accepted == 1  # the second request went over the kept-alive connection
    assert "took longer than 1 s to send the page" in one_line(caught.value)


@pytest.mark.parametrize(
    "value",
    [
        "\u00b2",
        "9" * 400,
        "-5",
        "1e999",
        "nan",
        "inf",
        "0x10",
        "Fri, 31 Dec 9999 23:59:59 GMT",
        "\u0661\u0662",
        "Mon, 32 Foo 2024 99:99:99 GMT",
        " ",
        "1" * 5000,
    ],
)
def test_any_retry_after_value_is_a_wait_within_the_cap_or_none(value):
    wait = retry_after(value)
    assert wait is None or 0 <= wait <= MAX_HOLD


@pytest.mark.parametrize("value", [b"\xb2", b"9" * 400, b"Fri, 31 Dec 9999 23:59:59 GMT", b"-1"])
def test_a_hostile_retry_after_from_a_server_is_one_line(value):
    def answer(path, headers, out):
        out.write(
            b"HTTP/1.1 503 X\r\nConnection: close\r\nContent-Length: 0\r\nRetry-After: "
            + value
            + b"\r\n\r\n"
        )

    with HostileServer(robots_or(answer)) as server, pytest.raises(ForumError) as caught:
        Fetcher(min_interval=0, retries=1, backoff=0.01).get(server.base_url + "/viewtopic.php?t=1")
    assert "HTTP 503" in one_line(caught.value)
