"""Full-size hostile cases of issue 8 (items 22-26) and issue 23 (item 16: records of
256 MB under an address-space limit, and of 1 GB), timed and measured (``make bench``).

Each case is generated in a temporary directory (``$TMPDIR``), then one ``trajtui``
command runs on it in a fresh subprocess; the report gives its wall time, its peak
resident memory (``ru_maxrss`` of the child, from ``wait4``) and what it printed that shows
it worked. Files are written by a separate process, so the driver stays small (a child's
peak counts its parent's memory at the fork). The scaled-down versions of these cases are in ``tests/hostile/test_index.py``.

Usage::

    python -m tests.bench.hostile_bench [--only NAME ...] [--skip NAME ...] [--timeout S]
    # the same cases on another checkout (e.g. before a change):
    python -m tests.bench.hostile_bench --pythonpath /path/to/old/checkout

Disk: about 4 GB at the peak (the 2.2 GB line and the 600 MB first record); the 2.2 GB
line needs about 8 GB of memory to parse. Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MB = 1024 * 1024


def _capture(rid: str, trajectory: str = "[]", **fields: str) -> bytes:
    extra = "".join(f',"{k}":{v}' for k, v in fields.items())
    return (
        f'{{"id":"{rid}","input":"q","output":"a","trajectory":{trajectory},'
        f'"timing":{{"start":0,"end":5}}{extra}}}'
    ).encode()


def blank_lines(d: Path) -> list[str]:
    """20 million blank lines between two records."""
    p = d / "blank.jsonl"
    with p.open("wb") as f:
        f.write(_capture("a") + b"\n")
        for _ in range(20):
            f.write(b"\n" * 1_000_000)
        f.write(_capture("b") + b"\n")
    return ["ls", str(p)]


def tiny_records(d: Path) -> list[str]:
    """3 million tiny records."""
    p = d / "tiny.jsonl"
    with p.open("w") as f:
        for i in range(0, 3_000_000, 100_000):
            f.write(
                "".join(
                    f'{{"id":"r{k}","trajectory":[],"timing":{{}}}}\n'
                    for k in range(i, i + 100_000)
                )
            )
    return ["ls", str(p)]


def huge_string(d: Path) -> list[str]:
    """`show` of a step whose output is a 500 MB string."""
    p = d / "str.jsonl"
    with p.open("wb") as f:
        f.write(_capture("small") + b"\n")
        f.write(
            b'{"id":"huge","input":"q","trajectory":[{"type":"tool_call","name":"Read",'
            b'"status":"completed","timestamp":1,"output":"'
        )
        for _ in range(500):
            f.write(b"x" * MB)
        f.write(b'"}],"timing":{"start":0,"end":5}}\n')
    return ["show", str(p), "huge-step-1"]


def huge_string_json(d: Path) -> list[str]:
    """`show --json` of the same step (prints all 500 MB)."""
    return ["show", "--json", *huge_string(d)[1:]]


def never_paired(d: Path) -> list[str]:
    """40,000 tool calls that never complete, and 40,000 completions of other tools."""
    n = 40_000
    steps = [
        f'{{"type":"tool_call","name":"WebSearch","status":"in_progress","timestamp":{i}}}'
        for i in range(n)
    ]
    steps += [
        f'{{"type":"tool_call","name":"other-{i % 7}","status":"completed","timestamp":{n + i}}}'
        for i in range(n)
    ]
    p = d / "open.jsonl"
    p.write_bytes(_capture("open", "[" + ",".join(steps) + "]") + b"\n")
    return ["show", str(p), "open-step-1"]


def million_steps(d: Path) -> list[str]:
    """A record of 1,000,000 steps: 500,000 calls, completed in reverse order."""
    n = 500_000
    steps = [
        f'{{"type":"tool_call","name":"t-{i}","status":"pending","timestamp":{i}}}'
        for i in range(n)
    ]
    steps += [
        f'{{"type":"tool_call","name":"t-{n - 1 - i}","status":"completed","timestamp":{n + i}}}'
        for i in range(n)
    ]
    p = d / "million.jsonl"
    p.write_bytes(_capture("m", "[" + ",".join(steps) + "]") + b"\n")
    return ["show", str(p), "m-step-1"]


def _files(d: Path, n: int) -> Path:
    root = d / f"files-{n}"
    root.mkdir()
    for i in range(n):
        sub = root / f"d{i // 1000:03d}"
        sub.mkdir(exist_ok=True)
        (sub / f"f{i:06d}.jsonl").write_bytes(_capture(f"run-{i}") + b"\n")
    return root


def files_1100_ulimit_1024(d: Path) -> list[str]:
    """1,100 JSONL files under `ulimit -n 1024`."""
    return ["--ulimit", "1024", "ls", "--json", str(_files(d, 1100))]


def files_100k(d: Path) -> list[str]:
    """100,000 JSONL files (the open-file limit is 20,000 on the machine that found it)."""
    return ["ls", "--json", str(_files(d, 100_000))]


def long_line(d: Path) -> list[str]:
    """One record of 2.2 GB on one line (pread returns at most 2 GiB per call)."""
    p = d / "long.jsonl"
    with p.open("wb") as f:
        f.write(_capture("first") + b"\n")
        f.write(b'{"id":"long","input":"q","trajectory":[],"timing":{},"output":"')
        for _ in range(2200):
            f.write(b"y" * 1_000_000)
        f.write(b'"}\n')
        f.write(_capture("after") + b"\n")
    return ["ls", "--json", str(p)]


def huge_first_record(d: Path) -> list[str]:
    """A first record of 600 MB, then a small one."""
    p = d / "first.jsonl"
    with p.open("wb") as f:
        f.write(b'{"id":"big","input":"')
        for _ in range(600):
            f.write(b"z" * MB)
        f.write(b'","trajectory":[],"timing":{"start":0,"end":5}}\n')
        f.write(_capture("small") + b"\n")
    return ["ls", "--json", str(p)]


def cr_only(d: Path) -> list[str]:
    """1,000 records separated by CR alone."""
    p = d / "mac.jsonl"
    p.write_bytes(b"\r".join(_capture(f"m{i}") for i in range(1000)) + b"\r")
    return ["ls", "--json", str(p)]


def big_numbers(d: Path) -> list[str]:
    """A 401-digit integer, 1e999, -0.0 and -1e308 as durations."""
    p = d / "numbers.jsonl"
    rows = [("big", "1" + "0" * 400), ("inf", "1e999"), ("negzero", "-0.0"), ("neg", "-1e308")]
    p.write_bytes(
        b"\n".join(
            f'{{"id":"{r}","input":"q","trajectory":[],"timing":{{"total":{v}}}}}'.encode()
            for r, v in rows
        )
        + b"\n"
    )
    return ["ls", str(p)]


def retry_log_plans(d: Path) -> list[str]:
    """An ultraplan project of 2,001 plans and a retry.log of 100,000 lines that name no plan (under the 4 MB side-file limit) naming them."""
    logs = d / "proj" / ".ultraplan" / "logs"
    day = logs / "executions" / "2026-01-26"
    day.mkdir(parents=True)
    (d / "proj" / ".ultraplan" / "config.yaml").write_text("version: 1\n")
    for n in range(2000):
        (day / f"{n // 100 + 1:02d}-{n % 100 + 1:02d}-task-1.yaml").write_text(
            "task_name: t\nstatus: success\nvalidation: VALID\n"
        )
    (day / "99-01-task-1.yaml").write_text("task_name: t\nstatus: success\nvalidation: VALID\n")
    with (logs / "retry.log").open("w") as f:
        for i in range(100_000):  # lines naming no plan: every plan is shown the whole log
            f.write(f"{i}: retry, attempt {i}\n")
    return ["show", "--json", str(d / "proj"), "20-100"]


def _one_big_record(d: Path, mb: int) -> Path:
    """A small record, one of ``mb`` MB (its output a string of words), a small one."""
    p = d / f"record-{mb}mb.jsonl"
    with p.open("wb") as f:
        f.write(_capture("small-1") + b"\n")
        f.write(b'{"id":"huge","input":"q","trajectory":[],"timing":{"start":0,"end":5},"output":"')
        for _ in range(mb):
            f.write(b"word " * (MB // 5) + b"word"[: MB % 5])
        f.write(b'"}\n')
        f.write(_capture("small-2") + b"\n")
    return p


def _under(gb: float, argv: list[str]) -> list[str]:
    return ["--aslimit", str(gb), *argv]


def record_256_grep_15(d: Path) -> list[str]:
    """`grep` of a 256 MB record under 1.5 GB of address space (was SIGSEGV)."""
    return _under(1.5, ["grep", str(_one_big_record(d, 256)), "word", "-m", "1"])


def record_256_grep_2(d: Path) -> list[str]:
    """The same under 2 GB."""
    return _under(2.0, ["grep", str(_one_big_record(d, 256)), "word", "-m", "1"])


def record_256_stats_15(d: Path) -> list[str]:
    """`stats` of a 256 MB record under 1.5 GB of address space (was SIGSEGV)."""
    return _under(1.5, ["stats", str(_one_big_record(d, 256))])


def record_256_stats_2(d: Path) -> list[str]:
    """The same under 2 GB."""
    return _under(2.0, ["stats", str(_one_big_record(d, 256))])


def record_256_show_json_1(d: Path) -> list[str]:
    """`show --json` of a 256 MB record under 1 GB of address space."""
    return _under(1.0, ["show", "--json", str(_one_big_record(d, 256)), "huge"])


def record_256_grep_06(d: Path) -> list[str]:
    """`grep` of a 256 MB record under 0.6 GB: too big for the memory left, one line."""
    return _under(0.6, ["grep", str(_one_big_record(d, 256)), "word", "-m", "1"])


def record_1gb_grep(d: Path) -> list[str]:
    """`grep` of a 1 GB single-line record, no limit (was 6.3 GB)."""
    return ["grep", str(_one_big_record(d, 1024)), "word", "-m", "1"]


def record_1gb_show(d: Path) -> list[str]:
    """`show` of the same record (was 4.2 GB)."""
    return ["show", str(_one_big_record(d, 1024)), "huge"]


@dataclass(frozen=True)
class Case:
    name: str
    make: Callable[[Path], list[str]]


CASES = [
    Case("blank-lines-20M", blank_lines),
    Case("tiny-records-3M", tiny_records),
    Case("string-500MB-show", huge_string),
    Case("string-500MB-show-json", huge_string_json),
    Case("never-paired-40k", never_paired),
    Case("steps-1M", million_steps),
    Case("files-1100-ulimit-1024", files_1100_ulimit_1024),
    Case("files-100k", files_100k),
    Case("numbers", big_numbers),
    Case("retry-log-2k-plans", retry_log_plans),
    Case("cr-only", cr_only),
    Case("first-record-600MB", huge_first_record),
    Case("line-2.2GB", long_line),
    Case("record-256MB-grep-as1.5GB", record_256_grep_15),
    Case("record-256MB-grep-as2GB", record_256_grep_2),
    Case("record-256MB-stats-as1.5GB", record_256_stats_15),
    Case("record-256MB-stats-as2GB", record_256_stats_2),
    Case("record-256MB-show-json-as1GB", record_256_show_json_1),
    Case("record-256MB-grep-as0.6GB", record_256_grep_06),
    Case("record-1GB-grep", record_1gb_grep),
    Case("record-1GB-show", record_1gb_show),
]

_AS_LIMIT = """
import resource, sys
limit = int(float(sys.argv[1]) * (1 << 30))
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
sys.argv = ["trajtui", *sys.argv[2:]]
from trajtui.cli import main
main()
"""

_LIMIT = """
import resource, sys
resource.setrlimit(resource.RLIMIT_NOFILE, (int(sys.argv[1]), resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
sys.argv = ["trajtui", *sys.argv[2:]]
from trajtui.cli import main
main()
"""


def run_case(
    argv: list[str], env: dict[str, str], timeout: float, cwd: Path = ROOT
) -> dict[str, object]:
    """Run one trajtui command; wall time, peak RSS (MB), exit code and output size."""
    if argv[0] == "--ulimit":
        cmd = [sys.executable, "-c", _LIMIT, argv[1], *argv[2:]]
    elif argv[0] == "--aslimit":
        cmd = [sys.executable, "-c", _AS_LIMIT, argv[1], *argv[2:]]
    else:
        cmd = [sys.executable, "-m", "trajtui", *argv]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, env=env, cwd=cwd)
        deadline = started + timeout
        status = None
        usage = None
        while time.perf_counter() < deadline:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            time.sleep(0.05)
        else:
            proc.kill()
            _, status, usage = os.wait4(proc.pid, 0)
            return {"timeout": timeout, "peak_mb": usage.ru_maxrss // 1024}
        seconds = time.perf_counter() - started
        out.seek(0)
        err.seek(0)
        lines = 0
        head = b""
        for line in out:
            lines += 1
            if len(head) < 400:
                head += line[:200]
        errors = err.read(2000).decode(errors="replace")
    return {
        "s": round(seconds, 2),
        "peak_mb": usage.ru_maxrss // 1024 if usage else None,
        "exit": os.waitstatus_to_exitcode(status) if status is not None else None,
        "stdout_lines": lines,
        "stdout_head": head.decode(errors="replace")[:300],
        "stderr_head": errors[:300],
    }


def main(argv: list[str] | None = None) -> None:
    """Run the chosen cases and print one JSON line each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=None, help="case names to run")
    parser.add_argument("--skip", nargs="*", default=[], help="case names to leave out")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per case")
    parser.add_argument("--pythonpath", help="run the trajtui found here instead")
    parser.add_argument("--make", nargs=2, metavar=("CASE", "DIR"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.make:  # in a child: write the case's files, print the command to run
        name, directory = args.make
        print(json.dumps(next(c for c in CASES if c.name == name).make(Path(directory))))
        return
    env = dict(os.environ)
    cwd = ROOT
    if args.pythonpath:  # it must come first: run from there (sys.path[0] is the cwd)
        env["PYTHONPATH"] = args.pythonpath
        cwd = Path(args.pythonpath)
    cases = [
        c for c in CASES if (args.only is None or c.name in args.only) and c.name not in args.skip
    ]
    print(f"# {len(cases)} cases; memory: ru_maxrss of the child; nproc {os.cpu_count()}")
    for case in cases:
        tmp = tempfile.mkdtemp(prefix="trajtui-hostile-")
        try:
            started = time.perf_counter()
            # Written by another process: a child forked from a driver grown big while
            # writing would count the driver's memory in its own peak.
            made_by = [sys.executable, "-m", "tests.bench.hostile_bench", "--make", case.name, tmp]
            command = json.loads(
                subprocess.run(made_by, check=True, capture_output=True, cwd=ROOT).stdout
            )
            made = time.perf_counter() - started
            result = run_case(command, env, args.timeout, cwd)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        print(json.dumps({"case": case.name, "generated_s": round(made, 1), **result}), flush=True)


if __name__ == "__main__":
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    main()
