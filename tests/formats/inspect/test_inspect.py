"""Inspect AI logs through the CLI, as a user reads them: ``.eval`` zips (Zstandard or
deflate, finished or still journalling, chunked), ``.json`` logs, vitals' logs, a log dir."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.formats.inspect import builders as b
from trajtui.cli import cli


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), env={"COLUMNS": "200"})
    return result.exit_code, result.stdout, result.stderr


def _rows(path: Path, *extra: str) -> dict[str, dict[str, Any]]:
    code, out, err = _run("ls", str(path), "--json", *extra)
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines() if line.strip()]
    return {str(r["ref"]).split("::")[-1]: r for r in rows}


def test_an_eval_log_lists_a_run_per_sample_and_epoch_with_its_scores(tmp_path: Path) -> None:
    rows = _rows(b.write_eval(tmp_path / "a.eval"))
    assert sorted(rows) == sorted(
        ["s1/epoch-1", "2/epoch-1", "s3/epoch-1", "s1/epoch-2", "2/epoch-2", "s3/epoch-2"]
    )
    assert rows["s1/epoch-1"]["status"] == "correct" and rows["s1/epoch-1"]["score"] == 1.0
    assert rows["s1/epoch-2"]["status"] == "incorrect" and rows["s1/epoch-2"]["pass"] is False
    assert rows["s3/epoch-1"]["status"] == "error" and rows["s3/epoch-1"]["score"] is None
    assert rows["s1/epoch-1"]["score_label"] == "match"
    assert rows["2/epoch-1"]["tokens_in"] == 167 and rows["2/epoch-1"]["tokens_out"] == 27
    assert rows["s3/epoch-1"]["tokens_in"] is None  # no model call: unknown, not 0
    assert rows["s1/epoch-1"]["duration_ms"] == 824.0
    assert rows["s1/epoch-1"]["metadata"]["task"] == "tiny"
    assert rows["s1/epoch-1"]["metadata"]["model"] == "mockllm/model"


def test_deflated_and_zstandard_logs_list_the_same(tmp_path: Path) -> None:
    z = _rows(b.write_eval(tmp_path / "z" / "a.eval", zstd=True))
    d = _rows(b.write_eval(tmp_path / "d" / "a.eval", zstd=False))
    assert zipfile.ZipFile(tmp_path / "z" / "a.eval").infolist()[0].compress_type == 93

    def strip(rows: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        return {
            k: {f: v for f, v in r.items() if f not in ("ref", "source")} for k, r in rows.items()
        }

    assert strip(z) == strip(d)


def test_a_damaged_sample_keeps_its_summary_row_and_is_one_line_when_opened(
    tmp_path: Path,
) -> None:
    items = b.samples()
    path = b.write_eval(tmp_path / "a.eval", items[:1], zstd=False)
    # the sample member replaced by bytes that are not JSON: listed from its summary
    with zipfile.ZipFile(path) as zf:
        members = [(i.filename, zf.read(i.filename)) for i in zf.infolist()]
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in members:
            zf.writestr(name, b"{not json" if name.startswith("samples/") else data)
    code, out, err = _run("ls", str(path))
    assert code == 0 and "s1/epoch-1" in out and "correct" in out
    code, out, err = _run("show", str(path), "s1/epoch-1/step-1")
    assert code != 0
    assert "Traceback" not in out + err
    line = [x for x in err.splitlines() if x.strip()]
    assert len(line) == 1 and "samples/s1_epoch_1.json" in line[0]


def test_a_sample_opened_shows_its_model_and_tool_calls_with_the_tool_error(
    tmp_path: Path,
) -> None:
    path = b.write_eval(tmp_path / "a.eval")
    code, out, err = _run("show", str(path), "2/epoch-1")
    assert code == 0, err
    assert "tool calls 1" in out and "tool errors 1" in out
    code, out, err = _run("show", str(path), "2/epoch-1/step-3")
    assert code == 0, err
    assert "add" in out and "negative numbers are not supported" in out
    # in time order: the tool event is written after its span begins, its timestamp first
    code, out, err = _run("show", str(path), "2/epoch-1")
    lines = [x.split() for x in out[out.index("steps (6)") :].splitlines()[1:]]
    assert [x[0] for x in lines[:4]] == ["1", "2", "3", "4"]
    assert "tool" in lines[1] and "add" in lines[2] and "error" in lines[2]
    rows = _rows(path)
    assert rows["2/epoch-1"]["tool_calls"] == 1  # read while listing, as opening it counts


def test_the_log_figures_are_the_files_own(tmp_path: Path) -> None:
    path = b.write_eval(tmp_path / "a.eval", head=b.header(accuracy=0.123))
    code, out, err = _run("show", str(path), "s1/epoch-1")
    assert code == 0, err
    assert "log success" in out and "accuracy 0.123 (match, as the log says)" in out
    assert "log match accuracy  0.123" in out


def test_a_log_still_being_written_lists_what_its_journal_holds(tmp_path: Path) -> None:
    items = b.samples()[:4]
    path = b.write_eval(tmp_path / "a.eval", items, finished=False)
    names = zipfile.ZipFile(path).namelist()
    assert "header.json" not in names
    rows = _rows(path)
    assert len(rows) == 4
    assert {r["metadata"]["log_status"] for r in rows.values()} == {"started"}
    code, out, err = _run("show", str(path), "s1/epoch-1")
    assert code == 0 and "log started" in out


def test_summaries_too_big_to_read_at_once_are_read_from_the_journal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = b.write_eval(tmp_path / "a.eval")
    whole = zipfile.ZipFile(path).getinfo("summaries.json").file_size
    monkeypatch.setattr("trajtui.formats.inspect.source.MAX_SMALL", whole - 1)
    rows = _rows(path)
    assert len(rows) == 6 and rows["s1/epoch-2"]["status"] == "incorrect"


def test_a_json_log_is_read_sample_by_sample_with_every_count(tmp_path: Path) -> None:
    path = b.write_json(tmp_path / "log.json")
    rows = _rows(path)
    assert len(rows) == 6
    assert rows["2/epoch-1"]["tool_calls"] == 1 and rows["2/epoch-1"]["tool_errors"] == 1
    assert rows["s1/epoch-1"]["tool_errors"] == 0 and rows["s1/epoch-1"]["steps"] == 6
    code, out, err = _run("show", str(path), "2/epoch-2/step-3")
    assert code == 0 and "negative numbers are not supported" in out


def test_a_json_log_that_breaks_lists_what_precedes_the_break_and_says_where(
    tmp_path: Path,
) -> None:
    path = b.write_json(tmp_path / "log.json")
    text = path.read_text()
    path.write_text(text[: text.index('"id": "s3"') + 40])  # cut inside the third sample
    code, out, err = _run("ls", str(path))
    assert "Traceback" not in out + err
    assert any(line.startswith(f"{path}:") and "truncated" in line for line in err.splitlines())
    assert "s1/epoch-1" in out and "2/epoch-1" in out  # the samples before the break


def test_a_vitals_log_is_read_as_written(tmp_path: Path) -> None:
    path = b.write_json(tmp_path / "vitals.json", b.vitals_log())
    rows = _rows(path)
    assert rows["conditional-grouped-summary/epoch-1"]["status"] == "partial"
    assert rows["conditional-grouped-summary/epoch-1"]["score"] == 0.5
    # a tool call with no result: counted, not a failure
    assert rows["after-stat-bar-heights/epoch-1"]["tool_calls"] == 1
    assert rows["after-stat-bar-heights/epoch-1"]["tool_errors"] == 0
    assert rows["after-stat-bar-heights/epoch-1"]["metadata"]["model"] == "claude-3-7-sonnet-latest"
    code, out, _ = _run("show", str(path), "after-stat-bar-heights/epoch-1")
    assert "accuracy 59.6154" in out  # 0-100 as the file says


def test_listing_files_is_not_a_log(tmp_path: Path) -> None:
    (tmp_path / "logs.json").write_text(json.dumps({"2025-x.json": b.header()}))
    code, out, err = _run("ls", str(tmp_path / "logs.json"))
    assert code == 1


def test_a_truncated_eval_is_one_line(tmp_path: Path) -> None:
    path = b.write_eval(tmp_path / "a.eval")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    code, out, err = _run("ls", str(path))
    assert "Traceback" not in out + err
    assert code == 1 and len([x for x in err.splitlines() if x.strip()]) == 1


def test_a_log_dir_lists_every_sample_and_two_logs_compare_sample_by_sample(
    tmp_path: Path,
) -> None:
    before = b.samples()
    after = [dict(s) for s in before]
    after[0] = b.sample("s1", 1, answer="The answer is 3", value="I")  # a flip: pass to fail
    b.write_eval(tmp_path / "logs" / "a.eval", before)
    b.write_eval(tmp_path / "logs" / "b.eval", after, head=b.header(model="openai/gpt-x"))
    code, out, err = _run("ls", str(tmp_path / "logs"))
    assert code == 0 and out.count("/epoch-") == 12
    code, out, err = _run(
        "diff", str(tmp_path / "logs" / "a.eval"), str(tmp_path / "logs" / "b.eval")
    )
    assert "Traceback" not in out + err
    assert "flips: pass→fail 1 · fail→pass 0" in out
    flip = next(line for line in out.splitlines() if line.startswith("s1/epoch-1"))
    assert "correct" in flip and "incorrect" in flip and "pass→fail" in flip


def test_queries_read_the_model_task_scorer_and_status(tmp_path: Path) -> None:
    b.write_eval(tmp_path / "logs" / "a.eval")
    b.write_eval(tmp_path / "logs" / "b.eval", head=b.header(model="openai/gpt-x", task="other"))
    code, out, _ = _run("ls", str(tmp_path / "logs"), "--where", "model:gpt-x status:incorrect")
    assert code == 0 and [x for x in out.splitlines() if "/epoch-" in x] == [
        x for x in out.splitlines() if "b.eval::s1/epoch-2" in x
    ]
    code, out, _ = _run(
        "ls", str(tmp_path / "logs"), "--where", "task:tiny metadata.scorer:match score<1"
    )
    assert code == 0 and "a.eval::s1/epoch-2" in out and "b.eval" not in out


def test_a_chunked_sample_is_put_together(tmp_path: Path) -> None:
    """The chunked layout (inspect_ai 0.3.285's ``convert-chunked``): the sample's messages,
    events and attachments in chunks named by their first item's index."""
    s = b.sample(2, 1, question="Say hello", answer="hello", tool_error=True)
    events = s.pop("events")
    pool = s["events_data"]["messages"] + [s["messages"][-1]]
    s.pop("messages")
    s.pop("events_data")
    s.pop("attachments")
    s["message_refs"] = [[0, 4]]
    folder = "samples/2_epoch_1/"
    extra = {folder + "sample.json": json.dumps(s).encode()}
    for start in range(0, len(events), 3):
        extra[f"{folder}events/{start}.json"] = json.dumps(events[start : start + 3]).encode()
    extra[folder + "messages/0.json"] = json.dumps(pool[:3]).encode()
    extra[folder + "messages/3.json"] = json.dumps(pool[3:]).encode()
    path = b.write_eval(tmp_path / "c.eval", [], extra=extra, zstd=False)
    with zipfile.ZipFile(path) as zf:  # the summaries name the sample, as Inspect's do
        members = {i.filename: zf.read(i.filename) for i in zf.infolist()}
    full = b.sample(2, 1, question="Say hello", answer="hello", tool_error=True)
    members["summaries.json"] = json.dumps([b.summary_of(full)]).encode()
    path.unlink()
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    code, out, err = _run("show", str(path), "2/epoch-1")
    assert code == 0, err
    assert "steps 6" in out and "tool errors 1" in out and "messages  4" in out


def test_help_names_inspect_logs() -> None:
    code, out, _ = _run("--help")
    assert code == 0 and "Inspect AI logs (.eval, .json)" in " ".join(out.split())


def test_a_log_with_no_samples_says_so_with_its_status_and_error(tmp_path: Path) -> None:
    head = b.header(status="error")
    head["error"] = {"message": "RuntimeError('no model')", "traceback": "", "traceback_ansi": ""}
    for path in (
        b.write_json(tmp_path / "log.json", b.json_log([], head=head)),
        b.write_eval(tmp_path / "log.eval", [], head=head),
    ):
        code, out, err = _run("ls", str(path))
        assert "Traceback" not in out + err
        assert f"{path}: no samples in this log (status error: RuntimeError('no model'))" in err


def test_a_very_old_sample_with_one_score_is_scored_by_the_logs_scorer(tmp_path: Path) -> None:
    s = b.sample("s1", 1, value="I", scorers=("match",))
    s["score"] = s.pop("scores")["match"]  # before 0.3.3x: a single ``score``
    head = b.header(scorers=("match",))
    rows = _rows(b.write_json(tmp_path / "old.json", b.json_log([s], head=head)))
    assert rows["s1/epoch-1"]["status"] == "incorrect"
    assert rows["s1/epoch-1"]["score_label"] == "match"


def test_a_header_with_nan_metrics_is_read(tmp_path: Path) -> None:
    """One scored sample: Inspect's stderr is NaN, which Python's json writes as ``NaN``."""
    head = b.header()
    head["results"]["scores"][0]["metrics"]["stderr"]["value"] = float("nan")
    path = b.write_eval(tmp_path / "a.eval", b.samples()[:1], head=head)
    code, out, err = _run("show", str(path), "s1/epoch-1")
    assert code == 0, err
    assert "log success" in out and "stderr nan (match, as the log says)" in out


def test_a_tool_event_marked_failed_without_an_error_is_a_failed_call(tmp_path: Path) -> None:
    s = b.sample("s1", 1)
    tool = next(e for e in s["events"] if e["event"] == "tool")
    tool["failed"] = True
    rows = _rows(b.write_json(tmp_path / "log.json", b.json_log([s])))
    assert rows["s1/epoch-1"]["tool_calls"] == 1 and rows["s1/epoch-1"]["tool_errors"] == 1


def test_searching_every_sample_of_a_json_log_reads_the_document_once_more(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every sample read in order (grep, stats) is one stream of the document, not one per
    sample (a 1 GB log of 500 samples was streamed 500 times): the file is opened as often
    for 12 samples as for 4."""
    from trajtui.core.io import safeio

    opened: list[str] = []
    real = safeio.open_fd

    def counting(name: str, **kwargs: Any) -> Any:
        opened.append(name)
        return real(name, **kwargs)

    monkeypatch.setattr(safeio, "open_fd", counting)
    opens = []
    for n in (4, 12):
        items = [b.sample(f"s{i}", 1, tool_error=i % 2 == 0) for i in range(n)]
        path = b.write_json(tmp_path / f"log{n}.json", b.json_log(items))
        opened.clear()
        code, out, err = _run("grep", str(path), "negative numbers", "--no-cache")
        assert code == 0 and out.count("error  negative numbers") == n // 2
        opens.append(opened.count(str(path)))
    assert opens[0] == opens[1]


def test_a_samples_score_over_its_epochs_is_the_logs_reduction(tmp_path: Path) -> None:
    """s1 right in epoch 1, wrong in epoch 2: the log's reduction (the mean) is 0.5."""
    for path in (b.write_eval(tmp_path / "a.eval"), b.write_json(tmp_path / "a.json")):
        code, out, err = _run("show", str(path), "s1/epoch-2")
        assert code == 0, err
        assert "log match over epochs  0.5" in out and "log includes over epochs  0.5" in out


def test_no_step_is_before_the_sample_started(tmp_path: Path) -> None:
    """Inspect writes the init events before the sample's started_at: offsets count from
    the earliest of the two, never negative."""
    s = b.sample("s1", 1)
    s["started_at"] = "2026-11-26T13:20:06.050000+00:00"  # after the init event (6.001)
    path = b.write_json(tmp_path / "log.json", b.json_log([s]))
    code, out, err = _run("show", str(path), "s1/epoch-1")
    assert code == 0, err
    steps = out[out.index("steps (") :].splitlines()[1:]
    assert "+0ms" in steps[0] and not any(" -" in line.split("  ")[-1] for line in steps)


def test_an_eval_logs_counts_are_the_same_in_ls_stats_export_and_sql(tmp_path: Path) -> None:
    """Listing an .eval reads its summaries first, then each sample once, one at a time:
    its steps and tool calls are on its row, as stats, export and sql count them."""
    path = b.write_eval(tmp_path / "a.eval")
    rows = _rows(path)
    assert rows["2/epoch-1"]["tool_calls"] == 1 and rows["2/epoch-1"]["tool_errors"] == 1
    assert rows["s1/epoch-1"]["tool_calls"] == 1 and rows["s1/epoch-1"]["tool_errors"] == 0
    assert rows["s1/epoch-1"]["tools"] == ["add"]
    code, out, err = _run("show", str(path), "s1/epoch-1")
    assert code == 0 and f"steps ({rows['s1/epoch-1']['steps']})" in out
    code, out, err = _run("stats", str(path), "--json")
    assert code == 0, err
    tools = json.loads(out.splitlines()[0])["tools"]["all"]
    assert tools["calls"] == sum(r["tool_calls"] for r in rows.values())
    where = _rows(path, "--where", "tool_calls>=1")
    assert sorted(where) == sorted(r for r, v in rows.items() if v["tool_calls"] >= 1)
    assert len(where) == 4
    code, out, err = _run("export", str(path), "-f", "jsonl")
    assert code == 0, err
    exported = {json.loads(x)["ref"].split("::")[-1]: json.loads(x) for x in out.splitlines()}
    assert {k: v["tool_calls"] for k, v in exported.items()} == {
        k: v["tool_calls"] for k, v in rows.items()
    }
    sql = "SELECT ref, tool_calls FROM runs ORDER BY ref"
    code, out, err = _run("sql", sql, str(path), "--json", "--no-cache")
    assert code == 0, err
    got = {json.loads(x)["ref"]: json.loads(x)["tool_calls"] for x in out.splitlines()}
    assert got == {k: v["tool_calls"] for k, v in rows.items()}


@pytest.mark.parametrize(
    ("args", "wanted"),
    [
        (("show", "{path}", "s1/epoch-1"), ["samples/s1_epoch_1.json"]),
        (
            ("diff", "{path}", "s1/epoch-1", "s1/epoch-2"),
            ["samples/s1_epoch_1.json", "samples/s1_epoch_2.json"],
        ),
        (("export", "{path}", "s1/epoch-1"), ["samples/s1_epoch_1.json"]),
        (("notes", "{path}", "s1/epoch-1", "--bookmark"), []),
    ],
    ids=["show", "diff", "export", "notes"],
)
def test_a_command_about_runs_named_reads_those_samples_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...], wanted: list[str]
) -> None:
    """``show``, ``diff`` and ``export`` of references, and ``notes REF``, need those runs
    only: the listing's pass that reads every sample for its counts (what ``ls`` prints) is
    left out; what they print is the same, and ``ls`` still counts every row."""
    from trajtui.formats.inspect import source

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    path = b.write_eval(tmp_path / "a.eval")
    read: list[str] = []
    real = source.read_sample

    def spy(archive: Any, name: str) -> Any:
        read.append(name)
        return real(archive, name)

    monkeypatch.setattr(source, "read_sample", spy)
    code, out, err = _run(*(a.format(path=path) for a in args))
    assert code in (0, 1), err  # (diff: 1 when the runs differ)
    assert read == wanted
    if args[0] == "show":
        assert "tool calls 1" in out and "tool errors 0" in out
    read.clear()
    rows = _rows(path)
    assert len(read) == len(rows) == 6  # (ls: every sample read once, for its counts)
    if args[0] == "show":
        assert f"steps ({rows['s1/epoch-1']['steps']})" in out
