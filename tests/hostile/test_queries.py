"""Queries and search patterns an attacker (or a slipped key) writes (issue 23, items 17 to
20): deep nesting is one line in the CLI and an underlined message in the TUI's filter box,
never a crash; a pattern that is not valid UTF-8 is one line; the grep prefilter never skips a
record RE2 finds a match in; a case-insensitive search finds what the file writes escaped."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import re2
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from textual.widgets import Input

from tests.formats.acp.builders import capture, step_message, write_jsonl
from tests.helpers import forked
from tests.helpers.ui import listed, running, screen_lines, settle
from tests.helpers.workspace import open_paths
from trajtui.core.search import Hit, PatternError, Search, compile_needle


def run(*args: str | bytes) -> subprocess.CompletedProcess[str]:
    return forked.run(
        [sys.executable, "-m", "trajtui", *args, "--no-cache"],
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture
def runs(tmp_path: Path) -> Path:
    return write_jsonl(
        tmp_path / "runs.jsonl",
        [capture("alpha", input="find x"), capture("beta", input="find y")],
    )


DEEP = [
    "(" * 260 + "x" + ")" * 260,
    "(" * 1000,
    "-" * 1000 + "x",
    "-" * 1000,
    "NOT " * 1000 + "x",
    "(NOT -" * 400 + "x",
    "-(" * 500 + "x",
]
"""Queries nested deeper than any person writes: parentheses, negations and both."""


@pytest.mark.parametrize("query", DEEP, ids=lambda q: f"{q[:8]}..{len(q)}")
def test_a_query_nested_too_deep_is_one_line_and_exit_2(runs: Path, query: str) -> None:
    out = run("ls", str(runs), "--where", query)
    assert out.returncode == 2, out.stderr
    (line,) = out.stderr.splitlines()
    assert line.startswith("trajtui: --where: col ")
    assert "nested too deep" in line
    assert out.stdout == ""


def test_nesting_a_person_writes_still_parses(runs: Path) -> None:
    query = "(" * 30 + "alpha" + ")" * 30 + " " + "NOT " * 11 + "beta"
    out = run("ls", str(runs), "--where", query)
    assert out.returncode == 0, out.stderr
    assert [ln.split()[0] for ln in out.stdout.splitlines()[1:]] == ["alpha"]


@pytest.mark.parametrize("query", ["(" * 300 + "x", "-" * 1000 + "x"], ids=["parens", "minus"])
async def test_a_query_nested_too_deep_is_underlined_in_the_filter_box(
    runs: Path, query: str
) -> None:
    async with running([str(runs)]) as (pilot, app, screen):
        await pilot.press("f")
        screen.query_one("#filter", Input).insert_text_at_cursor(query)  # pasted
        await settle(pilot)
        lines = screen_lines(app)
        message = next((ln for ln in lines if "nested too deep" in ln), None)
        assert message is not None, "\n".join(lines)
        assert "^" in lines[lines.index(message) - 1]
        assert listed(screen) == ["alpha", "beta"]  # left as it was
        await pilot.press("ctrl+u", *"alpha")
        await settle(pilot)
        assert listed(screen) == ["alpha"]  # the box still works


async def test_a_step_filter_nested_too_deep_is_underlined(runs: Path) -> None:
    async with running([str(runs)]) as (pilot, app, screen):
        await pilot.press("enter", "f")
        await settle(pilot)
        box = screen.focused
        assert isinstance(box, Input)
        box.insert_text_at_cursor("(" * 300 + "x")
        await settle(pilot)
        assert any("nested too deep" in ln for ln in screen_lines(app))


# -- grep: patterns that are not UTF-8, RE2 syntax, case folds the file writes escaped ---------


@pytest.fixture
def spelled(tmp_path: Path) -> Path:
    """Records as Python's json.dumps writes them (every non-ASCII character escaped), and
    one as written raw: the prefilter reads raw bytes, the matcher decoded text."""
    recs = [
        capture("x1", output="code 7abc found"),
        capture("x2", output="temperature in \u212aelvin"),  # the Kelvin sign
        capture("x3", output="a \u017fign of life"),  # long s folds with s
        capture("x4", output="Stra\u00dfe"),  # folds with capital sharp s, not with ss
        capture("x5", output="\u03b8 and \u03d1 and \u039c\u00b5"),  # theta forms, mu/micro
        capture("x6", output="\u1c81 letter"),  # a second small de, folds with д
        capture("x7", trajectory=[step_message("x", 1, weight=1e5)]),
        capture("x8", output="1 \u212b wide"),
        capture("x9", output="nothing here"),
    ]
    path = tmp_path / "spelled.jsonl"
    lines = [json.dumps(r) for r in recs]
    lines.append(json.dumps(capture("x10", output="\u212aELVIN raw"), ensure_ascii=False))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def refs(out: subprocess.CompletedProcess[str]) -> list[str]:
    return list(dict.fromkeys(line.split("  ")[0] for line in out.stdout.splitlines()))


@pytest.mark.parametrize(
    ("args", "found"),
    [
        (["-E", "[[:digit:]]abc"], ["x1"]),
        (["-E", "[[:^alpha:]]abc"], ["x1"]),
        (["-E", "\\pNabc"], ["x1"]),
        (["-E", "\\d\\Qabc\\E f"], ["x1"]),
        (["-E", "(?i)KELVIN"], ["x2", "x10"]),
        (["-i", "kelvin"], ["x2", "x10"]),
        (["-i", "-E", "kel+vin"], ["x2", "x10"]),
        (["-i", "SIGN OF"], ["x3"]),
        (["-i", "STRA\u1e9eE"], ["x4"]),
        (["-i", "\u03d1 AND \u03f4"], ["x5"]),
        (["-i", "\u03bc\u03bc"], ["x5"]),
        (["-i", "\u0434 LETTER"], ["x6"]),
        (["-i", "\u00e5 wide"], ["x8"]),
        (["100000.0"], ["x7-step-1"]),  # a number the file writes 1e5
    ],
    ids=lambda a: " ".join(a) if isinstance(a, list) and a and a[0].startswith("-") else None,
)
def test_grep_finds_what_re2_finds_however_the_file_spells_it(
    spelled: Path, args: list[str], found: list[str]
) -> None:
    out = run("grep", str(spelled), *args)
    assert (out.returncode, refs(out)) == (0, found), out.stderr
    assert "Warning" not in out.stderr
    assert len(out.stderr.splitlines()) == 1  # the count line, nothing else


def test_a_pattern_that_is_not_utf8_is_one_line(spelled: Path) -> None:
    for args in (["\udcffab"], ["-E", "a\udcfe+"], ["-i", "ab\udcff"]):
        out = forked.run(
            [sys.executable, "-m", "trajtui", "grep", str(spelled), *args, "--no-cache"],
            capture_output=True,
            timeout=60,
        )
        assert out.returncode == 2, out.stderr
        (line,) = out.stderr.decode().splitlines()
        assert line.startswith("trajtui grep: the pattern is not valid UTF-8 (byte 0x"), line


async def test_the_tui_search_finds_what_re2_finds(spelled: Path) -> None:
    from trajtui.ui.screens.grep import GrepScreen

    async with running([str(spelled)]) as (pilot, app, screen):
        await pilot.press("slash", "ctrl+r", *"[[:digit:]]abc")
        await settle(pilot, 0.3)
        grep = app.screen
        assert isinstance(grep, GrepScreen)
        assert [h.run for h in grep.result.hits] == ["x1"]
        await pilot.press("ctrl+r", "ctrl+u", *"kelvin")
        await settle(pilot, 0.3)
        assert [h.run for h in grep.result.hits] == ["x2", "x10"]
        assert "2 hits in 2 runs" in "\n".join(screen_lines(app))


def escape_every_character(value: Any) -> str:
    """``value`` as JSON with every character of every string written as a ``\\uXXXX``
    escape, hex letters upper and lower case in turn: JSON allows any character so (B1)."""
    if isinstance(value, str):
        units = value.encode("utf-16-be")
        codes = [f"{int.from_bytes(units[k : k + 2], 'big'):04x}" for k in range(0, len(units), 2)]
        return '"' + "".join("\\u" + (c.upper() if n % 2 else c) for n, c in enumerate(codes)) + '"'
    if isinstance(value, dict):
        return (
            "{"
            + ",".join(
                f"{escape_every_character(k)}:{escape_every_character(v)}" for k, v in value.items()
            )
            + "}"
        )
    if isinstance(value, list):
        return "[" + ",".join(escape_every_character(v) for v in value) + "]"
    return json.dumps(value)


@pytest.fixture
def ascii_escaped(tmp_path: Path) -> Path:
    """Records whose ASCII letters the file writes as ``\\u`` escapes, whole or in part."""
    path = tmp_path / "escaped.jsonl"
    lines = [
        json.dumps(capture("e1", input="x")).replace('"x"', '"\\u0070assword leaked"'),
        json.dumps(capture("e2", output="y")).replace('"y"', '"t\\u0065st \\u0061bc1"'),
        escape_every_character(capture("e3", output="the Secret word")),
        json.dumps(capture("e4", output="nothing here")),
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("args", "found"),
    [
        (["password"], ["e1"]),
        (["-i", "PASSWORD"], ["e1"]),
        (["-E", "pass(word|phrase)"], ["e1"]),
        (["test"], ["e2"]),
        (["abc1"], ["e2"]),
        (["-E", "\\x{61}bc1"], ["e2"]),
        (["secret word"], []),
        (["-i", "secret word"], ["e3"]),
        (["Secret"], ["e3"]),
        (["-E", "S[a-z]+ret w"], ["e3"]),
    ],
    ids=" ".join,
)
def test_grep_finds_ascii_letters_the_file_writes_escaped(
    ascii_escaped: Path, args: list[str], found: list[str]
) -> None:
    out = run("grep", str(ascii_escaped), *args)
    assert (out.returncode, refs(out)) == (0 if found else 1, found), out.stderr


async def test_the_tui_search_finds_ascii_letters_the_file_writes_escaped(
    ascii_escaped: Path,
) -> None:
    async with running([str(ascii_escaped)]) as (pilot, app, screen):
        await pilot.press("slash", *"password")
        await settle(pilot, 0.3)
        assert "1 hit in 1 run" in "\n".join(screen_lines(app))
        await pilot.press("ctrl+u", *"secret w")  # no capital letter: ignores case
        await settle(pilot, 0.3)
        assert "1 hit in 1 run" in "\n".join(screen_lines(app))
        await pilot.press("ctrl+r", "ctrl+u", *"t[aeiou]st ab")
        await settle(pilot, 0.3)
        assert "1 hit in 1 run" in "\n".join(screen_lines(app))


# -- the prefilter skips only records that cannot match -----------------------------------

TEXTS = [
    "code 7abc found",
    "x]abc and [:digit:] abc",
    "temperature in \u212aelvin, KELVIN, kelvin",
    "a \u017fign, a SIGN, \u017f\u017f",
    "Stra\u00dfe STRA\u1e9eE strasse",
    "\u03b8\u03d1\u03f4\u0398 \u00b5\u03bc\u039c \u03c3\u03c2\u03a3",
    "\u1c81\u0434\u0414 letters",
    "1 \u212b and \u00e5\u00c5",
    'say "hi" \\ back\\slash\ttab\nnewline a/b <tag>&',
    "a.c abc a\u00e9c ab+c a{2}c a{,2}c aac",
    "caf\u00e9 CAF\u00c9 \u0130stanbul istanbul \u0131",
    "\U0001f600 emoji \U00010400\U00010428 deseret",
]
"""Texts whose case folds, escapes and RE2 syntax look-alikes a prefilter could miss."""

PATTERNS = [
    "[[:digit:]]abc",
    "[[:^alpha:]]abc",
    "[[:alpha:]]+bc",
    "[]a]bc",
    "[^]a]bc",
    "[[:]abc",
    "\\pLbc",
    "\\p{Greek}\\p{Greek}",
    "\\PNabc",
    "\\p{^Greek}bc",
    "(?i)KELVIN",
    "(?i:KEL)vin",
    "k(?i)ELVIN",
    "(?-i)kelvin",
    "(?s)a.c",
    "(?U)ab+c",
    "\\Qa.c\\E",
    "\\Qab\\E*c",
    "a\\Q\\E*bc",
    "a(?i)*bc",
    "ab?c",
    "ab{0}c",
    "ab{0,2}c",
    "a{2}c",
    "a{,2}c",
    "a{x}",
    "ab*?c",
    "\\x61bc",
    "\\x{62}c",
    "\\141bc",
    "a\\.c",
    "a\\_",
    "back\\\\slash",
    "\\ttab\\nnew",
    "abc|xyz",
    "(abc|x)yz",
    "ab|",
    "^code",
    "found$",
    "\\Acode",
    "\\bSIGN\\b",
    "\u017f\u017f",
    "STRA\u00dfE",
    "\u1e9e",
    "\u03c3\u03c2",
    "\u00c5",
    "caf\u00c9",
    "\u0130stanbul",
    "\u0131",
    "\U0001f600 emoji",
    "\U00010400\U00010428",
    '"hi"',
    "a/b <tag>&",
    "1e5|100000",
    "(?i)\\x{212a}",
    "\\C\\Cabc",
]
"""RE2 syntax of every family: POSIX and Unicode classes, flags, \\Q..\\E, repetitions,
escapes, alternatives, anchors, and the case-fold pairs as literals."""


def _hits(ws: Any, needle: Any) -> list[tuple[str, str, int]]:
    return [
        (e.ref, e.field, e.start) for e in Search(ws.sources, needle).events() if isinstance(e, Hit)
    ]


@pytest.fixture(scope="module")
def every_spelling(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Each text in a record written ASCII-escaped (Python), raw (orjson), with Go's and a
    slash-escaping writer's escapes, and every character escaped; records that match nothing
    between them."""
    path = tmp_path_factory.mktemp("spellings") / "all.jsonl"
    lines = []
    for n, text in enumerate(TEXTS):
        rec = capture(f"r{n}", output=text, trajectory=[step_message(text.upper(), 1)])
        lines.append(json.dumps(rec))
        lines.append(json.dumps({**rec, "id": f"u{n}"}, ensure_ascii=False))
        go = json.dumps({**rec, "id": f"g{n}"}).replace("<", "\\u003c").replace("&", "\\u0026")
        lines.append(go.replace("/", "\\/"))
        lines.append(escape_every_character({**rec, "id": f"e{n}"}))
        lines.append(json.dumps(capture(f"z{n}", output="filler")))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    ws = open_paths([str(path)])
    for _ in ws.scan():
        pass
    return ws


