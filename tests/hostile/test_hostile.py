"""Hostile and broken inputs: never crash, never hang, never lie, never execute.

Each case of the hardening issue has a test here (the TUI's side is in
``test_live_files.py`` and ``test_ui_keys.py``; readers are fuzzed in ``test_fuzz.py``).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.formats.acp.builders import capture, step_message, step_tool, write_jsonl
from tests.helpers import forked
from tests.helpers.workspace import open_paths
from trajtui.core.model import Problem, RunSummary

ESC = "\x1b"
SGR = re.compile(r"\x1b\[[0-9;]*m")


def run(
    *args: str, env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, **(env or {})}
    return forked.run(
        [sys.executable, "-m", "trajtui", *args],
        capture_output=True,
        text=True,
        env=full_env,
        timeout=timeout,
    )


def line_of(record: object) -> bytes:
    return json.dumps(record).encode()


# -- 1. broken JSONL -------------------------------------------------------------------------


def test_every_kind_of_broken_line_is_reported_and_the_rest_shows(tmp_path: Path) -> None:
    good = [line_of(capture(f"ok-{i}")) for i in range(4)]
    deep = b'{"id":"deep","trajectory":' + b"[" * 3000 + b"]" * 3000 + b',"timing":{}}'
    p = tmp_path / "broken.jsonl"
    p.write_bytes(
        b"\xef\xbb\xbf"
        + good[0]
        + b"\r\n"  # 1 BOM + CRLF: read, with a warning
        + b"{not json at all\n"  # 2
        + b"[1, 2, 3]\n"  # 3 an array
        + b'"a string"\n'  # 4
        + b'{"trajectory": [], "timing": {}}\n'  # 5 no id
        + b"\n"  # 6 blank
        + good[1]
        + b"\n"  # 7
        + b'{"id":"nul","input":"a\x00b","trajectory":[],"timing":{}}\n'  # 8 NUL byte
        + b'{"id":"utf8","input":"caf\xe9","trajectory":[],"timing":{}}\n'  # 9 invalid UTF-8
        + deep
        + b"\n"  # 10 nested 3,000 deep
        + good[2]
        + b"\r\n"  # 11
        + good[3][:30]  # 12 truncated last line
    )
    out = run("ls", str(p), "--json")
    assert out.returncode == 0, out.stderr
    refs = [json.loads(line)["ref"] for line in out.stdout.splitlines()]
    assert refs == ["ok-0", "ok-1", "utf8", "ok-2"]
    problems = {
        int(m.group(1)): m.group(2)
        for m in re.finditer(rf"^{re.escape(str(p))}:(\d+): (.*)$", out.stderr, re.M)
    }
    assert set(problems) == {1, 2, 3, 4, 5, 6, 8, 9, 10, 12}
    assert "byte-order mark" in problems[1]
    assert "invalid JSON" in problems[2]
    assert "array" in problems[3] and "string" in problems[4]
    assert 'no "id"' in problems[5]
    assert "blank line" in problems[6]
    assert "invalid JSON" in problems[8]
    assert "UTF-8" in problems[9]
    assert "nested too deeply" in problems[10]
    assert "truncated last line" in problems[12]
    assert "Traceback" not in out.stderr


def test_a_60_mb_record_is_read_and_folded(tmp_path: Path) -> None:
    huge = "x" * (60 * 1024 * 1024)
    recs = [
        capture("small"),
        capture("huge", [step_tool("Read", "completed", 1, output=huge)]),
        capture("after"),
    ]
    p = write_jsonl(tmp_path / "huge.jsonl", recs)
    ws = open_paths([str(p)])
    (source,) = ws.sources
    for _ in source.scan():
        pass
    assert [source.entry(i).ref for i in range(3)] == ["small", "huge", "after"]
    step = source.run(1).steps[0]
    from rich.console import Console

    from trajtui.render.show import step_sections

    console = Console(width=100, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    for part in step_sections(step, source.run(1).steps, max_lines=24):
        console.print(part)
    text = console.export_text()
    assert "folded" in text
    assert len(text) < 40_000


# -- 2. not a trajectory at all --------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("empty.jsonl", b"", "empty file"),
        ("binary.jsonl", bytes(range(256)) * 64, "binary data"),
        (
            "other.jsonl",
            b'{"id":"search-1","input":"q","rankings":[],"reasoning":"r"}\n',
            "not a format trajtui reads",
        ),
        (
            "other.json",
            b'{"name": "some-package", "version": "1.0.0"}',
            "not a format trajtui reads",
        ),
        ("notes.txt.jsonl", b"just some words\n", "not JSON"),
    ],
)
def test_files_that_are_not_trajectories(
    tmp_path: Path, name: str, content: bytes, message: str
) -> None:
    p = tmp_path / name
    p.write_bytes(content)
    for args in (("ls", str(p)), ("show", str(p), "x"), (str(p),)):
        out = run(*args)
        assert out.returncode == 1, (args, out)
        assert out.stderr.splitlines() == [f"{p}: {out.stderr.split(': ', 1)[1].strip()}"]
        assert message in out.stderr
        assert "Traceback" not in out.stderr


def test_a_directory_with_nothing_supported(tmp_path: Path) -> None:
    (tmp_path / "readme.md").write_text("# hello\n")
    (tmp_path / "package.json").write_text('{"name": "x"}')
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "app.log").write_text("started\n")
    said = (
        f"{tmp_path}: no trajectories or eval results found in this directory (3 files "
        f"looked at: trajtui ls --verbose {tmp_path} says why for each)"
    )
    for args in (("ls", str(tmp_path)), (str(tmp_path),)):
        out = run(*args)
        assert out.returncode == 1, args
        assert out.stderr.splitlines() == [said], args
    stats = run("stats", str(tmp_path))
    assert stats.returncode == 1 and stats.stderr.splitlines()[0] == said
    # and the command it names says why for each file
    verbose = run("ls", "--verbose", str(tmp_path))
    assert verbose.returncode == 1
    assert f"{tmp_path / 'readme.md'}: not recognised: not JSON (text)" in verbose.stderr
    assert f"{tmp_path / 'logs' / 'app.log'}: not recognised: not JSON (text)" in verbose.stderr
    assert f"{tmp_path / 'package.json'}: not recognised: " in verbose.stderr


def test_an_empty_directory_says_it_holds_no_files(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    out = run("ls", str(tmp_path))
    assert out.returncode == 1
    assert out.stderr.splitlines() == [
        f"{tmp_path}: no trajectories or eval results found in this directory (no files in "
        f"it, 1 passed over: trajtui ls --verbose {tmp_path} says which and why)"
    ]


def test_a_path_that_does_not_exist(tmp_path: Path) -> None:
    for args in (("ls", str(tmp_path / "nope")), (str(tmp_path / "nope"),)):
        out = run(*args)
        assert out.returncode == 1
        assert out.stderr.strip() == f"{tmp_path / 'nope'}: no such file or directory"


@pytest.mark.parametrize(
    "command",
    [("ls",), ("show", "{path}", "a"), ("validate",), ()],
    ids=["ls", "show", "validate", "tui"],
)
def test_a_file_without_read_permission(tmp_path: Path, command: tuple[str, ...]) -> None:
    """One line naming the file, exit 1: never click's usage text (exit 2)."""
    p = write_jsonl(tmp_path / "secret.jsonl", [capture("a")])
    p.chmod(0)
    try:
        args = [a.replace("{path}", str(p)) for a in command]
        if "{path}" not in command:
            args.append(str(p))
        cmd = [sys.executable, "-m", "trajtui", *args]
        if os.geteuid() == 0:
            # root reads anything through CAP_DAC_OVERRIDE: stay root (so the checkout, in
            # whatever private directory it was cloned, stays importable) but drop the two
            # capabilities that bypass file permissions (setpriv is util-linux).
            drop = "-dac_override,-dac_read_search"
            cmd = ["setpriv", f"--inh-caps={drop}", f"--bounding-set={drop}", *cmd]
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=dict(os.environ))
        assert out.returncode == 1, out
        assert out.stderr.strip() == f"{p}: permission denied"
    finally:
        p.chmod(0o644)


