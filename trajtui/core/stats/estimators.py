"""The estimators the statistics use, as pure functions over numbers.

* :func:`pass_at_k` and :func:`pass_hat_k`: the unbiased estimators of Chen et al. 2021
  (*Evaluating Large Language Models Trained on Code*, eq. 1) for one task with ``n``
  graded trials of which ``c`` passed: ``pass@k = 1 - C(n-c, k) / C(n, k)`` (the chance
  that at least one of k trials drawn without replacement passes) and ``pass^k = C(c, k) /
  C(n, k)`` (the chance that all k pass).
* :func:`percentile`: linear interpolation between the closest ranks (the method numpy
  calls ``linear``, Hyndman and Fan type 7).
* :func:`mean_interval`: the mean with a 95% Student-t interval (``n - 1`` degrees of
  freedom), for values with no known bounds;
* :func:`bounded_mean_interval`: the mean of values bounded in ``[lo, hi]`` (a share, a
  score in [0, 1]) with a 95% interval that stays inside them: the Wilson score interval
  (Wilson 1927) at the effective sample size ``n * p(1-p) / variance`` (Korn and Graubard
  1998: for 0/1 values it is ``n``; values closer to the mean count as more), with the t
  quantile of ``n - 1`` degrees of freedom in place of z for small n;
* :func:`score_interval`: the second for values within [0, 1], the first otherwise.
* :func:`average_precision`: the area under the precision-recall curve as the step-wise
  sum ``AP = sum_n (R_n - R_{n-1}) P_n`` over the distinct score thresholds, highest
  first (what scikit-learn's ``average_precision_score`` computes; no interpolation).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

PERCENTILE_METHOD = "linear interpolation between closest ranks (numpy 'linear')"
"""How :func:`percentile` is computed, for reports."""
INTERVAL_METHOD = "95% t interval (n-1 degrees of freedom)"
"""How :func:`mean_interval` is computed, for reports."""
BOUNDED_METHOD = (
    "95% Wilson score interval at the effective sample size n*p(1-p)/variance, "
    "t quantile (n-1 df): stays within [0, 1]"
)
"""How :func:`bounded_mean_interval` is computed, for reports."""
T, WILSON = "t", "wilson"
"""Short names of the two interval methods (``--json``'s ``interval``)."""
AP_METHOD = "average precision, step-wise sum over thresholds (no interpolation)"
"""How :func:`average_precision` is computed, for reports."""


def pass_at_k(n: int, c: int, k: int) -> float:
    """pass@k of one task: ``1 - C(n-c, k) / C(n, k)``.

    Args:
        n: Graded trials of the task.
        c: Those that passed (``0 <= c <= n``).
        k: Trials drawn (``1 <= k <= n``).

    Raises:
        ValueError: ``k`` is not between 1 and ``n``, or ``c`` not between 0 and ``n``.
    """
    _check(n, c, k)
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """pass^k of one task: ``C(c, k) / C(n, k)`` (arguments as :func:`pass_at_k`).

    Raises:
        ValueError: As :func:`pass_at_k`.
    """
    _check(n, c, k)
    return math.comb(c, k) / math.comb(n, k)


def _check(n: int, c: int, k: int) -> None:
    if not 1 <= k <= n:
        raise ValueError(f"k={k} is not between 1 and n={n}")
    if not 0 <= c <= n:
        raise ValueError(f"c={c} is not between 0 and n={n}")


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) of ``values`` by linear interpolation between the
    closest ranks: position ``(len - 1) * q / 100`` of the sorted values.

    Raises:
        ValueError: ``values`` is empty.
    """
    if not values:
        raise ValueError("no values")
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


# Two-sided 95% critical values of Student's t, df 1..30.
_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip
_Z975 = 1.959963984540054


def t_critical(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom (a table to 30,
    then the Cornish-Fisher expansion, within 1e-4 there).

    Raises:
        ValueError: ``df`` < 1.
    """
    if df < 1:
        raise ValueError("df must be at least 1")
    if df <= len(_T975):
        return _T975[df - 1]
    z = _Z975
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    return z + g1 / df + g2 / df**2 + g3 / df**3


