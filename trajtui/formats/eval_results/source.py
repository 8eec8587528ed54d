""":class:`ResultsSource` (a results tree, a run directory or one results file; the
companion files of each run) and the registry hooks :func:`open_file` and :func:`claim_dir`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

from trajtui.core.io import safeio
from trajtui.core.io.discover import inside, walk
from trajtui.core.io.jsonutil import JsonError, loads
from trajtui.core.jsonl.index import ScanProgress
from trajtui.core.model import Problem, Run, RunSummary, Severity
from trajtui.core.source import LoadError, Target
from trajtui.core.static_source import RunLoader, StaticSource
from trajtui.core.values import mapping
from trajtui.formats.eval_results.claim import EVAL_RESULTS as EVAL_RESULTS
from trajtui.formats.eval_results.claim import claim_dir as claim_dir
from trajtui.formats.eval_results.claim import open_file as open_file
from trajtui.formats.eval_results.reading import MAX_SAMPLES, error_line, file_lines, read_file
from trajtui.formats.eval_results.runs import Companions, build_run, summarize, with_ref
from trajtui.formats.eval_results.samples import id_of, safe_name, samples_of
from trajtui.formats.eval_results.shapes import (
    PER_SAMPLE,
    RESULTS,
    ResultsFile,
    sniff_shape,
)
from trajtui.formats.eval_results.tree import (
    COMPANION_DIRS,
    COMPANION_FILES,
    Candidate,
    ResultsScope,
    candidates,
    looks_like_run_config,
    run_name,
    unique_tails,
)


class ResultsSource(StaticSource):
    """A results tree, a run directory, or one results file: one run per results file."""

    def __init__(
        self,
        path: str,
        label: str | None = None,
        *,
        single_file: bool = False,
        scope: ResultsScope | None = None,
    ) -> None:
        """Remember ``path`` (nothing is read until the scan runs).

        Args:
            path: The directory (tree root or run directory) or the results file.
            label: Short name for qualified references.
            single_file: ``path`` is one results file (its neighbours are not read).
            scope: Which files under the directory are this source's (what the registry
                was told: other formats' files and directories are theirs).
        """
        super().__init__(path, RESULTS, label)
        self.single_file = single_file
        self.scope = scope if scope is not None else ResultsScope(path)
        root = (os.path.dirname(path) or ".") if single_file else path
        self._root_real = os.path.realpath(root)

    # -- listing ---------------------------------------------------------------------------------

    def _load(self) -> Iterator[ScanProgress]:
        plan = self._plan()
        names = unique_tails([c.parts for c in plan])
        for done, (cand, name) in enumerate(zip(plan, names, strict=True), 1):
            self._read(cand, name)
            yield ScanProgress(done, len(plan), len(self))

    def _plan(self) -> list[Candidate]:
        if self.single_file:
            return [Candidate(self.path, (run_name(self.path),), "run")]
        root_name = os.path.basename(os.path.abspath(self.path)) or "."
        out: list[Candidate] = []
        scope = self.scope
        for place in walk(self.path):
            if scope.left(place.path):  # another format's directory
                place.dirs.clear()
                continue
            self.watch(place.path)
            base = (root_name,) if place.rel == "." else (root_name, *place.rel.split(os.sep))
            out.extend(
                c for c in candidates(place, base) if scope.reads(place, os.path.basename(c.path))
            )
            place.dirs[:] = [d for d in place.dirs if d not in COMPANION_DIRS]
        return out

    def _read(self, cand: Candidate, name: str) -> None:
        try:
            if not cand.reported and sniff_shape(cand.path) is None:
                if cand.kind == "config":
                    self._config_only(cand)
                return
            parsed = read_file(cand.path)
        except OSError as err:
            if cand.reported:
                self.add_problem(Problem(cand.path, None, err.strerror or str(err)), row=True)
            return
        self.watch(cand.path)
        if isinstance(parsed, Problem):
            self.add_problem(parsed, row=True)
            return
        if parsed is None:
            if cand.reported:
                # Named as a run's results file: never dropped without a word.
                self.add_problem(
                    Problem(
                        cand.path,
                        None,
                        "JSON, but not an eval results file (no samples array with run keys)",
                        Severity.WARNING,
                    ),
                    row=True,
                )
            return
        companions = self._companions(cand, parsed, full=False, ref=name)
        summary = summarize(parsed, samples_of(parsed, companions.logs), name)
        listed = self.add_run(summary, self._loader(cand))
        for problem in (*parsed.problems, *companions.problems):
            self.add_problem(with_ref(problem, listed.ref))

    def _config_only(self, cand: Candidate) -> None:
        value, problem = _read_json(cand.path)
        if problem is None and looks_like_run_config(value):
            folder = os.path.dirname(cand.path)
            self.add_problem(
                Problem(
                    folder,
                    None,
                    "run directory with config.json and no results file (the run wrote no results)",
                    Severity.WARNING,
                )
            )

    # -- companions ------------------------------------------------------------------------------

    def _json_inside(self, path: str, problems: list[Problem], ref: str) -> Any:
        """A companion file's value (None when absent, outside the opened directory or
        broken; the last two are reported)."""
        if not safeio.regular_file(path):
            return None
        if not inside(self._root_real, path):
            problems.append(
                Problem(
                    path, None, "link out of the opened directory (not read)", Severity.WARNING, ref
                )
            )
            return None
        value, problem = _read_json(path)
        if problem is not None:
            problems.append(with_ref(problem, ref, Severity.WARNING))
            return None
        self.watch(path)
        return value

    def _companions(
        self, cand: Candidate, file: ResultsFile, *, full: bool, ref: str
    ) -> Companions:
        """Read the files next to ``cand`` that belong to its run. When listing (not
        ``full``) only the item logs of failed samples are read (they are samples)."""
        if cand.run_dir is None:
            return Companions()
        problems: list[Problem] = []
        logs = self._item_logs(cand.run_dir, file, full=full, problems=problems, ref=ref)
        if not full:
            return Companions(logs=logs, problems=tuple(problems))
        files: list[tuple[str, Any]] = []
        for name in sorted(COMPANION_FILES):
            value = self._json_inside(os.path.join(cand.run_dir, name), problems, ref)
            if value is not None:
                files.append((name, value))
        if os.path.basename(cand.path) == "results.json":
            lines = self._side_lines(os.path.join(cand.run_dir, "results.jsonl"), problems, ref)
            if lines is not None:
                files.append(("results.jsonl", lines))
        debug = self._debug(cand.run_dir, file, problems, ref)
        return Companions(tuple(files), debug, logs, tuple(problems))

    def _side_lines(self, path: str, problems: list[Problem], ref: str) -> list[Any] | None:
        if not safeio.regular_file(path) or not inside(self._root_real, path):
            return None
        values: list[Any] = []
        found: list[Problem] = []
        try:
            with safeio.open_regular(path) as f:
                for number, line in file_lines(f, path, found):
                    if len(values) == MAX_SAMPLES:
                        found.append(
                            Problem(path, number, f"only the first {MAX_SAMPLES:,} lines are read")
                        )
                        break
                    try:
                        values.append(loads(line)[0])
                    except JsonError as err:
                        found.append(Problem(path, number, str(err)))
        except OSError as err:
            problems.append(Problem(path, None, err.strerror or str(err), Severity.WARNING, ref))
            return None
        problems.extend(with_ref(p, ref, Severity.WARNING) for p in found)
        return values

    def _item_logs(
        self, run_dir: str, file: ResultsFile, *, full: bool, problems: list[Problem], ref: str
    ) -> dict[str, Any]:
        if file.shape != PER_SAMPLE:
            return {}
        folder = os.path.join(run_dir, "item_logs")
        if not inside(self._root_real, folder):
            return {}
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            return {}
        listed = {
            safe_name(sid) for item in file.samples if (sid := id_of(mapping(item).get("item_id")))
        }
        logs: dict[str, Any] = {}
        for name in names:
            stem = name[: -len(".json")]
            if not name.endswith(".json") or name.startswith("_") or (stem in listed and not full):
                continue
            value = self._json_inside(os.path.join(folder, name), problems, ref)
            if value is not None:
                logs[stem] = value
        return logs

    def _debug(
        self, run_dir: str, file: ResultsFile, problems: list[Problem], ref: str
    ) -> dict[str, Any]:
        folder = os.path.join(run_dir, "debug")
        if not os.path.isdir(folder) or not inside(self._root_real, folder):
            return {}
        out: dict[str, Any] = {}
        for sample in samples_of(file):
            if sample.id is None:
                continue
            stem = safe_name(sample.id)
            value = self._json_inside(os.path.join(folder, stem + ".json"), problems, ref)
            if value is not None:
                out[stem] = value
        return out

    # -- loading runs ----------------------------------------------------------------------------

    def _loader(self, cand: Candidate) -> RunLoader:
        def load(ref: str) -> Run:
            parsed = read_file(cand.path)
            if isinstance(parsed, Problem):
                raise LoadError(parsed)
            if parsed is None:
                raise LoadError(Problem(cand.path, None, "no longer an eval results file"))
            index = self.find(ref)
            entry = self.entry(index) if index is not None else None
            if not isinstance(entry, RunSummary):
                raise LoadError(Problem(cand.path, None, f"{ref} is no longer listed"))
            companions = self._companions(cand, parsed, full=True, ref=ref)
            return build_run(entry, parsed, companions, cand.path)

        return load

    def find_stored_step(self, ref: str) -> Target | None:
        """A sample named by its bare id, when the source holds a single run."""
        runs = [i for i in range(len(self)) if isinstance(self.entry(i), RunSummary)]
        if len(runs) != 1:
            return None
        try:
            run = self.run(runs[0])
        except LoadError:
            return None
        for step in run.steps:
            if step.stored_id == ref:
                return Target(self, runs[0], step.ref, step=step.number)
        return None


def _read_json(path: str) -> tuple[Any, Problem | None]:
    """A small JSON file's value, or the problem reading it."""
    try:
        data = safeio.read_bytes(path)
    except OSError as err:
        return None, Problem(path, None, err.strerror or str(err))
    try:
        return loads(data)[0], None
    except JsonError as err:
        return None, Problem(path, error_line(data, str(err)), str(err))
