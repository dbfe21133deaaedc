"""Test support: a threaded loopback HTTP server whose handlers write raw bytes, to misbehave as a
hostile forum can (trickle, answer forever, inflate, redirect away). Each handler gets the request
line's path, the request headers and the socket's file to write to; it returns when the answer is
done (or the client went away)."""

from __future__ import annotations

import gzip
import io
import socket
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

RawHandler = Callable[[str, dict[str, str], "Writer"], None]


class Writer:
    """Writes to the client; stops quietly (returns False) once the client has hung up."""

    def __init__(self, wfile) -> None:
        self.wfile = wfile

    def write(self, data: bytes) -> bool:
        try:
            self.wfile.write(data)
            self.wfile.flush()
            return True
        except (BrokenPipeError, ConnectionResetError, OSError):
            return False


class HostileServer:
    def __init__(self, handler: RawHandler) -> None:
        self.handler = handler
        self.requests: list[tuple[str, dict[str, str]]] = []
        self.stop = threading.Event()
        outer = self

        class _Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
                headers = dict(self.headers)
                outer.requests.append((self.path, headers))
                outer.handler(self.path, headers, Writer(self.wfile))
                self.close_connection = True

            def log_message(self, *args) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return self._server.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> HostileServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self._server.shutdown()
        self._server.server_close()


def head(status: int = 200, **headers: str) -> bytes:
    """A status line and headers; ``Connection: close`` unless told otherwise (each answer ends its
    connection)."""
    headers.setdefault("Connection", "close")
    lines = [f"HTTP/1.1 {status} X"] + [f"{k.replace('_', '-')}: {v}" for k, v in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def robots_or(handler: RawHandler) -> RawHandler:
    """Answer robots.txt plainly, everything else with ``handler``."""

    def answer(path: str, headers: dict[str, str], out: Writer) -> None:
        if path == "/robots.txt":
            out.write(head(200, Content_Type="text/plain", Content_Length="0"))
            return
        handler(path, headers, out)

    return answer


def gzip_bomb(inflated: int) -> bytes:
    """A small gzip body that inflates to ``inflated`` bytes of zeros."""
    block = b"\0" * 2**20
    out = io.BytesIO()
    with gzip.GzipFile(fileobj=out, mode="wb", compresslevel=9) as packer:
        for _ in range(inflated // len(block)):
            packer.write(block)
    return out.getvalue()


def endless(
    out: Writer, stop: threading.Event, *, chunked: bool, piece: bytes = b"<p>x</p>" * 4096
) -> None:
    """Write ``piece`` forever (until the client hangs up or the server stops)."""
    while not stop.is_set():
        data = f"{len(piece):x}\r\n".encode() + piece + b"\r\n" if chunked else piece
        if not out.write(data):
            return


def trickle(out: Writer, stop: threading.Event, data: bytes, *, every: float = 0.05) -> None:
    """Write ``data`` one byte at a time."""
    for i in range(len(data)):
        if stop.is_set() or not out.write(data[i : i + 1]):
            return
        time.sleep(every)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
