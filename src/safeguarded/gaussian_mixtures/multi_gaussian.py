"""The multi-Gaussian mixture mechanism (thesis Section 2.3).

Density (Definition 3, eq. (28)): 2K+1 Gaussians with common scale sigma, means k Delta and weights
proportional to e^{-|k| eps}, k = -K, ..., K::

    f_m(x; sigma, K) = (1/c_K) sum_k e^{-|k| eps} exp(-(x - k Delta)^2 / 2 sigma^2).

Calibration (Theorem 5, Lemma 23, Algorithms 6-7): the smallest sigma for which the *privacy shortfall*

    psi(sigma; eta) = min_phi int min{e^eps f_m(x) - f_m(x + phi), 0} dx + (1 - eta) delta >= 0

over the shift grid phi in {0, beta, ..., Delta}, beta = Delta / ceil(Delta / (sqrt(2 pi) eta sigma delta)).

Numerics (the thesis uses Julia QuadGK "with some algorithmic improvements", L2109, not described):
the integral for one shift, the hockey-stick divergence H(phi) = int (f_m(x+phi) - e^eps f_m(x))^+ dx,
is computed *exactly* up to root-finding accuracy: we locate the sign changes of
log f_m(x+phi) - log f_m(x) - eps (a dense scan in x plus vectorised bisection) and sum differences of
Gaussian CDFs over the intervals where the integrand is positive (errors in the roots enter only at
second order, since the integrand vanishes there).  Everything is in log space or uses complementary
CDFs in upper tails.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import special

from safeguarded.gaussian_mixtures._roots import smallest_feasible
from safeguarded.gaussian_mixtures._validate import (
    check_delta,
    check_epsilon,
    check_eta,
    check_k,
    check_rng,
    check_sensitivity,
    check_sigma,
    check_size,
)
from safeguarded.validation import check_array, check_in_interval, check_integer, check_positive

__all__ = [
    "log_weights",
    "logpdf",
    "pdf",
    "cdf",
    "sample",
    "amplitude",
    "power",
    "hockey_stick",
    "max_hockey_stick",
    "shift_grid",
    "shortfall",
    "MGCalibration",
    "calibrate",
]

_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)
#: x-range beyond the outermost means, in units of sigma (each component's mass beyond is < 1e-40).
_TAIL = 14.0
#: x-scan step in units of sigma for locating sign changes.
_SCAN = 1.0 / 6.0
#: Illinois iterations per root (superlinear; the scan already brackets each root within sigma/6).
_ILLINOIS_STEPS = 10


def _checked(sigma, epsilon, sensitivity, k) -> tuple[float, float, float, int]:
    return check_sigma(sigma), check_epsilon(epsilon), check_sensitivity(sensitivity), check_k(k)


def log_weights(epsilon: float, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Component indices -K..K and log mixture weights log(e^{-|k| eps} / sum_j e^{-|j| eps}) of (28)."""
    e, kk = check_epsilon(epsilon), check_k(k)
    ks = np.arange(-kk, kk + 1)
    lw = -np.abs(ks) * e
    return ks, lw - special.logsumexp(lw)


def _logpdf_full(x: np.ndarray, s: float, means: np.ndarray, lw: np.ndarray) -> np.ndarray:
    """log f_m at x (any shape): a max-shifted log-sum-exp over all components."""
    z = (x[..., None] - means) / s
    a = lw - 0.5 * z * z
    top = a.max(axis=-1)
    return top + np.log(np.exp(a - top[..., None]).sum(axis=-1)) - math.log(s) - _LOG_SQRT_2PI