# -- 3. content that tries to act --------------------------------------------------------------


EVIL = (
    "[@click=app.quit]click[/] [bold]b[/bold] [link=https://evil.example]l[/link] "
    "\x1b[2J\x1b[31mred\x1b[0m \x1b]0;pwned-title\x07 \x1b]52;c;ZXZpbA==\x07 "
    "\x1b]8;;https://evil.example\x07link\x1b]8;;\x07 \u202eoverride\u202c zero\u200bwidth \x9b31m c1"
)


@pytest.fixture
def evil_file(tmp_path: Path) -> Path:
    rec = capture(
        "evil-1",
        [
            step_message(EVIL, 1),
            step_tool("Bash", "completed", 2, input={"command": EVIL}, output=EVIL),
        ],
        input=EVIL,
        output=EVIL,
        hint=EVIL,
    )
    return write_jsonl(tmp_path / "evil.jsonl", [rec])


@pytest.mark.parametrize("force_color", [False, True])
@pytest.mark.parametrize("ref", ["evil-1", "evil-1-step-1", "evil-1-step-2"])
def test_cli_output_never_carries_escapes_from_the_data(
    evil_file: Path, ref: str, force_color: bool
) -> None:
    env = {"FORCE_COLOR": "1", "COLUMNS": "120"} if force_color else {"NO_COLOR": "1"}
    for args in (("show", str(evil_file), ref), ("ls", str(evil_file))):
        out = run(*args, env=env)
        assert out.returncode == 0, out.stderr
        leftover = SGR.sub("", out.stdout)  # the only sequences allowed: our own colours
        assert ESC not in leftover and "\x9b" not in leftover and "\x07" not in leftover
        assert "\u202e" not in out.stdout and "\u200b" not in out.stdout
        if args[0] == "show":
            assert "[@click=app.quit]click[/]" in out.stdout
            assert "␛]0;pwned-title␇" in out.stdout
            assert "⟨U+202E⟩" in out.stdout


