"""Independent privacy checks for additive noise mechanisms (used by the tests and the notebooks).

Nothing here calls the calibration code.  For a symmetric noise density f, (eps, delta)-DP of
q(D) + X holds iff

    delta(eps) := sup_{phi in [0, Delta]} int (f(x + phi) - e^eps f(x))^+ dx  <=  delta     (Lemma 24)

(the hockey-stick divergence between the noise and its shift by phi).  We compute it by

* :func:`hockey_stick_quadrature` - fine-grid quadrature of the positive part, using only the density:
  the integrand is the positive part of the piecewise-linear interpolant of f(x + phi) - e^eps f(x)
  on a grid of step ``h``, integrated exactly (so the kinks where the integrand changes sign cost no
  extra error); accuracy O(h^2), checked by halving h;
* :func:`delta_of_epsilon` - its supremum over phi: a grid over [0, Delta] and a finer local grid around
  the best shift (an estimate of the supremum, not a certificate; the shift Delta itself is always
  included);
* :func:`pld_delta` - Google's ``dp_accounting`` privacy-loss-distribution library on the noise and its
  shift, both discretised into bins of width ``h`` (post-processing: a lower bound that converges to
  the continuous value as h -> 0);
* :func:`gaussian_delta` - ``dp_accounting``'s exact Gaussian privacy loss, to check the analytic
  Gaussian mechanism of the Section 1 work.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from safeguarded.gaussian_mixtures._validate import _real, check_epsilon, check_sensitivity, check_sigma
from safeguarded.validation import check_array, check_integer, check_positive

__all__ = ["hockey_stick_quadrature", "delta_of_epsilon", "pld_delta", "gaussian_delta"]


def _positive_part_integral(values: np.ndarray, h: float) -> np.ndarray:
    """Exact integral of the positive part of the piecewise-linear interpolant (last axis, step h)."""
    a, b = values[..., :-1], values[..., 1:]
    both = np.where((a > 0) & (b > 0), 0.5 * (a + b), 0.0)
    cross = (a > 0) != (b > 0)
    top = np.maximum(a, b)
    with np.errstate(divide="ignore", invalid="ignore"):
        part = np.where(cross, 0.5 * top * top / np.abs(a - b), 0.0)
    return h * (both + part).sum(axis=-1)


def _check_callable(name: str, f) -> None:
    if not callable(f):
        raise ValueError(f"{name} must be a callable of an array of x, got {type(f).__name__}")


def hockey_stick_quadrature(
    pdf: Callable[[np.ndarray], np.ndarray],
    phi,
    epsilon: float,
    lo: float,
    hi: float,
    h: float,
) -> np.ndarray:
    """int_{lo}^{hi} (pdf(x + phi) - e^eps pdf(x))^+ dx for each phi, on a grid of step <= h."""
    _check_callable("pdf", pdf)
    check_array("phi", phi, nonempty=False)
    e = check_epsilon(epsilon)
    lo, hi = _real("lo", lo), _real("hi", hi)
    if not hi > lo:
        raise ValueError(f"lo must be < hi, got lo={lo!r}, hi={hi!r}")
    h = check_positive("h", h)
    n = int(math.ceil((hi - lo) / h)) + 1
    x = np.linspace(lo, hi, n)
    step = x[1] - x[0]
    base = math.exp(e) * pdf(x)
    phis = np.atleast_1d(np.asarray(phi, dtype=float))
    out = np.empty(len(phis))
    for i, ph in enumerate(phis):
        out[i] = _positive_part_integral(pdf(x + ph) - base, step)
    return out


def delta_of_epsilon(
    pdf: Callable[[np.ndarray], np.ndarray],
    epsilon: float,
    sensitivity: float,
    sigma: float,
    radius: float,
    *,
    points_per_sigma: int = 100,
    n_phi: int = 65,
) -> tuple[float, float]:
    """(delta(eps), worst phi) for a symmetric density: sup over phi in [0, Delta] of the quadrature.

    ``radius``: the density is treated as zero outside [-radius - Delta, radius] (pick radius so the
    mass outside is negligible, e.g. the largest mixture mean + 12 sigma).  The shift grid has
    ``n_phi`` points (Delta included); the best one is refined on 33 points within one grid step, and
    the value there is recomputed with steps h/4 and h/8 and Richardson-extrapolated (relative accuracy
    about 1e-9 on the tight quasi-Gaussian cells, checked against adaptive quadrature between roots).
    """
    _check_callable("pdf", pdf)
    check_epsilon(epsilon)
    d, s = check_sensitivity(sensitivity), check_sigma(sigma)
    radius = check_positive("radius", _real("radius", radius))
    points_per_sigma = check_integer("points_per_sigma", points_per_sigma, minimum=1)
    n_phi = check_integer("n_phi", n_phi, minimum=2)
    h = min(s, d) / points_per_sigma
    lo, hi = -radius - d, radius

    def hs(phis):
        return hockey_stick_quadrature(pdf, phis, epsilon, lo, hi, h)

    grid = np.linspace(0.0, d, n_phi)
    vals = hs(grid)
    i = int(np.argmax(vals))
    step = grid[1] - grid[0]
    fine = np.clip(np.linspace(grid[i] - step, grid[i] + step, 33), 0.0, d)
    fvals = hs(fine)
    j = int(np.argmax(fvals))
    phi = float(fine[j]) if fvals[j] > vals[i] else float(grid[i])
    # at the worst shift: steps h/4 and h/8, Richardson-extrapolated (the quadrature error is O(h^2))
    i_h, i_h2 = (float(hockey_stick_quadrature(pdf, phi, epsilon, lo, hi, h / m)[0]) for m in (4, 8))
    return max((4 * i_h2 - i_h) / 3, 0.0), phi


def pld_delta(
    cdf: Callable[[np.ndarray], np.ndarray],
    epsilon: float,
    sensitivity: float,
    radius: float,
    h: float,
    *,
    value_discretization_interval: float = 1e-4,
) -> float:
    """delta(eps) of the noise vs. its shift by Delta, by ``dp_accounting``'s PLD on binned noise.

    Bins of width h = Delta / m (m integer) on [-radius - Delta, radius + Delta] plus two tail bins; bin
    masses are differences of ``cdf``.  Binning is post-processing, so the value is a lower bound of the
    continuous delta(eps) for the shift Delta and converges to it as h -> 0.
    """
    from dp_accounting.pld import privacy_loss_distribution as pld

    _check_callable("cdf", cdf)
    e, d = check_epsilon(epsilon), check_sensitivity(sensitivity)
    radius = check_positive("radius", _real("radius", radius))
    h = check_positive("h", _real("h", h))
    check_positive("value_discretization_interval", _real("value_discretization_interval",
                                                             value_discretization_interval))
    m = max(1, round(d / h))
    step = d / m
    nb = int(math.ceil((radius + d) / step))
    edges = np.arange(-nb - m, nb + m + 1) * step  # shifted copy is an index shift by m
    cdfs = np.concatenate(([0.0], cdf(edges), [1.0]))
    mass = np.diff(cdfs)  # bin j covers (edges[j-1], edges[j]); first/last are tails
    lower = {j: math.log(p) for j, p in enumerate(mass) if p > 0}
    upper = {j - m: math.log(p) for j, p in enumerate(mass) if p > 0}  # X + Delta: bins move up by m
    dist = pld.from_two_probability_mass_functions(
        upper, lower, pessimistic_estimate=True, value_discretization_interval=value_discretization_interval
    )
    return float(dist.get_delta_for_epsilon(e))


def gaussian_delta(sigma: float, epsilon: float, sensitivity: float = 1.0) -> float:
    """delta(eps) of the Gaussian mechanism N(0, sigma^2), from ``dp_accounting`` (Balle-Wang exact)."""
    from dp_accounting.pld import privacy_loss_mechanism as plm

    s, e, d = check_sigma(sigma), check_epsilon(epsilon), check_sensitivity(sensitivity)
    return float(plm.GaussianPrivacyLoss(s, sensitivity=d).get_delta_for_epsilon(e))