def _logpdf(x: np.ndarray, s: float, means: np.ndarray, lw: np.ndarray) -> np.ndarray:
    """log f_m at x, summing only the 2h+1 components nearest to x.

    With lattice means k Delta and log weights -|k| eps, a component m lattice steps away from the one
    nearest to x has log-term at most m (eps - (m - 1) Delta^2 / 2 sigma^2) above it; for
    m - 1 >= h = ceil(2 sigma^2 (eps + 36) / Delta^2) that is <= -36 m, so the dropped terms change the
    sum by a relative 2K e^{-36} < 1e-14.  Falls back to all components when the window covers them.
    """
    nc = len(means)
    if nc < 3:
        return _logpdf_full(x, s, means, lw)
    kk = nc // 2
    d = means[1] - means[0]
    eps = lw[kk] - lw[kk + 1]
    h = int(math.ceil(2 * s * s * (eps + 36.0) / (d * d)))
    width = 2 * h + 1
    if width >= nc:
        return _logpdf_full(x, s, means, lw)
    centre = np.clip(np.rint(x / d), -kk, kk).astype(np.int64)
    start = np.clip(centre - h, -kk, kk - width + 1) + kk
    idx = start[..., None] + np.arange(width)
    z = (x[..., None] - means[idx]) / s
    a = lw[idx] - 0.5 * z * z
    top = a.max(axis=-1)
    return top + np.log(np.exp(a - top[..., None]).sum(axis=-1)) - math.log(s) - _LOG_SQRT_2PI


def logpdf(x, sigma: float, epsilon: float, sensitivity: float = 1.0, k: int = 1) -> np.ndarray:
    """log f_m(x; sigma, K) of (28) (log-sum-exp over the 2K+1 components)."""
    s, e, d, kk = _checked(sigma, epsilon, sensitivity, k)
    ks, lw = log_weights(e, kk)
    return _logpdf(check_array("x", x, nonempty=False), s, ks * d, lw)


def pdf(x, sigma: float, epsilon: float, sensitivity: float = 1.0, k: int = 1) -> np.ndarray:
    """The density f_m(x; sigma, K) of Definition 3, eq. (28)."""
    return np.exp(logpdf(x, sigma, epsilon, sensitivity, k))


def cdf(x, sigma: float, epsilon: float, sensitivity: float = 1.0, k: int = 1) -> np.ndarray:
    """F_m(x; sigma) = sum_k w_k Phi((x - k Delta)/sigma) (App. 2.B.1, L2732); upper tail via symmetry."""
    s, e, d, kk = _checked(sigma, epsilon, sensitivity, k)
    ks, lw = log_weights(e, kk)
    x = check_array("x", x, nonempty=False)
    w = np.exp(lw)

    def left(u):
        return (special.ndtr((u[..., None] - ks * d) / s) * w).sum(axis=-1)

    return np.where(x < 0, left(np.minimum(x, 0.0)), 1.0 - left(-np.maximum(x, 0.0)))


def sample(
    size: int, sigma: float, epsilon: float, sensitivity: float = 1.0, k: int = 1, *, rng
) -> np.ndarray:
    """Draw samples (App. 2.B.1, L2745): component k with probability w_k, then N(k Delta, sigma^2)."""
    s, e, d, kk = _checked(sigma, epsilon, sensitivity, k)
    n = check_size(size)
    rng = check_rng(rng)
    ks, lw = log_weights(e, kk)
    comp = rng.choice(ks, size=n, p=np.exp(lw) / np.exp(lw).sum())
    return comp * d + s * rng.standard_normal(n)


def amplitude(sigma: float, epsilon: float, sensitivity: float = 1.0, k: int = 1) -> float:
    """E|X| (App. 2.B.2, L2762, normalised by c_K):

    sum_k w_k [sigma sqrt(2/pi) e^{-k^2 Delta^2 / 2 sigma^2} + |k| Delta (1 - 2 Phi(-|k| Delta / sigma))].
    """
    s, e, d, kk = _checked(sigma, epsilon, sensitivity, k)
    ks, lw = log_weights(e, kk)
    m = np.abs(ks) * d
    terms = s * math.sqrt(2 / math.pi) * np.exp(-(m * m) / (2 * s * s)) + m * (1 - 2 * special.ndtr(-m / s))
    return float(np.exp(lw) @ terms)


