"""Where the real sample files are, for the conformance tests (``tests/test_samples*.py``).

The samples are not part of the repository: they live in ``../shared/samples`` beside it
(or wherever ``$TRAJTUI_SAMPLES`` says). Without them a local run skips those tests; under
CI (``$CI`` set, as ``.ci/run`` does) a missing sample directory is a failure that says
where the samples were expected.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLES = Path(os.environ.get("TRAJTUI_SAMPLES") or REPO.parent / "shared" / "samples")


def under_ci() -> bool:
    """``$CI`` is set to something other than empty, ``0`` or ``false``."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false")


def require(name: str) -> Path:
    """The sample directory ``name`` (``acp-harness``...), for a test module's import.

    Skips the module when it is missing, or fails it under CI.
    """
    path = SAMPLES / name
    if path.is_dir():
        return path
    where = (
        f"sample files expected in {path} ($TRAJTUI_SAMPLES, else ../shared/samples "
        f"beside the repository {REPO})"
    )
    if under_ci():
        pytest.fail(f"{where}: not there, and CI is set", pytrace=False)
    pytest.skip(f"{where}: not there (CI unset, so skipped)", allow_module_level=True)


def acp_captures() -> list[Path]:
    """The real acp-harness capture, trials and summary files (not the compare ones), or
    none where the samples are not here."""
    folder = SAMPLES / "acp-harness"
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("*.jsonl") if "compare" not in p.name)
