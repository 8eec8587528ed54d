"""The core is headless and small: importing it pulls in only the standard library and the
core's own dependencies (an allow-list). The layer contracts themselves run in `make test`
(lint-imports, configured in pyproject.toml); here we check they leave no module out."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import trajtui.core
import trajtui.formats

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
}
"""Top-level packages the core may import besides the standard library (PyYAML's C loader
brings Cython's runtime module; msgspec brings typing_extensions; platformdirs names the
index cache's directory; re2 is search's linear-time engine)."""

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
    return {c["name"]: c for c in config["tool"]["importlinter"]["contracts"]}


def modules_under(package: str, path: list[str]) -> set[str]:
    return {m.name for m in pkgutil.iter_modules(path, package + ".")}


def test_every_format_is_in_the_independence_contract() -> None:
    formats = modules_under("trajtui.formats", list(trajtui.formats.__path__))
    shared = {"trajtui.formats.registry"}
    (independence,) = [c for c in contracts().values() if c["type"] == "independence"]
    assert set(independence["modules"]) == formats - shared


def test_the_whole_core_is_forbidden_to_import_any_format() -> None:
    contract = contracts()["core imports no format (the formats are passed in)"]
    assert (contract["source_modules"], contract["forbidden_modules"]) == (
        ["trajtui.core"],
        ["trajtui.formats"],
    )