def power(sigma: float, epsilon: float, sensitivity: float = 1.0, k: int = 1) -> float:
    """E X^2 = sum_k w_k (sigma^2 + k^2 Delta^2) (App. 2.B.2, L2781)."""
    s, e, d, kk = _checked(sigma, epsilon, sensitivity, k)
    ks, lw = log_weights(e, kk)
    return float(np.exp(lw) @ (s * s + (ks * d) ** 2))


# --------------------------------------------------------------------------- the integral of (29)


def _interval_mass(a: np.ndarray, b: np.ndarray, s: float, means: np.ndarray, w: np.ndarray) -> np.ndarray:
    """P(a < X < b) under f_m for arrays of intervals, with differences of CDFs taken on the side
    where they are accurate (lower CDFs left of each mean, survival functions right of it)."""
    za = (a[..., None] - means) / s
    zb = (b[..., None] - means) / s
    left = special.ndtr(zb) - special.ndtr(za)
    right = special.ndtr(-za) - special.ndtr(-zb)
    return (np.where(za >= 0, right, left) * w).sum(axis=-1)


def _valleys(means: np.ndarray, lw: np.ndarray, s: float) -> np.ndarray:
    """Where the dominant component of log f_m switches between neighbours k and k+1.

    log f_m is a soft maximum of parabolas lw_k - (x - k Delta)^2 / 2 sigma^2 with equally spaced
    vertices and concave intercepts, so every component owns one cell of the upper envelope and the
    envelope switches from k to k+1 at x = (mu_k + mu_{k+1})/2 + sigma^2 (lw_k - lw_{k+1}) / Delta.
    Around these points f_m has valleys of width ~ sigma^2 / Delta, where the integrand of (29) can be
    positive on intervals far narrower than sigma (large eps, small sigma).
    """
    gap = np.diff(means)
    return 0.5 * (means[:-1] + means[1:]) + s * s * (lw[:-1] - lw[1:]) / gap