def test_json_output_escapes_control_characters(evil_file: Path) -> None:
    out = run("show", str(evil_file), "evil-1", "--json")
    assert ESC not in out.stdout
    assert json.loads(out.stdout)["input"] == EVIL


# -- 4. directories that try to escape -------------------------------------------------------------


def test_symlinks_out_of_the_opened_directory_are_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    write_jsonl(outside / "secret.jsonl", [capture("secret-run")])
    opened = tmp_path / "opened"
    opened.mkdir()
    write_jsonl(opened / "mine.jsonl", [capture("my-run")])
    (opened / "link.jsonl").symlink_to(outside / "secret.jsonl")
    (opened / "linkdir").symlink_to(outside)
    (opened / "inside-link.jsonl").symlink_to(opened / "mine.jsonl")
    out = run("ls", str(opened), "--json")
    refs = {json.loads(line)["ref"] for line in out.stdout.splitlines()}
    assert not any("secret" in r for r in refs)
    assert any(r.endswith("my-run") for r in refs)


def test_symlink_loops_end(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "a" / "b").mkdir(parents=True)
    (root / "a" / "b" / "loop").symlink_to(root / "a")
    (root / "self").symlink_to(root)
    write_jsonl(root / "a" / "runs.jsonl", [capture("r1")])
    out = run("ls", str(root), "--json", timeout=30)
    assert out.returncode == 0
    assert [json.loads(line)["ref"] for line in out.stdout.splitlines()] == ["r1"]


def test_forecast_run_ids_that_climb_out_are_not_read(tmp_path: Path) -> None:
    from tests.formats.forecast import builders as bf

    secret = tmp_path / "secret-run"
    bf.run_dir(secret, bf.fed_run())
    ev = tmp_path / "eval" / "inner"
    runs = [bf.entry("../../secret-run"), bf.entry(str(secret)), bf.entry("fine")]
    for r in runs:
        r["output_dir"] = f"runs/{r['run_id']}"
    runs[1]["output_dir"] = str(secret)
    bf.write_json(ev / "summary.json", bf.summary(runs))
    bf.run_dir(ev / "runs" / "fine", bf.fed_run())
    ws = open_paths([str(ev)])
    for _ in ws.scan():
        pass
    (source,) = ws.sources
    entries = [source.entry(i) for i in range(len(source))]
    for e in entries:
        if isinstance(e, RunSummary) and e.ref != "fine":
            run_obj = source.run(e.index)
            assert run_obj.steps == ()  # nothing was read from outside
    messages = " ".join(p.message for p in source.problems())
    assert "outside" in messages


# -- 5. YAML that tries to act -----------------------------------------------------------------------


def test_yaml_tags_and_alias_bombs_are_refused(tmp_path: Path) -> None:
    from trajtui.core.io import yamlsafe

    marker = tmp_path / "pwned"
    tag = f"!!python/object/apply:os.system ['touch {marker}']"
    with pytest.raises(yamlsafe.YamlError, match="tag"):
        yamlsafe.load(f"status: {tag}\n".encode(), "x.yaml")
    assert not marker.exists()
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
        for p, c in zip("abcdefgh", "bcdefghi", strict=True)
    )
    with pytest.raises(yamlsafe.YamlError, match="alias"):
        yamlsafe.load(bomb.encode(), "bomb.yaml")


def test_problem_entries_are_problems_not_runs(tmp_path: Path) -> None:
    p = tmp_path / "x.jsonl"
    p.write_bytes(b'{"id":"a","trajectory":[],"timing":{}}\n{bad\n')
    ws = open_paths([str(p)])
    (source,) = ws.sources
    for _ in source.scan():
        pass
    assert isinstance(source.entry(1), Problem)
