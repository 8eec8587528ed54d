"""The core is headless: importing it must not pull in textual, rich or click."""

from __future__ import annotations

import subprocess
import sys

CODE = """
import importlib, pkgutil, sys
import trajtui.core
for mod in pkgutil.walk_packages(trajtui.core.__path__, "trajtui.core."):
    importlib.import_module(mod.name)
bad = sorted(m for m in sys.modules if m.split(".")[0] in {"textual", "rich", "click"})
print(",".join(bad))
"""


def test_core_imports_no_ui_libraries() -> None:
    out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"trajtui.core imported: {out.stdout.strip()}"


def test_the_check_itself_catches_rich() -> None:
    """Guard against a check that cannot fail: importing render does pull in rich."""
    code = CODE.replace("import trajtui.core\n", "import trajtui.core, trajtui.render.show\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "rich" in out.stdout