def _hockey_rows(phis: np.ndarray, s: float, e: float, means: np.ndarray, lw: np.ndarray) -> np.ndarray:
    """H(phi) = int (f(x + phi) - e^eps f(x))^+ dx for each phi (exact up to root accuracy).

    Per phi, the sign of r(x) = log f(x + phi) - log f(x) - eps is scanned on a grid made of a uniform
    part (step sigma/6 over [min mean - phi - 14 sigma, max mean + 14 sigma]) and dense local parts
    (33 points over +-(4 sigma^2/Delta + sigma/12)) around the valleys of f(x) and of f(x + phi) (see
    :func:`_valleys`); between valleys r is nearly affine in x, so no root is missed.  Each sign change
    is refined by 10 Illinois steps (root errors enter H only at second order) and H is the sum of
    Gaussian-CDF differences over the intervals where r > 0.
    """
    phis = np.asarray(phis, dtype=float)
    m = len(phis)
    out = np.zeros(m)
    if m == 0 or phis.max() <= 0:
        return out
    w = np.exp(lw)
    lo = means[0] - phis.max() - _TAIL * s
    hi = means[-1] + _TAIL * s
    n = int(math.ceil((hi - lo) / (_SCAN * s))) + 1
    uniform = np.linspace(lo, hi, n)
    if len(means) > 1:
        width = 4 * s * s / float(np.min(np.diff(means))) + _SCAN * s / 2
        local = (_valleys(means, lw, s)[:, None] + np.linspace(-width, width, 33)).ravel()
        x = np.concatenate(
            (
                np.broadcast_to(uniform, (m, n)),
                np.broadcast_to(local, (m, local.size)),
                local - phis[:, None],
            ),
            axis=1,
        )
        x.sort(axis=1)
    else:
        x = np.broadcast_to(uniform, (m, n))
    rr = _logpdf(x + phis[:, None], s, means, lw) - _logpdf(x, s, means, lw) - e
    pos = rr > 0
    pos[phis <= 0] = False
    rows, cols = np.nonzero(pos[:, 1:] != pos[:, :-1])  # row-major: sorted by row, then x
    a, b = x[rows, cols], x[rows, cols + 1]
    fa, fb = rr[rows, cols], rr[rows, cols + 1]
    sa = pos[rows, cols]
    ph = phis[rows]
    # Illinois (modified regula falsi) on each bracket: r is smooth, nearly affine between valleys
    side = np.zeros(len(a), dtype=np.int8)
    for _ in range(_ILLINOIS_STEPS):
        with np.errstate(divide="ignore", invalid="ignore"):
            c = b - fb * (b - a) / (fb - fa)
        c = np.where(np.isfinite(c) & (c > np.minimum(a, b)) & (c < np.maximum(a, b)), c, 0.5 * (a + b))
        fc = _logpdf(c + ph, s, means, lw) - _logpdf(c, s, means, lw) - e
        left = (fc > 0) == sa  # root lies in (c, b): c replaces a
        fb = np.where(left & (side == 1), 0.5 * fb, fb)
        fa = np.where(~left & (side == -1), 0.5 * fa, fa)
        a, fa = np.where(left, c, a), np.where(left, fc, fa)
        b, fb = np.where(left, b, c), np.where(left, fb, fc)
        side = np.where(left, 1, -1).astype(np.int8)
    roots = np.where(np.abs(fa) < np.abs(fb), a, b)
    # interval after each root: (root, next root in the same row or +inf), sign = not(sign before root)
    nxt = np.append(roots[1:], np.inf)
    last = np.append(rows[1:] != rows[:-1], True)
    nxt[last] = np.inf
    # interval before the first root of each row (or the whole line): (-inf, first root), sign pos[:, 0]
    first_root = np.full(m, np.inf)
    is_first = np.append(True, rows[1:] != rows[:-1]) if len(rows) else np.zeros(0, bool)
    first_root[rows[is_first]] = roots[is_first]
    starts = np.concatenate((np.full(m, -np.inf), roots))
    ends = np.concatenate((first_root, nxt))
    owner = np.concatenate((np.arange(m), rows))
    sign = np.concatenate((pos[:, 0], ~sa))
    keep = sign & (phis[owner] > 0)
    if not keep.any():
        return out
    starts, ends, owner = starts[keep], ends[keep], owner[keep]
    shifted = _interval_mass(starts + phis[owner], ends + phis[owner], s, means, w)
    plain = _interval_mass(starts, ends, s, means, w)
    out = np.bincount(owner, weights=shifted - math.exp(e) * plain, minlength=m)
    return np.maximum(out, 0.0)


def hockey_stick(phi, sigma: float, epsilon: float, sensitivity: float = 1.0, k: int = 1) -> np.ndarray:
    """H(phi) = -int min{e^eps f_m(x) - f_m(x + phi), 0} dx, the integral of (29) with its sign flipped.

    This is the hockey-stick divergence of the output distributions of neighbouring data sets whose
    query values differ by phi; (eps, delta)-DP holds iff H(phi) <= delta for all phi in [0, Delta]
    (Lemma 24, proof of Theorem 5).
    """
    s, e, d, kk = _checked(sigma, epsilon, sensitivity, k)
    ks, lw = log_weights(e, kk)
    phis = np.atleast_1d(check_array("phi", phi, nonempty=False))
    if np.any(~np.isfinite(phis)) or np.any(phis < 0) or np.any(phis > d * (1 + 1e-12)):
        raise ValueError(f"phi must lie in [0, sensitivity={d:g}], got phi={phi!r}")
    return _hockey_rows(phis, s, e, ks * d, lw)


