"""A format from another distribution, through the ``trajtui.formats`` entry-point group:
a tiny format package (its reader and its view) is built into a wheel from files written
here, installed with uv into a directory of its own, and trajtui, run with that directory
on its path, reads the package's files as it reads its own; a plugin that is broken is one
line on stderr and trajtui goes on."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

from trajtui.demo import demo_paths

READER = '''
"""tally logs: {"tally_log": 1, "runs": [{"id", "ok", "note"}]} (a format of this test)."""
from trajtui.core.format_api import Certainty, Format, claimed
from trajtui.core.io.jsonutil import loads
from trajtui.core.io.safeio import read_bytes
from trajtui.core.model import Field, Kind, Outcome, Run, RunSummary, Step
from trajtui.core.source import FormatInfo
from trajtui.core.static_source import StaticSource

INFO = FormatInfo("tally-log", "tally log")


class TallySource(StaticSource):
    def __init__(self, path, runs, label):
        super().__init__(path, INFO, label)
        self.listed = runs

    def _load(self):
        for n, item in enumerate(self.listed):
            outcome = Outcome.PASS if item.get("ok") else Outcome.FAIL
            summary = RunSummary(
                str(item["id"]), n, INFO.id, outcome.value, outcome, steps=1,
                title=item.get("note", ""),
            )

            def load(ref, item=item, summary=summary):
                step = Step(f"{ref}/step-1", 1, Kind.MESSAGE, item.get("note", ""),
                            text=item.get("note"))
                return Run(summary, (step,), fields=(Field("note", item.get("note")),),
                           detail=len(self.listed), raw=item)

            self.add_run(summary, load)
        yield from ()


class TallyFormat(Format):
    infos = (INFO,)
    view = "trajtui_tally.view:VIEW"

    def claim_file(self, path, sniffed, label):
        if sniffed.layout not in ("json", "jsonl"):
            return None
        doc, error = loads(read_bytes(path))
        if error is None and isinstance(doc, dict) and doc.get("tally_log") == 1:
            return claimed(Certainty.MARKED, TallySource(path, doc.get("runs", []), label))
        return None


FORMAT = TallyFormat()
'''

VIEW = """
from trajtui.render.view import View


class TallyView(View):
    def headline(self, run):
        return f"one of {run.detail} tallied runs"


VIEW = TallyView()
"""


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def build_wheel(where: Path, name: str, files: dict[str, str], entry_points: str) -> Path:
    """A wheel of the modules ``files`` (path -> text) with these entry points."""
    dist = f"{name}-0.1.dist-info"
    contents = {path: text.encode() for path, text in files.items()}
    contents[f"{dist}/METADATA"] = f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n".encode()
    contents[f"{dist}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: trajtui-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    contents[f"{dist}/entry_points.txt"] = entry_points.encode()
    record = [_record_line(path, data) for path, data in contents.items()]
    contents[f"{dist}/RECORD"] = ("\n".join([*record, f"{dist}/RECORD,,"]) + "\n").encode()
    wheel = where / f"{name}-0.1-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, data in contents.items():
            archive.writestr(path, data)
    return wheel


def install(wheel: Path, target: Path) -> None:
    """Install ``wheel`` into ``target`` (its own directory, put on PYTHONPATH to use)."""
    uv = Path(sys.executable).with_name("uv")
    command = [str(uv), "pip", "install", "--quiet", "--offline", "--no-deps"]
    done = subprocess.run(
        [*command, "--python", sys.executable, "--target", str(target), str(wheel)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr


def trajtui(target: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(target)}
    return subprocess.run(
        [sys.executable, "-m", "trajtui", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def test_a_format_of_another_package_is_read_through_its_entry_point(tmp_path: Path) -> None:
    wheel = build_wheel(
        tmp_path,
        "trajtui_tally",
        {"trajtui_tally/__init__.py": READER, "trajtui_tally/view.py": VIEW},
        "[trajtui.formats]\ntally = trajtui_tally:FORMAT\n",
    )
    target = tmp_path / "site"
    install(wheel, target)
    log = tmp_path / "week.json"
    runs = [{"id": "mon", "ok": True, "note": "fine"}, {"id": "tue", "ok": False, "note": "no"}]
    log.write_text(json.dumps({"tally_log": 1, "runs": runs}, indent=2))

    listed = trajtui(target, "ls", str(log))
    assert listed.returncode == 0, listed.stderr
    assert listed.stderr == ""
    rows = {line.split()[0]: line for line in listed.stdout.splitlines()[1:]}
    assert set(rows) == {"mon", "tue"} and "pass" in rows["mon"] and "fail" in rows["tue"]
    as_json = [
        json.loads(x) for x in trajtui(target, "ls", "--json", str(log)).stdout.split("\n")[:-1]
    ]
    assert [(o["ref"], o["format"]) for o in as_json] == [
        ("mon", "tally-log"),
        ("tue", "tally-log"),
    ]
    shown = trajtui(target, "show", str(log), "tue")  # the plugin's view, loaded by name
    assert shown.returncode == 0, shown.stderr
    assert "one of 2 tallied runs" in shown.stdout

    without = trajtui(tmp_path / "nothing-installed", "ls", str(log))
    assert without.returncode == 1 and "tue" not in without.stdout


BROKEN = {
    "trajtui_broken/__init__.py": "raise ImportError('a dependency is missing')\n",
    "trajtui_notaformat/__init__.py": "FORMAT = 42\n",
    "trajtui_clash/__init__.py": (
        "from trajtui.core.format_api import Format\n"
        "from trajtui.core.source import FormatInfo\n"
        "class Clash(Format):\n"
        "    infos = (FormatInfo('acp-capture', 'not acp'),)\n"
        "FORMAT = Clash()\n"
    ),
}


def test_a_broken_plugin_is_one_line_and_trajtui_goes_on(tmp_path: Path) -> None:
    wheel = build_wheel(
        tmp_path,
        "trajtui_broken",
        BROKEN,
        "[trajtui.formats]\n"
        "broken = trajtui_broken:FORMAT\n"
        "notaformat = trajtui_notaformat:FORMAT\n"
        "clash = trajtui_clash:FORMAT\n"
        "missing = trajtui_nowhere:FORMAT\n",
    )
    target = tmp_path / "site"
    install(wheel, target)
    capture = next(p for p in demo_paths() if p.endswith("acp"))
    listed = trajtui(target, "ls", capture)
    assert listed.returncode == 0, listed.stderr
    assert "websearch-17" in listed.stdout  # the built-in formats still read
    said = [line for line in listed.stderr.splitlines() if "format plugin" in line]
    assert len(said) == 4, listed.stderr
    assert all(line.startswith("trajtui: format plugin ") for line in said)
    assert "Traceback" not in listed.stderr
    by_name = {line.split()[3]: line for line in said}
    assert "a dependency is missing" in by_name["broken"]
    assert "is not a trajtui Format" in by_name["notaformat"]
    assert "format id acp-capture is taken" in by_name["clash"]
    assert "ModuleNotFoundError" in by_name["missing"]
