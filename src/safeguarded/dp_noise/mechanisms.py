"""Benchmark additive-noise mechanisms of thesis §1 (and §2): costs, densities and samplers.

Every mechanism perturbs a scalar query ``f`` of global sensitivity ``Δf`` (thesis L448) by additive
noise ``X̃`` so that the release is (ε, δ)-differentially private (definition L432–L436).  The two
loss functions of the thesis are the *amplitude* ``E|X̃|`` (ℓ1 loss) and the *power* ``E X̃²`` (ℓ2
loss) (L524).

Mechanisms (catalog §2.0):

* :class:`Laplace` — Laplace(0, Δf/ε), pure ε-DP (Dwork et al. 2006; L448).
* :class:`ClassicalGaussian` — σ = √(2 ln(1.25/δ))·Δf/ε (Dwork & Roth 2014, Thm A.1; L456, L1970).
  The theorem only guarantees privacy for ε < 1; the thesis uses it at ε = 1 as a benchmark and so do we.
* :class:`AnalyticGaussian` — the smallest σ with
  Φ(Δf/(2σ) − εσ/Δf) − e^ε·Φ(−Δf/(2σ) − εσ/Δf) ≤ δ (Balle & Wang 2018, Thm 8; L464, L1972), found
  by bracketing and bisection, evaluated in log space.
* :class:`TruncatedLaplace` — density B·e^{−|x|/λ} on [−A, A] with λ = Δf/ε,
  A = λ·log(1 + (e^ε − 1)/(2δ)) and B = 1/(2λ(1 − e^{−A/λ})) (Geng et al. 2020; L466, L887; closed
  forms of the GitHub supplement p. 4–5).
* :func:`geng_lower_bound_l1` — the "near-optimal lower bound" of Geng & Viswanath (2016, Thm 8) used in
  Table 1 (L887, footnote 3 L891), with the rule for its integer ``n`` exposed (catalog §5 A1).
* :class:`PiecewiseUniformNoise` — the noise returned by the LPs of :mod:`safeguarded.dp_noise.bounds`
  (cell masses, uniform inside each cell; restriction (2), L555).

Every mechanism exposes ``amplitude()`` (E|X̃|), ``power()`` (E X̃²), ``std()``, ``pdf(x)`` and
``sample(rng, size)`` with an explicit :class:`numpy.random.Generator`.
:func:`delta_of_density` is an independent numerical privacy verifier (δ as a function of ε of a
symmetric density, Lemma 24 / L2356–L2362) used by the tests.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import numpy as np
from scipy import special

from safeguarded.validation import check_bool, check_in_interval, check_integer, check_real

__all__ = [
    "validate_privacy",
    "Laplace",
    "ClassicalGaussian",
    "AnalyticGaussian",
    "TruncatedLaplace",
    "PiecewiseUniformNoise",
    "gaussian_classic_sigma",
    "analytic_gaussian_delta",
    "analytic_gaussian_sigma",
    "truncated_laplace_support",
    "geng_lower_bound_l1",
    "geng_n",
    "delta_of_density",
    "MECHANISMS",
]


# --------------------------------------------------------------------------------------------------
# validation
# --------------------------------------------------------------------------------------------------
def _finite_float(name: str, value) -> float:
    return check_real(name, value)


def validate_privacy(
    epsilon, delta, sensitivity=1.0, *, delta_positive: bool = False
) -> tuple[float, float, float]:
    """Check (ε, δ, Δf) and return them as floats.

    Parameters
    ----------
    epsilon
        Privacy loss ε; must be in (0, ∞).
    delta
        Failure probability δ; must be in [0, 1), or in (0, 1) when ``delta_positive``.
    sensitivity
        Global sensitivity Δf of the query; must be in (0, ∞).

    Raises
    ------
    ValueError
        naming the parameter and its valid range.
    """
    delta_positive = check_bool("delta_positive", delta_positive)
    eps = check_in_interval("epsilon", _finite_float("epsilon", epsilon), 0.0, math.inf)
    d = _finite_float("delta", delta)
    if delta_positive and not 0 < d < 1:
        raise ValueError(f"delta must be in (0, 1) for this mechanism, got delta={delta!r}")
    d = check_in_interval("delta", d, 0.0, 1.0, closed="left")
    s = check_in_interval("sensitivity", _finite_float("sensitivity", sensitivity), 0.0, math.inf)
    return eps, d, s


def _check_rng(rng) -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got rng={rng!r}")
    return rng


def _check_size(size):
    if size is None:
        return None
    sizes = (size,) if np.isscalar(size) else tuple(size)
    if any(int(s) != s or s < 0 for s in sizes):
        raise ValueError(f"size must be a non-negative integer or tuple of them, got size={size!r}")
    return size


# --------------------------------------------------------------------------------------------------
# closed-form calibrations
# --------------------------------------------------------------------------------------------------
def gaussian_classic_sigma(epsilon, delta, sensitivity=1.0) -> float:
    """σ = √(2 ln(1.25/δ))·Δf/ε of the classical Gaussian mechanism (Dwork & Roth Thm A.1; L456)."""
    eps, d, s = validate_privacy(epsilon, delta, sensitivity, delta_positive=True)
    return math.sqrt(2.0 * math.log(1.25 / d)) * s / eps


def _log_delta_ag(sigma: float, eps: float, sens: float) -> float:
    """log δ(σ) of the Gaussian mechanism (Balle & Wang 2018, Thm 8), stable in log space.

    δ(σ) = Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ); returns −inf when δ(σ) ≤ 0 numerically.
    """
    a = sens / (2.0 * sigma) - eps * sigma / sens
    b = -sens / (2.0 * sigma) - eps * sigma / sens
    la = special.log_ndtr(a)
    lb = eps + special.log_ndtr(b)
    if lb >= la:
        return -math.inf
    return float(la + np.log(-np.expm1(lb - la)))


def analytic_gaussian_delta(sigma, epsilon, sensitivity=1.0) -> float:
    """The exact δ(ε) of the Gaussian mechanism with standard deviation σ (Balle & Wang 2018, Thm 8)."""
    eps, _, s = validate_privacy(epsilon, 0.0, sensitivity)
    sig = _finite_float("sigma", sigma)
    if sig <= 0:
        raise ValueError(f"sigma must be in (0, inf), got sigma={sigma!r}")
    return math.exp(_log_delta_ag(sig, eps, s))


def analytic_gaussian_sigma(epsilon, delta, sensitivity=1.0, *, rtol: float = 1e-14) -> float:
    """Smallest σ such that N(0, σ²) noise is (ε, δ)-DP (analytic Gaussian, Balle & Wang 2018 Thm 8).

    δ(σ) is strictly decreasing in σ (from 1 at σ → 0 to 0 at σ → ∞), so σ is the root of
    log δ(σ) = log δ, bracketed by doubling/halving and found by bisection in log σ to relative
    tolerance ``rtol``.  The result is the upper end of the final bracket, so δ(σ) ≤ δ always holds.
    Scale equivariance σ(ε, δ, Δ) = Δ·σ(ε, δ, 1) is used to work with Δ = 1.
    """
    eps, d, s = validate_privacy(epsilon, delta, sensitivity, delta_positive=True)
    if not 0 < rtol < 1e-3:
        raise ValueError(f"rtol must be in (0, 1e-3), got rtol={rtol!r}")
    target = math.log(d)

    def excess(sig: float) -> float:  # > 0 when σ is too small
        return _log_delta_ag(sig, eps, 1.0) - target

    lo, hi = 1.0, 1.0
    while excess(lo) <= 0:
        lo /= 2.0
        if lo < 1e-300:  # pragma: no cover - δ(σ) → 1 as σ → 0 and δ < 1
            raise RuntimeError("analytic Gaussian: could not bracket sigma from below")
    while excess(hi) > 0:
        hi *= 2.0
        if hi > 1e300:  # pragma: no cover
            raise RuntimeError("analytic Gaussian: could not bracket sigma from above")
    llo, lhi = math.log(lo), math.log(hi)
    while lhi - llo > rtol:
        mid = 0.5 * (llo + lhi)
        if excess(math.exp(mid)) > 0:
            llo = mid
        else:
            lhi = mid
    return s * math.exp(lhi)


def truncated_laplace_support(epsilon, delta, sensitivity=1.0) -> float:
    """Half-width A = (Δf/ε)·log(1 + (e^ε − 1)/(2δ)) of the truncated Laplace mechanism (Geng et al. 2020)."""
    eps, d, s = validate_privacy(epsilon, delta, sensitivity, delta_positive=True)
    return s / eps * _tlap_log1pq(eps, d)


def _tlap_log_q(eps: float, d: float) -> float:
    """log q with q = (e^ε − 1)/(2δ), without overflow."""
    return eps + math.log(-math.expm1(-eps)) - math.log(2.0 * d)


def _tlap_log1pq(eps: float, d: float) -> float:
    return float(np.logaddexp(0.0, _tlap_log_q(eps, d)))


# --------------------------------------------------------------------------------------------------
# Geng et al. near-optimal lower bound
# --------------------------------------------------------------------------------------------------
GENG_N_RULES = ("loop", "loop+1", "residual")


def geng_n(epsilon, delta) -> int:
    """The ``n`` of the authors' C++ loop (repo ``data_independent.cpp``; catalog §5 A1).

    With a = (δ + (e^ε − 1)/2)/e^ε and b = e^{−ε}: the largest n with Σ_{k<n} a·b^k ≤ 1/2.
    """
    eps, d, _ = validate_privacy(epsilon, delta, 1.0)
    a = (d + 0.5 * math.expm1(eps)) * math.exp(-eps)
    b = math.exp(-eps)
    total, n = 0.0, 0
    while total + a * b**n <= 0.5:
        total += a * b**n
        n += 1
        if n > 10**7:  # pragma: no cover - a·b^n → 0 only if b < 1, which holds for ε > 0
            raise RuntimeError("geng_n did not terminate")
    return n


def geng_lower_bound_l1(epsilon, delta, sensitivity=1.0, *, n_rule="loop+1") -> float:
    """The "near-optimal lower bound" on E|X̃| of Geng & Viswanath (2016, Thm 8) as used in Table 1.

    LB = 2aΔf·Σ_{k=1}^{n−1} k·b^k with a = (δ + (e^ε − 1)/2)/e^ε and b = e^{−ε} (repo C++ lines 390–398).

    Parameters
    ----------
    n_rule
        How the integer ``n`` is chosen — the thesis calls it a "non-monotonic parameter rounding"
        (footnote 3, L891) and does not define it (catalog §5 A1):

        * ``"loop"``: the repo loop's n (:func:`geng_n`);
        * ``"loop+1"``: n + 1, which reproduces most cells of Tables 1/5 and the Fig. 3 constants
          (the default; it is *not* guaranteed to be a valid lower bound);
        * ``"residual"``: the greedy bound with the remaining mass 1/2 − Σ_{k<n} a b^k placed at
          distance nΔf, i.e. 2Δf[Σ_{k=1}^{n−1} k a b^k + n(1/2 − Σ_{k<n} a b^k)];
        * an ``int`` ≥ 1: that n.
    """
    eps, d, s = validate_privacy(epsilon, delta, sensitivity)
    a = (d + 0.5 * math.expm1(eps)) * math.exp(-eps)
    b = math.exp(-eps)
    n0 = geng_n(eps, d)
    if isinstance(n_rule, int | np.integer) and not isinstance(n_rule, bool):
        if n_rule < 1:
            raise ValueError(f"n_rule must be >= 1 when an integer, got n_rule={n_rule!r}")
        n = int(n_rule)
    elif n_rule == "loop":
        n = n0
    elif n_rule in ("loop+1", "residual"):
        n = n0 + 1 if n_rule == "loop+1" else n0
    else:
        raise ValueError(f"n_rule must be one of {GENG_N_RULES} or a positive int, got n_rule={n_rule!r}")
    k = np.arange(1, n)
    value = 2.0 * a * s * float(np.sum(k * b**k))
    if n_rule == "residual":
        mass = a * float(np.sum(b ** np.arange(n)))
        value += 2.0 * s * n * max(0.5 - mass, 0.0)
    return value


# --------------------------------------------------------------------------------------------------
# mechanisms
# --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Mechanism:
    epsilon: float
    delta: float = 0.0
    sensitivity: float = 1.0
    name: str = field(default="", init=False)

    def std(self) -> float:
        """Standard deviation √(E X̃²) (the mechanisms are centred)."""
        return math.sqrt(self.power())

    def cost(self, loss: str) -> float:
        """E c(X̃) for ``loss`` in {"l1", "l2"} (amplitude or power, L524)."""
        if loss == "l1":
            return self.amplitude()
        if loss == "l2":
            return self.power()
        raise ValueError(f"loss must be 'l1' or 'l2', got loss={loss!r}")


@dataclass(frozen=True)
class Laplace(_Mechanism):
    """Laplace(0, b) with b = Δf/ε: ε-DP for any δ ≥ 0 (Dwork et al. 2006; L448)."""

    name: str = field(default="Laplace", init=False)

    def __post_init__(self):
        validate_privacy(self.epsilon, self.delta, self.sensitivity)

    @property
    def scale(self) -> float:
        return self.sensitivity / self.epsilon

    def amplitude(self) -> float:
        return self.scale

    def power(self) -> float:
        return 2.0 * self.scale**2

    def pdf(self, x):
        x = np.asarray(x, dtype=float)
        return np.exp(-np.abs(x) / self.scale) / (2.0 * self.scale)

    def sample(self, rng, size=None):
        return _check_rng(rng).laplace(0.0, self.scale, size=_check_size(size))


@dataclass(frozen=True)
class _GaussianBase(_Mechanism):
    def __post_init__(self):
        validate_privacy(self.epsilon, self.delta, self.sensitivity, delta_positive=True)

    def amplitude(self) -> float:
        return self.sigma * math.sqrt(2.0 / math.pi)

    def power(self) -> float:
        return self.sigma**2

    def pdf(self, x):
        x = np.asarray(x, dtype=float)
        return np.exp(-0.5 * (x / self.sigma) ** 2) / (self.sigma * math.sqrt(2.0 * math.pi))

    def sample(self, rng, size=None):
        return _check_rng(rng).normal(0.0, self.sigma, size=_check_size(size))


@dataclass(frozen=True)
class ClassicalGaussian(_GaussianBase):
    """N(0, σ²) with σ = √(2 ln(1.25/δ))·Δf/ε ("GN" in Tables 2–3; Dwork & Roth Thm A.1, L456)."""

    name: str = field(default="Gaussian", init=False)

    @property
    def sigma(self) -> float:
        return gaussian_classic_sigma(self.epsilon, self.delta, self.sensitivity)


@dataclass(frozen=True)
class AnalyticGaussian(_GaussianBase):
    """N(0, σ²) with the smallest private σ ("(GN)", "A-G"; Balle & Wang 2018 Thm 8; L464, L1972)."""

    name: str = field(default="Analytic Gaussian", init=False)

    def __post_init__(self):
        super().__post_init__()
        object.__setattr__(
            self, "_sigma", analytic_gaussian_sigma(self.epsilon, self.delta, self.sensitivity)
        )

    @property
    def sigma(self) -> float:
        return self._sigma


@dataclass(frozen=True)
class TruncatedLaplace(_Mechanism):
    """Truncated Laplace noise B·e^{−|x|/λ} on [−A, A] ("TLN"/"TLap"; Geng et al. 2020; L466, L887).

    λ = Δf/ε, A = λ·log(1 + q), B = 1/(2λ(1 − e^{−A/λ})), with q = (e^ε − 1)/(2δ).  Closed forms
    (GitHub supplement p. 4–5): E|X̃| = λ(1 − log(1+q)/q), E X̃² = 2λ²(1 − (log(1+q) + ½log²(1+q))/q).
    """

    name: str = field(default="Truncated Laplace", init=False)

    def __post_init__(self):
        validate_privacy(self.epsilon, self.delta, self.sensitivity, delta_positive=True)

    @property
    def lam(self) -> float:
        return self.sensitivity / self.epsilon

    @property
    def log1pq(self) -> float:
        """a = A/λ = log(1 + q)."""
        return _tlap_log1pq(self.epsilon, self.delta)

    @property
    def support(self) -> float:
        """Half-width A of the support."""
        return self.lam * self.log1pq

    @property
    def B(self) -> float:
        return 1.0 / (2.0 * self.lam * -math.expm1(-self.log1pq))

    def _a_over_q(self, power: int = 1) -> float:
        a = self.log1pq
        return a**power * math.exp(-_tlap_log_q(self.epsilon, self.delta))

    def amplitude(self) -> float:
        return self.lam * (1.0 - self._a_over_q(1))

    def power(self) -> float:
        return 2.0 * self.lam**2 * (1.0 - self._a_over_q(1) - 0.5 * self._a_over_q(2))

    def pdf(self, x):
        x = np.asarray(x, dtype=float)
        return np.where(np.abs(x) <= self.support, self.B * np.exp(-np.abs(x) / self.lam), 0.0)

    def sample(self, rng, size=None):
        """Inverse-CDF sampler (supp. p. 4–5): F(x) = Bλ(e^{x/λ} − e^{−A/λ}) for x ≤ 0."""
        u = _check_rng(rng).random(size=_check_size(size))
        tail = np.minimum(u, 1.0 - u)
        x = self.lam * np.log(tail / (self.B * self.lam) + math.exp(-self.log1pq))  # ≤ 0
        return np.where(u < 0.5, x, -x)


@dataclass(frozen=True)
class PiecewiseUniformNoise:
    """Noise with mass ``masses[j]`` spread uniformly on ``[edges[j], edges[j+1])`` (restriction (2), L555).

    This is the noise returned by the bounding LPs; sampling picks a cell with probability p_j and then
    a uniform point inside it (supp. p. 4; repo ``optimal_noise``), here by inverting the piecewise-linear
    CDF with one uniform per draw (exact: the cell is the one whose CDF interval holds u, and the position
    inside it is uniform given the cell).
    """

    edges: np.ndarray
    masses: np.ndarray
    name: str = "Optimised noise"

    def __post_init__(self):
        edges = np.asarray(self.edges, dtype=float)
        masses = np.asarray(self.masses, dtype=float)
        if edges.ndim != 1 or edges.size < 2 or np.any(np.diff(edges) <= 0):
            raise ValueError("edges must be a strictly increasing 1-D array with at least 2 entries")
        if masses.shape != (edges.size - 1,):
            raise ValueError(f"masses must have shape ({edges.size - 1},), got {masses.shape}")
        if np.any(masses < -1e-9) or abs(masses.sum() - 1.0) > 1e-6:
            raise ValueError(f"masses must be non-negative and sum to 1, got sum={masses.sum()!r}")
        masses = np.clip(masses, 0.0, None)
        object.__setattr__(self, "edges", edges)
        object.__setattr__(self, "masses", masses / masses.sum())

    def amplitude(self) -> float:
        a, b = self.edges[:-1], self.edges[1:]
        inside = (a < 0) & (b > 0)
        mean_abs = np.where(inside, (a**2 + b**2) / (2.0 * (b - a)), np.abs(a + b) / 2.0)
        return float(np.dot(self.masses, mean_abs))

    def power(self) -> float:
        a, b = self.edges[:-1], self.edges[1:]
        return float(np.dot(self.masses, (a * a + a * b + b * b) / 3.0))

    def mean(self) -> float:
        return float(np.dot(self.masses, (self.edges[:-1] + self.edges[1:]) / 2.0))

    def std(self) -> float:
        return math.sqrt(max(self.power() - self.mean() ** 2, 0.0))

    def cost(self, loss: str) -> float:
        if loss == "l1":
            return self.amplitude()
        if loss == "l2":
            return self.power()
        raise ValueError(f"loss must be 'l1' or 'l2', got loss={loss!r}")

    def pdf(self, x):
        x = np.asarray(x, dtype=float)
        j = np.searchsorted(self.edges, x, side="right") - 1
        valid = (j >= 0) & (j < self.masses.size)
        jj = np.clip(j, 0, self.masses.size - 1)
        dens = self.masses[jj] / np.diff(self.edges)[jj]
        return np.where(valid, dens, 0.0)

    def sample(self, rng, size=None):
        """Inverse-CDF draws: u ~ U[0, 1), cell j with F(a_j) ≤ u < F(b_j) among the cells of positive
        mass, x = a_j + (u − F(a_j))/p_j·(b_j − a_j)."""
        cum, lo, left, width, mass = self._inverse_cdf_table
        u = _check_rng(rng).random(size=_check_size(size))
        j = np.minimum(np.searchsorted(cum, u, side="right"), cum.size - 1)
        return left[j] + np.clip((u - lo[j]) / mass[j], 0.0, 1.0) * width[j]

    @functools.cached_property
    def _inverse_cdf_table(self):
        keep = self.masses > 0
        mass = self.masses[keep]
        cum = np.cumsum(mass)
        lo = np.concatenate([[0.0], cum[:-1]])
        return cum, lo, self.edges[:-1][keep], np.diff(self.edges)[keep], mass


MECHANISMS = {
    "laplace": Laplace,
    "gaussian": ClassicalGaussian,
    "analytic_gaussian": AnalyticGaussian,
    "truncated_laplace": TruncatedLaplace,
}


# --------------------------------------------------------------------------------------------------
# independent numerical verifier
# --------------------------------------------------------------------------------------------------
def delta_of_density(pdf, epsilon, sensitivity=1.0, *, lim: float, n_grid: int = 200_001, n_shift=101):
    """Numerical δ(ε) = sup_{φ∈[0, Δf]} ∫ (f(x + φ) − e^ε f(x))⁺ dx of a symmetric density ``f``.

    This is the privacy profile of additive noise (Lemma 24, L2356–L2362); symmetry lets φ range over
    [0, Δf].  The integral is a Riemann sum on ``[-lim, lim]`` with ``n_grid`` points; used by the
    tests as an oracle independent of the calibration formulas.
    """
    if not callable(pdf):
        raise ValueError(f"pdf must be a callable density x -> f(x), got {type(pdf).__name__}")
    eps, _, s = validate_privacy(epsilon, 0.0, sensitivity)
    lim = _finite_float("lim", lim)
    if lim <= 0:
        raise ValueError(f"lim must be in (0, inf), got lim={lim!r}")
    n_grid = check_integer("n_grid", n_grid, minimum=2)
    n_shift = check_integer("n_shift", n_shift, minimum=1)
    x = np.linspace(-lim, lim, int(n_grid))
    dx = x[1] - x[0]
    fx = np.asarray(pdf(x), dtype=float)
    best = 0.0
    for phi in np.linspace(0.0, s, int(n_shift)):
        diff = np.asarray(pdf(x + phi), dtype=float) - math.exp(eps) * fx
        best = max(best, float(np.sum(np.clip(diff, 0.0, None)) * dx))
    return best
