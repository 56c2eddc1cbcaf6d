"""Root finding that returns a point on the *feasible* side of a monotone condition.

The calibrations look for the smallest scale sigma at which a monotone condition holds.  A root finder
returns a point within its tolerance of the root, possibly on the infeasible side; as the thesis warns
("numerically the tolerances should be reflected ... to ensure feasibility", L2706), we move the
returned point to the feasible side and check the condition there.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy import optimize

__all__ = ["smallest_feasible", "golden_section_max"]

_GOLDEN = (5**0.5 - 1) / 2


def smallest_feasible(
    violation: Callable[[float], float], lo: float, hi: float, *, rtol: float = 1e-12, name: str = "sigma"
) -> float:
    """Smallest ``s`` in ``(lo, hi]`` with ``violation(s) <= 0`` for a nonincreasing ``violation``.

    ``violation(lo) > 0`` and ``violation(hi) <= 0`` are required (checked).  The root is found with
    Brent's method to relative tolerance ``rtol`` and then nudged upwards until ``violation <= 0``.
    """
    v_hi = violation(hi)
    if v_hi > 0:
        raise RuntimeError(
            f"upper bracket {name}={hi!r} does not satisfy the condition (violation {v_hi:.3g})"
        )
    v_lo = violation(lo)
    if v_lo <= 0:
        return lo
    root = optimize.brentq(violation, lo, hi, xtol=rtol * hi, rtol=4 * np.finfo(float).eps, maxiter=200)
    step = rtol * hi
    s = root
    for _ in range(200):
        if violation(s) <= 0:
            return min(s, hi)
        s = min(s + step, hi)
        step *= 2
    return hi


def golden_section_max(
    fun: Callable[[float], float], a: float, b: float, *, xtol: float
) -> tuple[float, float]:
    """Golden-section search for the maximum of a unimodal ``fun`` on ``[a, b]``; returns ``(x, fun(x))``."""
    c, d = b - _GOLDEN * (b - a), a + _GOLDEN * (b - a)
    fc, fd = fun(c), fun(d)
    while b - a > xtol:
        if fc >= fd:
            b, d, fd = d, c, fc
            c = b - _GOLDEN * (b - a)
            fc = fun(c)
        else:
            a, c, fc = c, d, fd
            d = a + _GOLDEN * (b - a)
            fd = fun(d)
    x = 0.5 * (a + b)
    return x, fun(x)
