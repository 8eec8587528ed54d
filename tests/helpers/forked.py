"""``trajtui`` commands for tests, run as ``subprocess.run([sys.executable, "-m", "trajtui",
...])`` runs them but without paying the interpreter's start and trajtui's imports each time
(about 0.4 s of CPU a command, 900 commands a suite): :func:`run` takes the same arguments
and gives the same :class:`subprocess.CompletedProcess`.

Each command is still a process of its own (its exit code, its stdout and stderr, its
signals, its own memory and shutdown): a fork of :mod:`tests.helpers.zygote`, one per test
worker, which has imported what ``python -m trajtui`` imports and what its commands import
as they run. What the interpreter (or a module as it is imported) reads only at its start
cannot differ from the worker's, so a command whose environment changes one of those
(PYTHON*, LANG, LC_*, TZ, TEXTUAL*, FSSPEC_*), or that asks for what this does not do (a
preexec_fn, a new session, other streams), runs as a fresh process with subprocess.run.
Tests about the process's start itself (what it imports, signals at startup, limits) call
subprocess directly.
"""

from __future__ import annotations

import atexit
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
# Read by the interpreter (or by a module as it is imported) when a process starts.
AT_START = re.compile(r"^(PYTHON|LANG$|LC_|TZ$|TEXTUAL|FSSPEC_)")
PIPE, DEVNULL = subprocess.PIPE, subprocess.DEVNULL
HANDLED = {"capture_output", "text", "timeout", "cwd", "env", "input", "check", "stdout", "stderr"}

_lock = threading.Lock()
_zygote: tuple[subprocess.Popen[bytes], socket.socket, dict[str, str]] | None = None


def _start() -> tuple[subprocess.Popen[bytes], socket.socket, dict[str, str]]:
    global _zygote
    if _zygote is not None and _zygote[0].poll() is None:
        return _zygote
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    env = dict(os.environ)
    code = f"import sys; sys.path.insert(0, {str(ROOT)!r}); from tests.helpers import zygote; "
    code += f"zygote.main({theirs.fileno()})"
    proc = subprocess.Popen(
        [sys.executable, "-c", code],
        pass_fds=[theirs.fileno()],
        stdin=DEVNULL,
        env=env,
    )
    theirs.close()
    _zygote = (proc, ours, env)
    return _zygote


def _stop() -> None:
    if _zygote is not None:
        _zygote[1].close()
        try:
            _zygote[0].wait(10)
        except subprocess.TimeoutExpired:
            _zygote[0].kill()


atexit.register(_stop)


def _is_trajtui(argv: Sequence[Any]) -> bool:
    return len(argv) >= 3 and list(argv[:3]) == [sys.executable, "-m", "trajtui"]


def _same_start(env: Mapping[str, str], base: Mapping[str, str]) -> bool:
    keys = set(env) | set(base)
    return not any(AT_START.match(k) and env.get(k) != base.get(k) for k in keys)


def run(argv: Sequence[Any], **kwargs: Any) -> subprocess.CompletedProcess[Any]:
    """``subprocess.run(argv, **kwargs)`` for ``[sys.executable, "-m", "trajtui", ...]``."""
    given_env = kwargs.pop("env", None)
    env = {str(k): str(v) for k, v in (os.environ if given_env is None else given_env).items()}
    plain = (
        not _is_trajtui(argv)
        or set(kwargs) - HANDLED
        or (kwargs.get("capture_output") and ("stdout" in kwargs or "stderr" in kwargs))
        or any(kwargs.get(s) not in (None, PIPE, DEVNULL) for s in ("stdout", "stderr"))
    )
    if plain:
        return subprocess.run(list(argv), **kwargs)
    with _lock:
        proc, sock, base = _start()
        if not _same_start(env, base):
            return subprocess.run(list(argv), **kwargs)
        return _forked(sock, list(argv), env, **kwargs)


def _forked(
    sock: socket.socket,
    argv: list[Any],
    env: dict[str, str],
    *,
    capture_output: bool = False,
    text: bool = False,
    timeout: float | None = None,
    cwd: str | os.PathLike[str] | None = None,
    input: str | bytes | None = None,
    check: bool = False,
    stdout: int | None = None,
    stderr: int | None = None,
    **_: Any,
) -> subprocess.CompletedProcess[Any]:
    started = time.monotonic()
    args = [os.fsdecode(a) for a in argv[3:]]  # bytes as the kernel gives them to -m
    if capture_output:
        stdout = stderr = PIPE
    opened: list[int] = []  # our ends and the fds given to the child, closed after sending
    given: list[int] = []
    readers: dict[str, int] = {}
    stdin_w = None
    if input is not None:
        r, stdin_w = os.pipe()
        given.append(r)
    else:
        given.append(0)  # inherited, as subprocess.run does with stdin=None
    for name, how, fd in (("stdout", stdout, 1), ("stderr", stderr, 2)):
        if how == PIPE:
            r, w = os.pipe()
            readers[name] = r
            given.append(w)
            opened.append(w)
        elif how == DEVNULL:
            w = os.open(os.devnull, os.O_WRONLY)
            given.append(w)
            opened.append(w)
        else:
            given.append(fd)
    if input is not None:
        opened.append(given[0])
    request = {"args": args, "cwd": str(Path(cwd or os.getcwd()).resolve()), "env": env}
    socket.send_fds(sock, [json.dumps(request).encode()], given)
    for fd in opened:
        os.close(fd)
    pid = json.loads(sock.recv(1 << 16))["pid"]

    chunks: dict[str, list[bytes]] = {name: [] for name in readers}
    threads = [
        threading.Thread(target=_drain, args=(fd, chunks[name]), daemon=True)
        for name, fd in readers.items()
    ]
    if stdin_w is not None:
        data = input.encode() if isinstance(input, str) else input
        threads.append(threading.Thread(target=_feed, args=(stdin_w, data), daemon=True))
    for t in threads:
        t.start()
    sock.settimeout(None if timeout is None else max(0.0, timeout - (time.monotonic() - started)))
    try:
        code = json.loads(sock.recv(1 << 16))["code"]
    except TimeoutError:
        os.kill(pid, 9)
        sock.settimeout(None)
        json.loads(sock.recv(1 << 16))
        for t in threads:
            t.join()
        raise subprocess.TimeoutExpired(argv, timeout or 0) from None
    sock.settimeout(None)
    for t in threads:
        t.join()
    out: dict[str, Any] = {}
    for name in ("stdout", "stderr"):
        if name not in readers:
            out[name] = None
            continue
        data = b"".join(chunks[name])
        # As subprocess's text mode: the locale's encoding, universal newlines.
        out[name] = _text(data) if text else data
    done = subprocess.CompletedProcess(argv, code, out["stdout"], out["stderr"])
    if check:
        done.check_returncode()
    return done


def _text(data: bytes) -> str:
    import locale

    decoded = data.decode(locale.getpreferredencoding(False))
    return decoded.replace("\r\n", "\n").replace("\r", "\n")


def _drain(fd: int, into: list[bytes]) -> None:
    with os.fdopen(fd, "rb", buffering=0) as f:
        while chunk := f.read(1 << 16):
            into.append(chunk)


def _feed(fd: int, data: bytes) -> None:
    with os.fdopen(fd, "wb") as f:
        try:
            f.write(data)
        except BrokenPipeError:
            pass
