"""``trajtui cache info|clear``: the index cache, shown and emptied; and ``--no-cache``, the
option of every command that opens files.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any, TypeVar

import click

from trajtui.core.io import remote
from trajtui.core.io.jsonutil import dumps_line
from trajtui.core.io.text import visible
from trajtui.core.jsonl import indexcache

F = TypeVar("F", bound=Callable[..., Any])

NO_CACHE_HELP = (
    "Neither read nor write the index cache: index the files from scratch (see trajtui cache)."
)


def no_cache_option(f: F) -> F:
    """The ``--no-cache`` flag."""
    return click.option("--no-cache", "no_cache", is_flag=True, help=NO_CACHE_HELP)(f)


def use_cache(no_cache: bool) -> None:
    """Set up the index cache for a command that opens files: on unless ``no_cache``, its
    cap from the ``cache_max_mb`` setting (``TRAJTUI_CACHE_MAX_MB`` wins). (Opening notes
    the opened paths: nothing is written inside them.)"""
    from trajtui.ui import settings

    cap = settings.load().get("cache_max_mb")
    indexcache.configure(enabled=not no_cache, max_mb=cap if isinstance(cap, int) else None)


def size_text(n: int) -> str:
    """Bytes in the unit that reads best (``512 MB``, ``29.5 kB``)."""
    for unit, scale in (("GB", 1 << 30), ("MB", 1 << 20), ("kB", 1 << 10)):
        if n >= scale:
            value = n / scale
            return f"{value:.0f} {unit}" if value >= 100 else f"{value:.1f} {unit}"
    return f"{n} B"


def _when(t: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t))


@click.group("cache")
def cache_group() -> None:
    """Show or empty the index cache.

    The first open of a JSONL file indexes it: where each record starts, its id, and the
    run-list row of each run. trajtui keeps that index in its cache directory, so the next
    open of the same, unchanged file shows the whole run list at once without reading the
    file again. A file that grew is indexed from where the cache ends; a file that was
    replaced, truncated or rewritten is indexed from scratch. Nothing is ever written
    beside your data.

    \b
    The cache is capped (512 MB unless set): least recently used entries go first.
      TRAJTUI_CACHE_MAX_MB=N     cap in MB for this shell (0 turns the cache off)
      "cache_max_mb": N          the same, in trajtui's settings.json
      --no-cache                 on ls, show or the TUI: do not read or write it

    \b
    Examples:
      trajtui cache info             where it is, what it holds
      trajtui cache info --json      the same, for scripts
      trajtui cache clear            remove every entry
    """


@cache_group.command("info")
@click.option("--json", "as_json", is_flag=True, help="One JSON object, entries included.")
def info_cmd(as_json: bool) -> None:
    """Where the cache is and what it holds.

    Prints the directory, the total size against the cap (and where the cap comes from),
    then each entry, most recently used first: when it was last used, its size, the records
    it indexes, and the file it indexes with that file's size."""
    use_cache(False)
    found = indexcache.entries()
    cap, cap_from = indexcache.limit()
    total = sum(e.size for e in found)
    where = str(indexcache.directory())
    if as_json:
        obj = {
            "directory": where,
            "enabled": cap > 0,
            "entries": len(found),
            "total_bytes": total,
            "cap_bytes": cap,
            "cap_from": cap_from,
            "items": [
                {
                    "source": e.source,
                    "source_size": e.source_size,
                    "format": e.format,
                    "records": e.records,
                    "summaries": e.summaries,
                    "size": e.size,
                    "last_used": _when(e.last_used),
                    "file": e.path,
                }
                for e in found
            ],
        }
        click.echo(dumps_line(obj))
        return
    out = sys.stdout
    shown = visible(where, keep_newlines=False)
    out.write(f"index cache: {shown}\n")
    state = "" if cap > 0 else " (off: the cap is 0)"
    out.write(
        f"{len(found):,} entr{'y' if len(found) == 1 else 'ies'}, {size_text(total)} of"
        f" {size_text(cap)} ({cap_from}){state}\n"
    )
    if not found:
        out.write("empty: files are indexed here the first time they are opened\n")
        return
    out.write(f"\n{'LAST USED':<19}  {'SIZE':>8}  {'RECORDS':>9}  SOURCE\n")
    for e in found:
        records = f"{e.records:,}" if e.records is not None else "?"
        source = visible(e.source, keep_newlines=False) if e.source else "(unreadable entry)"
        if e.source_size is not None:
            source += f" ({size_text(e.source_size)})"
        out.write(f"{_when(e.last_used):<19}  {size_text(e.size):>8}  {records:>9}  {source}\n")


@cache_group.command("clear")
@click.option("--json", "as_json", is_flag=True, help="One JSON object: what was removed.")
def clear_cmd(as_json: bool) -> None:
    """Remove every entry (and the tables trajtui sql keeps).

    The next open of each file indexes it again (and caches it again, unless --no-cache or
    a cap of 0)."""
    from trajtui.cli.tables import clear_cache

    removed, freed = indexcache.clear()
    tables, tables_freed = clear_cache()  # the tables trajtui sql keeps
    mirrors, mirrors_freed = remote.clear()  # what was fetched of remote objects
    where = str(indexcache.directory())
    if as_json:
        click.echo(
            dumps_line(
                {
                    "directory": where,
                    "removed": removed,
                    "freed_bytes": freed,
                    "tables_removed": tables,
                    "tables_freed_bytes": tables_freed,
                    "mirrors_removed": mirrors,
                    "mirrors_freed_bytes": mirrors_freed,
                }
            )
        )
        return
    shown = visible(where, keep_newlines=False)
    click.echo(
        f"removed {removed:,} entr{'y' if removed == 1 else 'ies'} ({size_text(freed)})"
        f" from {shown}"
    )
    if tables:
        click.echo(
            f"removed the tables of {tables:,} sql queries' paths ({size_text(tables_freed)})"
        )
    if mirrors:
        click.echo(
            f"removed the mirrors of {mirrors:,} remote objects ({size_text(mirrors_freed)})"
        )
