"""NUL bytes where records should be (issue 23, item 7): the stretch a writer that crashed
leaves (space it had taken and never wrote) is a problem row, and every good record around
it shows; a file of nothing but NUL bytes, or another binary file, is still "binary data"."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.formats.acp.builders import capture
from tests.helpers import forked
from tests.helpers.ui import listed, running, screen_lines

GOOD = [json.dumps(capture(f"r{i}", output=f"answer {i}")).encode() for i in range(6)]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return forked.run(
        [sys.executable, "-m", "trajtui", *args, "--no-cache"],
        capture_output=True,
        text=True,
        timeout=60,
    )


LAYOUTS = {
    # three good records, 200 NUL bytes, three more: how a crashed writer leaves them
    "nuls-then-a-line-break": b"\n".join(GOOD[:3]) + b"\n" + b"\0" * 200 + b"\n"
    + b"\n".join(GOOD[3:]) + b"\n",
    "nuls-then-the-next-record": b"\n".join(GOOD[:3]) + b"\n" + b"\0" * 200
    + b"\n".join(GOOD[3:]) + b"\n",
    "nuls-after-a-record": b"\n".join(GOOD[:3]) + b"\0" * 200 + b"\n"
    + b"\n".join(GOOD[3:]) + b"\n",
    "nuls-first": b"\0" * 4096 + b"\n".join(GOOD) + b"\n",
    "two-mb-of-nuls-first": b"\0" * (2 << 20) + b"\n" + b"\n".join(GOOD) + b"\n",
    # 0xFF, as erased flash or a preallocating writer leaves it: never text either
    "0xff-then-the-next-record": b"\n".join(GOOD[:3]) + b"\n" + b"\xff" * 200
    + b"\n".join(GOOD[3:]) + b"\n",
    "0xff-after-a-record": b"\n".join(GOOD[:3]) + b"\xff" * 200 + b"\n"
    + b"\n".join(GOOD[3:]) + b"\n",
    "0xff-first": b"\xff" * 4096 + b"\n".join(GOOD) + b"\n",
}  # fmt: skip
"""Each layout, and the line its damaged stretch is on."""
LINE = {
    "nuls-then-a-line-break": 4,
    "nuls-then-the-next-record": 4,
    "nuls-after-a-record": 3,
    "nuls-first": 1,
    "two-mb-of-nuls-first": 1,
    "0xff-then-the-next-record": 4,
    "0xff-after-a-record": 3,
    "0xff-first": 1,
}


@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_good_record_around_a_stretch_of_nuls_is_listed(tmp_path: Path, layout: str) -> None:
    path = tmp_path / "crashed.jsonl"
    path.write_bytes(LAYOUTS[layout])
    out = run("ls", str(path))
    assert out.returncode == 0, out.stderr
    assert [ln.split()[0] for ln in out.stdout.splitlines()[1:]] == [f"r{i}" for i in range(6)]
    (said,) = out.stderr.splitlines()
    bytes_named = "0xFF bytes" if layout.startswith("0xff") else "NUL bytes"
    assert said.startswith(f"{path}:{LINE[layout]}: ") and bytes_named in said, said
    assert "damaged stretch" in said
    shown = run("show", str(path), "r3")
    assert shown.returncode == 0 and "answer 3" in shown.stdout
    found = run("grep", str(path), "answer 4")
    assert found.returncode == 0 and found.stdout.startswith("r4  output")


def test_nuls_at_the_end_are_a_problem_after_the_good_records(tmp_path: Path) -> None:
    path = tmp_path / "crashed.jsonl"
    path.write_bytes(b"\n".join(GOOD[:3]) + b"\n" + b"\0" * 200)
    out = run("ls", str(path))
    assert out.returncode == 0
    assert len(out.stdout.splitlines()) == 4
    assert (
        out.stderr.startswith(f"{path}:4: ")
        and "invalid JSON: 200 NUL bytes, not a record" in out.stderr
    )


@pytest.mark.parametrize("what", ["nothing-but-nuls", "a-zip-archive"])
def test_a_file_that_is_only_binary_is_still_binary_data(tmp_path: Path, what: str) -> None:
    path = tmp_path / "blob.jsonl"
    if what == "nothing-but-nuls":
        path.write_bytes(b"\0" * 5000)
    else:
        with zipfile.ZipFile(path, "w") as z:
            z.writestr("a.bin", bytes(range(256)) * 40)
    out = run("ls", str(path))
    assert out.returncode == 1
    assert out.stderr.strip() == f"{path}: binary data, not JSON"


async def test_the_tui_lists_the_good_records_and_the_damaged_stretch_as_a_problem_row(
    tmp_path: Path,
) -> None:
    path = tmp_path / "crashed.jsonl"
    path.write_bytes(LAYOUTS["nuls-then-a-line-break"])
    async with running([str(path)]) as (pilot, app, screen):
        assert listed(screen) == ["r0", "r1", "r2", "problem", "r3", "r4", "r5"]
        text = "\n".join(screen_lines(app))
        assert "6 runs" in text and "line 4" in text
