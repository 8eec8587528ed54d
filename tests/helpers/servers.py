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
import time
import urllib.parse
import urllib.request
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
        etag = f'"{st.st_ino:x}-{st.st_mtime_ns:x}-{size:x}"'
        match = self.headers.get("If-Match")
        if owner.validators and match is not None and match not in (etag, "*"):
            self._status(412)  # (as real servers do: not the version the client named)
            return
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
        if owner.validators:
            self.send_header("ETag", etag)
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
                chunk = f.read(min(left, owner.chunk))
                if not chunk:
                    break
                if owner.pause:
                    time.sleep(owner.pause)
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
        validators: Whether it says an object's ETag and Last-Modified (a server may not).
        chunk, pause: Bodies are sent ``chunk`` bytes at a time, ``pause`` seconds before
            each (a slow link).
    """

    def __init__(self, root: str) -> None:
        self.root = root
        self.sent = 0
        self.heads = 0
        self.ranges: list[tuple[int, int]] = []
        self.deny = ""
        self.validators = True
        self.chunk, self.pause = 1 << 20, 0.0
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
    import logging

    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # (a line a request otherwise)
    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    # moto keeps its buckets per process, not per server: each server starts empty
    urllib.request.urlopen(urllib.request.Request(f"{endpoint}/moto-api/reset", method="POST"))
    try:
        yield endpoint
    finally:
        server.stop()


class SSH:
    """An SSH server with SFTP (asyncssh, in a thread of its own) on 127.0.0.1, and a home
    for the client: ``home/.ssh`` holds a key made here, the server's host key in
    ``known_hosts`` and a ``config`` naming the port under the host ``trajtui-test``. Run
    trajtui with ``HOME=home`` (and no ``SSH_AUTH_SOCK``): ssh's own places give it all.
    """

    HOST = "trajtui-test"

    def __init__(self, home: str) -> None:
        import asyncio

        import asyncssh

        self.home = home
        self.port = free_port()
        dot = os.path.join(home, ".ssh")
        os.makedirs(dot, mode=0o700, exist_ok=True)
        host_key = asyncssh.generate_private_key("ssh-ed25519")
        client_key = asyncssh.generate_private_key("ssh-ed25519")
        client_key.write_private_key(os.path.join(dot, "id_ed25519"))
        os.chmod(os.path.join(dot, "id_ed25519"), 0o600)
        client_key.write_public_key(os.path.join(dot, "id_ed25519.pub"))
        line = host_key.export_public_key().decode().strip()
        with open(os.path.join(dot, "known_hosts"), "w") as f:
            f.write(f"[127.0.0.1]:{self.port} {line}\n")
        with open(os.path.join(dot, "config"), "w") as f:
            f.write(f"Host {self.HOST}\n  HostName 127.0.0.1\n  Port {self.port}\n")
        self.sent = 0
        owner = self

        class _Counting(asyncssh.SFTPServer):
            def read(self, file_obj: Any, offset: int, size: int) -> Any:
                data = super().read(file_obj, offset, size)  # (the base class reads at once)
                assert isinstance(data, bytes)
                owner.sent += len(data)
                return data

        self._loop = asyncio.new_event_loop()
        ready = threading.Event()

        async def start() -> Any:
            return await asyncssh.listen(
                "127.0.0.1",
                self.port,
                server_host_keys=[host_key],
                authorized_client_keys=asyncssh.import_authorized_keys(
                    client_key.export_public_key().decode()
                ),
                sftp_factory=_Counting,
            )

        def run() -> None:
            asyncio.set_event_loop(self._loop)
            self._server = self._loop.run_until_complete(start())
            ready.set()
            self._loop.run_forever()

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()
        ready.wait(30)

    def __enter__(self) -> SSH:
        return self

    def __exit__(self, *exc: object) -> None:
        self._loop.call_soon_threadsafe(self._server.close)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
