"""Print the pip requirement that installs exactly the uv that uv.lock locks, with its hashes.

`make` bootstraps uv with it (`pip install --require-hashes`): the locking tool is verified
against the same lock as everything it then installs. Standard library only (it runs before
any venv exists).
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path


def main() -> int:
    lock = tomllib.loads(Path(sys.argv[1] if len(sys.argv) > 1 else "uv.lock").read_text())
    for package in lock.get("package", []):
        if package.get("name") != "uv":
            continue
        files = [*package.get("wheels", []), package.get("sdist") or {}]
        hashes = sorted({f["hash"] for f in files if f.get("hash")})
        if not hashes:
            break
        print(f"uv=={package['version']} " + " ".join(f"--hash={h}" for h in hashes))
        return 0
    print("uv.lock locks no uv (it is in pyproject.toml's dev group)", file=sys.stderr)
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
