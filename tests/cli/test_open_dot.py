"""A directory opened as ``.`` (``cd outputs/run; trajtui .``) lists what the same directory
opened by its name lists: seen listing every run of a Harbor job, an ultraplan project, an
eval results tree and a forecast eval twice (once as the claimed directory's, once on its
own), which doubled every figure of ``stats``."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from tests.formats.atif.tbench import tb_job
from tests.helpers import forked
from trajtui.demo import DATA

KINDS = ["harbor-job", "acp", "eval-results", "forecast-eval", "ultraplan-project"]


def refs(cwd: Path, path: str) -> list[str]:
    ran = forked.run(
        [sys.executable, "-m", "trajtui", "ls", path, "--json", "--no-cache"],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ran.returncode == 0, ran.stderr
    return sorted(json.loads(line)["ref"].rsplit("::", 1)[-1] for line in ran.stdout.splitlines())


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("spelled", [".", "./", "sub/.."])
def test_a_directory_opened_as_dot_lists_each_run_once(
    tmp_path: Path, kind: str, spelled: str
) -> None:
    root = tmp_path / kind
    if kind == "harbor-job":
        tb_job(root)
    else:
        shutil.copytree(Path(DATA) / kind, root)
    (root / "sub").mkdir(exist_ok=True)
    by_name = refs(tmp_path, kind)
    assert by_name and len(by_name) == len(set(by_name)), by_name
    assert refs(root, spelled) == by_name
