"""Names a package gives that are imported when first asked for (a module ``__getattr__``,
PEP 562): a format's package names its readers so, and the registry, which needs only its
claims, starts without them."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(package: str, where: dict[str, str]) -> Callable[[str], Any]:
    """The ``__getattr__`` of ``package``: each name of ``where`` is taken from the module
    of ``package`` it maps to, imported then; any other name is an AttributeError."""

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{module}"), name)

    return __getattr__
