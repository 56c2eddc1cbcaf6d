"""Fidelity constraints of the announced decision mapping (Definitions 5-6, boxes (11)-(13)).

``fidelity_bounds`` gives the per-outcome box [D~_a(x)_min, D~_a(x)_max] of (12) (delta-fidelity) or
(13) (alpha-fidelity), clipped to [0, 1]; ``fidelity_box`` gives the effective box of the binary
variable x = D~_1(x) once the a = 0 box is mapped through D~_0 = 1 - D~_1 (16f) and intersected.
"""

from __future__ import annotations

import numpy as np

from safeguarded.atr._checks import check_unit, check_unit_array

__all__ = ["fidelity_bounds", "fidelity_box"]


def _check_one(delta, alpha) -> tuple[float | None, float | None]:
    delta = check_unit("delta", delta, allow_none=True)
    alpha = check_unit("alpha", alpha, allow_none=True)
    if (delta is None) == (alpha is None):
        raise ValueError(
            f"exactly one of delta (delta-fidelity, (12)) or alpha (alpha-fidelity, (13)) must be given, "
            f"got delta={delta!r}, alpha={alpha!r}"
        )
    return delta, alpha


def fidelity_bounds(D, *, delta: float | None = None, alpha: float | None = None):
    """Per-outcome fidelity box of (12) or (13), clipped to the probability range [0, 1].

    Parameters
    ----------
    D
        True decision probabilities D_a(x), any shape, entries in [0, 1].
    delta
        delta-fidelity (Definition 5, (9)/(12)): |D~ - D| <= 1 - delta, delta in [0, 1].
    alpha
        alpha-fidelity (Definition 6, (10)/(13)): alpha D <= D~ <= D / alpha, alpha in [0, 1]
        (alpha = 0 means no constraint).

    Returns
    -------
    (lower, upper) : arrays of the shape of ``D``
    """
    delta, alpha = _check_one(delta, alpha)
    D = np.asarray(D, dtype=float)
    check_unit_array("D", D.ravel())
    if delta is not None:
        return np.maximum(0.0, D - (1.0 - delta)), np.minimum(1.0, D + (1.0 - delta))
    if alpha == 0.0:
        return np.zeros_like(D), np.ones_like(D)
    return alpha * D, np.minimum(1.0, D / alpha)


def fidelity_box(d, *, delta: float | None = None, alpha: float | None = None):
    """Effective box [lo, hi] of x = D~_1(x) for binary decisions, d = D_1(x) (Definition 1, (7)).

    The a = 1 box of (12)/(13) is intersected with the image of the a = 0 box under
    D~_1 = 1 - D~_0 (16f) (Appendix H, (47)); for delta-fidelity the two coincide. The box always
    contains d, so it is never empty.
    """
    d = check_unit_array("d", np.ravel(d))
    lo1, hi1 = fidelity_bounds(d, delta=delta, alpha=alpha)
    lo0, hi0 = fidelity_bounds(1.0 - d, delta=delta, alpha=alpha)
    lo = np.maximum(lo1, 1.0 - hi0)
    hi = np.minimum(hi1, 1.0 - lo0)
    # d lies in both boxes; guard against rounding when a bound equals d
    return np.minimum(lo, d), np.maximum(hi, d)
