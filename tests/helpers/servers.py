"""Real servers on 127.0.0.1 for the remote tests and benchmark, each started and stopped
by its user: an HTTP server that honours ``Range`` and counts what it sends, and moto's S3
server.

``HTTP(root)`` serves the files under ``root`` (``GET``, ``HEAD``; ``Range: bytes=A-B``
answered ``206``; a directory as a page of links, as a web server's index); ``sent`` is every
body byte it has sent, ``ranges`` each range asked for, ``heads`` the HEADs.
"""

from __future__ import annotations

import contextlib
import email.utils
import html
import os
import socket
import threading
import urllib.parse
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_HEAD(self) -> None:
        self._serve(body=False)

    def do_GET(self) -> None:
        self._serve(body=True)

    def _serve(self, *, body: bool) -> None:
        owner = self.server.owner
        rel = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path).lstrip("/")
        path = os.path.join(owner.root, rel)
        if owner.deny and rel.startswith(owner.deny):
            self._status(403)
            return
        if os.path.isdir(path):
            names = sorted(os.listdir(path))
            page = "".join(
                f'<a href="{html.escape(urllib.parse.quote(n))}">{html.escape(n)}</a>\n'
                for n in names
            ).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            if body:
                self.wfile.write(page)
            return
        try:
            st = os.stat(path)
        except OSError:
            self._status(404)
            return
        size = st.st_size
        start, end = 0, size
        want = self.headers.get("Range")
        if want and want.startswith("bytes="):
            a, _, b = want[6:].partition("-")
            start = int(a) if a else max(0, size - int(b))
            end = min(size, int(b) + 1) if a and b else size
        status = 206 if want else 200
        self.send_response(status)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("ETag", f'"{st.st_ino:x}-{st.st_mtime_ns:x}-{size:x}"')
        self.send_header("Last-Modified", email.utils.formatdate(st.st_mtime, usegmt=True))
        if want:
            self.send_header("Content-Range", f"bytes {start}-{end - 1}/{size}")
        self.send_header("Content-Length", str(end - start))
        self.end_headers()
        if not body:
            with owner.lock:
                owner.heads += 1
            return
        with owner.lock:
            owner.ranges.append((start, end))
        with open(path, "rb") as f:
            f.seek(start)
            left = end - start
            while left:
                chunk = f.read(min(left, 1 << 20))
                if not chunk:
                    break
                self.wfile.write(chunk)
                left -= len(chunk)
                with owner.lock:
                    owner.sent += len(chunk)

    def _status(self, code: int) -> None:
        self.send_response(code)
        self.send_header("Content-Length", "0")
        self.end_headers()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    owner: HTTP


class HTTP:
    """An HTTP server on 127.0.0.1 serving ``root``; use it in a ``with`` block.

    Attributes:
        url: ``http://127.0.0.1:PORT``.
        sent: Body bytes sent so far.
        ranges: ``(start, end)`` of each body sent.
        heads: HEAD requests answered.
        deny: A path prefix answered 403 (a denied read).
    """

    def __init__(self, root: str) -> None:
        self.root = root
        self.sent = 0
        self.heads = 0
        self.ranges: list[tuple[int, int]] = []
        self.deny = ""
        self.lock = threading.Lock()
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.owner = self
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> HTTP:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def reset(self) -> None:
        with self.lock:
            self.sent, self.heads, self.ranges = 0, 0, []


def free_port() -> int:
    with contextlib.closing(socket.socket()) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def moto_s3() -> Iterator[str]:
    """moto's S3 server on 127.0.0.1 (its endpoint URL), stopped on exit."""
    from moto.server import ThreadedMotoServer

    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.stop()
