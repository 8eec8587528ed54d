"""``trajtui sql`` (issue 27): what a user sees. Rows as a table, JSON Lines or CSV; exit 0
with rows, 1 without, 2 on an error said in one line naming the column or table that does
not exist; text from the file printed as it is, never read as markup or sent to the
terminal as a control; the README's questions answered; pyarrow and DuckDB never loaded by
``--help``, ``ls`` or the TUI's import."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.formats.acp.builders import capture, step_message, step_tool, write_jsonl
from tests.helpers.ui import capture_fixture, trials_fixture
from trajtui.cli import cli

README = Path(__file__).resolve().parents[2] / "README.md"
HOSTILE = (
    "evil \x1b[31mred\x1b[0m \x1b]8;;http://x\x07link\x1b]8;;\x07 [bold]not bold[/bold] \x9b2J"
)


def sql(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["sql", *args])
    return result.exit_code, result.stdout, result.stderr


def test_rows_as_table_json_and_csv(tmp_path: Path) -> None:
    path = str(capture_fixture(tmp_path))
    code, out, err = sql("SELECT ref, status FROM runs ORDER BY ref", path)
    assert code == 0, err
    assert "websearch-1" in out and "ref" in out.splitlines()[0]
    code, out, _ = sql("SELECT ref, steps FROM runs ORDER BY ref", path, "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and rows[0]["ref"] == "websearch-1" and isinstance(rows[0]["steps"], int)
    code, out, _ = sql("SELECT ref FROM runs ORDER BY ref LIMIT 1", path, "--csv")
    assert code == 0 and out.splitlines() == ["ref", "websearch-1"]


def test_no_rows_is_exit_1(tmp_path: Path) -> None:
    code, out, _ = sql("SELECT ref FROM runs WHERE false", str(capture_fixture(tmp_path)))
    assert code == 1 and out == ""


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("SELECT nosuchcol FROM runs", 'no column "nosuchcol"'),
        ("SELECT * FROM nosuchtable", 'no table "nosuchtable" (the tables: runs, steps'),
        ("SELEC 1", "syntax error"),
        ("", "no statement to run"),
        ("  ;  ", "no statement to run"),
    ],
)
def test_an_error_is_one_line_and_exit_2(tmp_path: Path, query: str, said: str) -> None:
    code, out, err = sql(query, str(capture_fixture(tmp_path)))
    assert code == 2 and out == ""
    lines = [line for line in err.splitlines() if line.startswith("trajtui sql:")]
    assert len(lines) == 1 and said in lines[0], err
    assert "Traceback" not in err and "Binder Error" not in err and "Catalog Error" not in err


def test_a_query_reads_nothing_but_the_tables(tmp_path: Path) -> None:
    secret = tmp_path / "secret.csv"
    secret.write_text("a\n1\n")
    code, out, err = sql(f"SELECT * FROM read_csv('{secret}')", str(capture_fixture(tmp_path)))
    assert code == 2 and "1" not in out
    target = tmp_path / "copied.csv"
    code, _, err = sql(f"COPY runs TO '{target}'", str(capture_fixture(tmp_path)))
    assert code == 2 and not target.exists()


def test_hostile_text_comes_back_verbatim_and_is_not_interpreted(tmp_path: Path) -> None:
    rec = capture("evil-1", [step_message(HOSTILE, 100)], input=HOSTILE, output=HOSTILE)
    path = str(write_jsonl(tmp_path / "evil.jsonl", [rec]))
    query = "SELECT text FROM steps WHERE text IS NOT NULL"
    code, out, _ = sql(query, path, "--json")
    assert code == 0
    assert json.loads(out)["text"] == HOSTILE  # stored as the file has it
    assert "\x1b" not in out and "\x9b" not in out  # escaped in the JSON text
    code, out, _ = sql(query, path)
    assert code == 0
    assert "\x1b" not in out and "\x9b" not in out and "\x07" not in out
    assert "[bold]not bold[/bold]" in out  # shown as written, not read as markup
    code, out, _ = sql(query, path, "--csv")
    assert "\x1b" not in out and "[bold]not bold[/bold]" in out


def test_from_an_export(tmp_path: Path) -> None:
    path = str(trials_fixture(tmp_path))
    out = tmp_path / "tables"
    result = CliRunner().invoke(cli, ["export", "--parquet", str(out), path])
    assert result.exit_code == 0, result.stderr
    code, rows, _ = sql("SELECT count(*) AS n FROM trials", "--from", str(out), "--json")
    assert code == 0 and json.loads(rows)["n"] > 0
    code, _, err = sql("SELECT 1", "--from", str(tmp_path))
    assert code == 2 and "not an export" in err


def _readme_questions() -> list[tuple[str, str]]:
    """``(question, SQL)`` of each question the README asks as SQL."""
    text = README.read_text(encoding="utf-8")
    section = text.split("#### Questions as SQL", 1)[1].split("\n#", 1)[0]
    found = re.findall(r"\* \*\*(.+?)\*\*.*?```sql\n(.*?)```", section, re.S)
    return [(q, s.strip()) for q, s in found]


def test_the_readme_has_the_four_questions() -> None:
    asked = " ".join(q for q, _ in _readme_questions()).lower()
    for words in ("tool failure rate by model", "pass@k by task", "slowest tools", "cost per day"):
        assert words in asked


@pytest.mark.parametrize("question", [q for q, _ in _readme_questions()])
def test_the_readme_questions_run(question: str, tmp_path: Path) -> None:
    query = dict(_readme_questions())[question]
    capture_path = capture_fixture(tmp_path)
    trials_path = trials_fixture(tmp_path, "trials.jsonl")
    calls = [
        capture(
            f"c-{i}",
            [step_tool("Bash", "failed" if i % 2 else "completed", 100, duration=500 * i)],
            metadata={"model": f"m{i % 2}"},
            cost=0.5,
        )
        for i in range(1, 5)
    ]
    more = write_jsonl(tmp_path / "calls.jsonl", calls)
    code, out, err = sql(query, str(capture_path), str(trials_path), str(more), "--json")
    assert code == 0, err
    assert out.strip()


def test_help_teaches_with_the_questions() -> None:
    result = CliRunner().invoke(cli, ["sql", "--help"])
    assert result.exit_code == 0
    for words in ("tool failure rate by model", "pass@k by task", "slowest tools", "cost per day"):
        assert words in result.stdout
    assert "tool_calls:" in result.stdout  # the columns of each table


def test_help_ls_and_the_tui_do_not_import_pyarrow_duckdb_or_the_remote_filesystems(
    tmp_path: Path,
) -> None:
    path = str(capture_fixture(tmp_path))
    code = (
        "import sys\n"
        "from trajtui.cli import cli\n"
        "for args in (['--help'], ['ls', sys.argv[1]], ['export', sys.argv[1]]):\n"
        "    try:\n"
        "        cli.main(args, standalone_mode=False)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "import trajtui.ui.app\n"
        "heavy = ('pyarrow', 'duckdb', 'fsspec', 's3fs', 'aiohttp', 'sshfs', 'asyncssh', 'botocore')\n"
        "print('LOADED', sorted(m for m in heavy if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, path], capture_output=True, text=True, timeout=120
    )
    assert "LOADED []" in done.stdout, done.stdout + done.stderr


def test_cache_clear_removes_the_tables_sql_keeps(tmp_path: Path) -> None:
    path = str(capture_fixture(tmp_path))
    assert sql("SELECT count(*) FROM runs", path)[0] == 0
    kept = Path(os.environ["XDG_CACHE_HOME"]) / "trajtui" / "tables"
    assert any(kept.iterdir())
    result = CliRunner().invoke(cli, ["cache", "clear"])
    assert result.exit_code == 0
    assert "removed the tables of 1 sql queries' paths" in result.stdout
    assert not any(kept.iterdir())


def test_a_path_that_holds_the_cache_is_queried_from_a_temporary_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # trajtui ~: the tables' cache (~/.cache/trajtui/tables) is inside the path opened
    home = tmp_path / "home"
    (home / "evals").mkdir(parents=True)
    path = str(capture_fixture(home / "evals"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    before = sorted(p.relative_to(home) for p in home.rglob("*"))
    code, out, err = sql("SELECT count(*) AS runs FROM runs", str(home))
    assert code == 0, err
    assert sorted(p.relative_to(home) for p in home.rglob("*")) == before
    assert out == sql("SELECT count(*) AS runs FROM runs", path)[1]  # the runs the file has


def test_times_and_days_are_utc_whatever_the_local_time_zone(tmp_path: Path) -> None:
    """A run started at 23:30 UTC is of that day in UTC, as the table stores it and Spark
    reads it (README: the same questions on Spark): not the next day in Tokyo."""
    started = capture("late", [step_message("hi", 0)], metadata={"started": "2026-01-03T23:30:00Z"})
    path = str(write_jsonl(tmp_path / "late.jsonl", [started]))
    query = "SELECT strftime(started, '%Y-%m-%d %H:%M') AS at, started FROM runs"
    done = subprocess.run(
        [sys.executable, "-m", "trajtui", "sql", query, path, "--csv"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "TZ": "Asia/Tokyo"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1:] == ["2026-01-03 23:30,2026-01-03T23:30:00+00:00"]
