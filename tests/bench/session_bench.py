"""A Claude Code session of many gigabytes beside the same-size acp capture
(``python -m tests.bench.session_bench --size-gb 2``): time to the first ``ls --json``
line (the whole session folded: its row), ``ls``'s peak private memory (RssAnon over the
process tree), and the TUI's first screen with the session shown, each beside the capture
and a 10 MB session, the index cache off. Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

from tests.bench.capture_gen import write_capture
from tests.bench.huge_bench import first_screens
from tests.bench.targets import first_ls_line
from tests.formats.claude_code import builders as b


def write_session(path: str, size: int) -> int:
    """A session of about ``size`` bytes: the fixture's turns repeated with fresh ids, with
    a big attachment line and a big tool result now and then (as 2.1.3xx writes them).
    Returns its lines."""
    lines = 0
    pad = "x" * 60_000
    with open(path, "w") as f:
        n = 0
        while f.tell() < size:
            for obj in b.session_21():
                text = json.dumps(obj)
                text = text.replace("toolu_", f"toolu_{n}_").replace('"msg_0', f'"msg_{n}_0')
                f.write(text + "\n")
                lines += 1
            f.write(
                json.dumps(
                    {
                        "type": "attachment",
                        "attachment": {"type": "prompt_snapshot", "systemPrompt": pad},
                    }
                )
                + "\n"
            )
            lines += 1
            n += 1
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size-gb", type=float, default=2.0)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    size = int(args.size_gb * 1024**3)
    with tempfile.TemporaryDirectory(prefix="trajtui-session-") as tmp:
        small = os.path.join(tmp, "small", f"{b.SID}.jsonl")
        big = os.path.join(tmp, "big", f"{b.SID}.jsonl")
        capture = os.path.join(tmp, "capture.jsonl")
        os.makedirs(os.path.dirname(small))
        os.makedirs(os.path.dirname(big))
        write_session(small, 10 * 1024 * 1024)
        print(
            f"generating a {args.size_gb:g} GB session and capture ...", file=sys.stderr, flush=True
        )
        lines = write_session(big, size)
        write_capture(capture, size)
        s_first, s_end, s_kb = first_ls_line(big)
        c_first, c_end, c_kb = first_ls_line(capture)
        try:
            small_tui, big_tui = first_screens(small, big, args.runs)
            _, cap_tui = first_screens(small, capture, args.runs)
        except subprocess.CalledProcessError:  # no run shown within its 60 s
            small_tui = big_tui = cap_tui = float("nan")
    print(
        f"\nsession {size / 1e9:.1f} GB, {lines:,} lines; acp capture of the same size; 10 MB session"
    )
    print("\n| case | session | capture | ratio |\n|---|---|---|---|")
    print(
        f"| `ls --json`: first line | {s_first:.2f} s | {c_first:.2f} s | {s_first / c_first:.1f}x |"
    )
    print(f"| `ls --json`: done | {s_end:.2f} s | {c_end:.2f} s | {s_end / c_end:.1f}x |")
    print(f"| `ls --json`: peak private memory | {s_kb / 1024:.0f} MB | {c_kb / 1024:.0f} MB | |")
    print(
        f"| TUI first screen, run shown (median of {args.runs}) | {big_tui:.2f} s | {cap_tui:.2f} s | 10 MB session: {small_tui:.2f} s ({big_tui / small_tui:.1f}x) |"
    )


if __name__ == "__main__":
    main()
