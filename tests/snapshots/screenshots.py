"""``make screenshots``: an SVG of every scenario into ``screenshots/``.

Run with ``python -m tests.snapshots.screenshots [--png DIR]``; ``--png`` also writes PNGs into DIR
(needs ``rsvg-convert`` from Debian's librsvg2-bin), to look at them outside a browser.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from tests.snapshots.scenarios import SCENARIOS, Scenario, build, drive, in_demo_dir

OUT = Path(__file__).resolve().parents[2] / "screenshots"


async def shoot(scenario: Scenario) -> str:
    """The SVG of one scenario."""
    with in_demo_dir():
        app = build(scenario)
        async with app.run_test(size=scenario.size) as pilot:
            await drive(pilot, scenario)
            return app.export_screenshot(title=f"trajtui · {scenario.about}")


# One <text> element of Rich's SVG export: its position, its width and its content (spaces
# written as &#160;).
_TEXT = re.compile(
    r'(<text [^>]*?x=")([^"]+)(" y="[^"]+" textLength=")([^"]+)("[^>]*>)(.*?)(</text>)'
)
_SPACE = "&#160;"


def _trimmed(match: re.Match[str]) -> str:
    """One text element without its leading and trailing spaces, placed where its text is."""
    head, x, mid, length, tail, content, end = match.groups()
    body = content
    while body.startswith(_SPACE):
        body = body[len(_SPACE) :]
    lead = (len(content) - len(body)) // len(_SPACE)
    while body.endswith(_SPACE):
        body = body[: -len(_SPACE)]
    if body == content or not body:
        return match.group(0)
    cell = float(length) / len(html.unescape(content))  # Rich: cell width x characters
    kept = len(html.unescape(body))
    return f"{head}{float(x) + lead * cell:g}{mid}{cell * kept:g}{tail}{body}{end}"


def readable(svg: str) -> str:
    """The SVG with each text element's surrounding spaces moved into its position.

    Rich draws every run of one style as one ``<text>``, spaces included, from the run's first
    cell and stretched to its width. Viewers that trim the spaces a text starts or ends with
    (librsvg: GNOME's image viewer, ``rsvg-convert``) then draw ``outcomes`` and
    ``  of the runs`` as ``outcomesof the runs``, and lose every indent. Without them, each
    text starts at its first visible cell, and reads the same in every viewer.
    """
    return _TEXT.sub(_trimmed, svg)


def png(svg: Path, out: Path) -> None:
    """Convert an SVG screenshot to PNG as an image viewer draws it (librsvg)."""
    subprocess.run(["rsvg-convert", str(svg), "-o", str(out)], check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--png", type=Path, metavar="DIR", help="also write PNGs there (rsvg-convert)"
    )
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    # Textual read TEXTUAL_ANIMATIONS when it was imported (by tests.snapshots.scenarios, above): the
    # setting itself is changed, or a tab's underline is drawn where its slide happens to be
    from textual import constants

    constants.TEXTUAL_ANIMATIONS = "none"  # type: ignore[misc]
    for scenario in SCENARIOS:
        with tempfile.TemporaryDirectory() as state:  # fresh settings for every screen
            for var in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
                os.environ[var] = str(Path(state) / var)
            svg = OUT / f"{scenario.name}.svg"
            svg.write_text(readable(asyncio.run(shoot(scenario))))
            print(f"{svg.relative_to(OUT.parent)}  {scenario.about}")
            if args.png:
                if shutil.which("rsvg-convert") is None:
                    raise SystemExit("rsvg-convert is missing: apt-get install librsvg2-bin")
                args.png.mkdir(parents=True, exist_ok=True)
                png(svg, args.png / f"{scenario.name}.png")


if __name__ == "__main__":
    main()
