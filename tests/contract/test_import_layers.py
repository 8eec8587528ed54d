"""The core is headless and small: importing it pulls in only the standard library and the
core's own dependencies (an allow-list); ``trajtui ls`` imports neither Rich nor Textual
nor any format's view. The layer contracts themselves run in `make test` (lint-imports,
configured in pyproject.toml); here each is proven able to fail: a copy of the package with
one forbidden import added breaks it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from trajtui.demo import demo_paths

ROOT = Path(__file__).resolve().parents[2]

ALLOWED = {
    "trajtui",
    "orjson",
    "msgspec",
    "typing_extensions",
    "yaml",
    "_yaml",
    "cython_runtime",
    "platformdirs",
    "re2",
    "pyarrow",
    "duckdb",
    "_duckdb",
}
"""Top-level packages the core may import besides the standard library (PyYAML's C loader
brings Cython's runtime module; msgspec brings typing_extensions; platformdirs names the
index cache's directory; re2 is search's linear-time engine; pyarrow and duckdb write and
query the Parquet tables, core/tables, loaded only by export --parquet and sql)."""

CODE = """
import importlib, pkgutil, sys
before = set(sys.modules)
import trajtui.core
for mod in pkgutil.walk_packages(trajtui.core.__path__, "trajtui.core."):
    importlib.import_module(mod.name)
print("\\n".join(sorted({m.split(".")[0] for m in set(sys.modules) - before})))
"""


def imported_by(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(out.stdout.split())


def outside_allow_list(names: set[str]) -> set[str]:
    return {
        n
        for n in names
        if n not in sys.stdlib_module_names and n not in ALLOWED and not n.startswith("_cython_")
    }


def test_core_imports_only_the_standard_library_and_its_own_dependencies() -> None:
    assert outside_allow_list(imported_by(CODE)) == set()


def test_the_check_itself_catches_rich() -> None:
    """Guard against a check that cannot fail: importing render does pull in rich."""
    code = CODE.replace("import trajtui.core\n", "import trajtui.core, trajtui.render.show\n")
    assert "rich" in outside_allow_list(imported_by(code))


def contracts() -> dict[str, dict[str, Any]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return {c["id"]: c for c in config["tool"]["importlinter"]["contracts"]}


LS_CODE = """
import sys
from trajtui.cli import main
try:
    main(["ls", *sys.argv[1:]])
except SystemExit:
    pass
shown = sorted({m for m in sys.modules if m.split(".")[0] in ("rich", "textual")
    or (m.startswith("trajtui.formats.") and ".view" in m)})
print("\\n".join("IMPORTED " + m for m in shown), file=sys.stderr)
"""


def test_ls_imports_no_rich_textual_or_view() -> None:
    """A format's view is imported when one of its runs is shown: ``ls`` of every format's
    demo lists them without importing Rich, Textual or any view."""
    out = subprocess.run(
        [sys.executable, "-c", LS_CODE, *demo_paths()], capture_output=True, text=True
    )
    assert out.stdout.count("\n") > 10, out.stdout  # every format's runs were listed
    imported = [line for line in out.stderr.splitlines() if line.startswith("IMPORTED ")]
    assert imported == [], imported


def test_the_ls_check_itself_catches_a_view() -> None:
    """Guard against a check that cannot fail: a run shown does import its view."""
    code = LS_CODE.replace('main(["ls", *sys.argv[1:]])', 'main(["show", *sys.argv[1:]])')
    demo = next(p for p in demo_paths() if p.endswith("forecast-eval"))
    out = subprocess.run(
        [sys.executable, "-c", code, demo, "marathon-record-2027/step-3"],
        capture_output=True,
        text=True,
    )
    assert "IMPORTED trajtui.formats.forecast.view" in out.stderr.splitlines(), out.stderr


LAZY_READERS = (
    "trajtui.formats.atif.source",
    "trajtui.formats.ultraplan.source",
    "trajtui.formats.forecast.source",
    "trajtui.formats.eval_results.source",
    "trajtui.formats.inspect.source",
)
"""Readers imported only when a file of theirs is opened (the registry's claims need none of
them: a command that meets no such file starts without them)."""


def test_a_command_imports_the_readers_of_the_formats_it_meets_alone(tmp_path: Path) -> None:
    """``ls`` of an acp-harness capture imports none of these formats' readers; of a Harbor
    job (ATIF), an ultraplan project, a forecast-agent eval, an eval results tree or an Inspect log, that one's."""
    from tests.formats.atif.builders import job
    from tests.formats.inspect.builders import write_eval

    capture = tmp_path / "runs.jsonl"
    capture.write_text('{"id": "a", "input": "q", "trajectory": [], "timing": {"total": 1}}\n')
    harbor = job(tmp_path / "job")
    code = LS_CODE.replace("or (m.startswith", f"or (m in {LAZY_READERS!r}) or (m.startswith")
    demo = {Path(p).name: p for p in demo_paths()}
    for paths, wanted in (
        ([str(capture)], set()),
        ([str(harbor)], {LAZY_READERS[0]}),
        ([demo["ultraplan-project"]], {LAZY_READERS[1]}),
        ([demo["forecast-eval"]], {LAZY_READERS[2]}),
        ([demo["eval-results"]], {LAZY_READERS[3]}),
        ([str(write_eval(tmp_path / "a.eval"))], {LAZY_READERS[4]}),
    ):
        out = subprocess.run([sys.executable, "-c", code, *paths], capture_output=True, text=True)
        assert out.stdout.count("\n") >= 1, out.stderr
        imported = {line.split()[1] for line in out.stderr.splitlines() if "IMPORTED " in line}
        if wanted:  # (a directory: each format's claim looks at it, ultraplan's with its readers)
            assert wanted <= imported
        else:  # a file of another format: no reader of these is imported
            assert imported & set(LAZY_READERS) == set()