@dataclass(frozen=True, slots=True)
class Interval:
    """A mean and its 95% interval.

    Attributes:
        mean: The mean.
        low: Lower end (None with fewer than 2 values).
        high: Upper end (None with fewer than 2 values).
        n: Values.
        method: :data:`T` or :data:`WILSON`.
    """

    mean: float
    low: float | None
    high: float | None
    n: int
    method: str = T


def mean_interval(values: Sequence[float]) -> Interval | None:
    """The mean of ``values`` with its 95% t interval (``mean ± t(n-1) * s / sqrt(n)``,
    ``s`` the sample standard deviation); None for no values; no interval for one."""
    n = len(values)
    if not n:
        return None
    mean = math.fsum(values) / n
    if n < 2:
        return Interval(mean, None, None, n)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t_critical(n - 1) * math.sqrt(var / n)
    return Interval(mean, mean - half, mean + half, n)


def wilson(p: float, n: float, z: float) -> tuple[float, float]:
    """The Wilson score interval of a share ``p`` of ``n`` (any positive n, not only whole
    ones) at quantile ``z``: inside [0, 1] for any p in [0, 1]."""
    z2 = z * z
    d = 1 + z2 / n
    center = (p + z2 / (2 * n)) / d
    half = z / d * math.sqrt(max(p * (1 - p) / n + z2 / (4 * n * n), 0.0))
    return max(0.0, center - half), min(1.0, center + half)


def bounded_mean_interval(
    values: Sequence[float], lo: float = 0.0, hi: float = 1.0
) -> Interval | None:
    """The mean of ``values`` (each within ``[lo, hi]``) with a 95% interval inside
    ``[lo, hi]``: the values are mapped onto [0, 1], their mean ``p`` gets the Wilson score
    interval at the effective sample size ``n * p(1-p) / variance`` (the variance over n;
    ``n`` when every value is an end, as for 0/1 values) with the t quantile of ``n - 1``
    degrees of freedom, and the ends are mapped back. None for no values; no interval for
    one.

    Raises:
        ValueError: ``hi <= lo``, or a value outside ``[lo, hi]``.
    """
    if not hi > lo:
        raise ValueError("the bounds are empty")
    n = len(values)
    if not n:
        return None
    if any(not lo <= v <= hi for v in values):
        raise ValueError(f"a value is outside [{lo}, {hi}]")
    width = hi - lo
    unit = [(v - lo) / width for v in values]
    p = min(1.0, max(0.0, math.fsum(unit) / n))
    mean = lo + p * width
    if n < 2:
        return Interval(mean, None, None, n, WILSON)
    var = math.fsum((u - p) ** 2 for u in unit) / n
    spread = p * (1 - p)
    if spread > 0 and var <= 0:  # every value the same, inside: nothing varies
        return Interval(mean, mean, mean, n, WILSON)
    n_eff = n if spread <= 0 else n * spread / var
    low, high = wilson(p, n_eff, t_critical(n - 1))
    return Interval(mean, lo + low * width, lo + high * width, n, WILSON)


def score_interval(values: Sequence[float]) -> Interval | None:
    """The mean of scores with its 95% interval: :func:`bounded_mean_interval` when every
    value is within [0, 1] (shares, pass rates, accuracies, graders' scores: the interval
    stays inside), :func:`mean_interval` (t) otherwise."""
    if values and all(0.0 <= v <= 1.0 for v in values):
        return bounded_mean_interval(values)
    return mean_interval(values)


def average_precision(scores: Sequence[float], positive: Sequence[bool]) -> float | None:
    """Average precision of ``scores`` ranking the ``positive`` items first (step-wise:
    recall steps times the precision at each distinct threshold, highest first; tied
    scores enter together). None when there is no positive item.

    Raises:
        ValueError: The two sequences differ in length.
    """
    if len(scores) != len(positive):
        raise ValueError("scores and labels differ in length")
    total = sum(positive)
    if not total:
        return None
    pairs = sorted(zip(scores, positive, strict=True), key=lambda p: -p[0])
    ap = 0.0
    tp = seen = 0
    recall = 0.0
    i = 0
    while i < len(pairs):
        threshold = pairs[i][0]
        while i < len(pairs) and pairs[i][0] == threshold:
            tp += pairs[i][1]
            seen += 1
            i += 1
        new_recall = tp / total
        ap += (new_recall - recall) * (tp / seen)
        recall = new_recall
    return ap
