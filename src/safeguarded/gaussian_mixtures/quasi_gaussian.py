"""The quasi-Gaussian mixture mechanism (thesis Section 2.2).

Density (Definition 2, eq. (25)), for privacy level epsilon, sensitivity Delta and scale sigma::

    f_q(x; sigma) = [e^eps exp(-x^2 / 2 sigma^2) + exp(-(|x| - Delta)^2 / 2 sigma^2)] / c,
    c = sqrt(2 pi) sigma (e^eps + 2 Phi(Delta / sigma)).

Calibration (Theorem 3): the mechanism is (eps, delta)-DP when sigma >= max(sigma_1, sigma_2), with
sigma_1 from (26a)-(26b) (bisection, Lemma 20) and sigma_2 from (27a)-(27b) (bisection, Lemma 22, with
the max/min of f_q on [0, Delta] from Algorithm 5 / Lemma 21).  Algorithm 4 combines both.

All densities and ratios are evaluated in log space and every e^eps is divided out of numerators and
denominators, so the formulas stay finite for large eps and tiny delta.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import special

from safeguarded.gaussian_mixtures._roots import golden_section_max, smallest_feasible
from safeguarded.gaussian_mixtures._validate import (
    check_delta,
    check_epsilon,
    check_rng,
    check_sensitivity,
    check_sigma,
    check_size,
)
from safeguarded.validation import check_array, check_in_interval, check_positive

__all__ = [
    "logpdf",
    "pdf",
    "cdf",
    "sample",
    "amplitude",
    "power",
    "psi1",
    "extrema",
    "log_ratio_minus_eps",
    "sigma1",
    "sigma2",
    "QGCalibration",
    "calibrate",
]

_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)


def _checked(sigma, epsilon, sensitivity) -> tuple[float, float, float]:
    return check_sigma(sigma), check_epsilon(epsilon), check_sensitivity(sensitivity)


def _log_norm(s: float, e: float, d: float) -> float:
    """log c - eps, with c the normaliser of (25)."""
    return math.log(s) + _LOG_SQRT_2PI + math.log1p(2.0 * special.ndtr(d / s) * math.exp(-e))


def logpdf(x, sigma: float, epsilon: float, sensitivity: float = 1.0) -> np.ndarray:
    """log f_q(x; sigma) of (25), computed as a log-sum-exp."""
    s, e, d = _checked(sigma, epsilon, sensitivity)
    ax = np.abs(check_array("x", x, nonempty=False))
    a = -(ax**2) / (2 * s * s)
    b = -e - (ax - d) ** 2 / (2 * s * s)
    return np.logaddexp(a, b) - _log_norm(s, e, d)


def pdf(x, sigma: float, epsilon: float, sensitivity: float = 1.0) -> np.ndarray:
    """The density f_q(x; sigma) of Definition 2, eq. (25)."""
    return np.exp(logpdf(x, sigma, epsilon, sensitivity))


def cdf(x, sigma: float, epsilon: float, sensitivity: float = 1.0) -> np.ndarray:
    """F_q(x; sigma), App. 2.A.2 (L2272); for x >= 0 written as 1 - F_q(-x) by symmetry (stable tails)."""
    s, e, d = _checked(sigma, epsilon, sensitivity)
    x = check_array("x", x, nonempty=False)
    den = 1.0 + 2.0 * math.exp(-e) * special.ndtr(d / s)

    def left(u):  # F_q(u) for u <= 0, numerator and denominator divided by e^eps
        return (special.ndtr(u / s) + math.exp(-e) * special.ndtr((u + d) / s)) / den

    return np.where(x < 0, left(np.minimum(x, 0.0)), 1.0 - left(-np.maximum(x, 0.0)))


def sample(size: int, sigma: float, epsilon: float, sensitivity: float = 1.0, *, rng) -> np.ndarray:
    """Draw ``size`` samples by Algorithm 8 (App. 2.A.3), with the typos of the text fixed.

    theta ~ Bernoulli(e^eps / (e^eps + 2 Phi(Delta/sigma))) picks the central Gaussian N(0, sigma^2);
    otherwise a Gaussian with mean Delta truncated to [0, inf) is drawn by inversion and its sign flipped
    with probability 1/2.  The inversion uses Delta - sigma Phi^{-1}(p Phi(Delta/sigma)), equal in law to
    the text's Delta + sigma Phi^{-1}(Phi(-Delta/sigma) + p Phi(Delta/sigma)) (p -> 1 - p) and accurate in
    the upper tail.  The text's "Phi(mu/sigma)" is Phi(Delta/sigma) and "Update s = -x" is x <- -x.
    """
    s, e, d = _checked(sigma, epsilon, sensitivity)
    n = check_size(size)
    rng = check_rng(rng)
    p_central = 1.0 / (1.0 + 2.0 * math.exp(-e) * special.ndtr(d / s))
    theta = rng.random(n) < p_central
    z = rng.standard_normal(n) * s
    p = rng.random(n)
    t = d - s * special.ndtri(p * special.ndtr(d / s))
    flip = rng.random(n) < 0.5
    return np.where(theta, z, np.where(flip, -t, t))


def amplitude(sigma: float, epsilon: float, sensitivity: float = 1.0) -> float:
    """E|X| for X ~ f_q (App. 2.A.4, L2322), numerator and denominator divided by e^eps."""
    s, e, d = _checked(sigma, epsilon, sensitivity)
    w = math.exp(-e)
    phi = special.ndtr(d / s)
    num = math.sqrt(2 / math.pi) * s * (1.0 + w * math.exp(-(d * d) / (2 * s * s))) + 2 * d * w * phi
    return float(num / (1.0 + 2.0 * w * phi))


def power(sigma: float, epsilon: float, sensitivity: float = 1.0) -> float:
    """E X^2 for X ~ f_q (App. 2.A.4, L2350), numerator and denominator divided by e^eps."""
    s, e, d = _checked(sigma, epsilon, sensitivity)
    w = math.exp(-e)
    phi = special.ndtr(d / s)
    quasi = phi * (s * s + d * d) + s * d / math.sqrt(2 * math.pi) * math.exp(-(d * d) / (2 * s * s))
    return float((s * s + 2 * w * quasi) / (1.0 + 2.0 * w * phi))


# --------------------------------------------------------------------------- Theorem 3: sigma_1


def psi1(sigma: float, epsilon: float, delta: float, sensitivity: float = 1.0) -> float:
    """(h_1 + h_2)(sigma) of (26b) divided by e^eps (same sign); sigma_1 is its smallest root (26a).

    h_1 = e^{2 eps} Phi(-eps sigma/Delta - Delta/sigma) - Phi(-eps sigma/Delta + Delta/sigma),
    h_2 = (e^eps + 2 Phi(Delta/sigma)) delta.  The e^{2 eps} Phi(.) term is evaluated as
    exp(eps + log Phi(.)) after the division, so it neither overflows nor underflows to 0 * inf.
    """
    s, e, d = _checked(sigma, epsilon, sensitivity)
    dl = check_delta(delta)
    t1 = math.exp(e + special.log_ndtr(-e * s / d - d / s))
    t2 = math.exp(-e) * special.ndtr(-e * s / d + d / s)
    return float(t1 - t2 + (1.0 + 2.0 * math.exp(-e) * special.ndtr(d / s)) * dl)


def sigma1_is_zero(epsilon: float, delta: float) -> bool:
    """Lemma 20: h_1 + h_2 >= 0 for every sigma when e^eps + 2 >= 1/delta (then sigma_1 = 0)."""
    e, dl = check_epsilon(epsilon), check_delta(delta)
    return 1.0 / dl <= 2.0 or e >= math.log(1.0 / dl - 2.0)


def sigma1(epsilon: float, delta: float, sensitivity: float = 1.0, *, rtol: float = 1e-12) -> float:
    """sigma_1 of (26a): bisection (Brent) on (0, sqrt(2(eps - log delta)) Delta / eps) (Lemma 20).

    Returns 0 when e^eps + 2 >= 1/delta (Lemma 20; Algorithm 4's first branch).  The returned value
    satisfies h_1 + h_2 >= 0 (feasible side of the tolerance).
    """
    e, dl, d = check_epsilon(epsilon), check_delta(delta), check_sensitivity(sensitivity)
    check_in_interval("rtol", rtol, 0.0, 1.0)
    if sigma1_is_zero(e, dl):
        return 0.0
    hi = math.sqrt(2 * (e - math.log(dl))) * d / e
    lo = hi * 1e-3
    while psi1(lo, e, dl, d) >= 0 and lo > hi * 1e-300:
        lo *= 1e-3
    return smallest_feasible(lambda s: -psi1(s, e, dl, d), lo, hi, rtol=rtol, name="sigma_1")


# --------------------------------------------------------------------------- Theorem 3: sigma_2


def _log_fq_half(x: float, s: float, e: float, d: float) -> float:
    """log f_q(x) + log c - eps on [0, Delta] (eq. (36)); the constant cancels in ratios."""
    return float(np.logaddexp(-(x * x) / (2 * s * s), -e - (x - d) ** 2 / (2 * s * s)))


def _log_g_positive(x: float, s: float, e: float, d: float) -> bool:
    """Sign of g(x) = -e^eps + ((Delta - x)/x) exp((2 x Delta - Delta^2)/(2 sigma^2)) (Lemma 21) > 0."""
    return math.log((d - x) / x) + (2 * x * d - d * d) / (2 * s * s) > e


@dataclass(frozen=True)
class Extrema:
    """Output of Algorithm 5: the arg-max / arg-min of f_q on [0, Delta] and the Lemma 21 landmarks."""

    x_max: float
    x_min: float
    log_fmax: float  # log f_q(x_max) (normalised density)
    log_fmin: float
    x1: float
    x2: float
    interior_min: bool  # case (iii) of Lemma 21 with the interior minimiser below f_q(Delta)


def extrema(sigma: float, epsilon: float, sensitivity: float = 1.0, *, xtol: float = 1e-13) -> Extrema:
    """Algorithm 5 (reconstructed; only its return line survives in the text, L2089).

    Reconstruction from the unabridged Lemma 21 (L2516-L2527):

    1. x_1, x_2 = (Delta -/+ sqrt((Delta^2 - 4 sigma^2)^+)) / 2  (so x_1 = x_2 = Delta/2 when
       Delta^2 <= 4 sigma^2).
    2. x_max = GOLDEN(0, x_1, f_q): f_q is unimodal on (0, x_1) with the global maximiser on [0, Delta].
    3. x_min = Delta, unless Delta^2 > 4 sigma^2 and g(x_2) > 0 (case (iii)); then
       y = GOLDEN(Delta/2, x_2, -f_q) and x_min = argmin{f_q(y), f_q(Delta)}.
    4. return f_q(x_max), f_q(x_min).

    Golden-section search runs on log f_q to absolute tolerance ``xtol * Delta`` in x.
    """
    s, e, d = _checked(sigma, epsilon, sensitivity)
    check_positive("xtol", xtol)
    disc = d * d - 4 * s * s
    root = math.sqrt(disc) if disc > 0 else 0.0
    x1, x2 = (d - root) / 2, (d + root) / 2
    x_max, lmax = golden_section_max(lambda x: _log_fq_half(x, s, e, d), 0.0, x1, xtol=xtol * d)
    x_min, lmin = d, _log_fq_half(d, s, e, d)
    interior = False
    if disc > 0 and _log_g_positive(x2, s, e, d):
        y, neg = golden_section_max(lambda x: -_log_fq_half(x, s, e, d), d / 2, x2, xtol=xtol * d)
        if -neg < lmin:
            x_min, lmin, interior = y, -neg, True
    shift = _log_norm(s, e, d)  # _log_fq_half - (log c - eps) = log f_q
    return Extrema(x_max, x_min, lmax - shift, lmin - shift, x1, x2, interior)


def log_ratio_minus_eps(sigma: float, epsilon: float, sensitivity: float = 1.0) -> float:
    """log(f_q,max / f_q,min)(sigma) - eps: psi_2 of Algorithm 4 in log form (nonincreasing, Lemma 22)."""
    ex = extrema(sigma, epsilon, sensitivity)
    return ex.log_fmax - ex.log_fmin - check_epsilon(epsilon)


def sigma2(epsilon: float, sensitivity: float = 1.0, *, rtol: float = 1e-12) -> float:
    """sigma_2 of (27a): bisection (Brent) of Algorithm 4 on (0, sqrt(Delta^2 / (2 eps))) (Lemma 22).

    Independent of delta.  The returned value satisfies f_q,max / f_q,min <= e^eps.
    """
    e, d = check_epsilon(epsilon), check_sensitivity(sensitivity)
    check_in_interval("rtol", rtol, 0.0, 1.0)
    hi = math.sqrt(d * d / (2 * e))
    lo = hi / 2
    while log_ratio_minus_eps(lo, e, d) <= 0 and lo > hi * 1e-6:
        lo /= 2
    return smallest_feasible(lambda s: log_ratio_minus_eps(s, e, d), lo, hi, rtol=rtol, name="sigma_2")


@dataclass(frozen=True)
class QGCalibration:
    """Result of Algorithm 4: sigma = max(sigma_1, sigma_2) and its parts."""

    sigma: float
    sigma1: float
    sigma2: float
    epsilon: float
    delta: float
    sensitivity: float

    @property
    def binding(self) -> str:
        return "sigma1" if self.sigma1 >= self.sigma2 else "sigma2"


def calibrate(
    epsilon: float, delta: float, sensitivity: float = 1.0, *, rtol: float = 1e-12
) -> QGCalibration:
    """Algorithm 4: the smallest sigma satisfying Theorem 3's sufficient condition.

    The text's if/else is garbled (L2060-L2076): the "else" belongs to "sigma_1 = 0" (Lemma 20 and the
    Fig. 11 caption); sigma_2 is always computed.
    """
    e, dl, d = check_epsilon(epsilon), check_delta(delta), check_sensitivity(sensitivity)
    check_in_interval("rtol", rtol, 0.0, 1.0)
    s1 = sigma1(e, dl, d, rtol=rtol)
    s2 = sigma2(e, d, rtol=rtol)
    return QGCalibration(max(s1, s2), s1, s2, e, dl, d)
