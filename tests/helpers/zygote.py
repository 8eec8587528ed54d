"""The process behind :mod:`tests.helpers.forked`: imports what ``python -m trajtui``
imports, once, then forks a child for each command a test runs. The child takes the test's
stdin, stdout and stderr (passed over the socket), working directory, environment and
arguments, and runs ``trajtui`` as ``-m`` does; it exits as a fresh process would (the
interpreter's own shutdown: atexit, flushing, a traceback for an uncaught error).

Run as ``python -c 'from tests.helpers import zygote; zygote.main(FD)'``; speaks one
SOCK_SEQPACKET message per request ({"args", "cwd", "env"} and three fds), answers
``{"pid": N}`` at once and ``{"code": N}`` (as subprocess's returncode) when the child ends.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import threading
from typing import Any

import trajtui.cli  # what trajtui/__main__.py imports before main() runs


def main(fd: int) -> None:
    request = serve(fd)
    run(request)  # the child: never returns (SystemExit ends the interpreter)


def serve(fd: int) -> dict[str, Any]:
    """Answer requests until the socket closes (then exit); in a child, return its request."""
    if threading.active_count() != 1:
        raise SystemExit("zygote: a thread was started by an import; forking is not safe")
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
