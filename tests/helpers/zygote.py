"""The process behind :mod:`tests.helpers.forked`: imports what ``python -m trajtui``
imports and what its commands import as they run (:func:`preload`), once, then forks a
child for each command a test runs. The child takes the test's stdin, stdout and stderr
(passed over the socket), working directory, environment and arguments, and runs
``trajtui`` as ``-m`` does; it exits as a fresh process would (the interpreter's own
shutdown: atexit, flushing, a traceback for an uncaught error).

Run as ``python -c 'from tests.helpers import zygote; zygote.main(FD)'``; speaks one
SOCK_SEQPACKET message per request ({"args", "cwd", "env"} and three fds), answers
``{"pid": N}`` at once and ``{"code": N}`` (as subprocess's returncode) when the child ends.
"""

from __future__ import annotations

import gc
import json
import os
import socket
import sys
import threading
from pathlib import Path
from typing import Any

import trajtui.cli  # what trajtui/__main__.py imports before main() runs

LOADED = ("trajtui.cli", "trajtui.core", "trajtui.formats", "trajtui.render")
"""Packages whose modules are imported before the first fork: what a command imports only
as it runs (show's renderables and their Markdown parser, the formats' views) is otherwise
imported again by every command that needs it (show's, 0.07 s of a 0.18 s command). Not
the TUI's: Textual reads the environment as it is imported."""

NOT_LOADED = ("trajtui.core.tables.schema", "trajtui.core.tables.sql", "trajtui.core.tables.writer")
"""Modules that import Arrow or DuckDB: Arrow starts a thread (jemalloc's) as it is imported,
and a process is only forked while it runs one thread."""

REMOTE = ("fsspec", "fsspec.implementations.http", "s3fs", "sshfs")
"""What a command imports when it is given a URL (fsspec and its HTTP, S3 and SSH file
systems): 1.6 s of CPU, paid by every forked command of the remote tests otherwise. fsspec
reads its configuration as it is imported (FSSPEC_* and ~/.config/fsspec): a command whose
environment has other FSSPEC_* runs fresh (forked.AT_START); no test writes the file."""


def preload() -> None:
    """Import the modules of :data:`LOADED` but :data:`NOT_LOADED` (and what they import),
    and :data:`REMOTE`: what a command prints or does depends on what it finds when it
    runs, not on when a module was imported (tests/cli/test_forked_runs.py: a fork says
    what a fresh process says)."""
    import importlib
    import pkgutil

    for name in LOADED:
        package = importlib.import_module(name)
        for module in pkgutil.walk_packages(package.__path__, name + "."):
            if module.name not in NOT_LOADED:
                importlib.import_module(module.name)
    for name in REMOTE:
        importlib.import_module(name)


def main(fd: int) -> None:
    preload()
    # What the zygote holds is out of the collector's sight (as a server does before it
    # forks workers): a command's collections, and the one at its exit, no longer go
    # through (and so copy) every page of it: 0.01-0.04 s a command. A command sees
    # gc.get_freeze_count() > 0 where a fresh process sees 0 (the row pool then leaves
    # the freezing before its fork to this one).
    gc.freeze()
    request = serve(fd)
    run(request)  # the child: never returns (SystemExit ends the interpreter)


def serve(fd: int) -> dict[str, Any]:
    """Answer requests until the socket closes (then exit); in a child, return its request."""
    threads = os.listdir("/proc/self/task")  # started by Python or by a library's own code
    if threading.active_count() != 1 or len(threads) != 1:
        names = [Path(f"/proc/self/task/{t}/comm").read_text().strip() for t in threads]
        raise SystemExit(f"zygote: an import started a thread ({names}); forking is not safe")
    sock = socket.socket(fileno=fd)
    while True:
        try:
            msg, fds, _flags, _addr = socket.recv_fds(sock, 1 << 20, 3)
        except OSError:
            os._exit(0)
        if not msg:
            os._exit(0)
        request = json.loads(msg)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            sock.close()
            for target, got in enumerate(fds):
                os.dup2(got, target)
                os.close(got)
            return dict(request)
        for got in fds:
            os.close(got)
        sock.send(json.dumps({"pid": pid}).encode())
        _, status = os.waitpid(pid, 0)
        sock.send(json.dumps({"code": os.waitstatus_to_exitcode(status)}).encode())


def run(request: dict[str, Any]) -> None:
    import runpy

    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    main_path = os.path.join(os.path.dirname(trajtui.__file__), "__main__.py")
    sys.argv = [main_path, *request["args"]]
    sys.path[0] = os.getcwd()  # as -m puts the working directory first
    runpy.run_module("trajtui", run_name="__main__", alter_sys=True)
