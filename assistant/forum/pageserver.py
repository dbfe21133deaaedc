"""A tiny HTTP server on loopback that answers from a Python callable: the offline demo and the
tests use it."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


@dataclass
class Response:
    status: int = 200
    body: str | bytes = ""
    headers: dict[str, str] = field(
        default_factory=lambda: {"Content-Type": "text/html; charset=utf-8"}
    )


# (path, query, request headers)
Handler = Callable[[str, dict[str, str], dict[str, str]], Response]


class LoopbackServer:
    """Serves ``handler`` on 127.0.0.1 at a free port; records every request path it was asked
    for."""

    def __init__(self, handler: Handler, *, host: str = "127.0.0.1", port: int = 0):
        self.handler = handler
        self.requests: list[str] = []
        outer = self

        class _Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # TCP_NODELAY, as real web servers set it: else a page's last segment waits for the
            # client's delayed ACK, about 15 ms a page on a keep-alive connection.
            disable_nagle_algorithm = True

            def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
                outer.requests.append(self.path)
                parts = urlsplit(self.path)
                query = {k: v[-1] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
                try:
                    response = outer.handler(parts.path, query, dict(self.headers))
                except Exception as exc:  # a broken test handler must show up as a 500, not a hang
                    response = Response(500, f"handler failed: {exc}")
                body = (
                    response.body.encode("utf-8")
                    if isinstance(response.body, str)
                    else response.body
                )
                try:
                    self.send_response(response.status)
                    for name, value in response.headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    # the client gave up (a deadline, a signal): nothing to answer, nothing to print
                    pass

            def log_message(self, *args) -> None:
                pass

        self._server = ThreadingHTTPServer((host, port), _Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.socket.getsockname()[:2]  # what server_address holds, as str
        return f"http://{host}:{port}"

    def __enter__(self) -> LoopbackServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()
