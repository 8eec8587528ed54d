"""Reading a file through the shared descriptors (:mod:`trajtui.core.io.openfiles`): a read
larger than one system read allows is made of several, whole, and a short file gives what it
has."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from trajtui.core.io import openfiles


def test_reads_larger_than_one_read_come_back_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A record over 1 GiB is read in reads of at most 1 GiB (here 7 bytes), into one
    buffer, in place; the end of the file gives what is left."""
    monkeypatch.setattr(openfiles, "MAX_READ", 7)
    data = bytes(range(256)) * 4
    path = tmp_path / "f.bin"
    path.write_bytes(data)
    fd = os.open(path, os.O_RDONLY)
    try:
        assert openfiles.pread_full(fd, 100, 3) == data[3:103]
        assert openfiles.pread_full(fd, 100, len(data) - 40) == data[-40:]
    finally:
        os.close(fd)
    handle = openfiles.FileHandle(str(path))
    try:
        buf = bytearray(50)
        assert handle.pread_into(buf, 10) == 50 and buf == data[10:60]
        assert handle.pread_into(buf, len(data) - 20) == 20 and buf[:20] == data[-20:]
    finally:
        handle.close()