def _same_with_and_without_prefilter(ws: Any, pattern: str, regex: bool, fold: bool) -> None:
    try:
        needle = compile_needle(pattern, regex=regex, ignore_case=fold)
    except PatternError:
        return
    everything = dataclasses.replace(needle, prefilter=None)
    assert _hits(ws, needle) == _hits(ws, everything), (pattern, regex, fold)


@pytest.mark.parametrize("fold", [False, True], ids=["case", "ignore-case"])
def test_the_prefilter_never_skips_a_record_that_matches(every_spelling: Any, fold: bool) -> None:
    for pattern in PATTERNS:
        _same_with_and_without_prefilter(every_spelling, pattern, True, fold)
    for text in TEXTS:
        for word in {*text.split(), text[2:9], text.upper()[:7]}:
            _same_with_and_without_prefilter(every_spelling, word, False, fold)
            _same_with_and_without_prefilter(every_spelling, re2.escape(word), True, fold)


PIECES = [
    *"abcAKk.+*?|()[]{}^$-,0129:_",
    "\u212a",
    "\u017f",
    "\u00df",
    "\u03d1",
    "\\",
    "\\Q",
    "\\E",
    "\\pL",
    "\\x{6b}",
    "\\141",
    "[[:digit:]]",
    "[[:^alpha:]]",
    "(?i)",
    "(?-i)",
    "(?i:",
    "(?P<n>",
    "{2}",
    "{0,}",
    "\\b",
    "\\d",
    "\\n",
]


@settings(
    max_examples=int(os.environ.get("TRAJTUI_FUZZ_EXAMPLES", "60")) * 3,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(pieces=st.lists(st.sampled_from(PIECES), min_size=1, max_size=12), fold=st.booleans())
def test_the_prefilter_of_any_pattern_never_skips_a_match(
    every_spelling: Any, pieces: list[str], fold: bool
) -> None:
    _same_with_and_without_prefilter(every_spelling, "".join(pieces), True, fold)
