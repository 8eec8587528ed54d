"""Allow ``python -m trajtui``."""

from trajtui.cli import main

if __name__ == "__main__":
    main()
