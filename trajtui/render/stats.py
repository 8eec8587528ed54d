"""The ``trajtui stats`` report as plain text lines (no markup: every label from a file is
made visible), one group or several side by side.
"""

from __future__ import annotations

from collections.abc import Sequence

from trajtui.core.io.sanitize import html_text, md_text, visible
from trajtui.core.stats.figures import Figures, Line
from trajtui.core.units import many


def _clean(text: str) -> str:
    return visible(text, keep_newlines=False)


def _cut(text: str, width: int) -> str:
    """``text`` in ``width`` characters, an ellipsis where it is cut."""
    if len(text) <= width:
        return text
    return text[: max(0, width - 1)] + "…"


def _cut_apart(names: Sequence[str], width: int) -> list[str]:
    """``names`` each in ``width`` characters, or more where that is what keeps two of them
    apart (a cut never makes two different names read the same)."""
    longest = max((len(n) for n in names), default=0)
    while width < longest and len({_cut(n, width) for n in names}) < len(set(names)):
        width += 1
    return [_cut(n, width) for n in names]


def report_lines(groups: Sequence[Figures], by: str | None = None) -> list[str]:
    """The report: the first group (``all``) in full (each line with its counts and
    method), then, with ``by``, every figure of the groups side by side (value and
    counts), a column per group."""
    out: list[str] = []
    first = groups[0]
    out.append(many(len(first.runs), "run"))
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
    keys, cells = _columns(groups, order)
    names = _cut_apart([_clean(g.name) for g in groups], 24)
    label_w = min(max([len(_clean(f"{s}: {lbl}")) for s, lbl in keys] + [len(by) + 3]), 40)
    widths = [
        max(len(n), len(many(len(g.runs), "run")), *(len(_cell(c.get(k))) for k in keys))
        for n, g, c in zip(names, groups, cells, strict=True)
    ]
    out = [f"by {_clean(by)}"]
    out.append(
        f"  {'':<{label_w}}  " + "  ".join(f"{n:>{w}}" for n, w in zip(names, widths, strict=True))
    )
    runs = [many(len(g.runs), "run") for g in groups]
    out.append(
        f"  {'runs':<{label_w}}  "
        + "  ".join(f"{r:>{w}}" for r, w in zip(runs, widths, strict=True))
    )
    for key in keys:
        label = _cut(_clean(f"{key[0]}: {key[1]}"), label_w)
        row = "  ".join(f"{_cell(c.get(key)):>{w}}" for c, w in zip(cells, widths, strict=True))
        out.append(f"  {label:<{label_w}}  {row}")
    return out


# -- Markdown and HTML (``stats -f markdown|html``, ``x`` on the stats screen) ----------------


def _heading(groups: Sequence[Figures], title: str) -> str:
    runs = len(groups[0].runs)
    what = many(runs, "run")
    return f"{title} · {what}" if title else what


def _columns(
    groups: Sequence[Figures], order: Figures | None = None
) -> tuple[list[tuple[str, str]], list[dict[tuple[str, str], Line]]]:
    """Every figure's (section, label), in the order of ``order``'s figures (the figures of
    all the runs) then as the groups have them; and each group's lines by that key."""
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
    return keys, cells


def stats_markdown(groups: Sequence[Figures], by: str | None = None, title: str = "") -> str:
    """The report as Markdown: a table per section (figure, value, counts and method),
    then with ``by`` every figure of the groups side by side (value and counts)."""
    first = groups[0]
    out = [f"## Stats: {md_text(_heading(groups, title))}"]
    for section in first.sections:
        note = f" ({md_text(section.note)})" if section.note else ""
        out += [
            "",
            f"### {md_text(section.title)}{note}",
            "",
            "| figure | value | counts and method |",
        ]
        out.append("|---|---:|---|")
        for line in section.lines:
            out.append(
                f"| {md_text(line.label)} | {md_text(line.value)} | {md_text(line.detail)} |"
            )
    if by is not None and len(groups) > 1:
        rest = groups[1:]
        keys, cells = _columns(rest, first)
        out += ["", f"### By {md_text(by)}", ""]
        out.append("| figure | " + " | ".join(md_text(g.name) for g in rest) + " |")
        out.append("|---|" + "---:|" * len(rest))
        out.append("| runs | " + " | ".join(f"{len(g.runs):,}" for g in rest) + " |")
        for key in keys:
            row = " | ".join(md_text(_cell(c.get(key))) for c in cells)
            out.append(f"| {md_text(key[0])}: {md_text(key[1])} | {row} |")
    out += ["", "Every rate's counts and the runs behind each figure: `trajtui stats --json`."]
    return "\n".join(out) + "\n"


_STATS_CSS = (
    ".bar{display:inline-block;height:.7em;background:#3a9a4a;vertical-align:middle}"
    ".num{text-align:right;font-variant-numeric:tabular-nums}"
)


def stats_html(
    groups: Sequence[Figures], by: str | None = None, title: str = "", *, max_refs: int = 500
) -> str:
    """The report as one self-contained HTML page (escaped; no script, no network): a
    table per section with each share drawn as a bar and the runs behind each figure
    folded under it (at most ``max_refs`` named, the rest counted), then the groups side
    by side."""
    from trajtui.render.export import html_page

    ref_of = {r.pick: r.ref for r in groups[0].runs}

    def runs_cell(line: Line) -> str:
        if not line.picks:
            return ""
        names = [ref_of.get(p, "?") for p in line.picks[:max_refs]]
        more = len(line.picks) - len(names)
        listed = " ".join(f"<span class='ref'>{html_text(n)}</span>" for n in names)
        if more > 0:
            listed += f" <span class='k'>and {more:,} more</span>"
        n = len(line.picks)
        return f"<details><summary>{n:,} run{'s' if n != 1 else ''}</summary>{listed}</details>"

    def bar(share: float | None) -> str:
        if share is None or share != share:
            return ""
        width = round(min(1.0, max(0.0, share)) * 100)
        return f"<span class='bar' style='width:{width}px'></span>"

    body = [f"<h1>Stats: {html_text(_heading(groups, title))}</h1>"]
    for section in groups[0].sections:
        note = f" <span class='k'>{html_text(section.note)}</span>" if section.note else ""
        body.append(f"<h2>{html_text(section.title)}{note}</h2><table>")
        for line in section.lines:
            body.append(
                f"<tr><th>{html_text(line.label)}</th><td class='num'>{html_text(line.value)}</td>"
                f"<td>{bar(line.share)}</td><td>{html_text(line.detail)}</td>"
                f"<td>{runs_cell(line)}</td></tr>"
            )
        body.append("</table>")
    if by is not None and len(groups) > 1:
        rest = groups[1:]
        keys, cells = _columns(rest, groups[0])
        body.append(f"<h2>By {html_text(by)}</h2><table><tr><th></th>")
        body.append("".join(f"<th class='num'>{html_text(g.name)}</th>" for g in rest) + "</tr>")
        body.append(
            "<tr><th>runs</th>"
            + "".join(f"<td class='num'>{len(g.runs):,}</td>" for g in rest)
            + "</tr>"
        )
        for key in keys:
            row = "".join(f"<td class='num'>{html_text(_cell(c.get(key)))}</td>" for c in cells)
            body.append(f"<tr><th>{html_text(key[0])}: {html_text(key[1])}</th>{row}</tr>")
        body.append("</table>")
    return html_page(f"Stats: {_heading(groups, title)}", "\n".join(body), _STATS_CSS)
