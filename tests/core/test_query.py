"""The query language (trajtui.core.query): parsing, errors with their spans, every kind of
field on small fixtures, and the row fields queries read in every format."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.contract.test_neutral_model import _forecast_eval
from tests.formats.acp.builders import (
    capture,
    step_message,
    step_tool,
    summary,
    trials,
    write_jsonl,
)
from tests.formats.atif import builders as ba
from tests.formats.eval_results import builders as be
from tests.formats.ultraplan import builders as bu
from tests.helpers.workspace import open_paths
from trajtui.core.model import Problem, Run, RunSummary
from trajtui.core.query import (
    FIELDS,
    Columns,
    QueryError,
    facts_of_problem,
    facts_of_run,
    facts_of_summary,
    parse,
)
from trajtui.core.workspace import Workspace

# -- fixtures ----------------------------------------------------------------------------------


def _open(path: Path) -> Workspace:
    ws = open_paths([str(path)])
    for _ in ws.scan():
        pass
    return ws


@pytest.fixture
def ws(tmp_path: Path) -> Iterator[Workspace]:
    """Five capture runs, one of each kind of thing a query asks about."""
    recs = [
        capture(
            "bash-slow",
            [
                step_tool("Bash", "pending", 10),
                step_tool("toolu_01x", "completed", 20),
                step_tool("Read", "failed", 30),
                *[step_message(f"chunk {n}", 40 + n) for n in range(40)],
            ],
            input="Fix the build\nThe linker fails with ERR_42",
            metadata={"agent": "codex-cli", "category": "ui", "turns": 12},
            duration=90_000,
            score={"pass": False, "score": 0.2},
        ),
        capture(
            "read-quick",
            [step_tool("ReadFile", "completed", 10)],
            metadata={"agent": "claude", "category": "db", "turns": 3},
            duration=500,
            score={"pass": True, "score": 0.9},
        ),
        capture(
            "timed-out",
            [],
            errors=["Request timed out after 60000ms"],
            metadata={"agent": "codex", "category": "db"},
            duration=60_000,
        ),
        capture("legacy", tool_errors=None, status="passed", metadata={}, duration=61_000),
        capture("no-score", metadata={"agent": "Codex"}, duration=1_000),
    ]
    w = _open(write_jsonl(tmp_path / "runs.jsonl", recs))
    yield w
    w.close()


def _rows(ws: Workspace) -> list[RunSummary]:
    source = ws.sources[0]
    out = [source.entry(i) for i in range(len(source))]
    assert all(isinstance(e, RunSummary) for e in out)
    return out  # type: ignore[return-value]


def refs(ws: Workspace, text: str) -> list[str]:
    """The runs ``text`` keeps, judged one summary at a time; the same as judged a column
    at a time from the source's table (the run list's way)."""
    q = parse(text)
    one_by_one = [s.ref for s in _rows(ws) if q.matches(facts_of_summary(s))]
    source = ws.sources[0]
    table = source.table
    hay = [f"{table.ref(i)} {table.titles()[i]} ".casefold() for i in range(len(table))]
    by_column = q.select(Columns(table, lambda: hay), table.run_rows(len(table)))
    assert [table.ref(i) for i in by_column] == one_by_one, text
    return one_by_one


# -- the fields, one kind at a time ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", ["bash-slow", "read-quick", "timed-out", "legacy", "no-score"]),
        # words and phrases: reference, title (input), any case
        ("BASH", ["bash-slow"]),
        ('"fix the build"', ["bash-slow"]),
        ("read -quick", []),
        ("-timed -legacy -no-score", ["bash-slow", "read-quick"]),
        ("bash*slow", ["bash-slow"]),
        # status: the word, its start, the outcome or the verdict
        ("status:timeout", ["timed-out"]),
        ("status:pass", ["read-quick", "legacy"]),  # legacy "passed" -> pass
        ("is:fail", ["bash-slow"]),
        ("s:unknown", ["no-score"]),  # a run that says done: no verdict
        ('status:"pass"', ["read-quick", "legacy"]),
        ("-status:pass", ["bash-slow", "timed-out", "no-score"]),
        # numbers; a run without the value never matches a comparison
        ("score<0.5", ["bash-slow"]),
        ("score>=0.2", ["bash-slow", "read-quick"]),
        ("score:0.9", ["read-quick"]),
        ("score!=0.9", ["bash-slow"]),
        ("-score>0.5", ["bash-slow", "timed-out", "legacy", "no-score"]),
        # counts, with k and M
        ("steps>30", ["bash-slow"]),
        ("steps>0.04k", ["bash-slow"]),
        ("steps<1M steps:1", ["read-quick"]),
        ("tool_calls:2", ["bash-slow"]),
        ("tool_errors>0", ["bash-slow"]),
        # durations need their unit
        ("duration>60s", ["bash-slow", "legacy"]),
        ("duration>=1m", ["bash-slow", "timed-out", "legacy"]),
        ("duration<=500ms", ["read-quick"]),
        ("duration>0.02h", ["bash-slow"]),
        # tool: names, whole, any case; a glob; completions named by call id are no tool
        ("tool:bash", ["bash-slow"]),
        ("tool:Read", ["bash-slow"]),  # not ReadFile
        ("tool:read*", ["bash-slow", "read-quick"]),
        ("tool:toolu*", []),
        # metadata: found in the value, quoted whole, globbed, compared as numbers
        ("agent:codex", ["bash-slow", "timed-out", "no-score"]),
        ('agent:"codex"', ["timed-out", "no-score"]),
        ("agent:cod*i", ["bash-slow"]),
        ("metadata.category:ui", ["bash-slow"]),
        ("metadata.turns>5", ["bash-slow"]),
        ("agent!=claude", ["bash-slow", "timed-out", "no-score"]),
        ("format:acp-capture line<=2", ["bash-slow", "read-quick"]),
        ("pass:false", ["bash-slow"]),
        ("pass:yes", ["read-quick"]),
        # combining: AND binds tighter than OR, parentheses, NOT
        ("tool:Bash OR status:timeout", ["bash-slow", "timed-out"]),
        ("category:db status:pass OR status:timeout", ["read-quick", "timed-out"]),
        ("category:db (status:pass OR legacy)", ["read-quick"]),
        ("category:db AND NOT status:pass", ["timed-out"]),
        ("-(agent:codex OR agent:claude)", ["legacy"]),
        ("NOT NOT tool:Bash", ["bash-slow"]),
        ("is:problem", []),
    ],
)
def test_each_field_kind_keeps_the_runs_it_says(
    ws: Workspace, text: str, expected: list[str]
) -> None:
    assert refs(ws, text) == expected


def test_words_are_found_in_the_whole_input_of_a_run_and_its_title_in_a_row(
    ws: Workspace,
) -> None:
    source = ws.sources[0]
    q = parse("err_42")
    assert q.matches(facts_of_run(source.run(0)))  # second line of the input
    assert q.matches(facts_of_summary(_rows(ws)[0]))  # the title holds the lines too
    assert not parse("input:err_99").matches(facts_of_run(source.run(0)))
    assert parse("input:linker").matches(facts_of_run(source.run(0)))


def test_a_whole_run_and_its_row_answer_every_query_alike(ws: Workspace) -> None:
    source = ws.sources[0]
    for text in ("tool:Bash", "agent:codex", "metadata.turns>5", "tokens>0", "status:timeout"):
        q = parse(text)
        for i, row in enumerate(_rows(ws)):
            assert q.matches(facts_of_run(source.run(i))) == q.matches(facts_of_summary(row))


def test_problem_rows_match_is_problem_and_their_words_only() -> None:
    p = Problem("runs.jsonl", 7, "invalid JSON: unexpected end of data")
    facts = facts_of_problem(p)
    assert parse("is:problem").matches(facts)
    assert parse("invalid json").matches(facts)
    assert not parse("status:fail").matches(facts)
    assert not parse("score<1").matches(facts)
    assert not parse("-is:problem").matches(facts)


# -- errors, with their spans ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message", "span"),
    [
        ("scroe<0.5", "unknown field 'scroe': did you mean score?", (0, 5)),
        ("tool:Bash stpes>3", "unknown field 'stpes': did you mean steps?", (10, 15)),
        ("duration>60", "duration takes a duration with its unit", (9, 11)),
        ("tokens>lots", "tokens takes a count: 30, 100k, 2M (not 'lots')", (7, 11)),
        ("score<high", "score takes a number", (6, 10)),
        ("score:nan", "score takes a number", (6, 9)),
        ("status>3", "status is status, not a number: use status:VALUE", (0, 7)),
        ("tool<3", "tool is tool, not a number", (0, 5)),
        ("pass:maybe", "pass is true or false (not 'maybe')", (5, 10)),
        ("status:", "'status:' needs a value after it", (0, 7)),
        ("(a OR b", "this '(' is not closed", (0, 1)),
        ("a OR b)", "no '(' opens this ')'", (6, 7)),
        ("()", "nothing between these parentheses", (0, 2)),
        ("OR a", "'OR' needs a term before it", (0, 2)),
        ("a OR", "'OR' needs a term after it", (2, 4)),
        ("a AND OR b", "'AND' needs a term after it", (2, 5)),
        ("a NOT", "'NOT' needs a term after it", (2, 5)),
        ('a "open phrase', 'this quote is not closed: add a " at the end', (2, 14)),
        ('""', "an empty phrase", (0, 2)),
        ("metadata.:x", "'metadata.' needs a key", (0, 10)),
        ("metadata.turns>many", "'>' compares numbers: 'many' is not one", (15, 19)),
    ],
)
def test_a_query_that_does_not_parse_says_where_and_why(
    text: str, message: str, span: tuple[int, int]
) -> None:
    with pytest.raises(QueryError) as caught:
        parse(text)
    error = caught.value
    assert message in error.message
    assert (error.start, error.end) == span
    assert str(error).startswith(f"col {span[0] + 1}: ")


def test_an_unknown_name_is_an_error_once_the_metadata_keys_are_known() -> None:
    assert parse("agent:codex").named_keys == ("agent",)  # keys not known yet: a key
    with pytest.raises(QueryError, match="unknown field 'agnet': did you mean agent"):
        parse("agnet:codex", keys={"agent", "category"})
    with pytest.raises(QueryError) as caught:
        parse("zzz:1", keys={"agent"})
    assert "fields: " in caught.value.message and "metadata keys: agent" in caught.value.message
    assert parse("Agent:codex", keys={"agent"}).named_keys == ("Agent",)
    parse("metadata.anything:x", keys=set())  # spelled out: always a metadata key


def test_urls_lowercase_operators_and_dashes_inside_words_are_words() -> None:
    assert type(parse("https://example.org").root).__name__ == "Word"
    assert type(parse("websearch-17").root).__name__ == "Word"
    assert type(parse("a or b").root).__name__ == "And"  # "or" is a word


def test_fields_lists_every_field_with_an_example_that_parses() -> None:
    names = [f.name for f in FIELDS]
    for needed in ("status", "score", "steps", "duration", "cost", "tokens", "tool"):
        assert needed in names
    for f in FIELDS:
        for example in f.example.split("  "):
            parse(example)  # every example shown is a valid query


# -- the row fields queries read, in every format ----------------------------------------------


def _tools_of_steps(run: Run) -> tuple[str, ...]:
    names = set()
    for steps in (run.steps, *(a.steps for a in run.attempts)):
        for s in steps:
            if s.tool:
                names.update(s.tool.split(", "))
    return tuple(sorted(names))


def _forecast(tmp: Path) -> Path:
    return _forecast_eval(tmp)


def _eval(tmp: Path) -> Path:
    doc = be.results_doc(
        [be.sample("b1", "Cafe One", prompt_tokens=900, completion_tokens=60)],
        method="rlm",
        model="gpt-5-nano",
    )
    be.write_json(tmp / "results" / "dev" / "20260118_000001_G1" / "results.json", doc)
    return tmp / "results"


def _ultraplan(tmp: Path) -> Path:
    root = bu.project(tmp / "project")
    bu.write_plan(root, "03-01", bu.plan_md("03-exec", 1, [("Task 1: Build", ["a.md"])], []))
    bu.write_result(root, "03-01-task-01-success.yaml", bu.log(bu.result()))
    return root


def _acp(tmp: Path) -> Path:
    d = tmp / "acp"
    d.mkdir()
    write_jsonl(d / "c.jsonl", [capture("c1", metadata={"agent": {"name": "x"}})])
    write_jsonl(d / "t.jsonl", [trials("t1", [True, False], metadata={"category": "web"})])
    write_jsonl(d / "s.jsonl", [summary("s1", ["Bash", "Read", "Bash"])])
    return d


@pytest.mark.parametrize(
    ("build", "query", "matched"),
    [
        (_acp, "agent.name:x", ["c1"]),
        (_acp, "category:web tool:WebSearch", ["t1"]),
        (_acp, "tool:Bash tool:Read", ["s1"]),
        (_forecast, "model:gpt-run tokens>4k tool:edit_note", ["fed"]),
        (_forecast, "search:pkg.Search -tool:search", ["skipped"]),
        (_eval, "method:rlm tokens_in:900 tokens_out<100", ["20260118_000001_G1"]),
        (_ultraplan, "phase:03-exec plan:03-01", ["03-01"]),
        (ba.job, "agent:terminus tool:edit_file status:pass tokens_in>4000", ["fix-bug__AAAA111"]),
        (ba.job, "task:setup -tool:bash tokens:4240", ["setup__EEEE555"]),
    ],
)
def test_rows_carry_metadata_tools_and_tokens_as_their_runs_do(
    tmp_path: Path, build: object, query: str, matched: list[str]
) -> None:
    ws = _open(build(tmp_path))  # type: ignore[operator]
    q = parse(query)
    hits = []
    try:
        for source in ws.sources:
            for i in range(len(source)):
                row = source.entry(i)
                if not isinstance(row, RunSummary):
                    continue
                run = source.run(i)
                if row.steps is None and run.steps:
                    continue  # a child run listed before it is read (ATIF): nothing known yet
                assert row.metadata == run.metadata, row.ref
                assert (row.tokens_in, row.tokens_out) == (run.tokens_in, run.tokens_out), row.ref
                assert row.tools == _tools_of_steps(run), row.ref
                if q.matches(facts_of_summary(row)):
                    hits.append(row.ref)
    finally:
        ws.close()
    assert sorted(hits) == sorted(matched)
