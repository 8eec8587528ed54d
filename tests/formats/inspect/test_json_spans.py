"""A sample of a big ``.json`` log is read by its byte span when it is opened: its bytes,
not the document again up to it (opening the last sample of a 1 GB log took 34.6 s)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.formats.inspect import builders as b
from trajtui.core.io import safeio
from trajtui.formats.inspect.source import JsonSource


def test_opening_a_sample_of_a_json_log_reads_that_sample_not_the_document(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    items = [b.sample(f"s{i}", 1, answer="The answer is 2. " + "word " * 20_000) for i in range(40)]
    path = b.write_json(tmp_path / "log.json", b.json_log(items))
    size = path.stat().st_size
    read = [0]
    pread = safeio.SafeFile.pread

    def counted(self: safeio.SafeFile, n: int, offset: int) -> bytes:
        data = pread(self, n, offset)
        read[0] += len(data)
        return data

    monkeypatch.setattr(safeio.SafeFile, "pread", counted)
    source = JsonSource(str(path))
    try:
        for _ in source.scan():
            pass
        assert len(source.run_refs()) == 40
        listed = read[0]
        assert listed >= size  # the listing reads the document once
        read[0] = 0
        last = source.find("s39/epoch-1")
        assert last is not None
        run: Any = source.run(last)
        assert "s39" in run.summary.ref and len(run.steps) > 0
        assert read[0] < size / 10, f"{read[0]:,} bytes read to open one of 40 samples"
        read[0] = 0
        first = source.find("s0/epoch-1")
        assert first is not None
        source.run(first)  # a sample before the last one opened: still its bytes alone
        assert read[0] < size / 10
    finally:
        source.close()
