"""Demo data bundled with trajtui (``trajtui --demo``, ``make run``).

Small, invented outputs in the shapes of the real tools' files: an acp-harness capture
(with one half-written line, as real files have) and trials file, a forecast-agent eval
directory, an ultraplan project and an eval results tree.
"""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"


def demo_paths() -> list[str]:
    """Paths to open for the demo, one per format."""
    return [str(p) for p in sorted(DATA.iterdir()) if not p.name.startswith((".", "_"))]
