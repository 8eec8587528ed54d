"""The sample conformance tests skip without their samples on a developer's machine, and fail
under CI (``$CI`` set, as ``.ci/run`` does), saying where the samples were expected."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PYTEST = [
    sys.executable,
    "-m",
    "pytest",
    "-q",
    "-rs",
    *("-p", "no:cacheprovider", "-p", "no:xdist", "-p", "no:xdist.looponfail"),
    *("-p", "no:hypothesispytest", "-p", "no:textual-snapshot", "-p", "no:syrupy"),
]
"""pytest on one file, without the plugins it does not need (each costs a second to load)."""


def collect(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k != "CI"}
    return subprocess.run(
        [*PYTEST, "tests/samples/test_samples.py"],
        cwd=REPO,
        env={**clean, "TRAJTUI_SAMPLES": str(tmp_path / "nowhere"), **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_missing_samples_fail_under_ci_and_skip_elsewhere(tmp_path: Path) -> None:
    expected = tmp_path / "nowhere" / "acp-harness"
    ci = collect(tmp_path, CI="1")
    assert ci.returncode != 0
    assert f"sample files expected in {expected}" in ci.stdout
    assert "CI is set" in ci.stdout and "passed" not in ci.stdout
    local = collect(tmp_path)
    assert local.returncode == 5, local.stdout  # pytest's "no tests ran": all skipped
    assert "1 skipped" in local.stdout and f"sample files expected in {expected}" in local.stdout