def max_hockey_stick(
    sigma: float, epsilon: float, sensitivity: float = 1.0, k: int = 1, *, n_scan: int | None = None
) -> tuple[float, float]:
    """(phi*, max_{phi in [0, Delta]} H(phi)): a scan over phi, refined at its local maxima.

    The scan step is min(Delta/32, sigma/6, sigma^2/(2 Delta)) (the sharpest peaks of H are about
    sigma^2/Delta wide); every scan local maximum within a factor 2 of the best is refined by two
    rounds of 7-point local scans and a parabolic vertex.  Used by :func:`calibrate`; the value is >=
    the maximum over Algorithm 7's grid up to the refinement accuracy.
    """
    s, e, d, kk = _checked(sigma, epsilon, sensitivity, k)
    if n_scan is not None:
        check_integer("n_scan", n_scan, minimum=2)
    ks, lw = log_weights(e, kk)
    means = ks * d
    step = min(d / 32, s / 6, s * s / (2 * d))  # the sharpest peaks of H(phi) are ~ sigma^2/Delta wide
    n = n_scan or int(min(8193, math.ceil(d / step) + 1))
    grid = np.linspace(0.0, d, n)
    vals = _hockey_rows(grid, s, e, means, lw)
    best = int(np.argmax(vals))
    phi_star, h_star = float(grid[best]), float(vals[best])
    peaks = [
        i
        for i in range(1, n - 1)
        if vals[i] >= vals[i - 1] and vals[i] >= vals[i + 1] and vals[i] >= 0.5 * h_star
    ]
    for i in peaks:
        # two rounds of a 7-point local scan around the peak, then the vertex of a parabola
        a, b = grid[i - 1], grid[i + 1]
        for _ in range(2):
            local = np.linspace(a, b, 7)
            lv = _hockey_rows(local, s, e, means, lw)
            j = int(np.clip(np.argmax(lv), 1, 5))
            a, b = local[j - 1], local[j + 1]
            if lv[j] > h_star:
                phi_star, h_star = float(local[j]), float(lv[j])
        y0, y1, y2 = lv[j - 1], lv[j], lv[j + 1]
        curv = y0 - 2 * y1 + y2
        if curv < 0:
            p = float(local[j] + 0.5 * (local[1] - local[0]) * (y0 - y2) / curv)
            hp = float(_hockey_rows(np.array([p]), s, e, means, lw)[0])
            if hp > h_star:
                phi_star, h_star = p, hp
    return phi_star, h_star


def shift_grid(sigma: float, delta: float, sensitivity: float = 1.0, eta: float = 0.01) -> np.ndarray:
    """Algorithm 7's shift grid {0, beta, ..., Delta}.

    beta = Delta / ceil(Delta / (sqrt(2 pi) eta sigma delta)), so beta <= sqrt(2 pi) eta sigma delta
    (Theorem 5) and beta divides Delta.
    """
    s, dl, d, et = check_sigma(sigma), check_delta(delta), check_sensitivity(sensitivity), check_eta(eta)
    m = math.ceil(d / (math.sqrt(2 * math.pi) * et * s * dl))
    return np.linspace(0.0, d, m + 1)


def shortfall(
    sigma: float,
    epsilon: float,
    delta: float,
    sensitivity: float = 1.0,
    k: int = 1,
    eta: float = 0.01,
    *,
    max_points: int = 2_000_000,
) -> float:
    """Algorithm 7 literally: psi(sigma; eta) = min over the shift grid of int min{...} dx + (1 - eta) delta.

    The grid has about Delta / (sqrt(2 pi) eta sigma delta) points, so this is meant for moderate delta
    (tests); :func:`calibrate` uses :func:`max_hockey_stick` instead.
    """
    s, e, d, kk = _checked(sigma, epsilon, sensitivity, k)
    dl, et = check_delta(delta), check_eta(eta)
    grid = shift_grid(s, dl, d, et)
    if len(grid) > max_points:
        raise ValueError(f"shift grid has {len(grid)} points > max_points={max_points}; use calibrate()")
    ks, lw = log_weights(e, kk)
    h = _hockey_rows(grid, s, e, ks * d, lw)
    return float(-h.max() + (1 - et) * dl)


