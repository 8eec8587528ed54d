"""What a format's jq check shares (``tests/formats/<name>/jqcheck.py``): the rows ``trajtui
ls --json`` prints, each run's figures set beside what the format's jq program computes
over its file, one line per run, and the command line that prints them."""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
from collections.abc import Callable
from typing import Any

FIGURES = ("turns", "tool_calls", "tool_errors", "tokens_in", "tokens_out")

JqSays = Callable[[dict[str, Any]], dict[str, Any]]
"""What the format's jq program computes for a row of ``ls --json`` (over its file)."""


def trajtui_says(paths: list[str], trajtui: str, format_id: str) -> list[dict[str, Any]]:
    """The rows ``trajtui ls --json`` prints for ``paths`` of format ``format_id``, each
    with its figures (``turns`` from its metadata)."""
    out = subprocess.run(
        [trajtui, "ls", "--json", "--no-cache", *paths], capture_output=True, text=True
    )
    rows = []
    for line in out.stdout.splitlines():
        row = json.loads(line)
        if row.get("format") != format_id:
            continue
        turns = row.get("metadata", {}).get("turns")
        row["turns"] = int(turns) if turns is not None else None
        rows.append(row)
    return rows


def check(
    rows: list[dict[str, Any]], jq_says: JqSays, where: Callable[[dict[str, Any]], str]
) -> list[str]:
    """One line per row (``ok`` or what disagrees, the run named by ``where``),
    disagreements first."""
    bad, good = [], []
    for row in rows:
        want = jq_says(row)
        got = {k: row.get(k) for k in FIGURES}
        diff = [f"{k} trajtui {got[k]} jq {want[k]}" for k in FIGURES if got[k] != want[k]]
        figures = ", ".join(f"{k} {got[k]}" for k in FIGURES)
        if diff:
            bad.append(f"DIFFERS {where(row)}: " + "; ".join(diff))
        else:
            good.append(f"ok {where(row)}: {figures}")
    return bad + good


def checker(
    format_id: str, jq_says: JqSays, where: Callable[[dict[str, Any]], str]
) -> Callable[..., list[str]]:
    """A format's ``check(paths, trajtui="trajtui")``: one line per run of ``format_id``
    that ``trajtui ls --json`` lists under ``paths`` (:func:`check`)."""

    def check_paths(paths: list[str], trajtui: str = "trajtui") -> list[str]:
        return check(trajtui_says(paths, trajtui, format_id), jq_says, where)

    return check_paths


def main(
    doc: str, check_paths: Callable[[list[str], str], list[str]], noun: str, argv: list[str] | None
) -> int:
    """The command line of a jq check: prints its lines and how many disagree; 1 when any
    does (or none was found)."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--trajtui", default=shutil.which("trajtui") or "trajtui")
    args = parser.parse_args(argv)
    lines = check_paths(args.paths, args.trajtui)
    for line in lines:
        print(line)
    differ = sum(1 for x in lines if x.startswith("DIFFERS"))
    print(f"{len(lines)} {noun}, {differ} disagree with jq")
    return 1 if differ or not lines else 0
