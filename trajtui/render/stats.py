"""The ``trajtui stats`` report as plain text lines (no markup: every label from a file is
made visible), one group or several side by side.
"""

from __future__ import annotations

from collections.abc import Sequence

from trajtui.core.stats.figures import Figures, Line
from trajtui.core.text import visible


def _clean(text: str) -> str:
    return visible(text, keep_newlines=False)


def _cut(text: str, width: int) -> str:
    """``text`` in ``width`` characters, an ellipsis where it is cut."""
    if len(text) <= width:
        return text
    return text[: max(0, width - 1)] + "…"


def report_lines(groups: Sequence[Figures], by: str | None = None) -> list[str]:
    """The report: the first group (``all``) in full (each line with its counts and
    method), then, with ``by``, every figure of the groups side by side (value and
    counts), a column per group."""
    out: list[str] = []
    first = groups[0]
    out.append(f"{len(first.runs):,} run{'s' if len(first.runs) != 1 else ''}")
    for section in first.sections:
        out.append("")
        out.append(f"{section.title}" + (f"  ({_clean(section.note)})" if section.note else ""))
        width = max((len(_clean(line.label)) for line in section.lines), default=0)
        width = min(width, 32)
        for line in section.lines:
            label = _cut(_clean(line.label), width)
            out.append(f"  {label:<{width}}  {line.value:>9}  {_clean(line.detail)}".rstrip())
    if by is not None and len(groups) > 1:
        out.append("")
        out.extend(side_by_side(groups[1:], by, order=first))
    return out


def _cell(line: Line | None) -> str:
    if line is None:
        return "—"
    return f"{line.value} ({line.counts})" if line.counts else line.value


def side_by_side(groups: Sequence[Figures], by: str, order: Figures | None = None) -> list[str]:
    """Every figure of ``groups`` in a table: a row per figure, a column per group (rows in
    the order of ``order``'s figures, the figures of all the runs)."""
    keys: list[tuple[str, str]] = [
        (s.title, line.label) for s in (order.sections if order else ()) for line in s.lines
    ]
    cells: list[dict[tuple[str, str], Line]] = []
    for g in groups:
        mine: dict[tuple[str, str], Line] = {}
        for section in g.sections:
            for line in section.lines:
                key = (section.title, line.label)
                mine[key] = line
                if key not in keys:
                    keys.append(key)
        cells.append(mine)
    names = [_cut(_clean(g.name), 24) for g in groups]
    label_w = min(max([len(_clean(f"{s}: {lbl}")) for s, lbl in keys] + [len(by) + 3]), 40)
    widths = [
        max(len(n), len(f"{len(g.runs):,} runs"), *(len(_cell(c.get(k))) for k in keys))
        for n, g, c in zip(names, groups, cells, strict=True)
    ]
    out = [f"by {_clean(by)}"]
    out.append(
        f"  {'':<{label_w}}  " + "  ".join(f"{n:>{w}}" for n, w in zip(names, widths, strict=True))
    )
    runs = [f"{len(g.runs):,} runs" for g in groups]
    out.append(
        f"  {'runs':<{label_w}}  "
        + "  ".join(f"{r:>{w}}" for r, w in zip(runs, widths, strict=True))
    )
    for key in keys:
        label = _cut(_clean(f"{key[0]}: {key[1]}"), label_w)
        row = "  ".join(f"{_cell(c.get(key)):>{w}}" for c, w in zip(cells, widths, strict=True))
        out.append(f"  {label:<{label_w}}  {row}")
    return out