FORBIDDEN: dict[str, tuple[str, str]] = {
    "layers": ("trajtui/render/fmt.py", "import trajtui.formats.registry"),
    "headless-core": ("trajtui/core/model.py", "import rich.text"),
    "formats-independent": ("trajtui/formats/acp/steps.py", "import trajtui.formats.atif.detail"),
    # a module added to a format, named as no view is: covered by default
    "headless-readers": ("trajtui/formats/forecast/added.py", "import rich.text"),
    "views-by-name": ("trajtui/formats/forecast/runs.py", "import trajtui.formats.forecast.view"),
    "core-no-format": ("trajtui/core/workspace.py", "import trajtui.formats.registry"),
    "source-abilities": ("trajtui/ui/store.py", "import trajtui.core.jsonl.source"),
}
"""For each contract, one import it forbids, and where it is added."""


def test_every_contract_has_an_import_that_breaks_it() -> None:
    assert set(FORBIDDEN) == set(contracts())


def lint_with(where: Path, contract: str, path: str, line: str) -> subprocess.CompletedProcess[str]:
    """lint-imports of one contract, over a copy of the package in ``where`` with ``line``
    added to the module ``path``."""
    shutil.copytree(
        ROOT / "trajtui", where / "trajtui", ignore=shutil.ignore_patterns("__pycache__", "data")
    )
    shutil.copy(ROOT / "pyproject.toml", where / "pyproject.toml")
    target = where / path
    before = target.read_text() if target.exists() else ""
    target.write_text(before + f"\n{line}  # noqa\n")
    lint = Path(sys.executable).with_name("lint-imports")
    return subprocess.run(
        [str(lint), "--no-cache", "--contract", contract],
        cwd=where,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(where)},
        timeout=120,
    )


def test_every_contract_is_able_to_fail(tmp_path: Path) -> None:
    """Each contract, over a copy with its one forbidden import added: BROKEN (over the
    package as it is, every contract is kept: make test)."""

    def broken(contract: str) -> subprocess.CompletedProcess[str]:
        return lint_with(tmp_path / contract, contract, *FORBIDDEN[contract])

    with ThreadPoolExecutor(max_workers=2) as pool:
        results = dict(zip(FORBIDDEN, pool.map(broken, FORBIDDEN), strict=True))
    for contract, out in results.items():
        name = contracts()[contract]["name"]
        assert f"{name} BROKEN" in out.stdout, (contract, out.stdout, out.stderr)
        assert out.returncode == 1, (contract, out.stdout)


def test_a_view_may_import_rich(tmp_path: Path) -> None:
    """The reader contract lets a view import what it draws with (a new view module too)."""
    added = "trajtui/formats/forecast/view/added.py"
    out = lint_with(tmp_path, "headless-readers", added, "import rich.text")
    assert out.returncode == 0, out.stdout


def test_a_lazily_named_reader_is_the_module_own_and_an_unknown_name_is_an_error() -> None:
    import pytest

    import trajtui.formats.atif as atif
    from trajtui.formats.atif import source

    assert atif.AtifSource is source.AtifSource
    with pytest.raises(AttributeError, match="no attribute 'AtifSauce'"):
        _ = atif.AtifSauce  # type: ignore[attr-defined]  # (mypy knows the names, too)