@dataclass(frozen=True)
class MGCalibration:
    """Result of Algorithm 6 for one K."""

    sigma: float
    k: int
    eta: float
    epsilon: float
    delta: float
    sensitivity: float
    phi_star: float  # the worst shift at sigma
    max_divergence: float  # max_phi H(phi) at sigma (<= (1 - eta) delta)
    upper: float  # the bisection's upper end, sigma_AG(eps, (1 - eta) delta, Delta)


def analytic_gaussian_sigma(epsilon: float, delta: float, sensitivity: float = 1.0) -> float:
    """sigma of the analytic Gaussian mechanism, from the Section 1 work (``safeguarded.dp_noise``)."""
    from safeguarded.dp_noise.mechanisms import analytic_gaussian_sigma as ag

    return float(ag(epsilon, delta, sensitivity))


def calibrate(
    epsilon: float,
    delta: float,
    sensitivity: float = 1.0,
    k: int = 1,
    eta: float = 0.01,
    *,
    rtol: float = 1e-6,
    upper: float | None = None,
    guess: float | None = None,
) -> MGCalibration:
    """Algorithm 6: the smallest sigma in (0, sigma_AG(eps, (1 - eta) delta, Delta)) meeting (29).

    The violation max_phi H(phi; sigma) - (1 - eta) delta is nonincreasing in sigma (Lemma 23) and <= 0
    at the upper end (Lemma 23), so Brent's method on it is the thesis's bisection; the returned sigma is
    on the feasible side.  We bound the *continuous* maximum over phi in [0, Delta] (see
    :func:`max_hockey_stick`), which is at least the maximum over Algorithm 7's grid: the returned sigma
    is never below the thesis's and satisfies (eps, (1 - eta) delta)-DP up to the phi refinement.
    ``guess`` (optional, e.g. the sigma of the previous K) only narrows the initial bracket; the
    bracket is verified, so the result does not depend on it beyond the tolerance ``rtol``.
    """
    e, dl, d, kk = check_epsilon(epsilon), check_delta(delta), check_sensitivity(sensitivity), check_k(k)
    et = check_eta(eta)
    check_in_interval("rtol", rtol, 0.0, 1.0)
    if upper is not None:
        check_positive("upper", upper)
    if guess is not None:
        check_positive("guess", guess)
    hi = float(upper) if upper is not None else analytic_gaussian_sigma(e, (1 - et) * dl, d)
    check_sigma(hi)
    target = (1 - et) * dl

    memo: dict[float, tuple[float, float]] = {}

    def violation(s: float) -> float:  # log(max_phi H / target): smooth in sigma, <= 0 when feasible
        if s not in memo:
            memo[s] = max_hockey_stick(s, e, d, kk)
        h = memo[s][1]
        return math.log(h / target) if h > 0 else -math.inf

    top, lo = hi, None  # invariant: violation(lo) > 0 >= violation(hi)
    if guess is not None and 0 < guess < hi:  # a nearby solution (e.g. the previous K): narrow bracket
        for width in (0.005, 0.05):
            g_lo, g_hi = min(guess, hi) * (1 - width), min(hi, guess * (1 + width / 5))
            if violation(g_lo) <= 0:
                hi = g_lo
                continue
            lo = g_lo if lo is None else max(lo, g_lo)
            if g_hi > lo and violation(g_hi) <= 0:
                hi = g_hi
                break
            lo = max(lo, g_hi)
    if lo is None or lo >= hi:
        lo = hi / 2
    while violation(lo) <= 0 and lo > top * 1e-6:
        hi, lo = lo, lo / 2
    sigma = smallest_feasible(violation, lo, hi, rtol=rtol * top / hi, name="sigma")
    violation(sigma)
    phi_star, h_star = memo[sigma]
    return MGCalibration(sigma, kk, et, e, dl, d, phi_star, h_star, float(top))
