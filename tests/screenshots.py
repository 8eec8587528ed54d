"""``make screenshots``: an SVG of every scenario into ``screenshots/``.

Run with ``python -m tests.screenshots [--png DIR]``; ``--png`` also writes PNGs into DIR
(needs ``rsvg-convert`` from Debian's librsvg2-bin), to look at them outside a browser.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from tests.scenarios import SCENARIOS, Scenario, build, drive, in_demo_dir

OUT = Path(__file__).resolve().parents[1] / "screenshots"


async def shoot(scenario: Scenario) -> str:
    """The SVG of one scenario."""
    with in_demo_dir():
        app = build(scenario)
        async with app.run_test(size=scenario.size) as pilot:
            await drive(pilot, scenario)
            return app.export_screenshot(title=f"trajtui · {scenario.about}")


def png(svg: Path, out: Path) -> None:
    """Convert an SVG screenshot to PNG (spaces kept: rsvg collapses &#160; runs)."""
    fixed = svg.read_text().replace("&#160;", " ").replace("<text ", '<text xml:space="preserve" ')
    with tempfile.NamedTemporaryFile("w", suffix=".svg", delete=False) as tmp:
        tmp.write(fixed)
    try:
        subprocess.run(["rsvg-convert", tmp.name, "-o", str(out)], check=True)
    finally:
        Path(tmp.name).unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--png", type=Path, metavar="DIR", help="also write PNGs there (rsvg-convert)"
    )
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    # Textual read TEXTUAL_ANIMATIONS when it was imported (by tests.scenarios, above): the
    # setting itself is changed, or a tab's underline is drawn where its slide happens to be
    from textual import constants

    constants.TEXTUAL_ANIMATIONS = "none"  # type: ignore[misc]
    for scenario in SCENARIOS:
        with tempfile.TemporaryDirectory() as state:  # fresh settings for every screen
            for var in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
                os.environ[var] = str(Path(state) / var)
            svg = OUT / f"{scenario.name}.svg"
            svg.write_text(asyncio.run(shoot(scenario)))
            print(f"{svg.relative_to(OUT.parent)}  {scenario.about}")
            if args.png:
                if shutil.which("rsvg-convert") is None:
                    raise SystemExit("rsvg-convert is missing: apt-get install librsvg2-bin")
                args.png.mkdir(parents=True, exist_ok=True)
                png(svg, args.png / f"{scenario.name}.png")


if __name__ == "__main__":
    main()
