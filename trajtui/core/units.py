"""Spelling numbers and durations for reading, the same on every surface (the run list,
the detail, ``ls``, ``stats``, compare, exports): one spelling per quantity.

Every function takes any number the JSON parser gives (a 400-digit integer, ``1e999`` read
as :class:`~trajtui.core.io.jsonutil.Overflowed`, ``-0.0``, NaN) and returns a short string:
nothing here raises, and nothing prints hundreds of digits. Magnitudes of 1e15 and more are
written in scientific notation, exactly (``1e+400``) or marked ``≈`` when digits are left
out. Plain Python (the core's statistics spell their figures with it; the renderers too).
"""

from __future__ import annotations

import math
import re

from trajtui.core.io.jsonutil import Overflowed

HUGE = 10**15
"""From this magnitude on, numbers are written in scientific notation."""

ABSENT = "—"
"""Shown where the file has no value."""


def huge(value: float) -> bool:
    """True for numbers written in scientific notation (and for inf and NaN)."""
    if isinstance(value, int):
        return not -HUGE < value < HUGE
    return not -HUGE < value < HUGE  # False for NaN too: handled by the caller


def _sci(sign: str, digits: str, exponent: int) -> str:
    """``digits`` (no leading zeros) times 10**``exponent`` as ``1.5e+400``: exact with up to
    12 significant digits, else 7 digits marked ``≈``."""
    significant = digits.rstrip("0") or "0"
    exact = len(significant) <= 12
    mantissa = significant if exact else digits[:7]
    text = mantissa[0] + ("." + mantissa[1:] if len(mantissa) > 1 else "")
    return f"{'' if exact else '≈'}{sign}{text}e{'+' if exponent >= 0 else ''}{exponent}"


def _big_int(value: int) -> str:
    """``1e+400``, or ``≈1.234568e+400`` when digits are left out."""
    sign = "-" if value < 0 else ""
    try:
        digits = str(abs(value))
    except ValueError:  # beyond Python's 4,300-digit limit for str(int)
        return f"≈{sign}1e+{int(abs(value).bit_length() * math.log10(2))}"
    return _sci(sign, digits, len(digits) - 1)


_LITERAL = re.compile(r"(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d{1,4000}))?")


def _spelled(text: str) -> str:
    """A long JSON number literal (``1`` and 5,000 zeros) in scientific notation."""
    m = _LITERAL.fullmatch(text)
    if m is None:
        return text[:20] + "…"
    sign, whole, fraction, exp = m.groups()
    every = whole + (fraction or "")
    digits = every.lstrip("0")
    if not digits:
        return "0"
    lead = len(every) - len(digits)
    return _sci(sign, digits, len(whole) - 1 - lead + int(exp or 0))


def _scientific(value: float) -> str:
    """A huge or non-finite number, short: as the file spells it when it could not be read
    as a float, Python's shortest exact spelling otherwise."""
    if isinstance(value, Overflowed):
        return value.text if len(value.text) <= 24 else _spelled(value.text)
    if isinstance(value, int):
        return _big_int(value)
    return repr(float(value))  # 1e+308, inf, nan: exact, never hundreds of digits


def duration(ms: float | None) -> str:
    """``850ms``, ``14.2s``, ``3m 02s``, ``2h 05m`` (``—`` when unknown); beyond about
    30,000 years, the milliseconds as a number (``1e+400ms``)."""
    if ms is None:
        return ABSENT
    if isinstance(ms, float) and math.isnan(ms):
        return "nan"
    if huge(ms):
        text = _scientific(ms)
        return text if text in ("inf", "-inf") else text + "ms"
    if ms == 0:
        return "0ms"  # -0.0 too
    if ms < 0:
        return "-" + duration(-ms)
    if ms < 1:
        return f"{ms:.2g}ms"
    if ms < 1000:
        return f"{ms:.0f}ms"
    s = ms / 1000
    if s < 60:
        return f"{s:.1f}s"
    m, s = divmod(round(s), 60)
    if m < 60:
        return f"{m}m {s:02d}s"
    h, m = divmod(m, 60)
    return f"{h}h {m:02d}m"


def offset(ms: float | None) -> str:
    """A time offset from the start: ``+2.5s``."""
    if ms is None:
        return ""
    text = duration(ms)
    return text if text.startswith("-") or text == "nan" else "+" + text


def number(value: float | int | None, digits: int = 4) -> str:
    """A number for reading: integers with separators, other numbers with up to ``digits``
    decimals, never rounded to look whole (0.999 stays 0.999, 0.99996 is not shown as 1)."""
    if value is None:
        return ABSENT
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    if huge(value):
        return _scientific(value)
    if isinstance(value, int):
        return f"{value:,}"
    if value == int(value):
        return f"{int(value):,}"
    if abs(value) >= 1e6:
        return f"{value:,.0f}"
    if abs(value) < 10**-digits:
        return f"{value:.2g}"
    text = f"{value:.{digits}f}".rstrip("0").rstrip(".")
    if "." not in text:  # rounding made it look whole: show the digits that say it is not
        text = f"{value:.{digits + 4}g}"
    return text


def cost(value: float | None) -> str:
    """A cost in USD: four decimals under a dollar (``$0.0129``), cents above (``$12.40``)."""
    if value is None:
        return ABSENT
    if (isinstance(value, float) and math.isnan(value)) or huge(value):
        return "$" + number(value)
    if value == 0:
        return "$0"
    if abs(value) < 1:
        return f"${value:.4f}"
    return f"${value:,.2f}"


def many(n: int, noun: str) -> str:
    """``1 task``, ``2 tasks``: a count and its noun, singular for exactly one."""
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


def share(value: float | None) -> str:
    """A share (0 to 1) in percent with one decimal, the same spelling on every surface
    (``96.7%``); ``100.0%`` and ``0.0%`` only for exactly all and none (``99.96%`` is
    ``99.9%``, ``0.04%`` is ``0.1%``: a share is never rounded into all or none); ``—`` for
    no share (nothing to divide by)."""
    if value is None:
        return ABSENT
    if isinstance(value, float) and math.isnan(value):
        return "nan%"
    p = value * 100
    if huge(p):
        return number(p) + "%"
    if 0 < p < 100:
        p = min(max(p, 0.1), 99.9)
    return f"{p:.1f}%"
