"""A big capture read for the first time by pieces (:mod:`trajtui.core.jsonl.pieces`): every
row, reference, line number, problem and statistic is the one the ordinary read gives, and
so is the index the cache keeps, whatever the file holds at the pieces' edges.

Each command runs in a program of its own (forked workers need a process of one thread),
with the sizes that make a file "big" lowered so that a file of a few hundred kilobytes is
read in dozens of pieces.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.core.cached import read_entry
from tests.formats.acp.builders import capture, step_message, step_tool

_PROGRAM = """
import os, sys
from trajtui.core.jsonl import index, longlines, pieces, rowpool, source
rowpool.PARALLEL_BYTES = rowpool.SMALL_RECORD = 1
pieces.PIECE_BYTES = 4096
index.CHUNK = longlines.CHUNK = pieces.CHUNK = 1024  # several chunks a piece
adopted = []
if os.environ["PIECES"] == "off":
    source.read_by_pieces = lambda s: iter(())
else:
    real = pieces._adopt
    pieces._adopt = lambda s, p: adopted.append(p.stop) or real(s, p)
from trajtui.cli.entry import main
try:
    main(sys.argv[1:])
finally:
    print(f"pieces adopted: {len(adopted)}", file=sys.stderr)
"""


def _run(tmp: Path, cache: Path, pieces: str, *args: str) -> tuple[str, list[str], int]:
    """``trajtui ARGS`` with pieces on or off: its output, its error lines (without the
    count of pieces) and the pieces adopted."""
    prog = tmp / "prog.py"
    prog.write_text(_PROGRAM)
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "PIECES": pieces}
    done = subprocess.run(
        [sys.executable, str(prog), *args], capture_output=True, text=True, env=env, timeout=120
    )
    err = done.stderr.splitlines()
    assert err and err[-1].startswith("pieces adopted: "), done.stderr
    said = [e for e in err[:-1] if not e.startswith("stats: reading")]  # progress, when slow
    return done.stdout, said, int(err[-1].split(": ")[1])


def _cached(cache: Path) -> tuple[dict[str, Any], dict[str, bytes]]:
    """What the index cache under ``cache`` keeps of the one file (but when it was written)."""
    (entry,) = cache.rglob("*.idx")
    header, sections = read_entry(entry)
    header.pop("written")
    return header, sections


def _records(n: int) -> list[bytes]:
    """Runs of a few hundred bytes, with every kind of record a piece's edge may cut."""
    out: list[bytes] = []
    for i in range(n):
        steps = [
            step_message(f"thinking about {i}", 10),
            step_tool("Read", "pending", 20, input={"file_path": f"f{i}.py"}),
            step_tool(f"toolu_{i:04d}", "failed" if i % 7 == 0 else "completed", 30 + i),
        ]
        rec = capture(f"run-{i % 40}", steps, score={"pass": i % 3 == 0, "score": i / n})
        out.append(json.dumps(rec).encode())
    out[9] = b'{"id": "broken", "trajectory": ['  # bad JSON
    out[13] = json.dumps(capture("run-1#2", [])).encode()  # a literal name a repeat would take
    out[21] = b'{"id": "latin", "input": "caf\xe9", "trajectory": []}'  # invalid UTF-8
    out[30] = b'{"input": "no id first", "trajectory": [], "id": "late"}'
    out[44] = b'{"trajectory": []}'  # no id
    out[52] = b'{"trajectory": [1, '  # bad JSON with no id at its head
    long_steps = [step_message("x" * 900, k) for k in range(40)]
    out[60] = json.dumps(capture("long", long_steps)).encode()  # longer than a chunk
    # the parser keeps the last id: the keys from here on are checked whole (no more pieces)
    out[350] = b'{"id": "twice", "trajectory": [], "id": "second"}'
    return out


@pytest.mark.parametrize("shape", ["lf", "crlf", "bom-unterminated", "blank-line"], ids=lambda s: s)
def test_a_cold_read_by_pieces_gives_what_the_ordinary_read_gives(
    tmp_path: Path, shape: str
) -> None:
    recs = _records(400)  # about 60 pieces
    nl = b"\r\n" if shape == "crlf" else b"\n"
    if shape == "blank-line":
        recs.insert(200, b"   ")
    data = nl.join(recs) + nl
    if shape == "bom-unterminated":
        data = b"\xef\xbb\xbf" + data[: -len(nl)]
    path = tmp_path / "results.jsonl"
    path.write_bytes(data)
    for args in (["ls", "--json", str(path)], ["stats", "--json", str(path)]):
        plain_out, plain_err, none = _run(tmp_path, tmp_path / "c-off", "off", *args)
        out, err, adopted = _run(tmp_path, tmp_path / "c-on", "on", *args)
        assert none == 0
        assert out == plain_out
        assert err == plain_err
        if args[0] == "ls":
            assert len(plain_out.splitlines()) >= 390
            assert any("line 10" in e or ":10:" in e for e in plain_err)  # the bad line said
            if shape == "blank-line":  # pieces stop at the blank line; the scan goes on
                assert 5 <= adopted < 60
            else:
                assert adopted >= 40
            # the index the cache keeps is the one the ordinary read keeps
            assert _cached(tmp_path / "c-on") == _cached(tmp_path / "c-off")
            warm_out, warm_err, _ = _run(tmp_path, tmp_path / "c-on", "on", *args)
            assert (warm_out, warm_err) == (plain_out, plain_err)
