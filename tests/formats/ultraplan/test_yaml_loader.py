"""ultraplan logs: the safe YAML loader their files are read with (plain data, one-line errors,
no alias bombs or Python tags)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from tests.formats.ultraplan.builders import (
    ALIAS_BOMB,
    PYTHON_TAG,
)
from trajtui.core.io import yamlparse, yamlsafe
from trajtui.core.io.yamlsafe import YamlError

# -- the safe YAML loader --------------------------------------------------------------------


def test_yaml_uses_a_safe_loader_in_c_when_available() -> None:
    assert yamlparse.SafeLoader in (getattr(yaml, "CSafeLoader", None), yaml.SafeLoader)
    assert issubclass(yamlparse.SafeLoader, (yaml.SafeLoader, getattr(yaml, "CSafeLoader", ())))


def test_yaml_plain_data_with_timestamps_kept_as_text() -> None:
    doc = yamlsafe.load(
        b"\xef\xbb\xbf# comment\nat: 2026-01-26T10:30:45Z\nday: 2026-01-26\n"
        b"n: 3\nok: true\nnone: null\neq: =\nblock: |\n  two\n  lines\n"
        b"base: &b {x: 1}\nmerged:\n  <<: *b\n  y: 2\n",
        "f.yaml",
    )
    assert doc == {
        "at": "2026-01-26T10:30:45Z",
        "day": "2026-01-26",
        "n": 3,
        "ok": True,
        "none": None,
        "eq": "=",
        "block": "two\nlines\n",
        "base": {"x": 1},
        "merged": {"x": 1, "y": 2},
    }
    assert yamlsafe.load("", "f") is None


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("a: 1\nb: !!python/object:os.system x\n", 2, "refused tag !!python/object:os.system"),
        ("a: !!python/name:os.system\n", 1, "refused tag !!python/name:os.system"),
        ("x: !custom 3\n", 1, "refused tag !custom"),
        ("k: !!binary aGVsbG8=\n", 1, "refused tag !!binary"),
        ("s: !!set {a: null}\n", 1, "refused tag !!set"),
        ("&a [*a]\n", 1, "refers to a node that contains it"),
        ("a: 1\n  b: 2\n", 2, "invalid YAML: mapping values are not allowed"),
        ("a: [1, 2\n", 2, "invalid YAML: did not find expected ','"),
        ("a: 1\n---\nb: 2\n", 2, "expected a single document in the stream, but found another"),
        ("a: \x07\n", 1, "invalid YAML"),
        ("? [1, 2]\n: x\n", 1, "unhashable key"),
        ("[" * 150 + "]" * 150, 1, "nested deeper than 100 levels"),
    ],
)
def test_yaml_refusals_and_errors_are_one_line_with_a_line_number(
    text: str, line: int, fragment: str
) -> None:
    with pytest.raises(YamlError) as err:
        yamlsafe.load(text, "f.yaml")
    assert fragment in str(err.value)
    assert "\n" not in str(err.value)
    assert err.value.line == line


def test_yaml_invalid_utf8_and_size_limits() -> None:
    with pytest.raises(YamlError, match="invalid UTF-8 at byte 8") as err:
        yamlsafe.load(b"a: 1\nb: \xff\n", "f")
    assert err.value.line == 2
    with pytest.raises(YamlError, match="too large"):
        yamlsafe.load(b"a: " + b"x" * (yamlsafe.MAX_BYTES + 1), "f")


def test_yaml_alias_bomb_is_refused_quickly() -> None:
    started = time.monotonic()
    with pytest.raises(YamlError, match="alias bomb") as err:
        yamlsafe.load(ALIAS_BOMB, "bomb.yaml")
    assert time.monotonic() - started < 1.0
    assert err.value.line is not None and 2 <= err.value.line <= 9
    many = "a: &a x\nb: [" + ", ".join(["*a"] * (yamlsafe.MAX_ALIASES + 1)) + "]\n"
    with pytest.raises(YamlError, match="more than 1,000 aliases"):
        yamlsafe.load(many, "f")


def test_yaml_python_tag_never_runs(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    text = f'r: !!python/object/apply:os.system ["touch {marker}"]\n'
    with pytest.raises(YamlError, match="refused tag"):
        yamlsafe.load(text, "f")
    assert not marker.exists()
    assert "/tmp/trajtui-pwned" in PYTHON_TAG


def test_a_command_that_reads_no_yaml_does_not_import_pyyaml(tmp_path: Path) -> None:
    # `ls` of a JSONL file starts without PyYAML (it is imported by the first YAML read)
    path = tmp_path / "runs.jsonl"
    path.write_text('{"id": "a", "input": "q", "trajectory": [], "timing": {"total": 1}}\n')
    probe = (
        "import sys; from trajtui.cli.entry import main\n"
        "try:\n    main(['ls', '--no-cache', sys.argv[1]])\n"
        "except SystemExit: pass\n"
        "print('yaml' in sys.modules, file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, str(path)], capture_output=True, text=True, timeout=60
    )
    assert done.stdout.startswith("REF"), done.stderr
    assert done.stderr.strip().splitlines()[-1] == "False"
