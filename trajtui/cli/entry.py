"""The program's entry point, :func:`main`: runs the command group and never lets a Python
traceback reach a user.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from trajtui.cli.group import cli
from trajtui.cli.output import print_err, silence_stdout
from trajtui.core import gcpace, signals
from trajtui.core.io.jsonutil import JsonError


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Run the CLI; never lets a traceback reach the user. SIGINT, SIGTERM and SIGHUP end
    it as :mod:`trajtui.core.signals` says (exit 128 + the signal's number)."""
    signals.install()
    gcpace.for_command_line()  # (the TUI goes back to the default pace: trajtui.core.gcpace)
    try:
        cli.main(
            args=list(argv) if argv is not None else None, prog_name="trajtui", standalone_mode=True
        )
    except SystemExit as exc:
        _flush_quietly()
        if signals.received() is not None and exc.code in (0, None):
            # The signal's unwinding was swallowed where Python cannot raise (a __del__, a
            # weakref callback): the command went on to its end, but a signal ended it.
            sys.exit(signals.exit_code(signals.received() or 0))
        raise exc
    except BrokenPipeError:
        silence_stdout()
        sys.exit(0)
    except KeyboardInterrupt:
        sys.exit(130)
    except JsonError as err:  # a value too big to write for the memory left
        print_err(f"trajtui: {err}")
        sys.exit(1)
    except MemoryError:
        print_err("trajtui: not enough memory for this (a record too big for the memory left)")
        sys.exit(1)
    except signals.Ended as ended:
        _flush_quietly()
        sys.exit(signals.exit_code(ended.signum))
    except Exception as exc:  # pragma: no cover - the last line of defence
        if os.environ.get("TRAJTUI_DEBUG"):
            raise
        print_err(
            f"trajtui: internal error: {type(exc).__name__}: {exc} (TRAJTUI_DEBUG=1 shows details)"
        )
        sys.exit(1)
    sys.exit(0)


def _flush_quietly() -> None:
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()
    except (OSError, ValueError):
        pass
