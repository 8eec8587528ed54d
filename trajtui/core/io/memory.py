"""How much memory is left to this process, for deciding whether a big record can be read.

Two limits apply, and either can end a process that passes it: the address space
(``ulimit -v``, ``RLIMIT_AS``: an allocation past it fails, and a parser that does not check
for that crashes with SIGSEGV), and the memory that can really be used (what the machine
has available, and a container's cgroup limit: past them the out-of-memory killer sends
SIGKILL). orjson reserves address space far beyond what it touches (about 14 times the
record), so a record must fit both ways.
"""

from __future__ import annotations

import resource
from dataclasses import dataclass

__all__ = ["Room", "room"]


@dataclass(frozen=True, slots=True)
class Room:
    """Memory left, in bytes.

    Attributes:
        address: Address space left under ``RLIMIT_AS`` (None: no limit).
        usable: Memory that can still be touched (what the machine has available, within
            the cgroup's limit; None: not known).
    """

    address: int | None
    usable: int | None


def _kb_field(path: str, name: str) -> int | None:
    """A ``Name:  N kB`` field of a ``/proc`` status file, in bytes."""
    try:
        with open(path, encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith(name):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def _read_int(path: str) -> int | None:
    try:
        with open(path, encoding="ascii") as f:
            text = f.read().strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() else None


def _cgroup_left() -> int | None:
    """What this process's cgroup (v2, else v1) lets it use still, if it is limited."""
    for limit_path, usage_path in (
        ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
        (
            "/sys/fs/cgroup/memory/memory.limit_in_bytes",
            "/sys/fs/cgroup/memory/memory.usage_in_bytes",
        ),
    ):
        limit = _read_int(limit_path)
        usage = _read_int(usage_path)
        if limit is not None and usage is not None and limit < 1 << 60:
            return max(0, limit - usage)
    return None


def room() -> Room:
    """The memory left now (a few small reads of ``/proc``: for big records only)."""
    address: int | None = None
    try:
        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    except (OSError, ValueError):
        soft = resource.RLIM_INFINITY
    if soft != resource.RLIM_INFINITY:
        used = _kb_field("/proc/self/status", "VmSize:")
        if used is not None:
            address = max(0, soft - used)
    usable = _kb_field("/proc/meminfo", "MemAvailable:")
    cgroup = _cgroup_left()
    if cgroup is not None:
        usable = cgroup if usable is None else min(usable, cgroup)
    return Room(address, usable)
